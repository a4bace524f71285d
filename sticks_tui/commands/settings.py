"""`sticks-tui settings path|show|reset`: where the settings file is, what it holds, and back to the defaults."""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "settings", help="show where the settings file is, what it holds, or reset it to the defaults",
        description="The app keeps its settings (theme, AI speed, game, heap, Nim piles, opponent, names, who "
                    "moves first, key bindings) in a TOML file in your config directory (--config-dir, else "
                    "$STICKS_TUI_CONFIG_DIR). A damaged file is kept aside and the defaults are used.")
    sub = p.add_subparsers(title="actions", metavar="ACTION", required=True)
    a = sub.add_parser("path", help="print the settings file's path")
    a.set_defaults(handler=run_path)
    a = sub.add_parser("show", help="print the settings in use (the defaults where the file says nothing)")
    a.add_argument("--json", action="store_true", help="print JSON instead of the file's TOML")
    a.set_defaults(handler=run_show)
    a = sub.add_parser("reset", help="go back to the defaults (the old file is kept aside, renamed)")
    a.set_defaults(handler=run_reset)


def _path(args: argparse.Namespace):
    from sticks_tui.store.settings import settings_path

    return settings_path(getattr(args, "config_dir", None))


def run_path(args: argparse.Namespace) -> int:
    print(_path(args))
    return 0


def run_show(args: argparse.Namespace) -> int:
    from sticks_tui.store.settings import dump_settings, load_settings

    path = _path(args)
    settings, notices = load_settings(path, move_aside=False)  # showing changes nothing
    for notice in notices:
        print(f"sticks-tui: {notice}", file=sys.stderr)
    if args.json:
        print(json.dumps({"path": str(path), **settings.as_dict()}, ensure_ascii=False))
    else:
        sys.stdout.write(dump_settings(settings))
    return 0


def run_reset(args: argparse.Namespace) -> int:
    from sticks_tui.store import StoreError
    from sticks_tui.store.settings import reset_settings

    path = _path(args)
    try:
        aside = reset_settings(path)
    except StoreError as exc:
        print(f"sticks-tui settings: {exc}", file=sys.stderr)
        return 1
    if aside is None:
        print(f"There is no settings file at {path}; the defaults are in use already.")
    else:
        print(f"Settings reset to the defaults; the old file was kept as {aside}.")
    return 0
