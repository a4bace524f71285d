"""The learning lab's figures (issue 20): games to mastery for each preset, and the default lab's wall time.

    python benchmarks/bench_lab.py [--size 100] [--seeds 20] [--cap 1000000] [--first-seed 10001]
                                   [--workers 2] [--skip-presets] [--json] [--smoke]

Each preset (`learn.lab.PRESETS`) is run as `sticks-tui lab --preset NAME` runs it: every learner
trained from fresh once per seed, mastery exact from the solver. Then the default lab (4 learners,
the same seeds, heap, cap), timed from the start of its processes to the last result: that is the
wall time the issue's goal (under 30 s on 2 cores) is about. The load average is printed beside it,
since the machine may be shared. The default block of seeds, 10001-10020, is held out: nothing was
tuned on it. --smoke runs 2 seeds of 2,000 games at heap 20, the presets without a pool of processes: it proves the script works (CI runs
it); its figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--cap", type=int, default=1_000_000)
    parser.add_argument("--first-seed", type=int, default=10001)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--skip-presets", action="store_true", help="time the default lab only")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.size, args.seeds, args.cap = 20, 2, 2_000

    from sticks_tui.learn.lab import DEFAULT_LEARNERS, PRESETS, LabConfig, parse_learner, run_lab

    last = args.first_seed + args.seeds - 1
    out: dict = {"size": args.size, "seeds": [args.first_seed, last], "cap": args.cap, "presets": {}}
    print(f"# learning lab: sticks, heap {args.size}, seeds {args.first_seed:,}-{last:,} ({args.seeds} seeds), "
          f"cap {args.cap:,} games a run")
    print("# games to mastery, both seats: median / p90 (nearest rank) / never; agreement and chance to beat "
          "the perfect player: medians at the cap")
    if not args.skip_presets:
        for key, preset in PRESETS.items():
            # --smoke: the presets in this process (starting a pool of workers is most of a tiny lab's
            # time); the default lab below still runs on its pool of processes, the real path
            workers = args.workers or (1 if args.smoke else None)
            config = LabConfig("sticks", args.size, tuple(parse_learner(t) for t in preset.learners), args.seeds,
                               args.cap, first_seed=args.first_seed, workers=workers)
            result = run_lab(config)
            print(f"\n## {key}: {preset.title} ({result.seconds:.1f} s)")
            rows = []
            for r in result.learners:
                m = r.mastery()
                last_point = r.curve()[-1]
                row = {"learner": r.spec.text, **m.as_json(), "agreement": last_point["agreement"]["median"],
                       "vs_perfect": last_point["vs_perfect"]["median"]}
                rows.append(row)
                print(f"{r.spec.text:<36} {_g(m.median):>9} {_g(m.p90):>9} {m.never:>3}/{args.seeds}"
                      f"  {row['agreement']:7.1%} {row['vs_perfect']:7.1%}")
            out["presets"][key] = rows
            sys.stdout.flush()
    config = LabConfig("sticks", args.size, tuple(parse_learner(t) for t in DEFAULT_LEARNERS), args.seeds, args.cap,
                       first_seed=args.first_seed, workers=args.workers)
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    result = run_lab(config)
    wall = time.perf_counter() - started
    inside = sum(r.seconds for r in result.learners)
    cpu = sum(r.cpu_seconds for r in result.learners)
    out.update({"default_wall_seconds": wall, "default_run_seconds": inside, "default_cpu_seconds": cpu,
                "workers": result.workers,
                "load_average": [load_before, os.getloadavg()[0]]})
    print(f"\n## the default lab: {', '.join(DEFAULT_LEARNERS)}")
    for r in result.learners:
        m = r.mastery()
        print(f"{r.spec.text:<36} {_g(m.median):>9} {_g(m.p90):>9} {m.never:>3}/{args.seeds}  {r.seconds:7.1f} s"
              f"  ({r.cpu_seconds:.1f} s of processor time)")
    print(f"default lab wall time: {wall:.1f} s on {result.workers} processes ({inside:.1f} s in the runs; "
          f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after)")
    print(f"processor time of the runs: {cpu:.1f} s, so at least {cpu / result.workers:.1f} s of wall time on "
          f"{result.workers} idle cores, before starting the processes")
    if args.json:
        print(json.dumps(out))
    return 0


def _g(n) -> str:
    return "never" if n is None else f"{n:,}"


if __name__ == "__main__":
    sys.exit(main())
