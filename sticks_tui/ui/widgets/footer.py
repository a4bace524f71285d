"""The footer every screen shows: Textual's Footer, compact, that rebuilds its keys only when it must.

Textual's Footer builds its keys again (a recompose: every FooterKey unmounted, made and mounted
anew) each time the screen says its bindings may have changed, which it says on every focus change
and every screen pushed or popped, even when the footer would show exactly the same keys. On the
game screen that was eight rebuilds on the way from the setup screen, about a quarter of the work
of starting a game, and in a served tab every such key press paid for it. This footer remembers what it
last showed (each key, its label, whether it is enabled, its tooltip):
- the same: nothing is done;
- the same keys, only labels, enabled states or tooltips changed (the take keys dimmed on the AI's
  turn, Pause that became Resume): the keys shown are updated where they are;
- other keys: rebuilt, as Textual's footer does, once: Textual's footer asks for a rebuild after the next
  refresh each time it is told, and a screen tells it several times as it opens (its first bindings, the
  focus given, the board's own keys): three rebuilds of the game screen's footer where the last one only
  was shown. A rebuild asked for and not yet done is not asked for again (it reads the keys as they are
  when it runs), and one asked for that would show the keys shown is not done.
Its first keys are mounted as its screen, mounted, first says its bindings (as it comes on top): Textual's
footer mounted them after the screen's first layout, and the game screen's footer was built twice as it opened.
(Textual is pinned, 8.2.8: the update sets FooterKey's own fields, which its render reads.)
"""

from __future__ import annotations

from textual.compose import compose
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeysFooter(Footer):
    """A compact footer without the command palette's key, rebuilt only when its keys change."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("compact", True)
        kwargs.setdefault("show_command_palette", False)
        super().__init__(**kwargs)
        self._shown: tuple | None = None  # what the footer shows: see _showing; None: nothing yet
        self._rebuilding = False  # a rebuild (recompose) is asked for and not yet done

    def _showing(self) -> tuple:
        """What compose() would show now: one key per action (the first binding of it, as compose takes),
        each (key, its display, action, group, label, enabled, tooltip); and the footer's own switches."""
        app = self.app
        keys: dict[str, tuple] = {}
        for (_, binding, enabled, tooltip) in self.screen.active_bindings.values():
            if binding.show and binding.action not in keys:
                keys[binding.action] = (binding.key, app.get_key_display(binding), binding.action,
                                        id(binding.group) if binding.group is not None else None,
                                        binding.description, enabled, tooltip)
        return tuple(keys.values()), self.compact, self.show_command_palette

    def compose(self):
        if self._bindings_ready:
            self._shown = self._showing()
        for widget in super().compose():
            if self.compact and isinstance(widget, FooterKey):
                # its class from the start: else its compact binding adds it once mounted, and each key
                # is styled again (Textual's Footer; about 7 ms a footer, 65 keys in a test of a game)
                widget._classes.add("-compact")
            yield widget

    def bindings_changed(self, screen: Screen) -> None:
        if self._shown is None and self._build_now(screen):
            return
        if self._rebuilding and self.is_attached and screen is self.screen:
            return  # the rebuild asked for shows the keys as they are when it runs
        if self._shown is None or not self.is_attached or screen is not self.screen:
            self._rebuild(screen)
            return
        now = self._showing()
        if now == self._shown:
            return  # the same keys, labels and states as shown: nothing to do
        if self._update_in_place(now):
            self._shown = now
            return
        self._rebuild(screen)

    def _rebuild(self, screen: Screen) -> None:
        """Textual's footer: ready to show keys, and rebuilt after the next refresh (when the app has focus and
        the footer is on `screen`)."""
        super().bindings_changed(screen)
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self._rebuilding = True

    def _build_now(self, screen: Screen) -> bool:
        """The first keys, mounted at once when the screen, mounted, first says its bindings (as it comes on top,
        before its first layout): Textual's footer mounts them after that layout, and the whole screen is laid out
        again for them. False (nothing done) before the screen is mounted: its actions are not ready to ask."""
        if (not screen.app.app_focus or not self.is_attached or screen is not self.screen or not screen.is_mounted
                or self.children):
            return False
        self.set_reactive(Footer._bindings_ready, True)
        self.mount_all(compose(self))  # compose() notes what it shows
        return True

    async def recompose(self) -> None:
        self._rebuilding = False
        if self._shown is not None and self.is_attached and self._showing() == self._shown:
            return  # it shows what a rebuild would show (a rebuild asked for before the keys were built at once)
        await super().recompose()

    def _update_in_place(self, now: tuple) -> bool:
        """Give the keys shown their new labels, states and tooltips, if only those changed."""
        keys_now, *switches_now = now
        keys_shown, *switches_shown = self._shown
        if switches_now != switches_shown or len(keys_now) != len(keys_shown):
            return False
        if any(new[:4] != old[:4] or new[3] is not None for new, old in zip(keys_now, keys_shown)):
            return False  # other keys, or grouped ones (a group is drawn with a label of its own)
        widgets = list(self.query_children(FooterKey))
        if [w.action for w in widgets] != [key[2] for key in keys_now]:
            return False
        for widget, (_, _, _, _, description, enabled, tooltip) in zip(widgets, keys_now):
            widget.description = description
            widget._disabled = not enabled
            widget.set_class(not enabled, "-disabled")
            widget.tooltip = tooltip or None
            widget.refresh(layout=True)
        return True
