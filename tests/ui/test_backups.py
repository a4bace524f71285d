"""The teacher's back-ups screen: the back-ups newest first, a restore that asks first, keeps what it
replaces and shows the restored records; a folder that cannot be written is said on the screen; "Back up now";
the serving server's real interval and its failing back-ups said; a back-up before the app's own resets."""

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


async def test_the_screen_says_the_servers_real_interval_and_failing_back_ups_and_back_up_now_is_a_key(
        make_app, data_dir, tmp_path, monkeypatch):
    """One app session holding the promises:
    1. the back-ups screen says the serving server's real interval and that its back-ups are failing (and no
       longer, once its status says so);
    2. "Back up now" is a key in the footer, and the list says why each was made, newest first."""
    from datetime import datetime, timezone

    from sticks_tui.store import backups
    from ui_helpers import footer_labels

    with Store.open(data_dir) as store:
        store.record_game(start=5, opponent="friend", players=("Ann", "Bob"), moves=[3, 1, 1], loser=0)
        make_backup(store.path, "start")
    status = tmp_path / "status.json"
    since = datetime(2026, 3, 2, 10, 42, tzinfo=timezone.utc)
    backups.write_status(status, backups.BackupStatus(every=60, failing_since=since, why="the disk is full", last=None))
    monkeypatch.setenv(backups.STATUS_ENV, str(status))
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        # 1. the server's interval, and its failing back-ups
        await pilot.press("f3", "b")
        screen = app.screen
        assert isinstance(screen, BackupsScreen)
        summary = " ".join(text_of(screen, "#backups-summary").split())
        assert "when it starts and every minute (this server's --backup-minutes)" in summary
        assert "every 10 minutes" not in summary
        local = since.astimezone().strftime("%H:%M")
        assert f"Back-ups failing since {local}: the disk is full. The class plays on" in summary
        backups.write_status(status, backups.BackupStatus(every=60, failing_since=None, why=None, last="x.db"))
        screen.show_summary()  # what its timer does every STATUS_CHECK seconds
        assert "failing" not in text_of(screen, "#backups-summary")

        # 2. Back up now
        assert footer_labels(screen)["backups.backup_now"] == "Back up now"
        await pilot.press("n")
        table = screen.query_one("#backups", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert [r[1:4] for r in rows] == [["made by hand", "1", "1"], ["server start", "1", "0"]]
        assert rows[0][4].endswith("-by-hand.db") and rows[0][0] >= rows[1][0]


# (the app's resets make a back-up first and say where: tests/ui/test_roles.py, the teacher offered every wipe)
