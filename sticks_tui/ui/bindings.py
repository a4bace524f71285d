"""Footer labels that say what a key will do next (Pause or Resume, which step comes next).

A screen's bindings are its own copy of the class's `BINDINGS` (Textual copies them per node), so a
label changed here changes that screen's footer only; key maps still apply (they are applied to a
copy of these when the footer and the keys read them).
"""

from __future__ import annotations

from dataclasses import replace

from textual.dom import DOMNode


def _replace(node: DOMNode, binding_id: str, **changes: object) -> bool:
    """Give the binding `binding_id` of `node` the values `changes`; whether anything changed."""
    changed = False
    key_to_bindings = node._bindings.key_to_bindings
    for key, bindings in key_to_bindings.items():
        if any(b.id == binding_id and any(getattr(b, k) != v for k, v in changes.items()) for b in bindings):
            key_to_bindings[key] = [replace(b, **changes) if b.id == binding_id else b for b in bindings]
            changed = True
    return changed


def reshow(node: DOMNode, binding_id: str, show: bool) -> bool:
    """Show the binding `binding_id` of `node` in the footer, or not (its key works either way); whether anything
    changed (the caller refreshes the footer then, as after `relabel`)."""
    return _replace(node, binding_id, show=show)


def relabel(node: DOMNode, binding_id: str, description: str) -> bool:
    """Show the binding `binding_id` of `node` as `description`; whether anything changed.

    The caller refreshes the footer (`node.refresh_bindings()`) when it changed, and only then: each
    refresh has the screen gather its active bindings and the footer compare them with what it shows."""
    return _replace(node, binding_id, description=description)
