"""Key maps are checked as they load (ui/keymap.py): a key name Textual does not know, a key that two
actions share on one screen, and a map that leaves no key to quit are each told in one line naming
the entry, and that entry is ignored; the rest of the map applies."""

from __future__ import annotations

import pytest

from sticks_tui.store.settings import load_settings
from sticks_tui.ui.app import SticksApp
from sticks_tui.ui.keymap import canonical_key, check_keymap, key_name_problem, scopes_of

SCOPES = scopes_of(SticksApp, SticksApp.screen_classes())


def check(keymap):
    return check_keymap(keymap, SCOPES)


def only_notice(notices, *parts):
    assert len(notices) == 1 and "\n" not in notices[0], notices
    for part in parts:
        assert part in notices[0], notices[0]
    return notices[0]


def test_a_key_name_textual_does_not_know_is_told_and_the_binding_keeps_its_keys():
    keymap, notices = check({"quit": "notakey,ctrl+zz", "records": "f6"})
    assert keymap == {"records": "f6"}  # the rest of the map applies
    only_notice(notices, 'Key map: "quit" = "notakey,ctrl+zz" is ignored:', '"notakey" is not a key name Textual knows',
                "quit keeps ctrl+q.")
    keymap, notices = check({"game.take1": "1,ctrl+zz"})
    assert keymap == {}
    only_notice(notices, '"game.take1" = "1,ctrl+zz"', '"ctrl+zz" is not a key name', "game.take1 keeps 1.")


@pytest.mark.parametrize(("key", "why"), [("notakey", "keys are named like"), ("ctrl+zz", "keys are named like"),
                                          ("hyper+foo", "keys are named like"), ("cntrl+a", "its modifiers can be"),
                                          ("ctrl+ctrl+a", "its modifiers can be"), ("ctrl+", "its modifiers can be"),
                                          ("hyphen_minus", "Textual calls '-' \"minus\""), ("F5", "keys are named like")])
def test_what_is_not_a_key_name(key, why):
    assert why in key_name_problem(key)


@pytest.mark.parametrize("key", ["ctrl+q", "f10", "f24", "z", "Z", "?", "question_mark", "minus", "plus", "full_stop",
                                 "space", "enter", "escape", "shift+tab", "ctrl+shift+up", "alt+x", "1", "ctrl+f13"])
def test_what_is_a_key_name(key):
    assert key_name_problem(key) is None


def test_every_key_the_app_binds_is_a_key_name():
    keys = {k for scope in SCOPES for b in scope.bindings for k in b.key.split(",")}
    assert {"minus", "plus", "equals_sign", "left_square_bracket", "question_mark", "ctrl+q"} <= keys
    assert [k for k in sorted(keys) if key_name_problem(k)] == []


def test_keys_are_given_to_textual_as_it_names_them():
    assert canonical_key("?") == "question_mark" and canonical_key("shift+ctrl+h") == "ctrl+shift+h"
    assert canonical_key("ctrl+i") == "tab"  # Textual reports Ctrl+I as tab
    assert check({"nim.table": "shift+ctrl+h", "game.take1": "1,z"}) == ({"nim.table": "ctrl+shift+h",
                                                                           "game.take1": "1,z"}, [])


def test_one_key_for_two_actions_on_one_screen_is_told_and_the_moved_entry_ignored():
    keymap, notices = check({"game.take1": "2", "records": "f6"})
    assert keymap == {"records": "f6"}
    only_notice(notices, 'Key map: "game.take1" = "2" is ignored: 2 already does game.take2 (Take 2) on the game screen',
                "game.take1 keeps 1.")


def test_two_entries_on_one_key_the_later_is_ignored():
    keymap, notices = check({"game.take1": "x", "game.take2": "x"})
    assert keymap == {"game.take1": "x"}
    only_notice(notices, '"game.take2" = "x" is ignored: x already does game.take1 (Take)', "game.take2 keeps 2.")


def test_a_key_taken_from_the_app_on_every_screen_is_a_clash():
    keymap, notices = check({"records": "q"})
    assert keymap == {}
    only_notice(notices, '"records" = "q" is ignored: q already does quit.q (Quit) on every screen',
                "records keeps f3,r.")


def test_no_clash_where_there_is_none():
    # a swap, keys on different screens, the same action twice, and the app's own overlaps (Help's q)
    keymap = {"game.take1": "2", "game.take2": "1", "replay.export": "x", "records.reset": "d",
              "quit.q": "ctrl+q", "help.close.q": "q", "train": "f2,t"}
    assert check(keymap) == (keymap, [])


def test_a_map_that_leaves_no_key_to_quit_keeps_ctrl_q():
    keymap, notices = check({"quit": "f24", "quit.q": "f24"})
    assert keymap == {"quit.q": "f24"}
    only_notice(notices, 'Key map: "quit" = "f24" is ignored: it would leave no key that quits from anywhere',
                "quit keeps ctrl+q.")
    # Ctrl+Q back on quit: an entry that took it meanwhile gives way
    keymap, notices = check({"quit": "f20", "help": "ctrl+q"})
    assert keymap == {} and len(notices) == 2
    assert '"help" = "ctrl+q" is ignored: ctrl+q already does quit (Quit) on every screen' in notices[1]
    assert check({"quit": "ctrl+x,f24"}) == ({"quit": "ctrl+x,f24"}, [])  # a usual key is enough


def test_a_binding_id_no_screen_has_is_told_naming_the_entry():
    keymap, notices = check({"no.such.key": "f9", "records": "f6"})
    assert keymap == {"records": "f6"}
    only_notice(notices, 'Key map: "no.such.key" = "f9" is ignored: no key binding has the id "no.such.key"')


def test_keys_that_are_not_a_table_are_told_without_a_python_repr(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text("version = 1\nkeys = 5\n")
    settings, notices = load_settings(path)
    assert dict(settings.keys) == {}
    only_notice(notices, "keys is a table of binding id = keys, not 5; every key stays where it is.")
    assert "mappingproxy" not in notices[0]
