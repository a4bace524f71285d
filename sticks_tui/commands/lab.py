"""`sticks-tui lab`: race learners and incentives on one game over many seeds, and print when each
learned (games to mastery, exact from the solver) and its learning curve (issue 20).

    sticks-tui lab --game sticks --size 100 --learner hats:reward=1,penalty=1 --learner q:alpha=1,epsilon=0.3
                   [--seeds 20] [--cap 1000000] [--preset NAME] [--json] [--no-keep]
    sticks-tui lab --list [--json]          the labs kept in the database, newest first
    sticks-tui lab --show ID [--json]       a kept lab's table again (its JSON: as when it ran)

A finished lab is kept in the database (`store/labs.py`; `sticks-tui export lab --id ID` writes it as CSV
or JSON). Every bad value is one line on stderr naming the valid choices, and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from sticks_tui.commands.common import int_in_range, open_store

#: The options that set up a lab to run (refused beside --list and --show, which run none).
RUN_OPTIONS = ("game", "size", "learner", "preset", "seeds", "first_seed", "cap", "protocol", "workers", "no_keep")


def register(subparsers) -> None:
    from sticks_tui.learn.lab import (DEFAULT_CAPS, DEFAULT_LEARNERS, DEFAULT_SEEDS, LEARNER_WORDS, LEARNERS, MAX_CAP,
                                      MAX_LEARNERS, MAX_SEEDS, PRESETS, PROTOCOLS, games, sized, size_words)

    settings = "; ".join(f"{name} ({LEARNER_WORDS[name]}): {', '.join(table) or 'no settings'}"
                         for name, table in LEARNERS.items())
    caps = (f"{DEFAULT_CAPS['explore']:,} where games start anywhere (sticks, Nim), {DEFAULT_CAPS['classic']:,} "
            "where they start at the start (noughts); other games as their entry says")
    p = subparsers.add_parser(
        "lab", help="race learners and incentives on one game over many seeds: games to mastery and curves",
        description="Train each learner from fresh on one game, once per seed, and report exactly (from the solver) "
                    "the first game after which it has mastered the game: its greedy play (its likeliest move, "
                    "every tie counted; the hats play by drawing, so this is mastery of their likeliest move) never "
                    "loses a position it can win, nor one where it can hold a draw, against any opponent, from "
                    "every start the protocol uses, moving first and second; whether that still holds at the end "
                    "of the run (held); whether each game teaches it from one seat or both; and its learning curve: "
                    "agreement at every position, and the chance not to lose against the perfect player worst "
                    "for it.",
        epilog=f"Learners and their settings: {settings}. Presets: "
               + "; ".join(f"{k}: {p.title}" for k, p in PRESETS.items()) + ".")
    p.add_argument("--game", default="sticks", help=f"one of {', '.join(games())} (default sticks)")
    p.add_argument("--size", default=None,
                   help="; ".join(f"{g}: {size_words(g)}" for g in sized())
                   + " (default 20 sticks, Nim 7; other games have no size)")
    p.add_argument("--learner", action="append", default=None, metavar="NAME[:KEY=VALUE,...]",
                   help=f"a learner to race (up to {MAX_LEARNERS}); default: {' '.join(DEFAULT_LEARNERS)}")
    p.add_argument("--preset", default=None, help=f"start from a preset: {', '.join(PRESETS)}")
    p.add_argument("--seeds", default=str(DEFAULT_SEEDS), help=f"runs per learner, 1 to {MAX_SEEDS} (default 20)")
    p.add_argument("--first-seed", default="0", help="the first seed (seeds are consecutive; default 0)")
    p.add_argument("--cap", default=None, help=f"games per run, 1 to {MAX_CAP:,} (default {caps})")
    p.add_argument("--protocol", default=None,
                   help=f"{' or '.join(PROTOCOLS)}: games start anywhere or at the start (default: explore for "
                        "sticks and Nim, classic for noughts; other games as their entry says)")
    p.add_argument("--workers", default=None, help="threads running the runs (default: 2, or 1 on one core)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--no-keep", action="store_true", help="do not keep the finished lab in the database")
    kept = p.add_mutually_exclusive_group()
    kept.add_argument("--list", action="store_true", help="list the labs kept in the database (newest first)")
    kept.add_argument("--show", type=int_in_range(1, 2**63 - 1, "--show"), default=None, metavar="ID",
                      help="show a kept lab again (its id as in --list)")
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
    from sticks_tui.learn.lab import (DEFAULT_LEARNERS, MAX_CAP, MAX_SEEDS, PRESETS, LabConfig, LabError, games,
                                      parse_learner, size_range)

    game = str(args.game).strip().lower()
    if game not in games():
        raise LabError(f"there is no game {args.game!r}: choose {', '.join(games())}")
    size = None
    if args.size is not None:
        if size_range(game) is None:
            raise LabError(f"{game} has no size: leave out --size")
        low, high = size_range(game)
        size = _whole(args.size, f"for {game} --size", low, high)
    texts = list(args.learner or [])
    if args.preset is not None:
        if args.preset not in PRESETS:
            raise LabError(f"there is no preset {args.preset!r}: choose {', '.join(PRESETS)}")
        texts = list(PRESETS[args.preset].learners) + texts
    learners = tuple(parse_learner(t) for t in (texts or DEFAULT_LEARNERS))
    seeds = _whole(args.seeds, "--seeds", 1, MAX_SEEDS)
    cap = None if args.cap is None else _whole(args.cap, "--cap", 1, MAX_CAP)
    first = _whole(args.first_seed, "--first-seed", 0, 2**62)
    workers = None if args.workers is None else _whole(args.workers, "--workers", 1, 64)
    return LabConfig(game, size, learners, seeds, cap, args.protocol, first, workers)


def _games(n: int | None) -> str:
    return "never" if n is None else f"{n:,}"


def table_lines(result) -> list[str]:
    """The lab as a text table: one row per learner, in the order given."""
    return doc_table_lines(result.as_json())


def doc_table_lines(doc: dict) -> list[str]:
    """The table of a lab's document (`LabResult.as_json()`, as run or as kept; a lab kept before issue 35
    has no held column and reads '-' there)."""
    vs = "not losing" if doc["vs_perfect_means"] == "chance not to lose" else "beating"
    learners = doc["learners"]
    label = max(12, *(len(r["spec"]) for r in learners))
    seeds = doc["seeds"]
    lines = [f"games to mastery over {seeds} seeds: the first game after which its greedy play (its likeliest "
             f"move; every tie counts) loses no position it can win or draw, against any opponent, from either "
             f"seat (median / 90th percentile by rank; never: seeds not there within {doc['cap']:,} games); "
             f"1st/2nd: moving first/second only; held: seeds still unbeatable at the end of the run:",
             f"{'learner':<{label}}  {'learns from':<11}  {'median':>9} {'p90':>9} {'never':>5}  {'1st med':>9} "
             f"{'2nd med':>9}  {'held':>5}  {'agree':>6} {vs + ' perfect':>16}"]
    for r in learners:
        m, seats = r["games_to_mastery"], r["games_to_mastery_by_seat"]
        last = r["curve"][-1]
        held = f"{r['held']}/{len(r.get('seeds', [])) or seeds}" if "held" in r else "-"
        lines.append(f"{r['spec']:<{label}}  {r.get('learns_from', '-'):<11}  {_games(m['median']):>9} "
                     f"{_games(m['p90']):>9} {m['never']:>5}  {_games(seats['first']['median']):>9} "
                     f"{_games(seats['second']['median']):>9}  {held:>5}  "
                     f"{last['agreement']['median']:>6.1%} {last['vs_perfect']['median']:>16.1%}")
    return lines


def lab_game_words(name: str, size) -> str:
    """What a lab raced on, in the game's words: its title, and where its games start when it has sizes
    ('the Game of Sticks from 100 sticks', 'three-pile Nim from 7 nickels, 7 dimes, 7 quarters')."""
    from sticks_tui.engine import registry
    from sticks_tui.learn.lab import make_rules

    try:
        game = registry.entry(name)
        rules = make_rules(name, size)
    except ValueError:  # a lab kept by a sticks-tui that knew a game this one does not
        return f"{name} {size}"
    return game.title + (f" from {rules.position_text(rules.start_positions()[0])}" if game.options else "")


def lab_text(doc: dict) -> list[str]:
    """What `sticks-tui lab` prints for a lab: a line of what it raced and how long it took, the preset's
    sentence if it came from one, and the table."""
    what = lab_game_words(doc["game"], doc["size"])
    workers = doc.get("workers", 1)
    lines = [f"Lab: {what} ({doc['protocol']} protocol), {len(doc['learners'])} learners x {doc['seeds']} seeds, "
             f"cap {doc['cap']:,} games a run; {doc['seconds']:.1f} s, {workers} run{'s' if workers != 1 else ''} "
             f"at a time."]
    preset = doc.get("preset")
    if preset:
        lines.append(f"Preset: {preset['title']}. {preset['look_for']}")
    return lines + doc_table_lines(doc)


def _asked_to_run(args: argparse.Namespace) -> list[str]:
    """The run options given beside --list or --show (which run nothing)."""
    defaults = build_defaults()
    return ["--" + name.replace("_", "-") for name in RUN_OPTIONS
            if getattr(args, name, None) != defaults.get(name)]


def build_defaults() -> dict:
    """Every option of `sticks-tui lab` at its default, as the parser gives them."""
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return vars(parser.parse_args(["lab"]))


def run_kept(args: argparse.Namespace) -> int:
    """--list and --show: the labs kept in the database."""
    from sticks_tui.store import StoreError

    extra = _asked_to_run(args)
    if extra:
        print(f"sticks-tui lab: {'--list' if args.list else '--show'} runs no lab: leave out {', '.join(extra)}.",
              file=sys.stderr)
        return 2
    store = open_store(args.data_dir, "lab")
    if store is None:
        return 1
    with store:
        try:
            if args.list:
                labs = store.list_labs()
            else:
                kept = store.lab(args.show)
        except StoreError as exc:
            print(f"sticks-tui lab: {exc}", file=sys.stderr)
            return 1
    if args.list:
        if args.json:
            print(json.dumps([{"id": k.id, "finished_at": k.finished_at.isoformat(), "game": k.game, "size": k.size,
                               "protocol": k.protocol, "learners": list(k.learners), "seeds": k.seeds,
                               "first_seed": k.first_seed, "cap": k.cap, "seconds": k.seconds} for k in labs]))
            return 0
        if not labs:
            print("No lab is kept yet: run one with `sticks-tui lab`.")
            return 0
        learners = max(8, *(len(" ".join(k.learners)) for k in labs))
        print(f"{'Lab':>4}  {'Finished':<16}  {'Game':<11}  {'Learners':<{learners}}  {'Seeds':>5}  {'Cap':>10}  "
              f"{'Seconds':>8}")
        for k in labs:
            when = k.finished_at.astimezone().strftime("%Y-%m-%d %H:%M")
            print(f"{k.id:>4}  {when:<16}  {k.game + ' ' + str(k.size):<11}  {' '.join(k.learners):<{learners}}  "
                  f"{k.seeds:>5}  {k.cap:>10,}  {k.seconds:>8.1f}")
        return 0
    if kept is None:
        print(f"sticks-tui lab: there is no lab with id {args.show}; `sticks-tui lab --list` lists them.",
              file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"id": kept.id, "finished_at": kept.finished_at.isoformat(), **kept.doc}))
        return 0
    when = kept.finished_at.astimezone().strftime("%Y-%m-%d %H:%M")
    print(f"Lab {kept.id}, finished {when}.")
    print("\n".join(lab_text(kept.doc)))
    return 0


def run(args: argparse.Namespace) -> int:
    from sticks_tui.learn.lab import PRESETS, LabError, lab_game, run_lab
    from sticks_tui.store import StoreError

    if args.list or args.show is not None:
        return run_kept(args)
    try:
        config = config_from(args)
        lab_game(config.game, config.size, config.protocol)
    except LabError as exc:
        print(f"sticks-tui lab: {exc}.", file=sys.stderr)
        return 2
    store = None
    if not args.no_keep:  # a store that cannot be used is said before the lab runs, not after
        store = open_store(args.data_dir, "lab")
        if store is None:
            return 1
    tty = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if tty:
            print(f"\r{done}/{total} runs", end="" if done < total else "\n", file=sys.stderr, flush=True)

    try:
        result = run_lab(config, progress)
        out = result.as_json()
        if args.preset is not None:
            out["preset"] = {"key": args.preset, "title": PRESETS[args.preset].title,
                             "look_for": PRESETS[args.preset].look_for}
        kept, problem = None, None
        if store is not None:
            try:
                kept = store.save_lab(out)
            except StoreError as exc:
                problem = str(exc)
    finally:
        if store is not None:
            store.close()
    if args.json:
        print(json.dumps({**out, "lab_id": None if kept is None else kept.id}))
    else:
        print("\n".join(lab_text(out)))
        if kept is not None:
            print(f"Kept as lab {kept.id}: `sticks-tui lab --show {kept.id}` shows it again, "
                  f"`sticks-tui export lab --id {kept.id}` writes it as CSV or JSON.")
    if problem is not None:
        print(f"sticks-tui lab: the lab was not kept: {problem}", file=sys.stderr)
        return 1
    return 0
