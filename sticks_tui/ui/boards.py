"""Each game's board on the UI side, kept with its registry entry (`engine.registry.set_board`), so the
screens ask the registry which board a game has instead of asking which game it is, and the core
never imports the UI.

A board says: the setup screen's rows it uses and how it fills and reads them (`load`, `read`), its
intro line, and how a game of it starts (`open`); `replays`: its recorded games replay move by move
(the replay screen draws sticks); `analysed`: the analysis screen reads its brains.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sticks_tui import vocabulary
from sticks_tui.engine import registry
from sticks_tui.engine.rules import MAX_HEAP, MIN_HEAP, parse_heap

STICKS_INTRO = "Take 1, 2 or 3 sticks in turn; whoever takes the last stick loses."
NIM_INTRO = ("Three-pile Nim: take one or more coins from one pile in turn; whoever takes the last "
             "coin wins.")
#: Every setup row a board may show; a board shows its own and the screen hides the others.
SETUP_ROWS = ("heap-row", "piles-row", "hats-row")


@dataclass(frozen=True)
class Board:
    rows: tuple[str, ...]
    intro: Callable[[object], str]  # intro(app)
    load: Callable[[object, object], None]  # load(setup screen, MatchSetup): fill its rows
    read: Callable[[object, str, object], dict | None]  # read(setup screen, opponent, error label)
    open: Callable[[object, object], None]  # open(app, MatchSetup): push its screen
    replays: bool = False
    analysed: bool = False
    #: A screen of its own that replays a recorded game of it (replay_screen(game)); None: the replay
    #: screen's (sticks), when `replays`.
    replay_screen: Callable[[object], object] | None = None
    #: How the setup screen's Train (F2) trains this game's AI: train(app, MatchSetup); None: the app's
    #: train dialog (the sticks AI's).
    train: Callable[[object, object], None] | None = None
    #: The learning lab's size for a class that set this game up: setup_lab_size(the app's settings); None: the
    #: lab's default for the game.
    setup_lab_size: Callable[[object], int] | None = None


def board_of(game: str) -> Board:
    """The board of the game called `game` (ValueError for a game with none)."""
    board = registry.entry(game).board.get("board")
    if board is None:
        raise ValueError(f"There is no board for {registry.entry(game).title} in this app.")
    return board


# -- the Game of Sticks ------------------------------------------------------------------------------

def _sticks_intro(app) -> str:
    from sticks_tui.learn.lesson_words import losses_note

    note = losses_note(app.session.brain.rule)
    return STICKS_INTRO + (" " + note if note else "")


def _sticks_load(screen, last) -> None:
    from sticks_tui.ui.widgets.inputs import Input

    screen.query_one("#heap", Input).value = str(last.heap)


def _sticks_read(screen, opponent, error) -> dict | None:
    from sticks_tui.ui.widgets.inputs import Input

    heap_input = screen.query_one("#heap", Input)
    try:
        return {"heap": parse_heap(heap_input.value, MIN_HEAP, MAX_HEAP)}
    except ValueError as exc:
        error.update(str(exc))
        heap_input.focus()
        return None


def _sticks_open(app, setup) -> None:
    if setup.opponent == "trained":
        from sticks_tui.ui.screens.pretrain import PretrainScreen

        app.push_screen(PretrainScreen(setup))
    else:
        from sticks_tui.ui.screens.game import GameScreen

        app.push_screen(GameScreen(setup))


# -- three-pile Nim ----------------------------------------------------------------------------------

def _nim_load(screen, last) -> None:
    from sticks_tui.ui.widgets.inputs import Input

    for i, n in enumerate(last.piles):
        screen.query_one(f"#pile-{i}", Input).value = str(n)


def _nim_read(screen, opponent, error) -> dict | None:
    from sticks_tui.ui.widgets.inputs import Input

    low, high = vocabulary.PILE_RANGE
    values = []
    for i in range(3):
        box = screen.query_one(f"#pile-{i}", Input)
        try:
            values.append(parse_heap(box.value, low, high))
        except ValueError:
            error.update(f"Please enter piles of {low} to {high} coins.")
            box.focus()
            return None
    piles = tuple(values)
    if opponent == "learning" and any(p > b for p, b in zip(piles, vocabulary.NIM_LEARNER_BOX, strict=True)):
        error.update("The learning AI for Nim knows piles of up to 7 coins each.")
        return None
    return {"piles": piles}


def _nim_open(app, setup) -> None:
    from sticks_tui.ui.screens.nim import NimGameScreen

    app.push_screen(NimGameScreen(setup, setup.piles))


registry.set_board("sticks", board=Board(rows=("heap-row", "hats-row"), intro=_sticks_intro, load=_sticks_load,
                                         read=_sticks_read, open=_sticks_open, replays=True, analysed=True,
                                         setup_lab_size=lambda settings: settings.heap))


def _nim_train(app, setup) -> None:
    app.notify("The Nim AI trains on the Nim screen, between games: start a game against the learning AI, "
               "then F2.", title="Train", severity="information", timeout=8)


registry.set_board("nim", board=Board(rows=("piles-row",), intro=lambda app: NIM_INTRO, load=_nim_load,
                                      read=_nim_read, open=_nim_open, train=_nim_train,
                                      setup_lab_size=lambda settings: max(settings.nim_piles)))


# -- noughts and crosses (MENACE) ---------------------------------------------------------------------
# Its screen chooses the board's squares and (watching) MENACE's opponents itself; the setup screen
# gives it the opponent, the names and who plays X (Player 1 moving first plays X).

NOUGHTS_INTRO = ("Noughts and crosses: three in a row wins, a full board is a draw; whoever moves first plays "
                 "X. MENACE learns it with 304 matchboxes of beads.")


def _noughts_open(app, setup) -> None:
    from sticks_tui.ui.screens.noughts import NoughtsScreen
    from sticks_tui.ui.session import people_names

    x_first = setup.first_mover(0, app.session.rng) == 0  # Player 1 moves first: Player 1 plays X
    # the people's names, not the AI's in seat 2: the screen's own opponent choice may seat a friend there
    app.push_screen(NoughtsScreen(setup.opponent, x_first, names=(setup.name1, people_names(app)[1])))


def _noughts_train(app, setup) -> None:
    """MENACE trains on the noughts screen: open it (a game as set up) with its training dialog."""
    _noughts_open(app, setup)
    screen = app.screen
    screen.call_after_refresh(screen.action_train)


def _noughts_replay(game):
    from sticks_tui.ui.screens.noughts_replay import NoughtsReplayScreen

    return NoughtsReplayScreen(game)


registry.set_board("noughts", board=Board(rows=(), intro=lambda app: NOUGHTS_INTRO, load=lambda screen, last: None,
                                          read=lambda screen, opponent, error: {}, open=_noughts_open,
                                          replays=True, replay_screen=_noughts_replay, train=_noughts_train))
