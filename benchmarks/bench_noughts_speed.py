"""How much faster MENACE's compiled kernel trains than a tight pure-Python loop (issue 18's target:
at least 10 times), both against the random player, measured side by side in one run (alternating
rounds, the median of each), in processor time of this thread (`time.thread_time`: both run in it, and a
busy machine that shares out the cores does not stretch it as it stretches wall time).

    python benchmarks/bench_noughts_speed.py [--games 1000000] [--rounds 3] [--smoke]

The tight loop plays the same training as `sticks-tui noughts train --opponent random` (MENACE as X
with Michie's rule: start beads 4,3,2,1, +3/+1/-1, an empty box resigns; the random player any
empty square) with everything a pure-Python programmer would do for speed: the same precomputed
tables as the kernel (`learn.tables`: the board after each square, how the move ends the game, the box
and its squares for each board), turned into plain lists, `random.random()`, locals, no objects, no events, no checks. Its
results are printed beside the kernel's, so it is seen to learn alike. The readable learner (`--engine
reference`) is timed too, on fewer games. Both fast players play the same games from a fresh MENACE
each round (a game's length changes as MENACE learns, so equal counts compare equal work).
--smoke plays a few thousand games: it proves the script works, its figures mean nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from sticks_tui.engine.noughts import EMPTY_BOARD, NoughtsRules
from sticks_tui.learn import compiled
from sticks_tui.learn.menace import MENACE_RULE, MenaceBrain
from sticks_tui.learn.rng import XorShift64Star
from sticks_tui.learn.tables import brain_map, game_tables, lay_out
from sticks_tui.learn.trainer import TrainingConfig, train

RULES = NoughtsRules()


def tight_python(games: int, seed: int) -> tuple[float, list[int]]:
    """MENACE against the random player in tight pure Python; returns (seconds, [wins, draws, losses])."""
    tables = game_tables(RULES)
    brain = MenaceBrain()
    rows, moves = brain_map(tables, RULES, 0)
    next_pos = tables.next_pos.tolist()
    outcome = tables.outcome.tolist()
    n_moves = tables.n_moves.tolist()
    box_of = rows.tolist()
    square_of = moves.tolist()  # per board: the legal move (index) of each column of its box
    counts = brain.counts.tolist()
    start = tables.index[EMPTY_BOARD]
    rand = random.Random(seed).random
    wins = draws = losses = 0
    began = time.thread_time()
    for _ in range(games):
        pos = start
        drawn = []
        while True:
            row = box_of[pos]
            if row < 0:  # one square left: forced
                j = 0
            else:
                box = counts[row]
                total = sum(box)
                if total == 0:  # an empty box resigns
                    result = -1
                    break
                r = rand() * total
                col = 0
                while r >= box[col]:
                    r -= box[col]
                    col += 1
                drawn.append((box, col))
                j = square_of[pos][col]
            nxt = next_pos[pos][j]
            if nxt < 0:
                result = outcome[pos][j]  # X made the last move: +1 a win, 0 a draw
                break
            pos = nxt
            j = int(rand() * n_moves[pos])  # the random player (O)
            nxt = next_pos[pos][j]
            if nxt < 0:
                result = -outcome[pos][j]  # O made the last move
                break
            pos = nxt
        if result == 1:
            wins += 1
            delta = 3
        elif result == 0:
            draws += 1
            delta = 1
        else:
            losses += 1
            delta = -1
        for box, col in drawn:
            v = box[col] + delta
            box[col] = v if v > 0 else 0
    return time.thread_time() - began, [wins, draws, losses]


def kernel(games: int, seed: int) -> tuple[float, list[int]]:
    """The one compiled loop (`learn.kernel.play_games`), as the trainer calls it, MENACE against the random
    player, in one batch."""
    k = compiled.kernel()
    tables = game_tables(RULES)
    brain = MenaceBrain()
    match = lay_out(tables, brain, None, (EMPTY_BOARD,), (0,))
    run = k.RunState.new(XorShift64Star(seed).state, match)
    rule = k.compile_rule(MENACE_RULE)
    began = time.thread_time()
    k.play_games(brain.counts, np.zeros((1, 1), dtype=np.int64), match, rule, rule, k.RANDOM, k.A_FIRST, games, 0,
                 run, False, k.Watch.none())
    return time.thread_time() - began, [int(x) for x in run.stats[:3]]


def shares(results: list[int]) -> str:
    total = sum(results)
    return " / ".join(f"{r / total:.1%}" for r in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="games per round, for each")
    parser.add_argument("--reference-games", type=int, default=3_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.reference_games, args.rounds = 5000, 100, 1
    began = time.perf_counter()
    notice = compiled.load()
    if notice:
        raise SystemExit(notice)
    print(f"kernel ready (compiled or loaded from the cache): {time.perf_counter() - began:.2f} s")
    fast, slow = [], []
    for r in range(args.rounds):
        seconds, k_results = kernel(args.games, seed=r + 1)
        fast.append(args.games / seconds)
        seconds, p_results = tight_python(args.games, seed=r + 1)
        slow.append(args.games / seconds)
    reference = train(TrainingConfig(game=RULES, games=args.reference_games, seed=1, opponent="random", seats="first",
                                     protocol="classic", curve=False, engine="reference"), MenaceBrain())
    kernel_rate, python_rate = statistics.median(fast), statistics.median(slow)
    print(f"rounds: {args.rounds}, alternating; MENACE (X, Michie's rule) against the random player")
    print(f"compiled kernel:           {kernel_rate:,.0f} games/s ({args.games:,} games a round; "
          f"won/drawn/lost {shares(k_results)})")
    print(f"tight pure-Python loop:    {python_rate:,.0f} games/s ({args.games:,} games a round; "
          f"won/drawn/lost {shares(p_results)})")
    print(f"readable learner:          {reference.games_per_second:,.0f} games/s ({args.reference_games:,} games)")
    print(f"kernel vs the tight pure-Python loop: {kernel_rate / python_rate:.1f}x")
    print(f"kernel vs the readable learner: {kernel_rate / reference.games_per_second:.0f}x")


if __name__ == "__main__":
    main()
