"""The interface's words come from one catalogue file per language (`playground/ui/i18n/locales/`,
English and Simplified Chinese): no key is missing in any language, every key the code asks for
exists, the converted modules write no interface text outside the catalogue, and a visitor's
language is read as one of the known locales or not at all."""

from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

import pytest
from gradio.context import LocalContext

from playground.ui import i18n

ROOT = Path(__file__).resolve().parents[3]
TEXT_KEYWORDS = {"label", "info", "placeholder"}
SHOWN_VALUE = {"Button", "Markdown", "HTML", "UploadButton"}
"""Components whose value is text the interface writes (a Textbox's or Dropdown's value is data)."""
TEXT_FIRST_ARG = {"Accordion", "Tab", "Checkbox"} | SHOWN_VALUE
"""Components whose first positional argument is a label or shown text."""
WRAPPED_COMPONENTS = {"uploaded_image"}
"""Our functions that make a `gr.*` component and pass its label through."""


def module_path(name: str) -> Path:
    return ROOT / (name.replace(".", "/") + ".py")


def is_text(node: ast.AST) -> bool:
    """A literal an interface would show: a non-empty string or an f-string."""
    return (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip() != "") or isinstance(node, ast.JoinedStr)


def module_texts(tree: ast.Module) -> dict[str, ast.AST]:
    """Module-level names bound to a literal text (`HELP = "Describe…"`): passing one to a label is
    writing that text outside the catalogue too."""
    texts = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and is_text(node.value):
            texts.update({target.id: node.value for target in node.targets if isinstance(target, ast.Name)})
    return texts


def written_outside(tree: ast.Module) -> list[str]:
    found = []
    named = module_texts(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        gradio = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "gr"
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if gradio or name in WRAPPED_COMPONENTS:
            texts = [kw.value for kw in node.keywords if kw.arg in TEXT_KEYWORDS or (kw.arg == "value" and name in SHOWN_VALUE)]
            if name in TEXT_FIRST_ARG and node.args:
                texts.append(node.args[0])
        elif name == "Example":
            texts = list(node.args[:2])
        else:
            continue
        texts = [named.get(text.id, text) if isinstance(text, ast.Name) else text for text in texts]
        found += [f"line {text.lineno}: gr.{name}({ast.unparse(text)[:60]})" for text in texts if is_text(text)]
    return found


def test_every_language_has_every_key() -> None:
    """Each locale's own file (not the loaded catalogue, which shows English for a missing key)."""
    for locale in i18n.LOCALES:
        own = json.loads((i18n.LOCALES_DIR / f"{locale.code}.json").read_text(encoding="utf-8"))
        assert set(own) == set(i18n.EN), f"{locale.code}: missing {sorted(set(i18n.EN) - set(own))}; unknown {sorted(set(own) - set(i18n.EN))}"
        assert all(value.strip() for value in own.values()), locale.code


def test_the_page_carries_each_language_once_under_a_tag_every_alias_falls_back_to() -> None:
    """Gradio's page inlines the catalogue: one copy per language (a copy per alias was 79 KB each).
    The page looks a word up in its locale's parents (`zh-SG` -> `zh` -> `en`), so the one tag is
    the language's primary subtag, and every tag of the locale starts with it."""
    pages = i18n.I18N.translations_dict
    assert list(pages) == [locale.page_tag for locale in i18n.LOCALES] == ["en", "zh"]
    for locale in i18n.LOCALES:
        assert pages[locale.page_tag] == i18n.CATALOGUE.page_words(locale.code)
        assert all(tag.split("-")[0] == locale.page_tag for tag in locale.tags), locale
    pseudo = i18n.Locale("en-XA", "Pseudo")  # a locale whose primary language is another's keeps its own tag
    assert pseudo.page_tag == "en-XA"


def test_a_locale_file_with_a_key_english_lacks_is_refused(tmp_path: Path) -> None:
    (tmp_path / "en.json").write_text('{"a.key": "A text"}', encoding="utf-8")
    (tmp_path / "xx.json").write_text('{"a.key": "Ein Text", "a.typo": "Tippfehler"}', encoding="utf-8")
    with pytest.raises(ValueError, match="a.typo"):
        i18n.load([i18n.Locale("en", "English"), i18n.Locale("xx", "X")], tmp_path)
    (tmp_path / "xx.json").write_text('{}', encoding="utf-8")
    assert i18n.load([i18n.Locale("en", "English"), i18n.Locale("xx", "X")], tmp_path).texts["xx"] == {"a.key": "A text"}, "a missing key shows English"


def test_every_key_the_code_asks_for_is_in_the_catalogue() -> None:
    used = set()
    for path in (ROOT / "playground" / "ui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "t" and node.args and isinstance(node.args[0], ast.Constant):
                used.add(node.args[0].value)
    assert used, "no module uses the catalogue"
    assert used <= set(i18n.EN), f"keys not in the catalogue: {sorted(used - set(i18n.EN))}"


@pytest.mark.parametrize("module", i18n.CONVERTED_MODULES)
def test_converted_modules_write_no_interface_text_outside_the_catalogue(module: str) -> None:
    importlib.import_module(module)
    found = written_outside(ast.parse(module_path(module).read_text(encoding="utf-8")))
    assert not found, f"{module} writes interface text outside the catalogue:\n" + "\n".join(found)


def test_an_unknown_key_fails_at_once() -> None:
    with pytest.raises(KeyError):
        i18n.t("no.such.key")


def test_the_guard_finds_literals_in_labels_constants_and_examples() -> None:
    source = """
HELP = "Describe the picture."
gr.Textbox(label="Prompt", info=HELP)
gr.Button(f"Send {n}")
gr.Markdown(t("ok.key"))
Example("Try it", t("ok.key"), {})
gr.Dropdown(label=t("ok.key") + " 1")
"""
    found = written_outside(ast.parse(source))
    assert len(found) == 4 and all(any(word in line for line in found) for word in ("Prompt", "Describe", "Send", "Try it"))


def test_every_converted_module_of_the_interface_is_listed() -> None:
    """A module that builds components with labels but is not in CONVERTED_MODULES is named."""
    unlisted = []
    for path in sorted((ROOT / "playground" / "ui").glob("*.py")):
        module = f"playground.ui.{path.stem}"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        labelled = any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                       and node.func.value.id == "gr" and any(kw.arg in TEXT_KEYWORDS for kw in node.keywords) for node in ast.walk(tree))
        if labelled and module not in i18n.CONVERTED_MODULES:
            unlisted.append(module)
    assert not unlisted, f"modules with labels outside CONVERTED_MODULES: {unlisted}"


class FakeRequest:
    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers


@pytest.mark.parametrize(("headers", "language"), [
    ({}, "en"),
    ({"accept-language": "zh-CN,zh;q=0.9,en;q=0.8"}, "zh-CN"),
    ({"accept-language": "en-US,en;q=0.9,zh;q=0.8"}, "en"),
    ({"accept-language": "zh-CN", "cookie": "other=1; gateway-playground-language=en"}, "en"),
    ({"accept-language": "en-US", "cookie": "gateway-playground-language=zh-CN"}, "zh-CN"),
    ({"accept-language": "zh-TW"}, "zh-CN"),  # by its primary language
    ({"accept-language": "en-US", "cookie": "gateway-playground-language=zh-Hans"}, "zh-CN"),  # an alias
    ({"accept-language": "zh-CN", "cookie": "gateway-playground-language=__proto__"}, "zh-CN"),  # unknown: ignored
    ({"accept-language": "en-US", "cookie": "gateway-playground-language=fr"}, "en"),
    ({"accept-language": "fr-FR,zh;q=0.9", "cookie": "gateway-playground-language=%E0"}, "en"),
])
def test_handler_texts_follow_the_switch_then_the_browser(headers: dict[str, str], language: str) -> None:
    token = LocalContext.request.set(FakeRequest(headers))  # type: ignore[arg-type]
    try:
        assert i18n.visitor_language() == language
        assert i18n.say("note.branch_shown", branch=3) == i18n.CATALOGUE.texts[language]["note.branch_shown"].format(branch=3)
    finally:
        LocalContext.request.reset(token)


def test_a_speaking_block_words_in_its_language_over_the_events_and_an_unknown_one_is_ignored() -> None:
    """For a long-running event whose visitor switched languages after it was sent (the Video board's watcher)."""
    token = LocalContext.request.set(FakeRequest({"cookie": "gateway-playground-language=en"}))  # type: ignore[arg-type]
    try:
        with i18n.speaking("zh-CN"):
            assert i18n.visitor_language() == "zh-CN"
            with i18n.speaking("__proto__"):
                assert i18n.visitor_language() == "en", "an unknown code is no language: the event's own"
            with i18n.speaking(None):
                assert i18n.visitor_language() == "en"
            assert i18n.visitor_language() == "zh-CN"
        assert i18n.visitor_language() == "en"
    finally:
        LocalContext.request.reset(token)


def test_outside_an_event_handler_texts_are_english() -> None:
    assert i18n.visitor_language() == "en"
    assert i18n.say("note.branch_shown", branch=2) == "Showing branch 2."


def test_every_catalogue_text_with_places_fills_in_both_languages() -> None:
    """The `{name}` places of a text are the same in every language (a handler fills them)."""
    import string

    for key, english in i18n.EN.items():
        places = {name for _, name, _, _ in string.Formatter().parse(english) if name}
        if places and not key.startswith(("batch.", "batch_vars.")):
            for locale in i18n.LOCALES[1:]:
                translated = {name for _, name, _, _ in string.Formatter().parse(i18n.CATALOGUE.texts[locale.code][key]) if name}
                assert places == translated, (locale.code, key)


def test_every_error_heading_of_the_client_is_in_the_catalogue() -> None:
    from playground.client import egress, errors, limits

    headed = {cls.__name__: vars(cls)["title"] for module in (errors, egress, limits) for cls in vars(module).values()
              if isinstance(cls, type) and issubclass(cls, errors.GatewayError) and "title" in vars(cls)}
    assert len(headed) > 10 and [name for name in headed if f"error.{name}" not in i18n.EN] == []
    assert all(i18n.EN[f"error.{name}"] == title for name, title in headed.items())
