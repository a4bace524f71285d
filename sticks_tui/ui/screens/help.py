"""Help (F1 or ?): this screen's keys, how the hats learn, how to read the heatmap, and each game's own
sections (its board's: the game in play first).

Open it with `app.push_screen(HelpScreen.of(app.screen))`: the keys are read from the screen it was
opened from (`keys_of`), so the list is always the keys that work there right now.
"""

from __future__ import annotations

from dataclasses import replace

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from sticks_tui.learn.hats import HatRule
from sticks_tui.learn.lesson_words import how_hats_learn
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.heatmap import (MARK_BESIDE, MARK_DOWN, MARK_DRAWN, MARK_KEPT, MARK_PERFECT, MARK_UP,
                                           short_count)


def keys_of(screen: Screen) -> list[tuple[str, str]]:
    """The keys of `screen` now, as (keys as shown, what they do), in the footer's order: its own
    bindings, then the app's, each action once, and the command palette last.

    Read from the screen's active bindings (so a key map's keys are the ones shown), but only this
    app's own (every one has an id): Textual's generic keys (Tab, Ctrl+C) are not listed. Keys bound to
    the same action share one line ('F2, t'); a binding's tooltip, when it has one, says what it does
    in full; a key whose action is greyed out right now says so.
    """
    app = screen.app

    def rank(node) -> int | None:
        """The focused widget's keys first (a game's board), then the screen's, then the app's."""
        if node is app:
            return 2
        if node is screen:
            return 1
        return 0 if getattr(node, "screen", None) is screen else None

    grouped: dict[str, tuple[list[str], str, bool]] = {}
    actives = sorted(((k, a) for k, a in screen.active_bindings.items() if rank(a.node) is not None),
                     key=lambda item: rank(item[1].node))
    for key, active in actives:
        binding = active.binding
        description = (binding.tooltip or binding.description).strip()
        if not binding.id or not description:
            continue
        try:
            shown = nice_key(app.get_key_display(replace(binding, key=key, key_display=None)))
        except Exception:  # an odd key name: show it as written rather than fail
            shown = key
        keys, _, enabled = grouped.get(binding.action, ([], description, False))
        if shown not in keys:
            keys.append(shown)
        grouped[binding.action] = (keys, description, enabled or active.enabled)
    out = []
    for keys, description, enabled in grouped.values():
        keys = [k for k in keys if not k.startswith("Super+")] or keys  # the Mac twin of a Ctrl key
        out.append((", ".join(keys), description if enabled else f"{description} (not now)"))
    if app.ENABLE_COMMAND_PALETTE:
        out.append((nice_key(app.get_key_display(Binding(app.COMMAND_PALETTE_BINDING, ""))),
                    "Command palette: every command, by name"))
    return out


_KEY_NAMES = {"tab": "Tab", "escape": "Esc", "enter": "Enter", "space": "Space", "delete": "Del",
              "backspace": "Backspace", "home": "Home", "end": "End", "pageup": "PgUp",
              "pagedown": "PgDn", "insert": "Ins"}


def nice_key(shown: str) -> str:
    """'f2' -> 'F2', 'shift+tab' -> 'Shift+Tab', 'escape' -> 'Esc'; '^q' and 't' stay as they are."""
    parts = shown.split("+")
    out = []
    for part in parts:
        if part in _KEY_NAMES:
            out.append(_KEY_NAMES[part])
        elif len(part) > 1 and part[0] == "f" and part[1:].isdigit():
            out.append(part.upper())
        elif len(part) > 1 and part.isalpha() and part.islower():
            out.append(part.capitalize())
        else:
            out.append(part)
    return "+".join(out)


def screen_title(screen: Screen) -> str:
    """'the game screen' for GameScreen, 'the train dialog' for TrainDialog."""
    import re

    name = type(screen).__name__
    kind = "dialog" if name.endswith("Dialog") else "screen"
    words = re.findall(r"[A-Z][a-z0-9]*|[a-z0-9]+", name.removesuffix("Screen").removesuffix("Dialog"))
    return f"the {' '.join(w.lower() for w in words)} {kind}".replace("  ", " ") if words else f"this {kind}"


def losing_heaps(max_take: int = 3, count: int = 4) -> str:
    """'1, 5, 9, 13' for takes of 1-3: the heaps you lose from if the other player plays well."""
    return ", ".join(str(1 + i * (max_take + 1)) for i in range(count))


def help_sections(max_take: int = 3, rule: HatRule | None = None, game: str | None = None) -> list[tuple[str, str]]:
    """(title, plain text) of each part of the help: how the learning AI learns (the hats' story by `rule`,
    the brain's; the seeds' when not given), how to read its brain, then each game's own sections (its
    board's), the game in play (`game`) first."""
    from sticks_tui.ui.boards import boards

    balls = ", ".join(str(b) for b in range(1, max_take + 1))
    games = boards()
    order = sorted(games, key=lambda name: name != game)
    own = [section for name in order for section in games[name].help]
    return [
        ("How the hats learn", how_hats_learn(rule or HatRule(), balls)),
        ("Reading the heatmap",
         f"One row per hat: the hat's number, then one cell per ball.\n"
         f"  ▆78%  19k  the big figure is the chance this ball is drawn; the bar beside it is as "
         f"tall as that chance; the small figure is how many balls of that number the hat holds "
         f"({short_count(9_900)} = 9,900; {short_count(12_000_000)} = 12 million; k thousand, "
         f"M million, G billion).\n"
         f"  - a ball that cannot be played (more sticks than the heap).\n"
         f"  {MARK_DRAWN}  the ball being drawn right now.\n"
         f"  {MARK_BESIDE}  a ball waiting beside its hat until the game ends.\n"
         f"  {MARK_UP} {MARK_DOWN}  after a game: a ball added (the AI won) or thrown away (it lost).\n"
         f"  {MARK_KEPT}    after a game: a ball left as it was (a loss never takes a hat's last ball).\n"
         f"  These marks stay until the next game starts.\n"
         f"  {MARK_PERFECT}  a perfect move (press p to show them).\n"
         f"The highlighted hat number is the hat in play. Warmer cells are likelier balls, but the "
         f"figures and marks say everything the colours say.\n"
         f"A game whose hats are too many for one grid shows the hat in play instead: each move's balls, "
         f"their chance and the same marks, and under it every ball drawn this game."),
        *own,
    ]


class HelpScreen(StyledOnce, ModalScreen[None]):
    """The help dialog. `keys`: (key, what it does) pairs to list; `title`: whose keys they are.

    Closes with Esc, F1, q or ? (and its Close button).
    """

    BINDINGS = [
        Binding("escape", "close", "Close", id="help.close"),
        Binding("f1", "close", "Close", show=False, id="help.close.f1"),
        Binding("q", "close", "Close", show=False, id="help.close.q"),
        Binding("question_mark", "close", "Close", show=False, id="help.close.question_mark"),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > #help { width: 84; max-width: 100%; height: 100%; max-height: 100%; border: thick $accent;
                         background: $surface; padding: 0 1; }
    HelpScreen #help-body { height: 1fr; }
    HelpScreen #help-heading { text-style: bold; color: $accent; width: 1fr; content-align: center top; }
    HelpScreen .help-title { text-style: bold; color: $accent; margin-top: 1; }
    HelpScreen .help-text { color: $text; }
    HelpScreen #help-keys { color: $text; }
    HelpScreen #help-close-row { height: auto; align-horizontal: right; }
    """
    AUTO_FOCUS = "#help-body"

    def __init__(self, keys: list[tuple[str, str]] | None = None, *, title: str = "this screen",
                 max_take: int = 3, rule: HatRule | None = None, game: str | None = None) -> None:
        super().__init__()
        self.keys = list(keys or [])
        self.keys_title = title
        self.max_take = max_take
        self.rule = rule
        self.game = game

    @classmethod
    def of(cls, screen: Screen, *, max_take: int = 3, rule: HatRule | None = None) -> HelpScreen:
        """The help for `screen`, listing its keys; the hats' story told by `rule` (the brain's); the game
        the screen shows (its `setup`'s) first among the games' own sections."""
        setup = getattr(screen, "setup", None)
        return cls(keys_of(screen), title=screen_title(screen), max_take=max_take, rule=rule,
                   game=getattr(setup, "game", None))

    def keys_text(self) -> str:
        if not self.keys:
            return "No keys of its own; the mouse works everywhere."
        width = max(len(k) for k, _ in self.keys)
        return "\n".join(f"  {k:<{width}}  {what}" for k, what in self.keys)

    def compose(self) -> ComposeResult:
        with Vertical(id="help"):
            with VerticalScroll(id="help-body"):
                yield Static(Content.styled("Help", "bold"), id="help-heading")
                yield Static(Content("Esc, F1 or q closes it; ↑/↓, PgUp/PgDn or the mouse wheel scroll."),
                             classes="help-text")
                yield Static(Content.styled(f"Keys on {self.keys_title}", "bold"), classes="help-title")
                yield Static(Content(self.keys_text()), id="help-keys")
                for title, text in help_sections(self.max_take, self.rule, self.game):
                    yield Static(Content.styled(title, "bold"), classes="help-title")
                    yield Static(Content(text), classes="help-text")
            with Vertical(id="help-close-row"):
                yield Button("Close", id="help-close", action="screen.close", compact=True)

    def action_close(self) -> None:
        self.dismiss(None)
