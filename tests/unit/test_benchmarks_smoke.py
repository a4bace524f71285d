"""Every script in benchmarks/ runs: each is started as a person would start it, with --smoke (a tiny
size: the figures mean nothing, the code path is the real one), and must exit 0 and print its
figures. So a README figure always comes from a benchmark that runs. Timings are never asserted.

bench_web.py's smoke run is tests/web/test_browser.py's, with the Chromium those tests share (ELSEWHERE).

A file in benchmarks/ that is not a script (no `__main__`) must be named in HELPERS; a new script
must be given its figures here, or this test fails: none is left out silently.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
HELPERS = {"ptyterm.py"}  # imported by the pty benchmarks, not run
NUMBER = r"[\d,]+(?:\.\d+)?"

#: What each script's smoke run must print: one pattern per figure line (re.MULTILINE).
FIGURES: dict[str, list[str]] = {
    "bench_checkpoints.py": [rf"^\s+20\s+\d+\s+{NUMBER}\s+{NUMBER}\s+-?{NUMBER}%\s+{NUMBER}%$",
                             rf"^\s+100\s+\d+\s+{NUMBER}\s+{NUMBER}\s+-?{NUMBER}%\s+{NUMBER}%$"],
    # bench_cli's run (and bench_vs_python's, the same command) is also the suite's real `train --json` process: the
    # script reads its whole output as one JSON object of the games asked (test_cli_train.py leaves that to them)
    "bench_cli.py": [rf"^whole process: {NUMBER} s", rf"^training alone: {NUMBER} s, {NUMBER} games/s"],
    "bench_keypress.py": [rf"^no training\s+median\s+{NUMBER} ms\s+p95\s+{NUMBER} ms\s+max\s+{NUMBER} ms\s+samples 5$"],
    "bench_lab.py": [r"^# learning lab: seeds 10,001-10,002 \(2 seeds\); mastery: ",
                     *(rf"^## preset {k}: " for k in ("incentives", "hats-vs-q", "start-balls")),
                     *(rf"^## the default lab on {g} \(size \d+, cap 2,000\): {NUMBER} s wall, 2 threads, first "
                       rf"result after {NUMBER} s; {NUMBER} s of processor time" for g in ("sticks", "noughts")),
                     rf"^q\s+both seats\s+{NUMBER}\s+{NUMBER}\s+0/2\s+held\s+2/2\s+agreement\s+100\.0%$"],
    "compare_lab_runs.py": [r"^3 lab runs of 100 games in this tree alone \(--smoke\): \d+ curve points$"],
    "bench_lab_speed.py": [rf"^trainer kernel \(the app's\):\s+{NUMBER} games/s$",
                           *(rf"^lab kernel {x}\s+{NUMBER} games/s \({NUMBER}x the trainer's speed\)$"
                             for x in ("hats", "hats:table=one", "q", "qseat", "mc")),
                           rf"^trainer with its curve \(as train\(\) runs it\):\s+{NUMBER} games/s$",
                           *(rf"^lab kernel {x} against the trainer with its curve: {NUMBER}x$"
                             for x in ("hats", "hats:table=one")),
                           *(rf"^where the time goes, {x}: {NUMBER} ms in the game loop, {NUMBER} ms outside it "
                             rf"\(median of 1 rounds, processor time\)$"
                             for x in ("trainer", "trainer with its curve", "lab kernel hats")),
                           *(rf"^readable {x}\s+{NUMBER} games/s \(the lab kernel is {NUMBER}x faster\)$"
                             for x in ("hats", "hats:table=one", "q", "qseat", "mc"))],
    "bench_live_check.py": [rf"^one check, nothing changed: {NUMBER} us; a classmate's game came in: {NUMBER} us$",
                            rf"^\s+the check's own cost: -?{NUMBER} CPU s in 1 s = -?{NUMBER}% of one core",
                            rf"^\s+a game kept -> seen by a tab: p50 {NUMBER} ms, p95 {NUMBER} ms"],
    "bench_kernel_loops.py": [rf"^{p}\s+{n}(\s+{NUMBER}){{3}}(\s+{NUMBER}x){{2}}$"
                              for p in ("explore", "classic") for n in (20, 100)]
                             + [rf"^nim, piles up to 7: general before {NUMBER}, now {NUMBER} M games/s: {NUMBER}x$"],
    "bench_hexapawn_opponent.py": [rf"^{o}\s+20\s+{NUMBER}%\s+{NUMBER}%\s+{NUMBER}%\s+[01]/1$"
                                   for o in ("self", "random", "best-at-random")],
    "bench_menace_seeds.py": [r"^# MENACE on seeds 10001-10002 \(2 seeds\), 100 games each",
                              *(rf"^this tree\s+{b}\s+\d/2\s+{NUMBER}% \(median seed {NUMBER}%\)$"
                                for b in ("4,3,2,1", "8,3,2,1"))],
    "bench_nim.py": [rf"fast \(running flags, numba\): median {NUMBER} ms",
                     rf"memory: table 1,030,301 bytes", rf"kernel\s+2,000 games:\s+{NUMBER} games/s"],
    "bench_nim_quality.py": [r"448 winning positions; seeds 10001-10002 \(2 seeds\)",
                             r"every winning position right \(single top ball wins\): \d/2 seeds"],
    "bench_noughts_learning.py": [r"^# MENACE learning: 2 seeds \(10001-10002\), 300 games each",
                                  *(rf"^{b}\s+{o}\s+\d/2\s+(-|{NUMBER})\s+(-|{NUMBER}-{NUMBER})\s+\d/2\s+0$"
                                    for b in ("4,3,2,1", "8,3,2,1") for o in ("perfect", "random")),
                                  *(rf"^{b}(\s+{NUMBER}%){{6}}$" for b in ("4,3,2,1", "8,3,2,1"))],
    "bench_menace_beads.py": [*(rf"^{b}(\s+\(\w+\))?\s+\d+/20\s+{NUMBER}%\s+{NUMBER}%-{NUMBER}%\s+{NUMBER}$"
                                 for b in ("4,3,2,1", "12,3,2,1", "16,4,2,1")),
                              rf"^12,3,2,1\s+\d+/20 emptied, {NUMBER} CPU s$"],
    "bench_noughts_speed.py": [rf"^compiled kernel:\s+{NUMBER} games/s", rf"^tight pure-Python loop:\s+{NUMBER} games/s",
                               rf"^kernel vs the tight pure-Python loop: {NUMBER}x$"],
    "bench_projector.py": [rf"^pupils playing: 1 \(their own games kept: \d+\); classmates' games timed: 2",
                           rf"^game kept -> on the projector's page: p50 {NUMBER} ms, p95 {NUMBER} ms, max {NUMBER} ms$"],
    "bench_quality.py": [r"^# share of 2 seeds \(10001-10002\)",
                         *(rf"^{p}\s+{n}\s+\d/2\s+{NUMBER}%" for p in ("explore", "classic") for n in (20, 100))],
    "bench_suite.py": [rf"^this tree\s+1\s+{NUMBER}\s+{NUMBER}\s+exit 0: 2 passed",
                       rf"^this tree: median wall {NUMBER} s, median CPU {NUMBER} s \(user \+ system\)$"],
    "bench_startup.py": [rf"^first screen \('Start game' on screen\): median {NUMBER} s",
                         rf"^sticks_tui\.ui\.app: {NUMBER} ms in all"],
    "bench_train.py": [rf"^{e}\s+{p}\s+{n}\s+{NUMBER}$" for e in ("kernel", "reference")
                       for p in ("explore", "classic") for n in (20, 100)],
    "bench_vs_python.py": [rf"^tight pure-Python trainer:\s+{NUMBER} games/s",
                           rf"^kernel vs the readable reference engine, training alone: {NUMBER}x$",
                           rf"^kernel vs the tight pure-Python trainer, training alone: {NUMBER}x$",
                           rf"^whole `sticks-tui train` process vs the tight trainer's training alone: {NUMBER}x$"],
    "bench_web.py": [rf"^page open to first screen \(1 opens, one at a time\): median {NUMBER} s",
                     rf"^\s+1(\s+{NUMBER}){{8}}\s+{NUMBER}%(\s+{NUMBER}){{3}}$"],
    "bench_tab_start.py": [rf"^median all open: warm {NUMBER} s, cold {NUMBER} s \(warm/cold {NUMBER}\)$",
                           rf"^median CPU/tab: warm {NUMBER} s, cold {NUMBER} s \(warm/cold {NUMBER}\)$"],
    "bench_widgets.py": [rf"^heatmap, 100 hats, 160x48: {NUMBER} ms per full repaint$",
                         rf"^learning curve, 200 points x 3 series, 80x10: {NUMBER} ms per full repaint$"],
    "shared_brain.py": [rf"^\s+1\s+5\s+{NUMBER}\s+0$", rf"^\s+2\s+10\s+{NUMBER}\s+0$"],  # 0 balls lost
}


def test_every_script_in_benchmarks_has_a_smoke_run():
    files = {p.name for p in BENCHMARKS.glob("*.py")}
    scripts = {name for name in files if "__main__" in (BENCHMARKS / name).read_text()}
    assert scripts == set(FIGURES), "a script without a smoke run here, or one named here that is gone"
    assert files - scripts == HELPERS


#: Smoke runs that start real servers: seconds of their own, so `slow` (CI runs them).
SLOW = {"bench_projector.py", "bench_tab_start.py"}
#: Run elsewhere, against FIGURES all the same: bench_web.py's smoke run by its main() with tests/web's Chromium
#: for its browser (tests/web/test_browser.py), not a Chromium of its own launched here.
ELSEWHERE = {"bench_web.py"}


@pytest.mark.parametrize("script", [pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name
                                    for name in sorted(FIGURES) if name not in ELSEWHERE])
def test_the_script_runs_and_prints_its_figures(script, tmp_path, monkeypatch, capsys):
    if script in ("bench_tab_start.py", "bench_projector.py"):
        pytest.importorskip("aiohttp", reason=f"{script} needs the 'web' extra")
    env = {"STICKS_TUI_DATA_DIR": str(tmp_path / "data"),  # never the user's own records
           "STICKS_TUI_CONFIG_DIR": str(tmp_path / "config")}
    if script in IN_PROCESS:
        before = shared_callables()
        code, out, err = run_in_process(script, tmp_path, env, monkeypatch, capsys)
        # the process is the other tests' too: a function the script put in the app's place must be put back (one
        # there before it ran, or one the script defined itself in a module it imported)
        changed = [f"{m}.{a}" for (m, a), v in before.items() if getattr(sys.modules.get(m), a, None) is not v]
        changed += [f"{m}.{a}" for (m, a), v in shared_callables().items()
                    if (m, a) not in before and getattr(v, "__module__", None) == "__main__"]
        assert changed == [], f"{script} --smoke left {changed} replaced in this process"
    else:
        done = subprocess.run([sys.executable, str(BENCHMARKS / script), "--smoke"], cwd=tmp_path,
                              env={**os.environ, **env}, capture_output=True, text=True, timeout=240)
        code, out, err = done.returncode, done.stdout, done.stderr
    assert code == 0, f"{script} --smoke exited {code}:\n{out}\n{err[-3000:]}"
    missing = [p for p in FIGURES[script] if not re.search(p, out, re.MULTILINE)]
    assert missing == [], f"{script} --smoke did not print {missing}:\n{out}"


#: Scripts run as `python script --smoke` runs them, but in this process (runpy, as __main__), which spares a
#: Python start and its imports each (about 0.6 CPU s; more where the script loads the compiled kernels this
#: process has loaded already): those that only compute, and those whose servers, pools and writers are
#: processes of their own (started with subprocess, their output piped, so this process is only their
#: conductor). Not here: a script that
#: forks this process (ptyterm's forkpty: bench_keypress, bench_startup), or runs pytest (bench_suite), nor
#: bench_kernel_loops, whose every figure comes from processes of another tree.
IN_PROCESS = {"compare_lab_runs.py", "bench_checkpoints.py", "bench_hexapawn_opponent.py", "bench_lab_speed.py", "bench_nim.py", "bench_nim_quality.py",
              "bench_menace_beads.py", "bench_noughts_learning.py", "bench_noughts_speed.py", "bench_quality.py",
              "bench_train.py", "bench_vs_python.py", "bench_widgets.py", "bench_lab.py", "bench_cli.py",
              "bench_menace_seeds.py", "bench_live_check.py", "shared_brain.py", "bench_tab_start.py",
              "bench_projector.py"}


def shared_callables() -> dict[tuple[str, str], object]:
    """Every function, class and compiled kernel of the app's modules loaded in this process, by (module, name)."""
    return {(name, attr): value for name, module in list(sys.modules.items())
            if name.split(".")[0] == "sticks_tui" and module is not None
            for attr, value in list(vars(module).items()) if callable(value)}


def run_in_process(script: str, cwd, env: dict, monkeypatch, capsys) -> tuple[int, str, str]:
    import runpy

    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(sys, "argv", [str(BENCHMARKS / script), "--smoke"])
    monkeypatch.setattr(sys, "path", list(sys.path))  # what the script adds to it (bench_projector: the repo) goes
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    capsys.readouterr()
    try:
        runpy.run_path(str(BENCHMARKS / script), run_name="__main__")
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        if not isinstance(exit_.code, int | None):
            print(exit_.code, file=sys.stderr)
    out, err = capsys.readouterr()
    return code, out, err
