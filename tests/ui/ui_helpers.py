"""Ways to drive the app in Pilot tests and to read what the screen shows."""

from __future__ import annotations

import time

from textual.widgets import Input, Select, Switch

from sticks_tui.ui.widgets.move_log import MoveLog


async def wait_until(pilot, condition, timeout: float = 10.0, what: str = "the condition") -> None:
    """Let the app run until `condition()` holds; fail (not hang) if it never does."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"Timed out after {timeout} s waiting for {what}.")
        await pilot.pause(0.01)


async def start_game(pilot, *, heap: int | str = 10, opponent: str = "learning", first: str = "p1",
                     name1: str | None = None, name2: str | None = None, watch: bool = False,
                     by: str = "enter"):
    """Fill in the setup screen and start. Returns the screen that follows (game or pretrain)."""
    from sticks_tui.ui.screens.setup import SetupScreen

    app = pilot.app
    screen = app.screen
    assert isinstance(screen, SetupScreen), f"expected the setup screen, not {screen!r}"
    screen.query_one("#opponent", Select).value = opponent
    screen.query_one("#first", Select).value = first
    screen.query_one("#watch", Switch).value = watch
    await pilot.pause()
    if name1 is not None:
        screen.query_one("#name1", Input).value = name1
    if name2 is not None:
        screen.query_one("#name2", Input).value = name2
    heap_input = screen.query_one("#heap", Input)
    heap_input.value = str(heap)
    await pilot.pause()
    if by == "enter":
        heap_input.focus()
        await pilot.pause()
        await pilot.press("enter")
    else:
        await pilot.click("#start")
    await pilot.pause()
    return app.screen


def log_lines(screen) -> list[str]:
    return list(screen.query_one("#log", MoveLog).lines)


def log_text(screen) -> str:
    """The move log as one string, its sentences joined with spaces."""
    return " ".join(line.strip() for line in log_lines(screen))


def text_of(screen, selector: str) -> str:
    """What a Static/Label shows, as plain text."""
    return str(screen.query_one(selector).render()).strip()


def perfect_take(heap: int) -> int:
    """The winning move (leave 4k+1 sticks); 1 when there is none."""
    return (heap - 1) % 4 or 1


async def play_human_turns(pilot, screen, strategy=perfect_take, *, click: bool = False,
                           timeout: float = 10.0) -> None:
    """Play every human turn with `strategy` (keys, or clicks on #take-N) until the game is over."""
    game = screen.game
    deadline = time.monotonic() + timeout
    while not game.is_over:
        if time.monotonic() > deadline:
            raise AssertionError("The game did not finish in time.")
        if game.waiting_for_human:
            take = strategy(game.state.position)
            if click:
                await pilot.click(f"#take-{take}")
            else:
                await pilot.press(str(take))
        await pilot.pause(0.01)
        game = screen.game


class MessageLog:
    """A `message_hook` for `app.run_test`: keeps every message the app's nodes handle."""

    def __init__(self) -> None:
        self.messages: list = []

    def __call__(self, message) -> None:
        self.messages.append(message)

    def of(self, kind) -> list:
        return [m for m in self.messages if isinstance(m, kind)]

    def notifications(self) -> list[str]:
        from textual.notifications import Notify

        return [str(m.notification.message) for m in self.of(Notify)]


def footer_labels(screen) -> dict[str, str]:
    """What the footer shows now: binding id -> its label (the enabled, shown bindings)."""
    return {active.binding.id: active.binding.description for active in screen.active_bindings.values()
            if active.binding.show and active.binding.id}


async def set_up(pilot, game: str, *, opponent: str | None = None, first: str = "p1", watch: bool = False,
                 name1: str | None = None, name2: str | None = None, start=None):
    """Choose `game` on the setup screen and the rest (its start: its board's row as it stands, or `start`),
    then Start. Returns the screen that follows (the game screen)."""
    from sticks_tui.engine import registry
    from sticks_tui.ui.boards import board_of
    from sticks_tui.ui.screens.setup import SetupScreen

    app = pilot.app
    screen = app.screen
    assert isinstance(screen, SetupScreen), f"expected the setup screen, not {screen!r}"
    screen.query_one("#game", Select).value = game
    await pilot.pause()
    screen.query_one("#opponent", Select).value = opponent or registry.entry(game).default_opponent
    screen.query_one("#first", Select).value = first
    screen.query_one("#watch", Switch).value = watch
    await pilot.pause()
    if name1 is not None:
        screen.query_one("#name1", Input).value = name1
    if name2 is not None:
        screen.query_one("#name2", Input).value = name2
    if start is not None:
        board_of(game).load(screen.start_rows[game], start)
    await pilot.pause()
    await pilot.click("#start")
    await pilot.pause()
    return app.screen


def first_move(state):
    return state.legal_moves[0]


async def play_out(pilot, screen, choose=first_move, timeout: float = 10.0) -> None:
    """Every person's turn played on the board (the move it reports, `GameBoard.Picked`) by `choose(state)`,
    until the game is over."""
    from sticks_tui.ui.boards import GameBoard

    deadline = time.monotonic() + timeout
    while not screen.game.is_over:
        if time.monotonic() > deadline:
            raise AssertionError("The game did not finish in time.")
        if screen.game.waiting_for_human:
            screen.query_one("#board", GameBoard).pick(choose(screen.game.state))
        await pilot.pause(0.01)
    await pilot.pause()


def game_names() -> list[str]:
    """Every game with a board: the one game screen's tests run on each."""
    from sticks_tui.ui.boards import boards

    return list(boards())


def watch_layouts(monkeypatch) -> list:
    """The widgets that ask for a layout of the screen from now on, in order (`Widget.refresh(layout=True)`,
    watched through a spy that calls the real method: the app's behaviour is unchanged)."""
    from textual.widget import Widget

    laid_out: list = []
    refresh = Widget.refresh

    def watched(self, *regions, **kwargs):
        if kwargs.get("layout"):
            laid_out.append(self)
        return refresh(self, *regions, **kwargs)

    monkeypatch.setattr(Widget, "refresh", watched)
    return laid_out


def watch_screen_layouts(monkeypatch) -> list:
    """The screens laid out from now on, in order, one entry a layout (`Screen._refresh_layout`, watched through a
    spy that calls the real method: the app's behaviour is unchanged)."""
    from textual.screen import Screen

    laid_out: list = []
    refresh_layout = Screen._refresh_layout

    def watched(self, *args, **kwargs):
        laid_out.append(self)
        return refresh_layout(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", watched)
    return laid_out


def watch_restyles(monkeypatch) -> list:
    """The nodes styled from now on, in order (`Stylesheet.apply`, watched through a spy that calls the real
    method: the app's behaviour is unchanged)."""
    from textual.css.stylesheet import Stylesheet

    styled: list = []
    apply = Stylesheet.apply

    def watched(self, node, *args, **kwargs):
        styled.append(node)
        return apply(self, node, *args, **kwargs)

    monkeypatch.setattr(Stylesheet, "apply", watched)
    return styled
