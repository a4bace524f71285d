"""The brain owns its rule (issue 17 item 2): legality, floor, limits and incentives per outcome live
with `Hats`/`HatRule`, and everything else reads them there."""

from __future__ import annotations

import numpy as np
import pytest

from sticks_tui import cli
from sticks_tui.engine.nim import NimRules
from sticks_tui.learn import hats as hats_module
from sticks_tui.learn.hats import MAX_COUNT, RULE_LIMITS, HatRule, Hats
from sticks_tui.learn.merge import merge_net_change
from sticks_tui.store.brains import legal_of


def test_the_legal_mask_is_the_brains_own():
    sticks = Hats(5)
    assert sticks.legal_mask.tolist()[:4] == [[False] * 3, [True, False, False], [True, True, False], [True] * 3]
    assert not sticks.legal_mask.flags.writeable
    nim = Hats(NimRules((2, 1, 1)))
    assert (nim.legal_mask.sum(axis=1) == nim.n_moves).all()
    assert legal_of(nim) is nim.legal_mask and legal_of(sticks) is sticks.legal_mask


def test_the_merge_holds_the_floor_of_the_one_hat_rule(monkeypatch):
    """The merge's floor is `reinforced_count`'s own: a rule whose loss floor were 2 would hold merged
    hats at 2 too (the merge once wrote the floor again in NumPy)."""
    real = hats_module.reinforced_count

    def floor_two(before, others, change, floor_code):
        after = real(before, others, change, floor_code)
        return max(after, min(before, 2)) if change < 0 else after

    start = Hats(4).counts
    start[4] = [5, 5, 5]
    trained = start.copy()
    trained[4] = [1, 5, 5]  # the run lost 4 of the ones
    assert merge_net_change(start, start, trained, HatRule(), Hats(4).legal_mask)[4].tolist() == [1, 5, 5]
    monkeypatch.setattr(hats_module, "reinforced_count", floor_two)
    assert merge_net_change(start, start, trained, HatRule(), Hats(4).legal_mask)[4].tolist() == [2, 5, 5]
    brain = Hats(4, counts=start)
    assert brain.floor_of(4, 1) == 2  # the same rule as a lesson's


def test_outcomes_give_the_rules_change_to_each_ball_drawn():
    rule = HatRule(start_balls=3, win_reward=3, draw_reward=1, loss_penalty=1)  # noughts and crosses, MENACE-style
    assert [rule.change(o) for o in (1, 0, -1)] == [3, 1, -1]
    brain = Hats(6, rule=rule)
    assert [c.after for c in brain.reinforce([(6, 1)], outcome=0)] == [4]
    assert [c.after for c in brain.reinforce([(6, 1)], outcome=1)] == [7]
    assert [c.after for c in brain.reinforce([(6, 1)], won=False)] == [6]
    brain.counts[5] = [1, 1, 1]
    assert [c.after for c in Hats(6, rule=HatRule(draw_reward=-4), counts=brain.counts).reinforce([(5, 2)], outcome=0)] == [1]
    with pytest.raises(ValueError, match="won, or an outcome"):
        brain.reinforce([(6, 1)], won=True, outcome=1)
    with pytest.raises(ValueError, match="outcome is"):
        brain.reinforce([(6, 1)], outcome=2)
    assert HatRule().change(0) == 0  # sticks and Nim never draw: their rules keep no draw reward
    with pytest.raises(ValueError, match="The draw reward must be between -1000 and 1000, not 1001"):
        HatRule(draw_reward=1001)
    assert reinforce_cap() == MAX_COUNT


def reinforce_cap() -> int:
    brain = Hats(3, rule=HatRule(draw_reward=1000))
    brain.counts[3, 0] = MAX_COUNT - 1
    return brain.reinforce([(3, 1)], outcome=0)[0].after


def test_the_rules_limits_are_written_once_and_the_command_line_reads_them(monkeypatch, capsys):
    assert RULE_LIMITS["start_balls"] == (1, 1000) and RULE_LIMITS["win_reward"] == (0, 1000)
    monkeypatch.setitem(RULE_LIMITS, "win_reward", (0, 5))
    with pytest.raises(ValueError, match="The win reward must be between 0 and 5, not 6"):
        HatRule(win_reward=6)
    with pytest.raises(SystemExit) as exited:
        cli.main(["train", "--sticks", "5", "--games", "10", "--reward", "6"])
    assert exited.value.code == 2 and "--reward must be between 0 and 5, not 6" in capsys.readouterr().err


def test_a_brain_with_a_draw_reward_round_trips_through_the_store_and_brain_files(tmp_path):
    """The brains table keeps the whole rule (schema version 5's draw_reward column): a brain with a
    draw reward is saved, read, listed, copied, reset and rebuilt by its own rule, and a brain file
    written from it reads back the same brain. (Before, the store refused it rather than drop it.)"""
    from sticks_tui.store import Store
    from sticks_tui.store.brainfile import decode, encode

    rule = HatRule(start_balls=3, win_reward=3, draw_reward=-2, loss_penalty=1, floor="nonempty")
    brain = Hats(5, rule=rule)
    brain.counts[4, 1] = 9
    with Store.open(tmp_path) as store:
        store.save_brain("drawer", brain)
        assert store.load_brain("drawer") == brain and store.load_brain("drawer").rule.draw_reward == -2
        assert store.brain_info("drawer").rule == rule == store.list_brains()[0].rule
        assert store.rebuild_brain("drawer") == brain
        store.copy_brain("drawer", "twin")
        assert store.load_brain("twin").rule == rule
        store.reset_brain("twin")
        assert store.load_brain("twin") == Hats(5, rule=rule)
        store.save_brain("plain", Hats(5))
        assert store.load_brain("plain") == Hats(5)
    back = decode(encode("drawer", brain, 7, "now").encode())
    assert back.hats == brain and back.hats.rule.draw_reward == -2 and back.games_trained == 7
    assert '"draw_reward"' not in encode("plain", Hats(5), 0, "now")  # a file without one reads as before
