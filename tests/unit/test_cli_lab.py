"""`sticks-tui lab`: the table and JSON of a race of learners; a bad value is one line and exit 2."""

from __future__ import annotations

import json

import pytest

from sticks_tui.cli import main
from sticks_tui.learn.lab import lab_game, parse_learner, run_learner


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow  # two spawned processes load the lab kernel
def test_json_lists_the_learners_in_order_with_their_mastery(capsys, tmp_path):
    code, out, err = run(["--data-dir", str(tmp_path), "lab", "--game", "sticks", "--size", "12", "--learner", "qseat",
                          "--learner", "hats:reward=3,penalty=1", "--seeds", "3", "--cap", "3000", "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["workers"] == 2
    assert [(x["name"], x["spec"]) for x in data["learners"]] == [("qseat", "qseat"), ("hats", "hats:reward=3")]
    assert data["learners"][1]["settings"] == {"start": 1, "reward": 3, "penalty": 1, "draw": 0, "floor": "each",
                                               "vs": "self", "table": "two"}
    # the figures are the runs' own: seed by seed, as one run in this process finds them
    g = lab_game("sticks", 12)
    for learner in data["learners"]:
        alone = [run_learner(parse_learner(learner["spec"]), g, seed, 3000).mastery[2] for seed in (0, 1, 2)]
        assert learner["mastery_by_seed"] == alone
        ordered = sorted(alone)
        assert learner["games_to_mastery"] == {"median": ordered[1], "p90": ordered[2], "never": 0}
    curve = data["learners"][0]["curve"]
    assert [p["games"] for p in curve][:5] == [1, 2, 3, 5, 7] and curve[-1]["games"] == 3000
    assert curve[-1]["agreement"]["median"] == 1.0


@pytest.mark.slow
def test_the_table_names_each_learner_and_never(capsys, tmp_path):
    code, out, _ = run(["--data-dir", str(tmp_path), "lab", "--size", "30", "--learner", "hats", "--learner", "q:alpha=1,epsilon=0.3",
                        "--seeds", "2", "--cap", "500", "--workers", "1"], capsys)
    assert code == 0
    rows = out.splitlines()
    assert rows[0].startswith("Lab: the Game of Sticks from 30 sticks (explore protocol), 2 learners x 2 seeds, cap "
                              "500 games a run")
    assert rows[3].split()[:6] == ["hats", "one", "seat", "never", "never", "2"]
    assert rows[4].split()[:3] == ["q", "both", "seats"]  # alpha 1, epsilon 0.3: q's own settings


def test_textbook_q_masters_20_sticks_in_under_1000_games_from_the_command_line(capsys, tmp_path):
    """Issue 35's done-when: `lab --game sticks --size 20 --learner q:alpha=1,epsilon=0.3` reports a median
    under 1,000 games (here on 5 seeds, capped at 1,000 games), held on every seed."""
    code, out, err = run(["--data-dir", str(tmp_path), "lab", "--game", "sticks", "--size", "20", "--learner",
                          "q:alpha=1,epsilon=0.3", "--seeds", "5", "--cap", "1000", "--workers", "1", "--json"],
                         capsys)
    assert code == 0, err
    (q,) = json.loads(out)["learners"]
    assert q["games_to_mastery"]["median"] < 1000 and q["games_to_mastery"]["never"] == 0 and q["held"] == 5


def test_noughts_reports_first_and_held_for_q(capsys, tmp_path):
    """Issue 35's done-when: `lab --game noughts` reports mastery (first and held) for at least one learner."""
    code, out, err = run(["--data-dir", str(tmp_path), "lab", "--game", "noughts", "--learner", "q", "--learner",
                          "hats", "--seeds", "2", "--cap", "20000", "--workers", "1"], capsys)
    assert code == 0, err
    rows = out.splitlines()
    assert "held" in rows[2] and "learns from" in rows[2]
    q = rows[3].split()
    assert q[:3] == ["q", "both", "seats"] and q[3] != "never" and q[-3] == "2/2"


@pytest.mark.parametrize("argv,message", [
    (["--learner", "sarsa"], "there is no learner 'sarsa': choose hats, q, qseat, mc (e.g. hats:reward=3,penalty=1 or "
                                "q:alpha=1,epsilon=0.3)"),
    (["--learner", "hats:balls=3"], "hats has no setting 'balls': its settings are start, reward, penalty, draw, "
                                    "floor, vs, table"),
    (["--cap", "0"], "--cap is a whole number from 1 to 10,000,000, not 0"),
    (["--seeds", "101"], "--seeds is a whole number from 1 to 100, not 101"),
    (["--game", "chess"], "there is no game 'chess': choose sticks, nim, noughts, hexapawn"),
    (["--preset", "fast"], "there is no preset 'fast': choose incentives, hats-vs-q, start-balls"),
    (["--protocol", "random"], "there is no protocol 'random': choose explore, classic"),
])
def test_bad_values_are_one_line_and_exit_2(argv, message, capsys):
    code, out, err = run(["lab", *argv], capsys)
    assert code == 2
    assert out == ""
    assert err == f"sticks-tui lab: {message}.\n"


@pytest.mark.slow  # the lab kernel runs (in this process)
def test_a_finished_lab_is_kept_listed_shown_again_and_exported(capsys, tmp_path):
    data = ["--data-dir", str(tmp_path / "data")]
    lab = ["lab", "--size", "8", "--learner", "hats", "--learner", "mc", "--seeds", "2", "--cap", "300", "--workers", "1"]
    code, out, err = run([*data, *lab], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[-1] == ("Kept as lab 1: `sticks-tui lab --show 1` shows it again, `sticks-tui export lab --id 1` "
                         "writes it as CSV or JSON.")
    code, json_out, _ = run([*data, *lab, "--json"], capsys)
    printed = json.loads(json_out)
    assert code == 0 and printed["lab_id"] == 2
    code, listed, _ = run([*data, "lab", "--list"], capsys)
    assert code == 0
    assert [row.split()[0] for row in listed.splitlines()] == ["Lab", "2", "1"]
    assert listed.splitlines()[1].split()[3:9] == ["sticks", "8", "hats", "mc", "2", "300"]
    # shown again: the very table the run printed, and the very JSON
    code, shown, _ = run([*data, "lab", "--show", "1"], capsys)
    assert code == 0
    assert shown.splitlines()[0].startswith("Lab 1, finished ")
    assert shown.splitlines()[1:] == lines[:-1]
    code, shown_json, _ = run([*data, "lab", "--show", "2", "--json"], capsys)
    again = json.loads(shown_json)
    assert again.pop("id") == 2 and again.pop("finished_at")
    assert again == {k: v for k, v in printed.items() if k != "lab_id"}
    # exported through the export guard: never over the database
    target = tmp_path / "lab.csv"
    code, out, err = run([*data, "export", "lab", "--id", "1", "-o", str(target)], capsys)
    assert (code, err) == (0, "")
    assert out == f"Exported the learning lab (CSV) to {target}.\n"
    assert target.read_text().splitlines()[0].startswith("learner,spec,games,agreement_median,")
    code, out, err = run([*data, "export", "lab", "-o", str(tmp_path / "data" / "sticks-tui.db")], capsys)
    assert code == 1 and "sticks-tui's own database" in err
    code, _, _ = run([*data, *lab, "--no-keep"], capsys)
    code, listed, _ = run([*data, "lab", "--list", "--json"], capsys)
    assert [k["id"] for k in json.loads(listed)] == [2, 1]


@pytest.mark.parametrize("argv,status,message", [
    (["--list", "--learner", "q"], 2, "sticks-tui lab: --list runs no lab: leave out --learner.\n"),
    (["--show", "3", "--cap", "10"], 2, "sticks-tui lab: --show runs no lab: leave out --cap.\n"),
    (["--show", "3"], 1, "sticks-tui lab: there is no lab with id 3; `sticks-tui lab --list` lists them.\n"),
])
def test_list_and_show_run_nothing_and_a_missing_lab_is_one_line(argv, status, message, capsys, tmp_path):
    code, out, err = run(["--data-dir", str(tmp_path), "lab", *argv], capsys)
    assert (code, out, err) == (status, "", message)


def test_no_lab_kept_yet(capsys, tmp_path):
    assert run(["--data-dir", str(tmp_path), "lab", "--list"], capsys) == \
        (0, "No lab is kept yet: run one with `sticks-tui lab`.\n", "")
    code, _, err = run(["--data-dir", str(tmp_path), "export", "lab"], capsys)
    assert code == 1 and err.startswith("sticks-tui export: No lab is kept yet")


def test_a_database_that_cannot_be_used_is_said_before_any_run(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code, out, err = run(["--data-dir", str(blocker / "data"), "lab", "--size", "8", "--seeds", "1", "--cap", "10"],
                         capsys)
    assert (code, out) == (1, "")
    assert err.startswith("sticks-tui lab: Cannot use the data directory") and err.count("\n") == 1


def test_a_lab_says_its_game_in_the_games_own_words():
    from sticks_tui.commands.lab import lab_game_words

    assert lab_game_words("sticks", 100) == "the Game of Sticks from 100 sticks"
    assert lab_game_words("nim", 7) == "three-pile Nim from 7 nickels, 7 dimes, 7 quarters"
    assert lab_game_words("noughts", 3) == "noughts and crosses"
    assert lab_game_words("chess", 8) == "chess 8"  # a lab kept by a sticks-tui that knew another game
