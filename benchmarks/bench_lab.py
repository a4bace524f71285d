"""The learning lab's figures (issues 20, 35): the default lab on every game (wall time, time to the first
result, games to mastery and held), and games to mastery for each preset.

    python benchmarks/bench_lab.py [--games sticks,noughts,...] [--size 20] [--seeds 20]
                                   [--first-seed 10001] [--workers 2] [--skip-presets] [--json] [--smoke]

The default lab (`learn.lab.DEFAULT_LEARNERS`, each game's default cap, 20 seeds) is run on each game as
`sticks-tui lab --game GAME` runs it, timed from the start of its processes to the first result shown
(the screen shows results seed by seed) and to the last: the wall times issue 33 item 4 (under 15 s at
20 sticks) and issue 35 item 4 (under 30 s on noughts and Hexapawn) are about, on 2 cores. The load
average is printed beside them, since the machine may be shared. Then each preset (`learn.lab.PRESETS`)
on sticks at --size. Mastery: the first game after which the learner's greedy play is unbeatable from
both seats (exact, from the solver); held: seeds where it still is at the end of the run. The default
block of seeds, 10001-10020, is held out: nothing was tuned on it. --smoke runs 2 seeds of 2,000 games:
it proves the script works (CI runs it); its figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=None, help="comma-separated lab games (default: every game)")
    parser.add_argument("--size", type=int, default=20, help="the sticks heap of the presets")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=10001)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--skip-presets", action="store_true", help="time the default labs only")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()

    from sticks_tui.learn.lab import DEFAULT_LEARNERS, PRESETS, LabConfig, parse_learner, run_lab
    from sticks_tui.learn.lab import games as lab_games

    cap = 2_000 if args.smoke else None
    seeds = 2 if args.smoke else args.seeds
    games = lab_games() if args.games is None else tuple(args.games.split(","))
    last = args.first_seed + seeds - 1
    out: dict = {"seeds": [args.first_seed, last], "default": {}, "presets": {}}
    print(f"# learning lab: seeds {args.first_seed:,}-{last:,} ({seeds} seeds); mastery: median / p90 (nearest "
          "rank) / never, both seats; held: seeds unbeatable at the end")
    learners = tuple(parse_learner(t) for t in DEFAULT_LEARNERS)
    for game in games:
        config = LabConfig(game, None, learners, seeds, cap, first_seed=args.first_seed, workers=args.workers)
        load_before = os.getloadavg()[0]
        first: list[float] = []
        started = time.perf_counter()

        def partial(_result, first=first, started=started) -> None:
            if not first:
                first.append(time.perf_counter() - started)

        result = run_lab(config, partial=partial)
        wall = time.perf_counter() - started
        cpu = sum(r.cpu_seconds for r in result.learners)
        doc = result.as_json()
        print(f"\n## the default lab on {game} (size {doc['size']}, cap {config.cap:,}): {wall:.1f} s wall, "
              f"{result.workers} threads, first result after {first[0]:.1f} s; {cpu:.1f} s of processor time "
              f"in the runs; load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
        rows = []
        for r in result.learners:
            m = r.mastery()
            row = {"learner": r.spec.text, "learns_from": r.spec.learns_from, **m.as_json(), "held": r.held(),
                   "agreement": r.final_agreement}
            rows.append(row)
            print(f"{r.spec.text:<34} {r.spec.learns_from:<10} {_g(m.median):>9} {_g(m.p90):>9} {m.never:>3}/{seeds}"
                  f"  held {r.held():>2}/{seeds}  agreement {r.final_agreement:6.1%}")
        out["default"][game] = {"cap": config.cap, "wall_seconds": wall, "first_result_seconds": first[0],
                                "cpu_seconds": cpu, "workers": result.workers, "learners": rows,
                                "load_average": [load_before, os.getloadavg()[0]]}
        sys.stdout.flush()
    if not args.skip_presets:
        for key, preset in PRESETS.items():
            config = LabConfig("sticks", args.size, tuple(parse_learner(t) for t in preset.learners), seeds, cap,
                               first_seed=args.first_seed, workers=args.workers or (1 if args.smoke else None))
            result = run_lab(config)
            print(f"\n## preset {key}: {preset.title}, sticks {args.size}, cap {config.cap:,} ({result.seconds:.1f} s)")
            rows = []
            for r in result.learners:
                m = r.mastery()
                rows.append({"learner": r.spec.text, **m.as_json(), "held": r.held()})
                print(f"{r.spec.text:<34} {r.spec.learns_from:<10} {_g(m.median):>9} {_g(m.p90):>9} "
                      f"{m.never:>3}/{seeds}  held {r.held():>2}/{seeds}")
            out["presets"][key] = rows
            sys.stdout.flush()
    if args.json:
        print(json.dumps(out))
    return 0


def _g(n) -> str:
    return "never" if n is None else f"{n:,}"


if __name__ == "__main__":
    sys.exit(main())
