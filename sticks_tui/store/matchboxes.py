"""MENACE's matchboxes in the brains table (issue 18): the games whose registry entry keeps
`brains="matchboxes"` (noughts and crosses).

A MENACE brain (`learn.menace.MenaceBrain`) is one row of `brains`, as any brain is: `game` the game's
name, `size` its number of boxes (304 for X, 289 for O), `max_take` 9 (a column per square), `counts`
the boxes x 9 array as JSON lists, and `shape` its layout and rule as JSON:
`{"marks": "X", "beads": [4, 3, 2, 1], "incentives": [3, 1, -1], "empty": "resign"}`. MENACE's rule
(start beads by move number, an incentive for a win, a draw and a loss, what an empty box does) does
not fit the hat-rule columns (one start count, a win reward and a loss penalty of 0 or more, a floor),
so it lives whole in `shape`; those columns hold what of it they can (`rule_columns`) for a listing,
and are never read back for a MENACE brain.
"""

from __future__ import annotations

import json

import numpy as np

from sticks_tui.engine.events import HatChange
from sticks_tui.learn.menace import MAX_BEADS, MenaceBrain, MenaceRule, menace_boxes

#: The hat-rule columns' floor for a MENACE brain (a box may lose every bead: MENACE then resigns).
FLOOR = "nonempty"


def layout(brain: MenaceBrain) -> str:
    rule = brain.rule
    return json.dumps({"marks": brain.marks, "beads": list(rule.beads), "incentives": list(rule.incentives),
                       "empty": rule.empty}, separators=(",", ":"))


def rule_of(shape: str | None) -> tuple[str, MenaceRule]:
    """(marks, rule) of a stored layout; ValueError saying why if it is not one."""
    try:
        raw = json.loads(shape or "")
        marks = raw["marks"]
        rule = MenaceRule(tuple(raw["beads"]), tuple(raw["incentives"]), raw["empty"])
    except (ValueError, TypeError, KeyError) as exc:
        raise ValueError(f"its MENACE layout is not one ({exc})") from None
    if marks not in ("X", "O"):
        raise ValueError(f"its boxes are for X or O, not {marks!r}")
    return marks, rule


def rule_columns(brain: MenaceBrain) -> tuple[int, int, int, str, int]:
    """(start_balls, win_reward, loss_penalty, floor, draw_reward) for the hat-rule columns: the first box's
    start beads, the win incentive, the loss incentive's beads taken and the draw incentive, held within
    those columns' ranges."""
    win, draw, loss = brain.rule.incentives
    return brain.rule.beads[0], min(max(win, 0), 1000), min(max(-loss, 0), 1000), FLOOR, draw


def validate(brain: MenaceBrain) -> None:
    counts = np.asarray(brain.counts)
    if counts.shape != brain.start.shape or (counts < 0).any() or (counts > MAX_BEADS).any() \
            or counts[~brain.legal_mask].any():
        raise ValueError("This MENACE brain's counts are damaged (negative, too big, on a repeated square, "
                         "or the wrong shape); it was not saved.")


def encode(brain: MenaceBrain) -> tuple[int, int, str, str]:
    """(size, max_take, shape, counts JSON) of a MENACE brain."""
    return (len(brain.boxes), 9, layout(brain),
            json.dumps(np.asarray(brain.counts).tolist(), separators=(",", ":")))


def decode(shape: str | None, counts_json: str) -> MenaceBrain:
    """The MENACE brain of a stored row; ValueError saying why if it is not one."""
    marks, rule = rule_of(shape)
    boxes = menace_boxes(marks)
    rows = json.loads(counts_json)
    if not isinstance(rows, list) or len(rows) != len(boxes) \
            or any(not isinstance(r, list) or len(r) != 9 for r in rows):
        raise ValueError(f"its counts are not {len(boxes)} boxes of 9 squares")
    if any(isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= MAX_BEADS for r in rows for c in r):
        raise ValueError(f"its counts are not whole numbers from 0 to {MAX_BEADS}")
    brain = MenaceBrain(rule, marks, np.array(rows, dtype=np.int64))
    validate(brain)
    return brain


def drawn_from(brain: MenaceBrain, drawn) -> list[tuple[int, int]]:
    """The (row, column) of each bead `brain` drew in a game (`drawn`: (board, square) pairs), each box made
    ready to draw from by the brain's own rule (`MenaceBrain.ready`): under `empty = refill` a box kept
    empty is refilled with its start beads, as the game refilled it to draw. A board with no box of this
    brain, or a square with no beads in its box, raises ValueError."""
    beads = []
    for board, square in drawn:
        found = brain.boxes.find(board) if isinstance(board, str) else None
        if found is None:
            raise ValueError(f"MENACE ({brain.marks}) has no box for the board {board!r}.")
        row, perm = found
        col = perm.index(int(square) - 1) if isinstance(square, int) and 1 <= square <= 9 else -1
        if col < 0 or not brain.legal_mask[row, col]:
            raise ValueError(f"MENACE's box for the board {board!r} has no beads for square {square!r}.")
        brain.ready(row)
        beads.append((row, col))
    return beads


def lesson(brain: MenaceBrain, drawn, outcome: int) -> list[HatChange]:
    """Teach `brain` a game's lesson in place, by its rule: `drawn` the (board, square) of each bead it drew,
    the game's `outcome` for it (+1, 0, -1). Returns each bead's change (hat: the board, ball: the square;
    before: as the game drew from the box, refilled if the rule refilled it); a board with no box of this
    brain, or a square with no beads in it, raises ValueError."""
    beads = drawn_from(brain, drawn)
    before = [int(brain.counts[r, c]) for r, c in beads]
    brain.reinforce(beads, outcome)
    return [HatChange(board, int(square), was, int(brain.counts[r, c]))
            for (board, square), (r, c), was in zip(drawn, beads, before, strict=True)]
