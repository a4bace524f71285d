"""The class view (the teacher's projector page): opened with no key, it shows the class's brain, leaderboard,
today's games and the latest games, and follows a classmate's game by itself; a pupil never gets it."""

from __future__ import annotations

from textual.widgets import DataTable

from sticks_tui.store import Store
from sticks_tui.ui.screens.class_view import ClassScreen
from sticks_tui.ui.screens.setup import SetupScreen
from sticks_tui.ui.widgets.heatmap import HatHeatmap
from ui_helpers import text_of, wait_until


async def test_the_projectors_class_view_follows_the_class_with_no_key(make_app, data_dir):
    with Store.open(data_dir) as store:
        store.record_game(start=5, opponent="friend", players=("Ann", "Bob"), moves=[3, 1, 1], loser=0)
    app = make_app(role="projector", view="class")  # serve's projector page: the view, and a pupil's powers
    async with app.run_test(size=(100, 30)) as pilot:
        assert app.session.store.pupil is True
        screen = app.screen
        assert isinstance(screen, ClassScreen)
        leaders = screen.query_one("#class-leaders", DataTable)
        assert [str(leaders.get_row_at(i)[0]) for i in range(leaders.row_count)] == ["Bob", "Ann"]
        assert text_of(screen, "#class-today") == "Today: 1 game: Ann 1, Bob 1"
        assert text_of(screen, "#class-ticker").endswith("Ann vs Bob: Bob won")
        with Store.open(data_dir) as classmate:
            classmate.record_game(start=7, opponent="learning", players=("Cy", "Learning AI"),
                                  moves=[1, 1, 3, 1, 1], loser=0, brain="default",
                                  learning={1: ("default", [(6, 1), (2, 1)])})
        heatmap = screen.query_one("#class-heatmap", HatHeatmap)
        await wait_until(pilot, lambda: heatmap.data.flash == ((2, 1, 1), (6, 1, 1)), timeout=5,
                         what="the classmate's lesson on the class's heatmap")
        assert text_of(screen, "#class-news") == "Cy's game: hat 6, ball 1 ↑; hat 2, ball 1 ↑"
        assert text_of(screen, "#class-today") == "Today: 2 games: Ann 1, Bob 1, Cy 1"
        assert text_of(screen, "#class-ticker").splitlines()[0].endswith("Cy vs Learning AI: Learning AI won")
        await pilot.press("escape")
        assert isinstance(app.screen, SetupScreen)


async def test_a_pupil_never_gets_the_class_view(make_app):
    app = make_app(role="pupil", view="class")
    async with app.run_test(size=(100, 30)) as pilot:
        assert isinstance(app.screen, SetupScreen)
        assert "Class view" not in [c.title for c in app.get_system_commands(app.screen)]
        app.action_class_view()
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
