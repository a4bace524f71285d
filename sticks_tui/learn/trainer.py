"""Training: two hat learners play each other for N games, both learning, taking turns to move first.

One trainer for every game of the protocol (`engine.protocol`). Two engines play the same games:
`kernel` (compiled, fast, releases the GIL: `learn.kernel`, one loop for every game, which plays
it from arrays of next positions and outcomes) and `reference` (the readable learner: `Hats.draw` / `Hats.reinforce` over the protocol). For the same seed they leave
the same hats. Progress goes to a callback at most ~20 times a second; a cancel check between
batches stops a run with the hats consistent (every game either fully learned from or not played).
The learning curve is sampled inside the loop, at log-spaced game counts (`batches.checkpoints`),
and scored over the game the run trains (`config.rules`: for sticks the heap trained, however many
hats the brain holds), so a run's figures are about its own game. The hat rule travels once: each
brain learns by its own (`Hats.rule`); a run takes it from the brains, never from its config.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sticks_tui.engine import registry
from sticks_tui.engine.events import TrainingProgress
from sticks_tui.engine.protocol import GameRules
from sticks_tui.engine.rules import SticksRules
from sticks_tui.learn import compiled
from sticks_tui.learn.analysis import CurvePoint, CurveScorer
from sticks_tui.learn.batches import cancel_check, play_controlled
from sticks_tui.learn.control import GameStory, TrainingControl, check_pace
from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.learn.rng import XorShift64Star

PROTOCOLS = {
    "explore": "every game starts from a random heap between 2 and N, so every hat keeps being visited",
    "classic": "every game starts from the full heap, as in the seeds",
}
#: The same two protocols in words for any game.
GAME_PROTOCOLS = {
    "explore": "every game starts from a random position of the game, so every hat keeps being visited",
    "classic": "every game starts from the game's start position",
}
DEFAULT_PROTOCOL = "explore"
ENGINES = ("kernel", "reference")
MAX_GAMES = 10_000_000


@dataclass(frozen=True)
class TrainingConfig:
    """A training run over the game `config.rules`: `game` (any `GameRules`), or when it is None sticks
    on a heap of `sticks` with at most `max_take` a move (a shortcut; for other games they are ignored).
    No hat rule: a run learns by its brains' own (a fresh brain is made with its rule by the caller).
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

    def __post_init__(self) -> None:
        if isinstance(self.sticks, bool) or not isinstance(self.sticks, int) or not 1 <= self.sticks <= 1000:
            raise ValueError(f"The heap must be a whole number between 1 and 1000, not {self.sticks!r}.")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or not 0 <= self.games <= MAX_GAMES:
            raise ValueError(f"The number of games must be between 0 and {MAX_GAMES:,}, not {self.games!r}.")
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"The protocol is one of {', '.join(PROTOCOLS)}, not {self.protocol!r}.")
        if self.engine not in ENGINES:
            raise ValueError(f"The engine is 'kernel' or 'reference', not {self.engine!r}.")
        if not 1 <= self.max_take <= 10:
            raise ValueError(f"The maximum take must be between 1 and 10, not {self.max_take}.")
        if self.game is not None and not isinstance(self.game, GameRules):
            raise ValueError(f"The game must follow the game protocol, not {self.game!r}.")
        check_pace(self.pace)

    @property
    def rules(self) -> GameRules:
        """The game trained on."""
        return self.game if self.game is not None else SticksRules(self.sticks, self.max_take)


@dataclass
class TrainingResult:
    brain: Hats  # the AI handed to a player (it played both seats)
    opponent: Hats  # its sparring partner
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

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else 0.0

    @property
    def heap(self) -> int | None:
        """The heap a sticks run trained (its figures are over heaps 2..heap); None for other games."""
        return registry.curve_size(self.rules) if self.rules is not None else None


def _seed_for(seed: int | None) -> int:
    if seed is None:
        return int.from_bytes(np.random.default_rng().bytes(8), "little")
    return seed


def train(config: TrainingConfig, brain: Hats | None = None, opponent: Hats | None = None,
          progress: Callable[[TrainingProgress], None] | None = None,
          cancel: threading.Event | Callable[[], bool] | TrainingControl | None = None,
          story: Callable[[GameStory], None] | None = None) -> TrainingResult:
    """Train `brain` (fresh if None) against `opponent` (fresh if None) for `config.games` games.

    Each brain learns by its own rule (`Hats.rule`), in both engines: the run takes the rule from the
    brains. A fresh brain (no `brain` given) learns by the default rule; to train one by another, make
    it with its rule (`Hats(config.rules, rule=...)`). A fresh opponent learns by the brain's rule.
    `cancel` may be a `TrainingControl` (or one is made when `config.pace` is set): the run then
    honours its pace, pause and steps. Games played one at a time (at a pace, paused, stepping) are
    told to `story` and ride on their progress snapshot (`TrainingProgress.story`).
    """
    rules = config.rules
    brain = brain if brain is not None else Hats(rules)
    # a fresh sparring partner learns by the brain's rule
    opponent = opponent if opponent is not None else Hats(rules, rule=brain.rule)
    if brain is opponent or np.shares_memory(brain.counts, opponent.counts):
        raise ValueError("The two training AIs must have brains of their own.")
    for hats in (brain, opponent):
        why = hats.cannot_train(rules)
        if why is not None:
            raise ValueError(why)
    seed = _seed_for(config.seed)
    engine, notice = config.engine, None
    run = None
    if engine == "kernel":
        problem = compiled.load()
        if problem is None:
            run = _KernelRun(config, brain, opponent, seed)
        else:
            engine, notice = "reference", problem
    if run is None:
        run = _ReferenceRun(config, brain, opponent, seed)
    scorer = CurveScorer.for_rules(rules) if config.curve else None
    curve: list[CurvePoint] = []
    last_scores = (float("nan"), float("nan"))

    def checkpoint(done: int) -> None:
        nonlocal last_scores
        point = scorer.score(done, brain.counts)
        curve.append(point)
        last_scores = (point.agreement, point.win_vs_perfect)

    def report(done: int, seconds: float, finished: bool, cancelled: bool, told: GameStory | None = None) -> None:
        if told is not None and story is not None:
            story(told)
        if progress is None:
            return
        if done == 0 and scorer is not None and not curve:
            agreement, win = _first_scores(scorer, brain)
        else:
            agreement, win = last_scores
        progress(TrainingProgress(done, config.games, seconds, run.wins_first, brain.counts.copy(),
                                  agreement, win, finished=finished, cancelled=cancelled, curve=tuple(curve),
                                  story=told, opponent_hats=opponent.counts.copy()))

    # a run nobody steers gets a control of its own: at its pace (full speed unless asked), with `cancel`
    control = cancel if isinstance(cancel, TrainingControl) else \
        TrainingControl(config.pace, cancelled_when=cancel_check(cancel))
    batches = play_controlled(config.games, run.play, run.play_story, report, control,
                              checkpoint if scorer is not None else None)
    if scorer is not None and batches.done and (not curve or curve[-1].games != batches.done):
        checkpoint(batches.done)  # a cancelled run ends its curve where it stopped
    return TrainingResult(brain, opponent, batches.done, config.games, batches.seconds, run.wins_first,
                          run.wins_brain, batches.cancelled, curve, engine, notice, rules, run.draws)


def _first_scores(scorer: CurveScorer, brain: Hats) -> tuple[float, float]:
    point = scorer.score(0, brain.counts)
    return point.agreement, point.win_vs_perfect


def explore_starts(rules) -> tuple:
    """Where 'explore' games start: every position, unless the game's registry entry says otherwise
    (sticks: a heap of 1, one forced move, teaches nothing, so games start from 2..N)."""
    return registry.explore_starts(rules)


def start_positions(config: TrainingConfig) -> tuple:
    rules = config.rules
    return explore_starts(rules) if config.protocol == "explore" else tuple(rules.start_positions())


class _ReferenceRun:
    """The readable path: `Hats.draw` and `Hats.reinforce` over the protocol, one shared random stream."""

    def __init__(self, config: TrainingConfig, brain: Hats, opponent: Hats, seed: int) -> None:
        self.rules = config.rules
        self.brain = brain
        self.opponent = opponent
        self.rng = XorShift64Star(seed)
        self.starts = start_positions(config)
        self.wins_first = 0
        self.wins_brain = 0
        self.draws = 0

    def play(self, n: int, game_index: int) -> int:
        for g in range(game_index, game_index + n):
            self.play_story(g, story=False)
        return n

    def play_story(self, g: int, story: bool = True) -> GameStory | None:
        """Play game number g (from 0) with `Hats.draw` / `Hats.reinforce`; its story if asked."""
        a_outcome, told = play_one_game(self.rules, self.starts, self.brain, self.opponent, self.rng, g, story)
        first_outcome = a_outcome if g % 2 == 0 else -a_outcome
        self.wins_first += first_outcome > 0
        self.wins_brain += a_outcome > 0
        self.draws += a_outcome == 0
        return told


def play_one_game(rules, starts, brain: Hats, opponent: Hats, rng, g: int, story: bool):
    """The readable game of training: (the outcome for the brain: +1 won, 0 drawn, -1 lost; the
    game's `GameStory` or None)."""
    a_first = g % 2 == 0
    position = starts[0] if len(starts) == 1 else starts[rng.randrange(len(starts))]
    start = position
    drawn: tuple[list, list] = ([], [])  # index 0: the brain, 1: the opponent
    order: list[tuple[int, object, object]] = []
    a_to_move = a_first
    while True:
        hats = brain if a_to_move else opponent
        move = hats.draw(position, rng)
        drawn[0 if a_to_move else 1].append((position, move))
        if story:
            order.append((0 if a_to_move else 1, position, move))
        position = rules.apply(position, move)
        if rules.is_terminal(position):
            mover = outcome_of(rules, position)
            a_outcome = mover if a_to_move else -mover
            break
        a_to_move = not a_to_move
    changes_a = brain.reinforce(drawn[0], outcome=a_outcome)
    changes_b = opponent.reinforce(drawn[1], outcome=-a_outcome)
    if not story:
        return a_outcome, None
    winner = 0 if a_outcome > 0 else 1 if a_outcome < 0 else None
    return a_outcome, GameStory(g + 1, start, 0 if a_first else 1, tuple(order), winner, (changes_a, changes_b))


class _KernelRun:
    """The compiled path (`learn.kernel`), for every game: the game and the rule as arrays."""

    def __init__(self, config: TrainingConfig, brain: Hats, opponent: Hats, seed: int) -> None:
        from sticks_tui.learn import kernel

        self.kernel = kernel
        self.config = config
        self.brain = brain
        self.opponent = opponent
        self.starts = start_positions(config)
        # the game trained, laid out as its own brain would be: a bigger sticks brain (more hats than the
        # heap trained) numbers its rows alike, and plays through a view of its first rows
        self.game = compile_game(Hats(config.rules), self.starts)
        self.rows = self.game.n_moves.shape[0]
        self.rules = compile_rule(brain.rule), compile_rule(opponent.rule)  # each learns by its own
        self.state = kernel.RunState.new(XorShift64Star(seed).state, self.game)
        self.rng_state, self.stats = self.state.rng_state, self.state.stats

    @property
    def wins_first(self) -> int:
        return int(self.stats[0])

    @property
    def wins_brain(self) -> int:
        return int(self.stats[1])

    @property
    def draws(self) -> int:
        return int(self.stats[2])

    def play(self, n: int, game_index: int) -> int:
        a, b = self.brain.counts[: self.rows], self.opponent.counts[: self.rows]
        if a.shape != b.shape or a.shape != self.game.next_row.shape:  # the kernel reads what it is told
            raise ValueError(f"Hats of shape {a.shape} and {b.shape} do not fit the game {self.config.rules!r}.")
        return int(self.kernel.play_games(a, b, self.game, *self.rules, n, game_index, self.state))

    def play_story(self, g: int, story: bool = True) -> GameStory | None:
        """One game played by the readable learner on the kernel's own random stream and hats (bit
        for bit what the kernel would have played), with its story."""
        rng = XorShift64Star()
        rng.state = int(self.rng_state[0])
        a_outcome, told = play_one_game(self.config.rules, self.starts, self.brain, self.opponent, rng, g, story)
        self.rng_state[0] = np.uint64(rng.state)
        first_outcome = a_outcome if g % 2 == 0 else -a_outcome
        self.stats[0] += first_outcome > 0
        self.stats[1] += a_outcome > 0
        self.stats[2] += a_outcome == 0
        return told


def outcome_of(rules, position) -> int:
    """At a terminal position, the outcome for whoever made the last move: +1 win, 0 draw, -1 loss."""
    return int(rules.outcome(position))


def compile_game(brain: Hats, starts):
    """The game of `brain` as arrays for `learn.kernel` (a `kernel.CompiledGame`), over its hat rows."""
    from sticks_tui.learn.kernel import lay_out

    rules = brain.rules
    rows, width = brain.counts.shape
    next_row = np.full((rows, width), -1, dtype=np.int64)
    outcome = np.zeros((rows, width), dtype=np.int8)
    for position in brain.positions:
        i = brain.row(position)
        for j, move in enumerate(brain.moves_of(position)):
            after = rules.apply(position, move)
            if rules.is_terminal(after):
                outcome[i, j] = outcome_of(rules, after)
            else:
                next_row[i, j] = brain.row(after)
    start_rows = np.array([brain.row(p) for p in starts], dtype=np.int64)
    return lay_out(brain.n_moves, next_row, outcome, start_rows)


def compile_rule(rule: HatRule):
    """`rule` as arrays for `learn.kernel` (a `kernel.CompiledRule`)."""
    from sticks_tui.learn.kernel import CompiledRule

    return CompiledRule(np.array(rule.changes, dtype=np.int64), rule.floor_code)

