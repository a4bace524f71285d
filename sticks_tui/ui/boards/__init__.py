"""Each game's board on the UI side: the one thing the screens ask a game for that the rules cannot say.

A game's board lives in its own module here, `ui/boards/<game name>.py`, found by that name on first
use (`board_of`), and registers itself with the game's registry entry (`engine.registry.set_board`),
so the core never imports the UI and no screen asks which game it is. It holds:

- `widget`: the board widget (a `GameBoard`): it draws a position it is given (`BoardView`) and posts
  `GameBoard.Picked(move)` when a person picks a move (keys, clicks); the screen asks the rules whether
  the move is legal and plays it. A widget draws; it never decides a rule.
- the setup screen's row that asks where a game starts (`setup_row`, `load`, `read`), for a game that
  starts from a position a person chooses (sticks' heap, Nim's piles); none for a game with one start;
- its words: the intro, the sides' marks (X and O), a move and a result in the game's own sentences,
  a move's short label (the brain view's cells), a hint, its help.

Everything has a default but the widget: a new game is its rules module and this one file.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from sticks_tui.engine import registry


@dataclass(frozen=True)
class BoardView:
    """What a board shows: plain data, no brain or game object.

    rules, position: the game and where it stands.
    last:      (before, move) of the move just made, for a board that shows it happen (sticks leaving).
    controls:  a person plays this game and it goes on: show the controls that pick a move.
    playable:  a person is to move now: the controls work (a cursor shows, buttons are enabled).
    perfect:   the moves to mark as perfect (the hint), or ().
    container: the learning AI's tokens for each legal move here (its hat's balls, its box's beads), in
               legal-move order, for a board that draws them; None: no container here to show.
    box_position: the position `container` is for when it is not `position`: the learner has just moved, and
               the container it drew from stays shown (its token `drawn` marked) until the next move.
    mirrored:  the moves of the container's position that have no tokens of their own: a mirror image (a
               symmetry) of another move, whose tokens stand for both (a move with 0 tokens that is not one
               was emptied).
    drawn:     the move whose token the learner just drew, or None.
    changes:   after a game, (position, move, before, after) for each token the learner drew.
    note:      words for a line of the board's own ('': none).
    still:     the move just made stays shown (a replay), not for a moment only.
    """

    rules: Any = None
    position: Any = None
    last: tuple | None = None
    controls: bool = False
    playable: bool = False
    perfect: tuple = ()
    container: tuple | None = None
    box_position: Any = None
    mirrored: tuple = ()
    drawn: Any = None
    changes: tuple = ()
    note: str = ""
    #: The move just made stays shown (a replay's step), not only for a moment (a game in play).
    still: bool = False

    @property
    def legal_moves(self) -> tuple:
        if self.rules is None or self.position is None or self.rules.is_terminal(self.position):
            return ()
        return tuple(self.rules.legal_moves(self.position))

    @property
    def box_moves(self) -> tuple:
        """The moves `container` counts, in its order: the legal moves of its position (`box_position`, else
        `position`)."""
        if self.box_position is None:
            return self.legal_moves
        return tuple(self.rules.legal_moves(self.box_position))

    def is_legal(self, move) -> bool:
        try:
            self.rules.decode_move(self.position, move)
        except (ValueError, TypeError):
            return False
        return True


class GameBoard(Widget, can_focus=True):
    """A game's board: set `view` (a `BoardView`) to draw; a person's move comes as `GameBoard.Picked`.

    The game screen keeps the focus on its board, so the board's own key bindings (digits, arrows,
    Enter) always reach it; a binding whose action `check_action` turns off passes the key on to the
    screen (Enter after a game: the next game)."""

    class Picked(Message):
        """A person picked `move` on the board (the screen checks it with the rules)."""

        def __init__(self, board: GameBoard, move: Any) -> None:
            super().__init__()
            self.board = board
            self.move = move

        @property
        def control(self) -> GameBoard:
            return self.board

    view: reactive[BoardView] = reactive(BoardView, always_update=True)

    def __init__(self, rules=None, *, id: str | None = None, classes: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id, classes=classes)
        self.rules = rules

    def pick(self, move: Any) -> None:
        self.post_message(self.Picked(self, move))

    def prompt(self) -> str:
        """What a person does on this board to move, after "Ann's turn: " ("take 1, 2 or 3 (keys or buttons)")."""
        return "choose a move."

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A board's move keys work while a person is to move; dimmed on the other player's turn, hidden when no
        person plays or the game is over (either way the key goes on to the screen: Enter, the next game)."""
        view = self.view
        return True if view.playable else None if view.controls else False


def plain_move_line(rules, name: str, before, move, after) -> str:
    return f"{name}: {rules.move_text(before, move)}."


def plain_result_line(rules, position, winner: str | None, loser: str | None, resigned: bool) -> str:
    if winner is None:
        return "A draw: nobody wins."
    if resigned:
        return f"{loser} resigns. {winner} wins!"
    return f"{winner} wins. {loser} loses."


@dataclass(frozen=True)
class Board:
    """A game's board and its words (see the module docstring)."""

    widget: type[GameBoard]
    intro: Callable[[Any], str] | None = None  # intro(app): the setup screen's line about the game
    #: The setup screen's row that asks where a game starts (a widget; None: the game has one start),
    #: how it shows a start (`load(row, start)`) and reads one (`read(row, opponent)`: the start, or
    #: `StartProblem` saying why not and which input to fix).
    setup_row: Callable[[], Widget] | None = None
    load: Callable[[Widget, Any], None] | None = None
    read: Callable[[Widget, str], Any] | None = None
    #: Where a game starts when nothing was chosen yet (None: the rules' first start position).
    default_start: Any = None
    #: The setup screen offers a choice of brains for its learning AI (the seeds' hats, MENACE-like ones).
    brain_choices: bool = False
    #: The first and the second mover's marks ("X", "O"), said beside the players' names; None: no marks.
    sides: tuple[str, str] | None = None
    #: The move log's sentences: a move (name, before, move, after), the game's start, the result.
    move_line: Callable[..., str] | None = None
    opening: Callable[[Any, Any], str] | None = None  # opening(rules, start): "20 sticks on the board"
    #: A learner's draw, before its move: draw_line(name, position, move, words) (words: the brain's
    #: `ui.brains.BrainWords`); default "Ann draws the ball for 2 dimes from its hat."
    draw_line: Callable[..., str] | None = None
    result_line: Callable[..., str] | None = None
    #: A move in a few words for the brain view ("2 dimes", "square 5"; default: the rules' move text).
    move_label: Callable[[Any, Any], str] | None = None
    #: The brain view's drawing of one container, small: small(number, position, {move: tokens}, mirrored=moves
    #: without tokens of their own, drawn=the move drawn in the container in play or None, changes={move:
    #: (before, after)} after a game) -> lines (noughts: a little board with each square's beads); None: a line
    #: of each move's words and count (`screens.brain.container_lines` draws either, for every screen).
    small: Callable[..., list[str]] | None = None
    #: What the hint says of a position besides its perfect moves (Nim: its value in the table).
    hint: Callable[[Any], str] | None = None
    #: The help's sections for this game: ((title, text), ...).
    help: tuple[tuple[str, str], ...] = ()
    #: "wide": the board stretches over the play area, the log under it; "square": a board of fixed
    #: size, the turn, the tally and the log beside it.
    layout: str = "wide"
    #: The learning lab's size for a class that set this game up: setup_lab_size(the app's settings); None: the
    #: lab's default for the game.
    setup_lab_size: Callable[[Any], int] | None = None

    def words_of_move(self, rules, name: str, before, move, after) -> str:
        return (self.move_line or plain_move_line)(rules, name, before, move, after)

    def words_of_result(self, rules, position, winner: str | None, loser: str | None, resigned: bool) -> str:
        return (self.result_line or plain_result_line)(rules, position, winner, loser, resigned)

    def words_of_draw(self, rules, name: str, position, move, words) -> str:
        if self.draw_line is not None:
            return self.draw_line(name, position, move, words)
        return f"{name} draws the {words.token} for {self.label(rules, position, move)} from its {words.container}."

    def words_of_opening(self, rules, start) -> str:
        return self.opening(rules, start) if self.opening is not None else rules.position_text(start)

    def label(self, rules, position, move) -> str:
        return self.move_label(position, move) if self.move_label is not None else rules.move_text(position, move)

    def side_of(self, first_seat: int, seat: int) -> str | None:
        """The mark of `seat` when `first_seat` moved first (None: the game has no marks)."""
        if self.sides is None:
            return None
        return self.sides[0 if seat == first_seat else 1]


class StartProblem(ValueError):
    """A start a setup row cannot read: the message says why in one line; `field` is the input to fix."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def square_rows(rules, position) -> tuple[list[str], str] | None:
    """A position whose text form is a square board ('X.O.X....', Hexapawn's 'BBB...WWW:W') as its rows of
    squares and what follows the board ('W'); None for any other position (a heap, piles)."""
    encoded = rules.encode_position(position)
    if not isinstance(encoded, str):
        return None
    board, _, rest = encoded.partition(":")
    side = int(len(board) ** 0.5)
    if side < 2 or side * side != len(board):
        return None
    return [board[i:i + side] for i in range(0, len(board), side)], rest


def board_of(game: str) -> Board:
    """The board of the game called `game`: its module `ui.boards.<game>` registers it on first use.
    ValueError for a game with none."""
    entry = registry.entry(game)
    board = entry.board.get("board")
    if board is None:
        try:
            module = importlib.import_module(f"{__name__}.{entry.name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{entry.name}":
                raise
            module = None
        # a board imported before its game registered (`BOARD`) is attached now
        board = entry.board.get("board") or getattr(module, "BOARD", None)
        if board is not None:
            registry.set_board(entry.name, board=board)
    if board is None:
        raise ValueError(f"There is no board for {entry.title} in this app.")
    return board


def has_board(game: str) -> bool:
    try:
        board_of(game)
    except ValueError:
        return False
    return True


def boards() -> dict[str, Board]:
    """Every registered game that has a board, in the registry's order: name -> its board."""
    return {name: board_of(name) for name in registry.names() if has_board(name)}
