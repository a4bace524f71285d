"""Tabs started from a warm process: one Python that has imported the app once, forked for each tab.

A tab's app started cold (`python -m sticks_tui.web.session`) spends about 1.3 s of CPU importing
Python's, Textual's, numpy's and the app's modules before its first screen; 24 tabs opened at once on
a 2-core machine waited half a minute. Instead `serve` starts ONE warm process
(`python -m sticks_tui.web.warm FD`) when it starts, once it listens on its port and has printed its
addresses (a server that cannot listen starts none). It imports the app, the web driver, the store and
numpy, loads the compiled training kernels (numba, from its cache), freezes that heap for the garbage
collector, and waits. For each tab the server sends it one request over a Unix socket: the tab's
argument list and environment, with the three pipe ends the tab's stdin, stdout and stderr are to be
(SCM_RIGHTS). The warm process forks twice; the tab process (the grandchild) is re-parented to the
server, which has made itself a child subreaper, so every tab is the server's own child exactly as a
cold one is: the server reads its exit status, signals it, and the tab's PR_SET_PDEATHSIG is tied to
the server (web/session.py). The tab then puts the pipes on fds 0-2, takes the tab's environment,
starts a session of its own (setsid) and runs `sticks_tui.web.session.main` with the tab's arguments:
from there it is the same app as a cold one, and it ends as one does (a normal interpreter exit). The
pages the warm process loaded are shared copy-on-write by every tab until a tab writes to them.

The warm process is single-threaded (fork is safe only then; it checks before every fork) and
answers one request at a time. What it refuses (a request that is not JSON, not three pipe ends,
another program than the session, an environment that differs from its own other than the terminal
size, since Textual reads its settings once at import) gets a one-line error; the server then starts
that tab cold. If the warm process dies, hangs or never gets ready, the server says so in one line
and every later tab starts cold, as before: a tab is never refused for it. `STICKS_TUI_SERVE_WARM=0`
turns it off (every tab cold). Linux only (prctl); elsewhere tabs start cold.
"""

from __future__ import annotations

import array
import asyncio
import gc
import json
import os
import signal
import socket
import sys
import time
from typing import Any, Callable

#: The environment switch: "0" starts every tab cold (its own `python -m sticks_tui.web.session`).
WARM_ENV = "STICKS_TUI_SERVE_WARM"
#: The module every tab runs; a request for anything else is refused.
SESSION_MODULE = "sticks_tui.web.session"
#: Process names (Linux `comm`, as `ps`, `top` and psutil's name() show them).
ZYGOTE_NAME = "sticks-warm"
TAB_NAME = "sticks-tab"
#: The only environment variables a tab may have different from the warm process: its terminal size.
PER_TAB_ENV = frozenset({"COLUMNS", "ROWS"})
#: In every tab's environment, cold or warm: numpy's OpenBLAS otherwise starts a pool of worker threads
#: at import (one a core less one), which a tab never uses (its arrays are small) and which would leave
#: the warm process unable to fork safely.
ONE_THREAD_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
#: How long the warm process may take to import and load (the first start after an install compiles the
#: kernels: longer), how long a tab waits for one still loading before it starts cold, and how long one
#: fork may take before the warm process is taken for hung.
READY_TIMEOUT = 120.0
WAIT_FOR_READY = 20.0
SPAWN_TIMEOUT = 10.0
#: How long a new tab waits to be re-parented to the server (the middle process exits at once).
REPARENT_TIMEOUT = 10.0
MAX_MESSAGE = 256 * 1024
PIPES = 3  # stdin, stdout, stderr

PR_SET_NAME = 15
PR_SET_CHILD_SUBREAPER = 36


class BadRequest(ValueError):
    """A request the warm process does not serve; the server starts that tab cold."""


def _prctl(option: int, value: Any) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError, TypeError):
        return False


def set_process_name(name: str) -> bool:
    return _prctl(PR_SET_NAME, name.encode("ascii")[:15])


def become_subreaper() -> bool:
    """Orphaned descendants of this process become its children (Linux 3.4+): a tab forked by the warm
    process is the server's child once the middle process has exited."""
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def thread_count() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        import threading

        return threading.active_count()


# -- in the server ------------------------------------------------------------------------------------

class WarmProcess:
    """A tab's app process started by the warm process, with what the server uses of an
    asyncio.subprocess.Process: pid, returncode, stdin, stdout, stderr, send_signal, wait."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._returncode: int | None = None
        self.stdin: asyncio.StreamWriter | None = None
        self.stdout: asyncio.StreamReader | None = None
        self.stderr: asyncio.StreamReader | None = None

    @classmethod
    async def attach(cls, pid: int, stdin_fd: int, stdout_fd: int, stderr_fd: int) -> WarmProcess:
        """The server's ends of the tab's three pipes as asyncio streams (each fd is taken over)."""
        loop = asyncio.get_running_loop()
        process = cls(pid)
        readers = []
        for fd in (stdout_fd, stderr_fd):
            reader = asyncio.StreamReader(limit=2**16, loop=loop)
            await loop.connect_read_pipe(lambda r=reader: asyncio.StreamReaderProtocol(r, loop=loop),
                                         os.fdopen(fd, "rb", buffering=0))
            readers.append(reader)
        transport, protocol = await loop.connect_write_pipe(
            lambda: asyncio.streams.FlowControlMixin(loop=loop), os.fdopen(stdin_fd, "wb", buffering=0))
        process.stdin = asyncio.StreamWriter(transport, protocol, None, loop)
        process.stdout, process.stderr = readers
        return process

    @property
    def returncode(self) -> int | None:
        """The exit status once the tab has ended (read without waiting, and the tab reaped), as
        asyncio gives it: the exit code, or minus the signal that ended it."""
        if self._returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # not (or no longer) ours to wait for: ended, status unknown
                pid, status = (self.pid, 255 << 8) if not _exists(self.pid) else (0, 0)
            if pid == self.pid:
                self._returncode = os.waitstatus_to_exitcode(status)
        return self._returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:  # still our unreaped child: its pid cannot have been reused
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    async def wait(self) -> int:
        while self.returncode is None:
            await asyncio.sleep(0.05)
        return self._returncode  # type: ignore[return-value]


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class WarmStarter:
    """The server's side: starts the warm process, asks it for tabs, and gives up on it (every later tab
    starts cold) the moment it misbehaves. Never raises; `spawn` returns None for "start it cold"."""

    def __init__(self, log: Callable[[str], None]) -> None:
        self.log = log
        self.process: asyncio.subprocess.Process | None = None
        self.state = "off"  # off -> starting -> ready -> gone
        self.started_tabs = 0
        self._socket: socket.socket | None = None
        self._ready: asyncio.Future[bool] | None = None
        self._watch: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._refusals: set[str] = set()

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    async def start(self, environment: dict[str, str]) -> None:
        """Start the warm process with the environment every tab gets (but its terminal size). Returns at
        once, without giving the event loop a turn: the process is started and gets ready in the
        background, and a tab asked for from now on waits for it (`spawn`), none slips in cold."""
        if os.environ.get(WARM_ENV, "1").strip() == "0":
            self.log(f"tabs start cold ({WARM_ENV}=0): each imports the app itself")
            return
        if not become_subreaper():
            self.log("tabs start cold: this system cannot hand a warm process's children to the server")
            return
        self.state = "starting"
        self._started_at = time.monotonic()
        self._ready = asyncio.ensure_future(self._launch(environment))

    async def _launch(self, environment: dict[str, str]) -> bool:
        try:
            if not await self._start_process(environment):
                return False
        except Exception as exc:  # out of file descriptors, a process that cannot start: tabs start cold
            self.state = "off"
            self.log(f"tabs start cold: the warm process could not start ({exc})")
            return False
        return await self._get_ready()

    async def _start_process(self, environment: dict[str, str]) -> bool:
        """The warm process started, its end of the socket pair kept; False if the server stopped meanwhile."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", __name__, str(theirs.fileno()),
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL, env=environment, pass_fds=(theirs.fileno(),),
                start_new_session=True)
        except BaseException:  # it could not start, or stop() cancelled it (asyncio ends what it was starting)
            ours.close()
            raise
        finally:
            theirs.close()
        if self.state != "starting":  # stopped meanwhile: the server is stopping
            ours.close()
            self.process.kill()
            return False
        ours.setblocking(False)
        self._socket = ours
        return True

    async def _get_ready(self) -> bool:
        try:
            reply = await asyncio.wait_for(self._receive(), READY_TIMEOUT)
        except asyncio.TimeoutError:
            self._give_up(f"it was not ready within {READY_TIMEOUT:.0f} s")
            return False
        except (OSError, EOFError, ValueError) as exc:
            await self._exit_status(2.0)
            self._give_up(f"it ended while loading ({self._exit_words(exc)})")
            return False
        if "error" in reply or not isinstance(reply.get("ready"), int):
            self._give_up(f"it could not load the app: {str(reply.get('error'))[:200]}")
            return False
        self.state = "ready"
        self.log(f"warm process {self.pid} ready in {time.monotonic() - self._started_at:.1f} s: "
                 "each tab starts from it")
        self._watch = asyncio.ensure_future(self._watch_exit())
        return True

    async def _watch_exit(self) -> None:
        assert self.process is not None
        code = await self.process.wait()
        if self.state == "ready":
            self._give_up(f"it ended (exit {code})")

    async def _exit_status(self, seconds: float) -> None:
        if self.process is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self.process.wait()), seconds)
            except asyncio.TimeoutError:
                pass

    def _exit_words(self, exc: BaseException) -> str:
        code = self.process.returncode if self.process is not None else None
        return f"exit {code}" if code is not None else (str(exc) or type(exc).__name__)

    def _give_up(self, why: str) -> None:
        if self.state == "gone":
            return
        self.state = "gone"
        self.log(f"the warm process is not used any more: {why}; new tabs start cold "
                 "(each imports the app itself, about a second of CPU more)")
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        if self.process is not None and self.process.returncode is None:
            try:
                self.process.kill()
            except ProcessLookupError:
                pass

    async def _receive(self) -> dict[str, Any]:
        sock = self._socket
        if sock is None:
            raise EOFError("no warm process")
        data = await asyncio.get_running_loop().sock_recv(sock, MAX_MESSAGE)
        if not data:
            raise EOFError("the warm process closed its socket")
        reply = json.loads(data)
        if not isinstance(reply, dict):
            raise ValueError("not a reply")
        return reply

    async def spawn(self, argv: list[str], environment: dict[str, str]) -> WarmProcess | None:
        """A tab's app process from the warm process, or None: start this tab cold."""
        if self.state == "starting" and self._ready is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._ready), WAIT_FOR_READY)
            except asyncio.TimeoutError:
                return None  # still loading (the first start compiles the kernels): this tab starts cold
        if self.state != "ready":
            return None
        async with self._lock:
            return await self._spawn(argv, environment)

    async def _spawn(self, argv: list[str], environment: dict[str, str]) -> WarmProcess | None:
        sock = self._socket
        if sock is None:
            return None
        pipes = [os.pipe() for _ in range(PIPES)]
        # the tab's ends: it reads stdin, writes stdout and stderr; the server keeps the others
        theirs = [pipes[0][0], pipes[1][1], pipes[2][1]]
        ours = [pipes[0][1], pipes[1][0], pipes[2][0]]
        try:
            payload = json.dumps({"argv": argv, "env": environment}).encode("utf-8")
            try:
                sock.sendmsg([payload], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", theirs))])
                reply = await asyncio.wait_for(self._receive(), SPAWN_TIMEOUT)
            except asyncio.TimeoutError:
                self._give_up(f"it did not start a tab within {SPAWN_TIMEOUT:g} s")
                reply = None
            except (OSError, EOFError, ValueError) as exc:
                await self._exit_status(2.0)  # to tell how it ended, if it did
                self._give_up(f"it ended ({self._exit_words(exc)})")
                reply = None
        finally:
            for fd in theirs:  # the warm process has its own copies (and the tab, if it was started)
                os.close(fd)
        pid = reply.get("pid") if reply is not None else None
        if not isinstance(pid, int) or pid <= 0:
            for fd in ours:
                os.close(fd)
            if reply is not None:
                error = str(reply.get("error", "no process id in its reply"))[:200]
                if error not in self._refusals:  # said once, not once a tab
                    self._refusals.add(error)
                    self.log(f"the warm process refused a tab ({error}); that tab starts cold")
            return None
        try:
            process = await WarmProcess.attach(pid, *ours)
        except OSError as exc:
            self.log(f"a tab from the warm process could not be attached ({exc}); it is stopped")
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            return None
        self.started_tabs += 1
        return process

    async def stop(self) -> None:
        """Stop the warm process (its tabs are the server's to stop, and are not touched)."""
        was = self.state
        self.state = "gone"
        if self._ready is not None and not self._ready.done():
            self._ready.cancel()
        if self._watch is not None:
            self._watch.cancel()
        if self._socket is not None:
            self._socket.close()  # the warm process reads the end of its socket and exits
            self._socket = None
        process = self.process
        if process is None or was == "off":
            return
        deadline = time.monotonic() + 2.0
        while process.returncode is None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if process.returncode is None:
            try:
                process.kill()
            except ProcessLookupError:
                pass


# -- in the warm process ------------------------------------------------------------------------------

class TabRequest:
    def __init__(self, args: list[str], env: dict[str, str], fds: list[int]) -> None:
        self.args, self.env, self.fds = args, env, fds


def parse_request(message: bytes, fds: list[int], own_env: dict[str, str]) -> TabRequest:
    """A request from the server, or BadRequest saying in words what is wrong with it."""
    if len(fds) != PIPES:
        raise BadRequest(f"a tab needs {PIPES} pipe ends, {len(fds)} came")
    try:
        request = json.loads(message.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BadRequest("the request is not JSON") from None
    if not isinstance(request, dict):
        raise BadRequest("the request is not a JSON object")
    argv, env = request.get("argv"), request.get("env")
    if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
        raise BadRequest("argv is not a list of strings")
    if argv[:3] != [sys.executable, "-m", SESSION_MODULE]:
        raise BadRequest(f"only {SESSION_MODULE} is started from the warm process")
    if not isinstance(env, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items()):
        raise BadRequest("env is not a mapping of strings")
    differs = sorted(k for k in set(env) ^ set(own_env) | {k for k in env if env.get(k) != own_env.get(k)}
                     if k not in PER_TAB_ENV)
    if differs:
        # Textual (and others) read their settings from the environment once, at import
        raise BadRequest(f"the tab's environment differs from the warm process's in {', '.join(differs[:5])}")
    return TabRequest(argv[3:], env, list(fds))


def _send(sock: socket.socket, reply: dict[str, Any]) -> None:
    try:
        sock.send(json.dumps(reply).encode("utf-8"))
    except OSError:
        pass


def _close(fds: list[int]) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


def fork_tab(request: TabRequest, sock: socket.socket) -> int | None:
    """Fork the tab (through a middle process that exits at once, so the tab is re-parented to the
    server). In the warm process: the tab's pid. In the tab: None."""
    read_end, write_end = os.pipe()
    middle = os.fork()
    if middle == 0:
        tab = 0
        try:
            os.close(read_end)
            tab = os.fork()
            if tab != 0:
                os.write(write_end, str(tab).encode("ascii"))
        except BaseException:  # noqa: BLE001 - the middle process only ever exits
            os._exit(1)
        if tab != 0:
            os._exit(0)
        os.close(write_end)
        sock.close()
        return None
    os.close(write_end)
    chunks = []
    while chunk := os.read(read_end, 32):
        chunks.append(chunk)
    os.close(read_end)
    os.waitpid(middle, 0)
    _close(request.fds)
    text = b"".join(chunks)
    return int(text) if text.isdigit() else -1


def serve(sock: socket.socket, own_env: dict[str, str]) -> TabRequest | None:
    """Answer requests until the server closes its end (None); in a forked tab, its request."""
    while True:
        try:
            message, fds, _flags, _address = socket.recv_fds(sock, MAX_MESSAGE, PIPES + 1)
        except OSError:
            return None
        if not message and not fds:
            return None  # the server is gone
        try:
            request = parse_request(message, fds, own_env)
            if thread_count() != 1:
                raise BadRequest(f"the warm process has {thread_count()} threads and cannot fork safely")
        except BadRequest as exc:
            _close(fds)
            _send(sock, {"error": str(exc)})
            continue
        try:
            pid = fork_tab(request, sock)
        except OSError as exc:
            _close(request.fds)
            _send(sock, {"error": f"fork failed: {exc}"})
            continue
        if pid is None:
            return request  # this is the tab
        _send(sock, {"pid": pid} if pid > 0 else {"error": "the tab could not be forked"})


def preload() -> None:
    """Everything a tab imports before its first screen, the training kernels and the CSS parsed; nothing opened
    (the database is each tab's own connection) and no thread started."""
    import importlib
    import pkgutil

    import sticks_tui.ui
    from sticks_tui import cli
    from sticks_tui.web import session  # noqa: F401

    cli.cached_parser()  # imports every command's module; built once here, each tab parses its arguments with it
    for module in pkgutil.walk_packages(sticks_tui.ui.__path__, "sticks_tui.ui."):
        importlib.import_module(module.name)
    driver = os.environ.get("TEXTUAL_DRIVER", "")
    if ":" in driver:
        importlib.import_module(driver.split(":", 1)[0])
    import sqlite3  # noqa: F401

    import sticks_tui.store  # noqa: F401
    from sticks_tui.learn import compiled

    compiled.load()  # a failure is the tab's to report when it trains, as a cold one does
    from sticks_tui.ui.app import SticksApp
    from sticks_tui.ui.shared_css import parse_ahead

    parse_ahead(SticksApp)  # the CSS of the app and every widget: no tab parses it at start


def _wait_for_server(server_pid: int) -> bool:
    deadline = time.monotonic() + REPARENT_TIMEOUT
    while os.getppid() != server_pid:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


def run_tab(request: TabRequest) -> int:
    """In the forked tab: become what `python -m sticks_tui.web.session ARGS` would be, and run it."""
    from sticks_tui.web import session

    os.setsid()
    for target, fd in enumerate(request.fds):
        os.dup2(fd, target)
    _close([fd for fd in request.fds if fd > 2])
    os.environ.clear()
    os.environ.update(request.env)
    set_process_name(TAB_NAME)
    sys.argv = [session.__file__, *request.args]
    server = os.environ.get(session.SERVER_PID_ENV, "")
    if server.isdigit() and not _wait_for_server(int(server)):
        return 0  # the server is gone (or is not our parent): nobody is there to play
    return session.main(request.args)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not args[0].isdigit():
        print("usage: python -m sticks_tui.web.warm FD (started by `sticks-tui serve`)", file=sys.stderr)
        return 2
    from sticks_tui.web import session

    sock = socket.socket(fileno=int(args[0]))
    if not session._end_with_server():  # dies with the server (SIGTERM), like a tab
        return 0
    set_process_name(ZYGOTE_NAME)
    try:
        preload()
    except Exception as exc:  # noqa: BLE001 - said to the server in one line; tabs then start cold
        _send(sock, {"error": f"{type(exc).__name__}: {exc}"})
        return 1
    gc.collect()
    gc.freeze()  # the tabs' collections never walk (and so never copy) the shared start-up heap
    threads = thread_count()
    if threads != 1:
        _send(sock, {"error": f"the warm process has {threads} threads after loading and cannot fork safely"})
        return 1
    _send(sock, {"ready": os.getpid()})
    request = serve(sock, dict(os.environ))
    if request is None:
        return 0
    return run_tab(request)


if __name__ == "__main__":
    sys.exit(main())
