"""Noughts and crosses (issue 18), the game of Donald Michie's MENACE.

Only the rules live here. A position is a BOARD: 9 characters of `X`, `O` and `.`, read row by row
(square 1 is the top left, 3 the top right, 9 the bottom right). X moves first, so the player to
move follows from the counts: X when both have as many marks, else O. A move is a square number
1-9. A game ends with three in a row (the player who made it wins) or a full board (a draw).

`NoughtsRules` is the game in the protocol (`engine.protocol`), with the agreed additions
(`outcome`, `position_text`, `move_text`, encoding). `NoughtsState` is a game in play, which knows
whose turn it is and refuses a move out of turn. Every refusal is a `NoughtsError` (an
`IllegalMove`, so a `ValueError`) whose message a person can read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sticks_tui.engine.protocol import whole_number
from sticks_tui.engine.registry import GameEntry, register
from sticks_tui.engine.rules import IllegalMove

EMPTY_BOARD = "." * 9
MARKS = ("X", "O")
#: The eight lines of three, as square indexes 0-8.
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)
SQUARE_NAMES: tuple[str, ...] = (
    "top left", "top middle", "top right",
    "middle left", "centre", "middle right",
    "bottom left", "bottom middle", "bottom right",
)


class NoughtsError(IllegalMove):
    """A board, square or turn the rules of noughts and crosses do not allow; the message says why."""


class BadBoard(NoughtsError):
    """Text that is not a board a game of noughts and crosses can reach."""


#: The 8 symmetries of the board as permutations of square indexes: image[i] = board[perm[i]] (the
#: identity first). `NoughtsRules.symmetries` offers them to the learner, which folds boards alike.
SYMMETRIES: tuple[tuple[int, ...], ...] = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8),  # identity
    (6, 3, 0, 7, 4, 1, 8, 5, 2),  # quarter turn clockwise
    (8, 7, 6, 5, 4, 3, 2, 1, 0),  # half turn
    (2, 5, 8, 1, 4, 7, 0, 3, 6),  # quarter turn anticlockwise
    (2, 1, 0, 5, 4, 3, 8, 7, 6),  # mirror left-right
    (6, 7, 8, 3, 4, 5, 0, 1, 2),  # mirror top-bottom
    (0, 3, 6, 1, 4, 7, 2, 5, 8),  # mirror in the main diagonal
    (8, 5, 2, 7, 4, 1, 6, 3, 0),  # mirror in the other diagonal
)


def image(board: str, perm) -> str:
    """The board seen through a symmetry: square i of the image is square perm[i] of `board`."""
    return "".join([board[p] for p in perm])


#: Answers kept per board: the solver, MENACE's boxes and tables and the readable learners ask about the same
#: few thousand boards again and again (a board is text, so at most 3**9 of them).
BOARD_CACHE = 1 << 16


@lru_cache(maxsize=BOARD_CACHE)
def has_line(board: str, mark: str) -> bool:
    return any(board[a] == board[b] == board[c] == mark for a, b, c in LINES)


@lru_cache(maxsize=BOARD_CACHE)
def to_move(board: str) -> str:
    """The mark of the player to move (X when the counts are equal)."""
    return "X" if board.count("X") == board.count("O") else "O"


@lru_cache(maxsize=BOARD_CACHE)
def empty_squares(board: str) -> tuple[int, ...]:
    """The empty squares, numbered 1-9, in order."""
    return tuple(i + 1 for i, c in enumerate(board) if c == ".")


@lru_cache(maxsize=BOARD_CACHE)
def is_over(board: str) -> bool:
    return has_line(board, "X") or has_line(board, "O") or "." not in board


@lru_cache(maxsize=BOARD_CACHE)
def place(board: str, square: int) -> str:
    """The board after the player to move marks `square` (1-9); no checks."""
    i = square - 1
    return board[:i] + to_move(board) + board[i + 1:]


def board_problem(board) -> str | None:
    """Why `board` is not a position a game can reach, in words; None when it is one."""
    if not isinstance(board, str):
        return f"a board is 9 characters of X, O and '.', not {board!r}"
    if len(board) != 9:
        return f"a board is 9 characters of X, O and '.' (row by row), not {len(board)}: {board!r}"
    bad = sorted({c for c in board if c not in "XO."})
    if bad:
        return f"a board holds only X, O and '.', not {', '.join(repr(c) for c in bad)}: {board!r}"
    x, o = board.count("X"), board.count("O")
    if x not in (o, o + 1):
        who = "O has more marks than X" if o > x else f"X has {x - o} more marks than O"
        return f"{who} in {board!r}: X moves first and the players take turns"
    x_line, o_line = has_line(board, "X"), has_line(board, "O")
    if x_line and o_line:
        return f"both X and O have three in a row in {board!r}: the game ends at the first line"
    if x_line and x != o + 1:
        return f"X has three in a row in {board!r} but O moved after it: the game was over"
    if o_line and x != o:
        return f"O has three in a row in {board!r} but X moved after it: the game was over"
    if x_line or o_line:
        mark = "X" if x_line else "O"
        # the last move must complete every line of the winner: some square lies on all of them
        lines = [set(line) for line in LINES if all(board[i] == mark for i in line)]
        if not set.intersection(*lines):
            return f"{mark} has two separate lines in {board!r}: the game ended at the first"
    return None


def parse_board(text) -> str:
    """A board from its 9-character text (spaces and '/' or '|' between rows are allowed);
    raises `BadBoard` with the reason when it is not a position a game can reach."""
    if isinstance(text, str):
        text = "".join(c for c in text.upper() if c not in " /|\n\t")
        text = text.replace("-", ".").replace("_", ".")
    problem = board_problem(text)
    if problem is not None:
        raise BadBoard(problem[0].upper() + problem[1:] + ".")
    return text


def square_text(square: int) -> str:
    return f"square {square} ({SQUARE_NAMES[square - 1]})"


def check_move(board: str, square) -> None:
    """Raise `NoughtsError` unless the player to move may mark `square` on `board`."""
    if isinstance(square, bool) or not isinstance(square, int) or not 1 <= square <= 9:
        raise NoughtsError(f"Choose a square from 1 to 9 (row by row from the top left), not {square!r}.")
    if is_over(board):
        raise NoughtsError("The game is over: no square can be marked.")
    if board[square - 1] != ".":
        raise NoughtsError(f"Square {square} ({SQUARE_NAMES[square - 1]}) is taken by "
                           f"{board[square - 1]}: choose an empty square.")


def board_rows(board: str) -> tuple[str, str, str]:
    return board[0:3], board[3:6], board[6:9]


@dataclass(frozen=True, slots=True)
class NoughtsState:
    """A game in play: the board and the squares marked so far, in order (X's first)."""

    board: str = EMPTY_BOARD
    history: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "board", parse_board(self.board))

    @property
    def to_move(self) -> str:
        return to_move(self.board)

    @property
    def is_over(self) -> bool:
        return is_over(self.board)

    @property
    def legal_moves(self) -> tuple[int, ...]:
        return () if self.is_over else empty_squares(self.board)

    @property
    def winner(self) -> str | None:
        """'X' or 'O' with three in a row; None while the game goes on or after a draw."""
        for mark in MARKS:
            if has_line(self.board, mark):
                return mark
        return None

    def play(self, square: int, mark: str | None = None) -> NoughtsState:
        """The state after the player to move marks `square`; `mark`, when given, must be theirs."""
        if mark is not None and mark != self.to_move:
            if mark not in MARKS:
                raise NoughtsError(f"The players are X and O, not {mark!r}.")
            raise NoughtsError(f"It is {self.to_move}'s turn, not {mark}'s.")
        check_move(self.board, square)
        return NoughtsState(place(self.board, square), self.history + (square,))


_REACHABLE: frozenset[str] | None = None


def reachable_boards() -> frozenset[str]:
    """Every board a game can reach (5,478 of them, the empty board and the finished ones included)."""
    global _REACHABLE
    if _REACHABLE is None:
        seen = {EMPTY_BOARD}
        frontier = [EMPTY_BOARD]
        while frontier:
            nxt = []
            for board in frontier:
                if is_over(board):
                    continue
                for square in empty_squares(board):
                    after = place(board, square)
                    if after not in seen:
                        seen.add(after)
                        nxt.append(after)
            frontier = nxt
        _REACHABLE = frozenset(seen)
    return _REACHABLE


class _Symmetry:
    """One symmetry of the board for the learner: `position(board)` its image, `move(square)` where the
    square goes in the image (both 1-9)."""

    __slots__ = ("perm", "_to")

    def __init__(self, perm: tuple[int, ...]) -> None:
        self.perm = perm
        self._to = tuple(perm.index(i) + 1 for i in range(9))  # square i + 1 of a board -> its square in the image

    def position(self, board: str) -> str:
        return _image(board, self.perm)

    def move(self, square: int) -> int:
        return self._to[square - 1]


@lru_cache(maxsize=BOARD_CACHE)
def _image(board: str, perm: tuple[int, ...]) -> str:
    return image(board, perm)


_SYMMETRY_MAPS = tuple(_Symmetry(perm) for perm in SYMMETRIES)


class NoughtsRules:
    """Noughts and crosses in the game protocol: positions are 9-character boards, moves squares 1-9.

    There is no `last_mover_wins`: a game can end in a draw. `outcome(position)` says how it ended
    for the player who made the last move (+1 three in a row, 0 a full board). It offers the learner
    the board's 8 symmetries (`symmetries`), whose player is to move (`mover`: X moves first) and which
    move of theirs it is (`move_number`): what MENACE's matchboxes are folded and filled by.
    """

    name = "noughts and crosses"
    #: The two players by seat (0 moves first), in the game's words.
    seat_names = ("X", "O")

    def __init__(self) -> None:
        self._positions: tuple[str, ...] | None = None

    def positions(self) -> tuple[str, ...]:
        """Every reachable board where the game goes on: fuller boards first, then in text order."""
        if self._positions is None:
            live = [b for b in reachable_boards() if not is_over(b)]
            self._positions = tuple(sorted(live, key=lambda b: (-sum(c != "." for c in b), b)))
        return self._positions

    def start_positions(self) -> tuple[str]:
        return (EMPTY_BOARD,)

    def legal_moves(self, position) -> tuple[int, ...]:
        return () if is_over(position) else empty_squares(position)

    def apply(self, position, move) -> str:
        return place(position, move)

    def is_terminal(self, position) -> bool:
        return is_over(position)

    def outcome(self, position) -> int:
        """At a finished board, for the player who made the last move: +1 three in a row, 0 a draw."""
        if not is_over(position):
            raise NoughtsError(f"The game on {position!r} is not over: it has no outcome yet.")
        return 1 if has_line(position, "X") or has_line(position, "O") else 0

    def hat_rows(self) -> tuple[str, ...]:
        """The boards a learner keeps a container for: every board in play with two or more empty squares
        (with one left the move is forced), fewer marks first, then in text order (MENACE's order of its
        boxes, by move number)."""
        return tuple(sorted((b for b in self.positions() if b.count(".") >= 2),
                            key=lambda b: (9 - b.count("."), b)))

    # -- what the learner may fold and fill by -------------------------------------------------------

    def symmetries(self) -> tuple[_Symmetry, ...]:
        """The board's 8 symmetries (the identity first), each with `position(board)` and `move(square)`."""
        return _SYMMETRY_MAPS

    def mover(self, position) -> int:
        """Whose turn it is: 0 the first player (X), 1 the second (O)."""
        return 0 if to_move(position) == "X" else 1

    def move_number(self, position) -> int:
        """Which move of the player to move the next one is (1-5)."""
        return position.count(to_move(position)) + 1

    # -- words and encoding ------------------------------------------------------------------------

    def position_text(self, position) -> str:
        rows = " / ".join(" ".join(row) for row in board_rows(position))
        if has_line(position, "X") or has_line(position, "O"):
            state = f"{'X' if has_line(position, 'X') else 'O'} has three in a row"
        elif "." not in position:
            state = "a draw"
        else:
            state = f"{to_move(position)} to move"
        return f"{rows} ({state})"

    def move_text(self, position, move) -> str:
        return f"{to_move(position)} in {square_text(move)}"

    def picture(self, position):
        """The board with its marks; a move marks its square (`engine.pictures`)."""
        from sticks_tui.engine.pictures import Grid

        rows = tuple(tuple("" if c == "." else c for c in row) for row in board_rows(position))
        return Grid(rows, {s: divmod(s - 1, 3) for s in range(1, 10)})

    def encode_position(self, position) -> str:
        return position

    def decode_position(self, value) -> str:
        return parse_board(value)

    def encode_move(self, move) -> int:
        return int(move)

    def decode_move(self, position, value) -> int:
        check_move(position, value)
        return value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NoughtsRules)

    def __hash__(self) -> int:
        return hash("noughts")

    def __repr__(self) -> str:
        return "NoughtsRules()"


# -- the game's registry entry (`engine.registry`): how the layers above find it by name --------------

def _noughts_move(value) -> int:
    if not whole_number(value) or not 1 <= value <= 9:
        raise ValueError(f"A move in noughts and crosses is a square from 1 to 9, not {value!r}.")
    return int(value)


def _old_brain_file(doc: dict, shown, brain_of, most: int):
    """MENACE's brain of a version-2 noughts file ("marks", its rule as beads, incentives and empty, "boxes" of 9
    beads by square 1-9 of each canonical board), every field checked (`GameEntry.old_brain_file`): None when
    `doc` is not one; else (brain, rows), each box's counts in the order of the moves it counts."""
    if "boxes" not in doc and "marks" not in doc:
        return None
    extra = [key for key in ("size", "max_take", "box", "hats") if key in doc]
    if extra:
        raise ValueError(f"it says \"game\": \"noughts\" but also has {shown(extra[0])}, which only a sticks or Nim "
                         "brain has; a MENACE brain file holds \"marks\" and \"boxes\".")
    names = NoughtsRules.seat_names
    marks = doc.get("marks")
    if marks not in names:
        raise ValueError(f"\"marks\" must be \"X\" or \"O\" (whose boxes these are), not {shown(marks)}.")
    rule_doc = doc.get("rule")
    if not isinstance(rule_doc, dict) or set(rule_doc) != {"beads", "incentives", "empty"}:
        raise ValueError("\"rule\" must be an object with beads (4 numbers), incentives (3 numbers) and empty "
                         "(\"resign\" or \"refill\"), and nothing else.")
    beads, incentives = rule_doc["beads"], rule_doc["incentives"]
    if not isinstance(beads, list) or not isinstance(incentives, list):
        raise ValueError("the rule's beads and incentives must be lists of whole numbers.")
    if len(beads) != 4 or len(incentives) != 3 or not all(whole_number(v) for v in beads + incentives):
        raise ValueError("its rule is not valid: start beads are 4 whole numbers and incentives 3 (win, draw, loss).")
    win, draw, loss = incentives
    brain = brain_of(names.index(marks), {"start_balls": tuple(beads), "win_reward": win, "loss_penalty": -loss,
                                          "draw_reward": draw, "floor": "none", "empty": rule_doc["empty"]})
    boards = brain.positions
    rows = doc.get("boxes")
    if not isinstance(rows, list) or len(rows) != len(boards):
        got = len(rows) if isinstance(rows, list) else shown(rows)
        raise ValueError(f"\"boxes\" must hold MENACE's {len(boards)} boxes for {marks}, not {got}.")
    counts = []
    for i, (row, board) in enumerate(zip(rows, boards, strict=True)):
        label = f"box {i + 1}"
        if not isinstance(row, dict) or set(row) != {"board", "counts"}:
            raise ValueError(f"{label} must be an object with \"board\" and \"counts\", not {shown(row)}.")
        if row["board"] != board:
            raise ValueError(f"{label} must be the box for the board {board!r}, not {shown(row['board'])}.")
        cells = row["counts"]
        if not isinstance(cells, list) or len(cells) != 9:
            raise ValueError(f"{label} ({board}) must hold 9 counts, one per square, not {shown(cells)}.")
        moves = brain.moves_of(board)
        for square, count in enumerate(cells, start=1):
            if not whole_number(count) or not 0 <= count <= most:
                raise ValueError(f"{label} ({board}), square {square}: a count is a whole number from 0 to "
                                 f"{most:,}, not {shown(count)}.")
            if count and square not in moves:
                raise ValueError(f"{label} ({board}), square {square}: it repeats another square by a symmetry of "
                                 "the board, so it holds no beads.")
        counts.append([cells[m - 1] for m in moves])
    return brain, counts


register(GameEntry(
    name="noughts", title="noughts and crosses", choice="Noughts and crosses (MENACE)",
    brain_words="a MENACE brain", rules_class=NoughtsRules,
    make_rules=lambda start=None, max_take=None, moves=(): NoughtsRules(),
    layout=lambda rules: {}, from_layout=lambda layout: NoughtsRules(),
    opponents={
        "menace": "MENACE (it learns)",
        "perfect": "the perfect AI (exact minimax)",
        "random": "the random AI",
        "friend": "a friend (same keyboard)",
    },
    default_opponent="menace", watchable=True,
    # MENACE's second brain (for O) plays under a name of its own when MENACE plays MENACE
    ai_names={"menace": "MENACE", "perfect": "Noughts Perfect AI", "random": "Noughts Random AI",
              "menace-o": "MENACE O"},
    write_start=str, read_start=parse_board, read_move=_noughts_move,
    unfinished=lambda start, moves: f"The moves {moves} do not finish the game of noughts and crosses from the board {start!r}.",
    illegal=lambda move, exc: f"The square {move!r} cannot be marked there: {exc}",
    brains="matchboxes", learner_name="MENACE", old_brain_file=_old_brain_file,
    ai_brains=("noughts MENACE", "noughts MENACE O"), ai_brain_options=lambda side: {"seat": side},  # X's boxes, O's
    # the app's MENACE: Michie's incentives and resigning box, 12 beads a square in the first box (issue 33: with
    # Michie's 4 it empties against the perfect player in 62% of 5,000-game runs, with 12 in 0.25%:
    # benchmarks/bench_menace_beads.py); Michie's own 4,3,2,1 stays a named choice
    learner_settings={"start_balls": (12, 3, 2, 1), "win_reward": 3, "draw_reward": 1, "loss_penalty": 1,
                      "floor": "none", "empty": "resign"},
    learner_presets={"michie": ("Michie's (1961): 4,3,2,1 beads, win +3, draw +1, loss -1",
                                {"start_balls": (4, 3, 2, 1), "win_reward": 3, "draw_reward": 1, "loss_penalty": 1,
                                 "floor": "none", "empty": "resign"})},
    learner_words="the app's MENACE: 12,3,2,1 beads, win +3, draw +1, loss -1",
    training_opponent="best-at-random",
    listing_note="A MENACE brain has one box per board MENACE faces (up to symmetry) and a bead count per square.",
    position_word="board",
    scope=lambda rules: "every board MENACE can face",
    training_games=5_000, training_protocol="classic", learner_seat=0,
    lab_rules=lambda size: NoughtsRules(), lab_size=(3, 3, 3), lab_size_words="the board's side (3 only)",
))
