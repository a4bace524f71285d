"""`sticks-tui solve --game G POSITION`: can the player to move force a win, and with which moves.

Any game of the registry: the position is written as the game's records keep a start (sticks `21`,
Nim `3,4,5`, noughts a board such as `X...O....`), the exact solver answers (`solve.answer`: the
game's own words where its solver has them, else the winning moves in the game's words). `nim solve`
and `noughts solve` are thin aliases of this command.
"""

from __future__ import annotations

import argparse
import json

from sticks_tui.commands.common import add_game_arguments, game_options


def register(subparsers) -> None:
    from sticks_tui.engine import registry

    p = subparsers.add_parser(
        "solve", help="can the player to move force a win from a position of a game, and with which moves?",
        description="Answer exactly, from the game's solver, whether the player to move can force a win (or, "
                    "in a game with draws, what they can force) and the moves that do it.",
        epilog="Positions: " + "; ".join(f"{g.name}: {_position_words(g)}" for g in registry.entries()) + ".")
    p.add_argument("position", metavar="POSITION", help="the position, as the game writes it (see below)")
    add_game_arguments(p, "the game the position is of", rules_only=True)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(handler=lambda args: run(args, p))


def _position_words(game) -> str:
    rules = game.rules_from()
    return f"e.g. {game.record_start(rules.start_positions()[0])} (its start)"


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    game, given = game_options(parser, args, rules_only=True)
    return solve_position(args.position, game, given, parser, args.json)


def solve_position(text, game, given: dict, parser: argparse.ArgumentParser, as_json: bool) -> int:
    """Answer for the position `text` of `game`; a position the game cannot have ends the command with a
    usage error (status 2) saying why. The aliases call this too."""
    from sticks_tui.solve import answer

    try:
        start = game.parse_start(text)
        rules = game.rules_from(given, start=start)
        position = rules.decode_position(start)
    except ValueError as exc:
        parser.error(f"argument POSITION: {exc}")
    doc, words = answer(rules, position)
    print(json.dumps(doc) if as_json else words)
    return 0
