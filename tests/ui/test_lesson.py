"""A lesson you can follow: step ball by ball (watch mode and training), both learners' hats, marks
that stay, losses that show (the MENACE-like preset), a tally, and a train dialog that stays still."""

from __future__ import annotations

from sticks_tui.learn.lesson_words import MARK_KEPT
from sticks_tui.ui.screens.game import GameScreen
from sticks_tui.ui.widgets.heatmap import MARK_BESIDE, MARK_DRAWN, HatHeatmap
from ui_helpers import log_lines, start_game, text_of


def footer_labels(screen) -> dict[str, str]:
    """What the footer shows now: binding id -> its label (the enabled, shown bindings)."""
    return {active.binding.id: active.binding.description for active in screen.active_bindings.values()
            if active.binding.show and active.binding.id}


async def test_watch_mode_steps_one_ball_at_a_time_then_the_lesson_then_the_next_game(make_app):
    app = make_app(ai_delay=60)  # nothing moves by itself: only the steps
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, heap=10, opponent="learning", watch=True)
        assert isinstance(screen, GameScreen)
        heatmap = screen.query_one(HatHeatmap)
        assert footer_labels(screen)["game.step"] == "Step: draw"
        await pilot.press("s")  # the first step pauses, and plays one move
        game = screen.game
        assert screen.paused and len(game.state.history) == 1
        assert footer_labels(screen)["game.pause"] == "Resume"
        first = game.state.history[0]
        mover = screen.players[first.player].name
        assert log_lines(screen)[-1].startswith(f"{mover} draws ball {first.take} from hat 10. {mover} takes")
        assert text_of(screen, "#turn").endswith("s steps one move, space goes on.")
        moves = 1
        learner_seat = 0  # the learning AI (the saved brain) plays Player 1's seat in watch mode
        while not game.is_over:
            lines = len(log_lines(screen))
            await pilot.press("s")
            moves += 1
            assert len(game.state.history) == moves and len(log_lines(screen)) >= lines + 1
            last = game.state.history[-1]
            mine = [(m.heap_before, m.take) for m in game.state.history if m.player == learner_seat]
            if not game.is_over:
                # ► only on the ball drawn at this move, the learner's earlier balls beside their hats (•)
                drawn = [(h, b) for h in range(1, 11) for b in range(1, 4) if heatmap.cell_text(h, b)[0] == MARK_DRAWN]
                assert drawn == ([(last.heap_before, last.take)] if last.player == learner_seat else [])
                for hat, ball in mine:
                    if (hat, ball) != (last.heap_before, last.take):
                        assert heatmap.cell_text(hat, ball)[0] == MARK_BESIDE
        # the game is over: the lesson is a step of its own, still to come
        assert footer_labels(screen)["game.step"] == "Step: lesson"
        assert not heatmap.data.flash and screen._lessons
        assert text_of(screen, "#turn").endswith("Paused: s shows the lesson, space goes on.")
        before = len(log_lines(screen))
        await pilot.press("s")
        lessons = log_lines(screen)[before:]
        won = game.state.loser != learner_seat
        assert len(lessons) == 2
        assert lessons[0].startswith("Learning AI won: " if won else "Learning AI lost")
        assert lessons[1].startswith("Learning AI 2 lost" if won else "Learning AI 2 won: ")
        mine = {(m.heap_before, m.take) for m in game.state.history if m.player == learner_seat}
        assert {(h, b) for h, b, _ in heatmap.data.flash} == mine
        assert footer_labels(screen)["game.step"] == "Step: new game"
        # the marks stay until the next game starts; its first step starts it and plays its first move
        await pilot.press("s")
        assert screen.round == 2 and len(screen.game.state.history) == 1 and not heatmap.data.flash
        # space lets it go on by itself
        await pilot.press("space")
        assert not screen.paused and footer_labels(screen)["game.pause"] == "Pause"
