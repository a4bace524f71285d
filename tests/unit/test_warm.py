"""The warm process's protocol (sticks_tui/web/warm.py): what it refuses, and what the server does when
it dies or hangs (every tab then starts cold, said in one line, never a hang).

The requests are checked by `parse_request` alone (no process), then against a real warm process over
its real socket. The tests that start one are slow (it imports the whole app, about 2 s of CPU). They
make this test process a child subreaper, as the server is: a tab forked by the warm process becomes
this process's child.
"""

from __future__ import annotations

import array
import asyncio
import json
import os
import select
import signal
import socket
import sys

import pytest

pytest.importorskip("aiohttp")  # the 'web' extra: warm.py itself needs none of it, its server does
from sticks_tui.web import warm  # noqa: E402
from sticks_tui.web.session import SERVER_PID_ENV  # noqa: E402

SESSION = [sys.executable, "-m", "sticks_tui.web.session"]
ENV = {"TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver", "COLUMNS": "80", "ROWS": "24", "HOME": "/h"}


def three_pipes() -> tuple[list[int], list[int]]:
    """(the tab's ends, ours) of three new pipes."""
    pipes = [os.pipe() for _ in range(3)]
    return [pipes[0][0], pipes[1][1], pipes[2][1]], [pipes[0][1], pipes[1][0], pipes[2][0]]


def close(fds) -> None:
    for fd in fds:
        os.close(fd)


# -- the requests, checked without a process ---------------------------------------------------------

def request(argv=None, env=None) -> bytes:
    return json.dumps({"argv": SESSION + ["--data-dir", "/d"] if argv is None else argv,
                       "env": ENV if env is None else env}).encode()


def test_a_good_request_gives_the_tab_its_arguments_environment_and_pipes():
    tab = warm.parse_request(request(env={**ENV, "COLUMNS": "132", "ROWS": "40"}), [7, 8, 9], ENV)
    assert tab.args == ["--data-dir", "/d"]
    assert tab.env == {**ENV, "COLUMNS": "132", "ROWS": "40"}  # its own terminal size
    assert tab.fds == [7, 8, 9]


@pytest.mark.parametrize("message, fds, words", [
    (b"\xff\xfe not json", [7, 8, 9], "the request is not JSON"),
    (b"[1, 2]", [7, 8, 9], "the request is not a JSON object"),
    (request(), [7, 8], "a tab needs 3 pipe ends, 2 came"),
    (request(), [], "a tab needs 3 pipe ends, 0 came"),
    (request(argv="python -m sticks_tui.web.session"), [7, 8, 9], "argv is not a list of strings"),
    (request(argv=[sys.executable, "-c", "import os; os.system('touch /tmp/x')"]), [7, 8, 9],
     "only sticks_tui.web.session is started from the warm process"),
    (request(argv=["/bin/sh", "-m", "sticks_tui.web.session"]), [7, 8, 9],
     "only sticks_tui.web.session is started from the warm process"),
    (request(env=["HOME=/h"]), [7, 8, 9], "env is not a mapping of strings"),
    (request(env={**ENV, "TEXTUAL_FPS": "5"}), [7, 8, 9], "environment differs from the warm process's in TEXTUAL_FPS"),
    (request(env={k: v for k, v in ENV.items() if k != "HOME"}), [7, 8, 9],
     "environment differs from the warm process's in HOME"),
])
def test_a_bad_request_is_refused_in_words(message, fds, words):
    with pytest.raises(warm.BadRequest) as refused:
        warm.parse_request(message, fds, ENV)
    assert words in str(refused.value)


# -- a real warm process --------------------------------------------------------------------------------

def tab_environment(tmp_path) -> dict[str, str]:
    return {**os.environ, **ENV, **warm.ONE_THREAD_ENV, SERVER_PID_ENV: str(os.getpid()),
            "STICKS_TUI_CONFIG_DIR": str(tmp_path / "config"), warm.WARM_ENV: "1"}


async def ready_starter(tmp_path, said: list[str]) -> warm.WarmStarter:
    starter = warm.WarmStarter(said.append)
    await starter.start(tab_environment(tmp_path))
    async with asyncio.timeout(120):
        await starter._ready
    assert starter.state == "ready", said
    return starter


def raw_request(starter: warm.WarmStarter, message: bytes, fds: list[int]) -> None:
    starter._socket.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else [])


def closed_elsewhere(read_end: int) -> bool:
    """Whether every other copy of this pipe's write end is closed (the read end sees the end)."""
    ready, _, _ = select.select([read_end], [], [], 10)
    return bool(ready) and os.read(read_end, 1) == b""


async def read_until(stream: asyncio.StreamReader, needle: bytes) -> bytes:
    seen = b""
    async with asyncio.timeout(60):
        while needle not in seen:
            chunk = await stream.read(65536)
            assert chunk, f"the tab ended before {needle!r}: {seen[-500:]!r}"
            seen += chunk
    return seen


@pytest.mark.slow
async def test_bad_requests_get_an_error_their_pipes_are_closed_the_next_tab_still_starts_and_a_dead_one_means_cold_tabs(
        tmp_path):
    """One warm process walked through (two tests before, each with a warm process of its own):
    - bad requests get an error, their pipes are closed, and the next tab still starts from it;
    - killed, it means cold tabs: said once, and no hang (a dead warm process never holds a tab)."""
    said: list[str] = []
    starter = await ready_starter(tmp_path, said)
    try:
        assert len(said) == 1 and said[0].startswith(f"warm process {starter.pid} ready in ")
        assert said[0].endswith(" s: each tab starts from it")
        for message, words in [(b"not json", "the request is not JSON"),
                               (request(argv=SESSION[:1] + ["-c", "pass"], env=tab_environment(tmp_path)),
                                "only sticks_tui.web.session is started from the warm process")]:
            theirs, ours = three_pipes()
            raw_request(starter, message, theirs)
            close(theirs)
            assert (await starter._receive()) == {"error": words}
            assert closed_elsewhere(ours[1])  # the warm process kept no copy of the tab's stdout
            close(ours)
        raw_request(starter, request(env=tab_environment(tmp_path)), [])  # no pipes at all
        assert (await starter._receive()) == {"error": "a tab needs 3 pipe ends, 0 came"}

        # through the server's own call: refused, said once, and None (the server starts that tab cold)
        odd = {**tab_environment(tmp_path), "TEXTUAL_FPS": "5"}
        assert await starter.spawn(SESSION + ["--data-dir", str(tmp_path)], odd) is None
        assert await starter.spawn(SESSION + ["--data-dir", str(tmp_path)], odd) is None
        refused = [line for line in said if "refused" in line]
        assert refused == ["the warm process refused a tab (the tab's environment differs from the warm "
                           "process's in TEXTUAL_FPS); that tab starts cold"]

        # the warm process still serves: a tab, this process's child, on the pipes it was given
        (tmp_path / "class").mkdir()
        tab = await starter.spawn(SESSION + ["--data-dir", str(tmp_path / "class")],
                                  {**tab_environment(tmp_path), "COLUMNS": "100", "ROWS": "30"})
        assert tab is not None and starter.state == "ready"
        import psutil

        process = psutil.Process(tab.pid)
        assert process.ppid() == os.getpid()
        await read_until(tab.stdout, b"Start game")  # the app's first screen, through the web driver
        # named once forked (a moment after the fork, which a loaded machine makes visible): by its first screen
        assert process.name() == warm.TAB_NAME
        assert tab.returncode is None
        quit_packet = b'{"type": "quit"}'
        tab.stdin.write(b"M" + len(quit_packet).to_bytes(4, "big") + quit_packet)
        async with asyncio.timeout(30):
            assert await tab.wait() == 0
        assert (tmp_path / "class" / "sticks-tui.db").exists()

        # a dead warm process means cold tabs, said once, and no hang
        os.kill(starter.pid, signal.SIGKILL)
        async with asyncio.timeout(20):  # bounded: a dead warm process never holds a tab
            first = await starter.spawn(SESSION + ["--data-dir", str(tmp_path)], tab_environment(tmp_path))
            second = await starter.spawn(SESSION + ["--data-dir", str(tmp_path)], tab_environment(tmp_path))
        assert first is None and second is None
        assert starter.state == "gone"
        gone = [line for line in said if "not used any more" in line]
        assert gone == [f"the warm process is not used any more: it ended (exit -{int(signal.SIGKILL)}); "
                        "new tabs start cold (each imports the app itself, about a second of CPU more)"]
    finally:
        await starter.stop()
    assert starter.process.returncode is not None


@pytest.mark.slow
async def test_a_hung_warm_process_is_given_up_within_the_spawn_timeout(tmp_path, monkeypatch):
    monkeypatch.setattr(warm, "SPAWN_TIMEOUT", 0.2)  # the process is stopped: it never answers, however long
    said: list[str] = []
    starter = await ready_starter(tmp_path, said)
    try:
        os.kill(starter.pid, signal.SIGSTOP)
        async with asyncio.timeout(20):
            assert await starter.spawn(SESSION + ["--data-dir", str(tmp_path)], tab_environment(tmp_path)) is None
        assert [line for line in said if "not used any more" in line] == [
            "the warm process is not used any more: it did not start a tab within 0.2 s; new tabs start cold "
            "(each imports the app itself, about a second of CPU more)"]
        async with asyncio.timeout(10):  # killed, not left stopped
            assert await starter.process.wait() == -signal.SIGKILL
    finally:
        await starter.stop()


async def test_switched_off_by_the_environment_no_process_is_started(monkeypatch):
    monkeypatch.setenv(warm.WARM_ENV, "0")
    said: list[str] = []
    starter = warm.WarmStarter(said.append)
    await starter.start(dict(os.environ))
    assert starter.process is None and starter.state == "off"
    assert await starter.spawn(SESSION, dict(os.environ)) is None
    assert said == ["tabs start cold (STICKS_TUI_SERVE_WARM=0): each imports the app itself"]


@pytest.mark.parametrize("failing", ["socketpair", "create_subprocess_exec"])
async def test_a_launch_that_fails_means_cold_tabs_said_once_never_an_error(monkeypatch, failing):
    """Out of file descriptors (the socket pair) or a process that cannot start: tabs start cold, and a tab
    asking for the warm process gets None (start cold), never the launch's error."""
    import errno

    def out_of_descriptors(*_args, **_kwargs):
        raise OSError(errno.EMFILE, "Too many open files")

    async def cannot_start(*_args, **_kwargs):
        out_of_descriptors()

    monkeypatch.setattr(warm, "become_subreaper", lambda: True)
    if failing == "socketpair":
        monkeypatch.setattr(warm.socket, "socketpair", out_of_descriptors)
    else:
        monkeypatch.setattr(warm.asyncio, "create_subprocess_exec", cannot_start)
    said: list[str] = []
    starter = warm.WarmStarter(said.append)
    try:
        await starter.start(dict(os.environ))
        assert await starter.spawn(SESSION, dict(os.environ)) is None
        assert await starter.spawn(SESSION, dict(os.environ)) is None
        assert starter.state == "off" and starter.process is None
        assert said == ["tabs start cold: the warm process could not start ([Errno 24] Too many open files)"]
    finally:
        await starter.stop()
