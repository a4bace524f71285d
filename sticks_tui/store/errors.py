"""The store's one exception, and the rule for names (brains and players)."""

from __future__ import annotations

MAX_NAME_LENGTH = 40


class StoreError(Exception):
    """Something the store could not do; the message is written for the person at the keyboard."""


class TeacherOnly(StoreError):
    """A pupil's store (`sticks-tui serve`, a tab opened from the pupils' address) was asked to wipe,
    replace or restore something: only the teacher may."""


class InvalidName(StoreError, ValueError):
    """A brain or player name that breaks the naming rule (bad usage rather than bad data)."""


def validate_name(name: object, what: str = "brain") -> str:
    """Return `name` with surrounding spaces removed, or raise InvalidName saying what is wrong.

    A name is 1 to 40 printable characters (letters, digits, spaces, punctuation; no tabs,
    newlines or control characters).
    """
    if not isinstance(name, str):
        raise InvalidName(f"A {what} name is text, not {type(name).__name__}.")
    stripped = name.strip()
    if not stripped:
        raise InvalidName(f"A {what} name needs at least one character.")
    if len(stripped) > MAX_NAME_LENGTH:
        raise InvalidName(f"A {what} name is at most {MAX_NAME_LENGTH} characters; "
                          f"{stripped[:20]!r}... has {len(stripped)}.")
    bad = [c for c in stripped if not c.isprintable()]
    if bad:
        raise InvalidName(f"A {what} name may only hold printable characters; {stripped!r} holds {bad[0]!r}.")
    return stripped


#: A pupil's new brain (a copy, `sticks-tui serve`'s pupils' address): a short name of these characters only
#: (no '/', '.', ':' or other marks: never read as a path, on the server or in a file name an export suggests)
PUPIL_BRAIN_NAME_LENGTH = 24
PUPIL_BRAIN_NAME_MARKS = " -_'()"
#: The most brains a class's database holds for a pupil to copy one more (the teacher is not limited, and deletes
#: brains from the records screen of the teacher's tab)
PUPIL_CLASS_BRAINS = 30


def validate_pupil_brain_name(name: object) -> str:
    """A name for a brain a pupil makes: the name rule (`validate_name`), and 1 to 24 letters, digits, spaces and
    - _ ' ( ) only; InvalidName says what is wrong."""
    stripped = validate_name(name)
    if len(stripped) > PUPIL_BRAIN_NAME_LENGTH:
        raise InvalidName(f"A brain a pupil makes has a name of at most {PUPIL_BRAIN_NAME_LENGTH} characters; "
                          f"{stripped[:20]!r}... has {len(stripped)}.")
    bad = [c for c in stripped if not (c.isalnum() or c in PUPIL_BRAIN_NAME_MARKS)]
    if bad:
        raise InvalidName(f"A brain a pupil makes has a name of letters, digits, spaces and - _ ' ( ) only; "
                          f"{stripped!r} holds {bad[0]!r}.")
    return stripped
