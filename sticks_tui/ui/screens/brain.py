"""One brain view for every game's learner (b on the game screen): every container it holds (a hat of balls, a
matchbox of beads), each move's tokens, written once against the game and `ui.brains`.

A brain small enough for one grid (sticks' hats: a row per heap, a column per take) is the heatmap of every hat.
Any other is shown by how many moves into a game its positions come (1-9 or ←/→ choose the group): each container
drawn small by the game's board when it has a drawing (noughts: a little board with each square's beads), else a
line of each move and its tokens. A game whose learner has a brain for each side (MENACE's X and O boxes) shows the
other side's with o.
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
from sticks_tui.ui.widgets.heatmap import HatHeatmap, HeatmapData, short_count

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

    def __init__(self, game: str, side: int = 0) -> None:
        super().__init__()
        self.game = game
        self.side = side
        self.group = 0

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
            return len(self.board.brains) > 1
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
                                                     for n in range(size + 1)))
            title.update(f"The brain {whose}: {brains.brain_label(brain)}, each with its {w.tokens} by move.")
            return
        heatmap.display, scroll.display = False, True
        groups = self.groups()
        self.group = max(0, min(self.group, len(groups) - 1))
        plies, shown = groups[self.group] if groups else (0, [])
        of = ", ".join(f"{len(items)}" for _, items in groups)
        title.update(f"The brain {whose}: {brains.brain_label(brain)} ({of} by group). Its {len(shown)} "
                     f"{w.container if len(shown) == 1 else w.containers} for positions {plies} "
                     f"move{'' if plies == 1 else 's'} into a game (group {self.group + 1} of {len(groups)}): "
                     f"each move's {w.tokens}.")
        width = max(20, scroll.size.width - 2 or self.app.size.width - 4)
        self.query_one("#brain-body", Static).update(Content("\n".join(self.lines(shown, width))))

    def lines(self, shown: list[tuple], width: int) -> list[str]:
        board, rules = self.board, self.rules
        number = brains.numbers(self.kept.brain)  # the printed machine's box numbers (Print, the paper game)
        if board.small is not None:
            return grid_lines([board.small(number[p], p, dict(zip(moves, counts, strict=True)))
                               for p, moves, counts in shown], width)
        out = []
        for position, moves, counts in shown:
            total = sum(counts)
            each = ", ".join(f"{board.label(rules, position, m)}: {short_count(c).strip()}"
                             for m, c in zip(moves, counts, strict=True))
            out.append(f"#{number[position]} {rules.position_text(position)} ({short_count(total).strip()}): {each}")
        return out

    # -- keys --------------------------------------------------------------------------------------
    def action_group(self, group: int) -> None:
        self.group = group
        self.query_one("#brain-scroll", VerticalScroll).scroll_home(animate=False)
        self.show()

    def action_step(self, by: int) -> None:
        self.action_group(self.group + by)

    def action_other(self) -> None:
        """The other side's brain; one never made yet is said, not made here."""
        from sticks_tui.store import StoreError
        from sticks_tui.ui.keeper import brain_name

        if len(self.board.brains) < 2:
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
