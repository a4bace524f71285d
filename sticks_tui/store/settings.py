"""The settings file (issue 10): what the app remembers between runs besides records and brains.

One TOML file, `settings.toml`, in the config directory: `--config-dir`, else $STICKS_TUI_CONFIG_DIR,
else the platform's user config directory (platformdirs). It is read with the standard library's
`tomllib` and written by `dump_settings` (plain values only, so no TOML writer is needed):

    # sticks-tui settings: ...
    format = "sticks-tui-settings"
    version = 2
    theme = "textual-dark"
    ai_speed = "normal"        # slow | normal | fast | instant
    game = "sticks"            # the game the setup screen opens on (any the registry lists)
    name1 = "Player 1"
    name2 = "Player 2"
    first = "p1"               # who moves first in a game that has no choice of its own: p1 | p2 | alternate | random
    train_games = 100000       # the train dialog's last run: games, pace, protocol
    train_pace = "full"        # ball | 1 | 2 | 5 | 20 | full
    train_protocol = "explore" # explore | classic
    lab_seeds = 20             # the lab's last choices: seeds, and learners as typed
    lab_learners = "hats hats:table=one q mc"
    [games.sticks]             # each game's own choices, in one table keyed by the game:
    start = 20                 #   where its games start (the game's own value: a heap, piles, ...)
    opponent = "learning"      #   its opponent (one the game offers)
    first = "p2"               #   who moves first (so which seat the learning AI's first move is in)
    watch = false              #   watch AI vs AI
    brain = "default"          #   the brain its learning AI plays with (the setup's hats, the analysis's pick)
    train_start = 20           #   the train dialog's start (the setup's, or the last run's if it chose another)
    lab_cap = 1000000          #   the lab's cap for it (games a run may play)
    [games.nim]
    start = [3, 4, 5]
    [keys]                     # binding id = keys, as Textual's App.set_keymap takes them
    "quit" = "ctrl+q,f10"

A version-1 file (one field per game: `heap`, `nim_piles`, `train_heap`, and one `opponent` for every
game) is read into the table and written back as version 2 at the next change; so is an early version-2
file's `hats` (seeds | menace: the first game's brain, now its `brain`).

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
SETTINGS_VERSION = 2
MAX_SETTINGS_BYTES = 64 * 1024

# the vocabulary (sticks_tui.vocabulary) and the games (engine.registry), as the settings file names them
SPEEDS: tuple[str, ...] = tuple(vocabulary.SPEEDS)
GAMES: tuple[str, ...] = registry.names()
OPPONENTS: tuple[str, ...] = vocabulary.every_opponent()
FIRST_CHOICES: tuple[str, ...] = tuple(vocabulary.FIRST_CHOICES)
HATS: tuple[str, ...] = tuple(vocabulary.HAT_BRAINS)  # an early version 2's `hats` (read, moved, never written)
TRAIN_PACES: tuple[str, ...] = ("ball", "1", "2", "5", "20", "full")  # learn.control.PACES, as the dialog names them
TRAIN_PROTOCOLS: tuple[str, ...] = tuple(vocabulary.TRAINING_PROTOCOLS)  # the one list
MAX_TRAIN_GAMES = 10_000_000  # learn.trainer.MAX_GAMES
MAX_LAB_SEEDS = 100  # learn.lab.MAX_SEEDS
MAX_LAB_CAP = 10_000_000  # learn.lab.MAX_CAP
MAX_LAB_LEARNERS = 6  # the lab screen's most learners
DEFAULT_LAB_LEARNERS = "hats hats:table=one q mc"  # learn.lab.DEFAULT_LEARNERS
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


@dataclass(frozen=True)
class GameSettings:
    """One game's own choices, each None where nothing was chosen (the game's default): where its games start
    (the game's own position value), its opponent, who moves first (p1 | p2 | alternate | random: which seat
    the learning AI moves first from), whether the setup watches AI vs AI, the brain its learning AI plays
    with (by name), and the train dialog's start (None: the setup's)."""

    start: object = None
    opponent: str | None = None
    first: str | None = None
    watch: bool | None = None
    brain: str | None = None
    train_start: object = None
    lab_cap: int | None = None

    def as_dict(self) -> dict:
        return {key: getattr(self, key) for key in GAME_FIELDS if getattr(self, key) is not None}


GAME_FIELDS: tuple[str, ...] = ("start", "opponent", "first", "watch", "brain", "train_start", "lab_cap")


def _start(game: str, what: str, value: object):
    """A game's start from its settings value (the JSON form: 20, [3, 4, 5]), checked by the game itself."""
    from sticks_tui.engine.state import GameState

    entry = registry.entry(game)
    try:
        position = entry.parse_start(value)
        rules = entry.make_rules(position)
        state = GameState(rules, position)
    except (ValueError, TypeError) as exc:
        raise InvalidSetting(f"games.{game}.{what}: {str(exc).rstrip('.')}") from None
    if state.is_over:
        raise InvalidSetting(f"games.{game}.{what}: a game cannot start where it is over, not {_shown(value)}")
    return state.position


def _game_settings(game: str, value: object) -> GameSettings:
    if isinstance(value, GameSettings):
        value = {key: getattr(value, key) for key in GAME_FIELDS}
    if not isinstance(value, Mapping):
        raise InvalidSetting(f"games.{game} is a table of {', '.join(GAME_FIELDS[:-1])} and {GAME_FIELDS[-1]}, "
                             f"not {_shown(value)}")
    unknown = sorted(str(k) for k in set(value) - set(GAME_FIELDS))
    if unknown:
        raise InvalidSetting(f"games.{game} has no setting called {unknown[0]!r}")
    entry = registry.entry(game)
    opponent = value.get("opponent")
    if opponent is not None and (not isinstance(opponent, str) or opponent not in entry.opponents):
        raise InvalidSetting(f"games.{game}.opponent is one of {', '.join(entry.opponents)}, not {_shown(opponent)}")
    first = value.get("first")
    if first is not None:
        _choice(f"games.{game}.first", FIRST_CHOICES)(first)
    watch = value.get("watch")
    if watch is not None and not isinstance(watch, bool):
        raise InvalidSetting(f"games.{game}.watch is true or false, not {_shown(watch)}")
    brain = value.get("brain")
    if brain is not None:
        try:
            brain = validate_name(brain, "brain")
        except InvalidName as exc:
            raise InvalidSetting(f"games.{game}.brain: {str(exc).rstrip('.')}") from None
    lab_cap = value.get("lab_cap")
    if lab_cap is not None:
        _whole(f"games.{game}.lab_cap", 1, MAX_LAB_CAP)(lab_cap)
    start, train_start = (None if value.get(key) is None else _start(game, key, value[key])
                          for key in ("start", "train_start"))
    return GameSettings(start=start, opponent=opponent, first=first, watch=watch, brain=brain,
                        train_start=train_start, lab_cap=lab_cap)


def _games(value: object) -> Mapping[str, GameSettings]:
    if not isinstance(value, Mapping):
        raise InvalidSetting(f"games is a table with a table for each game, not {_shown(value)}")
    known = registry.names()
    unknown = sorted(str(k) for k in set(value) - set(known))
    if unknown:
        raise InvalidSetting(f"games: there is no game called {unknown[0]!r} (the games are {', '.join(known)})")
    checked = {game: _game_settings(game, value[game]) for game in known if game in value}
    return types.MappingProxyType({game: options for game, options in checked.items() if options != GameSettings()})


def _learners(value: object) -> str:
    """The lab's learners as typed (the lab itself reads each; one it cannot is said there, as if typed)."""
    words = value.split() if isinstance(value, str) else None
    if not words or len(words) > MAX_LAB_LEARNERS or any(len(w) > 80 or not w.isprintable() for w in words):
        raise InvalidSetting(f"lab_learners is 1 to {MAX_LAB_LEARNERS} learners separated by spaces (like "
                             f"{DEFAULT_LAB_LEARNERS!r}), not {_shown(value)}")
    return " ".join(words)


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
    "name1": _name("name1"),
    "name2": _name("name2"),
    "first": _choice("first", FIRST_CHOICES),
    "train_games": _whole("train_games", 1, MAX_TRAIN_GAMES),
    "train_pace": _choice("train_pace", TRAIN_PACES),
    "train_protocol": _choice("train_protocol", TRAIN_PROTOCOLS),
    "lab_seeds": _whole("lab_seeds", 1, MAX_LAB_SEEDS),
    "lab_learners": _learners,
    "games": _games,
    "keys": _keys,
}


@dataclass(frozen=True)
class Settings:
    """Everything the app remembers between runs. Frozen: change it with `replace`, which checks every value."""

    theme: str = DEFAULT_THEME
    ai_speed: str = "normal"
    game: str = field(default_factory=registry.first_name)
    name1: str = "Player 1"
    name2: str = "Player 2"
    first: str = "p1"  # who moves first in a game without a choice of its own (`first_of`)
    train_games: int = 100_000  # the train dialog's last run
    train_pace: str = "full"
    train_protocol: str = "explore"
    lab_seeds: int = 20  # the lab's last choices (its game and size follow the setup's)
    lab_learners: str = DEFAULT_LAB_LEARNERS
    #: Each game's own choices (game name -> GameSettings); a game not in it has the defaults.
    games: Mapping[str, GameSettings] = field(default_factory=dict)
    keys: Mapping[str, str] = field(default_factory=dict)  # binding id -> "key,key" (App.set_keymap)

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, _VALIDATORS[f.name](getattr(self, f.name)))

    def __hash__(self) -> int:
        return hash(tuple(tuple(getattr(self, f.name).items()) if f.name in ("keys", "games") else getattr(self, f.name)
                          for f in dataclasses.fields(self)))

    def of(self, game: str) -> GameSettings:
        """The game's own choices (each None where nothing was chosen: the game's default)."""
        return self.games.get(game, GameSettings())

    def first_of(self, game: str) -> str:
        """Who moves first in `game`: its own choice, else the one for every game."""
        return self.of(game).first or self.first

    def with_game(self, game: str, **changes: object) -> Settings:
        """A copy with the game's own choices changed (`GAME_FIELDS`; None: back to the game's default);
        InvalidSetting for a bad value or an unknown choice."""
        unknown = sorted(set(changes) - set(GAME_FIELDS))
        if unknown:
            raise InvalidSetting(f"A game has no setting called {unknown[0]!r}.")
        games = {name: options.as_dict() for name, options in self.games.items()}
        games[game] = {key: value for key, value in {**games.get(game, {}), **changes}.items() if value is not None}
        return self.replace(games=games)

    def replace(self, **changes: object) -> Settings:
        """A copy with these fields changed; InvalidSetting (a ValueError) for an unknown field or a bad value."""
        unknown = sorted(set(changes) - set(_VALIDATORS))
        if unknown:
            raise InvalidSetting(f"There is no setting called {unknown[0]!r}.")
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict:
        """Plain values (lists and dicts), as saved."""
        return {"theme": self.theme, "ai_speed": self.ai_speed, "game": self.game, "name1": self.name1,
                "name2": self.name2, "first": self.first, "train_games": self.train_games,
                "train_pace": self.train_pace, "train_protocol": self.train_protocol,
                "lab_seeds": self.lab_seeds, "lab_learners": self.lab_learners,
                "games": {game: {k: _plain(game, v) if k in ("start", "train_start") else v
                                 for k, v in options.as_dict().items()}
                          for game, options in self.games.items()},
                "keys": dict(self.keys)}


def _plain(game: str, position: object) -> object:
    """A game's position in its JSON form (20, [3, 4, 5]), as saved."""
    return registry.entry(game).make_rules(position).encode_position(position)


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


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form here for {value!r}")


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
        f"name1 = {_toml_string(s.name1)}",
        f"name2 = {_toml_string(s.name2)}",
        f"first = {_toml_string(s.first)}  # who moves first in a game without its own: {' | '.join(FIRST_CHOICES)}",
        "",
        "# The train dialog's last run.",
        f"train_games = {s.train_games}  # 1 to {MAX_TRAIN_GAMES // 1_000_000} million",
        f"train_pace = {_toml_string(s.train_pace)}  # {' | '.join(TRAIN_PACES)} (games a second)",
        f"train_protocol = {_toml_string(s.train_protocol)}  # {' | '.join(TRAIN_PROTOCOLS)}",
        "",
        "# The lab's last choices (its game and size follow the setup's; each game's cap is in its table).",
        f"lab_seeds = {s.lab_seeds}  # 1 to {MAX_LAB_SEEDS}",
        f"lab_learners = {_toml_string(s.lab_learners)}",
        "",
        "# Each game's own choices: where its games start (the game's own value), its opponent, who moves",
        "# first, watch AI vs AI, the brain its learning AI plays with, the train dialog's start, the lab's cap.",
    ]
    for game, options in s.as_dict()["games"].items():
        lines.append(f"[games.{game}]")
        lines += [f"{key} = {_toml_value(value)}" for key, value in options.items()]
    lines += [
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
                                                       or bool(set(doc) & {*FIELDS, *_old_keys()})))


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
    if version is None and fmt is None and not set(doc) & {*FIELDS, *_old_keys()}:
        set_aside("is not a sticks-tui settings file (none of its keys is a setting)", "foreign")
        return Settings(), notices
    if version is not None and (isinstance(version, bool) or not isinstance(version, int) or version < 1):
        set_aside(f"is damaged (its version is {_shown(version)})", "damaged")
        return Settings(), notices
    newer = version is not None and version > SETTINGS_VERSION
    if newer:
        set_aside(f"was written by a newer sticks-tui (settings version {version}; this one knows "
                  f"{SETTINGS_VERSION})", "newer", "the settings this version knows were read from it")

    doc = _migrated(doc, notices, target)
    values: dict[str, object] = {}
    for name in FIELDS:
        if name not in doc:
            continue
        value = doc[name]
        if name == "games" and isinstance(value, Mapping):
            values[name] = _load_games(value, notices, target)
            continue
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
    unknown = sorted(str(k) for k in set(doc) - set(FIELDS) - {"format", "version", *_old_keys()})
    if unknown and not newer:  # a newer version's own keys are expected, not worth a line each
        listed = ", ".join(_shown(k) for k in unknown[:3]) + (f" and {len(unknown) - 3} more" if len(unknown) > 3
                                                              else "")
        notices.append(f"Settings {target}: ignored what this version does not know: {listed}.")
    return Settings(**values), notices


#: Version 1 kept each game's start in a field of its own (each game's entry says which: `GameEntry.v1_settings`),
#: one opponent for every game, and an early version 2 the first game's `hats`. Read into the table; never
#: written again.
_OLD_SHARED_KEYS = ("opponent", "hats")


def _old_fields() -> list[tuple[str, str, str]]:
    """(old key, the game it belonged to, its place in the game's table) of every version-1 field of a game."""
    return [(key, game.name, place) for game in registry.entries() for key, place in game.v1_settings.items()]


def _old_keys() -> set[str]:
    return {key for key, _, _ in _old_fields()} | set(_OLD_SHARED_KEYS)


def _migrated(doc: dict, notices: list[str], target) -> dict:
    """A version-1 document's per-game fields moved into its `games` table (a value this version does not
    take is left out, with a notice, as any bad value is)."""
    fields = _old_fields()
    old_keys = {key for key, _, _ in fields} | set(_OLD_SHARED_KEYS)
    if not old_keys & set(doc):
        return doc
    doc = dict(doc)
    games = {game: dict(options) for game, options in doc.get("games", {}).items()} \
        if isinstance(doc.get("games"), Mapping) else {}
    # in the file's own order (the order version 1 wrote them in: heap, nim_piles, ..., train_heap)
    moved = [(key, game, place) for key in doc for old, game, place in fields if old == key]
    chosen = doc.get("game") if doc.get("game") in registry.names() else registry.first_name()
    if "opponent" in doc:
        moved.append(("opponent", chosen, "opponent"))
    if "hats" in doc:  # an early version 2: the first game's hats, seeds | menace, are its brain by name
        hats = doc.pop("hats")
        if isinstance(hats, str) and hats in HATS:
            doc["hats"] = vocabulary.HAT_BRAINS[hats]
            moved.append(("hats", registry.first_name(), "brain"))
        else:
            notices.append(f"Settings {target}: hats is one of {', '.join(HATS)}, not {_shown(hats)}; using the "
                           "game's default.")
    for key, game, place in moved:
        value = doc.pop(key)
        try:
            _game_settings(game, {place: value})
        except InvalidSetting as exc:
            notices.append(f"Settings {target}: {key}: {str(exc).split(': ', 1)[-1]}; using the game's default.")
            continue
        games.setdefault(game, {}).setdefault(place, value)
    for key in old_keys:
        doc.pop(key, None)
    doc["games"] = games
    return doc


def _load_games(value: Mapping, notices: list[str], target) -> Mapping[str, GameSettings]:
    """The games table as far as it is good: a bad value is left out with a notice naming it."""
    good = {}
    for game, options in value.items():
        if game not in registry.names():
            notices.append(f"Settings {target}: games: there is no game called {_shown(game)}; its table was ignored.")
            continue
        if not isinstance(options, Mapping):
            notices.append(f"Settings {target}: games.{game} is not a table; the game's defaults are in use.")
            continue
        kept = {}
        for key, item in options.items():
            try:
                _game_settings(game, {key: item})
            except InvalidSetting as exc:
                notices.append(f"Settings {target}: {exc}; using the game's default.")
            else:
                kept[key] = item
        good[game] = kept
    return _games(good)


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
           "GameSettings", "InvalidSetting", "Settings", "check_binding", "config_dir", "dump_settings", "is_settings_file",
           "keep_aside", "load_settings", "reset_settings", "save_settings", "settings_path"]
