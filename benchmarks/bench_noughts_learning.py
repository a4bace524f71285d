"""MENACE's learning, reproduced over many seeds (issue 18): against the perfect and the random player,
for Michie's start beads (4,3,2,1) and for 8,3,2,1, with Michie's incentives (+3, +1, -1) and an
empty box resigning. "perfect" here is the perfect player MENACE trains against: it chooses at random
among its best squares (the figures of the app against "the perfect player" are against the one worst
for MENACE; both are the learner's exact chances, `learn.analysis.exact_chances`).

    python benchmarks/bench_noughts_learning.py [--seeds 20] [--games 5000] [--at 3000] [--smoke]

"Learns never to lose" is exact, not sampled: after a game MENACE lost, its exact chance of losing one
more game against that opponent is computed from its beads (`learn.kernel.chances`); the first game
after which it is 0 is when it learned. That is for good: with no loss, no bead is ever taken out, and
only a loss can make the chance 0 (a bead count reaching 0). "Resigned for good" counts seeds whose
first box is empty at the end: MENACE resigns every game from then on (Michie's rule). The last
column checks the first: the losses in all the games played after a seed learned (it must be 0).
Against the random player it also prints the exact chances of a win, a draw and a loss in one more
game after --at games (median over the seeds), and the shares of the --at games played.
--smoke plays a few hundred games on 2 seeds: it proves the script works, its figures mean nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from sticks_tui.engine.noughts import EMPTY_BOARD, NoughtsRules
from sticks_tui.learn import compiled
from sticks_tui.learn.menace import MenaceBrain, menace_rule
from sticks_tui.learn.rng import XorShift64Star
from sticks_tui.learn.tables import game_tables, lay_out

FIRST_SEED = 10001
RULES = NoughtsRules()


def one_seed(rule, opponent: str, seed: int, games: int, at: int) -> dict:
    """MENACE (X, first) trained by the one compiled loop against `opponent` ('perfect': a perfect player
    choosing at random among its best squares, as MENACE was always trained; 'random'), one game at a time
    until it has learned never to lose to it, then in one batch."""
    k = compiled.kernel()
    tables = game_tables(RULES)
    brain = MenaceBrain(rule)
    match = lay_out(tables, brain, None, (EMPTY_BOARD,), (0,))
    code = k.BEST_AT_RANDOM if opponent == "perfect" else k.RANDOM
    run = k.RunState.new(XorShift64Star(seed).state, match)
    stats = run.stats
    compiled_rule = k.compile_rule(rule)
    none, watch = np.zeros((1, 1), dtype=np.int64), k.Watch.none()
    start = tables.index[EMPTY_BOARD]

    def play(n: int, done: int) -> None:
        k.play_games(brain.counts, none, match, compiled_rule, compiled_rule, code, k.A_FIRST, n, done, run, False,
                     watch)

    def chances() -> tuple[float, float, float]:
        pref = np.zeros((match.rows_a, match.width))
        pref[:, : brain.counts.shape[1]] = brain.counts
        return k.chances(pref.ravel(), k.PROPORTIONAL, match, tables.order, start, True, code, rule.empty_code)

    learned = None
    losses_then = 0
    shares = chances_at = None
    g = 0
    while g < games:
        if learned is None:
            lost = int(stats[2])
            play(1, g)
            g += 1
            if int(stats[2]) > lost and chances()[2] == 0.0:
                learned = g
                losses_then = int(stats[2])
        else:
            step = (at - g) if g < at else (games - g)
            play(step, g)
            g += step
        if g == at:
            shares = stats[:3] / at
            chances_at = chances()
    return {"learned": learned, "resigned": int(brain.counts[0].sum()) == 0, "shares": shares, "chances": chances_at,
            "losses_after": int(stats[2]) - losses_then if learned is not None else 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--at", type=int, default=3000, help="games after which the shares are taken")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.seeds, args.games, args.at = 2, 300, 200
    seeds = range(FIRST_SEED, FIRST_SEED + args.seeds)
    compiled.kernel()
    began = time.perf_counter()
    print(f"# MENACE learning: {args.seeds} seeds ({seeds[0]}-{seeds[-1]}), {args.games:,} games each; "
          "incentives +3, +1, -1; an empty box resigns")
    print(f"{'beads':10}{'opponent':10}{'never loses':>13}{'median games':>14}{'range':>14}{'resigned for good':>19}"
          f"{'losses after learning':>23}")
    random_rows = []
    for beads in ((4, 3, 2, 1), (8, 3, 2, 1)):
        rule = menace_rule(beads=beads)
        for opponent in ("perfect", "random"):
            runs = [one_seed(rule, opponent, s, args.games, args.at) for s in seeds]
            learned = sorted(r["learned"] for r in runs if r["learned"] is not None)
            median = f"{statistics.median(learned):,.0f}" if learned else "-"
            span = f"{learned[0]:,}-{learned[-1]:,}" if learned else "-"
            resigned = sum(r["resigned"] for r in runs)
            after = sum(r["losses_after"] for r in runs)  # a check: learning never to lose is for good
            print(f"{','.join(map(str, beads)):10}{opponent:10}{f'{len(learned)}/{args.seeds}':>13}{median:>14}"
                  f"{span:>14}{f'{resigned}/{args.seeds}':>19}{after:>23}")
            if opponent == "random":
                random_rows.append((beads, runs))
    print(f"\n# against the random player after {args.at:,} games (median over the seeds)")
    print(f"{'beads':10}{'next game: win':>15}{'draw':>8}{'loss':>8}{'   games 1-' + format(args.at, ','):>17}"
          f"{'win':>7}{'draw':>8}{'loss':>8}")
    for beads, runs in random_rows:
        exact = [statistics.median(r["chances"][k] for r in runs) for k in range(3)]
        played = [statistics.median(float(r["shares"][k]) for r in runs) for k in range(3)]
        print(f"{','.join(map(str, beads)):10}{exact[0]:>15.1%}{exact[1]:>8.1%}{exact[2]:>8.1%}{'':>17}"
              f"{played[0]:>7.1%}{played[1]:>8.1%}{played[2]:>8.1%}")
    print(f"\n({time.perf_counter() - began:.1f} s)")


if __name__ == "__main__":
    main()
