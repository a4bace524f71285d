"""The hats: one hat per heap size, holding counted balls numbered 1..max_take.

Counts, not lists of balls (seed 000's caveat): one integer array of shape (hats + 1, max_take);
row n is the hat for a heap of n sticks, column b - 1 counts the balls numbered b. Row 0 is unused.
The readable learner here and the compiled kernel (`learn.kernel`) work on this same array.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from sticks_tui.engine.events import HatChange

FloorRule = Literal["each", "nonempty"]
FLOOR_RULES: tuple[str, ...] = ("each", "nonempty")
#: Counts never grow past this, so a draw stays exact and the array never overflows.
MAX_COUNT = 1 << 40


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

    def __post_init__(self) -> None:
        if self.floor not in FLOOR_RULES:
            raise ValueError(f"The floor rule is 'each' or 'nonempty', not {self.floor!r}.")
        for name in ("start_balls", "win_reward", "loss_penalty"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name.replace('_', ' ')} must be a whole number, not {value!r}.")
        if not 1 <= self.start_balls <= 1000:
            raise ValueError(f"Starting balls must be between 1 and 1000, not {self.start_balls}.")
        if not 0 <= self.win_reward <= 1000:
            raise ValueError(f"The win reward must be between 0 and 1000, not {self.win_reward}.")
        if not 0 <= self.loss_penalty <= 1000:
            raise ValueError(f"The loss penalty must be between 0 and 1000, not {self.loss_penalty}.")

    @property
    def floor_code(self) -> int:
        return FLOOR_RULES.index(self.floor)


class Hats:
    """A learner's brain: the counts array plus the rule that changes it."""

    def __init__(self, size: int, max_take: int = 3, rule: HatRule | None = None,
                 counts: np.ndarray | None = None) -> None:
        if size < 1:
            raise ValueError(f"A brain needs at least one hat, not {size}.")
        if max_take < 1:
            raise ValueError(f"The most sticks a player may take must be at least 1, not {max_take}.")
        self.size = size
        self.max_take = max_take
        self.rule = rule or HatRule()
        if counts is None:
            counts = self.fresh_counts(size, max_take, self.rule.start_balls)
        else:
            counts = np.array(counts, dtype=np.int64)
            if counts.shape != (size + 1, max_take):
                raise ValueError(f"Counts of shape {counts.shape} do not fit {size} hats of {max_take} balls.")
        self.counts = counts

    @staticmethod
    def fresh_counts(size: int, max_take: int, start_balls: int = 1) -> np.ndarray:
        """`start_balls` of each legal number in every hat; a ball larger than the hat's heap is never there."""
        counts = np.zeros((size + 1, max_take), dtype=np.int64)
        for n in range(1, size + 1):
            counts[n, : min(max_take, n)] = start_balls
        return counts

    # -- reading ---------------------------------------------------------------------------
    def legal(self, hat: int) -> int:
        return min(self.max_take, hat)

    def hat(self, hat: int) -> tuple[int, ...]:
        """The counts of legal balls in hat `hat`, for balls 1..min(max_take, hat)."""
        self._check_hat(hat)
        return tuple(int(c) for c in self.counts[hat, : self.legal(hat)])

    def probabilities(self, hat: int) -> tuple[float, ...]:
        counts = self.hat(hat)
        total = sum(counts)
        return tuple(c / total for c in counts)

    def best_move(self, hat: int) -> int:
        """The most likely ball (ties go to the smaller number)."""
        counts = self.hat(hat)
        return 1 + counts.index(max(counts))

    def floor_of(self, hat: int, ball: int) -> int:
        """The fewest balls numbered `ball` hat `hat` may hold right now."""
        if self.rule.floor == "each":
            return 1
        others = sum(self.hat(hat)) - int(self.counts[hat, ball - 1])
        return 0 if others > 0 else 1

    def _check_hat(self, hat: int) -> None:
        if not 1 <= hat <= self.size:
            raise ValueError(f"There is no hat {hat}: the hats go from 1 to {self.size}.")

    # -- learning --------------------------------------------------------------------------
    def draw(self, hat: int, rng) -> int:
        """A ball from hat `hat`, each legal ball as likely as its count (only legal balls are drawn)."""
        counts = self.hat(hat)
        total = sum(counts)
        r = rng.randrange(total)
        for ball, count in enumerate(counts, start=1):
            if r < count:
                return ball
            r -= count
        raise AssertionError("unreachable: a draw fell outside the hat")  # pragma: no cover

    def reinforce(self, drawn: list[tuple[int, int]], won: bool) -> tuple[HatChange, ...]:
        """Apply the rule to every (hat, ball) drawn in a game; return what changed in each hat."""
        changes = []
        for hat, ball in drawn:
            before = int(self.counts[hat, ball - 1])
            if won:
                after = min(before + self.rule.win_reward, MAX_COUNT)
            else:
                after = max(before - self.rule.loss_penalty, self.floor_of(hat, ball))
                after = min(after, before)  # a loss never adds a ball
            self.counts[hat, ball - 1] = after
            changes.append(HatChange(hat, ball, before, after))
        return tuple(changes)

    # -- copying and comparing -------------------------------------------------------------
    def copy(self) -> Hats:
        return Hats(self.size, self.max_take, self.rule, self.counts.copy())

    def as_lists(self) -> list[list[int]]:
        """Counts as lists indexed by heap size (index 0 is an empty hat), for JSON."""
        return [[int(c) for c in row[: self.legal(n)]] if n else [] for n, row in enumerate(self.counts)]

    @classmethod
    def from_lists(cls, rows: list[list[int]], max_take: int = 3, rule: HatRule | None = None) -> Hats:
        size = len(rows) - 1
        counts = np.zeros((size + 1, max_take), dtype=np.int64)
        for n in range(1, size + 1):
            row = rows[n]
            if len(row) != min(max_take, n):
                raise ValueError(f"Hat {n} should hold {min(max_take, n)} counts, not {len(row)}.")
            counts[n, : len(row)] = row
        return cls(size, max_take, rule, counts)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Hats) and self.max_take == other.max_take
                and self.rule == other.rule and np.array_equal(self.counts, other.counts))

    def __repr__(self) -> str:
        return f"Hats(size={self.size}, max_take={self.max_take}, rule={self.rule})"

    def table(self, first: int = 1) -> str:
        """Seed 003's table: one row per hat with its counts, e.g. `  17 | {1: 6, 2: 12, 3: 1}`."""
        width = len(str(self.size))
        lines = []
        for n in range(max(1, first), self.size + 1):
            counts = self.hat(n)
            body = ", ".join(f"{b}: {c}" for b, c in enumerate(counts, start=1))
            lines.append(f"{n:>{width}} | {{{body}}}")
        return "\n".join(lines)
