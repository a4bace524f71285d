"""The hats: one hat per position of a game, holding counted balls, one number per legal move.

One brain type for every game of the game protocol (`engine.protocol.GameRules`): counts, not lists
of balls (seed 000's caveat), in ONE integer array; row i is the hat for `rules.hat_rows()[i]`, column
j counts the balls for the j-th legal move there. For sticks (`Hats(size, max_take)`) that is the
array of shape (size + 1, max_take): row n is the hat for a heap of n sticks (row 0 unused), column
b - 1 counts the balls numbered b.

The hat rule lives in `reinforced_count`, one pure function: this learner calls it, and the
compiled kernel compiles it (`learn.kernel`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np

from sticks_tui.engine.events import HatChange
from sticks_tui.engine.rules import SticksRules

FloorRule = Literal["each", "nonempty"]
FLOOR_RULES: tuple[str, ...] = ("each", "nonempty")
#: Counts never grow past this, so a draw stays exact and the array never overflows.
MAX_COUNT = 1 << 40


def reinforced_count(before, others, change, floor_code):
    """THE hat rule for one drawn ball: how many such balls the hat holds after the game.

    `change` is what the game's outcome gives each ball drawn (`HatRule.change`: the win reward, the
    draw reward, minus the loss penalty). A change of 0 or more adds that many (never past MAX_COUNT).
    A negative change removes balls, never below the floor and never adding a ball: the floor
    (floor_code 0, 'each') is 1; ('nonempty', 1) it is 0 while `others` (the hat's other legal
    balls) is above 0, else 1. `others` is only read when balls are removed under the 'nonempty'
    floor. Pure arithmetic on whole numbers: numba compiles it into the kernel.
    """
    if change >= 0:
        after = before + change
        if after > MAX_COUNT:
            after = MAX_COUNT
        return after
    floor = 1
    if floor_code == 1 and others > 0:
        floor = 0
    after = before + change
    if after < floor:
        after = floor
    if after > before:
        after = before
    return after


def other_balls(counts, row, col, legal):
    """The balls in hat `row` other than column `col`, over its `legal` columns (pure; compiled too)."""
    others = counts[row, 0] * 0
    for j in range(legal):
        if j != col:
            others += counts[row, j]
    return others


#: The range of each whole-number field of a `HatRule`: the one place they are written (the training
#: dialog and `sticks-tui train` read them here).
RULE_LIMITS: dict[str, tuple[int, int]] = {"start_balls": (1, 1000), "win_reward": (0, 1000),
                                           "loss_penalty": (0, 1000), "draw_reward": (-1000, 1000)}
RULE_NAMES = {"start_balls": "Starting balls", "win_reward": "The win reward", "loss_penalty": "The loss penalty",
              "draw_reward": "The draw reward"}


@dataclass(frozen=True, slots=True)
class HatRule:
    """How a learner changes its hats.

    floor="each": a hat keeps at least one ball of every legal number (seeds 000/001).
    floor="nonempty": a hat only has to keep one legal ball in all (seed 003's variant).
    """

    start_balls: int = 1
    win_reward: int = 1
    loss_penalty: int = 1
    floor: FloorRule = "each"
    #: What a draw gives each ball drawn (negative: takes away, as a loss does). Sticks and Nim never
    #: draw; noughts and crosses MENACE-style gives +1 (win +3, draw +1, loss -1).
    draw_reward: int = 0

    def __post_init__(self) -> None:
        if self.floor not in FLOOR_RULES:
            raise ValueError(f"The floor rule is 'each' or 'nonempty', not {self.floor!r}.")
        for name, (low, high) in RULE_LIMITS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name.replace('_', ' ')} must be a whole number, not {value!r}.")
            if not low <= value <= high:
                raise ValueError(f"{RULE_NAMES[name]} must be between {low} and {high}, not {value}.")

    @property
    def floor_code(self) -> int:
        return FLOOR_RULES.index(self.floor)

    def lowest(self, others):
        """The fewest balls of a number a hat may be left with by this rule, when its other numbers hold
        `others` balls (an int or an array): what the heaviest loss would leave, by `reinforced_count`."""
        if np.ndim(others) == 0:
            return int(reinforced_count(MAX_COUNT, int(others), -MAX_COUNT, self.floor_code))
        one = np.vectorize(lambda o: reinforced_count(MAX_COUNT, int(o), -MAX_COUNT, self.floor_code), otypes=[np.int64])
        return one(np.asarray(others, dtype=np.int64))

    def change(self, outcome: int) -> int:
        """What a game's outcome for the learner (+1 win, 0 draw, -1 loss) gives each ball it drew."""
        return self.changes[outcome + 1]

    @property
    def changes(self) -> tuple[int, int, int]:
        """`change` for a loss, a draw and a win, in that order (indexed by outcome + 1)."""
        return (-self.loss_penalty, self.draw_reward, self.win_reward)


#: The seeds' rule (the default) and a MENACE-like one: Michie's matchbox learner started each box
#: with several beads, so a loss visibly takes one away even before the first win.
SEEDS_RULE = HatRule()
MENACE_RULE = HatRule(start_balls=3, win_reward=3, loss_penalty=1)
RULE_PRESETS: dict[str, HatRule] = {"seeds": SEEDS_RULE, "menace": MENACE_RULE}


@dataclass(frozen=True)
class _Layout:
    """Where each hat lives in the counts array, for one game instance (shared by every brain of it)."""

    rows: tuple  # the position of each row; None: unused
    index: dict  # position -> row
    moves: tuple  # the legal moves of each row, in order (empty for unused rows)
    move_index: tuple  # per row: move -> column
    n_moves: np.ndarray  # (rows,) int64
    width: int
    legal_mask: np.ndarray  # (rows, width) bool: the cells that are balls


@lru_cache(maxsize=32)
def _layout(rules) -> _Layout:
    rows = tuple(rules.hat_rows())
    moves = tuple(() if p is None else tuple(rules.legal_moves(p)) for p in rows)
    index = {p: i for i, p in enumerate(rows) if p is not None}
    if not index:
        raise ValueError("A brain needs at least one position with a move.")
    if any(p is not None and not ms for p, ms in zip(rows, moves, strict=True)):
        raise ValueError("Every position with a hat must have a legal move.")
    n_moves = np.array([len(ms) for ms in moves], dtype=np.int64)
    n_moves.flags.writeable = False
    # a sticks brain keeps a column for every ball up to its max take, even where no heap is that big
    width = max(1, int(n_moves.max()), int(getattr(rules, "max_take", 0) or 0))
    legal_mask = np.arange(width)[None, :] < n_moves[:, None]
    legal_mask.flags.writeable = False
    return _Layout(rows, index, moves, tuple({m: j for j, m in enumerate(ms)} for ms in moves), n_moves, width,
                   legal_mask)


class Hats:
    """A learner's brain: the counts array plus the rule that changes it, for one game instance.

    `Hats(size, max_take, rule, counts)` is a sticks brain (hats for heaps 1..size);
    `Hats(rules, rule=..., counts=...)` is a brain for any game of the protocol (e.g. `NimRules`).
    For sticks `size` is the largest heap and `max_take` the most sticks a move; for other games
    `size` is the number of hats and `max_take` the most balls a hat holds kinds of.
    """

    def __init__(self, size=20, max_take: int = 3, rule: HatRule | None = None,
                 counts: np.ndarray | None = None) -> None:
        if isinstance(max_take, HatRule):  # Hats(rules, rule): the rule given second
            rule, max_take = max_take, 3
        if isinstance(size, int) and not isinstance(size, bool):
            if size < 1:
                raise ValueError(f"A brain needs at least one hat, not {size}.")
            if max_take < 1:
                raise ValueError(f"The most sticks a player may take must be at least 1, not {max_take}.")
            rules = SticksRules(size, max_take)
        else:
            rules = size
        self.rules = rules
        self.rule = rule or HatRule()
        self._layout = layout = _layout(rules)
        # sticks: the largest heap and the most sticks a move (hats 1..size, a column per take)
        self.size, self.max_take = len(layout.index), layout.width
        shape = (len(layout.rows), layout.width)
        if counts is None:
            counts = np.zeros(shape, dtype=np.int64)
            for i, n in enumerate(layout.n_moves):
                counts[i, :n] = self.rule.start_balls
        else:
            counts = np.array(counts, dtype=np.int64)
            if counts.shape != shape:
                raise ValueError(f"Counts of shape {counts.shape} do not fit {self.size} hats of "
                                 f"{layout.width} balls.")
        self.counts = counts

    # -- the layout --------------------------------------------------------------------------
    @property
    def positions(self) -> tuple:
        """Every position with a hat, in row order."""
        return tuple(p for p in self._layout.rows if p is not None)

    states = positions

    @property
    def n_moves(self) -> np.ndarray:
        return self._layout.n_moves

    @property
    def legal_mask(self) -> np.ndarray:
        """Which cells of `counts` are balls: row i holds its first `n_moves[i]` columns (read-only)."""
        return self._layout.legal_mask

    def has_hat(self, position) -> bool:
        return position in self._layout.index

    def row(self, position) -> int:
        try:
            return self._layout.index[position]
        except (KeyError, TypeError):
            raise ValueError(f"There is no hat for {position!r} in this brain: its hats go from "
                             f"{self.positions[0]!r} to {self.positions[-1]!r}.") from None

    def moves_of(self, position) -> tuple:
        """The legal moves at `position`: the balls of its hat, in order."""
        return self._layout.moves[self.row(position)]

    def legal(self, position) -> int:
        """How many kinds of ball the hat for `position` holds."""
        return int(self._layout.n_moves[self.row(position)])

    def cannot_train(self, rules) -> str | None:
        """Why this brain cannot train on the game `rules` (None when it can): a brain of the same game
        with a hat for each of that game's positions, with the same balls, laid out alike in its first rows (a bigger brain of
        the same game, such as a sticks brain of more hats than the heap trained, plays through a view
        of its first rows)."""
        game, own = _layout(rules), self._layout
        n = len(game.rows)
        if type(self.rules) is not type(rules) or own.width != game.width or own.rows[:n] != game.rows \
                or own.moves[:n] != game.moves:
            return (f"A brain for {self.rules!r} cannot train on {rules!r}: it needs a hat for each of its "
                    "positions, with the same moves.")
        return None

    def cannot_play(self, state) -> str | None:
        """Why this brain cannot move in the game `state` (None when it can)."""
        position = state.position
        if not self.has_hat(position):
            return (f"This brain has no hat for {state.rules.position_text(position)}: it has hats up to "
                    f"{self.rules.position_text(self.positions[-1])}.")
        if tuple(self.moves_of(position)) != tuple(state.legal_moves):
            return (f"This brain plays other moves here ({list(self.moves_of(position))}) than this game "
                    f"allows ({list(state.legal_moves)}).")
        return None

    # -- reading ---------------------------------------------------------------------------
    def hat(self, position) -> tuple[int, ...]:
        """The counts of the legal balls in the hat for `position`, in `moves_of(position)` order."""
        i = self.row(position)
        return tuple(int(c) for c in self.counts[i, : self._layout.n_moves[i]])

    def probabilities(self, position) -> tuple[float, ...]:
        counts = self.hat(position)
        total = sum(counts)
        return tuple(c / total for c in counts)

    def best_move(self, position):
        """The most likely move (ties go to the first in legal-move order)."""
        counts = self.hat(position)
        return self.moves_of(position)[counts.index(max(counts))]

    def floor_of(self, position, move) -> int:
        """The fewest balls for `move` the hat for `position` may hold right now: what the heaviest
        loss would leave, by the hat rule itself."""
        i = self.row(position)
        j = self._layout.move_index[i][move]
        return self.rule.lowest(other_balls(self.counts, i, j, int(self._layout.n_moves[i])))

    # -- learning --------------------------------------------------------------------------
    def draw(self, position, rng):
        """A move from the hat for `position`, each as likely as its count (only legal balls are drawn)."""
        counts = self.hat(position)
        r = rng.randrange(sum(counts))
        for j, count in enumerate(counts):
            if r < count:
                return self.moves_of(position)[j]
            r -= count
        raise AssertionError("unreachable: a draw fell outside the hat")  # pragma: no cover

    def reinforce(self, drawn, won: bool | None = None, *, outcome: int | None = None) -> tuple[HatChange, ...]:
        """Apply the hat rule to every (position, move) drawn in a game; return what changed.

        The game's result for this learner: `won` (True a win, False a loss), or `outcome` (+1 win,
        0 draw, -1 loss) for games that can end in a draw; exactly one of them."""
        if (won is None) == (outcome is None):
            raise ValueError("A lesson needs the game's result: won, or an outcome, not both.")
        if outcome is None:
            outcome = 1 if won else -1
        elif outcome not in (-1, 0, 1):
            raise ValueError(f"An outcome is +1 (a win), 0 (a draw) or -1 (a loss), not {outcome!r}.")
        rule = self.rule
        change = rule.change(outcome)
        layout = self._layout
        changes = []
        for position, move in drawn:
            i = self.row(position)
            j = layout.move_index[i][move]
            before = int(self.counts[i, j])
            others = 0
            if change < 0 and rule.floor_code == 1:
                others = int(other_balls(self.counts, i, j, int(layout.n_moves[i])))
            after = int(reinforced_count(before, others, change, rule.floor_code))
            self.counts[i, j] = after
            changes.append(HatChange(position, move, before, after))
        return tuple(changes)

    # -- copying and comparing -------------------------------------------------------------
    def copy(self) -> Hats:
        return Hats(self.rules, self.max_take, self.rule, self.counts.copy())

    def as_lists(self) -> list[list[int]]:
        """Counts as lists by row (for sticks: by heap size, index 0 an empty hat), for JSON."""
        return [[int(c) for c in row[:n]] for row, n in zip(self.counts, self._layout.n_moves, strict=True)]

    @classmethod
    def from_lists(cls, rows: list[list[int]], max_take: int = 3, rule: HatRule | None = None) -> Hats:
        """A sticks brain from `as_lists()` rows."""
        brain = cls(len(rows) - 1, max_take, rule)
        for n in range(1, brain.size + 1):
            row, legal = rows[n], int(brain.n_moves[n])
            if len(row) != legal:
                raise ValueError(f"Hat {n} should hold {legal} counts, not {len(row)}.")
            brain.counts[n, :legal] = row
        return brain

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Hats) and self.rules == other.rules
                and self.rule == other.rule and np.array_equal(self.counts, other.counts))

    def __repr__(self) -> str:
        return f"Hats({self.rules!r}, rule={self.rule})"

    def table(self, first: int = 1) -> str:
        """Seed 003's table: one row per hat with its counts, e.g. `  17 | {1: 6, 2: 12, 3: 1}`."""
        positions = [p for p in self.positions if not isinstance(p, int) or p >= first]
        width = max(len(str(p)) for p in positions) if positions else 1
        lines = []
        for p in positions:
            body = ", ".join(f"{m}: {c}" for m, c in zip(self.moves_of(p), self.hat(p), strict=True))
            lines.append(f"{p!s:>{width}} | {{{body}}}")
        return "\n".join(lines)
