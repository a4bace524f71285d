"""`sticks-tui train`: train a fresh AI headless and print its hats, speed and analysis."""

from __future__ import annotations

import argparse
import json
import math
import sys

from sticks_tui.commands.common import int_in_range


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "train", help="train a fresh AI by AI-vs-AI games and print its hats and analysis",
        description="Train a fresh learning AI against another learning AI (both seats, both learning) "
                    "and print its hats (one row per heap), the time taken, games per second and "
                    "the analysis against the exact solution.")
    from sticks_tui.learn.trainer import DEFAULT_PROTOCOL, MAX_GAMES, PROTOCOLS

    p.add_argument("--sticks", type=int_in_range(1, 1000, "--sticks"), default=20,
                   help="starting heap, and so the number of hats (default 20). The app and the seeds "
                        "play 10-100; the command line deliberately takes 1-1000 for experiments")
    p.add_argument("--games", type=int_in_range(0, MAX_GAMES, "--games"), default=100_000,
                   help="games to play (default 100,000; at most 10,000,000)")
    p.add_argument("--seed", type=int_in_range(0, 2**63 - 1, "--seed"), default=None,
                   help="seed for a repeatable run")
    p.add_argument("--protocol", choices=list(PROTOCOLS), default=DEFAULT_PROTOCOL,
                   help="; ".join(f"{k}: {v}" for k, v in PROTOCOLS.items()) + f" (default {DEFAULT_PROTOCOL})")
    p.add_argument("--floor", choices=["each", "nonempty"], default="each",
                   help="each: a hat keeps one ball of every number (seeds 000/001); "
                        "nonempty: a hat only has to stay non-empty (seed 003)")
    p.add_argument("--start-balls", type=int_in_range(1, 1000, "--start-balls"), default=1)
    p.add_argument("--reward", type=int_in_range(0, 1000, "--reward"), default=1,
                   help="balls added on a win (default 1)")
    p.add_argument("--penalty", type=int_in_range(0, 1000, "--penalty"), default=1,
                   help="balls thrown away on a loss (default 1)")
    p.add_argument("--engine", choices=["kernel", "reference"], default="kernel",
                   help="kernel: compiled (fast); reference: the readable Python learner")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(handler=run)


def _finite(x: float) -> float | None:
    return None if math.isnan(x) else x


def run(args: argparse.Namespace) -> int:
    from sticks_tui.learn.analysis import analyse
    from sticks_tui.learn.hats import HatRule
    from sticks_tui.learn.trainer import TrainingConfig, train

    rule = HatRule(start_balls=args.start_balls, win_reward=args.reward, loss_penalty=args.penalty,
                   floor=args.floor)
    config = TrainingConfig(sticks=args.sticks, games=args.games, seed=args.seed, protocol=args.protocol,
                            rule=rule, engine=args.engine)
    result = train(config)
    if result.notice:
        print(f"sticks-tui train: {result.notice}", file=sys.stderr)
    if result.games_played != args.games:  # never report a run that silently played fewer games
        print(f"sticks-tui train: played {result.games_played:,} of {args.games:,} games")
        return 1
    analysis = analyse(result.brain.counts, result.brain.max_take)
    if args.json:
        out = {
            "sticks": args.sticks,
            "games": result.games_played,
            "seed": args.seed,
            "protocol": args.protocol,
            "engine": result.engine,
            "rule": {"floor": rule.floor, "start_balls": rule.start_balls, "win_reward": rule.win_reward,
                     "loss_penalty": rule.loss_penalty},
            "seconds": result.seconds,
            "games_per_second": result.games_per_second,
            "hats": result.brain.as_lists(),
            "agreement": analysis.agreement,
            "disagreeing_hats": list(analysis.disagreeing),
            "win_probability_vs_perfect": analysis.win_probability_vs_perfect,
            "win_probability_vs_perfect_moving_first": analysis.win_vs_perfect_first,
            "win_probability_vs_perfect_moving_second": analysis.win_vs_perfect_second,
            "win_probability_vs_random": analysis.win_probability_vs_random,
            "rule_discovered": analysis.rule.sentence,
            "rule_matches_solution": analysis.rule.matches_solution,
            "first_mover_win_rate": result.wins_first / result.games_played if result.games_played else None,
            "curve": [p.as_json() for p in result.curve],
        }
        print(json.dumps(out))
        return 0
    print(f"{result.games_played:,} training games at {args.sticks} sticks ({args.protocol} protocol, "
          f"{result.engine} engine)")
    print()
    print("hat | balls")
    print(result.brain.table())
    print()
    print(f"time: {result.seconds:.3f} s, {result.games_per_second:,.0f} games/s")
    print(f"agreement with perfect play: {analysis.agreement:.1%} of winning hats"
          + (f" (wrong: {', '.join(map(str, analysis.disagreeing))})" if analysis.disagreeing else ""))
    print(f"chance to beat a perfect player from {args.sticks}: {analysis.win_vs_perfect_first:.1%} moving first, "
          f"{analysis.win_vs_perfect_second:.1%} moving second")
    print(f"chance to beat a random player from {args.sticks}: {analysis.win_vs_random_first:.1%} moving first, "
          f"{analysis.win_vs_random_second:.1%} moving second")
    print(analysis.rule.sentence)
    print(analysis.rule.verdict)
    return 0
