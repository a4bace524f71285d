"""Every figure of many lab runs, this tree's against the code before (a git revision, or another checkout), to
the last bit: a change to the lab's loop or curve for speed must leave the same games, counts, random stream,
mastery figures and curve points (issue 31 item 2).

    python benchmarks/compare_lab_runs.py [--baseline 67b771e | --against TREE] [--games 30000] [--seeds 2]
                                          [--smoke]

Each tree runs in a process of its own (the baseline's package taken from git into a kept temporary folder, as
bench_kernel_loops.py does, so numba's cache beside it is compiled once). The runs: noughts, Hexapawn, sticks 30
and Nim, each with hats, shared hats (`table=one`), hats against the random player and against the best-at-random
one, `q`, `qseat` and `mc`, and on noughts and sticks four other hat rules (a draw's reward, the 'nonempty'
floor, no penalty, a reward of 3 with shared hats); seeds 0, 1, ... A run's figures: its wins, draws and
losses, its first game unbeatable (first seat, second, both), whether that held at the end, its first game
right everywhere, every curve point (each figure as `float.hex`), and a digest of the learner's final counts
or values. Printed: how many runs were compared and any that differ (exit 1 if any do). --smoke: a few short
runs in this tree alone, in this process: it proves the script works; its figures mean nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BASELINE = "67b771e"  # main before the lab's curve was packed and its found runs untracked
GAMES = (("noughts", None), ("hexapawn", None), ("sticks", 30), ("nim", None))
LEARNERS = ("hats", "hats:table=one", "hats:vs=random", "hats:vs=best-at-random", "q", "qseat", "mc")
RULES = ("hats:draw=1", "hats:floor=nonempty", "hats:penalty=0", "hats:reward=3,table=one")


def cases(seeds: int, smoke: bool = False):
    if smoke:
        yield from (("sticks", 12, text, 0) for text in ("hats", "hats:table=one", "q"))
        return
    for game, size in GAMES:
        for text in LEARNERS + (RULES if game in ("noughts", "sticks") else ()):
            for seed in range(seeds):
                yield game, size, text, seed


def figures_here(games: int, seeds: int, smoke: bool = False) -> list[dict]:
    """Every figure of each run, made with the `sticks_tui` this process imports."""
    import numpy as np

    from sticks_tui.learn.lab import lab_game, parse_learner, run_learner

    out = []
    for game, size, text, seed in cases(seeds, smoke):
        run = run_learner(parse_learner(text), lab_game(game, size), seed, games)
        a = run.state["a"]
        table = np.ascontiguousarray(a.counts if hasattr(a, "counts") else a)
        out.append({
            "run": f"{game}{'' if size is None else f' {size}'} {text} seed {seed}",
            "games": run.games, "results": list(run.results), "first_unbeatable": list(run.mastery),
            "held": list(run.held), "every_position": run.every_position,
            "curve": [[p.games, *(float(v).hex() for v in (p.agreement, p.win_first, p.win_second, p.keep_first,
                                                           p.keep_second))] for p in run.curve],
            "table": hashlib.sha256(table.tobytes()).hexdigest()[:16] + f" {table.dtype} {table.shape}",
        })
    return out


def figures_of(tree: Path, games: int, seeds: int) -> list[dict]:
    """`figures_here` in a process of its own whose `sticks_tui` is the one in `tree`."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--dump", "--games", str(games),
                           "--seeds", str(seeds)], env=env, cwd=str(tree), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the runs in {tree} failed:\n{done.stderr[-3000:]}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help=f"the git revision before (default {BASELINE})")
    parser.add_argument("--against", help="another checkout's folder instead of --baseline (its sticks_tui is used)")
    parser.add_argument("--games", type=int, default=30_000)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--dump", action="store_true", help=argparse.SUPPRESS)  # one tree's figures, JSON lines
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.dump:
        for line in figures_here(args.games, args.seeds):
            print(json.dumps(line), flush=True)
        return 0
    if args.smoke:
        runs = figures_here(100, 1, smoke=True)
        print(f"{len(runs)} lab runs of 100 games in this tree alone (--smoke): "
              f"{sum(len(r['curve']) for r in runs):,} curve points")
        return 0
    if args.against:
        theirs_name, theirs_tree = args.against, Path(args.against).resolve()
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_kernel_loops import kept_baseline_tree

        theirs_name, theirs_tree = args.baseline, kept_baseline_tree(args.baseline)
    mine = figures_of(REPO, args.games, args.seeds)
    theirs = figures_of(theirs_tree, args.games, args.seeds)
    differ = [m["run"] for m, t in zip(mine, theirs) if m != t]
    if len(mine) != len(theirs):
        differ.append(f"{len(mine)} runs here, {len(theirs)} there")
    points = sum(len(m["curve"]) for m in mine)
    print(f"{len(mine)} lab runs of {args.games:,} games, this tree against {theirs_name} ({points:,} curve points): "
          + ("every figure the same, to the last bit" if not differ else f"{len(differ)} differ: {', '.join(differ)}"))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
