"""Tabs opened at once on `sticks-tui serve`, warm (forked from the warm process) against cold (each tab
its own `python -m sticks_tui.web.session`), without a browser: websockets straight to the server.

    python benchmarks/bench_tab_start.py [--tabs 24] [--rounds 3]

Each round starts one server of each kind in turn (warm, cold, warm, cold, ...: on a shared machine
the load changes, so the two are compared in the same conditions) and opens `--tabs` websockets at
once. It prints, for each round and kind:

- all open: seconds from opening the websockets until every tab has received its first screen
  (the setup screen's "Start game");
- CPU/tab: CPU seconds (user + system) each tab's app process has used by then, and the server's;
- Pss/tab: each tab's proportional set size (/proc/PID/smaps_rollup: its own pages plus its share of
  the pages it shares), its private pages (USS) and its RSS, in MB, once every tab is up;
- key p50/p95: with every tab on the game screen, `p` (the perfect moves: the whole heatmap redrawn)
  pressed in every tab at once, `--presses` times after two untimed rounds (and 2 s for every tab's
  start-up work to end); milliseconds from sending the key to the tab's next
  frame arriving (the server's side of a key press: no browser drawing); CPU/key: a tab's CPU a key;
- the load average when the round started.

A browser adds its own work (xterm.js drawing each screen): `benchmarks/bench_web.py` measures the
whole thing in Chromium; this script isolates the server's side. --smoke: 1 tab, 1 round, one timed
key, and the settling pauses a fiftieth as long (the figures mean nothing).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

NEEDLE = b"Start game"


def smaps(pid: int) -> dict[str, float]:
    """Rss, Pss and private (Private_Clean + Private_Dirty) of one process, in MB."""
    found = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
            for line in rollup:
                parts = line.split()
                if len(parts) >= 2 and parts[1].isdigit():
                    found[parts[0].rstrip(":")] = int(parts[1]) / 1024
    except OSError:
        return {}
    return {"rss": found.get("Rss", 0.0), "pss": found.get("Pss", 0.0),
            "uss": found.get("Private_Clean", 0.0) + found.get("Private_Dirty", 0.0)}


def cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    import psutil

    try:
        return [c.pid for c in psutil.Process(pid).children()]
    except psutil.NoSuchProcess:
        return []


def name(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm", encoding="ascii") as comm:
            return comm.read().strip()
    except OSError:
        return ""


class Server:
    def __init__(self, warm: bool, data_dir: str, tabs: int) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "STICKS_TUI_SERVE_WARM": "1" if warm else "0"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sticks_tui", "serve", "--port", "0", "--data-dir", data_dir,
             "--max-sessions", str(tabs + 1)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        self.lines: list[str] = []
        self.netloc = None
        self.warm = warm
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.lines.append(line)
            found = re.search(r"http://([^/\s]+)/", line)
            if found and self.netloc is None:
                self.netloc = found.group(1)
            if self.netloc and (not warm or "warm process" in line):
                break
        if self.netloc is None or (warm and "ready" not in self.lines[-1]):
            self.stop()
            raise SystemExit("bench_tab_start: the server did not start (warm: ready):\n" + "".join(self.lines))
        import threading

        threading.Thread(target=lambda: [self.lines.append(x) for x in self.proc.stdout], daemon=True).start()

    def tab_pids(self) -> list[int]:
        return [p for p in children(self.proc.pid) if name(p) != "sticks-warm"]

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Tab:
    """One tab's websocket, read all the time: each frame, with the time it came, goes in a queue."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.frames: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        import aiohttp

        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.frames.put_nowait((time.perf_counter(), message.data))

    async def wait_for(self, needle: bytes) -> float:
        seen = b""
        while needle not in seen:
            when, data = await asyncio.wait_for(self.frames.get(), 300)
            seen = (seen + data)[-65536:]
        return when

    def drain(self) -> None:
        while not self.frames.empty():
            self.frames.get_nowait()

    async def press(self, key: str) -> None:
        await self.ws.send_str(json.dumps(["stdin", key]))


async def open_tabs(server: Server, tabs: int, presses: int, settle: float = 1.0) -> dict[str, float]:
    import aiohttp

    async with aiohttp.ClientSession() as session:
        started = time.perf_counter()

        async def one() -> tuple[Tab, float]:
            ws = await session.ws_connect(f"http://{server.netloc}/ws?width=100&height=30", max_msg_size=0)
            tab = Tab(ws)
            return tab, await tab.wait_for(NEEDLE) - started

        opened = await asyncio.gather(*(one() for _ in range(tabs)))
        all_open = time.perf_counter() - started
        pids = server.tab_pids()
        cpu = [cpu_seconds(p) for p in pids]
        memory = [smaps(p) for p in pids]
        server_cpu = cpu_seconds(server.proc.pid)
        # every tab on the game screen, then `p` (the perfect moves: the whole heatmap redrawn) in every
        # tab at once, `presses` times: key to the tab's next frame, as the server sends it
        group = [tab for tab, _ in opened]
        for tab in group:
            await tab.press("\x13")  # Ctrl+S: start a game
        await asyncio.gather(*(tab.wait_for(b"Take 1") for tab in group))
        await asyncio.sleep(2.0 * settle)  # every tab's start-up work (its first collections, ...) done
        latencies: list[float] = []
        key_cpu: dict[int, float] = {}
        for round_number in range(presses + 2):  # the first two rounds untimed
            if round_number == 2:
                key_cpu = {p: cpu_seconds(p) for p in pids}
            await asyncio.sleep(1.0 * settle)  # the AI's first move and any other drawing settle
            for tab in group:
                tab.drain()
            sent = []
            for tab in group:
                sent.append(time.perf_counter())
                await tab.press("p")
            arrived = await asyncio.gather(*(asyncio.wait_for(tab.frames.get(), 60) for tab in group))
            if round_number >= 2:
                latencies += [(when - at) * 1000 for at, (when, _data) in zip(sent, arrived)]
        await asyncio.sleep(0.5 * settle)
        cpu_per_key = statistics.mean(cpu_seconds(p) - key_cpu[p] for p in pids) / presses * 1000
        for tab in group:
            await tab.ws.close()
            tab.reader.cancel()
    return {"all": all_open, "p50": statistics.median(t for _, t in opened), "cpu": statistics.mean(cpu),
            "server_cpu": server_cpu, "processes": len(pids),
            "pss": statistics.mean(m.get("pss", 0) for m in memory),
            "uss": statistics.mean(m.get("uss", 0) for m in memory),
            "rss": statistics.mean(m.get("rss", 0) for m in memory),
            "key50": statistics.median(latencies), "key95": percentile(latencies, 0.95), "key_cpu": cpu_per_key,
            "keys": sorted(round(x) for x in latencies)}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--presses", type=int, default=5, help="rounds of `p` in every tab at once")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.tabs, args.rounds, args.presses = 1, 1, 1
    print(f"bench_tab_start: {os.cpu_count()} CPUs, {args.tabs} tabs opened at once, {args.rounds} round(s)")
    print(f"{'round':>5}  {'kind':>4}  {'load':>5}  {'all open (s)':>12}  {'tab p50 (s)':>11}  {'CPU/tab (s)':>11}  "
          f"{'server CPU':>10}  {'Pss/tab':>7}  {'USS/tab':>7}  {'RSS/tab':>7}  {'key p50 (ms)':>12}  "
          f"{'key p95 (ms)':>12}  {'CPU/key (ms)':>12}")
    results: dict[bool, list[dict[str, float]]] = {True: [], False: []}
    for round_number in range(1, args.rounds + 1):
        for warm in (True, False):
            with tempfile.TemporaryDirectory() as data_dir:
                load = os.getloadavg()[0]
                server = Server(warm, data_dir, args.tabs)
                try:
                    found = asyncio.run(open_tabs(server, args.tabs, args.presses, 0.02 if args.smoke else 1.0))
                finally:
                    server.stop()
                results[warm].append(found)
                print(f"{round_number:>5}  {'warm' if warm else 'cold':>4}  {load:>5.1f}  {found['all']:>12.2f}  "
                      f"{found['p50']:>11.2f}  {found['cpu']:>11.2f}  {found['server_cpu']:>10.2f}  "
                      f"{found['pss']:>7.1f}  {found['uss']:>7.1f}  {found['rss']:>7.1f}  {found['key50']:>12.0f}  "
                      f"{found['key95']:>12.0f}  {found['key_cpu']:>12.1f}", flush=True)
                if found["processes"] != args.tabs:
                    print(f"  (counted {found['processes']} tab processes)")
    for key, words in (("all", "all open"), ("cpu", "CPU/tab"), ("key95", "key p95")):
        warm = statistics.median(r[key] for r in results[True])
        cold = statistics.median(r[key] for r in results[False])
        unit = "ms" if key == "key95" else "s"
        print(f"median {words}: warm {warm:.2f} {unit}, cold {cold:.2f} {unit} (warm/cold {warm / cold:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
