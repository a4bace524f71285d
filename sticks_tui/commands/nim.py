"""`sticks-tui nim`: three-pile Nim (seed 004) from the terminal, thin aliases of the general commands.

`nim solve N D Q [--json]` is `solve --game nim N,D,Q`: can the player to move force a win, with which
moves, and why. `nim train [--games G] [--piles A B C] [--seed S] [--json]` is `train --game nim
--piles A,B,C ...`: train the hat learner by self-play on small piles and report its agreement with
perfect play. Each prints what the general command prints.
"""

from __future__ import annotations

import argparse
import sys

from sticks_tui.commands.common import int_in_range
from sticks_tui.engine.nim import MAX_NIM_PILE

GAME = "nim"


def register(subparsers) -> None:
    from sticks_tui.engine import registry

    game = registry.entry(GAME)
    p = subparsers.add_parser(
        "nim", help="three-pile Nim: solve a position, or train the learning AI (aliases of solve and train "
                    "--game nim)",
        description="Three-pile Nim (nickels, dimes, quarters): take one or more coins from one pile; "
                    "whoever takes the last coin wins. `nim solve` and `nim train` are `solve --game nim` and "
                    "`train --game nim` with the piles written apart.")
    p.set_defaults(handler=lambda args: _no_action(p))
    sub = p.add_subparsers(title="nim commands", metavar="ACTION")

    s = sub.add_parser(
        "solve", help="can the player to move force a win from N nickels, D dimes, Q quarters?",
        description="Answer from the table U(n, d, q) (built by seed 004's recurrence): whether the player "
                    "to move can force a win, the winning moves, and the reason.")
    from sticks_tui.solve.nim import SIZE

    for name, what in (("nickels", "N"), ("dimes", "D"), ("quarters", "Q")):
        s.add_argument(name, metavar=what, type=int_in_range(0, SIZE, name),
                       help=f"{name} in the pile (0 to {SIZE})")
    s.add_argument("--json", action="store_true",
                   help='print {"piles", "winning", "moves": [[pile, coins], ...], "reason"}; '
                        "pile 0 is nickels, 1 dimes, 2 quarters")
    s.set_defaults(handler=lambda args: run_solve(args, s))

    t = sub.add_parser(
        "train", help="train the learning AI (one hat per position) by self-play on small piles",
        description="Two hat learners (one hat per position, one ball per legal move) play each other, "
                    "both learning; then the AI's most likely move in every winning position is held "
                    "against perfect play.")
    from sticks_tui.learn.trainer import GAME_PROTOCOLS as PROTOCOLS
    from sticks_tui.learn.trainer import MAX_GAMES

    t.add_argument("--games", type=int_in_range(0, MAX_GAMES, "--games"), default=game.training_games,
                   help=f"games to play (default {game.training_games:,})")
    t.add_argument("--piles", nargs=3, metavar=("A", "B", "C"), default=(7, 7, 7),
                   type=int_in_range(0, MAX_NIM_PILE, "--piles"),
                   help=f"the largest piles the AI learns (each 0 to {MAX_NIM_PILE}; default 7 7 7)")
    t.add_argument("--seed", type=int_in_range(0, 2**63 - 1, "--seed"), default=None,
                   help="seed for a repeatable run")
    t.add_argument("--protocol", choices=list(PROTOCOLS), default=game.training_protocol,
                   help="; ".join(f"{k}: {v}" for k, v in PROTOCOLS.items())
                        + f" (default {game.training_protocol})")
    t.add_argument("--engine", choices=["kernel", "reference"], default="kernel",
                   help="kernel: compiled (fast); reference: the readable Python learner")
    t.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    t.set_defaults(handler=lambda args: run_train(args, t))


def _no_action(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    print("\nsticks-tui nim: choose an action: solve or train", file=sys.stderr)
    return 2


def run_solve(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from sticks_tui.commands.solve import solve_position
    from sticks_tui.engine import registry

    return solve_position(f"{args.nickels},{args.dimes},{args.quarters}", registry.entry(GAME), {}, parser,
                          args.json)


def run_train(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from sticks_tui.commands.train import train_game
    from sticks_tui.engine import registry

    box = tuple(args.piles)
    if sum(box) == 0:
        print("sticks-tui nim train: the piles must hold at least one coin in all", file=sys.stderr)
        return 2
    general = argparse.Namespace(games=args.games, seed=args.seed, protocol=args.protocol, engine=args.engine,
                                 json=args.json, data_dir=args.data_dir)
    return train_game(general, registry.entry(GAME), {"piles": box}, parser)
