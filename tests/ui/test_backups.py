"""The teacher's back-ups screen: the back-ups newest first, a restore that asks first, keeps what it
replaces and shows the restored records; a folder that cannot be written is said on the screen."""

from __future__ import annotations

from textual.widgets import DataTable

from sticks_tui.store import Store
from sticks_tui.store.backups import list_backups, make_backup
from sticks_tui.ui.screens.backups import BackupsScreen
from sticks_tui.ui.screens.confirm import ConfirmDialog
from sticks_tui.ui.screens.records import RecordsScreen
from ui_helpers import text_of


async def test_the_teacher_restores_a_backup_after_a_question(make_app, data_dir):
    with Store.open(data_dir) as store:
        store.record_game(start=5, opponent="friend", players=("Ann", "Bob"), moves=[3, 1, 1], loser=0)
        chosen = make_backup(store.path, "start")
        store.record_game(start=5, opponent="friend", players=("Cy", "Di"), moves=[3, 1, 1], loser=1)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f3")
        records = app.screen
        assert isinstance(records, RecordsScreen) and records.query_one("#leaderboard", DataTable).row_count == 4
        await pilot.press("b")
        screen = app.screen
        assert isinstance(screen, BackupsScreen)
        table = screen.query_one("#backups", DataTable)
        assert [str(c) for c in table.get_row_at(0)][1:] == ["server start", "1", "0", chosen.name]
        table.focus()
        await pilot.press("enter")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")  # no: nothing changes
        assert app.screen is screen and len(list_backups(app.session.store.path)) == 1
        await pilot.press("r")
        await pilot.press("y")
        assert app.screen is screen
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert [r[1:4] for r in rows] == [["before a restore", "2", "1"], ["server start", "1", "0"]]
        await pilot.press("escape")
        assert app.screen is records and records.query_one("#leaderboard", DataTable).row_count == 2
    with Store.open(data_dir) as store:
        assert store.game_count() == 1


async def test_a_backup_folder_that_cannot_be_written_is_said_on_the_screen(make_app, data_dir):
    with Store.open(data_dir) as store:
        (store.path.parent / "backups").write_text("a file where the folder should be")
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f3", "b")
        assert isinstance(app.screen, BackupsScreen)
        summary = text_of(app.screen, "#backups-summary")
        assert "Back-ups cannot be written in" in summary and "The class plays on" in summary
        assert "There are no back-ups yet." in summary
