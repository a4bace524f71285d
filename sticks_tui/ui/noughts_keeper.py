"""What the noughts screen keeps: MENACE's brains (X's, and O's when one is chosen), their rule, their
results and learning curve this session, the beads of the first box over games, and the games played
on screen. No Textual here: the screen shows it, the keeper decides nothing about the rules.

MENACE's boxes are kept in the store between sessions, as the other games' brains are (brains
`vocabulary.NOUGHTS_BRAINS`), through the app's one kept-brain service (`ui/keeper.py`
`BrainKeeper`): loaded when the keeper is made, each game's lesson (and each training run) merged onto
the boxes as stored, so every copy of the app on one store (every tab of `sticks-tui serve`) teaches
one MENACE. If the store refuses, the app says why (the keeper's one failure behaviour) and MENACE
keeps what it learned until the app quits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sticks_tui import vocabulary
from sticks_tui.engine.noughts import EMPTY_BOARD, place
from sticks_tui.learn import menace
from sticks_tui.learn.rng import XorShift64Star

NOT_SAVED = "MENACE's boxes are not saved: they last until you quit the app."
PLAYER_KINDS = ("human", "random", "perfect", "menace")


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
    """One training game as it happened: `number` (1 for a run's first game), the squares in order, X's
    result (1 win, 0 draw, -1 loss), who resigned ('X', 'O' or None), and every bead drawn with its change."""

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


#: The screen's opponents of a training run, as the one trainer names them.
TRAIN_OPPONENTS = {"random": "random", "perfect": "best-at-random", "menace": "self"}


def train_menace(x_brain: menace.MenaceBrain, opponent: str, seed: int, games: int, control=None,
                 progress: Callable[[MenaceProgress], None] | None = None,
                 o_brain: menace.MenaceBrain | None = None, engine: str = "kernel") -> MenaceTrainingResult:
    """MENACE (X's brain, moving first) trained by the one trainer (`learn.trainer.train`) against 'random',
    'perfect' (a perfect player choosing at random among its best squares) or 'menace' (`o_brain`, learning
    O), its counts changed in place; what the noughts screen shows of it: the results, the curve (the exact
    chance not to lose against the perfect player worst for it) and the first box's beads at each point."""
    from sticks_tui.engine.noughts import NoughtsRules
    from sticks_tui.learn.analysis import CurveScorer
    from sticks_tui.learn.trainer import TrainingConfig, train

    if opponent not in TRAIN_OPPONENTS:
        raise ValueError(f"the opponent is {', '.join(TRAIN_OPPONENTS)}, not {opponent!r}")
    if opponent == "menace" and (o_brain is None or o_brain.marks != "O"):
        raise ValueError("MENACE against MENACE needs a second brain for O.")
    rules = NoughtsRules()
    config = TrainingConfig(game=rules, games=games, seed=seed, protocol="classic", engine=engine,
                            opponent=TRAIN_OPPONENTS[opponent], seats="first")
    first_box: list[tuple[int, tuple[int, ...]]] = [(0, x_brain.box_squares(0))]
    scorer = CurveScorer.for_brain(x_brain)
    brains = {"X": x_brain, "O": o_brain}

    def score(done, brain):
        if done:
            first_box.append((done, x_brain.box_squares(0)))
        return scorer.score(done, brain.counts)

    def points(curve) -> list[menace.CurvePoint]:
        return [menace.CurvePoint(p.games, *p.results, p.keep_first) for p in curve if p.results is not None]

    def told(story) -> MenaceStory | None:
        if story is None:
            return None
        changes = []
        for side, mark in ((0, "X"), (1, "O")):
            brain = brains[mark]
            for change in story.changes[side]:
                changes.append(BeadChange(mark, brain.row(change.hat), brain.column(change.hat, change.ball),
                                          change.ball, change.hat, change.before, change.after))
        result = 1 if story.winner == 0 else -1 if story.winner == 1 else 0
        resigned = None if story.resigned is None else "XO"[story.resigned]
        return MenaceStory(story.number, tuple(move for _, _, move in story.draws), result, resigned, tuple(changes))

    def report(snapshot) -> None:
        if progress is not None:
            progress(MenaceProgress(snapshot.games_done, snapshot.games_total, snapshot.seconds, snapshot.results,
                                    snapshot.hats, tuple(points(snapshot.curve)), tuple(first_box),
                                    snapshot.finished, snapshot.cancelled, told(snapshot.story)))

    result = train(config, x_brain, o_brain if opponent == "menace" else None, progress=report, cancel=control,
                   scorer=score)
    return MenaceTrainingResult(result.games_played, games, result.seconds, result.results, points(result.curve),
                                first_box, result.cancelled, result.engine, result.notice)


@dataclass
class NoughtsKeeper:
    """MENACE's brains and records for one app run."""

    seed: int = 0
    rule: menace.MenaceRule = field(default_factory=menace.MenaceRule)
    x_brain: menace.MenaceBrain = field(init=False)
    o_brain: menace.MenaceBrain | None = field(init=False, default=None)
    rng: XorShift64Star = field(init=False)
    games: int = 0  # games X's brain has played (training and on screen)
    results: list[int] = field(default_factory=lambda: [0, 0, 0])  # X's brain: won, drawn, lost
    o_results: list[int] = field(default_factory=lambda: [0, 0, 0])  # O's brain: won, drawn, lost
    curve: list[menace.CurvePoint] = field(default_factory=list)
    first_box: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    played: dict[str, int] = field(default_factory=lambda: {"X": 0, "draw": 0, "O": 0})  # games on screen
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    #: The app whose store keeps the boxes (None: they are kept in memory only), and for each brain
    #: ('X', 'O') its counts when last read from or written to the store (None: not from the store, never saved).
    app: object | None = field(default=None, repr=False)
    bases: dict = field(default_factory=dict, repr=False)
    #: X's boxes changed since the curve's last point (a classmate's lesson taken live): its chance is stale.
    boxes_moved: bool = field(default=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = XorShift64Star(self.seed)
        self.reset(self.rule)

    # -- the store ----------------------------------------------------------------------------------
    def attach(self, app) -> None:
        """Play with MENACE's boxes as `app`'s store keeps them (made, by this keeper's rule, if none);
        a stored brain keeps its own rule. The app's live check follows them (`held`)."""
        self.app = app
        app.session.held_brains.append(self.held)
        brain, kept = app.keeper.load(vocabulary.NOUGHTS_BRAINS["X"], rule=self.rule, game=vocabulary.NOUGHTS_GAME,
                                      seat=0)
        brain = menace.MenaceBrain.of(brain)
        self.x_brain, self.rule = brain, brain.rule
        self.bases = {"X": brain.counts.copy() if kept else None}
        self.o_brain = None
        self.first_box = [(0, self.first_box_counts())]
        try:
            o_kept = app.session.store.brain_info(vocabulary.NOUGHTS_BRAINS["O"]) is not None
        except Exception:  # noqa: BLE001 - a store that cannot say: O's brain is loaded at first use, as before
            o_kept = False
        if o_kept:  # O's brain was made in an earlier session: show it as it is kept
            self.brain_for("O")

    def save(self, mark: str, games: int) -> None:
        """What brain `mark` learned since it last read or wrote the store, merged onto its boxes as
        stored (which it then plays with: what other copies taught it meanwhile too); `games` played."""
        brain = self.x_brain if mark == "X" else self.o_brain
        if self.app is None or brain is None or self.bases.get(mark) is None:
            return
        stored = self.app.keeper.save(vocabulary.NOUGHTS_BRAINS[mark], brain, self.bases[mark], games)
        if stored is not None:
            self.bases[mark] = brain.counts.copy()

    def saved_text(self) -> str:
        """Where the boxes are kept, in words for the screen."""
        if self.app is None or self.bases.get("X") is None:
            return NOT_SAVED
        names = " and ".join(f"'{vocabulary.NOUGHTS_BRAINS[m]}'" for m in ("X", "O") if self.bases.get(m) is not None)
        return (f"MENACE's boxes are kept (brain{'s' if ' and ' in names else ''} {names}): each game teaches "
                "them, and they are as they were when you come back.")

    def _start_afresh(self) -> None:
        """The stored brains started anew by this keeper's fresh ones; if the store refuses, the app says
        why and the fresh brains are not saved (the stored ones are left as they are)."""
        from sticks_tui.store import StoreError

        store = self.app.session.store
        for mark, brain in (("X", self.x_brain), ("O", menace.MenaceBrain(self.rule, "O"))):
            name = vocabulary.NOUGHTS_BRAINS[mark]
            if mark == "O" and (self.bases.get("O") is None and store.brain_info(name) is None):
                continue
            try:
                store.save_brain(name, brain, replace=True)
            except (StoreError, ValueError) as exc:
                self.app.keeper.refused(f"{exc} MENACE starts afresh, but its fresh boxes are not saved.")
                self.bases = {"X": None, "O": None}
                return
        self.bases = {"X": self.x_brain.counts.copy(), "O": None}

    def reset(self, rule: menace.MenaceRule) -> None:
        """Fresh brains learning by `rule` (O's is made again when next needed); records start over; in
        the store too."""
        self.rule = rule
        self.x_brain = menace.MenaceBrain(rule)
        self.o_brain = None
        if self.app is not None:
            self._start_afresh()
        self.games = 0
        self.results[:] = [0, 0, 0]
        self.o_results[:] = [0, 0, 0]
        self.curve = []
        self.first_box = [(0, self.first_box_counts())]

    def held(self) -> list:
        """MENACE's brains kept in the store, for the app's live check (`Session.other_kept_brains`):
        a classmate's game teaches the class's boxes, and this tab plays on with them as stored."""
        found = []
        for mark in ("X", "O"):
            brain = self.x_brain if mark == "X" else self.o_brain
            if brain is None or self.bases.get(mark) is None:
                continue

            def adopt(counts, brain=brain, mark=mark) -> None:
                brain.counts[:] = counts
                self.bases[mark] = brain.counts.copy()
                self.boxes_moved = self.boxes_moved or mark == "X"

            def cell(row: int, column: int, brain=brain):
                return brain.cell(row, column)  # the box's board, and the square (1-9)

            found.append((vocabulary.NOUGHTS_BRAINS[mark], brain, self.bases[mark], adopt, cell))
        return found

    def first_box_counts(self) -> tuple[int, ...]:
        return self.x_brain.box_squares(0)

    def brain_for(self, mark: str) -> menace.MenaceBrain:
        """X's brain, or O's (made at first use, by the same rule)."""
        if mark == "X":
            return self.x_brain
        if self.o_brain is None:
            if self.app is None:
                self.o_brain = menace.MenaceBrain(self.rule, "O")
            else:
                brain, kept = self.app.keeper.load(vocabulary.NOUGHTS_BRAINS["O"], rule=self.rule,
                                                   game=vocabulary.NOUGHTS_GAME, seat=1)
                self.o_brain = brain = menace.MenaceBrain.of(brain)
                self.bases["O"] = brain.counts.copy() if kept else None
        return self.o_brain

    # -- a move by an AI ---------------------------------------------------------------------------
    def choose(self, kind: str, board: str) -> tuple[int, tuple[int, int] | None]:
        """The square (1-9) the AI `kind` plays on `board` and, for MENACE, the bead drawn (row, col);
        (menace.RESIGN, None) when MENACE's box is empty and it resigns."""
        if kind == "random":
            return menace.RandomPlayer().choose(board, self.rng)
        if kind == "perfect":
            return menace.PerfectPlayer().choose(board, self.rng)
        if kind == "menace":
            from sticks_tui.engine.noughts import to_move

            return self.brain_for(to_move(board)).choose(board, self.rng)
        raise ValueError(f"no AI called {kind!r}")

    # -- after a game -----------------------------------------------------------------------------
    def learn(self, drawn: list[tuple[str, int, int, int, str]], result: int,
              kinds: dict[str, str]) -> list[BeadChange]:
        """After a game on screen: X's `result` (1, 0, -1); `drawn` the beads MENACE drew as (mark, row,
        col, square, board); `kinds` who played X and O. Each MENACE brain learns; its changes are returned."""
        changes = []
        with self.lock:
            for mark, outcome in (("X", result), ("O", -result)):
                if kinds[mark] != "menace":
                    continue
                brain = self.brain_for(mark)
                mine = [d for d in drawn if d[0] == mark]
                before = [int(brain.counts[r, c]) for _, r, c, _, _ in mine]
                brain.reinforce([(b, s) for _, _, _, s, b in mine], outcome=outcome)
                changes += [BeadChange(mark, r, c, s, b, was, int(brain.counts[r, c]))
                            for (_, r, c, s, b), was in zip(mine, before, strict=True)]
                tally = self.results if mark == "X" else self.o_results
                tally[1 - outcome] += 1
            self.played["X" if result == 1 else "draw" if result == 0 else "O"] += 1
            if kinds["X"] == "menace":
                self.games += 1
                self.curve.append(menace.CurvePoint(self.games, *self.results, self.not_losing_vs_perfect()))
                self.boxes_moved = False
                self.first_box.append((self.games, self.first_box_counts()))
        return changes

    def keep(self, fields: dict, drawn: list[tuple[str, int, int, int, str]], kinds: dict[str, str]) -> None:
        """Keep a finished game (`Store.record_game` fields; `fields["first"]` is X's seat; a resignation
        too) with each MENACE brain's lesson applied to its boxes as stored, in one transaction, through
        the app's kept-brain service; each brain then plays on with its boxes as stored. If the store
        refuses the lesson, the service's one failure behaviour follows (said; the game kept without it;
        the boxes merged)."""
        if self.app is None:
            return
        marks = [m for m in ("X", "O") if kinds[m] == "menace" and self.bases.get(m) is not None]
        seat_of = {"X": fields["first"], "O": 1 - fields["first"]}
        learning = {seat_of[m]: (vocabulary.NOUGHTS_BRAINS[m], [(board, square) for mk, _, _, square, board in drawn
                                                                 if mk == m]) for m in marks}
        first = marks[0] if marks else None
        brain = self.brain_for(first) if first else None
        recorded, saved = self.app.keeper.record(fields, learning or None, hats=brain,
                                                 base=self.bases.get(first) if first else None)
        if recorded is not None:
            for mark in marks:
                stored, mine = recorded.brains.get(seat_of[mark]), self.brain_for(mark)
                if stored is not None and stored.counts.shape == mine.counts.shape:
                    mine.counts[:] = stored.counts
                    self.bases[mark] = stored.counts.copy()
            return
        if saved is not None:  # the first brain's lesson merged onto its boxes by the fallback
            self.bases[first] = brain.counts.copy()
        for mark in marks[1:]:
            self.save(mark, 1)

    def not_losing_vs_perfect(self) -> float:
        """X's brain's exact chance not to lose one game to the perfect player worst for it, moving first
        (compiled if the kernel is loaded: this never imports numba on the UI thread)."""
        from sticks_tui.learn.analysis import exact_chances

        win, draw, _ = exact_chances(self.x_brain, "perfect", True)
        return win + draw

    def add_run(self, run: MenaceTrainingResult) -> None:
        """A training run's games, results, curve and first-box samples, after those before it."""
        with self.lock:
            base, (w0, d0, l0) = self.games, self.results
            self.curve += [menace.CurvePoint(base + p.games, w0 + p.win, d0 + p.draw, l0 + p.loss,
                                             p.not_losing_vs_perfect) for p in run.curve]
            self.first_box += [(base + g, counts) for g, counts in run.first_box if g > 0]
            self.games += run.games_played
            for i in range(3):
                self.results[i] += run.results[i]

    # -- words ------------------------------------------------------------------------------------
    def results_text(self) -> str:
        lines = []
        for mark, (w, d, lo) in (("X", self.results), ("O", self.o_results)):
            n = w + d + lo
            if n == 0:
                if mark == "X":
                    lines.append("MENACE (X) has played no games this session.")
                continue
            lines.append(f"MENACE ({mark}), {n:,} game{'s' if n != 1 else ''} this session: won {w:,} ({w / n:.0%}), "
                         f"drawn {d:,} ({d / n:.0%}), lost {lo:,} ({lo / n:.0%}).")
        return " ".join(lines)

    def chance_text(self) -> str:
        fresh = self.curve and not self.boxes_moved  # the curve's last point is of the boxes as they are
        chance = self.curve[-1].not_losing_vs_perfect if fresh else self.not_losing_vs_perfect()
        text = f"MENACE (X)'s chance not to lose one more game to the perfect AI, moving first: {chance:.1%} (exact)."
        if self.rule.empty == "resign" and not self.x_brain.counts[0].any():
            text += " Its first box is empty: it resigns every game (t: start afresh)."
        return text


def keeper_of(app) -> NoughtsKeeper:
    """The app's keeper (made at first use, seeded from the session's seed when it has one)."""
    keeper = getattr(app, "_noughts_keeper", None)
    if keeper is None:
        seed = getattr(app.session, "seed", None)
        keeper = NoughtsKeeper(seed=seed if seed is not None else app.session.rng.randrange(2**63))
        keeper.attach(app)
        app._noughts_keeper = keeper
    return keeper
