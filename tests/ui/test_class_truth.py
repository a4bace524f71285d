"""The class is told the truth (issue 30 item 7), driven as a class does: every way into a game records the names
typed on the setup screen; "whose game" is said only over the brain that game taught; after a restore the
pupils' screens say so instead of presenting the restored games as just played; a pupil's tab never shows the
server's paths; a pupil's brain copies are limited (the teacher deleting any brain: tests/ui/test_roles.py)."""

from __future__ import annotations

from textual.command import CommandList, CommandPalette
from textual.widgets import DataTable, Select

from sticks_tui.learn.hats import RULE_PRESETS
from sticks_tui.store import Store, StoreError
from sticks_tui.store.backups import make_backup
from sticks_tui.store.errors import PUPIL_CLASS_BRAINS
from sticks_tui.ui.screens.analysis import AnalysisScreen
from sticks_tui.ui.screens.class_view import ClassScreen
from sticks_tui.ui.screens.confirm import ConfirmDialog, NameDialog
from sticks_tui.ui.screens.game import GameScreen
from sticks_tui.ui.screens.records import RecordsScreen
from sticks_tui.ui.screens.setup import SetupScreen
from sticks_tui.ui.session import BRAIN_SIZE
from sticks_tui.ui.widgets.heatmap import HatHeatmap
from sticks_tui.ui.widgets.inputs import Input
from sticks_tui.vocabulary import NOUGHTS_BRAINS
from ui_helpers import start_game, text_of, wait_until

#: A noughts game Cy5 drew with MENACE (X): it taught X's boxes only, never the sticks hats.
MENACE_X = NOUGHTS_BRAINS["X"]
NOUGHTS_DRAW = dict(game="noughts", start=".........", opponent="menace", moves=[5, 1, 9, 3, 2, 8, 7, 4, 6],
                    loser=None, first=1, ai_seats=[1], brain=MENACE_X,
                    learning={1: (MENACE_X, [(".........", 5), ("O...X....", 9), ("O.O.X...X", 2),
                                             ("OXO.X..OX", 7)])})


def sticks_win(name: str) -> dict:
    """A game the learning AI won against `name` at 7 sticks, drawing 1 from hat 6 then from hat 2."""
    return dict(start=7, opponent="learning", players=(name, "Learning AI"), moves=[1, 1, 3, 1, 1], loser=0,
                brain="default", learning={1: ("default", [(6, 1), (2, 1)])})


async def type_into(pilot, selector: str, text: str) -> None:
    """Replace what a box holds, as a person does: into it, to its end, rub out, type."""
    box = pilot.app.screen.query_one(selector, Input)
    box.focus()
    await pilot.press("end", *["backspace"] * len(box.value), *text)


async def from_the_palette(pilot, words: str, screen_type) -> None:
    app = pilot.app
    await pilot.press("ctrl+p")
    assert isinstance(app.screen, CommandPalette)
    await pilot.press(*words)

    def first() -> str:
        found = app.screen.query_one(CommandList)
        return str(found.get_option_at_index(0).prompt) if found.option_count else ""

    await wait_until(pilot, lambda: first().lower().startswith(words.lower()), what=f"'{words}' in the palette")
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, screen_type) and app.screen.is_mounted, what="its screen")


async def test_every_way_into_noughts_records_the_names_typed_on_the_setup_screen(make_app, data_dir):
    """Before, noughts opened from the command palette recorded every pupil as "Player 1"; and opened from the
    setup screen against MENACE, then switched to a friend on its own screen, it gave the friend MENACE's name,
    which the records refuse: the game was not kept at all. Now every way into noughts is the setup screen's
    (the palette's opens it with noughts chosen), so the names typed there are the ones kept."""
    with Store.open(data_dir) as store:  # MENACE (X) resigns at once: its box for the empty board emptied
        boxes = store.load_or_create_brain(MENACE_X, game="noughts", seat=0)
        boxes.counts[0] = 0
        store.save_brain(MENACE_X, boxes, replace=True)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#opponent", Select).value = "friend"
        await pilot.pause()
        await type_into(pilot, "#name1", "Cy5")
        await type_into(pilot, "#name2", "Di")
        setup.query_one("#opponent", Select).value = "learning"  # Player 2's box now shows the AI's name

        await from_the_palette(pilot, "Noughts", SetupScreen)  # the palette's way in: the setup screen, noughts
        assert app.screen is setup and setup.game_kind == "noughts"
        setup.query_one("#first", Select).value = "p2"  # MENACE moves first: X
        await pilot.pause()
        await pilot.press("ctrl+s")
        store = app.session.store
        await wait_until(pilot, lambda: store.game_count() == 1, what="the game kept")
        (game,) = store.recent_games(limit=1)
        assert game.game == "noughts" and game.players == ("Cy5", "MENACE") and game.resigned

        await pilot.press("escape")
        assert app.screen is setup
        setup.query_one("#opponent", Select).value = "friend"  # a friend takes O: the name typed for them
        setup.query_one("#first", Select).value = "p1"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.is_mounted,
                         what="the game screen")
        await pilot.press("1", "4", "2", "5", "3")  # X takes the top row
        await wait_until(pilot, lambda: store.game_count() == 2, what="the friends' game kept")
        game = store.recent_games(limit=1)[0]
        assert game.players == ("Cy5", "Di") and game.winner_name == "Cy5"

        await pilot.press("escape")
        assert app.screen is setup
        setup.query_one("#opponent", Select).value = "menace"
        await type_into(pilot, "#name1", "Menace")  # an AI's name, by the name rule: said, and no game starts
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is setup and store.game_count() == 2
        assert text_of(setup, "#heap-error") == "'Menace' is the MENACE's name: choose another."


async def test_whose_game_is_said_only_over_the_brain_it_taught(make_app, data_dir):
    """Before, after a classmate's noughts game every sticks screen and the projector said "Cy5's game" over
    hats that game never touched. The records still say whose games came in."""
    app = make_app(ai_delay=30)  # the AI never moves in this test: the hats change only by the class
    async with app.run_test(size=(120, 36)) as pilot:
        game = await start_game(pilot, heap=10, opponent="learning")
        app.keeper.learner("noughts", 0)  # MENACE's X boxes, as a tab that played noughts holds them
        with Store.open(data_dir) as classmate:
            classmate.record_game(players=("Cy5", "MENACE"), **NOUGHTS_DRAW)
        app.check_class()  # what the app does twice a second
        await pilot.pause()
        assert text_of(game, ".brain-title") == "Learning AI's hats"
        assert app.class_change.news == "Cy5's game" and app.class_change.words == ""

        app.action_class_view()
        await wait_until(pilot, lambda: isinstance(app.screen, ClassScreen) and app.screen.is_mounted,
                         what="the class view")
        view = app.screen
        with Store.open(data_dir) as classmate:
            classmate.record_game(players=("Dee", "MENACE"), **NOUGHTS_DRAW)
        app.check_class()
        await pilot.pause()
        assert app.class_change.news == "Dee's game"
        # the projector follows the game the class plays: Dee's game is said over MENACE's boxes it taught
        assert text_of(view, "#class-brain-title").startswith("The class plays noughts and crosses: MENACE (X)'s boxes")
        assert text_of(view, "#class-news") == "Dee's game: a draw"
        with Store.open(data_dir) as classmate:  # a game that did teach the class's hats is said over them
            classmate.record_game(**sticks_win("Eve"))
        app.check_class()
        await pilot.pause()
        assert text_of(view, "#class-brain-title").startswith("The class plays the Game of Sticks")
        assert text_of(view, "#class-news") == "Eve's game: hat 6, ball 1 ↑; hat 2, ball 1 ↑"
        assert text_of(game, ".brain-title") == "Learning AI's hats · Eve's game: hat 6, ball 1 ↑; hat 2, ball 1 ↑"


async def test_after_a_restore_a_pupils_screens_say_so_and_show_no_server_path(make_app, data_dir):
    """The teacher resets the records by mistake, then restores the back-up. Before, every pupil's screen then
    presented the back-up's games as just played ("Ann's game: ..."), and the records showed the server's
    database path (the teacher's home folder and user name)."""
    with Store.open(data_dir) as teacher:
        teacher.load_or_create_brain("default", BRAIN_SIZE, rule=RULE_PRESETS["seeds"])  # the class's brain
        teacher.record_game(**sticks_win("Ann"))
        backup = make_backup(teacher.path, "start")
        kept = teacher.load_brain("default").counts.copy()
    app = make_app(role="pupil", ai_delay=30)
    async with app.run_test(size=(120, 36)) as pilot:
        game = await start_game(pilot, heap=10, opponent="learning")
        with Store.open(data_dir) as classmate:
            classmate.record_game(**sticks_win("Bo"))
        app.check_class()  # what the app does twice a second
        assert text_of(game, ".brain-title").startswith("Learning AI's hats · Bo's game: hat 6")
        await pilot.press("f3")
        records = app.screen
        assert isinstance(records, RecordsScreen)
        with Store.open(data_dir) as teacher:
            teacher.reset_records()
        app.check_class()
        with Store.open(data_dir) as teacher:
            teacher.restore_backup(backup.name)
        app.check_class()
        said = f"the teacher restored the back-up of {backup.made_at.astimezone():%H:%M}"
        assert records.sub_title == f"records · {said}"
        assert text_of(game, ".brain-title") == f"Learning AI's hats · {said}"
        assert game.query_one(HatHeatmap).data.counts.tolist() == kept.tolist()  # Bo's lesson undone
        assert text_of(records, "#records-summary") == "1 game kept in the class's database."  # no server path
        with Store.open(data_dir) as classmate:  # a game after the restore is new, and said
            classmate.record_game(**sticks_win("Cy"))
        app.check_class()
        assert records.sub_title == "records · Cy's game"
        shown = [text_of(records, "#records-summary"), records.sub_title,
                 *(n.message for n in app._notifications)]
        assert not any(data_dir in text for text in shown), shown


async def test_a_pupils_tab_hides_the_servers_paths_and_copies_brains_within_the_class_limits(make_app, data_dir):
    """A damaged database is moved aside when the pupil's tab opens: the notice says so without the server's
    paths. A pupil's brain copy has a short, plain name ("../../etc/x" is refused in the dialog and by the
    store) and is made only while the class holds fewer than PUPIL_CLASS_BRAINS brains."""
    import os

    os.makedirs(data_dir)
    with open(os.path.join(data_dir, "sticks-tui.db"), "wb") as damaged:
        damaged.write(b"this is not a database" * 100)
    app = make_app(role="pupil")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        notices = [n.message for n in app._notifications]
        assert any(n.startswith("The database sticks-tui.db was damaged (file is not a database). It was moved "
                            "to sticks-tui.db.damaged-") for n in notices), notices
        assert not any(data_dir in n for n in notices), notices

        await pilot.press("f4")
        analysis = app.screen
        assert isinstance(analysis, AnalysisScreen)
        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, NameDialog)
        await type_into(pilot, "#name", "../../etc/x")
        await pilot.press("enter")
        assert app.screen is dialog  # refused where it is typed
        assert "letters, digits, spaces and - _ ' ( ) only; '../../etc/x' holds '.'" in text_of(dialog, "#name-error")
        store = app.session.store
        try:
            store.copy_brain("default", "../../etc/x")  # the store's own wall, run anyway
        except StoreError as exc:
            assert "holds '.'" in str(exc)
        else:
            raise AssertionError("a pupil's store copied a brain called '../../etc/x'")
        await type_into(pilot, "#name", "Cy's copy")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is analysis, what="the copy made")
        assert store.brain_info("Cy's copy") is not None

        with Store.open(data_dir) as teacher:  # the teacher's copies fill the class up to the limit
            for n in range(PUPIL_CLASS_BRAINS - len(teacher.list_brains())):
                teacher.copy_brain("default", f"class {n}")
        await pilot.press("c")
        await type_into(pilot, "#name", "one more")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is analysis, what="the dialog closed")
        assert store.brain_info("one more") is None
        assert any(f"The class has {PUPIL_CLASS_BRAINS} brains already" in n.message for n in app._notifications)


# (the teacher deletes any brain from the records, and no pupil's tab makes it again: tests/ui/test_roles.py, the
# teacher's walk)
