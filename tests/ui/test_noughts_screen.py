"""Noughts and crosses with MENACE in the app (issue 18 items 1-4): reached from the setup screen,
squares by key (1-9 laid out like a phone), arrows and Enter, and the mouse; the perfect AI's hint;
MENACE learns from a game and shows what changed; every box; training in the background with its
rule as options, paused and stepped. Three app runs in all (they are the expensive kind)."""

from __future__ import annotations

from textual.widgets import Select

from sticks_tui.engine.noughts import SQUARE_NAMES
from sticks_tui.solve.noughts import solve_noughts
from sticks_tui.ui.noughts_keeper import keeper_of
from sticks_tui.ui.screens.noughts import NoughtsBoxesScreen, NoughtsScreen, NoughtsTrainDialog
from sticks_tui.ui.screens.setup import SetupScreen
from sticks_tui.ui.widgets.noughts_board import CELL_H, CELL_W, NoughtsBoard

from ui_helpers import wait_until


async def open_noughts(pilot, opponent="perfect", x_first=True) -> NoughtsScreen:
    screen = NoughtsScreen(opponent, x_first)
    pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


def board_text(screen) -> str:
    return "".join(t for line in screen.query_one(NoughtsBoard).board_lines() for t, _ in line)


async def test_from_setup_squares_by_key_arrows_and_click_a_taken_one_refused_and_the_hint(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#game", Select).value = "noughts"
        await pilot.pause()
        assert setup.query_one("#opponent", Select).value == "menace"  # the registry's opponents for noughts
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, NoughtsScreen) and app.screen.is_mounted,
                         what="the noughts screen")
        await pilot.pause()
        screen = app.screen
        assert app.settings.game == "noughts"  # remembered as the other games are
        assert screen.opponent == "menace" and screen.x_first  # Player 1 moves first: Player 1 plays X
        screen.query_one("#noughts-opponent", Select).value = "friend"
        await pilot.pause()
        assert screen.kinds == {"X": "human", "O": "human"}
        assert (app.settings.opponent, app.settings.first) == ("friend", "p1")  # remembered for the next time
        await pilot.press("7")  # phone layout: 7 is the bottom left
        assert screen.state.board == "......X.."
        await pilot.press("up", "right", "enter")  # from 7: up to 4, right to 5
        assert screen.state.board == "....O.X.."
        board = screen.query_one(NoughtsBoard)
        await pilot.click(board, offset=(2 * (CELL_W + 1) + 3, 2))  # square 3, the top right
        assert screen.state.board == "..X.O.X.."
        await pilot.press("5")
        assert screen.state.board == "..X.O.X.."  # taken: nothing changed
        assert any("Square 5 (centre) is taken by O" in n.message for n in app._notifications)
        await pilot.click(board, offset=(CELL_W + 1 + 3, 2 * (CELL_H + 1) + 2))  # square 8, bottom middle
        assert screen.state.board == "..X.O.XO."
        assert "✓ best" not in board_text(screen)
        await pilot.press("h")
        best = solve_noughts().best_squares("..X.O.XO.")
        assert board.data.best == best == (2,)  # X must block O's middle column
        assert "✓ best" in board_text(screen)


async def test_menace_learns_from_a_game_shows_each_beads_change_and_every_box(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_noughts(pilot, "menace", x_first=False)  # MENACE plays X with X's boxes
        keeper = keeper_of(app)
        start = keeper.x_brain.counts.copy()
        while not screen.over:
            await wait_until(pilot, lambda: screen.human_to_move or screen.over, what="your turn")
            if not screen.over:
                await pilot.press(str(screen.state.board.index(".") + 1))
        assert sum(keeper.results) == 1 and keeper.games == 1 and keeper.o_brain is None
        changes = screen.changes
        assert changes and all(c.marks == "X" for c in changes)
        delta = keeper.rule.change(1 if keeper.results[0] else 0 if keeper.results[1] else -1)
        for c in changes:
            assert c.before == start[c.row, c.col] and c.after == max(0, c.before + delta)
            assert keeper.x_brain.counts[c.row, c.col] == c.after
        assert screen.query_one(NoughtsBoard).data.changes == tuple((c.square, c.before, c.after) for c in changes)
        arrow = "↑" if delta > 0 else "↓"
        assert f"{arrow} {changes[0].before}→{changes[0].after}" in board_text(screen)
        lines = list(screen.query_one("#noughts-log").lines)
        first = changes[0]
        assert any(f"square {first.square} ({SQUARE_NAMES[first.square - 1]}) {first.before} → {first.after}" in line
                   for line in lines)
        assert len(keeper.curve) == 1 and keeper.curve[0].games == 1
        await pilot.press("b")
        boxes = app.screen
        assert isinstance(boxes, NoughtsBoxesScreen)
        text = str(boxes.query_one("#boxes-grid").render())
        assert text.count("#") == 1 and f"#1: {int(keeper.x_brain.counts[0].sum())} beads" in text
        await pilot.press("4")
        text = str(boxes.query_one("#boxes-grid").render())
        assert text.count("#") == 183 and "#122:" in text and "#304:" in text


async def test_training_by_another_rule_needs_a_fresh_start_and_can_be_paused_stepped_and_stopped(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_noughts(pilot, "menace")
        await pilot.press("t")
        dialog = app.screen
        assert isinstance(dialog, NoughtsTrainDialog)
        dialog.query_one("#nt-games").value = "50"
        dialog.query_one("#nt-pace").value = "1"
        dialog.query_one("#nt-opponent").value = "random"
        dialog.query_one("#nt-beads-0").value = "8"
        await pilot.pause()
        await pilot.click("#nt-go")
        assert app.screen is dialog  # refused: MENACE learns by its own rule
        assert "Start MENACE afresh" in str(dialog.query_one("#nt-error").render())
        dialog.query_one("#nt-reset").value = True
        await pilot.pause()
        assert "Start beads 8, 3, 2, 1" in str(dialog.query_one("#nt-effect").render())
        await pilot.click("#nt-go")
        keeper = keeper_of(app)
        assert keeper.rule.beads == (8, 3, 2, 1) and keeper.x_brain.counts[0].max() == 8
        await wait_until(pilot, lambda: screen._told is not None, timeout=30, what="the first game told")
        await pilot.press("space")
        assert screen._job.control.paused
        told = screen._told.number
        await pilot.press("s")
        await wait_until(pilot, lambda: screen._told.number == told + 1, timeout=10, what="the stepped game")
        data = screen.query_one(NoughtsBoard).data
        assert data.board == screen._told.board and f"Training game {told + 1}" in data.note
        stepped = screen._told
        line = list(screen.query_one("#noughts-log").lines)[-1]
        assert line.startswith(f"Training game {told + 1}: X {stepped.moves[0]}, O {stepped.moves[1]}")
        first = stepped.changes[0]
        assert f"Beads: {first.marks} {first.before}→{first.after}" in line
        await pilot.press("c")
        await wait_until(pilot, lambda: screen._job is None, timeout=10, what="the run to stop")
        assert keeper.games == sum(keeper.results) == told + 1
        assert keeper.curve[-1].games == told + 1
        assert keeper.first_box[-1] == (told + 1, keeper.x_brain.box_squares(0))
        stored = app.session.store.load_brain("noughts MENACE")  # started afresh by the new rule, then the run
        assert stored.rule.beads == (8, 3, 2, 1) and stored.counts.tolist() == keeper.x_brain.counts.tolist()
        assert app.session.store.brain_info("noughts MENACE").games_trained == told + 1


async def test_menaces_boxes_are_kept_between_sessions_and_taught_by_every_copy_on_one_store(make_app, data_dir):
    """Issue 18 item 5: play MENACE, quit, start again: the boxes as they were; and another copy of the app
    on the same store (another tab of `serve`) teaching the same MENACE meanwhile: both lessons kept."""
    from sticks_tui.store import Store
    from sticks_tui.vocabulary import NOUGHTS_BRAINS

    name = NOUGHTS_BRAINS["X"]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_noughts(pilot, "menace", x_first=False)
        keeper = keeper_of(app)
        assert f"brain '{name}'" in str(screen.query_one("#noughts-note").render())
        start = keeper.x_brain.counts.copy()
        with Store.open(data_dir) as other:  # another tab's game teaches the first box's centre 5 beads
            theirs = other.load_or_create_brain(name, game="noughts", seat=0)
            base = theirs.counts.copy()
            centre = theirs.column(".........", 5)
            theirs.counts[0, centre] += 5
            other.save_brain(name, theirs, base=base, games_trained=1)
        while not screen.over:
            await wait_until(pilot, lambda: screen.human_to_move or screen.over, what="your turn")
            if not screen.over:
                await pilot.press(str(screen.state.board.index(".") + 1))
        expected = start.copy()
        expected[0, centre] += 5
        for c in screen.changes:
            expected[c.row, c.col] = max(0, expected[c.row, c.col] + c.after - c.before)
        assert screen.changes and keeper.x_brain.counts.tolist() == expected.tolist()  # it plays on with both
        (game,) = app.session.store.recent_games()
        (lesson,) = game.learning  # kept with the game, in its transaction
        assert lesson.seat == 1 and [(c[0], c[1], c[3] - c[2]) for c in lesson.changes] == [
            (c.board, c.square, c.after - c.before) for c in screen.changes]
        from sticks_tui.ui.screens.noughts_replay import NoughtsReplayScreen

        app.push_screen(NoughtsReplayScreen(game))
        await pilot.pause()
        await pilot.press("home")
        data = app.screen.query_one(NoughtsBoard).data  # MENACE's first box as it was, with the other's 5 beads
        assert data.board == "........." and data.drawn == game.moves[0]
        assert data.beads == (4, 4, 0, 0, 9, 0, 0, 0, 0)
    again = make_app()
    async with again.run_test(size=(80, 24)) as pilot:
        await open_noughts(pilot, "menace", x_first=False)
        assert keeper_of(again).x_brain.counts.tolist() == expected.tolist()  # as they were
        assert again.session.store.brain_info(name).games_trained == 2


async def test_a_store_that_refuses_menaces_boxes_is_said_and_menace_plays_on_unsaved(make_app, data_dir):
    from sticks_tui.store import Store
    from sticks_tui.ui.noughts_keeper import NOT_SAVED
    from sticks_tui.vocabulary import NOUGHTS_BRAINS

    with Store.open(data_dir) as store:  # the name is taken by a sticks brain: the store refuses it for MENACE
        store.load_or_create_brain(NOUGHTS_BRAINS["X"], 20)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_noughts(pilot, "menace", x_first=False)
        await wait_until(pilot, lambda: screen.human_to_move, what="MENACE's first move")
        assert any("is a brain for sticks, not for noughts" in n.message for n in app._notifications)
        assert str(screen.query_one("#noughts-note").render()) == NOT_SAVED
        assert screen.state.board.count("X") == 1  # MENACE plays, with fresh boxes
        assert app.session.store.brain_info(NOUGHTS_BRAINS["X"]).game == "sticks"  # left as it is


async def test_a_game_is_recorded_replayed_move_by_move_and_ctrl_q_mid_game_asks_first(make_app):
    from textual.widgets import DataTable

    from sticks_tui.ui.screens.confirm import ConfirmDialog
    from sticks_tui.ui.screens.noughts_replay import NoughtsReplayScreen
    from sticks_tui.ui.screens.records import RecordsScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_noughts(pilot, "perfect", x_first=True)  # you (Player 1) play X
        await wait_until(pilot, lambda: screen.human_to_move, what="your turn")
        await pilot.press("1")
        await wait_until(pilot, lambda: screen.human_to_move, what="your second turn")
        assert screen.game_in_progress
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmDialog) and app.screen.question == "A game is in progress. Quit anyway?"
        await pilot.press("escape")
        while not screen.over:
            await wait_until(pilot, lambda: screen.human_to_move or screen.over, what="your turn")
            if not screen.over:
                await pilot.press(str(screen.state.board.index(".") + 1))
        (game,) = app.session.store.recent_games()
        assert game.game == "noughts" and game.players == ("Player 1", "Noughts Perfect AI")
        assert game.moves == screen.state.history and game.first == 0
        assert game.loser == 0 and screen.state.board == "XXOXO.O.."  # seed 7: the perfect AI wins
        ai, you = app.session.store.player("Noughts Perfect AI"), app.session.store.player("Player 1")
        assert (ai.wins, ai.draws, ai.losses, you.wins, you.draws, you.losses) == (1, 0, 0, 0, 0, 1)
        app.session.store.record_game(game="noughts", start=".........", opponent="friend", players=("Ann", "Bob"),
                                      moves=[5, 1, 9, 3, 2, 8, 7, 4, 6], loser=None, first=0)  # a draw
        await pilot.press("f3")
        records = app.screen
        assert isinstance(records, RecordsScreen)
        board = records.query_one("#leaderboard", DataTable)
        assert [str(c.label) for c in board.columns.values()][:4] == ["Player", "Wins", "Draws", "Losses"]
        assert [str(c) for c in board.get_row("Ann")][:5] == ["Ann", "0", "1", "0", "+0"]
        records.query_one("#leaderboard", DataTable).move_cursor(row=board.get_row_index("Player 1"))
        await pilot.pause()
        records.query_one("#games", DataTable).focus()
        await pilot.press("enter")
        replay = app.screen
        assert isinstance(replay, NoughtsReplayScreen)
        assert replay.query_one(NoughtsBoard).data.board == screen.state.board  # it opens at the end
        await pilot.press("home", "right")
        assert replay.query_one(NoughtsBoard).data.board == "X........"
        assert "1. Player 1 (X): square 1 (top left)." in list(replay.query_one("#nr-log").lines)


async def test_train_on_the_setup_screen_trains_the_ai_of_the_game_chosen(make_app):
    """F2 on the setup screen with noughts chosen opens MENACE's training (the noughts screen and its
    dialog), with Nim it says where the Nim AI trains; never the sticks AI's dialog for another game."""
    from sticks_tui.ui.screens.training import TrainDialog

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        setup = app.screen
        setup.query_one("#game", Select).value = "nim"
        await pilot.pause()
        await pilot.press("f2")
        await wait_until(pilot, lambda: any("The Nim AI trains on the Nim screen" in n.message
                                            for n in app._notifications), what="where the Nim AI trains")
        assert app.screen is setup and not isinstance(app.screen, TrainDialog)
        setup.query_one("#game", Select).value = "noughts"
        await pilot.pause()
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, NoughtsTrainDialog), what="MENACE's training dialog")
        assert isinstance(app.screen_stack[-2], NoughtsScreen)


async def test_a_game_menace_resigns_is_kept_in_the_records_as_its_loss(make_app):
    """MENACE's box for the empty board is empty: it resigns before its first move. The game is kept in
    the records (before, a resigned game was not kept at all), as a win for the person."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        keeper = keeper_of(app)
        keeper.x_brain.counts[0] = 0  # X's first box (the empty board), in this tab only
        keeper.bases["X"] = keeper.x_brain.counts.copy()
        screen = await open_noughts(pilot, "menace", x_first=False)  # MENACE plays X and moves first
        await wait_until(pilot, lambda: screen.over, what="MENACE's resignation")
        assert screen.resigned == "X" and "resigns" in screen.over_text
        await wait_until(pilot, lambda: app.session.store.game_count() == 1, what="the game kept")
        (game,) = app.session.store.recent_games(limit=1)
        assert game.game == "noughts" and game.resigned and game.moves == ()
        assert game.winner_name == "Player 1" and game.loser_name == "MENACE"
        assert app.session.store.player("Player 1").wins == 1
        from sticks_tui.ui.screens.noughts_replay import NoughtsReplayScreen

        replayed = NoughtsReplayScreen(game)
        await app.push_screen(replayed)
        await pilot.pause()
        assert list(replayed.query_one("#nr-log").lines)[-1] == (
            "MENACE resigns (its box for this board is empty); Player 1 wins.")


async def test_a_classmates_lesson_to_menace_shows_live_on_the_noughts_screen(make_app, data_dir):
    """Issue 19, live, for MENACE: while this tab waits for the person, another tab's game teaches the
    class's MENACE; within a check this tab's boxes are the stored ones and its log says whose game it
    was and which beads changed."""
    from sticks_tui.store import Store
    from sticks_tui.vocabulary import NOUGHTS_BRAINS

    name = NOUGHTS_BRAINS["X"]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_noughts(pilot, "menace", x_first=False)  # MENACE (X) moves, then waits for you
        await wait_until(pilot, lambda: screen.human_to_move, what="your turn")
        keeper = keeper_of(app)
        with Store.open(data_dir) as classmate:  # Ann's game with MENACE (X): a draw, a bead more for each drawn
            classmate.record_game(game="noughts", start=".........", opponent="menace", players=("Ann", "MENACE"),
                                  moves=[5, 1, 9, 3, 2, 8, 7, 4, 6], loser=None, first=1, ai_seats=[1], brain=name,
                                  learning={1: (name, [(".........", 5), ("O...X....", 9), ("O.O.X...X", 2),
                                                       ("OXO.X..OX", 7)])})
            stored = classmate.load_brain(name).counts.copy()
        await wait_until(pilot, lambda: keeper.x_brain.counts.tolist() == stored.tolist(), timeout=5,
                         what="the classmate's lesson in this tab's boxes")
        lines = list(screen.query_one("#noughts-log").lines)
        assert any(line.startswith("Ann's game: box ......... square 5 ↑") for line in lines), lines


async def test_the_noughts_screen_plays_at_the_ai_speed_chosen_on_the_setup_screen(make_app):
    """Issue 16: the AI's beats on the noughts screen follow the AI speed (the setup screen's, kept in the
    settings), as the sticks game's moves do; at "normal" a beat is still MOVE_SECONDS. Before, a beat was
    MOVE_SECONDS whatever the speed."""
    from sticks_tui.engine.noughts import EMPTY_BOARD
    from sticks_tui.ui.screens.noughts import MOVE_SECONDS

    app = make_app(ai_delay=None)  # no test override: the AI speed rules, as for a person
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.query_one("#speed", Select).value = "slow"
        await pilot.pause()
        assert app.settings.ai_speed == "slow"
        screen = await open_noughts(pilot, "watch-random", x_first=True)  # MENACE plays X: its box first
        assert screen.shown_box == (EMPTY_BOARD, None) and not screen.state.board.strip(".")
        assert screen._timer is not None and screen._timer._interval == 2 * MOVE_SECONDS  # slow: 1.2 s a move, twice normal's
        app.remember(ai_speed="instant")  # as -/+ on the sticks game screen keeps it
        screen.new_game()
        assert screen._timer is None  # no beat to wait for: the next move comes after the screen is drawn
        await wait_until(pilot, lambda: screen.over, what="the watched game at instant speed to end")
        assert screen._timer is None
