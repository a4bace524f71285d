"""How long the test suite takes: wall time and CPU time (user + system, of pytest and every process
it waits for: the xdist workers, the CLI subprocesses, the servers, Chromium), as CI runs it.

    python benchmarks/bench_suite.py                          # the whole suite once, as `pytest` runs it
    python benchmarks/bench_suite.py --fresh                  # ... from a fresh clone: no numba cache, no bytecode
    python benchmarks/bench_suite.py --baseline main --rounds 3 -- tests/ui   # this tree against main, alternating

On a machine other people use, wall time follows their load; CPU time much less so, which is why
it is the figure to compare (wall on two idle cores is about CPU / 2, plus what no core is used
for: sleeps, waits for a subprocess to start). With --baseline REF the same tests run in a
temporary git worktree at REF, with this tree's virtual environment, one run of each in turn, so
both see the same load; the medians and their ratio are printed.

--smoke runs one small test file once (for tests/unit/test_benchmarks_smoke.py).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SMOKE_TESTS = ["tests/unit/test_run_words.py"]


def clear_caches(tree: Path) -> None:
    """As in a fresh clone: no numba kernels on disk, no bytecode, no pytest cache."""
    for pattern in ("*.nbi", "*.nbc", "*.pyc"):
        for path in tree.rglob(pattern):
            if ".venv" not in path.parts:
                path.unlink(missing_ok=True)
    shutil.rmtree(tree / ".pytest_cache", ignore_errors=True)


def run_suite(tree: Path, pytest_args: list[str], fresh: bool) -> tuple[float, float, int, str]:
    """(wall seconds, CPU seconds, exit status, last line) of one `python -m pytest` run in `tree`."""
    if fresh:
        clear_caches(tree)
    env = dict(os.environ)
    env.pop("NUMBA_CACHE_DIR", None)  # numba keeps its kernels next to the source, as in a clone
    env["PYTHONPATH"] = str(tree)  # the tree's own sticks_tui, in the CLI subprocesses too (not the editable install)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *pytest_args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # pytest, and all it waited for (workers, subprocesses)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    for line in lines:
        if line.startswith(("FAILED ", "ERROR ")):  # pytest's short summary: which tests, not only how many
            print(f"    {line}", flush=True)
    return wall, cpu, done.returncode, lines[-1] if lines else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", metavar="REF", help="also run the suite at this git ref, alternating")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each tree (default 1)")
    parser.add_argument("--fresh", action="store_true", help="clear numba's kernels and bytecode before each run")
    parser.add_argument("--smoke", action="store_true", help=f"one run of {' '.join(SMOKE_TESTS)} only")
    parser.add_argument("pytest_args", nargs="*", help="given to pytest (after --), e.g. tests/ui -n 0")
    args = parser.parse_args()
    pytest_args = args.pytest_args or []
    if args.smoke:
        pytest_args, args.rounds, args.baseline = [*SMOKE_TESTS, "-n", "0"], 1, None
    trees = {"this tree": ROOT}
    worktree = None
    if args.baseline:
        worktree = Path(tempfile.mkdtemp(prefix="bench-suite-")) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(worktree), args.baseline],
                       check=True, capture_output=True)
        trees[f"baseline {args.baseline}"] = worktree
    print(f"pytest {' '.join(pytest_args) or '(the whole suite)'}; {args.rounds} round(s); "
          f"{os.cpu_count()} CPUs; load average before: {os.getloadavg()[0]:.1f}")
    print(f"{'tree':<24} {'round':>5} {'wall s':>8} {'CPU s':>8}  result")
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
    try:
        for round_number in range(1, args.rounds + 1):
            order = list(trees.items()) if round_number % 2 else list(reversed(trees.items()))
            for name, tree in order:
                wall, cpu, status, last = run_suite(tree, pytest_args, args.fresh)
                results[name].append((wall, cpu))
                print(f"{name:<24} {round_number:>5} {wall:>8.1f} {cpu:>8.1f}  exit {status}: {last}", flush=True)
    finally:
        if worktree is not None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)],
                           capture_output=True)
    print()
    for name, runs in results.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(f"{name}: median wall {statistics.median(walls):.1f} s, median CPU {statistics.median(cpus):.1f} s "
              f"(user + system)")
    if args.baseline:
        (this_name, this), (base_name, base) = results.items()
        ratio_cpu = statistics.median(c for _, c in this) / statistics.median(c for _, c in base)
        ratio_wall = statistics.median(w for w, _ in this) / statistics.median(w for w, _ in base)
        print(f"this tree / baseline: CPU {ratio_cpu:.2f}x, wall {ratio_wall:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
