"""`sticks-tui classic`: the seeds' line-by-line console game, for plain terminals and pipes."""

from __future__ import annotations

import argparse
import random
import sys

from sticks_tui.commands.common import int_in_range, player_name
from sticks_tui.engine import registry


def register(subparsers) -> None:
    from sticks_tui.classic import DEFAULT_BRAIN, MODES, TRAINED_BRAIN, TRAINING_GAMES

    p = subparsers.add_parser(
        "classic", help="the classic line-by-line game (seed 002), for plain terminals and pipes",
        description="The console Game of Sticks, line for line as in the original assignment: play a friend, "
                    "the learning AI (brain 'default', saved after every game) or a freshly trained AI "
                    f"(saved as brain '{TRAINED_BRAIN}'). Reads piped input; end of input quits.")
    p.add_argument("--mode", choices=list(MODES), default=None,
                   help="skip the options menu: friend (1), computer (2) or trained (3)")
    p.add_argument("--name", type=player_name, default="Player 1", help="your name in the records (default 'Player 1')")
    p.add_argument("--name2", type=player_name, default="Player 2",
                   help="your friend's name in the records (default 'Player 2')")
    p.add_argument("--brain", type=player_name, default=DEFAULT_BRAIN,
                   help=f"the learning AI's brain for option 2 (default '{DEFAULT_BRAIN}')")
    p.add_argument("--train-games", type=int_in_range(0, 10_000_000, "--train-games"), default=TRAINING_GAMES,
                   help=f"training games for option 3 (default {TRAINING_GAMES:,})")
    p.add_argument("--seed", type=int_in_range(0, 2**63 - 1, "--seed"), default=None,
                   help="seed for a repeatable AI")
    p.add_argument("--no-hats", dest="show_hats", action="store_false",
                   help="do not print the AI's hats after each game")
    p.add_argument("--echo", action=argparse.BooleanOptionalAction, default=None,
                   help="write each answer after its prompt (default: only when input is not a terminal)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from sticks_tui.classic import ClassicGame
    from sticks_tui.store import InvalidName, Store, StoreError

    # The line game plays on in memory (as the app does), saying so on stderr, if the database is unusable.
    store = Store.open(args.data_dir, allow_memory=True)
    try:
        # the store's name rule, asked before any game: never a game played and then not recorded
        try:
            store.check_players((args.name, args.name2), ())
        except InvalidName as exc:
            print(f"sticks-tui classic: {exc}", file=sys.stderr)
            return 2
        except StoreError:
            pass  # the records cannot be read: the games are played, and each says it is not kept
        game = ClassicGame(store, rng=random.Random(args.seed), mode=args.mode, names=(args.name, args.name2),
                           brain=args.brain, training_games=args.train_games, show_hats=args.show_hats,
                           echo=args.echo)
        return game.run()  # a closed or full output is handled once, in cli.main
    finally:
        store.close()


def run_line_mode(args: argparse.Namespace, mode: str | None) -> int:
    """`sticks-tui play --game sticks`: this console game, `mode` as `--mode` says it (None: the menu)."""
    from sticks_tui.classic import DEFAULT_BRAIN, TRAINING_GAMES

    return run(argparse.Namespace(
        data_dir=args.data_dir, mode=mode, name=args.name, name2=args.name2,
        brain=args.brain if args.brain is not None else DEFAULT_BRAIN,
        train_games=args.train_games if args.train_games is not None else TRAINING_GAMES,
        seed=args.seed, show_hats=args.show_hats, echo=args.echo))


# the seeds' console game is the Game of Sticks' own line mode (`sticks-tui play --game sticks`)
registry.attach("sticks", line_mode=run_line_mode)
