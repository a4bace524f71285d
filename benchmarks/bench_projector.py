"""How soon a class's game shows on the projector (issue 33 item 8), measured at the server: `sticks-tui serve`
with the projector's page (the class view, at the 91x22 cells its page gets at 1280x720) and `--pupils` pupils'
tabs playing sticks against the learning AI, each an app process as in a classroom, all on this machine.

    python benchmarks/bench_projector.py [--pupils 8] [--games 40] [--every 1.0]

- The tabs are websockets to the server, as a browser opens them (no browser: the time is the server's and
  the apps'). Each pupil starts a game (Ctrl+S on the setup screen) and takes 1 stick every 0.4-0.8 s, then
  plays again: real games, kept and learned from by their apps, that the projector's app sees too.
- A classmate's game, under a name of its own ("P0007"), is kept every `--every` seconds (a process of its
  own, as a tab keeps a game: `Store.record_game` with the learning AI's lesson); from the moment the store
  has it, the time until that name is in what the server sends the projector's page is the latency:
  p50 / p95 / max over `--games` games.
- Printed too: the machine's load average before and after the timed games.

--smoke: 1 pupil, 2 games; it proves the script works, its figures mean nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PROJECTOR_SIZE = (91, 22)  # sticks.js at 1280x720: 24 px
PUPIL_SIZE = (110, 30)

WRITER = """
import sys, time
from sticks_tui.store import Store
data_dir, count, every = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
store = Store.open(data_dir)
for n in range(count):
    time.sleep(every)
    name = f"P{n:04d}"
    store.record_game(start=7, opponent="learning", players=(name, "Learning AI"), moves=[1, 1, 3, 1, 1], loser=0,
                      brain="default", learning={1: ("default", [(6, 1), (2, 1)])})
    print(name, time.time(), flush=True)
store.close()
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


class Server:
    def __init__(self, data_dir: str, max_sessions: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sticks_tui", "serve", "--port", "0", "--data-dir", data_dir,
             "--max-sessions", str(max_sessions)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "STICKS_TUI_CONFIG_DIR": data_dir + "-config"}, cwd=ROOT)
        self.url = self.projector = None
        deadline = time.monotonic() + 60
        assert self.proc.stdout is not None
        while time.monotonic() < deadline and self.projector is None:
            line = self.proc.stdout.readline()
            if not line:
                break
            if self.url is None and (found := re.search(r"http://[^/\s]+/", line)):
                self.url = found.group(0)
            if found := re.search(r"http://\S+/class/\S+", line):
                self.projector = found.group(0)
        if self.projector is None:
            self.proc.kill()
            raise SystemExit("bench_projector: the server did not start")
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


async def read_all(ws, on_text) -> None:
    async for message in ws:
        if message.type.name == "BINARY":
            on_text(message.data.decode("utf-8", "replace"))
        elif message.type.name in ("CLOSED", "ERROR"):
            break


async def pupil(session, url: str, stop: asyncio.Event, seed: int, ready: list) -> None:
    ws = await session.ws_connect(f"{url}ws?width={PUPIL_SIZE[0]}&height={PUPIL_SIZE[1]}", max_msg_size=0)
    seen = {"text": ""}

    def on_text(text: str) -> None:
        seen["text"] = (seen["text"] + text)[-4000:]

    reader = asyncio.ensure_future(read_all(ws, on_text))
    rng = random.Random(seed)
    deadline = time.monotonic() + 60
    while "Start game" not in seen["text"] and time.monotonic() < deadline and not stop.is_set():
        await asyncio.sleep(0.1)
    ready.append(seed)
    keys = 0
    while not stop.is_set():
        await ws.send_str(json.dumps(["stdin", "\x13" if keys % 12 == 0 else "n" if keys % 12 == 11 else "1"]))
        keys += 1
        await asyncio.sleep(rng.uniform(0.4, 0.8))
    await ws.close()
    reader.cancel()


async def run(pupils: int, games: int, every: float, settle: float = 2.0) -> None:
    import aiohttp

    with tempfile.TemporaryDirectory() as tmp:
        data = str(Path(tmp) / "class")
        from sticks_tui import vocabulary
        from sticks_tui.store import Store

        with Store.open(data) as store:  # the class's brain, as the first tab makes it
            store.load_or_create_brain("default", vocabulary.APP_BRAIN_SIZE)
        server = Server(data, pupils + 2)
        try:
            async with aiohttp.ClientSession() as session:
                projector_text = {"tail": ""}
                found: dict[str, float] = {}
                wanted: set[str] = {f"P{n:04d}" for n in range(games)}

                def on_projector(text: str) -> None:
                    now = time.time()
                    window = projector_text["tail"] + text
                    for name in [n for n in wanted if n in window]:
                        found[name] = now
                        wanted.discard(name)
                    projector_text["tail"] = window[-32:]

                ws = await session.ws_connect(
                    f"{server.projector}/ws?width={PROJECTOR_SIZE[0]}&height={PROJECTOR_SIZE[1]}", max_msg_size=0)
                reader = asyncio.ensure_future(read_all(ws, on_projector))
                stop = asyncio.Event()
                ready: list = []
                tabs = [asyncio.ensure_future(pupil(session, server.url, stop, seed, ready)) for seed in range(pupils)]
                deadline = time.monotonic() + 120
                while len(ready) < pupils and time.monotonic() < deadline:  # every tab on its first screen
                    await asyncio.sleep(0.1)
                await asyncio.sleep(settle)  # and into its first game
                load_before = os.getloadavg()[0]
                writer = await asyncio.create_subprocess_exec(
                    sys.executable, "-c", WRITER, data, str(games), str(every), cwd=ROOT,
                    stdout=asyncio.subprocess.PIPE)
                kept: dict[str, float] = {}
                assert writer.stdout is not None
                while line := await writer.stdout.readline():
                    name, at = line.decode().split()
                    kept[name] = float(at)
                await writer.wait()
                deadline = time.monotonic() + 10
                while wanted and time.monotonic() < deadline:
                    await asyncio.sleep(0.1)
                load_after = os.getloadavg()[0]
                stop.set()
                await asyncio.gather(*tabs, return_exceptions=True)
                await ws.close()
                reader.cancel()
        finally:
            server.stop()
        with Store.open(data) as store:  # the pupils' own games, kept by their apps meanwhile
            played = sum(1 for g in store.recent_games(limit=10**6) if not re.fullmatch(r"P\d{4}", g.players[0]))
    latencies = [(found[n] - kept[n]) * 1000 for n in kept if n in found]
    missing = len(kept) - len(latencies)
    print(f"pupils playing: {pupils} (their own games kept: {played}); classmates' games timed: {len(kept)} (one every {every:g} s); "
          f"load average {load_before:.1f} -> {load_after:.1f} on {os.cpu_count()} cores")
    print(f"game kept -> on the projector's page: p50 {percentile(latencies, 0.5):.0f} ms, "
          f"p95 {percentile(latencies, 0.95):.0f} ms, max {max(latencies, default=float('nan')):.0f} ms"
          f"{f'; never shown: {missing}' if missing else ''}")
    if latencies:
        print(f"under 1 s: {sum(1 for x in latencies if x < 1000)} of {len(kept)}; "
              f"mean {statistics.mean(latencies):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pupils", type=int, default=8, help="pupils' tabs playing (default 8)")
    parser.add_argument("--games", type=int, default=40, help="classmates' games timed (default 40)")
    parser.add_argument("--every", type=float, default=1.0, help="seconds between two of them (default 1)")
    parser.add_argument("--cells", default="91x22", help="the projector's terminal, columns x rows (default 91x22: "
                        "1280x720 at 24 px; the page before gave 128x30 at 18 px)")
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.pupils, args.games, args.every = 1, 2, 0.5
    global PROJECTOR_SIZE
    PROJECTOR_SIZE = tuple(int(x) for x in args.cells.lower().split("x"))
    asyncio.run(run(args.pupils, args.games, args.every, 0.2 if args.smoke else 2.0))


if __name__ == "__main__":
    main()
