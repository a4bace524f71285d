"""Every figure of many lab runs, this tree's against another tree's (say, main's), to the last bit: a change
to the lab's loop or curve for speed must leave the same games, counts, random stream, mastery figures and
curve points.

    python benchmarks/compare_lab_runs.py --against /tmp/mainref [--games 30000] [--seeds 3]
    python benchmarks/compare_lab_runs.py --dump [--games 30000] [--seeds 3]   # this tree's figures, as JSON lines

Each tree runs in its own process (`PYTHONPATH` set to the tree; numba caches its compiled code beside each
tree's sources). The runs: noughts, Hexapawn, sticks 30 and Nim, each with hats, shared hats (`table=one`), hats
against the random player and the best-at-random one, `q`, `qseat` and `mc`, and on noughts and sticks four
other hat rules (a draw's reward, the 'nonempty' floor, no penalty, a reward of 3); every seed from 0. A run's
figures: its wins, draws and losses, its first game unbeatable (first seat, second, both), whether that held
at the end, its first game right everywhere, every curve point (each figure as `float.hex`), and a digest of
the learner's final counts or values. Prints how many runs were compared and any that differ; exit 1 if any do.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys

GAMES = (("noughts", None), ("hexapawn", None), ("sticks", 30), ("nim", None))
LEARNERS = ("hats", "hats:table=one", "hats:vs=random", "hats:vs=best-at-random", "q", "qseat", "mc")
RULES = ("hats:draw=1", "hats:floor=nonempty", "hats:penalty=0", "hats:reward=3,table=one")


def cases(seeds: int):
    for game, size in GAMES:
        learners = LEARNERS + (RULES if game in ("noughts", "sticks") else ())
        for text in learners:
            for seed in range(seeds):
                yield game, size, text, seed


def dump(games: int, seeds: int) -> None:
    import numpy as np

    from sticks_tui.learn.lab import lab_game, parse_learner, run_learner

    for game, size, text, seed in cases(seeds):
        run = run_learner(parse_learner(text), lab_game(game, size), seed, games)
        a = run.state["a"]
        table = np.ascontiguousarray(a.counts if hasattr(a, "counts") else a)
        print(json.dumps({
            "run": f"{game}{'' if size is None else f' {size}'} {text} seed {seed}",
            "games": run.games, "results": list(run.results), "first_unbeatable": list(run.mastery),
            "held": list(run.held), "every_position": run.every_position,
            "curve": [[p.games, *(float(v).hex() for v in (p.agreement, p.win_first, p.win_second, p.keep_first,
                                                           p.keep_second))] for p in run.curve],
            "table": hashlib.sha256(table.tobytes()).hexdigest()[:16] + f" {table.dtype} {table.shape}",
        }), flush=True)


def figures(tree: str, games: int, seeds: int) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, os.path.join(tree, "benchmarks", "compare_lab_runs.py"), "--dump",
                          "--games", str(games), "--seeds", str(seeds)],
                         env=env, cwd=tree, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", help="the other tree (a checkout of main, say)")
    parser.add_argument("--dump", action="store_true", help="print this tree's figures, one JSON line a run")
    parser.add_argument("--games", type=int, default=30_000)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    if args.dump:
        dump(args.games, args.seeds)
        return 0
    if not args.against:
        parser.error("give --against TREE (or --dump)")
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    mine = figures(here, args.games, args.seeds)
    if not os.path.exists(os.path.join(args.against, "benchmarks", "compare_lab_runs.py")):
        parser.error(f"{args.against} has no benchmarks/compare_lab_runs.py: copy this file there first")
    theirs = figures(os.path.abspath(args.against), args.games, args.seeds)
    differ = [m["run"] for m, t in zip(mine, theirs) if m != t]
    if len(mine) != len(theirs):
        differ.append(f"{len(mine)} runs here, {len(theirs)} there")
    points = sum(len(m["curve"]) for m in mine)
    print(f"{len(mine)} lab runs of {args.games:,} games compared ({points:,} curve points): "
          + ("every figure the same, to the last bit" if not differ else f"{len(differ)} differ: {', '.join(differ)}"))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
