"""One game loop in the kernel (issue 17): sticks, Nim and any other game of the protocol train through
`learn.kernel.play_games`, which takes the game's outcomes as an int8 array (+1/0/-1 for the mover)
and rewards each outcome by the brain's rule, so a game with draws trains too, bit for bit as the
readable reference learner does."""

from __future__ import annotations

import numpy as np
import pytest

from sticks_tui.engine.nim import NimRules
from sticks_tui.engine.rules import SticksRules
from sticks_tui.learn import kernel
from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.learn.trainer import TrainingConfig, compile_game, start_positions, train


class LastTakeGame:
    """A toy game with all three outcomes: a heap of n, take 1, 2 or 3; whoever takes the last stick
    loses if they took 1, draws if they took 2 and wins if they took 3. A terminal position is minus
    the last take."""

    name = "last-take"
    last_mover_wins = None  # it depends on the last move: see `outcome`

    def __init__(self, size: int) -> None:
        self.size = size

    def positions(self):
        return tuple(range(1, self.size + 1))

    def start_positions(self):
        return (self.size,)

    def legal_moves(self, position):
        return tuple(range(1, min(3, position) + 1))

    def apply(self, position, move):
        return position - move if position > move else -move

    def is_terminal(self, position):
        return position <= 0

    def outcome(self, position):
        return {-1: -1, -2: 0, -3: 1}[position]

    def hat_rows(self):
        return (None, *range(1, self.size + 1))

    # the protocol's words and encodings (engine.protocol), which the kernel does not read
    def position_text(self, position):
        return f"{position} left"

    def move_text(self, position, move):
        return f"take {move}"

    def encode_position(self, position):
        return position

    def decode_position(self, value):
        return int(value)

    def encode_move(self, move):
        return move

    def decode_move(self, position, value):
        return int(value)

    def __eq__(self, other):
        return isinstance(other, LastTakeGame) and other.size == self.size

    def __hash__(self):
        return hash(("last-take", self.size))


def test_the_game_reaches_the_kernel_as_next_rows_and_an_int8_outcome_for_the_mover():
    sticks = compile_game(Hats(6), start_positions(TrainingConfig(sticks=6)))
    assert sticks.outcome.dtype == np.int8 and sticks.next_row.shape == sticks.outcome.shape == (7, 3)
    assert sticks.next_row[1, 0] == -1 and sticks.outcome[1, 0] == -1  # taking the last stick loses
    assert sticks.next_row[6, 2] == 3 and sticks.outcome[6, 2] == 0  # 6 - 3 = 3: the game goes on
    assert list(sticks.starts) == [2, 3, 4, 5, 6]  # explore: heaps 2..N
    nim = Hats(NimRules((2, 2, 2)))
    game = compile_game(nim, nim.rules.start_positions())
    i = nim.row((1, 0, 0))
    assert game.next_row[i, 0] == -1 and game.outcome[i, 0] == 1  # taking the last coin wins
    toy = Hats(LastTakeGame(4))
    game = compile_game(toy, (4,))
    assert [int(game.outcome[toy.row(3), j]) for j in range(3)] == [0, 0, 1]  # 3 -> 2 goes on; 3 -> -3 wins
    assert [int(game.next_row[toy.row(3), j]) for j in range(3)] == [toy.row(2), toy.row(1), -1]
    assert [int(game.outcome[toy.row(2), j]) for j in range(2)] == [0, 0]  # 2 -> 1, 2 -> -2: a draw
    assert int(game.next_row[toy.row(2), 1]) == -1 and int(game.outcome[toy.row(1), 0]) == -1


@pytest.mark.parametrize("rule", [HatRule(start_balls=3, win_reward=3, draw_reward=1, loss_penalty=1),
                                  HatRule(start_balls=4, win_reward=2, draw_reward=-2, loss_penalty=3, floor="nonempty"),
                                  HatRule(start_balls=2, win_reward=1, draw_reward=0, loss_penalty=1)])
@pytest.mark.parametrize("protocol", ["explore", "classic"])
def test_a_game_with_draws_trains_in_the_kernel_bit_for_bit_as_the_reference_learner(rule, protocol):
    out = [train(TrainingConfig(game=LastTakeGame(9), games=3000, seed=17, protocol=protocol,
                                engine=engine, curve=False), Hats(LastTakeGame(9), rule=rule))
           for engine in ("kernel", "reference")]
    ker, ref = out
    assert (ker.engine, ref.engine) == ("kernel", "reference")
    assert np.array_equal(ker.brain.counts, ref.brain.counts)
    assert np.array_equal(ker.opponent.counts, ref.opponent.counts)
    assert (ker.wins_first, ker.wins_brain, ker.draws) == (ref.wins_first, ref.wins_brain, ref.draws)
    assert 0 < ker.draws < 3000 and 0 < ker.wins_brain < 3000


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_a_draw_gives_each_ball_drawn_the_draw_reward(engine):
    """One game from a heap of 2 by a brain that always takes 2 (a draw), under two draw rewards."""
    rules = LastTakeGame(2)
    counts = {}
    for draw in (0, 5):
        brain = Hats(rules, HatRule(draw_reward=draw))
        brain.counts[brain.row(2)] = [0, 1]  # from 2 it always takes 2: a draw
        opponent = Hats(rules, HatRule(draw_reward=draw))
        result = train(TrainingConfig(game=rules, games=1, seed=1, protocol="classic",
                                      curve=False, engine=engine), brain, opponent)
        assert (result.draws, result.wins_brain) == (1, 0)  # game 1: the brain moves first, from 2, and draws
        counts[draw] = int(brain.counts[brain.row(2), 1])
    assert counts == {0: 1, 5: 6}


def test_sticks_and_every_other_game_train_through_the_one_loop(monkeypatch):
    played = []
    real = kernel.play_games

    def spy(counts_a, counts_b, game, *rest):
        played.append(counts_a.shape)
        return real(counts_a, counts_b, game, *rest)

    monkeypatch.setattr(kernel, "play_games", spy)
    for config in (TrainingConfig(sticks=12, games=500, seed=1), TrainingConfig(game=NimRules((3, 3, 3)), games=500, seed=1),
                   TrainingConfig(game=LastTakeGame(5), games=500, seed=1, curve=False)):
        played.clear()
        result = train(config)
        assert result.engine == "kernel" and result.games_played == 500
        assert played and all(shape == result.brain.counts.shape for shape in played)
    assert isinstance(TrainingConfig(sticks=12).rules, SticksRules)


def test_a_brain_bigger_than_the_heap_plays_through_a_view_of_the_hats_the_game_has(monkeypatch):
    """Brain A with 30 hats trains a heap of 12 against a fresh opponent of 12: the kernel is given two
    arrays of the game's shape (it checks no bounds), and the brain's higher hats are left alone."""
    shapes = []
    real = kernel.play_games

    def spy(counts_a, counts_b, *rest):
        shapes.append((counts_a.shape, counts_b.shape))
        return real(counts_a, counts_b, *rest)

    monkeypatch.setattr(kernel, "play_games", spy)
    brain = Hats(30)
    result = train(TrainingConfig(sticks=12, games=3000, seed=4), brain=brain)
    assert result.opponent.counts.shape == (13, 3)
    assert shapes and set(shapes) == {((13, 3), (13, 3))}
    assert (brain.counts[13:] == Hats(30).counts[13:]).all() and not (brain.counts[:13] == Hats(12).counts).all()


def test_every_run_plays_the_one_signature_warm_up_compiled():
    """`compiled.load` compiles (or loads) the kernel with a tiny run so the first real batch starts at once:
    that only holds if real runs pass the same types (a read-only `Hats.n_moves` once made numba compile a
    second version, seconds long, at the first real batch)."""
    kernel.warm_up()
    for config in (TrainingConfig(sticks=9, games=50, seed=1), TrainingConfig(game=NimRules((2, 2, 2)), games=50, seed=1),
                   TrainingConfig(game=LastTakeGame(5), games=50, seed=1, curve=False)):
        train(config)
    assert len(kernel.play_games.signatures) == 1
