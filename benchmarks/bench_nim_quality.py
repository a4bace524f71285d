"""How well the Nim hat learner (piles up to 7, 7, 7) plays after 500,000, 1,000,000 and 2,000,000
self-play games, over a block of seeds: the figures behind docs/performance.md's claim about the Nim learner.

    python benchmarks/bench_nim_quality.py [--first-seed 10001] [--seeds 200] [--games 500000 1000000 2000000]
                                           [--json] [--smoke]

The default block, seeds 10001-10200, is held out: nothing in the code was tuned on it (the
regression tests and earlier measurements used seeds below 1,000). Every run is a fresh brain
trained for exactly that many games (`train(TrainingConfig(game=NimRules((7, 7, 7)), ...))`: the
default protocol, the kernel engine, as `sticks-tui nim train` runs it), so "after 1,000,000 games"
means what a user gets from one run of that length. For each run it looks at every winning
position (448 of them) and sorts each hat into:

  right       one ball is strictly the most likely, and it is a winning move
  tie-win     two or more balls tie at the top and every one of them is a winning move
              (the AI never plays a losing move there, but has no single preference)
  tie-mixed   a tie at the top between a winning and a losing move
  wrong       a losing move is strictly the most likely

"agreement" is the app's figure (a tie at the top is no preference, so it never counts as right);
"top wins" counts a tie as right when every move tied at the top wins (right + tie-win).
--smoke runs two seeds for 2,000 games: it proves the script works (CI runs it), its figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time


def classify(hats, solution) -> dict[str, int]:
    import numpy as np

    kinds = {"right": 0, "tie-win": 0, "tie-mixed": 0, "wrong": 0}
    for state in hats.states:
        wins = solution[state]
        if not wins:
            continue
        row = np.asarray(hats.hat(state))
        moves = hats.moves_of(state)
        top = [moves[j] for j in np.flatnonzero(row == row.max())]
        winning_top = sum(1 for m in top if m in wins)
        if len(top) == 1:
            kinds["right" if winning_top else "wrong"] += 1
        elif winning_top == len(top):
            kinds["tie-win"] += 1
        else:
            kinds["tie-mixed"] += 1
    return kinds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first-seed", type=int, default=10001, help="the block's first seed (default 10001)")
    parser.add_argument("--seeds", type=int, default=200, help="how many seeds from --first-seed (default 200)")
    parser.add_argument("--games", type=int, nargs="+", default=[500_000, 1_000_000, 2_000_000])
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works")
    args = parser.parse_args()
    if args.smoke:
        args.seeds, args.games = 2, [2_000]

    from sticks_tui.engine.nim import NimRules
    from sticks_tui.learn.analysis import agreement
    from sticks_tui.learn.trainer import TrainingConfig, train
    from sticks_tui.solve.nim import winning_moves

    game = NimRules((7, 7, 7))
    solution = {state: frozenset(winning_moves(state)) for state in game.positions()}
    train(TrainingConfig(game=game, games=10, seed=0))  # compile or load the kernel once
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    figures: dict = {"seeds": [seeds[0], seeds[-1]], "runs": {}}
    for games in args.games:
        t0 = time.perf_counter()
        rows = []
        for seed in seeds:
            result = train(TrainingConfig(game=game, games=games, seed=seed))
            assert result.games_played == games and result.engine == "kernel", result.notice
            kinds = classify(result.brain, solution)
            share = agreement(result.brain).agreement
            total = sum(kinds.values())
            assert abs(share - kinds["right"] / total) < 1e-12, "the classes must add up to the app's figure"
            rows.append({"seed": seed, "agreement": share, **kinds})
        n = len(rows)
        failed = [r for r in rows if r["agreement"] < 1.0]
        agreements = [r["agreement"] for r in rows]
        figures["runs"][games] = {
            "seconds": time.perf_counter() - t0,
            "winning_positions": sum(rows[0][k] for k in ("right", "tie-win", "tie-mixed", "wrong")),
            "seeds_at_100": n - len(failed),
            "share_at_100": (n - len(failed)) / n,
            "agreement_min": min(agreements),
            "agreement_median": statistics.median(agreements),
            "failed_seeds": len(failed),
            "failed_only_by_winning_ties": sum(1 for r in failed if r["wrong"] == 0 and r["tie-mixed"] == 0),
            "failed_with_a_wrong_move_on_top": sum(1 for r in failed if r["wrong"] > 0),
            "failed_with_a_mixed_tie": sum(1 for r in failed if r["tie-mixed"] > 0),
            "hats_tie_win_total": sum(r["tie-win"] for r in rows),
            "hats_tie_mixed_total": sum(r["tie-mixed"] for r in rows),
            "hats_wrong_total": sum(r["wrong"] for r in rows),
            "share_top_always_wins": sum(1 for r in rows if r["wrong"] == 0 and r["tie-mixed"] == 0) / n,
            "per_seed": rows,
        }

    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"Nim hat learner, piles up to (7, 7, 7), {figures['runs'][args.games[0]]['winning_positions']} "
          f"winning positions; seeds {seeds[0]}-{seeds[-1]} ({len(seeds)} seeds), a fresh brain per run"
          + (" (--smoke: the figures mean nothing)" if args.smoke else ""))
    for games, f in figures["runs"].items():
        print(f"after {games:>9,} games ({f['seconds']:.1f} s for all seeds):")
        print(f"  every winning position right (single top ball wins): {f['seeds_at_100']}/{len(seeds)} seeds "
              f"({f['share_at_100']:.0%}); agreement min {f['agreement_min']:.2%}, median {f['agreement_median']:.2%}")
        print(f"  of the {f['failed_seeds']} seeds below 100%: {f['failed_only_by_winning_ties']} only by ties "
              f"between winning moves, {f['failed_with_a_wrong_move_on_top']} with a losing move strictly on top, "
              f"{f['failed_with_a_mixed_tie']} with a winning and a losing move tied on top")
        print(f"  hats over all seeds: {f['hats_tie_win_total']} winning-move ties, {f['hats_tie_mixed_total']} "
              f"mixed ties, {f['hats_wrong_total']} losing moves on top")
        print(f"  the top move always wins (ties between winning moves allowed): "
              f"{f['share_top_always_wins']:.0%} of seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
