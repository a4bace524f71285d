"""A pupil's tab (`sticks-tui serve`'s pupils' address: `SticksApp(role="pupil")`) is never offered a wipe
(no key, footer entry, help line, palette command or tick box), one run anyway is refused, and the class's
records and brain are left as they were. The teacher (the default) keeps every command."""

from __future__ import annotations

from textual.widgets import DataTable, Input
from textual.widgets._footer import FooterKey

from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store, TeacherOnly
from sticks_tui.ui.screens.analysis import AnalysisScreen
from sticks_tui.ui.screens.confirm import ConfirmDialog
from sticks_tui.ui.screens.help import keys_of
from sticks_tui.ui.screens.records import RecordsScreen
from sticks_tui.ui.screens.training import TrainDialog
from ui_helpers import text_of, wait_until


def offered(screen) -> tuple[list[str], list[str], list[str], list[str]]:
    """What the screen offers now: its footer, its active binding ids, its help lines, its palette commands."""
    footer = [key.description for key in screen.query(FooterKey)]
    bindings = [a.binding.id for a in screen.active_bindings.values()]
    help_lines = [what for _, what in keys_of(screen)]
    palette = [title for provider in screen.COMMANDS for title, _, _ in provider(screen)._available()]
    return footer, bindings, help_lines, palette


async def test_a_pupils_tab_offers_no_wipe_and_refuses_one_run_anyway_and_never_gets_the_class_view(make_app, data_dir):
    """... and a pupil never gets the class view (the teacher's projector page), asked for as it starts, from the
    palette or run anyway."""
    from sticks_tui.ui.screens.setup import SetupScreen

    with Store.open(data_dir) as store:
        store.record_game(start=5, opponent="friend", players=("Ann", "Bob"), moves=[3, 1, 1], loser=0)
        trained = Hats(100)
        trained.counts[10, 1] += 7
        store.save_brain("default", trained, games_trained=9)
    app = make_app(role="pupil", view="class")
    async with app.run_test(size=(100, 30)) as pilot:
        assert isinstance(app.screen, SetupScreen)
        assert "Class view" not in [c.title for c in app.get_system_commands(app.screen)]
        app.action_class_view()
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert app.session.store.pupil is True
        await pilot.press("f3")
        records = app.screen
        assert isinstance(records, RecordsScreen)
        # the footer is composed after the screen: wait for it (a command it must show), then read it all
        await wait_until(pilot, lambda: "Export" in offered(records)[0], what="the records' footer")
        footer, bindings, help_lines, palette = offered(records)
        assert "Reset records" not in footer and "records.reset" not in bindings
        assert not any("Reset" in line for line in help_lines) and "Reset records" not in palette
        assert "Export" in footer and "Reload records" in palette  # the rest is there
        assert "records.backups" not in bindings and "Back-ups" not in palette
        assert "Back-ups" not in [c.title for c in app.get_system_commands(records)]
        await pilot.press("b")
        assert app.screen is records
        app.action_backups()  # run anyway: refused
        await pilot.pause()
        assert app.screen is records
        app._notifications.clear()
        await pilot.press("x")
        assert app.screen is records  # no question: the key does nothing
        await records.run_action("reset")  # what a palette or a footer click runs: check_action stops it first
        await pilot.pause()
        assert app.screen is records and not app._notifications
        records.action_reset()  # called directly: refused with a notice, never a question
        await pilot.pause()
        assert app.screen is records
        assert [n.message for n in app._notifications] == ["Only the teacher can reset the records."]
        with_store = app.session.store
        try:
            with_store.reset_records()
        except TeacherOnly:
            pass
        else:
            raise AssertionError("a pupil's store reset the records")

        await pilot.press("escape", "f4")
        analysis = app.screen
        assert isinstance(analysis, AnalysisScreen)
        analysis.query_one("#hats-table", DataTable).focus()
        await wait_until(pilot, lambda: "Copy brain" in offered(analysis)[0], what="the analysis footer")
        footer, bindings, help_lines, palette = offered(analysis)
        assert "Reset brain" not in footer and "analysis.reset_brain" not in bindings
        assert "Reset brain" not in palette and not any("forget" in line for line in help_lines)
        assert "Copy brain" in footer  # a copy takes nothing from anyone
        await pilot.press("x")
        assert app.screen is analysis
        analysis.action_reset_brain()
        await pilot.pause()
        assert app.screen is analysis

        # the training dialog: no "Reset the brain first", and another rule is refused with the reason
        await pilot.press("escape", "f2")
        dialog = app.screen
        assert isinstance(dialog, TrainDialog)
        assert not dialog.query("#reset-first")
        dialog.query_one("#start-balls", Input).value = "3"
        await wait_until(pilot, lambda: text_of(dialog, "#train-error") != "", what="the refusal")
        assert "only the teacher can reset it to learn by another" in text_of(dialog, "#train-error")
        dialog.query_one("#start-balls", Input).value = "1"
        await wait_until(pilot, lambda: text_of(dialog, "#train-error") == "", what="the refusal to go")
    with Store.open(data_dir) as store:
        assert store.game_count() == 1 and sorted(p.name for p in store.leaderboard()) == ["Ann", "Bob"]
        assert store.load_brain("default") == trained and store.brain_info("default").games_trained == 9


async def test_the_teacher_is_offered_every_wipe_and_each_makes_a_backup_first_and_says_where(make_app, data_dir):
    """The teacher (the terminal app, and serve's teacher's address) is offered every wipe; the app's resets (the
    records', a brain's) make a back-up first and say where. And the teacher deletes any brain from the records, and
    no pupil's tab makes it again (before, a brain a pupil made could be deleted only on the command line)."""
    from sticks_tui.store import StoreError
    from sticks_tui.store.backups import list_backups

    with Store.open(data_dir) as store:
        store.record_game(start=5, opponent="friend", players=("Ann", "Bob"), moves=[3, 1, 1], loser=0)
        store.load_or_create_brain("default", 20)
        store.copy_brain("default", "Cy's copy")
    with Store.open(data_dir) as pupil:  # a pupil's tab playing with it
        pupil.pupil = True
        hats = pupil.load_brain("Cy's copy")
        base = hats.counts.copy()
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f3")
        await wait_until(pilot, lambda: "Reset records" in offered(app.screen)[0], what="the records' footer")
        footer, bindings, _, palette = offered(app.screen)
        assert "Reset records" in footer and "Reset records" in palette
        assert "records.backups" in bindings and "Back-ups" in palette
        assert "Back-ups" in [c.title for c in app.get_system_commands(app.screen)]
        await pilot.press("x")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")  # no: nothing is reset
        assert isinstance(app.screen, RecordsScreen) and list_backups(app.session.store.path) == []
        # the resets make a back-up first and say where
        await pilot.press("x")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        made = list_backups(app.session.store.path)
        assert [(b.why, b.games) for b in made] == [("before-reset-records", 1)]
        assert any(made[0].name in str(n.message) for n in app._notifications)
        # the teacher deletes a pupil's brain from the records
        records = app.screen
        assert isinstance(records, RecordsScreen)
        brains = records.query_one("#brains", DataTable)
        brains.move_cursor(row=brains.get_row_index("Cy's copy"))
        brains.focus()
        await pilot.press("delete")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await wait_until(pilot, lambda: app.screen is records, what="the question answered")
        assert app.session.store.brain_info("Cy's copy") is None
        assert "Cy's copy" not in brains.rows
        said = [n.message for n in app._notifications if n.message.startswith("Deleted the brain 'Cy's copy'.")]
        assert len(said) == 1 and "kept in the back-up" in said[0] and "before-delete-brain" in said[0], said
        app.pop_screen()
        app.action_analysis()
        await pilot.pause()
        assert isinstance(app.screen, AnalysisScreen)
        await pilot.press("x")
        await pilot.press("y")
        await pilot.pause()
        made = list_backups(app.session.store.path)
        assert [(b.why, b.about) for b in made][0] == ("before-reset-brain", "default")
        with Store.open(data_dir) as store:
            assert store.game_count() == 0
        await pilot.press("escape", "f2")
        assert app.screen.query("#reset-first")
    with Store.open(data_dir) as pupil:  # the pupil's tab saves what its AI learned: the brain is not made again
        pupil.pupil = True
        hats.counts[3, 0] += 1
        try:
            pupil.save_brain("Cy's copy", hats, base=base)
        except StoreError as exc:
            assert "is no longer kept (the teacher deleted it" in str(exc)
        else:
            raise AssertionError("a pupil's tab made again the brain the teacher deleted")
        assert pupil.brain_info("Cy's copy") is None
