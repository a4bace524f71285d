"""A screen does its work once: the footer is rebuilt only when other keys are shown (a new label or state
is updated on the key shown), and a new screen is styled with its width class (-narrow, -wide) from the
start, not styled again on its first resize."""

from __future__ import annotations

from textual.widgets import Button
from textual.widgets._footer import FooterKey

from sticks_tui.ui.screens.game import GameScreen
from sticks_tui.ui.screens.help import HelpScreen
from sticks_tui.ui.widgets.footer import KeysFooter
from ui_helpers import perfect_take, set_up, start_game


def footer_rebuilds(monkeypatch) -> list:
    """Every footer rebuilt (its keys removed, made and mounted anew: Textual's recompose) from now on, in order (a
    spy that calls the real method)."""
    from textual.widgets import Footer

    rebuilt: list = []
    recompose = Footer.recompose

    async def watched(self):
        rebuilt.append(self)
        await recompose(self)

    monkeypatch.setattr(Footer, "recompose", watched)
    return rebuilt


def shown(footer: KeysFooter) -> dict[str, str]:
    """The keys the footer shows: action -> label, read from its FooterKey widgets."""
    return {key.action: key.description for key in footer.query(FooterKey)}


async def test_a_focus_change_leaves_the_footer_alone_a_new_label_is_shown_on_the_same_key_and_the_take_keys_dim(
        make_app, monkeypatch):
    """Watching two learners: the game screen's footer keys are there as it opens (not rebuilt after its first
    layout), a focus change leaves them alone, and a new label is shown on the same key. Then, in the same app,
    against the learning AI moving first: the take keys dim on its turn (updated where they are), and other keys
    (Play again) rebuild the footer, once."""
    rebuilt = footer_rebuilds(monkeypatch)
    app = make_app(ai_delay=60)  # nothing moves by itself: only the steps
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, heap=10, opponent="learning", watch=True)
        assert isinstance(screen, GameScreen)
        footer = screen.query_one(KeysFooter)
        # its keys are mounted as the screen first comes on top, before its first layout: not rebuilt after it (nor
        # once for each time the screen says its bindings as it opens: its bindings, the focus, the board's keys)
        assert list(footer.query(FooterKey)) and footer not in rebuilt
        keys = list(footer.query(FooterKey))
        assert shown(footer)["pause"] == "Pause"
        buttons = [b for b in screen.query(Button) if b.focusable]
        for button in buttons[:2]:  # the focus moves; the keys stay as they were
            button.focus()
            await pilot.pause()
            assert screen.focused is button
            assert list(footer.query(FooterKey)) == keys, "the footer was rebuilt though its keys did not change"
        await pilot.press("s")  # the first step pauses: the label says what the key does now
        assert screen.paused
        assert shown(footer)["pause"] == "Paused"
        pause_key = next(key for key in footer.query(FooterKey) if key.action == "pause")
        assert "Paused" in str(pause_key.render()) and pause_key.size.width >= len("space Paused")
        assert list(footer.query(FooterKey)) == keys, "only a label changed: the keys are updated where they are"
        # the take keys dim on the AI's turn, and other keys rebuild the footer
        await pilot.press("escape")  # no person plays: back at once
        screen = await start_game(pilot, heap=10, opponent="learning", first="p2")  # the AI's move waits
        footer = screen.query_one(KeysFooter)
        takes = [key for key in footer.query(FooterKey) if key.action.startswith("take")]
        assert takes and all(key.has_class("-disabled") for key in takes)  # the AI moves first
        screen._ai_move(at_once=True)  # the AI moves now: the person's turn
        await pilot.pause()
        assert screen.game.waiting_for_human
        assert [key for key in footer.query(FooterKey) if key.action.startswith("take")] == takes, \
            "only the states changed: the keys are updated where they are"
        assert not any(key.has_class("-disabled") for key in takes)
        while not screen.game.is_over:  # to the end (the AI moved by hand): Play again instead of the take keys
            if screen.game.waiting_for_human:
                await pilot.press(str(perfect_take(screen.game.state.position)))
            else:
                screen._ai_move(at_once=True)
            await pilot.pause()
        assert screen.game.is_over
        await pilot.pause()
        assert [f for f in rebuilt if f is footer] == [footer]  # rebuilt once, for Play again
        assert "play_again" in shown(footer) and not any(action.startswith("take") for action in shown(footer))


async def test_a_new_screen_has_its_width_class_before_it_is_mounted_and_the_first_gives_the_focus_once(make_app,
                                                                                                       monkeypatch):
    """A new screen has its width class before it is mounted. And the first screen (the setup screen) opens with the
    focus given once, to the heap box: Textual's own first focus (the app's AUTO_FOCUS "*": the game's choice)
    is not given first and taken away again (each focus change styled the dropdown and its parts again)."""
    from textual.screen import Screen

    focused: list = []  # every widget a screen is asked to focus, in order (a spy that calls the real method)
    set_focus = Screen.set_focus

    def watched(self, widget, *args, **kwargs):
        focused.append(widget)
        return set_focus(self, widget, *args, **kwargs)

    monkeypatch.setattr(Screen, "set_focus", watched)
    app = make_app()
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.pause()
        assert [w.id for w in focused if w is not None] == ["heap"] and app.focused.id == "heap", focused
        monkeypatch.setattr(Screen, "set_focus", set_focus)
        assert app.screen.has_class("-wide")
        screen = HelpScreen()
        app.push_screen(screen)
        assert screen.has_class("-wide") and not screen.has_class("-narrow")  # before its mount and first resize
        await pilot.pause()
        assert app.screen is screen and screen.has_class("-wide")


async def test_a_new_screen_is_not_styled_a_second_time_when_it_first_comes_on_top(make_app):
    """Its widgets were styled as they were mounted: the first ScreenResume does not style the whole
    screen again (the snapshot tests hold that it looks the same). Nor do the classes of a screen's own state
    restyle it as it opens: they are given before its widgets are mounted (a game's brain panels, none or two;
    the training screen's kind of brain and its run going: set in on_mount, each styled the whole screen again). And
    the classes a run's end gives the training screen are set at once: it is styled once for them, not per class."""
    from sticks_tui.engine.events import TrainingProgress
    from sticks_tui.learn.control import TrainingControl
    from sticks_tui.learn.trainer import TrainingConfig
    from textual.widgets._select import SelectCurrent, SelectOverlay

    from sticks_tui.ui.screens.training import TrainDialog, TrainingScreen
    from sticks_tui.ui.training import TrainingJob
    from ui_helpers import text_of, wait_until

    app = make_app(ai_delay=60)  # nothing moves by itself in watch mode
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = HelpScreen()
        styled: list[bool] = []
        whole_screen = screen.update_node_styles

        def counted(animate: bool = True) -> None:
            styled.append(animate)
            whole_screen(animate=animate)

        screen.update_node_styles = counted
        await app.push_screen(screen)
        await pilot.pause()
        assert app.screen is screen and screen.is_attached
        assert styled == []
        assert "_styled_at_mount" not in screen.__dict__  # the mark is used once
        await pilot.press("escape")

        restyled: list = []  # every node styled again with the widgets mounted in it
        styles = app.update_styles

        dropdowns: list = []  # every part of a dropdown styled again (its list of options has no children)

        def counting(node, animate: bool = True) -> None:
            if node in app._registry and node.children:
                restyled.append(node)
            if node in app._registry and isinstance(node, (SelectCurrent, SelectOverlay)):
                dropdowns.append(node)
            styles(node, animate)

        app.update_styles = counting
        # the dropdowns open with their values shown: none is styled again once mounted (Textual's Select gives its
        # value box the class -has-value after its first styling, and it and its label were styled again; and its
        # list of options the class -textual-compact, bound to the Select's compact as it is mounted)
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainDialog), what="the train dialog")
        await pilot.pause()
        boxes = list(app.screen.query(SelectCurrent))
        assert len(boxes) >= 5 and all(box.has_class("-has-value") and box.has_value for box in boxes)
        lists = list(app.screen.query(SelectOverlay))
        assert len(lists) == len(boxes) and all(box.compact and box.has_class("-textual-compact") for box in lists)
        assert dropdowns == [], "a dropdown was styled again"
        await pilot.press("escape")
        for panels in ("-no-brain", "-two-brains"):
            if panels == "-no-brain":  # two friends at Hexapawn: no brain of it held, none shown
                game = await set_up(pilot, "hexapawn", opponent="friend")
            else:  # two learners
                game = await start_game(pilot, heap=10, opponent="learning", watch=True)
            await pilot.pause()
            assert isinstance(game, GameScreen) and game.has_class(panels)
            assert game not in restyled, f"the game screen ({panels}) was styled again as it opened"
            await pilot.press("escape")  # no move made: back at once
        # a run's screen, given the run's state and a report by hand (as the worker sends them): nothing trains here
        job = TrainingJob("background", app)
        job.control = TrainingControl(None)
        app._training_job = job
        app.session.training.running = True
        app.session.training.config = TrainingConfig(sticks=20, games=1000)
        app.action_show_training()
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
        hats = app.session.brain.counts.copy()
        app.training = TrainingProgress(500, 1000, 1.0, 0, hats, opponent_hats=hats.copy())
        await pilot.pause()
        training = app.screen
        assert text_of(training, "#training-status") == "Training: 500 of 1,000 games"
        assert training.has_class("-grid") and training.has_class("-running") and not training.has_class("-fixed")
        assert training not in restyled, "the training screen was styled again as it opened"
        # the run ends: the classes it changes (-running off, -curve on) are set at once, the screen styled once
        app.session.training.running = False
        app.training = TrainingProgress(1000, 1000, 2.0, 0, hats, opponent_hats=hats.copy())
        await pilot.pause()
        assert text_of(training, "#training-status").startswith("Finished: 1,000 of 1,000 games.")
        assert not training.has_class("-running") and training.has_class("-curve")
        assert restyled.count(training) == 1, "the training screen was styled once for each class the run's end set"
