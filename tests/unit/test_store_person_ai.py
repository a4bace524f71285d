"""Issue 22 item 2 (and issue 16 item 3 on the store's side): no person shares a key with an AI. A friend
game with player 2 "Ｐerfect AI" is refused (it would land in the Perfect AI's row); rows kept before the
store refused it are reported by `sticks-tui records`, never merged silently."""

from __future__ import annotations

import json
import sqlite3

import pytest

from sticks_tui.cli import main
from sticks_tui.store import InvalidName, Store

FRIEND = dict(start=10, opponent="friend", moves=[3, 3, 3, 1], loser=1)


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "data") as s:
        yield s


@pytest.mark.parametrize("person", ["Ｐerfect AI", "perfect ai", "PERFECT AI", "Ｄumb AI", "Learning AI 2",
                                    "Nim Ｒandom AI"])
def test_a_person_under_an_ais_name_is_refused_and_nothing_is_recorded(store, person):
    store.record_game(start=10, opponent="perfect", players=("Ann", "Perfect AI"), moves=[1, 3, 3, 3], loser=0)
    with pytest.raises(InvalidName, match=r"is the name of an AI in the records \('.*', the same name by the name "
                                          r"rule\): a person cannot play under it"):
        store.record_game(players=("Ann", person), **FRIEND)
    assert store.game_count() == 1
    assert store.player("Perfect AI").wins == 1 and store.player("Perfect AI").is_ai
    with pytest.raises(InvalidName):
        store.check_players(("Ann", person), ())


def test_the_ais_own_names_are_the_apps():
    from sticks_tui.store.names import ai_name_of
    from sticks_tui.vocabulary import every_ai_name

    for name in (*every_ai_name(), "Learning AI 2", "Nim Learning AI 2", "MENACE 2"):
        assert ai_name_of(name) == name
    assert ai_name_of("Ｐerfect AI") == "Perfect AI" and ai_name_of("Perfect AI!") is None


def test_a_name_an_ai_played_under_is_never_a_persons_and_the_other_way(store):
    store.record_game(start=10, opponent="bot", players=("Ann", "Robo"), moves=[3, 3, 3, 1], loser=1)
    with pytest.raises(InvalidName, match="'ＲOBO' is the name of an AI in the records"):
        store.record_game(players=("Bea", "ＲOBO"), **FRIEND)
    store.record_game(players=("Bea", "Cy"), **FRIEND)
    with pytest.raises(InvalidName, match="'CY' is a person's name in the records"):
        store.record_game(start=10, opponent="bot", players=("Ann", "CY"), moves=[3, 3, 3, 1], loser=1)
    assert store.game_count() == 2
    assert store.check_players(("Ann", "Robo"), (1,)) == ("Ann", "Robo")


def test_records_reports_a_person_and_an_ai_in_one_row(tmp_path, capsys):
    data = tmp_path / "data"
    with Store.open(data) as store:
        store.record_game(start=10, opponent="perfect", players=("Ann", "Perfect AI"), moves=[1, 3, 3, 3], loser=0)
        path = store.path
        assert store.shared_names() == []
    with sqlite3.connect(path) as conn:  # a game kept before the store refused it
        conn.execute("INSERT INTO games (played_at, game, start, opponent, player1, player2, ai1, ai2, moves, loser, "
                     "player1_key, player2_key) VALUES ('2024-01-01T00:00:00+00:00', 'sticks', '10', 'friend', 'Zed', "
                     "'Ｐerfect AI', 0, 0, '[3, 3, 3, 1]', 1, 'zed', 'perfect ai')")
    with Store.open(data) as store:
        [shared] = store.shared_names()
        assert (shared.key, shared.people, shared.ais) == ("perfect ai", (("Ｐerfect AI", 1),), ("Perfect AI",))
        assert store.game_count() == 2  # reported, not merged or split
    sentence = ("The person 'Ｐerfect AI' (1 game) and the AI 'Perfect AI' are one name by the name rule "
                "('perfect ai'): their wins and losses are counted together in one row.")
    assert main(["--data-dir", str(data), "records"]) == 0
    out = capsys.readouterr().out
    assert f"\n  {sentence}\n" in out
    assert main(["--data-dir", str(data), "records", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["shared_names"] == [{"key": "perfect ai", "people": [{"name": "Ｐerfect AI", "games": 1}],
                                    "ais": ["Perfect AI"], "message": sentence}]


@pytest.mark.parametrize("names, message", [
    (["--name", "Ｌearning AI"], "sticks-tui classic: 'Ｌearning AI' is the name of an AI in the records ('Learning "
                                "AI', the same name by the name rule)"),
    (["--name", "Ann", "--name2", "ＡNN"], "sticks-tui classic: The two players need different names: 'Ann' and "
                                           "'ＡNN' are the same name by the name rule (both 'ann')."),
])
def test_the_line_game_refuses_such_names_before_the_first_game(tmp_path, capsys, monkeypatch, names, message):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("1\n10\n1\n1\n1\n1\n1\n1\n1\n1\n1\nn\n"))
    data = tmp_path / "data"
    assert main(["--data-dir", str(data), "classic", "--mode", "friend", *names]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(message) and captured.err.count("\n") == 1
    assert "sticks" not in captured.out  # no game was played
    with Store.open(data) as store:
        assert store.game_count() == 0
