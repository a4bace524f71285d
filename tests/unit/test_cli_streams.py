"""Output streams and terminals (issue 13): the REAL `sticks-tui` command in a subprocess, temp data dir.

- stdout closed (`>&-`) or full (`>/dev/full`): exit 1 with one line on stderr, never a traceback;
- stderr unusable too: exit non-zero, silently;
- a reader that goes away before anything is written: a quiet exit 0;
- no terminal and no TEXTUAL_DRIVER: one line saying the app needs a terminal, exit 2 (it used to
  write escape codes forever); with TEXTUAL_DRIVER set (textual-serve) the check is skipped;
- PYTHONIOENCODING=ascii with non-ASCII names: no UnicodeEncodeError.

Every subprocess has a timeout, so a regression fails instead of hanging the suite.
"""

from __future__ import annotations

import errno
import io
import os
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sticks_tui.cli import main

TIMEOUT = 60


def sticks_command() -> list[str]:
    """The installed console script (what a user runs); `python -m sticks_tui` if it is not on hand."""
    script = Path(sys.executable).with_name("sticks-tui")
    if script.exists():
        return [str(script)]
    found = shutil.which("sticks-tui")
    return [found] if found else [sys.executable, "-m", "sticks_tui"]


def env_for(data: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("TEXTUAL_DRIVER", "PYTHONIOENCODING")}
    env["STICKS_TUI_DATA_DIR"] = str(data)
    env.update(extra)
    return env


def shell(tmp_path: Path, args: list[str], redirect: str, stdin: str = "", **env: str):
    """Run `sticks-tui ARGS REDIRECT` through /bin/sh, so `>&-` and `>/dev/full` are exactly what a user types."""
    line = " ".join(shlex.quote(a) for a in sticks_command() + args) + " " + redirect
    return subprocess.run(["/bin/sh", "-c", line], input=stdin, capture_output=True, text=True,
                          timeout=TIMEOUT, env=env_for(tmp_path / "data", **env))


def one_line(text: str) -> str:
    lines = text.splitlines()
    assert len(lines) == 1, text
    return lines[0]


#: Commands that write to stdout, with what they read on stdin.
WRITERS = {
    "records": (["records"], ""),
    "records --json": (["records", "--json"], ""),
    "brain list": (["brain", "list"], ""),
    "nim solve": (["nim", "solve", "3", "3", "7"], ""),
    "train": (["train", "--sticks", "10", "--games", "10", "--seed", "1"], ""),
    "classic": (["classic", "--mode", "friend"], "10\n3\n"),
    "help": (["--help"], ""),
    "version": (["--version"], ""),
}


def in_process(tmp_path: Path, monkeypatch, name: str, stdout) -> tuple[int, str]:
    """Run the command `name` of WRITERS through `cli.main` in this process with `stdout` as its standard output
    (a real file: read-only, /dev/full, a pipe nobody reads): (exit status, what it wrote on stderr)."""
    args, stdin = WRITERS[name]
    err = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", err)
    try:
        code = main(["--data-dir", str(tmp_path / "data"), *args])
    except SystemExit as exc:  # --help and --version end through argparse
        code = exc.code
    finally:
        try:
            stdout.close()
        except OSError:
            pass
    return code, err.getvalue()


def closed_stdout():
    """What a command meets on a closed standard output: `main` puts /dev/null, read-only, on the closed fd 1
    (`_reserve_standard_fds`, held by the real process below), so every write fails with EBADF."""
    return open(os.open(os.devnull, os.O_RDONLY), "w", encoding="utf-8")


def test_a_closed_stdout_in_a_real_process_exits_1_with_one_line_on_stderr(tmp_path):
    args, stdin = WRITERS["records"]
    result = shell(tmp_path, args, ">&-", stdin)
    assert result.returncode == 1, result.stderr
    assert one_line(result.stderr) == "sticks-tui: cannot write the output: standard output is closed."


@pytest.mark.parametrize("name", ["records", "brain list", "classic", "help"])
def test_a_closed_stdout_exits_1_with_one_line_on_stderr(tmp_path, monkeypatch, name):
    code, err = in_process(tmp_path, monkeypatch, name, closed_stdout())
    assert code == 1, err
    assert one_line(err) == "sticks-tui: cannot write the output: standard output is closed."


def test_a_full_stdout_in_a_real_process_exits_1_with_one_line_on_stderr(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    args, stdin = WRITERS["records --json"]
    result = shell(tmp_path, args, ">/dev/full", stdin)
    assert result.returncode == 1, result.stderr
    assert one_line(result.stderr) == "sticks-tui: cannot write the output: No space left on device."


@pytest.mark.parametrize("name", ["records --json", "classic", "version"])
def test_a_full_stdout_exits_1_with_one_line_on_stderr(tmp_path, monkeypatch, name):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    code, err = in_process(tmp_path, monkeypatch, name, open("/dev/full", "w", encoding="utf-8"))
    assert code == 1, err
    assert one_line(err) == "sticks-tui: cannot write the output: No space left on device."


def test_when_stderr_is_unusable_too_it_exits_non_zero(tmp_path):
    for redirect in (">/dev/full 2>&-", ">&- 2>/dev/full"):
        result = shell(tmp_path, ["records"], redirect)
        assert result.returncode != 0 and result.stdout == "" and result.stderr == ""


class Failing(io.StringIO):
    """A stream whose writes fail like a full disk."""

    def write(self, text):
        raise OSError(errno.ENOSPC, "No space left on device")


def test_when_stderr_fails_too_the_exit_is_1_and_silent_in_process(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "stdout", Failing())
    monkeypatch.setattr(sys, "stderr", Failing())
    assert main(["--data-dir", str(tmp_path), "records"]) == 1  # and no exception escapes


def test_a_failed_write_in_process_is_reported_once(tmp_path, monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", Failing())
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["--data-dir", str(tmp_path), "records"]) == 1
    assert err.getvalue() == "sticks-tui: cannot write the output: No space left on device.\n"
    assert sys.stderr is err  # main puts the streams back


def test_a_reader_gone_before_the_first_write_ends_quietly_in_a_real_process(tmp_path):
    args, stdin = WRITERS["classic"]
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will ever read: the first write fails with EPIPE
    try:
        proc = subprocess.run(sticks_command() + args, input=stdin.encode(), stdout=write_end,
                              stderr=subprocess.PIPE, timeout=TIMEOUT, env=env_for(tmp_path / "data"))
    finally:
        os.close(write_end)
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    assert err == ""


@pytest.mark.parametrize("name", ["help", "records", "classic", "nim solve"])
def test_a_reader_gone_before_the_first_write_ends_quietly(tmp_path, monkeypatch, name):
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will ever read: the first write fails with EPIPE (Python ignores SIGPIPE)
    code, err = in_process(tmp_path, monkeypatch, name, open(write_end, "w", encoding="utf-8"))
    assert code == 0, err
    assert err == ""


# -- no terminal -------------------------------------------------------------------------------
def test_without_a_terminal_the_app_says_so_and_exits_2(tmp_path):
    # stdin from /dev/null, stdout a pipe: used to write escape codes forever (the timeout catches that)
    result = subprocess.run(sticks_command(), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=TIMEOUT, env=env_for(tmp_path / "data"))
    assert result.returncode == 2
    assert result.stdout == ""
    line = one_line(result.stderr)
    assert line.startswith("sticks-tui: ") and "needs a terminal" in line and "sticks-tui classic" in line
    assert not (tmp_path / "data").exists()  # refused before anything was opened


def test_no_terminal_in_process_either(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert one_line(err).startswith("sticks-tui: the full-screen app needs a terminal")


DRIVER = textwrap.dedent('''
    """A Textual driver for the test: headless, writes a marker once the app runs, then quits it."""
    import os

    from textual.drivers.headless_driver import HeadlessDriver


    class QuitDriver(HeadlessDriver):
        def start_application_mode(self):
            super().start_application_mode()
            with open(os.environ["STICKS_TEST_MARKER"], "w") as fh:
                fh.write("started")
            self._app.call_later(self._app.exit)
''')


def test_with_textual_driver_set_the_terminal_check_is_skipped(tmp_path):
    # textual-serve runs the app with TEXTUAL_DRIVER naming its web driver and no terminal at all
    (tmp_path / "quit_driver.py").write_text(DRIVER)
    marker = tmp_path / "marker"
    env = env_for(tmp_path / "data", TEXTUAL_DRIVER="quit_driver:QuitDriver", STICKS_TEST_MARKER=str(marker),
                  PYTHONPATH=os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    result = subprocess.run(sticks_command(), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=TIMEOUT, env=env)
    assert "needs a terminal" not in result.stderr
    assert result.returncode == 0, result.stderr
    assert marker.read_text() == "started"  # the app really ran, under the named driver


# -- encodings ---------------------------------------------------------------------------------
def ascii_stream() -> io.TextIOWrapper:
    """A standard stream as PYTHONIOENCODING=ascii makes it: ASCII, strict."""
    return io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict", write_through=True)


def test_ascii_output_with_non_ascii_names_does_not_raise(tmp_path, monkeypatch):
    """The game in a real process with PYTHONIOENCODING=ascii; then `records` and `brain list` of what it kept,
    in-process on streams as that variable makes them."""
    ascii_env = {"PYTHONIOENCODING": "ascii"}
    played = shell(tmp_path, ["classic", "--mode", "computer", "--name", "Zoë", "--brain", "Émile", "--seed", "3",
                              "--no-hats"], "", "10\n" + "1\n" * 8 + "n\n", **ascii_env)
    assert played.returncode == 0, played.stderr
    assert "Zo\\xeb: How many sticks" in played.stdout
    assert "Traceback" not in played.stderr and "UnicodeEncodeError" not in played.stderr
    for args, names in ((["records"], ["Zo\\xeb", "\\xc9mile"]), (["brain", "list"], ["\\xc9mile"])):
        out, err = ascii_stream(), ascii_stream()
        with monkeypatch.context() as patch:
            patch.setattr(sys, "stdout", out)
            patch.setattr(sys, "stderr", err)
            code = main(["--data-dir", str(tmp_path / "data"), *args])
        said, complaint = out.buffer.getvalue().decode("ascii"), err.buffer.getvalue().decode("ascii")
        assert code == 0, complaint
        for name in names:
            assert name in said, said
        assert "Traceback" not in complaint and "UnicodeEncodeError" not in complaint
