"""What a person types into a box that has just appeared stays typed (`keep_typed_on_reveal`): a
page script that stops Gradio's page from writing a newly shown component's first value over it.

Gradio 6.31 mounts the content of a closed accordion, and of a tab not yet opened, only when it is
first shown (`AppTree.render_previously_invisible_children`, on the page's `gradio_expand` and
`gradio_tab_select`). The components mount and take input at once, but after a tick, Svelte's
`settled()` and one animation frame the page pushes every prop of each such node again (`#p`),
its `value` too, as it stood when the page was built: a number typed into Chat's "Max tokens" in
that gap became 0 again (issue 40: on a loaded machine the frame comes late; a browser test filled
in 1.5 as soon as the box showed and read back 0). Gradio's `update_state` reads a component's
live state back into its node before it pushes (`#m`: `value`, `open`, `selected`); this push
does not.

The script wraps that public method of the page's `AppTree` (exported by Gradio's core module;
the callbacks a node registers are bound when the page is built, so the method is the one place
left to hook): while a reveal runs, each thing a person does on the page (`PERSON_EVENTS`, heard
on the document once the page's own handlers have run) reads the live state of every node being
revealed (`AppTree.get_state`) back into the node, as `update_state` does, so the push carries
what was typed (a value equal to the node's, an equal list or object too, is left as it is).
Nothing else changes: no push is dropped, and a server update still wins (it writes the node
and the component alike).

What it relies on is checked in Gradio's core bundle (`moved_in_frontend`, tested by
`tests/gradio_compat/test_revealed_inputs.py`); off a supported version (the patches off) the
page gets no script and behaves as Gradio draws it.
"""

from __future__ import annotations

import json
from pathlib import Path

import gradio

LIVE_KEYS = ("value", "open", "selected")
"""A component's live state, as Gradio's `update_state` reads it back before it pushes (`Te`)."""
PERSON_EVENTS = ("input", "change", "click", "keyup")
"""What a person does that may change a component's value: typing, picking, ticking, clicking an
option; each is followed by reading the revealed components' state back into their nodes."""
MARK = "__playgroundKeepsTyped"
"""Set on `AppTree.prototype` once wrapped, so a second run of the script changes nothing."""
FRONTEND_RELIES_ON = (
    "Ee as AppTree",
    "var Te=[`value`,`open`,`selected`]",
    "async render_previously_invisible_children(e){let t=Z(this.root,e);if(!t)return;let n=[];"
    "if(K(t,this.#d,n,!0),n.length!==0){q(t,this.#r.api_url),await C(),await x(),"
    "await new Promise(e=>requestAnimationFrame(e));for(let e of n)this.#p(e)}}",
    "for(let n in e.props.props){if(n===`id`)continue;let r=e.props.props[n];r!==void 0&&(t[n]=r)}",
    "async get_state(e){let t=this.#s.get(e),n=Z(this.root,e);return!t&&!n?null:t?await t():",
    "async get_data(){return c(this.props)}",
    "O.render_previously_invisible_children(r)",
    "`visible`in t&&this.#d.delete(e)",
)
"""Pieces of the 6.31 bundle: the tree class exported as `AppTree`, the live-state keys, the
reveal that pushes each revealed node after a frame, the push of every prop of the node (`#p`),
the live state read from a component's own callback (a snapshot of its props), the page calling
the reveal through the tree (so the wrapped method is used), and that a node is revealed only
while hidden (`#d`)."""

KEEP_TYPED_JS = """() => {
  const core = performance.getEntriesByType("resource").map((entry) => entry.name).find((name) => /\\/assets\\/core-[^/]+\\.js$/.test(name));
  if (!core) return;
  import(core).then((module) => {
    const tree = module.AppTree && module.AppTree.prototype;
    if (!tree || tree.MARK || typeof tree.render_previously_invisible_children !== "function" || typeof tree.get_state !== "function") return;
    tree.MARK = true;
    const LIVE = LIVE_KEYS;
    const EVENTS = PERSON_EVENTS;
    const same = (a, b) => a === b || (typeof a === "object" && typeof b === "object" && a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b));
    const find = (node, id) => {
      if (node.id === id) return node;
      for (const child of node.children || []) {
        const found = find(child, id);
        if (found) return found;
      }
      return null;
    };
    const hidden = (node, found) => {
      for (const child of node.children || []) {
        if (child.props && child.props.shared_props && child.props.shared_props.visible === false) found.push(child);
        hidden(child, found);
      }
      return found;
    };
    const reveal = tree.render_previously_invisible_children;
    tree.render_previously_invisible_children = async function (id) {
      const shown = find(this.root, id);
      const nodes = shown ? hidden(shown, []) : [];
      if (!nodes.length) return reveal.call(this, id);
      const keep = () => Promise.all(nodes.map(async (node) => {
        const state = await this.get_state(node.id);
        if (!state || !node.props || !node.props.props) return;
        for (const key of LIVE) {
          if (key in state && !same(state[key], node.props.props[key])) node.props.props[key] = state[key];
        }
      }));
      for (const name of EVENTS) document.addEventListener(name, keep);
      try {
        return await reveal.call(this, id);
      } finally {
        for (const name of EVENTS) document.removeEventListener(name, keep);
      }
    };
  });
}""".replace("MARK", MARK).replace("LIVE_KEYS", json.dumps(list(LIVE_KEYS))).replace("PERSON_EVENTS", json.dumps(list(PERSON_EVENTS)))
"""The page script (a load event's `js`): wraps `AppTree.render_previously_invisible_children`
once per page."""


def moved_in_frontend() -> list[str]:
    """The pieces of `FRONTEND_RELIES_ON` that Gradio's page bundle (its core, the page's blocks
    and the components' shared base) no longer holds."""
    assets = Path(gradio.__file__).parent / "templates" / "frontend" / "assets"
    missing = list(FRONTEND_RELIES_ON)
    for script in (*assets.glob("core-*.js"), *assets.glob("Blocks-*.js"), *assets.glob("src-*.js")):
        text = script.read_text(encoding="utf-8", errors="replace")
        missing = [piece for piece in missing if piece not in text]
        if not missing:
            break
    return missing
