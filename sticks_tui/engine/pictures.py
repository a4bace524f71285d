"""Small picture descriptions of a position, for drawings made outside the app (a printed machine).

A game's rules may offer `picture(position)`, returning one of these plain values; whoever draws
(`store.machine_pdf`, the printed labels of a paper machine) knows these three shapes and no game:

- `Sticks(count)`: a heap of sticks (the Game of Sticks);
- `Piles(piles)`: piles of coins side by side (Nim);
- `Grid(rows, cells)`: a board of marks, one string a square ("" an empty one), row by row from the
  top; `cells` says which square a move marks, where a move marks one (noughts and crosses: square
  5 is the middle), so a label can colour that square with the move's bead.

A game without the hook is drawn as its `position_text`. Hexapawn's hook is one method (its moves
take a pawn from one square to another, so no square stands for a move, and `cells` stays empty):

    def picture(self, position):
        board = position[:9]
        return Grid(tuple(tuple("" if c == "." else c for c in board[r * 3: r * 3 + 3]) for r in range(3)))
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Sticks:
    count: int


@dataclass(frozen=True, slots=True)
class Piles:
    piles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Grid:
    rows: tuple[tuple[str, ...], ...]
    #: move -> (row, column) of the square it marks (moves that mark no one square are left out).
    cells: dict = field(default_factory=dict, compare=False)


Picture = Sticks | Piles | Grid


def picture_of(rules, position) -> Picture | None:
    """The rules' picture of `position`, or None where the game offers none (draw its words instead)."""
    hook = getattr(rules, "picture", None)
    return None if hook is None else hook(position)
