"""What each patch and read in this package relies on in Gradio, recorded from the version the
patches were written for (`SUPPORTED_VERSIONS`), and `moved()`, which names every patch whose
internals are gone or changed in the installed Gradio.

An entry is a dotted path (`module:attribute.attribute`, or `probe:...` for an attribute of the
objects a tiny page builds), optionally with the signature it had (`inspect.signature`, as text)
and a piece of its source (compared with runs of spaces as one) that says how Gradio uses what
the patch replaces (for instance that `Blocks.postprocess_data` reaches the thread pool through
`anyio.to_thread.run_sync`). A patched
object is compared through its marks to Gradio's own (`marks.unpatched`).
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from typing import Any

from playground.gradio_compat.marks import unpatched


@dataclass(frozen=True)
class Internal:
    path: str
    signature: str | None = None
    source_has: str | None = None


RELIED_ON: dict[str, tuple[Internal, ...]] = {
    "session_ids": (
        Internal("gradio.state_holder:SessionState.__setitem__", "(self, key: 'int', value: 'Any')"),
        Internal("gradio.state_holder:SessionState._update_config", "(self, key: 'int')"),
        Internal("gradio.state_holder:SessionState._update_value_in_config", "(self, key: 'int', value: 'Any')"),
        Internal("probe:session.blocks_config.blocks"), Internal("probe:session._state_ttl"), Internal("probe:session.state_data"),
        Internal("probe:state.time_to_live"), Internal("probe:textbox._id"),
    ),
    "lazy_session_configs": (
        Internal("gradio.state_holder:SessionState.__init__", "(self, blocks: 'Blocks')", "blocks.default_config"),
        Internal("probe:blocks.default_config"), Internal("probe:session.config_values"),
    ),
    "skipped_outputs": (
        Internal("gradio.blocks:Blocks.postprocess_data",
                 "(self, block_fn: 'BlockFunction', predictions: 'list | dict', state: 'SessionState | None') -> 'list[Any]'",
                 "state[block._id] = block.__class__(**kwargs)"),
        Internal("probe:fn.outputs"), Internal("probe:fn.batch"), Internal("probe:fn.is_validator_function"),
    ),
    "display_updates": (
        Internal("gradio.blocks:Blocks.postprocess_data", None, "state[block._id] = block.__class__(**kwargs)"),
        Internal("gradio.blocks:Blocks.postprocess_data", None, "utils.delete_none( prediction_value, skip_value=True )"),
        Internal("gradio.blocks:postprocess_update_dict", "(block: 'Component | BlockContext', update_dict: 'dict', postprocess: 'bool' = True)"),
        Internal("gradio.utils:delete_none", "(_dict: dict, skip_value: bool = False, skip_props: list[str] | None = None) -> dict"),
        Internal("probe:textbox._constructor_args"), Internal("probe:textbox.placeholder"), Internal("probe:textbox.visible"),
    ),
    "inline_processing": (
        Internal("gradio.blocks:anyio"),
        Internal("gradio.blocks:Blocks.preprocess_data", None, "await anyio.to_thread.run_sync(\n                            block.preprocess"),
        Internal("gradio.blocks:Blocks.postprocess_data", None, "await anyio.to_thread.run_sync(\n                            block.postprocess"),
        Internal("gradio.blocks:Blocks.call_function", None, "fn, *processed_input, limiter=self.limiter"),
    ),
    "output_messages": (
        Internal("gradio.server_messages:ProcessGeneratingMessage.model_fields"),
        Internal("gradio.server_messages:ProcessCompletedMessage.model_fields"),
        Internal("gradio.routes:App.create_app", None, "orjson.dumps(message.model_dump(), default=str)"),
    ),
    "whole_updates": (
        Internal("gradio.utils:diff", "(old, new)"),
        Internal("gradio.utils:is_prop_update", "(val)"),
        Internal("gradio.blocks:Blocks.handle_streaming_diffs", None, "utils.diff(prev_chunk, data[i])"),
    ),
    "no_matplotlib": (
        Internal("gradio.utils:MatplotlibBackendMananger"),
    ),
    "chatbot_memo": (
        Internal("gradio.components.chatbot:Chatbot._postprocess",
                 "(self, message: 'MessageDict | Message | ChatMessage | NormalizedMessageDict') -> 'list[Message] | None'"),
        Internal("gradio.components.chatbot:Chatbot._check_format",
                 "(messages: 'list[MessageDict | Message | ChatMessage | NormalizedMessageDict]')"),
        Internal("gradio.components.chatbot:ChatbotDataMessages"),
        Internal("probe:chatbot.reasoning_tags"),
        Internal("gradio.processing_utils:async_move_files_to_cache",
                 "(data: 'Any', block: 'Block', postprocess: 'bool' = False, check_in_upload_folder=False, keep_in_cache=False) -> 'dict'"),
        Internal("gradio.processing_utils:add_root_url", "(data: 'dict | list', root_url: 'str', previous_root_url: 'str | None')"),
        Internal("gradio.blocks:Blocks.postprocess_data", None, "await processing_utils.async_move_files_to_cache("),
    ),
    "patient_launch": (
        Internal("gradio.networking:url_ok", "(url: 'str') -> 'bool'"),
        Internal("gradio.blocks:Blocks.launch", None, "not networking.url_ok(self.local_url)"),
    ),
    "signatures_once": (
        Internal("gradio.blocks:inspect"), Internal("gradio.component_meta:inspect"),
        Internal("gradio.component_meta:updateable", None, "inspect.getfullargspec(fn)"),
    ),
    "one_page_config": (
        Internal("gradio.routes:App.setup_mcp_server",
                 "(blocks: 'gradio.Blocks', app_kwargs: 'dict[str, Any]', mcp_server: 'bool | None' = None)",
                 "blocks.config = (\n            blocks.get_config_file()"),
        Internal("gradio.routes:API_PREFIX"), Internal("probe:blocks.mcp_server"),
        Internal("gradio.blocks:Blocks.get_config_file", None, '"i18n_translations"'),
    ),
    "upload_button_schema": (
        Internal("gradio.components.upload_button:UploadButton.api_info", "(self) -> 'dict[str, list[str]]'"),
    ),
    "apps_on_first_use": (
        Internal("gradio.routes:App.create_app",
                 "(blocks: 'gradio.Blocks', app: 'App | None' = None, app_kwargs: 'dict[str, Any] | None' = None, "
                 "auth_dependency: 'Callable[[fastapi.Request], str | None | Awaitable[str | None]] | None' = None, "
                 "strict_cors: 'bool' = True, mcp_server: 'bool | None' = None, debug: 'bool' = False, "
                 "parent_app: 'fastapi.FastAPI | None' = None) -> 'App'"),
        Internal("gradio.blocks:Blocks.__exit__", None, "self.app = App.create_app(self, mcp_server=False)"),
    ),
    "page_without_api": (
        Internal("gradio.blocks:BlocksConfig.get_config", "(self, renderable: 'Renderable | None' = None)",
                 "block_config = self.config_for_block(_id, rendered_ids, block, renderable)"),
        Internal("gradio.blocks:BlocksConfig.config_for_block",
                 "(_id: 'int', rendered_ids: 'list[int]', block: 'Block | Component', renderable: 'Renderable | None' = None) -> 'dict'",
                 '"skip_api": block.skip_api, "component_class_id": getattr(block, "component_class_id", None), "key": block.unique_key(),'),
        Internal("gradio.blocks:BlocksConfig.config_for_block", None, 'block_config["example_inputs"] = block.example_inputs()'),
        Internal("gradio.blocks:Blocks.get_api_info", None, 'if not fn.fn or fn.api_visibility == "private": continue'),
        Internal("probe:fn.api_visibility"), Internal("probe:blocks.fns"),
    ),
    "lean_page_config": (
        Internal("gradio.blocks:Blocks.get_config_file", "(self) -> 'BlocksConfigDict'", "config.update(self.default_config.get_config())"),
        Internal("gradio.blocks:BlocksConfig.get_config", None, 'config["layout"] = layout'),
        Internal("gradio.blocks:BlocksConfig.config_for_block", None, '"component_class_id": getattr(block, "component_class_id", None),'),
        Internal("gradio.block_function:BlockFunction.get_config", None, '"scroll_to_output": self.scroll_to_output,'),
        Internal("gradio.route_utils:update_root_in_config", "(config: 'BlocksConfigDict', root: 'str') -> 'BlocksConfigDict'"),
        Internal("gradio.routes:App.create_app", None, 'filtered_config["layout"] = utils.safe_deepcopy(page_config["layout"])'),
        Internal("gradio.routes:App.create_app", None, "config = route_utils.update_root_in_config(config, root)"),
        Internal("gradio.blocks:Block.get_block_name", None, 'hasattr(self, "is_template")'), Internal("probe:blocks.blocks"),
    ),
    "progress_targets": (
        Internal("probe:fn.show_progress_on"), Internal("probe:fn.show_progress"), Internal("probe:fn.queue"),
        Internal("probe:blocks.fns"),
    ),
    "private_api": (
        Internal("probe:fn.api_visibility"), Internal("probe:blocks.fns"),
    ),
    "request_context": (
        Internal("gradio.context:LocalContext.request"),
    ),
    "root_block": (
        Internal("gradio.context:Context.root_block"),
    ),
    "i18n_text": (
        Internal("gradio.i18n:I18nData"), Internal("probe:translated.key"),
    ),
    "forget_closed_sessions": (
        Internal("gradio.state_holder:StateHolder.delete_state", "(self, session_id: 'str', expired_only: 'bool' = False)"),
        Internal("gradio.state_holder:StateHolder.__init__", None, "self.time_last_used"),
        Internal("gradio.state_holder:StateHolder.__init__", None, "self.lock = threading.Lock()"),
        Internal("gradio.routes:App.__init__", None, "self.state_holder = StateHolder()"),
        Internal("gradio.queueing:Queue.__init__", None, "self.pending_event_ids_session"),
        Internal("gradio.queueing:Queue.__init__", None, "self.event_ids_to_events"),
        Internal("gradio.queueing:Queue.__init__", None, "self.pending_messages_per_session"),
        Internal("gradio.blocks:Blocks.__init__", None, "self.pending_streams = defaultdict(dict)"),
        Internal("gradio.blocks:Blocks.__init__", None, "self.pending_diff_streams = defaultdict(dict)"),
        Internal("gradio.routes:App.create_app", None, "app.state_holder.session_data[session_hash].is_closed = True"),
    ),
    "first_paint_locale": (
        Internal("gradio.routes:templates.TemplateResponse",
                 "(request: 'Request', name: 'str', context: 'dict[str, Any] | None' = None, status_code: 'int' = 200, "
                 "headers: 'Mapping[str, str] | None' = None, media_type: 'str | None' = None, background: 'BackgroundTask | None' = None)"
                 " -> '_TemplateResponse'"),
        Internal("gradio.routes:App.create_app", None, "resp = templates.TemplateResponse("),
        Internal("gradio.routes:App.create_app", None, '"frontend/share.html" if blocks.share else "frontend/index.html"'),
    ),
    "indexed_page_tree": (
        Internal("gradio.routes:file_response", "(developer_path: 'DeveloperPath', user_path: 'UserProvidedPath')"),
        Internal("gradio.routes:App.create_app", None, "return file_response(BUILD_PATH_LIB, UserProvidedPath(path))"),
        Internal("gradio.routes:BUILD_PATH_LIB"),
    ),
    "tracked_states": (
        Internal("gradio.blocks:Blocks.get_state_ids_to_track",
                 "(self, block_fn: 'BlockFunction', state: 'SessionState | None') -> 'tuple[list[int], list]'",
                 '(block._id, "change") in fn.targets for fn in state.blocks_config.fns.values()'),
        Internal("gradio.blocks:Blocks.process_api", None, "self.get_state_ids_to_track(block_fn, state)"),
        Internal("gradio.utils:deep_hash"), Internal("probe:session.blocks_config.fns"),
    ),
    "template_components": (
        Internal("gradio.blocks:Block.get_block_name", "(self) -> 'str'", 'hasattr(self, "is_template")'),
    ),
}


def _probe() -> dict[str, Any]:
    """The objects a tiny page gives: what the `probe:` entries are read from."""
    import gradio as gr
    from gradio.state_holder import SessionState

    with gr.Blocks() as blocks:
        state = gr.State()
        textbox = gr.Textbox()
        gr.Button().click(lambda text: text, textbox, textbox)
    return {"blocks": blocks, "fn": next(iter(blocks.fns.values())), "session": SessionState(blocks), "state": state,
            "textbox": textbox, "chatbot": gr.Chatbot(render=False), "translated": gr.I18n(en={"k": "v"})("k")}


def _resolve(path: str, probe: dict[str, Any]) -> Any:
    where, _, attributes = path.partition(":")
    names = attributes.split(".")
    target = probe[names.pop(0)] if where == "probe" else importlib.import_module(where)
    for name in names:
        target = getattr(unpatched(target), name)
    return unpatched(target)


def _problem(internal: Internal, probe: dict[str, Any]) -> str | None:
    try:
        target = _resolve(internal.path, probe)
    except (AttributeError, ImportError, KeyError) as error:
        return f"{internal.path} is gone ({error})"
    if internal.signature is not None:
        try:
            found = str(inspect.signature(target))
        except (TypeError, ValueError):
            found = "(no signature)"
        if found != internal.signature:
            return f"{internal.path} is now {found}, was {internal.signature}"
    if internal.source_has is not None:
        try:
            source = inspect.getsource(target)
        except (OSError, TypeError):
            source = ""
        if " ".join(internal.source_has.split()) not in " ".join(source.split()):
            return f"{internal.path} no longer does {internal.source_has!r}"
    return None


def problems(patch: str, probe: dict[str, Any] | None = None) -> list[str]:
    """What moved of the internals `patch` relies on (nothing: it finds them as recorded)."""
    probe = probe if probe is not None else _probe()
    return [problem for internal in RELIED_ON[patch] if (problem := _problem(internal, probe)) is not None]


def moved() -> dict[str, list[str]]:
    """Every patch (or read) whose internals are gone or changed, with what moved."""
    probe = _probe()
    return {patch: found for patch in RELIED_ON if (found := problems(patch, probe))}
