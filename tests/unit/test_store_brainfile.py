"""Brain files: export and import round-trip exactly; every kind of bad file is refused and changes nothing."""

from __future__ import annotations

import json

import pytest

from sticks_tui.learn.hats import MAX_COUNT, HatRule, Hats
from sticks_tui.learn.trainer import TrainingConfig, train
from sticks_tui.store import BRAIN_FORMAT, MAX_BRAIN_FILE_BYTES, InvalidName, Store, StoreError


@pytest.fixture
def store(tmp_path):
    s = Store.open(tmp_path / "data")
    yield s
    s.close()


@pytest.fixture(scope="module")
def learned() -> Hats:
    rule = HatRule(start_balls=2, win_reward=2, loss_penalty=1, floor="nonempty")
    return train(TrainingConfig(sticks=21, games=3000, seed=5, rule=rule)).brain


def snapshot(store):
    return ([(b.name, b.games_trained, b.updated) for b in store.list_brains()],
            [store.load_brain(b.name).counts.tolist() for b in store.list_brains()])


def test_export_then_import_round_trips_exactly(store, learned, tmp_path):
    store.save_brain("trained 3k games", learned, 3000)
    path = tmp_path / "brain.json"
    store.export_brain("trained 3k games", path)
    doc = json.loads(path.read_text())
    assert doc["format"] == BRAIN_FORMAT and doc["version"] == 1 and doc["name"] == "trained 3k games"
    assert doc["size"] == 21 and doc["games_trained"] == 3000 and doc["hats"] == learned.as_lists()
    assert doc["rule"] == {"start_balls": 2, "win_reward": 2, "loss_penalty": 1, "floor": "nonempty"}
    assert store.import_brain(path, "copy") == "copy"
    assert store.load_brain("copy") == learned and store.brain_info("copy").games_trained == 3000
    with Store.open(tmp_path / "elsewhere") as other:  # into another database, under its own name
        assert other.import_brain(path) == "trained 3k games"
        assert other.load_brain("trained 3k games") == learned
        other.export_brain("trained 3k games", tmp_path / "again.json")
    again = json.loads((tmp_path / "again.json").read_text())
    assert {k: v for k, v in again.items() if k != "exported_at"} == \
        {k: v for k, v in doc.items() if k != "exported_at"}


def test_export_of_a_missing_brain_or_to_a_bad_place_says_so(store, tmp_path):
    with pytest.raises(StoreError, match="no brain called 'nope'"):
        store.export_brain("nope", tmp_path / "x.json")
    store.save_brain("default", Hats(4))
    with pytest.raises(StoreError, match="Cannot write the brain file"):
        store.export_brain("default", tmp_path / "no such dir" / "x.json")
    assert not (tmp_path / "x.json").exists()


def test_import_refuses_an_existing_name_unless_told_to_replace(store, tmp_path):
    store.save_brain("default", Hats(4), 7)
    store.export_brain("default", tmp_path / "b.json")
    before = snapshot(store)
    with pytest.raises(StoreError, match="already exists.*Nothing was changed"):
        store.import_brain(tmp_path / "b.json")
    assert snapshot(store) == before
    store.save_brain("default", Hats(9), 1)
    assert store.import_brain(tmp_path / "b.json", replace=True) == "default"
    assert store.load_brain("default") == Hats(4) and store.brain_info("default").games_trained == 7


def good_doc(size=5) -> dict:
    return {"format": BRAIN_FORMAT, "version": 1, "name": "shared", "size": size, "max_take": 3,
            "rule": {"start_balls": 1, "win_reward": 1, "loss_penalty": 1, "floor": "each"},
            "games_trained": 10, "hats": Hats(size).as_lists()}


def with_(change):
    doc = good_doc()
    change(doc)
    return json.dumps(doc).encode()


def set_count(hat, ball, value):
    def change(doc):
        doc["hats"][hat][ball] = value
    return change


BAD_FILES = {
    "truncated": (json.dumps(good_doc())[:-40].encode(), "cut short"),
    "empty": (b"", "empty"),
    "binary": (bytes(range(256)) * 4, "not a text file"),
    "another format": (json.dumps({"format": "nim-brain", "version": 1}).encode(), "not a sticks-tui brain file"),
    "no format": (json.dumps({"hats": []}).encode(), "not a sticks-tui brain file"),
    "a list": (b"[1, 2, 3]", "not a sticks-tui brain file"),
    "not json": (b"name = 'default'\nhats = [1, 2, 3]\n", "not valid JSON"),
    "a pickle": (b"\x80\x04\x95\x05\x00\x00\x00\x00\x00\x00\x00]\x94.", "not a text file"),
    "newer version": (with_(lambda d: d.update(version=2)), "newer sticks-tui"),
    "version as text": (with_(lambda d: d.update(version="1")), "version must be a whole number"),
    "huge count": (with_(set_count(3, 1, 10**30)), "too large"),
    "count past the limit": (with_(set_count(3, 1, MAX_COUNT + 1)), "too large"),
    "count with 5000 digits": (json.dumps(good_doc()).replace('[1, 1, 1]', '[1, ' + "9" * 5000 + ', 1]', 1)
                               .encode(), "not allowed"),
    "infinite count": (json.dumps(good_doc()).replace('[1, 1, 1]', '[1, 1e400, 1]', 1).encode(), "whole number"),
    "NaN count": (json.dumps(good_doc()).replace('[1, 1, 1]', '[1, NaN, 1]', 1).encode(), "not allowed"),
    "negative count": (with_(set_count(4, 2, -3)), "count is -3"),
    "zero count under the 'each' floor": (with_(set_count(4, 0, 0)), "at least one ball of each number"),
    "empty hat under 'nonempty'": (with_(lambda d: (d["rule"].update(floor="nonempty"),
                                                    d["hats"].__setitem__(2, [0, 0]))), "hat 2 is empty"),
    "float count": (with_(set_count(3, 0, 1.5)), "whole number"),
    "bool count": (with_(set_count(3, 0, True)), "whole number"),
    "text count": (with_(set_count(3, 0, "1")), "whole number"),
    "size disagrees with hats": (with_(lambda d: d.update(size=6)), "holds 6 entries but \"size\" says 6 hats"),
    "a hat too short": (with_(lambda d: d["hats"].__setitem__(5, [1, 1])), "hat 5 must hold 3 counts"),
    "a hat too long": (with_(lambda d: d["hats"].__setitem__(1, [1, 1])), "hat 1 must hold 1 counts"),
    "hat 0 not empty": (with_(lambda d: d["hats"].__setitem__(0, [1])), "hat 0 must be empty"),
    "too many hats": (with_(lambda d: d.update(size=1001)), "from 1 to 1000"),
    "zero hats": (with_(lambda d: d.update(size=0, hats=[[]])), "from 1 to 1000"),
    "max_take huge": (with_(lambda d: d.update(max_take=10**9)), "max_take"),
    "bad floor": (with_(lambda d: d["rule"].update(floor="none")), "floor must be"),
    "unknown rule field": (with_(lambda d: d["rule"].update(exec="rm -rf /")), "does not know"),
    "bad reward": (with_(lambda d: d["rule"].update(win_reward=-1)), "rule is not valid"),
    "negative games": (with_(lambda d: d.update(games_trained=-5)), "games_trained"),
    "bad name": (with_(lambda d: d.update(name="x" * 50)), "\"name\" is not usable"),
    "hats missing": (with_(lambda d: d.pop("hats")), "\"hats\" must be a list"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_bad_brain_file_is_refused_with_a_reason_and_changes_nothing(store, tmp_path, case):
    data, reason = BAD_FILES[case]
    store.save_brain("shared", Hats(5), 3)
    store.save_brain("other", Hats(7), 1)
    before = snapshot(store)
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    for name, replace in ((None, True), ("fresh name", False)):
        with pytest.raises(StoreError) as info:
            store.import_brain(path, name, replace=replace)
        message = str(info.value)
        assert reason in message, message
        assert str(path) in message and "Nothing was changed" in message
        assert "Traceback" not in message and len(message) < 400
    assert snapshot(store) == before


def test_the_good_document_used_above_is_itself_accepted(store, tmp_path):
    # so each refusal above is caused by its one change, not by a bad base document
    path = tmp_path / "good.json"
    path.write_text(json.dumps(good_doc()))
    assert store.import_brain(path) == "shared"
    assert store.load_brain("shared") == Hats(5)


def test_a_file_over_one_mebibyte_is_refused_before_it_is_parsed(store, tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b'{"format": "sticks-tui-brain", "pad": "' + b"x" * MAX_BRAIN_FILE_BYTES + b'"}')
    with pytest.raises(StoreError, match="larger than 1024 KiB"):
        store.import_brain(path, "big")
    assert store.list_brains() == []


def test_a_missing_file_and_a_file_without_a_name(store, tmp_path):
    with pytest.raises(StoreError, match="Cannot read the brain file"):
        store.import_brain(tmp_path / "missing.json")
    doc = good_doc()
    del doc["name"]
    (tmp_path / "anon.json").write_text(json.dumps(doc))
    with pytest.raises(InvalidName, match="does not say its name"):
        store.import_brain(tmp_path / "anon.json")
    assert store.import_brain(tmp_path / "anon.json", "given") == "given"
