"""`sticks-tui brain ...`: list, export, import, copy, rename, reset and delete the AI's named brains."""

from __future__ import annotations

import argparse
import json
import sys

from sticks_tui.engine import registry
from sticks_tui.commands.common import int_list, open_store


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "brain", help="list, export, import, copy, rename, reset or delete the AI's saved brains",
        description="The learning AI's brains (its hats) are kept by name in the database. Export one to a "
                    "JSON file to share a trained AI; import checks every field of a file before keeping it.")
    sub = p.add_subparsers(title="actions", metavar="ACTION", required=True)
    a = sub.add_parser("list", help="every brain: size, rule, games trained, its own record")
    a.add_argument("--json", action="store_true", help="print JSON instead of text")
    a.set_defaults(handler=run_list)
    a = sub.add_parser("export", help="write a brain to a JSON file",
                       description="Write a brain to a JSON brain file. The database, any SQLite file, a "
                                   "pipe, a device or a folder is always refused; a symbolic link or an existing "
                                   "file that is not an earlier brain file only with --force.")
    a.add_argument("name")
    a.add_argument("file")
    a.add_argument("--force", action="store_true",
                   help="replace an existing file (or symbolic link) that is not an earlier brain file")
    a.set_defaults(handler=run_export)
    a = sub.add_parser("import", help="read a brain from a JSON file (checked before anything is kept)")
    a.add_argument("file")
    a.add_argument("name", nargs="?", default=None, help="name to keep it under (default: the name in the file)")
    a.add_argument("--replace", action="store_true", help="overwrite a brain of the same name (and the same game)")
    a.add_argument("--game", choices=registry.names(), default=None,
                   help="the game the file must hold a brain for (refused with the reason otherwise)")
    a.set_defaults(handler=run_import)
    a = sub.add_parser("print", help="print a brain as a machine of paper: a PDF of box labels to cut out",
                       description="Write a PDF to build the machine by hand: a cover saying how many boxes and "
                                   "beads of each colour to buy, then one label per box (cut-out size), numbered "
                                   "by the move it serves, with its position drawn and the beads to put in it. "
                                   "A name no brain has yet prints a new brain of --game (nothing is saved).")
    a.add_argument("name")
    a.add_argument("file", help="the PDF to write (an earlier print is replaced; any other file only with --force)")
    a.add_argument("--game", choices=registry.names(), default=None,
                   help="the game the brain plays (a kept brain of another game is refused; a new name: required)")
    a.add_argument("--as-is", action="store_true",
                   help="print the beads the brain holds now (to restock a paper machine), not its start beads")
    a.add_argument("--force", action="store_true", help="replace an existing file that is not an earlier print")
    a.add_argument("--beads", type=int_list(4, 1, 1000, "--beads"), default=None,
                   help="a new brain only: its start tokens by its move number, e.g. 4,3,2,1 for Michie's MENACE "
                        "(default: the game's own, as the app makes a brain: MENACE 12,3,2,1)")
    a.set_defaults(handler=run_print)
    a = sub.add_parser("copy", help="copy a brain under a new name")
    a.add_argument("src")
    a.add_argument("dst")
    a.set_defaults(handler=lambda args: _do(args, lambda s: s.copy_brain(args.src, args.dst),
                                            f"Copied {args.src!r} to {args.dst!r}."))
    a = sub.add_parser("rename", help="rename a brain (its games and curve follow it)")
    a.add_argument("old")
    a.add_argument("new")
    a.set_defaults(handler=lambda args: _do(args, lambda s: s.rename_brain(args.old, args.new),
                                            f"Renamed {args.old!r} to {args.new!r}."))
    a = sub.add_parser("reset", help="make a brain forget everything it learned")
    a.add_argument("name")
    a.set_defaults(handler=lambda args: _do(args, lambda s: s.reset_brain(args.name),
                                            f"Reset {args.name!r}: fresh hats, 0 games trained."))
    a = sub.add_parser("delete", help="delete a brain")
    a.add_argument("name")
    a.set_defaults(handler=lambda args: _do(args, lambda s: s.delete_brain(args.name),
                                            f"Deleted {args.name!r}."))


def _do(args: argparse.Namespace, action, done: str | None = None) -> int:
    """Open the store, run `action(store)`; a refusal prints its reason (status 1, or 2 for a bad name)."""
    from sticks_tui.store import InvalidName, StoreError

    store = open_store(args.data_dir, "brain")
    if store is None:
        return 1
    with store:
        try:
            result = action(store)
        except InvalidName as exc:
            print(f"sticks-tui brain: {exc}", file=sys.stderr)
            return 2
        except StoreError as exc:
            print(f"sticks-tui brain: {exc}", file=sys.stderr)
            return 1
    if callable(done):
        print(done(result))
    elif done:
        print(done)
    return 0


def rule_words(b) -> str:
    """A brain's rule in a listing: '+1/-1 each' (win reward, loss penalty, floor); with no floor (MENACE)
    '+3/+1/-1 resign' (its incentives for a win, a draw and a loss, what an empty container does)."""
    if b.rule.floor == "none":
        return "/".join(f"{i:+d}" for i in b.rule.incentives) + f" {b.rule.empty}"
    return f"+{b.rule.win_reward}/-{b.rule.loss_penalty} {b.rule.floor}"


def run_list(args: argparse.Namespace) -> int:
    def listing(store):
        return [(b, store.brain_record(b.name)) for b in store.list_brains()]

    def show(rows) -> str:
        if args.json:
            return json.dumps([{"name": b.name, "game": b.game, "size": b.size, "max_take": b.max_take,
                                "rule": {"start_balls": b.rule.start_balls, "win_reward": b.rule.win_reward,
                                         "loss_penalty": b.rule.loss_penalty, "floor": b.rule.floor},
                                "games_trained": b.games_trained, "updated": b.updated.isoformat(),
                                "wins": w, "losses": lo,
                                **({"menace_rule": {"beads": list(m.beads), "incentives": list(m.incentives),
                                                    "empty": m.empty}} if (m := b.rule).floor == "none" else {})}
                               for b, (w, lo) in rows])
        if not rows:
            return "No brains saved yet."
        width = max(5, *(len(b.name) for b, _ in rows))
        rules = [rule_words(b) for b, _ in rows]
        rule_width = max(14, *map(len, rules))
        game_width = max(6, *(len(b.game) for b, _ in rows))  # the longest game's name keeps the columns
        lines = [f"{'Brain':<{width}}  {'Game':<{game_width}}  {'Hats':>4}  {'Take':>4}  {'Rule':<{rule_width}}  "
                 f"{'Games trained':>13}  {'Won':>5}  {'Lost':>5}  Updated"]
        for (b, (w, lo)), rule in zip(rows, rules, strict=True):
            updated = b.updated.astimezone().strftime("%Y-%m-%d %H:%M")
            lines.append(f"{b.name:<{width}}  {b.game:<{game_width}}  {b.size:>4}  {b.max_take:>4}  {rule:<{rule_width}}  "
                         f"{b.games_trained:>13,}  "
                         f"{w:>5}  {lo:>5}  {updated}")
        for game in dict.fromkeys(b.game for b, _ in rows):  # what the columns mean for a game's brains
            note = registry.entry(game).listing_note
            if note:
                lines.append(note)
        return "\n".join(lines)

    return _do(args, listing, show)


def run_export(args: argparse.Namespace) -> int:
    """Write the brain through the export guard (`Store.export_brain`): never over the live database, a SQLite
    file, a device or someone's file."""
    return _do(args, lambda store: store.export_brain(args.name, args.file, force=args.force),
               lambda name: f"Exported brain {name!r} to {args.file}.")


def run_import(args: argparse.Namespace) -> int:
    return _do(args, lambda s: s.import_brain(args.file, args.name, replace=args.replace, game=args.game),
               lambda name: f"Imported {args.file} as brain {name!r}.")


def run_print(args: argparse.Namespace) -> int:
    """Print brain `name` (or a new brain of --game) as a machine of paper (`store.machine_pdf`)."""
    from sticks_tui.learn.machine import fresh_brain, plural
    from sticks_tui.store import StoreError
    from sticks_tui.store.machine_pdf import print_brain, recognise, write_machine_pdf
    from sticks_tui.store.safefile import check_target

    def make(store):
        protected = [store.path] if store.path is not None else []
        check_target(args.file, what="PDF", recognise=recognise, force=args.force, protected=protected)
        brain = store.load_brain(args.name, args.game)
        if brain is None:
            if args.game is None:
                raise StoreError(f"There is no brain called {args.name!r}; give --game to print a new one.")
            brain = fresh_brain(registry.entry(args.game), beads=args.beads)
            kept = False
        elif args.beads is not None:
            raise StoreError(f"The brain {args.name!r} is kept with its own start tokens; --beads is for a new "
                             "brain (a name no brain has yet). Nothing was printed.")
        else:
            kept = True
        machine, data = print_brain(brain, args.name, as_is=args.as_is)
        write_machine_pdf(args.file, data, force=args.force, protected=protected)
        return machine, kept

    def done(result) -> str:
        machine, kept = result
        box, bead = machine.words
        beads = sum(machine.totals().values())
        whose = (f"brain {args.name!r}" if kept else f"a new brain of {registry.entry(args.game).title} "
                 f"(not kept: no brain is called {args.name!r} yet; its first paper game keeps it)")
        return (f"Printed {whose} to {args.file}: {len(machine.boxes)} {plural(box)}, {beads} {bead}s "
                f"({'as it is now' if args.as_is else 'its start ' + bead + 's'}).")

    return _do(args, make, done)

