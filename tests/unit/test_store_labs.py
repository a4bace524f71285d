"""Labs kept in the database (issue 20): a finished lab is kept whole, listed newest first, read back as it
was, migrated into an older database, exported as CSV and JSON through the export guard, and two processes
keeping labs at once both keep all of theirs."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

from sticks_tui.learn.lab import LabConfig, LabResult, LearnerResult, parse_learner
from sticks_tui.store import DB_FILENAME, SCHEMA_VERSION, Store, StoreError
from sticks_tui.store import connection as store_connection
from sticks_tui.store.exports import CSV_HEADERS, build_export, export_kind, lab_export, write_export
from sticks_tui.store.migrations import migrate


def made_lab(cap: int = 100, seeds: tuple[int, ...] = (0, 1, 2)) -> LabResult:
    """A finished lab from runs written out (the store takes its document as plain data; no kernel runs):
    hats mastered at games 40, 60 and never; q at 20, 30, 50."""
    def runs(masteries, agreement_at_cap):
        out = []
        for seed, m, a in zip(seeds, masteries, agreement_at_cap, strict=True):
            curve = [(1, 0.1, 0.0, 0.0, 0.0, 0.0), (10, 0.5, 0.2, 0.1, 0.2, 0.1), (cap, a, 1.0, 0.0, 1.0, 0.0)]
            out.append((seed, (m, m, m), curve, 0.25, (cap // 2, 0, cap // 2), 0.2, (m is not None,) * 3, m))
        return out

    specs = (parse_learner("hats:reward=3"), parse_learner("q"))
    config = LabConfig("sticks", 8, specs, len(seeds), cap, workers=1)
    learners = [LearnerResult(specs[0], runs([40, 60, None], [1.0, 1.0, 0.75])),
                LearnerResult(specs[1], runs([20, 30, 50], [1.0, 1.0, 1.0]))]
    return LabResult(config, learners, 1.5, 1)


@pytest.fixture
def pinned_clock(monkeypatch):
    monkeypatch.setattr(store_connection, "clock", lambda: "2026-11-26T10:00:00+00:00")


def test_a_finished_lab_is_kept_whole_and_listed_newest_first(tmp_path, pinned_clock):
    doc = made_lab().as_json()
    with Store.open(tmp_path) as store:
        assert store.list_labs() == []
        first = store.save_lab(doc)
        second = store.save_lab(made_lab(cap=200).as_json())
    with Store.open(tmp_path) as store:  # kept in the file: another process sees it
        listed = store.list_labs()
        assert [k.id for k in listed] == [second.id, first.id] and second.id == first.id + 1
        k = listed[1]
        assert (k.game, k.size, k.protocol, k.learners, k.seeds, k.first_seed, k.cap, k.seconds) == \
            ("sticks", 8, "explore", ("hats:reward=3", "q"), 3, 0, 100, 1.5)
        assert k.finished_at.isoformat() == "2026-11-26T10:00:00+00:00" and k.doc is None
        again = store.lab(first.id)
        assert again.doc == json.loads(json.dumps(doc))
        # the table's figures as the lab had them: hats 40, 60, never -> median 60, p90 never, 1 never
        hats = again.doc["learners"][0]
        assert hats["games_to_mastery"] == {"median": 60, "p90": None, "never": 1}
        assert hats["settings"] == {"start": 1, "reward": 3, "penalty": 1, "draw": 0, "floor": "each", "vs": "self",
                                    "table": "two"}
        assert [p["games"] for p in hats["curve"]] == [1, 10, 100]
        assert store.lab(second.id + 1) is None
        assert [k.id for k in store.list_labs(limit=1)] == [second.id]


@pytest.mark.parametrize("bad,words", [
    ([], "A lab to keep is a JSON object"),
    ({"game": "sticks"}, "A lab to keep needs 'size'"),
    ("learners", "A lab to keep has at least one learner"),
    ("curve", "Each learner of a lab to keep needs 'curve'"),
])
def test_a_lab_that_is_not_whole_is_refused_and_nothing_is_kept(tmp_path, bad, words):
    doc = made_lab().as_json()
    if bad == "learners":
        doc["learners"] = []
    elif bad == "curve":
        del doc["learners"][1]["curve"]
    else:
        doc = bad
    with Store.open(tmp_path) as store:
        with pytest.raises(StoreError, match=words):
            store.save_lab(doc)
        assert store.lab_count() == 0


def test_a_v5_database_gains_the_labs_table_and_keeps_its_games(tmp_path):
    path = tmp_path / DB_FILENAME
    conn = sqlite3.connect(path, isolation_level=None)
    store_connection.add_functions(conn)
    migrate(conn, target=5)
    conn.close()
    with Store.open(tmp_path) as store:
        store.record_game(game="sticks", start="4", opponent="friend", players=("Ann", "Bob"), moves=[3, 1], loser=1)
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM schema_version WHERE version >= 6")  # 7 (draws) runs again over its columns
    conn.execute("DROP TABLE labs")
    conn.commit()
    conn.close()
    with Store.open(tmp_path) as store:  # version 5 with a game in it: migrated, the game kept
        assert store.notices == [] and store.game_count() == 1
        assert store._conn.execute("SELECT MAX(version) FROM schema_version").fetchone() == (SCHEMA_VERSION,)
        assert store.save_lab(made_lab().as_json()).id == 1


def test_the_lab_exports_as_csv_rows_per_learner_and_checkpoint_and_as_json(tmp_path, pinned_clock):
    with Store.open(tmp_path) as store:
        with pytest.raises(StoreError, match="No lab is kept yet"):
            build_export(store, "lab", "csv")
        kept = store.save_lab(made_lab().as_json())
        text = build_export(store, "lab", "csv").text  # the latest
        assert build_export(store, "lab", "csv", lab_id=kept.id).filename == f"lab-{kept.id}.csv"
        with pytest.raises(StoreError, match=f"There is no lab with id {kept.id + 1}"):
            build_export(store, "lab", "json", lab_id=kept.id + 1)
        as_json = json.loads(build_export(store, "lab", "json").text)
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_HEADERS["lab"] and export_kind(text.encode()) == "lab"
    assert len(rows) == 1 + 2 * 3
    by = {(r[1], r[2]): dict(zip(rows[0], r, strict=True)) for r in rows[1:]}
    hats_at_cap = by[("hats:reward=3", "100")]
    assert (hats_at_cap["agreement_median"], hats_at_cap["agreement_p10"]) == ("1", "0.8")
    assert (hats_at_cap["mastery_median"], hats_at_cap["mastery_p90"], hats_at_cap["mastery_never"]) == ("60", "", "1")
    assert by[("q", "10")]["mastery_median"] == "30" and by[("q", "10")]["learner"] == "2"
    assert as_json["kind"] == "lab" and as_json["lab_id"] == kept.id
    assert as_json["finished_at"] == "2026-11-26T10:00:00+00:00"
    assert [x["spec"] for x in as_json["learners"]] == ["hats:reward=3", "q"]
    assert export_kind(lab_export(made_lab().as_json(), "json").encode()) == "lab"


def test_a_lab_export_never_goes_over_the_database_or_someones_file(tmp_path):
    with Store.open(tmp_path) as store:
        store.save_lab(made_lab().as_json())
        text = build_export(store, "lab", "csv").text
        db = store.path
        with pytest.raises(StoreError, match="sticks-tui's own database"):
            write_export(db, text, "lab", protected=[db])
        notes = tmp_path / "notes.csv"
        notes.write_text("my,notes\n")
        with pytest.raises(StoreError, match="notes.csv"):
            write_export(notes, text, "lab", protected=[db])
        assert notes.read_text() == "my,notes\n"
        out = tmp_path / "lab.csv"
        write_export(out, text, "lab", protected=[db])
        write_export(out, text, "lab", protected=[db])  # an earlier lab export is replaced
        assert out.read_text() == text
        assert store.lab_count() == 1


KEEPER = """
    import json, sys, time
    from pathlib import Path
    from sticks_tui.store import Store
    data, doc, go = sys.argv[1], json.loads(Path(sys.argv[2]).read_text()), Path(sys.argv[3])
    store = Store.open(data)
    assert store.persistent, store.notices
    while not go.exists():
        time.sleep(0.001)
    ids = [store.save_lab(doc).id for _ in range(25)]
    store.close()
    print(json.dumps(ids))
"""


def test_two_processes_keeping_labs_at_once_keep_every_one(tmp_path):
    Store.open(tmp_path).close()
    doc = tmp_path / "doc.json"
    doc.write_text(json.dumps(made_lab().as_json()))
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(KEEPER), str(tmp_path), str(doc), str(go)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    time.sleep(0.3)
    go.touch()
    ids = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        ids += json.loads(out)
    assert sorted(ids) == list(range(1, 51))
    with Store.open(tmp_path) as store:
        assert [k.id for k in store.list_labs()] == list(range(50, 0, -1))
        assert all(store.lab(i).doc == json.loads(doc.read_text()) for i in (1, 50))


def test_a_labs_csv_says_one_seat_or_both_and_held_and_an_earlier_export_is_still_ours():
    """Issue 35: each learner's rows carry whether it learns from one seat or both and the seeds still
    unbeatable at the end; a lab exported before these two columns is still known as a lab export."""
    from sticks_tui.store.exports import _OLD_CSV_HEADERS, export_kind, lab_export

    rows = list(csv.reader(io.StringIO(lab_export(made_lab().as_json(), "csv"))))
    header = rows[0]
    assert header[-2:] == ["learns_from", "held"]
    by_learner = {row[1]: row[-2:] for row in rows[1:]}
    assert by_learner == {"hats:reward=3": ["one seat", "2"], "q": ["both seats", "3"]}
    earlier = ",".join(_OLD_CSV_HEADERS["lab"]) + "\n"
    assert export_kind(earlier.encode()) == "lab"
