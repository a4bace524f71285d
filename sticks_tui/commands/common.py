"""Helpers shared by the sub-commands: argument types that explain what is wrong, and the store."""

from __future__ import annotations

import argparse
import sys


def player_name(text: str) -> str:
    """A name as the records take it (argparse's type for --name and the like)."""
    from sticks_tui.store import InvalidName, validate_name

    try:
        return validate_name(text, "player")
    except InvalidName as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def int_in_range(low: int, high: int, what: str):
    def parse(text: str) -> int:
        try:
            value = int(text.replace("_", "").replace(",", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be between {low:,} and {high:,}, not {value:,}")
        return value

    parse.__name__ = what  # argparse names the type in its messages
    return parse


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


def open_store(data_dir, command: str):
    """The store for a command, its notices printed; None (after saying why on stderr) when it cannot
    be used. A command never falls back to memory: what it writes must be kept, or it fails."""
    from sticks_tui.store import Store, StoreError

    try:
        store = Store.open(data_dir)
    except StoreError as exc:
        print(f"sticks-tui {command}: {exc}", file=sys.stderr)
        return None
    for notice in store.notices:
        print(f"sticks-tui: {notice}", file=sys.stderr)
    return store


# -- the game a command is about: `--game G` and the game's own size options, from its registry entry ----

def _option_dest(flag: str) -> str:
    return "game_option_" + flag.lstrip("-").replace("-", "_")


def add_game_arguments(parser: argparse.ArgumentParser, what: str = "the game", rules_only: bool = False) -> None:
    """`--game` (one of the registry's games; default the first listed) and every game's size options
    (`--sticks N`, `--piles A,B,C` ...; with `rules_only` those that change the rules, `GameOption.of_rules`),
    each read as text and checked against the game chosen by `game_options` once the arguments are parsed."""
    from sticks_tui.engine import registry

    games = registry.entries()
    parser.add_argument("--game", choices=[g.name for g in games], default=games[0].name,
                        help=f"{what}: " + "; ".join(f"{g.name} ({g.title})" for g in games)
                             + f" (default {games[0].name})")
    offered: dict[str, list] = {}
    for game in games:
        for option in game.options:
            if option.of_rules or not rules_only:
                offered.setdefault(option.flag, []).append((game, option))
    for flag, owners in offered.items():
        game, option = owners[0]
        whose = ", ".join(g.name for g, _ in owners)
        parser.add_argument(flag, dest=_option_dest(flag), metavar=option.metavar, default=None,
                            help=f"{whose}: {option.help}")


def game_options(parser: argparse.ArgumentParser, args: argparse.Namespace, rules_only: bool = False):
    """The game chosen and its size options' values as given (key -> value, None where not given); an
    option of another game, or a value its game refuses, ends the command with argparse's usage error
    (status 2), naming the option."""
    from sticks_tui.engine import registry

    game = registry.entry(args.game)
    own = {option.flag: option for option in game.options if option.of_rules or not rules_only}
    given = {}
    for name, text in sorted(vars(args).items()):
        if not name.startswith("game_option_") or text is None:
            continue
        flag = next(f for f in _flags_of_all() if _option_dest(f) == name)
        option = own.get(flag)
        if option is None:
            theirs = ", ".join(own) if own else "none"
            parser.error(f"{flag} is not an option of {game.title} here (its options: {theirs})")
        try:
            given[option.key] = option.parse(text)
        except ValueError as exc:
            parser.error(f"argument {flag}: {exc}")
    return game, given


def _flags_of_all() -> list[str]:
    from sticks_tui.engine import registry

    return [option.flag for game in registry.entries() for option in game.options]
