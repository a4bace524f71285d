"""The settings file (issue 10 item 2): defaults, round trip, damaged/foreign/newer files kept aside, bad values."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from sticks_tui.store import StoreError
from sticks_tui.store import safefile
from sticks_tui.store import settings as settings_mod
from sticks_tui.store.settings import (
    ENV_CONFIG_DIR,
    FIELDS,
    SETTINGS_VERSION,
    InvalidSetting,
    Settings,
    dump_settings,
    load_settings,
    reset_settings,
    save_settings,
    settings_path,
    GameSettings,
)

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"


@pytest.fixture
def path(tmp_path):
    return tmp_path / "cfg" / "settings.toml"


def siblings(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


def test_defaults():
    s = Settings()
    assert (s.theme, s.ai_speed, s.game, s.name1, s.name2, s.first) == \
        ("textual-dark", "normal", "sticks", "Player 1", "Player 2", "p1")
    assert (s.train_games, s.train_pace, s.train_protocol) == (100_000, "full", "explore")
    assert (s.lab_seeds, s.lab_learners) == (20, "hats hats:table=one q mc")
    assert dict(s.keys) == {} and dict(s.games) == {}  # no game's own choice yet: each game's defaults
    assert s.of("nim") == GameSettings() == GameSettings(start=None, opponent=None, first=None, watch=None, brain=None,
                                                         train_start=None, lab_cap=None)
    assert s.first_of("nim") == "p1" and s.replace(first="p2").with_game("nim", first="random").first_of("nim") == "random"
    assert FIELDS == ("theme", "ai_speed", "game", "name1", "name2", "first", "train_games", "train_pace",
                      "train_protocol", "lab_seeds", "lab_learners", "games", "keys")


def test_a_missing_file_gives_the_defaults_and_writes_nothing(path):
    assert load_settings(path) == (Settings(), [])
    assert not path.parent.exists()


def test_save_then_load_gives_back_every_field(path):
    s = Settings().replace(theme="nord", ai_speed="fast", game="nim", name1='Zoë "the" \\ Ann', name2="Bob",
                           first="alternate", train_games=1234, train_pace="ball",
                           train_protocol="classic", keys={"quit": " ctrl+q , f10", "app.train": "f2"},
                           lab_seeds=5, lab_learners="hats  q:alpha=0.5")
    s = s.with_game("sticks", start=37, train_start=12).with_game("nim", start=(7, 1, 100), opponent="perfect")
    s = s.with_game("noughts", opponent="random", first="p2", watch=True, brain="noughts MENACE")
    s = s.with_game("sticks", brain="menace", watch=False, lab_cap=500)
    assert save_settings(s, path) == path
    loaded, notices = load_settings(path)
    assert notices == [] and loaded == s
    assert loaded.keys == {"app.train": "f2", "quit": "ctrl+q,f10"}
    doc = tomllib.loads(path.read_text(encoding="utf-8"))  # a plain TOML file anyone can read
    assert doc["version"] == SETTINGS_VERSION and doc["format"] == "sticks-tui-settings"
    assert doc["lab_learners"] == "hats q:alpha=0.5"
    assert doc["games"] == {"sticks": {"start": 37, "train_start": 12, "brain": "menace", "watch": False,
                                       "lab_cap": 500},
                            "nim": {"start": [7, 1, 100], "opponent": "perfect"},
                            "noughts": {"opponent": "random", "first": "p2", "watch": True, "brain": "noughts MENACE"}}
    assert doc["name1"] == 'Zoë "the" \\ Ann'
    assert doc["keys"] == {"quit": "ctrl+q,f10", "app.train": "f2"}
    assert path.stat().st_mode & 0o777 == 0o600  # it holds pupils' names
    assert siblings(path) == ["settings.toml"]


@given(st.text(min_size=1, max_size=40).filter(lambda t: t.strip() and all(c.isprintable() for c in t)))
@hsettings(max_examples=60, deadline=None)
def test_any_valid_name_survives_the_file(name):
    s = Settings(name1=name)
    assert tomllib.loads(dump_settings(s))["name1"] == s.name1


def test_replace_checks_values_and_keeps_the_original():
    s = Settings()
    for bad in ({"train_games": 0}, {"train_games": True}, {"ai_speed": "warp"}, {"game": "chess"},
                {"games": {"nim": {"start": (1, 2, "x")}}}, {"games": {"nim": {"start": (0, 0, 0)}}},
                {"games": {"chess": {}}}, {"games": {"nim": {"opponent": "dumb"}}}, {"games": {"nim": {"colour": 1}}},
                {"games": {"nim": {"first": "p3"}}}, {"games": {"nim": {"watch": 1}}}, {"games": {"nim": {"brain": ""}}},
                {"games": {"nim": {"brain": 7}}}, {"hats": "menace"}, {"games": {"nim": {"lab_cap": 0}}},
                {"lab_seeds": 101}, {"lab_learners": ""}, {"lab_learners": "a b c d e f g"},
                {"heap": 20}, {"opponent": "learning"}, {"name1": ""},
                {"name2": "x" * 41}, {"first": "p3"}, {"theme": "bad theme"}, {"keys": {"q": 5}},
                {"keys": {"bad id": "q"}}, {"keys": "quit=q"}, {"colour": "red"}):
        with pytest.raises(InvalidSetting):
            s.replace(**bad)
    assert s == Settings()
    with pytest.raises(Exception):
        s.name1 = "Ann"  # frozen
    with pytest.raises(TypeError):
        s.keys["quit"] = "q"  # the key map is read-only too
    with pytest.raises(TypeError):
        s.games["nim"] = GameSettings()  # the games' table too
    with pytest.raises(InvalidSetting):
        s.with_game("nim", opponent="dumb")  # a choice the game does not offer
    assert s.with_game("sticks", start=30).of("sticks").start == 30 and s.of("sticks").start is None
    assert hash(s.replace(keys={"a": "b"})) == hash(Settings(keys={"a": "b"}))


@pytest.mark.parametrize("content, label, words", [
    (b'heap = 20\nname1 = "Ann\n', "damaged", "is damaged (it is not valid TOML"),
    (b"\xff\xfe\x00garbage", "damaged", "is damaged (it is not a text file)"),
    (PNG, "damaged", "is damaged (it is not a text file)"),
    (b'[1, 2, 3]\n', "damaged", "is damaged (it is not valid TOML"),  # a JSON array
    (b'{"heap": 30}\n', "damaged", "is damaged (it is not valid TOML"),  # JSON is not our format
    (b'[tool.black]\nline-length = 100\n', "foreign", "is not a sticks-tui settings file"),
    (b'format = "posting"\nheap = 30\n', "foreign", "is not a sticks-tui settings file (format 'posting')"),
    (b'version = "one"\nheap = 30\n', "damaged", "its version is 'one'"),
    (b"x" * 70_000, "foreign", "too big"),
])
def test_a_bad_file_is_kept_aside_in_one_line_and_the_defaults_used(path, content, label, words):
    path.parent.mkdir()
    path.write_bytes(content)
    s, notices = load_settings(path)
    assert s == Settings()
    assert len(notices) == 1 and "\n" not in notices[0] and words in notices[0], notices
    assert "defaults are in use" in notices[0]
    kept = [n for n in siblings(path) if n.startswith(f"settings.toml.{label}-")]
    assert len(kept) == 1 and kept[0] in notices[0] and not path.exists()
    assert (path.parent / kept[0]).read_bytes() == content  # kept, never deleted or changed
    # the next save makes a good file, and the kept one stays
    save_settings(s.replace(train_games=33), path)
    assert load_settings(path) == (Settings(train_games=33), [])
    assert (path.parent / kept[0]).read_bytes() == content


def test_show_mode_changes_nothing(path):
    path.parent.mkdir()
    path.write_bytes(PNG)
    s, notices = load_settings(path, move_aside=False)
    assert s == Settings() and "left as it is" in notices[0]
    assert siblings(path) == ["settings.toml"] and path.read_bytes() == PNG


def test_a_newer_version_is_kept_aside_and_what_we_know_is_read(path):
    path.parent.mkdir()
    text = 'format = "sticks-tui-settings"\nversion = 7\ntrain_games = 40\nhologram = true\n'
    path.write_text(text)
    s, notices = load_settings(path)
    assert s.train_games == 40
    assert len(notices) == 1 and "newer sticks-tui (settings version 7" in notices[0]  # one line, no more
    kept = [n for n in siblings(path) if n.startswith("settings.toml.newer-")]
    assert len(kept) == 1 and (path.parent / kept[0]).read_text() == text


def test_unknown_keys_and_out_of_range_values_fall_back_field_by_field(path):
    path.parent.mkdir()
    path.write_text('version = 2\ntrain_games = 0\nai_speed = "warp"\nname1 = "Ann"\n'
                    'colour = "red"\nsound = 3\n[games.nim]\nstart = [1, 2]\nopponent = "random"\n'
                    '[keys]\n"quit" = "f10"\n"bad id" = "q"\n"train" = 5\n')
    s, notices = load_settings(path)
    assert s == Settings(name1="Ann", keys={"quit": "f10"}, games={"nim": {"opponent": "random"}})
    joined = "\n".join(notices)
    assert "train_games is a whole number from 1 to 10000000, not 0; using 100000" in joined
    assert "ai_speed is one of slow, normal, fast, instant, not 'warp'; using 'normal'" in joined
    assert "games.nim.start" in joined and "using the game's default" in joined
    assert "'colour', 'sound'" in joined
    ignored = [n for n in notices if "key binding was ignored" in n]  # one line for each, naming it
    assert len(ignored) == 2 and "'bad id'" in ignored[0] and "'train'" in ignored[1], ignored
    assert all("\n" not in n for n in notices)
    assert siblings(path) == ["settings.toml"]  # a readable file with some bad values is not moved


def test_a_hand_written_file_without_version_is_read(path):
    path.parent.mkdir()
    path.write_text('theme = "nord"\n')
    assert load_settings(path) == (Settings(theme="nord"), [])
    path.write_text("# nothing yet\n")
    assert load_settings(path) == (Settings(), [])


def test_a_folder_or_fifo_at_the_path_is_left_alone(path):
    path.mkdir(parents=True)
    s, notices = load_settings(path)
    assert s == Settings() and "is a folder" in notices[0] and path.is_dir()
    with pytest.raises(StoreError, match="is a folder"):
        save_settings(s, path)
    fifo = path.parent / "fifo.toml"
    os.mkfifo(fifo)
    s, notices = load_settings(fifo)  # must not hang
    assert "pipe" in notices[0] and fifo.is_fifo()


def test_save_refuses_to_overwrite_a_foreign_file(path):
    path.parent.mkdir()
    path.write_text("my notes\n")
    with pytest.raises(StoreError, match="not an earlier settings file"):
        save_settings(Settings(), path)
    assert path.read_text() == "my notes\n"


def test_save_through_a_symlink_replaces_the_file_it_points_to(path, tmp_path):
    real = tmp_path / "dotfiles" / "sticks.toml"
    real.parent.mkdir()
    save_settings(Settings(train_games=11), real)
    path.parent.mkdir()
    path.symlink_to(real)
    save_settings(Settings(train_games=12), path)
    assert path.is_symlink() and load_settings(real)[0].train_games == 12


def test_a_read_only_config_dir_says_so_and_the_app_goes_on(path, monkeypatch):
    path.parent.mkdir()

    def refuse(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(safefile.os, "open", refuse)  # as on a read-only disk (root ignores chmod)
    with pytest.raises(StoreError) as caught:
        save_settings(Settings(train_games=30), path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message and "read-only" in message
    assert "stay until you quit" in message
    monkeypatch.undo()
    assert load_settings(path) == (Settings(), []) and siblings(path) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_a_read_only_config_dir_by_permissions(path):
    path.parent.mkdir()
    path.parent.chmod(0o500)
    try:
        with pytest.raises(StoreError, match="permission denied"):
            save_settings(Settings(train_games=30), path)
        assert load_settings(path) == (Settings(), [])
    finally:
        path.parent.chmod(0o700)


def test_a_config_dir_that_cannot_be_made(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="Cannot save the settings"):
        save_settings(Settings(), blocker / "cfg" / "settings.toml")
    assert load_settings(blocker / "cfg" / "settings.toml")[0] == Settings()


def test_reset_keeps_the_old_file_aside(path):
    assert reset_settings(path) is None
    save_settings(Settings(train_games=50), path)
    aside = reset_settings(path)
    assert aside.name.startswith("settings.toml.old-") and not path.exists()
    assert load_settings(aside)[0].train_games == 50
    assert load_settings(path) == (Settings(), [])


def test_where_the_file_lives(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV_CONFIG_DIR, raising=False)
    assert settings_path(tmp_path) == tmp_path / "settings.toml"
    monkeypatch.setenv(ENV_CONFIG_DIR, str(tmp_path / "env"))
    assert settings_path() == tmp_path / "env" / "settings.toml"
    assert settings_path(tmp_path / "arg") == tmp_path / "arg" / "settings.toml"  # the argument wins
    monkeypatch.delenv(ENV_CONFIG_DIR)
    import platformdirs

    assert settings_path() == Path(platformdirs.user_config_dir("sticks-tui", appauthor=False)) / "settings.toml"


def test_the_allowed_values_match_the_app():
    from sticks_tui.ui.session import FIRST_CHOICES, SPEEDS, MatchSetup

    assert set(settings_mod.SPEEDS) == set(SPEEDS)
    assert set(settings_mod.FIRST_CHOICES) == set(FIRST_CHOICES)
    from sticks_tui.learn import lab

    assert (settings_mod.MAX_LAB_SEEDS, settings_mod.MAX_LAB_CAP, Settings().lab_seeds) == \
        (lab.MAX_SEEDS, lab.MAX_CAP, lab.DEFAULT_SEEDS)
    assert Settings().lab_learners == " ".join(lab.DEFAULT_LEARNERS)
    m, s = MatchSetup(), Settings()
    assert (m.game, m.name1, m.name2, m.first, m.speed) == (s.game, s.name1, s.name2, s.first, s.ai_speed)


def test_a_version_1_file_is_read_into_the_games_table_and_saved_as_version_2(path):
    """Version 1 kept a field per game (heap, nim_piles, train_heap) and one opponent for every game: they are
    read into each game's own table (the opponent for the game chosen), and the next save writes version 2."""
    path.parent.mkdir()
    path.write_text('version = 1\ngame = "nim"\nheap = 33\nnim_piles = [3, 4, 6]\nopponent = "random"\n'
                    'train_heap = 12\nname1 = "Ann"\n')
    s, notices = load_settings(path)
    assert notices == []
    assert (s.game, s.name1, s.of("sticks"), s.of("nim")) == (
        "nim", "Ann", GameSettings(start=33, train_start=12), GameSettings(start=(3, 4, 6), opponent="random"))
    save_settings(s, path)
    doc = tomllib.loads(path.read_text())
    assert doc["version"] == 2 and not {"heap", "nim_piles", "opponent", "train_heap"} & set(doc)
    assert load_settings(path) == (s, [])
    # an old value the game would not take is left out, said in a line, the rest read
    path.write_text('version = 1\ngame = "nim"\nheap = 33\nopponent = "dumb"\n')
    s, notices = load_settings(path)
    assert s.of("sticks").start == 33 and s.of("nim").opponent is None
    assert len(notices) == 1 and "opponent" in notices[0] and "using the game's default" in notices[0]


def test_the_version_1_fields_are_the_games_own_words(path):
    """Each game's entry says the version-1 keys it owned (`GameEntry.v1_settings`): the migration reads them from
    the registry, names no game, and says a bad old value in a line each, in the file's order."""
    import dataclasses

    from sticks_tui.engine import registry

    path.parent.mkdir()
    path.write_text('version = 1\nheap = "twenty"\nnim_piles = [3, 4]\ntrain_heap = 0\nname1 = "Ann"\n')
    s, notices = load_settings(path)
    assert (s.name1, s.of("sticks"), s.of("nim")) == ("Ann", GameSettings(), GameSettings())
    assert [n.split(": ")[1] for n in notices] == ["heap", "nim_piles", "train_heap"], notices
    sticks = registry.entry("sticks")
    registry.register(dataclasses.replace(sticks, v1_settings={"heap": "train_start", "old_heap": "start"}))
    try:
        path.write_text('version = 1\nheap = 33\nold_heap = 40\ntrain_heap = 12\n')
        s, notices = load_settings(path)
        assert s.of("sticks") == GameSettings(start=40, train_start=33)
        assert len(notices) == 1 and "train_heap" in notices[0]  # no game's key now: unknown
    finally:
        registry.register(sticks)


def test_an_early_version_2_files_hats_become_the_first_games_brain(path):
    """`hats` (seeds | menace) was the sticks AI's brain for every start: it is read as sticks' own `brain`
    (by the brain's name) and never written again; a bad one is said in a line, the rest read."""
    path.parent.mkdir()
    path.write_text('version = 2\nhats = "menace"\nfirst = "p2"\n[games.sticks]\nstart = 30\n')
    s, notices = load_settings(path)
    assert notices == [] and s.of("sticks") == GameSettings(start=30, brain="menace") and s.first_of("sticks") == "p2"
    save_settings(s, path)
    assert "hats" not in tomllib.loads(path.read_text()) and load_settings(path) == (s, [])
    path.write_text('version = 2\nhats = "lots"\n[games.noughts]\nbrain = ""\nwatch = "yes"\nfirst = "X"\n'
                    '[games.sticks]\nbrain = "x"\n')
    s, notices = load_settings(path)
    assert s.of("sticks") == GameSettings(brain="x") and s.of("noughts") == GameSettings()
    assert len(notices) == 4 and all("\n" not in n for n in notices), notices
    assert ["hats" in notices[0], "games.noughts.brain" in notices[1], "games.noughts.watch" in notices[2],
            "games.noughts.first" in notices[3]] == [True] * 4, notices


#: A copy of the app saving its settings 25 times, from the moment it reads a line on stdin (each writer imports
#: first, so the three really write at once: Python's start-up, about 0.4 CPU s, used to spread them out).
WRITER = """
import sys
from sticks_tui.store.settings import Settings, save_settings
path, games = sys.argv[1], int(sys.argv[2])
settings = Settings(train_games=games, name1="N" * 40, keys={f"k{j}": "ctrl+q,f10" for j in range(400)})
sys.stdin.readline()
for i in range(25):
    save_settings(settings, path)
"""


def test_several_copies_saving_at_once_never_tear_the_file(path):
    save_settings(Settings(train_games=44, name1="N" * 40, keys={f"k{j}": "ctrl+q,f10" for j in range(400)}), path)
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(h)], stdin=subprocess.PIPE, text=True)
               for h in (11, 22, 33)]
    for w in writers:  # all three start saving together
        w.stdin.write("go\n")
        w.stdin.flush()
    while any(w.poll() is None for w in writers):
        s, notices = load_settings(path, move_aside=False)
        # never a torn, half-written or empty file: always one writer's whole settings
        assert notices == [] and s.train_games in (11, 22, 33, 44) and len(s.keys) == 400, notices
    for w in writers:
        w.stdin.close()
    assert all(w.wait() == 0 for w in writers)
    final, notices = load_settings(path)
    assert notices == [] and final.train_games in (11, 22, 33)
    assert siblings(path) == ["settings.toml"]  # no temporary files left, nothing kept aside


@given(st.binary(max_size=300) | st.text(max_size=300).map(lambda t: t.encode("utf-8")))
@hsettings(max_examples=80, deadline=None)
def test_any_bytes_give_settings_and_one_line_notices_never_an_exception(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "settings.toml"
    path.write_bytes(data)
    s, notices = load_settings(path)
    assert isinstance(s, Settings) and all(isinstance(n, str) and "\n" not in n for n in notices)
    kept = [p for p in path.parent.iterdir() if p.name != "settings.toml"]
    assert all(p.read_bytes() == data for p in kept)  # whatever was moved aside is whole
    # a file is either left where it was or kept aside (and said so), never deleted, never both
    aside = any("it was kept as" in n for n in notices)
    assert len(kept) == (1 if aside else 0)
    assert path.exists() is not aside


@given(st.dictionaries(st.sampled_from(FIELDS + ("format", "version", "other")),
                       st.one_of(st.integers(-10**20, 10**20), st.text(max_size=50), st.booleans(),
                                 st.lists(st.integers(-5, 200), max_size=4),
                                 st.dictionaries(st.text(max_size=10), st.text(max_size=10), max_size=3))))
@hsettings(max_examples=80, deadline=None)
def test_any_toml_document_gives_valid_settings(tmp_path_factory, doc):
    path = tmp_path_factory.mktemp("fuzz") / "settings.toml"
    lines = []
    tables = []
    for key, value in doc.items():
        if isinstance(value, dict):
            tables.append(f"[{key}]\n" + "".join(f"{json.dumps(k)} = {json.dumps(v)}\n" for k, v in value.items()))
        else:
            lines.append(f"{key} = {json.dumps(value).lower() if isinstance(value, bool) else json.dumps(value)}\n")
    path.write_text("".join(lines) + "".join(tables))
    s, notices = load_settings(path)
    assert s == Settings(**{f: getattr(s, f) for f in FIELDS})  # every field passed its own check
    assert all("\n" not in n for n in notices)
