"""Training from the menu: a dialog that asks how, and a screen that shows it happen.

The dialog offers every option of a training run (`learn.trainer.TrainingConfig` and the hat rule
`learn.hats.HatRule`, as `sticks-tui train` does), a pace, and "reset the brain first", and says in
a sentence what the run will do. The screen shows the run; at a pace (or paused, or stepping) it
tells each game's story in a short log, in the seeds' words, and marks the game's balls on the hats.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Label, ProgressBar, Static

from sticks_tui.learn import compiled
from sticks_tui.learn.analysis import scope_words
from sticks_tui.learn.control import BALL_BY_BALL, PACES, GameStory, pace_words
from sticks_tui.learn.hats import MAX_START_NUMBERS, RULE_LIMITS, RULE_PRESETS, HatRule
from sticks_tui.learn.lesson_words import lesson_sentence, losses_note, rule_sentence, won_sentence
from sticks_tui.learn.trainer import DEFAULT_PROTOCOL, GAME_PROTOCOLS, MAX_GAMES, PROTOCOLS, TrainingConfig, seats_of
from sticks_tui.solve.sticks import solve_sticks
from sticks_tui.ui.bindings import relabel
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.roles import is_teacher
from sticks_tui.engine.rules import sticks_word
from sticks_tui.ui.story_teller import ToldGame
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.container_view import ContainerView
from sticks_tui.ui.widgets.curve import FigureHeadings
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.heatmap import HatHeatmap, HeatmapData
from sticks_tui.ui.widgets.inputs import Input
from sticks_tui.ui.widgets.move_log import MoveLog
from sticks_tui.ui.widgets.plot_curve import PlotCurve
from sticks_tui.ui.widgets.training_badge import duration_words, format_seconds, games_words, run_figures
from sticks_tui.ui.widgets.header import AppHeader
from sticks_tui.ui.widgets.select import Select

PROTOCOL_LABELS = {"explore": "explore (games start at random heaps)",
                   "classic": "classic (every game from the full heap)"}
FLOOR_LABELS = {"each": "each number", "nonempty": "whole hat"}  # what keeps its last ball (sticks' words)
EMPTY_LABELS = {"resign": "resigns the game", "refill": "is refilled"}
PRESET_OPTIONS = [("the seeds': 1 ball each, a win +1, a loss -1", "seeds"),
                  ("MENACE-like: 3 balls each, a win +3, a loss -1 (losses show)", "menace"),
                  ("your own (the fields below)", "own")]
#: The opponents a run may play (the trainer's names), and the kind of the game's entry that offers each
#: (a second learner is always offered).
OPPONENT_KINDS = {"random": "random", "best-at-random": "perfect"}
OPPONENT_WORDS = {"self": "a second learner (self-play)", "random": "the random AI",
                  "best-at-random": "the perfect AI"}  # (it picks among its best moves at random)


def floor_labels(words) -> dict[str, str]:
    """The floor's choices in the brain's words: the hats' own two (as ever), then 'none' (it may empty)."""
    if words.container == "hat":
        return {**FLOOR_LABELS, "none": "none"}
    return {"each": "each move", "nonempty": f"whole {words.container}", "none": "none"}


def rule_presets(entry) -> list[tuple[str, str, HatRule]]:
    """The named rules the dialog offers for `entry`'s brains: (words, key, rule). A game whose entry names its
    own settings (noughts: the app's MENACE, and Michie's) offers those; the others the seeds' hats and the
    MENACE-like ones."""
    if entry is not None and (entry.learner_words or entry.learner_presets):
        found = [(entry.learner_words or "the game's own", "game", HatRule(**entry.learner_settings))]
        return found + [(words, key, HatRule(**settings)) for key, (words, settings) in entry.learner_presets.items()]
    token = "ball"
    if entry is not None:
        from sticks_tui.ui.brains import entry_words

        token = entry_words(entry).token  # (Hexapawn's HER: beads)
    return [(words.replace(" ball", f" {token}"), key, RULE_PRESETS[key]) for words, key in PRESET_OPTIONS
            if key in RULE_PRESETS]


def preset_of(rule: HatRule, presets=None) -> str:
    """The key of the named rule `rule` is ('seeds', 'menace', ...), else 'own'."""
    if presets is None:
        return next((name for name, preset in RULE_PRESETS.items() if preset == rule), "own")
    return next((key for _, key, preset in presets if preset == rule), "own")


def hats_rule(rule: HatRule) -> bool:
    """The rule reads in the hats' own sentences (one start count, no draw reward, a floor)."""
    return len(rule.starts) == 1 and rule.floor in ("each", "nonempty") and not rule.draw_reward


def starts_text(rule: HatRule) -> str:
    return ",".join(map(str, rule.starts))


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def rule_words(rule: HatRule, words, *, fresh: bool = True) -> str:
    """The whole rule in a sentence or two, in the brain's words (the hats' own sentences where they fit)."""
    if hats_rule(rule) and words.container == "hat":
        return rule_sentence(rule, fresh=fresh)
    starts = rule.starts
    token, tokens = words.token, words.tokens
    if not fresh:
        start = ""
    elif len(starts) == 1:
        start = f"Each {words.container} starts with {starts[0]} {token if starts[0] == 1 else tokens} of each move. "
    else:
        ordinal = lambda n: {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")  # noqa: E731
        start = (f"{words.containers.capitalize()} start with {', '.join(map(str, starts))} {tokens} a move at the "
                 f"AI's 1st to {ordinal(len(starts))} move. ")
    win, draw, loss = rule.incentives
    floor = {"each": f"a {words.container} never has fewer than 1 {token} of each move.",
             "nonempty": f"a {words.container} may run out of a move, but never out of every move.",
             "none": (f"a {words.container} may run out: an empty one "
                      + ("resigns the game." if rule.empty == "resign" else "is refilled with its start "
                         f"{tokens}."))}[rule.floor]
    draw_words = f", {signed(draw)} after a draw" if draw else ""  # (no draw reward: nothing to say of a draw)
    return f"{start}Each {token} drawn gets {signed(win)} after a win{draw_words}, {signed(loss)} after a loss; {floor}"


PLAYERS = ("AI 1", "AI 2")  # the brain being trained, and its sparring partner


def pace_key(pace: float | str | None) -> str:
    """The pace as the dialog's select and the settings name it: 'full', 'ball', '1', '20'."""
    return "full" if pace is None else BALL_BY_BALL if pace == BALL_BY_BALL else f"{pace:g}"


PACE_OPTIONS = [(pace_words(p), pace_key(p)) for p in PACES]
PACE_OF = {pace_key(p): p for p in PACES}


class FormError(ValueError):
    """Bad input in the dialog: the message, and the field to put the cursor in."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def parse_games(text: str) -> int:
    message = f"Please enter a number of games between 1 and {MAX_GAMES:,}."
    try:
        value = int(text.strip().replace(",", "").replace("_", ""))
    except ValueError:
        raise ValueError(message) from None
    if not 1 <= value <= MAX_GAMES:
        raise ValueError(message)
    return value


def parse_whole(text: str, what: str, low: int, high: int, field: str) -> int:
    """A whole number in [low, high] typed for `what`; FormError in words otherwise."""
    text = text.strip()
    if not text.isdigit() or not low <= int(text) <= high:
        raise FormError(f"Please enter {what} as a whole number from {low} to {high}.", field)
    return int(text)


def rule_short(rule: HatRule, words=None) -> str:
    if hats_rule(rule) and (words is None or words.container == "hat"):
        return (f"start {rule.start_balls}, win +{rule.win_reward}, loss -{rule.loss_penalty}, "
                f"floor: {FLOOR_LABELS[rule.floor]}")
    container = words.container if words is not None else "container"
    floor = {"each": "each move", "nonempty": f"whole {container}", "none": "none"}[rule.floor]
    empty = f", an empty {container} {EMPTY_LABELS[rule.empty].replace('the game', 'its game')}" \
        if rule.floor == "none" else ""
    return (f"start {starts_text(rule)}, win {signed(rule.win_reward)}, draw {signed(rule.draw_reward)}, "
            f"loss -{rule.loss_penalty}, floor: {floor}{empty}")


# -- a game's story in words ---------------------------------------------------------------------
def story_sentences(story: GameStory, rule: HatRule) -> list[str]:
    """Three sentences for a game of sticks: the draws, and what each AI's hats learned from it."""
    parts = []
    for i, (player, hat, ball) in enumerate(story.draws):
        verb = "draws" if i < 2 else ""
        parts.append(f"{PLAYERS[player]} {verb + ' ' if verb else ''}ball {ball} from hat {hat}")
    loser = PLAYERS[story.loser]
    played = ", ".join(parts)
    first = f"Game {story.number:,}: {played}. {loser} has to take the last stick and loses."
    won = won_sentence(PLAYERS[story.winner], rule)
    # a lesson is told as everywhere else, from the brain's rule (learn.lesson_words)
    return [first, f"{won}.", lesson_sentence(loser, False, story.changes[story.loser], rule, detail=False)]


def generic_story(story: GameStory, rules, board, rule) -> list[str]:
    """A training game of any game in a few sentences: the moves each AI drew, the result, each AI's lesson."""
    drawn = ", ".join(f"{PLAYERS[p]} {board.label(rules, position, move)}" for p, position, move in story.draws)
    result = "a draw" if story.winner is None else f"{PLAYERS[story.winner]} wins"
    lines = [f"Game {story.number:,} from {rules.position_text(story.start)}: {drawn or 'no move drawn'}: {result}."]
    for p in ((0, 1) if story.winner is None else (story.winner, story.loser)):
        won = None if story.winner is None else p == story.winner
        lines.append(lesson_sentence(PLAYERS[p], won, story.changes[p], rule, detail=False))
    return lines


def pace_note(config: TrainingConfig) -> str:
    """How long a paced run takes, in words (a slow pace and many games can take days)."""
    if config.pace == BALL_BY_BALL:
        # a game is at least a draw and its lessons: 2 seconds at the least, more the bigger the heap
        return (" Each draw and each game's lessons take a second (or a step of yours), so that takes more than "
                f"{duration_words(2 * config.games)[len('about '):]}: for watching a few games (the pace can be "
                "changed at any time).")
    if config.pace is None:
        return ""
    return f" That takes {duration_words(config.games / config.pace)} (the pace can be changed at any time)."


# -- the dialog ----------------------------------------------------------------------------------
class TickBox(Checkbox):
    """A checkbox that reads without colour: ✓ when ticked, blank when not (Textual's shows X either way)."""

    @property
    def _button(self):
        from textual.content import Content
        from textual.style import Style

        button_style = self.get_visual_style("toggle--button")
        side_style = Style(foreground=button_style.background, background=self.background_colors[1])
        return Content.assemble((self.BUTTON_LEFT, side_style), ("✓" if self.value else " ", button_style),
                                (self.BUTTON_RIGHT, side_style))


class TrainDialog(StyledOnce, ModalScreen[TrainingConfig | None]):
    """Every option of a training run of `game`'s learning AI (its kept brain), what it will do in words, and Train.
    A brain that fits one grid of numbered positions (sticks' hats) trains up to a heap chosen here; any other,
    over its whole game."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="train_dialog.cancel")]
    AUTO_FOCUS = "#games"
    # (CSS, not DEFAULT_CSS: it narrows the app stylesheet's dialog rows, so it must outrank it)
    CSS = """
    #train-dialog { width: 74; padding: 0 2; }
    #train-dialog .dialog-buttons Button { min-width: 10; }
    #train-dialog .form .row { height: 1; margin-bottom: 0; }
    #train-dialog .form .field { width: 13; }
    #train-dialog .form .half { width: 1fr; height: 1; }
    #train-dialog .form .gap { width: 2; }
    #train-dialog #reset-first { width: 1fr; }
    /* fixed heights: the dialog never moves while you type, so the next click lands where you aimed */
    #train-effect { margin-top: 1; height: 7; }
    /* one place of fixed height for the reason a field is refused, else the warning before the run */
    #train-notes { height: 3; }
    #train-warning { height: auto; color: $warning; }
    #train-error { height: auto; }
    #train-dialog .form .field.-refused { color: $error; }
    #train-dialog .form .-refused { background: $error 25%; }
    """

    def __init__(self, game: str | None = None, side: int = 0) -> None:
        """`side`: the learning AI's brain of the first mover (0) or of the second (1), where it keeps one each."""
        super().__init__()
        self.game = game
        self.side = side
        self._trial_key = None  # the run the warning was (or is being) measured for
        self.trialled = None  # (its key, `learn.resigning.Emptied`) once measured

    @property
    def kept(self):
        """The kept brain this dialog trains: the game's learning AI's of its side (the first game's chosen one by
        default)."""
        if self.game is None:
            return self.app.session.main
        return self.app.keeper.learner(self.game, self.side)

    @property
    def sized(self) -> bool:
        """The run is chosen up to a heap: the brain fits one grid of numbered positions (sticks' hats)."""
        from sticks_tui.ui import brains

        brain = self.kept.brain
        return brains.grid_fits(brain, brain.size)

    @property
    def words(self):
        from sticks_tui.ui import brains

        return brains.words(self.kept.brain)

    @property
    def entry(self):
        from sticks_tui.engine import registry

        return registry.find(self.kept.brain.rules)

    @property
    def presets(self) -> list[tuple[str, str, HatRule]]:
        return rule_presets(self.entry)

    @property
    def draws(self) -> bool:
        """The game can end in a draw: the rule's draw reward is asked for."""
        from sticks_tui.ui import brains

        return brains.can_draw(self.kept.brain.rules)

    def opponents(self) -> dict[str, str]:
        """The opponents the run may play (the trainer's names -> words): a second learner, and the random and
        the perfect AI where the game's entry offers them."""
        entry = self.entry
        offered = entry.opponents if entry is not None else {}
        return {kind: words for kind, words in OPPONENT_WORDS.items()
                if kind == "self" or OPPONENT_KINDS[kind] in offered}

    def protocols(self) -> tuple[str, ...]:
        """A brain of one seat's containers (MENACE's X) plays every game from the start."""
        return ("classic",) if self.kept.brain.seat is not None else tuple(PROTOCOLS)

    def compose(self) -> ComposeResult:
        from sticks_tui.engine import registry

        kept = self.kept
        brain = kept.brain
        rule = brain.rule
        game = kept.game
        entry = self.entry
        words = self.words
        saved = self.app.settings  # the last run's games, pace, protocol and heap (the rule is the brain's)
        pace = saved.train_pace if saved.train_pace in PACE_OF else "full"
        protocols = self.protocols()
        if self.sized:  # (the sticks brain's last run; any other game's run starts at its entry's)
            games = saved.train_games
            protocol = saved.train_protocol if saved.train_protocol in protocols else DEFAULT_PROTOCOL
        else:
            games = entry.training_games if entry is not None else saved.train_games
            protocol = entry.training_protocol if entry is not None else DEFAULT_PROTOCOL
        protocol = protocol if protocol in protocols else protocols[0]
        opponents = self.opponents()
        opponent = entry.training_opponent if entry is not None else "self"
        opponent = opponent if opponent in opponents else "self"
        labels = PROTOCOL_LABELS if self.sized else {k: f"{k} ({GAME_PROTOCOLS[k].split(', ')[0]})" for k in PROTOCOLS}
        floors = floor_labels(words)
        presets = self.presets
        with Vertical(id="train-dialog", classes="dialog"):
            yield Static(f"Train the AI of {registry.entry(game).title} (brain '{kept.name}')",
                         classes="dialog-title")
            with Vertical(classes="form"):
                with Horizontal(classes="row"):
                    with Horizontal(classes="half"):
                        yield Label("Games", classes="field")
                        yield Input(f"{games}", id="games", compact=True, max_length=12)
                    yield Static(classes="gap")
                    with Horizontal(classes="half"):
                        yield Label("Pace", classes="field")
                        yield Select(PACE_OPTIONS, value=pace, allow_blank=False, id="pace", compact=True)
                with Horizontal(classes="row"):
                    yield Label("Protocol", classes="field")
                    yield Select([(labels.get(k, k), k) for k in protocols], value=protocol,
                                 allow_blank=False, id="protocol", compact=True)
                with Horizontal(classes="row"):
                    with Horizontal(classes="half"):
                        yield Label("Against", classes="field")
                        yield Select([(w, k) for k, w in opponents.items()], value=opponent, allow_blank=False,
                                     id="opponent", compact=True)
                    yield Static(classes="gap")
                    with Horizontal(classes="half"):
                        if self.sized:
                            yield Label(f"Heap (1-{brain.size})", classes="field")
                            yield Input(str(min(saved.of(game).train_start or 20, brain.size)), id="heap",
                                        compact=True, max_length=4)
                        elif brain.seat is not None:  # a brain of one seat's containers: which seat it trains
                            names = getattr(brain.rules, "seat_names", None) or ("the first player", "the second")
                            yield Label(f"It plays {names[brain.seat]}, moving {('first', 'second')[brain.seat]}",
                                        id="scope", classes="muted")
                        else:
                            yield Label(f"Over {scope_words(brain.rules)}", id="scope", classes="muted")
                with Horizontal(classes="row"):
                    yield Label(f"{words.container.capitalize()} rule", classes="field")
                    yield Select([(w, k) for w, k, _ in presets] + [("your own (the fields below)", "own")],
                                 value=preset_of(rule, presets), allow_blank=False, id="preset", compact=True)
                with Horizontal(classes="row"):
                    with Horizontal(classes="half"):
                        yield Label(f"Start {words.tokens}", classes="field")
                        yield Input(starts_text(rule), id="start-balls", compact=True, max_length=40)
                    yield Static(classes="gap")
                    with Horizontal(classes="half"):
                        yield Label("Win reward", classes="field")
                        yield Input(str(rule.win_reward), id="reward", compact=True, max_length=5)
                with Horizontal(classes="row"):
                    with Horizontal(classes="half"):
                        yield Label("Loss penalty", classes="field")
                        yield Input(str(rule.loss_penalty), id="penalty", compact=True, max_length=5)
                    yield Static(classes="gap")
                    with Horizontal(classes="half", id="draw-half"):
                        yield Label("Draw reward", classes="field")
                        yield Input(str(rule.draw_reward), id="draw", compact=True, max_length=6)
                with Horizontal(classes="row"):
                    with Horizontal(classes="half"):
                        yield Label("Floor", classes="field")
                        yield Select([(floors[f], f) for f in floors], value=rule.floor,
                                     allow_blank=False, id="floor", compact=True)
                    yield Static(classes="gap")
                    with Horizontal(classes="half"):
                        yield Label(f"Empty {words.container}", classes="field")
                        yield Select([(w, k) for k, w in EMPTY_LABELS.items()],
                                     value=rule.empty if rule.empty in EMPTY_LABELS else "resign",
                                     allow_blank=False, id="empty", compact=True, disabled=rule.floor != "none")
                with Horizontal(classes="row"):
                    if is_teacher(self.app):  # a pupil's tab never offers to wipe the class's brain
                        yield TickBox("Reset the brain first", id="reset-first", compact=True)
                    else:
                        yield Label("The class's brain keeps what it learned", id="keeps-brain", classes="muted")
            yield Static("", id="train-effect", classes="muted")
            with Vertical(id="train-notes"):
                yield Static("", id="train-error", classes="error")
                yield Static("", id="train-warning", classes="warning")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Train", id="go", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#draw-half").display = self.draws
        self._describe()

    # -- reading the form ------------------------------------------------------------------------
    def _starts(self, text: str) -> int | tuple[int, ...]:
        """The start tokens typed: one number, or one per move number ('12,3,2,1'); FormError in words."""
        low, high = RULE_LIMITS["start_balls"]
        parts = [p.strip() for p in text.replace(" ", ",").split(",") if p.strip()]
        tokens = self.words.tokens
        if len(parts) == 1:
            return parse_whole(parts[0], f"the start {tokens}", low, high, "start-balls")
        if not 1 < len(parts) <= MAX_START_NUMBERS or not all(p.isdigit() and low <= int(p) <= high for p in parts):
            raise FormError(f"Please enter the start {tokens} as one whole number from {low} to {high}, or up to "
                            f"{MAX_START_NUMBERS} of them by move number (such as 12,3,2,1).", "start-balls")
        return tuple(int(p) for p in parts)

    def _rule_of_fields(self) -> HatRule:
        """The rule the fields hold; FormError saying which field is wrong."""
        value = lambda wid: self.query_one(f"#{wid}", Input).value  # noqa: E731
        start = self._starts(value("start-balls"))
        reward = parse_whole(value("reward"), "the win reward", *RULE_LIMITS["win_reward"], "reward")
        penalty = parse_whole(value("penalty"), "the loss penalty", *RULE_LIMITS["loss_penalty"], "penalty")
        draw = 0
        if self.draws:
            low, high = RULE_LIMITS["draw_reward"]
            text = value("draw").strip()
            digits = text[1:] if text[:1] in "+-" else text
            if not digits.isdigit() or not low <= int(text) <= high:
                raise FormError(f"Please enter the draw reward as a whole number from {low} to {high}.", "draw")
            draw = int(text)
        floor = self.query_one("#floor", Select).value
        empty = self.query_one("#empty", Select).value if floor == "none" else None
        return HatRule(start_balls=start, win_reward=reward, loss_penalty=penalty, floor=floor, draw_reward=draw,
                       empty=empty)

    def read_form(self) -> tuple[TrainingConfig, HatRule, bool]:
        """The run the form asks for, the rule the brain learns by (its own, or the new one it is reset
        to learn by) and whether to reset the brain first; FormError if it cannot be."""
        kept = self.kept
        brain = kept.brain
        value = lambda wid: self.query_one(f"#{wid}", Input).value  # noqa: E731
        try:
            games = parse_games(value("games"))
        except ValueError as exc:
            raise FormError(str(exc), "games") from None
        heap = parse_whole(value("heap"), "the heap", 1, brain.size, "heap") if self.sized else None
        rule = self._rule_of_fields()
        teacher = is_teacher(self.app)
        reset = teacher and self.query_one("#reset-first", Checkbox).value
        if reset and self.app.work_in_progress(training=False):
            # that game plays with the brain as it is, and teaches it when it ends: a reset now would lose it
            raise FormError("A game with the AI is in progress: finish it before resetting the brain, or train "
                            "without resetting.", "reset-first")
        own = rule_short(brain.rule, self.words)
        if rule != brain.rule and not teacher:
            raise FormError(f"The brain '{kept.name}' learns by its own rule ({own}); "
                            "only the teacher can reset it to learn by another.", "start-balls")
        if rule != brain.rule and not reset:
            raise FormError(f"The brain '{kept.name}' learns by its own rule ({own}). "
                            "To train by another, tick \"Reset the brain first\".", "reset-first")
        pace = PACE_OF[self.query_one("#pace", Select).value]
        protocol = self.query_one("#protocol", Select).value
        opponent = self.query_one("#opponent", Select).value
        seats = seats_of(brain)
        if heap is not None:
            config = TrainingConfig(sticks=heap, games=games, protocol=protocol, pace=pace, opponent=opponent,
                                    seats=seats)
        else:
            config = TrainingConfig(game=brain.rules, games=games, protocol=protocol, pace=pace, opponent=opponent,
                                    seats=seats)
        return config, rule, reset  # no seed yet: `_go` draws it, so describing the form uses up none

    def _describe(self) -> FormError | None:
        """Say what the run will do; or, as you type, why a field is refused (shown on that field too)."""
        effect = self.query_one("#train-effect", Static)
        try:
            config, rule, reset = self.read_form()
        except FormError as exc:
            effect.update("What the run will do is told here when every field holds a good value.")
            self._show_error(str(exc), exc.field)
            self._warn(None)
            return exc
        self._show_error("", None)
        name = self.kept.name
        if self.sized:
            heaps = ("random heaps from 2 to " if config.protocol == "explore" else "a heap of ") + str(config.sticks)
        else:
            # each game from the game's own start (classic), else from random positions of those the figures cover
            heaps = ("random positions of " + scope_words(config.rules)) if config.protocol == "explore" else \
                "the game's start"
        at = "" if config.pace == BALL_BY_BALL else "at "  # ("..., ball by ball.", not "at ball by ball")
        against = "" if config.opponent == "self" else f" against {OPPONENT_WORDS[config.opponent]}"
        run = (f"{games_words(config.games)}{against} from {heaps}, {at}{pace_words(config.pace)}."
               + pace_note(config))
        words = self.words
        if reset:
            first = f"First the brain '{name}' forgets everything it learned (its games trained go back to 0). "
            note = losses_note(rule) if hats_rule(rule) and words.container == "hat" else ""
            effect.update(first + rule_words(rule, words) + (" " + note if note else "") + " " + run)
        else:
            effect.update(f"The brain '{name}' keeps what it learned. " + rule_words(rule, words, fresh=False)
                          + " " + run)
        self._trial(config, rule, reset)
        return None

    # -- the warning: does this run leave the AI resigning for good? (measured, `learn.resigning`) ----------
    def _trial(self, config: TrainingConfig, rule: HatRule, reset: bool) -> None:
        """Measure, in a thread, how many of 20 trial runs of this run end with a first container empty (the
        AI then resigns every game); the warning says so when it is likely. A rule that cannot resign: none."""
        from sticks_tui.learn.resigning import TRIAL_GAMES, can_resign

        if not can_resign(rule):
            self._trial_key = None
            self._warn(None)
            return
        brain = self.kept.brain
        games = min(config.games, TRIAL_GAMES)
        key = (rule, config.opponent, games, config.protocol, config.seats, reset,
               None if reset else brain.counts.tobytes())
        if key == self._trial_key:
            return
        self._trial_key = key
        self._warn(None)
        from sticks_tui.learn.hats import Hats

        trial = Hats._made(brain.rules, rule, None if reset else brain.counts.copy(), brain.seat)
        rules = config.rules

        def measure() -> None:
            from sticks_tui.learn.resigning import TRIAL_SEEDS, emptied_runs, with_more_tokens

            try:
                found = emptied_runs(trial, rules, config.opponent, games, TRIAL_SEEDS, protocol=config.protocol,
                                     seats=config.seats)
                # the remedy offered is measured too: the same trial with more start tokens
                more = emptied_runs(Hats._made(trial.rules, with_more_tokens(rule), None, trial.seat), rules,
                                    config.opponent, games, TRIAL_SEEDS, protocol=config.protocol,
                                    seats=config.seats) if found.likely else None
            except (RuntimeError, ValueError):
                return  # no kernel, or a game it cannot lay out: no warning rather than a wrong one
            self.app.call_from_thread(self._trialled, key, found, config.games, more)

        self.run_worker(measure, thread=True, exclusive=True, group="train-trial", exit_on_error=False)

    def _trialled(self, key, found, games: int, more=None) -> None:
        if key != self._trial_key or not self.is_mounted:
            return  # the form changed since: its own trial is on its way
        self.trialled = (key, found)
        if not found.likely:
            self._warn(None)
            return
        words = self.words
        # one first container (moving first from one start), else one of those it meets at its first move
        one = self.kept.brain.seat == 0 and len(self.kept.brain.rules.start_positions()) == 1
        first = f"its first {words.container}" if one else f"one of its first {words.containers}"
        trial = (f"{found.seeds} trial runs of this" if found.games == games else
                 f"{found.seeds} trial runs of its first {games_words(found.games)}")
        from sticks_tui.learn.resigning import MORE_TOKENS

        at_first = "" if isinstance(key[0].start_balls, int) else " at its first move"  # the rule trialled
        if more is None or not more.likely:
            remedy = f"{MORE_TOKENS} times the start {words.tokens}{at_first} make that rare"
        else:
            remedy = (f"with {MORE_TOKENS} times the start {words.tokens}{at_first}, in {more.runs} of {more.seeds} "
                      f"too: 'Empty {words.container}: {EMPTY_LABELS['refill']}' keeps it learning")
        self._warn(f"Warning: in {found.runs} of {trial} {first} emptied, and the AI then resigned every game "
                   f"{'' if one else 'that reached it '}({remedy}).")

    def _warn(self, text: str | None) -> None:
        self.query_one("#train-warning", Static).update(text or "")

    @on(Select.Changed, "#preset")
    def _preset_chosen(self, event: Select.Changed) -> None:
        """A preset fills in the rule's fields (your own leaves them as they are)."""
        rule = next((preset for _, key, preset in self.presets if key == event.value), None)
        if rule is None:
            return
        with self.prevent(Input.Changed, Select.Changed):
            self.query_one("#start-balls", Input).value = starts_text(rule)
            self.query_one("#reward", Input).value = str(rule.win_reward)
            self.query_one("#penalty", Input).value = str(rule.loss_penalty)
            self.query_one("#draw", Input).value = str(rule.draw_reward)
            self.query_one("#floor", Select).value = rule.floor
            empty = self.query_one("#empty", Select)
            empty.disabled = rule.floor != "none"
            if rule.floor == "none":
                empty.value = rule.empty

    @on(Input.Changed, "#start-balls, #reward, #penalty, #draw")
    @on(Select.Changed, "#floor, #empty")
    def _rule_typed(self) -> None:
        """The preset says which rule the fields hold (your own when none); the empty rule is asked only when a
        container may empty."""
        self.query_one("#empty", Select).disabled = self.query_one("#floor", Select).value != "none"
        try:
            rule = self._rule_of_fields()
        except (FormError, ValueError):
            rule = None
        preset = self.query_one("#preset", Select)
        chosen = preset_of(rule, self.presets) if rule is not None else "own"
        if preset.value != chosen:
            with self.prevent(Select.Changed):
                preset.value = chosen

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _changed(self) -> None:
        if self.is_mounted:
            self._edits = getattr(self, "_edits", 0) + 1
            self.call_after_refresh(self._describe_edit, self._edits)  # after a preset has filled in the fields

    def _describe_edit(self, edit: int) -> None:
        """Describe the form after an edit, unless Train (or Enter) came first: its own refusal,
        "... Nothing was started.", must not be replaced by the description it already made."""
        if edit == self._edits and self._describe() is None:
            self._remember(self.read_form()[0])  # a choice made is kept at once, run or not

    @on(Input.Submitted)
    @on(Button.Pressed, "#go")
    def _go(self) -> None:
        self._edits = getattr(self, "_edits", 0) + 1  # an edit's description still to come is out of date
        problem = self._describe()
        if problem is not None:
            self._show_error(str(problem) + " Nothing was started.", problem.field)
            self.query_one(f"#{problem.field}").focus()
            return
        config, rule, reset = self.read_form()
        if reset and not self._reset_brain(rule):
            return
        self._remember(config)
        self.dismiss(replace(config, seed=self.app.session.child_seed()))

    def _remember(self, config: TrainingConfig) -> None:
        """The run's games, pace, protocol and heap, saved as soon as the form holds them (the next start's
        dialog opens with them, run or not). Those of a sticks brain's run only: another game's run starts at its
        own entry's games and protocol (MENACE's 5,000 against the perfect AI); its pace is kept."""
        if not self.sized:
            self.app.remember(train_pace=pace_key(config.pace))
            return
        self.app.remember(train_games=config.games, train_pace=pace_key(config.pace), train_protocol=config.protocol)
        self.app.remember_game(self.kept.game, train_start=config.sticks)

    def _show_error(self, message: str, field: str | None = "") -> None:
        """The reason a field is refused under the form, and that field (and its label) marked; '' clears it.
        `field` None clears the marks; '' leaves them as they are."""
        error = self.query_one("#train-error", Static)
        error.update(message)
        error.display = bool(message)
        self.query_one("#train-warning").display = not message  # a refusal first: the warning is for a good form
        if field == "":
            return
        marked = []
        if field is not None:
            widget = self.query_one(f"#{field}")
            label = next((w for w in widget.parent.children if isinstance(w, Label)), None)
            marked = [widget] if label is None else [widget, label]
        # only the marks that change: each change styles the widget again (a Select with its overlay), and a field
        # refused again as you type on, or on Train, keeps its mark
        for widget in self.query(".-refused"):
            if widget not in marked:
                widget.remove_class("-refused")
        for widget in marked:
            widget.add_class("-refused")

    def _reset_brain(self, rule: HatRule) -> bool:
        """Reset the stored brain (the keeper's reset), to learn by `rule` if it differs; reload it."""
        from sticks_tui.store import StoreError

        app = self.app
        kept = self.kept
        try:
            stored = app.keeper.reset(kept.name, rule)
        except (StoreError, ValueError) as exc:
            self._show_error(f"The brain was not reset: {exc} Nothing was started.")
            return False
        if kept is app.session.main:
            app.load_brain(kept.name)
        else:  # the brain as stored now, in place (whoever plays with it sees it)
            kept.brain.rule = stored.rule
            kept.adopt(stored.counts)
        return True

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


# -- the training screen -------------------------------------------------------------------------
BALL_SECONDS = 1.0  # ball by ball: one draw (or one game's lessons) a second
WHOLE_LESSON_DELAY = 0.4  # a game told whole: its balls beside their hats this long, then its lessons


def training_move_line(name: str, hat: int, ball: int) -> str:
    """A training move in one short line: 'AI 1 draws ball 2 from hat 11 and takes 2: 9 sticks left.'"""
    left = hat - ball
    if left == 0:
        last = "stick" if ball == 1 else f"{ball} sticks"
        return f"{name} draws ball {ball} from hat {hat}, takes the last {last} and loses."
    return f"{name} draws ball {ball} from hat {hat} and takes {ball}: {left} {sticks_word(left)} left."


def ball_lines(told: ToldGame, rule: HatRule) -> list[str]:
    """The log lines of the event just shown (`told.shown`): a draw and its move, or the two lessons."""
    story = told.story
    draws = story.draws
    if told.shown <= len(draws):
        player, hat, ball = draws[told.shown - 1]
        lines = []
        if told.shown == 1:
            lines.append(f"Game {story.number:,}: {story.start} sticks on the board. {PLAYERS[story.first]} moves first.")
        lines.append(training_move_line(PLAYERS[player], int(hat), int(ball)))
        return lines
    return [lesson_sentence(PLAYERS[p], p == story.winner, story.changes[p], rule) for p in (story.winner, story.loser)]


class TrainingScreen(StyledOnce, Screen):
    """Progress, games/s, time left, both AIs' hats changing, the learning curve; pace (down to ball by
    ball), pause, step (one ball, then the lessons), cancel."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="training.back", tooltip="Back (the training goes on)"),
        Binding("space", "toggle_pause", "Pause", id="training.toggle_pause", tooltip="Pause or resume the run"),
        Binding("s,full_stop", "step", "Step", key_display="s", id="training.step",
                tooltip="Step: one ball drawn, then both AIs' lessons, then the next game (it pauses first)"),
        Binding("plus,equals_sign", "faster", "Pace", key_display="+/-", id="training.faster",  # one entry for both
                tooltip="Faster: the next pace up (to full speed)"),
        Binding("minus", "slower", "Slower", show=False, id="training.slower",
                tooltip="Slower: the next pace down (to ball by ball)"),
        Binding("o", "other_hats", "AI 2", id="training.other_hats", tooltip="AI 1's hats or AI 2's (80 columns)"),
        Binding("v", "curve_or_log", "Curve", id="training.curve_or_log",
                tooltip="The learning curve or the games' story (80 columns)"),
        Binding("c", "cancel_training", "Cancel", show=False, id="training.cancel_training",  # the button shows it
                tooltip="Cancel the run (it asks; the AI keeps what it learned)"),
        Binding("p", "toggle_perfect", "Perfect", show=False, id="training.toggle_perfect",
                tooltip="Show or hide the perfect moves (✓)"),
        Binding("e", "export", "Export", show=False, id="training.export", tooltip="Export the hats or the curve"),
    ]
    COMMANDS = {screen_commands(
        ("Show the perfect moves", "Mark the winning ball of each winning hat on the heatmap", "toggle_perfect"),
        ("Pause or resume training", "Stop the run between two games, or let it go on", "toggle_pause"),
        ("Step", "Pause, and show one ball drawn (then the game's lessons, then the next game)", "step"),
        ("The other AI's hats", "Show AI 2's hats (its sparring partner) or AI 1's", "other_hats"),
        ("The curve or the log", "At 80 columns: show the learning curve, or the games' story", "curve_or_log"),
    )}
    AUTO_FOCUS = "#training-heatmap"  # never a button: Enter must not cancel the run
    DEFAULT_CSS = """
    #training-pace { height: auto; max-height: 2; }
    #training-controls { height: 1; margin: 1 0; }
    #training-controls Button { margin-right: 1; width: auto; min-width: 6; }
    #training-controls #pause { width: 8; }
    #training-log { height: 1fr; min-height: 4; display: none; }
    TrainingScreen.-told #training-log { display: block; }
    TrainingScreen.-told.-narrow #curve { display: none; }  /* short of room: the log, or (v) the curve */
    TrainingScreen.-told.-narrow.-curve #curve { display: block; }
    TrainingScreen.-told.-narrow.-curve #training-log { display: none; }
    TrainingScreen.-told.-wide #training-log { height: 12; }
    #hats-pair { height: 1fr; }
    .ai-hats { width: 1fr; height: 1fr; }
    .ai-hats-title { text-style: bold; height: auto; }
    TrainingScreen.-narrow #hats-ai2 { display: none; }
    TrainingScreen.-narrow.-other #hats-ai1 { display: none; }
    TrainingScreen.-narrow.-other #hats-ai2 { display: block; }
    TrainingScreen.-wide #hats-ai2 { margin-left: 1; }
    /* wide, but the hats of both AIs would scroll side by side (100 sticks): one AI at a time, o the other */
    TrainingScreen.-wide.-one #hats-ai2 { display: none; margin-left: 0; }
    TrainingScreen.-wide.-one.-other #hats-ai1 { display: none; }
    TrainingScreen.-wide.-one.-other #hats-ai2 { display: block; }
    TrainingScreen ContainerView { display: none; }
    TrainingScreen.-containers ContainerView { display: block; height: auto; max-height: 100%; }
    TrainingScreen.-containers HatHeatmap { display: none; }
    TrainingScreen.-fixed #hats-ai2 HatHeatmap, TrainingScreen.-fixed #hats-ai2 ContainerView { display: none; }
    """
    # (CSS, not DEFAULT_CSS: these narrow the app stylesheet's own margins, so they must outrank it)
    # At 80x24 the left panel is compact (no blank lines, one-line buttons; the run's keys are in the footer, so
    # its buttons give way to the curve) and the hats panel as narrow as one column of 3-ball hats, so the curve
    # keeps 8 rows of plot under its legend.
    CSS = """
    TrainingScreen.-narrow #training-status { margin-top: 0; }
    TrainingScreen.-narrow #training-bar { margin: 0; }
    TrainingScreen.-narrow #training-figures { margin-bottom: 0; }
    TrainingScreen #training-controls { display: none; }
    TrainingScreen.-running #training-controls { display: block; }
    TrainingScreen.-running.-narrow #training-controls { display: none; margin: 0; }
    TrainingScreen.-running.-narrow.-told #training-controls { display: block; }
    TrainingScreen.-running.-narrow.-told.-curve #training-controls { display: none; }
    TrainingScreen.-narrow #training-buttons Button { height: 1; border: none; min-width: 6; }
    TrainingScreen.-narrow #training-hats { width: 36; }
    """

    def compose(self) -> ComposeResult:
        # the classes of its state, before its widgets are mounted: they are styled once, with them (set in
        # on_mount, each class styled the whole screen again: two or three times at every opening)
        self.update_classes(self._state_classes())
        yield AppHeader()
        with Horizontal(id="training"):
            with Vertical(id="training-left"):
                yield Static("", id="training-status")
                yield ProgressBar(total=1, id="training-bar", show_eta=False)
                yield Static("", id="training-figures")
                yield Static("", id="training-pace")
                with Horizontal(id="training-controls"):
                    yield Button("Pause", id="pause", compact=True, action="screen.toggle_pause")
                    yield Button("Step", id="step", compact=True, action="screen.step")
                    yield Button("Slower", id="slower", compact=True, action="screen.slower")
                    yield Button("Faster", id="faster", compact=True, action="screen.faster")
                yield PlotCurve(id="curve")
                yield MoveLog(id="training-log")
                with Horizontal(id="training-buttons"):
                    yield Button("Cancel training", id="cancel-training", variant="error", action="screen.cancel_training")
                    yield Button("Back", id="back", action="screen.back")
            with Vertical(id="training-hats"):
                with Horizontal(id="hats-pair"):
                    with Vertical(id="hats-ai1", classes="ai-hats"):
                        yield Label(f"AI 1's {self.words.containers}: the brain trained", id="training-hats-title",
                                    classes="ai-hats-title")
                        yield HatHeatmap(id="training-heatmap")
                        yield ContainerView(id="training-container")
                    with Vertical(id="hats-ai2", classes="ai-hats"):
                        yield Label(f"AI 2's {self.words.containers}: its sparring partner",
                                    id="training-hats-title-2", classes="ai-hats-title")
                        yield HatHeatmap(id="training-heatmap-2")
                        yield ContainerView(id="training-container-2")
        yield KeysFooter()

    # -- the brain trained ---------------------------------------------------------------------------
    @property
    def kept(self):
        """The kept brain the (last) run trains: a game's learning AI's."""
        return self.app.session.training.kept or self.app.session.main

    @property
    def words(self):
        from sticks_tui.ui import brains

        return brains.words(self.kept.brain)

    @property
    def grid(self) -> bool:
        """The brain fits one grid (sticks' hats: the heatmaps); else each AI's container in play is shown."""
        from sticks_tui.ui import brains

        brain = self.kept.brain
        return brains.grid_fits(brain, brain.size)

    @property
    def rule(self):
        return self.kept.brain.rule

    def _show_sparring(self) -> None:
        """AI 2 is a second learner (its containers shown), or a fixed player that has none (said instead)."""
        config = getattr(self.app.session.training, "config", None)
        opponent = getattr(config, "opponent", "self")
        fixed = opponent != "self"
        if fixed != self.has_class("-fixed") or not hasattr(self, "_sparring_said"):
            self._sparring_said = True
            due = getattr(self, "_classes_due", None)
            if due is not None:  # a report's: with its other classes (_update)
                due["-fixed"] = fixed
            else:
                self.set_class(fixed, "-fixed")
            self.query_one("#training-hats-title-2", Label).update(
                f"AI 2: {OPPONENT_WORDS[opponent]}, which does not learn (it has no {self.words.containers})"
                if fixed else f"AI 2's {self.words.containers}: its sparring partner")

    def _run_rules(self):
        state = self.app.session.training
        return state.rules if state.rules is not None else self.kept.brain.rules

    @staticmethod
    def _opening(brain, rules):
        """Where the trained brain's container is shown before a game is told: the start of the run's game, or for
        a brain that moves second (MENACE's O) the first position it meets there."""
        from sticks_tui.learn.resigning import first_positions

        start = rules.start_positions()[0]
        if brain.seat is None or brain.has_hat(start):
            return start
        return next(iter(first_positions(rules, brain, (start,), (brain.seat,))), start)

    def _sparring_shape(self, trained, rules):
        """A brain shaped as AI 2's (its containers, their moves): the trained brain's own where it keeps both seats,
        else the other seat's (MENACE's O against X), made once."""
        if trained.seat is None:
            return trained
        key = (rules, trained.rule, trained.seat)
        if getattr(self, "_sparring", (None, None))[0] != key:
            from sticks_tui.learn.trainer import sparring_brain

            self._sparring = (key, sparring_brain(rules, trained))
        return self._sparring[1]

    def _show_containers(self, counts_pair, focus=(None, None), drawn=(None, None), changes=({}, {})) -> None:
        """Each AI's container for a position (`focus`, else the start of the run's game; the trained brain's first
        position there when it moves second) from its counts."""
        from sticks_tui.ui.boards import board_of
        from sticks_tui.ui.widgets.container_view import ContainerData

        trained, rules = self.kept.brain, self._run_rules()
        board = board_of(self.kept.game)
        for player, view in enumerate(self.query(ContainerView)):
            brain = trained if player == 0 else self._sparring_shape(trained, rules)
            counts = counts_pair[player] if counts_pair[player] is not None else counts_pair[0]
            position = focus[player] if focus[player] is not None else self._opening(brain, rules)
            if not brain.has_hat(position):
                view.data = ContainerData(title=f"No {self.words.container} for {rules.position_text(position)}")
                continue
            moves = brain.moves_of(position)
            row = counts[brain.row(position), : len(moves)]
            view.data = ContainerData.of(f"{self.words.container.capitalize()} for {rules.position_text(position)}",
                                         moves, (board.label(rules, position, m) for m in moves), row,
                                         drawn=drawn[player], changes=changes[player], token=self.words.token)

    def _told_containers(self, told: ToldGame, learned: bool) -> None:
        """A told game on the containers: each AI's last container drawn from so far, its token marked while the
        game goes on, and after the lesson each drawn token's count before → after."""
        focus, drawn, changes, counts = [None, None], [None, None], [{}, {}], []
        told_draws = told.story.draws[: min(told.shown, len(told.story.draws))]
        for player in (0, 1):
            mine = [(h, b) for p, h, b in told_draws if p == player]
            if mine:
                focus[player] = mine[-1][0]
                if not learned:
                    drawn[player] = mine[-1][1]
            if learned:
                changes[player] = {c.ball: (c.before, c.after) for c in told.story.changes[player]
                                   if c.hat == focus[player]}
            counts.append(told.after[player] if learned else told.before(player))
        self._show_containers(tuple(counts), tuple(focus), tuple(drawn), tuple(changes))

    def _state_classes(self) -> dict[str, bool]:
        """The classes the screen's state gives it (see the CSS): the brain's kind (a grid of hats or containers),
        a sparring partner that does not learn, a run going (its buttons)."""
        state = self.app.session.training
        grid = self.grid
        return {"-grid": grid, "-containers": not grid,
                "-fixed": getattr(getattr(state, "config", None), "opponent", "self") != "self",
                "-running": bool(state.running)}

    def on_mount(self) -> None:
        self.sub_title = "training the AI"
        self._show_sparring()
        self._hats_shown = None
        self._received = 0  # the last game number received from the trainer
        self._classes_due: dict | None = None  # the classes a report gives the screen, while it is shown (_update)
        self._about_rules = None  # the game the curve's headings were read for
        self._current: ToldGame | None = None  # the game being told ball by ball
        self._queue: deque[ToldGame] = deque()  # games received, still to be told ball by ball
        self._asked = False  # a game was asked of the trainer (a step or a release) and has not come yet
        self._show_on_arrival = False  # a step asked for it: its first ball shows as soon as it comes
        self._whole_timer = None
        for button in self.query(Button):  # keys go to the screen's bindings, never to a focused button
            button.can_focus = False
        self._ball_timer = self.set_interval(BALL_SECONDS, self._ball_tick)
        self.set_interval(0.5, self._starting_tick)  # the seconds of a first run's compile, as they pass
        self.watch(self.app, "training", self._update, init=True)
        self.watch(self.app, "class_change", self._class_changed, init=False)

    def _starting_tick(self) -> None:
        if self.app.training is None and self.app.session.training.running:
            self.query_one("#training-status", Static).update(compiled.starting_words())

    def _class_changed(self, change) -> None:
        """No run going here: the trained brain's hats follow what classmates teach it, marked ↑/↓."""
        if change is None or self.app.session.training.running or self._hats_shown is None or not self.grid:
            return
        if change.cells:
            heatmap = self.heatmaps[0]
            shown = tuple(c for c in change.cells if c[0] <= heatmap.data.hats)
            heatmap.data = heatmap.data.with_(counts=self.kept.brain.counts.copy(), beside=frozenset(),
                                              drawn=None, flash=shown)
        if change.words:
            self.sub_title = f"training the AI · {change.words}"

    @property
    def control(self):
        return getattr(self.app, "training_control", None)

    @property
    def heatmaps(self) -> tuple[HatHeatmap, HatHeatmap]:
        return self.query_one("#training-heatmap", HatHeatmap), self.query_one("#training-heatmap-2", HatHeatmap)

    def _by_ball(self) -> bool:
        """Whether games are told one ball at a time now: at the ball-by-ball pace, or paused (stepping)."""
        control = self._running_control()
        return control is not None and (control.by_ball or control.paused)

    def _update(self, progress) -> None:
        state = self.app.session.training
        # the screen's classes this report gives it, set at once at the end (each class set on its own styled the
        # whole screen again: twice as a run ended, -running and -curve, and again for -told or -fixed)
        self._classes_due = {"-running": bool(state.running)}  # the run's buttons, while it runs (see CSS)
        self._show_sparring()
        status = self.query_one("#training-status", Static)
        bar = self.query_one("#training-bar", ProgressBar)
        figures = self.query_one("#training-figures", Static)
        self.query_one("#cancel-training", Button).display = state.running
        self._show_pace()
        if progress is None:
            status.update(compiled.starting_words() if state.running else "No training has run yet: press t.")
            self._set_classes_due()
            self._show_keys()
            return
        bar.update(total=max(1, progress.games_total), progress=progress.games_done)
        control = self.control
        paused = state.running and control is not None and control.paused
        done, total = progress.games_done, progress.games_total
        if state.running:
            status.update(f"{'Paused' if paused else 'Training'}: {done:,} of {games_words(total)}")
            how, left = run_figures(progress, control, self.app.training_rate)
            left_text = "the time left goes by your steps" if left is None and control is not None and control.by_ball \
                else f"{format_seconds(left)} left"
            figures.update(f"{how}, {format_seconds(progress.seconds)} gone, {left_text}"
                           + (" (paused)" if paused else ""))
        else:
            result = state.last_result
            word = "Cancelled" if result is not None and result.cancelled else "Finished"
            status.update(f"{word}: {done:,} of {games_words(total)}. The AI keeps what it learned.")
            figures.update(f"{games_words(done)} in {format_seconds(progress.seconds)}")
        curve = self.query_one(PlotCurve)
        rules = state.rules if state.rules is not None else getattr(state.last_result, "rules", None)
        curve.scope = scope_words(rules) if rules is not None else ""
        if rules is not None and (curve.about is None or self._about_rules != rules):
            self._about_rules = rules  # the headings are read from the solver: once per game, not per update
            curve.about = FigureHeadings.of(rules)
        curve.points = tuple(state.points)
        if not self.grid:
            if self._hats_shown is None:
                self._hats_shown = "containers"
                self._show_containers((progress.hats, progress.opponent_hats))
        else:
            hats = progress.hats.shape[0] - 1
            config = getattr(state, "config", None)
            if config is not None and config.game is None:
                hats = min(hats, config.sticks)  # the hats the run plays from, not every hat of the brain
            if self._hats_shown != hats:
                self._hats_shown = hats
                solution = solve_sticks(hats)
                perfect = tuple(solution.winning_moves(n) for n in range(hats + 1))
                for heatmap, counts in zip(self.heatmaps, (progress.hats, progress.opponent_hats), strict=True):
                    heatmap.data = HeatmapData(counts=progress.hats if counts is None else counts, hats=hats,
                                               max_take=progress.hats.shape[1], perfect=perfect)
                self.call_after_refresh(self._fit_hats)  # another number of hats: do both AIs still fit?
        story = getattr(progress, "story", None)
        if story is not None and story.number > self._received:
            from sticks_tui.ui import brains

            self._received = story.number
            self._arrive(ToldGame(story, (progress.hats, progress.opponent_hats
                                          if progress.opponent_hats is not None else progress.hats),
                                  cell=brains.cell_index(self.kept.brain)))
        elif story is None and (self._current is None or self._current.done) and not self._queue \
                and not self._by_ball():  # full speed: the hats as they are now, no marks
            if self._whole_timer is not None:
                self._whole_timer.stop()
                self._whole_timer = None
            if not self.grid:
                self._show_containers((progress.hats, progress.opponent_hats))
            for heatmap, counts in zip(self.heatmaps, (progress.hats, progress.opponent_hats), strict=True):
                if counts is not None and self.grid:
                    heatmap.data = heatmap.data.with_(counts=counts, beside=frozenset(), flash=(), drawn=None)
        if not state.running:
            self._flush()  # the run is over: what is left of the last game is told at once
            if not getattr(self, "_curve_shown_at_end", False):
                self._curve_shown_at_end = True  # once: then v switches as the person likes
                self._classes_due["-curve"] = True
        self._set_classes_due()
        self._show_keys()

    def _set_classes_due(self) -> None:
        """The classes of this report (`_classes_due`), in one change of the screen's classes."""
        due, self._classes_due = self._classes_due, None
        self.update_classes(due)

    # -- telling the games ---------------------------------------------------------------------------
    def _arrive(self, told: ToldGame) -> None:
        """A game came from the trainer: told ball by ball (queued) when stepping or at that pace, else whole."""
        self._asked = False
        if self._classes_due is not None:  # a report's game: with the report's other classes
            self._classes_due["-told"] = True
        else:
            self.add_class("-told")
        if self._by_ball():
            self._queue.append(told)
            if self._show_on_arrival:
                self._show_on_arrival = False
                self._next_event()
        else:
            self._flush()
            self._tell_whole(told)

    def _next_event(self) -> bool:
        """Show the next ball (or the lessons) of the game being told, or start the next game received.
        False when there is nothing received to tell."""
        told = self._current
        if told is None or told.done:
            if not self._queue:
                return False
            told = self._current = self._queue.popleft()
        told.shown += 1
        log = self.query_one(MoveLog)
        for line in self._ball_lines(told):
            log.write(line)
        if not self.grid:
            self._told_containers(told, learned=told.shown > len(told.story.draws))
            return True
        for player, heatmap in enumerate(self.heatmaps):
            view = told.view(player)
            heatmap.data = heatmap.data.with_(counts=view.counts, drawn=view.drawn, beside=view.beside,
                                              flash=view.flash)
        return True

    def _ball_lines(self, told: ToldGame) -> list[str]:
        """The log lines of the event just shown: sticks' own words (ball_lines); any other game's, generic."""
        if self.grid:
            return ball_lines(told, self.rule)
        from sticks_tui.ui.boards import board_of

        story, rules, board = told.story, self._run_rules(), board_of(self.kept.game)
        if told.shown <= len(story.draws):
            player, position, move = story.draws[told.shown - 1]
            head = [f"Game {story.number:,} from {rules.position_text(story.start)}. {PLAYERS[story.first]} moves "
                    "first."] if told.shown == 1 else []
            return head + [f"{PLAYERS[player]} draws {board.label(rules, position, move)} at "
                           f"{rules.position_text(position)}."]
        return generic_story(story, rules, board, self.rule)[1:]

    def _flush(self) -> None:
        """Tell at once what is left of the game being told and of the games received."""
        while self._current is not None and not self._current.done or self._queue:
            self._next_event()

    def _tell_whole(self, told: ToldGame) -> None:
        """A game at once: its story in the log, its balls beside their hats, then each AI's lessons."""
        if self.grid:
            sentences = story_sentences(told.story, self.rule)
        else:
            from sticks_tui.ui.boards import board_of

            sentences = generic_story(told.story, self._run_rules(), board_of(self.kept.game), self.rule)
        for sentence in sentences:
            self.query_one(MoveLog).write(sentence)
        told.shown = told.events
        self._current = told
        if not self.grid:
            self._told_containers(told, learned=False)
        for player, heatmap in enumerate(self.heatmaps):
            if self.grid:
                view = told.whole(player, learned=False)
                heatmap.data = heatmap.data.with_(counts=view.counts, beside=view.beside, flash=(), drawn=None)

        def learned() -> None:
            self._whole_timer = None
            if not self.grid:
                self._told_containers(told, learned=True)
                return
            for player, heatmap in enumerate(self.heatmaps):
                view = told.whole(player, learned=True)
                heatmap.data = heatmap.data.with_(counts=view.counts, beside=frozenset(), flash=view.flash)

        if self._whole_timer is not None:
            self._whole_timer.stop()
        control = self.control
        pace = control.pace if control is not None else None
        delay = 0.1 if not isinstance(pace, int | float) else min(WHOLE_LESSON_DELAY, 0.5 / pace)
        self._whole_timer = self.set_timer(delay, learned)

    def _ball_tick(self) -> None:
        """Ball by ball and not paused: the next ball, or the lessons; when a game is told, let the next through."""
        control = self._running_control()
        if control is None or not control.by_ball or control.paused or self._asked:
            return
        if not self._next_event():
            control.release()
            self._asked = True
        self._show_keys()

    def next_step(self) -> str:
        """What a step shows next, in words for its button: 'AI 2 draws', 'the lessons', 'game 14'."""
        told = self._current
        if told is None or told.done:
            told = self._queue[0] if self._queue else None
            if told is None:
                progress = self.app.training
                return f"game {(progress.games_done if progress is not None else 0) + 1:,}"
            return f"game {told.story.number:,}"
        kind, player = told.next_event()
        return f"{PLAYERS[player]} draws" if kind == "draw" else "the lessons"

    def _show_keys(self) -> None:
        """The footer and the buttons say what pause and step do now (only refreshed when that changed)."""
        control = self._running_control()
        paused = control is not None and control.paused
        self.query_one("#pause", Button).label = "Resume" if paused else "Pause"
        step = self.next_step()
        self._show_pace()
        changed = relabel(self, "training.toggle_pause", "Resume" if paused else "Pause")
        changed |= relabel(self, "training.step", "Step: " + ("draw" if step.endswith("draws") else
                                                             "lessons" if step == "the lessons" else "game"))
        other = self.has_class("-other")
        # short ("AI 2", not "AI 2's hats"): the footer must fit 80 columns with "Step: lessons" in it
        changed |= relabel(self, "training.other_hats", "AI 1" if other else "AI 2")
        changed |= relabel(self, "training.curve_or_log", "Log" if self.has_class("-curve") else "Curve")
        told = self.has_class("-told")
        if told != getattr(self, "_told_for", None):
            self._told_for, changed = told, True
        running = control is not None
        if changed or running != getattr(self, "_bindings_for", None):
            self._bindings_for = running
            self.refresh_bindings()

    def _show_pace(self) -> None:
        control = self.control
        running = self.app.session.training.running
        pace_line = self.query_one("#training-pace", Static)
        if control is None or not running:
            pace_line.update("")
            return
        paused = control.paused
        line = f"Pace: {pace_words(control.pace)}" + (" (paused)" if paused else "")
        if paused or control.by_ball:
            line += f". Next step: {self.next_step()}."
        pace_line.update(line)

    # -- actions ------------------------------------------------------------------------------------
    RUN_ACTIONS = frozenset({"toggle_pause", "step", "faster", "slower", "cancel_training"})

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """The run's keys only while a run goes on (the footer shows them only then)."""
        if action in self.RUN_ACTIONS:
            return self._running_control() is not None
        if action == "other_hats":
            return not self.has_class("-wide") or self.has_class("-one")  # else both AIs' hats are on screen
        if action == "curve_or_log":
            return self.has_class("-told") and not self.has_class("-wide")  # only when they share the room
        return True

    def _running_control(self):
        control = self.control
        return control if control is not None and self.app.session.training.running else None

    def action_toggle_pause(self) -> None:
        control = self._running_control()
        if control is not None:
            control.toggle_pause()
            if not control.paused and not control.by_ball:
                self._flush()  # going on at a pace: the games are told whole again
            self.app.training = self.app.training  # this screen and the badges say so at once

    def action_step(self) -> None:
        """Pause, and show one more ball (then the game's lessons); past a game's end, ask for the next game."""
        control = self._running_control()
        if control is None:
            return
        if not control.paused:
            control.pause()
        if not self._next_event():
            # nothing asked yet, or a game let through ball by ball that the pause holds back: ask for it
            if not self._asked or control.released_pending > 0:
                control.step()
                self._asked = True
                self._show_on_arrival = True
        self._update(self.app.training)

    def _change_pace(self, by: int) -> None:
        control = self._running_control()
        if control is None:
            return
        paces = list(PACES)
        pace = control.pace
        if pace in paces:
            index = paces.index(pace)
        else:  # a pace not offered: the nearest offered one
            numbers = [i for i, p in enumerate(paces) if isinstance(p, int | float)]
            index = min(numbers, key=lambda i: abs(paces[i] - pace))
        control.set_pace(paces[max(0, min(len(paces) - 1, index + by))])
        if not self._by_ball():
            self._flush()
        self._show_pace()
        self.app.training = self.app.training  # the badges say the new pace

    def action_slower(self) -> None:
        self._change_pace(-1)

    def action_faster(self) -> None:
        self._change_pace(+1)

    def action_other_hats(self) -> None:
        """At 80 columns one AI's hats at a time: AI 1's (the brain trained) or AI 2's (its sparring partner)."""
        self.toggle_class("-other")
        self.set_focus(self.heatmaps[1 if self.has_class("-other") else 0])
        self._show_keys()

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_hats)
        self.call_after_refresh(self.refresh_bindings)  # o and v are for 80 columns only (and -one)

    def _fit_hats(self) -> None:
        """Wide: both AIs' hats side by side when every hat of each fits its half of the panel, else one AI's
        (the class -one: o switches, as at 80 columns), so no hat of the AI shown is off screen."""
        if not self.is_mounted:
            return
        one = False
        if self.grid and self.has_class("-wide"):
            pair = self.query_one("#hats-pair")
            shown = next((h for h in self.heatmaps if h.size.height), self.heatmaps[0])
            half = (pair.size.width - 1) // 2 - 1  # (the margin between them; a scrollbar's column)
            one = not shown.fits_in(half, shown.size.height)
        if one != self.has_class("-one"):
            self.set_class(one, "-one")
            self.refresh_bindings()

    def action_curve_or_log(self) -> None:
        """At 80 columns, with games told: the learning curve in the log's place, or back."""
        self.toggle_class("-curve")
        self._show_keys()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_cancel_training(self) -> None:
        """Stop the run, after asking (one stray key must not end a long run)."""
        if not self.app.session.training.running:
            return
        from sticks_tui.ui.screens.confirm import ConfirmDialog

        def answered(yes: bool | None) -> None:
            if yes:
                self.app.action_cancel_training()

        self.app.push_screen(ConfirmDialog("Stop training now? The AI keeps what it learned so far.",
                                           yes="Stop training"), answered)

    def action_toggle_perfect(self) -> None:
        for heatmap in self.heatmaps:
            heatmap.show_perfect = not heatmap.show_perfect

    def action_export(self) -> None:
        from sticks_tui.ui.screens.export_dialog import open_export, training_exports

        open_export(self, training_exports(self.app))
