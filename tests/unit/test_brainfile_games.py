"""Every brain export restores: a brain file names its game and its layout, `brain import` of
anything `brain export` wrote gives back the same brain, for sticks and for Nim, and a file of
one game is refused for another with the reason."""

from __future__ import annotations

import itertools
import json
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sticks_tui.cli import main
from sticks_tui.engine.nim import MAX_NIM_PILE, NimRules
from sticks_tui.engine.rules import MAX_HATS, MAX_TAKE_LIMIT
from sticks_tui.learn.hats import FLOOR_RULES, MAX_COUNT, HatRule, Hats
from sticks_tui.learn.trainer import TrainingConfig, train
from sticks_tui.store import Store, StoreError
from sticks_tui.store import brainfile


def nim_brain(box=(7, 7, 7), rule=None, counts=None):
    """A Nim learner's brain: the counts learner over piles up to `box` (the store knows no game's brain)."""
    from sticks_tui.engine.nim import NimRules
    from sticks_tui.learn.hats import Hats

    return Hats(NimRules(tuple(box)), rule=rule, counts=counts)


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def nim_trained() -> Hats:
    """The app's Nim brain (piles up to 7, 7, 7) after some self-play: hats far from fresh."""
    brain = nim_brain((7, 7, 7))
    train(TrainingConfig(game=NimRules((7, 7, 7)), games=20_000, seed=11), brain=brain)
    return brain


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.delenv("STICKS_TUI_DATA_DIR", raising=False)
    return tmp_path / "data"


def stored(data, name):
    with Store.open(data) as store:
        return store.load_brain(name), store.brain_info(name)


# -- the commands ------------------------------------------------------------------------
def test_the_nim_brain_exported_by_the_command_line_imports_again_the_same(data, tmp_path, capsys, nim_trained):
    with Store.open(data) as store:
        store.save_brain("nim-7x7x7", nim_trained, 20_000)
    path = tmp_path / "nim.json"
    code, out, err = cli(capsys, "--data-dir", str(data), "brain", "export", "nim-7x7x7", str(path))
    assert (code, err) == (0, "") and "Exported brain 'nim-7x7x7'" in out
    doc = json.loads(path.read_text())
    assert doc["game"] == "nim" and doc["box"] == [7, 7, 7] and doc["version"] == 2
    assert "size" not in doc and "max_take" not in doc  # a Nim file is laid out by its box alone
    assert len(doc["hats"]) == 511 and doc["hats"][0] == list(nim_trained.hat((0, 0, 1)))

    code, out, err = cli(capsys, "--data-dir", str(data), "brain", "import", str(path), "restored")
    assert (code, err) == (0, "") and "as brain 'restored'" in out
    brain, info = stored(data, "restored")
    assert brain == nim_trained and info.game == "nim" and info.games_trained == 20_000
    # and into a fresh database, under the file's own name
    code, _, err = cli(capsys, "--data-dir", str(tmp_path / "elsewhere"), "brain", "import", str(path))
    assert (code, err) == (0, "")
    assert stored(tmp_path / "elsewhere", "nim-7x7x7")[0] == nim_trained


def test_a_sticks_file_says_its_game_and_stays_version_1(data, tmp_path, capsys):
    with Store.open(data) as store:
        store.save_brain("default", Hats(12), 3)
    path = tmp_path / "sticks.json"
    assert cli(capsys, "--data-dir", str(data), "brain", "export", "default", str(path))[0] == 0
    doc = json.loads(path.read_text())
    assert (doc["game"], doc["version"], doc["size"], doc["max_take"]) == ("sticks", 1, 12, 3)
    assert "box" not in doc


# -- the property: every export restores ---------------------------------------------------------
rules = st.builds(HatRule, start_balls=st.integers(1, 1000), win_reward=st.integers(0, 1000),
                  loss_penalty=st.integers(0, 1000), floor=st.sampled_from(FLOOR_RULES))


@st.composite
def brains(draw) -> Hats:
    """A sticks brain (any size and max take a file holds) or a Nim brain (any box a file holds),
    with any rule and any counts that rule allows (drawn from a seeded generator: a 1,000-hat brain
    is one example, not 3,000 draws)."""
    rule = draw(rules)
    if draw(st.booleans()):
        size = draw(st.one_of(st.integers(1, 60), st.just(MAX_HATS)))
        brain = Hats(size, draw(st.integers(1, MAX_TAKE_LIMIT)), rule)
    else:
        box = draw(st.tuples(*[st.integers(0, 5)] * 3).filter(any))
        brain = nim_brain(box, rule)
    rng = np.random.default_rng(draw(st.integers(0, 2**32)))
    lowest = 1 if rule.floor == "each" else 0
    top = draw(st.sampled_from([lowest + 1, 60, MAX_COUNT]))
    legal = np.arange(brain.counts.shape[1])[None, :] < brain.n_moves[:, None]
    brain.counts[:] = np.where(legal, rng.integers(lowest, top, size=brain.counts.shape, endpoint=True), 0)
    for i in np.flatnonzero(legal.any(axis=1) & (brain.counts.sum(axis=1) == 0)):
        brain.counts[i, rng.integers(brain.n_moves[i])] = 1  # 'nonempty': a hat keeps one ball
    return brain


@pytest.fixture(scope="module")
def one_store(tmp_path_factory):
    """One store for every example below (opening a fresh one cost more than the round trip): each example keeps,
    exports and restores under names of its own."""
    folder = tmp_path_factory.mktemp("round-trips")
    with Store.open(folder / "data") as store:
        yield store, folder, itertools.count()


@settings(max_examples=60, deadline=None)
@given(brain=brains(), games_trained=st.integers(0, brainfile.MAX_GAMES_TRAINED))
def test_import_of_any_export_gives_back_the_same_brain(one_store, brain, games_trained):
    store, folder, numbers = one_store
    n = next(numbers)
    store.save_brain(f"kept {n}", brain, games_trained)
    store.export_brain(f"kept {n}", folder / f"kept {n}.json")
    assert store.import_brain(folder / f"kept {n}.json", f"restored {n}") == f"restored {n}"
    assert store.load_brain(f"restored {n}") == brain
    info = store.brain_info(f"restored {n}")
    assert info.games_trained == games_trained and info.game == brainfile.game_of(brain)


def test_the_largest_nim_box_a_file_holds_restores(tmp_path):
    brain = nim_brain((MAX_NIM_PILE,) * 3, HatRule(floor="nonempty"))
    brain.counts[brain.counts > 0] = MAX_COUNT  # the widest counts: the file must still fit its size cap
    with Store.open(tmp_path / "data") as store:
        store.save_brain("big", brain, 5)
        store.export_brain("big", tmp_path / "big.json")
        store.import_brain(tmp_path / "big.json", "again")
        assert store.load_brain("again") == brain


def test_a_brain_no_file_can_hold_is_not_exported_and_nothing_is_written(data, tmp_path, capsys):
    # the store keeps them, but a brain file could not give them back: say so rather than "Exported"
    with Store.open(data) as store:
        store.save_brain("wide", Hats(12, MAX_TAKE_LIMIT + 1), 1)
        store.save_brain("huge box", nim_brain((MAX_NIM_PILE + 1, 0, 0)), 1)
    for name, why in (("wide", '"max_take" must be a whole number from 1 to 10, not 11'),
                      ("huge box", '"box" must be the three largest piles')):
        path = tmp_path / f"{name}.json"
        code, out, err = cli(capsys, "--data-dir", str(data), "brain", "export", name, str(path))
        assert code == 1 and out == "" and not path.exists()
        assert f"The brain {name!r} cannot be written to a brain file that imports again: {why}" in err


# -- one game's file is refused for another, with the reason ------------------------------------------
def sticks_doc(**change) -> dict:
    doc = json.loads(brainfile.encode("shared", Hats(6), 4, "now"))
    doc.update(change)
    return doc


def nim_doc(**change) -> dict:
    doc = json.loads(brainfile.encode("nimble", nim_brain((2, 1, 1)), 4, "now"))
    doc.update(change)
    return doc


REFUSED = {
    "a sticks file that says game nim": (sticks_doc(game="nim"),
                                         'it says "game": "nim", but it is laid out as a sticks brain '
                                         '("size" and "max_take"), it has no "box"'),
    "a Nim file that says game sticks": (nim_doc(game="sticks"),
                                         'it says "game": "sticks" but has a "box", which only a Nim brain has'),
    "a Nim file with a sticks layout as well": (nim_doc(size=20, max_take=3), "but also has 'size'"),
    "a Nim file without its game": ({k: v for k, v in nim_doc().items() if k != "game"} | {"version": 1},
                                    'it has a "box" (the piles of a Nim brain) but no "game"'),
    "a game of null": (nim_doc(game=None), "it holds a brain for the game None"),
    "a version 2 file that names no game": ({k: v for k, v in nim_doc().items() if k != "game"},
                                            'it does not say which game its brain plays'),
    "a game this sticks-tui does not know": (sticks_doc(game="chess"),
                                             "it holds a brain for the game 'chess', which this sticks-tui "
                                             "does not know"),
    "a box past the largest piles": (nim_doc(box=[11, 0, 0]), '"box" must be the three largest piles'),
    "a box of no coins": (nim_doc(box=[0, 0, 0]), '"box" must be the three largest piles'),
    "hats of another box": (nim_doc(box=[1, 1, 3]), "the box [1, 1, 3] has 15 positions"),
    "a Nim hat of the wrong width": (nim_doc(hats=[[1]] * 11), "the hat for the piles (0, 1, 1) must hold 2 counts"),
    "an empty Nim hat": (nim_doc(rule={"floor": "nonempty"},
                                 hats=[[0, 0] if p == (0, 1, 1) else [1] * sum(p) for p in NimRules((2, 1, 1)).positions()]),
                         "the hat for the piles (0, 1, 1) is empty"),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_file_whose_game_and_layout_disagree_is_refused_with_the_reason(data, tmp_path, case):
    doc, reason = REFUSED[case]
    path = tmp_path / "brain.json"
    path.write_text(json.dumps(doc))
    with Store.open(data) as store:
        store.save_brain("shared", Hats(6), 1)
        with pytest.raises(StoreError) as info:
            store.import_brain(path, "shared", replace=True)
        assert reason in str(info.value) and "Nothing was changed" in str(info.value), str(info.value)
        assert store.load_brain("shared") == Hats(6) and [b.name for b in store.list_brains()] == ["shared"]


def test_import_for_one_game_refuses_a_file_of_the_other(data, tmp_path, capsys):
    (tmp_path / "sticks.json").write_text(json.dumps(sticks_doc()))
    (tmp_path / "nim.json").write_text(json.dumps(nim_doc()))
    code, out, err = cli(capsys, "--data-dir", str(data), "brain", "import", str(tmp_path / "sticks.json"),
                         "--game", "nim")
    assert (code, out) == (1, "")
    assert "as a Nim brain: it holds a sticks brain. Nothing was changed." in err
    code, out, err = cli(capsys, "--data-dir", str(data), "brain", "import", str(tmp_path / "nim.json"),
                         "--game", "sticks")
    assert (code, out) == (1, "")
    assert "as a sticks brain: it holds a Nim brain. Nothing was changed." in err
    assert cli(capsys, "--data-dir", str(data), "brain", "list", "--json")[1].strip() == "[]"
    code, out, err = cli(capsys, "--data-dir", str(data), "brain", "import", str(tmp_path / "nim.json"),
                         "--game", "nim")
    assert (code, err) == (0, "") and stored(data, "nimble")[0] == nim_brain((2, 1, 1))


def test_replace_never_turns_a_brain_into_another_games_brain(data, tmp_path):
    (tmp_path / "nim.json").write_text(json.dumps(nim_doc()))
    with Store.open(data) as store:
        store.save_brain("default", Hats(20), 9)
        with pytest.raises(StoreError, match="The brain 'default' is a sticks brain, and this is a Nim brain: a "
                                             "brain is only replaced by one of its own game"):
            store.import_brain(tmp_path / "nim.json", "default", replace=True)
        assert store.load_brain("default") == Hats(20) and store.brain_info("default").games_trained == 9


# -- files written before brain files named their game -------------------------------------------------
def test_an_old_sticks_file_without_a_game_still_imports_as_sticks(data, tmp_path):
    doc = {k: v for k, v in sticks_doc().items() if k != "game"}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc))
    with Store.open(data) as store:
        assert store.import_brain(path, game="sticks") == "shared"
        assert store.load_brain("shared") == Hats(6) and store.brain_info("shared").game == "sticks"


def test_a_nim_backup_written_by_the_old_export_is_restored(data, tmp_path, nim_trained):
    # what `brain export nim-7x7x7` wrote before: no game, size 511 and max_take 21 counted over Nim's hats
    old = {"format": "sticks-tui-brain", "version": 1, "name": "nim-7x7x7", "size": 511, "max_take": 21,
           "rule": {"start_balls": 1, "win_reward": 1, "loss_penalty": 1, "floor": "each"},
           "games_trained": 20_000, "exported_at": "2026-11-20T10:00:00+00:00", "hats": nim_trained.as_lists()}
    path = tmp_path / "nim.json"
    path.write_text(json.dumps(old))
    with Store.open(data) as store:
        assert store.import_brain(path, game="nim") == "nim-7x7x7"
        assert store.load_brain("nim-7x7x7") == nim_trained
        assert np.array_equal(store.load_brain("nim-7x7x7").counts, nim_trained.counts)
