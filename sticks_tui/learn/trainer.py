"""Training: a counts learner plays N games and learns from each, against a second learner that learns
too, or against a fixed player (the random player; a perfect player choosing at random among its best
moves).

One trainer for every game of the protocol (`engine.protocol`) and every counts learner (the seeds'
hats, MENACE's matchboxes: `learn.hats`). Two engines play the same games: `kernel` (compiled, fast,
releases the GIL: `learn.kernel.play_games`, the one game loop, over the game's tables) and
`reference` (the readable learner: `Hats.draw` / `Hats.reinforce` over the protocol, `play_one_game`).
For the same seed they leave the same counts. Progress goes to a callback at most ~20 times a second;
a cancel check between batches stops a run with the counts consistent (every game either fully learned
from or not played). The learning curve is sampled inside the loop, at log-spaced game counts
(`batches.checkpoints`), and scored over the game the run trains (`config.rules`: for sticks the heap
trained, however many hats the brain holds), so a run's figures are about its own game. The token rule
travels once: each brain learns by its own (`Hats.rule`); a run takes it from the brains.

How games start (`PROTOCOLS`, the one list) and who moves first (`SEATS`: the trained brain in either
seat by turns, always first, as MENACE plays X, or always second, as MENACE plays O and Gardner's HER played
Black) are the config's; a brain of one seat's containers trains in its own seat (`seats_of`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from sticks_tui.engine import registry
from sticks_tui.vocabulary import TRAINING_PROTOCOLS
from sticks_tui.engine.events import TrainingProgress
from sticks_tui.engine.protocol import GameRules
from sticks_tui.learn import compiled
from sticks_tui.learn.analysis import CurvePoint, CurveScorer
from sticks_tui.learn.batches import cancel_check, play_controlled
from sticks_tui.learn.control import GameStory, TrainingControl, check_pace
from sticks_tui.learn.hats import RESIGN, Hats, forced
from sticks_tui.learn.rng import XorShift64Star

#: How training games start: the one list (`vocabulary.TRAINING_PROTOCOLS`).
PROTOCOLS = TRAINING_PROTOCOLS
GAME_PROTOCOLS = PROTOCOLS
DEFAULT_PROTOCOL = "explore"
#: Who the trained brain plays: a second learner that learns too, the random player (any legal move), or
#: a perfect player choosing at random among its best moves (the moves that keep the position's exact
#: value: it never loses a game it can draw nor draws one it can win).
OPPONENTS = {
    "self": "a second learner of the same kind, learning too",
    "random": "the random player (any legal move, each as likely)",
    "best-at-random": "a perfect player choosing at random among its best moves",
}
#: Which seat the trained brain takes: first and second by turns, always first, or always second.
SEATS = ("both", "first", "second")
#: The seats (0 first, 1 second) the trained brain takes under each of `SEATS`.
A_SEATS = {"both": (0, 1), "first": (0,), "second": (1,)}
ENGINES = ("kernel", "reference")
MAX_GAMES = 10_000_000


@dataclass(frozen=True)
class TrainingConfig:
    """A training run over the game `config.rules`: `game` (any `GameRules`), or when it is None sticks
    on a heap of `sticks` with at most `max_take` a move (a shortcut; for other games they are ignored).
    No token rule: a run learns by its brains' own (a fresh brain is made with its rule by the caller).
    `curve=False` skips the learning-curve checkpoints."""

    sticks: int = 20
    games: int = 100_000
    seed: int | None = None
    protocol: str = DEFAULT_PROTOCOL
    max_take: int = 3
    engine: str = "kernel"
    game: GameRules | None = None
    curve: bool = True
    #: Games a second to start at (None: full speed); a `TrainingControl` may change it as it runs.
    pace: float | None = None
    opponent: str = "self"
    seats: str = "both"

    def __post_init__(self) -> None:
        if isinstance(self.games, bool) or not isinstance(self.games, int) or not 0 <= self.games <= MAX_GAMES:
            raise ValueError(f"The number of games must be between 0 and {MAX_GAMES:,}, not {self.games!r}.")
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"The protocol is one of {', '.join(PROTOCOLS)}, not {self.protocol!r}.")
        if self.engine not in ENGINES:
            raise ValueError(f"The engine is 'kernel' or 'reference', not {self.engine!r}.")
        if self.opponent not in OPPONENTS:
            raise ValueError(f"The opponent is one of {', '.join(OPPONENTS)}, not {self.opponent!r}.")
        if self.seats not in SEATS:
            raise ValueError(f"The trained brain's seats are {', '.join(SEATS)}, not {self.seats!r}.")
        if self.game is None:
            self._shortcut_rules()  # the first game's own limits, in its words (the heap: 1 to 1000)
        elif not isinstance(self.game, GameRules):
            raise ValueError(f"The game must follow the game protocol, not {self.game!r}.")
        check_pace(self.pace)

    @property
    def a_seats(self) -> tuple[int, ...]:
        """The seats the trained brain takes (0 first, 1 second)."""
        return A_SEATS[self.seats]

    @property
    def rules(self) -> GameRules:
        """The game trained on."""
        if self.game is not None:
            return self.game
        return self._shortcut_rules()

    def _shortcut_rules(self) -> GameRules:
        """The shortcut's game: the first game's (sticks') rules from `sticks` and `max_take`, its size options of
        those names, each checked by the game's entry (`registry.default_rules_of`); unread when `game` is given."""
        return registry.default_rules_of(sticks=self.sticks, max_take=self.max_take)


@dataclass
class TrainingResult:
    brain: Hats  # the AI handed to a player
    opponent: Hats | None  # its sparring partner (None: a fixed player)
    games_played: int
    games_requested: int
    seconds: float
    wins_first: int
    wins_brain: int
    cancelled: bool
    curve: list[CurvePoint]  # the learning curve, sampled at checkpoints inside the loop
    engine: str = "kernel"  # the engine that really played: 'reference' if the kernel could not load
    notice: str | None = None  # why the engine differs from the one asked for, in words
    rules: GameRules | None = None  # the game trained: the curve's figures are about it (sticks: heaps 2..N)
    draws: int = 0  # games drawn (games that can end in a draw)
    losses_brain: int = 0

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else 0.0

    @property
    def results(self) -> tuple[int, int, int]:
        """The trained brain's wins, draws and losses."""
        return self.wins_brain, self.draws, self.losses_brain

    @property
    def heap(self) -> int | None:
        """The heap a sticks run trained (its figures are over heaps 2..heap); None for other games."""
        return registry.curve_size(self.rules) if self.rules is not None else None


def _seed_for(seed: int | None) -> int:
    if seed is None:
        return int.from_bytes(np.random.default_rng().bytes(8), "little")
    return seed


def seats_of(brain: Hats) -> str:
    """The `SEATS` a brain trains in: its own seat for a brain of one seat's containers (MENACE's X 'first',
    its O and HER's Black 'second'), else both by turns."""
    return {None: "both", 0: "first", 1: "second"}[brain.seat]


def sparring_brain(rules, brain: Hats) -> Hats:
    """A fresh second learner for `brain` on `rules`: the same rule, the other seat's containers where
    the brain keeps one seat's only."""
    seat = None if brain.seat is None else 1 - brain.seat
    return Hats._made(rules, brain.rule, None, seat)


def train(config: TrainingConfig, brain: Hats | None = None, opponent: Hats | None = None,
          progress: Callable[[TrainingProgress], None] | None = None,
          cancel: threading.Event | Callable[[], bool] | TrainingControl | None = None,
          story: Callable[[GameStory], None] | None = None,
          scorer: Callable[[int, Hats], CurvePoint] | None = None) -> TrainingResult:
    """Train `brain` (fresh if None) against `opponent` (fresh if None, when `config.opponent` is 'self')
    for `config.games` games.

    Each brain learns by its own rule (`Hats.rule`), in both engines: the run takes the rule from the
    brains. A fresh brain (no `brain` given) learns by the default rule; to train one by another, make
    it with its rule (`Hats(config.rules, rule=...)`). A fresh opponent learns by the brain's rule.
    `cancel` may be a `TrainingControl` (or one is made when `config.pace` is set): the run then
    honours its pace, pause and steps. Games played one at a time (at a pace, paused, stepping) are
    told to `story` and ride on their progress snapshot (`TrainingProgress.story`). `scorer(games, brain)`
    gives the curve's points (default: `CurveScorer` over the game).
    """
    rules = config.rules
    brain = brain if brain is not None else Hats(rules)
    if config.opponent == "self":
        opponent = opponent if opponent is not None else sparring_brain(rules, brain)
        if brain is opponent or np.shares_memory(brain.counts, opponent.counts):
            raise ValueError("The two training AIs must have brains of their own.")
    else:
        opponent = None
    a_seats = config.a_seats
    starts = start_positions(config)
    for hats, seats in ((brain, a_seats), (opponent, tuple(1 - s for s in a_seats))):
        if hats is None:
            continue
        why = hats.cannot_train(rules)
        if why is not None:
            raise ValueError(why)
        _check_faces(rules, hats, starts, seats)
    seed = _seed_for(config.seed)
    engine, notice = config.engine, None
    run = None
    if engine == "kernel":
        problem = compiled.load()
        if problem is None:
            run = _KernelRun(config, brain, opponent, seed, starts)
        else:
            engine, notice = "reference", problem
    if run is None:
        run = _ReferenceRun(config, brain, opponent, seed, starts)
    if scorer is None and config.curve:
        curve_scorer = CurveScorer.for_rules(rules, brain.seat, brain.rule)

        def scorer(done: int, hats: Hats) -> CurvePoint:
            return curve_scorer.score(done, hats.counts)
    score = scorer if config.curve else None
    curve: list[CurvePoint] = []
    last_scores = (float("nan"), float("nan"))

    def checkpoint(done: int) -> None:
        nonlocal last_scores
        point = replace(score(done, brain), results=run.results)
        curve.append(point)
        last_scores = (point.agreement, point.win_vs_perfect)

    def report(done: int, seconds: float, finished: bool, cancelled: bool, told: GameStory | None = None) -> None:
        if told is not None and story is not None:
            story(told)
        if progress is None:
            return
        if done == 0 and score is not None and not curve:
            point = score(0, brain)
            agreement, win = point.agreement, point.win_vs_perfect
        else:
            agreement, win = last_scores
        progress(TrainingProgress(done, config.games, seconds, run.wins_first, brain.counts.copy(),
                                  agreement, win, finished=finished, cancelled=cancelled, curve=tuple(curve),
                                  story=told, opponent_hats=None if opponent is None else opponent.counts.copy(),
                                  results=run.results))

    # a run nobody steers gets a control of its own: at its pace (full speed unless asked), with `cancel`
    control = cancel if isinstance(cancel, TrainingControl) else \
        TrainingControl(config.pace, cancelled_when=cancel_check(cancel))
    batches = play_controlled(config.games, run.play, run.play_story, report, control,
                              checkpoint if score is not None else None)
    if score is not None and batches.done and (not curve or curve[-1].games != batches.done):
        checkpoint(batches.done)  # a cancelled run ends its curve where it stopped
    wins, draws, losses = run.results
    return TrainingResult(brain, opponent, batches.done, config.games, batches.seconds, run.wins_first,
                          wins, batches.cancelled, curve, engine, notice, rules, draws, losses)


def _check_faces(rules, hats: Hats, starts, seats) -> None:
    """ValueError unless `hats` has a container wherever it may have to choose a move (games from `starts`,
    in `seats`)."""
    if hats.seat is None and not hats.folds:
        return  # a brain of every position of the game (checked by `cannot_train`)
    from sticks_tui.learn.tables import game_tables, reachable_sides

    tables = game_tables(rules)
    sides = reachable_sides(tables, tuple(int(i) for i in tables.start_indexes(starts)),
                            tuple(0 if s == 0 else 1 for s in seats))
    for p in np.flatnonzero(sides[0]):
        position = tables.positions[int(p)]
        if tables.n_moves[p] > 1 and not hats.has_hat(position):
            raise ValueError(f"This brain has no container for {rules.position_text(position)}, where it would "
                             "have to move: it keeps the other player's.")


def explore_starts(rules) -> tuple:
    """Where 'explore' games start: every position, unless the game's registry entry says otherwise
    (sticks: a heap of 1, one forced move, teaches nothing, so games start from 2..N)."""
    return registry.explore_starts(rules)


def start_positions(config: TrainingConfig) -> tuple:
    rules = config.rules
    return explore_starts(rules) if config.protocol == "explore" else tuple(rules.start_positions())


# -- the readable game ------------------------------------------------------------------------------

class FixedPlayer:
    """A player that does not learn: 'random' (any legal move) or 'best-at-random' (one of the moves that
    keep the position's exact value). It draws nothing from the stream when it has one choice."""

    def __init__(self, kind: str, rules) -> None:
        if kind not in ("random", "best-at-random"):
            raise ValueError(f"A fixed player is 'random' or 'best-at-random', not {kind!r}.")
        self.kind = kind
        self.rules = rules
        self._best: dict = {}

    def choices(self, position) -> tuple:
        moves = tuple(self.rules.legal_moves(position))
        if self.kind == "random":
            return moves
        found = self._best.get(position)
        if found is None:
            from sticks_tui.learn.tables import game_tables

            tables = game_tables(self.rules)
            p = tables.index[position]
            found = self._best[position] = tuple(m for j, m in enumerate(moves) if tables.perfect[p, j])
        return found

    def draw(self, position, rng):
        choices = self.choices(position)
        return choices[0] if len(choices) == 1 else choices[rng.randrange(len(choices))]

    def reinforce(self, drawn, won=None, *, outcome=None) -> tuple:
        return ()


def play_one_game(rules, starts, brain: Hats, opponent, rng, g: int, story: bool, a_first: bool | None = None):
    """The readable game of training: (the outcome for the brain: +1 won, 0 drawn, -1 lost; the game's
    `GameStory` or None). `opponent` is a `Hats` (learning too) or a `FixedPlayer`; the brain moves first
    when `a_first` (default: in even games). A forced move draws nothing and teaches nothing; an empty
    container may resign the game (`Hats.draw`)."""
    a_first = g % 2 == 0 if a_first is None else a_first
    position = starts[0] if len(starts) == 1 else starts[rng.randrange(len(starts))]
    start = position
    players = (brain, opponent)
    drawn: tuple[list, list] = ([], [])  # index 0: the brain, 1: the opponent
    order: list[tuple[int, object, object]] = []
    side = 0 if a_first else 1
    resigned = None
    while True:
        player = players[side]
        move = player.draw(position, rng)
        if move is RESIGN:
            mover, resigned = -1, side
            break
        if not forced(rules, position):
            drawn[side].append((position, move))
        if story:
            order.append((side, position, move))
        position = rules.apply(position, move)
        if rules.is_terminal(position):
            mover = outcome_of(rules, position)
            break
        side = 1 - side
    a_outcome = mover if side == 0 else -mover
    changes_a = brain.reinforce(drawn[0], outcome=a_outcome)
    changes_b = opponent.reinforce(drawn[1], outcome=-a_outcome)
    if not story:
        return a_outcome, None
    winner = 0 if a_outcome > 0 else 1 if a_outcome < 0 else None
    return a_outcome, GameStory(g + 1, start, 0 if a_first else 1, tuple(order), winner, (changes_a, changes_b),
                                resigned)


class _Run:
    """What both engines keep: the tallies (A's wins, draws, losses; the first mover's wins)."""

    stats: np.ndarray

    @property
    def wins_first(self) -> int:
        return int(self.stats[3])

    @property
    def results(self) -> tuple[int, int, int]:
        return int(self.stats[0]), int(self.stats[1]), int(self.stats[2])

    def _tally(self, g: int, a_outcome: int, a_first: bool) -> None:
        self.stats[1 - a_outcome] += 1
        if (a_outcome if a_first else -a_outcome) > 0:
            self.stats[3] += 1

    def a_first(self, g: int) -> bool:
        return self.config.seats == "first" or (self.config.seats == "both" and g % 2 == 0)

    def play_story(self, g: int, story: bool = True) -> GameStory | None:
        """Game number g (from 0) played by the readable learner on the run's own random stream and
        counts (bit for bit what the kernel would have played), with its story if asked."""
        rng = XorShift64Star()
        rng.state = int(self.rng_state[0])
        a_first = self.a_first(g)
        a_outcome, told = play_one_game(self.config.rules, self.starts, self.brain, self.readable_opponent, rng, g,
                                        story, a_first)
        self.rng_state[0] = np.uint64(rng.state)
        self._tally(g, a_outcome, a_first)
        return told


class _ReferenceRun(_Run):
    """The readable path: `Hats.draw` and `Hats.reinforce` over the protocol, one shared random stream."""

    def __init__(self, config: TrainingConfig, brain: Hats, opponent: Hats | None, seed: int, starts) -> None:
        self.config = config
        self.brain = brain
        self.opponent = opponent
        self.readable_opponent = opponent if opponent is not None else FixedPlayer(config.opponent, config.rules)
        self.starts = starts
        self.rng_state = np.array([XorShift64Star(seed).state], dtype=np.uint64)
        self.stats = np.zeros(4, dtype=np.int64)

    def play(self, n: int, game_index: int) -> int:
        for g in range(game_index, game_index + n):
            self.play_story(g, story=False)
        return n


class _KernelRun(_Run):
    """The compiled path (`learn.kernel.play_games`), for every game: the game and the rules as arrays."""

    def __init__(self, config: TrainingConfig, brain: Hats, opponent: Hats | None, seed: int, starts) -> None:
        from sticks_tui.learn import kernel
        from sticks_tui.learn.tables import game_tables, lay_out

        self.kernel = kernel
        self.config = config
        self.brain = brain
        self.opponent = opponent
        self.readable_opponent = opponent if opponent is not None else FixedPlayer(config.opponent, config.rules)
        self.starts = starts
        self.match = lay_out(game_tables(config.rules), brain, opponent, starts, config.a_seats)
        self.code = {"self": kernel.SELF, "random": kernel.RANDOM, "best-at-random": kernel.BEST_AT_RANDOM}[
            config.opponent]
        self.seats = seat_code(kernel, config.seats)
        self.rules = (kernel.compile_rule(brain.rule),
                      kernel.compile_rule(opponent.rule if opponent is not None else brain.rule))
        self.state = kernel.RunState.new(XorShift64Star(seed).state, self.match)
        self.rng_state, self.stats = self.state.rng_state, self.state.stats
        self.watch = kernel.Watch.none()
        self.none = np.zeros((1, 1), dtype=np.int64)

    def play(self, n: int, game_index: int) -> int:
        b = self.opponent.counts if self.opponent is not None else self.none
        return int(self.kernel.play_games(self.brain.counts, b, self.match, *self.rules, self.code, self.seats, n,
                                          game_index, self.state, False, self.watch))


def seat_code(kernel, seats: str) -> int:
    """The kernel's code for `seats` (one of `SEATS`)."""
    return {"both": kernel.ALTERNATE, "first": kernel.A_FIRST, "second": kernel.A_SECOND}[seats]


def outcome_of(rules, position) -> int:
    """At a terminal position, the outcome for whoever made the last move: +1 win, 0 draw, -1 loss."""
    return int(rules.outcome(position))
