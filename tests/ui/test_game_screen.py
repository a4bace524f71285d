"""The one game screen (issue 32), tested once against the registry. What a game brings (its board, its solver's
moves drawn on it, its replay on that board) is tried on every registered game; the screen's own mechanics, written
once for every game (seats, watching, leaving, a classmate's game, the lesson's marks, a brain that does not fit),
on the games whose brains differ in kind (one brain for both seats or one per seat, a grid of hats or boxes one by
one), not on every game again (issue 32 item 7: the suite does not grow with the games). A game made up here (a
toy, registered from this file) plays on it too. Each game's board is tested in tests/ui/test_boards.py and its
rules in tests/unit."""

from __future__ import annotations

import numpy as np
import pytest
from textual.widgets import Label

from sticks_tui.engine import registry
from sticks_tui.store import Store
from sticks_tui.solve import solver_for
from sticks_tui.ui.boards import GameBoard, board_of
from sticks_tui.ui.screens.confirm import ConfirmDialog
from sticks_tui.ui.screens.game import BrainPanel, GameScreen
from sticks_tui.ui.screens.setup import SetupScreen
from sticks_tui.ui.session import LEARNER_KINDS
from ui_helpers import game_names, log_text, play_out, set_up, text_of, wait_until

GAMES = game_names()
#: The kinds of brain the one screen shows: one brain for both seats drawn as a grid of hats (sticks), and a brain
#: per seat drawn box by box (noughts, Hexapawn).
ONE_BRAIN, BOXES, SMALL_BOXES = "sticks", "noughts", "hexapawn"


def learner_kind(game: str) -> str:
    return next(k for k in registry.entry(game).opponents if k in LEARNER_KINDS and k != "trained")


def kept_name(game: str, side: int) -> str:
    return registry.entry(game).ai_brain(side)


def three_of_each(data_dir: str, game: str) -> None:
    """The game's kept brains made in the store with three times their start tokens: then every game changes
    them, whoever wins (a loss takes a token away where a fresh brain's last one would stay)."""
    from sticks_tui.store import Store

    store = Store.open(data_dir)
    try:
        for side in (0, 1):
            name = kept_name(game, side)
            brain = store.load_or_create_brain(name, game=game, **registry.entry(game).ai_brain_options(side))
            brain.counts[:] = brain.counts * 3
            store.save_brain(name, brain, replace=True)
    finally:
        store.close()


async def back_to_setup(pilot) -> None:
    """Esc from a game screen whose game is over or not begun: back on the setup screen at once, to set up the
    next game of a walk."""
    await pilot.press("escape")
    assert isinstance(pilot.app.screen, SetupScreen), pilot.app.screen


def test_the_tally_counts_the_draws_between_the_two_players_in_all():
    """Issue 33 item 5: MENACE and a pupil mostly draw; the tally's "in all" (every recorded game between the
    two, from the store) counted their wins only ("in all: 0, 1" after five games)."""
    from sticks_tui.ui.screens.game import tally_text

    line = tally_text(("Ann", "MENACE"), ["", "MENACE"], (0, 1, 3), 1).splitlines()[0]
    assert line == "This session: Ann 0, MENACE 1, 1 drawn (in all: 0, 1, 3 drawn)."
    assert tally_text(("Ann", "MENACE"), [], (0, 0, 2), 1) == ("This session: no game finished yet "
                                                               "(in all: Ann 0, MENACE 0, 2 drawn).")


async def test_two_friends_play_a_game_to_the_end_on_its_board_and_it_is_kept_and_p_shows_the_perfect_moves(
        make_app):
    """Every game in turn, in one app: two friends play it to the end on its board (its keys work at once), the
    result is told and kept, and n starts the next game.

    A game of two friends loads and makes no brain; leaving it in progress (Esc, Ctrl+Q) asks first, and leaving
    it finished does not (Hexapawn's turn of the walk). Then each game against its learner: p shows the solver's
    winning moves on the board and in words (or that no move wins), and p again hides them."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for game in GAMES:
            held = set(app.session.kept)
            screen = await set_up(pilot, game, opponent="friend", name1="Ann", name2="Bob")
            assert isinstance(screen, GameScreen) and screen.setup.game == game
            board = screen.query_one("#board", GameBoard)
            assert isinstance(board, board_of(game).widget) and app.focused is board, game  # its keys work at once
            assert text_of(screen, "#turn").startswith(f"{screen.seat_name(0)}'s turn: {board.prompt()}"), game
            assert not screen.query_one("#after").display
            if game == SMALL_BOXES:
                assert set(app.session.kept) == held  # nothing loaded for this game
                assert all(app.session.store.brain_info(name) is None for name in registry.entry(game).ai_brains
                           if (game, name) not in held)
                assert screen.has_class("-no-brain") == (not held or all(g != game for g, _ in held))
                # leaving it in progress asks first
                screen.query_one("#board", GameBoard).pick(screen.game.state.legal_moves[0])
                await pilot.pause()
                await pilot.press("escape")
                assert isinstance(app.screen, ConfirmDialog)
                await pilot.press("escape")  # stay
                assert app.screen is screen
                await pilot.press("ctrl+q")
                assert isinstance(app.screen, ConfirmDialog) and "game is in progress" in app.screen.question
                await pilot.press("escape")
                assert app.screen is screen
            results = len(app.session.results)
            await play_out(pilot, screen)
            state = screen.game.state
            assert screen.game.is_over and text_of(screen, "#turn") == screen.result_text != "", game
            assert screen.query_one("#after").display
            game_kept = app.session.store.recent_games(limit=1)[0]
            assert (game_kept.game, game_kept.players, len(game_kept.moves)) == (game, ("Ann", "Bob"),
                                                                                 len(state.history))
            winner = "" if game_kept.loser is None else game_kept.players[1 - game_kept.loser]
            # the log tells the result: a draw in the result's words, a win to each player
            told = (screen.result_text if not winner else
                    f"{game_kept.players[game_kept.loser]}: You lose.  {winner}: You win!")
            assert told in log_text(screen), game
            assert app.session.results[results:] == [("Ann", "Bob", winner)], game
            assert text_of(screen, "#tally").startswith("This session: Ann "), game
            await pilot.press("n")  # the next game
            await pilot.pause()
            assert screen.round == 2 and not screen.game.is_over and not screen.game.state.history, game
            if game == SMALL_BOXES:
                await play_out(pilot, screen)  # finished: Esc leaves without asking
            await back_to_setup(pilot)  # not begun (or finished): nothing to lose
            # against its learner: p shows the solver's winning moves on the board and in words, p again hides them
            screen = await set_up(pilot, game, opponent=learner_kind(game))
            board = screen.query_one("#board", GameBoard)
            assert board.view.perfect == () and not screen.query_one("#hint").display, game
            await pilot.press("p")
            state = screen.game.state
            perfect = tuple(solver_for(screen.rules).winning_moves(state.position))
            assert board.view.perfect == perfect, game
            hint = text_of(screen, "#hint")
            if perfect:
                assert all(board_of(game).label(screen.rules, state.position, m) in hint for m in perfect), game
            else:
                assert "No move here wins" in hint, game
            await pilot.press("p")
            assert board.view.perfect == () and not screen.query_one("#hint").display, game
            await back_to_setup(pilot)  # no move made yet


async def test_the_learning_ai_plays_either_seat_with_that_sides_kept_brain_and_b_shows_it_whole(make_app, data_dir):
    """Moving first or second, the learner plays with the brain kept for its side (MENACE's X boxes or its O
    boxes; one brain for both in a game that has one), shows that brain beside the board, and the game's
    lesson is kept with it in the store: the brain in play is the brain as stored after the game. One app,
    one game each: sticks with the learner first, Hexapawn with it second and first.

    After each game the learner began, b shows the one brain view: every container of the brain in play, each
    move's tokens as the brain holds them (the heatmap of every hat when it fits one grid: sticks), grouped by how
    many moves into a game its positions come (Hexapawn's boxes); it opens on the container the learner last drew
    from, marked ► with the token drawn."""
    from sticks_tui.ui import brains
    from sticks_tui.ui.screens.brain import BrainScreen
    from sticks_tui.ui.widgets.heatmap import HatHeatmap

    # (last, in the same app: watching two learners at noughts steps one move at a time, then the lesson, then the
    # next game)
    for game in (ONE_BRAIN, SMALL_BOXES):
        three_of_each(data_dir, game)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for game, first in ((ONE_BRAIN, "p2"), (SMALL_BOXES, "p1"), (SMALL_BOXES, "p2")):
            screen = await set_up(pilot, game, opponent=learner_kind(game), first=first, name1="Ann")
            side = 0 if first == "p2" else 1
            name = kept_name(game, side)
            kept = screen.brains[1]
            assert kept.name == name and kept.kept and screen.players[1].hats is kept.brain, (game, first)
            before = app.session.store.load_brain(name).counts.copy()
            panel = screen.query_one(BrainPanel)
            assert panel.display and screen.players[1].name in str(panel.query_one(".brain-title", Label).render())
            await play_out(pilot, screen)
            await pilot.pause()
            stored = app.session.store.load_brain(name)
            lesson = app.session.store.recent_games(limit=1)[0].learning
            assert [(s.seat, s.brain) for s in lesson] == [(1, name)] and lesson[0].drawn, (game, first)
            assert not np.array_equal(stored.counts, before), (game, first)
            assert np.array_equal(kept.brain.counts, stored.counts), (game, first)  # it plays on with the brain as stored
            assert "Ann's turn" not in text_of(screen, "#turn")
            if first == "p2":  # b: the learner's whole brain
                in_play = brains.container_move(kept.brain, *screen.draws[1][-1])  # the last token drawn, as counted
                await pilot.press("b")
                view = app.screen
                assert isinstance(view, BrainScreen) and view.kept is kept, game
                title = str(view.query_one("#brain-title").render())
                assert f"'{kept.name}'" in title and brains.brain_label(kept.brain) in title, game
                assert "► In play: " in title, game
                heatmap = view.query_one(HatHeatmap)
                if heatmap.display:  # one grid: every hat, as the brain holds it
                    assert heatmap.data.hats == len(kept.brain.positions)
                    assert (heatmap.data.counts == kept.brain.counts).all()
                    assert heatmap.data.drawn == in_play
                else:
                    groups = view.groups()
                    assert sum(len(items) for _, items in groups) == len(brains.containers(kept.brain,
                                                                                           kept.brain.rules))
                    assert in_play[0] in [c[0] for c in groups[view.group][1]]  # it opens on the box in play's group
                    body = str(view.query_one("#brain-body").render())
                    label = board_of(game).label(kept.brain.rules, *in_play)
                    assert "► in play" in body or f"►{label}" in body  # the box in play and the token drawn, marked
                    await pilot.press("1")
                    title = str(view.query_one("#brain-title").render())
                    position, moves, counts = groups[0][1][0]
                    number = brains.numbers(kept.brain)[position]  # the printed machine's box number (issue 36)
                    body = str(view.query_one("#brain-body").render())
                    assert f"#{number}" in body and f"Its {len(groups[0][1])} " in title
                    await pilot.press("2")
                    assert view.group == 1 and f"positions {groups[1][0]} move" in str(
                        view.query_one("#brain-title").render())
                await pilot.press("escape")
                assert app.screen is screen, game
            await back_to_setup(pilot)  # the game is over: nothing to lose
        # watching two learners (MENACE's boxes, one brain per seat): nothing moves by itself, every move is a step;
        # one move at a time, then the lesson, then the next game
        app.session.ai_delay_override = 60
        game = BOXES
        kind = learner_kind(game)
        screen = await set_up(pilot, game, opponent=kind, watch=True)
        assert screen.has_class("-two-brains") and len(screen.brains) == 2
        panels = list(screen.query(BrainPanel))
        titles = [str(p.query_one(".brain-title", Label).render()) for p in panels]
        assert all(p.name in " ".join(titles) for p in screen.players)  # both learners' brains are shown
        assert panels[0].display and not panels[1].display  # 80 columns: one at a time
        await pilot.press("o")
        assert not panels[0].display and panels[1].display
        moves = 0
        while not screen.game.is_over:
            await pilot.press("s")
            moves += 1
            assert len(screen.game.state.history) == moves or screen.game.is_over
            assert screen.paused
        assert screen.next_step() == "lesson" and "Step: lesson" in str(screen.active_bindings["s"].binding.description)
        lessons_before = log_text(screen).count(" drew: ") + log_text(screen).count(" won") + log_text(screen).count(
            " lost")
        await pilot.press("s")  # the lesson
        assert screen.next_step() == "new game" and screen.taught
        assert log_text(screen).count(" won") + log_text(screen).count(" lost") + log_text(screen).count(
            " drew: ") > lessons_before
        await pilot.press("s")  # the next game, and its first move
        assert screen.round == 2 and len(screen.game.state.history) == 1
        await pilot.press("space")  # going on
        assert not screen.paused


async def test_a_classmates_game_that_taught_the_same_brain_shows_live(make_app, data_dir):
    """Two tabs on one store: Ann's game against MENACE (X), recorded from her tab with its lesson (as the game screen
    records it: `Store.record_game` with the learner's draws, in one transaction), teaches the class's brain, and
    the other tab's game screen, showing that brain, says whose game it was and plays on with the brain as stored."""
    from sticks_tui.vocabulary import NOUGHTS_BRAINS

    game = BOXES
    kind = learner_kind(game)
    three_of_each(data_dir, game)
    watcher = make_app()
    async with watcher.run_test(size=(80, 24)) as watching:
        screen = await set_up(watching, game, opponent=kind, first="p2", name1="Bob")  # MENACE moves first: X
        kept = screen.brains[1]
        assert kept.name == NOUGHTS_BRAINS["X"]
        before = kept.brain.counts.copy()
        with Store.open(data_dir) as ann:  # Ann's tab: her game, a draw, teaches X's boxes
            ann.record_game(game="noughts", start=".........", opponent="menace", players=("Ann", "MENACE"),
                            moves=[5, 1, 9, 3, 2, 8, 7, 4, 6], loser=None, first=1, ai_seats=[1], brain=kept.name,
                            learning={1: (kept.name, [(".........", 5), ("O...X....", 9), ("O.O.X...X", 2),
                                                      ("OXO.X..OX", 7)])})
        stored = watcher.session.store.load_brain(kept.name)
        assert not np.array_equal(stored.counts, before)  # her game taught the class's brain
        await wait_until(watching, lambda: np.array_equal(kept.brain.counts, stored.counts), what="the brain as stored")
        title = str(screen.query_one(BrainPanel).query_one(".brain-title", Label).render())
        assert "Ann's game" in title


# -- a game made up here: a rules class and a board, registered from this test, nothing else -----------------
class RaceRules:
    """Say 1 or 2 more than the last number said, from 0; whoever says `goal` wins."""

    name = "the race"

    def __init__(self, goal: int = 7) -> None:
        self.goal = goal

    def positions(self):
        return tuple(range(self.goal))

    def start_positions(self):
        return (0,)

    def legal_moves(self, position):
        return tuple(m for m in (1, 2) if position + m <= self.goal)

    def apply(self, position, move):
        return position + move

    def is_terminal(self, position):
        return position >= self.goal

    def outcome(self, position):
        return 1

    def hat_rows(self):
        return self.positions()

    def position_text(self, position):
        return f"{position} said"

    def move_text(self, position, move):
        return f"add {move}"

    def encode_position(self, position):
        return position

    def decode_position(self, value):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= self.goal:
            raise ValueError(f"A number said is from 0 to {self.goal}, not {value!r}.")
        return value

    def encode_move(self, move):
        return move

    def decode_move(self, position, value):
        if value not in self.legal_moves(position):
            raise ValueError(f"Add 1 or 2, up to {self.goal}, not {value!r}.")
        return value

    def __eq__(self, other):
        return isinstance(other, RaceRules) and other.goal == self.goal

    def __hash__(self):
        return hash(("race", self.goal))


class RaceBoard(GameBoard):
    """The number said, and 1 or 2 to add."""

    from textual.binding import Binding

    BINDINGS = [Binding("1", "add(1)", "Add", key_display="1-2", id="race.add1"),
                Binding("2", "add(2)", "Add 2", show=False, id="race.add2")]

    def render(self) -> str:
        return f"said: {self.view.position}"

    def watch_view(self, view) -> None:
        self.refresh()

    def prompt(self) -> str:
        return "add 1 or 2."

    def action_add(self, n: int) -> None:
        self.pick(n)


@pytest.fixture
def race():
    from sticks_tui.ui.boards import Board

    entry = registry.register(registry.GameEntry(
        name="race", title="the race to 7", choice="The race to 7", brain_words="a race brain", rules_class=RaceRules,
        make_rules=lambda start=None, max_take=None, moves=(): RaceRules(), layout=lambda rules: {},
        from_layout=lambda layout: RaceRules(),
        opponents={"friend": "a friend", "random": "the random AI", "learning": "the learning AI"},
        default_opponent="learning", ai_names={"random": "Race Random AI", "learning": "Race Learning AI"},
        watchable=True, ai_brains=("race brain",)))
    registry.set_board("race", board=Board(widget=RaceBoard))
    yield entry
    registry.unregister("race")


async def test_a_toy_game_registered_in_a_test_plays_on_the_one_game_screen_and_trains(make_app, race, data_dir):
    """A game this app never heard of (its rules and a minimal board, registered here) is offered on the setup
    screen and played to the end on the one game screen against the learning AI, by its board's keys; the game
    is kept in the records and its lesson in the learner's brain, made in the store for it."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await set_up(pilot, "race", opponent="learning", name1="Ann")
        assert isinstance(screen, GameScreen) and isinstance(screen.query_one("#board"), RaceBoard)
        assert text_of(screen, "#turn") == "Ann's turn: add 1 or 2."
        while not screen.game.is_over:
            if screen.game.waiting_for_human:
                await pilot.press("1")
            await pilot.pause(0.01)
        await pilot.pause()
        kept = app.session.store.recent_games(limit=1)[0]
        assert kept.game == "race" and kept.learning[0].brain == "race brain"
        assert app.session.store.load_brain("race brain") is not None
        assert "Ann: add 1." in log_text(screen) and "You win!" in log_text(screen)
        # trainable too (issue 32's done-when): F2 opens the one train dialog on its learner's brain ...
        from sticks_tui.ui.screens.training import TrainDialog

        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainDialog), what="the train dialog")
        assert app.screen.kept.name == "race brain"
        await pilot.press("escape")
    # ... and `train --game race --brain` trains the brain the game screen made and keeps the run with it
    from sticks_tui.cli import main
    from sticks_tui.store import Store

    with Store.open(data_dir) as store:
        before, played = store.load_brain("race brain").counts.copy(), store.brain_info("race brain").games_trained
    assert main(["--data-dir", data_dir, "train", "--game", "race", "--brain", "race brain", "--games", "300",
                 "--seed", "3"]) == 0
    with Store.open(data_dir) as again:
        assert again.brain_info("race brain").games_trained == played + 300
        assert (again.load_brain("race brain").counts != before).any()


async def test_the_learners_brain_shows_its_draw_and_after_the_game_what_it_taught_until_the_next_game(make_app):
    """At 160x48 every game shows its learner's brain beside the board: the token drawn marked while its move
    waits a beat, and after the game each token's change, kept until the next game starts. One app: the grid of
    hats (sticks), then the boxes one by one (Hexapawn)."""
    from sticks_tui.ui.widgets.container_view import ContainerView
    from sticks_tui.ui.widgets.heatmap import HatHeatmap

    app = make_app(ai_delay=30)  # the learner's draw waits a beat before its move
    async with app.run_test(size=(160, 48)) as pilot:
        for game in (ONE_BRAIN, SMALL_BOXES):
            app.session.ai_delay_override = 30
            screen = await set_up(pilot, game, opponent=learner_kind(game), first="p2")
            panel = screen.query_one(BrainPanel)
            assert panel.display and panel.region.width > 40, game
            screen._ai_move()  # what the timer does when the AI's pause is over: it draws
            await wait_until(pilot, lambda: bool(screen.draws[1]), what="the learner's draw")
            position, move = screen.draws[1][0]
            assert screen.game.state.position == position and screen._pending == move, game  # its move waits a beat
            brain = panel.query_one(".brain")
            if isinstance(brain, HatHeatmap):
                assert brain.data.drawn == (position, move)
            else:
                assert isinstance(brain, ContainerView) and brain.data.drawn == move and brain.data.moves, game
            app.session.ai_delay_override = 0
            screen._play_pending()
            await play_out(pilot, screen)
            lesson = screen.taught[1]
            if isinstance(brain, HatHeatmap):
                assert set(brain.data.flash) == {(c.hat, c.ball, c.delta) for c in lesson.changes}
            else:
                last = lesson.changes[-1]
                assert brain.data.changes[last.ball] == (last.before, last.after), game
                assert "What this game taught it" in str(panel.query_one(".brain-draws").render()), game
            await pilot.press("n")
            await pilot.pause()
            if isinstance(brain, HatHeatmap):
                assert brain.data.flash == ()
            else:
                assert brain.data.changes == {}, game
            await pilot.press("escape")  # the next game may be under way (the learner moved first): leave it
            if isinstance(app.screen, ConfirmDialog):
                await pilot.press("y")
            await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen), what="the setup screen")


@pytest.mark.parametrize("game", [ONE_BRAIN])
async def test_a_stored_brain_that_does_not_fit_is_never_written_over(make_app, data_dir, game):
    """Another game's brain under the name of this game's learner: the app says why, the learner plays with a
    fresh brain that is never saved, the game is kept without a lesson, and the stored brain is left as it was:
    after the game and after what a training run's end does (issue 13)."""
    from sticks_tui.learn.hats import Hats
    from sticks_tui.store import Store
    from ui_helpers import MessageLog

    name = kept_name(game, 1)
    squatter = Hats(10 if game != "sticks" else 30, 5 if game == "sticks" else 3)
    with Store.open(data_dir) as store:
        store.save_brain(name, squatter, games_trained=5)
    log = MessageLog()
    app = make_app()
    async with app.run_test(size=(80, 24), message_hook=log) as pilot:
        await pilot.pause()
        assert app.session.brain_kept is False
        screen = await set_up(pilot, game, opponent=learner_kind(game), first="p1")
        await wait_until(pilot, lambda: any("left as it is" in n for n in log.notifications()),
                         what="the message about the brain")
        assert not screen.brains[1].kept and "(not kept)" in str(
            screen.query_one(BrainPanel).query_one(".brain-title", Label).render())
        await play_out(pilot, screen)
        app.save_brain(games_trained=5)  # what a training run's end does
        store = app.session.store
        assert store.load_brain(name) == squatter and store.brain_info(name).games_trained == 5
        assert store.game_count() == 1 and store.recent_games(limit=1)[0].learning == ()


def test_small_drawings_are_laid_out_as_many_a_row_as_the_width_holds():
    from sticks_tui.ui.screens.brain import grid_lines

    items = [[f"#{n}", "ab"] for n in range(1, 6)]
    assert grid_lines(items, width=8) == ["#1 │ #2", "ab │ ab", "", "#3 │ #4", "ab │ ab", "", "#5", "ab", ""]


async def test_a_recorded_game_replays_on_its_board_with_the_learners_brain_as_it_was_and_f2_trains_it(
        make_app, data_dir):
    """The one replay: a game against the learning AI, kept, replayed move by move on the game's own board; at each
    move the learner drew, its brain as it was before the game and the token drawn; then what the game taught it.
    Every game in turn, in one app.

    Back on each game's screen, the one train dialog and training screen: F2 on a game's screen trains that game's
    learner (its kept brain, named in the dialog), the run is kept with the brain as stored, and the game goes on
    with the brain trained. Every game but noughts (MENACE's boxes are BOXES' kind, held by Hexapawn's)."""
    from sticks_tui.ui.boards import GameBoard
    from sticks_tui.ui.screens.replay import ReplayScreen
    from sticks_tui.ui.screens.training import TrainDialog, TrainingScreen
    from sticks_tui.ui.widgets.inputs import Input
    from sticks_tui.ui.widgets.container_view import ContainerView
    from sticks_tui.ui.widgets.heatmap import HatHeatmap

    for game in GAMES:
        three_of_each(data_dir, game)  # every game changes the brain: the lesson has something to show
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        for game in GAMES:
            screen = await set_up(pilot, game, opponent=learner_kind(game), first="p2", name1="Ann")
            await play_out(pilot, screen)
            history, draws = screen.game.state.history, screen.draws[1]
            record = app.session.store.recent_games(limit=1)[0]
            assert record.game == game
            app.push_screen(ReplayScreen(record))
            await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.is_mounted,
                             what="the replay")
            replay = app.screen
            board = replay.query_one("#replay-game-board", GameBoard)
            assert isinstance(board, board_of(game).widget) and board.view.position == history[0].before, game
            await pilot.press("right")  # the learner's first move (it moved first): its draw
            first = history[0]
            heatmap, container = replay.query_one(HatHeatmap), replay.query_one(ContainerView)
            if heatmap.display:
                assert heatmap.data.drawn == (first.before, first.move), game
            else:
                assert (container.data.drawn, container.data.moves) == (first.move, board.view.legal_moves), game
            assert (first.before, first.move) == draws[0], game
            await pilot.press("end")  # the lesson
            lesson = record.learning[0]
            if heatmap.display:
                assert {(h, b) for h, b, _ in heatmap.data.flash} == {(h, b) for h, b, _, _ in lesson.changes}, game
            else:  # the last container it drew from, each token's count before -> after
                expected = {b: (w, a) for h, b, w, a in lesson.changes if h == draws[-1][0]}
                assert expected and container.data.changes == expected, game
            assert replay.step == len(replay.steps) - 1 and len(replay.steps) == len(history) + 2, game
            await pilot.press("escape")
            assert app.screen is screen, game
            if game != "noughts":  # F2: its learner trained
                kept = screen.brains[1]
                before, ran = kept.brain.counts.copy(), app.session.training.last_result
                await pilot.press("f2")
                dialog = app.screen
                assert isinstance(dialog, TrainDialog) and dialog.kept is kept, game
                assert f"(brain '{kept.name}')" in str(dialog.query_one(".dialog-title").render()), game
                dialog.query_one("#games", Input).value = "2000"
                await pilot.pause()
                await pilot.click("#go")
                await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
                await wait_until(pilot, lambda: app.session.training.last_result not in (None, ran),
                                 timeout=60, what="the run's end")
                await pilot.press("escape")
                assert app.screen is screen and app.session.training.kept is kept, game
                stored = app.session.store.load_brain(kept.name)
                assert app.session.store.brain_info(kept.name).games_trained == 2000, game
                assert np.array_equal(kept.brain.counts, stored.counts) and not np.array_equal(kept.brain.counts,
                                                                                               before)
                assert screen.players[1].hats is kept.brain, game  # the game goes on with the brain trained
            await back_to_setup(pilot)  # the game is over
