"""Textual's Input with the keys kept in the order they were pressed.

Textual 8's Input types a printable key at once, in its own `_on_key`, but its editing keys (Backspace,
Delete, the arrows, Home/End, Enter) are bindings: the key travels up to the app, which runs the binding
after the keys already queued behind it. When keys arrive together (a quick typist, a busy machine, a
pupil's browser on a slow classroom network, whose key presses reach the server in one packet), the
box ends up with "End, Backspace x4, 1 0 0" typed as "100" and then erased to "". Textual's issue
#6605 (open; the fix proposed in pull request #6631 is not released): this subclass runs the box's own
bindings inline, as that fix does, so what runs is what the app would run, in the order pressed.

Every text box of the app is this one (tests/unit/test_layers.py checks that no screen builds Textual's).
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input as TextualInput


class Input(TextualInput):
    """A text box whose editing keys take effect in the order they were pressed."""

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable and await self._run_own_binding(event.key):
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

    async def _run_own_binding(self, key: str) -> bool:
        """Run this box's non-priority binding for `key` (with the app's key map), as the app would
        once the key had bubbled up to it; False when the box binds no such key or its action declines."""
        bindings = self._bindings.copy()
        if self.app._keymap:
            bindings.apply_keymap(self.app._keymap)
        for binding in bindings.key_to_bindings.get(key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                return True
        return False
