"""Training speed: games per second at 20 and 100 sticks, kernel and reference, both protocols.

    python benchmarks/bench_train.py [--runs 5]

Each figure is the median of several runs of `train()` (the same call the app and the CLI make,
progress snapshots included). The kernel is compiled (or loaded from numba's cache) before timing.
--smoke: one run of a few hundred games per figure; it proves the script works (CI runs it), its
figures mean nothing.
"""

from __future__ import annotations

import argparse
import platform
import statistics

from sticks_tui.learn.trainer import PROTOCOLS, TrainingConfig, train

#: Games per run: enough for ~0.3-1 s each.
GAMES = {("kernel", 20): 3_000_000, ("kernel", 100): 1_000_000,
         ("reference", 20): 20_000, ("reference", 100): 5_000}


def measure(engine: str, sticks: int, protocol: str, runs: int, smoke: bool = False) -> float:
    rates = []
    games = 300 if smoke else GAMES[engine, sticks]
    for seed in range(runs):
        result = train(TrainingConfig(sticks=sticks, games=games, seed=seed, protocol=protocol, engine=engine))
        assert result.games_played == games
        rates.append(result.games_per_second)
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure; the median is printed")
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works (CI)")
    args = parser.parse_args()
    train(TrainingConfig(sticks=5, games=10, seed=0))  # compile / load the kernel outside the timings
    print(f"# training speed, median of {args.runs} runs ({platform.python_version()}, {platform.machine()})")
    print(f"{'engine':<10} {'protocol':<9} {'sticks':>6} {'games/s':>12}")
    for engine in ("kernel", "reference"):
        for protocol in PROTOCOLS:
            for sticks in (20, 100):
                rate = measure(engine, sticks, protocol, 1 if args.smoke else args.runs, args.smoke)
                print(f"{engine:<10} {protocol:<9} {sticks:>6} {rate:>12,.0f}", flush=True)


if __name__ == "__main__":
    main()
