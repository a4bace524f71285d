"""The settings file (issue 10): what the app remembers between runs besides records and brains.

One TOML file, `settings.toml`, in the config directory: `--config-dir`, else $STICKS_TUI_CONFIG_DIR,
else the platform's user config directory (platformdirs). It is read with the standard library's
`tomllib` and written by `dump_settings` (plain values only, so no TOML writer is needed):

    # sticks-tui settings: ...
    format = "sticks-tui-settings"
    version = 1
    theme = "textual-dark"
    ai_speed = "normal"        # slow | normal | fast | instant
    game = "sticks"            # sticks | nim
    heap = 20                  # 10 to 100
    nim_piles = [3, 4, 5]      # three piles of 1 to 100 coins
    opponent = "learning"      # friend | dumb | random | learning | trained | perfect
    name1 = "Player 1"
    name2 = "Player 2"
    first = "p1"               # p1 | p2 | alternate | random
    hats = "seeds"             # the learning AI's brain: seeds (brain 'default') | menace (brain 'menace')
    train_games = 100000       # the train dialog's last run: games, pace, protocol, heap
    train_pace = "full"        # ball | 1 | 2 | 5 | 20 | full
    train_protocol = "explore" # explore | classic
    train_heap = 20            # 1 to 100: the setup's heap, or the last run's if it chose another
    [keys]                     # binding id = keys, as Textual's App.set_keymap takes them
    "quit" = "ctrl+q,f10"

Reading never fails: a damaged or foreign file is told in one line, kept aside (renamed with a
timestamp, never deleted) and the defaults are used; a file from a newer version is kept aside too
and what this version knows is read from it; an unknown key is ignored and an out-of-range value
falls back to that field's default, each with a notice. Saving is atomic (`safefile`): several
copies saving at once leave one whole file, the last writer's.
"""

from __future__ import annotations

import dataclasses
import os
import re
import stat
import tomllib
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from sticks_tui import vocabulary
from sticks_tui.engine import registry
from sticks_tui.store.errors import InvalidName, StoreError, validate_name
from sticks_tui.store.paths import APP_NAME, ENV_CONFIG_DIR, config_dir, keep_aside  # noqa: F401 - re-exported

SETTINGS_FILENAME = "settings.toml"
SETTINGS_FORMAT = "sticks-tui-settings"
SETTINGS_VERSION = 1
MAX_SETTINGS_BYTES = 64 * 1024

# the vocabulary (sticks_tui.vocabulary) and the games (engine.registry), as the settings file names them
SPEEDS: tuple[str, ...] = tuple(vocabulary.SPEEDS)
GAMES: tuple[str, ...] = registry.names()
OPPONENTS: tuple[str, ...] = vocabulary.every_opponent()
FIRST_CHOICES: tuple[str, ...] = tuple(vocabulary.FIRST_CHOICES)
MIN_HEAP, MAX_HEAP = vocabulary.HEAP_RANGE
MIN_PILE, MAX_PILE = vocabulary.PILE_RANGE
HATS: tuple[str, ...] = tuple(vocabulary.HAT_BRAINS)
TRAIN_PACES: tuple[str, ...] = ("ball", "1", "2", "5", "20", "full")  # learn.control.PACES, as the dialog names them
TRAIN_PROTOCOLS: tuple[str, ...] = tuple(vocabulary.TRAINING_PROTOCOLS)  # the one list
MAX_TRAIN_GAMES = 10_000_000  # learn.trainer.MAX_GAMES
DEFAULT_THEME = "textual-dark"

_THEME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}")
_BINDING_ID_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]{0,79}")
_KEY_RE = re.compile(r"[^\s,]{1,40}")


class InvalidSetting(ValueError):
    """A settings value out of range or of the wrong kind; the message says which and what is allowed."""


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _choice(name: str, allowed: tuple[str, ...]):
    def check(value: object) -> str:
        if value not in allowed or not isinstance(value, str):
            raise InvalidSetting(f"{name} is one of {', '.join(allowed)}, not {_shown(value)}")
        return value
    return check


def _whole(name: str, low: int, high: int):
    def check(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidSetting(f"{name} is a whole number from {low} to {high}, not {_shown(value)}")
        return value
    return check


def _theme(value: object) -> str:
    if not isinstance(value, str) or not _THEME_RE.fullmatch(value):
        raise InvalidSetting(f"theme is a theme's name (letters, digits, - and _), not {_shown(value)}")
    return value


def _piles(value: object) -> tuple[int, int, int]:
    ok = isinstance(value, (list, tuple)) and len(value) == 3 and all(
        isinstance(p, int) and not isinstance(p, bool) and MIN_PILE <= p <= MAX_PILE for p in value)
    if not ok:
        raise InvalidSetting(f"nim_piles is three whole numbers from {MIN_PILE} to {MAX_PILE}, "
                             f"not {_shown(value)}")
    return tuple(value)


def _name(field_name: str):
    def check(value: object) -> str:
        try:
            return validate_name(value, "player")
        except InvalidName as exc:
            raise InvalidSetting(f"{field_name}: {exc}".rstrip(".")) from None
    return check


def check_binding(binding_id: object, keys: object) -> tuple[str, str]:
    """A key binding as Textual's keymap takes it: (binding id, "key,key"); InvalidSetting when it is not one."""
    if not isinstance(binding_id, str) or not _BINDING_ID_RE.fullmatch(binding_id):
        raise InvalidSetting(f"a binding id is letters, digits, '.', '-' and '_', not {_shown(binding_id)}")
    if not isinstance(keys, str):
        raise InvalidSetting(f"the keys for {binding_id!r} are text like \"ctrl+q,f10\", not {_shown(keys)}")
    parts = [k.strip() for k in keys.split(",")]
    if not parts or not all(_KEY_RE.fullmatch(k) for k in parts):
        raise InvalidSetting(f"the keys for {binding_id!r} are key names separated by commas "
                             f"(like \"ctrl+q,f10\"), not {_shown(keys)}")
    return binding_id, ",".join(parts)


def _keys(value: object) -> Mapping[str, str]:
    if not isinstance(value, Mapping):
        raise InvalidSetting(f"keys is a table of binding id = keys, not {_shown(value)}")
    checked = dict(check_binding(k, v) for k, v in value.items())
    return types.MappingProxyType(dict(sorted(checked.items())))


_VALIDATORS = {
    "theme": _theme,
    "ai_speed": _choice("ai_speed", SPEEDS),
    "game": _choice("game", GAMES),
    "heap": _whole("heap", MIN_HEAP, MAX_HEAP),
    "nim_piles": _piles,
    "opponent": _choice("opponent", OPPONENTS),
    "name1": _name("name1"),
    "name2": _name("name2"),
    "first": _choice("first", FIRST_CHOICES),
    "hats": _choice("hats", HATS),
    "train_games": _whole("train_games", 1, MAX_TRAIN_GAMES),
    "train_pace": _choice("train_pace", TRAIN_PACES),
    "train_protocol": _choice("train_protocol", TRAIN_PROTOCOLS),
    "train_heap": _whole("train_heap", 1, MAX_HEAP),
    "keys": _keys,
}


@dataclass(frozen=True)
class Settings:
    """Everything the app remembers between runs. Frozen: change it with `replace`, which checks every value."""

    theme: str = DEFAULT_THEME
    ai_speed: str = "normal"
    game: str = "sticks"
    heap: int = 20
    nim_piles: tuple[int, int, int] = (3, 4, 5)
    opponent: str = "learning"
    name1: str = "Player 1"
    name2: str = "Player 2"
    first: str = "p1"
    hats: str = "seeds"  # which brain the learning AI plays with: the seeds' rule, or the MENACE-like one
    train_games: int = 100_000  # the train dialog's last run
    train_pace: str = "full"
    train_protocol: str = "explore"
    train_heap: int = 20  # the setup's heap (setup follows it with the game's), or the last run's
    keys: Mapping[str, str] = field(default_factory=dict)  # binding id -> "key,key" (App.set_keymap)

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, _VALIDATORS[f.name](getattr(self, f.name)))

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, f.name) if f.name != "keys" else tuple(self.keys.items())
                          for f in dataclasses.fields(self)))

    def replace(self, **changes: object) -> Settings:
        """A copy with these fields changed; InvalidSetting (a ValueError) for an unknown field or a bad value."""
        unknown = sorted(set(changes) - set(_VALIDATORS))
        if unknown:
            raise InvalidSetting(f"There is no setting called {unknown[0]!r}.")
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict:
        """Plain values (lists and dicts), as saved."""
        return {"theme": self.theme, "ai_speed": self.ai_speed, "game": self.game, "heap": self.heap,
                "nim_piles": list(self.nim_piles), "opponent": self.opponent, "name1": self.name1,
                "name2": self.name2, "first": self.first, "hats": self.hats, "train_games": self.train_games,
                "train_pace": self.train_pace, "train_protocol": self.train_protocol, "train_heap": self.train_heap,
                "keys": dict(self.keys)}


FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Settings))


# -- where ------------------------------------------------------------------------------------------------
def settings_path(directory: str | os.PathLike | None = None) -> Path:
    return config_dir(directory) / SETTINGS_FILENAME


# -- the file format --------------------------------------------------------------------------------------
def _toml_string(text: str) -> str:
    out = ['"']
    for ch in text:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def dump_settings(settings: Settings) -> str:
    """The settings file's text (TOML)."""
    s = settings
    lines = [
        "# sticks-tui settings. The app writes this file when you change a setting; you may also edit it.",
        "# A damaged file is kept aside (renamed) and the defaults are used. `sticks-tui settings show` checks it.",
        f"format = {_toml_string(SETTINGS_FORMAT)}",
        f"version = {SETTINGS_VERSION}",
        "",
        f"theme = {_toml_string(s.theme)}",
        f"ai_speed = {_toml_string(s.ai_speed)}  # {' | '.join(SPEEDS)}",
        f"game = {_toml_string(s.game)}  # {' | '.join(GAMES)}",
        f"heap = {s.heap}  # {MIN_HEAP} to {MAX_HEAP} sticks",
        f"nim_piles = [{', '.join(map(str, s.nim_piles))}]  # three piles of {MIN_PILE} to {MAX_PILE} coins",
        f"opponent = {_toml_string(s.opponent)}  # {' | '.join(OPPONENTS)}",
        f"name1 = {_toml_string(s.name1)}",
        f"name2 = {_toml_string(s.name2)}",
        f"first = {_toml_string(s.first)}  # who moves first: {' | '.join(FIRST_CHOICES)}",
        f"hats = {_toml_string(s.hats)}  # the learning AI's brain: {' | '.join(HATS)}",
        "",
        "# The train dialog's last run.",
        f"train_games = {s.train_games}  # 1 to {MAX_TRAIN_GAMES // 1_000_000} million",
        f"train_pace = {_toml_string(s.train_pace)}  # {' | '.join(TRAIN_PACES)} (games a second)",
        f"train_protocol = {_toml_string(s.train_protocol)}  # {' | '.join(TRAIN_PROTOCOLS)}",
        f"train_heap = {s.train_heap}  # 1 to {MAX_HEAP} sticks",
        "",
        "# Key bindings: binding id = keys separated by commas, e.g. \"quit\" = \"ctrl+q,f10\".",
        "[keys]",
    ]
    lines += [f"{_toml_string(k)} = {_toml_string(v)}" for k, v in s.keys.items()]
    return "\n".join(lines) + "\n"


def _parse(data: bytes) -> dict:
    """The TOML document, or ValueError saying in a few words why it is not one."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("it is not a text file") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"it is not valid TOML: {str(exc)[:80]}") from None
    except RecursionError:
        raise ValueError("it is nested too deeply") from None


def is_settings_file(data: bytes) -> bool:
    """Whether bytes are one of our settings files (for safefile: replaced on save, anything else refused)."""
    try:
        doc = _parse(data)
    except ValueError:
        return False
    if not doc:
        return True  # empty or only comments: nothing to lose
    fmt = doc.get("format")
    return fmt == SETTINGS_FORMAT or (fmt is None and (isinstance(doc.get("version"), int)
                                                       or bool(set(doc) & set(FIELDS))))


# -- reading ----------------------------------------------------------------------------------------------
def _reason(exc: OSError) -> str:
    from sticks_tui.store.safefile import _reason as reason

    return reason(exc)


def load_settings(path: str | os.PathLike | None = None, *, move_aside: bool = True) -> tuple[Settings, list[str]]:
    """Read the settings file: (settings, notices). Never raises for the file or the environment.

    A damaged or foreign file (and one from a newer version) is kept aside, renamed, unless
    move_aside=False (`settings show`), which changes nothing. Each notice is one line.
    """
    notices: list[str] = []
    try:
        target = Path(path) if path is not None else settings_path()
    except Exception as exc:  # platformdirs cannot find a home directory, and the like
        return Settings(), [f"Cannot find a config directory ({exc}); the default settings are in use."]
    try:
        st = os.stat(target)
    except FileNotFoundError:
        if os.path.islink(target):
            notices.append(f"The settings file {target} is a symbolic link to nothing; the defaults are in use.")
        return Settings(), notices
    except OSError as exc:
        return Settings(), [f"Cannot read the settings file {target} ({_reason(exc)}); the defaults are in use."]
    if not stat.S_ISREG(st.st_mode):
        from sticks_tui.store.safefile import kind_of

        return Settings(), [f"The settings file {target} is {kind_of(st.st_mode)}, not a file; it was left as "
                            "it is and the defaults are in use."]

    def set_aside(problem: str, label: str, then: str = "the defaults are in use") -> None:
        if not move_aside:
            notices.append(f"The settings file {target} {problem}; it was left as it is and {then}.")
            return
        try:
            aside = keep_aside(target, label)
        except FileNotFoundError:  # another copy moved it first
            notices.append(f"The settings file {target} {problem}; another sticks-tui kept it aside; {then}.")
        except OSError as exc:
            notices.append(f"The settings file {target} {problem} and could not be kept aside ({_reason(exc)}); "
                           f"it was left as it is and {then}.")
        else:
            notices.append(f"The settings file {target} {problem}; it was kept as {aside.name} and {then}.")

    if st.st_size > MAX_SETTINGS_BYTES:
        set_aside(f"is too big for a settings file ({st.st_size:,} bytes)", "foreign")
        return Settings(), notices
    try:
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(target, flags)
        try:
            data = os.read(fd, MAX_SETTINGS_BYTES + 1)
        finally:
            os.close(fd)
    except OSError as exc:
        return Settings(), [f"Cannot read the settings file {target} ({_reason(exc)}); the defaults are in use."]
    try:
        doc = _parse(data)
    except ValueError as exc:
        set_aside(f"is damaged ({exc})", "damaged")
        return Settings(), notices
    if not doc:
        return Settings(), notices
    fmt = doc.get("format")
    if fmt is not None and fmt != SETTINGS_FORMAT:
        set_aside(f"is not a sticks-tui settings file (format {_shown(fmt)})", "foreign")
        return Settings(), notices
    version = doc.get("version")
    if version is None and fmt is None and not set(doc) & set(FIELDS):
        set_aside("is not a sticks-tui settings file (none of its keys is a setting)", "foreign")
        return Settings(), notices
    if version is not None and (isinstance(version, bool) or not isinstance(version, int) or version < 1):
        set_aside(f"is damaged (its version is {_shown(version)})", "damaged")
        return Settings(), notices
    newer = version is not None and version > SETTINGS_VERSION
    if newer:
        set_aside(f"was written by a newer sticks-tui (settings version {version}; this one knows "
                  f"{SETTINGS_VERSION})", "newer", "the settings this version knows were read from it")

    values: dict[str, object] = {}
    for name in FIELDS:
        if name not in doc:
            continue
        value = doc[name]
        if name == "keys" and isinstance(value, Mapping):
            good = {}
            for k, v in value.items():  # one line for each entry ignored, naming it
                try:
                    bid, keys = check_binding(k, v)
                except InvalidSetting as exc:
                    notices.append(f"Settings {target}: a key binding was ignored: {exc}.")
                else:
                    good[bid] = keys
            values[name] = good
            continue
        try:
            values[name] = _VALIDATORS[name](value)
        except InvalidSetting as exc:
            if name == "keys":
                notices.append(f"Settings {target}: {exc}; every key stays where it is.")
                continue
            default = getattr(Settings(), name)
            shown = list(default) if isinstance(default, tuple) else default
            notices.append(f"Settings {target}: {exc}; using {_shown(shown)}.")
    unknown = sorted(str(k) for k in set(doc) - set(FIELDS) - {"format", "version"})
    if unknown and not newer:  # a newer version's own keys are expected, not worth a line each
        listed = ", ".join(_shown(k) for k in unknown[:3]) + (f" and {len(unknown) - 3} more" if len(unknown) > 3
                                                              else "")
        notices.append(f"Settings {target}: ignored what this version does not know: {listed}.")
    return Settings(**values), notices


# -- writing ----------------------------------------------------------------------------------------------
def save_settings(settings: Settings, path: str | os.PathLike | None = None) -> Path:
    """Write the settings file atomically (0600: it holds names); return its path. StoreError when it cannot.

    A symbolic link to a settings file (a dotfiles repository) is followed and the file it points to
    replaced; anything that is not a settings file is refused, never overwritten.
    """
    from sticks_tui.store.safefile import write_file

    if not isinstance(settings, Settings):
        raise TypeError(f"save_settings takes Settings, not {type(settings).__name__}.")
    try:
        target = Path(path) if path is not None else settings_path()
    except Exception as exc:
        raise StoreError(f"Cannot save the settings: no config directory ({exc}).") from None
    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise StoreError(f"Cannot save the settings to {target}: {_reason(exc)}. They stay in use until you quit.") \
            from None
    if os.path.islink(target) and os.path.exists(target):
        target = Path(os.path.realpath(target))
    try:
        return write_file(target, dump_settings(settings), what="settings file", recognise=is_settings_file,
                          mode=0o600)
    except StoreError as exc:
        raise StoreError(f"{str(exc).removesuffix(' Nothing was changed.')} The settings in use stay until you quit.") \
            from None


def reset_settings(path: str | os.PathLike | None = None) -> Path | None:
    """Back to the defaults: the settings file is kept aside (renamed), never deleted. Returns where, or None
    when there was no file. StoreError when it cannot be moved or is not a file."""
    target = Path(path) if path is not None else settings_path()
    if not os.path.lexists(target):
        return None
    st = os.lstat(target)
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
        from sticks_tui.store.safefile import kind_of

        raise StoreError(f"{target} is {kind_of(st.st_mode)}, not a settings file; it was left as it is.")
    try:
        return keep_aside(target, "old")
    except OSError as exc:
        raise StoreError(f"Cannot reset the settings: {target} could not be kept aside ({_reason(exc)}). "
                         "Nothing was changed.") from None


__all__ = ["DEFAULT_THEME", "ENV_CONFIG_DIR", "FIELDS", "SETTINGS_FILENAME", "SETTINGS_FORMAT", "SETTINGS_VERSION",
           "InvalidSetting", "Settings", "check_binding", "config_dir", "dump_settings", "is_settings_file",
           "keep_aside", "load_settings", "reset_settings", "save_settings", "settings_path"]
