"""The page's first paint in the visitor's language when the browser asks for it by a tag Gradio does not
know (`zh-SG`, `zh-Hans`, `zh`): a script in the page's HTML, run before Gradio's own.

Gradio 6.31 picks the page's first locale once, as its app starts (`setupi18n`): the browser's language
(`navigator.language`, svelte-i18n's `getLocaleFromNavigator`) when it is one of Gradio's own locales
(its `lang/*.json`: `zh-CN`, `zh-TW`, ...), else that language's primary tag when that is one (`zh` is
not), else English. The app's own catalogue (`gr.I18n`, Chinese once under `zh`) is added as messages
but never counts as a locale there, so a `zh-SG` browser was painted in English and turned Chinese only
when the page's load script applied the language (about a second later). The `setupi18n` call takes no
locale from the server (its second argument, an Accept-Language, is never passed), so the locale cannot be
given in the page's config.

The script, inserted into the page's HTML before Gradio's module script (which runs deferred, after it),
asks the app's own rule (`choose_js`, from the UI: the link's `lang`, the cookie, the browser) which
locale the page will show. Only when Gradio would fall back to English for the browser's tag and the
app's choice is one of Gradio's own locales does it make the browser's language read as that locale
(`navigator.language`, for this page), so Gradio starts in it. A browser whose tag Gradio knows
(`zh-CN`, `zh-TW`, `en`) is left as it is.

What it relies on is checked in Gradio's bundle and page template (`moved_in_frontend`, tested by
`tests/gradio_compat/test_first_paint.py`); off a supported version the page gets no script.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gradio
import gradio.routes

from playground.gradio_compat.marks import mark, patch_of

FRONTEND = Path(gradio.__file__).parent / "templates" / "frontend"
MODULE_SCRIPT = b'<script type="module" crossorigin src="./assets/index-'
"""Gradio's app in the page template: the script is inserted before it."""
PAGE_TEMPLATE = "frontend/index.html"
FRONTEND_RELIES_ON = (
    "let r=null,i=M();if(r=t?vt(t):i&&mt.includes(i)?i:null,!r){let e=i?.split(`-`)[0];r=e&&mt.includes(e)?e:`en`}"
    "await se({fallbackLocale:`en`,initialLocale:r})",
    "var $=pt(),mt=Object.keys($)",
    "zt=()=>typeof window>`u`?null:window.navigator.language||window.navigator.languages[0]",
    "export{Dt as a,zt as i,",
    "import{a as se,i as M,n as N,o as P,r as F,t as I}from\"./runtime-",
)
"""Pieces of the 6.31 bundle: `setupi18n` picking the first locale from the browser's language among
Gradio's own (`mt`, the keys of its `lang/*.json` and `en`), else its primary tag, else English; the
browser's language read from `navigator.language` (the runtime's `zt`, exported as `i` and imported by
the core as `M`)."""
LANG_FILE = re.compile(r'"\./lang/([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\.json"')
PATCH = "first_paint_locale"

_state: dict[str, bytes] = {"script": b""}


def gradio_locales() -> tuple[str, ...]:
    """Gradio's own locales as its page knows them (the core bundle's `lang/*.json`, and `en`)."""
    found: set[str] = {"en"}
    for script in (FRONTEND / "assets").glob("core-*.js"):
        found.update(LANG_FILE.findall(script.read_text(encoding="utf-8", errors="replace")))
    return tuple(sorted(found))


def first_paint_script(choose_js: str, own: tuple[str, ...]) -> str:
    """The page's script: `choose_js` is `() => code`, the locale the app will show ("" for none known)."""
    return f"""<script>(() => {{
  const own = {json.dumps(list(own))};
  const tag = String(navigator.language || (navigator.languages || [])[0] || "");
  if (own.includes(tag) || own.includes(tag.split("-")[0])) return;
  let wanted = "";
  try {{
    wanted = String(({choose_js})() || "");
  }} catch (error) {{
    wanted = "";
  }}
  if (!wanted || wanted === "en" || !own.includes(wanted)) return;
  Object.defineProperty(navigator, "language", {{get: () => wanted, configurable: true}});
}})();</script>"""


def _with_script(original: Callable[..., Any]) -> Callable[..., Any]:
    def template_response(*args: Any, **kwargs: Any) -> Any:
        response = original(*args, **kwargs)
        name = kwargs.get("name", args[1] if len(args) > 1 else None)
        script = _state["script"]
        body = getattr(response, "body", b"")
        if name == PAGE_TEMPLATE and script and isinstance(body, bytes) and MODULE_SCRIPT in body:
            response.body = body.replace(MODULE_SCRIPT, script + MODULE_SCRIPT, 1)
            response.headers["content-length"] = str(len(response.body))
        return response

    return mark(template_response, PATCH, original)


def install(choose_js: str) -> None:
    """Serve the page with the script (idempotent; a later call replaces the script)."""
    _state["script"] = first_paint_script(choose_js, gradio_locales()).encode("utf-8")
    templates = gradio.routes.templates
    if patch_of(templates.TemplateResponse) != PATCH:
        templates.TemplateResponse = _with_script(templates.TemplateResponse)  # type: ignore[method-assign]  # the page's one render


def moved_in_frontend() -> list[str]:
    """The pieces of `FRONTEND_RELIES_ON` (and the page template's module script) that Gradio no longer holds."""
    missing = list(FRONTEND_RELIES_ON)
    assets = FRONTEND / "assets"
    for script in (*assets.glob("core-*.js"), *assets.glob("runtime-*.js")):
        text = script.read_text(encoding="utf-8", errors="replace")
        missing = [piece for piece in missing if piece not in text]
    if MODULE_SCRIPT not in (FRONTEND / "index.html").read_bytes():
        missing.append(MODULE_SCRIPT.decode())
    return missing
