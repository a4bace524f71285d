"""The first screen: choose the game and where it starts (its board's own row), the opponent, names, who
moves first, and watch mode."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Label, Static, Switch

from sticks_tui import vocabulary
from sticks_tui.engine import registry
from sticks_tui.learn.hats import RULE_PRESETS
from sticks_tui.store.errors import InvalidName, StoreError
from sticks_tui.store.names import ai_name_of
from sticks_tui.store.records import NameClash
from sticks_tui.ui.boards import StartProblem, board_of, boards
from sticks_tui.ui.session import (DEFAULT_SPEED, FIRST_CHOICES, HAT_BRAINS, HAT_CHOICES, LEARNER_KINDS, SPEEDS,
                                   MatchSetup)
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.inputs import Input
from sticks_tui.ui.widgets.training_badge import TrainingBadge
from sticks_tui.ui.widgets.header import AppHeader
from sticks_tui.ui.widgets.select import Select

NAME_LIMIT = 24
#: The app's F2-F4 and F7 as this screen shows them in its footer (the app's own are hidden so every footer fits
#: 80 columns); the same ids as the app's, so a key map moves both.
SCREEN_KEYS = [
    Binding("f2,t", "train", "Train", key_display="F2", id="train"),
    Binding("f3,r", "app.records", "Records", key_display="F3", id="records"),
    Binding("f4,a", "app.analysis", "Analysis", key_display="F4", id="analysis"),
    Binding("f7,l", "app.lab", "Lab", key_display="F7", id="lab"),
]
#: Watching AI vs AI, as the switch's words say it (the switch itself shows no words).
WATCH_WORDS = {True: "on: {learner} plays Player 1's seat", False: "off: a person plays Player 1's seat"}


def learner_article(name: str) -> str:
    """'the learning AI' for "Learning AI", 'the Nim learning AI', 'MENACE' for "MENACE": a learner's name inside
    a sentence."""
    return "the " + name.replace("Learning AI", "learning AI") if name.endswith(" AI") else name


def names_problem(store, names: tuple[str, str], ai_seats) -> tuple[str | None, str]:
    """Why the store would not record a game between `names` (AIs on `ai_seats`), in one line, and the name
    box to fix; (None, "") when it would. The store's rule itself (`Store.check_players`), read before play."""
    try:
        store.check_players(names, ai_seats)
    except NameClash as exc:
        return exc.short, f"#name{exc.seat + 1}"
    except InvalidName as exc:
        return str(exc), "#name1"
    except StoreError:
        return None, ""  # the records cannot be read: the game is played, and the app says it is not kept
    return None, ""


class SetupScreen(StyledOnce, Screen):
    """Sensible defaults: Enter in the heap box starts a game against the learning AI at once."""

    BINDINGS = [
        Binding("ctrl+s", "start", "Start game", show=True, id="setup.start"),
        *SCREEN_KEYS,
        # said in the intro while the seeds' hats cannot show a loss yet (boards/sticks.py SEEDS_WARNING)
        Binding("f8", "menace_hats", "MENACE-like hats", key_display="F8", show=False, id="setup.menace_hats",
                tooltip="The learning AI plays with the MENACE-like hats (3 balls each): every loss shows"),
    ]  # no Esc here: it goes back one screen elsewhere, and this is the first screen (never a quit)
    AUTO_FOCUS = ""  # no first focus of its own (None would take the app's "*": the game's choice, focused then blurred): on_mount focuses the game's own start row, else the game's choice

    def __init__(self) -> None:
        super().__init__()
        self.boards = boards()
        #: Each game's row that asks where its games start (a game with one start has none).
        self.start_rows = {game: board.setup_row() for game, board in self.boards.items()
                           if board.setup_row is not None}

    def compose(self) -> ComposeResult:
        games = list(self.boards)
        yield AppHeader()
        with Vertical(id="setup"):
            yield Static("", id="setup-intro")
            with Vertical(id="setup-form"):
                with Horizontal(classes="row dense"):  # its start's row below belongs with it
                    yield Label("Game", classes="field")
                    yield Select([(registry.entry(game).choice, game) for game in games], value=games[0],
                                 allow_blank=False, id="game", compact=True)
                for row in self.start_rows.values():
                    row.add_class("start-row")
                    yield row
                yield Label("", id="heap-error", classes="error")
                with Horizontal(classes="row dense"):
                    yield Label("Opponent", classes="field")
                    yield Select([(label, key) for key, label in registry.entry(games[0]).opponents.items()],
                                 value=registry.entry(games[0]).default_opponent, allow_blank=False, id="opponent",
                                 compact=True)
                with Horizontal(classes="row", id="hats-row"):
                    yield Label("AI's hats", classes="field")
                    yield Select([(label, key) for key, label in HAT_CHOICES.items()], value="seeds",
                                 allow_blank=False, id="hats", compact=True)
                with Horizontal(classes="row", id="brain-row"):  # a game without a choice of hats: its brains
                    yield Label("AI's brain", classes="field")
                    yield Label("", id="brain-in-play")
                with Horizontal(classes="row dense"):
                    yield Label("Player 1's name", classes="field")
                    yield Input("Player 1", id="name1", compact=True, max_length=NAME_LIMIT)
                with Horizontal(classes="row"):
                    yield Label("Player 2's name", classes="field")
                    yield Input("Player 2", id="name2", compact=True, max_length=NAME_LIMIT)
                with Horizontal(classes="row dense"):
                    yield Label("Who moves first", classes="field")
                    yield Select([(label, key) for key, label in FIRST_CHOICES.items()], value="p1",
                                 allow_blank=False, id="first", compact=True)
                with Horizontal(classes="row dense"):
                    yield Label("Watch AI vs AI", classes="field")
                    yield Switch(False, id="watch")
                    yield Label(WATCH_WORDS[False], id="watch-help")
                with Horizontal(classes="row"):
                    yield Label("AI speed", classes="field")
                    yield Select([(f"{k} ({v:g} s a move)", k) for k, v in SPEEDS.items()],
                                 value=DEFAULT_SPEED, allow_blank=False, id="speed", compact=True)
            with Horizontal(id="setup-buttons"):
                yield Button("Start game", id="start", variant="primary")
                yield Button("Train the AI", id="train", action="screen.train")
                yield Button("Records", id="records", action="app.records")
                yield Button("Analysis", id="analysis", action="app.analysis")
                yield Button("Lab", id="lab", action="app.lab")
        yield TrainingBadge()
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "set up a game"
        self._loading = True  # what the screen opens with is not a change to save
        last = self.app.session.last_setup or self._saved_setup(self.app.settings.game)
        for game, row in self.start_rows.items():  # each game's row keeps its last start
            start = last.start if game == last.game and last.start is not None else self._saved_start(game)
            self.boards[game].load(row, start)
        if last.game != self.game_kind and last.game in self.boards:
            self.query_one("#game", Select).value = last.game
        self._game_changed()
        self.query_one("#opponent", Select).value = last.opponent
        self.query_one("#name1", Input).value = last.name1
        if registry.entry(last.game).watchable or last.opponent == "friend":  # else seat 2 has the AI's name
            self.query_one("#name2", Input).value = last.name2
        self.query_one("#first", Select).value = last.first
        if registry.entry(last.game).watchable:
            self.query_one("#watch", Switch).value = last.watch
        self.query_one("#speed", Select).value = last.speed
        self._sync_hats()
        self._sync_names()
        self._sync_first()
        self._focus_start()
        self.call_after_refresh(self._loaded)

    def _focus_start(self) -> None:
        """The first box of the game's start row (Enter there starts a game at once), else the game's choice."""
        row = self.start_rows.get(self.game_kind)
        inputs = list(row.query(Input)) if row is not None else []
        (inputs[0] if inputs else self.query_one("#game", Select)).focus()

    def _loaded(self) -> None:
        self._loading = False

    def on_screen_resume(self) -> None:
        self._sync_hats()  # the analysis screen may have picked another brain meanwhile
        self._show_brains()
        self._sync_saved()

    def _sync_saved(self) -> None:
        """Who moves first and watching as the settings have them for the game shown: a choice made on another
        screen (the game screen's seats) is what this screen shows, and what its next game plays."""
        if getattr(self, "_loading", True):
            return
        saved = self.app.settings
        first = self.query_one("#first", Select)
        if first.value != saved.first_of(self.game_kind):
            with self.prevent(Select.Changed):
                first.value = saved.first_of(self.game_kind)
        watch = self.query_one("#watch", Switch)
        own = saved.of(self.game_kind).watch
        if own is not None and not watch.disabled and watch.value != own:
            watch.value = own  # its names follow (`_sync_names`); saving the same value changes nothing

    # -- the learning AI's hats: the seeds' brain, or the MENACE-like one ------------------------------
    def _sync_hats(self) -> None:
        """The hats choice says which brain the learning AI plays with now (another one picked on the
        analysis screen is offered by its name), and the intro says whether a loss shows at once."""
        session = self.app.session
        select = self.query_one("#hats", Select)
        options = [(label, key) for key, label in HAT_CHOICES.items()]  # as composed
        if getattr(self, "_hats_options", None) is None:
            self._hats_options = list(options)
        current = next((key for key, name in HAT_BRAINS.items() if name == session.brain_name), None)
        if current is None:
            current = "other"
            options.append((f"brain '{session.brain_name}' (chosen on the analysis screen)", "other"))
        with self.prevent(Select.Changed):
            if getattr(self, "_hats_options", None) != options:
                self._hats_options = options
                select.set_options(options)
            select.value = current
        self._show_intro()

    def action_menace_hats(self) -> None:
        """The learning AI plays with the MENACE-like hats (the hats choice, as if picked there)."""
        if "menace" in HAT_BRAINS and self.query_one("#hats-row").display:
            self.query_one("#hats", Select).value = "menace"

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "menace_hats":
            return bool(self.query_one("#hats-row").display) and self.query_one("#hats", Select).value != "menace"
        return True

    def _show_brains(self) -> None:
        """The brain(s) the game's learning AI plays with, by name (each side's in a game of sides), where the
        game offers no choice of hats: the one left in play is the one named."""
        from sticks_tui.ui.keeper import brain_name

        board = board_of(self.game_kind)
        shown = not board.brain_choices and any(k in LEARNER_KINDS for k in registry.entry(self.game_kind).opponents)
        self.query_one("#brain-row").display = shown
        if not shown:
            return
        session = self.app.session
        names = [brain_name(session, self.game_kind, side) for side in range(1 + registry.entry(self.game_kind).brains_by_side())]
        if board.sides and len(names) == 2:
            words = f"{board.sides[0]}: '{names[0]}', {board.sides[1]}: '{names[1]}'"
        else:
            words = f"'{names[0]}'"
        self.query_one("#brain-in-play", Label).update(words)

    def _show_intro(self) -> None:
        board = board_of(self.game_kind)
        intro = board.intro(self.app) if board.intro is not None else registry.entry(self.game_kind).title.capitalize()
        self.query_one("#setup-intro", Static).update(intro)

    @on(Select.Changed, "#hats")
    def _hats_chosen(self, event: Select.Changed) -> None:
        choice = event.value
        if choice != event.select.value:
            return  # a change that was undone meanwhile (the options set again when the screen opens)
        if choice not in HAT_BRAINS or HAT_BRAINS[choice] == self.app.session.brain_name:
            return
        if self.app.training_running:  # the run's lesson is for the brain it started from
            self.notify("The AI is training: choose its hats when the run has finished.", severity="warning")
            self._sync_hats()
            return
        if getattr(self, "_loading", True):
            return
        self.app.choose_brain(HAT_BRAINS[choice], RULE_PRESETS[choice], self.game_kind)
        self._sync_hats()

    def _saved_start(self, game: str):
        """Where the settings say the game starts (its board's default when nothing was chosen)."""
        start = self.app.settings.of(game).start
        return start if start is not None else self.boards[game].default_start

    def _saved_setup(self, game: str) -> MatchSetup:
        """The choices kept in the settings file (the app's first start: the defaults)."""
        saved = self.app.settings
        if game not in self.boards:
            game = next(iter(self.boards))
        opponent = saved.of(game).opponent or registry.entry(game).default_opponent
        return MatchSetup(game=game, start=self._saved_start(game), opponent=opponent,
                          name1=saved.name1, name2=saved.name2, first=saved.first_of(game),
                          watch=bool(saved.of(game).watch) and registry.entry(game).watchable,
                          speed=saved.ai_speed if saved.ai_speed in SPEEDS else DEFAULT_SPEED)

    # -- remembered at once (the settings file) ---------------------------------------------------
    def _remember(self, **changes) -> None:
        if not getattr(self, "_loading", True):
            self.app.remember(**changes)

    @on(Select.Changed, "#game")
    def _remember_game(self) -> None:
        self._remember(game=self.game_kind)

    @on(Select.Changed, "#opponent")
    def _remember_opponent(self) -> None:
        if not getattr(self, "_loading", True):
            self.app.remember_game(self.game_kind, opponent=self.query_one("#opponent", Select).value)

    @on(Select.Changed, "#first")
    def _remember_first(self) -> None:
        if not getattr(self, "_loading", True):
            self.app.remember_game(self.game_kind, first=self.query_one("#first", Select).value)

    @on(Switch.Changed, "#watch")
    def _remember_watch(self, event: Switch.Changed) -> None:
        if not getattr(self, "_loading", True) and not event.switch.disabled:
            self.app.remember_game(self.game_kind, watch=event.value)

    @on(Select.Changed, "#speed")
    def _remember_speed(self) -> None:
        self._remember(ai_speed=self.query_one("#speed", Select).value)

    @on(Input.Changed, ".start-row Input")
    def _remember_start(self, event: Input.Changed) -> None:
        self.query_one("#heap-error", Label).update("")
        game = self.game_kind
        row = self.start_rows.get(game)
        if row is None or getattr(self, "_loading", True):
            return
        try:
            start = self.boards[game].read(row, "")
        except StartProblem:
            return  # a start being typed, or a bad one: the saved start stays until a good one is typed
        if start == self._saved_start(game):
            return  # the start as saved, filled in as the screen opens: the train dialog's own start stays
        # the train dialog's start follows the game's (its figures are about the game in play) until a run picks another
        self.app.remember_game(game, start=start, train_start=start)

    @on(Input.Changed, "#name1, #name2")
    def _names_changed(self, event: Input.Changed) -> None:
        self._sync_first()
        name = event.value.strip()
        if event.input.disabled or not name or len(name) > NAME_LIMIT or ai_name_of(name) is not None:
            return  # an AI's name (filled in by the screen) or a half-typed one: not a person's name to keep
        if event.input.id == "name2" and self.query_one("#opponent", Select).value != "friend":
            return
        self._remember(**{event.input.id: name})

    def _sync_first(self) -> None:
        """"Who moves first" offers the names as typed (or the AI's), not "Player 1" and "Player 2", each with the
        side the first mover plays in a game of sides: "MENACE (X)"."""
        sides = board_of(self.game_kind).sides
        mark = f" ({sides[0]})" if sides else ""
        names = {"p1": (self.query_one("#name1", Input).value.strip() or "Player 1") + mark,
                 "p2": (self.query_one("#name2", Input).value.strip() or "Player 2") + mark}
        select = self.query_one("#first", Select)
        options = [(names.get(key, label), key) for key, label in FIRST_CHOICES.items()]
        if getattr(self, "_first_options", None) == options:
            return
        self._first_options = options
        current = select.value
        with self.prevent(Select.Changed):
            select.set_options(options)
            select.value = current
            select.mutate_reactive(Select.value)  # the same value again: its words are shown anew all the same

    def people_names(self) -> tuple[str, str]:
        """The people's names as typed here (`session.people_names`: every way into a game asks it)."""
        name1, name2 = self.query_one("#name1", Input), self.query_one("#name2", Input)
        first = getattr(self, "_typed_name1", "") if self.query_one("#watch", Switch).value else name1.value
        friend = self.query_one("#opponent", Select).value == "friend"
        second = name2.value if friend else self.app.settings.name2
        return first.strip() or "Player 1", second.strip() or "Player 2"

    @property
    def game_kind(self) -> str:
        return self.query_one("#game", Select).value

    @property
    def brain_side(self) -> int:
        """The side whose brain the learning AI will play the game set up here with, the brain F2 trains: the second
        mover's when the person moves first against it (MENACE as O, HER as Black), else the first mover's."""
        opponent = self.query_one("#opponent", Select).value
        person_first = self.query_one("#first", Select).value == "p1" and not self.query_one("#watch", Switch).value
        return 1 if person_first and opponent in LEARNER_KINDS and opponent != "trained" else 0

    @on(Select.Changed, "#game")
    def _game_changed(self) -> None:
        game, board = registry.entry(self.game_kind), board_of(self.game_kind)
        self._show_intro()
        for name, row in self.start_rows.items():  # the game's own row
            row.display = name == self.game_kind
        self.query_one("#hats-row").display = board.brain_choices  # the game's AI's brains, when it has a choice
        self._show_brains()
        self.query_one("#heap-error", Label).update("")
        opponents = game.opponents
        select = self.query_one("#opponent", Select)
        current = select.value
        if not getattr(self, "_loading", True):
            current = self.app.settings.of(game.name).opponent or current
        with self.prevent(Select.Changed):
            select.set_options([(label, key) for key, label in opponents.items()])
            select.value = current if current in opponents else game.default_opponent
        watch = self.query_one("#watch", Switch)
        watch.disabled = not game.watchable
        if not game.watchable:
            watch.value = False
        if not getattr(self, "_loading", True):  # each game opens as it was left: who moves first, watching
            saved = self.app.settings
            with self.prevent(Select.Changed):
                self.query_one("#first", Select).value = saved.first_of(game.name)
            if game.watchable:
                watch.value = bool(saved.of(game.name).watch)
            self._sync_hats()
        self._sync_names()
        self._sync_first()  # the first mover's side (X) is the game's

    @on(Select.Changed, "#opponent")
    @on(Switch.Changed, "#watch")
    def _sync_names(self) -> None:
        opponent = self.query_one("#opponent", Select).value
        watch = self.query_one("#watch", Switch).value
        name2 = self.query_one("#name2", Input)
        name1 = self.query_one("#name1", Input)
        if opponent == "friend":
            name2.disabled = False
            if name2.value in vocabulary.every_ai_name():
                name2.value = self.app.settings.name2  # the friend's name typed last (kept: "Player 2" at first)
        else:
            names = vocabulary.ai_names(self.game_kind)
            name2.value = names[opponent] + (vocabulary.SECOND_AI_SUFFIX if watch and opponent in LEARNER_KINDS
                                             else "")
            name2.disabled = True
        name1.disabled = watch
        learner = self.learner_name()
        self.query_one("#watch-help", Label).update(WATCH_WORDS[bool(watch)].format(learner=learner_article(learner)))
        if watch:
            if name1.value not in vocabulary.every_ai_name():
                self._typed_name1 = name1.value  # given back when watching is switched off
            name1.value = learner
        elif name1.value in vocabulary.every_ai_name():
            name1.value = getattr(self, "_typed_name1", "Player 1")

    def learner_name(self) -> str:
        """The name the game's learning AI plays under (watching, it plays Player 1's seat)."""
        names = vocabulary.ai_names(self.game_kind)
        return names.get(registry.entry(self.game_kind).learning_kind, "Learning AI")

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_start()

    def action_train(self) -> None:
        """Train the AI of the game chosen, in the app's train dialog."""
        setup = self.read_setup()  # None: the form says what to fix
        if setup is not None:
            self.app.session.last_setup = setup
        self.app.action_train()

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        if self.app.screen is not self:
            return  # a second Enter in the same burst of keys (a slow network): the game has already started
        setup = self.read_setup()
        if setup is None:
            return
        self.app.session.last_setup = setup
        self.app.open_game(setup)

    def read_setup(self) -> MatchSetup | None:
        """The choices on screen, or None (with the reason shown inline) if they do not make a game."""
        error = self.query_one("#heap-error", Label)
        opponent = self.query_one("#opponent", Select).value
        row = self.start_rows.get(self.game_kind)
        start = None
        if row is not None:
            try:
                start = self.boards[self.game_kind].read(row, opponent)  # the game's start: 20, (3, 4, 5), ...
            except StartProblem as exc:
                error.update(str(exc))
                if exc.field is not None:
                    row.query_one(exc.field).focus()
                return None
        watch = self.query_one("#watch", Switch).value
        if watch and opponent == "friend":
            error.update("To watch AI vs AI, choose an AI opponent.")
            self.query_one("#opponent", Select).focus()
            return None
        name1 = self.query_one("#name1", Input).value.strip() or "Player 1"
        name2 = self.query_one("#name2", Input).value.strip() or "Player 2"
        # the store's own checks, asked before the game (never a game played and then not recorded)
        ai_seats = (0, 1) if watch else (() if opponent == "friend" else (1,))
        problem, where = names_problem(self.app.session.store, (name1, name2), ai_seats)
        if problem is not None:
            error.update(problem)
            self.query_one(where, Input).focus()
            return None
        return MatchSetup(game=self.game_kind, start=start, opponent=opponent, name1=name1, name2=name2,
                          first=self.query_one("#first", Select).value, watch=watch,
                          speed=self.query_one("#speed", Select).value)
