"""MENACE trained while someone watches: at full speed in compiled batches, or one game at a time
(at a pace, paused, stepping) with the readable learner, steered by a `learn.control.TrainingControl`.

Both paths play on the same counts arrays and draw from ONE xorshift64* stream (the kernel's state
array; a readable game borrows it and hands it back), so a run whose pace changes leaves exactly the
beads of a run that never changed pace (a test holds it to that, bit for bit).

Each game told one at a time comes back as a `MenaceStory`: the squares played, MENACE's drawn beads
with their counts before and after the game's incentive, and the result. Checkpoints (1, 2, 3, 5, 7,
10, 15, ... games) give the curve: the results so far and the exact chance not to lose one more game
against the perfect player, and the beads in the first box.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sticks_tui.engine.noughts import EMPTY_BOARD, has_line, is_over, place, to_move
from sticks_tui.learn import menace
from sticks_tui.learn.batches import play_controlled
from sticks_tui.learn.control import TrainingControl
from sticks_tui.learn.rng import XorShift64Star


@dataclass(frozen=True)
class BeadChange:
    """One bead MENACE drew in a game: which brain ('X' or 'O'), its box (row) and column, the square
    of the board in play (1-9), the board it was drawn on, and the count before and after the game."""

    marks: str
    row: int
    col: int
    square: int
    board: str
    before: int
    after: int


@dataclass(frozen=True)
class MenaceStory:
    """One game as it happened: `number` (1 for a run's first game), the squares in order, X's result
    (1 win, 0 draw, -1 loss), who resigned ('X', 'O' or None), and every bead drawn with its change."""

    number: int
    moves: tuple[int, ...]
    result: int
    resigned: str | None
    changes: tuple[BeadChange, ...]

    @property
    def board(self) -> str:
        board = EMPTY_BOARD
        for square in self.moves:
            board = place(board, square)
        return board


def play_told_game(x_player, o_player, rng: XorShift64Star, number: int = 1) -> MenaceStory:
    """`menace.play_game` (the same draws in the same order, the same lessons), telling what happened."""
    board = EMPTY_BOARD
    moves: list[int] = []
    drawn: list[tuple[str, int, int, int, str]] = []
    resigned = None
    while True:
        mark = to_move(board)
        player = x_player if mark == "X" else o_player
        square, bead = player.choose(board, rng)
        if square == menace.RESIGN:
            result = menace.LOSS if mark == "X" else menace.WIN
            resigned = mark
            break
        if bead is not None:
            drawn.append((mark, bead[0], bead[1], square, board))
        moves.append(square)
        board = place(board, square)
        if is_over(board):
            result = (menace.WIN if mark == "X" else menace.LOSS) if has_line(board, mark) else menace.DRAW
            break
    brains = {"X": x_player, "O": o_player}
    before = {(m, r, c): int(brains[m].counts[r, c]) for m, r, c, _, _ in drawn}
    for mark, player, outcome in (("X", x_player, result), ("O", o_player, -result)):
        if isinstance(player, menace.MenaceBrain):
            player.reinforce([(r, c) for m, r, c, _, _ in drawn if m == mark], outcome)
    changes = tuple(BeadChange(m, r, c, s, b, before[(m, r, c)], int(brains[m].counts[r, c]))
                    for m, r, c, s, b in drawn)
    return MenaceStory(number, tuple(moves), result, resigned, changes)


@dataclass(frozen=True)
class MenaceProgress:
    """A snapshot of a run for whoever watches (at most ~20 a second, and one per game told)."""

    games_done: int
    games_total: int
    seconds: float
    results: tuple[int, int, int]  # X's wins, draws and losses in this run so far
    counts: np.ndarray = field(repr=False, compare=False)  # a copy of X's counts
    curve: tuple = field(default=(), repr=False, compare=False)  # menace.CurvePoint, this run's games
    first_box: tuple = field(default=(), repr=False, compare=False)  # (games, 9 counts) of the first box
    finished: bool = False
    cancelled: bool = False
    story: MenaceStory | None = field(default=None, repr=False, compare=False)


@dataclass
class MenaceTrainingResult:
    games_played: int
    games_total: int
    seconds: float
    results: tuple[int, int, int]
    curve: list
    first_box: list
    cancelled: bool
    engine: str
    notice: str | None = None


class MenaceTrainer:
    """Plays games of `brain` (MENACE as X) against 'random', 'perfect' or 'menace' (`o_brain`, learning
    O), on their counts in place, from one random stream seeded by `seed`."""

    def __init__(self, brain: menace.MenaceBrain, opponent: str, seed: int,
                 o_brain: menace.MenaceBrain | None = None, engine: str = "kernel") -> None:
        if opponent not in menace.OPPONENTS:
            raise ValueError(f"the opponent is {', '.join(menace.OPPONENTS)}, not {opponent!r}")
        if opponent == "menace" and (o_brain is None or o_brain.boxes.marks != "O"):
            raise ValueError("MENACE against MENACE needs a second brain for O.")
        if o_brain is not None and o_brain.rule != brain.rule:
            raise ValueError("Both brains must learn by the same rule.")
        self.brain = brain
        self.o_brain = o_brain if opponent == "menace" else None
        self.opponent = opponent
        self.rule = brain.rule
        self.rng_state = np.array([XorShift64Star(seed).state], dtype=np.uint64)
        self.stats = np.zeros(3, dtype=np.int64)
        self.notice = None
        self.engine = engine
        if engine == "kernel":
            from sticks_tui.learn import menace_kernel

            self.notice = menace_kernel.load()
            if self.notice is not None:
                self.engine = "reference"
        self._opponent_player = menace.opponent_for(menace.MenaceConfig(opponent=opponent), brain, self.o_brain)

    # -- the two paths -------------------------------------------------------------------------------
    def play(self, n: int, done: int = 0) -> int:
        """n games at full speed (compiled when the kernel loaded)."""
        if self.engine == "kernel":
            from sticks_tui.learn import menace_kernel

            counts_o = self.o_brain.counts if self.o_brain is not None else np.zeros((1, 9), dtype=np.int64)
            menace_kernel.play(menace.tables(self.rule), self.brain.counts, counts_o, self.opponent, n, self.rule,
                               self.rng_state, self.stats)
            return n
        for g in range(n):
            self.play_story(done + g)
        return n

    def play_story(self, done: int) -> MenaceStory:
        """Game number done + 1 with the readable learner, told."""
        rng = XorShift64Star()
        rng.state = int(self.rng_state[0])
        story = play_told_game(self.brain, self._opponent_player, rng, done + 1)
        self.rng_state[0] = np.uint64(rng.state)
        self.stats[1 - story.result] += 1
        return story

    @property
    def results(self) -> tuple[int, int, int]:
        return int(self.stats[0]), int(self.stats[1]), int(self.stats[2])

    def not_losing_vs_perfect(self) -> float:
        """The exact chance that X's brain, as it stands, does not lose one game to the perfect player."""
        if self.engine == "kernel":
            from sticks_tui.learn import menace_kernel

            loss = menace_kernel.chance_of_loss(menace.tables(self.rule), self.brain.counts, "perfect",
                                                self.rule.empty == "refill")
        else:
            loss = menace.loss_chance(self.brain, "perfect")
        return 1.0 - loss

    # -- a run -------------------------------------------------------------------------------------
    def run(self, games: int, control: TrainingControl | None = None,
            progress: Callable[[MenaceProgress], None] | None = None) -> MenaceTrainingResult:
        """Play `games` games steered by `control` (full speed when None); report to `progress`."""
        control = control if control is not None else TrainingControl()
        curve: list[menace.CurvePoint] = []
        first_box: list[tuple[int, tuple[int, ...]]] = [(0, tuple(int(c) for c in self.brain.counts[0]))]

        def checkpoint(done: int) -> None:
            win, draw, loss = self.results
            curve.append(menace.CurvePoint(done, win, draw, loss, self.not_losing_vs_perfect()))
            first_box.append((done, tuple(int(c) for c in self.brain.counts[0])))

        def report(done: int, seconds: float, finished: bool, cancelled: bool, told=None) -> None:
            if progress is not None:
                progress(MenaceProgress(done, games, seconds, self.results, self.brain.counts.copy(), tuple(curve),
                                        tuple(first_box), finished, cancelled, told))

        batches = play_controlled(games, self.play, self.play_story, report, control, checkpoint)
        if batches.done and (not curve or curve[-1].games != batches.done):
            checkpoint(batches.done)  # a cancelled run ends its curve where it stopped
        return MenaceTrainingResult(batches.done, games, batches.seconds, self.results, curve, first_box,
                                    batches.cancelled, self.engine, self.notice)
