"""One counts learner, one compiled loop (issue 31): the seeds' hats and MENACE's matchboxes train through
`learn.kernel.play_games` on every game, and it leaves bit for bit the counts of the one readable learner
(`learn.trainer.play_one_game` over `Hats.draw` / `Hats.reinforce`) for every game and rule option: the
floors, an empty container resigning or refilled, start tokens by move number, the incentives of a draw;
against a second learner, the random player and a perfect player choosing at random among its best moves;
the trained brain in both seats by turns, always first or always second. One parametrized test, instead of one per game."""

from __future__ import annotations

import numpy as np
import pytest

from sticks_tui.engine import registry
from sticks_tui.engine.hexapawn import HexapawnRules
from sticks_tui.engine.nim import NimRules
from sticks_tui.engine.noughts import NoughtsRules
from sticks_tui.engine.rules import SticksRules
from sticks_tui.learn import kernel
from sticks_tui.learn.analysis import exact_chances
from sticks_tui.solve.sticks_hats import policy_matrix, win_probability
from sticks_tui.learn.control import TrainingControl
from sticks_tui.learn.hats import MAX_COUNT, HatRule, Hats
from sticks_tui.learn.menace import MENACE_RULE, MenaceBrain, menace_rule
from sticks_tui.learn.rng import XorShift64Star
from sticks_tui.learn.tables import game_tables, lay_out
from sticks_tui.learn.trainer import TrainingConfig, start_positions, train


class LastTakeGame:
    """A toy game with all three outcomes: a heap of n, take 1, 2 or 3; whoever takes the last stick
    loses if they took 1, draws if they took 2 and wins if they took 3. A terminal position is minus
    the last take."""

    name = "last-take"

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


NOUGHTS = NoughtsRules()
HEXAPAWN = HexapawnRules()
SEEDS = HatRule()
NONEMPTY = HatRule(start_balls=2, win_reward=3, loss_penalty=1, floor="nonempty")
NO_FLOOR_REFILL = HatRule(start_balls=2, win_reward=1, loss_penalty=2, floor="none", empty="refill")
MENACE_REFILL = menace_rule((1, 1, 1, 1), (2, 0, -3), "refill")
CASES = {
    # id: (rules, rule, brain seat, opponent, seats, protocol, games)
    "sticks-seeds-explore": (SticksRules(12), SEEDS, None, "self", "both", "explore", 2000),
    "sticks-nonempty-classic": (SticksRules(15), NONEMPTY, None, "self", "both", "classic", 1500),
    "sticks-maxtake5-none-refill": (SticksRules(17, 5), NO_FLOOR_REFILL, None, "self", "both", "explore", 1500),
    "sticks-none-resign-vs-best": (SticksRules(13), HatRule(loss_penalty=3, floor="none"), None, "best-at-random",
                                   "both", "explore", 1500),
    "sticks-vs-random": (SticksRules(20), HatRule(start_balls=3, win_reward=0, loss_penalty=2), None, "random", "both", "explore",
                         1500),
    "nim-self": (NimRules((2, 3, 1)), NONEMPTY, None, "self", "both", "explore", 1500),
    "nim-vs-best": (NimRules((2, 2, 2)), SEEDS, None, "best-at-random", "both", "classic", 1500),
    "draws-menace-like": (LastTakeGame(9), HatRule(start_balls=3, win_reward=3, draw_reward=1), None, "self", "both",
                          "explore", 2000),
    "draws-take-away": (LastTakeGame(9), HatRule(start_balls=4, win_reward=2, draw_reward=-2, loss_penalty=3,
                                                 floor="nonempty"), None, "random", "both", "classic", 2000),
    "menace-vs-random": (NOUGHTS, MENACE_RULE, 0, "random", "first", "classic", 600),
    "menace-vs-best": (NOUGHTS, MENACE_RULE, 0, "best-at-random", "first", "classic", 600),
    "menace-refill-vs-best": (NOUGHTS, MENACE_REFILL, 0, "best-at-random", "first", "classic", 600),
    "menace-vs-menace-refill": (NOUGHTS, menace_rule((2, 2, 1, 1), empty="refill"), 0, "self", "first", "classic",
                                600),
    "noughts-both-seats": (NOUGHTS, HatRule(start_balls=(3, 2, 2, 1), win_reward=2, draw_reward=1, floor="none"),
                           None, "self", "both", "classic", 600),
    # the trained brain always second (issue 32): MENACE's O boxes, and Gardner's HER as Black (its 19 boxes)
    "menace-o-vs-best": (NOUGHTS, MENACE_RULE, 1, "best-at-random", "second", "classic", 600),
    "menace-o-vs-menace-x-refill": (NOUGHTS, menace_rule((2, 2, 1, 1), empty="refill"), 1, "self", "second",
                                    "classic", 600),
    "hexapawn-black-resign-vs-random": (HEXAPAWN, HatRule(start_balls=1, win_reward=1, loss_penalty=1, floor="none"),
                                        1, "random", "second", "classic", 600),
    "hexapawn-black-vs-white": (HEXAPAWN, SEEDS, 1, "self", "second", "classic", 600),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_one_loop_is_the_readable_learner_bit_for_bit(case):
    rules, rule, seat, opponent, seats, protocol, games = CASES[case]
    out = []
    for engine in ("kernel", "reference"):
        config = TrainingConfig(game=rules, games=games, seed=17, protocol=protocol, opponent=opponent, seats=seats,
                                engine=engine, curve=False)
        out.append(train(config, Hats(rules, rule=rule, seat=seat)))
    ker, ref = out
    assert (ker.engine, ref.engine) == ("kernel", "reference")
    assert np.array_equal(ker.brain.counts, ref.brain.counts)
    assert not np.array_equal(ker.brain.counts, Hats(rules, rule=rule, seat=seat).counts)  # it did learn
    if opponent == "self":
        assert np.array_equal(ker.opponent.counts, ref.opponent.counts)
    else:
        assert ker.opponent is None
    assert (ker.results, ker.wins_first) == (ref.results, ref.wins_first) and sum(ker.results) == games
    if seats != "both":  # the trained brain always in its seat: the first mover's wins are its wins, or its losses
        assert ker.wins_first == ker.results[0 if seats == "first" else 2]


def test_menace_trains_as_the_menace_kernel_of_before_did():
    """The compiled MENACE of before (`menace_kernel`, seed 7, 3,000 games) left these results: the one loop
    draws the same beads in the same order (its boxes in Michie's order, their beads by square), so it
    leaves them too, for each opponent and empty rule."""
    expected = {("random", "resign"): (2405, 270, 325), ("random", "refill"): (2443, 224, 333),
                ("best-at-random", "resign"): (0, 12, 2988), ("best-at-random", "refill"): (0, 2905, 95),
                ("self", "resign"): (946, 1560, 494), ("self", "refill"): (874, 1551, 575)}
    for (opponent, empty), results in expected.items():
        rule = menace_rule(empty=empty)
        run = train(TrainingConfig(game=NOUGHTS, games=3000, seed=7, curve=False, opponent=opponent, seats="first",
                                   protocol="classic"), MenaceBrain(rule), MenaceBrain(rule, "O") if opponent == "self"
                    else None)
        assert run.results == results, (opponent, empty)


def test_a_forced_move_draws_nothing_and_teaches_nothing():
    """One rule on every game: with one legal move the learner just makes it. Sticks' hat 1 keeps its start
    balls, Nim's last coins their start balls, and MENACE has no box for a board with one square left."""
    sticks = train(TrainingConfig(game=SticksRules(8), games=3000, seed=1, protocol="classic"),
                   Hats(SticksRules(8), rule=HatRule(start_balls=3))).brain
    assert sticks.hat(1) == (3,) and sticks.hat(2) != (3, 3)
    nim = train(TrainingConfig(game=NimRules((2, 1, 1)), games=3000, seed=1), Hats(NimRules((2, 1, 1)))).brain
    assert nim.hat((0, 0, 1)) == (1,) and nim.hat((1, 0, 0)) == (1,)
    assert not MenaceBrain().has_hat("XOXOXOOX.")
    # and no draw from the stream: a game of two forced moves leaves the generator where it was
    rng = XorShift64Star(5)
    state = rng.state
    from sticks_tui.learn.trainer import play_one_game

    play_one_game(SticksRules(2, 1), (2,), Hats(SticksRules(2, 1)), Hats(SticksRules(2, 1)), rng, 0, False)
    assert rng.state == state


def test_how_the_games_are_cut_into_batches_does_not_matter():
    config = TrainingConfig(sticks=20, games=5000, seed=3, curve=False)
    whole = train(config).brain.counts
    a, b = Hats(20), Hats(20)
    match = lay_out(game_tables(config.rules), a, b, start_positions(config))
    state = kernel.RunState.new(XorShift64Star(3).state, match)
    rule = kernel.compile_rule(a.rule)
    done = 0
    for n in (1, 2, 997, 3000, 1000):
        done += kernel.play_games(a.counts, b.counts, match, rule, rule, kernel.SELF, kernel.ALTERNATE, n, done,
                                  state, False, kernel.Watch.none())
    assert done == 5000
    assert np.array_equal(a.counts, whole)


def test_the_loops_tallies_match_the_exact_chances():
    """With learning off (no reward, no penalty) the loop plays a fixed policy: the share of games brain A
    wins must match the exact probability, against a second learner and against a fixed player."""
    rng = np.random.default_rng(0)
    size = 10
    a = Hats(size, rule=HatRule(win_reward=0, loss_penalty=0))
    b = Hats(size, rule=a.rule)
    for hats in (a, b):
        for n in range(2, size + 1):
            hats.counts[n, : min(3, n)] = rng.integers(1, 6, size=min(3, n))
    games = 100_000
    result = train(TrainingConfig(sticks=size, games=games, seed=11, protocol="classic"), a, b)
    pa, pb = policy_matrix(a.counts, 3), policy_matrix(b.counts, 3)
    a_first, a_second = win_probability(pa, pb, size, True), win_probability(pa, pb, size, False)
    sd = 0.5 / np.sqrt(games)
    assert abs(result.wins_brain / games - (a_first + a_second) / 2) < 6 * sd
    assert abs(result.wins_first / games - (a_first + (1 - a_second)) / 2) < 6 * sd
    frozen = MenaceBrain(menace_rule(incentives=(0, 0, 0)))
    run = train(TrainingConfig(game=NOUGHTS, games=games, seed=2, opponent="random", seats="first",
                               protocol="classic", curve=False), frozen)
    chances = exact_chances(frozen, "random")
    for share, p in zip(np.array(run.results) / games, chances, strict=True):
        assert abs(share - p) < 6 * (p * (1 - p) / games) ** 0.5


def test_the_loop_never_draws_an_illegal_ball_even_with_counts_in_illegal_cells():
    a, b = Hats(5), Hats(5)
    for hats in (a, b):
        hats.counts[1] = [1, 10**6, 10**6]
        hats.counts[2] = [1, 1, 10**6]
    result = train(TrainingConfig(sticks=5, games=20_000, seed=13, protocol="explore", curve=False), a, b)
    assert result.games_played == 20_000
    for hats in (a, b):
        assert hats.counts[1, 1] == hats.counts[1, 2] == hats.counts[2, 2] == 10**6


def test_each_brain_learns_by_its_own_rule_and_a_bigger_brain_through_its_first_rows():
    out = []
    for engine in ("kernel", "reference"):
        brain = Hats(30, rule=HatRule(start_balls=2, win_reward=3, loss_penalty=2, floor="nonempty"))
        out.append(train(TrainingConfig(sticks=12, games=2000, seed=1, engine=engine, curve=False), brain, Hats(12)))
    assert np.array_equal(out[0].brain.counts, out[1].brain.counts)
    assert np.array_equal(out[0].opponent.counts, out[1].opponent.counts)
    assert (out[0].brain.counts[13:] == Hats(30, rule=out[0].brain.rule).counts[13:]).all()  # never visited
    assert (out[0].opponent.counts[out[0].opponent.legal_mask] >= 1).all()  # the opponent's 'each' floor
    fresh = train(TrainingConfig(sticks=10, games=10, seed=1), brain=Hats(10, rule=HatRule(win_reward=5)))
    assert fresh.opponent.rule == HatRule(win_reward=5)  # a fresh sparring partner takes the brain's rule


def test_the_loop_keeps_counts_at_max_count_too():
    out = []
    for engine in ("kernel", "reference"):
        brain = Hats(6, rule=HatRule(win_reward=1000))
        brain.counts[brain.counts > 0] = MAX_COUNT - 1
        out.append(train(TrainingConfig(sticks=6, games=300, seed=3, engine=engine, curve=False), brain=brain).brain)
    assert out[0].counts.max() == MAX_COUNT
    assert np.array_equal(out[0].counts, out[1].counts)


def test_told_games_at_a_pace_leave_the_counts_of_batches_at_full_speed():
    """One game at a time (the readable learner, each told) and compiled batches share one stream: MENACE
    trained at a pace is bit for bit MENACE trained at full speed, and each told game says its beads."""
    rule = menace_rule((2, 2, 1, 1), (2, 1, -1), "refill")
    x1, o1 = MenaceBrain(rule), MenaceBrain(rule, "O")
    config = TrainingConfig(game=NOUGHTS, games=25, seed=5, opponent="self", seats="first", protocol="classic")
    told = []
    paced = train(config, x1, o1, cancel=TrainingControl(1000), story=told.append)
    x2, o2 = MenaceBrain(rule), MenaceBrain(rule, "O")
    fast = train(config, x2, o2)
    assert [s.number for s in told] == list(range(1, 26))
    assert np.array_equal(x1.counts, x2.counts) and np.array_equal(o1.counts, o2.counts)
    assert paced.results == fast.results
    assert [p.keep_first for p in paced.curve] == [p.keep_first for p in fast.curve]
    story = told[-1]
    for change in story.changes[0]:
        assert change.after == max(0, change.before + rule.change(1 if story.winner == 0 else
                                                                   -1 if story.winner == 1 else 0))


def test_every_run_plays_the_one_signature_warm_up_compiled():
    """`compiled.load` compiles (or loads) the loop with a tiny run so the first real batch starts at once:
    that only holds if real runs pass the same types."""
    kernel.warm_up()
    compiled = len(kernel.play_games.signatures)
    for config, brain in ((TrainingConfig(sticks=9, games=50, seed=1), None),
                          (TrainingConfig(game=NimRules((2, 2, 2)), games=50, seed=1), None),
                          (TrainingConfig(game=NOUGHTS, games=50, seed=1, opponent="random", seats="first",
                                          protocol="classic"), MenaceBrain())):
        train(config, brain)
    assert len(kernel.play_games.signatures) == compiled


REGISTERED = [registry.entry(name) for name in registry.names()]


@pytest.mark.parametrize("game", REGISTERED, ids=[game.name for game in REGISTERED])
def test_every_registered_game_trains_in_the_one_loop_as_the_readable_learner(game):
    """A game registered from its own module (Hexapawn's, when it comes) trains in the one loop at its own
    default size, bit for bit as the readable learner, with no code of its own: both seats by turns, a
    brain of every position (folded by the symmetries its rules offer), no floor and a refill."""
    rules = game.rules_from()
    rule = HatRule(start_balls=2, win_reward=2, draw_reward=1, loss_penalty=1, floor="none", empty="refill")
    ker, ref = [train(TrainingConfig(game=rules, games=300, seed=5, engine=engine, curve=False), Hats(rules, rule=rule))
                for engine in ("kernel", "reference")]
    assert (ker.engine, ref.engine) == ("kernel", "reference")
    assert np.array_equal(ker.brain.counts, ref.brain.counts)
    assert np.array_equal(ker.opponent.counts, ref.opponent.counts)
    assert ker.results == ref.results and not np.array_equal(ker.brain.counts, Hats(rules, rule=rule).counts)


def test_a_draw_by_the_inverse_of_the_total_is_the_readable_draw_for_every_size_of_container():
    """The loop draws by multiplying by 1 / the container's total (`kernel._below_by`), not by dividing: it
    must give `XorShift64Star.randrange`'s number, (x * M >> 11) % n, exactly, at every total a container can
    hold (up to its width times MAX_COUNT), worst cases included: the largest 53-bit numbers (where the
    product's rounding is largest) and totals next to powers of two."""
    from numba import njit

    @njit(cache=True)
    def drawn(states, sizes, out):
        for i in range(states.shape[0]):
            out[i] = kernel._below_by(states[i], sizes[i], 1.0 / np.float64(sizes[i]))

    mask64 = (1 << 64) - 1
    unmultiply = pow(int(kernel._MULTIPLIER), -1, 1 << 64)  # the state whose output is a chosen number
    rng = XorShift64Star(31)
    sizes = [1, 2, 3, 5, 7, 99, 100, 101, 1000, 4097, MAX_COUNT * 9, MAX_COUNT * 3 + 1]
    sizes += [(1 << b) + d for b in range(2, 50) for d in (-1, 0, 1)]
    sizes += [2 + rng.randrange(1 << (1 + rng.randrange(48))) for _ in range(1000)]
    top = (1 << 53) - 1
    numbers = [u for _ in sizes for u in (top - rng.randrange(64), rng.next_u64() >> 11)]
    pairs = [(u, n) for u, n in zip(numbers, [n for n in sizes for _ in range(2)])]
    states = np.array([((u << 11) * unmultiply) & mask64 for u, _ in pairs], dtype=np.uint64)
    out = np.zeros(len(pairs), dtype=np.int64)
    drawn(states, np.array([n for _, n in pairs], dtype=np.int64), out)
    assert [int(r) for r in out] == [u % n for u, n in pairs]


def test_a_second_seat_runs_curve_is_measured_in_the_second_seat():
    """HER as Black (a brain of the second player's boxes), trained always second: every curve point is her chance
    moving second (none moving first), the last one her exact chance against the perfect White as trained."""
    rules = HexapawnRules()
    run = train(TrainingConfig(game=rules, games=300, seed=3, protocol="classic", seats="second"), Hats(rules, seat=1))
    assert run.curve and all(p.win_first != p.win_first and 0 <= p.win_second <= 1 for p in run.curve)
    assert run.curve[-1].games == 300
    assert run.curve[-1].win_second == pytest.approx(exact_chances(run.brain, "perfect", False)[0])
    assert run.curve[0].win_second < run.curve[-1].win_second
