"""What the learning-curve checkpoints cost: kernel games/s with and without them.

    python benchmarks/bench_checkpoints.py [--runs 5] [--games 1000000] [--game sticks|nim|noughts|hexapawn]

Each figure is the median of several runs of `train()` at 20 and 100 sticks (explore protocol), or of
another game (`--game`: its default instance, the CLI's training), alternating with and without
checkpoints so a busy machine slows both alike. With checkpoints the
run stops its kernel at six log-spaced game counts a decade and scores the brain exactly there.
"scoring share" is the time spent scoring at checkpoints over the run's time, measured directly
(the games/s difference is within the noise of a shared machine; this share is not).
--smoke: one run of 2,000 games; it proves the script works (CI runs it), its figures mean nothing.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from sticks_tui.engine import registry
from sticks_tui.learn import analysis
from sticks_tui.learn.trainer import TrainingConfig, train

_spent = [0.0]
_score = analysis.CurveScorer.score


def timed_score(self, games, counts):
    t0 = time.perf_counter()
    try:
        return _score(self, games, counts)
    finally:
        _spent[0] += time.perf_counter() - t0


analysis.CurveScorer.score = timed_score  # measure the scoring itself too: robust on a busy machine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure; the median is printed")
    parser.add_argument("--games", type=int, default=1_000_000, help="games per run (default 1,000,000)")
    parser.add_argument("--game", default="sticks", choices=registry.names(),
                        help="the game (default sticks: heaps 20 and 100; another: its default instance)")
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.games = 1, 2_000
    train(TrainingConfig(sticks=5, games=10, seed=0))  # compile / load the kernel outside the timings
    print(f"# checkpoint cost, median of {args.runs} runs of {args.games:,} games "
          f"({platform.python_version()}, {platform.machine()})")
    head = "sticks" if args.game == "sticks" else "game"
    print(f"{head:>8} {'points':>6} {'without':>12} {'with':>12} {'cost':>7} {'scoring share':>14}")
    instances = ((20, None), (100, None)) if args.game == "sticks" else \
        ((args.game, registry.entry(args.game).rules_from()),)
    for sticks, game in instances:
        rates: dict[bool, list[float]] = {False: [], True: []}
        points = 0
        shares = []
        for seed in range(args.runs):
            for curve in (False, True):
                _spent[0] = 0.0
                config = TrainingConfig(sticks=sticks, games=args.games, seed=seed, curve=curve) if game is None \
                    else TrainingConfig(game=game, games=args.games, seed=seed, curve=curve)
                result = train(config)
                rates[curve].append(result.games_per_second)
                if curve:
                    points = len(result.curve)
                    shares.append(_spent[0] / result.seconds)
        without, with_ = statistics.median(rates[False]), statistics.median(rates[True])
        print(f"{sticks:>8} {points:>6} {without:>12,.0f} {with_:>12,.0f} {1 - with_ / without:>7.1%} "
              f"{statistics.median(shares):>14.2%}", flush=True)


if __name__ == "__main__":
    main()
