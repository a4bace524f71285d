"""The class, live, in a tab: a classmate's game (another connection to the same database) shows on the game
screen's heatmap, marked ↑, with whose game it was, and in the records without a key."""

from __future__ import annotations

from textual.widgets import DataTable

from sticks_tui.store import Store
from sticks_tui.ui.screens.records import RecordsScreen
from sticks_tui.ui.widgets.heatmap import HatHeatmap
from ui_helpers import start_game, text_of, wait_until


async def test_a_classmates_game_shows_on_the_heatmap_and_in_the_records(make_app, data_dir):
    app = make_app(ai_delay=30)  # the AI never moves during the test: the heatmap changes only by the class
    async with app.run_test(size=(120, 36)) as pilot:
        game = await start_game(pilot, heap=10, opponent="learning")
        before = app.session.brain.counts.copy()
        with Store.open(data_dir) as classmate:
            classmate.record_game(start=7, opponent="learning", players=("Ann", "Learning AI"),
                                  moves=[1, 1, 3, 1, 1], loser=0, brain="default",
                                  learning={1: ("default", [(6, 1), (2, 1)])})
        heatmap = game.query_one(HatHeatmap)
        await wait_until(pilot, lambda: heatmap.data.flash == ((2, 1, 1), (6, 1, 1)), timeout=5,
                         what="the classmate's lesson marked on the heatmap")
        assert heatmap.data.counts[6, 0] == before[6, 0] + 1 and app.session.brain.counts[2, 0] == before[2, 0] + 1
        assert text_of(game, ".brain-title") == "Learning AI's hats · Ann's game: hat 6, ball 1 ↑; hat 2, ball 1 ↑"

        await pilot.press("escape", "f3")
        records = app.screen
        assert isinstance(records, RecordsScreen)
        with Store.open(data_dir) as classmate:
            classmate.record_game(start=5, opponent="friend", players=("Bo", "Cy"), moves=[3, 1, 1], loser=0)
        board = records.query_one("#leaderboard", DataTable)
        await wait_until(pilot, lambda: "Bo" in board.rows, timeout=5, what="Bo in the leaderboard without F5")
        assert records.sub_title == "records · Bo and Cy's game"
