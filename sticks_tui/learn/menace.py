"""MENACE (Donald Michie, 1961): matchboxes of coloured beads that learn noughts and crosses.

MENACE plays X, first. Its boxes are the boards it can face with X to move, the game not over and at
least two empty squares (with one left its move is forced), each counted once up to the 8 symmetries
of the board: 304 boxes, 1 + 12 + 108 + 183 at its 1st to 4th move. A box holds beads for the empty
squares that differ up to the symmetries that leave its board unchanged.

Here a box is a row of ONE integer array, boxes x 9: column j counts the beads for square j + 1 of
the box's *canonical* board (the smallest of its 8 images as text); squares that repeat another by a
symmetry of the board hold no beads. A board in play is turned into its canonical form, a bead drawn
there, and the square mapped back.

The rule (`MenaceRule`), as options: start beads by move number (Michie: 4, 3, 2, 1), incentives
for a win, a draw and a loss, added to every bead drawn in the game (Michie: +3, +1, -1: a loss takes
the drawn bead out), and what an empty box does: MENACE resigns (Michie), or the box is refilled with
its start beads. The same rule serves a second brain for O (boxes for the boards O faces), so
MENACE can learn against itself.

This module is the readable learner; `learn.menace_kernel` is the same training compiled with numba
(and `menace_kernel.train`, the one entry point, picks the engine).
Both draw from the same xorshift64* stream (`learn.rng`) in the same order, so for the same seed they
leave the same counts bit for bit (a test holds them to it). The order of draws: a MENACE move draws
one number below its box's bead total (even a total of 1); the random and the perfect player draw one
number below their number of choices, unless there is only one choice (then none).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter

import numpy as np

from sticks_tui.engine.noughts import (BOARD_CACHE, EMPTY_BOARD, NoughtsRules, empty_squares, has_line, is_over, place,
                                       reachable_boards, to_move)
from sticks_tui.learn.batches import checkpoints
from sticks_tui.learn.rng import XorShift64Star

#: The 8 symmetries of the board as permutations of square indexes: image[i] = board[perm[i]].
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
MICHIE_BEADS = (4, 3, 2, 1)
MICHIE_INCENTIVES = (3, 1, -1)
EMPTY_RULES = ("resign", "refill")
OPPONENTS = ("random", "perfect", "menace")
#: Counts never grow past this, so a draw stays exact and the array never overflows.
MAX_BEADS = 1 << 40
WIN, DRAW, LOSS = 1, 0, -1
RESULT_WORDS = {WIN: "win", DRAW: "draw", LOSS: "loss"}


def image(board: str, perm) -> str:
    return "".join([board[p] for p in perm])


#: Each symmetry as a function picking a board's squares in its order (itemgetter: one call, not nine).
_PICKS = tuple((perm, itemgetter(*perm)) for perm in SYMMETRIES)


@lru_cache(maxsize=BOARD_CACHE)
def canonical(board: str) -> tuple[str, tuple[int, ...]]:
    """The smallest of the board's 8 images (as text) and the symmetry that gives it (the first such
    in SYMMETRIES): square i of the canonical board is square perm[i] of `board` (indexes 0-8)."""
    best, best_perm = None, SYMMETRIES[0]
    for perm, pick in _PICKS:
        candidate = "".join(pick(board))
        if best is None or candidate < best:
            best, best_perm = candidate, perm
    return best, best_perm


def distinct_squares(board: str) -> tuple[int, ...]:
    """The empty squares (indexes 0-8) of `board` that differ up to the symmetries leaving it unchanged:
    the smallest index of each set of squares that such a symmetry swaps."""
    keep = [perm for perm in SYMMETRIES if image(board, perm) == board]
    return tuple(i for i, c in enumerate(board) if c == "." and min(perm[i] for perm in keep) == i)


def bead_count(before, delta):
    """THE bead rule for one drawn bead: `delta` more (a loss's negative delta takes beads out), never
    below none and never past MAX_BEADS. Pure arithmetic: the kernel compiles it."""
    after = before + delta
    if after < 0:
        after = 0
    if after > MAX_BEADS:
        after = MAX_BEADS
    return after


@dataclass(frozen=True)
class MenaceRule:
    """Start beads by move number, the incentives for a win, a draw and a loss, and what an empty box does."""

    beads: tuple[int, int, int, int] = MICHIE_BEADS
    incentives: tuple[int, int, int] = MICHIE_INCENTIVES
    empty: str = "resign"

    def __post_init__(self) -> None:
        beads, incentives = tuple(self.beads), tuple(self.incentives)
        if len(beads) != 4 or any(isinstance(b, bool) or not isinstance(b, int) or not 1 <= b <= 1000
                                  for b in beads):
            raise ValueError(f"start beads are 4 whole numbers from 1 to 1000 (MENACE's 1st to 4th move), "
                             f"not {','.join(map(str, beads))}")
        if len(incentives) != 3 or any(isinstance(i, bool) or not isinstance(i, int) or not -1000 <= i <= 1000
                                       for i in incentives):
            raise ValueError(f"incentives are 3 whole numbers from -1000 to 1000 (win, draw, loss), "
                             f"not {','.join(map(str, incentives))}")
        if self.empty not in EMPTY_RULES:
            raise ValueError(f"an empty box must resign or refill, not {self.empty!r}")
        object.__setattr__(self, "beads", beads)
        object.__setattr__(self, "incentives", incentives)

    def delta(self, result: int) -> int:
        """Beads added to each drawn bead after a game the brain won (1), drew (0) or lost (-1)."""
        return self.incentives[0 if result == WIN else 1 if result == DRAW else 2]

    def sentence(self) -> str:
        win, draw, loss = self.incentives

        def signed(n: int) -> str:
            return f"+{n}" if n > 0 else str(n)

        empty = ("an empty box resigns the game" if self.empty == "resign"
                 else "an empty box is refilled with its start beads")
        return (f"Start beads {', '.join(map(str, self.beads))} at MENACE's 1st to 4th move; "
                f"each bead drawn gets {signed(win)} after a win, {signed(draw)} after a draw, "
                f"{signed(loss)} after a loss; {empty}.")


@dataclass(frozen=True)
class MenaceBoxes:
    """The boxes for the boards a player (`marks`: 'X' or 'O') faces with its turn to move, the game
    on and two or more squares empty, one per board up to symmetry, by move number then board text.

    X's and O's boards never meet (who is to move follows from the counts), so one brain playing both
    sides would be exactly two brains: a second brain for O is the one way to have MENACE play itself."""

    marks: str = "X"
    boards: tuple[str, ...] = field(init=False)
    rows: dict[str, int] = field(init=False, repr=False)
    squares: tuple[tuple[int, ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.marks not in ("X", "O"):
            raise ValueError(f"boxes are for X or O, not {self.marks!r}")
        found = {canonical(b)[0] for b in reachable_boards()
                 if not is_over(b) and to_move(b) == self.marks and b.count(".") >= 2}
        boards = tuple(sorted(found, key=lambda b: (move_number(b), b)))
        object.__setattr__(self, "boards", boards)
        object.__setattr__(self, "rows", {b: i for i, b in enumerate(boards)})
        object.__setattr__(self, "squares", tuple(distinct_squares(b) for b in boards))

    def __len__(self) -> int:
        return len(self.boards)

    def find(self, board: str) -> tuple[int, tuple[int, ...]] | None:
        """The box (row) for `board` and the symmetry to its canonical form; None when it has no box."""
        canon, perm = canonical(board)
        row = self.rows.get(canon)
        return None if row is None else (row, perm)


def move_number(board: str) -> int:
    """Which move of its player the move on `board` is (1-5)."""
    return board.count(to_move(board)) + 1


@lru_cache(maxsize=None)
def menace_boxes(marks: str = "X") -> MenaceBoxes:
    return MenaceBoxes(marks)


def start_counts(boxes: MenaceBoxes, rule: MenaceRule) -> np.ndarray:
    """A fresh brain: each box's distinct squares hold the start beads of its move number."""
    counts = np.zeros((len(boxes), 9), dtype=np.int64)
    for row, board in enumerate(boxes.boards):
        counts[row, list(boxes.squares[row])] = rule.beads[move_number(board) - 1]
    return counts


RESIGN = 0  # what `MenaceBrain.choose` returns when an empty box resigns


class MenaceBrain:
    """The readable learner: boxes of beads as one counts array, a bead drawn for each move."""

    def __init__(self, rule: MenaceRule | None = None, marks: str = "X", counts: np.ndarray | None = None) -> None:
        self.rule = rule or MenaceRule()
        self.boxes = menace_boxes(marks)
        self.start = start_counts(self.boxes, self.rule)
        self.counts = self.start.copy() if counts is None else counts

    # -- what the store needs of a brain ------------------------------------------------------------
    @property
    def marks(self) -> str:
        """'X' or 'O': whose boxes these are."""
        return self.boxes.marks

    @property
    def rules(self) -> NoughtsRules:
        """The game the boxes are of (the game registry knows a brain's game by its rules)."""
        return NoughtsRules()

    @property
    def legal_mask(self) -> np.ndarray:
        """Which cells of `counts` are beads: each box's squares that differ up to its symmetries."""
        return self.start > 0

    def copy(self) -> MenaceBrain:
        return MenaceBrain(self.rule, self.marks, self.counts.copy())

    def fresh(self) -> MenaceBrain:
        """The same boxes by the same rule, with their start beads."""
        return MenaceBrain(self.rule, self.marks)

    def merged(self, start: np.ndarray, trained: np.ndarray) -> MenaceBrain:
        """This brain plus a copy's change (`trained` - `start`): beads never below none nor past
        MAX_BEADS, none on a square that repeats another (a copy that emptied a box leaves it empty,
        as the copy's own game would have)."""
        start, trained = np.asarray(start, dtype=np.int64), np.asarray(trained, dtype=np.int64)
        if start.shape != self.counts.shape or trained.shape != self.counts.shape:
            raise ValueError(f"MENACE's {len(self.boxes)} boxes of 9 squares cannot take a change of shape "
                             f"{trained.shape}.")
        counts = np.where(self.legal_mask, np.clip(self.counts + (trained - start), 0, MAX_BEADS), 0)
        return MenaceBrain(self.rule, self.marks, counts)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, MenaceBrain) and self.rule == other.rule and self.marks == other.marks
                and np.array_equal(self.counts, other.counts))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"MenaceBrain({self.rule!r}, marks={self.marks!r})"

    def choose(self, board: str, rng: XorShift64Star) -> tuple[int, tuple[int, int] | None]:
        """(square 1-9, the bead drawn as (row, column)); (RESIGN, None) when an empty box resigns;
        a forced move (one square left) draws no bead."""
        found = self.boxes.find(board)
        if found is None:
            (square,) = empty_squares(board)
            return square, None
        row, perm = found
        if not self.ready(row):
            return RESIGN, None
        r = rng.randrange(int(self.counts[row].sum()))
        for col in range(9):
            if r < self.counts[row, col]:
                return perm[col] + 1, (row, col)
            r -= int(self.counts[row, col])
        raise AssertionError("unreachable: r < total")

    def ready(self, row: int) -> bool:
        """THE rule for an empty box, before a bead is drawn from box `row`: an empty box is refilled with
        its start beads (`empty = refill`: True) or stays empty, and MENACE resigns (False). The store
        applies it too, to the boxes as it keeps them, before a game's lesson (`store.matchboxes.lesson`)."""
        if self.counts[row].any():
            return True
        if self.rule.empty == "resign":
            return False
        self.counts[row] = self.start[row]
        return True

    def reinforce(self, beads: list[tuple[int, int]], result: int) -> None:
        """After a game the brain won (1), drew (0) or lost (-1): every bead it drew gets the incentive."""
        delta = self.rule.delta(result)
        for row, col in beads:
            self.counts[row, col] = bead_count(int(self.counts[row, col]), delta)

    def square_beads(self, board: str) -> tuple[int, ...] | None:
        """The beads for each square (1-9 as indexes 0-8) of `board` in play; a square that repeats
        another by a symmetry of the board has none. None where the brain has no box (a forced move,
        or the other player's turn)."""
        found = self.boxes.find(board)
        if found is None:
            return None
        row, perm = found
        beads = [0] * 9
        for col in range(9):
            beads[perm[col]] = int(self.counts[row, col])
        return tuple(beads)

    def box_chances(self, board: str) -> dict[int, float]:
        """The chance of each square (1-9) on `board` in play; {} where the box is empty or the move forced."""
        found = self.boxes.find(board)
        if found is None:
            return {}
        row, perm = found
        total = int(self.counts[row].sum())
        return {} if total == 0 else {perm[c] + 1: int(self.counts[row, c]) / total
                                      for c in range(9) if self.counts[row, c] > 0}


class RandomPlayer:
    """Any empty square, each as likely."""

    def choose(self, board: str, rng: XorShift64Star) -> tuple[int, None]:
        squares = empty_squares(board)
        return (squares[0] if len(squares) == 1 else squares[rng.randrange(len(squares))]), None


class PerfectPlayer:
    """One of the solver's best squares, each as likely: it never loses, and wins whenever it can."""

    def __init__(self) -> None:
        from sticks_tui.solve.noughts import solve_noughts

        self.solution = solve_noughts()

    def choose(self, board: str, rng: XorShift64Star) -> tuple[int, None]:
        best = self.solution.best_squares(board)
        return (best[0] if len(best) == 1 else best[rng.randrange(len(best))]), None


def play_game(x_player, o_player, rng: XorShift64Star) -> tuple[int, str]:
    """One game; returns X's result (1 win, 0 draw, -1 loss; a resignation loses) and the final board.
    A player that is a `MenaceBrain` learns from it."""
    board = EMPTY_BOARD
    drawn: dict[str, list[tuple[int, int]]] = {"X": [], "O": []}
    while True:
        mark = to_move(board)
        player = x_player if mark == "X" else o_player
        square, bead = player.choose(board, rng)
        if square == RESIGN:
            result = LOSS if mark == "X" else WIN
            break
        if bead is not None:
            drawn[mark].append(bead)
        board = place(board, square)
        if is_over(board):
            result = (WIN if mark == "X" else LOSS) if has_line(board, mark) else DRAW
            break
    if isinstance(x_player, MenaceBrain):
        x_player.reinforce(drawn["X"], result)
    if isinstance(o_player, MenaceBrain):
        o_player.reinforce(drawn["O"], -result)
    return result, board


# -- the exact chance of a result ------------------------------------------------------------------

def result_chances(brain: MenaceBrain, opponent: str) -> tuple[float, float, float]:
    """The exact chances that `brain` (as X) wins, draws and loses one game against the random or the
    perfect player (resigning counts as a loss), from its counts as they stand."""
    if opponent not in ("random", "perfect"):
        raise ValueError(f"the chance is exact against the random or the perfect player, not {opponent!r}")
    from sticks_tui.solve.noughts import solve_noughts

    solution = solve_noughts()
    chance: dict[str, tuple[float, float, float]] = {}

    def mix(pairs) -> tuple[float, float, float]:
        """The chances of a mixture: `pairs` of (weight, board after)."""
        win = draw = loss = 0.0
        for weight, after in pairs:
            w, d, lo = chance[after]
            win += weight * w
            draw += weight * d
            loss += weight * lo
        return win, draw, loss

    for board in sorted(reachable_boards(), key=lambda b: b.count(".")):
        if is_over(board):
            chance[board] = ((1.0, 0.0, 0.0) if has_line(board, "X") else (0.0, 0.0, 1.0) if has_line(board, "O")
                             else (0.0, 1.0, 0.0))
        elif to_move(board) == "O":
            options = empty_squares(board) if opponent == "random" else solution.best_squares(board)
            chance[board] = mix((1.0 / len(options), place(board, s)) for s in options)
        else:
            found = brain.boxes.find(board)
            if found is None:
                chance[board] = chance[place(board, empty_squares(board)[0])]
                continue
            row, perm = found
            counts = brain.counts[row]
            if counts.sum() == 0:
                if brain.rule.empty == "resign":
                    chance[board] = (0.0, 0.0, 1.0)
                    continue
                counts = brain.start[row]
            total = float(counts.sum())
            chance[board] = mix((float(counts[c]) / total, place(board, perm[c] + 1))
                                for c in range(9) if counts[c] > 0)
    return chance[EMPTY_BOARD]


def loss_chance(brain: MenaceBrain, opponent: str) -> float:
    """The exact chance that `brain` (as X) loses one game against the random or the perfect player."""
    return result_chances(brain, opponent)[2]


# -- a training run ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class MenaceConfig:
    games: int = 1000
    opponent: str = "perfect"  # random, perfect, or menace (a second brain learning O)
    seed: int = 0
    rule: MenaceRule = field(default_factory=MenaceRule)
    curve: bool = True

    def __post_init__(self) -> None:
        if self.opponent not in OPPONENTS:
            raise ValueError(f"the opponent is {', '.join(OPPONENTS)}, not {self.opponent!r}")
        if self.games < 0:
            raise ValueError(f"games must be 0 or more, not {self.games}")


@dataclass
class CurvePoint:
    """After `games` games: MENACE's wins, draws and losses so far, and its exact chance not to lose
    one more game against the perfect player."""

    games: int
    win: int
    draw: int
    loss: int
    not_losing_vs_perfect: float

    def as_json(self) -> dict:
        return {"games": self.games, "win": self.win, "draw": self.draw, "loss": self.loss,
                "not_losing_vs_perfect": self.not_losing_vs_perfect}


@dataclass
class MenaceRun:
    config: MenaceConfig
    brain: MenaceBrain  # X's brain
    results: dict[str, int]
    curve: list[CurvePoint]
    seconds: float
    engine: str
    notice: str | None = None
    o_brain: MenaceBrain | None = None

    @property
    def games(self) -> int:
        return sum(self.results.values())

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


def new_brains(config: MenaceConfig) -> tuple[MenaceBrain, MenaceBrain | None]:
    if config.opponent != "menace":
        return MenaceBrain(config.rule), None
    return MenaceBrain(config.rule), MenaceBrain(config.rule, "O")


def opponent_for(config: MenaceConfig, brain: MenaceBrain, o_brain: MenaceBrain | None):
    if config.opponent == "random":
        return RandomPlayer()
    if config.opponent == "perfect":
        return PerfectPlayer()
    return o_brain


def train_reference(config: MenaceConfig) -> MenaceRun:
    """Train with the readable learner (slow, the reference the kernel is held to)."""
    brain, o_brain = new_brains(config)
    opponent = opponent_for(config, brain, o_brain)
    rng = XorShift64Star(config.seed)
    tally = {WIN: 0, DRAW: 0, LOSS: 0}
    marks = set(checkpoints(config.games)) if config.curve else set()
    curve = []
    began = time.perf_counter()
    for g in range(1, config.games + 1):
        result, _ = play_game(brain, opponent, rng)
        tally[result] += 1
        if g in marks:
            curve.append(CurvePoint(g, tally[WIN], tally[DRAW], tally[LOSS],
                                    1.0 - loss_chance(brain, "perfect")))
    seconds = time.perf_counter() - began
    return MenaceRun(config, brain, {RESULT_WORDS[k]: v for k, v in tally.items()}, curve, seconds,
                     "reference", o_brain=o_brain)


# -- the game as arrays, for the kernel and the benchmarks ------------------------------------------

@dataclass(frozen=True)
class MenaceTables:
    """Every reachable board as an index (0: the empty board; fewer marks first), and for each:
    `next_pos[i, s]` the board after square s (index 0-8; -1 where taken or the game is over),
    `state[i]` 0 the game goes on, 1 three in a row (the last mover won), 2 a full board (a draw),
    `marks[i]` how many squares are marked (odd: O to move, or O made the last move),
    `x_row[i]` / `o_row[i]` the box of X's / O's brain (-1: none; the move is forced or not theirs),
    `x_perm[i, c]` / `o_perm[i, c]` the square (0-8) of the board for column c of that box,
    `best[i, :n_best[i]]` the solver's best squares (0-8), `empty[i, :n_empty[i]]` the empty squares
    (0-8, in order; none once the game is over), and each brain's start counts."""

    boards: tuple[str, ...]
    next_pos: np.ndarray
    state: np.ndarray
    marks: np.ndarray
    x_row: np.ndarray
    x_perm: np.ndarray
    o_row: np.ndarray
    o_perm: np.ndarray
    best: np.ndarray
    n_best: np.ndarray
    empty: np.ndarray
    n_empty: np.ndarray
    x_start: np.ndarray
    o_start: np.ndarray


@lru_cache(maxsize=8)
def tables(rule: MenaceRule = MenaceRule()) -> MenaceTables:
    return MenaceTables(*_board_tables(), start_counts(menace_boxes("X"), rule), start_counts(menace_boxes("O"), rule))


@lru_cache(maxsize=None)
def _board_tables() -> tuple:
    """What `tables` holds whatever the rule (all but the start counts): built once a process."""
    from sticks_tui.solve.noughts import solve_noughts

    solution = solve_noughts()
    boards = tuple(sorted(reachable_boards(), key=lambda b: (9 - b.count("."), b)))
    index = {b: i for i, b in enumerate(boards)}
    n = len(boards)
    next_pos = np.full((n, 9), -1, dtype=np.int64)
    state = np.zeros(n, dtype=np.int8)
    marks = np.array([9 - b.count(".") for b in boards], dtype=np.int64)
    rows = {m: np.full(n, -1, dtype=np.int64) for m in "XO"}
    perms = {m: np.zeros((n, 9), dtype=np.int64) for m in "XO"}
    best = np.zeros((n, 9), dtype=np.int64)
    n_best = np.zeros(n, dtype=np.int64)
    empty = np.zeros((n, 9), dtype=np.int64)
    n_empty = np.zeros(n, dtype=np.int64)
    for i, board in enumerate(boards):
        if is_over(board):
            state[i] = 1 if has_line(board, "X") or has_line(board, "O") else 2
            continue
        for square in empty_squares(board):
            next_pos[i, square - 1] = index[place(board, square)]
        squares = solution.best_squares(board)
        n_best[i] = len(squares)
        best[i, : len(squares)] = [s - 1 for s in squares]
        free = empty_squares(board)
        n_empty[i] = len(free)
        empty[i, : len(free)] = [s - 1 for s in free]
        mark = to_move(board)
        found = menace_boxes(mark).find(board)
        if found is not None:
            rows[mark][i], perms[mark][i] = found[0], found[1]
    return boards, next_pos, state, marks, rows["X"], perms["X"], rows["O"], perms["O"], best, n_best, empty, n_empty
