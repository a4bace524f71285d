"""The brain file: a brain (its hats) as JSON, to share a trained AI.

Reading one trusts nothing: the size is capped before parsing, the JSON may only hold plain
values, and every field is checked (format, version, sizes, the rule, every count against the
floor). Nothing is unpickled or executed. A refusal raises StoreError naming what is wrong.

    {"format": "sticks-tui-brain", "version": 1, "name": "default", "size": 20, "max_take": 3,
     "rule": {"start_balls": 1, "win_reward": 1, "loss_penalty": 1, "floor": "each"},
     "games_trained": 100000, "exported_at": "2025-01-01T12:00:00+00:00",
     "hats": [[], [1], [1, 1], [1, 1, 1], ...]}

`hats[n]` counts the balls numbered 1..min(max_take, n) in the hat for a heap of n sticks;
`hats[0]` is always empty (there is no hat for an empty heap).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sticks_tui.learn.hats import FLOOR_RULES, MAX_COUNT, HatRule, Hats
from sticks_tui.store.errors import InvalidName, StoreError, validate_name

BRAIN_FORMAT = "sticks-tui-brain"
BRAIN_VERSION = 1
MAX_BRAIN_FILE_BYTES = 1 << 20  # 1 MiB: a 1,000-hat brain with huge counts fits easily
MAX_HATS = 1000
MAX_TAKE_LIMIT = 10
MAX_GAMES_TRAINED = 10**15


@dataclass(frozen=True)
class BrainFile:
    name: str | None
    hats: Hats
    games_trained: int


def encode(name: str, hats: Hats, games_trained: int, exported_at: str) -> str:
    rule = hats.rule
    doc = {
        "format": BRAIN_FORMAT,
        "version": BRAIN_VERSION,
        "name": name,
        "size": hats.size,
        "max_take": hats.max_take,
        "rule": {"start_balls": rule.start_balls, "win_reward": rule.win_reward,
                 "loss_penalty": rule.loss_penalty, "floor": rule.floor},
        "games_trained": int(games_trained),
        "exported_at": exported_at,
        "hats": hats.as_lists(),
    }
    # one hat a line: readable in a diff, still plain JSON
    head = json.dumps({k: v for k, v in doc.items() if k != "hats"}, indent=2)[:-2]
    rows = ",\n".join("    " + json.dumps(row) for row in doc["hats"])
    return f'{head},\n  "hats": [\n{rows}\n  ]\n}}\n'


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a brain can hold")


def decode(data: bytes, source: str = "the file") -> BrainFile:
    """Check a brain file's bytes completely and return the brain, or raise StoreError."""
    def refuse(why: str) -> StoreError:
        return StoreError(f"Cannot import {source}: {why} Nothing was changed.")

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
        raise refuse(f"it holds a value that is not allowed ({exc}).") from None
    if not isinstance(doc, dict):
        raise refuse("it is not a sticks-tui brain file (expected a JSON object).")
    fmt = doc.get("format")
    if fmt != BRAIN_FORMAT:
        shown = "no \"format\" field" if fmt is None else f"format {str(fmt)[:40]!r}"
        raise refuse(f"it is not a sticks-tui brain file ({shown}; expected {BRAIN_FORMAT!r}).")
    version = doc.get("version")
    if not _is_int(version):
        raise refuse(f"its version must be a whole number, not {version!r:.40}.")
    if version > BRAIN_VERSION:
        raise refuse(f"it was written by a newer sticks-tui (brain file version {version}; "
                     f"this one reads version {BRAIN_VERSION}).")
    if version < 1:
        raise refuse(f"its version {version} is not a brain file version.")

    size = doc.get("size")
    if not _is_int(size) or not 1 <= size <= MAX_HATS:
        raise refuse(f"\"size\" must be a whole number of hats from 1 to {MAX_HATS}, not {size!r:.40}.")
    max_take = doc.get("max_take")
    if not _is_int(max_take) or not 1 <= max_take <= MAX_TAKE_LIMIT:
        raise refuse(f"\"max_take\" must be a whole number from 1 to {MAX_TAKE_LIMIT}, not {max_take!r:.40}.")
    games = doc.get("games_trained", 0)
    if not _is_int(games) or not 0 <= games <= MAX_GAMES_TRAINED:
        raise refuse(f"\"games_trained\" must be a whole number from 0 to {MAX_GAMES_TRAINED:,}, "
                     f"not {games!r:.40}.")

    rule_doc = doc.get("rule")
    if not isinstance(rule_doc, dict):
        raise refuse("\"rule\" must be an object with start_balls, win_reward, loss_penalty and floor.")
    unknown = set(rule_doc) - {"start_balls", "win_reward", "loss_penalty", "floor"}
    if unknown:
        raise refuse(f"\"rule\" has a field this version does not know: {sorted(unknown)[0]!r:.40}.")
    floor = rule_doc.get("floor", "each")
    if floor not in FLOOR_RULES:
        raise refuse(f"the rule's floor must be 'each' or 'nonempty', not {floor!r:.40}.")
    try:
        rule = HatRule(start_balls=rule_doc.get("start_balls", 1), win_reward=rule_doc.get("win_reward", 1),
                       loss_penalty=rule_doc.get("loss_penalty", 1), floor=floor)
    except ValueError as exc:
        raise refuse(f"its rule is not valid: {exc}") from None

    rows = doc.get("hats")
    if not isinstance(rows, list):
        raise refuse("\"hats\" must be a list of hats.")
    if len(rows) != size + 1:
        raise refuse(f"\"hats\" holds {len(rows)} entries but \"size\" says {size} hats "
                     f"(expected {size + 1}: an empty hat 0, then hats 1 to {size}).")
    if rows[0] != []:
        raise refuse("hat 0 must be empty ([]): there is no hat for an empty heap.")
    for n in range(1, size + 1):
        row = rows[n]
        legal = min(max_take, n)
        if not isinstance(row, list):
            raise refuse(f"hat {n} must be a list of {legal} counts, not {row!r:.40}.")
        if len(row) != legal:
            raise refuse(f"hat {n} must hold {legal} counts (balls 1 to {legal}), not {len(row)}.")
        for ball, count in enumerate(row, start=1):
            if not _is_int(count):
                raise refuse(f"hat {n}, ball {ball}: a count is a whole number, not {count!r:.40}.")
            if count > MAX_COUNT:
                digits = str(count)
                shown = digits if len(digits) <= 24 else f"{digits[:8]}... ({len(digits)} digits)"
                raise refuse(f"hat {n}, ball {ball}: the count {shown} is too large (at most {MAX_COUNT:,}).")
            lowest = 1 if floor == "each" else 0
            if count < lowest:
                why = "every hat keeps at least one ball of each number" if floor == "each" \
                    else "a count cannot be negative"
                raise refuse(f"hat {n}, ball {ball}: the count is {count}, but {why}.")
        if sum(row) < 1:
            raise refuse(f"hat {n} is empty, but every hat keeps at least one ball.")

    name = doc.get("name")
    if name is not None:
        try:
            name = validate_name(name)
        except InvalidName as exc:
            raise refuse(f"its \"name\" is not usable: {exc}") from None
    hats = Hats.from_lists(rows, max_take=max_take, rule=rule)
    return BrainFile(name, hats, games)
