"""`sticks-tui`: with no sub-command, the full-screen app; sub-commands for scripts and terminals."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from sticks_tui import __version__

#: Sub-command modules under sticks_tui.commands, each with register(subparsers).
COMMAND_MODULES = ["train", "nim", "classic", "records", "brain", "serve"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sticks-tui",
        description="Play the Game of Sticks against an AI that learns from experience, and watch it learn. "
                    "With no sub-command, the full-screen app starts.")
    parser.add_argument("--version", action="version", version=f"sticks-tui {__version__}")
    parser.add_argument("--data-dir", metavar="PATH", default=None,
                        help="where records and brains are kept (default: your user data directory, "
                             "or $STICKS_TUI_DATA_DIR)")
    sub = parser.add_subparsers(title="sub-commands", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"sticks_tui.commands.{name}").register(sub)
    return parser


def run_app(args: argparse.Namespace) -> int:
    from sticks_tui.ui.app import SticksApp

    app = SticksApp(data_dir=args.data_dir)
    app.run()
    return app.return_code or 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", run_app)
    try:
        status = handler(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # the reader went away (`sticks-tui records | head`): stop quietly, as command-line tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
    except ValueError as exc:  # a bad value that slipped past argparse: say it plainly
        print(f"sticks-tui: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
