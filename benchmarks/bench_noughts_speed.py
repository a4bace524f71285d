"""How much faster MENACE's compiled kernel trains than a tight pure-Python loop (issue 18's target:
at least 10 times), both against the random player, measured side by side in one run (alternating
rounds, the median of each).

    python benchmarks/bench_noughts_speed.py [--games 1000000] [--rounds 3] [--smoke]

The tight loop plays the same training as `sticks-tui noughts train --opponent random` (MENACE as X
with Michie's rule: start beads 4,3,2,1, +3/+1/-1, an empty box resigns; the random player any
empty square) with everything a pure-Python programmer would do for speed: the same precomputed
tables as the kernel (`menace.tables`: the board after each square, the box and its symmetry for each
board), turned into plain lists, `random.random()`, locals, no objects, no events, no checks. Its
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

from sticks_tui.learn import menace_kernel
from sticks_tui.learn.menace import MenaceConfig, MenaceRule, tables, train_reference


def tight_python(games: int, seed: int) -> tuple[float, list[int]]:
    """MENACE against the random player in tight pure Python; returns (seconds, [wins, draws, losses])."""
    t = tables(MenaceRule())
    next_pos = t.next_pos.tolist()
    state = t.state.tolist()
    x_row = t.x_row.tolist()
    x_perm = t.x_perm.tolist()
    empties = [[s for s in range(9) if row[s] >= 0] for row in next_pos]
    counts = t.x_start.tolist()
    rand = random.Random(seed).random
    wins = draws = losses = 0
    began = time.perf_counter()
    for _ in range(games):
        pos = 0
        drawn = []
        while True:
            row = x_row[pos]
            if row < 0:
                square = empties[pos][0]
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
                square = x_perm[pos][col]
            pos = next_pos[pos][square]
            st = state[pos]
            if st:
                result = 1 if st == 1 else 0
                break
            options = empties[pos]
            pos = next_pos[pos][options[int(rand() * len(options))]]
            st = state[pos]
            if st:
                result = -1 if st == 1 else 0
                break
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
    return time.perf_counter() - began, [wins, draws, losses]


def kernel(games: int, seed: int) -> tuple[float, list[int]]:
    rule = MenaceRule()
    t = tables(rule)
    counts = t.x_start.copy()
    stats = np.zeros(3, dtype=np.int64)
    rng = menace_kernel.new_rng_state(seed)
    began = time.perf_counter()
    menace_kernel.play(t, counts, np.zeros((1, 9), dtype=np.int64), "random", games, rule, rng, stats)
    return time.perf_counter() - began, [int(x) for x in stats]


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
    notice = menace_kernel.load()
    if notice:
        raise SystemExit(notice)
    print(f"kernel ready (compiled or loaded from the cache): {time.perf_counter() - began:.2f} s")
    fast, slow = [], []
    for r in range(args.rounds):
        seconds, k_results = kernel(args.games, seed=r + 1)
        fast.append(args.games / seconds)
        seconds, p_results = tight_python(args.games, seed=r + 1)
        slow.append(args.games / seconds)
    reference = train_reference(MenaceConfig(games=args.reference_games, opponent="random", seed=1, curve=False))
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
