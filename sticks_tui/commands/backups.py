"""`sticks-tui backups`: the back-ups `sticks-tui serve` keeps of the class's database, and a restore."""

from __future__ import annotations

import argparse
import json
import sys

from sticks_tui.commands.common import open_store


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "backups", help="list the back-ups of the records and brains (sticks-tui serve makes them), or restore one",
        description="List the back-ups of the database of records and brains, newest first, with when and why "
                    "each was made: `sticks-tui serve` makes one when it starts and every --backup-minutes while "
                    "games are played; one is made before every reset, delete, replace or restore (from the app, "
                    "the teacher's tab or this command line); --now makes one by hand. They are kept in the "
                    "folder 'backups' beside the database: the newest 5 made at a start, 10 timed, 10 made "
                    "before a change and 5 made by hand. --restore NAME puts one back (for every tab of a server "
                    "still running, too); the database as it is then is kept as a back-up first.")
    p.add_argument("--json", action="store_true", help="print a JSON list instead of text")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--restore", metavar="NAME", default=None,
                      help="restore the back-up of that file name (as listed); the current database is kept as a "
                           "back-up first")
    what.add_argument("--now", action="store_true", help="make a back-up now (kept among the 5 made by hand)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from sticks_tui.store import StoreError
    from sticks_tui.store.backups import backup_folder, folder_problem, list_backups

    store = open_store(args.data_dir, "backups")
    if store is None:
        return 1
    with store:
        if args.now:
            from sticks_tui.store.backups import make_backup

            try:
                made = make_backup(store.path, "by-hand")
            except StoreError as exc:
                print(f"sticks-tui backups: {exc}", file=sys.stderr)
                return 1
            print(f"Backed up as {made.name} ({made.contents_words}).")
            return 0
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
        print(json.dumps([{"name": b.name, "made_at": b.made_at.isoformat(), "why": b.why, "about": b.about,
                           "why_words": b.why_words, "games": b.games, "brains": b.brains, "problem": b.problem,
                           "bytes": b.size} for b in found]))
        return 0
    if problem:
        print(f"sticks-tui backups: {problem}", file=sys.stderr)
    if not found:
        print(f"No back-ups in {folder} (sticks-tui serve makes them; `sticks-tui backups --now` makes one).")
        return 0
    print(f"Back-ups in {folder}, newest first:")
    for b in found:
        when = b.made_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
        print(f"  {b.name}  {when}  {b.why_words}: {b.contents_words}")
    print("Restore one with: sticks-tui backups --restore NAME")
    return 0
