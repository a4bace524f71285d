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
- the load average when the round started.

A browser adds its own work (xterm.js drawing each screen): `benchmarks/bench_web.py` measures the
whole thing in Chromium; this script isolates the server's side. --smoke: 2 tabs, 1 round.
"""

from __future__ import annotations

import argparse
import asyncio
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


async def one_tab(session, netloc: str, first: asyncio.Future, done: asyncio.Event) -> None:
    """One tab: its first screen's time goes in `first`; the tab stays open (and read) until `done`."""
    import aiohttp

    started = time.perf_counter()
    async with session.ws_connect(f"http://{netloc}/ws?width=100&height=30", max_msg_size=0) as ws:
        seen = b""
        while not first.done():
            message = await ws.receive(timeout=300)
            if message.type != aiohttp.WSMsgType.BINARY:
                raise SystemExit(f"bench_tab_start: a tab was closed: {message.type} {message.data}")
            seen = (seen + message.data)[-65536:]
            if NEEDLE in seen:
                first.set_result(time.perf_counter() - started)

        async def drain() -> None:
            async for _ in ws:
                pass

        draining = asyncio.ensure_future(drain())
        await done.wait()
        draining.cancel()


async def open_tabs(server: Server, tabs: int) -> dict[str, float]:
    import aiohttp

    async with aiohttp.ClientSession() as session:
        loop = asyncio.get_running_loop()
        done = asyncio.Event()
        started = time.perf_counter()
        firsts = [loop.create_future() for _ in range(tabs)]
        opened = [asyncio.ensure_future(one_tab(session, server.netloc, f, done)) for f in firsts]
        await asyncio.gather(*firsts)
        all_open = time.perf_counter() - started
        firsts = [f.result() for f in firsts]
        pids = server.tab_pids()
        cpu = [cpu_seconds(p) for p in pids]
        memory = [smaps(p) for p in pids]
        server_cpu = cpu_seconds(server.proc.pid)
        done.set()
        await asyncio.gather(*opened)
    return {"all": all_open, "p50": statistics.median(firsts), "cpu": statistics.mean(cpu),
            "server_cpu": server_cpu, "processes": len(pids),
            "pss": statistics.mean(m.get("pss", 0) for m in memory),
            "uss": statistics.mean(m.get("uss", 0) for m in memory),
            "rss": statistics.mean(m.get("rss", 0) for m in memory)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.tabs, args.rounds = 2, 1
    print(f"bench_tab_start: {os.cpu_count()} CPUs, {args.tabs} tabs opened at once, {args.rounds} round(s)")
    print(f"{'round':>5}  {'kind':>4}  {'load':>5}  {'all open (s)':>12}  {'tab p50 (s)':>11}  {'CPU/tab (s)':>11}  "
          f"{'server CPU':>10}  {'Pss/tab':>7}  {'USS/tab':>7}  {'RSS/tab':>7}")
    results: dict[bool, list[dict[str, float]]] = {True: [], False: []}
    for round_number in range(1, args.rounds + 1):
        for warm in (True, False):
            with tempfile.TemporaryDirectory() as data_dir:
                load = os.getloadavg()[0]
                server = Server(warm, data_dir, args.tabs)
                try:
                    found = asyncio.run(open_tabs(server, args.tabs))
                finally:
                    server.stop()
                results[warm].append(found)
                print(f"{round_number:>5}  {'warm' if warm else 'cold':>4}  {load:>5.1f}  {found['all']:>12.2f}  "
                      f"{found['p50']:>11.2f}  {found['cpu']:>11.2f}  {found['server_cpu']:>10.2f}  "
                      f"{found['pss']:>7.1f}  {found['uss']:>7.1f}  {found['rss']:>7.1f}", flush=True)
                if found["processes"] != args.tabs:
                    print(f"  (counted {found['processes']} tab processes)")
    for key, words in (("all", "all open"), ("cpu", "CPU/tab")):
        warm = statistics.median(r[key] for r in results[True])
        cold = statistics.median(r[key] for r in results[False])
        print(f"median {words}: warm {warm:.2f} s, cold {cold:.2f} s (warm/cold {warm / cold:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
