"""MENACE's start beads that survive the default run (issue 33 item 1): for each candidate start beads (by
MENACE's move number), the share of seeds whose first box empties against the perfect player over 5,000
games, so that MENACE resigns every game from then on. Michie's incentives (+3, +1, -1), an empty box
resigns, MENACE plays X (first); "the perfect player" is the one the app's run trains against, choosing at
random among its best squares (`learn.trainer`'s 'best-at-random'). Measured by the one compiled loop
(`learn.kernel.play_games`) through `learn.resigning.emptied_runs`, the same code the train dialog's warning
runs on its 20 trial seeds.

    python benchmarks/bench_menace_beads.py [--seeds 1000] [--first-seed 500001] [--games 5000] [--smoke]

The seeds (500001 on) are held out: no test uses them. The share's 95% interval is Wilson's.
It also times the dialog's trial (20 seeds of the run, `learn.resigning.TRIAL_SEEDS`) for the default beads and
Michie's, in CPU seconds. --smoke: 20 seeds, to prove the script works (its figures mean little).
"""

from __future__ import annotations

import argparse
import math
import time

from sticks_tui.engine.noughts import NoughtsRules
from sticks_tui.learn import compiled
from sticks_tui.learn.menace import DEFAULT_BEADS, MICHIE_BEADS, MenaceBrain, menace_rule
from sticks_tui.learn.resigning import TRIAL_SEEDS, emptied_runs

CANDIDATES = ((4, 3, 2, 1), (8, 3, 2, 1), (8, 4, 2, 1), (10, 4, 2, 1), (12, 3, 2, 1), (12, 4, 2, 1), (16, 4, 2, 1))
FIRST_SEED = 500_001
RULES = NoughtsRules()


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.seeds = 20
    compiled.kernel()
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    print(f"# MENACE's first box emptied against the perfect player: seeds {seeds[0]}-{seeds[-1]}, "
          f"{args.games:,} games each; incentives +3, +1, -1; an empty box resigns")
    print(f"{'start beads':14}{'first box emptied':>20}{'share':>9}{'95% interval':>18}{'CPU s':>8}")
    for beads in CANDIDATES:
        brain = MenaceBrain(menace_rule(beads=beads))
        began = time.process_time()
        found = emptied_runs(brain, RULES, "best-at-random", args.games, seeds)
        spent = time.process_time() - began
        low, high = wilson(found.runs, found.seeds)
        name = ",".join(map(str, beads)) + (" (default)" if beads == DEFAULT_BEADS else
                                            " (Michie)" if beads == MICHIE_BEADS else "")
        print(f"{name:22}{f'{found.runs}/{found.seeds}':>12}{found.share:>9.1%}"
              f"{f'{low:.1%}-{high:.1%}':>18}{spent:>8.2f}")
    print(f"\n# the dialog's trial: {len(TRIAL_SEEDS)} seeds of a {args.games:,}-game run against the perfect player")
    for beads in (DEFAULT_BEADS, MICHIE_BEADS):
        brain = MenaceBrain(menace_rule(beads=beads))
        emptied_runs(brain, RULES, "best-at-random", 10, TRIAL_SEEDS)  # the tables made once, as in the app
        began = time.process_time()
        found = emptied_runs(brain, RULES, "best-at-random", args.games, TRIAL_SEEDS)
        print(f"{','.join(map(str, beads)):14} {found.runs}/{found.seeds} emptied, "
              f"{time.process_time() - began:.3f} CPU s")


if __name__ == "__main__":
    main()
