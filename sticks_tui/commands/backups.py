"""`sticks-tui backups`: the back-ups `sticks-tui serve` keeps of the class's database, and a restore."""

from __future__ import annotations

import argparse
import json
import sys

from sticks_tui.commands.common import open_store


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "backups", help="list the back-ups of the records and brains (sticks-tui serve makes them), or restore one",
        description="List the back-ups of the database of records and brains, newest first: `sticks-tui serve` "
                    "makes one when it starts and every 10 minutes while games are played, and keeps the last "
                    "10 in the folder 'backups' beside the database. --restore NAME puts one back (for every "
                    "tab of a server still running, too); the database as it is then is kept as a back-up first.")
    p.add_argument("--json", action="store_true", help="print a JSON list instead of text")
    p.add_argument("--restore", metavar="NAME", default=None,
                   help="restore the back-up of that file name (as listed); the current database is kept as a "
                        "back-up first")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from sticks_tui.store import StoreError
    from sticks_tui.store.backups import backup_folder, folder_problem, list_backups

    store = open_store(args.data_dir, "backups")
    if store is None:
        return 1
    with store:
        if args.restore is not None:
            try:
                restored, kept = store.restore_backup(args.restore)
            except StoreError as exc:
                print(f"sticks-tui backups: {exc}", file=sys.stderr)
                return 1
            print(f"Restored {restored.name} ({restored.games} games, {restored.brains} brains). The database as "
                  f"it was is kept as {kept.name}.")
            return 0
        found = list_backups(store.path)
        folder = backup_folder(store.path)
        problem = folder_problem(store.path) if folder.exists() else None
    if args.json:
        print(json.dumps([{"name": b.name, "made_at": b.made_at.isoformat(), "why": b.why, "games": b.games,
                           "brains": b.brains, "bytes": b.size} for b in found]))
        return 0
    if problem:
        print(f"sticks-tui backups: {problem}", file=sys.stderr)
    if not found:
        print(f"No back-ups in {folder} (sticks-tui serve makes them).")
        return 0
    print(f"Back-ups in {folder}, newest first:")
    for b in found:
        when = b.made_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
        what = "unreadable" if b.games is None else f"{b.games} games, {b.brains} brains"
        print(f"  {b.name}  {when}  {b.why_words}: {what}")
    print("Restore one with: sticks-tui backups --restore NAME")
    return 0
