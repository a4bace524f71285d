"""How much faster the compiled kernel trains than pure Python: against the project's own readable
engine (`--engine reference`: the engine's players, `Hats.draw` and `Hats.reinforce` over the game
protocol, the xorshift64* generator) and against a tight pure-Python trainer written for speed.

    python benchmarks/bench_vs_python.py [--sticks 100] [--games 1000000] [--python-games 200000] [--smoke]

The tight trainer plays the same training as `sticks-tui train` (explore protocol: each game starts
from a random heap 2..N; two learners take turns to move first; a ball is drawn with a chance
proportional to its count; +1 for each ball drawn by the winner, -1 for the loser's, never below
one ball of each number), with everything a pure-Python programmer would do for speed: plain lists,
`random.random()`, locals, no objects, no events, no checks. It prints its agreement with perfect
play too, so it is seen to learn the same thing.

Figures, each the median of --runs; the kernel, the tight trainer and the readable engine take turns
within each run (a round: one of each, in that order), so a ratio pairs timings taken seconds apart,
never minutes, and each round's own ratio is printed too (the target is met in a run when every
round's is):
- the kernel: `train()` as the CLI calls it (learning-curve checkpoints included), games/s; and the
  same training without the curve (`curve=False`): the work the tight trainer does, no more;
  these, the readable engine and the tight trainer in processor time of this thread (`time.thread_time`: all run in it, and
  a busy machine that shares out the cores does not stretch it as it stretches wall time, so their
  ratio holds from run to run); the tight trainer plays as many games as the kernel (--python-games,
  default --games), so both average over the same stretch of learning;
- the whole `sticks-tui train --sticks N --games G --seed 1 --json` process, wall time (interpreter
  start, imports, loading the cached kernel, training, analysis, output);
- the readable reference engine and the tight trainer, games/s (on fewer games: they are slow), and
  their time for G games at that rate.
--smoke plays a few hundred games: it proves the script works (CI runs it), its figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cli import command  # noqa: E402  - the same `sticks-tui train` command line


def tight_python_train(sticks: int, games: int, seed: int) -> list[list[int]]:
    """The explore protocol in tight pure Python; returns the first learner's hats [[c1, c2, c3], ...]."""
    rand = random.Random(seed).random
    hats_a = [[1, 1, 1] for _ in range(sticks + 1)]
    hats_b = [[1, 1, 1] for _ in range(sticks + 1)]
    span = sticks - 1  # start heaps 2..sticks
    for g in range(games):
        heap = 2 + int(rand() * span)
        a_to_move = g % 2 == 0
        drawn_a: list[tuple[list[int], int]] = []
        drawn_b: list[tuple[list[int], int]] = []
        while True:
            hat = (hats_a if a_to_move else hats_b)[heap]
            c1 = hat[0]
            if heap >= 3:
                c12 = c1 + hat[1]
                r = rand() * (c12 + hat[2])
                take = 0 if r < c1 else (1 if r < c12 else 2)
            elif heap == 2:
                take = 0 if rand() * (c1 + hat[1]) < c1 else 1
            else:
                take = 0
            (drawn_a if a_to_move else drawn_b).append((hat, take))
            heap -= take + 1
            if heap == 0:  # whoever took the last stick loses
                a_won = not a_to_move
                break
            a_to_move = not a_to_move
        won, lost = (drawn_a, drawn_b) if a_won else (drawn_b, drawn_a)
        for hat, take in won:
            hat[take] += 1
        for hat, take in lost:
            if hat[take] > 1:
                hat[take] -= 1
    return hats_a


def median_of(runs: int, fn) -> float:
    return statistics.median(fn() for _ in range(runs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sticks", type=int, default=100)
    parser.add_argument("--games", type=int, default=1_000_000, help="games for the kernel and the CLI")
    parser.add_argument("--python-games", type=int, default=None,
                        help="games for the tight trainer (default: --games, the kernel's)")
    parser.add_argument("--reference-games", type=int, default=20_000, help="games for the readable engine")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure; the median is printed")
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works")
    args = parser.parse_args()
    if args.smoke:
        args.sticks, args.games, args.python_games, args.reference_games, args.runs = 20, 2_000, 500, 200, 1
    if args.python_games is None:
        args.python_games = args.games

    from sticks_tui.solve.sticks_hats import analyse
    from sticks_tui.learn.trainer import TrainingConfig, train

    sticks, games = args.sticks, args.games
    train(TrainingConfig(sticks=5, games=10, seed=0))  # compile / load the kernel outside the timings

    def kernel_rate(curve: bool = True) -> float:
        t0 = time.thread_time()
        result = train(TrainingConfig(sticks=sticks, games=games, seed=1, curve=curve))
        assert result.games_played == games and result.engine == "kernel", result.notice
        return games / (time.thread_time() - t0)

    def reference_rate() -> float:
        t0 = time.thread_time()
        train(TrainingConfig(sticks=sticks, games=args.reference_games, seed=1, engine="reference"))
        return args.reference_games / (time.thread_time() - t0)

    def python_rate() -> float:
        t0 = time.thread_time()
        tight_python_train(sticks, args.python_games, seed=1)
        return args.python_games / (time.thread_time() - t0)

    cmd = command(sticks, games, None)
    if not args.smoke:
        subprocess.run(cmd, check=True, capture_output=True)  # numba's cache filled, as any earlier use would

    def process_seconds() -> float:
        t0 = time.perf_counter()
        out = subprocess.run(cmd, check=True, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
        assert json.loads(out.stdout)["games"] == games
        return seconds

    rounds = []  # (kernel, kernel without the curve, tight trainer, readable engine), games/s, taken in turn
    for _ in range(args.runs):
        rounds.append((kernel_rate(), kernel_rate(curve=False), python_rate(), reference_rate()))
    kernel, bare, python, reference = (statistics.median(r[i] for r in rounds) for i in range(4))
    whole = median_of(args.runs, process_seconds)
    learned = analyse(np.array(tight_python_train(sticks, min(games, 100_000), seed=2), dtype=np.int64))

    print(f"# {sticks} sticks, explore protocol, median of {args.runs} runs; {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f}" + (" (--smoke: the figures mean nothing)" if args.smoke else ""))
    print(f"kernel, train() alone:                 {kernel:>12,.0f} games/s ({games / kernel:.2f} s for {games:,} games)")
    print(f"whole `sticks-tui train` process:      {whole:>12.2f} s for {games:,} games")
    print(f"readable reference engine:             {reference:>12,.0f} games/s ({games / reference:.1f} s for "
          f"{games:,} games at that rate)")
    print(f"tight pure-Python trainer:             {python:>12,.0f} games/s ({games / python:.1f} s for "
          f"{games:,} games at that rate); agreement with perfect play after {min(games, 100_000):,} games "
          f"{learned.agreement:.0%}")
    print(f"kernel vs the readable reference engine, training alone: {kernel / reference:,.0f}x")
    print(f"kernel without the curve (the tight trainer's work): {bare:>8,.0f} games/s")
    print("each round, kernel vs the tight trainer: " + ", ".join(f"{r[0] / r[2]:.1f}x" for r in rounds)
          + "; without the curve: " + ", ".join(f"{r[1] / r[2]:.1f}x" for r in rounds))
    print(f"kernel vs the tight pure-Python trainer, training alone: {kernel / python:.1f}x")
    print(f"the same, median of the rounds' own ratios: {statistics.median(r[0] / r[2] for r in rounds):.1f}x; "
          f"without the curve: {statistics.median(r[1] / r[2] for r in rounds):.1f}x")
    print(f"whole `sticks-tui train` process vs the tight trainer's training alone: {games / python / whole:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
