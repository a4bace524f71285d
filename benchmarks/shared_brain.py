"""Several copies of sticks-tui teaching one brain at once: games/s and balls lost (must be 0).

Each process plays `--games` games of 10 sticks between the shared learning brain (seat 2) and a
random player, recording each with `record_game(learning=...)` (the game's lesson applied to the
brain as stored, in one transaction) and adopting the stored brain it returns. Afterwards a fresh
brain with every recorded game's learning applied in record order is compared with the stored
brain: "balls lost" is the sum of their differences.

    .venv/bin/python benchmarks/shared_brain.py [--games 200]
--smoke: five games in one and in two processes; it proves the script works (CI runs it), its figures
mean nothing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np

from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store

WORKER = textwrap.dedent("""
    import random, sys, time
    from pathlib import Path
    from sticks_tui.store import Store
    data, seed, games, go = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
    rng = random.Random(seed)
    store = Store.open(data)
    brain = store.load_or_create_brain("shared", 10)
    print("ready", flush=True)
    while not go.exists():
        time.sleep(0.001)
    for _ in range(games):
        heap, seat, moves, drawn = 10, 0, [], []
        while heap:
            if seat == 1:
                take = brain.draw(heap, rng)
                drawn.append((heap, take))
            else:
                take = rng.randint(1, min(3, heap))
            moves.append(take)
            heap -= take
            seat = 1 - seat
        loser = 1 - seat
        got = store.record_game(game="sticks", start=10, opponent="learning", players=(f"Kid {seed}", "AI"),
                                moves=moves, loser=loser, brain="shared", learning={1: ("shared", drawn)})
        brain = got.brains[1]
    store.close()
""")


def run(processes: int, games: int, settle: float) -> tuple[float, int, int]:
    with tempfile.TemporaryDirectory() as tmp:
        Store.open(tmp).close()
        go = Path(tmp) / "go"
        procs = [subprocess.Popen([sys.executable, "-c", WORKER, tmp, str(seed), str(games), str(go)],
                                  stdout=subprocess.PIPE, text=True)
                 for seed in range(processes)]
        for p in procs:  # each has its store open and its brain loaded
            if p.stdout.readline().strip() != "ready":
                raise SystemExit("a worker failed to start")
        time.sleep(settle)
        start = time.perf_counter()
        go.touch()
        for p in procs:
            p.stdout.close()
            if p.wait() != 0:
                raise SystemExit("a worker failed")
        seconds = time.perf_counter() - start
        with Store.open(tmp) as store:
            expected = Hats(10)
            for game in reversed(store.recent_games(limit=10**7)):
                for lesson in game.learning:
                    expected.reinforce(list(lesson.drawn), lesson.won)
            stored = store.load_brain("shared")
            lost = int(np.abs(expected.counts - stored.counts).sum())
            recorded = store.game_count()
    return recorded / seconds, lost, recorded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per process (default 200)")
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works (CI)")
    args = parser.parse_args()
    print(f"{'processes':>9}  {'games':>6}  {'games/s':>8}  balls lost")
    for n in (1, 2) if args.smoke else (1, 2, 4):
        # a full run lets the workers settle half a second once ready; --smoke starts them at once
        rate, lost, recorded = run(n, 5 if args.smoke else args.games, 0.0 if args.smoke else 0.5)
        print(f"{n:>9}  {recorded:>6}  {rate:>8.1f}  {lost}")


if __name__ == "__main__":
    main()
