"""Learning quality: for each protocol, the share of seeds whose trained AI plays every winning hat
it can face the way perfect play does, after 100,000 games, at 20 and 100 sticks (kernel engine).

    python benchmarks/bench_quality.py [--first-seed 10001] [--seeds 200] [--games 100000] [--sticks 20 100]
                                       [--smoke]

The default block, seeds 10001-10200, is held out: nothing in the code was tuned on it (the
regression tests and earlier measurements used seeds below 1,000).
"Agrees" means the hat's most likely ball is a winning move; hats of losing heaps have no right
answer and are not counted. The AI plays both seats, so it can face every heap from 1 to N.
Goal for the default protocol: at least 99% of seeds at 20 sticks and 95% at 100.
--smoke runs two seeds for 2,000 games: it proves the script works (CI runs it), its figures mean nothing.
"""

from __future__ import annotations

import argparse
import time

from sticks_tui.solve.sticks_hats import analyse
from sticks_tui.learn.trainer import DEFAULT_PROTOCOL, PROTOCOLS, TrainingConfig, train


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first-seed", type=int, default=10001, help="the block's first seed (default 10001)")
    parser.add_argument("--seeds", type=int, default=200, help="how many seeds from --first-seed (default 200)")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--sticks", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--protocols", nargs="+", default=list(PROTOCOLS), choices=list(PROTOCOLS))
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works")
    args = parser.parse_args()
    if args.smoke:
        args.seeds, args.games = 2, 2_000
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    print(f"# share of {args.seeds} seeds ({seeds[0]}-{seeds[-1]}) where every winning hat agrees with perfect "
          f"play after {args.games:,} games (default protocol: {DEFAULT_PROTOCOL})"
          + (" (--smoke: the figures mean nothing)" if args.smoke else ""))
    print(f"{'protocol':<9} {'sticks':>6} {'perfect seeds':>14} {'share':>7}  {'time':>6}  worst hats")
    for protocol in args.protocols:
        for sticks in args.sticks:
            t0 = time.perf_counter()
            good = 0
            wrong_hats: dict[int, int] = {}
            for seed in seeds:
                result = train(TrainingConfig(sticks=sticks, games=args.games, seed=seed, protocol=protocol))
                assert result.games_played == args.games
                analysis = analyse(result.brain.counts)
                good += analysis.plays_perfectly
                for hat in analysis.disagreeing:
                    wrong_hats[hat] = wrong_hats.get(hat, 0) + 1
            worst = ", ".join(f"hat {h} x{c}" for h, c in sorted(wrong_hats.items(), key=lambda kv: -kv[1])[:3])
            print(f"{protocol:<9} {sticks:>6} {good:>8}/{args.seeds:<5} {good / args.seeds:>7.1%}  "
                  f"{time.perf_counter() - t0:>5.0f}s  {worst or '-'}", flush=True)


if __name__ == "__main__":
    main()
