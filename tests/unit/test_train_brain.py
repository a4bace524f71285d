"""`sticks-tui train --brain NAME` (issue 16 item 7) and the scope of `train`'s figures (item 1).

A stored brain is trained as the app trains it: a copy of the brain as loaded (made on first use
as the app makes it, 100 hats), the run's net change merged onto the brain as stored, with its
games and its curve (`Store.keep_training`, which the app calls too). Every figure is over the
heaps trained, and the output says which."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sticks_tui.cli import main
from sticks_tui.solve.sticks_hats import analyse
from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.learn.merge import merge_net_change
from sticks_tui.learn.trainer import TrainingConfig, train
from sticks_tui.store import Store
from sticks_tui.store.migrations import SCHEMA_VERSION


def run(capsys, data, *args):
    code = main(["--data-dir", str(data), "train", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_names_its_scope(capsys):
    assert main(["train", "--sticks", "12", "--games", "3000", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scope"] == "heaps 2-12"
    assert "worst for the AI" in data["perfect_player"]


def test_text_says_what_the_figures_are_about(capsys):
    assert main(["train", "--sticks", "12", "--games", "3000", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Over heaps 2-12, its likeliest move is a winning move in" in out
    assert "In a game of 12 sticks it beats a perfect player" in out


def test_a_new_brain_is_made_as_the_app_makes_it_and_its_figures_are_over_the_heaps_trained(capsys, tmp_path):
    code, out, err = run(capsys, tmp_path, "--brain", "Class 3B", "--sticks", "20", "--games", "20000",
                         "--seed", "1", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["scope"] == "heaps 2-20"
    assert data["agreement"] == 1.0 and data["rule_matches_solution"] is True
    assert data["brain"] == {"name": "Class 3B", "hats": 100, "games_trained": 20_000}
    # exactly the app's run: a copy of a fresh 100-hat brain trained at heap 20
    expected = train(TrainingConfig(sticks=20, games=20_000, seed=1), brain=Hats(100))
    with Store.open(tmp_path) as store:
        stored = store.load_brain("class 3b")
        assert stored == expected.brain
        assert store.brain_info("Class 3B").games_trained == 20_000
        assert store.last_training_heap("Class 3B") == 20
        assert [p.games for p in store.last_training_curve("Class 3B")] == [p.games for p in expected.curve]
    assert data["hats"] == stored.as_lists()


def test_a_stored_brain_gets_the_net_change_merged_onto_it_as_the_app_does(capsys, tmp_path):
    rule = HatRule(win_reward=3, loss_penalty=0)
    before = Hats(100, rule=rule)
    before.counts[7] = [5, 9, 2]
    with Store.open(tmp_path) as store:
        store.save_brain("class", before, games_trained=40)
    code, out, err = run(capsys, tmp_path, "--brain", "class", "--sticks", "12", "--games", "500", "--seed", "5",
                         "--protocol", "classic")
    assert (code, err) == (0, "")
    trained = train(TrainingConfig(sticks=12, games=500, seed=5, protocol="classic"), brain=before.copy())
    with Store.open(tmp_path) as store:
        stored = store.load_brain("class")
        assert stored.rule == rule  # the brain's own rule, without asking
        assert np.array_equal(stored.counts, merge_net_change(before.counts, before.counts, trained.brain.counts, rule,
                                                                      before.legal_mask))
        assert store.brain_info("class").games_trained == 540
    assert "brain 'class': 100 hats, 540 games trained in all" in out
    from sticks_tui.learn.figure_words import percent

    share = percent(analyse(stored.counts, 3, heap=12).agreement)
    assert f"Over heaps 2-12, its likeliest move is a winning move in {share}" in out
    assert "(hats 13-100 not shown: this run did not train them)" in out


def test_the_app_keeps_a_run_with_the_same_core_call(tmp_path):
    """`Store.keep_training` is what the app's `_keep_training` calls: what games taught the brain
    meanwhile stays, the heap of the curve is kept."""
    with Store.open(tmp_path) as store:
        brain = store.load_or_create_brain("b", 100)
        start = brain.counts.copy()
        result = train(TrainingConfig(sticks=20, games=2000, seed=2), brain=brain.copy())
        store.record_game(game="sticks", start="20", opponent="learning", players=("Ann", "Learning AI"),
                          moves=[3, 3, 3, 3, 3, 3, 1, 1], loser=1, brain="b",
                          learning={1: ("b", [(17, 3), (11, 3), (5, 3), (1, 1)])})
        meanwhile = store.load_brain("b")
        kept = store.keep_training("b", start, result)
        assert np.array_equal(kept.counts, merge_net_change(meanwhile.counts, start, result.brain.counts, kept.rule,
                                                                  kept.legal_mask))
        assert store.last_training_heap("b") == 20


@pytest.mark.parametrize(("args", "status", "message"), [
    (["--reward", "3"], 2, "The brain 'class' learns by its own rule (start balls 1, win reward 1, loss penalty 1, "
                           "floor each); --reward would change it."),
    (["--sticks", "101"], 2, "The brain 'class' has 100 hats: --sticks must be between 1 and 100, not 101."),
    ([], 1, "The brain 'nimmy' is a brain for nim, not for sticks"),
    ([], 2, "A brain name needs at least one character."),
])
def test_a_run_that_cannot_be_kept_is_refused_and_nothing_changes(capsys, tmp_path, args, status, message):
    with Store.open(tmp_path) as store:
        store.load_or_create_brain("class", 100)
        store.load_or_create_brain("nimmy", game="nim")
        before = {b.name: (b.games_trained, store.load_brain(b.name)) for b in store.list_brains()}
    name = "nimmy" if "nimmy" in message else "" if "one character" in message else "class"
    code, out, err = run(capsys, tmp_path, "--brain", name, "--games", "100", *args)
    assert (code, out) == (status, "")
    assert err.startswith("sticks-tui train: " + message) and err.count("\n") == 1
    with Store.open(tmp_path) as store:
        assert {b.name: (b.games_trained, store.load_brain(b.name)) for b in store.list_brains()} == before


def test_the_curve_keeps_its_heap_and_an_old_curve_has_none(tmp_path):
    assert SCHEMA_VERSION >= 4  # the curve's heap came with version 4
    with Store.open(tmp_path) as store:
        store.save_training_curve("default", [(0, 0.5, 0.1, 0.2)], 35)
        assert store.last_training_heap("default") == 35
        store.save_training_curve("default", [(0, 0.5, 0.1, 0.2)])
        assert store.last_training_heap("default") is None
        assert store.last_training_heap("nobody") is None
        with pytest.raises(ValueError, match="whole number of 1 or more"):
            store.save_training_curve("default", [(0, 0.5, 0.1, 0.2)], 0)


def test_a_curve_kept_before_v4_has_no_heap_and_stays(tmp_path):
    """Migration 4 adds the curve's heap; a curve kept before was scored over every hat (None)."""
    from sticks_tui.store import DB_FILENAME
    from test_store_migration import v1_database

    v1_database(tmp_path / DB_FILENAME)
    with Store.open(tmp_path) as store:
        assert [(p.games, p.agreement) for p in store.last_training_curve("default")] == [(1, 0.5)]
        assert store.last_training_heap("default") is None
        store.keep_training("default", store.load_brain("default").counts,
                            train(TrainingConfig(sticks=8, games=100, seed=1), brain=store.load_brain("default")))
        assert store.last_training_heap("default") == 8


def test_an_exported_curve_names_its_heaps(capsys, tmp_path):
    assert run(capsys, tmp_path, "--brain", "class", "--sticks", "20", "--games", "300", "--seed", "1")[0] == 0
    assert main(["--data-dir", str(tmp_path), "export", "curve", "--brain", "class", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["heap"], doc["scope"]) == (20, "heaps 2-20")
