"""A tab served from the warm process (sticks_tui/web/warm.py): forked, the server's own child, and the
same app; and once the warm process is gone, the next tab starts cold and works as well. Then the server
is killed (SIGKILL) with a warm tab open: the tab ends all the same.

Every other test in tests/web runs its tabs from the warm process too (it is the default); this one
checks that they really are forked, and the way back to a cold start.
"""

from __future__ import annotations

import re
import signal

import pytest
from test_server import in_thread, open_session, read_screen_bytes
from web_helpers import pid_alive, wait_until


@pytest.mark.slow
def test_a_tab_comes_from_the_warm_process_and_plays_a_dead_one_means_a_cold_tab_and_a_killed_server_ends_its_tabs(
        served):
    """One server walked through (two tests before, each with a server of its own):
    - a tab comes from the warm process (forked, named, the server's own child) and plays; once the warm process
      is dead the next tab starts cold and works, said in one line; the warm tab still answers, and when it
      ends the server reads its exit (exit 0);
    - even a SIGKILLed server leaves no app running: a warm tab open then gets SIGTERM and quits as usual."""
    import psutil

    from sticks_tui.web.warm import TAB_NAME, ZYGOTE_NAME

    server = served(max_sessions=3)
    ready = wait_until(lambda: next((m for line in server.lines
                                     if (m := re.search(r"warm process (\d+) ready in", line))), None),
                       60, "the warm process to be ready")
    zygote = psutil.Process(int(ready.group(1)))
    assert zygote.ppid() == server.pid and zygote.name() == ZYGOTE_NAME

    async def warm_then_cold_then_killed():
        client, ws = await open_session(server)
        last, last_ws = await open_session(server)  # a second warm tab, open when the server is killed
        try:
            await read_screen_bytes(ws, b"Start game")
            await read_screen_bytes(last_ws, b"Start game")
            pid, last_pid = sorted(server.wait_for_app_count(2), key=lambda p: psutil.Process(p).create_time())
            for forked in (pid, last_pid):
                tab = psutil.Process(forked)
                # forked from the warm process (its name, its command line), and the server's own child
                assert tab.name() == TAB_NAME and "sticks_tui.web.warm" in " ".join(tab.cmdline())
                assert tab.ppid() == server.pid
            await ws.send_str('["stdin", "\\u0013"]')  # Ctrl+S: the setup screen starts a game
            await read_screen_bytes(ws, b"Take 1")

            zygote.kill()  # the warm process dies: this tab plays on, the next one starts cold
            client2, ws2 = await open_session(server)
            try:
                await read_screen_bytes(ws2, b"Start game", timeout=60)
                (cold,) = server.app_pids() - {pid, last_pid}
                assert "sticks_tui.web.session" in " ".join(psutil.Process(cold).cmdline())
            finally:
                await ws2.close()
                await client2.close()
            await ws.send_str('["stdin", "\\u001b"]')  # this tab still answers: Escape, back to the setup
            await read_screen_bytes(ws, b"Start game")
            await ws.close()
            await client.close()
            said = [re.sub(r"^\[\d\d:\d\d:\d\d\] ", "", line) for line in server.lines
                    if "not used any more" in line]
            assert said == [f"the warm process is not used any more: it ended (exit -{int(signal.SIGKILL)}); new "
                            "tabs start cold (each imports the app itself, about a second of CPU more)"]
            wait_until(lambda: pid not in server.app_pids(), 20, "the warm tab to end with its tab")
            wait_until(lambda: any(f"session {pid} ended (exit 0" in line for line in server.lines), 20,
                       "the server to read the warm tab's exit")

            server.proc.send_signal(signal.SIGKILL)  # the server killed, a warm tab still open
            server.proc.wait(timeout=10)
        finally:
            await client.close()
            await last.close()
        return last_pid

    last_pid = in_thread(warm_then_cold_then_killed())
    wait_until(lambda: not pid_alive(last_pid), 20, "the orphaned app process to end")
