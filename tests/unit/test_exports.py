"""Class exports (issue 10 item 5): CSV and JSON read back and held against the store and the analysis."""

from __future__ import annotations

import csv
import io
import json
import pytest

from sticks_tui.solve.sticks_hats import analyse
from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store, StoreError
from sticks_tui.store import exports
from sticks_tui.store.exports import (
    EXPORT_FORMAT,
    build_export,
    curve_export,
    export_kind,
    first_mover,
    games_export,
    hats_export,
    write_export,
)


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def learned_hats() -> Hats:
    hats = Hats(12)
    hats.counts[5] = [1, 1, 1]  # a three-way tie: no preference
    hats.counts[6] = [9, 1, 1]  # hat 6 is winning by taking 1
    hats.counts[7] = [1, 7, 2]  # hat 7 is winning by taking 2
    hats.counts[8] = [6, 1, 2]  # hat 8 wins by taking 3; the AI prefers 1: wrong
    hats.counts[9] = [3, 2, 1]  # losing hat
    hats.counts[2] = [4, 1, 0]
    return hats


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "data") as store:
        store.save_brain("class 4B", learned_hats(), 250)
        store.save_training_curve("class 4B", [(0, 0.25, 0.1), (1000, 0.5, float("nan")), (2000, 1.0, 0.8, 1.0)])
        store.record_game(game="sticks", start="10", opponent="learning", players=("Ann", "Learning AI"),
                          moves=[3, 3, 3, 1], loser=1, brain="class 4B")
        store.record_game(game="sticks", start="10", opponent="friend", players=("=cmd|' /C calc'!A0", "Bob"),
                          moves=[1, 3, 3, 3], loser=0)
        store.record_game(game="nim", start="1,2,1", opponent="perfect", players=("Cy", "Nim Perfect AI"),
                          moves=["2:2", "1:1", "3:1"], loser=1)
        yield store


def test_hats_csv_matches_the_brain_and_the_analysis(store):
    hats = store.load_brain("class 4B")
    analysis = analyse(hats.counts, hats.max_take)
    table = rows(build_export(store, "hats", "csv", brain="class 4b").text)
    assert list(table[0]) == ["hat", "balls_1", "balls_2", "balls_3", "chance_1", "chance_2", "chance_3",
                              "ai_move", "perfect_move", "winning", "right"]
    assert len(table) == hats.size == 12
    for row, verdict in zip(table, analysis.hats):
        n = verdict.hat
        assert int(row["hat"]) == n
        legal = min(3, n)
        for b in range(1, 4):
            if b <= legal:
                assert int(row[f"balls_{b}"]) == hats.counts[n, b - 1]
                assert float(row[f"chance_{b}"]) == pytest.approx(hats.counts[n, b - 1] / hats.counts[n, :legal].sum(),
                                                                  abs=1e-5)
            else:
                assert row[f"balls_{b}"] == "" and row[f"chance_{b}"] == ""
        assert row["perfect_move"] == " ".join(map(str, verdict.optimal_moves))
        assert row["winning"] == ("yes" if verdict.winning else "no")
        assert row["right"] == {True: "yes", False: "no", None: ""}[verdict.agrees]
    by_hat = {int(r["hat"]): r for r in table}
    assert by_hat[5]["ai_move"] == "" and by_hat[5]["winning"] == "no"  # tie: no preference, and hat 5 loses
    assert (by_hat[6]["ai_move"], by_hat[6]["perfect_move"], by_hat[6]["right"]) == ("1", "1", "yes")
    assert (by_hat[7]["ai_move"], by_hat[7]["perfect_move"], by_hat[7]["right"]) == ("2", "2", "yes")
    assert (by_hat[8]["ai_move"], by_hat[8]["perfect_move"], by_hat[8]["right"]) == ("1", "3", "no")
    assert by_hat[9]["perfect_move"] == "" and by_hat[9]["right"] == ""
    assert (by_hat[2]["balls_1"], by_hat[2]["balls_2"], by_hat[2]["balls_3"]) == ("4", "1", "")


def test_hats_json_matches_the_brain(store):
    doc = json.loads(build_export(store, "hats", "json", brain="class 4B").text)
    assert (doc["format"], doc["kind"], doc["version"]) == (EXPORT_FORMAT, "hats", 1)
    assert doc["brain"] == "class 4B" and doc["size"] == 12 and doc["max_take"] == 3
    assert doc["rule"] == {"start_balls": 1, "win_reward": 1, "loss_penalty": 1, "floor": "each"}
    hats = store.load_brain("class 4B")
    for h in doc["hats"]:
        n = h["hat"]
        assert h["balls"] == hats.counts[n, : min(3, n)].tolist()
        assert sum(h["chances"]) == pytest.approx(1.0, abs=1e-5)
    assert doc["hats"][4]["ai_move"] is None and doc["hats"][7] == {
        "hat": 8, "balls": [6, 1, 2], "chances": [0.666667, 0.111111, 0.222222], "ai_move": 1,
        "perfect_moves": [3], "winning": True, "right": False}


def test_curve_accepts_three_and_four_value_points(store):
    table = rows(build_export(store, "curve", "csv", brain="class 4B").text)
    assert [r["games"] for r in table] == ["0", "1000", "2000"]
    assert float(table[0]["agreement"]) == 0.25 and float(table[2]["win"]) == 0.9
    assert table[1]["win"] == "" and table[0]["win_first"] == ""  # NaN and unknown seats are blank
    doc = json.loads(build_export(store, "curve", "json", brain="class 4B").text)
    assert doc["points"][1] == {"games": 1000, "agreement": 0.5, "win": None, "win_first": None, "win_second": None}
    four = [(0, 0.5, 0.2, 0.4), (500, 1.0, 1.0, float("nan"))]
    doc = json.loads(curve_export("b", four, "json"))
    assert doc["points"][0] == {"games": 0, "agreement": 0.5, "win": pytest.approx(0.3), "win_first": 0.2,
                                "win_second": 0.4}
    assert doc["points"][1]["win"] is None and doc["points"][1]["win_second"] is None
    table = rows(curve_export("b", four, "csv"))
    assert float(table[0]["win_first"]) == 0.2 and float(table[0]["win_second"]) == 0.4
    assert [r["scope"] for r in table] == ["", ""]  # the heaps are not known: blank, never a guess
    with pytest.raises(ValueError):
        curve_export("b", [(1, 2)], "csv")


def test_no_curve_or_no_brain_is_a_clear_error(store):
    store.save_brain("fresh", Hats(10))
    with pytest.raises(StoreError, match="no learning curve yet"):
        build_export(store, "curve", "csv", brain="fresh")
    with pytest.raises(StoreError, match="no brain called 'ghost'"):
        build_export(store, "hats", "csv", brain="ghost")
    with pytest.raises(StoreError, match="at most 40"):
        build_export(store, "hats", "csv", brain="x" * 5000)


def test_games_list_matches_the_store(store):
    stored = sorted(store.recent_games(limit=100), key=lambda g: g.id)
    table = rows(build_export(store, "games", "csv").text)
    assert len(table) == len(stored) == 3
    for row, g in zip(table, stored):
        assert int(row["id"]) == g.id and row["played_at"] == g.played_at.isoformat()
        assert (row["game"], row["start"], row["opponent"]) == (g.game, g.start, g.opponent)
        assert row["player2"] == g.players[1] and row["moves"] == " ".join(map(str, g.moves))
        assert row["winner"].lstrip("'") == g.winner_name and row["loser"].lstrip("'") == g.loser_name
        assert row["brain"] == (g.brain or "")
    assert table[0]["ai_seats"] == "2" and table[1]["ai_seats"] == "" and table[0]["first"] == "Ann"
    # a name a spreadsheet would run as a formula is kept as text
    assert table[1]["player1"] == "'=cmd|' /C calc'!A0" and table[1]["loser"] == "'=cmd|' /C calc'!A0"
    assert table[1]["first"] == "Bob"  # four moves and seat 1 took the last stick: seat 2 began
    doc = json.loads(build_export(store, "games", "json").text)
    assert [d["id"] for d in doc["games"]] == [g.id for g in stored]
    assert doc["games"][1]["player1"] == "=cmd|' /C calc'!A0"  # JSON keeps the exact name
    assert doc["games"][0]["moves"] == [3, 3, 3, 1] and doc["games"][2]["moves"] == ["2:2", "1:1", "3:1"]


def test_one_sticks_game_move_by_move(store):
    gid = store.recent_games(limit=100)[-1].id
    table = rows(build_export(store, "game", "csv", game_id=gid).text)
    assert [(r["move"], r["player"], r["pile"], r["took"], r["left"]) for r in table] == [
        ("1", "Ann", "", "3", "7"), ("2", "Learning AI", "", "3", "4"), ("3", "Ann", "", "3", "1"),
        ("4", "Learning AI", "", "1", "0")]
    doc = json.loads(build_export(store, "game", "json", game_id=gid).text)
    assert doc["game"]["id"] == gid and doc["game"]["loser"] == "Learning AI"
    assert doc["moves"][-1] == {"move": 4, "player": "Learning AI", "pile": None, "took": 1, "left": 0}


def test_one_nim_game_move_by_move(store):
    gid = store.recent_games(limit=1)[0].id
    doc = json.loads(build_export(store, "game", "json", game_id=gid).text)
    assert [(m["player"], m["pile"], m["took"], m["left"]) for m in doc["moves"]] == [
        ("Cy", 2, 2, [1, 0, 1]), ("Nim Perfect AI", 1, 1, [0, 0, 1]), ("Cy", 3, 1, [0, 0, 0])]
    table = rows(build_export(store, "game", "csv", game_id=gid).text)
    assert table[0]["left"] == "1,0,1"
    with pytest.raises(StoreError, match="no game with id 999"):
        build_export(store, "game", "csv", game_id=999)


def test_who_moved_first_follows_from_the_outcome():
    class G:
        def __init__(self, game, moves, loser, start):
            self.game, self.moves, self.loser, self.start = game, moves, loser, start

    # sticks: the loser took the last stick; Nim: the winner took the last coin
    assert first_mover(G("sticks", [3, 3, 3, 1], 1, "10")) == 0
    assert first_mover(G("sticks", [3, 3, 3, 1], 0, "10")) == 1
    assert first_mover(G("sticks", [3, 3, 1], 0, "7")) == 0
    assert first_mover(G("nim", ["1:1", "2:1", "3:1"], 1, "1,1,1")) == 0
    assert first_mover(G("nim", ["1:1", "2:1"], 1, "1,1,0")) == 1


@pytest.mark.parametrize("first", [0, 1])
@pytest.mark.parametrize("takes", [(2, 3, 3, 1, 1), (3, 3, 3, 1), (1, 1, 1, 1, 1, 1, 1, 1, 1, 1)])
def test_who_moved_first_matches_the_engine(first, takes):
    from sticks_tui.engine.rules import new_game

    state = new_game(10, first=first)
    for take in takes:
        state = state.play(take)

    class G:
        game, moves, loser, start = "sticks", [m.move for m in state.history], state.loser, "10"

    assert state.is_over and first_mover(G()) == first


def test_markers_recognise_each_kind_and_nothing_else(store):
    for kind in ("hats", "curve", "games", "game"):
        for fmt in ("csv", "json"):
            text = build_export(store, kind, fmt, brain="class 4B", game_id=1).text
            assert export_kind(text.encode()) == kind
            assert export_kind(text.encode()[:300]) == kind  # a long file read only in part
    assert export_kind(b"name,score\nAnn,3\n") is None
    assert export_kind(b'{"format": "sticks-tui-brain", "kind": "hats"}') is None
    assert export_kind(b"\x89PNG\r\n\x1a\n") is None
    assert export_kind(b"") is None
    assert export_kind(hats_export("b", Hats(20, max_take=5), "csv").encode()) == "hats"


def test_write_export_replaces_its_own_kind_only(store, tmp_path):
    out = tmp_path / "games.csv"
    first = build_export(store, "games", "csv").text
    write_export(out, first, "games")
    store.record_game(game="sticks", start="10", opponent="friend", players=("Dee", "Eve"),
                      moves=[3, 3, 3, 1], loser=1)
    second = build_export(store, "games", "csv").text
    write_export(out, second, "games")
    assert len(rows(out.read_text())) == 4
    curve = build_export(store, "curve", "csv", brain="class 4B").text
    with pytest.raises(StoreError, match="not an earlier learning curve export"):
        write_export(out, curve, "curve")
    assert out.read_text() == second
    with pytest.raises(StoreError, match="own database"):
        write_export(store.path, second, "games", force=True, protected=[store.path])


def test_unknown_kind_or_format():
    with pytest.raises(ValueError, match="csv or json"):
        games_export([], "xlsx")
    with pytest.raises(ValueError, match="hats, curve, games, game"):
        exports.suggested_filename("pdf", "csv")
    assert exports.suggested_filename("hats", "csv", brain="class 4B/x") == "hats-class_4B_x.csv"
    assert exports.suggested_filename("game", "json", game_id=7) == "game-7.json"


def test_empty_game_list_is_just_the_header(tmp_path):
    with Store.open(tmp_path / "d") as store:
        text = build_export(store, "games", "csv").text
    assert text.splitlines() == [",".join(exports.CSV_HEADERS["games"])]


def test_default_export_path(tmp_path, monkeypatch):
    import platformdirs

    docs = tmp_path / "Documents"
    monkeypatch.setattr(platformdirs, "user_documents_dir", lambda: str(docs))
    monkeypatch.setenv("HOME", str(tmp_path))
    export = exports.ExportText("games", "csv", "", "games.csv")
    assert exports.default_export_path(export) == tmp_path / "games.csv"  # no Documents folder: home
    docs.mkdir()
    assert exports.default_export_path(export) == docs / "games.csv"


def test_the_curve_says_over_which_heaps_in_csv_as_in_json():
    points = [(1, 0.1, 0.0, 0.0), (1000, 0.9, 0.5, 0.6)]
    table = rows(curve_export("b", points, "csv", heap=20))
    assert list(table[0]) == ["games", "agreement", "win", "win_first", "win_second", "scope"]
    assert [r["scope"] for r in table] == ["heaps 2-20", "heaps 2-20"]
    doc = json.loads(curve_export("b", points, "json", heap=20))
    assert (doc["heap"], doc["scope"]) == (20, "heaps 2-20")


#: The sticks hats table of `learned_hats()` as published (brain 'b'): the columns and every cell, byte for byte.
HATS_CSV = (
    "hat,balls_1,balls_2,balls_3,chance_1,chance_2,chance_3,ai_move,perfect_move,winning,right\n"
    "1,1,,,1,,,1,,no,\n2,4,1,,0.8,0.2,,1,1,yes,yes\n3,1,1,1,0.333333,0.333333,0.333333,,2,yes,no\n"
    "4,1,1,1,0.333333,0.333333,0.333333,,3,yes,no\n5,1,1,1,0.333333,0.333333,0.333333,,,no,\n"
    "6,9,1,1,0.818182,0.090909,0.090909,1,1,yes,yes\n7,1,7,2,0.1,0.7,0.2,2,2,yes,yes\n"
    "8,6,1,2,0.666667,0.111111,0.222222,1,3,yes,no\n9,3,2,1,0.5,0.333333,0.166667,1,,no,\n"
    "10,1,1,1,0.333333,0.333333,0.333333,,1,yes,no\n11,1,1,1,0.333333,0.333333,0.333333,,2,yes,no\n"
    "12,1,1,1,0.333333,0.333333,0.333333,,3,yes,no\n")


def test_the_sticks_exports_are_byte_for_byte_as_published():
    """The sticks hats table and the curve, as the store makes them through the game's entry and the solvers'
    `hat_analysis` (issue 31 item 5), are the bytes they were when the store imported the sticks modules (the JSON
    hats table by its SHA-256 with its time blanked: the text of 91e844f)."""
    import hashlib
    import re

    def timeless(text: str) -> str:
        return re.sub(r'"exported_at": "[^"]*"', '"exported_at": ""', text)

    assert hats_export("b", learned_hats(), "csv") == HATS_CSV
    assert hashlib.sha256(timeless(hats_export("b", learned_hats(), "json")).encode()).hexdigest() == \
        "a2280d4ab2231e65e6d2bc65b139c69b9f822aaf791e7e7ed1d17fadce866c82"
    points = [(1, 0.1, 0.0, 0.0), (1000, 0.9, 0.5, 0.6)]
    assert curve_export("b", points, "csv", heap=20) == ("games,agreement,win,win_first,win_second,scope\n"
                                                         "1,0.1,0,0,0,heaps 2-20\n1000,0.9,0.55,0.5,0.6,heaps 2-20\n")
    assert json.loads(timeless(curve_export("b", points, "json", heap=20))) == {
        "format": EXPORT_FORMAT, "kind": "curve", "version": 1, "exported_at": "", "brain": "b", "heap": 20,
        "scope": "heaps 2-20", "points": [
            {"games": 1, "agreement": 0.1, "win": 0.0, "win_first": 0.0, "win_second": 0.0},
            {"games": 1000, "agreement": 0.9, "win": 0.55, "win_first": 0.5, "win_second": 0.6}]}


def test_what_a_curve_is_over_is_said_by_the_brains_game(tmp_path):
    """Issue 31 item 5: the store names no game's words; the number kept with a curve is said by the brain's game's
    entry (`curve_scope`): sticks' heaps, a game that keeps none says nothing, and a game's own words are its own."""
    import dataclasses

    from sticks_tui.engine import registry

    points = [(1, 0.1, 0.0, 0.0)]
    assert json.loads(curve_export("b", points, "json", heap=20, game="sticks"))["scope"] == "heaps 2-20"
    assert json.loads(curve_export("b", points, "json", heap=20, game="nim"))["scope"] is None
    sticks = registry.entry("sticks")
    registry.register(dataclasses.replace(sticks, curve_scope=lambda n: f"the heaps up to {n}"))
    try:
        assert [r["scope"] for r in rows(curve_export("b", points, "csv", heap=7))] == ["the heaps up to 7"]
        with Store.open(tmp_path) as store:  # the export of a stored curve: in its brain's game's words
            store.save_brain("b", Hats(9), 10)
            store.save_training_curve("b", [(10, 0.5, 0.25, 0.75)], heap=9)
            assert rows(build_export(store, "curve", "csv", brain="b").text)[0]["scope"] == "the heaps up to 9"
    finally:
        registry.register(sticks)


def test_a_curve_exported_before_the_scope_column_is_still_ours_to_replace(tmp_path):
    earlier = "games,agreement,win,win_first,win_second\n1,0.1,0,0,0\n"
    assert export_kind(earlier.encode()) == "curve"
    out = tmp_path / "curve.csv"
    out.write_text(earlier)
    text = curve_export("b", [(1, 0.5, 0.25, 0.75)], "csv", heap=20)
    write_export(out, text, "curve")
    assert out.read_text() == text


def test_the_table_of_any_other_games_brain_is_one_row_per_position_and_move():
    """Issue 32 item 2: a brain of any game exports its table as the one analysis reads it (MENACE's boxes for X,
    folded; a Nim brain's hats), not as sticks hats; the CSV is recognised as a hats table to replace."""
    from sticks_tui.engine import registry
    from sticks_tui.learn.analysis import analyse_brain
    from sticks_tui.learn.hats import HatRule

    for game, seat in (("noughts", 0), ("nim", None)):
        entry = registry.entry(game)
        brain = Hats(entry.brain_rules(0, 3, (2, 2, 2)), rule=HatRule(**entry.learner_settings), seat=seat)
        at = next(i for i, p in enumerate(brain.positions) if len(brain.moves_of(p)) > 1)
        first = brain.positions[at]
        brain.counts[brain.row(first), 0] += 5  # a preference at the first position with a choice
        doc = json.loads(hats_export("menace", brain, "json"))
        assert (doc["kind"], doc["brain"], doc["game"], doc["seat"]) == ("hats", "menace", game, seat)
        assert len(doc["positions"]) == len(brain.positions)
        row = doc["positions"][at]
        verdict = analyse_brain(brain).positions[at]
        rules = brain.rules
        assert row["position"] == rules.encode_position(first)
        assert row["counts"] == list(brain.hat(first)) and row["counts"][0] == row["counts"][1] + 5
        assert row["ai_move"] == rules.encode_move(brain.moves_of(first)[0])
        assert row["perfect_moves"] == [rules.encode_move(m) for m in verdict.perfect]
        assert row["value"] == {1: "win", 0: "draw", -1: "loss"}[verdict.value] and row["right"] == verdict.agrees
        text = hats_export("menace", brain, "csv")
        table = rows(text)
        assert len(table) == int(brain.n_moves.sum())  # one row per position and move
        skip = int(brain.n_moves[: brain.row(first)].sum())
        assert [r["ai_move"] for r in table[skip: skip + len(row["counts"])]] == ["yes"] + ["no"] * (len(row["counts"]) - 1)
        assert export_kind(text.encode()) == "hats"
