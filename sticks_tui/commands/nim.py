"""`sticks-tui nim`: three-pile Nim (seed 004) from the terminal.

`nim solve N D Q [--json]`: can the player to move force a win, with which moves, and why.
`nim train [--games G] [--piles A B C] [--seed S] [--json]`: train the hat learner by self-play on
small piles and report its agreement with the table.
"""

from __future__ import annotations

import argparse
import json
import sys

from sticks_tui.commands.common import int_in_range

#: The learner's piles: small enough that every position gets a hat (seed 004's game, issue 5).
MAX_TRAIN_PILE = 10
DEFAULT_TRAIN_GAMES = 500_000


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "nim", help="three-pile Nim: solve a position, or train the learning AI",
        description="Three-pile Nim (nickels, dimes, quarters): take one or more coins from one pile; "
                    "whoever takes the last coin wins.")
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
    s.set_defaults(handler=run_solve)

    t = sub.add_parser(
        "train", help="train the learning AI (one hat per position) by self-play on small piles",
        description="Two hat learners (one hat per position, one ball per legal move) play each other, "
                    "both learning; then the AI's most likely move in every winning position is held "
                    "against the table.")
    from sticks_tui.learn.trainer import GAME_PROTOCOLS as PROTOCOLS
    from sticks_tui.learn.trainer import MAX_GAMES

    t.add_argument("--games", type=int_in_range(0, MAX_GAMES, "--games"), default=DEFAULT_TRAIN_GAMES,
                   help=f"games to play (default {DEFAULT_TRAIN_GAMES:,})")
    t.add_argument("--piles", nargs=3, metavar=("A", "B", "C"), default=[7, 7, 7],
                   type=int_in_range(0, MAX_TRAIN_PILE, "--piles"),
                   help=f"the largest piles the AI learns (each 0 to {MAX_TRAIN_PILE}; default 7 7 7)")
    t.add_argument("--seed", type=int_in_range(0, 2**63 - 1, "--seed"), default=None,
                   help="seed for a repeatable run")
    t.add_argument("--protocol", choices=list(PROTOCOLS), default="explore",
                   help="; ".join(f"{k}: {v}" for k, v in PROTOCOLS.items()) + " (default explore)")
    t.add_argument("--engine", choices=["kernel", "reference"], default="kernel",
                   help="kernel: compiled (fast); reference: the readable Python learner")
    t.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    t.set_defaults(handler=run_train)


def _no_action(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    print("\nsticks-tui nim: choose an action: solve or train", file=sys.stderr)
    return 2


def run_solve(args: argparse.Namespace) -> int:
    from sticks_tui.solve.nim import explain, is_winning, winning_moves

    piles = (args.nickels, args.dimes, args.quarters)
    winning = is_winning(*piles)
    moves = winning_moves(piles)
    reason = explain(piles)
    if args.json:
        print(json.dumps({"piles": list(piles), "winning": winning, "moves": [list(m) for m in moves],
                          "reason": reason}))
    else:
        print(reason)
    return 0


def run_train(args: argparse.Namespace) -> int:
    from sticks_tui.engine.nim import NimRules
    from sticks_tui.learn.analysis import agreement
    from sticks_tui.learn.trainer import TrainingConfig, train

    box = tuple(args.piles)
    if sum(box) == 0:
        print("sticks-tui nim train: the piles must hold at least one coin in all", file=sys.stderr)
        return 2
    config = TrainingConfig(game=NimRules(box), games=args.games, seed=args.seed, protocol=args.protocol,
                            engine=args.engine)
    result = train(config)
    if result.notice:
        print(f"sticks-tui nim train: {result.notice}", file=sys.stderr)
    if result.games_played != args.games:  # never report a run that silently played fewer games
        print(f"sticks-tui nim train: played {result.games_played:,} of {args.games:,} games", file=sys.stderr)
        return 1
    verdict = agreement(result.brain)
    start_best = result.brain.best_move(box) if result.brain.has_hat(box) else None
    if args.json:
        print(json.dumps({
            "piles": list(box),
            "games": result.games_played,
            "seed": args.seed,
            "protocol": args.protocol,
            "engine": result.engine,
            "seconds": result.seconds,
            "games_per_second": result.games_per_second,
            "positions": len(result.brain.states),
            "winning_positions": verdict.winning_states,
            "agreement": verdict.agreement,
            "disagreeing": [list(s) for s in verdict.disagreeing],
            "best_move_at_start": list(start_best) if start_best else None,
            "curve": [p.as_json() for p in result.curve],
        }))
        return 0
    from sticks_tui.solve.nim import describe_move, is_winning

    print(f"{result.games_played:,} self-play games on piles up to {box} ({args.protocol} protocol, "
          f"{result.engine} engine)")
    print(f"time: {result.seconds:.3f} s, {result.games_per_second:,.0f} games/s")
    print(f"agreement with the table: {verdict.agreement:.1%} of {verdict.winning_states} winning positions")
    if verdict.disagreeing:
        shown = ", ".join(str(s) for s in verdict.disagreeing[:10])
        more = f" and {len(verdict.disagreeing) - 10} more" if len(verdict.disagreeing) > 10 else ""
        print(f"still wrong at: {shown}{more}")
    if start_best:
        state = "winning" if is_winning(*box) else "lost"
        print(f"from {box} ({state}) the AI would most likely {describe_move(start_best)}")
    return 0
