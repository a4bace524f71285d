"""A new screen is styled once, and laid out once per size.

Styled once: Textual styles every widget of a screen as it is mounted, and again, the whole screen, when
the screen comes on top (ScreenResume: a screen that was below may have missed a change). For a screen
just made and pushed that second pass finds nothing to change: nothing happened between its mount and its
first turn on top. It was about a tenth of the work of opening a screen (measured 2026-11-26: app start to
the setup screen 142 -> 131 ms of CPU). The app marks a screen it pushes before the screen is mounted
(SticksApp.push_screen); a screen that comes back on top later (a dialog closed, Escape back to it) is
styled again, as Textual does.

Laid out once per size: a screen's layout sends the screen itself a Resize when its size changed (its first
layout, on coming on top, and each after the terminal's size changed), and Textual answers every Resize of a
screen with a whole new layout of it and of the screen below it. At the size just laid out that is the same
layout again, twice: on start-up the setup screen was laid out three times (its own echo, then the terminal's
first size), each new screen and dialog twice, with the screen below once more. Here a Resize to the size the
screen was last laid out at only keeps the width and height classes (the breakpoints) true; a real change of
size is laid out as before, and a screen below that the terminal's resize concerns gets its own Resize from
the app (App._check_resize), as before.
"""

from __future__ import annotations

from textual import events


class StyledOnce:
    """Mixin for a Screen class (before Screen in its bases)."""

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # runs before Screen's own handler (the subclass comes first in the MRO), which then skips the
        # second styling; everything else it does (focus, layout, refresh) is unchanged
        if self.__dict__.pop("_styled_at_mount", False):
            event.refresh_styles = False

    def _on_resize(self, event: events.Resize) -> None:
        # runs before Screen's own handler; prevent_default() keeps it from laying out again what is laid out
        if not (self.is_attached and self.stack_updates and event.size == self._size):
            return
        event.stop()
        event.prevent_default()
        self._update_breakpoints(event.size)

    def _update_breakpoints(self, size) -> None:
        """The breakpoint classes for `size`, as Screen._on_resize sets them (unchanged classes restyle nothing)."""
        app = self.app
        horizontal = (app.HORIZONTAL_BREAKPOINTS if self.HORIZONTAL_BREAKPOINTS is None
                      else self.HORIZONTAL_BREAKPOINTS) or []
        vertical = (app.VERTICAL_BREAKPOINTS if self.VERTICAL_BREAKPOINTS is None else self.VERTICAL_BREAKPOINTS) or []
        if horizontal or vertical:
            classes = {name: False for _, name in (horizontal + vertical)}
            for name in (*self._get_breakpoint_classes(size.width, horizontal),
                         *self._get_breakpoint_classes(size.height, vertical)):
                classes[name] = True
            self.update_classes(classes, animate=False)
