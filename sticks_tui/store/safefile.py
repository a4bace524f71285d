"""Writing a file the user named without ever destroying something else (issue 13, "exports never destroy").

Every file sticks-tui writes at a path a person typed (a brain export, a class export, the settings)
goes through `write_file`:

- The live database (and its -wal/-shm/-journal files) is refused, compared with
  `os.path.samefile` so a symlink or another spelling of the path cannot hide it; so is ANY SQLite
  file, recognised by its 16-byte header. `force` does not lift these.
- Anything that is not a regular file (a FIFO, a device such as /dev/null, a directory, a socket)
  is refused; `force` does not lift this either: replacing /dev/null with a file is never wanted.
- A symlink, or an existing regular file that is not one of our own files of the same kind
  (recognised by its content), is refused unless `force=True`. With `force`, a symlink itself is
  replaced; the file it points to is never written through.
- The new content is written to a temporary file in the same directory, flushed to disk (fsync),
  and renamed over the target (`os.replace`): the target is either the old file or the whole new
  one, never a half-written or truncated one, and several writers at once leave one whole file
  (the last one to rename wins).

Every refusal and every failure is a StoreError with one line a person can act on.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from sticks_tui.store.errors import StoreError

SQLITE_HEADER = b"SQLite format 3\x00"
#: How much of an existing file is read to recognise it (brain files are capped at 1 MiB).
RECOGNISE_BYTES = (1 << 20) + 1
#: Files that belong to a SQLite database beside the database file itself.
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")

Recogniser = Callable[[bytes], bool]


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EROFS:
        return "the disk is read-only"
    if exc.errno == errno.ENOENT:
        return "the folder does not exist"
    if exc.errno == errno.ENOTDIR:
        return "part of the path is not a folder"
    return exc.strerror or str(exc)


def kind_of(mode: int) -> str:
    """What a path that is not a regular file is, in words ("a folder", "a named pipe (FIFO)", ...)."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (or cannot be reached): compare the resolved names
        try:
            return os.path.realpath(a) == os.path.realpath(b)
        except (OSError, ValueError):
            return False


def _protected_paths(protected: Iterable[str | os.PathLike | None]) -> list[Path]:
    paths = []
    for p in protected:
        if p is None:
            continue
        p = Path(p)
        paths.append(p)
        paths.extend(p.with_name(p.name + side) for side in SQLITE_SIDE_FILES)
    return paths


def read_at_most(fd: int, limit: int) -> bytes:
    """Up to `limit` bytes from an open file, read in pieces (a huge file is never read whole); OSError as raised."""
    chunks = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 16))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _read_head(path: Path, limit: int) -> bytes | None:
    """The first `limit` bytes of a regular file, opened without following a symlink or blocking; None if unreadable."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return read_at_most(fd, limit)
    except OSError:
        return None
    finally:
        os.close(fd)


def check_target(path: str | os.PathLike, *, what: str, recognise: Recogniser | None = None,
                 force: bool = False, protected: Iterable[str | os.PathLike | None] = ()) -> Path:
    """Check that writing `path` destroys nothing; return it as a Path, or raise StoreError saying why not.

    `what` names our kind of file in messages ("brain file", "export"); `recognise(head_bytes)`
    says whether an existing file is one of ours of that kind (None: no existing file is ours).
    `protected` are paths that must never be written (the live database).
    """
    text = os.fspath(path)
    if not text or not str(text).strip():
        raise StoreError(f"Give a file name to write the {what} to.")
    if "\x00" in str(text):
        raise StoreError(f"The file name {str(text)[:60]!r} holds a NUL character.")
    target = Path(text).expanduser()
    for p in _protected_paths(protected):
        if _same_file(target, p):
            raise StoreError(f"Refused: {target} is sticks-tui's own database; writing the {what} there would "
                             "destroy every record and brain. Choose another file name.")
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        parent = target.parent
        if not parent.is_dir():
            raise StoreError(f"Cannot write the {what} to {target}: the folder {parent} does not exist.") from None
        return target
    except OSError as exc:
        raise StoreError(f"Cannot write the {what} to {target}: {_reason(exc)}.") from None
    if stat.S_ISLNK(st.st_mode):
        try:
            pointed = os.stat(target)
        except OSError:
            pointed = None
        if pointed is not None and stat.S_ISREG(pointed.st_mode) and \
                (_read_head(Path(os.path.realpath(target)), len(SQLITE_HEADER)) or b"").startswith(SQLITE_HEADER):
            raise StoreError(f"Refused: {target} points to a SQLite database; the {what} is never written over one.")
        if not force:
            raise StoreError(f"Refused: {target} is a symbolic link; the {what} is not written through it "
                             "(use --force to replace the link itself with the file).")
        return target
    if not stat.S_ISREG(st.st_mode):
        raise StoreError(f"Refused: {target} is {kind_of(st.st_mode)}, not a regular file; "
                         f"the {what} is only written to a file.")
    head = _read_head(target, RECOGNISE_BYTES)
    if head is not None and head.startswith(SQLITE_HEADER):
        raise StoreError(f"Refused: {target} is a SQLite database; the {what} is never written over one.")
    if force:
        return target
    ours = head is not None and recognise is not None and _safe_recognise(recognise, head)
    if not ours:
        if head is None:
            raise StoreError(f"Refused: {target} already exists and cannot be read to check it is an earlier "
                             f"{what}; use --force to replace it.")
        raise StoreError(f"Refused: {target} already exists and is not an earlier {what}; "
                         "choose another file name, or use --force to replace it.")
    return target


def _safe_recognise(recognise: Recogniser, head: bytes) -> bool:
    try:
        return bool(recognise(head))
    except Exception:  # a recogniser must never turn a refusal into a crash
        return False


def write_file(path: str | os.PathLike, data: str | bytes, *, what: str, recognise: Recogniser | None = None,
               force: bool = False, protected: Iterable[str | os.PathLike | None] = (),
               mode: int = 0o666) -> Path:
    """Check the target (`check_target`), then replace it atomically with `data`; return the path written.

    `mode` is the new file's permission before the umask (0o600 for files holding names only
    their owner should read). On any failure the target is left exactly as it was and the
    temporary file is removed; StoreError says what went wrong.
    """
    target = check_target(path, what=what, recognise=recognise, force=force, protected=protected)
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    atomic_write(target, payload, what=what, mode=mode)
    return target


def atomic_write(target: Path, payload: bytes, *, what: str, mode: int = 0o666) -> None:
    """Write `payload` to a temporary file beside `target`, fsync it, and rename it over `target`."""
    directory = target.parent
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    tmp = None
    try:
        for _ in range(100):
            candidate = directory / f".{target.name}.{secrets.token_hex(6)}.tmp"
            try:
                fd = os.open(candidate, flags, mode)
            except FileExistsError:
                continue
            tmp = candidate
            break
        else:
            raise OSError(errno.EEXIST, "no free temporary file name")
        try:
            view = memoryview(payload)
            while view:
                written = os.write(fd, view)
                if written <= 0:
                    raise OSError(errno.EIO, "the disk accepted no bytes")
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
        tmp = None
        _fsync_directory(directory)
    except OSError as exc:
        raise StoreError(f"Cannot write the {what} to {target}: {_reason(exc)}. Nothing was changed.") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _fsync_directory(directory: Path) -> None:
    """Make the rename itself durable (best effort: not every platform can open a directory)."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def is_sqlite(head: bytes) -> bool:
    return head.startswith(SQLITE_HEADER)


def json_marker(head: bytes) -> dict | None:
    """The top-level JSON object of a file's bytes, or None when they are not one (cut short, not JSON)."""
    import json

    try:
        doc = json.loads(head.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return doc if isinstance(doc, dict) else None


def recognise_json_format(format_name: str, **fields: object) -> Recogniser:
    """A recogniser for our JSON files: a top-level object with "format": `format_name` (and these fields)."""
    def recognise(head: bytes) -> bool:
        doc = json_marker(head)
        return doc is not None and doc.get("format") == format_name and \
            all(doc.get(k) == v for k, v in fields.items())

    return recognise


__all__ = ["SQLITE_HEADER", "atomic_write", "check_target", "is_sqlite", "json_marker", "recognise_json_format",
           "write_file"]
