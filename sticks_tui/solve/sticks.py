"""The Game of Sticks solved by its recursion: a position is winning if some move leads to a losing one.

Heap 0 means the previous player took the last stick, so the player to move there has already won.
The result is computed, never assumed; tests check it against the known rule n % (k + 1) == 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sticks_tui.engine.rules import DEFAULT_MAX_TAKE, legal_moves


@dataclass(frozen=True)
class SticksSolution:
    """U(n) for 0 <= n <= size: `winning[n]` is True when the player facing n sticks can force a win."""

    size: int
    max_take: int
    winning: tuple[bool, ...]

    def is_winning(self, heap: int) -> bool:
        return self.winning[heap]

    def winning_moves(self, heap: int) -> tuple[int, ...]:
        """Every move from `heap` that leaves the opponent in a losing position (empty when lost)."""
        return tuple(m for m in legal_moves(heap, self.max_take) if not self.winning[heap - m])

    def perfect_move(self, heap: int) -> int:
        """A winning move if there is one; in a lost position take 1 so the game lasts longest."""
        moves = self.winning_moves(heap)
        return moves[0] if moves else 1

    @property
    def losing_positions(self) -> tuple[int, ...]:
        return tuple(n for n in range(1, self.size + 1) if not self.winning[n])


@lru_cache(maxsize=64)
def solve_sticks(size: int, max_take: int = DEFAULT_MAX_TAKE) -> SticksSolution:
    if size < 0 or max_take < 1:
        raise ValueError("The solver needs a heap of at least 0 and a maximum take of at least 1.")
    winning = [True]  # facing 0 sticks: the opponent took the last one
    for n in range(1, size + 1):
        winning.append(any(not winning[n - m] for m in legal_moves(n, max_take)))
    return SticksSolution(size, max_take, tuple(winning))
