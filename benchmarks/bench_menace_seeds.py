"""MENACE's results on held-out seeds, the one counts learner against the MENACE code before it (issue 31).

    python benchmarks/bench_menace_seeds.py [--first-seed 10001] [--seeds 60] [--games 5000]
                                            [--baseline 4de1856] [--smoke]

For each seed, MENACE (X, first; incentives +3, +1, -1; an empty box resigns) is trained from fresh,
with Michie's start beads 4,3,2,1 and with 8,3,2,1, over --games games against the perfect player it
trains against (a perfect player choosing at random among its best squares) and against the random
player, as `sticks-tui train --game noughts` does (`learn.trainer.train`, the one counts loop). The
same runs are made by the code before the one learner (--baseline, taken from git into a temporary
folder: its `learn.menace_training.MenaceTrainer` on its own MENACE kernel), each tree in a process of
its own. Printed, for each tree: the share of seeds whose first box is empty at the end against the
perfect player (MENACE resigns every game from then on), and MENACE's wins against the random player
(the share of all games played, and the median seed's). Then how many runs left the same results,
seed by seed, in both trees (first box, wins, draws, losses).

The default block of seeds, 10001-10060, is held out: nothing was tuned on it. Issue 33 measured
seeds 101-160 with the code before (the first box emptied in 29 of 60 runs with 4,3,2,1 and 1 of 60
with 8,3,2,1): `--first-seed 101` measures them again. MENACE's default start beads are another
script's (bench_menace_beads.py). --smoke: 2 seeds of 100 games in this tree alone (no baseline,
whose kernel would compile): it proves the script works, its figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BASELINE = "4de1856"  # main before the one counts learner: MENACE's own kernel and trainer
BEADS = ((4, 3, 2, 1), (8, 3, 2, 1))
OPPONENTS = ("perfect", "random")

CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
first, seeds, games = map(int, sys.argv[2:5])
import sticks_tui.learn.trainer
assert sticks_tui.learn.trainer.__file__.startswith(sys.argv[1]), sticks_tui.learn.trainer.__file__
try:
    from sticks_tui.learn.menace_training import MenaceTrainer  # the code before the one learner
except ImportError:
    MenaceTrainer = None
from sticks_tui.learn import menace
out = []
for beads in json.loads(sys.argv[5]):
    for opponent in ("perfect", "random"):
        for seed in range(first, first + seeds):
            if MenaceTrainer is not None:
                brain = menace.MenaceBrain(menace.MenaceRule(beads=tuple(beads)))
                trainer = MenaceTrainer(brain, opponent, seed)
                trainer.play(games)
                results = trainer.results
            else:
                from sticks_tui.engine.noughts import NoughtsRules
                from sticks_tui.learn.trainer import TrainingConfig, train
                brain = menace.MenaceBrain(menace.menace_rule(beads=tuple(beads)))
                against = {"perfect": "best-at-random", "random": "random"}[opponent]
                run = train(TrainingConfig(game=NoughtsRules(), games=games, seed=seed, protocol="classic",
                                           opponent=against, seats="first", curve=False), brain)
                assert run.engine == "kernel", run.engine
                results = run.results
            out.append([list(beads), opponent, seed, int(brain.counts[0].sum()) == 0, *map(int, results)])
print(json.dumps(out))
"""


def runs_in(tree: Path, first: int, seeds: int, games: int) -> list:
    done = subprocess.run([sys.executable, "-c", CHILD, str(tree), str(first), str(seeds), str(games),
                           json.dumps(BEADS)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the runs in {tree} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def summary(runs: list, beads: tuple, seeds: int, games: int) -> tuple[str, str]:
    mine = [r for r in runs if tuple(r[0]) == beads]
    emptied = sum(r[3] for r in mine if r[1] == "perfect")
    wins = [r[4] / games for r in mine if r[1] == "random"]
    return f"{emptied}/{seeds}", f"{statistics.mean(wins):.1%} (median seed {statistics.median(wins):.1%})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first-seed", type=int, default=10001)
    parser.add_argument("--seeds", type=int, default=60)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--baseline", default=BASELINE, help=f"the git revision before (default {BASELINE})")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.seeds, args.games = 2, 100
    trees = {"this tree": REPO}
    with tempfile.TemporaryDirectory(prefix="bench-menace-") as tmp:
        if not args.smoke:
            from bench_kernel_loops import baseline_tree

            trees[f"before ({args.baseline})"] = baseline_tree(args.baseline, Path(tmp))
        runs = {name: runs_in(tree, args.first_seed, args.seeds, args.games) for name, tree in trees.items()}
    last = args.first_seed + args.seeds - 1
    print(f"# MENACE on seeds {args.first_seed}-{last} ({args.seeds} seeds), {args.games:,} games each; "
          "incentives +3, +1, -1; an empty box resigns")
    print(f"{'code':<18}{'beads':<10}{'first box empty vs perfect':>28}   wins vs random: share of games")
    for name in trees:
        for beads in BEADS:
            emptied, wins = summary(runs[name], beads, args.seeds, args.games)
            print(f"{name:<18}{','.join(map(str, beads)):<10}{emptied:>28}   {wins}")
    if not args.smoke:
        now, before = runs.values()
        alike = sum(a == b for a, b in zip(now, before))
        print(f"runs alike seed by seed in both (first box, wins, draws, losses): {alike}/{len(now)}")


if __name__ == "__main__":
    main()
