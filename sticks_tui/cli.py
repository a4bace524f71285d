"""`sticks-tui`: with no sub-command, the full-screen app; sub-commands for scripts and terminals."""

from __future__ import annotations

import argparse
import errno
import importlib
import io
import os
import sys

from sticks_tui import __version__

#: Sub-command modules under sticks_tui.commands, each with register(subparsers).
COMMAND_MODULES = ["train", "solve", "play", "nim", "noughts", "lab", "classic", "records", "brain", "backups", "settings", "export",
                   "serve"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sticks-tui",
        description="Play the Game of Sticks against an AI that learns from experience, and watch it learn. "
                    "With no sub-command, the full-screen app starts.")
    parser.add_argument("--version", action="version", version=f"sticks-tui {__version__}")
    parser.add_argument("--data-dir", metavar="PATH", default=None,
                        help="where records and brains are kept (default: your user data directory, "
                             "or $STICKS_TUI_DATA_DIR)")
    parser.add_argument("--config-dir", metavar="PATH", default=None,
                        help="where the settings file is kept (default: your user config directory, "
                             "or $STICKS_TUI_CONFIG_DIR)")
    # `sticks-tui serve` starts each pupil's tab with --role pupil (web/session.py); not for people to type
    parser.add_argument("--role", choices=["teacher", "pupil", "projector"], default=None, help=argparse.SUPPRESS)
    parser.add_argument("--view", choices=["class"], default=None, help=argparse.SUPPRESS)  # serve's projector page
    sub = parser.add_subparsers(title="sub-commands", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"sticks_tui.commands.{name}").register(sub)
    return parser


_parser_built: tuple[tuple, argparse.ArgumentParser] | None = None  # (the games it was built for, the parser)


def cached_parser() -> argparse.ArgumentParser:
    """`build_parser()`'s parser, built once and used again for as long as the registered games are the
    same entries (building it takes ~10 ms: every command's options); a game registered, replaced or removed
    since gets a parser built again, so its choices and help always name the games there are. Parsing
    leaves a parser as it was (each parse makes a new Namespace; no default is a mutable value)."""
    global _parser_built
    from sticks_tui.engine import registry

    games = registry.entries()
    built = _parser_built
    if built is not None and len(built[0]) == len(games) and all(a is b for a, b in zip(built[0], games)):
        return built[1]
    made = build_parser()
    _parser_built = (registry.entries(), made)  # the entries after the build (it imports every game's module)
    return made


class OutputError(Exception):
    """Writing to standard output or standard error failed (a full disk, a closed stream...).

    A reader that went away (a broken pipe) is not an OutputError: that ends the command quietly.
    """

    def __init__(self, stream: str, cause: BaseException) -> None:
        self.stream = stream
        self.cause = cause
        super().__init__(f"{stream}: {cause}")

    @property
    def reason(self) -> str:
        if isinstance(self.cause, OSError) and self.cause.errno == errno.EBADF:
            return f"standard {'output' if self.stream == 'stdout' else 'error'} is closed"
        if isinstance(self.cause, OSError) and self.cause.strerror:
            return self.cause.strerror
        return str(self.cause) or type(self.cause).__name__


class _GuardedStream:
    """A text stream whose write failures become OutputError and whose unencodable text is escaped.

    Every command writes through these (cli.main installs them as sys.stdout and sys.stderr), so
    a closed or full stream is handled once, here, rather than in each command.
    """

    def __init__(self, stream, label: str) -> None:
        self._stream = stream
        self._label = label

    def _guard(self, action, *args):
        try:
            return action(*args)
        except BrokenPipeError:
            raise
        except UnicodeError:
            raise
        except (OSError, ValueError) as exc:  # ValueError: the stream was closed under us
            raise OutputError(self._label, exc) from None

    def write(self, text: str) -> int:
        try:
            return self._guard(self._stream.write, text)
        except UnicodeEncodeError:  # a name the stream's encoding cannot show (PYTHONIOENCODING=ascii)
            encoding = getattr(self._stream, "encoding", None) or "utf-8"
            safe = text.encode(encoding, "backslashreplace").decode(encoding, "replace")
            return self._guard(self._stream.write, safe)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self._guard(self._stream.flush)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _reserve_standard_fds() -> None:
    """Put /dev/null (read-only) on a closed fd 0, 1 or 2, and give Python streams for them.

    Otherwise the next file opened (the database) would take the closed fd's number. A write to
    the reserved fd fails (EBADF), which is reported as "standard output is closed"; a read gives
    end of input.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDONLY)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if sys.stdin is None:
        sys.stdin = open(0, "r", closefd=False, encoding="utf-8", errors="replace")
    if sys.stdout is None:
        sys.stdout = open(1, "w", closefd=False, encoding="utf-8", errors="backslashreplace")
    if sys.stderr is None:
        sys.stderr = open(2, "w", closefd=False, encoding="utf-8", errors="backslashreplace")
    if sys.stdin is sys.__stdin__ and getattr(sys.stdin, "errors", None) == "strict":
        try:  # typed text the input encoding cannot decode (PYTHONIOENCODING=ascii) is replaced, not fatal
            sys.stdin.reconfigure(errors="replace")
        except (AttributeError, ValueError, io.UnsupportedOperation):
            pass


def _discard(stream) -> None:
    """Point a stream that failed at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        fd = stream.fileno()
    except (AttributeError, ValueError, OSError):
        return  # not a real file (a test's StringIO): nothing will flush it at exit
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except OSError:
        pass


def _has_terminal() -> bool:
    """True when stdin, stdout and stderr (where Textual draws) are all terminals."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        try:
            if stream is None or not stream.isatty():
                return False
        except (AttributeError, ValueError, OSError):
            return False
    return True


NO_TERMINAL = ("sticks-tui: the full-screen app needs a terminal (stdin, stdout and stderr); "
               "without one, play `sticks-tui classic`, or see `sticks-tui --help`.")


#: Textual repaints a changed screen on a timer of 1/TEXTUAL_FPS s (its default: 60). A key press
#: waited 0-17 ms (up to ~27 when busy) for that tick before its frame was drawn; at 120 the wait
#: halves, and with training on the other core (which doubles the frame's own CPU time) it is what
#: keeps bench_keypress.py's p95 under 35 ms. Only changed screens are redrawn, so an idle app costs
#: nothing more. Set before Textual is imported; the user's own TEXTUAL_FPS wins.
FRAMES_PER_SECOND = "120"


def run_app(args: argparse.Namespace) -> int:
    os.environ.setdefault("TEXTUAL_FPS", FRAMES_PER_SECOND)
    from sticks_tui.ui.app import SticksApp

    app = SticksApp(data_dir=args.data_dir, config_dir=getattr(args, "config_dir", None),
                    role=getattr(args, "role", None) or "teacher", view=getattr(args, "view", None))
    app.run()
    return app.return_code or 0


def _exit_status(code) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)  # sys.exit("message"): the message, status 1
    return 1


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (argparse's usage errors raise SystemExit(2)).

    Output trouble is handled here, once for every command: a reader that went away ends quietly
    (status 0); any other failed write to stdout gives one line on stderr and status 1 (status 1
    and silence if stderr fails too). Nothing ends in a traceback.
    """
    _reserve_standard_fds()
    saved = sys.stdout, sys.stderr
    guarded = _GuardedStream(saved[0], "stdout"), _GuardedStream(saved[1], "stderr")
    sys.stdout, sys.stderr = guarded
    exiting = False
    try:
        try:
            try:
                status = _dispatch(argv, saved)
            except SystemExit as exc:
                exiting = True
                status = _exit_status(exc.code)
            except KeyboardInterrupt:
                status = 130
            for stream in guarded:
                stream.flush()
        except BrokenPipeError:
            # the reader went away (`sticks-tui records | head`): stop quietly, as command-line tools do
            _discard(saved[0])
            status = 0
        except OutputError as exc:
            status = _report_output_error(exc, saved)
    finally:
        sys.stdout, sys.stderr = saved
    if exiting:
        raise SystemExit(status)
    return status


def _report_output_error(exc: OutputError, saved) -> int:
    _discard(saved[0] if exc.stream == "stdout" else saved[1])
    if exc.stream == "stdout":
        err = _GuardedStream(saved[1], "stderr")
        try:
            err.write(f"sticks-tui: cannot write the output: {exc.reason}.\n")
            err.flush()
        except (OSError, OutputError):
            _discard(saved[1])  # stderr is unusable too: fail silently
    return 1


def undecodable_argument(argv: list[str]) -> str | None:
    """The first argument that is not valid UTF-8 text (a shell can pass any bytes; Python keeps the bad ones
    as lone surrogates), shown with its bad bytes as \\xNN; None when every argument is text."""
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            try:
                return arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            except UnicodeEncodeError:
                return arg.encode("utf-8", "backslashreplace").decode("utf-8")
    return None


def _dispatch(argv: list[str] | None, saved) -> int:
    parser = cached_parser()
    bad = undecodable_argument(sys.argv[1:] if argv is None else list(argv))
    if bad is not None:
        # every name and file name is checked here, once, before any command can trip over it
        print(f"sticks-tui: error: the argument '{bad}' is not valid UTF-8 text; names and file names must be "
              "UTF-8. Nothing was done.", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        if not os.environ.get("TEXTUAL_DRIVER") and not _has_terminal():
            print(NO_TERMINAL, file=sys.stderr)
            return 2
        sys.stdout, sys.stderr = saved  # the app manages the terminal itself
        return run_app(args)
    try:
        return handler(args)
    except (BrokenPipeError, OutputError):
        raise
    except Exception as exc:  # a bug: one line, never a traceback in front of a user
        if os.environ.get("STICKS_TUI_DEBUG"):
            raise
        text = str(exc)
        text = text if len(text) <= 200 else text[:197] + "..."
        print(f"sticks-tui: unexpected error ({type(exc).__name__}: {text}); this is a bug, please report it "
              "(set STICKS_TUI_DEBUG=1 to see where it happened).", file=sys.stderr)
        return 70


if __name__ == "__main__":
    sys.exit(main())
