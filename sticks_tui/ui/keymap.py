"""The settings' key map, checked against the app's bindings before Textual is given it.

`[keys]` in settings.toml moves bindings (binding id = "key,key"; store/settings.py checks only that
it is written that way). Here each entry is checked against what Textual and the app know, and an
entry is ignored, with one line naming it, when:

- it names a binding id no screen has;
- one of its keys is not a key name Textual knows ("notakey", "ctrl+zz"): Textual would take the
  entry, drop the binding's old keys and never match the new ones;
- it puts a key on a binding where, on the same screen (the app's own bindings count on every
  screen), that key already does something else: Textual would quietly drop one of the two;
- it leaves `quit` (Ctrl+Q, the one binding that quits from anywhere, a text box included) with no
  key a keyboard has (F13-F24 are on few keyboards), so quitting always stays reachable.

An ignored entry leaves the binding on its own keys; every other entry still applies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from textual.binding import Binding
from textual.keys import KEY_ALIASES, REPLACED_KEYS, Keys, _character_to_key, key_to_character

MODIFIERS = frozenset({"alt", "ctrl", "hyper", "meta", "shift", "super"})
#: Keys without a modifier that Textual names (arrows, F1-F24, enter, ...).
NAMED_KEYS = frozenset(k.value for k in Keys if "+" not in k.value and not k.value.startswith("<")
                       and k.value != "ctrl-at")
#: Keys Textual knows that few keyboards have: a map must not leave quitting on these alone.
RARE_KEYS = frozenset(f"f{n}" for n in range(13, 25))
#: The binding that quits from anywhere (a priority binding: it works in a text box too).
QUIT_ID = "quit"
_ALIAS_OF = {alias: key for key, aliases in KEY_ALIASES.items() for alias in aliases}


def key_name_problem(key: str) -> str | None:
    """Why `key` (one key of a binding, as written) is not a key Textual can report; None when it is."""
    unknown = f'"{key}" is not a key name Textual knows'
    if len(key) == 1:
        return None if key.isprintable() and not key.isspace() else unknown
    *modifiers, base = key.split("+")
    if any(m not in MODIFIERS for m in modifiers) or len(set(modifiers)) != len(modifiers) or not base:
        return f"{unknown} (its modifiers can be {', '.join(sorted(MODIFIERS))})"
    if base in NAMED_KEYS or (len(base) == 1 and base.isprintable() and not base.isspace()):
        return None
    char = key_to_character(REPLACED_KEYS.get(base, base))  # "minus" is Textual's name for hyphen_minus
    if char is not None and len(char) == 1:
        if _character_to_key(char) == base:
            return None  # a character's name as Textual spells it: "question_mark", "plus", "full_stop"
        return f'{unknown} (Textual calls {char!r} "{_character_to_key(char)}")'
    return f'{unknown} (keys are named like "ctrl+q", "f10", "z", "question_mark")'


def canonical_key(key: str) -> str:
    """The key as Textual reports it: a character by its name ("?" -> "question_mark"), modifiers in
    Textual's (alphabetical) order, an alias by its key ("ctrl+i" -> "tab")."""
    if len(key) == 1:
        return _character_to_key(key)
    *modifiers, base = key.split("+")
    base = _character_to_key(base) if len(base) == 1 else base
    key = "+".join([*sorted(modifiers), base])
    return _ALIAS_OF.get(key, key)


def split_keys(keys: str) -> list[str]:
    return [k.strip() for k in keys.split(",") if k.strip()]


@dataclass(frozen=True)
class Scope:
    """Bindings that are live together: the app's own and one screen's ("on every screen" for the app alone)."""

    name: str
    bindings: tuple[Binding, ...]


def scopes_of(app_class, screen_classes: Iterable[type]) -> list[Scope]:
    """The app's bindings alone, then the app's with each screen's (a screen's own bindings include
    those it inherits from Textual's Screen, which have no id and cannot be moved)."""
    app_bindings = tuple(b for bs in app_class._merge_bindings().key_to_bindings.values() for b in bs)
    scopes = [Scope("every screen", app_bindings)]
    for cls in screen_classes:
        own = tuple(b for bs in cls._merge_bindings().key_to_bindings.values() for b in bs)
        words = re.sub(r"(?<!^)(?=[A-Z])", " ", cls.__name__).lower()
        scopes.append(Scope(f"the {words}", app_bindings + own))
    return scopes


def _action(binding: Binding) -> str:
    return binding.action.removeprefix("app.")


def _entry(binding_id: str, keys: str) -> str:
    return f'"{binding_id}" = "{keys}"'


def check_keymap(keymap: Mapping[str, str], scopes: Sequence[Scope]) -> tuple[dict[str, str], list[str]]:
    """(the entries to give Textual, keys as Textual names them; one line for each entry ignored, naming it)."""
    defaults: dict[str, list[str]] = {}
    for scope in scopes:
        for b in scope.bindings:
            if b.id:
                defaults.setdefault(b.id, [])
                for key in split_keys(b.key):
                    if canonical_key(key) not in defaults[b.id]:
                        defaults[b.id].append(canonical_key(key))

    def keeps(binding_id: str) -> str:
        return f"{binding_id} keeps {','.join(defaults[binding_id])}"

    notices: list[str] = []
    accepted: dict[str, list[str]] = {}
    for binding_id, keys in keymap.items():
        if binding_id not in defaults:
            notices.append(f"Key map: {_entry(binding_id, keys)} is ignored: no key binding has the id "
                           f'"{binding_id}" (F1 shows each screen\'s keys).')
            continue
        problems = [p for k in split_keys(keys) if (p := key_name_problem(k))]
        if problems:
            notices.append(f"Key map: {_entry(binding_id, keys)} is ignored: {problems[0]}; {keeps(binding_id)}.")
            continue
        accepted[binding_id] = list(dict.fromkeys(canonical_key(k) for k in split_keys(keys)))

    # Clashes: drop one entry at a time until none is left (an entry dropped brings its binding's old
    # keys back, which can clash in turn; a swap of two keys is no clash).
    while clash := _first_clash(accepted, defaults, scopes):
        dropped, key, other, scope = clash
        notices.append(f"Key map: {_entry(dropped, keymap[dropped])} is ignored: {key} already does "
                       f"{other} on {scope}; {keeps(dropped)}.")
        del accepted[dropped]

    if QUIT_ID in accepted and all(k.rpartition("+")[2] in RARE_KEYS for k in accepted[QUIT_ID]):
        notices.append(f"Key map: {_entry(QUIT_ID, keymap[QUIT_ID])} is ignored: it would leave no key that quits "
                       f"from anywhere (a text box too) on a usual keyboard (F13-F24 are on few); {keeps(QUIT_ID)}.")
        del accepted[QUIT_ID]
        while clash := _first_clash(accepted, defaults, scopes):  # Ctrl+Q is back: nothing else may take it
            dropped, key, other, scope = clash
            notices.append(f"Key map: {_entry(dropped, keymap[dropped])} is ignored: {key} already does "
                           f"{other} on {scope}; {keeps(dropped)}.")
            del accepted[dropped]
    return {bid: ",".join(keys) for bid, keys in accepted.items()}, notices


def _first_clash(accepted: Mapping[str, list[str]], defaults: Mapping[str, list[str]], scopes: Sequence[Scope]):
    """(entry to drop, key, what the key already does, scope) for the first key that two actions share on
    one screen because of the key map; None when there is none. Clashes the app has without a key map
    (a screen's own Escape, Help's q) are by design and not counted."""
    order = list(accepted)
    for scope in scopes:
        on_key: dict[str, list[Binding]] = {}
        for b in scope.bindings:
            keys = accepted[b.id] if b.id in accepted else [canonical_key(k) for k in split_keys(b.key)]
            for key in keys:
                if b not in on_key.setdefault(key, []):
                    on_key[key].append(b)
        for key, bindings in on_key.items():
            if len({_action(b) for b in bindings}) < 2:
                continue
            moved = [b for b in bindings if b.id in accepted and key not in defaults[b.id]]
            if not moved:
                continue
            drop = max(moved, key=lambda b: order.index(b.id))
            other = next(b for b in bindings if _action(b) != _action(drop))
            what = f"{other.id} ({other.description or _action(other)})" if other.id else \
                f"{other.description or _action(other)}"
            return drop.id, key, what, scope.name
    return None
