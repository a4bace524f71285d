"""Whom HER (Hexapawn's learner, Black's 19 boxes, the seeds' rule) trains against by default on the command line
(issue 32 item 6): for each opponent the trainer offers (a second learner playing White, learning too; the random
player; a perfect White choosing at random among its best moves), after N games, HER's exact chance to beat the
perfect White (the one worst for her, `learn.analysis.exact_chances`) and her agreement with perfect play, the
mean over seeds, and how many seeds master it (a chance above 99%). Trained always second by the one compiled loop.

    python benchmarks/bench_hexapawn_opponent.py [--seeds 10] [--games 200,1000,20000]

Measured 2026-11-28 (seeds 1-10): against the second learner 87% / 98% / 99.9% after 200 / 1,000 / 20,000 games,
the random player 69% / 94% / 99.7%, the perfect White 75% / 96.5% / 99.9% (docs/cli.md).
"""

from __future__ import annotations

import argparse
import statistics

from sticks_tui.engine.hexapawn import HexapawnRules
from sticks_tui.learn.analysis import agreement, exact_chances
from sticks_tui.learn.hats import Hats
from sticks_tui.learn.trainer import OPPONENTS, TrainingConfig, train

RULES = HexapawnRules()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--games", default="200,1000,20000")
    parser.add_argument("--smoke", action="store_true", help="a tiny run (1 seed, 20 games): the code path only")
    args = parser.parse_args()
    if args.smoke:
        args.seeds, args.games = 1, "20"
    print(f"{'opponent':16} {'games':>7} {'beats perfect White':>20} {'lowest':>7} {'agreement':>10} {'mastered':>9}")
    for opponent in OPPONENTS:
        for games in (int(g) for g in args.games.split(",")):
            wins, agree = [], []
            for seed in range(1, args.seeds + 1):
                run = train(TrainingConfig(game=RULES, games=games, seed=seed, protocol="classic", opponent=opponent,
                                           seats="second", curve=False), Hats(RULES, seat=1))
                wins.append(exact_chances(run.brain, "perfect", False)[0])
                agree.append(agreement(run.brain).agreement)
            print(f"{opponent:16} {games:>7,} {statistics.mean(wins):>20.1%} {min(wins):>7.1%} "
                  f"{statistics.mean(agree):>10.1%} {sum(w > 0.99 for w in wins):>6}/{args.seeds}")


if __name__ == "__main__":
    main()
