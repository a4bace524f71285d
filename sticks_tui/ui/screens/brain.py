"""One brain view for every game's learner (b on the game screen): every container it holds (a hat of balls, a
matchbox of beads), each move's tokens, written once against the game and `ui.brains`.

A brain small enough for one grid (sticks' hats: a row per heap, a column per take) is the heatmap of every hat.
Any other is shown by how many moves into a game its positions come (1-9 or ←/→ choose the group): each container
drawn small by the game's board when it has a drawing (noughts: a little board with each square's beads), else a
line of each move and its tokens. A game whose learner has a brain for each side (MENACE's X and O boxes) shows the
other side's with o. Opened from a game (`in_play`), the container the learner last drew from and the token drawn
are marked (►), and the view opens on its group. A move with no tokens of its own (a mirror image of another,
counted there: ⇋) and a move whose tokens were all taken (0, emptied) are told apart, with a key under the title.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from sticks_tui.engine import registry
from sticks_tui.ui import brains
from sticks_tui.ui.boards import board_of
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.header import AppHeader
from sticks_tui.ui.widgets.container_view import change_words
from sticks_tui.ui.widgets.heatmap import MARK_DRAWN, MARK_MIRROR, HatHeatmap, HeatmapData, short_count

GAP = " │ "


def grid_lines(items: list[list[str]], width: int) -> list[str]:
    """Small drawings of one width laid out as many a row as `width` holds, a blank line between rows."""
    if not items:
        return []
    item_w = max(len(line) for item in items for line in item)
    per_row = max(1, (width + len(GAP)) // (item_w + len(GAP)))
    out: list[str] = []
    for start in range(0, len(items), per_row):
        row = items[start:start + per_row]
        for y in range(max(len(item) for item in row)):
            out.append(GAP.join(f"{item[y] if y < len(item) else '':<{item_w}}" for item in row).rstrip())
        out.append("")
    return out


def container_lines(board, rules, brain, shown: list[tuple], width: int, *, in_play: tuple | None = None,
                    changes: dict | None = None) -> list[str]:
    """The brain's containers `shown` ((position, legal moves, tokens for each move), as `brains.containers` gives
    them) as every screen draws them (the brain view, the projector's class view): the game's small drawing
    (`Board.small`: noughts' little boards) laid out as many a row as `width` holds, else a line each; numbered
    as the printed machine numbers them; ⇋ on a move that is a mirror image of another, its count (0 when
    emptied) on any other; ► on the token drawn in the container in play (`in_play`: (position, move)); after a
    game the change of each token drawn in full (`changes`: {(position, move): (before, after)}, '11,006 → 11,007
    ↑')."""
    number = brains.numbers(brain)  # the printed machine's box numbers (Print, the paper game)
    changes = changes or {}
    if board.small is not None:
        return grid_lines([board.small(number[p], p, dict(zip(moves, counts, strict=True)),
                                       mirrored=brains.mirrored_moves(brain, p, moves),
                                       drawn=in_play[1] if in_play is not None and in_play[0] == p else None,
                                       **({"changes": {m: c for (q, m), c in changes.items() if q == p}}
                                          if changes else {}))
                           for p, moves, counts in shown], width)
    out = []
    for position, moves, counts in shown:
        total = sum(counts)
        mirrored = brains.mirrored_moves(brain, position, moves)
        drawn = in_play[1] if in_play is not None and in_play[0] == position else None
        each = ", ".join(f"{MARK_DRAWN if m == drawn else ''}{board.label(rules, position, m)}: "
                         f"{MARK_MIRROR if m in mirrored else short_count(c).strip()}"
                         + (f" ({change_words(*changes[position, m])})" if (position, m) in changes else "")
                         for m, c in zip(moves, counts, strict=True))
        mark = f"{MARK_DRAWN} " if drawn is not None else ""
        out.append(f"{mark}#{number[position]} {rules.position_text(position)} ({short_count(total).strip()}): "
                   f"{each}")
    return out


class BrainScreen(StyledOnce, Screen):
    """A learner's whole brain (see the module docstring). `side`: the first mover's brain (0) or the second's."""

    BINDINGS = [
        Binding("1", "group(0)", "Group", key_display="1-9", id="brain.group",
                tooltip="The containers of positions that many moves into a game"),
        *[Binding(str(n), f"group({n - 1})", f"Group {n}", show=False, id=f"brain.group{n}") for n in range(2, 10)],
        Binding("left,left_square_bracket", "step(-1)", "Earlier", show=False, id="brain.earlier",
                tooltip="The positions one move earlier"),
        Binding("right,right_square_bracket", "step(1)", "Later", show=False, id="brain.later",
                tooltip="The positions one move later"),
        Binding("o", "other", "Other side", id="brain.other", tooltip="The other side's brain (X's or O's boxes)"),
        Binding("p", "print", "Print", id="brain.print",
                tooltip="Print this brain as a machine of paper: a PDF of labels to cut out (issue 36)"),
        Binding("g", "paper_game", "Paper game", id="brain.paper_game",
                tooltip="Type in a game played with the paper machine: this brain learns it"),
        Binding("escape", "back", "Back", id="brain.back"),
    ]
    COMMANDS = {screen_commands(
        ("Print the machine", "This brain as a machine of paper: a PDF of box labels to cut out", "print"),
        ("Paper game", "Type in a game played with the paper machine: this brain learns it", "paper_game"),
    )}
    DEFAULT_CSS = """
    BrainScreen #brain-title { height: auto; text-style: bold; padding: 0 1; }
    BrainScreen #brain-scroll { height: 1fr; padding: 0 1; }
    BrainScreen #brain-heatmap { height: 1fr; }
    """

    def __init__(self, game: str, side: int = 0, in_play: tuple | None = None) -> None:
        """`in_play`: (position, move) of the token the learner of `side` last drew in the game, or None."""
        super().__init__()
        self.game = game
        self.side = side
        self.group = 0
        self.in_play_side = side  # whose token it is (o shows the other side's brain, not in play)
        self._shown_in_play = False
        self.played = in_play  # as played; `in_play` as the brain counts it (a folded brain: its mirror image)
        self.in_play = brains.container_move(self.kept.brain, *in_play) if in_play is not None else None
        if self.in_play is not None:
            self.group = next((i for i, (_, items) in enumerate(self.groups())
                               if any(c[0] == self.in_play[0] for c in items)), 0)

    @property
    def board(self):
        return board_of(self.game)

    @property
    def kept(self):
        return self.app.keeper.learner(self.game, self.side)

    @property
    def rules(self):
        return self.kept.brain.rules

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield Static("", id="brain-title")
        heatmap = HatHeatmap(id="brain-heatmap")
        heatmap.display = False
        yield heatmap
        with VerticalScroll(id="brain-scroll"):
            yield Static("", id="brain-body")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = f"the learning AI's brain: {registry.entry(self.game).title}"
        self.show()
        self.watch(self.app, "class_change", lambda change: change is not None and self.show(), init=False)

    def on_resize(self) -> None:
        self.call_after_refresh(self.show)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "other":
            return registry.entry(self.game).brains_by_side()
        if action in ("group", "step"):
            return not self._fits()
        if action == "paper_game":
            from sticks_tui.ui.roles import is_teacher

            return is_teacher(self.app)  # the paper game teaches the class's brain: the teacher's (screens/paper.py)
        return True

    def _fits(self) -> bool:
        """Whether the brain in play shows as one grid. Asked each time the footer checks its keys: worked out
        once per brain (its containers follow its layout, never its counts)."""
        brain = self.kept.brain
        if getattr(self, "_fit_of", (None,))[0] is not brain:
            self._fit_of = (brain, brains.grid_fits(brain, len(brains.containers(brain, self.rules))))
        return self._fit_of[1]

    # -- drawing -----------------------------------------------------------------------------------
    def groups(self) -> list[tuple[int, list[tuple]]]:
        """(moves into a game, its containers) for every number of moves the brain has containers for."""
        depth = brains.plies_from_start(self.rules)
        found: dict[int, list[tuple]] = {}
        for container in brains.containers(self.kept.brain, self.rules):
            found.setdefault(depth.get(container[0], -1), []).append(container)
        return sorted(found.items())

    def show(self) -> None:
        kept = self.kept
        brain = kept.brain
        w = brains.words(brain)
        title = self.query_one("#brain-title", Static)
        heatmap = self.query_one("#brain-heatmap", HatHeatmap)
        scroll = self.query_one("#brain-scroll", VerticalScroll)
        whose = f"'{kept.name}'" + ("" if kept.kept else " (not kept)")
        if self._fits():
            from sticks_tui.solve import solver_for

            heatmap.display, scroll.display = True, False
            size = len(brain.positions)
            solution = solver_for(self.rules)
            heatmap.data = HeatmapData(counts=brain.counts.copy(), hats=size, max_take=brain.max_take,
                                       perfect=tuple(tuple(solution.winning_moves(n)) if n else ()
                                                     for n in range(size + 1)), drawn=self._in_play())
            title.update(f"The brain {whose}: {brains.brain_label(brain)}, each with its {w.tokens} by move."
                         + self._in_play_words(w))
            return
        heatmap.display, scroll.display = False, True
        groups = self.groups()
        self.group = max(0, min(self.group, len(groups) - 1))
        plies, shown = groups[self.group] if groups else (0, [])
        of = ", ".join(f"{len(items)}" for _, items in groups)
        title.update(f"The brain {whose}: {brains.brain_label(brain)} ({of} by group). Its {len(shown)} "
                     f"{w.container if len(shown) == 1 else w.containers} for positions {plies} "
                     f"move{'' if plies == 1 else 's'} into a game (group {self.group + 1} of {len(groups)}): "
                     f"each move's {w.tokens}." + self._in_play_words(w) + self._legend(w))
        width = max(20, scroll.size.width - 2 or self.app.size.width - 4)
        lines = self.lines(shown, width)
        self.query_one("#brain-body", Static).update(Content("\n".join(lines)))
        if self._in_play() is not None and not self._shown_in_play:  # the box in play scrolled into view
            at = next((i for i, line in enumerate(lines) if MARK_DRAWN in line), None)
            if at is not None:  # from its head: the nearest line up to it that numbers containers (#N)
                top = next((i for i in range(at, -1, -1) if "#" in lines[i]), at)
                self.call_after_refresh(lambda: scroll.scroll_to(y=top, animate=False))

    def _in_play(self) -> tuple | None:
        """(position, move) of the token drawn last in the game, when this brain is the one that drew it."""
        return self.in_play if self.side == self.in_play_side else None

    def _in_play_words(self, w) -> str:
        in_play = self._in_play()
        if in_play is None:
            return ""
        number = brains.numbers(self.kept.brain)[in_play[0]]
        drawn = self.board.label(self.rules, *in_play)
        played = self.board.label(self.rules, *self.played)
        mirror = "" if in_play == self.played else f" ({played} on the board played: its mirror image)"
        return f" {MARK_DRAWN} In play: {w.container} #{number}, its {w.token} for {drawn} drawn{mirror}."

    def _legend(self, w) -> str:
        """The key to the marks this brain can show: ► (the token drawn), ⇋ (a brain folded by symmetry), 0 (a
        rule by which a move can lose its every token)."""
        brain = self.kept.brain
        parts = []
        if self._in_play() is not None:
            parts.append(f"{MARK_DRAWN} drawn, in play")
        if brain.folds:
            parts.append(f"{MARK_MIRROR} a mirror image, counted at its twin")
        rule = brains.rule_of(brain)
        if rule is not None and rule.floor != "each":
            parts.append("0 emptied by losses")
        return "\n" + "; ".join(parts) + "." if parts else ""

    def lines(self, shown: list[tuple], width: int) -> list[str]:
        return container_lines(self.board, self.rules, self.kept.brain, shown, width, in_play=self._in_play())

    # -- keys --------------------------------------------------------------------------------------
    def action_group(self, group: int) -> None:
        self._shown_in_play = True  # another group chosen: the view no longer follows the box in play
        self.group = group
        self.query_one("#brain-scroll", VerticalScroll).scroll_home(animate=False)
        self.show()

    def action_step(self, by: int) -> None:
        self.action_group(self.group + by)

    def action_other(self) -> None:
        """The other side's brain; one never made yet is said, not made here."""
        from sticks_tui.store import StoreError
        from sticks_tui.ui.keeper import brain_name

        if not registry.entry(self.game).brains_by_side():
            return
        other = 1 - self.side
        name = brain_name(self.app.session, self.game, other)
        try:
            made = (self.game, name) in self.app.session.kept or self.app.session.store.brain_info(name) is not None
        except (StoreError, AttributeError):
            made = False
        if not made:
            self.notify(f"There is no brain '{name}' yet: it is made when the learning AI first plays that side.",
                        timeout=6)
            return
        self.side = other
        self.show()

    def action_print(self) -> None:
        """The brain shown, printed as a machine of paper (screens/print_dialog.py)."""
        from sticks_tui.ui.screens.print_dialog import open_print

        open_print(self, self.kept)

    def action_paper_game(self) -> None:
        """A game played with the paper machine of the brain shown, typed in (screens/paper.py)."""
        from sticks_tui.ui.screens.paper import open_paper_game

        open_paper_game(self.app, self.game, self.side)

    def action_back(self) -> None:
        self.app.pop_screen()
