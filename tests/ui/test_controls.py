"""Illegal moves greyed out, the AI's turn locked, play again, and the hats changing on the heatmap."""

from __future__ import annotations

import numpy as np
from textual.widgets import Button

from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store
from sticks_tui.ui.widgets.heatmap import MARK_DOWN, MARK_KEPT, MARK_PERFECT, MARK_UP, HatHeatmap
from ui_helpers import log_lines, log_text, perfect_take, play_human_turns, start_game, text_of


def take_buttons(screen) -> dict[int, bool]:
    """{n: enabled} for the Take n buttons."""
    return {n: not screen.query_one(f"#take-{n}", Button).disabled for n in (1, 2, 3)}


def to_lose(heap: int) -> int:
    """A person who wants the AI to win: take the whole heap when it can, else one stick."""
    return heap if heap <= 3 else 1


async def test_play_again_the_learning_ai_learned_and_saved_its_hats_and_illegal_takes_do_nothing(make_app, data_dir):
    """Against the learning AI (this seed's wins game 1): play again, the same AI with its learned hats, saved; its
    loss flashes down; p marks the perfect moves; Enter plays again too.

    Then, in the same app, two friends: the takes the heap does not allow are disabled, and their keys and clicks
    make no move. Then against the learning AI moving first: every take is locked while it thinks, and opens when
    its move has come (the AI's pause made long: it will not move by itself)."""
    from sticks_tui.ui.screens.confirm import ConfirmDialog

    app = make_app(seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, heap=10, opponent="learning")
        heatmap = screen.query_one(HatHeatmap)
        fresh = Hats(100).counts
        assert np.array_equal(heatmap.data.counts, fresh) and heatmap.data.hats == 10
        assert text_of(screen, ".brain-title") == "Learning AI's hats"
        assert heatmap.cell_text(10, 1) == "▃33%    1"  # one ball of three: a third
        await play_human_turns(pilot, screen, to_lose)
        assert screen.game.state.loser == 0, "this seed's AI should win game 1"
        drawn = [(m.before, m.move) for m in screen.game.state.history if m.player == 1 and m.before > 1]  # 1: forced
        # the AI won: one more ball for each ball it drew, on the brain, the heatmap and in the store
        for hat, ball in drawn:
            assert app.session.brain.counts[hat, ball - 1] == 2
            assert heatmap.data.counts[hat, ball - 1] == 2
            assert heatmap.cell_text(hat, ball).startswith(MARK_UP) and heatmap.cell_text(hat, ball).endswith(" 2")
        assert not np.array_equal(heatmap.data.counts, fresh)
        assert "Learning AI won: each ball it drew goes back with one more of its number (" in log_text(screen)
        with Store.open(data_dir) as store:
            assert store.load_brain("default") == app.session.brain

        # play again (key n): the same AI, its learned hats; then it loses and the cells flash down
        await pilot.press("n")
        assert screen.round == 2 and not screen.game.is_over
        assert screen.players[1].hats is app.session.brain
        assert "Game 2: 10 sticks on the board. Player 1 moves first." in log_text(screen)
        await play_human_turns(pilot, screen, perfect_take)
        assert screen.game.state.loser == 1
        drawn = [(m.before, m.move) for m in screen.game.state.history if m.player == 1 and m.before > 1]  # 1: forced
        flashed = {(h, b): d for h, b, d in heatmap.data.flash}
        assert set(flashed) == set(drawn)
        # ↓ for a ball thrown away (one the win had added), = for a hat's last ball of its number, kept
        for hat, ball in drawn:
            kept = flashed[(hat, ball)] == 0
            assert app.session.brain.counts[hat, ball - 1] == (1 if kept else 2 + flashed[(hat, ball)])
            assert heatmap.cell_text(hat, ball).startswith(MARK_KEPT if kept else MARK_DOWN)
        # that the marks stay until the next game starts: test_game.py (timers run 3.5 s, faster)
        # the perfect-move overlay (p) marks the winning ball of a winning hat: from 10, take 1
        await pilot.press("p")
        assert heatmap.show_perfect and heatmap.cell_text(10, 1).startswith(MARK_PERFECT)
        assert not any(MARK_PERFECT in heatmap.cell_text(9, ball) for ball in (1, 2, 3))  # 9 = 4k+1: no winning move
        await pilot.press("enter")  # enter plays again too
        assert screen.round == 3
        assert not heatmap.data.flash  # the new game took the last game's marks away
        # illegal takes, and the AI's turn locked
        app.session.ai_delay_override = 30  # the AI will not move by itself from now on
        await pilot.press("escape")  # no move made yet: back at once
        screen = await start_game(pilot, heap=10, opponent="friend")
        assert take_buttons(screen) == {1: True, 2: True, 3: True}
        await pilot.press("3", "3", "2")
        assert screen.game.state.position == 2
        assert take_buttons(screen) == {1: True, 2: True, 3: False}
        assert text_of(screen, "#turn") == "Player 2's turn: take 1 or 2 (keys or buttons)."
        lines = log_lines(screen)
        await pilot.press("3")
        assert screen.game.state.position == 2 and screen.game.state.to_move == 1
        assert log_lines(screen) == lines
        await pilot.click("#take-3")  # a click on a disabled button is no move either
        assert screen.game.state.position == 2
        await pilot.press("1")
        assert take_buttons(screen) == {1: True, 2: False, 3: False}
        assert text_of(screen, "#turn") == "Player 1's turn: take 1 (keys or buttons)."
        await pilot.press("2")
        assert screen.game.state.position == 1 and not screen.game.is_over
        await pilot.press("escape")  # leave it (it asks)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        # the buttons are locked while the AI thinks
        screen = await start_game(pilot, heap=10, opponent="learning", first="p2")
        assert screen.game.current.name == "Learning AI" and not screen.game.waiting_for_human
        assert take_buttons(screen) == {1: False, 2: False, 3: False}
        assert text_of(screen, "#turn") == "Learning AI is thinking ..."
        await pilot.press("1")
        await pilot.click("#take-2")
        assert screen.game.state.position == 10 and screen.game.state.history == ()
        # the AI's move comes when it is due; then the buttons open for the person
        screen._ai_move(at_once=True)
        await pilot.pause()
        assert screen.game.state.position < 10 and screen.game.waiting_for_human
        assert take_buttons(screen) == {1: True, 2: True, 3: True}
    with Store.open(data_dir) as store:
        assert store.load_brain("default") == app.session.brain
        assert store.brain_record("default") == (1, 1)
