"""The lab's learners as readable players of the protocol: `choose(position)` and `game_over(result)`.

Each plays through the rules object alone (`legal_moves`, `apply`, `is_terminal`, the outcome) and
draws from the same xorshift64* stream in the same order as the compiled lab (`learn.lab_kernel`),
so for the same seed both leave the same hats and values (a test holds them to it). They are the
reference the kernel is checked against, and what a person can read to see what each learner does.
"""

from __future__ import annotations

import numpy as np

from sticks_tui.learn.hats import Hats, other_balls, reinforced_count
from sticks_tui.learn.lab import OPPONENTS, LabGame, LearnerSpec, terminal_outcome
from sticks_tui.learn.rng import XorShift64Star


class HatsPlayer:
    """The hats: draw a ball in proportion to the counts; after the game the hat rule on every ball drawn."""

    def __init__(self, rules, spec: LearnerSpec, rng: XorShift64Star) -> None:
        self.hats = Hats(rules, rule=spec.hat_rule)
        self.draw_balls = spec.values["draw"]
        self.rng = rng
        self.drawn: list = []

    @property
    def preference(self) -> np.ndarray:
        return self.hats.counts

    def choose(self, position):
        move = self.hats.draw(position, self.rng)
        self.drawn.append((position, move))
        return move

    def game_over(self, result: int) -> None:
        if result != 0:
            self.hats.reinforce(self.drawn, result > 0)
        else:
            rule = self.hats.rule
            for position, move in self.drawn:
                i = self.hats.row(position)
                j = self.hats.moves_of(position).index(move)
                before = int(self.hats.counts[i, j])
                others = 0 if self.draw_balls >= 0 or rule.floor_code == 0 else \
                    int(other_balls(self.hats.counts, i, j, self.hats.legal(position)))
                self.hats.counts[i, j] = reinforced_count(before, others, self.draw_balls, rule.floor_code)
        self.drawn = []


class ValuePlayer:
    """An action value per move, chosen epsilon-greedily (ties at random).

    'q' (Q-learning): before each of its moves, its previous move's value goes `alpha` of the way to
    the best value here; after the game, its last move's value towards the result.
    'mc' (Monte-Carlo control): after the game, every move it played towards the result, by `alpha`
    or (alpha 0) by 1/visits."""

    def __init__(self, rules, spec: LearnerSpec, rng: XorShift64Star) -> None:
        self.layout = Hats(rules)
        self.q = np.zeros(self.layout.counts.shape)
        self.visits = np.zeros(self.layout.counts.shape, dtype=np.int64)
        self.method = spec.name
        self.alpha = float(spec.values["alpha"])
        self.epsilon = float(spec.values["epsilon"])
        self.rng = rng
        self.played: list[tuple[int, int]] = []

    @property
    def preference(self) -> np.ndarray:
        return self.q

    def choose(self, position):
        i = self.layout.row(position)
        moves = self.layout.moves_of(position)
        values = [float(v) for v in self.q[i, : len(moves)]]
        if self.method == "q" and self.played:
            p, c = self.played[-1]
            self.q[p, c] += self.alpha * (max(values) - self.q[p, c])
            values = [float(v) for v in self.q[i, : len(moves)]]
        if self.rng.random() < self.epsilon:
            j = self.rng.randrange(len(moves))
        else:
            top = max(values)
            tied = [j for j, v in enumerate(values) if v == top]
            j = tied[0] if len(tied) == 1 else tied[self.rng.randrange(len(tied))]
        self.played.append((i, j))
        return moves[j]

    def game_over(self, result: int) -> None:
        if self.played and self.method == "q":
            p, c = self.played[-1]
            self.q[p, c] += self.alpha * (result - self.q[p, c])
        elif self.method == "mc":
            for p, c in self.played:
                self.visits[p, c] += 1
                step = self.alpha if self.alpha > 0 else 1.0 / self.visits[p, c]
                self.q[p, c] += step * (result - self.q[p, c])
        self.played = []


class FixedPlayer:
    """The random player (any legal move) or the perfect one (a move keeping the position's value,
    at random among them); it draws nothing when it has one choice."""

    def __init__(self, kind: str, game: LabGame, rng: XorShift64Star) -> None:
        self.kind = kind
        self.game = game
        self.rng = rng
        self.row = {p: i for i, p in enumerate(game.positions) if p is not None}
        self.layout = Hats(game.rules)

    def choose(self, position):
        moves = self.layout.moves_of(position)
        if self.kind == "random":
            choices = list(range(len(moves)))
        else:
            i = self.row[position]
            choices = [j for j in range(len(moves)) if self.game.perfect[i, j]]
        j = choices[0] if len(choices) == 1 else choices[self.rng.randrange(len(choices))]
        return moves[j]

    def game_over(self, result: int) -> None:
        pass


def make_player(rules, spec: LearnerSpec, rng: XorShift64Star):
    return HatsPlayer(rules, spec, rng) if spec.name == "hats" else ValuePlayer(rules, spec, rng)


def play_game(rules, first, second, start) -> int:
    """One game through the protocol from `start`; the result for `first`: +1, 0 or -1."""
    players = (first, second)
    position = start
    turn = 0
    while True:
        move = players[turn].choose(position)
        position = rules.apply(position, move)
        if rules.is_terminal(position):
            out = terminal_outcome(rules, position)
            result = out if turn == 0 else -out
            break
        turn = 1 - turn
    first.game_over(result)
    second.game_over(-result)
    return result


def is_mastered(game: LabGame, preference: np.ndarray, seat: int) -> bool:
    """Every checked row faced from `seat` (0 first, 1 second, 2 either): all moves tied at the top right."""
    for r in np.flatnonzero(game.checked):
        if seat < 2 and not game.seat_mask[r, seat]:
            continue
        legal = int(game.n_moves[r])
        row = preference[r, :legal]
        top = row.max()
        if not all(game.good[r, j] for j in range(legal) if row[j] == top):
            return False
    return True


def train_readable(spec: LearnerSpec, game: LabGame, seed: int, games: int):
    """The lab's run for one learner, played game by game by the readable players; returns the
    learner and the first game after which it was mastered (per seat 0, 1, both; None: not yet)."""
    rng = XorShift64Star(seed)
    a = make_player(game.rules, spec, rng)
    vs = spec.values["vs"]
    b = make_player(game.rules, spec, rng) if vs == "self" else FixedPlayer(vs, game, rng)
    assert vs in OPPONENTS
    starts = [game.positions[r] for r in game.starts]
    mastery: list[int | None] = [None, None, None]
    for s in range(3):
        if is_mastered(game, a.preference, s):
            mastery[s] = 0
    for g in range(games):
        start = starts[0] if len(starts) == 1 else starts[rng.randrange(len(starts))]
        if g % 2 == 0:
            play_game(game.rules, a, b, start)
        else:
            play_game(game.rules, b, a, start)
        for s in range(3):
            if mastery[s] is None and is_mastered(game, a.preference, s):
                mastery[s] = g + 1
    return a, tuple(mastery)
