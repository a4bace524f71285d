"""The sticks-tui Textual app: screens, the session (brains, store, rng), background training, quitting."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from pathlib import Path

from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from sticks_tui.ui.keeper import BrainKeeper
from sticks_tui.ui.messages import TrainingFinished, TrainingProgressMsg
from sticks_tui.ui.session import BRAIN_SIZE, Session
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.training import TrainingJob, sticks_run, start_training_worker

BACKGROUND = "background"  # the purpose of the F2 training run
MIN_WIDTH, MIN_HEIGHT = 80, 24  # every screen is laid out for this at least


def too_small_text(width: int, height: int) -> str:
    return (f"Make the terminal at least {MIN_WIDTH}x{MIN_HEIGHT} (now {width}x{height}).\n\n"
            "Nothing is lost: all comes back when it is big enough.\nCtrl+Q quits.")


class TooSmallScreen(StyledOnce, ModalScreen[None]):
    """Shown over every screen while the terminal is smaller than 80x24, instead of a cut layout.

    It takes no keys but the app's priority ones (Ctrl+Q); the app removes it when the terminal grows."""

    DEFAULT_CSS = """
    TooSmallScreen { background: $background; align: center middle; }
    TooSmallScreen #too-small { width: auto; max-width: 100%; height: auto; padding: 1 2;
                                border: thick $warning; text-align: center; }
    """
    AUTO_FOCUS = None

    def compose(self) -> ComposeResult:
        yield Static(too_small_text(*self.app.size), id="too-small")

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#too-small", Static).update(too_small_text(*self.app.size))

    def on_screen_resume(self) -> None:
        self.app.check_size()


MEMORY_ONLY_TITLE = "sticks-tui: MEMORY ONLY, nothing is saved (see Records for why)"


def _freeze_heap() -> None:
    """Once the first screen is up: collect, then move everything alive out of the garbage collector's
    sight (gc.freeze), so its full collections, which otherwise walk Textual's and numpy's start-up
    objects, stop showing as pauses; and let threads take turns on the GIL every 1 ms instead of 5, so
    a key press waits less behind the training thread's Python work. bench_keypress.py: p95 with no
    training 30-33 ms before, 22-28 ms after."""
    import gc
    import sys

    gc.collect()
    gc.freeze()
    sys.setswitchinterval(0.001)


def stylesheet_path() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "styles.tcss", here.parent.parent / "styles.tcss"):
        if candidate.exists():
            return candidate
    return here.parent / "styles.tcss"


class SticksApp(App):
    """Play the Game of Sticks against an AI that learns, and watch it learn."""

    TITLE = "sticks-tui"
    SUB_TITLE = "a machine that learns from experience"
    CSS_PATH = str(stylesheet_path())
    # styles.tcss widens the hats panel on "Screen.-wide"; without this no screen ever got the class.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True, id="quit",
                tooltip="Quit (it asks first if a game or a training run would be lost)"),
        Binding("q", "quit", "Quit", show=False, id="quit.q",
                tooltip="Quit (it asks first if a game or a training run would be lost)"),
        Binding("f1,question_mark", "help", "Help", key_display="F1", id="help", tooltip="This help"),
        # F2-F4 (and F7, the lab) work everywhere; only the setup screen shows them (setup.SCREEN_KEYS), so every footer fits 80 columns
        # (help, F1, lists them on every screen).
        Binding("f2,t", "train", "Train", key_display="F2", id="train", show=False,
                tooltip="Train the AI, or watch its training run"),
        Binding("f3,r", "records", "Records", key_display="F3", id="records", show=False,
                tooltip="Records: wins and losses, recent games, replays"),
        Binding("f4,a", "analysis", "Analysis", key_display="F4", id="analysis", show=False,
                tooltip="Analysis: what the AI learned, against the exact solution"),
        Binding("f7,l", "lab", "Lab", key_display="F7", id="lab", show=False,
                tooltip="The learning lab: race learners and incentives over many seeds"),
    ]

    #: The newest training snapshot (None when no training has run); screens watch it.
    training: reactive[object | None] = reactive(None, always_update=True)
    #: What other tabs stored since the last check (ui/live.py ClassChange), None before any; screens watch it.
    class_change: reactive[object | None] = reactive(None, always_update=True)

    def __init__(self, data_dir: str | None = None, *, seed: int | None = None,
                 ai_delay: float | None = None, trained_games: int | None = None,
                 idle_training: bool = True, config_dir: str | None = None, role: str = "teacher",
                 view: str | None = None) -> None:
        super().__init__()
        from sticks_tui.ui.shared_css import SharedStylesheet

        # its parses kept for the process (and parsed ahead in serve's warm process): ui/shared_css.py
        self.stylesheet = SharedStylesheet(variables=self.get_css_variables())
        from sticks_tui.ui.roles import ROLES

        if role not in ROLES:
            raise ValueError(f"A role is one of {', '.join(ROLES)}, not {role!r}.")
        #: "teacher" (the terminal app; `serve`'s teacher's address) or "pupil" (`serve`'s pupils' address):
        #: a pupil cannot wipe, replace or restore what the class shares (ui/roles.py).
        self.role = role
        #: "class": open on the class view (the teacher's projector page of `sticks-tui serve`); None: setup
        from sticks_tui.ui.roles import may_view_class

        self.first_view = view if may_view_class(self) else None
        self.session = Session.create(data_dir, seed=seed, ai_delay=ai_delay, trained_games=trained_games,
                                      idle_training=idle_training)
        self._training_job: TrainingJob | None = None
        from sticks_tui.learn.control import RateWindow

        self._training_rates = RateWindow()  # the background run's rate, over its last seconds of play
        self._last_rate: float | None = None
        self._load_settings(config_dir)

    # -- settings (store/settings.py): read once at start, saved at once on every change ---------
    def _load_settings(self, config_dir: str | None) -> None:
        from sticks_tui.store.settings import Settings, load_settings, settings_path

        self.settings_notices: list[str] = []
        try:
            self.settings_file: Path | None = settings_path(config_dir)
        except Exception as exc:  # noqa: BLE001 - no home directory, and the like: run on the defaults
            self.settings_file = None
            self.settings_notices.append(f"No config directory ({exc}); the settings will not be kept.")
        if self.settings_file is not None:
            self.settings, notices = load_settings(self.settings_file)
            self.settings_notices.extend(notices)
        else:
            self.settings = Settings()
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        elif self.settings.theme != Settings().theme:
            self.settings_notices.append(f"There is no theme called {self.settings.theme!r}; "
                                         f"{self.theme} is in use.")
        if self.settings.keys:  # checked first: a mistake is told in a line and its entry ignored
            from sticks_tui.ui.keymap import check_keymap, scopes_of

            keymap, notices = check_keymap(self.settings.keys, scopes_of(type(self), self.screen_classes()))
            self.settings_notices.extend(notices)
            self.set_keymap(keymap)

    def remember_game(self, game: str, **changes: object) -> None:
        """Change a game's own settings (its start, its opponent, the train dialog's start) and save them at once."""
        self.remember(_game=game, **changes)

    def remember(self, _game: str | None = None, **changes: object) -> None:
        """Change settings and save them at once (a value the file cannot hold is not saved, and said)."""
        from sticks_tui.store import StoreError
        from sticks_tui.store.settings import InvalidSetting, save_settings

        try:
            new = self.settings.with_game(_game, **changes) if _game is not None else self.settings.replace(**changes)
        except InvalidSetting as exc:
            self.notify(f"Not remembered: {exc}.", title="Settings", severity="warning", timeout=6)
            return
        if new == self.settings:
            return
        self.settings = new
        if self.settings_file is None or self.is_web:
            return  # `sticks-tui serve`: a class's tabs share one config directory; a student's names stay in the tab
        try:
            save_settings(new, self.settings_file)
        except StoreError as exc:
            if not getattr(self, "_settings_save_failed", False):  # said once, not on every change
                self._settings_save_failed = True
                self.notify(str(exc), title="Settings not saved", severity="error", timeout=10)

    def notify(self, message: str, *, title: str = "", severity="information", timeout: float | None = None,
               markup: bool = True) -> None:
        """Every notice (every screen's goes through here): in a pupil's tab, without the server's paths."""
        from sticks_tui.ui.roles import hide_paths

        super().notify(hide_paths(self, message), title=hide_paths(self, title), severity=severity, timeout=timeout,
                       markup=markup)

    def watch_theme(self, theme: str) -> None:
        if hasattr(self, "settings"):
            self.remember(theme=theme)

    @property
    def training_running(self) -> bool:
        """Whether the background run goes on (kept for the widgets, which read it from the app)."""
        return self.session.training.running

    # -- start-up ------------------------------------------------------------------------------
    @staticmethod
    def screen_classes() -> list[type[Screen]]:
        """Every screen and dialog of the app (their bindings are what a key map may move); the game screen
        once with each game's board (the board's keys are live there too)."""
        from sticks_tui.ui.boards import boards
        from sticks_tui.ui.screens import (analysis, confirm, export_dialog, game, help, lab, pretrain, records,
                                           replay, setup, training)

        from sticks_tui.ui.screens.backups import BackupsScreen
        from sticks_tui.ui.screens.brain import BrainScreen
        from sticks_tui.ui.screens.class_view import ClassScreen
        from sticks_tui.ui.screens.paper import PaperScreen
        from sticks_tui.ui.screens.print_dialog import PrintDialog

        with_boards = [type(f"GameScreenWith{board.widget.__name__}", (game.GameScreen,),
                            {"BINDINGS": board.widget.BINDINGS}) for board in boards().values()]
        return [setup.SetupScreen, game.GameScreen, *with_boards,
                training.TrainDialog, training.TrainingScreen, records.RecordsScreen, analysis.AnalysisScreen,
                pretrain.PretrainScreen, confirm.ConfirmDialog, confirm.NameDialog, help.HelpScreen,
                replay.ReplayScreen, export_dialog.ExportDialog, BackupsScreen, ClassScreen, lab.LabScreen,
                BrainScreen, PrintDialog, PaperScreen]

    @classmethod
    def binding_ids(cls) -> dict[str, str]:
        """Every binding id a key map may name -> its keys now (the README and `settings show` list them)."""
        classes = [cls, *cls.screen_classes()]
        return {b.id: b.key for c in classes for b in c.BINDINGS if isinstance(b, Binding) and b.id}

    # -- a new screen is styled once, not three times ----------------------------------------------
    def _with_width_class(self, screen):
        """Give a screen the width class (-narrow, -wide) it will have before it is mounted. Textual adds
        it on the screen's first resize, after every widget was styled, and styles them all again (about
        20 ms of CPU for the setup screen). The class is the one that resize would add."""
        if isinstance(screen, Screen) and not screen.is_attached:
            breakpoints = self.HORIZONTAL_BREAKPOINTS if screen.HORIZONTAL_BREAKPOINTS is None \
                else screen.HORIZONTAL_BREAKPOINTS
            classes = screen._get_breakpoint_classes(self.size.width, breakpoints or [])
            screen.add_class(*classes, update=False)
            screen._styled_at_mount = True  # its first turn on top need not style it again (styled_once.py)
        return screen

    def update_styles(self, node, animate: bool = True) -> None:
        """Textual styles a widget again each time a class of it changes, even a widget not yet mounted
        (a compact Input, Select or Button sets its class in its constructor): that work is thrown away, as
        the widget is styled with the classes it then has when it is mounted (App._register).

        Nor is a widget of a screen taken off the stack styled again: the screen is being removed (Textual removes
        a popped screen that is on no stack), and a screen pushed again is styled whole as it comes on top. The
        widget that had the focus on a closed screen gets its Blur after the screen left the stack, and restyles
        itself and all inside it: the lab's focused view is 49 widgets, 35 ms of CPU on every Escape."""
        if node is not self and (node not in self._registry or self._off_every_stack(node)):
            return
        super().update_styles(node, animate)

    def _off_every_stack(self, node) -> bool:
        """Whether `node` is on a screen that is on no screen stack (popped: being removed)."""
        screen = node
        while screen is not None and not isinstance(screen, Screen):
            screen = screen._parent
        if screen is None:
            return False  # not under a screen (the app's own): styled as Textual would
        return all(screen not in stack for stack in self._screen_stacks.values())

    def push_screen(self, screen, *args, **kwargs):
        if isinstance(screen, ModalScreen) and not isinstance(screen, TooSmallScreen):
            # the toasts so far were about the screen below: they would lie over the dialog's buttons (issue 33
            # item 7); one raised while it is open shows at the top (styles.tcss), away from its buttons
            self.clear_notifications()
        return super().push_screen(self._with_width_class(screen), *args, **kwargs)

    def switch_screen(self, screen):
        return super().switch_screen(self._with_width_class(screen))

    def on_mount(self) -> None:
        for notice in self.settings_notices:
            self.notify(notice, title="Settings", severity="warning", timeout=12)
        self._open_store()
        self.call_after_refresh(_freeze_heap)
        from sticks_tui.ui.screens.setup import SetupScreen

        self.push_screen(SetupScreen())
        if self.first_view == "class":
            self.action_class_view()
        self.check_size()

    # -- a terminal below 80x24 gets a notice, not a cut layout ---------------------------------
    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.check_size)

    def check_size(self) -> None:
        """Show the too-small notice over everything, or take it away (when it is on top)."""
        width, height = self.size
        shown = [s for s in self.screen_stack if isinstance(s, TooSmallScreen)]
        # a screen laid out for less (the class view, for a projector's page: 80x22) says its own minimum
        under = next((s for s in reversed(self.screen_stack) if not isinstance(s, TooSmallScreen)), None)
        least_width, least_height = getattr(under, "MIN_SIZE", (MIN_WIDTH, MIN_HEIGHT))
        small = width < least_width or height < least_height
        if small and not shown:
            self.push_screen(TooSmallScreen())
        elif not small and shown and self.screen is shown[-1]:
            self.pop_screen()  # under a dialog opened meanwhile (Ctrl+Q's question): when it comes back on top

    def _open_store(self) -> None:
        from sticks_tui.store import Store

        self.session.store = Store.open(self.session.data_dir, allow_memory=True)
        self.session.store.pupil = self.role != "teacher"  # the store refuses a pupil's (and projector's) wipes
        for notice in self.session.store.notices:
            self.notify(notice, title="Your data", severity="warning", timeout=12)
        if not self.session.store.persistent:
            # a banner for as long as it lasts, on every screen's header: nothing is being saved
            self.title = MEMORY_ONLY_TITLE
            self.add_class("-memory-only")
        self._load_chosen_brains()
        store = self.session.store
        from sticks_tui.ui.live import LIVE_CHECK, ClassWatch

        # the class, live: one cheap check twice a second whether another tab (or command) wrote
        self._class_watch = ClassWatch()
        self._class_watch.start(store)
        self.set_interval(LIVE_CHECK, self.check_class)
        if self.is_web and self.role == "teacher" and store.path is not None:
            # `sticks-tui serve`'s teacher's tab: a back-up folder that cannot be written is said here too
            from sticks_tui.store.backups import folder_problem

            problem = folder_problem(store.path)
            if problem:
                self.notify(f"{problem} The class plays on without back-ups.", title="Back-ups",
                            severity="error", timeout=30)

    @cached_property
    def keeper(self) -> BrainKeeper:
        """The one service that keeps brains in the store for every game (ui/keeper.py)."""
        return BrainKeeper(self)

    def _load_chosen_brains(self) -> None:
        """Each game's learning AI plays with the brain the settings say was left in play (the setup's hats,
        the analysis screen's pick); one no longer in the store is said in a line, and the game's own is used."""
        from sticks_tui.engine import registry
        from sticks_tui.store import StoreError
        from sticks_tui.ui.boards import board_of, has_board
        from sticks_tui.ui.keeper import rule_of_brain
        from sticks_tui.ui.session import HAT_BRAINS

        session = self.session
        for game, options in self.settings.games.items():
            name = options.brain
            if name is None or not has_board(game):
                continue
            board = board_of(game)
            own = registry.entry(game).ai_brain_names()
            made_here = (*own, *(HAT_BRAINS.values() if board.brain_choices else ()))  # made when first played
            if name not in made_here:
                try:
                    info = session.store.brain_info(name)
                except StoreError:
                    info = False  # the store says why when the brain is loaded
                why = ("is not among the brains kept" if info is None else
                       f"is a brain of {info.game}" if info and info.game != game else None)
                if why is not None:  # never made again, or played, under a name that now means nothing here
                    self.notify(f"The brain '{name}' left in play for {game} {why}; the AI plays with '{own[0]}'.",
                                title="The AI's brain", severity="warning", timeout=12)
                    continue
            session.chosen[game] = name
        main = session.main.game
        name = session.chosen.get(main, session.main.name)
        self.load_brain(name, rule_of_brain(name))

    def choose_brain(self, name: str, rule=None, game: str | None = None) -> None:
        """A teacher's choice of the brain `game`'s learning AI plays with (the first game's by default): in play
        at once, and saved, so the next start plays with it too."""
        game = game if game is not None else self.session.main.game
        if game == self.session.main.game:
            self.load_brain(name, rule)
        else:
            self.session.chosen[game] = name
        self.remember_game(game, brain=name)

    def load_brain(self, name: str, rule=None) -> None:
        """The first game's learning AI plays with the stored brain `name` (made, by `rule`, if there is none)."""
        from sticks_tui.ui.session import KeptBrain

        session = self.session
        game = session.main.game
        hats, stored = self.keeper.load(name, BRAIN_SIZE, rule, game=game)
        session.set_main(KeptBrain(game, name, hats, stored, hats.counts.copy() if stored else None))

    def save_brain(self, games_trained: int = 0) -> None:
        """Keep what this app's brain learned since it last read or wrote the store: merged onto the
        brain as stored (never this copy written whole over what other tabs taught it meanwhile);
        the app then plays with the result (ui/keeper.py)."""
        session = self.session
        if not session.brain_kept:
            return  # the stored brain could not be used: it is never written over
        stored = self.keeper.save(session.brain_name, session.brain, session.brain_base, games_trained)
        if stored is not None:
            self.adopt_stored_counts(stored.counts)

    def adopt_stored_counts(self, counts) -> None:
        """Play on with the brain as stored, in place (the players hold these hats); it is the new base."""
        session = self.session
        if counts.shape == session.brain.counts.shape:
            session.brain.counts[:] = counts
            session.brain_base = counts.copy()

    def check_class(self) -> None:
        """Publish what other tabs stored since the last check (ui/live.py), if anything."""
        watch = getattr(self, "_class_watch", None)
        if watch is None or self.session.store is None:
            return
        change = watch.check(self.session, adopt=self.adopt_stored_counts)
        if change is not None:
            self.class_change = change

    # -- commands (the screens' own are in their COMMANDS providers) ---------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("New game", "Go to the setup screen and start a new game", self.action_new_game)
        yield SystemCommand("Train the AI", "Let the learning AI play itself in the background",
                            self.action_train)
        if self.training_running:
            yield SystemCommand("Watch training", "Show the training run's progress and hats",
                                self.action_show_training)
            yield SystemCommand("Cancel training", "Stop the training run; the AI keeps what it learned",
                                self.action_cancel_training)
        from sticks_tui.engine import registry
        from sticks_tui.ui.boards import boards

        for game in boards():
            entry = registry.entry(game)
            yield SystemCommand(entry.choice, f"Set up a game of {entry.title}",
                                lambda game=game: self.action_set_up(game))
        yield SystemCommand("Records", "Wins and losses of every player, and recent games", self.action_records)
        yield SystemCommand("Analysis", "What the AI learned, held against the exact solution",
                            self.action_analysis)
        yield SystemCommand("Learning lab", "Race learners and incentives over many seeds: which learns fastest",
                            self.action_lab)
        from sticks_tui.ui.roles import is_teacher

        if is_teacher(self):  # a pupil's tab never lists it
            yield SystemCommand("Back-ups", "The back-ups of the class's records and brains; restore one",
                                self.action_backups)
            yield SystemCommand("Back up now", "Make a back-up of the class's records and brains now",
                                self.action_backup_now)
            yield SystemCommand("Class view", "The class's brain, leaderboard and games, live: for a projector",
                                self.action_class_view)
            yield SystemCommand("Paper game", "Type in a game played with the printed machine of the game in play's "
                                "brain: it learns the same lesson", self.action_paper_game)

    def action_paper_game(self) -> None:
        """The paper game of the game in play's learning AI (screens/paper.py; the teacher's)."""
        from sticks_tui.ui.screens.paper import PaperScreen, open_paper_game

        if not isinstance(self.screen, PaperScreen):
            game = self.game_in_play()
            open_paper_game(self, game, self.brain_side_in_play(game))

    def action_help(self) -> None:
        from sticks_tui.ui.screens.help import HelpScreen

        if isinstance(self.screen, (HelpScreen, TooSmallScreen)):
            return
        brain = getattr(self.session, "brain", None)
        self.push_screen(HelpScreen.of(self.screen, rule=getattr(brain, "rule", None)))

    def action_new_game(self) -> None:
        def go() -> None:
            while len(self.screen_stack) > 2:
                self.pop_screen()

        busy = [why for screen in self.screen_stack if (why := getattr(screen, "cannot_leave_now", lambda: None)())]
        if busy:  # a screen's own short training run would be thrown away with it
            self.notify(busy[0], severity="warning")
            return
        if len(self.screen_stack) > 2:
            self.confirm_leaving_games(go)

    def game_in_play(self) -> str:
        """The game the train dialog and the training speak of: the game screen's on top of the stack, else the
        setup screen's choice, else the settings'."""
        for screen in reversed(self.screen_stack):
            setup = getattr(screen, "setup", None)
            if setup is not None and hasattr(setup, "game"):
                return setup.game
            kind = getattr(screen, "game_kind", None)
            if isinstance(kind, str):
                return kind
        return self.settings.game

    def action_train(self) -> None:
        from sticks_tui.ui import brains
        from sticks_tui.ui.screens.training import TrainDialog

        if self.training_running:
            self.action_show_training()
            return
        game = self.game_in_play()
        side = self.brain_side_in_play(game)
        kept = self.keeper.learner(game, side)
        if not brains.trainable(kept.brain):
            from sticks_tui.engine import registry

            self.notify(f"The brain '{kept.name}' of {registry.entry(game).title} cannot be trained here: only the "
                        "counts learner's brains train.", title="Train", severity="warning", timeout=10)
            return
        self.push_screen(TrainDialog(game, side), lambda config: self._train_chosen(config, game, side))

    def brain_side_in_play(self, game: str) -> int:
        """The side whose brain the learning AI of `game` plays with on the game screen on top, or will play with in
        the game the setup screen holds (MENACE as O: 1, its O boxes; HER as Black: 1), the brain F2 trains; with
        neither for `game`, the side its learning AI plays in the game's own story (the entry's `learner_seat`: HER's
        Black, MENACE's X; 0 where one brain plays both)."""
        for screen in reversed(self.screen_stack):
            shown = getattr(getattr(screen, "setup", None), "game", None) or getattr(screen, "game_kind", None)
            if shown == game and hasattr(screen, "brain_side"):
                return screen.brain_side
        from sticks_tui.engine import registry

        return registry.entry(game).learner_seat or 0

    def _train_chosen(self, config, game: str | None = None, side: int = 0) -> None:
        if config is not None:  # the brain as it is now (a reset in the dialog may have made it anew)
            self.start_training(config, self.keeper.learner(game, side) if game is not None else None)
            self.action_show_training()

    def action_show_training(self) -> None:
        from sticks_tui.ui.screens.training import TrainingScreen

        if not isinstance(self.screen, TrainingScreen):
            self.push_screen(TrainingScreen())

    def action_cancel_training(self) -> None:
        if self._training_job is not None:
            self._training_job.cancel()

    def action_set_up(self, game: str) -> None:
        """Back to the setup screen (asking first if a game would be lost), with `game` chosen."""
        from textual.widgets import Select

        def go() -> None:
            while len(self.screen_stack) > 2:
                self.pop_screen()
            self.screen.query_one("#game", Select).value = game

        busy = [why for screen in self.screen_stack if (why := getattr(screen, "cannot_leave_now", lambda: None)())]
        if busy:
            self.notify(busy[0], severity="warning")
            return
        self.confirm_leaving_games(go)

    def open_game(self, setup) -> None:
        """Start the game as set up: on the game screen, or first the trained AI's training."""
        if setup.opponent == "trained":
            from sticks_tui.ui.screens.pretrain import PretrainScreen

            self.push_screen(PretrainScreen(setup))
        else:
            from sticks_tui.ui.screens.game import GameScreen

            self.push_screen(GameScreen(setup))

    def action_records(self) -> None:
        from sticks_tui.ui.screens.records import RecordsScreen

        if not isinstance(self.screen, RecordsScreen):
            self.push_screen(RecordsScreen())

    def action_backups(self) -> None:
        from sticks_tui.ui.roles import is_teacher
        from sticks_tui.ui.screens.backups import BackupsScreen

        if not is_teacher(self):
            self.notify("Only the teacher can restore a back-up.", title="Not for pupils", severity="warning")
            return
        if not isinstance(self.screen, BackupsScreen):
            self.push_screen(BackupsScreen())

    def action_backup_now(self) -> None:
        self.make_backup_now()

    def make_backup_now(self):
        """A back-up made by hand (the teacher's "Back up now"), said in a notice; the Backup, or None."""
        from sticks_tui.store import StoreError
        from sticks_tui.store.backups import make_backup
        from sticks_tui.ui.roles import is_teacher

        if not is_teacher(self):
            self.notify("Only the teacher can make a back-up.", title="Not for pupils", severity="warning")
            return None
        store = self.session.store
        if store.path is None:
            self.notify("The records and brains live in memory only this time: there are no back-ups.",
                        title="Not backed up", severity="warning")
            return None
        try:
            made = make_backup(store.path, "by-hand")
        except StoreError as exc:
            self.notify(str(exc), title="Not backed up", severity="error", timeout=10)
            return None
        self.notify(f"Backed up as {made.name} ({made.contents_words}).", title="Back-up made")
        return made

    def action_class_view(self) -> None:
        from sticks_tui.ui.roles import may_view_class
        from sticks_tui.ui.screens.class_view import ClassScreen
        from sticks_tui.ui.screens.paper import PaperScreen
        from sticks_tui.ui.screens.print_dialog import PrintDialog

        if not may_view_class(self):
            self.notify("Only the teacher can open the class view.", title="Not for pupils", severity="warning")
            return
        if not isinstance(self.screen, ClassScreen):
            self.push_screen(ClassScreen())

    def action_analysis(self) -> None:
        from sticks_tui.ui.screens.analysis import AnalysisScreen

        if not isinstance(self.screen, AnalysisScreen):
            self.push_screen(AnalysisScreen())

    def action_lab(self) -> None:
        from sticks_tui.ui.screens.lab import LabScreen

        if not isinstance(self.screen, LabScreen):
            self.push_screen(LabScreen())

    # -- background training -------------------------------------------------------------------
    def start_training(self, config, kept=None) -> TrainingJob | None:
        """Train a copy of the kept brain `kept` (the first game's chosen one by default) in a thread; when it
        ends, fold the result back in."""
        state = self.session.training
        if state.running:
            return None
        kept = kept if kept is not None else self.session.main
        state.running = True
        state.config = config
        state.kept = kept
        state.start_counts = kept.brain.counts.copy()
        state.points = []
        state.rules = config.rules
        self._training_rates.restart()
        self._last_rate = None
        self.training = None
        self._training_job = start_training_worker(self, BACKGROUND, sticks_run(config, kept.brain.copy()),
                                                  idle=self.session.idle_training, pace=config.pace)
        return self._training_job

    @property
    def training_control(self):
        """The running (or last) run's `learn.control.TrainingControl` (pace, pause, step), or None."""
        return self._training_job.control if self._training_job is not None else None

    def on_training_progress_msg(self, message: TrainingProgressMsg) -> None:
        if message.purpose != BACKGROUND:
            return
        p = message.progress
        self.session.training.points = list(p.curve)
        control = self.training_control
        if control is not None and (control.paused or control.pace is not None):
            self._training_rates.restart()  # paused (time is not play) or at a pace (the pace is the rate)
        else:
            self._training_rates.add(p.seconds, p.games_done)
            rate = self._training_rates.rate
            if rate is not None:
                self._last_rate = rate
        self.training = p

    @property
    def training_rate(self) -> float | None:
        """The background run's games a second over its last seconds of play at full speed; while paused,
        the last one measured (so the time left stands still); None until measured."""
        return self._last_rate

    def on_training_finished(self, message: TrainingFinished) -> None:
        if message.purpose != BACKGROUND:
            return
        if message.error is not None:
            self.session.training.running = False
            self.notify(f"Training stopped: {message.error}", title="Training", severity="error", timeout=10)
            self.training = self.training
            return
        self._training_finished(message.result)

    def _keep_training(self, result) -> None:
        """Keep the run (ui/keeper.py): merged onto the brain as stored (with what any copy's games taught
        it meanwhile), its games and its curve, in one transaction, and play on with that brain. If the
        store cannot, the app says why and the keeper's one failure behaviour follows (merged in memory,
        then onto the brain as stored, never written over). Fresh hats standing in for a stored brain
        that could not be used are merged in memory only."""
        session = self.session
        kept = session.training.kept or session.main
        stored = self.keeper.merge(kept.name if kept.kept else None, kept.brain, session.training.start_counts, result,
                                   base=kept.base)
        if stored is not None and stored.counts.shape == kept.brain.counts.shape:
            kept.base = stored.counts.copy()

    def _training_finished(self, result) -> None:
        state = self.session.training
        if result is state.last_result:  # folded already (quitting folds it before the message)
            return
        state.running = False
        state.last_result = result
        self._keep_training(result)
        from sticks_tui.learn.analysis import CurveScorer
        from sticks_tui.learn.figure_words import likeliest_sentence

        from sticks_tui.ui.widgets.training_badge import format_seconds, games_words

        brain = (state.kept or self.session.main).brain
        # the game the run trained (for sticks the heap: its figures are over heaps 2..heap), else the brain's
        rules = result.rules if getattr(result, "rules", None) is not None else brain.rules
        scorer = CurveScorer.for_rules(rules, brain.seat, brain.rule)
        winning = int(scorer.winning_rows.sum())
        verb = "Cancelled after" if result.cancelled else "Finished"
        self.notify(f"{verb} {games_words(result.games_played)} in {format_seconds(result.seconds)}. "
                    + likeliest_sentence(rules, scorer.agreement(brain.counts), scorer.draw_wins(brain.counts),
                                         winning),
                    title="Training", timeout=8)
        self.training = self.training  # wake the watchers with the final state

    # -- quitting and leaving ------------------------------------------------------------------
    def work_in_progress(self, *, games: bool = True, training: bool = True) -> list[str]:
        """What quitting now would interrupt, in words (empty: nothing)."""
        what = []
        if games and any(getattr(type(s), "game_in_progress", None) is not None and s.game_in_progress
                         for s in self.screen_stack):
            what.append("a game is in progress")
        if training:
            if self.training_running:
                what.append("the AI is training (it keeps what it learned so far)")
            for worker in self.workers:
                if worker.group.startswith("training-") and worker.group != f"training-{BACKGROUND}" \
                        and not worker.is_finished:
                    what.append("an AI is training for a game")
                    break
        return what

    def confirm_leaving_games(self, then) -> None:
        """Run `then()` at once if no game is in progress on the screens it leaves; else ask first."""
        from sticks_tui.ui.screens.confirm import ConfirmDialog

        busy = self.work_in_progress(training=False)
        if not busy:
            then()
            return
        self.push_screen(ConfirmDialog(_sentence(busy) + " Leave it?", yes="Leave", default_yes=True),
                         lambda yes: then() if yes else None)

    async def action_quit(self) -> None:
        """Quit; with a game or a training run in progress, ask first (a second Ctrl+Q says yes)."""
        from sticks_tui.ui.screens.confirm import ConfirmDialog

        if isinstance(self.screen, ConfirmDialog) and self.screen.purpose == "quit":
            self.screen.dismiss(True)
            return
        busy = self.work_in_progress()
        if not busy:
            await self.quit_now()
            return

        async def answered(yes: bool | None) -> None:
            if yes:
                await self.quit_now()

        self.push_screen(ConfirmDialog(_sentence(busy) + " Quit anyway?", yes="Quit", default_yes=True,
                                       purpose="quit"), answered)

    async def _keep_running_training(self) -> None:
        """Stop every training run still going and keep what it learned (as Cancel does): the app's
        background run, and any run a screen owns (the Nim AI's)."""
        job = self._training_job
        if job is not None and self.training_running:
            job.cancel()
            result = await job.wait()
            if result is not None:
                self._training_finished(result)
        for screen in list(self.screen_stack):
            keep = getattr(screen, "keep_running_training", None)
            if keep is not None:
                await keep()

    async def quit_now(self) -> None:
        """Quit; a training run still going is stopped first and what it learned is kept."""
        await self._keep_running_training()
        self.exit()

    async def _on_exit_app(self) -> None:
        """Every way out (the web driver's SIGTERM when `sticks-tui serve` stops, too) keeps what a
        training run still going has learned, as Cancel would."""
        await self._keep_running_training()
        await super()._on_exit_app()

    def on_unmount(self) -> None:
        if self._training_job is not None:
            self._training_job.cancel()
        if self.session.store is not None:
            self.session.store.close()


def _sentence(parts: list[str]) -> str:
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return text[0].upper() + text[1:] + "."
