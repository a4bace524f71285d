"""The brain file: a brain (its hats) as JSON, to share a trained AI or keep a backup.

Reading one trusts nothing: the size is capped before parsing, the JSON may only hold plain
values, and every field is checked (format, version, game, layout, the rule, every count against
the floor). Nothing is unpickled or executed. A refusal raises StoreError naming what is wrong.

A file names its game and its layout, so it is read back as the brain it was written from:

    {"format": "sticks-tui-brain", "version": 1, "game": "sticks", "name": "default",
     "size": 20, "max_take": 3,
     "rule": {"start_balls": 1, "win_reward": 1, "loss_penalty": 1, "floor": "each"},
     "games_trained": 100000, "exported_at": "2025-01-01T12:00:00+00:00",
     "hats": [[], [1], [1, 1], [1, 1, 1], ...]}

    {"format": "sticks-tui-brain", "version": 2, "game": "nim", "name": "nim-7x7x7",
     "box": [7, 7, 7], "rule": {...}, "games_trained": 500000, "exported_at": "...",
     "hats": [[1], [1, 1], ...]}

Sticks: `hats[n]` counts the balls numbered 1..min(max_take, n) in the hat for a heap of n sticks;
`hats[0]` is always empty (there is no hat for an empty heap).
Nim: one hat per piles (n, d, q) with 0 <= n, d, q <= box and at least one coin, in the order
n, then d, then q ((0, 0, 1), (0, 0, 2), ...); each counts the balls for the moves (pile, coins)
by pile, then by coins (`engine.nim.nim_moves`).

    {"format": "sticks-tui-brain", "version": 3, "game": "noughts", "learner": "hats", "name": "noughts MENACE",
     "seat": 0,
     "rule": {"start_balls": [4, 3, 2, 1], "win_reward": 3, "loss_penalty": 1, "floor": "none",
              "draw_reward": 1, "empty": "resign"},
     "games_trained": 500, "exported_at": "...",
     "hats": [{"position": ".........", "counts": [4, 4, 4]}, ...]}

Every file holds one shape, the counts learner's (`learn.hats.Hats`): its game, its learner ("hats":
the hats of the seeds and MENACE's matchboxes are one learner), its layout fields, its rule and
"hats", one entry a container in the layout's row order: its counts (one for each of its moves), or
{"position": ..., "counts": [...]} naming the container's position too, as a file of a game whose
positions fold by symmetry (MENACE's 304 boxes, each the canonical board) is written. "seat" (0 or 1)
says which player's containers a brain keeps, where it keeps one player's only (MENACE's X or O).
The rule: "start_balls" one number, or one per move number of the player to move (MENACE's 4, 3, 2,
1); the incentives; "floor" 'each', 'nonempty' or 'none'; "empty" ('resign' or 'refill') under the
floor 'none'.

Versions: a sticks file is version 1 (the "game" field is new, and readers of version 1 ignore it,
so an older sticks-tui still reads it); a Nim file is version 2, so an older sticks-tui refuses it
as "written by a newer sticks-tui" instead of misreading it; a file whose rule or layout an older
reader would misread (start numbers by move, no floor, one seat's containers: MENACE's) is version 3.
A file without "game" is a sticks file, as every file before version 2 was. Files of before are read
as what they hold: a version-1 file written by the Nim export of before (no "game", `size` and
`max_take` counted over Nim's hats, hat 0 not empty) whose hats fit exactly one box of piles; a
version-2 MENACE file (its "marks", its rule as beads, incentives and empty, its "boxes" of 9 beads by
square) as the same brain in today's shape, read by noughts' own module (`GameEntry.old_brain_file`).
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

# what a file's layout may hold is its game's word (`GameEntry.file_rules`, beside each game's rules)
from sticks_tui.engine import registry
from sticks_tui.learn.hats import EMPTY_RULES, FLOOR_RULES, MAX_COUNT, HatRule, Hats
from sticks_tui.store.errors import InvalidName, StoreError, validate_name
from sticks_tui.store.safefile import kind_of, read_at_most

BRAIN_FORMAT = "sticks-tui-brain"
#: The newest version this reads (and writes, for a brain an older reader would misread: MENACE's); a
#: sticks file is written as version 1, a Nim file as version 2.
BRAIN_VERSION = 3
#: The version of a file an older reader reads right (its game's own, or this).
PLAIN_FILE_VERSION = 2
#: What a file names as its learner: the counts learner (the hats of the seeds, MENACE's matchboxes).
LEARNER = "hats"
MAX_BRAIN_FILE_BYTES = 1 << 20  # 1 MiB: a 1,000-hat brain with huge counts fits easily
MAX_GAMES_TRAINED = 10**15
#: The most characters of the input a message echoes back (a value, a path); longer ones are cut with "...".
ECHO_LIMIT = 60
#: Paths come from the person's own command line and must stay recognisable: a longer cap.
PATH_ECHO_LIMIT = 240


def shown(value: Any, limit: int = ECHO_LIMIT) -> str:
    """`repr(value)`, cut to `limit` characters with "..." (so a 5,000-digit count is not echoed whole)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        digits = len(str(abs(value))) if value.bit_length() < 14_000 else None  # str() of a huge int is refused
        return f"a {digits:,}-digit number" if digits else f"a {value.bit_length():,}-bit number"
    try:
        text = repr(value)
    except ValueError:  # pragma: no cover - repr of a container of huge ints
        text = f"a {type(value).__name__}"
    return clip(text, limit)


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text` cut to `limit` characters, ending in "..." when cut."""
    return text if len(text) <= limit else text[: max(limit - 3, 1)] + "..."


def clip_path(path: Any, limit: int = PATH_ECHO_LIMIT) -> str:
    """A path for a message, cut to `limit` characters keeping its end (the file's name)."""
    text = str(path)
    return text if len(text) <= limit else "..." + text[-(limit - 3):]


class BadBrainFile(StoreError):
    """A brain file refused; `why` is the reason alone (the message also names the file)."""

    def __init__(self, message: str, why: str) -> None:
        super().__init__(message)
        self.why = why


@dataclass(frozen=True)
class BrainFile:
    name: str | None
    hats: Hats
    games_trained: int

    @property
    def game(self) -> str:
        return game_of(self.hats)


def game_of(hats: Hats) -> str:
    """The name of the game a brain plays (its rules tell, through the registry)."""
    try:
        return registry.name_of(hats.rules)
    except ValueError:
        raise ValueError(f"A brain file holds a brain of a game this sticks-tui knows, not one for {hats.rules!r}.") \
            from None


def game_words(game: str) -> str:
    """'a sticks brain' for the game's name."""
    return registry.entry(game).brain_words


def _needs_new_reader(hats: Hats) -> bool:
    """A brain an older reader would misread: start numbers by move, no floor, one seat's containers, or
    positions folded by symmetry (MENACE's)."""
    rule = hats.rule
    return len(rule.starts) > 1 or rule.floor == "none" or hats.seat is not None or hats.folds


def encode(name: str, hats: Hats, games_trained: int, exported_at: str) -> str:
    """The brain file's text for `hats` (a brain of any game); `decode` gives the same brain back."""
    rule = hats.rule
    kind = registry.entry(game_of(hats))
    explicit = hats.folds or hats.seat is not None  # each container names its position
    version = BRAIN_VERSION if _needs_new_reader(hats) else (kind.file_version or PLAIN_FILE_VERSION)
    starts = list(rule.starts)
    doc = {
        "format": BRAIN_FORMAT,
        "version": version,
        "game": kind.name,
        "learner": LEARNER,
        "name": name,
        **kind.layout(hats.rules),
        **({"seat": hats.seat} if hats.seat is not None else {}),
        "rule": {"start_balls": starts if len(starts) > 1 else starts[0], "win_reward": rule.win_reward,
                 "loss_penalty": rule.loss_penalty, "floor": rule.floor,
                 # only when it is not 0: a file without it reads as before, everywhere
                 **({"draw_reward": rule.draw_reward} if rule.draw_reward else {}),
                 **({"empty": rule.empty} if rule.floor == "none" else {})},
        "games_trained": int(games_trained),
        "exported_at": exported_at,
    }
    rows = hats.as_lists()
    if explicit:
        rows = [{"position": hats.rules.encode_position(p), "counts": row}
                for p, row in zip(hats._layout.rows, rows, strict=True)]
    # one hat a line: readable in a diff, still plain JSON
    head = json.dumps(doc, indent=2)[:-2]
    head = re.sub(r"\[\s*(-?\d+(?:,\s*-?\d+)*)\s*\]", lambda m: "[" + re.sub(r",\s*", ", ", m.group(1)) + "]",
                  head)  # short lists of numbers on one line
    lines = ",\n".join("    " + json.dumps(row) for row in rows)
    return f'{head},\n  "hats": [\n{lines}\n  ]\n}}\n'


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a brain can hold")


def decode(data: bytes, source: str = "the file") -> BrainFile:
    """Check a brain file's bytes completely and return the brain, or raise StoreError (BadBrainFile)."""
    def refuse(why: str) -> StoreError:
        return BadBrainFile(f"Cannot import {clip_path(source)}: {why} Nothing was changed.", why)

    if len(data) > MAX_BRAIN_FILE_BYTES:
        raise refuse(f"it is larger than {MAX_BRAIN_FILE_BYTES // 1024} KiB, too big for a brain file.")
    if not data.strip():
        raise refuse("it is empty.")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise refuse("it is not a text file (a brain file is JSON).") from None
    try:
        doc = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise refuse("its JSON is nested too deeply.") from None
    except ValueError as exc:  # json.JSONDecodeError is a ValueError; so is a too-long integer
        if isinstance(exc, json.JSONDecodeError):
            at = f" (line {exc.lineno}, column {exc.colno}: {exc.msg})"
            what = "it is cut short" if exc.pos >= len(text.rstrip()) else "it is not valid JSON"
            raise refuse(f"{what}{at}.") from None
        raise refuse(f"it holds a value that is not allowed ({clip(str(exc))}).") from None
    if not isinstance(doc, dict):
        raise refuse("it is not a sticks-tui brain file (expected a JSON object).")
    fmt = doc.get("format")
    if fmt != BRAIN_FORMAT:
        what = "no \"format\" field" if fmt is None else f"format {shown(fmt)}"
        raise refuse(f"it is not a sticks-tui brain file ({what}; expected {BRAIN_FORMAT!r}).")
    version = doc.get("version")
    if not _is_int(version):
        raise refuse(f"its version must be a whole number, not {shown(version)}.")
    if version > BRAIN_VERSION:
        raise refuse(f"it was written by a newer sticks-tui (brain file version {shown(version)}; "
                     f"this one reads versions 1 to {BRAIN_VERSION}).")
    if version < 1:
        raise refuse(f"its version {shown(version)} is not a brain file version.")

    learner = doc.get("learner", LEARNER)
    if learner != LEARNER:
        raise refuse(f"it holds a brain of the learner {shown(learner)}, which this sticks-tui does not know "
                     f"(it knows {LEARNER!r}: the hats, MENACE's matchboxes).")
    kind, layout = _game_and_layout(doc, version, refuse)
    games = doc.get("games_trained", 0)
    if not _is_int(games) or not 0 <= games <= MAX_GAMES_TRAINED:
        raise refuse(f"\"games_trained\" must be a whole number from 0 to {MAX_GAMES_TRAINED:,}, "
                     f"not {shown(games)}.")
    old = _old_brain(kind, doc, refuse)  # a form of its game's own, of before (MENACE's version-2 boxes)
    if old is not None:
        return BrainFile(_name(doc, refuse), old, games)
    rule = _rule(doc, refuse)
    rows = doc.get("hats")
    if not isinstance(rows, list):
        raise refuse("\"hats\" must be a list of hats.")
    hats = _file_hats(kind, layout, rows, rule, _seat(kind, doc, refuse), refuse)
    return BrainFile(_name(doc, refuse), hats, games)


def _seat(kind: registry.GameEntry, doc: dict, refuse) -> int | None:
    seat = doc.get("seat")
    if seat is None:
        return None
    if seat not in (0, 1) or isinstance(seat, bool):
        raise refuse(f"\"seat\" must be 0 (the first player's containers) or 1 (the second's), not {shown(seat)}.")
    return seat


def _name(doc: dict, refuse) -> str | None:
    name = doc.get("name")
    if name is not None:
        try:
            name = validate_name(name)
        except InvalidName as exc:
            raise refuse(f"its \"name\" is not usable: {clip(str(exc), 2 * ECHO_LIMIT)}") from None
    return name


# -- a brain file of before in a form of its game's own (MENACE's version-2 boxes) -----------------------------
def _old_brain(kind: registry.GameEntry, doc: dict, refuse) -> Hats | None:
    """The brain of a file in a form of its game's own, of before, read by its game's module
    (`GameEntry.old_brain_file`: noughts' MENACE boxes of 9 beads by square), or None when it is not one."""
    if kind.old_brain_file is None:
        return None
    rules = kind.make_rules()

    def brain_of(seat: int, settings: dict) -> Hats:
        try:
            rule = HatRule(**settings)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"its rule is not valid: {clip(str(exc), 2 * ECHO_LIMIT)}.") from None
        return Hats(rules, rule=rule, seat=seat)

    try:
        found = kind.old_brain_file(doc, shown, brain_of, MAX_COUNT)
    except ValueError as exc:
        raise refuse(str(exc)) from None
    if found is None:
        return None
    brain, rows = found
    for position, row in zip(brain.positions, rows, strict=True):
        brain.counts[brain.row(position), : len(row)] = row
    return brain


def _game_and_layout(doc: dict, version: int, refuse) -> tuple[registry.GameEntry, dict]:
    """The game the file holds a brain of (its registry entry) and its layout fields, once they agree.

    A version-1 file without "game" is read as the registry says (`registry.unnamed_file_game`): an
    old export a game recognises, else a sticks brain."""
    if "game" not in doc:
        found = registry.unnamed_file_game(doc) if version == 1 else None
        if found is None:
            raise refuse(f"it does not say which game its brain plays (no \"game\" field; a version {version} "
                         "brain file has one).")
        kind, layout = found
        named = False
    else:
        game = doc["game"]
        if not isinstance(game, str) or game not in registry.names():
            known = " and ".join(repr(g) for g in registry.names())
            raise refuse(f"it holds a brain for the game {shown(game)}, which this sticks-tui does not know "
                         f"(it knows {known}).")
        kind, layout, named = registry.entry(game), doc, True
    why = kind.layout_conflict(layout, named, shown)
    if why is not None:
        raise refuse(why)
    return kind, layout


def _rule(doc: dict, refuse) -> HatRule:
    rule_doc = doc.get("rule")
    if not isinstance(rule_doc, dict):
        raise refuse("\"rule\" must be an object with start_balls, win_reward, loss_penalty and floor.")
    unknown = set(rule_doc) - {"start_balls", "win_reward", "loss_penalty", "floor", "draw_reward", "empty"}
    if unknown:
        raise refuse(f"\"rule\" has a field this version does not know: {shown(sorted(unknown)[0])}.")
    floor = rule_doc.get("floor", "each")
    if floor not in FLOOR_RULES:
        raise refuse(f"the rule's floor must be 'each', 'nonempty' or 'none', not {shown(floor)}.")
    empty = rule_doc.get("empty")
    if empty is not None and (floor != "none" or empty not in EMPTY_RULES):
        raise refuse(f"the rule's \"empty\" is 'resign' or 'refill', and only under the floor 'none', not "
                     f"{shown(empty)}.")
    numbers = {key: rule_doc.get(key, 1) for key in ("start_balls", "win_reward", "loss_penalty")}
    numbers["draw_reward"] = rule_doc.get("draw_reward", 0)
    if isinstance(numbers["start_balls"], list):
        numbers["start_balls"] = tuple(numbers["start_balls"])
    try:
        return HatRule(floor=floor, empty=empty, **numbers)
    except ValueError as exc:
        why = str(exc)
        for value in numbers.values():  # the rule's own message spells the value out: name a huge one instead
            if isinstance(value, tuple):
                continue
            if _is_int(value) and 200 < value.bit_length() < 14_000:  # str() refuses more than 4,300 digits
                why = why.replace(str(value), shown(value))
        raise refuse(f"its rule is not valid: {clip(why, 2 * ECHO_LIMIT)}") from None


def _check_hat(label: str, row: Any, legal: int, floor: str, refuse) -> None:
    """One hat's counts: `legal` whole numbers, none past MAX_COUNT or below the floor, not all 0."""
    if not isinstance(row, list):
        raise refuse(f"{label} must be a list of {legal} counts, not {shown(row)}.")
    if len(row) != legal:
        raise refuse(f"{label} must hold {legal} counts (one for each of its moves), not {len(row)}."
                     if label.startswith("the hat for") else
                     f"{label} must hold {legal} counts (balls 1 to {legal}), not {len(row)}.")
    lowest = 1 if floor == "each" else 0  # 'nonempty' and 'none': a count may be 0
    for ball, count in enumerate(row, start=1):
        if not _is_int(count):
            raise refuse(f"{label}, ball {ball}: a count is a whole number, not {shown(count)}.")
        if count > MAX_COUNT:
            raise refuse(f"{label}, ball {ball}: the count {shown(count)} is too large (at most {MAX_COUNT:,}).")
        if count < lowest:
            why = "every hat keeps at least one ball of each number" if floor == "each" \
                else "a count cannot be negative"
            raise refuse(f"{label}, ball {ball}: the count is {shown(count)}, but {why}.")
    if sum(row) < 1 and floor != "none":  # under 'none' a container may run out (MENACE's empty box)
        raise refuse(f"{label} is empty, but every hat keeps at least one ball.")


def _file_hats(kind: registry.GameEntry, layout: dict, rows: list, rule: HatRule, seat: int | None,
               refuse) -> Hats:
    """The brain a file's layout and "hats" hold, every hat checked (one hat a row of the brain's counts)."""
    try:
        rules = kind.rules_of_file(layout, shown)
        shape = Hats(rules, rule=rule, seat=seat)  # the layout of a brain of these rules (its counts are replaced)
    except ValueError as exc:
        raise refuse(str(exc)) from None
    hat_rows = shape._layout.rows
    if len(rows) != len(hat_rows):
        raise refuse(kind.rows_words(rules, len(rows), len(hat_rows)))
    counts = np.zeros_like(shape.counts)
    for i, position in enumerate(hat_rows):
        row = rows[i]
        if isinstance(row, dict):
            if set(row) != {"position", "counts"} or position is None:
                raise refuse(f"\"hats\" entry {i} must be a list of counts, or an object with \"position\" and "
                             f"\"counts\", not {shown(row)}.")
            if row["position"] != rules.encode_position(position):
                raise refuse(f"\"hats\" entry {i} must be the container for {shown(rules.encode_position(position))}, "
                             f"not {shown(row['position'])}.")
            row = row["counts"]
        if position is None:
            if row != []:
                raise refuse(kind.empty_row_words(i))
            continue
        legal = int(shape.n_moves[i])
        _check_hat(kind.hat_label(rules, position), row, legal, rule.floor, refuse)
        counts[i, :legal] = row
    return Hats(rules, rule=rule, counts=counts, seat=seat)


def empty_container(brain: Hats):
    """The first position whose container holds no token of a legal move (the AI could not move there), or
    None. Any game: the brain's own layout says which tokens are legal (a ball 3 in the hat for 2 sticks is
    none)."""
    legal = brain.legal_mask
    sums = np.where(legal, brain.counts, 0).sum(axis=1)
    for i in np.flatnonzero((sums <= 0) & legal.any(axis=1)):
        return brain._layout.rows[int(i)]
    return None


def empty_words(brain: Hats, position) -> str:
    """'hat 6 holds no ball, so the AI has no move there': the empty container in its game's words ('the box
    for X . . / ... holds no bead' for MENACE)."""
    kind = registry.entry_of(brain.rules)
    return f"{kind.hat_label(brain.rules, position)} holds no {kind.token_words()[1]}, so the AI has no move there"


def require_playable(hats: Hats, name: str | None = None, location: str | None = None) -> None:
    """Raise StoreError if a container of `hats` is empty; the message says which and what to do."""
    position = empty_container(hats)
    if position is None:
        return
    which = f"The brain {shown(name)}" if name is not None else "This brain"
    where = f" in {clip_path(location)}" if location else ""
    fix = (f" Reset it (`sticks-tui brain reset {name}`) or delete it." if name is not None
           else " Reset it or delete it.")
    raise StoreError(f"{which}{where} cannot play: {empty_words(hats, position)}.{fix}")


def read_brain_file(path: str | os.PathLike) -> BrainFile:
    """Read and check a brain file, or raise StoreError saying why (nothing is changed either way).

    Only a regular file is read: a FIFO (which would wait forever for a writer), a device such as
    /dev/zero, a directory or a socket is refused before it is opened. The file is opened without
    blocking and checked again, so it cannot be swapped for a FIFO in between; at most
    MAX_BRAIN_FILE_BYTES + 1 bytes are read.
    """
    source = Path(path)
    shown_path = clip_path(source)

    def cannot(why: str) -> StoreError:
        return StoreError(f"Cannot read the brain file {shown_path}: {why}. Nothing was changed.")

    def kind(mode: int) -> str:
        what = kind_of(mode)
        return f"it is {what}" if what.startswith("not") else f"it is {what}, not a file"

    try:
        before = os.stat(source)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        raise cannot(_os_reason(exc)) from None
    if not stat.S_ISREG(before.st_mode):
        raise cannot(kind(before.st_mode))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(source, flags)
    except OSError as exc:
        raise cannot(_os_reason(exc)) from None
    try:
        after = os.fstat(fd)
        if not stat.S_ISREG(after.st_mode):
            raise cannot(kind(after.st_mode))
        data = read_at_most(fd, MAX_BRAIN_FILE_BYTES + 1)
    except OSError as exc:
        raise cannot(_os_reason(exc)) from None
    finally:
        os.close(fd)
    return decode(data, str(source))


def _os_reason(exc: BaseException) -> str:
    if isinstance(exc, FileNotFoundError):
        return "there is no such file"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[:1].lower() + exc.strerror[1:]
    return clip(str(exc))
