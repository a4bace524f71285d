"""What the class's live check costs (issue 19 item 1): each tab asks its store twice a second whether
another tab wrote (`Store.data_version`, SQLite's PRAGMA data_version) and, when one did, reads what
changed (`ui/live.py ClassWatch.check`).

1. One call, in microseconds: the check when nothing changed (what almost every call is), and when a
   classmate's game came in (the games since the last one and the brain read, the change computed).
2. A class: `--tabs` processes (one per tab, as `sticks-tui serve` runs them), each checking every 0.5 s
   for `--seconds`, while one more process records a classmate's game against the learning AI every
   `--every` seconds; beside it, the same processes sleeping on the same beat without the check (the
   baseline). Printed: CPU seconds per tab and in all (check minus baseline: the check's own cost), the
   share of one core that is, and how long after a game was kept each tab saw it (p50/p95/max).

    .venv/bin/python benchmarks/bench_live_check.py [--tabs 24] [--seconds 20] [--every 1]
--smoke: 1 tab for 1 second, a game every 0.25 s in the first half of it (the tab checks at 0 and 0.5 s);
it proves the script works, its figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

TAB = textwrap.dedent("""
    import json, resource, sys, time
    sys.path.insert(0, sys.argv[4])
    from bench_live_check import class_tab
    from sticks_tui.ui.live import LIVE_CHECK

    data_dir, seconds, check = sys.argv[1], float(sys.argv[2]), sys.argv[3] == "check"
    session, watch, adopt = class_tab(data_dir)
    print("ready", flush=True)
    sys.stdin.readline()  # all tabs start together
    seen = []  # (time a change was seen, game ids in it)
    start = time.time()
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    next_at = time.monotonic()
    while time.time() - start < seconds:
        next_at += LIVE_CHECK
        if check:
            change = watch.check(session, adopt=adopt)
            if change is not None:
                seen.append((time.time(), [g.id for g in change.games]))
        time.sleep(max(0.0, next_at - time.monotonic()))
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    print(json.dumps({"cpu": cpu, "seen": seen}), flush=True)
""")

WRITER = textwrap.dedent("""
    import json, random, sys, time
    from sticks_tui.store import Store
    data_dir, seconds, every = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    store = Store.open(data_dir)
    print("ready", flush=True)
    sys.stdin.readline()
    kept = {}
    start = time.time()
    rng = random.Random(1)
    # the last game at least a check (0.5 s) before the end, so a tab sees it: 1 s before in a full run
    while time.time() - start < seconds - min(1.0, seconds / 2):
        # the learning AI (seat 2) loses a game of 7 sticks: it drew 1 from hat 6, then 1 from hat 2
        game = store.record_game(start=7, opponent="learning", players=(f"Pupil {rng.randrange(24)}", "Learning AI"),
                                 moves=[1, 1, 3, 1, 1], loser=0, brain="default",
                                 learning={1: ("default", [(6, 1), (2, 1)])})
        kept[int(game)] = time.time()
        time.sleep(every)
    print(json.dumps(kept), flush=True)
""")


def class_tab(data_dir):
    """A tab's session on the class's store, as the app keeps it, with its live check started:
    (session, watch, adopt(counts))."""
    from sticks_tui.store import Store
    from sticks_tui.ui.live import ClassWatch
    from sticks_tui.ui.session import Session

    session = Session.create(str(data_dir), seed=1)
    session.store = Store.open(data_dir)
    session.brain = session.store.load_or_create_brain("default", 100)
    session.brain_name, session.brain_kept, session.brain_base = "default", True, session.brain.counts.copy()

    def adopt(counts):
        session.brain.counts[:] = counts
        session.brain_base = counts.copy()

    watch = ClassWatch()
    watch.start(session.store)
    return session, watch, adopt


def one_call_costs(data_dir: Path, calls: int) -> tuple[float, float]:
    from sticks_tui.store import Store

    session, watch, adopt = class_tab(data_dir)
    t0 = time.perf_counter()
    for _ in range(calls):
        watch.check(session, adopt=adopt)
    quiet = (time.perf_counter() - t0) / calls
    other = Store.open(data_dir)
    changed_total = 0.0
    rounds = max(20, calls // 100)
    for _ in range(rounds):
        other.record_game(start=7, opponent="learning", players=("Ann", "Learning AI"), moves=[1, 1, 3, 1, 1],
                          loser=0, brain="default", learning={1: ("default", [(6, 1), (2, 1)])})
        t0 = time.perf_counter()
        change = watch.check(session, adopt=adopt)
        changed_total += time.perf_counter() - t0
        assert change is not None and change.cells
    other.close()
    session.store.close()
    return quiet, changed_total / rounds


def run_class(data_dir: Path, tabs: int, seconds: float, every: float, check: bool) -> dict:
    procs = [subprocess.Popen([sys.executable, "-c", TAB, str(data_dir), str(seconds), "check" if check else "sleep",
                               str(Path(__file__).resolve().parent)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for _ in range(tabs)]
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(data_dir), str(seconds), str(every)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for p in [*procs, writer]:
        assert p.stdout.readline().strip() == "ready"
    for p in [*procs, writer]:
        p.stdin.write("go\n")
        p.stdin.flush()
    results = [json.loads(p.stdout.readline()) for p in procs]
    kept = {int(k): v for k, v in json.loads(writer.stdout.readline()).items()}
    for p in [*procs, writer]:
        p.wait(timeout=30)
    delays = []
    for r in results:
        for when, ids in r["seen"]:
            delays.extend(when - kept[i] for i in ids if i in kept)
    return {"cpu": [r["cpu"] for r in results], "delays": sorted(delays), "games": len(kept)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--every", type=float, default=1.0, help="seconds between two classmates' games")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.tabs, args.seconds, args.every = 1, 1.0, 0.25
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "class"
        quiet, changed = one_call_costs(data_dir, 200 if args.smoke else 20_000)
        print(f"one check, nothing changed: {quiet * 1e6:.1f} us; a classmate's game came in: {changed * 1e6:.0f} us")
        base = run_class(Path(tmp) / "base", args.tabs, args.seconds, args.every, check=False)
        live = run_class(Path(tmp) / "live", args.tabs, args.seconds, args.every, check=True)
    extra = sum(live["cpu"]) - sum(base["cpu"])
    print(f"{args.tabs} tabs for {args.seconds:g} s, a classmate's game every {args.every:g} s "
          f"({live['games']} games):")
    print(f"  CPU, tabs sleeping on the beat (baseline): {sum(base['cpu']):.2f} s in all")
    print(f"  CPU, tabs checking twice a second:         {sum(live['cpu']):.2f} s in all "
          f"({statistics.mean(live['cpu']) * 1000:.0f} ms a tab)")
    print(f"  the check's own cost: {extra:.2f} CPU s in {args.seconds:g} s = {extra / args.seconds:.1%} of one "
          f"core for the class, {extra / args.seconds / args.tabs:.2%} a tab")
    d = live["delays"]
    if d:
        p = lambda q: d[min(len(d) - 1, int(q * len(d)))]  # noqa: E731
        print(f"  a game kept -> seen by a tab: p50 {p(0.5) * 1000:.0f} ms, p95 {p(0.95) * 1000:.0f} ms, "
              f"max {d[-1] * 1000:.0f} ms ({len(d)} sightings)")


if __name__ == "__main__":
    main()
