"""`sticks-tui noughts`: noughts and crosses and MENACE (issue 18) from the terminal.

`noughts solve BOARD [--json]`: the value for the player to move (win, draw or loss with best play)
and the best squares. BOARD is 9 characters of X, O and . read row by row; squares are numbered 1-9
row by row from the top left.
`noughts train [--games N] [--opponent perfect|random|menace] [--seed S] [--beads 4,3,2,1]
[--incentives 3,1,-1] [--empty resign|refill] [--json]`: train MENACE's 304 matchboxes and print them
and its results.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys

from sticks_tui.commands.common import int_in_range

DEFAULT_TRAIN_GAMES = 5_000
MAX_TRAIN_GAMES = 10_000_000


def board_argument(text: str) -> str:
    from sticks_tui.engine.noughts import BadBoard, parse_board

    try:
        return parse_board(text)
    except BadBoard as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def int_list(count: int, low: int, high: int, what: str):
    """A type for `count` whole numbers from `low` to `high`, separated by commas."""

    def parse(text: str) -> tuple[int, ...]:
        parts = [p.strip() for p in text.split(",")]
        try:
            values = tuple(int(p) for p in parts)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{what} must be {count} whole numbers separated by commas, not {text!r}") from None
        if len(values) != count:
            raise argparse.ArgumentTypeError(f"{what} must be {count} whole numbers separated by commas, "
                                             f"not {len(values)}: {text!r}")
        for v in values:
            if not low <= v <= high:
                raise argparse.ArgumentTypeError(f"each of {what} must be between {low:,} and {high:,}, not {v:,}")
        return values

    parse.__name__ = what
    return parse


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "noughts", help="noughts and crosses: solve a board, or train MENACE's matchboxes",
        description="Noughts and crosses (tic-tac-toe), the game of Donald Michie's MENACE (1961): 304 "
                    "matchboxes of beads that learn to play X.")
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
    s.set_defaults(handler=run_solve)

    t = sub.add_parser(
        "train", help="train MENACE (X, first) against the perfect or random player, or a second MENACE",
        description="MENACE plays X against an opponent for N games, drawing a bead from the matchbox of each "
                    "board it faces and rewarding the beads drawn after each game. Prints its 304 boxes "
                    "(each board in its canonical form, with the bead count for each square 1-9) and its "
                    "wins, draws and losses.")
    t.add_argument("--games", type=int_in_range(0, MAX_TRAIN_GAMES, "--games"), default=DEFAULT_TRAIN_GAMES,
                   help=f"games to play (default {DEFAULT_TRAIN_GAMES:,})")
    t.add_argument("--opponent", choices=["perfect", "random", "menace"], default="perfect",
                   help="perfect: a perfect player choosing at random among the solver's best squares; random: "
                        "any empty square; menace: a second MENACE learning O (default perfect)")
    t.add_argument("--seed", type=int_in_range(0, 2**63 - 1, "--seed"), default=None,
                   help="seed for a repeatable run (default: a new one, reported in --json)")
    t.add_argument("--beads", type=int_list(4, 1, 1000, "--beads"), default=(4, 3, 2, 1),
                   help="start beads per square at MENACE's 1st, 2nd, 3rd, 4th move (default 4,3,2,1, Michie's)")
    t.add_argument("--incentives", type=int_list(3, -1000, 1000, "--incentives"), default=(3, 1, -1),
                   help="beads added to each bead drawn after a win (0 or more), a draw, a loss (0 or fewer) "
                        "(default 3,1,-1, Michie's; write --incentives=3,0,-2 when one is negative)")
    t.add_argument("--empty", choices=["resign", "refill"], default="resign",
                   help="what an empty box does: resign the game (Michie's) or refill with its start beads "
                        "(default resign)")
    t.add_argument("--engine", choices=["kernel", "reference"], default="kernel",
                   help="kernel: compiled (fast); reference: the readable Python learner")
    t.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    t.set_defaults(handler=run_train)


def _no_action(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    print("\nsticks-tui noughts: choose an action: solve or train", file=sys.stderr)
    return 2


def board_lines(board: str) -> list[str]:
    return [" ".join(board[r * 3: r * 3 + 3]) for r in range(3)]


def run_solve(args: argparse.Namespace) -> int:
    from sticks_tui.engine.noughts import SQUARE_NAMES, has_line, is_over, to_move
    from sticks_tui.solve.noughts import VALUE_WORDS, solve_noughts

    solution = solve_noughts()
    board = args.board
    value = VALUE_WORDS[solution.value(board)]
    best = list(solution.best_squares(board))
    mover = to_move(board)
    over = is_over(board)
    if args.json:
        print(json.dumps({"board": board, "to_move": mover, "over": over, "value": value, "best": best}))
        return 0
    print("\n".join(board_lines(board)))
    if over:
        winner = "X" if has_line(board, "X") else "O" if has_line(board, "O") else None
        print(f"The game is over: {winner} has three in a row." if winner else "The game is over: a draw.")
        return 0
    outcome = {"win": f"{mover} wins", "draw": "a draw", "loss": f"{mover} loses"}[value]
    print(f"{mover} to move: {outcome} with best play on both sides.")
    print("Best: " + ", ".join(f"square {s} ({SQUARE_NAMES[s - 1]})" for s in best) + ".")
    return 0


def run_train(args: argparse.Namespace) -> int:
    from sticks_tui.engine.noughts import NoughtsRules
    from sticks_tui.learn.analysis import exact_chances
    from sticks_tui.learn.menace import MenaceBrain, menace_rule, move_number, sentence
    from sticks_tui.learn.trainer import TrainingConfig, train

    try:
        rule = menace_rule(args.beads, args.incentives, args.empty)
    except ValueError as exc:
        print(f"sticks-tui noughts train: {exc}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    brain = MenaceBrain(rule)
    o_brain = MenaceBrain(rule, "O") if args.opponent == "menace" else None
    opponent = {"perfect": "best-at-random", "random": "random", "menace": "self"}[args.opponent]
    run = train(TrainingConfig(game=NoughtsRules(), games=args.games, seed=seed, protocol="classic",
                               engine=args.engine, opponent=opponent, seats="first"), brain, o_brain)
    if run.notice:
        print(f"sticks-tui noughts train: {run.notice}", file=sys.stderr)
    boxes = brain.boxes
    win, draw, loss = run.results
    results = {"win": win, "draw": draw, "loss": loss}
    chances = {name: exact_chances(brain, name, True) for name in ("perfect", "best-at-random")}
    not_losing = {name: w + d for name, (w, d, _) in chances.items()}
    if args.json:
        print(json.dumps({
            "games": run.games_played,
            "opponent": args.opponent,
            "seed": seed,
            "rule": {"beads": list(rule.beads), "incentives": list(rule.incentives), "empty": rule.empty},
            "engine": run.engine,
            "seconds": run.seconds,
            "games_per_second": run.games_per_second,
            "results": results,
            "not_losing_vs_perfect": not_losing["perfect"],
            "not_losing_vs_best_at_random": not_losing["best-at-random"],
            "curve": [{"games": p.games, **dict(zip(("win", "draw", "loss"), p.results, strict=True)),
                       "not_losing_vs_perfect": p.keep_first} for p in run.curve],
            "boxes": [{"board": b, "move": move_number(b), "counts": list(brain.box_squares(i))}
                      for i, b in enumerate(boxes.boards)],
        }))
        return 0
    total = max(run.games_played, 1)
    print(f"MENACE (X) against the {args.opponent} player: {run.games_played:,} games ({run.engine} engine, "
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
    for i, board in enumerate(boxes.boards):
        beads = brain.box_squares(i)
        shown = "  ".join(f"{s + 1}:{beads[s]}" for s in boxes.squares[i])
        empty = "  (empty)" if sum(beads) == 0 else ""
        print(f"{i + 1:4}  move {move_number(board)}  {board}  {shown}{empty}")
    return 0
