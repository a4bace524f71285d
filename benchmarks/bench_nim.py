"""Three-pile Nim: how fast the table U(n, d, q) is built, how much memory it takes, and how fast the
general hat learner trains (and how well).

Run: python benchmarks/bench_nim.py [--repeat 21] [--literal-full] [--json]
--smoke: one build per figure and a few thousand games; it proves the script works (CI runs it), its
figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import tracemalloc


def timed(fn, repeat: int) -> tuple[float, list[float]]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times


def first_table_in_a_fresh_process() -> dict:
    """What the app pays once: importing the solver and the first nim_table() (numba loads its cache)."""
    code = ("import time; t0 = time.perf_counter(); import sticks_tui.solve.nim as nim; "
            "t1 = time.perf_counter(); nim.nim_table(); t2 = time.perf_counter(); "
            "print(t1 - t0, t2 - t1)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    imp, first = map(float, out.stdout.split())
    return {"import_seconds": imp, "first_table_seconds": first}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21, help="timed runs per figure (median reported)")
    parser.add_argument("--literal-full", action="store_true",
                        help="also time seed 004's literal algorithm on the full 101^3 cube (slow)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.repeat = 1

    from sticks_tui.engine.nim import NimRules
    from sticks_tui.learn.analysis import agreement
    from sticks_tui.learn.trainer import TrainingConfig, train
    from sticks_tui.solve import nim

    figures: dict = {}
    figures["fresh_process"] = first_table_in_a_fresh_process()  # before this process warms the cache

    nim.build_table(2, 2, 2)  # compile or load the kernel once, outside the timings
    for size in (12, 20):
        med, _ = timed(lambda s=size: nim.build_table_literal(s, s, s), 1 if args.smoke else max(3, args.repeat // 4))
        figures[f"literal_{size}^3_seconds"] = med
    if args.literal_full:
        med, _ = timed(lambda: nim.build_table_literal(100, 100, 100), 1)
        figures["literal_full_seconds"] = med
    med, times = timed(lambda: nim.build_table(100, 100, 100), args.repeat)
    figures["fast_full_seconds_median"] = med
    figures["fast_full_seconds_min"] = min(times)
    figures["fast_full_seconds_max"] = max(times)

    tracemalloc.start()
    table = nim.build_table(100, 100, 100)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    figures["table_nbytes"] = int(table.nbytes)
    figures["table_dtype"] = str(table.dtype)
    figures["build_tracemalloc_peak_bytes"] = int(peak)

    nim.nim_table()
    med, _ = timed(lambda: nim.explain((100, 100, 100)), args.repeat)
    figures["explain_100_100_100_seconds"] = med

    game = NimRules((7, 7, 7))
    train(TrainingConfig(game=game, games=10, seed=0))  # compile or load the kernel
    learner = {}
    for games in (2_000,) if args.smoke else (100_000, 200_000, 500_000, 1_000_000):
        runs = [train(TrainingConfig(game=game, games=games, seed=s)) for s in (1, 2, 3)]
        learner[f"kernel_{games}"] = {
            "games_per_second_median": statistics.median(r.games_per_second for r in runs),
            "seconds_median": statistics.median(r.seconds for r in runs),
            "agreement_seeds_1_2_3": [agreement(r.brain).agreement for r in runs],
        }
    ref = train(TrainingConfig(game=game, games=200 if args.smoke else 20_000, seed=1, engine="reference"))
    learner["reference_20000"] = {"games": ref.games_played, "games_per_second": ref.games_per_second, "seconds": ref.seconds,
                                  "agreement": agreement(ref.brain).agreement}
    figures["learner_piles_7_7_7"] = learner

    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    f = figures
    print("three-pile Nim table U(n, d, q), 0..100 each (1,030,301 states)")
    print(f"  fast (running flags, numba): median {f['fast_full_seconds_median'] * 1e3:.2f} ms over "
          f"{args.repeat} builds (min {f['fast_full_seconds_min'] * 1e3:.2f}, max {f['fast_full_seconds_max'] * 1e3:.2f})")
    print(f"  literal (seed 004 as written): 12^3 {f['literal_12^3_seconds'] * 1e3:.1f} ms, "
          f"20^3 {f['literal_20^3_seconds'] * 1e3:.1f} ms"
          + (f", full cube {f['literal_full_seconds']:.2f} s" if "literal_full_seconds" in f else ""))
    print(f"  memory: table {f['table_nbytes']:,} bytes ({f['table_nbytes'] / 2**20:.3f} MiB, {f['table_dtype']}); "
          f"tracemalloc peak during a build {f['build_tracemalloc_peak_bytes']:,} bytes "
          f"({f['build_tracemalloc_peak_bytes'] / 2**20:.3f} MiB)")
    fp = f["fresh_process"]
    print(f"  once per process: import solver {fp['import_seconds'] * 1e3:.0f} ms, first nim_table() "
          f"{fp['first_table_seconds'] * 1e3:.0f} ms (numba import + loading the compiled kernel from its cache)")
    print(f"  explain((100, 100, 100)): {f['explain_100_100_100_seconds'] * 1e3:.2f} ms")
    print("general hat learner, Nim on piles up to (7, 7, 7): 511 hats, 448 winning positions")
    for name, row in learner.items():
        if name.startswith("kernel"):
            print(f"  kernel {int(name.split('_')[1]):>9,} games: {row['games_per_second_median']:>12,.0f} games/s, "
                  f"{row['seconds_median']:.3f} s, agreement (seeds 1, 2, 3) "
                  + ", ".join(f"{a:.3f}" for a in row["agreement_seeds_1_2_3"]))
    r = learner["reference_20000"]
    print(f"  reference {r['games']:>9,} games: {r['games_per_second']:>12,.0f} games/s, {r['seconds']:.3f} s, "
          f"agreement {r['agreement']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
