"""The counts learner: a container of counted tokens for each position it faces, one count per move.

A hat of numbered balls (the seeds' Game of Sticks) and a matchbox of coloured beads (Michie's MENACE,
1961) are the same learner, and this is its one readable form, for every game of the protocol
(`engine.protocol.GameRules`). Its settings are a `HatRule`:

- start tokens: `start_balls`, one number for every container (the seeds: 1), or one number per move
  number of the player to move (MENACE: 4, 3, 2, 1 beads at its 1st to 4th move; the rules'
  `move_number` says which it is; past the last number the last one holds);
- incentives: `win_reward`, `draw_reward` and `loss_penalty`, given to every token drawn in a game
  after it ends (MENACE: +3, +1, -1);
- the floor: 'each' (every move keeps one token), 'nonempty' (the container keeps one token in all),
  or 'none' (tokens may run out: MENACE);
- what an empty container does: under the floors 'each' and 'nonempty' it cannot happen; under 'none'
  the learner resigns the game (`empty='resign'`, Michie) or the container is refilled with its start
  tokens (`empty='refill'`) before it draws.

A forced move (one legal move) draws no token and teaches nothing, on every game: the learner just
makes it (`forced`). MENACE is this learner with Michie's settings (`learn.menace.MENACE_RULE`).

The position encoding (`_layout`): one container per row of ONE integer array, in the order of the
rules' `hat_rows()`; column j counts the tokens for the j-th move of that container. Where the rules
offer `symmetries()` (noughts and crosses: the square's 8), positions alike up to a symmetry share one
container (the row of their canonical form) and a container keeps one count per move up to the
symmetries that leave its position as it is: MENACE's 304 boxes for X. Where they offer `mover`, a
brain may keep containers for one seat only (`seat`: 0 the first player, 1 the second). Sticks and
Nim fold nothing: row n of a sticks brain is the hat for a heap of n sticks, column b - 1 counts the
balls numbered b.

The token rule lives in `reinforced_count`, one pure function: this learner calls it, and the
compiled loop compiles it (`learn.kernel`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import numpy as np

from sticks_tui.engine.events import HatChange

FloorRule = Literal["each", "nonempty", "none"]
FLOOR_RULES: tuple[str, ...] = ("each", "nonempty", "none")
#: What an empty container does (only under the floor 'none'; under the others it cannot happen).
EMPTY_RULES: tuple[str, ...] = ("resign", "refill")
NEVER_EMPTY = "never"
#: Counts never grow past this, so a draw stays exact and the array never overflows.
MAX_COUNT = 1 << 40
#: What `Hats.draw` returns when an empty container resigns the game.
RESIGN = None


def reinforced_count(before, others, change, floor_code):
    """THE token rule for one drawn token: how many such tokens the container holds after the game.

    `change` is what the game's outcome gives each token drawn (`HatRule.change`: the win reward, the
    draw reward, minus the loss penalty). A change of 0 or more adds that many (never past MAX_COUNT).
    A negative change removes tokens, never below the floor and never adding one: the floor
    (floor_code 0, 'each') is 1; (1, 'nonempty') it is 0 while `others` (the container's other
    tokens) is above 0, else 1; (2, 'none') it is 0. `others` is only read when tokens are removed
    under the 'nonempty' floor. Pure arithmetic on whole numbers: numba compiles it into the kernel.
    """
    if change >= 0:
        after = before + change
        if after > MAX_COUNT:
            after = MAX_COUNT
        return after
    floor = 1
    if floor_code == 2 or (floor_code == 1 and others > 0):
        floor = 0
    after = before + change
    if after < floor:
        after = floor
    if after > before:
        after = before
    return after


def other_balls(counts, row, col, legal):
    """The tokens in container `row` other than column `col`, over its `legal` columns (pure; compiled too)."""
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
#: The most start numbers by move number a rule holds.
MAX_START_NUMBERS = 9


def _whole(value) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class HatRule:
    """How a counts learner fills and changes its containers (see the module's words).

    `start_balls`: one number, or a tuple of numbers by the mover's move number (MENACE's 4, 3, 2, 1).
    floor="each": a hat keeps at least one ball of every legal number (seeds 000/001).
    floor="nonempty": a hat only has to keep one legal ball in all (seed 003's variant).
    floor="none": tokens may run out (MENACE); `empty` says what an empty container does then.
    """

    start_balls: int | tuple[int, ...] = 1
    win_reward: int = 1
    loss_penalty: int = 1
    floor: FloorRule = "each"
    #: What a draw gives each ball drawn (negative: takes away, as a loss does). Sticks and Nim never
    #: draw; MENACE gives +1 (win +3, draw +1, loss -1).
    draw_reward: int = 0
    #: What an empty container does: 'resign' or 'refill' under the floor 'none' (default 'resign');
    #: 'never' under the others, where it cannot happen.
    empty: str | None = None

    def __post_init__(self) -> None:
        if self.floor not in FLOOR_RULES:
            raise ValueError(f"The floor rule is 'each', 'nonempty' or 'none', not {self.floor!r}.")
        start = self.start_balls
        if isinstance(start, list | tuple):
            starts = tuple(start)
            if not 1 <= len(starts) <= MAX_START_NUMBERS:
                raise ValueError(f"Start balls by move number are 1 to {MAX_START_NUMBERS} numbers, not {len(starts)}.")
        else:
            starts = (start,)
        low, high = RULE_LIMITS["start_balls"]
        for value in starts:
            if not _whole(value):
                raise ValueError(f"start balls must be a whole number, not {value!r}.")
            if not low <= value <= high:
                raise ValueError(f"{RULE_NAMES['start_balls']} must be between {low} and {high}, not {value}.")
        object.__setattr__(self, "start_balls", int(starts[0]) if len(starts) == 1 else tuple(int(v) for v in starts))
        for name in ("win_reward", "loss_penalty", "draw_reward"):
            value = getattr(self, name)
            if not _whole(value):
                raise ValueError(f"{name.replace('_', ' ')} must be a whole number, not {value!r}.")
            low, high = RULE_LIMITS[name]
            if not low <= value <= high:
                raise ValueError(f"{RULE_NAMES[name]} must be between {low} and {high}, not {value}.")
            object.__setattr__(self, name, int(value))
        empty = self.empty
        if self.floor == "none":
            empty = "resign" if empty is None else empty
            if empty not in EMPTY_RULES:
                raise ValueError(f"An empty container resigns or is refilled ('resign' or 'refill'), not {empty!r}.")
        elif empty not in (None, NEVER_EMPTY):
            raise ValueError(f"Under the floor {self.floor!r} a container never empties: it cannot {empty!r}.")
        else:
            empty = NEVER_EMPTY
        object.__setattr__(self, "empty", empty)

    # -- start tokens ------------------------------------------------------------------------------
    @property
    def starts(self) -> tuple[int, ...]:
        """The start tokens by move number (one number: every container alike)."""
        return self.start_balls if isinstance(self.start_balls, tuple) else (self.start_balls,)

    def start_for(self, move_number: int) -> int:
        """The start tokens of each move in a container whose mover makes its `move_number`-th move."""
        starts = self.starts
        return starts[min(max(move_number, 1), len(starts)) - 1]

    # -- the codes the compiled loop reads -----------------------------------------------------------
    @property
    def floor_code(self) -> int:
        return FLOOR_RULES.index(self.floor)

    @property
    def empty_code(self) -> int:
        """0 never empty, 1 an empty container resigns, 2 it is refilled."""
        return 0 if self.empty == NEVER_EMPTY else 1 + EMPTY_RULES.index(self.empty)

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

    @property
    def incentives(self) -> tuple[int, int, int]:
        """MENACE's words for the changes: what a win, a draw and a loss give each bead drawn."""
        return (self.win_reward, self.draw_reward, -self.loss_penalty)

    beads = starts  # MENACE's word for the start tokens


#: The seeds' rule (the default) and a MENACE-like one for hats: Michie's learner started each box
#: with several beads, so a loss visibly takes one away even before the first win.
SEEDS_RULE = HatRule()
MENACE_RULE = HatRule(start_balls=3, win_reward=3, loss_penalty=1)
RULE_PRESETS: dict[str, HatRule] = {"seeds": SEEDS_RULE, "menace": MENACE_RULE}


# -- the position encoding ---------------------------------------------------------------------------

@lru_cache(maxsize=1 << 16)
def _fold(rules, position) -> tuple:
    """(the canonical position of `position`'s class, its symmetry: a tuple of (move at the canonical
    position, the same move at `position`) pairs, in the canonical position's legal-move order)."""
    symmetries = getattr(rules, "symmetries", None)
    if symmetries is None:
        return position, None
    best = best_sym = None
    for sym in symmetries():
        img = sym.position(position)
        key = json.dumps(rules.encode_position(img))
        if best is None or key < best[0]:
            best, best_sym = (key, img), sym
    canon = best[1]
    back = {best_sym.move(m): m for m in rules.legal_moves(position)}
    return canon, tuple((m, back[m]) for m in rules.legal_moves(canon))


def _distinct_moves(rules, canon) -> tuple:
    """The moves at `canon` that differ up to the symmetries leaving it as it is (the first of each set
    in legal-move order)."""
    moves = tuple(rules.legal_moves(canon))
    symmetries = getattr(rules, "symmetries", None)
    if symmetries is None:
        return moves
    keep = [sym for sym in symmetries() if sym.position(canon) == canon]
    order = {m: i for i, m in enumerate(moves)}
    return tuple(m for m in moves if min(order[sym.move(m)] for sym in keep) == order[m])


@lru_cache(maxsize=1 << 16)
def forced(rules, position) -> bool:
    """A forced move: one legal move, made without a draw, teaching nothing (on every game)."""
    return len(rules.legal_moves(position)) == 1


@dataclass(frozen=True, eq=False)
class _Layout:
    """Where each container lives in the counts array, for one game instance and seat (shared by every
    brain of them)."""

    rows: tuple  # the (canonical) position of each row; None: unused
    index: dict  # canonical position -> row
    moves: tuple  # the container's moves of each row, in order (empty for unused rows)
    move_index: tuple  # per row: move -> column
    n_moves: np.ndarray  # (rows,) int64
    width: int
    legal_mask: np.ndarray  # (rows, width) bool: the cells that are balls
    move_numbers: np.ndarray  # (rows,) int64: which move of its player each row's position is
    folds: bool
    seat: int | None
    #: position -> what `Hats.find` answers for it (and its moves at that position), kept as asked
    found: dict = field(default_factory=dict, repr=False)


@lru_cache(maxsize=64)
def _layout(rules, seat: int | None = None) -> _Layout:
    folds = getattr(rules, "symmetries", None) is not None
    if seat is not None and getattr(rules, "mover", None) is None:
        raise ValueError(f"The game {rules!r} does not say whose turn a position is: a brain cannot keep one "
                         "player's containers only.")
    if seat not in (None, 0, 1):
        raise ValueError(f"A seat is 0 (the first player) or 1 (the second), not {seat!r}.")
    rows: list = []
    for p in rules.hat_rows():
        if p is None:
            if not (folds or seat is not None):
                rows.append(None)
            continue
        if seat is not None and rules.mover(p) != seat:
            continue
        canon = _fold(rules, p)[0] if folds else p
        if folds and canon in rows:
            continue
        rows.append(canon)
    if folds:
        rows = list(dict.fromkeys(rows))
    moves = tuple(() if p is None else (_distinct_moves(rules, p) if folds else tuple(rules.legal_moves(p)))
                  for p in rows)
    index = {p: i for i, p in enumerate(rows) if p is not None}
    if not index:
        raise ValueError("A brain needs at least one position with a move.")
    if any(p is not None and not ms for p, ms in zip(rows, moves, strict=True)):
        raise ValueError("Every position with a hat must have a legal move.")
    n_moves = np.array([len(ms) for ms in moves], dtype=np.int64)
    n_moves.flags.writeable = False
    # the columns its game's brains keep, where its entry says (sticks: one a take up to its max take, even where
    # no heap is that big); else the most moves a container holds
    from sticks_tui.engine import registry

    width = max(1, int(n_moves.max()), registry.move_columns(rules))
    legal_mask = np.arange(width)[None, :] < n_moves[:, None]
    legal_mask.flags.writeable = False
    number = getattr(rules, "move_number", None)
    move_numbers = np.array([1 if p is None or number is None else number(p) for p in rows], dtype=np.int64)
    move_numbers.flags.writeable = False
    return _Layout(tuple(rows), index, moves, tuple({m: j for j, m in enumerate(ms)} for ms in moves), n_moves,
                   width, legal_mask, move_numbers, folds, seat)


@lru_cache(maxsize=64)
def start_counts(layout: _Layout, rule: HatRule) -> np.ndarray:
    """A fresh brain's counts: each container's moves hold the start tokens of its move number (read-only)."""
    counts = np.zeros((len(layout.rows), layout.width), dtype=np.int64)
    for i, n in enumerate(layout.n_moves):
        counts[i, :n] = rule.start_for(int(layout.move_numbers[i]))
    counts.flags.writeable = False
    return counts


class Hats:
    """A learner's brain: the counts array plus the rule that changes it, for one game instance.

    `Hats(size, max_take, rule, counts)` is a sticks brain (hats for heaps 1..size);
    `Hats(rules, rule=..., counts=..., seat=...)` is a brain for any game of the protocol (e.g. `NimRules`,
    `NoughtsRules`; `seat` 0 or 1 keeps the containers of one player only, where the rules say whose
    turn a position is). For sticks `size` is the largest heap and `max_take` the most sticks a move;
    for other games `size` is the number of containers and `max_take` the most moves one holds.
    """

    def __init__(self, size=20, max_take: int = 3, rule: HatRule | None = None,
                 counts: np.ndarray | None = None, *, seat: int | None = None) -> None:
        if isinstance(max_take, HatRule):  # Hats(rules, rule): the rule given second
            rule, max_take = max_take, 3
        if isinstance(size, int) and not isinstance(size, bool):
            if size < 1:
                raise ValueError(f"A brain needs at least one hat, not {size}.")
            from sticks_tui.engine import registry  # the shortcut: the first game's rules (sticks), which check it

            rules = registry.default_rules(size, max_take)
        else:
            rules = size
        self.rules = rules
        self.rule = rule or HatRule()
        self._layout = layout = _layout(rules, seat)
        self.seat = seat
        # sticks: the largest heap and the most sticks a move (hats 1..size, a column per take)
        self.size, self.max_take = len(layout.index), layout.width
        shape = (len(layout.rows), layout.width)
        if counts is None:
            counts = start_counts(layout, self.rule).copy()
        else:
            counts = np.array(counts, dtype=np.int64)
            if counts.shape != shape:
                raise ValueError(f"Counts of shape {counts.shape} do not fit {self.size} hats of "
                                 f"{layout.width} balls.")
        self.counts = counts

    # -- the layout --------------------------------------------------------------------------
    @property
    def positions(self) -> tuple:
        """Every (canonical) position with a container, in row order."""
        return tuple(p for p in self._layout.rows if p is not None)

    states = positions

    @property
    def n_moves(self) -> np.ndarray:
        return self._layout.n_moves

    @property
    def legal_mask(self) -> np.ndarray:
        """Which cells of `counts` are balls: row i holds its first `n_moves[i]` columns (read-only)."""
        return self._layout.legal_mask

    @property
    def start(self) -> np.ndarray:
        """The counts of a fresh brain by this rule (read-only): what an empty container is refilled with."""
        return start_counts(self._layout, self.rule)

    @property
    def folds(self) -> bool:
        """Positions alike up to a symmetry of the game share a container."""
        return self._layout.folds

    def find(self, position) -> tuple[int, tuple] | None:
        """(the row of `position`'s container, its moves as (container move, move at `position`) pairs);
        None where it has none."""
        cache = self._layout.found
        try:
            return cache[position]
        except KeyError:
            found = cache[position] = self._find(position)
            return found
        except TypeError:  # not a position (unhashable)
            return None

    def _find(self, position) -> tuple[int, tuple] | None:
        layout = self._layout
        if layout.folds:
            try:
                canon, pairs = _fold(self.rules, position)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                return None
            row = layout.index.get(canon)
            if row is None:
                return None
            here = dict(pairs)
            return row, tuple((m, here[m]) for m in layout.moves[row])
        try:
            row = layout.index.get(position)
        except TypeError:
            return None
        if row is None:
            return None
        return row, tuple((m, m) for m in layout.moves[row])

    def has_hat(self, position) -> bool:
        return self.find(position) is not None

    def row(self, position) -> int:
        found = self.find(position)
        if found is None:
            raise ValueError(f"There is no hat for {position!r} in this brain: its hats go from "
                             f"{self.positions[0]!r} to {self.positions[-1]!r}.")
        return found[0]

    def moves_of(self, position) -> tuple:
        """The moves at `position` its container counts, in column order (every legal move, where the
        game folds nothing; one of each set alike up to the position's symmetries, where it does)."""
        found = self.find(position)
        if found is None:
            self.row(position)  # raises, saying why
        return tuple(m for _, m in found[1])

    def column(self, position, move) -> int:
        """The column of `move` at `position` in its container; ValueError if it has none."""
        found = self.find(position)
        if found is None:
            self.row(position)
        row, pairs = found
        for j, (_, m) in enumerate(pairs):
            if m == move:
                return j
        if self._layout.folds:
            # a move alike to a counted one up to the position's symmetries counts as that one
            canon, fold = _fold(self.rules, position)
            to_canon = {m: c for c, m in fold}
            target = to_canon.get(move)
            sym_moves = self._layout.moves[row]
            if target is not None:
                keep = [s for s in self.rules.symmetries() if s.position(canon) == canon]
                for s in keep:
                    if s.move(target) in sym_moves:
                        return sym_moves.index(s.move(target))
        raise ValueError(f"The container for {position!r} has no count for the move {move!r}.")

    def legal(self, position) -> int:
        """How many kinds of ball the hat for `position` holds."""
        return int(self._layout.n_moves[self.row(position)])

    def cannot_train(self, rules) -> str | None:
        """Why this brain cannot train on the game `rules` (None when it can): a brain of the same game
        whose containers are laid out as that game's are, in its first rows (a bigger brain of the same
        game, such as a sticks brain of more hats than the heap trained, plays through its first rows)."""
        try:
            game = _layout(rules, self.seat)
        except ValueError as exc:
            return str(exc)
        own = self._layout
        n = len(game.rows)
        if type(self.rules) is not type(rules) or own.width != game.width or own.rows[:n] != game.rows \
                or own.moves[:n] != game.moves:
            return (f"A brain for {self.rules!r} cannot train on {rules!r}: it needs a hat for each of its "
                    "positions, with the same moves.")
        return None

    def cannot_play(self, state) -> str | None:
        """Why this brain cannot move in the game `state` (None when it can)."""
        position = state.position
        if forced(state.rules, position):
            return None
        if not self.has_hat(position):
            return (f"This brain has no hat for {state.rules.position_text(position)}: it has hats up to "
                    f"{self.rules.position_text(self.positions[-1])}.")
        if not self.folds and tuple(self.moves_of(position)) != tuple(state.legal_moves):
            return (f"This brain plays other moves here ({list(self.moves_of(position))}) than this game "
                    f"allows ({list(state.legal_moves)}).")
        return None

    # -- reading ---------------------------------------------------------------------------
    def hat(self, position) -> tuple[int, ...]:
        """The counts in the container for `position`, in `moves_of(position)` order."""
        i = self.row(position)
        return tuple(int(c) for c in self.counts[i, : self._layout.n_moves[i]])

    def probabilities(self, position) -> tuple[float, ...]:
        counts = self.hat(position)
        total = sum(counts)
        if total == 0:  # an empty container: it resigns, or draws from its start tokens
            counts = tuple(int(c) for c in self.start[self.row(position), : len(counts)])
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
        j = self.column(position, move)
        return self.rule.lowest(other_balls(self.counts, i, j, int(self._layout.n_moves[i])))

    # -- learning --------------------------------------------------------------------------
    def draw(self, position, rng):
        """A move from the container for `position`, each as likely as its count (only legal balls are
        drawn). A forced move is made without a draw; an empty container resigns (`RESIGN`) or is
        refilled with its start tokens first, as the rule says."""
        if forced(self.rules, position):
            return tuple(self.rules.legal_moves(position))[0]
        found = self.find(position)
        if found is None:
            self.row(position)  # raises, saying why
        i, pairs = found
        counts = self.counts[i, : len(pairs)].tolist()
        total = sum(counts)
        if total == 0:
            if not self.ready(i):
                return RESIGN
            counts = self.counts[i, : len(pairs)].tolist()
            total = sum(counts)
        r = rng.randrange(total)
        for (_, move), count in zip(pairs, counts, strict=True):
            if r < count:
                return move
            r -= count
        raise AssertionError("unreachable: a draw fell outside the hat")  # pragma: no cover

    def ready(self, row: int) -> bool:
        """THE rule for an empty container, before a token is drawn from container `row`: it holds tokens
        (True), or it is empty and is refilled with its start tokens (`empty='refill'`: True) or stays
        empty and the learner resigns (False). The store applies it too, to the containers as it keeps
        them, before a game's lesson (`reinforce`)."""
        n = int(self._layout.n_moves[row])
        if self.counts[row, :n].any():
            return True
        if self.rule.empty != "refill":
            return False
        self.counts[row, :n] = self.start[row, :n]
        return True

    def reinforce(self, drawn, won: bool | None = None, *, outcome: int | None = None) -> tuple[HatChange, ...]:
        """Apply the token rule to every (position, move) drawn in a game; return what changed.

        The game's result for this learner: `won` (True a win, False a loss), or `outcome` (+1 win,
        0 draw, -1 loss) for games that can end in a draw; exactly one of them. A forced move teaches
        nothing: it is left out. Each container is first made `ready` as the game drew from it (a copy
        kept empty elsewhere, as the store's may be, is refilled as the game refilled it to draw)."""
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
            if forced(self.rules, position):
                continue
            i = self.row(position)
            j = self.column(position, move)
            if not self.counts[i, j]:
                self.ready(i)
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
        return type(self)._made(self.rules, self.rule, self.counts.copy(), self.seat)

    def fresh(self) -> Hats:
        """The same containers by the same rule, with their start tokens."""
        return type(self)._made(self.rules, self.rule, None, self.seat)

    @classmethod
    def _made(cls, rules, rule, counts, seat):
        brain = Hats.__new__(cls)
        Hats.__init__(brain, rules, rule=rule, counts=counts, seat=seat)
        return brain

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
        return (isinstance(other, Hats) and self.rules == other.rules and self.seat == other.seat
                and self.rule == other.rule and np.array_equal(self.counts, other.counts))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        seat = f", seat={self.seat}" if self.seat is not None else ""
        return f"Hats({self.rules!r}, rule={self.rule}{seat})"

    def table(self, first: int = 1) -> str:
        """Seed 003's table: one row per hat with its counts, e.g. `  17 | {1: 6, 2: 12, 3: 1}`."""
        positions = [p for p in self.positions if not isinstance(p, int) or p >= first]
        width = max(len(str(p)) for p in positions) if positions else 1
        lines = []
        for p in positions:
            body = ", ".join(f"{m}: {c}" for m, c in zip(self.moves_of(p), self.hat(p), strict=True))
            lines.append(f"{p!s:>{width}} | {{{body}}}")
        return "\n".join(lines)
