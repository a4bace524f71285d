"""`sticks-tui export hats|curve|games|game|lab`: class exports as CSV or JSON, to stdout or a file."""

from __future__ import annotations

import argparse
import sys

from sticks_tui.commands.common import int_in_range, open_store


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "export", help="export the hats table, the learning curve, the game list, one game or a lab (CSV or JSON)",
        description="Export for class: 'hats' is one row per hat (balls and chance per ball, the AI's move, the "
                    "perfect move, right or not); 'curve' is the brain's last learning curve; 'games' every "
                    "recorded game; 'game' one game move by move (--id, as in the game list); 'lab' a kept learning "
                    "lab, its table and curves (--id, as in `sticks-tui lab --list`; default the latest). Printed, or "
                    "written to --output: an earlier export of the same kind is replaced; any other existing "
                    "file only with --force; the database, a SQLite file, a pipe, a device or a folder never.")
    p.add_argument("what", choices=("hats", "curve", "games", "game", "lab"), metavar="WHAT",
                   help="hats, curve, games, game or lab")
    p.add_argument("--brain", default="default", help="the brain for hats and curve (default 'default')")
    p.add_argument("--id", dest="game_id", type=int_in_range(1, 2**63 - 1, "--id"), default=None,
                   help="the game's id, for 'game'; the lab's, for 'lab' (default: the latest lab)")
    p.add_argument("--format", choices=("csv", "json"), default=None,
                   help="csv or json (default: from --output's ending, else csv)")
    p.add_argument("--output", "-o", metavar="PATH", default=None, help="write to this file instead of printing")
    p.add_argument("--force", action="store_true",
                   help="replace an existing file (or symbolic link) that is not an earlier export of this kind")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from sticks_tui.store import StoreError
    from sticks_tui.store.exports import WHAT, build_export, recogniser, write_export
    from sticks_tui.store.safefile import check_target

    if args.what == "game" and args.game_id is None:
        print("sticks-tui export: say which game with --id (the ids are in `sticks-tui export games`).",
              file=sys.stderr)
        return 2
    fmt = args.format
    if fmt is None:
        fmt = "json" if args.output and str(args.output).lower().endswith(".json") else "csv"
    store = open_store(args.data_dir, "export")  # a database it cannot open: why, in one line
    if store is None:
        return 1
    with store:
        protected = [store.path] if store.path is not None else []
        try:
            if args.output is not None:  # refuse a bad target before any work
                check_target(args.output, what=f"{WHAT[args.what]} export", recognise=recogniser(args.what),
                             force=args.force, protected=protected)
            if args.what == "lab":
                export = build_export(store, "lab", fmt, lab_id=args.game_id)
            else:
                export = build_export(store, args.what, fmt, brain=args.brain, game_id=args.game_id)
            if args.output is not None:
                written = write_export(args.output, export.text, args.what, force=args.force, protected=protected)
        except StoreError as exc:
            print(f"sticks-tui export: {exc}", file=sys.stderr)
            return 1
    if args.output is None:
        sys.stdout.write(export.text)
    else:
        print(f"Exported the {WHAT[args.what]} ({fmt.upper()}) to {written}.")
    return 0
