"""With no game or setup screen of a game on the stack (the analysis or the paper game opened for another
game), its learner's brain is the side its learning AI plays in the game's own story: HER's Black (19 boxes,
as Gardner's), MENACE's X, the one brain of sticks and Nim."""

from __future__ import annotations

from sticks_tui.ui.app import SticksApp


def test_the_side_in_play_of_a_game_not_on_screen_is_its_learners_own():
    app = SticksApp()
    assert app.screen_stack == []  # no game and no setup screen: the fallback is asked
    assert [app.brain_side_in_play(g) for g in ("sticks", "nim", "noughts", "hexapawn")] == [0, 0, 0, 1]
