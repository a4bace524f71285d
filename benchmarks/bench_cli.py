"""Whole-process wall time of `sticks-tui train --sticks 100 --games 1000000` (median of 3).

    python benchmarks/bench_cli.py [--runs 3] [--games 1000000] [--sticks 100] [--protocol classic]

Includes interpreter start-up, imports (numpy, numba), loading the cached kernel, training and
the analysis. One untimed run first fills numba's on-disk cache, as any earlier use would have.
--smoke: one run of 2,000 games at 20 sticks, no warm-up run; it proves the script works (CI runs it),
its figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def command(sticks: int, games: int, protocol: str | None) -> list[str]:
    beside = Path(sys.executable).parent / "sticks-tui"  # the console script of this environment
    exe = str(beside) if beside.exists() else shutil.which("sticks-tui")
    base = [exe] if exe else [sys.executable, "-m", "sticks_tui"]
    chosen = ["--protocol", protocol] if protocol else []
    return [*base, "train", "--sticks", str(sticks), "--games", str(games), *chosen, "--seed", "1", "--json"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--sticks", type=int, default=100)
    parser.add_argument("--protocol", default=None, help="default: the command's default protocol")
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.games, args.sticks = 1, 2_000, 20
    cmd = command(args.sticks, args.games, args.protocol)
    if not args.smoke:
        subprocess.run(cmd, check=True, capture_output=True)  # warm numba's cache
    walls, inner = [], []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, check=True, capture_output=True, text=True)
        walls.append(time.perf_counter() - t0)
        data = json.loads(proc.stdout)
        assert data["games"] == args.games
        inner.append(data["seconds"])
    print(f"# {' '.join(cmd)} ({args.protocol or 'default'} protocol), median of {args.runs}")
    print(f"whole process: {statistics.median(walls):.2f} s (runs: {', '.join(f'{w:.2f}' for w in walls)})")
    print(f"training alone: {statistics.median(inner):.2f} s, "
          f"{args.games / statistics.median(inner):,.0f} games/s")


if __name__ == "__main__":
    main()
