"""Hexapawn, the game Martin Gardner built his matchbox learner HER for (Scientific American, March 1962).

A 3x3 board, three pawns a side: White's on the near row (rank 1), Black's on the far row (rank 3);
White moves first. A pawn moves one square straight forward into an empty square, or takes an enemy
pawn one square diagonally forward. A side wins by getting a pawn to the far row, by taking every
enemy pawn, or when the side to move has no legal move. There are no draws, and with perfect play
Black (the second player, as HER was) wins.

Only the rules live here, in the game protocol (`engine.protocol`), and the game's registry entry.

- A POSITION is text: the 9 squares row by row from Black's home row (rank 3, the top as White sees the
  board) to White's (rank 1), each `W`, `B` or `.`, then `:` and the side to move: the start is
  `BBB...WWW:W`. (The side to move is written out: pawns taken leave no trace of whose turn it is.)
- A MOVE is text in chess's words: files a-c left to right as White sees the board, ranks 1-3 from
  White's side; `a1-a2` a step forward, `b1xa2` a take.
- For a learner that folds its boxes (HER's matchboxes were Black's positions up to the mirror) the rules
  offer the protocol's optional hooks: `symmetries()` (the identity and the left-right mirror, files a
  and c swapped, each with `position(p)` and `move(m)`), `mover(p)` (0 White, 1 Black) and
  `move_number(p)` (which move of the side to move the next one is: every position is reached after the
  same number of moves, whatever the way). Folded, Black faces 19 positions (37 unfolded) and White 18
  (33), forced moves included (`tests/unit/test_hexapawn.py` counts them).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from sticks_tui.engine.errors import IllegalMove
from sticks_tui.engine.protocol import WIN
from sticks_tui.engine.registry import GameEntry, register

START = "BBB...WWW:W"
SIDES = {"W": "White", "B": "Black"}
FILES = "abc"
#: Row 0 of the text is rank 3 (Black's home row), row 2 rank 1 (White's).
FORWARD = {"W": -1, "B": 1}  # rows a pawn of each side moves by
FAR_ROW = {"W": 0, "B": 2}  # the row a side wins by reaching


class HexapawnError(IllegalMove):
    """A position or move the rules of Hexapawn do not allow; the message says why."""


def square_name(index: int) -> str:
    """Square 0-8 of the text (row by row from rank 3) in chess's words: 0 is a3, 8 is c1."""
    row, col = divmod(index, 3)
    return f"{FILES[col]}{3 - row}"


def square_index(name: str) -> int:
    col, rank = FILES.index(name[0]), int(name[1])
    return (3 - rank) * 3 + col


def other(side: str) -> str:
    return "B" if side == "W" else "W"


@lru_cache(maxsize=None)
def moves_of(position: str) -> tuple[str, ...]:
    """Every move of the side to move, by the square it leaves (a3 first, row by row), a step before a
    take to the left before a take to the right. Empty at a finished position as the rules see it
    (a pawn on the far row, no pawns left) as well as where the side is blocked."""
    board, side = position[:9], position[10]
    if _winner_on_board(board) is not None:
        return ()
    enemy, step = other(side), FORWARD[side]
    found = []
    for i, piece in enumerate(board):
        if piece != side:
            continue
        row, col = divmod(i, 3)
        ahead = row + step
        if not 0 <= ahead <= 2:
            continue
        if board[ahead * 3 + col] == ".":
            found.append(f"{square_name(i)}-{square_name(ahead * 3 + col)}")
        for side_col in (col - 1, col + 1):
            if 0 <= side_col <= 2 and board[ahead * 3 + side_col] == enemy:
                found.append(f"{square_name(i)}x{square_name(ahead * 3 + side_col)}")
    return tuple(found)


def _winner_on_board(board: str) -> str | None:
    """The side that has won by the board alone: a pawn on its far row, or every enemy pawn taken."""
    if "W" in board[0:3] or "B" not in board:
        return "W"
    if "B" in board[6:9] or "W" not in board:
        return "B"
    return None


@lru_cache(maxsize=None)
def winner(position: str) -> str | None:
    """'W' or 'B' once the game is over (far row, every enemy pawn taken, or the side to move stuck);
    None while it goes on."""
    board, side = position[:9], position[10]
    won = _winner_on_board(board)
    if won is not None:
        return won
    return None if moves_of(position) else other(side)


@lru_cache(maxsize=None)
def after(position: str, move: str) -> str:
    """The position once the side to move plays `move` (a legal move; no checks)."""
    side = position[10]
    start, end = square_index(move[:2]), square_index(move[3:5])
    board = list(position[:9])
    board[start], board[end] = ".", side
    return "".join(board) + ":" + other(side)


def mirror_position(position: str) -> str:
    """The position seen in a mirror between files a and c (the same game, left and right swapped)."""
    board = position[:9]
    return "".join(board[r * 3: r * 3 + 3][::-1] for r in range(3)) + position[9:]


def mirror_move(move: str) -> str:
    """The move mirrored with its position (`mirror_position`): files a and c swapped."""
    swap = {"a": "c", "b": "b", "c": "a"}
    return f"{swap[move[0]]}{move[1]}{move[2]}{swap[move[3]]}{move[4]}"


@lru_cache(maxsize=1)
def reachable_positions() -> frozenset[str]:
    """Every position a game from the start can reach, the finished ones included."""
    return frozenset(_depths())


@lru_cache(maxsize=1)
def _depths() -> dict[str, int]:
    """The fewest moves from the start to each reachable position."""
    depth = {START: 0}
    frontier = [START]
    while frontier:
        nxt = []
        for position in frontier:
            for move in moves_of(position):
                reached = after(position, move)
                if reached not in depth:
                    depth[reached] = depth[position] + 1
                    nxt.append(reached)
        frontier = nxt
    return depth


def parse_position(text) -> str:
    """A position from its text (`BBB...WWW:W`; case, spaces and '/' or '|' between rows do not matter;
    the side to move may be written W, B, White or Black); HexapawnError saying why when it is not a
    position a game of Hexapawn reaches."""
    if not isinstance(text, str):
        raise HexapawnError(f"A Hexapawn position is text such as {START!r}, not {text!r}.")
    board, colon, side = text.partition(":")
    board = "".join(c for c in board.upper() if c not in " /|\t\n").replace("-", ".").replace("_", ".")
    side = side.strip().upper()
    side = {"WHITE": "W", "BLACK": "B"}.get(side, side)
    if not colon or side not in SIDES:
        raise HexapawnError(f"A Hexapawn position ends with ':W' or ':B' (the side to move), as in {START!r}; "
                            f"{text!r} does not.")
    if len(board) != 9:
        raise HexapawnError(f"A Hexapawn board is 9 squares of W, B and '.' (row by row from Black's side), not "
                            f"{len(board)}: {text!r}.")
    bad = sorted({c for c in board if c not in "WB."})
    if bad:
        raise HexapawnError(f"A Hexapawn board holds only W, B and '.', not {', '.join(map(repr, bad))}: {text!r}.")
    for piece in "WB":
        if board.count(piece) > 3:
            raise HexapawnError(f"{SIDES[piece]} has {board.count(piece)} pawns in {text!r}: each side has three.")
    position = f"{board}:{side}"
    if position not in reachable_positions():
        raise HexapawnError(f"No game of Hexapawn from the start reaches {position!r} "
                            f"(pawns only move forward, White first).")
    return position


def parse_move(text) -> tuple[str, str]:
    """(from square, to square) of a move typed as 'a1-a2', 'b1xa2', 'b1 a2' or 'b1a2' (any case)."""
    if not isinstance(text, str):
        raise HexapawnError(f"A Hexapawn move is text such as 'a1-a2' (a step) or 'b1xa2' (a take), not {text!r}.")
    squares = "".join(c for c in text.lower() if c not in " -x>")
    if len(squares) != 4 or any(squares[i] not in FILES or squares[i + 1] not in "123" for i in (0, 2)):
        raise HexapawnError(f"A Hexapawn move names two squares, a-c and 1-3, such as 'a1-a2' (a step) or "
                            f"'b1xa2' (a take), not {text!r}.")
    return squares[:2], squares[2:]


class HexapawnRules:
    """Hexapawn in the game protocol (`engine.protocol.GameRules`): positions are 11-character text
    (`BBB...WWW:W`), moves chess-like text (`a1-a2`, `b1xa2`); the side that moves last wins."""

    name = "Hexapawn"
    #: The two players by seat (0 moves first), in the game's words.
    seat_names = ("White", "Black")
    last_mover_wins = True  # from `outcome`: every game ends with the last mover's win

    def positions(self) -> tuple[str, ...]:
        """Every reachable position where the game goes on: those furthest from the start first (the
        protocol's "smaller positions first"), then by text."""
        return _live_positions()

    def start_positions(self) -> tuple[str]:
        return (START,)

    def legal_moves(self, position) -> tuple[str, ...]:
        return moves_of(position)

    def apply(self, position, move) -> str:
        return after(position, move)

    def is_terminal(self, position) -> bool:
        return winner(position) is not None

    def outcome(self, position) -> int:
        """At a finished position, for the side that moved last: always a win (no draws in Hexapawn)."""
        if winner(position) is None:
            raise HexapawnError(f"The game at {position!r} is not over: it has no outcome yet.")
        return WIN

    def hat_rows(self) -> tuple[str, ...]:
        return self.positions()

    # -- what a learner may fold and fill by (the protocol's optional hooks) ---------------------------

    def symmetries(self) -> tuple[Symmetry, ...]:
        """The board's symmetries that leave the game the same, the identity first: the identity and the
        left-right mirror, each with `position(p)` (the image of a position) and `move(m)` (the image of a
        move from p, a legal move of the image, with the same outcome)."""
        return SYMMETRIES

    def mover(self, position) -> int:
        """Whose turn it is: 0 White (the first player), 1 Black."""
        return 0 if position[10] == "W" else 1

    def move_number(self, position) -> int:
        """Which move of the side to move the next one is, from 1 (a game has at most 7 moves: White's 1st
        to 4th, Black's 1st to 3rd)."""
        depth = _depths().get(position)
        if depth is None:
            depth = _depths()[parse_position(position)]  # a position's text, or HexapawnError saying why
        return depth // 2 + 1

    # -- words and encoding ------------------------------------------------------------------------

    def position_text(self, position) -> str:
        board, side = position[:9], position[10]
        rows = " / ".join(" ".join(board[r * 3: r * 3 + 3]) for r in range(3))
        won = winner(position)
        if won is None:
            return f"{rows} ({SIDES[side]} to move)"
        if _winner_on_board(board) is None:
            how = f"{SIDES[side]} cannot move"
        elif other(won) not in board:
            how = f"every {SIDES[other(won)]} pawn taken"
        else:
            how = "a pawn on the far row"
        return f"{rows} ({SIDES[won]} has won: {how})"

    def move_text(self, position, move) -> str:
        verb = "takes" if move[2] == "x" else "to"
        return f"{SIDES[position[10]]} {move[:2]} {verb} {move[3:]}"

    def encode_position(self, position) -> str:
        return position

    def decode_position(self, value) -> str:
        return parse_position(value)

    def encode_move(self, move) -> str:
        return move

    def decode_move(self, position, value) -> str:
        """The legal move `value` stands for from `position` ('b1-a2' is read as the take 'b1xa2')."""
        start, end = parse_move(value)
        if winner(position) is not None:
            raise HexapawnError("The game is over: no pawn can move.")
        side = SIDES[position[10]]
        for move in moves_of(position):
            if (move[:2], move[3:]) == (start, end):
                return move
        piece = position[square_index(start)]
        if piece != position[10]:
            raise HexapawnError(f"There is no {side} pawn on {start}: it is {side}'s turn.")
        raise HexapawnError(f"The {side} pawn on {start} cannot go to {end}: a pawn moves one square straight "
                            "forward into an empty square, or takes an enemy pawn one square diagonally forward.")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HexapawnRules)

    def __hash__(self) -> int:
        return hash("hexapawn")

    def __repr__(self) -> str:
        return "HexapawnRules()"


def _same(value):
    return value


class Symmetry(NamedTuple):
    """A symmetry of the board: `position(p)` the image of a position, `move(m)` the image of a move."""

    position: Callable[[str], str]
    move: Callable[[str], str]


SYMMETRIES = (Symmetry(_same, _same), Symmetry(mirror_position, mirror_move))


@lru_cache(maxsize=1)
def _live_positions() -> tuple[str, ...]:
    depth = _depths()
    live = [p for p in reachable_positions() if winner(p) is None]
    return tuple(sorted(live, key=lambda p: (-depth[p], p)))


# -- the game's registry entry (`engine.registry`): how the layers above find it by name --------------

register(GameEntry(
    name="hexapawn", title="Hexapawn", choice="Hexapawn (Gardner's HER)", brain_words="a Hexapawn brain",
    rules_class=HexapawnRules,
    make_rules=lambda start=None, max_take=None, moves=(): HexapawnRules(),
    layout=lambda rules: {}, from_layout=lambda layout: HexapawnRules(),
    write_start=str, read_start=parse_position,
    unfinished=lambda start, moves: f"The moves {moves} do not finish the game of Hexapawn from {start!r}.",
    illegal=lambda move, exc: f"The Hexapawn move {move!r} is not allowed there: {exc}",
    opponents={
        "learning": "HER, the learning AI (Gardner's matchboxes)",
        "perfect": "the perfect AI (the solver)",
        "random": "the random AI",
        "friend": "a friend (same keyboard)",
    },
    default_opponent="learning",
    ai_names={"learning": "HER", "perfect": "Hexapawn Perfect AI", "random": "Hexapawn Random AI"},
    listing_note="A Hexapawn brain has one box per position its side moves at, up to the mirror (HER as Black: "
                 "19; as White: 18; a brain of both sides: 37), and a bead count per move.",
    position_word="board",
    scope=lambda rules: "every position HER can face",  # her side's (Black's or White's), or both in one brain
    # HER plays Black, as in Gardner's article (19 boxes up to the mirror); `train --seat white`: White's 18
    training_games=20_000, learner_seat=1, watchable=True,
    learner_seat_why="HER plays Black, as in Gardner's article, against a second learner playing White, learning too: "
                     "in our runs she learns to beat the perfect White sooner so than against the random or a perfect "
                     "White (docs/cli.md)", brain_tokens=("box", "bead"),
    # HER plays Black with a brain of Black's 19 boxes, and White with a brain of White's 18 of her own
    ai_brains=("HER White", "HER"), ai_brain_options=lambda side: {"seat": side},
))
