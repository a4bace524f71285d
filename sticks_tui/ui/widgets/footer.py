"""The footer every screen shows: Textual's Footer, compact, that rebuilds its keys only when they change.

Textual's Footer builds its keys again (a recompose: every FooterKey unmounted, made and mounted
anew) each time the screen says its bindings may have changed, which it says on every focus change
and every screen pushed or popped, even when the footer would show exactly the same keys. On the
game screen that was eight rebuilds on the way from the setup screen, about a third of the work of
starting a game, and in a served tab every such key press paid for it. This footer remembers what it
last showed (each key, its label, whether it is enabled, its tooltip) and rebuilds only when that
differs.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class KeysFooter(Footer):
    """A compact footer without the command palette's key, rebuilt only when what it shows changed."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("compact", True)
        kwargs.setdefault("show_command_palette", False)
        super().__init__(**kwargs)
        self._shown: tuple | None = None  # what the last compose showed; None: nothing yet

    def _showing(self) -> tuple:
        """What compose() would show now: every shown binding's key, label, action, group and state."""
        app = self.app
        keys = tuple(
            (binding.key, app.get_key_display(binding), binding.description, binding.action,
             id(binding.group) if binding.group is not None else None, enabled, tooltip)
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values() if binding.show)
        return keys, self.compact, self.show_command_palette

    def compose(self):
        if self._bindings_ready:
            self._shown = self._showing()
        yield from super().compose()

    def bindings_changed(self, screen: Screen) -> None:
        if self._shown is not None and self.is_attached and screen is self.screen \
                and self._showing() == self._shown:
            return  # the same keys, labels and states as shown: nothing to rebuild
        super().bindings_changed(screen)
