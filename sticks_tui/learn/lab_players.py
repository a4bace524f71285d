"""The lab's learners as readable players of the protocol, the reference the compiled lab is held to.

The hats are the one readable counts learner (`learn.hats.Hats`) playing the trainer's readable game
(`learn.trainer.play_one_game`); the value learners (`ValuePlayer`) choose and learn in plain Python.
Each plays through the rules object alone and draws from the same xorshift64* stream in the same
order as the compiled lab (`learn.kernel`), so for the same seed both leave the same counts and values
(a test holds them to it). A forced move (one legal move) is made without a choice and teaches nothing.
"""

from __future__ import annotations

import numpy as np

from sticks_tui.learn.hats import Hats, forced
from sticks_tui.learn.lab import LabGame, LearnerSpec, terminal_outcome
from sticks_tui.learn.rng import XorShift64Star
from sticks_tui.learn.trainer import FixedPlayer, play_one_game


class ValuePlayer:
    """An action value per move of each container (the hats' layout), chosen epsilon-greedily (ties at
    random); `q` is flat over the containers' cells (row * width + column), as the compiled lab's.

    'q' (self-play Q-learning as textbooks write it; one player object plays both seats): each choice's
    value goes `alpha` of the way, at once, to the result where it ends the game, else to minus the
    best value of the position the opponent then faces (through forced moves: their one move's).
    'qseat' (Q-learning, one table per seat): before each of its choices, its previous choice's value
    goes `alpha` of the way to the best value here; after the game, its last choice's value towards the
    result.
    'mc' (Monte-Carlo control): after the game, every choice it made towards the result, by `alpha`
    or (alpha 0) by 1/visits."""

    def __init__(self, game: LabGame, spec: LearnerSpec, rng: XorShift64Star) -> None:
        self.layout = game.template
        self.rules = game.rules
        self.width = game.width
        self.q = np.zeros(game.rows * game.width)
        self.visits = np.zeros(game.rows * game.width, dtype=np.int64)
        self.method = spec.name
        self.alpha = float(spec.values["alpha"])
        self.epsilon = float(spec.values["epsilon"])
        self.rng = rng
        self.played: list[int] = []

    @property
    def preference(self) -> np.ndarray:
        return self.q

    def draw(self, position, rng=None):
        if forced(self.rules, position):
            return tuple(self.rules.legal_moves(position))[0]
        first = self.layout.row(position) * self.width
        moves = self.layout.moves_of(position)
        values = [float(v) for v in self.q[first: first + len(moves)]]
        if self.method == "qseat" and self.played:
            c = self.played[-1]
            self.q[c] += self.alpha * (max(values) - self.q[c])
            values = [float(v) for v in self.q[first: first + len(moves)]]
        if self.rng.random() < self.epsilon:
            j = self.rng.randrange(len(moves))
        else:
            top = max(values)
            tied = [j for j, v in enumerate(values) if v == top]
            j = tied[0] if len(tied) == 1 else tied[self.rng.randrange(len(tied))]
        self.played.append(first + j)
        if self.method == "q":
            after = self.rules.apply(position, moves[j])
            target = self._outcome(after) if self.rules.is_terminal(after) else -self.value(after)
            self.q[first + j] += self.alpha * (target - self.q[first + j])
        return moves[j]

    def _outcome(self, finished) -> float:
        return float(int(self.rules.outcome(finished)))

    def value(self, position) -> float:
        """What the mover at `position` is worth by the table: its best value; a forced move's, through it."""
        if forced(self.rules, position):
            after = self.rules.apply(position, tuple(self.rules.legal_moves(position))[0])
            return self._outcome(after) if self.rules.is_terminal(after) else -self.value(after)
        first = self.layout.row(position) * self.width
        return float(self.q[first: first + len(self.layout.moves_of(position))].max())

    def reinforce(self, drawn, won=None, *, outcome=None) -> tuple:
        result = outcome
        if self.played and self.method == "qseat":
            c = self.played[-1]
            self.q[c] += self.alpha * (result - self.q[c])
        elif self.method == "mc":
            for c in self.played:
                self.visits[c] += 1
                step = self.alpha if self.alpha > 0 else 1.0 / self.visits[c]
                self.q[c] += step * (result - self.q[c])
        self.played = []
        return ()


class _HatsPlayer(Hats):
    """The hats as the lab reads them: their counts flat over the lab's width (their preference)."""

    width: int

    @property
    def preference(self) -> np.ndarray:
        pref = np.zeros((self.counts.shape[0], self.width))
        pref[:, : self.counts.shape[1]] = self.counts
        return pref.ravel()


def make_player(game: LabGame, spec: LearnerSpec, rng: XorShift64Star):
    if spec.name == "hats":
        player = _HatsPlayer._made(game.rules, spec.hat_rule, None, None)
        player.width = game.width
        return player
    return ValuePlayer(game, spec, rng)


def is_unbeatable(game: LabGame, preference: np.ndarray, seat: int) -> bool:
    """Written from the definition, over the rules and the solver alone (not the lab's tables): from every
    start of the protocol, the learner moving first (seat 0) or second (seat 1; 2: both), its greedy
    play (every move tied at the top of its preference) against every opponent move never plays, at a
    position it can win (or draw), a move that gives that up."""
    from sticks_tui.solve import solver_for

    if seat == 2:
        return is_unbeatable(game, preference, 0) and is_unbeatable(game, preference, 1)
    rules, layout, width = game.rules, game.template, game.width
    solver = solver_for(rules)

    def value(position) -> int:
        if hasattr(solver, "value"):
            return int(solver.value(position))
        return 1 if solver.is_winning(position) else -1

    def worth(after) -> int:  # a move's value for its mover
        return int(rules.outcome(after)) if rules.is_terminal(after) else -value(after)

    seen = set()
    todo = [(p, seat == 0) for p in game.start_positions]
    while todo:
        position, learner = todo.pop()
        if (position, learner) in seen:
            continue
        seen.add((position, learner))
        moves = tuple(rules.legal_moves(position))
        if learner and len(moves) > 1:
            first = layout.row(position) * width
            options = layout.moves_of(position)
            row = preference[first: first + len(options)]
            moves = tuple(m for m, v in zip(options, row, strict=True) if v == row.max())
            here = value(position)
            if here >= 0 and any(worth(rules.apply(position, m)) < here for m in moves):
                return False
        for m in moves:
            after = rules.apply(position, m)
            if not rules.is_terminal(after):
                todo.append((after, not learner))
    return True


def is_mastered(game: LabGame, preference: np.ndarray, seat: int) -> bool:
    """Every checked row faced from `seat` (0 first, 1 second, 2 either): all moves tied at the top right."""
    width = game.width
    for r in np.flatnonzero(game.checked):
        if seat < 2 and not game.seat_mask[r, seat]:
            continue
        legal = int(game.row_cols[r])
        row = preference[r * width: r * width + legal]
        top = row.max()
        if not all(game.good[r * width + j] for j in range(legal) if row[j] == top):
            return False
    return True


def train_readable(spec: LearnerSpec, game: LabGame, seed: int, games: int):
    """The lab's run for one learner, played game by game by the readable players; returns the
    learner and the first game after which it was mastered (per seat 0, 1, both; None: not yet)."""
    rng = XorShift64Star(seed)
    a = make_player(game, spec, rng)
    vs = spec.values.get("vs", "self")
    b = a if spec.one_table else make_player(game, spec, rng) if vs == "self" else FixedPlayer(vs, game.rules)
    starts = game.start_positions
    mastery: list[int | None] = [None, None, None]
    _note_mastery(game, a.preference, mastery, 0)
    for g in range(games):
        play_one_game(game.rules, starts, a, b, rng, g, False, g % 2 == 0)
        _note_mastery(game, a.preference, mastery, g + 1)
    return a, tuple(mastery)


def _note_mastery(game: LabGame, preference: np.ndarray, mastery: list, at: int) -> None:
    """Put `at` in `mastery` for each seat not yet mastered that is unbeatable now (seat 2: both seats at once),
    asking `is_unbeatable` once per seat (seat 2 is seat 0 and seat 1, so they are not walked twice)."""
    found: dict[int, bool] = {}

    def unbeatable(seat: int) -> bool:
        if seat not in found:
            found[seat] = is_unbeatable(game, preference, seat)
        return found[seat]

    for seat in (0, 1):
        if mastery[seat] is None and unbeatable(seat):
            mastery[seat] = at
    if mastery[2] is None and unbeatable(0) and unbeatable(1):
        mastery[2] = at


__all__ = ["ValuePlayer", "is_mastered", "is_unbeatable", "make_player", "terminal_outcome", "train_readable"]
