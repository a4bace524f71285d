"""Issue 16 item 2 on the game screen: the log tells a game's lesson by the brain's own rule."""

from __future__ import annotations

from sticks_tui.learn.hats import Hats, HatRule
from sticks_tui.store import Store
from ui_helpers import log_text, play_human_turns, start_game


def to_lose(heap: int) -> int:
    return heap if heap <= 3 else 1


async def test_the_game_log_tells_a_win_of_three_balls(make_app, data_dir):
    with Store.open(data_dir) as store:
        store.save_brain("default", Hats(100, rule=HatRule(win_reward=3, loss_penalty=0)))
    app = make_app(seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, heap=10, opponent="learning")
        await play_human_turns(pilot, screen, to_lose)
        assert screen.game.state.loser == 0, "this seed's AI should win game 1"
        drawn = [(m.before, m.move) for m in screen.game.state.history if m.player == 1]
        changes = ", ".join(f"hat {h} ball {b}: 1→4" for h, b in drawn)
        assert f"Learning AI won: each ball it drew goes back with 3 more of its number ({changes})." \
            in log_text(screen)
