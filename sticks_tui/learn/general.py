"""The hat learner for any small two-player game the engine can describe, not only sticks.

A game is described by `GameDescription`: its positions, the legal moves from each, the position a
move leads to, and who has won when the game ends. From that alone:

- `StateHats` is the brain: one hat per position, one ball per legal move, held as counts in ONE
  integer array (positions x moves; row i is the hat for `states[i]`, column j counts the balls for
  `moves[i][j]`), changed by the same `HatRule` as the sticks hats (reward, penalty, floor).
- `train_general` is self-play: two learners play each other, both learning, taking turns to move
  first, with a progress callback (at most ~20 a second), a cancel event and a seed. Two engines
  play the same games from the same seed: `reference` (readable Python on `StateHats`) and
  `kernel` (numba, on the game compiled into arrays of next positions; releases the GIL).
- `exact_solution` solves the game by its recursion (or asks the description, e.g. Nim's table),
  and `agreement` reports, as for sticks, the share of winning positions whose most likely move
  is a winning move.

`NimDescription` (three piles, last coin wins) and `SticksDescription` (one heap, last stick loses)
are the two games described so far.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from sticks_tui.engine.events import HatChange, TrainingProgress
from sticks_tui.learn.analysis import has_single_top
from sticks_tui.learn.batches import play_in_batches
from sticks_tui.learn.hats import MAX_COUNT, HatRule
from sticks_tui.learn.rng import XorShift64Star

PROTOCOLS = {
    "explore": "every game starts from a random position of the game, so every hat keeps being visited",
    "classic": "every game starts from the game's start position",
}
ENGINES = ("kernel", "reference")
MAX_GAMES = 10_000_000


@runtime_checkable
class GameDescription(Protocol):
    """What the learner needs to know about a game. States and moves are hashable values."""

    name: str

    def states(self) -> Sequence[Hashable]:
        """Every position where the player to move has a move (terminal positions excluded)."""

    def start_states(self) -> Sequence[Hashable]:
        """Where a game starts under the 'classic' protocol (one or more positions)."""

    def legal_moves(self, state) -> Sequence[Hashable]:
        """The moves from `state`, in a fixed order (the order of the hat's balls)."""

    def apply(self, state, move):
        """The position after `move`."""

    def is_terminal(self, state) -> bool:
        """The game is over (no move left)."""

    def last_mover_wins(self, state) -> bool:
        """At a terminal position: did the player who just moved win?"""


# -- two games ----------------------------------------------------------------------------------

class NimDescription:
    """Three-pile Nim on piles up to `box` (default 7, 7, 7): the last coin wins."""

    name = "three-pile Nim"

    def __init__(self, box: tuple[int, int, int] = (7, 7, 7)) -> None:
        box = tuple(int(b) for b in box)
        if len(box) != 3 or any(b < 0 for b in box) or sum(box) == 0:
            raise ValueError(f"Nim's box is three pile sizes of at least 0, not all 0: {box!r}.")
        self.box: tuple[int, int, int] = box  # type: ignore[assignment]
        n1, n2, n3 = box
        self._states = tuple((n, d, q) for n in range(n1 + 1) for d in range(n2 + 1) for q in range(n3 + 1)
                             if n + d + q > 0)

    def states(self):
        return self._states

    def start_states(self):
        return (self.box,)

    def legal_moves(self, state):
        return tuple((pile, coins) for pile in range(3) for coins in range(1, state[pile] + 1))

    def apply(self, state, move):
        pile, coins = move
        p = list(state)
        p[pile] -= coins
        return p[0], p[1], p[2]

    def is_terminal(self, state) -> bool:
        return sum(state) == 0

    def last_mover_wins(self, state) -> bool:
        return True  # whoever takes the last coin wins

    def winning_moves(self, state) -> tuple:
        """From the table U(n, d, q) (solve.nim), not from a search."""
        from sticks_tui.solve.nim import winning_moves

        return tuple(winning_moves(state))


class SticksDescription:
    """The Game of Sticks as a described game: one heap up to `size`, take 1..max_take, last stick loses."""

    name = "the Game of Sticks"

    def __init__(self, size: int = 20, max_take: int = 3) -> None:
        if size < 1 or max_take < 1:
            raise ValueError("Sticks needs a heap of at least 1 and a maximum take of at least 1.")
        self.size = size
        self.max_take = max_take

    def states(self):
        return tuple(range(1, self.size + 1))

    def start_states(self):
        return (self.size,)

    def legal_moves(self, state):
        return tuple(range(1, min(self.max_take, state) + 1))

    def apply(self, state, move):
        return state - move

    def is_terminal(self, state) -> bool:
        return state == 0

    def last_mover_wins(self, state) -> bool:
        return False  # whoever takes the last stick loses


# -- the exact solution, generically ----------------------------------------------------------

def exact_solution(game: GameDescription) -> dict:
    """{state: winning moves} for every state (an empty tuple where the player to move has lost).

    Uses the description's own `winning_moves` when it has one (Nim's table); otherwise the
    recursion: a move wins if it ends the game with the mover winning, or leads to a lost position.
    """
    own = getattr(game, "winning_moves", None)
    if own is not None:
        return {s: tuple(own(s)) for s in game.states()}
    won: dict = {}

    def winning(state) -> bool:
        if state not in won:
            won[state] = any(_move_wins(state, m) for m in game.legal_moves(state))
        return won[state]

    def _move_wins(state, move) -> bool:
        nxt = game.apply(state, move)
        if game.is_terminal(nxt):
            return game.last_mover_wins(nxt)
        return not winning(nxt)

    # positions in an order that keeps the recursion shallow: states() lists smaller ones first
    return {s: tuple(m for m in game.legal_moves(s) if _move_wins(s, m)) for s in game.states()}


# -- the brain ----------------------------------------------------------------------------------

class StateHats:
    """One hat per position of `game`, one ball per legal move, as counts in one int64 array."""

    def __init__(self, game: GameDescription, rule: HatRule | None = None, counts: np.ndarray | None = None) -> None:
        self.game = game
        self.rule = rule or HatRule()
        self.states: tuple = tuple(game.states())
        if not self.states:
            raise ValueError("A brain needs at least one position with a move.")
        self.index: dict = {s: i for i, s in enumerate(self.states)}
        self.moves: tuple[tuple, ...] = tuple(tuple(game.legal_moves(s)) for s in self.states)
        self.move_index: tuple[dict, ...] = tuple({m: j for j, m in enumerate(ms)} for ms in self.moves)
        self.n_moves = np.array([len(ms) for ms in self.moves], dtype=np.int64)
        if (self.n_moves < 1).any():
            raise ValueError("Every position listed by states() must have a legal move.")
        width = int(self.n_moves.max())
        if counts is None:
            counts = np.zeros((len(self.states), width), dtype=np.int64)
            for i, n in enumerate(self.n_moves):
                counts[i, :n] = self.rule.start_balls
        else:
            counts = np.array(counts, dtype=np.int64)
            if counts.shape != (len(self.states), width):
                raise ValueError(f"Counts of shape {counts.shape} do not fit {len(self.states)} hats "
                                 f"of up to {width} balls.")
        self.counts = counts

    # -- reading ---------------------------------------------------------------------------
    def has_hat(self, state) -> bool:
        return state in self.index

    def row(self, state) -> int:
        try:
            return self.index[state]
        except KeyError:
            raise ValueError(f"There is no hat for {state!r} in this brain.") from None

    def moves_of(self, state) -> tuple:
        return self.moves[self.row(state)]

    def hat(self, state) -> tuple[int, ...]:
        """The counts of the balls in the hat for `state`, in `moves_of(state)` order."""
        i = self.row(state)
        return tuple(int(c) for c in self.counts[i, : self.n_moves[i]])

    def probabilities(self, state) -> dict:
        counts = self.hat(state)
        total = sum(counts)
        return {m: c / total for m, c in zip(self.moves_of(state), counts, strict=True)}

    def best_move(self, state):
        """The most likely move (ties go to the first in `legal_moves` order)."""
        counts = self.hat(state)
        return self.moves_of(state)[counts.index(max(counts))]

    def floor_of(self, row: int, col: int) -> int:
        if self.rule.floor == "each":
            return 1
        others = int(self.counts[row, : self.n_moves[row]].sum()) - int(self.counts[row, col])
        return 0 if others > 0 else 1

    # -- learning --------------------------------------------------------------------------
    def draw(self, state, rng):
        """A ball from the hat for `state`: each move as likely as its count."""
        i = self.row(state)
        counts = self.counts[i, : self.n_moves[i]].tolist()
        r = rng.randrange(sum(counts))
        for j, count in enumerate(counts):
            if r < count:
                return self.moves[i][j]
            r -= count
        raise AssertionError("unreachable: a draw fell outside the hat")  # pragma: no cover

    def reinforce(self, drawn, won: bool) -> tuple[HatChange, ...]:
        """Apply the rule to every (state, move) drawn in a game; `HatChange.hat` is the state."""
        changes = []
        for state, move in drawn:
            i = self.row(state)
            j = self.move_index[i][move]
            before = int(self.counts[i, j])
            if won:
                after = min(before + self.rule.win_reward, MAX_COUNT)
            else:
                after = min(max(before - self.rule.loss_penalty, self.floor_of(i, j)), before)
            self.counts[i, j] = after
            changes.append(HatChange(state, move, before, after))
        return tuple(changes)

    def copy(self) -> StateHats:
        return StateHats(self.game, self.rule, self.counts.copy())

    def as_dict(self) -> dict[str, dict[str, int]]:
        """{state: {move: count}} with reprs as keys, for JSON."""
        return {repr(s): {repr(m): int(c) for m, c in zip(ms, self.counts[i], strict=False)}
                for i, (s, ms) in enumerate(zip(self.states, self.moves, strict=True))}


# -- what it has learned --------------------------------------------------------------------------

@dataclass(frozen=True)
class GeneralAnalysis:
    agreement: float  # share of winning positions whose most likely move wins
    winning_states: int
    disagreeing: tuple  # winning positions whose most likely move does not win


def agreement(hats: StateHats, solution: dict | None = None, counts: np.ndarray | None = None) -> GeneralAnalysis:
    """As for sticks: over the positions where the player to move can force a win, the share whose
    most likely ball is a winning move (a tie at the top is no preference, so it never counts).
    `counts` overrides `hats.counts`."""
    solution = solution if solution is not None else exact_solution(hats.game)
    counts = hats.counts if counts is None else counts
    wrong = []
    total = 0
    for i, state in enumerate(hats.states):
        wins = solution[state]
        if not wins:
            continue
        total += 1
        row = counts[i, : hats.n_moves[i]]
        best = hats.moves[i][int(np.argmax(row))]
        if best not in wins or not has_single_top(row):
            wrong.append(state)
    share = 1.0 - len(wrong) / total if total else 1.0
    return GeneralAnalysis(share, total, tuple(wrong))


# -- training -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GeneralTrainingConfig:
    games: int = 100_000
    seed: int | None = None
    protocol: str = "explore"
    rule: HatRule = field(default_factory=HatRule)
    engine: str = "kernel"

    def __post_init__(self) -> None:
        if isinstance(self.games, bool) or not isinstance(self.games, int) or not 0 <= self.games <= MAX_GAMES:
            raise ValueError(f"The number of games must be between 0 and {MAX_GAMES:,}, not {self.games!r}.")
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"The protocol is one of {', '.join(PROTOCOLS)}, not {self.protocol!r}.")
        if self.engine not in ENGINES:
            raise ValueError(f"The engine is 'kernel' or 'reference', not {self.engine!r}.")


@dataclass
class GeneralTrainingResult:
    brain: StateHats
    opponent: StateHats
    games_played: int
    games_requested: int
    seconds: float
    wins_first: int
    wins_brain: int
    cancelled: bool
    curve: list[tuple[int, float]]  # (games done, agreement)

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class CompiledGame:
    """The game as arrays for the kernel: for row i and ball j, the next row (-1: the game ends),
    and, when it ends, whether the mover won."""

    n_moves: np.ndarray  # (S,) int64
    next_row: np.ndarray  # (S, W) int64
    mover_wins: np.ndarray  # (S, W) bool, meaningful where next_row == -1
    explore_starts: np.ndarray  # rows
    classic_starts: np.ndarray  # rows
    max_length: int


def compile_game(hats: StateHats) -> CompiledGame:
    game = hats.game
    S, W = hats.counts.shape
    next_row = np.full((S, W), -1, dtype=np.int64)
    mover_wins = np.zeros((S, W), dtype=np.bool_)
    for i, (state, moves) in enumerate(zip(hats.states, hats.moves, strict=True)):
        for j, move in enumerate(moves):
            nxt = game.apply(state, move)
            if game.is_terminal(nxt):
                mover_wins[i, j] = bool(game.last_mover_wins(nxt))
            else:
                next_row[i, j] = hats.row(nxt)
    classic = np.array([hats.row(s) for s in game.start_states()], dtype=np.int64)
    return CompiledGame(hats.n_moves, next_row, mover_wins, np.arange(S, dtype=np.int64), classic, S + 1)


def train_general(game: GameDescription, config: GeneralTrainingConfig, brain: StateHats | None = None,
                  opponent: StateHats | None = None,
                  progress: Callable[[TrainingProgress], None] | None = None,
                  cancel: threading.Event | Callable[[], bool] | None = None) -> GeneralTrainingResult:
    """Self-play: `brain` (fresh if None) against `opponent` (fresh if None) for `config.games` games.

    Game g (from 0) has the brain moving first when g is even. Progress goes to `progress` as a
    `TrainingProgress` (its `hats` a copy of the brain's counts, `agreement` against the exact
    solution) at most ~20 times a second and once at the end; `cancel` is checked between
    batches, so a cancelled run leaves every game either fully learned from or not played.
    """
    brain = brain if brain is not None else StateHats(game, config.rule)
    opponent = opponent if opponent is not None else StateHats(game, config.rule)
    if brain is opponent or np.shares_memory(brain.counts, opponent.counts):
        raise ValueError("The two training AIs must have brains of their own.")
    if brain.states != opponent.states:
        raise ValueError("The two training AIs must have hats for the same positions.")
    seed = config.seed if config.seed is not None else int.from_bytes(np.random.default_rng().bytes(8), "little")
    solution = exact_solution(game)
    run = (_KernelRun if config.engine == "kernel" else _ReferenceRun)(config, brain, opponent, seed)
    curve: list[tuple[int, float]] = []

    def report(done: int, seconds: float, finished: bool, cancelled: bool) -> None:
        share = agreement(brain, solution).agreement
        curve.append((done, share))
        if progress is not None:
            progress(TrainingProgress(done, config.games, seconds, run.wins_first, brain.counts.copy(), share,
                                      finished=finished, cancelled=cancelled))

    batches = play_in_batches(config.games, run.play, report, cancel)
    return GeneralTrainingResult(brain, opponent, batches.done, config.games, batches.seconds, run.wins_first,
                                 run.wins_brain, batches.cancelled, curve)


class _ReferenceRun:
    """Readable self-play on `StateHats`, one shared xorshift64* stream (the kernel's twin)."""

    def __init__(self, config: GeneralTrainingConfig, brain: StateHats, opponent: StateHats, seed: int) -> None:
        self.game = brain.game
        self.brain = brain
        self.opponent = opponent
        self.rng = XorShift64Star(seed)
        self.starts = tuple(self.game.states()) if config.protocol == "explore" else tuple(self.game.start_states())
        self.wins_first = 0
        self.wins_brain = 0

    def play(self, n: int, game_index: int) -> int:
        game = self.game
        for g in range(game_index, game_index + n):
            a_first = g % 2 == 0
            state = self.starts[0] if len(self.starts) == 1 else self.starts[self.rng.randrange(len(self.starts))]
            drawn: tuple[list, list] = ([], [])  # index 0: the brain, 1: the opponent
            a_to_move = a_first
            while True:
                hats = self.brain if a_to_move else self.opponent
                move = hats.draw(state, self.rng)
                drawn[0 if a_to_move else 1].append((state, move))
                state = game.apply(state, move)
                if game.is_terminal(state):
                    a_won = a_to_move == game.last_mover_wins(state)
                    break
                a_to_move = not a_to_move
            self.brain.reinforce(drawn[0], a_won)
            self.opponent.reinforce(drawn[1], not a_won)
            self.wins_first += a_won == a_first
            self.wins_brain += a_won
        return n


class _KernelRun:
    def __init__(self, config: GeneralTrainingConfig, brain: StateHats, opponent: StateHats, seed: int) -> None:
        from sticks_tui.learn import general_kernel

        self.kernel = general_kernel
        self.compiled = compile_game(brain)
        general_kernel.warm_up()
        self.config = config
        self.brain = brain
        self.opponent = opponent
        self.starts = self.compiled.explore_starts if config.protocol == "explore" else self.compiled.classic_starts
        self.rng_state = np.array([XorShift64Star(seed).state], dtype=np.uint64)
        self.stats = np.zeros(2, dtype=np.int64)

    def play(self, n: int, game_index: int) -> int:
        rule = self.config.rule
        c = self.compiled
        return int(self.kernel.play_games(
            self.brain.counts, self.opponent.counts, c.n_moves, c.next_row, c.mover_wins, self.starts, n,
            rule.win_reward, rule.loss_penalty, rule.floor_code, self.rng_state, game_index, self.stats,
            c.max_length))

    @property
    def wins_first(self) -> int:
        return int(self.stats[0])

    @property
    def wins_brain(self) -> int:
        return int(self.stats[1])
