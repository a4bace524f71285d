"""Command palette providers for a screen's own commands (each screen lists them in its COMMANDS).

`screen_commands(("Title", "help", "action"), ...)` makes a `Provider` class that offers those
commands on the screen the palette was opened from, runs the screen's action when one is chosen,
and leaves out a command whose action the screen's `check_action` turns off at that moment.
"""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider


def screen_commands(*commands: tuple[str, str, str]) -> type[Provider]:
    """A Provider class for `commands`: (title, help, action on the screen, e.g. "play_again")."""

    class ScreenCommands(Provider):
        def _available(self):
            screen = self.screen
            for title, help_text, action in commands:
                if screen.check_action(action, ()) is not False:
                    yield title, help_text, partial(screen.run_action, action)

        async def discover(self) -> Hits:
            for title, help_text, run in self._available():
                yield DiscoveryHit(title, run, help=help_text)

        async def search(self, query: str) -> Hits:
            matcher = self.matcher(query)
            for title, help_text, run in self._available():
                score = matcher.match(title)
                if score > 0:
                    yield Hit(score, matcher.highlight(title), run, help=help_text)

    ScreenCommands.__qualname__ = ScreenCommands.__name__ = "ScreenCommands[" + ", ".join(c[2] for c in commands) + "]"
    return ScreenCommands
