"""Time from launching `sticks-tui` to its first screen (goal: under 1 s), in a real pseudo-terminal.

    python benchmarks/bench_startup.py [--runs 7] [--size 100x32] [--no-importtime]

Each run spawns the `sticks-tui` console script in a fresh pty with a fresh temporary
STICKS_TUI_DATA_DIR (so the store is created, as on a first launch) and reads the terminal output
stream until the setup screen's text "Start game" appears ("first screen"); it then reads on until
the output has been quiet for 150 ms ("settled": the whole first frame drawn). The app is quit with
Ctrl+Q. One untimed run first warms the OS file cache. Then the import time of the app module,
`python -X importtime -c "import sticks_tui.ui.app"`, with its slowest top-level imports.
--smoke: one run, no warm-up run; it proves the script works (CI runs it), its figures mean nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ptyterm import PtyApp, sticks_tui_command  # noqa: E402

FIRST_SCREEN_TEXT = "Start game"
TIMEOUT = 15.0


def one_run(cols: int, rows: int) -> tuple[float, float]:
    with PtyApp(cols, rows) as app:
        shown = app.wait_for(FIRST_SCREEN_TEXT, TIMEOUT)
        if shown is None:
            raise SystemExit(f"'{FIRST_SCREEN_TEXT}' did not appear within {TIMEOUT:.0f} s; the output:\n"
                             f"{app.screen_text()}")
        # settled: the output quiet for 150 ms
        last = app.stamps[-1][0]
        while time.perf_counter() - last < 0.15:
            n = len(app.log)
            app.pump(0.15 - (time.perf_counter() - last))
            if len(app.log) > n:
                last = app.stamps[-1][0]
        return shown - app.spawned, last - app.spawned


def importtime(top: int) -> None:
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", "import sticks_tui.ui.app"],
                          capture_output=True, text=True, env=env, check=True)
    rows = []
    for line in proc.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
        if m:
            rows.append((int(m.group(2)), len(m.group(3)) // 2, m.group(4)))
    total = next((us for us, depth, name in rows if name == "sticks_tui.ui.app"), None)
    print("\n# python -X importtime -c 'import sticks_tui.ui.app' (one run, cumulative times)")
    if total is not None:
        print(f"sticks_tui.ui.app: {total / 1000:.0f} ms in all")
    print("slowest imports directly under it (depth 1):")
    for us, depth, name in sorted((r for r in rows if r[1] == 1), reverse=True)[:top]:
        print(f"  {us / 1000:7.1f} ms  {name}")
    heavy = [name for _, _, name in rows if name.split(".")[0] in ("numba", "llvmlite", "scipy")]
    print("numba/llvmlite imported at start-up: " + ("YES: " + ", ".join(heavy[:5]) if heavy else "no"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--size", default="100x32", help="terminal size COLSxROWS")
    parser.add_argument("--top", type=int, default=8, help="how many imports to list")
    parser.add_argument("--no-importtime", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.top = 1, 3
    cols, rows = (int(v) for v in args.size.lower().split("x"))
    print(f"# {' '.join(sticks_tui_command())} in a {cols}x{rows} pty, fresh data dir each run; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    if not args.smoke:
        one_run(cols, rows)  # warm the file cache
    shown, settled = [], []
    for _ in range(args.runs):
        s, t = one_run(cols, rows)
        shown.append(s)
        settled.append(t)
    print(f"first screen ('{FIRST_SCREEN_TEXT}' on screen): median {statistics.median(shown):.3f} s, "
          f"min {min(shown):.3f}, max {max(shown):.3f} ({args.runs} runs: "
          f"{', '.join(f'{v:.3f}' for v in shown)})")
    print(f"first frame settled (output quiet 150 ms, quiet time not counted): median "
          f"{statistics.median(settled):.3f} s, max {max(settled):.3f}")
    print(f"goal < 1 s: {'met' if statistics.median(shown) < 1 else 'NOT met'} (median); "
          f"load average now {os.getloadavg()[0]:.2f}")
    if not args.no_importtime:
        importtime(args.top)


if __name__ == "__main__":
    main()
