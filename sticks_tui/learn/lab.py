"""The learning lab (issue 20): race learners and incentives on one game, many seeds each, and measure
exactly, from the solver, when each has learned.

Three learners on one interface (a `LearnerSpec`: a name and its settings):

- `hats`: the app's learner (`learn.hats`, the counts learner MENACE is too): start balls, a reward for a
  win, a penalty for a loss, balls for a draw, the floor. Its games are the trainer's own compiled loop
  (`learn.kernel.play_games`, with the lab's mastery tracking switched on), so in self-play it leaves the
  same hats as `learn.trainer` for the same seed.
- `q`: tabular Q-learning: an action value per move, moved a step `alpha` towards the best value at
  the learner's next turn (or the result), choosing epsilon-greedily (`epsilon`: chance of a random move).
- `mc`: Monte-Carlo control: every move of a game is moved towards that game's result (by `alpha`, or
  with alpha 0 to the average of every result after it), choosing epsilon-greedily. Chosen over
  SARSA because it is the hats' nearest relative among value learners: both learn from a game's
  result alone, every move of it credited alike, so hats vs mc shows what counting balls and
  drawing in proportion does against averaging results and exploring on purpose, while q vs mc
  shows what learning from the next position (bootstrapping) adds. SARSA would differ from q only
  in which next value it reads, a finer point than a class needs.

Each learner plays against a second learner of its kind that learns too (`vs=self`, as the app's
trainer does), or against a fixed player (`vs=random`; `vs=best-at-random`, a perfect player choosing at
random among its best moves), moving first in every other game. The learner measured is the first one.
A forced move (one legal move) is made by every learner without a choice, and teaches nothing.

Mastery (`games_to_mastery`), exact from the solver: the first game after which, at every position
the learner can face from a seat where the mover can force a win, every move its greedy choice may
make (all moves tied at the top) wins; where the mover can only hold a draw (noughts), every such
move keeps the draw. Per seat (moving first, second) and both together. The learning curve, at
log-spaced checkpoints: that agreement's share of positions, and the exact chance not to lose against
the perfect player that is worst for the learner (in games without draws: the chance to beat it).
The hats are scored as they play (drawing in proportion to their counts); q and mc by their greedy
choice (their exploration is a training device).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from sticks_tui.engine import registry
from sticks_tui.learn.batches import checkpoints, next_batch
from sticks_tui.learn.control import yield_core
from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.learn.rng import XorShift64Star
from sticks_tui.learn.tables import curve_table
from sticks_tui.learn.trainer import PROTOCOLS as TRAINING_PROTOCOLS
from sticks_tui.learn.trainer import explore_starts


def games() -> tuple:
    """The games of the lab: every registered game, asked of the registry now (a game registered later is one);
    those whose entry gives the lab its rules by size first."""
    names = registry.names()
    return tuple(sorted(names, key=lambda name: registry.entry(name).lab_rules is None))


def _entry(game):
    """`game`'s registry entry, or None when no game has that name."""
    try:
        return registry.entry(game)
    except ValueError:
        return None


def _sized_entry(game: str):
    """`game`'s registry entry if it is a lab game with sizes (its entry's `lab_rules`), else None."""
    entry = _entry(game)
    return entry if entry is not None and entry.lab_rules is not None else None


def sized() -> tuple:
    """The lab's games with sizes (their entries say); a game without sizes is raced at its entry's own rules."""
    return tuple(name for name in games() if _sized_entry(name) is not None)


def size_range(game: str) -> tuple[int, int] | None:
    """The sizes a lab of `game` takes (lowest, highest), as its registry entry says; None: it has no size."""
    entry = _sized_entry(game)
    return tuple(entry.lab_size[1:]) if entry is not None else None


def size_words(game: str) -> str | None:
    """What a size of a lab of `game` means, in words (its entry's); None: it has no size."""
    entry = _sized_entry(game)
    return entry.lab_size_words if entry is not None else None


PROTOCOLS = tuple(TRAINING_PROTOCOLS)
#: Games a run by default, by where its games start (measured so that the default lab finishes in seconds:
#: bench_lab.py): games that start anywhere (sticks, Nim), and games from their start (noughts).
DEFAULT_CAPS = {"explore": 100_000, "classic": 50_000}
#: Who a learner learns against: a second learner of its kind (learning too), the random player, or a
#: perfect player choosing at random among its best moves ('perfect', the word of before, still reads as
#: it: the perfect player of the figures is another, the one worst for the learner).
OPPONENTS = ("self", "random", "best-at-random")
OPPONENT_ALIASES = {"perfect": "best-at-random"}
MAX_SEEDS = 100
MAX_CAP = 10_000_000
MAX_LEARNERS = 6
DEFAULT_SEEDS = 20
DEFAULT_CAP = DEFAULT_CAPS["explore"]


def default_protocol(game: str) -> str:
    """Where the games of a lab of `game` start by default: anywhere (explore) or at the start (classic)."""
    entry = _entry(game)
    return entry.training_protocol if entry is not None else "classic"


def default_cap(game: str) -> int:
    """The games a run of `game` plays by default."""
    return DEFAULT_CAPS[default_protocol(game)]


def within_size(game: str, size) -> int | None:
    """`size` (a class's, as its setup screen has it) as a lab of `game` takes it: within the lab's range;
    the game's default when it is none, and None for a game without sizes."""
    sizes = size_range(game)
    if sizes is None:
        return None
    try:
        size = int(size)
    except (TypeError, ValueError):
        return default_size(game)
    low, high = sizes
    return min(max(size, low), high)


def default_size(game: str) -> int | None:
    """The size a lab of `game` takes by default (None: the game has none)."""
    entry = _sized_entry(game)
    return entry.lab_size[0] if entry is not None else None
#: The first stretch of games a run plays without a look at a cancel (the screen's runs); later stretches
#: take 5-20 ms each (`batches.next_batch`, as the trainer's batches do), so a fast loop is not called
#: (its arrays handed over, ~30 us a call on noughts) every 3 ms.
CHUNK = 20_000


class LabError(ValueError):
    """A lab setting that cannot be used; the message is one line naming the valid choices."""


# -- the learners and their settings ------------------------------------------------------------

@dataclass(frozen=True)
class Setting:
    kind: type  # int, float or str
    default: object
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    words: str = ""


LEARNERS: dict[str, dict[str, Setting]] = {
    "hats": {
        "start": Setting(int, 1, 1, 1000, words="balls of each move in a fresh hat"),
        "reward": Setting(int, 1, 0, 1000, words="balls added to each ball drawn in a game won"),
        "penalty": Setting(int, 1, 0, 1000, words="balls taken from each ball drawn in a game lost"),
        "draw": Setting(int, 0, -1000, 1000, words="balls added (taken, if negative) after a draw"),
        "floor": Setting(str, "each", choices=("each", "nonempty"),
                         words="each: a hat keeps one ball of every move; nonempty: one ball in all"),
        "vs": Setting(str, "self", choices=OPPONENTS, words="who it learns against"),
        "table": Setting(str, "two", choices=("two", "one"),
                         words="two: its hats and its opponent's, each game teaching it from one seat; "
                               "one: one set of hats plays both seats and learns from both (vs self only)"),
    },
    "q": {
        "alpha": Setting(float, 1.0, 0.0, 1.0, words="step size: how far a value moves towards its target"),
        "epsilon": Setting(float, 0.3, 0.0, 1.0, words="exploration: the chance of a random move"),
    },
    "qseat": {
        "alpha": Setting(float, 0.5, 0.0, 1.0, words="step size: how far a value moves towards its target"),
        "epsilon": Setting(float, 0.1, 0.0, 1.0, words="exploration: the chance of a random move"),
        "vs": Setting(str, "self", choices=OPPONENTS, words="who it learns against"),
    },
    "mc": {
        "alpha": Setting(float, 0.0, 0.0, 1.0, words="step size (0: the average of every result)"),
        "epsilon": Setting(float, 0.1, 0.0, 1.0, words="exploration: the chance of a random move"),
        "vs": Setting(str, "self", choices=OPPONENTS, words="who it learns against"),
    },
}
LEARNER_WORDS = {"hats": "the app's hats of counted balls, learning from its own seat (table=two, against a "
                         "second set of hats) or from both (table=one: one set of hats plays both seats)",
                 "q": "self-play Q-learning as textbooks write it: one table for both seats, each move's value "
                      "moved towards minus the best value of the position the opponent then faces",
                 "qseat": "Q-learning with one table per seat: the opponent is part of its world, each move's "
                          "value moved towards the best value at its own next turn",
                 "mc": "Monte-Carlo control, one table per seat: each move played moved towards the game's result"}


def _number_text(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@dataclass(frozen=True)
class LearnerSpec:
    """A learner and every one of its settings (defaults filled in)."""

    name: str
    settings: tuple[tuple[str, object], ...]

    @property
    def values(self) -> dict:
        return dict(self.settings)

    @property
    def text(self) -> str:
        """The spec as it is typed, with only the settings that differ from the defaults."""
        defaults = LEARNERS[self.name]
        changed = [f"{k}={_number_text(v)}" for k, v in self.settings if v != defaults[k].default]
        return self.name + (":" + ",".join(changed) if changed else "")

    @property
    def one_table(self) -> bool:
        """One table plays both seats and learns from both (q; hats with table=one)."""
        return self.name == "q" or self.values.get("table") == "one"

    @property
    def learns_from(self) -> str:
        """Whether each game teaches the measured table from both seats or from one."""
        return "both seats" if self.one_table else "one seat"

    @property
    def hat_rule(self) -> HatRule:
        v = self.values
        return HatRule(start_balls=v["start"], win_reward=v["reward"], loss_penalty=v["penalty"], floor=v["floor"],
                       draw_reward=v["draw"])


def parse_learner(text: str) -> LearnerSpec:
    """`hats:reward=3,penalty=1`, `q:alpha=1,epsilon=0.3`, `mc`; raises LabError naming the valid choices."""
    text = text.strip()
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    if name not in LEARNERS:
        raise LabError(f"there is no learner {name!r}: choose {', '.join(LEARNERS)} "
                       f"(e.g. hats:reward=3,penalty=1 or q:alpha=1,epsilon=0.3)")
    table = LEARNERS[name]
    values = {k: s.default for k, s in table.items()}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = part.partition("=")
        key = key.strip().lower()
        if key not in table:
            raise LabError(f"{name} has no setting {key!r}: its settings are {', '.join(table)}")
        if not eq or not raw.strip():
            raise LabError(f"{name}'s {key} needs a value: {key}=VALUE ({_range_words(table[key])})")
        values[key] = _parse_value(name, key, table[key], raw.strip())
    if values.get("table") == "one" and values.get("vs") != "self":
        raise LabError(f"{name}:table=one is one set of hats playing both seats: it learns against itself, "
                       f"so vs is self, not {values['vs']!r}")
    return LearnerSpec(name, tuple(values.items()))


def _range_words(s: Setting) -> str:
    if s.choices:
        return "one of " + ", ".join(s.choices)
    kind = "a whole number" if s.kind is int else "a number"
    return f"{kind} from {_number_text(s.low)} to {_number_text(s.high)}"


def _parse_value(name: str, key: str, s: Setting, raw: str):
    if s.choices:
        value = raw.lower()
        if key == "vs":
            value = OPPONENT_ALIASES.get(value, value)
        if value not in s.choices:
            raise LabError(f"{name}'s {key} is {_range_words(s)}, not {raw!r}")
        return value
    try:
        value = s.kind(raw)
    except ValueError:
        raise LabError(f"{name}'s {key} is {_range_words(s)}, not {raw!r}") from None
    if isinstance(value, float) and not math.isfinite(value) or not s.low <= value <= s.high:
        raise LabError(f"{name}'s {key} is {_range_words(s)}, not {raw!r}")
    return value


# -- a game as tables -----------------------------------------------------------------------------

def make_rules(game: str, size: int | None = None):
    """The rules object of a lab game; raises LabError naming the valid choices."""
    if game not in games():
        raise LabError(f"there is no game {game!r}: choose {', '.join(games())}")
    entry = registry.entry(game)
    if entry.lab_rules is None:
        if size not in (None, 0):  # 0: how a kept lab writes "no size"
            raise LabError(f"{game} has no size: leave it out")
        return entry.make_rules()
    size = default_size(game) if size is None else size
    low, high = size_range(game)
    if isinstance(size, bool) or not isinstance(size, int) or not low <= size <= high:
        raise LabError(f"for {game} the size is {size_words(game)}, from {low} to {high}, not {size!r}")
    return entry.lab_rules(size)


def terminal_outcome(rules, position) -> int:
    """At a finished position, for the player who made the last move: +1 won, 0 drawn, -1 lost (the
    protocol's `outcome`)."""
    return int(rules.outcome(position))


@dataclass(frozen=True, eq=False)
class LabGame:
    """A game instance as the one table-builder lays it out (`learn.tables`), with what mastery reads over
    the learners' containers (the hats' layout: one row per position, folded as the rules fold them)."""

    rules: object
    protocol: str
    tables: object  # learn.tables.GameTables
    template: Hats  # a fresh learner: the layout every learner's rows follow
    start_positions: tuple  # where games start
    self_match: object  # learn.tables.Match: A against a second learner
    fixed_match: object  # A against a fixed player (the lab's opponents, and the exact figures)
    good: np.ndarray  # (rows * width,) bool: right moves (perfect ones, at rows worth a win or a draw)
    checked: np.ndarray  # (rows,) bool: rows worth a win or a draw that the learner can face
    seat_mask: np.ndarray  # (rows, 2) bool: faced by the learner moving first / second
    start: int  # the position (index) the curve's figures start from (the game's own start)
    has_draws: bool
    closed: bool = False  # every position with a container is a start (explore): see `kernel.Watch.over`
    curve_sides: np.ndarray | None = None  # the side positions the curve's chances read (`tables.figure_sides`)
    curve: object = None  # `tables.CurveLayout`: those sides packed for the curve's figures (`kernel.curve_chances`)
    n_checked: int = 0  # rows that count (`checked`): the agreement curve is the share of them right

    @property
    def width(self) -> int:
        return self.self_match.width

    @property
    def rows(self) -> int:
        return self.self_match.rows_a

    @property
    def row_cols(self) -> np.ndarray:
        return self.self_match.row_cols[: self.rows]


@lru_cache(maxsize=8)
def lab_game(game: str, size: int | None = None, protocol: str | None = None) -> LabGame:
    from sticks_tui.learn.tables import (PERFECT, brain_map, curve_layout, figure_sides, game_tables, lay_out,
                                         reachable_sides)

    rules = make_rules(game, size)
    protocol = default_protocol(game) if protocol is None else protocol
    if protocol not in PROTOCOLS:
        raise LabError(f"there is no protocol {protocol!r}: choose {', '.join(PROTOCOLS)}")
    tables = game_tables(rules)
    template = Hats(rules, rule=HatRule())
    starts = explore_starts(rules) if protocol == "explore" else tuple(rules.start_positions())
    self_match = lay_out(tables, template, template, starts, (0, 1))
    fixed_match = lay_out(tables, template, None, starts, (0, 1))
    width, rows = self_match.width, self_match.rows_a
    value, perfect = tables.solution
    row, move = brain_map(tables, rules, None)
    good = np.zeros((rows, width), dtype=np.bool_)
    worth = np.zeros(rows, dtype=np.bool_)
    for p in np.flatnonzero(row >= 0):
        r = int(row[p])
        worth[r] = value[p] >= 0
        for c in range(int(template.n_moves[r])):
            good[r, c] = perfect[p, move[p, c]] and value[p] >= 0
    start_idx = tuple(int(i) for i in tables.start_indexes(starts))
    seat_mask = np.zeros((rows, 2), dtype=np.bool_)
    for seat in (0, 1):
        faced = reachable_sides(tables, start_idx, (seat,))[0]
        for p in np.flatnonzero(faced & (row >= 0)):
            seat_mask[int(row[p]), seat] = True
    checked = worth & (seat_mask[:, 0] | seat_mask[:, 1])
    legal = np.arange(tables.width)[None, :] < tables.n_moves[:, None]
    has_draws = bool((value == 0).any() or ((tables.next_pos < 0) & legal & (tables.outcome == 0)).any())
    closed = set(np.flatnonzero(row >= 0).tolist()) <= set(start_idx)
    start = int(tables.index[rules.start_positions()[0]])
    sides = figure_sides(fixed_match, start, PERFECT)
    return LabGame(rules, protocol, tables, template, starts, self_match, fixed_match, good.ravel(), checked,
                   seat_mask, start, has_draws, closed, sides, curve_layout(fixed_match, tables.order, start, sides),
                   int(checked.sum()))


# -- one run: a learner, a seed, a cap ----------------------------------------------------------

@dataclass(frozen=True)
class LabPoint:
    games: int
    agreement: float
    win_first: float
    win_second: float
    keep_first: float  # chance not to lose, moving first
    keep_second: float

    @property
    def vs_perfect(self) -> float:
        """Chance not to lose to the perfect player, averaged over the seats (no draws: to beat it)."""
        return (self.keep_first + self.keep_second) / 2


@dataclass
class LabRun:
    spec: LearnerSpec
    seed: int
    games: int
    mastery: tuple[int | None, int | None, int | None]  # first, second, both seats; None: not within the games
    curve: list[LabPoint]
    seconds: float
    results: tuple[int, int, int]  # the learner's wins, draws, losses
    cancelled: bool = False
    state: dict = field(default_factory=dict, repr=False)  # the learners' arrays, for tests
    cpu_seconds: float = 0.0  # processor time of this run alone (its thread; what a busy machine does not inflate)
    held: tuple[bool, bool, bool] = (False, False, False)  # unbeatable at the end of the run: first, second, both
    every_position: int | None = None  # the first game after which every position it can face was right


def _fresh_state(spec: LearnerSpec, g: LabGame) -> dict:
    v = spec.values
    if spec.name == "hats":
        a = Hats(g.rules, rule=spec.hat_rule)
        return {"a": a, "b": a.copy() if v["vs"] == "self" and not spec.one_table else None}
    cells = g.rows * g.width
    return {"a": np.zeros(cells), "b": np.zeros(cells), "na": np.zeros(cells, dtype=np.int64),
            "nb": np.zeros(cells, dtype=np.int64), "alpha": float(v["alpha"]), "epsilon": float(v["epsilon"])}


def preference(spec: LearnerSpec, g: LabGame, state: dict) -> np.ndarray:
    """Learner A's preference flat over its containers' cells (its counts, or its action values)."""
    if spec.name != "hats":
        return state["a"]
    pref = np.zeros((g.rows, g.width))
    counts = state["a"].counts
    pref[:, : counts.shape[1]] = counts
    return pref.ravel()


#: The compiled value loop's method for each value learner.
VALUE_METHOD = {"qseat": 0, "mc": 1, "q": 2}


def run_learner(spec: LearnerSpec, g: LabGame, seed: int, cap: int,
                cancelled: Callable[[], bool] | None = None, points: Sequence[int] | None = None) -> LabRun:
    """Train one learner from fresh for `cap` games (fewer if cancelled), tracking mastery after every
    game and scoring the curve at `points` (default: log-spaced, `batches.checkpoints`)."""
    k = lab_kernel()
    started = time.perf_counter()
    cpu_started = time.thread_time()
    state = _fresh_state(spec, g)
    v = spec.values
    vs = v.get("vs", "self")
    opponent = {"self": k.SELF, "random": k.RANDOM, "best-at-random": k.BEST_AT_RANDOM}[vs]
    if spec.name == "hats" and spec.one_table:
        opponent = k.SHARED
    match = g.self_match if vs == "self" else g.fixed_match
    watch = k.Watch.over(g.good, g.checked, g.seat_mask, g.fixed_match, g.closed)
    run = k.RunState.new(XorShift64Star(seed).state, match)
    stats = run.stats
    first_pref = preference(spec, g, state)
    k.check_all(first_pref, g.width, g.row_cols, watch)
    k._note_mastery(watch.bad, watch.mastery, 0)
    k.note_unbeatable(first_pref, g.width, g.row_cols, watch, 0, run.firsts, 0, g.rows * g.width, 0)
    policy = k.PROPORTIONAL if spec.name == "hats" else k.GREEDY
    empty_code = spec.hat_rule.empty_code if spec.name == "hats" else 0
    stops = list(points) if points is not None else checkpoints(cap)
    curve: list[LabPoint] = []
    chances = curve_table(g.curve)  # the curve's working table, made once a run
    if spec.name == "hats":
        rule = k.compile_rule(spec.hat_rule)
        none = np.zeros((1, 1), dtype=np.int64)

    def play(n: int, done: int) -> None:
        if spec.name == "hats":
            b = state["b"].counts if state["b"] is not None else none
            k.play_games(state["a"].counts, b, match, rule, rule, opponent, k.ALTERNATE, n, done, run, True, watch)
        else:
            k.play_values(state["a"], state["b"], state["na"], state["nb"], VALUE_METHOD[spec.name],
                          state["alpha"], k.explore_threshold(state["epsilon"]), match, opponent, n, done, run,
                          watch)

    def score(done: int) -> None:
        pref = preference(spec, g, state)
        # the share of rows right, from the loop's own count of wrong ones (exact after every call: `kernel.Watch`),
        # the same number `kernel.agreement` works out from `pref`, without the pass
        agreement = (g.n_checked - int(watch.bad[2])) / g.n_checked if g.n_checked else 1.0
        # both seats from one table, against the perfect player: `chances_both` over only what it reads, packed
        w1, d1, _, w2, d2, _ = k.curve_chances(pref, policy, g.curve, g.fixed_match.start_cells, empty_code, chances)
        curve.append(LabPoint(done, agreement, w1, w2, w1 + d1, w2 + d2))

    done = 0
    was_cancelled = False
    chunk = CHUNK
    for stop in stops:
        while done < stop:
            if cancelled is not None and cancelled():
                was_cancelled = True
                break
            n = min(stop - done, chunk)
            begun = time.perf_counter()
            play(n, done)
            done += n
            if n == chunk:  # (a stretch cut short by a checkpoint says nothing of the loop's pace)
                chunk = next_batch(chunk, time.perf_counter() - begun)
        if was_cancelled:
            break
        score(done)
    if was_cancelled and done and (not curve or curve[-1].games != done):
        score(done)
    found = tuple(None if m < 0 else int(m) for m in watch.first_hold)
    everywhere = None if watch.mastery[2] < 0 else int(watch.mastery[2])
    return LabRun(spec, seed, done, found, curve, time.perf_counter() - started,
                  (int(stats[0]), int(stats[1]), int(stats[2])), was_cancelled, state,
                  time.thread_time() - cpu_started, tuple(bool(h) for h in watch.holds), everywhere)


def lab_kernel():
    """The compiled kernel (`learn.kernel`), loaded by the one loader (`learn.compiled`: stale cache files
    cleared first; a damaged cache cleared and compiled once more); RuntimeError saying why if it cannot."""
    from sticks_tui.learn import compiled

    return compiled.kernel()


def _run_task(task: tuple, cancelled: Callable[[], bool] | None = None) -> tuple | None:
    """One (learner, seed): plain values in and out (None: cancelled)."""
    index, spec, game, size, protocol, seed, cap = task
    run = run_learner(spec, lab_game(game, size, protocol), seed, cap, cancelled)
    if run.cancelled:
        return None
    return index, seed, run.mastery, [(p.games, p.agreement, p.win_first, p.win_second, p.keep_first,
                                       p.keep_second) for p in run.curve], run.seconds, run.results, run.cpu_seconds, \
        run.held, run.every_position


# -- the lab: every learner over every seed -----------------------------------------------------

@dataclass(frozen=True)
class LabConfig:
    game: str = field(default_factory=registry.first_name)  # the first game's (sticks) unless named
    size: int | None = None
    learners: tuple[LearnerSpec, ...] = ()
    seeds: int = DEFAULT_SEEDS
    cap: int | None = None  # None: the game's default (`default_cap`)
    protocol: str | None = None
    first_seed: int = 0
    workers: int | None = None

    def __post_init__(self) -> None:
        make_rules(self.game, self.size)
        if self.cap is None:
            object.__setattr__(self, "cap", default_cap(self.game))
        if not self.learners:
            raise LabError(f"a lab needs at least one learner: choose {', '.join(LEARNERS)}")
        if len(self.learners) > MAX_LEARNERS:
            raise LabError(f"a lab races at most {MAX_LEARNERS} learners, not {len(self.learners)}")
        if isinstance(self.seeds, bool) or not isinstance(self.seeds, int) or not 1 <= self.seeds <= MAX_SEEDS:
            raise LabError(f"seeds are from 1 to {MAX_SEEDS}, not {self.seeds!r}")
        if isinstance(self.cap, bool) or not isinstance(self.cap, int) or not 1 <= self.cap <= MAX_CAP:
            raise LabError(f"the cap is from 1 to {MAX_CAP:,} games a run, not {self.cap!r}")
        if self.protocol is not None and self.protocol not in PROTOCOLS:
            raise LabError(f"there is no protocol {self.protocol!r}: choose {', '.join(PROTOCOLS)}")

    @property
    def seed_list(self) -> list[int]:
        return list(range(self.first_seed, self.first_seed + self.seeds))


def nearest_rank(values: Sequence[float], share: float) -> float:
    """The smallest value with at least `share` of the values at or below it (inf stays inf)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


@dataclass(frozen=True)
class Mastery:
    """Games to mastery over seeds: median and 90th percentile by nearest rank (None: more than that
    share of seeds never got there within the cap), and how many never did."""

    median: int | None
    p90: int | None
    never: int

    @classmethod
    def of(cls, games: Sequence[int | None]) -> Mastery:
        values = [math.inf if g is None else g for g in games]
        med, p90 = nearest_rank(values, 0.5), nearest_rank(values, 0.9)
        return cls(None if med == math.inf else int(med), None if p90 == math.inf else int(p90),
                   sum(g is None for g in games))

    def as_json(self) -> dict:
        return {"median": self.median, "p90": self.p90, "never": self.never}


@dataclass
class LearnerResult:
    spec: LearnerSpec
    runs: list[tuple]  # (seed, mastery, curve rows, seconds, results, processor seconds, held, every position)

    def mastery(self, seat: int = 2) -> Mastery:
        return Mastery.of([r[1][seat] for r in self.runs])

    @property
    def seconds(self) -> float:
        return sum(r[3] for r in self.runs)

    @property
    def cpu_seconds(self) -> float:
        return sum(r[5] for r in self.runs)

    def curve(self) -> list[dict]:
        """Median and 10th-90th percentile band over seeds at each checkpoint."""
        out = []
        length = min(len(r[2]) for r in self.runs)
        for i in range(length):
            rows = np.array([r[2][i][1:] for r in self.runs], dtype=np.float64)
            agreement = rows[:, 0]
            vs = (rows[:, 3] + rows[:, 4]) / 2

            def band(x):
                return {"median": float(np.median(x)), "p10": float(np.percentile(x, 10)),
                        "p90": float(np.percentile(x, 90))}

            out.append({"games": int(self.runs[0][2][i][0]), "agreement": band(agreement), "vs_perfect": band(vs),
                        "vs_perfect_first": float(np.median(rows[:, 3])),
                        "vs_perfect_second": float(np.median(rows[:, 4]))})
        return out

    @property
    def final_agreement(self) -> float:
        return float(np.median([r[2][-1][1] for r in self.runs]))

    def held(self, seat: int = 2) -> int:
        """Seeds whose learner was still unbeatable (from `seat`; 2: both) at the end of its run."""
        return sum(bool(r[6][seat]) for r in self.runs)

    def as_json(self) -> dict:
        return {"name": self.spec.name, "spec": self.spec.text, "settings": self.spec.values,
                "learns_from": self.spec.learns_from,
                "games_to_mastery": self.mastery(2).as_json(),
                "games_to_mastery_by_seat": {"first": self.mastery(0).as_json(), "second": self.mastery(1).as_json()},
                "held": self.held(2), "held_by_seat": {"first": self.held(0), "second": self.held(1)},
                "games_to_every_position": Mastery.of([r[7] for r in self.runs]).as_json(),
                "final_agreement": self.final_agreement, "seconds": self.seconds,
                "seeds": [r[0] for r in self.runs], "mastery_by_seed": [r[1][2] for r in self.runs],
                "held_by_seed": [bool(r[6][2]) for r in self.runs],
                "curve": self.curve()}


@dataclass
class LabResult:
    config: LabConfig
    learners: list[LearnerResult]
    seconds: float
    workers: int
    unfinished: bool = False  # a result so far (`run_lab`'s partial): runs still to come

    def as_json(self) -> dict:
        c = self.config
        g = lab_game(c.game, c.size, c.protocol)
        return {"game": c.game, "size": c.size if c.size is not None else default_size(c.game) or 0,
                "protocol": g.protocol, "seeds": c.seeds, "first_seed": c.first_seed, "cap": c.cap,
                "seeds_done": min((len(r.runs) for r in self.learners), default=0),
                "workers": self.workers, "seconds": self.seconds,
                "vs_perfect_means": "chance not to lose" if g.has_draws else "chance to win",
                "learners": [r.as_json() for r in self.learners]}


def default_workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def run_lab(config: LabConfig, progress: Callable[[int, int], None] | None = None,
            cancelled: Callable[[], bool] | None = None, idle: bool = False,
            partial: Callable[[LabResult], None] | None = None) -> LabResult | None:
    """Every learner over every seed, on `config.workers` threads (the compiled loops release the GIL, so
    two threads use two cores; the game's tables are built once, here, and shared), results in order.
    `progress(done, total)` after each run; `cancelled()` is read between runs and inside each run
    between stretches of games (`CHUNK`, then 5-20 ms each): a cancelled lab returns None. `idle`: the threads run only
    when nothing else wants their core (Linux SCHED_IDLE), so that an app's key presses, and a served
    class's other tabs, keep theirs (the app's lab is idle). Runs go seed by seed (every learner's
    first seed, then every learner's second, ...), and `partial(result so far)` comes after each (the
    learners with a run finished, over their seeds so far), so a screen shows results as they come."""
    import concurrent.futures as cf

    lab_game(config.game, config.size, config.protocol)  # bad settings fail here; the tables are built once
    lab_kernel()  # compiled (or loaded) once, before the threads share it
    tasks = [(i, spec, config.game, config.size, config.protocol, seed, config.cap)
             for seed in config.seed_list for i, spec in enumerate(config.learners)]
    workers = config.workers or default_workers()
    started = time.perf_counter()
    found: dict[tuple[int, int], tuple] = {}
    stop = cancelled or (lambda: False)

    def finished(out: tuple) -> None:
        found[(out[0], out[1])] = out
        if progress:
            progress(len(found), len(tasks))
        if partial:
            partial(_gathered(config, found, time.perf_counter() - started, workers))

    if workers == 1:
        if idle:
            yield_core()  # this thread: a lab run on one thread is the caller's own thread
        for task in tasks:
            if stop():
                return None
            out = _run_task(task, stop)
            if out is None:
                return None
            finished(out)
    else:
        pool = cf.ThreadPoolExecutor(max_workers=workers, initializer=yield_core if idle else None,
                                     thread_name_prefix="lab")
        try:
            pending = {pool.submit(_run_task, t, stop) for t in tasks}
            while pending:
                if stop():
                    return None
                done, pending = cf.wait(pending, timeout=0.1, return_when=cf.FIRST_COMPLETED)
                for future in done:
                    out = future.result()
                    if out is None:
                        return None
                    finished(out)
        finally:
            # a cancelled lab drops the runs not started; those running stop at their next stretch
            pool.shutdown(wait=not stop(), cancel_futures=True)
    return _gathered(config, found, time.perf_counter() - started, workers)


def _gathered(config: LabConfig, found: dict, seconds: float, workers: int) -> LabResult:
    """The lab from the runs finished so far: each learner with a run, over its seeds done (in order)."""
    learners = []
    for i, spec in enumerate(config.learners):
        runs = [found[(i, s)][1:] for s in config.seed_list if (i, s) in found]
        if runs:
            learners.append(LearnerResult(spec, runs))
    done = sum(len(r.runs) for r in learners)
    return LabResult(config, learners, seconds, workers, done < len(config.learners) * config.seeds)


# -- presets a teacher can start from -----------------------------------------------------------

@dataclass(frozen=True)
class Preset:
    key: str
    title: str
    learners: tuple[str, ...]
    look_for: str


PRESETS: dict[str, Preset] = {p.key: p for p in (
    Preset("incentives", "the seeds' rule vs MENACE's incentives (+3/-1) vs equal +3/-3",
           ("hats:reward=1,penalty=1", "hats:start=3,reward=3,penalty=1", "hats:start=3,reward=3,penalty=3"),
           "Look at the MENACE-like rule: when a win adds three balls and a loss takes one away, balls pile up "
           "for whatever happened to win early: at 20 sticks it needs about four times the games, and at a big "
           "heap the hats may never get there; equal +3/-3 learns faster than the seeds' +1/-1."),
    Preset("hats-vs-q", "hats vs Q-learning",
           ("hats", "hats:table=one", "q", "qseat:alpha=1,epsilon=0.3", "qseat", "mc"),
           "Look at q, Q-learning as textbooks write it for two players (one table for both seats, each move "
           "judged by the best the opponent can then do): fastest of all. One set of hats for both seats "
           "needs about half the games of the two-table pair: every game teaches it twice. Q-learning with "
           "a table per seat, treating the opponent as part of the world, never settles at alpha 1 and "
           "epsilon 0.3 (each value is only the last thing that happened) but learns at 0.5 and 0.1; "
           "Monte-Carlo control, learning from whole games full of random moves, is slowest."),
    Preset("start-balls", "how many start balls",
           ("hats:start=1", "hats:start=3", "hats:start=10", "hats:start=30"),
           "Look at how every start ball is a vote that losses must take away before a hat changes its mind: "
           "1 or 3 learn alike, 10 and 30 need more and more games."),
)}
DEFAULT_LEARNERS = ("hats", "hats:table=one", "q", "mc")
