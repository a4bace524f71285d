"""The classroom server: the full app in a browser, one app process per tab, one shared database.

Built on textual-serve's pieces (its `AppService` speaks the web driver's pipe protocol, and its
xterm.js client draws the screen) with our own page, our own routes and our own process handling:

- Each tab's websocket starts one app process: `python -m sticks_tui.web.session --data-dir D`.
  The argument list is fixed when the server starts and is run directly, never by a shell.
  What a browser sends reaches only that process's input as keys, or becomes two clamped
  integers (the terminal size); anything else is ignored. The process is forked from the warm
  process when there is one (web/warm.py: it has imported the app already, so a tab starts on about
  half the CPU and shares its pages), and is then the server's child like a cold one.
- Every page and file the browser loads comes from this server; the font too (textual-serve's
  own page loads one from a font service). A Content-Security-Policy tells the browser to load
  nothing from anywhere else.
- At most `max_sessions` app processes at once; a tab past that gets a page saying the class is full.
- The server reads every app's output for as long as the app runs, whether or not its tab is still
  there: an app whose output nobody reads blocks on its next write and hangs (with its training run
  and its seat). A tab that fails a frame, or takes SEND_TIMEOUT to accept one, is treated as
  closed. Keys go to an app's input without waiting, within a budget a person never reaches (one
  message of 60,000 keys would keep the app busy for minutes, unable to quit); past it they are
  dropped.
- A closed tab, and stopping the server (Ctrl+C, SIGTERM, SIGHUP), ask the app to quit as a student
  does (Ctrl+Q, and Ctrl+Q again to say yes if it asks: the app saves after each game, and a training
  run still going is stopped and kept),
  then as textual-serve does; SIGTERM and SIGKILL only for an app that hangs. Every wait is
  bounded and watches the exit status (not the pipes): the seat is free within seconds, and Ctrl+C
  stops the server within 15 s (STOP_DEADLINE, then what is left is killed).
- Every request's Host must name this server (DNS rebinding): its bound address, loopback's names
  on loopback, and on every interface the addresses it printed. Odd requests (a very long path, a
  huge header) get an HTTP error and one line for the teacher, never a traceback.
"""

from __future__ import annotations

import asyncio
import json
import logging
import hmac
import os
import secrets
import signal
import socket
import string
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

import jinja2
import textual_serve
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from sticks_tui.web.session import SERVER_PID_ENV
from sticks_tui.web.warm import ONE_THREAD_ENV, WarmStarter

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
#: textual-serve's own static files: the xterm.js client, its stylesheet and the Roboto Mono font.
VENDOR = Path(textual_serve.__file__).resolve().parent / "static"

#: Where textual-serve's client creates each terminal; we keep a handle on it (window.sticksClients)
#: so our page script can read the screen as text and show why a session was closed.
CLIENT_ANCHOR = "const t=new w(e,{ping:r});"
CLIENT_HOOK = CLIENT_ANCHOR + "(window.sticksClients=window.sticksClients||[]).push(t);"

#: The app's own quit key (Ctrl+Q), twice, as a student quits: it stops a training run and keeps what
#: it learned. With a game or a run in progress the first asks "Quit anyway?" and the second says yes
#: (nobody is left to answer: before, the server waited KEY_GRACE for the answer). If the app still
#: runs (another question, or the key bound to something else), the server asks Textual to exit
#: after KEY_GRACE seconds.
QUIT_KEY = b"\x11"
QUIT_KEYS = QUIT_KEY * 2
KEY_GRACE = 3.0
#: How long an app gets to quit after that, then after SIGTERM, then after SIGKILL: a closed tab's
#: seat is free within about 12 s whatever its app does (usually within a second: it quits at its keys).
#: Ctrl+C waits for the apps at most STOP_DEADLINE seconds, then kills what is left.
QUIT_GRACE = 3.0
TERM_GRACE = 2.0
KILL_GRACE = 2.0
STOP_DEADLINE = 10.0  # with the server's own cleanup (2 s at most): Ctrl+C ends within 15 s
#: A tab that takes this long to accept one frame of the screen is treated as gone.
SEND_TIMEOUT = 20.0
#: Keys (bytes) a tab may send at once, and per second after that; what is past it is dropped.
KEY_BUDGET = 8 * 1024
KEYS_PER_SECOND = 4 * 1024
#: Input (keys, sizes) waiting for an app that is not reading it; beyond this it is dropped.
MAX_PENDING_INPUT = 256 * 1024
#: Most of an app's error output kept to show the teacher.
MAX_STDERR = 64 * 1024
#: Longest path the server answers (anything longer is refused before routing).
MAX_PATH = 2048

#: Terminal sizes a browser may ask for (cells); anything else is clamped into this range.
MIN_COLS, MAX_COLS = 20, 400
MIN_ROWS, MAX_ROWS = 8, 200
MAX_MESSAGE = 64 * 1024  # bytes in one websocket message; keys and sizes are tiny

#: Names that mean this computer only; a server bound to one of them answers only to these names.
LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: Addresses that mean every interface of this computer.
EVERY_INTERFACE = ("0.0.0.0", "::", "")

#: How often the server asks whether a back-up is due (it is made every --backup-minutes, after a write).
BACKUP_CHECK = 30.0

#: The two kinds of tab (ui/roles.py): the pupils' address, and the teacher's (it carries a secret).
PUPIL, TEACHER = "pupil", "teacher"
#: The projector's page: an app that opens on the class view, with a pupil's powers (role "projector": it
#: wipes nothing), at an address of its own with a secret of its own, since a projector shows its address bar.
CLASS_VIEW = "projector"
TOKEN_CHARACTERS = frozenset(string.ascii_letters + string.digits + "-_")

#: The websocket close code and reason for a tab refused because the class is full.
FULL_CLOSE_CODE = 4001

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def clamp_int(text: Any, default: int, low: int, high: int) -> int:
    try:
        value = int(text)
    except (TypeError, ValueError, OverflowError):
        return default
    return max(low, min(high, value))


def session_command(data_dir: str | None, role: str = PUPIL, view: str | None = None) -> list[str]:
    """The fixed argument list of every tab's app process: a pupil's tab, the teacher's, or the teacher's
    class view (view "class", for a projector)."""
    command = [sys.executable, "-m", "sticks_tui.web.session"]
    if data_dir is not None:
        command += ["--data-dir", data_dir]
    return command + ["--role", role] + (["--view", view] if view else [])


def new_teacher_token() -> str:
    """The teacher's secret for one run of the server: 128 random bits, in letters an address carries."""
    return secrets.token_urlsafe(16)


def check_teacher_token(token: str) -> str:
    """A teacher's secret given with --teacher-token, or ValueError saying what is wrong with it."""
    if not 12 <= len(token) <= 128:
        raise ValueError(f"a teacher's token is 12 to 128 characters long (this one has {len(token)}): a short "
                         "one could be guessed by a pupil")
    bad = sorted({c for c in token if c not in TOKEN_CHARACTERS})
    if bad:
        raise ValueError(f"a teacher's token holds only letters, digits, '-' and '_' (it goes in an address); "
                         f"this one holds {bad[0]!r}")
    return token


def patched_client() -> tuple[bytes, bool]:
    """textual-serve's client script with our hook added; (script, hooked)."""
    text = (VENDOR / "js" / "textual.js").read_text(encoding="utf-8")
    if text.count(CLIENT_ANCHOR) != 1:
        return text.encode("utf-8"), False
    return text.replace(CLIENT_ANCHOR, CLIENT_HOOK).encode("utf-8"), True


class Session(AppService):
    """One tab's app process, started without a shell, always read, and stopped gently but surely."""

    def __init__(self, command: list[str], *, on_exit: Callable[[Session], None], role: str = PUPIL,
                 on_tab_lost: Callable[[], None] | None = None,
                 write_bytes: Callable[[bytes], Awaitable[None]],
                 write_str: Callable[[str], Awaitable[None]],
                 close: Callable[[], Awaitable[None]], **kwargs: Any) -> None:
        # Everything sent to the tab goes through _to_tab: it never raises and never waits past
        # SEND_TIMEOUT, so the loop reading the app's output never stops because of the tab.
        super().__init__(" ".join(command), write_bytes=self._guarded(write_bytes),
                         write_str=self._guarded(write_str), close=self._guarded(close), **kwargs)
        self.argv = command
        self.role = role
        self.on_exit = on_exit
        self.on_tab_lost = on_tab_lost
        self.tab_gone = False
        self.started = time.monotonic()
        self._key_budget, self._key_budget_at = float(KEY_BUDGET), self.started
        self._stopping: asyncio.Task[None] | None = None

    #: The server's warm process (web/warm.py): the app is forked from it, else started cold.
    starter: WarmStarter | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def returncode(self) -> int | None:
        return self._process.returncode if self._process is not None else None

    #: What the server adds to every tab's environment (the same for every tab: the warm process has it too).
    extra_environment: dict[str, str] = {}

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        # textual-serve's environment (TEXTUAL_DRIVER = the web driver, colours, size), plus our pid
        environment = super()._build_environment(width=width, height=height)
        environment.update(self.extra_environment)
        environment[SERVER_PID_ENV] = str(os.getpid())
        environment.update(ONE_THREAD_ENV)  # no idle math-library threads: one fewer a tab, and the warm process can fork
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        # textual-serve runs its command through a shell; ours is a fixed argument list, run directly.
        # A new session: Ctrl+C in the teacher's terminal reaches the server only, which then stops
        # every app in turn. Forked from the warm process when there is one (web/warm.py), which does
        # the same (a fixed argument list, a new session); started cold if it cannot.
        environment = self._build_environment(width=width, height=height)
        warm = await self.starter.spawn(self.argv, environment) if self.starter is not None else None
        self._process = process = warm or await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
            start_new_session=True,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    # -- to the tab ----------------------------------------------------------------------------
    def _guarded(self, send: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[None]]:
        async def to_tab(*args: Any) -> None:
            if self.tab_gone:
                return  # the app's output is still read, and dropped
            try:
                await asyncio.wait_for(send(*args), SEND_TIMEOUT)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - closed, reset or too slow: the tab is gone
                self._lose_tab()
        return to_tab

    def _lose_tab(self) -> None:
        if not self.tab_gone:
            self.tab_gone = True
            if self.on_tab_lost is not None:
                self.on_tab_lost()

    # -- to the app ----------------------------------------------------------------------------
    def _to_app(self, packet: bytes, *, always: bool = False) -> bool:
        """Queue a packet for the app's input without waiting for the app to read it. Past
        MAX_PENDING_INPUT unread bytes, input is dropped (never a quit request: `always`)."""
        stdin = self._stdin
        if stdin is None or stdin.is_closing():
            return False
        if not always and stdin.transport.get_write_buffer_size() + len(packet) > MAX_PENDING_INPUT:
            return False
        try:
            stdin.write(packet)
        except (RuntimeError, OSError):
            return False
        return True

    async def send_bytes(self, data: bytes) -> bool:
        return self._to_app(self.encode_packet(b"D", data))

    def send_keys(self, text: str) -> bool:
        """Keys from the tab, within the tab's budget: a person types, pastes and moves the mouse in
        far fewer than KEY_BUDGET bytes at once. A message past what is left of the budget is
        dropped whole (a cut escape sequence would be misread): one message of 60,000 keys would
        keep the app busy for minutes, unable to quit."""
        data = text.encode("utf-8", "replace")
        now = time.monotonic()
        self._key_budget = min(KEY_BUDGET, self._key_budget + (now - self._key_budget_at) * KEYS_PER_SECOND)
        self._key_budget_at = now
        if len(data) > self._key_budget:
            return False
        self._key_budget -= len(data)
        return self._to_app(self.encode_packet(b"D", data))

    async def send_meta(self, data: dict[str, Any]) -> bool:
        return self._to_app(self.encode_packet(b"M", json.dumps(data).encode("utf-8")))

    # -- from the app --------------------------------------------------------------------------
    async def run(self) -> None:
        """Read the app's output until it ends, whatever happens to the tab (textual-serve's loop
        stops at the tab's first error, and the app then blocks on a full pipe)."""
        process = self._process
        assert process is not None and process.stdout is not None and process.stderr is not None
        stdout, stderr = process.stdout, process.stderr
        errors = bytearray()

        async def read_stderr() -> None:
            while data := await stderr.read(4096):
                if len(errors) < MAX_STDERR:
                    errors.extend(data[:MAX_STDERR - len(errors)])

        stderr_task = asyncio.ensure_future(read_stderr())
        try:
            await self._read_packets(stdout)
        except (asyncio.IncompleteReadError, ConnectionError, ValueError, OSError):
            pass
        finally:
            try:  # drain to the end: an app writing still must never block on us
                while await stdout.read(65536):
                    pass
            except (ConnectionError, OSError, ValueError):
                pass
            try:
                await asyncio.wait_for(stderr_task, 2.0)
            except (asyncio.TimeoutError, ConnectionError, OSError):
                stderr_task.cancel()
            if errors:
                sys.stdout.write(errors.decode("utf-8", "replace"))
                sys.stdout.flush()
            # the app ended (quit in the browser, or crashed): close the tab's connection
            await self.remote_close()

    async def _read_packets(self, stdout: asyncio.StreamReader) -> None:
        for _ in range(10):  # the web driver's prelude says a Textual app is there
            line = await stdout.readline()
            if not line or line == b"__GANGLION__\n":
                break
        while True:
            kind = await stdout.readexactly(1)
            size = int.from_bytes(await stdout.readexactly(4), "big")
            payload = await stdout.readexactly(size)
            try:
                if kind == b"D":
                    await self.on_data(payload)
                elif kind == b"M":
                    await self.on_meta(payload)
                elif kind == b"P":
                    await self.on_packed(payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - one odd packet: skipped, the output still read
                logging.getLogger("sticks-tui.serve").debug("packet skipped: %s", exc)

    # -- stopping ------------------------------------------------------------------------------
    async def stop(self) -> None:
        """Ask the app to quit, wait, then SIGTERM, then (only if it hangs) SIGKILL. Idempotent;
        returns within STOP_DEADLINE seconds whatever the app does."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        process = self._process
        try:
            if process is not None and process.returncode is None:
                try:
                    await asyncio.wait_for(
                        self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id), 1.0)
                except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - a download must not hold the stop
                    pass
                # the student's Ctrl+Q first (and Ctrl+Q again: yes to its question): it stops a training run and keeps it
                if not (self._to_app(self.encode_packet(b"D", QUIT_KEYS), always=True)
                        and await _exited(process, KEY_GRACE)):
                    # a question on the screen (or the key bound to something else): Textual's exit
                    self._to_app(self.encode_packet(b"M", b'{"type": "quit"}'), always=True)
                    if not await _exited(process, QUIT_GRACE):
                        _signal(process, signal.SIGTERM)  # the web driver's exit: the run is still kept
                        if not await _exited(process, TERM_GRACE):
                            print(f"sticks-tui serve: session {process.pid} did not stop; killed", flush=True)
                            _signal(process, signal.SIGKILL)
                            await _exited(process, KILL_GRACE)
            if self._task is not None:
                try:  # the reader drains what is left; a pipe held open by anyone else is not waited for
                    await asyncio.wait_for(asyncio.shield(self._task), 2.0)
                except (asyncio.TimeoutError, asyncio.CancelledError):
                    self._task.cancel()
                self._task = None
            if process is not None and self._stdin is not None:
                self._stdin.close()
        finally:
            self.on_exit(self)


async def _nothing(*args: Any) -> None:
    return None


async def _exited(process: asyncio.subprocess.Process, seconds: float) -> bool:
    """Whether the process ends within `seconds`. Polls its exit status: `process.wait()` also waits
    for its pipes to close, which a process it left behind (or a paused reader) can delay forever."""
    deadline = time.monotonic() + seconds
    while process.returncode is None:
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def _signal(process: asyncio.subprocess.Process, sig: int) -> None:
    try:
        process.send_signal(sig)
    except ProcessLookupError:
        pass


@dataclass
class ClassServer:
    """`sticks-tui serve`: one aiohttp server, one app process per tab, one shared database."""

    data_dir: str | None
    host: str = "127.0.0.1"
    port: int = 8000
    max_sessions: int = 20
    database: str = ""
    #: The secret in the teacher's address; "" draws a new one (`secrets`) at each start.
    teacher_token: str = ""
    #: store.backups.BackupKeeper: a back-up every so often while games are played (None: no back-ups)
    backups: Any = None
    sessions: dict[str, Session] = field(default_factory=dict)
    started_sessions: int = 0
    #: Added to every tab's environment: where the back-up status is (`store.backups.STATUS_ENV`).
    tab_environment: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.commands = {role: session_command(self.data_dir, role) for role in (PUPIL, TEACHER)}
        self.commands[CLASS_VIEW] = session_command(self.data_dir, CLASS_VIEW, "class")
        self.command = self.commands[PUPIL]
        if not self.teacher_token:
            self.teacher_token = new_teacher_token()
        #: The class view's own secret (new at each start): read off a projector, it opens nothing but the view.
        self.view_token = new_teacher_token()
        self.host_names = self._host_names([])
        self.downloads = DownloadManager()
        self.client_js, self.client_hooked = patched_client()
        self.pages = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True)
        self._stop = asyncio.Event()
        self.warm = WarmStarter(self._log)

    # -- the web application -------------------------------------------------------------------
    def make_app(self) -> web.Application:
        app = web.Application(middlewares=[self.security_headers], client_max_size=MAX_MESSAGE)
        app.add_routes([
            web.get("/", self.handle_index),
            web.get("/ws", self.handle_websocket),
            web.get("/teacher", self.handle_teacher_index),
            web.get("/teacher/", self.handle_teacher_index),
            web.get("/teacher/{token}", self.handle_teacher_index),
            web.get("/teacher/{token}/ws", self.handle_teacher_websocket),
            web.get("/teacher//ws", self.handle_teacher_websocket),  # no secret at all: refused by the same guard
            web.get("/class/{token}", self.handle_class_index),
            web.get("/class/{token}/ws", self.handle_class_websocket),
            web.get("/class//ws", self.handle_class_websocket),
            web.get("/client.js", self.handle_client_js),
            web.get("/download/{key}", self.handle_download),
            web.static("/static", STATIC, show_index=False),
            web.static("/vendor", VENDOR, show_index=False),
        ])
        return app

    @web.middleware
    async def security_headers(self, request: web.Request, handler):
        if not self._known_host(request):
            # DNS rebinding: a site whose name points at 127.0.0.1 must not reach a loopback server
            return web.Response(status=421, text="This server answers only to its own address.")
        if len(request.raw_path) > MAX_PATH:
            return web.Response(status=414, text="That address is too long.")
        try:
            response = await handler(request)
        except web.HTTPException:
            raise
        except (asyncio.CancelledError, ConnectionError):
            raise
        except OSError:  # a file name the system refuses (too long, ...): no such file
            return web.Response(status=404, text="Not found.")
        except Exception as exc:  # noqa: BLE001 - one line for the teacher, never a traceback
            self._log(f"a request for {request.path[:80]!r} failed: {type(exc).__name__}: {str(exc)[:120]}")
            return web.Response(status=500, text="The server could not answer that request.")
        if response.prepared:  # a websocket or a download: its headers are sent already
            return response
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    def _page(self, name: str, **context: Any) -> str:
        return self.pages.get_template(name).render(**context)

    def full_page(self) -> web.Response:
        body = self._page("full.html", max_sessions=self.max_sessions)
        return web.Response(text=body, status=503, content_type="text/html", headers={"Retry-After": "30"})

    @property
    def pupils(self) -> int:
        """App processes of pupils' tabs and projector pages (the teacher's tabs take no pupil's seat: anyone who
        reads the projector's address off the wall may open it, so it counts as a pupil's)."""
        return sum(1 for s in self.sessions.values() if s.role != TEACHER)

    def is_teacher_token(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(str(token).encode("utf-8", "replace"),
                                                   self.teacher_token.encode("utf-8"))

    def forbidden_page(self) -> web.Response:
        """A wrong or missing secret on the teacher's address: a plain page, status 403; nothing else."""
        body = self._page("forbidden.html")
        return web.Response(text=body, status=403, content_type="text/html", headers={"Cache-Control": "no-store"})

    def _index(self, request: web.Request, *, websocket: str, home: str, role: str) -> web.Response:
        font_size = clamp_int(request.query.get("fontsize", "16"), 16, 8, 48)
        body = self._page("index.html", font_size=font_size, max_sessions=self.max_sessions, websocket=websocket,
                          home=home, role=role)
        return web.Response(text=body, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def handle_index(self, request: web.Request) -> web.Response:
        if self.pupils >= self.max_sessions:
            return self.full_page()
        return self._index(request, websocket="/ws", home="/", role=PUPIL)

    async def handle_teacher_index(self, request: web.Request) -> web.Response:
        token = request.match_info.get("token")
        if not self.is_teacher_token(token):
            self._log("a request for the teacher's page with a wrong or missing secret was refused")
            return self.forbidden_page()
        home = f"/teacher/{self.teacher_token}"
        return self._index(request, websocket=home + "/ws", home=home, role=TEACHER)

    async def handle_client_js(self, request: web.Request) -> web.Response:
        return web.Response(body=self.client_js, content_type="application/javascript")

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        """Files the app hands to the browser (Textual's deliver_text / deliver_binary)."""
        key = request.match_info["key"]
        try:
            meta = await self.downloads.get_download_metadata(key)
        except KeyError:
            raise web.HTTPNotFound(text="No such download.") from None
        response = web.StreamResponse()
        content_type = meta.mime_type + (f"; charset={meta.encoding}" if meta.encoding else "")
        response.headers["Content-Type"] = content_type
        disposition = "inline" if meta.open_method == "browser" else "attachment"
        safe_name = "".join(c for c in meta.file_name if c.isalnum() or c in "._- ") or "download"
        response.headers["Content-Disposition"] = f'{disposition}; filename="{safe_name}"'
        await response.prepare(request)
        async for chunk in self.downloads.download(key):
            await response.write(chunk)
        await response.write_eof()
        return response

    def _known_host(self, request: web.Request) -> bool:
        """Only the names this server answers to: the address it listens on (loopback's names on
        loopback), or, listening on every interface, the addresses it printed and loopback's. A site
        whose name was pointed at one of them (DNS rebinding) sends its own name, and is refused."""
        host = request.headers.get("Host", "")
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return name.strip("[]").lower() in self.host_names

    def _same_origin(self, request: web.Request) -> bool:
        """A page on another site must not open sessions here (cross-site websocket hijacking)."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True  # not a browser page (a script or a test): nothing to protect against
        host = request.headers.get("Host", "")
        return origin in (f"http://{host}", f"https://{host}")

    def is_view_token(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(str(token).encode("utf-8", "replace"),
                                                   self.view_token.encode("utf-8"))

    async def handle_class_index(self, request: web.Request) -> web.Response:
        """The class view for a projector (no key needed), at its own secret address."""
        if not self.is_view_token(request.match_info.get("token")):
            self._log("a request for the class view with a wrong or missing secret was refused")
            return self.forbidden_page()
        if self.pupils >= self.max_sessions:
            return self.full_page()
        home = f"/class/{self.view_token}"
        return self._index(request, websocket=home + "/ws", home=home, role=CLASS_VIEW)

    async def handle_teacher_websocket(self, request: web.Request) -> web.StreamResponse:
        if not self.is_teacher_token(request.match_info.get("token")):
            return self.forbidden_page()
        return await self.handle_websocket(request, role=TEACHER)

    async def handle_class_websocket(self, request: web.Request) -> web.StreamResponse:
        if not self.is_view_token(request.match_info.get("token")):
            return self.forbidden_page()
        return await self.handle_websocket(request, role=CLASS_VIEW)

    async def handle_websocket(self, request: web.Request, role: str = PUPIL) -> web.WebSocketResponse:
        if not self._same_origin(request):
            raise web.HTTPForbidden(text="Sessions can only be opened from this server's own page.")
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        await websocket.prepare(request)
        if self._stop.is_set():
            await websocket.close(code=1001, message=b"The server is stopping.")
            return websocket
        if role != TEACHER and self.pupils >= self.max_sessions:
            reason = f"The class is full: all {self.max_sessions} sessions are in use."
            await websocket.close(code=FULL_CLOSE_CODE, message=reason.encode("utf-8")[:120])
            return websocket
        width = clamp_int(request.query.get("width"), 80, MIN_COLS, MAX_COLS)
        height = clamp_int(request.query.get("height"), 24, MIN_ROWS, MAX_ROWS)
        session = Session(
            self.commands[role],
            role=role,
            on_exit=self._session_ended,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.downloads,
        )
        session.starter = self.warm
        session.extra_environment = self.tab_environment
        self.sessions[session.app_service_id] = session  # counted before it starts: no race past the limit
        try:
            await session.start(width, height)
            self.started_sessions += 1
            if role == TEACHER:
                self._log(f"the teacher's session {session.pid} started")
            else:
                self._log(f"session {session.pid} started ({self.pupils} of {self.max_sessions} in use)")
            reader = asyncio.ensure_future(self._process_messages(websocket, session))
            session.on_tab_lost = reader.cancel  # a tab that failed or stalled on a frame: stop its app
            await reader
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # noqa: BLE001 - one tab's trouble must not stop the class
            self._log(f"session failed: {exc}")
        finally:
            # the tab closed, failed or stalled: the app quits as with Ctrl+Q, its seat is freed
            await session.stop()
            if not websocket.closed:
                try:
                    await asyncio.wait_for(websocket.close(), 2.0)
                except (asyncio.TimeoutError, asyncio.CancelledError, Exception):  # noqa: BLE001
                    pass
        return websocket

    async def _process_messages(self, websocket: web.WebSocketResponse, session: Session) -> None:
        """Keys go to the app's input; sizes become clamped integers; nothing else is acted on."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
                continue
            kind = envelope[0]
            payload = envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(payload, str):
                session.send_keys(payload)
            elif kind == "resize" and isinstance(payload, dict):
                await session.set_terminal_size(
                    clamp_int(payload.get("width"), 80, MIN_COLS, MAX_COLS),
                    clamp_int(payload.get("height"), 24, MIN_ROWS, MAX_ROWS))
            elif kind == "ping" and isinstance(payload, str) and len(payload) < 64:
                await session.remote_write_str(json.dumps(["pong", payload]))  # bounded, never raises
            elif kind == "blur":
                await session.blur()
            elif kind == "focus":
                await session.focus()

    def _session_ended(self, session: Session) -> None:
        if self.sessions.pop(session.app_service_id, None) is not None and session.pid is not None:
            code = session._process.returncode if session._process is not None else None
            self._log(f"session {session.pid} ended (exit {code}; {len(self.sessions)} in use)")

    def _log(self, text: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)

    # -- running -------------------------------------------------------------------------------
    def request_stop(self) -> None:
        self._stop.set()

    async def run(self, ready: Callable[[list[str]], None] | None = None) -> None:
        """Serve until request_stop() (or SIGINT/SIGTERM/SIGHUP), then stop every session."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            try:
                loop.add_signal_handler(sig, self.request_stop)
            except (NotImplementedError, RuntimeError, ValueError):
                pass
        runner = web.AppRunner(self.make_app(), handle_signals=False, access_log=None, shutdown_timeout=5,
                               logger=_one_line_logger())
        await runner.setup()
        status: Path | None = None
        try:
            site = web.TCPSite(runner, self.host, self.port)
            await site.start()  # a port in use, or an address not this machine's, ends here: no warm process
            urls = self.urls(runner)
            if ready is not None:
                ready(urls)  # the address first, then what the warm process says
            status = self._share_backup_status()  # before any tab (and the warm process) takes its environment
            # Between the address said and the warm process "starting", the loop gets no turn, so no tab
            # can come in between: every tab waits for it (or, without one, starts cold).
            await self.warm.start(self.warm_environment())
            if not self.client_hooked:
                self._log("warning: this textual-serve's client script is not the one this server knows; "
                          "the page works, but its screen cannot be read by the tests")
            keeping = asyncio.ensure_future(self._keep_backups()) if self.backups is not None else None
            await self._stop.wait()
            if keeping is not None:
                keeping.cancel()
            await self._stop_sessions()
        finally:
            try:  # the handlers have ended; only a connection that will not close is left
                await asyncio.wait_for(runner.cleanup(), 2.0)
            except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - stopping is what matters now
                pass
            await self.warm.stop()
            if status is not None:
                _remove_status(status)

    def _share_backup_status(self) -> Path | None:
        """A private folder with the back-up keeper's status file (`store.backups.write_status`), named in
        every tab's environment: the teacher's back-ups screen and the class view read it. A temporary
        folder, not the data folder: a full data disk must not keep it from saying so. None without one."""
        if self.backups is None:
            return None
        import tempfile

        from sticks_tui.store.backups import STATUS_ENV

        try:
            folder = Path(tempfile.mkdtemp(prefix="sticks-tui-serve-"))
        except OSError as exc:
            self._log(f"the back-up status cannot be shared with the teacher's tab ({exc}); this terminal "
                      "still says when back-ups fail")
            return None
        self.backups.status_path = folder / "backups.json"
        if not self.backups.write_status():
            self._log("the back-up status cannot be shared with the teacher's tab; this terminal still says "
                      "when back-ups fail")
        self.tab_environment[STATUS_ENV] = str(self.backups.status_path)
        return self.backups.status_path

    def warm_environment(self) -> dict[str, str]:
        """The environment of every tab's app at 80x24 (Session's), for the warm process."""
        session = Session(self.command, on_exit=lambda s: None, write_bytes=_nothing, write_str=_nothing,
                          close=_nothing, download_manager=self.downloads)
        session.extra_environment = self.tab_environment
        return session._build_environment()

    async def _keep_backups(self) -> None:
        """Every BACKUP_CHECK seconds (or the interval, if shorter), a back-up if one is due
        (store.backups.BackupKeeper: every so often, only after a write), made in a thread of its own (the
        keeper's connection is used there, one call at a time). A failure is printed here when it begins
        or its reason changes ("Back-ups failing since 10:42: the disk is full."), and when back-ups work
        again; the keeper's status file tells the teacher's tab and the projector. The class plays on."""
        from concurrent.futures import ThreadPoolExecutor

        loop = asyncio.get_running_loop()
        keeper = self.backups
        said = keeper.why if keeper.failing_since is not None else None  # a failure at start: said by serve
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sticks-tui-backups")
        try:
            while True:
                await asyncio.sleep(min(BACKUP_CHECK, keeper.every))
                try:
                    made = await loop.run_in_executor(thread, keeper.tick)
                except Exception as exc:  # noqa: BLE001 - a back-up must never stop the class
                    self._log(f"a back-up failed: {type(exc).__name__}: {str(exc)[:120]}")
                    continue
                if made is not None:
                    again = "back-ups work again: " if said is not None else ""
                    self._log(f"{again}back-up kept: {made.name} ({made.contents_words})")
                    said = None
                elif keeper.failing_since is not None and keeper.why != said:
                    said = keeper.why
                    self._log(f"{keeper.failing_line} The class plays on; the teacher's tab and the class view "
                              f"say so too. ({keeper.problem})")
        finally:
            thread.shutdown(wait=False)

    async def _stop_sessions(self) -> None:
        """Every app quits as with Ctrl+Q, all at once; past STOP_DEADLINE any still there is killed."""
        sessions = list(self.sessions.values())
        if not sessions:
            return
        self._log(f"stopping {len(sessions)} session(s); each app saves and quits")
        stopping = asyncio.gather(*(s.stop() for s in sessions), return_exceptions=True)
        try:
            await asyncio.wait_for(asyncio.shield(stopping), STOP_DEADLINE)
        except asyncio.TimeoutError:
            for session in sessions:
                if session._process is not None and session.returncode is None:
                    self._log(f"session {session.pid} did not stop in time; killed")
                    _signal(session._process, signal.SIGKILL)

    def urls(self, runner: web.AppRunner) -> list[str]:
        """The URLs to open: the bound address, or this machine's addresses when bound to all."""
        ports = [addr[1] for addr in runner.addresses if isinstance(addr, tuple)]
        port = ports[0] if ports else self.port
        self.port = port
        if self.host in EVERY_INTERFACE:
            found = _local_addresses()
            hosts = found or ["<this computer's address>"]
        else:
            found = hosts = [self.host]
        self.host_names = self._host_names(found)
        return [f"http://{f'[{h}]' if ':' in h else h}:{port}/" for h in hosts]

    def teacher_url(self, url: str) -> str:
        """The teacher's address beside a pupils' one (printed for the teacher only, never in a page)."""
        return f"{url}teacher/{self.teacher_token}"

    def class_view_url(self, url: str) -> str:
        """The projector's address (printed for the teacher only): the class view, and nothing else."""
        return f"{url}class/{self.view_token}"

    def _host_names(self, printed: list[str]) -> frozenset[str]:
        """The names a request's Host may carry: the bound address (and loopback's names for loopback
        or every interface), plus the addresses printed for the teacher."""
        names = {self.host.lower(), *(h.lower() for h in printed)}
        if self.host in LOOPBACK or self.host in EVERY_INTERFACE:
            names.update(LOOPBACK)
        return frozenset(names - set(EVERY_INTERFACE))


def _remove_status(path: Path) -> None:
    for remove in (path.unlink, path.parent.rmdir):
        try:
            remove()
        except OSError:
            pass


class _OneLine(logging.Handler):
    """aiohttp's own errors (a request it cannot parse: a line or a header too long, not HTTP at all)
    as one line in the teacher's terminal, never a traceback; the browser gets its HTTP error."""

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        what = " ".join(str(error if error is not None else record.getMessage()).split())
        print(f"[{time.strftime('%H:%M:%S')}] a request was refused: {what[:160]}", flush=True)


def _one_line_logger() -> logging.Logger:
    logger = logging.getLogger("sticks_tui.serve.http")
    if not logger.handlers:
        logger.addHandler(_OneLine())
        logger.propagate = False
        logger.setLevel(logging.WARNING)
    return logger


def _local_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, for the teacher to write on the board."""
    found: list[str] = []
    try:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect(("10.255.255.255", 1))  # no packet is sent: this only picks the outgoing interface
            found.append(probe.getsockname()[0])
        finally:
            probe.close()
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = info[4][0]
            if not address.startswith("127.") and address not in found:
                found.append(address)
    except OSError:
        pass
    return [a for a in found if not a.startswith("127.")]
