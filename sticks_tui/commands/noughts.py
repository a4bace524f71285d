"""`sticks-tui noughts`: noughts and crosses and MENACE (issue 18) from the terminal, thin aliases of the
general commands.

`noughts solve BOARD [--json]` is `solve --game noughts BOARD`: the value for the player to move (win,
draw or loss with best play) and the best squares. BOARD is 9 characters of X, O and . read row by
row; squares are numbered 1-9 row by row from the top left.
`noughts train [--games N] [--opponent perfect|random|menace] [--seed S] [--beads 4,3,2,1]
[--incentives 3,1,-1] [--empty resign|refill] [--json]` is `train --game noughts ...`: train MENACE's
304 matchboxes and print them and its results. Each prints what the general command prints.
"""

from __future__ import annotations

import argparse
import sys

from sticks_tui.commands.common import int_in_range

GAME = "noughts"


def board_argument(text: str) -> str:
    from sticks_tui.engine.noughts import BadBoard, parse_board

    try:
        return parse_board(text)
    except BadBoard as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(subparsers) -> None:
    from sticks_tui.commands.train import add_matchbox_arguments
    from sticks_tui.engine import registry
    from sticks_tui.learn.trainer import MAX_GAMES

    game = registry.entry(GAME)
    p = subparsers.add_parser(
        "noughts", help="noughts and crosses: solve a board, or train MENACE's matchboxes (aliases of solve and "
                        "train --game noughts)",
        description="Noughts and crosses (tic-tac-toe), the game of Donald Michie's MENACE (1961): 304 "
                    "matchboxes of beads that learn to play X. `noughts solve` and `noughts train` are "
                    "`solve --game noughts` and `train --game noughts`.")
    p.set_defaults(handler=lambda args: _no_action(p))
    sub = p.add_subparsers(title="noughts commands", metavar="ACTION")

    s = sub.add_parser(
        "solve", help="the value of a board for the player to move, and the best squares",
        description="Exact minimax: win, draw or loss for the player to move with best play on both sides, "
                    "and the squares that get it. Squares are numbered 1-9 row by row from the top left.")
    s.add_argument("board", metavar="BOARD", type=board_argument,
                   help="9 characters of X, O and . read row by row, e.g. X...O.... (the player to move "
                        "follows from the counts: X moves first)")
    s.add_argument("--json", action="store_true",
                   help='print {"board", "to_move", "over", "value": "win"|"draw"|"loss", "best": [squares]}')
    s.set_defaults(handler=lambda args: run_solve(args, s))

    t = sub.add_parser(
        "train", help="train MENACE (X, first) against the perfect or random player, or a second MENACE",
        description="MENACE plays X against an opponent for N games, drawing a bead from the matchbox of each "
                    "board it faces and rewarding the beads drawn after each game. Prints its 304 boxes "
                    "(each board in its canonical form, with the bead count for each square 1-9) and its "
                    "wins, draws and losses.")
    t.add_argument("--games", type=int_in_range(0, MAX_GAMES, "--games"), default=game.training_games,
                   help=f"games to play (default {game.training_games:,})")
    t.add_argument("--seed", type=int_in_range(0, 2**63 - 1, "--seed"), default=None,
                   help="seed for a repeatable run (default: a new one, reported in --json)")
    add_matchbox_arguments(t, defaults=True)
    t.add_argument("--engine", choices=["kernel", "reference"], default="kernel",
                   help="kernel: compiled (fast); reference: the readable Python learner")
    t.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    t.set_defaults(handler=lambda args: run_train(args, t))


def _no_action(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    print("\nsticks-tui noughts: choose an action: solve or train", file=sys.stderr)
    return 2


def run_solve(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from sticks_tui.commands.solve import solve_position
    from sticks_tui.engine import registry

    return solve_position(args.board, registry.entry(GAME), {}, parser, args.json)


def run_train(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from sticks_tui.commands.train import train_game
    from sticks_tui.engine import registry

    return train_game(args, registry.entry(GAME), {}, parser)
