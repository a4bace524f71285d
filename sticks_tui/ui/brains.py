"""What the screens read of a learner's brain, in one place: a container of counted tokens per position,
one token kind per move (the hats' balls, MENACE's matchboxes' beads).

Every game's brain is the one counts learner (`learn.hats.Hats`, issue 31); the screens ask this module
what they show of it: the words for its containers and tokens (by the game's registry entry), a
position's container in legal-move order, which (position, move) a cell of its counts is, whether its
whole brain fits one grid (the heatmap), and a game's lesson in a sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from sticks_tui.engine import registry
from sticks_tui.learn.hats import Hats
from sticks_tui.learn.lesson_words import lesson_sentence


@dataclass(frozen=True)
class BrainWords:
    container: str  # "hat", "box"
    token: str  # "ball", "bead"

    @property
    def containers(self) -> str:
        return self.container + ("es" if self.container.endswith("x") else "s")

    @property
    def tokens(self) -> str:
        return self.token + "s"


HAT_WORDS = BrainWords("hat", "ball")


def words(brain) -> BrainWords:
    """What the brain's containers and tokens are called (its game's registry entry says: hats, or
    matchboxes of beads)."""
    if brain is None:
        return HAT_WORDS
    return entry_words(registry.find(brain.rules))


def entry_words(entry) -> BrainWords:
    """What a game's learner's containers and tokens are called, by its registry entry (`brain_tokens`, else
    its `brains`: MENACE's matchboxes are boxes of beads, every other brain hats of balls)."""
    return HAT_WORDS if entry is None else BrainWords(*entry.token_words())


def container_of(brain, position, legal_moves) -> tuple[int, ...] | None:
    """The brain's tokens for each of `legal_moves` at `position` (in that order), or None where it has no
    container (a position it never faces, a forced move). A move alike to a counted one by a symmetry of the
    position (noughts) shows 0: only one of each such set is counted."""
    found = brain.find(position)
    if found is None:
        return None
    row, pairs = found
    by_move = {move: int(brain.counts[row, column]) for column, (_, move) in enumerate(pairs)}
    if not brain.folds and tuple(by_move) != tuple(legal_moves):
        return None
    return tuple(by_move.get(move, 0) for move in legal_moves)


def mirrored_moves(brain, position, legal_moves) -> tuple:
    """The moves of `legal_moves` at `position` with no tokens of their own: a brain that folds by symmetry
    (noughts' boxes) counts one move of each set alike by a turn or mirror image of the position, and the
    others show 0 in `container_of` (as an emptied move does, which is not one of these)."""
    found = brain.find(position)
    if found is None or not brain.folds:
        return ()
    counted = {move for _, move in found[1]}
    return tuple(m for m in legal_moves if m not in counted)


def container_move(brain, position, move) -> tuple | None:
    """(the container's position, its move) that counts `move` at `position`: the same pair, or in a brain that
    folds by symmetry the position and move it is a mirror image of; None where the brain has no container."""
    found = brain.find(position)
    if found is None:
        return None
    row, pairs = found
    column = next((i for i, (_, here) in enumerate(pairs) if here == move), None)
    return None if column is None else cell_of(brain, row, column)


def cell_of(brain, row: int, column: int) -> tuple:
    """The (position, move) whose tokens are `brain.counts[row, column]`."""
    position = brain._layout.rows[row]
    return position, brain._layout.moves[row][column]


def grid_fits(brain, positions: int) -> bool:
    """Whether the brain shows whole as one grid (the heatmap): each position is its own row number and
    its moves are 1, 2, ... k (sticks' hats), and there are few enough (`positions`) to read."""
    if brain.folds or positions > 120:
        return False
    layout = brain._layout  # folding nothing, a row's moves are its position's legal moves, as `moves_of` says
    return all(p is None or (p == i and moves == tuple(range(1, len(moves) + 1)))
               for i, (p, moves) in enumerate(zip(layout.rows, layout.moves, strict=True)))


def trainable(brain) -> bool:
    """Whether the app's train dialog trains this brain: every brain of the one counts learner (issue 31) by its
    own rule, for every game, in its own seat (a brain of one player's containers, MENACE's X or O, always there)."""
    return isinstance(brain, Hats)


@lru_cache(maxsize=64)
def can_draw(rules) -> bool:
    """Whether a game of `rules` can end in a draw (a move that ends it with neither player winning)."""
    from sticks_tui.learn.tables import game_tables

    tables = game_tables(rules)
    legal = np.arange(tables.next_pos.shape[1])[None, :] < tables.n_moves[:, None]
    return bool(np.any(legal & (tables.next_pos < 0) & (tables.outcome == 0)))


def cell_index(brain):
    """(position, move) -> (row, column) of a trainable brain's counts (`trainable`)."""
    return lambda position, move: (brain.row(position), brain.column(position, move))


def fresh_copy(brain):
    """A brain of the same game, rule and seat, every container as it starts (a sparring partner's)."""
    return brain.fresh()


def rule_of(brain):
    return getattr(brain, "rule", None)


def lesson_line(name: str, event, brain, label, *, detail: bool = True) -> str:
    """What one game taught `name`'s brain (`event`: the learner's `HatsReinforced`), in a sentence.
    `label(position, move)` names a move; `detail`: every token's count before → after."""
    rule = rule_of(brain)
    outcome = event.result
    w = words(brain)
    if w == HAT_WORDS:
        return lesson_sentence(name, None if outcome == 0 else outcome > 0, event.changes, rule, detail=detail)
    word = {1: "won", 0: "drew", -1: "lost"}[outcome]
    if not event.changes:
        return f"{name} {word} without drawing a {w.token}: its {w.containers} stay as they were."
    delta = rule.change(outcome)
    changes = ", ".join(f"{label(c.hat, c.ball)}: {c.before:,} → {c.after:,}" for c in event.changes)
    kept = delta < 0 and any(c.after == c.before for c in event.changes)
    floor = (f", but a {w.container} keeps its last {w.token} of each move" if kept and rule.floor == "each"
             else f", but a {w.container} keeps its last {w.token}" if kept and rule.floor == "nonempty" else "")
    return f"{name} {word}: each {w.token} it drew gets {delta:+d}{floor} ({changes})."


def brain_label(brain) -> str:
    """'hats' or 'boxes' with the brain's size: '100 hats', '304 boxes'."""
    w = words(brain)
    n = brain.size
    return f"{n} {w.containers}"


def containers(brain, rules) -> list[tuple]:
    """Every container of the brain as (position, legal moves, tokens for each move), in the brain's order."""
    positions = brain.positions
    found = []
    for position in positions:
        moves = tuple(rules.legal_moves(position))
        counts = container_of(brain, position, moves)
        if counts is not None:
            found.append((position, moves, counts))
    return found


def numbers(brain) -> dict:
    """Each container's number, as the printed machine numbers its boxes (`learn.machine.Machine`: by the move it
    serves, as MENACE's were): "box 17" is the same box in the brain view, on paper and in the paper game."""
    from sticks_tui.learn.machine import Machine

    return {box.position: box.number for box in Machine(brain).boxes}


def plies_from_start(rules) -> dict:
    """Each position reachable from the rules' start positions, and the fewest moves that reach it."""
    depth = {start: 0 for start in rules.start_positions()}
    frontier = list(depth)
    while frontier:
        following = []
        for position in frontier:
            if rules.is_terminal(position):
                continue
            for move in rules.legal_moves(position):
                after = rules.apply(position, move)
                if after not in depth:
                    depth[after] = depth[position] + 1
                    following.append(after)
        frontier = following
    return depth
