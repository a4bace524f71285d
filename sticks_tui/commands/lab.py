"""`sticks-tui lab`: race learners and incentives on one game over many seeds, and print when each
learned (games to mastery, exact from the solver) and its learning curve (issue 20).

    sticks-tui lab --game sticks --size 100 --learner hats:reward=1,penalty=1 --learner q:alpha=1,epsilon=0.3
                   [--seeds 20] [--cap 1000000] [--preset NAME] [--json]

Every bad value is one line on stderr naming the valid choices, and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers) -> None:
    from sticks_tui.learn.lab import (DEFAULT_CAP, DEFAULT_LEARNERS, DEFAULT_SEEDS, GAMES, LEARNER_WORDS, LEARNERS,
                                      MAX_CAP, MAX_LEARNERS, MAX_SEEDS, PRESETS, PROTOCOLS, SIZE_WORDS)

    settings = "; ".join(f"{name} ({LEARNER_WORDS[name]}): {', '.join(table)}" for name, table in LEARNERS.items())
    p = subparsers.add_parser(
        "lab", help="race learners and incentives on one game over many seeds: games to mastery and curves",
        description="Train each learner from fresh on one game, once per seed, and report exactly (from the solver) "
                    "the first game after which its greedy choice is right at every position it can face where "
                    "the mover can force a win (or hold a draw), and its learning curve: agreement, and the chance "
                    "not to lose against the perfect player worst for it.",
        epilog=f"Learners and their settings: {settings}. Presets: "
               + "; ".join(f"{k}: {p.title}" for k, p in PRESETS.items()) + ".")
    p.add_argument("--game", default="sticks", help=f"one of {', '.join(GAMES)} (default sticks)")
    p.add_argument("--size", default=None,
                   help="; ".join(f"{g}: {w}" for g, w in SIZE_WORDS.items()) + " (default 100 sticks, Nim 7)")
    p.add_argument("--learner", action="append", default=None, metavar="NAME[:KEY=VALUE,...]",
                   help=f"a learner to race (up to {MAX_LEARNERS}); default: {' '.join(DEFAULT_LEARNERS)}")
    p.add_argument("--preset", default=None, help=f"start from a preset: {', '.join(PRESETS)}")
    p.add_argument("--seeds", default=str(DEFAULT_SEEDS), help=f"runs per learner, 1 to {MAX_SEEDS} (default 20)")
    p.add_argument("--first-seed", default="0", help="the first seed (seeds are consecutive; default 0)")
    p.add_argument("--cap", default=str(DEFAULT_CAP),
                   help=f"games per run, 1 to {MAX_CAP:,} (default {DEFAULT_CAP:,})")
    p.add_argument("--protocol", default=None,
                   help=f"{' or '.join(PROTOCOLS)}: games start anywhere or at the start (default: explore for "
                        "sticks and Nim, classic for noughts)")
    p.add_argument("--workers", default=None, help="processes (default: 2, or 1 on one core)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.set_defaults(handler=run)


def _whole(text, what: str, low: int, high: int) -> int:
    from sticks_tui.learn.lab import LabError

    try:
        value = int(str(text).replace("_", "").replace(",", ""))
    except ValueError:
        raise LabError(f"{what} is a whole number from {low:,} to {high:,}, not {text!r}") from None
    if not low <= value <= high:
        raise LabError(f"{what} is a whole number from {low:,} to {high:,}, not {value:,}")
    return value


def config_from(args: argparse.Namespace):
    """The lab asked for; raises LabError with one line naming the valid choices."""
    from sticks_tui.learn.lab import (DEFAULT_LEARNERS, GAMES, MAX_CAP, MAX_SEEDS, PRESETS, SIZE_RANGE, LabConfig,
                                      LabError, parse_learner)

    game = str(args.game).strip().lower()
    if game not in GAMES:
        raise LabError(f"there is no game {args.game!r}: choose {', '.join(GAMES)}")
    size = None
    if args.size is not None:
        low, high = SIZE_RANGE[game]
        size = _whole(args.size, f"for {game} --size", low, high)
    texts = list(args.learner or [])
    if args.preset is not None:
        if args.preset not in PRESETS:
            raise LabError(f"there is no preset {args.preset!r}: choose {', '.join(PRESETS)}")
        texts = list(PRESETS[args.preset].learners) + texts
    learners = tuple(parse_learner(t) for t in (texts or DEFAULT_LEARNERS))
    seeds = _whole(args.seeds, "--seeds", 1, MAX_SEEDS)
    cap = _whole(args.cap, "--cap", 1, MAX_CAP)
    first = _whole(args.first_seed, "--first-seed", 0, 2**62)
    workers = None if args.workers is None else _whole(args.workers, "--workers", 1, 64)
    return LabConfig(game, size, learners, seeds, cap, args.protocol, first, workers)


def _games(n: int | None) -> str:
    return "never" if n is None else f"{n:,}"


def table_lines(result) -> list[str]:
    """The lab as a text table: one row per learner, in the order given."""
    from sticks_tui.learn.lab import lab_game

    c = result.config
    g = lab_game(c.game, c.size, c.protocol)
    vs = "not losing" if g.has_draws else "beating"
    label = max(12, *(len(r.spec.text) for r in result.learners))
    lines = [f"games to mastery over {c.seeds} seeds (median / 90th percentile by rank; never: seeds not there "
             f"within {c.cap:,} games), both seats, then moving first and second:",
             f"{'learner':<{label}}  {'median':>9} {'p90':>9} {'never':>5}  {'1st med':>9} {'2nd med':>9}  "
             f"{'agree':>6} {vs + ' perfect':>16}"]
    for r in result.learners:
        m, m1, m2 = r.mastery(2), r.mastery(0), r.mastery(1)
        last = r.curve()[-1]
        lines.append(f"{r.spec.text:<{label}}  {_games(m.median):>9} {_games(m.p90):>9} {m.never:>5}  "
                     f"{_games(m1.median):>9} {_games(m2.median):>9}  {last['agreement']['median']:>6.1%} "
                     f"{last['vs_perfect']['median']:>16.1%}")
    return lines


def run(args: argparse.Namespace) -> int:
    from sticks_tui.learn.lab import PRESETS, LabError, lab_game, run_lab

    try:
        config = config_from(args)
        game = lab_game(config.game, config.size, config.protocol)
    except LabError as exc:
        print(f"sticks-tui lab: {exc}.", file=sys.stderr)
        return 2
    tty = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if tty:
            print(f"\r{done}/{total} runs", end="" if done < total else "\n", file=sys.stderr, flush=True)

    result = run_lab(config, progress)
    if args.json:
        out = result.as_json()
        if args.preset is not None:
            out["preset"] = {"key": args.preset, "title": PRESETS[args.preset].title,
                             "look_for": PRESETS[args.preset].look_for}
        print(json.dumps(out))
        return 0
    size = config.size if config.size is not None else {"sticks": 100, "nim": 7, "noughts": 3}[config.game]
    what = {"sticks": f"sticks, heap {size}", "nim": f"Nim, piles up to {size}, {size}, {size}",
            "noughts": "noughts and crosses"}[config.game]
    print(f"Lab: {what} ({game.protocol} protocol), {len(config.learners)} learners x {config.seeds} seeds, "
          f"cap {config.cap:,} games a run; {result.seconds:.1f} s on {result.workers} "
          f"process{'es' if result.workers != 1 else ''}.")
    if args.preset is not None:
        print(f"Preset: {PRESETS[args.preset].title}. {PRESETS[args.preset].look_for}")
    print("\n".join(table_lines(result)))
    return 0
