"""`sticks-tui play --game G`: a game line by line, for plain terminals and pipes.

A game whose entry has a line mode of its own plays it (the Game of Sticks: the seeds' console game,
`sticks-tui classic`, which attaches itself as sticks' line mode); any other game plays the line mode of
every game (`sticks_tui.lines`), in its own words, from the start its size options give.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys

from sticks_tui.commands.common import add_game_arguments, game_options, int_in_range, player_name

#: The modules that attach a line mode of its own to a game (each on import).
LINE_MODE_MODULES = ("sticks_tui.commands.classic",)
#: The opponent asked for, as the seeds' console game calls it (`classic --mode`).
CLASSIC_MODES = {"friend": "friend", "learning": "computer", "trained": "trained"}


def register(subparsers) -> None:
    from sticks_tui.engine import registry
    from sticks_tui.lines import KINDS

    for module in LINE_MODE_MODULES:
        importlib.import_module(module)
    p = subparsers.add_parser(
        "play", help="play a game line by line against a friend or an AI (for plain terminals and pipes)",
        description="Play a game line by line: the board in words, your move by its number (or as the game writes "
                    "it). The Game of Sticks plays the seeds' console game (as `sticks-tui classic`, which asks for "
                    "the heap); any other game starts where its size options say. Every finished game is recorded; "
                    "the learning AI's brain is kept and learns from every game. End of input quits.")
    add_game_arguments(p, "the game to play")
    p.add_argument("--opponent", choices=[*KINDS, "trained"], default=None,
                   help="skip the menu: friend, learning (the game's learning AI), perfect, random; the Game of "
                        "Sticks: friend, learning or trained (the trained AI, 100,000 games first)")
    p.add_argument("--ai-first", action="store_true", help="the AI moves first (default: you do)")
    p.add_argument("--name", type=player_name, default="Player 1", help="your name in the records (default 'Player 1')")
    p.add_argument("--name2", type=player_name, default="Player 2",
                   help="your friend's name in the records (default 'Player 2')")
    p.add_argument("--brain", type=player_name, default=None,
                   help="the learning AI's brain (default: the brain the app's learning AI plays that side with, so the "
                        "class teaches one brain: " + "; ".join(
                            f"{g.name} '{g.ai_brain(1)}'" + (f" (with --ai-first '{g.ai_brain(0)}')"
                                                             if g.brains_by_side() else "")
                            for g in registry.entries()) + "; with --paper: the game's name)")
    p.add_argument("--train-games", type=int_in_range(0, 10_000_000, "--train-games"), default=None,
                   help="(sticks) training games for the trained AI (default 100,000)")
    p.add_argument("--seed", type=int_in_range(0, 2**63 - 1, "--seed"), default=None,
                   help="seed for a repeatable AI")
    p.add_argument("--no-boxes", "--no-hats", dest="show_hats", action="store_false",
                   help="do not print the learning AI's boxes (hats) after each game")
    p.add_argument("--echo", action=argparse.BooleanOptionalAction, default=None,
                   help="write each answer after its prompt (default: only when input is not a terminal)")
    p.add_argument("--paper", action="store_true",
                   help="type in games played with a machine of paper (`brain print`): at its turn the box and bead "
                        "drawn ('17 red'), at yours your move; the brain (--brain) learns each game as on screen. "
                        "The machine moves second unless --ai-first (a brain of one side, MENACE's, plays its own)")
    p.set_defaults(handler=lambda args: run(args, p))


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    game, given = game_options(parser, args)
    if args.paper:
        return _paper(args, parser, game, given)
    own = game.board.get("line_mode")
    if own is not None:
        return _own_line_mode(args, parser, game, given, own)
    from sticks_tui.lines import LineGame, kinds_of
    from sticks_tui.store import InvalidName, Store, StoreError

    for flag, value in (("--train-games", args.train_games),):
        if value is not None:
            parser.error(f"{flag} is not an option of the line mode of {game.title}")
    if args.opponent is not None and args.opponent not in kinds_of(game):
        parser.error(f"argument --opponent: {game.title} is played here against "
                     f"{', '.join(kinds_of(game))}, not {args.opponent!r}")
    try:
        rules = game.rules_from(given)
    except ValueError as exc:
        print(f"sticks-tui play: {exc}", file=sys.stderr)
        return 2
    # it plays on in memory (as the app does), saying so on stderr, if the database is unusable
    store = Store.open(args.data_dir, allow_memory=True)
    try:
        try:  # the store's name rule, asked before any game: never a game played and then not recorded
            store.check_players((args.name, args.name2), ())
        except InvalidName as exc:
            print(f"sticks-tui play: {exc}", file=sys.stderr)
            return 2
        except StoreError:
            pass  # the records cannot be read: the games are played, and each says it is not kept
        line = LineGame(store, game, rules, rng=random.Random(args.seed), opponent=args.opponent,
                        ai_first=args.ai_first, names=(args.name, args.name2), brain=args.brain,
                        show_boxes=args.show_hats, echo=args.echo)
        return line.run()  # a closed or full output is handled once, in cli.main
    finally:
        store.close()


def _own_line_mode(args, parser, game, given: dict, line_mode) -> int:
    """The game's own line mode (sticks: the seeds' console game), with the options it knows."""
    if given:
        parser.error(f"the line mode of {game.title} is its own and takes none of its size options (it asks): "
                     "leave out " + ", ".join(o.flag for o in game.options if o.key in given))
    if args.ai_first:
        parser.error(f"--ai-first is not an option of the line mode of {game.title}: you move first")
    if args.opponent is not None and args.opponent not in CLASSIC_MODES:
        parser.error(f"argument --opponent: the line mode of {game.title} plays {', '.join(CLASSIC_MODES)}, "
                     f"not {args.opponent!r}")
    return line_mode(args, None if args.opponent is None else CLASSIC_MODES[args.opponent])


def _paper(args, parser, game, given: dict) -> int:
    """`play --paper`: the games of a machine of paper typed in (`commands.paper`)."""
    from sticks_tui.commands import paper

    for flag, value in (("--opponent", args.opponent), ("--train-games", args.train_games), ("--seed", args.seed)):
        if value is not None:
            parser.error(f"{flag} is not an option of --paper: the machine of paper is the opponent")
    if given:
        parser.error("--paper plays from the start of the brain's own game: leave out "
                     + ", ".join(o.flag for o in game.options if o.key in given))
    return paper.run(args, game.name)
