"""`sticks-tui serve` in a real Chromium: page open to first screen, key to visible change, memory,
and how many sessions one machine holds with the p95 key latency at each level.

    python benchmarks/bench_web.py [--levels 1,2,4,8] [--presses 20] [--opens 5]

Needs the 'web' extra, playwright and psutil (`pip install -e '.[test]'`) and Debian's Chromium
(`apt-get install -y chromium`; another one with --chromium PATH).

- First screen: wall time from `page.goto` until the setup screen's text is in the terminal's
  buffer (this includes starting the tab's app process: forked from the warm process, or a whole
  Python importing Textual and numpy with --cold).
- Key to visible change: measured inside the page, from the keydown event to the first animation
  frame after the terminal's buffer changed. The key is `p` on the game screen, which redraws the
  heatmap with the perfect-move marks (a full repaint of the biggest widget).
- Memory: RSS, USS (memory only this process holds) and Pss (its own pages plus its share of pages it
  shares with others) of each tab's app process; "all Pss" adds every tab's Pss and the warm process's:
  the class's memory. Tabs forked from the warm process share what it loaded.
- --cold: every tab starts its own Python (STICKS_TUI_SERVE_WARM=0), to compare with the warm process
  (run the two alternately on a shared machine).
- Open CPU/tab: the CPU seconds that opening all the tabs cost, a tab, on the server's side (server,
  tabs, warm process) and on the browser's (Chromium, which in a class runs on each pupil's computer).
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
    def __init__(self, data_dir: str, max_sessions: int, cold: bool = False) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if cold:  # every tab its own Python, as before the warm process (sticks_tui/web/warm.py)
            env["STICKS_TUI_SERVE_WARM"] = "0"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sticks_tui", "serve", "--port", "0", "--data-dir", data_dir,
             "--max-sessions", str(max_sessions)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        self.cold = cold
        self.url = None
        self.lines: list[str] = []

    def wait_ready(self) -> None:
        """Read the server's first lines until it serves (and, warm, its warm process is ready or given up);
        the browser starts meanwhile."""
        cold = self.cold
        deadline = time.monotonic() + 60
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            found = re.search(r"http://\S+/", line)
            if found and self.url is None:
                self.url = found.group(0)
            if self.url is not None and (cold or "warm process" in line):
                break  # served, and (warm) the warm process ready or given up
        if self.url is None:
            self.proc.kill()
            raise SystemExit("bench_web: the server did not start")
        # keep draining its output so it never blocks on a full pipe
        import threading

        threading.Thread(target=lambda: [self.lines.append(line) for line in self.proc.stdout], daemon=True).start()

    def app_processes(self):
        """Each tab's app process: started cold (`python -m sticks_tui.web.session`) or forked from the
        warm process (named sticks-tab; the warm process itself, sticks-warm, is no tab's)."""
        import psutil

        found = []
        for child in psutil.Process(self.proc.pid).children(recursive=True):
            try:
                if child.name() == "sticks-tab" or "sticks_tui.web.session" in " ".join(child.cmdline()):
                    found.append(child)
            except psutil.NoSuchProcess:
                continue
        return found

    def warm_processes(self):
        import psutil

        return [c for c in psutil.Process(self.proc.pid).children() if c.name() == "sticks-warm"]

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def cpu_by_side(server_pid: int) -> dict[str, dict[int, float]]:
    """CPU seconds (user + system) used so far by each process on the server's side (the server, its
    tabs, the warm process) and on the browser's (every other process this script started: Chromium
    and playwright's driver), by pid."""
    import psutil

    def tree(root: psutil.Process) -> list[psutil.Process]:
        try:
            return [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    sides: dict[str, dict[int, float]] = {"server": {}, "browser": {}}
    server = {p.pid: p for p in tree(psutil.Process(server_pid))}
    for side, processes in (("server", server.values()),
                            ("browser", [p for p in tree(psutil.Process()) if p.pid not in server][1:])):
        for process in processes:
            try:
                times = process.cpu_times()
                sides[side][process.pid] = times.user + times.system
            except psutil.NoSuchProcess:
                continue
    return sides


def cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used between two snapshots (a process started meanwhile counts from zero)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


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


def main(argv: list[str] | None = None, browser=None) -> int:
    """The benchmark, with the arguments of the command line (argv: sys.argv's by default). Chromium is launched
    here (and closed at the end), or `browser` is one that runs already: anything with new_page(viewport=...) and
    close() (tests/web's shared Chromium; its close() closes the pages it opened, not the browser)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1,2,4,8", help="numbers of sessions at once (default 1,2,4,8)")
    parser.add_argument("--presses", type=int, default=20, help="key presses per tab at each level")
    parser.add_argument("--opens", type=int, default=5, help="page opens timed one at a time")
    parser.add_argument("--chromium", default=os.environ.get("STICKS_TUI_CHROMIUM", "/usr/bin/chromium"))
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works (CI)")
    parser.add_argument("--cold", action="store_true",
                        help="every tab starts its own Python (STICKS_TUI_SERVE_WARM=0), to compare with the warm process")
    args = parser.parse_args(argv)
    if args.smoke:
        args.levels, args.presses, args.opens = "1", 1, 1
    levels = [int(x) for x in args.levels.split(",") if x.strip()]
    try:
        import psutil  # noqa: F401 - measure() reads every process's CPU and memory with it
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        raise SystemExit(f"bench_web: {exc}; pip install -e '.[test]'") from None
    if not Path(args.chromium).exists():
        raise SystemExit(f"bench_web: no Chromium at {args.chromium} (apt-get install -y chromium)")

    print(f"bench_web: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the start "
          f"(a shared machine gives noisy figures); tabs start {'cold' if args.cold else 'from the warm process'}")
    if browser is not None:
        return measure(args, levels, lambda: browser)
    with sync_playwright() as playwright:
        return measure(args, levels, lambda: playwright.chromium.launch(executable_path=args.chromium,
                                                                       args=CHROMIUM_ARGS, headless=True))


def measure(args, levels: list[int], launch) -> int:
    """Every figure, printed: a server of its own started, then the browser from launch() (the two start at
    the same time); both stopped at the end."""
    import psutil
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with tempfile.TemporaryDirectory() as data_dir:
        server = Server(data_dir, max_sessions=max(levels) + 1, cold=args.cold)  # it starts as Chromium does
        try:
            browser = launch()
        except BaseException:
            server.stop()
            raise
        try:
            server.wait_ready()
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
                  f"{'key max (ms)':>12}  {'RSS/session (MB)':>16}  {'USS/session (MB)':>16}  "
                  f"{'Pss/session (MB)':>16}  {'all Pss (MB)':>12}  {'CPU busy':>8}  {'load':>5}  "
                  f"{'open CPU/tab: server (s)':>24}  {'browser (s)':>11}")
            for level in levels:
                load = os.getloadavg()[0]
                cpu_before = cpu_by_side(server.proc.pid)
                started = time.perf_counter()
                pages = []
                for _ in range(level):  # start them all, then wait for each first screen
                    page = browser.new_page(viewport={"width": 1100, "height": 700})
                    page.goto(server.url, timeout=120_000)
                    pages.append(page)
                for page in pages:
                    page.wait_for_function(HAS_TEXT, arg="Start game", timeout=120_000, polling=20)
                open_all = time.perf_counter() - started
                cpu_after = cpu_by_side(server.proc.pid)
                # what opening every tab cost each side, a tab: in a class the browsers run on the pupils'
                # computers, and only the server's side runs on the teacher's
                server_cpu = cpu_used(cpu_before["server"], cpu_after["server"]) / level
                browser_cpu = cpu_used(cpu_before["browser"], cpu_after["browser"]) / level
                for page in pages:
                    to_game(page)
                psutil.cpu_percent(None)
                latencies: list[float] = []
                try:
                    press_and_measure(pages)  # one untimed round
                    for _ in range(args.presses):
                        latencies += press_and_measure(pages)
                except PlaywrightTimeout:
                    # a tab whose screen did not change within 30 s of its key: said, and the level's
                    # other figures still printed (key columns then cover the rounds before it)
                    lost = [i for i, page in enumerate(pages)
                            if not page.evaluate("() => window.__bench && window.__bench.result > 0")]
                    print(f"bench_web: at {level} sessions, {len(lost)} tab(s) showed no change within 30 s of a "
                          f"key, after {len(latencies) // level} timed round(s); tab {lost[0]} shows:\n"
                          + pages[lost[0]].evaluate("() => window.sticksScreenText()")[-600:], flush=True)
                    latencies = latencies or [float("nan")]
                busy = psutil.cpu_percent(None)
                processes = server.app_processes()
                rss = [p.memory_info().rss / 2**20 for p in processes]
                full = [p.memory_full_info() for p in processes]
                uss = [m.uss / 2**20 for m in full]
                pss = [m.pss / 2**20 for m in full]
                # every tab's share of the memory, plus the warm process's (Pss: shared pages split evenly)
                everything = sum(pss) + sum(p.memory_full_info().pss / 2**20 for p in server.warm_processes())
                print(f"{level:>8}  {open_all:>12.2f}  {statistics.median(latencies):>12.0f}  "
                      f"{percentile(latencies, 0.95):>12.0f}  {max(latencies):>12.0f}  "
                      f"{statistics.mean(rss):>16.0f}  {statistics.mean(uss):>16.0f}  "
                      f"{statistics.mean(pss):>16.0f}  {everything:>12.0f}  {busy:>7.0f}%  {load:>5.1f}  "
                      f"{server_cpu:>24.2f}  {browser_cpu:>11.2f}", flush=True)
                for page in pages:
                    page.close()
                deadline = time.monotonic() + 60
                while server.app_processes() and time.monotonic() < deadline:
                    time.sleep(0.1)
        except Exception:
            print("bench_web: failed; the server's last lines:\n" + "".join(server.lines[-30:]), flush=True)
            raise
        finally:
            server.stop()
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
