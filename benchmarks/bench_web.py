"""`sticks-tui serve` in a real Chromium: page open to first screen, key to visible change, memory,
and how many sessions one machine holds with the p95 key latency at each level.

    python benchmarks/bench_web.py [--levels 1,2,4,8] [--presses 20] [--opens 5]

Needs the 'web' extra, playwright and psutil (`pip install -e '.[test]'`) and Debian's Chromium
(`apt-get install -y chromium`; another one with --chromium PATH).

- First screen: wall time from `page.goto` until the setup screen's text is in the terminal's
  buffer (this includes starting the tab's app process: Python, Textual, numpy).
- Key to visible change: measured inside the page, from the keydown event to the first animation
  frame after the terminal's buffer changed. The key is `p` on the game screen, which redraws the
  heatmap with the perfect-move marks (a full repaint of the biggest widget).
- Memory: RSS and USS (memory only this process holds) of each tab's app process.
- Sessions at once: N tabs, each on the game screen; in each round every tab presses `p` at about
  the same time; latency p50/p95 over all tabs and rounds, plus the machine's CPU use meanwhile.

The figures depend on the machine and on what else runs on it: on a shared machine they are noisy.
--smoke: one session, one page open, one key press; it proves the script works (CI runs it), its
figures mean nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

INSTRUMENT = """() => {
  if (window.__bench) return true;
  const client = (window.sticksClients || [])[0];
  if (!client) return false;
  const bench = window.__bench = {start: null, before: null, result: null};
  document.addEventListener("keydown", () => {
    bench.start = performance.now(); bench.before = window.sticksScreenText(); bench.result = null;
  }, true);
  client.terminal.onWriteParsed(() => {
    if (bench.start === null || bench.result !== null) return;
    if (window.sticksScreenText() === bench.before) return;
    bench.result = -1;  // changed; visible at the next frame
    const start = bench.start;
    requestAnimationFrame(() => { bench.result = performance.now() - start; bench.start = null; });
  });
  return true;
}"""

HAS_TEXT = "needle => window.sticksScreenText && (window.sticksScreenText() || '').includes(needle)"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


class Server:
    def __init__(self, data_dir: str, max_sessions: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sticks_tui", "serve", "--port", "0", "--data-dir", data_dir,
             "--max-sessions", str(max_sessions)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + 60
        self.url = None
        assert self.proc.stdout is not None
        while time.monotonic() < deadline and self.url is None:
            line = self.proc.stdout.readline()
            if not line:
                break
            found = re.search(r"http://\S+/", line)
            if found:
                self.url = found.group(0)
        if self.url is None:
            self.proc.kill()
            raise SystemExit("bench_web: the server did not start")
        # keep draining its output so it never blocks on a full pipe
        import threading

        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()

    def app_processes(self):
        import psutil

        return [c for c in psutil.Process(self.proc.pid).children(recursive=True)
                if "sticks_tui.web.session" in " ".join(c.cmdline())]

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def open_tab(browser, url: str, timeout_ms: int = 60_000):
    page = browser.new_page(viewport={"width": 1100, "height": 700})
    started = time.perf_counter()
    page.goto(url, timeout=timeout_ms)
    page.wait_for_function(HAS_TEXT, arg="Start game", timeout=timeout_ms, polling=10)
    return page, time.perf_counter() - started


def to_game(page) -> None:
    page.evaluate("() => window.sticksClients[0].terminal.focus()")
    page.keyboard.press("Control+s")
    page.wait_for_function(HAS_TEXT, arg="Take 1", timeout=60_000, polling=20)
    if not page.evaluate(INSTRUMENT):
        raise SystemExit("bench_web: the page has no terminal client to measure")


def press_and_measure(pages, key: str = "p", timeout_ms: int = 30_000) -> list[float]:
    for page in pages:
        page.evaluate("() => window.sticksClients[0].terminal.focus()")
        page.keyboard.press(key)
    found = []
    for page in pages:
        page.wait_for_function("() => window.__bench && window.__bench.result > 0", timeout=timeout_ms, polling=5)
        found.append(page.evaluate("() => window.__bench.result"))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1,2,4,8", help="numbers of sessions at once (default 1,2,4,8)")
    parser.add_argument("--presses", type=int, default=20, help="key presses per tab at each level")
    parser.add_argument("--opens", type=int, default=5, help="page opens timed one at a time")
    parser.add_argument("--chromium", default=os.environ.get("STICKS_TUI_CHROMIUM", "/usr/bin/chromium"))
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.levels, args.presses, args.opens = "1", 1, 1
    levels = [int(x) for x in args.levels.split(",") if x.strip()]
    try:
        import psutil
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        raise SystemExit(f"bench_web: {exc}; pip install -e '.[test]'") from None
    if not Path(args.chromium).exists():
        raise SystemExit(f"bench_web: no Chromium at {args.chromium} (apt-get install -y chromium)")

    print(f"bench_web: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the start "
          "(a shared machine gives noisy figures)")
    with tempfile.TemporaryDirectory() as data_dir, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS, headless=True)
        server = Server(data_dir, max_sessions=max(levels) + 1)
        try:
            # 1. page open to the first screen, one tab at a time
            opens = []
            for _ in range(args.opens):
                page, seconds = open_tab(browser, server.url)
                opens.append(seconds)
                page.close()
                deadline = time.monotonic() + 30
                while server.app_processes() and time.monotonic() < deadline:
                    time.sleep(0.05)
            print(f"page open to first screen ({args.opens} opens, one at a time): "
                  f"median {statistics.median(opens):.2f} s, min {min(opens):.2f} s, max {max(opens):.2f} s")

            # 2-4. N sessions at once
            print(f"{'sessions':>8}  {'open all (s)':>12}  {'key p50 (ms)':>12}  {'key p95 (ms)':>12}  "
                  f"{'key max (ms)':>12}  {'RSS/session (MB)':>16}  {'USS/session (MB)':>16}  {'CPU busy':>8}")
            for level in levels:
                started = time.perf_counter()
                pages = []
                for _ in range(level):  # start them all, then wait for each first screen
                    page = browser.new_page(viewport={"width": 1100, "height": 700})
                    page.goto(server.url, timeout=120_000)
                    pages.append(page)
                for page in pages:
                    page.wait_for_function(HAS_TEXT, arg="Start game", timeout=120_000, polling=20)
                open_all = time.perf_counter() - started
                for page in pages:
                    to_game(page)
                press_and_measure(pages)  # one untimed round
                psutil.cpu_percent(None)
                latencies: list[float] = []
                for _ in range(args.presses):
                    latencies += press_and_measure(pages)
                busy = psutil.cpu_percent(None)
                processes = server.app_processes()
                rss = [p.memory_info().rss / 2**20 for p in processes]
                uss = [p.memory_full_info().uss / 2**20 for p in processes]
                print(f"{level:>8}  {open_all:>12.2f}  {statistics.median(latencies):>12.0f}  "
                      f"{percentile(latencies, 0.95):>12.0f}  {max(latencies):>12.0f}  "
                      f"{statistics.mean(rss):>16.0f}  {statistics.mean(uss):>16.0f}  {busy:>7.0f}%",
                      flush=True)
                for page in pages:
                    page.close()
                deadline = time.monotonic() + 60
                while server.app_processes() and time.monotonic() < deadline:
                    time.sleep(0.1)
        finally:
            server.stop()
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
