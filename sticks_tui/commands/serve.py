"""`sticks-tui serve`: the full app in a browser, one app process per tab, one shared database."""

from __future__ import annotations

import argparse
import sys

from sticks_tui.commands.common import int_in_range

DEFAULT_MAX_SESSIONS = 20


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "serve", help="serve the app to web browsers (a class on one computer or a local network)",
        description="Serve the full app to web browsers: each browser tab gets its own game, and every "
                    "tab shares one database, so a class shares one leaderboard and one brain. "
                    "Needs the 'web' extra: pip install 'sticks-tui[web]'. Ctrl+C stops the server "
                    "and every session; each app saves and quits as it does when you quit it.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this computer only; "
                        "0.0.0.0 lets other computers on the network in)")
    p.add_argument("--port", type=int_in_range(0, 65535, "--port"), default=8000,
                   help="port to listen on (default 8000; 0 picks a free one)")
    p.add_argument("--max-sessions", type=int_in_range(1, 500, "--max-sessions"),
                   default=DEFAULT_MAX_SESSIONS,
                   help=f"most browser tabs playing at once (default {DEFAULT_MAX_SESSIONS}); "
                        "one more gets a page saying the class is full")
    # its own dest: a sub-command default would otherwise hide `sticks-tui --data-dir PATH serve`
    p.add_argument("--data-dir", dest="serve_data_dir", metavar="PATH", default=None,
                   help="where the class's records and brains are kept (default: as for the app)")
    p.add_argument("--teacher-token", metavar="SECRET", default=None,
                   help="the secret in the teacher's address (default: a new random one at each start); "
                        "12 to 128 letters, digits, '-' or '_'. Only a tab opened from the teacher's address "
                        "can reset or restore the class's records and brains")
    p.add_argument("--backup-minutes", type=int_in_range(1, 24 * 60, "--backup-minutes"), default=10,
                   help="a back-up of the class's database at start and every this many minutes while games "
                        "are played (default 10), in the folder 'backups' beside it (the newest 5 made at a "
                        "start and 10 timed ones are kept)")
    # seconds instead of minutes, for the tests that watch timed back-ups happen in real time
    p.add_argument("--backup-seconds", type=float, default=None, help=argparse.SUPPRESS)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        from sticks_tui.web.server import ClassServer
    except ImportError:
        from sticks_tui.web import INSTALL_HINT

        print(INSTALL_HINT, file=sys.stderr)
        return 2
    from sticks_tui.store import Store, StoreError
    from sticks_tui.web.server import check_teacher_token

    if args.teacher_token is not None:
        try:
            check_teacher_token(args.teacher_token)
        except ValueError as exc:
            print(f"sticks-tui serve: --teacher-token: {exc}. Nothing was started.", file=sys.stderr)
            return 2
    data_dir = args.serve_data_dir if args.serve_data_dir is not None else args.data_dir
    # One database for every tab: check it is usable now (a command never falls back to memory),
    # rather than let each tab fall back to a memory store of its own (a class would share nothing).
    try:
        with Store.open(data_dir) as store:
            for notice in store.notices:
                print(f"sticks-tui serve: {notice}", file=sys.stderr)
            database = store.path.resolve()
    except StoreError as exc:
        print(f"sticks-tui serve: {exc}", file=sys.stderr)
        print("sticks-tui serve: the class needs a database every tab can share; "
              "fix the above or choose another --data-dir.", file=sys.stderr)
        return 1
    from sticks_tui.store.backups import BackupKeeper, backup_folder, interval_words

    # a back-up now, then every --backup-minutes while games are played; one that cannot be written is
    # said here (and in the teacher's tab), and the class plays on
    every = args.backup_minutes * 60.0
    if args.backup_seconds is not None and args.backup_seconds > 0:
        every = args.backup_seconds
    keeper = BackupKeeper(database, every=every)
    first = keeper.tick()
    if first is None:
        print(f"sticks-tui serve: {keeper.problem} The class plays on without back-ups.", file=sys.stderr)
    server = ClassServer(data_dir=str(database.parent), host=args.host, port=args.port,
                         max_sessions=args.max_sessions, database=str(database),
                         teacher_token=args.teacher_token or "", backups=keeper)

    def ready(urls: list[str]) -> None:
        print(f"sticks-tui serves the app on {' and '.join(urls)}", flush=True)
        print(f"  pupils open that address in a browser; each tab is its own game (at most {args.max_sessions})",
              flush=True)
        print(f"  the teacher's address (keep it to yourself: it can reset and restore the class's records and "
              f"brains): {server.teacher_url(urls[0])}", flush=True)
        print(f"  the class view for a projector (its own secret: it shows the class and can change nothing): "
              f"{server.class_view_url(urls[0])}", flush=True)
        print(f"  the class's records and brains: {database}", flush=True)
        if first is not None:
            print(f"  back-ups (at start, {interval_words(every)} while games are played, and before every reset "
                  f"or restore): {backup_folder(database)}", flush=True)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            print("  anyone who can reach this computer on the network can play: see docs/web.md, "
                  "\"The risks\", for what to do about it", flush=True)
        print("  Ctrl+C stops the server and every session", flush=True)

    import asyncio  # here, not at the top: every other command would pay its import (~40 ms of CPU)

    try:
        asyncio.run(server.run(ready))
    except OSError as exc:  # the port is taken, the address is not this machine's, ...
        print(f"sticks-tui serve: cannot listen on {args.host} port {args.port}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 1
    finally:
        keeper.close()
    print("sticks-tui serve: stopped; every session has quit", flush=True)
    return 0
