"""`sticks-tui train`: train an AI headless and print its hats, speed and analysis.

A fresh AI by default; `--brain NAME` trains a stored brain and keeps the run as the app does
(`Store.keep_training`: the net change merged onto the brain as stored, its games and its curve).
Every figure is over the heaps trained (2..--sticks), and the output says so."""

from __future__ import annotations

import argparse
import json
import math
import sys

from sticks_tui.commands.common import int_in_range


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "train", help="train a fresh AI (or a stored brain) by AI-vs-AI games and print its hats and analysis",
        description="Train a fresh learning AI (or, with --brain, a stored brain) against another learning AI "
                    "(both seats, both learning) and print its hats (one row per heap), the time taken, games "
                    "per second and the analysis against the exact solution, over the heaps trained "
                    "(2 to --sticks).")
    from sticks_tui.learn.hats import RULE_LIMITS
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
    p.add_argument("--floor", choices=["each", "nonempty"], default=None,
                   help="each: a hat keeps one ball of every number (seeds 000/001); "
                        "nonempty: a hat only has to stay non-empty (seed 003); default each")
    p.add_argument("--start-balls", type=int_in_range(*RULE_LIMITS["start_balls"], "--start-balls"), default=None,
                   help="balls of each number in a fresh hat (default 1)")
    p.add_argument("--reward", type=int_in_range(*RULE_LIMITS["win_reward"], "--reward"), default=None,
                   help="balls added on a win (default 1)")
    p.add_argument("--penalty", type=int_in_range(*RULE_LIMITS["loss_penalty"], "--penalty"), default=None,
                   help="balls thrown away on a loss (default 1)")
    p.add_argument("--engine", choices=["kernel", "reference"], default="kernel",
                   help="kernel: compiled (fast); reference: the readable Python learner")
    p.add_argument("--brain", metavar="NAME", default=None,
                   help="train the stored brain NAME (made as the app makes it, with 100 hats, if there is "
                        "none) and keep the run as the app does: merged onto the brain as stored, with its "
                        "games and its learning curve. The rule options, if given, must be the brain's own")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(handler=run)


def _finite(x: float) -> float | None:
    return None if math.isnan(x) else x


RULE_OPTIONS = (("start_balls", "--start-balls"), ("win_reward", "--reward"), ("loss_penalty", "--penalty"),
                ("floor", "--floor"))


def _rule_given(args: argparse.Namespace, base):
    """The hat rule asked for: the options given, the rest from `base` (a HatRule)."""
    from dataclasses import replace

    given = {field: getattr(args, option[2:].replace("-", "_")) for field, option in RULE_OPTIONS}
    return replace(base, **{k: v for k, v in given.items() if v is not None})


def run(args: argparse.Namespace) -> int:
    from sticks_tui.learn.hats import HatRule, Hats
    from sticks_tui.learn.trainer import TrainingConfig, train

    if args.brain is not None:
        return run_brain(args)
    config = TrainingConfig(sticks=args.sticks, games=args.games, seed=args.seed, protocol=args.protocol,
                            engine=args.engine)
    result = train(config, Hats(config.rules, rule=_rule_given(args, HatRule())))  # a fresh brain, by its rule
    return report(args, result, result.brain)


def run_brain(args: argparse.Namespace) -> int:
    """Train the stored brain `args.brain` as the app trains it: a copy of the brain as loaded (made
    on first use as the app makes it), the run's net change merged onto the brain as stored."""
    from sticks_tui.commands.common import open_store
    from sticks_tui.learn.hats import HatRule
    from sticks_tui.learn.trainer import TrainingConfig, train
    from sticks_tui.store import InvalidName, StoreError
    from sticks_tui.store.brains import APP_BRAIN_SIZE

    store = open_store(args.data_dir, "train")
    if store is None:
        return 1
    with store:
        try:
            brain = store.load_or_create_brain(args.brain, APP_BRAIN_SIZE, rule=_rule_given(args, HatRule()))
        except InvalidName as exc:
            return _refuse(exc, 2)
        except StoreError as exc:
            return _refuse(exc, 1)
        rule = _rule_given(args, brain.rule)
        if rule != brain.rule:
            differs = ", ".join(option for field, option in RULE_OPTIONS
                                if getattr(rule, field) != getattr(brain.rule, field))
            return _refuse(f"The brain {args.brain!r} learns by its own rule ({_rule_words(brain.rule)}); "
                           f"{differs} would change it. Leave them out, or train a new brain. "
                           "Nothing was trained.", 2)
        if args.sticks > brain.size:
            return _refuse(f"The brain {args.brain!r} has {brain.size} hats: --sticks must be between 1 and "
                           f"{brain.size}, not {args.sticks:,}. Nothing was trained.", 2)
        config = TrainingConfig(sticks=args.sticks, games=args.games, seed=args.seed, protocol=args.protocol,
                                max_take=brain.max_take, engine=args.engine)
        start = brain.counts.copy()
        result = train(config, brain=brain.copy())
        if result.games_played != args.games:
            return report(args, result, result.brain)  # says so, keeps nothing
        try:
            stored = store.keep_training(args.brain, start, result)
            info = store.brain_info(args.brain)
        except StoreError as exc:
            return _refuse(f"{exc} The run was not kept.", 1)
    return report(args, result, stored, name=info.name if info is not None else args.brain,
                  games_trained=info.games_trained if info is not None else None)


def _refuse(message, status: int) -> int:
    print(f"sticks-tui train: {message}", file=sys.stderr)
    return status


def _rule_words(rule) -> str:
    return (f"start balls {rule.start_balls}, win reward {rule.win_reward}, loss penalty {rule.loss_penalty}, "
            f"floor {rule.floor}")


def report(args: argparse.Namespace, result, brain, *, name: str | None = None,
           games_trained: int | None = None) -> int:
    """Print the run and the figures of `brain` over the heaps trained (2..args.sticks)."""
    from sticks_tui.learn.analysis import PERFECT_PLAYER_WORDS, analyse

    rule = result.brain.rule
    if result.notice:
        print(f"sticks-tui train: {result.notice}", file=sys.stderr)
    if result.games_played != args.games:  # never report a run that silently played fewer games
        print(f"sticks-tui train: played {result.games_played:,} of {args.games:,} games")
        return 1
    analysis = analyse(brain.counts, brain.max_take, heap=args.sticks)
    if args.json:
        out = {
            "sticks": args.sticks,
            "scope": analysis.scope,
            "games": result.games_played,
            "seed": args.seed,
            "protocol": args.protocol,
            "engine": result.engine,
            "rule": {"floor": rule.floor, "start_balls": rule.start_balls, "win_reward": rule.win_reward,
                     "loss_penalty": rule.loss_penalty},
            "seconds": result.seconds,
            "games_per_second": result.games_per_second,
            "hats": brain.as_lists(),
            "agreement": analysis.agreement,
            "disagreeing_hats": list(analysis.disagreeing),
            "win_probability_vs_perfect": analysis.win_probability_vs_perfect,
            "win_probability_vs_perfect_moving_first": analysis.win_vs_perfect_first,
            "win_probability_vs_perfect_moving_second": analysis.win_vs_perfect_second,
            "perfect_player": PERFECT_PLAYER_WORDS,
            "win_probability_vs_random": analysis.win_probability_vs_random,
            "rule_discovered": analysis.rule.sentence,
            "rule_matches_solution": analysis.rule.matches_solution,
            "first_mover_win_rate": result.wins_first / result.games_played if result.games_played else None,
            "curve": [p.as_json() for p in result.curve],
        }
        if name is not None:
            out["brain"] = {"name": name, "hats": brain.size, "games_trained": games_trained}
        print(json.dumps(out))
        return 0
    print(f"{result.games_played:,} training games at {args.sticks} sticks ({args.protocol} protocol, "
          f"{result.engine} engine)" + (f", kept in the brain {name!r}" if name is not None else ""))
    print()
    print("hat | balls")
    print("\n".join(brain.table().splitlines()[: args.sticks]))
    if brain.size > args.sticks:
        print(f"(hats {args.sticks + 1}-{brain.size} not shown: this run did not train them)")
    print()
    print(f"time: {result.seconds:.3f} s, {result.games_per_second:,.0f} games/s")
    if name is not None and games_trained is not None:
        print(f"brain {name!r}: {brain.size} hats, {games_trained:,} games trained in all")
    print(f"figures over {analysis.scope} (a game of {args.sticks} sticks):")
    print(f"agreement with perfect play: {analysis.agreement:.1%} of winning hats"
          + (f" (wrong: {', '.join(map(str, analysis.disagreeing))})" if analysis.disagreeing else ""))
    print(f"chance to beat a perfect player from {args.sticks}: {analysis.win_vs_perfect_first:.1%} moving first, "
          f"{analysis.win_vs_perfect_second:.1%} moving second ({PERFECT_PLAYER_WORDS})")
    print(f"chance to beat a random player from {args.sticks}: {analysis.win_vs_random_first:.1%} moving first, "
          f"{analysis.win_vs_random_second:.1%} moving second")
    print(analysis.rule.sentence)
    print(analysis.rule.verdict)
    return 0
