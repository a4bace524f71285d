"""MENACE (Donald Michie, 1961): the counts learner (`learn.hats`) with Michie's settings, and its words.

MENACE plays X, first. Its matchboxes are the containers of the counts learner on noughts and
crosses, for X's seat: one per board it can face with two or more empty squares (with one left its
move is forced: no box, no bead), counted once up to the 8 symmetries of the board that the rules
offer (the rules' `symmetries`): 304 boxes, 1 + 12 + 108 + 183 at its 1st to 4th move. A box
holds beads for the empty squares that differ up to the symmetries leaving its board as it is.

Michie's settings (`MENACE_RULE`): start beads 4, 3, 2, 1 by MENACE's move number; +3 beads after a
win, +1 after a draw, -1 after a loss (the drawn bead taken out), to every bead drawn; no floor (a
box may run out of beads), and an empty box resigns the game. `menace_rule` makes any other rule of
that form (start beads by move number, three incentives, resign or refill). The same rule serves a
second brain for O (the boxes for the boards O faces), so MENACE can learn against itself.

What is left here is MENACE's settings and words: `MenaceBrain` is a brain of the counts learner seen as
boxes of beads by square (what the screens and the command line show), and `sentence` says a rule. The game
it plays is the registry's word: the game whose entry names MENACE as its learner (`learner_game`), so this
module imports no game's module.
Training is the one trainer's (`learn.trainer`), and a brain's exact chances the one evaluator's
(`learn.analysis.exact_chances`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sticks_tui.engine import registry
from sticks_tui.learn.hats import MAX_COUNT, HatRule, Hats

#: MENACE's name: the game it plays is the one whose registry entry names it (`GameEntry.learner_name`).
NAME = "MENACE"

MICHIE_BEADS = (4, 3, 2, 1)
#: The app's default start beads (issue 33): with Michie's 4,3,2,1 the first box empties against the perfect
#: player in about half the 5,000-game runs, and MENACE then resigns every game; with these it empties in
#: well under 1 run in 20 (`benchmarks/bench_menace_beads.py`, docs/performance.md).
DEFAULT_BEADS = (12, 3, 2, 1)
MICHIE_INCENTIVES = (3, 1, -1)
EMPTY_RULES = ("resign", "refill")
MAX_BEADS = MAX_COUNT
WIN, DRAW, LOSS = 1, 0, -1
RESULT_WORDS = {WIN: "win", DRAW: "draw", LOSS: "loss"}
MARKS = ("X", "O")


def menace_rule(beads=MICHIE_BEADS, incentives=MICHIE_INCENTIVES, empty: str = "resign") -> HatRule:
    """MENACE's kind of rule: start beads by move number (4 numbers, MENACE's 1st to 4th move), the
    incentives for a win, a draw and a loss, and what an empty box does ('resign' or 'refill'). The
    counts learner's rule with no floor; ValueError saying what is wrong."""
    beads, incentives = tuple(beads), tuple(incentives)
    if len(beads) != 4 or any(isinstance(b, bool) or not isinstance(b, int) or not 1 <= b <= 1000 for b in beads):
        raise ValueError(f"start beads are 4 whole numbers from 1 to 1000 (MENACE's 1st to 4th move), "
                         f"not {','.join(map(str, beads))}")
    if len(incentives) != 3 or any(isinstance(i, bool) or not isinstance(i, int) for i in incentives):
        raise ValueError(f"incentives are 3 whole numbers (win, draw, loss), not {','.join(map(str, incentives))}")
    win, draw, loss = incentives
    if not 0 <= win <= 1000 or not -1000 <= draw <= 1000 or not -1000 <= loss <= 0:
        raise ValueError(f"incentives are a win from 0 to 1000, a draw from -1000 to 1000 and a loss from -1000 "
                         f"to 0 (win, draw, loss), not {','.join(map(str, incentives))}")
    if empty not in EMPTY_RULES:
        raise ValueError(f"an empty box must resign or refill, not {empty!r}")
    return HatRule(start_balls=beads, win_reward=win, loss_penalty=-loss, draw_reward=draw, floor="none", empty=empty)


MenaceRule = menace_rule
MENACE_RULE = menace_rule()


def sentence(rule: HatRule) -> str:
    """A MENACE rule in one sentence (its beads, incentives and what an empty box does)."""
    win, draw, loss = rule.incentives

    def signed(n: int) -> str:
        return f"+{n}" if n > 0 else str(n)

    empty = ("an empty box resigns the game" if rule.empty == "resign"
             else "an empty box is refilled with its start beads" if rule.empty == "refill"
             else "a box never runs out of beads")
    starts = rule.starts
    last = {2: "2nd", 3: "3rd"}.get(len(starts), f"{len(starts)}th")
    beads = (f"Start beads {', '.join(map(str, starts))} at MENACE's 1st to {last} move" if len(starts) > 1
             else f"Start beads {starts[0]} in every box")
    return (f"{beads}; each bead drawn gets {signed(win)} after a win, {signed(draw)} after a draw, "
            f"{signed(loss)} after a loss; {empty}.")


def game_rules():
    """The rules of the game MENACE plays (noughts and crosses), as the registry has them."""
    return registry.learner_game(NAME).make_rules()


def move_number(board: str) -> int:
    """Which move of its player the move on `board` is (1-5)."""
    return game_rules().move_number(board)


@dataclass(frozen=True)
class Boxes:
    """The boxes of a MENACE brain as boards: `boards[row]` the box's canonical board, `squares[row]` the
    squares (0-8) its columns hold beads for, `marks` whose boxes."""

    brain: Hats

    @property
    def marks(self) -> str:
        return MARKS[self.brain.seat] if self.brain.seat is not None else "X and O"

    @property
    def boards(self) -> tuple[str, ...]:
        return self.brain.positions

    @property
    def squares(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(s - 1 for s in moves) for moves in self.brain._layout.moves)

    def __len__(self) -> int:
        return len(self.brain.positions)

    def find(self, board: str):
        """(the row of `board`'s box, its (column, square) pairs); None when it has no box."""
        found = self.brain.find(board)
        if found is None:
            return None
        row, pairs = found
        return row, tuple(square for _, square in pairs)


class MenaceBrain(Hats):
    """MENACE's brain for X (or O): the counts learner's containers for that seat on noughts and crosses,
    with the words the screens use (boxes, beads by square)."""

    def __init__(self, rule: HatRule | None = None, marks: str = "X", counts=None) -> None:
        if marks not in MARKS:
            raise ValueError(f"boxes are for X or O, not {marks!r}")
        super().__init__(game_rules(), rule=rule or MENACE_RULE, counts=counts, seat=MARKS.index(marks))

    @classmethod
    def of(cls, brain: Hats) -> MenaceBrain:
        """The same brain (its counts shared) seen as MENACE's boxes."""
        view = cls.__new__(cls)
        view.__dict__.update(brain.__dict__)
        return view

    @property
    def marks(self) -> str:
        """'X' or 'O': whose boxes ('X and O' for a brain of both players' boxes)."""
        return MARKS[self.seat] if self.seat is not None else "X and O"

    @property
    def boxes(self) -> Boxes:
        return Boxes(self)

    def box_squares(self, row: int) -> tuple[int, ...]:
        """Box `row`'s beads by square 1-9 of its board (as indexes 0-8; 0 where it holds none)."""
        beads = [0] * 9
        for column, square in enumerate(self._layout.moves[row]):
            beads[square - 1] = int(self.counts[row, column])
        return tuple(beads)

    def square_beads(self, board: str) -> tuple[int, ...] | None:
        """The beads for each square (1-9 as indexes 0-8) of `board` in play; a square that repeats
        another by a symmetry of the board has none. None where the brain has no box (a forced move,
        or the other player's turn)."""
        found = self.find(board)
        if found is None:
            return None
        row, pairs = found
        beads = [0] * 9
        for column, (_, square) in enumerate(pairs):
            beads[square - 1] = int(self.counts[row, column])
        return tuple(beads)

    def __repr__(self) -> str:
        return f"MenaceBrain({self.rule!r}, marks={self.marks!r})"
