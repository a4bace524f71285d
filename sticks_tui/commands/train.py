"""`sticks-tui train --game G`: train an AI headless on any game and print its brain, speed and analysis.

One trainer for every game of the registry, each taking the game's own size options from its entry
(`--sticks N --max-take K`, `--piles A,B,C`, ...). What the learning AI is follows from the game's
entry too: hats (one hat per position, `learn.trainer`) or MENACE's matchboxes (`learn.menace`), each with
its own options. A game with the sticks analysis (`chances_vs_perfect`) reports it; any other game of
hats reports its agreement with perfect play and lists its boxes. `train --sticks N` is `train --game
sticks --sticks N`, and `nim train` / `noughts train` are thin aliases of this command.

A game whose learning AI keeps one player's containers (MENACE's boxes for X or O, HER's for Black or White:
the entry's `learner_seat`) trains that seat's brain, the entry's seat by default, `--seat` the other (by the
game's own names, or first/second); a game whose AI keeps one brain for both seats refuses `--seat`.

A fresh AI by default; `--brain NAME` trains a stored brain (on its own seat) and keeps the run as
the app does (`Store.keep_training`: the net change merged onto the brain as stored, its games and its
curve). Every figure says what it is about (for sticks: the heaps trained, 2..--sticks)."""

from __future__ import annotations

import argparse
import json
import math
import secrets
import sys

from sticks_tui.commands.common import add_game_arguments, game_options, int_in_range, int_list

#: A brain listing in text shows its boxes one a line up to this many (all of them with --json).
TEXT_BOXES = 100

#: The options of each kind of learning AI, by its entry's `brains`: (dest, flag).
HATS_OPTIONS = (("protocol", "--protocol"), ("floor", "--floor"), ("start_balls", "--start-balls"),
                ("reward", "--reward"), ("penalty", "--penalty"))
BOX_OPTIONS = (("opponent", "--opponent"), ("beads", "--beads"), ("incentives", "--incentives"),
               ("empty", "--empty"))
LEARNER_WORDS = {"hats": "the hats (one hat of counted balls per position)",
                 "matchboxes": "MENACE's matchboxes (beads, one box per board up to symmetry)"}


def _rule_limit(key: str, flag: str):
    """A whole number within the hat rule's limits for `key`, read from `learn.hats.RULE_LIMITS` (where they are
    written once) when the argument is parsed, not when the parser was built (`cli.main` keeps its parser)."""

    def parse(text: str) -> int:
        from sticks_tui.learn.hats import RULE_LIMITS

        return int_in_range(*RULE_LIMITS[key], flag)(text)

    parse.__name__ = flag  # argparse names the type in its messages
    return parse


def register(subparsers) -> None:
    from sticks_tui.engine import registry
    from sticks_tui.learn.trainer import GAME_PROTOCOLS, MAX_GAMES

    games = registry.entries()
    p = subparsers.add_parser(
        "train", help="train a fresh AI (or a stored brain) on a game and print its brain and analysis",
        description="Train a fresh learning AI on a game (or, with --brain, a stored brain of it) and print its "
                    "brain, the time taken, games per second and its analysis against the exact solution. The "
                    "hats learn against another learning AI (both seats, both learning); MENACE's matchboxes "
                    "against the opponent chosen.")
    add_game_arguments(p, "the game to train on")
    p.add_argument("--games", type=int_in_range(0, MAX_GAMES, "--games"), default=None,
                   help="games to play (default: " + ", ".join(f"{g.training_games:,} for {g.name}" for g in games)
                        + f"; at most {MAX_GAMES:,})")
    p.add_argument("--seed", type=int_in_range(0, 2**63 - 1, "--seed"), default=None,
                   help="seed for a repeatable run")
    p.add_argument("--engine", choices=["kernel", "reference"], default="kernel",
                   help="kernel: compiled (fast); reference: the readable Python learner")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    seated = [g for g in games if g.learner_seat is not None]
    p.add_argument("--seat", metavar="SEAT", default=None,
                   help="the seat the learning AI trains in, for a game whose AI keeps one player's boxes: the "
                        "game's own name for it or first/second, any case (" + "; ".join(
                            f"{g.name}: {' or '.join(seat_names(g))}, default {seat_names(g)[g.learner_seat]}"
                            for g in seated) + "). " + "".join(f"{g.learner_seat_why}. " for g in seated
                                                                if g.learner_seat_why)
                        + "Not for " + ", ".join(g.name for g in games if g.learner_seat is None)
                        + " (one brain for both seats). With --brain: the brain's own seat")
    p.add_argument("--brain", metavar="NAME", default=None,
                   help="train the stored brain NAME of the game (made as the app makes it, by the rule options given "
                        "or the game's own, if there is none) and keep the run as the app does: merged onto the "
                        "brain as stored, with its games and its learning curve. The rule options, if given, must "
                        "be the brain's own")
    hats = p.add_argument_group("the hats (" + ", ".join(g.name for g in games if g.brains == "hats") + ")")
    hats.add_argument("--protocol", choices=list(GAME_PROTOCOLS), default=None,
                      help="; ".join(f"{k}: {v}" for k, v in GAME_PROTOCOLS.items())
                           + " (default: " + ", ".join(f"{g.training_protocol} for {g.name}" for g in games
                                                      if g.brains == "hats") + ")")
    hats.add_argument("--floor", choices=["each", "nonempty"], default=None,
                      help="each: a hat keeps one ball of every number (seeds 000/001); "
                           "nonempty: a hat only has to stay non-empty (seed 003); default each")
    hats.add_argument("--start-balls", type=_rule_limit("start_balls", "--start-balls"),
                      default=None, help="balls of each number in a fresh hat (default 1)")
    hats.add_argument("--reward", type=_rule_limit("win_reward", "--reward"), default=None,
                      help="balls added on a win (default 1)")
    hats.add_argument("--penalty", type=_rule_limit("loss_penalty", "--penalty"), default=None,
                      help="balls thrown away on a loss (default 1)")
    boxes = p.add_argument_group("MENACE's matchboxes ("
                                 + ", ".join(g.name for g in games if g.brains == "matchboxes") + ")")
    add_matchbox_arguments(boxes, defaults=False)
    p.set_defaults(handler=lambda args: run(args, p))


def seat_names(game) -> tuple[str, str]:
    """The game's names for its two seats (0 moves first): its rules' own (X and O), else first and second."""
    return tuple(getattr(game.rules_class, "seat_names", ("first", "second")))


def seat_asked(game, text: str) -> int:
    """The seat (0 first, 1 second) `--seat text` names: the game's own name for it or first/second, any case;
    ValueError saying what is wrong."""
    names = seat_names(game)
    known = {"first": 0, "second": 1} | {name.lower(): seat for seat, name in enumerate(names)}
    seat = known.get(text.strip().lower())
    if seat is None:
        raise ValueError(f"--seat is {' or '.join(names)} (or first or second) for {game.title}, not {text!r}.")
    return seat


def seat_line(game, seat: int) -> str:
    """'X, moving first'."""
    return f"{seat_names(game)[seat]}, moving {('first', 'second')[seat]}"


def add_matchbox_arguments(group, defaults: bool) -> None:
    """MENACE's options (`noughts train` gives them their defaults; `train` leaves them None until the
    game is known)."""
    def default(value):
        return value if defaults else None

    group.add_argument("--opponent", choices=["perfect", "random", "menace"], default=default("perfect"),
                       help="perfect: a perfect player choosing at random among the solver's best squares; "
                            "random: any empty square; menace: a second MENACE learning the other side (default perfect)")
    group.add_argument("--beads", type=int_list(4, 1, 1000, "--beads"), default=None,
                       help="start beads per square at MENACE's 1st, 2nd, 3rd, 4th move (default 12,3,2,1, the "
                            "app's, whose first box survives a run against the perfect player; Michie's were "
                            "4,3,2,1)")
    group.add_argument("--incentives", type=int_list(3, -1000, 1000, "--incentives"), default=default((3, 1, -1)),
                       help="beads added to each bead drawn after a win (0 or more), a draw, a loss (0 or fewer) "
                            "(default 3,1,-1, Michie's; write --incentives=3,0,-2 when one is negative)")
    group.add_argument("--empty", choices=["resign", "refill"], default=default("resign"),
                       help="what an empty box does: resign the game (Michie's) or refill with its start beads "
                            "(default resign)")


def _finite(x: float) -> float | None:
    return None if math.isnan(x) else x


RULE_OPTIONS = (("start_balls", "--start-balls"), ("win_reward", "--reward"), ("loss_penalty", "--penalty"),
                ("floor", "--floor"))


def _rule_given(args: argparse.Namespace, base):
    """The hat rule asked for: the options given, the rest from `base` (a HatRule)."""
    from dataclasses import replace

    given = {field: getattr(args, option[2:].replace("-", "_")) for field, option in RULE_OPTIONS}
    return replace(base, **{k: v for k, v in given.items() if v is not None})


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    game, given = game_options(parser, args)
    return train_game(args, game, given, parser)


def train_game(args: argparse.Namespace, game, given: dict, parser: argparse.ArgumentParser,
               command: str = "train") -> int:
    """Train on `game` (a registry entry) with its size options `given` and the learner's options in `args`
    (None: not given); the aliases (`nim train`, `noughts train`) call this too."""
    for dest, _ in HATS_OPTIONS + BOX_OPTIONS + (("brain", "--brain"), ("seat", "--seat")):  # an alias has only
        if not hasattr(args, dest):  # its own options
            setattr(args, dest, None)
    others = BOX_OPTIONS if game.brains == "hats" else HATS_OPTIONS
    wrong = [flag for dest, flag in others if getattr(args, dest, None) is not None]
    if wrong:
        parser.error(f"{wrong[0]} is not an option of training for {game.title}: its AI learns by "
                     f"{LEARNER_WORDS[game.brains]}")
    seat = None
    if args.seat is not None:
        if game.learner_seat is None:
            return _refuse(f"--seat is not an option of training for {game.title}: its AI keeps one brain for both "
                           "seats. Nothing was trained.", 2, command)
        try:
            seat = seat_asked(game, args.seat)
        except ValueError as exc:
            return _refuse(f"{exc} Nothing was trained.", 2, command)
    games = args.games if args.games is not None else game.training_games
    _say_if_compiling(args, command)
    if args.brain is not None and not game.chances_vs_perfect:
        return run_stored(args, game, given, games, command, seat)
    if game.brains == "matchboxes":
        return run_matchboxes(args, game, games, command, seat if seat is not None else game.learner_seat)
    try:
        rules = game.rules_from(given)
    except ValueError as exc:
        return _refuse(str(exc), 2, command)
    protocol = args.protocol or game.training_protocol
    values = game.option_values(given)
    if game.chances_vs_perfect:
        return run_sticks(args, rules, games, protocol, values, command, max_take_given="max_take" in given)
    seat = seat if seat is not None else game.learner_seat
    if seat is not None and args.protocol == "explore":
        return _refuse(f"--protocol explore starts games anywhere, but {seat_names(game)[seat]}'s brain keeps its "
                       "own boxes only: it plays every game from the start (classic). Nothing was trained.", 2,
                       command)
    return run_hats(args, game, rules, games, "classic" if seat is not None else protocol, values, command, seat)


def _say_if_compiling(args, command: str) -> None:
    """The first run after an install compiles the fast trainer first: say so on stderr, with the seconds
    expected here, so the wait is not taken for a hang (never when the cache is warm; issue 33 item 7)."""
    if getattr(args, "engine", "kernel") != "kernel":
        return
    from sticks_tui.learn import compiled

    if compiled.cold():
        print(f"sticks-tui {command}: preparing the fast trainer (once, about "
              f"{max(1, round(compiled.expected_seconds()))} s) ...", file=sys.stderr, flush=True)


def _refuse(message, status: int, command: str = "train") -> int:
    print(f"sticks-tui {command}: {message}", file=sys.stderr)
    return status


# -- a stored brain of any game (the Game of Sticks' has its own report, `run_brain`) --------------------------

OPPONENT_OF = {"perfect": "best-at-random", "random": "random", "menace": "self"}


def run_stored(args, game, given: dict, games: int, command: str, seat: int | None = None) -> int:
    """Train the stored brain `args.brain` of `game` as the app trains it: a copy of the brain as loaded (made on
    first use as the app makes it: its rule the options given, else the game's own; of `seat`, else the game's
    `learner_seat`), the run's net change merged onto the brain as stored with its games and curve. A brain of one
    seat's containers trains in its seat (a `seat` asked that is not its own is refused): MENACE's boxes against
    --opponent, HER's against a second learner in the other seat; a brain of both seats against a second learner,
    by turns. A refusal says why in a line and changes nothing."""
    from sticks_tui.commands.common import open_store
    from sticks_tui.learn.hats import HatRule
    from sticks_tui.learn.trainer import TrainingConfig, seats_of, train
    from sticks_tui.store import InvalidName, StoreError
    from sticks_tui.vocabulary import NIM_LEARNER_BOX

    boxes = game.brains == "matchboxes"
    try:
        rules = game.rules_from(given)
        wanted = box_rule(args, game) if boxes else _rule_given(args, HatRule(**game.learner_settings))
    except ValueError as exc:
        return _refuse(f"{exc} Nothing was trained.", 2, command)
    store = open_store(args.data_dir, command)
    if store is None:
        return 1
    with store:
        try:
            info = store.brain_info(args.brain)
            wanted_seat = seat if seat is not None else game.learner_seat
            if info is not None and info.game == game.name:  # a stored brain trains on its own seat
                if seat is not None and info.seat != seat:
                    whose = "both seats" if info.seat is None else seat_line(game, info.seat)
                    return _refuse(f"The brain {args.brain!r} plays {whose}; --seat {args.seat} would change it. "
                                   "Leave it out, or train a new brain. Nothing was trained.", 2, command)
                wanted_seat = info.seat
            brain = store.load_or_create_brain(args.brain, 0, rule=wanted, game=game.name,
                                               box=tuple(getattr(rules, "box", NIM_LEARNER_BOX)),
                                               seat=wanted_seat)
        except InvalidName as exc:
            return _refuse(exc, 2, command)
        except StoreError as exc:
            return _refuse(f"{exc} Nothing was trained.", 1, command)
        try:
            rule = box_rule(args, game, brain.rule) if boxes else _rule_given(args, brain.rule)
        except ValueError as exc:
            return _refuse(f"{exc} Nothing was trained.", 2, command)
        if rule != brain.rule:
            return _refuse(f"The brain {args.brain!r} learns by its own rule ({_any_rule_words(brain.rule)}); the "
                           "rule options given would change it. Leave them out, or train a new brain. Nothing was "
                           "trained.", 2, command)
        opponent = OPPONENT_OF[args.opponent or "perfect"] if boxes else "self"
        protocol = "classic" if brain.seat is not None else (args.protocol or game.training_protocol)
        try:
            config = TrainingConfig(game=rules, games=games, seed=args.seed if args.seed is not None else
                                    secrets.randbits(63), protocol=protocol, engine=args.engine, opponent=opponent,
                                    seats=seats_of(brain))
            start = brain.counts.copy()
            result = train(config, brain=brain.copy())
        except ValueError as exc:
            return _refuse(f"The brain {args.brain!r} cannot train on {game.title} as asked: {exc} Nothing was "
                           "trained.", 2, command)
        if result.notice:
            print(f"sticks-tui {command}: {result.notice}", file=sys.stderr)
        if result.games_played != games:
            print(f"sticks-tui {command}: played {result.games_played:,} of {games:,} games; nothing was kept",
                  file=sys.stderr)
            return 1
        try:
            stored = store.keep_training(args.brain, start, result)
            info = store.brain_info(args.brain)
        except StoreError as exc:
            return _refuse(f"{exc} The run was not kept.", 1, command)
    name = info.name if info is not None else args.brain
    trained = info.games_trained if info is not None else None
    win, draw, loss = result.results
    container = "boxes" if boxes else "hats"
    if args.json:
        print(json.dumps({
            "game": game.name, "brain": {"name": name, "games_trained": trained, container: len(stored.positions),
                                         "seat": None if stored.seat is None else seat_names(game)[stored.seat]},
            "games": result.games_played, "seed": config.seed, "protocol": protocol, "opponent": opponent,
            "engine": result.engine, "rule": _any_rule_json(stored.rule), "seconds": result.seconds,
            "results": {"win": win, "draw": draw, "loss": loss},
            "boxes": [{"position": rules.encode_position(p), "moves": [rules.encode_move(m) for m in stored.moves_of(p)],
                       "counts": list(stored.hat(p))} for p in stored.positions],
        }))
        return 0
    total = max(result.games_played, 1)
    against = {"self": "a second learner", "random": "the random player", "best-at-random": "the perfect player"}
    plays = "" if stored.seat is None else f" playing {seat_line(game, stored.seat)},"
    print(f"{result.games_played:,} games of {game.title}{plays} against {against[opponent]} ({result.engine} engine, "
          f"seed {config.seed}), kept in the brain {name!r}")
    print(f"its rule: {_any_rule_words(stored.rule)}")
    print(f"time: {result.seconds:.3f} s, {result.games_per_second:,.0f} games/s")
    print(f"results: {win:,} won ({win / total:.1%}), {draw:,} drawn ({draw / total:.1%}), {loss:,} lost "
          f"({loss / total:.1%})")
    print(f"brain {name!r}: {len(stored.positions):,} {container}, {trained:,} games trained in all")
    return 0


def _any_rule_words(rule) -> str:
    """Any counts learner's rule in a line: start tokens (by move number), incentives, floor, an empty container."""
    win, draw, loss = rule.incentives
    empty = f", an empty one {'resigns' if rule.empty == 'resign' else 'is refilled'}" if rule.floor == "none" else ""
    return (f"start {','.join(map(str, rule.starts))}, win {win:+d}, draw {draw:+d}, loss {loss:+d}, "
            f"floor {rule.floor}{empty}")


def _any_rule_json(rule) -> dict:
    return {"start": list(rule.starts), "win_reward": rule.win_reward, "draw_reward": rule.draw_reward,
            "loss_penalty": rule.loss_penalty, "floor": rule.floor, "empty": rule.empty}


# -- the Game of Sticks' hats: its own analysis (the chances against a perfect player, the rule found) -----

def run_sticks(args, rules, games: int, protocol: str, values: dict, command: str, max_take_given: bool) -> int:
    from sticks_tui.learn.hats import HatRule, Hats
    from sticks_tui.learn.trainer import TrainingConfig, train

    if args.brain is not None:
        return run_brain(args, rules, games, protocol, values, command, max_take_given)
    config = TrainingConfig(game=rules, games=games, seed=args.seed, protocol=protocol, engine=args.engine)
    result = train(config, Hats(config.rules, rule=_rule_given(args, HatRule())))  # a fresh brain, by its rule
    return report(args, result, result.brain, rules.size, games, protocol, values, command)


def run_brain(args, rules, games: int, protocol: str, values: dict, command: str, max_take_given: bool) -> int:
    """Train the stored brain `args.brain` as the app trains it: a copy of the brain as loaded (made
    on first use as the app makes it), the run's net change merged onto the brain as stored."""
    from sticks_tui.commands.common import open_store
    from sticks_tui.learn.hats import HatRule
    from sticks_tui.learn.trainer import TrainingConfig, train
    from sticks_tui.store import InvalidName, StoreError
    from sticks_tui.store.brains import APP_BRAIN_SIZE

    store = open_store(args.data_dir, command)
    if store is None:
        return 1
    heap = rules.size
    with store:
        try:
            brain = store.load_or_create_brain(args.brain, APP_BRAIN_SIZE, rule=_rule_given(args, HatRule()))
        except InvalidName as exc:
            return _refuse(exc, 2, command)
        except StoreError as exc:
            return _refuse(exc, 1, command)
        rule = _rule_given(args, brain.rule)
        if rule != brain.rule:
            differs = ", ".join(option for field, option in RULE_OPTIONS
                                if getattr(rule, field) != getattr(brain.rule, field))
            return _refuse(f"The brain {args.brain!r} learns by its own rule ({_rule_words(brain.rule)}); "
                           f"{differs} would change it. Leave them out, or train a new brain. "
                           "Nothing was trained.", 2, command)
        if heap > brain.size:
            return _refuse(f"The brain {args.brain!r} has {brain.size} hats: --sticks must be between 1 and "
                           f"{brain.size}, not {heap:,}. Nothing was trained.", 2, command)
        if max_take_given and rules.max_take != brain.max_take:
            return _refuse(f"The brain {args.brain!r} plays with at most {brain.max_take} sticks a move; "
                           f"--max-take {rules.max_take} would change it. Nothing was trained.", 2, command)
        config = TrainingConfig(sticks=heap, games=games, seed=args.seed, protocol=protocol,
                                max_take=brain.max_take, engine=args.engine)
        start = brain.counts.copy()
        result = train(config, brain=brain.copy())
        if result.games_played != games:
            return report(args, result, result.brain, heap, games, protocol, values, command)  # says so, keeps nothing
        try:
            stored = store.keep_training(args.brain, start, result)
            info = store.brain_info(args.brain)
        except StoreError as exc:
            return _refuse(f"{exc} The run was not kept.", 1, command)
    return report(args, result, stored, heap, games, protocol, {**values, "max_take": brain.max_take}, command,
                  name=info.name if info is not None else args.brain,
                  games_trained=info.games_trained if info is not None else None)


def _rule_words(rule) -> str:
    return (f"start balls {rule.start_balls}, win reward {rule.win_reward}, loss penalty {rule.loss_penalty}, "
            f"floor {rule.floor}")


def _rule_json(rule) -> dict:
    return {"floor": rule.floor, "start_balls": rule.start_balls, "win_reward": rule.win_reward,
            "loss_penalty": rule.loss_penalty}


def report(args: argparse.Namespace, result, brain, heap: int, games: int, protocol: str, values: dict,
           command: str, *, name: str | None = None, games_trained: int | None = None) -> int:
    """Print the run and the figures of `brain` over the heaps trained (2..heap)."""
    from sticks_tui.engine.rules import SticksRules
    from sticks_tui.learn.analysis import PERFECT_PLAYER_WORDS
    from sticks_tui.solve.sticks_hats import analyse
    from sticks_tui.learn.figure_words import chances_sentence, likeliest_sentence

    rule = result.brain.rule
    if result.notice:
        print(f"sticks-tui {command}: {result.notice}", file=sys.stderr)
    if result.games_played != games:  # never report a run that silently played fewer games
        print(f"sticks-tui {command}: played {result.games_played:,} of {games:,} games")
        return 1
    analysis = analyse(brain.counts, brain.max_take, heap=heap)
    if args.json:
        out = {
            **values,
            "scope": analysis.scope,
            "games": result.games_played,
            "seed": args.seed,
            "protocol": protocol,
            "engine": result.engine,
            "rule": _rule_json(rule),
            "seconds": result.seconds,
            "games_per_second": result.games_per_second,
            "hats": brain.as_lists(),
            "agreement": analysis.agreement,
            "draw_wins": analysis.draw_wins,
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
    print(f"{result.games_played:,} training games at {heap} sticks ({protocol} protocol, "
          f"{result.engine} engine)" + (f", kept in the brain {name!r}" if name is not None else ""))
    print()
    print("hat | balls")
    print("\n".join(brain.table().splitlines()[:heap]))
    if brain.size > heap:
        print(f"(hats {heap + 1}-{brain.size} not shown: this run did not train them)")
    print()
    print(f"time: {result.seconds:.3f} s, {result.games_per_second:,.0f} games/s")
    if name is not None and games_trained is not None:
        print(f"brain {name!r}: {brain.size} hats, {games_trained:,} games trained in all")
    played = SticksRules(heap, brain.max_take)
    winning = sum(1 for v in analysis.hats if v.winning)
    print(likeliest_sentence(played, analysis.agreement, analysis.draw_wins, winning)
          + (f" Its likeliest move is wrong at heaps {', '.join(map(str, analysis.disagreeing))}."
             if analysis.disagreeing else ""))
    print(chances_sentence(played, analysis.win_vs_perfect_first, analysis.win_vs_perfect_second)
          + f" The perfect player: {PERFECT_PLAYER_WORDS}.")
    print(f"Against a random player it wins {analysis.win_vs_random_first:.1%} moving first, "
          f"{analysis.win_vs_random_second:.1%} moving second.")
    print(analysis.rule.sentence)
    print(analysis.rule.verdict)
    return 0


# -- any other game of hats: agreement with perfect play, and the brain's boxes -----------------------------

def run_hats(args, game, rules, games: int, protocol: str, values: dict, command: str, seat: int | None = None) -> int:
    """A fresh brain of the hats trained against a second learner: of every position, both seats by turns; or of
    `seat`'s positions only (HER as Black), always in that seat, against a second learner in the other."""
    from sticks_tui.learn.analysis import PERFECT_PLAYER_WORDS, agreement, exact_chances
    from sticks_tui.learn.figure_words import chances_sentence, likeliest_sentence
    from sticks_tui.learn.hats import HatRule, Hats
    from sticks_tui.learn.trainer import TrainingConfig, seats_of, train
    from sticks_tui.solve import solver_for

    fresh = Hats(rules, rule=_rule_given(args, HatRule()), seat=seat)
    config = TrainingConfig(game=rules, games=games, seed=args.seed, protocol=protocol, engine=args.engine,
                            seats=seats_of(fresh))
    result = train(config, fresh)
    if result.notice:
        print(f"sticks-tui {command}: {result.notice}", file=sys.stderr)
    if result.games_played != games:  # never report a run that silently played fewer games
        print(f"sticks-tui {command}: played {result.games_played:,} of {games:,} games", file=sys.stderr)
        return 1
    brain = result.brain
    verdict = agreement(brain)
    start = rules.start_positions()[0]
    start_best = brain.best_move(start) if brain.has_hat(start) else None
    scope = game.scope_words(rules) if seat is None else f"{seat_names(game)[seat]}'s positions of {game.title}"
    if args.json:
        print(json.dumps({
            **values,
            "game": game.name,
            "seat": None if seat is None else seat_names(game)[seat],
            "scope": scope,
            "games": result.games_played,
            "seed": args.seed,
            "protocol": protocol,
            "engine": result.engine,
            "rule": _rule_json(brain.rule),
            "seconds": result.seconds,
            "games_per_second": result.games_per_second,
            "positions": len(brain.positions),
            "winning_positions": verdict.winning_states,
            "agreement": verdict.agreement,
            "draw_wins": verdict.draw_wins,
            "disagreeing": [rules.encode_position(p) for p in verdict.disagreeing],
            "best_move_at_start": rules.encode_move(start_best) if start_best is not None else None,
            "curve": [p.as_json() for p in result.curve],
            "boxes": [{"position": rules.encode_position(p), "text": rules.position_text(p),
                       "moves": [rules.encode_move(m) for m in brain.moves_of(p)], "counts": list(brain.hat(p))}
                      for p in brain.positions],
        }))
        return 0
    if seat is None:
        print(f"{result.games_played:,} self-play games of {game.title} over {scope} ({protocol} protocol, "
              f"{result.engine} engine)")
    else:
        print(f"{result.games_played:,} games of {game.title}, the AI playing {seat_line(game, seat)}, against a "
              f"second learner playing {seat_names(game)[1 - seat]} ({protocol} protocol, {result.engine} engine)")
    print(f"time: {result.seconds:.3f} s, {result.games_per_second:,.0f} games/s")
    print(likeliest_sentence(rules, verdict.agreement, verdict.draw_wins, verdict.winning_states, scope))
    first, second = (exact_chances(brain, "perfect", s == 0)[0] if seat in (None, s) else math.nan for s in (0, 1))
    print(chances_sentence(rules, first, second) + f" The perfect player: {PERFECT_PLAYER_WORDS}.")
    if verdict.disagreeing:
        shown = "; ".join(rules.position_text(p) for p in verdict.disagreeing[:10])
        more = f" and {len(verdict.disagreeing) - 10} more" if len(verdict.disagreeing) > 10 else ""
        print(f"still wrong at: {shown}{more}")
    if start_best is not None:
        state = "winning" if solver_for(rules).is_winning(start) else "lost"
        print(f"from the start, {rules.position_text(start)} ({state} for the player to move), the AI would "
              f"most likely {rules.move_text(start, start_best)}")
    positions = brain.positions
    if len(positions) > TEXT_BOXES:
        print(f"its {len(positions):,} boxes (one per position) are listed by --json")
        return 0
    whose = "one per position" if seat is None else f"one per position {seat_names(game)[seat]} moves at"
    from sticks_tui.learn.machine import plural

    container, token = (plural(w) for w in game.token_words())  # HER's boxes of beads, the hats' balls
    print(f"\nits {len(positions)} {container} ({whose}; {token} per move):")
    for i, p in enumerate(positions):
        balls = ", ".join(f"{rules.move_text(p, m)}: {c}" for m, c in zip(brain.moves_of(p), brain.hat(p), strict=True))
        print(f"{i + 1:4}  {rules.position_text(p)}  {{{balls}}}")
    return 0


# -- MENACE's matchboxes -----------------------------------------------------------------------------------

def box_rule(args, game, base=None):
    """MENACE's rule asked for: --beads, --incentives, --empty as given, the rest from `base` (a stored brain's
    rule; None: the game's own, `learner_settings`: 12,3,2,1 beads, Michie's incentives, an empty box resigns);
    ValueError saying what is wrong."""
    from sticks_tui.learn.hats import HatRule
    from sticks_tui.learn.menace import menace_rule

    base = base or HatRule(**game.learner_settings)
    beads = args.beads if getattr(args, "beads", None) is not None else base.starts
    incentives = args.incentives if getattr(args, "incentives", None) is not None else base.incentives
    empty = args.empty if getattr(args, "empty", None) is not None else base.empty
    return menace_rule(beads=beads, incentives=incentives, empty=empty)


def run_matchboxes(args, game, games: int, command: str, seat: int = 0) -> int:
    """MENACE's boxes for `seat` (X moving first, or O) trained by the one trainer (`learn.trainer`) always in that
    seat, its boxes printed by square."""
    from sticks_tui.engine.noughts import NoughtsRules
    from sticks_tui.learn.analysis import exact_chances
    from sticks_tui.learn.menace import MenaceBrain, menace_rule, move_number, sentence
    from sticks_tui.learn.trainer import TrainingConfig, seats_of, train

    opponent = args.opponent or "perfect"
    try:
        rule = box_rule(args, game)
    except ValueError as exc:
        return _refuse(str(exc), 2, command)
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    marks = seat_names(game)
    brain = MenaceBrain(rule, marks[seat])
    other = MenaceBrain(rule, marks[1 - seat]) if opponent == "menace" else None
    against = {"perfect": "best-at-random", "random": "random", "menace": "self"}[opponent]
    run = train(TrainingConfig(game=NoughtsRules(), games=games, seed=seed, protocol="classic", engine=args.engine,
                               opponent=against, seats=seats_of(brain)), brain, other)
    if run.notice:
        print(f"sticks-tui {command}: {run.notice}", file=sys.stderr)
    boxes = brain.boxes
    win, draw, loss = run.results
    chances = {name: exact_chances(brain, name, seat == 0) for name in ("perfect", "best-at-random")}
    not_losing = {name: w + d for name, (w, d, _) in chances.items()}
    if args.json:
        print(json.dumps({
            "games": run.games_played,
            "seat": marks[seat],
            "opponent": opponent,
            "seed": seed,
            "rule": {"beads": list(rule.beads), "incentives": list(rule.incentives), "empty": rule.empty},
            "engine": run.engine,
            "seconds": run.seconds,
            "games_per_second": run.games_per_second,
            "results": {"win": win, "draw": draw, "loss": loss},
            # the perfect player worst for MENACE, as every figure against "the perfect player" (issue 31), and
            # the one it trains against ("perfect"), choosing at random among its best squares, by its own name
            "not_losing_vs_perfect": not_losing["perfect"],
            "not_losing_vs_best_at_random": not_losing["best-at-random"],
            "curve": [{"games": p.games, **dict(zip(("win", "draw", "loss"), p.results, strict=True)),
                       "not_losing_vs_perfect": p.keep_first if seat == 0 else p.keep_second} for p in run.curve],
            "boxes": [{"board": b, "move": move_number(b), "counts": list(brain.box_squares(i))}
                      for i, b in enumerate(boxes.boards)],
        }))
        return 0
    total = max(run.games_played, 1)
    print(f"MENACE ({marks[seat]}) against the {opponent} player: {run.games_played:,} games ({run.engine} engine, "
          f"seed {seed})")
    print(sentence(rule))
    print(f"time: {run.seconds:.3f} s, {run.games_per_second:,.0f} games/s")
    print(f"results: {win:,} won ({win / total:.1%}), {draw:,} drawn ({draw / total:.1%}), "
          f"{loss:,} lost ({loss / total:.1%})")
    print(f"chance not to lose the next game against the perfect player (the one worst for MENACE): "
          f"{not_losing['perfect']:.1%}")
    print(f"chance not to lose it against a perfect player choosing at random among its best squares: "
          f"{not_losing['best-at-random']:.1%}")
    print(f"\n{len(boxes)} boxes (board row by row; beads per square 1-9 of that board; empty boxes marked):")
    squares = boxes.squares  # worked out from the layout at each call: once, not once per box
    for i, board in enumerate(boxes.boards):
        beads = brain.box_squares(i)
        shown = "  ".join(f"{s + 1}:{beads[s]}" for s in squares[i])
        empty = "  (empty)" if sum(beads) == 0 else ""
        print(f"{i + 1:4}  move {move_number(board)}  {board}  {shown}{empty}")
    return 0
