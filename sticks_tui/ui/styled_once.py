"""A new screen is styled once: when it is mounted, not again when it first comes on top.

Textual styles every widget of a screen as it is mounted, and again, the whole screen, when the screen
comes on top (ScreenResume: a screen that was below may have missed a change). For a screen just made
and pushed that second pass finds nothing to change: nothing happened between its mount and its first
turn on top. It was about a tenth of the work of opening a screen (measured 2026-11-26: app start to
the setup screen 142 -> 131 ms of CPU). The app marks a screen it pushes before
the screen is mounted (SticksApp.push_screen); a screen that comes back on top later (a dialog closed,
Escape back to it) is styled again, as Textual does.
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
