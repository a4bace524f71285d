"""`sticks-tui records`: the leaderboard, recent games and each brain's own record."""

from __future__ import annotations

import argparse
import json
import sys

from sticks_tui.commands.common import int_in_range, open_store


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "records", help="show every player's wins, losses and rating, and the AI's record per brain",
        description="Show the leaderboard (rating = wins - losses, the seeds' +1 a win and -1 a loss), "
                    "the AI's own record with each brain, and the latest games.")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--player", default=None, help="only this player's recent games")
    p.add_argument("--games", type=int_in_range(0, 10_000, "--games"), default=10,
                   help="how many recent games to list (default 10)")
    p.set_defaults(handler=run)


def _when(dt) -> str | None:
    return dt.isoformat() if dt is not None else None


def run(args: argparse.Namespace) -> int:
    from sticks_tui.store import StoreError

    store = open_store(args.data_dir, "records")  # never an empty memory store: say what is wrong and where
    if store is None:
        return 1
    with store:
        try:
            players = store.leaderboard()
            brains = [(b.name, *store.brain_record(b.name)) for b in store.list_brains()]
            games = store.recent_games(args.player, args.games)
            shared = store.shared_names()
        except StoreError as exc:
            print(f"sticks-tui records: {exc}", file=sys.stderr)
            return 1
    if args.json:
        print(json.dumps({
            "database": str(store.path) if store.path else None,
            "players": [{"name": p.name, "wins": p.wins, "draws": p.draws, "losses": p.losses, "rating": p.rating,
                         "last_played": _when(p.last_played), "is_ai": p.is_ai} for p in players],
            "brains": [{"name": n, "wins": w, "losses": lo} for n, w, lo in brains],
            "recent_games": [{"id": g.id, "played_at": _when(g.played_at), "game": g.game, "start": g.start,
                              "opponent": g.opponent, "players": list(g.players), "moves": list(g.moves),
                              "loser": g.loser, "loser_name": g.loser_name, "brain": g.brain,
                              "ai_seats": list(g.ai_seats)} for g in games],
            "shared_names": [{"key": s.key, "people": [{"name": n, "games": c} for n, c in s.people],
                              "ais": list(s.ais), "message": s.sentence()} for s in shared],
        }))
        return 0
    if not players:
        print("No games recorded yet.")
    else:
        width = max(6, *(len(p.name) for p in players))
        draws = any(p.draws for p in players)  # a column only once a game was drawn (noughts and crosses)
        print(f"{'Player':<{width}}  {'Wins':>6}  " + (f"{'Draws':>6}  " if draws else "")
              + f"{'Losses':>6}  {'Rating':>6}  Last played")
        for p in players:
            last = p.last_played.astimezone().strftime("%Y-%m-%d %H:%M") if p.last_played else "-"
            print(f"{p.name:<{width}}  {p.wins:>6}  " + (f"{p.draws:>6}  " if draws else "")
                  + f"{p.losses:>6}  {p.rating:>+6}  {last}")
    if shared:
        print()
        print("Warning: a person and an AI share a row (kept before sticks-tui refused such names; not merged or "
              "split here):")
        for s in shared:
            print(f"  {s.sentence()}")
    if brains:
        print()
        print("The AI's own record, per brain:")
        for name, wins, losses in brains:
            print(f"  {name}: {wins} won, {losses} lost")
    if games:
        print()
        print("Recent games:" if args.player is None else f"Recent games of {args.player}:")
        for g in games:
            when = g.played_at.astimezone().strftime("%Y-%m-%d %H:%M")
            moves = " ".join(map(str, g.moves))
            print(f"  {when}  {g.game} from {g.start}: {g.players[0]} v {g.players[1]}, "
                  f"{g.result_words}  [{moves}]")
    return 0
