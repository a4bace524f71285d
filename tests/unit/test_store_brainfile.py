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
    return train(TrainingConfig(sticks=21, games=3000, seed=5), Hats(21, rule=rule)).brain


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
    "newer version": (with_(lambda d: d.update(version=4)), "newer sticks-tui"),
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
    "bad floor": (with_(lambda d: d["rule"].update(floor="zero")), "floor must be"),
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


# -- issue 13: echoes are capped, empty hats are refused, only regular files are read --------------
import os  # noqa: E402
import socket  # noqa: E402
import stat  # noqa: E402
import threading  # noqa: E402

from sticks_tui.store import brainfile  # noqa: E402

HUGE = 10**4000 + 7  # a 4,001-digit number: the most json.loads will parse is 4,300 digits
LONG = "z" * 5000


def rule_field(key, value):
    return lambda d: d["rule"].update({key: value})


ECHOING = {
    "huge start_balls": with_(rule_field("start_balls", HUGE)),
    "huge win_reward": with_(rule_field("win_reward", -HUGE)),
    "huge count": with_(set_count(3, 1, HUGE)),
    "huge negative count": with_(set_count(3, 1, -HUGE)),
    "huge version": with_(lambda d: d.update(version=HUGE)),
    "huge version as text": with_(lambda d: d.update(version=LONG)),
    "huge size": with_(lambda d: d.update(size=-HUGE)),
    "huge max_take": with_(lambda d: d.update(max_take=[LONG])),
    "huge games_trained": with_(lambda d: d.update(games_trained=HUGE)),
    "long format": with_(lambda d: d.update(format=LONG)),
    "long floor": with_(rule_field("floor", LONG)),
    "long unknown rule field": with_(rule_field(LONG, 1)),
    "long hat": with_(lambda d: d["hats"].__setitem__(2, [LONG])),
    "long name": with_(lambda d: d.update(name=LONG)),
    "name with a control character": with_(lambda d: d.update(name="a\x00" + LONG[:30])),
    "5000 digits": json.dumps(good_doc()).replace("[1, 1, 1]", "[1, " + "9" * 5000 + ", 1]", 1).encode(),
}


@pytest.mark.parametrize("case", list(ECHOING))
def test_what_a_refusal_echoes_back_is_capped(case):
    with pytest.raises(StoreError) as info:
        brainfile.decode(ECHOING[case], "bad.json")
    message = str(info.value)
    assert len(message) < 300, message
    assert "9999999999" not in message and "zzzzzzzzzz" * 7 not in message
    assert "0000000000" * 7 not in message


def test_a_huge_number_is_named_by_its_size_not_spelt_out():
    assert brainfile.shown(HUGE) == "a 4,001-digit number"
    assert brainfile.shown(10**20) == repr(10**20)
    assert brainfile.shown(LONG) == "'" + "z" * 56 + "..."
    assert len(brainfile.shown(LONG)) == brainfile.ECHO_LIMIT


@pytest.mark.parametrize("floor,row", [("each", [0, 0, 0]), ("each", [0, 1, 1]), ("nonempty", [0, 0, 0])])
def test_a_brain_file_with_an_empty_hat_is_refused(floor, row):
    data = with_(lambda d: (d["rule"].update(floor=floor), d["hats"].__setitem__(4, row)))
    with pytest.raises(StoreError, match=r"hat 4.*(empty|at least one ball)"):
        brainfile.decode(data, "empty.json")


def test_require_playable_names_the_empty_hat_and_the_way_out():
    hats = Hats(10, rule=HatRule(floor="nonempty"))
    brainfile.require_playable(hats, "default")  # a fresh brain plays
    hats.counts[6] = 0
    hats.counts[8] = 0
    assert brainfile.empty_container(hats) == 6
    with pytest.raises(StoreError) as info:
        brainfile.require_playable(hats, "class 4b", "/data/sticks-tui.db")
    message = str(info.value)
    assert "'class 4b'" in message and "/data/sticks-tui.db" in message
    assert "hat 6 holds no ball, so the AI has no move there" in message
    assert "sticks-tui brain reset class 4b" in message
    hats.counts[1, 0] = 0
    assert brainfile.empty_container(hats) == 1


@pytest.mark.parametrize("game,seat", [("sticks", None), ("noughts", 0), ("hexapawn", 1), ("nim", None)])
def test_an_empty_container_is_found_and_said_in_its_games_words_on_every_game(game, seat):
    """One check for every game (it read heaps 1..N on any brain: a noughts box raised ValueError)."""
    from sticks_tui.engine import registry

    kind = registry.entry(game)
    hats = Hats(kind.brain_rules(10, 3, (2, 2, 2)), rule=HatRule(floor="each"), seat=seat)
    assert brainfile.empty_container(hats) is None
    position = hats.positions[3]
    hats.counts[hats.row(position)] = 0
    assert brainfile.empty_container(hats) == position
    with pytest.raises(StoreError) as info:
        brainfile.require_playable(hats, "b")
    container, token = kind.token_words()
    assert f"{kind.hat_label(hats.rules, position)} holds no {token}, so the AI has no move there." in str(info.value)
    assert kind.hat_label(hats.rules, position).startswith("hat " if game == "sticks" else f"the {container} for ")


def test_balls_beyond_the_heap_do_not_make_a_hat_playable():
    hats = Hats(5)
    hats.counts[2] = [0, 0, 9]  # ball 3 can never be drawn from hat 2
    assert brainfile.empty_container(hats) == 2


def test_read_brain_file_reads_a_regular_file_and_follows_a_symlink(tmp_path):
    path = tmp_path / "brain.json"
    path.write_text(json.dumps(good_doc()))
    link = tmp_path / "link.json"
    link.symlink_to(path)
    for source in (path, link, str(link)):
        loaded = brainfile.read_brain_file(source)
        assert loaded.name == "shared" and loaded.hats == Hats(5) and loaded.games_trained == 10


def call_with_timeout(fn, timeout=20):
    """fn() in a daemon thread: a regression that blocks fails the test instead of hanging the suite."""
    box = {}

    def run():
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "blocked: the read waited for a writer"
    if "error" in box:
        raise box["error"]
    return box["value"]


def test_a_fifo_is_refused_before_it_is_opened(tmp_path):
    fifo = tmp_path / "brain.json"
    os.mkfifo(fifo)
    try:
        with pytest.raises(StoreError, match="named pipe") as info:
            call_with_timeout(lambda: brainfile.read_brain_file(fifo))
        assert "Nothing was changed" in str(info.value)
    finally:
        try:  # unblock a reader a regression might have left waiting
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass


def test_a_fifo_swapped_in_after_the_check_is_caught_after_opening(tmp_path, monkeypatch):
    fifo = tmp_path / "brain.json"
    os.mkfifo(fifo)
    regular = os.stat(__file__)
    real_stat = os.stat
    monkeypatch.setattr(brainfile.os, "stat", lambda p, *a, **k: regular if str(p) == str(fifo)
                        else real_stat(p, *a, **k))  # the check sees a file; then it becomes a FIFO
    try:
        with pytest.raises(StoreError, match="named pipe"):
            call_with_timeout(lambda: brainfile.read_brain_file(fifo))
    finally:
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass


@pytest.mark.parametrize("where,reason", [("/dev/zero", "device"), ("/dev/null", "device"),
                                          ("dir", "directory"), ("socket", "socket"),
                                          ("missing.json", "no such file"), ("nul\x00byte", "")])
def test_anything_but_a_regular_file_is_refused_with_a_reason(tmp_path, where, reason):
    if where == "dir":
        path = tmp_path / "a directory"
        path.mkdir()
    elif where == "socket":
        path = tmp_path / "s"
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
        assert stat.S_ISSOCK(os.stat(path).st_mode)
    elif where.startswith("/"):
        if not os.path.exists(where):
            pytest.skip(f"no {where} here")
        path = where
    else:
        path = tmp_path / where
    with pytest.raises(StoreError) as info:
        call_with_timeout(lambda: brainfile.read_brain_file(path))
    message = str(info.value)
    assert message.startswith("Cannot read the brain file ") and reason in message
    assert "Nothing was changed" in message and len(message) < 400


def test_a_long_path_is_cut_in_messages_keeping_its_end(tmp_path):
    path = tmp_path / ("d" * 200) / ("e" * 200) / "brain.json"
    with pytest.raises(StoreError) as info:
        brainfile.read_brain_file(path)
    message = str(info.value)
    assert message.startswith("Cannot read the brain file ...") and "/brain.json: " in message
    assert len(message) < 400
