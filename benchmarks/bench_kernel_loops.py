"""One game loop in the kernel (issue 17): the general loop against the sticks-only loop it replaced.

    python benchmarks/bench_kernel_loops.py [--rounds 7] [--baseline 891d13c]

The baseline is the code before issue 17, taken from git (`git archive`) into a temporary folder:
there, sticks trained with its own loop (`learn/kernel.py`), and any other game with the general loop
(`learn/general_kernel.py`), which also played sticks bit for bit alike but slower. Three variants
are timed, each in a process of its own, alternating round by round (the order turns each round), so
a busy machine slows them alike:

- `sticks loop`: the baseline's sticks-only loop (what sticks trained with before);
- `general before`: the baseline's general loop, on sticks;
- `general now`: this tree's kernel, on sticks (after issue 17, the only loop).

A last line compares the general loop before and now on Nim (piles up to 7), where there was no
sticks loop. With another baseline (`--baseline main`: the one loop of issue 31 against the loop before
it), a baseline without the two loops plays `general before` as `sticks loop`: its own loop.

Each figure is `train(TrainingConfig(..., engine="kernel", curve=False))`, the trainer's own call
(the baseline's general loop is put in place of its sticks loop for the second variant), over
enough games for ~0.3-1 s, timed in CPU time of the training thread (`time.thread_time`: time the
process waits for a core shared with other work is not counted), best of 3 in each process.
A round's ratio is a variant's games/s over the sticks loop's in the
same round; the median ratio over the rounds is printed. The kernels are compiled (or loaded from
numba's cache) before timing. --smoke: one round of 100 games a case, the baseline's two variants in one
process (the sticks loop, then the general loop) and uncompiled (NUMBA_DISABLE_JIT: its loops run as the Python
they are written in; a fresh machine, as CI's, compiled them for ~3 CPU s), this tree's kernel as the app runs it;
it proves the script works (CI runs it), its figures mean nothing. The smoke run keeps the baseline's tree (by
commit) in the system's temporary folder, extracted once; a full run extracts a fresh tree each time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BASELINE = "891d13c"  # main before issue 17: the sticks-only loop and the general loop side by side
CASES = [("explore", 20), ("explore", 100), ("classic", 20), ("classic", 100)]
NIM = ("nim", 7)  # Nim with piles up to 7 (the app's Nim learner): the general loop before and now
GAMES = {20: 2_000_000, 100: 500_000, 7: 1_000_000}
VARIANTS = ("sticks loop", "general before", "general now")

CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
variants, games_json = json.loads(sys.argv[2]), sys.argv[3]
from sticks_tui.learn import trainer
assert trainer.__file__.startswith(sys.argv[1]), trainer.__file__
from sticks_tui.engine.nim import NimRules
from sticks_tui.learn.trainer import TrainingConfig, train
train(TrainingConfig(sticks=5, games=10, seed=0, curve=False))  # compile / load outside the timings
train(TrainingConfig(game=NimRules((1, 1, 1)), games=10, seed=0, curve=False))
every = {}
for variant in variants:  # one, but for --smoke's baseline tree: the sticks loop, then the general loop
    if variant == "general before" and hasattr(trainer, "_GeneralKernelRun"):
        trainer._SticksKernelRun = trainer._GeneralKernelRun  # the baseline's general loop, on sticks
    out = every[variant] = {}
    for protocol, sticks, games, repeats in json.loads(games_json):
        if protocol == "nim" and variant == "sticks loop":
            continue  # the sticks loop plays sticks only
        game = {"game": NimRules((sticks,) * 3)} if protocol == "nim" else {"sticks": sticks, "protocol": protocol}
        best = 0.0
        for _ in range(repeats):
            t0 = time.thread_time()
            result = train(TrainingConfig(games=games, seed=7, curve=False, **game))
            best = max(best, games / (time.thread_time() - t0))
            assert result.engine == "kernel" and result.games_played == games
        out[f"{protocol} {sticks}"] = best
print(json.dumps(every))
"""


def baseline_tree(rev: str, into: Path) -> Path:
    """The package as it was at `rev`, extracted under `into`."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", rev, "sticks_tui"],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def kept_baseline_tree(rev: str) -> Path:
    """The package at `rev` in a folder named by its commit under the system's temporary folder, extracted
    once (into a fresh folder renamed into place, so a run never sees half a tree)."""
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", f"{rev}^{{commit}}"],
                            capture_output=True, text=True, check=True).stdout.strip()
    kept = Path(tempfile.gettempdir()) / f"sticks-tui-bench-kernel-{commit}-{os.getuid()}"
    if not kept.is_dir():
        fresh = Path(tempfile.mkdtemp(prefix="bench-kernel-", dir=kept.parent))
        baseline_tree(rev, fresh)
        try:
            fresh.rename(kept)
        except OSError:  # another run put it there first
            shutil.rmtree(fresh, ignore_errors=True)
    return kept


def run_variants(tree: Path, variants: list[str], cases: list, *, compiled: bool = True) -> dict[str, dict[str, float]]:
    """{variant: {case: games/s}} of the variants run in turn in one process of `tree`'s code (`compiled` False: its
    numba kernels run as the Python they are written in, NUMBA_DISABLE_JIT, with no compile)."""
    env = None if compiled else {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run([sys.executable, "-c", CHILD, str(tree), json.dumps(variants), json.dumps(cases)],
                          capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{', '.join(variants)} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="rounds of alternating processes (default 7)")
    parser.add_argument("--baseline", default=BASELINE, help=f"the git revision before (default {BASELINE})")
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works (CI)")
    args = parser.parse_args()
    rounds = 1 if args.smoke else args.rounds
    cases = [(p, n, 100, 1) if args.smoke else (p, n, GAMES[n], 3) for p, n in CASES + [NIM]]
    with tempfile.TemporaryDirectory(prefix="bench-kernel-") as tmp:
        baseline = kept_baseline_tree(args.baseline) if args.smoke else baseline_tree(args.baseline, Path(tmp))
        trees = {"sticks loop": baseline, "general now": REPO}
        trees["general before"] = trees["sticks loop"]
        rates: dict[str, list[dict[str, float]]] = {v: [] for v in VARIANTS}
        for r in range(rounds):
            order = VARIANTS[r % 3:] + VARIANTS[: r % 3]
            # each variant in a process of its own; --smoke runs the baseline's two in one (a Python and the
            # kernels' load spared: about a CPU second)
            runs = [["sticks loop", "general before"], ["general now"]] if args.smoke else [[v] for v in order]
            for variants in runs:
                # --smoke: the baseline's loops uncompiled (a fresh machine would compile them, ~3 CPU s, for
                # figures that mean nothing); this tree's kernel as the app runs it, loaded from the suite's cache
                plain = args.smoke and trees[variants[0]] is not REPO
                for variant, rate in run_variants(trees[variants[0]], variants, cases, compiled=not plain).items():
                    rates[variant].append(rate)
    print(f"# kernel loops on sticks: games/s (M), median of {rounds} rounds in alternating processes; "
          f"ratios against the sticks loop of {args.baseline}, paired by round "
          f"({platform.python_version()}, {platform.machine()})")
    print(f"{'protocol':<9} {'sticks':>6} {'sticks loop':>12} {'general before':>15} {'general now':>12} "
          f"{'before':>7} {'now':>7}")
    for protocol, sticks in CASES:
        key = f"{protocol} {sticks}"
        med = {v: statistics.median(x[key] for x in rates[v]) / 1e6 for v in VARIANTS}
        ratio = {v: statistics.median(rates[v][i][key] / rates["sticks loop"][i][key] for i in range(rounds))
                 for v in ("general before", "general now")}
        print(f"{protocol:<9} {sticks:>6} {med['sticks loop']:>12.2f} {med['general before']:>15.2f} "
              f"{med['general now']:>12.2f} {ratio['general before']:>6.3f}x {ratio['general now']:>6.3f}x")
    key = " ".join(map(str, NIM))
    before, now = (statistics.median(x[key] for x in rates[v]) / 1e6 for v in ("general before", "general now"))
    gain = statistics.median(rates["general now"][i][key] / rates["general before"][i][key] for i in range(rounds))
    print(f"nim, piles up to {NIM[1]}: general before {before:.2f}, now {now:.2f} M games/s: {gain:.3f}x")


if __name__ == "__main__":
    main()
