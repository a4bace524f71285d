"""A machine of paper as a PDF (`sticks-tui brain print`): a cover, then one cut-out label per box.

The cover says what to buy (how many boxes, how many beads of each colour) and how to play and teach
the machine. Each A4 page after it holds 15 labels of 62 x 46 mm (a matchbox's top), cut along the
dashes: the box's number and the move it serves, its position drawn from the rules' picture
(`engine.pictures`: sticks, piles or a board of marks, where the moves a board's squares stand for
are coloured with their bead and its count), and its beads by colour with their counts, each colour
written out beside its swatch so a black-and-white printer loses nothing. A key (colour -> move) is
at the foot of every page. Everything printed comes from `learn.machine.Machine`, so it is the
brain's own: the start beads of its rule, or (`as_is`) its counts now.

Written with fpdf2 (pure Python; see docs/dependencies.md), through the export guard
(`store.safefile`): never over the database, a SQLite file, a device or someone's file.
"""

from __future__ import annotations

import math
import os

from sticks_tui.engine.pictures import Grid, Piles, Sticks, picture_of
from sticks_tui.learn.machine import Box, Machine, plural

#: Written into every PDF's metadata: an earlier print of a machine is recognised and replaced.
MARKER = "sticks-tui paper machine"
PAGE_W, PAGE_H = 210.0, 297.0
LABEL_W, LABEL_H = 62.0, 46.0
COLS, ROWS = 3, 5
LEFT = (PAGE_W - COLS * LABEL_W) / 2
TOP = 10.0
KEY_TOP = TOP + ROWS * LABEL_H + 4
PICTURE = 25.0  # the side of a label's picture, in mm
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def _t(text: str) -> str:
    """Text the PDF's core font can write (Latin-1); anything else becomes '?'."""
    return str(text).encode("latin-1", "replace").decode("latin-1")


def _ordinal(n: int) -> str:
    return ORDINALS.get(n, f"{n}th")


def _ink_on(rgb) -> tuple[int, int, int]:
    """Black on a light colour, white on a dark one."""
    r, g, b = rgb
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)


def recognise(head: bytes) -> bool:
    """An earlier machine printed here (replaced without --force)."""
    return head.startswith(b"%PDF") and MARKER.encode() in head


class _Printer:
    def __init__(self, machine: Machine, title: str, game_title: str, seat_words: str,
                 type_back: str = "sticks-tui play --paper --brain NAME") -> None:
        from fpdf import FPDF

        self.type_back = type_back
        self.m = machine
        self.title = title
        self.game_title = game_title
        self.seat_words = seat_words
        pdf = FPDF(orientation="portrait", unit="mm", format="A4")
        pdf.set_auto_page_break(False)
        pdf.set_creator(MARKER)
        pdf.set_title(_t(title))
        self.pdf = pdf

    # -- small drawing helpers ----------------------------------------------------------------------
    def text(self, x: float, y: float, text: str, size: float = 8, style: str = "", rgb=(0, 0, 0)) -> None:
        self.pdf.set_font("Helvetica", style, size)
        self.pdf.set_text_color(*rgb)
        self.pdf.text(x, y, _t(text))

    def swatch(self, x: float, y: float, rgb, r: float = 1.5) -> None:
        """A bead: a filled circle centred on (x, y), outlined so white shows."""
        pdf = self.pdf
        pdf.set_fill_color(*rgb)
        pdf.set_draw_color(0, 0, 0)
        pdf.set_line_width(0.2)
        pdf.circle(x, y, r, style="DF")

    # -- the cover ----------------------------------------------------------------------------------
    def cover(self) -> None:
        m, pdf = self.m, self.pdf
        box, bead = m.words
        pdf.add_page()
        self.text(15, 22, self.title, 18, "B")
        self.text(15, 30, f"{len(m.boxes)} {plural(box)} for {self.game_title}{self.seat_words}, "
                          f"{'with the beads it holds now' if m.as_is else 'with their start ' + bead + 's'}.", 10)
        y = 40
        by_move = m.boxes_by_move()
        if list(by_move) != [None]:
            words = ", ".join(f"{n} for its {_ordinal(k)} move" for k, n in by_move.items())
            self.text(15, y, f"{plural(box).capitalize()}: {words}.", 10)
            y += 7
        self.text(15, y, f"To buy: {len(m.boxes)} {plural(box)} (matchboxes, paper cups or hats) and these {bead}s:",
                  10, "B")
        y += 7
        totals = m.totals()
        for colour_move in m.moves:
            colour = m.colour_of[colour_move]
            self.swatch(19, y - 1.2, colour.rgb, 1.8)
            self.text(23, y, f"{colour.name}: {totals[colour.name]}", 10)
            self.text(60, y, f"= {m.move_words[colour_move]}", 9)
            y += 5.5
        self.text(15, y + 1, f"In all: {sum(totals.values())} {bead}s.", 10, "B")
        y += 10
        if m.numbered_beads:
            self.text(15, y, f"This game has more moves than colours: write the number on each {bead} "
                             f"('red 2' is a red {bead} marked 2).", 9)
            y += 7
        rule = m.brain.rule
        win, draw, loss = rule.incentives
        how = [
            "How to play it: at the machine's turn, find the " + box + " whose picture is the game as it stands"
            + (" (turned or mirrored if need be: then turn the move the same way)" if m.brain.folds else "") + ".",
            f"Shake it, draw one {bead} without looking, and make the move its colour stands for (the key on "
            f"every page). Keep the {bead} beside its open {box} until the game ends.",
            f"After the game, for every {bead} drawn: a win puts it back with {win} more of its colour; "
            f"a draw with {draw} more; a loss takes {-loss} of that colour away"
            + (" (an empty " + box + " resigns the game)." if rule.empty == "resign" else
               " (an empty " + box + " is filled again with its start " + bead + "s)." if rule.empty == "refill"
               else "."),
            f"Then type the game into sticks-tui ({self.type_back}): the brain on screen learns "
            f"the same lesson, and says which {plural(box)} changed.",
        ]
        pdf.set_font("Helvetica", "", 9.5)
        pdf.set_text_color(0, 0, 0)
        for paragraph in how:
            pdf.set_xy(15, y)
            pdf.multi_cell(180, 4.8, _t(paragraph))
            y = pdf.get_y() + 2.5

    # -- the labels ---------------------------------------------------------------------------------
    def labels(self) -> None:
        per_page = COLS * ROWS
        for start in range(0, len(self.m.boxes), per_page):
            self.pdf.add_page()
            for i, box in enumerate(self.m.boxes[start:start + per_page]):
                col, row = i % COLS, i // COLS
                self.label(LEFT + col * LABEL_W, TOP + row * LABEL_H, box)
            self.key()

    def label(self, x: float, y: float, box: Box) -> None:
        pdf, m = self.pdf, self.m
        pdf.set_draw_color(120, 120, 120)
        pdf.set_line_width(0.2)
        with pdf.local_context():
            pdf.set_dash_pattern(dash=1.2, gap=1.2)
            pdf.rect(x, y, LABEL_W, LABEL_H)
        self.text(x + 2.5, y + 6, f"{m.words[0].capitalize()} {box.number}", 11, "B")
        if box.move_number is not None:
            self.text(x + 33, y + 6, f"its {_ordinal(box.move_number)} move", 7)
        self.picture(x + 2.5, y + 9, box)
        self.beads(x + 31, y + 11, box)
        total = sum(box.counts)
        self.text(x + 2.5, y + LABEL_H - 2.5,
                  f"{total} {m.words[1]}{'' if total == 1 else 's'} {'now' if m.as_is else 'to start'}", 6.5)

    def beads(self, x: float, y: float, box: Box) -> None:
        n = len(box.moves)
        cols = 1 if n <= 8 else 2
        per_col = math.ceil(n / cols)
        step = min(4.0, 31.0 / max(per_col, 1))
        size = 7.5 if cols == 1 else 5.5
        width = 29.0 / cols
        for i, (colour, count) in enumerate(zip(box.colours, box.counts, strict=True)):
            cx, cy = x + (i // per_col) * width, y + (i % per_col) * step
            self.swatch(cx + 1.3, cy - 1.0, colour.rgb, 1.2 if cols == 1 else 0.9)
            self.text(cx + 3.2, cy, f"{colour.name}: {count}", size)

    def picture(self, x: float, y: float, box: Box) -> None:
        picture = picture_of(self.m.rules, box.position)
        if isinstance(picture, Sticks):
            self.sticks(x, y, picture.count)
        elif isinstance(picture, Piles):
            self.piles(x, y, picture.piles)
        elif isinstance(picture, Grid):
            self.grid(x, y, picture, box)
        else:  # a game with no picture: its words
            self.pdf.set_font("Helvetica", "", 7)
            self.pdf.set_xy(x, y)
            self.pdf.multi_cell(PICTURE + 3, 3.2, _t(self.m.rules.position_text(box.position)))

    def sticks(self, x: float, y: float, count: int) -> None:
        pdf = self.pdf
        per_row = 10
        rows = max(1, math.ceil(count / per_row))
        height = min(9.0, (PICTURE - 6) / rows - 1.0)
        pdf.set_fill_color(150, 95, 40)
        pdf.set_draw_color(80, 50, 20)
        pdf.set_line_width(0.15)
        for i in range(count):
            r, c = divmod(i, per_row)
            pdf.rect(x + c * 2.5, y + r * (height + 1.0), 1.0, height, style="DF")
        self.text(x, y + PICTURE - 1, f"{count} stick{'' if count == 1 else 's'}", 7.5)

    def piles(self, x: float, y: float, piles) -> None:
        pdf = self.pdf
        width = PICTURE / max(len(piles), 1)
        top = max(piles) if piles else 0
        step = min(2.6, (PICTURE - 7) / max(top, 1))
        pdf.set_fill_color(200, 170, 60)
        pdf.set_draw_color(90, 70, 10)
        pdf.set_line_width(0.15)
        for i, pile in enumerate(piles):
            cx = x + i * width + width / 2
            for k in range(pile):
                pdf.circle(cx, y + PICTURE - 7 - k * step, min(1.1, step / 2), style="DF")
            self.text(cx - 1, y + PICTURE - 1.5, str(pile), 8, "B")

    def grid(self, x: float, y: float, picture: Grid, box: Box) -> None:
        pdf = self.pdf
        rows = picture.rows
        n_rows, n_cols = len(rows), max(len(r) for r in rows)
        cell = PICTURE / max(n_rows, n_cols)
        coloured = {}
        for move, colour, count in zip(box.moves, box.colours, box.counts, strict=True):
            where = picture.cells.get(move)
            if where is not None:
                coloured[tuple(where)] = (colour, count)
        pdf.set_line_width(0.25)
        for r, row in enumerate(rows):
            for c, mark in enumerate(row):
                cx, cy = x + c * cell, y + r * cell
                pdf.set_draw_color(0, 0, 0)
                if (r, c) in coloured:
                    colour, count = coloured[(r, c)]
                    pdf.set_fill_color(*colour.rgb)
                    pdf.rect(cx, cy, cell, cell, style="DF")
                    self.text(cx + cell / 2 - 1.2, cy + cell / 2 + 1.2, str(count), 7, "B", _ink_on(colour.rgb))
                    continue
                pdf.rect(cx, cy, cell, cell)
                inset = cell * 0.22
                if mark == "X":
                    pdf.set_line_width(0.6)
                    pdf.line(cx + inset, cy + inset, cx + cell - inset, cy + cell - inset)
                    pdf.line(cx + inset, cy + cell - inset, cx + cell - inset, cy + inset)
                    pdf.set_line_width(0.25)
                elif mark == "O":
                    pdf.set_line_width(0.6)
                    pdf.circle(cx + cell / 2, cy + cell / 2, cell / 2 - inset)
                    pdf.set_line_width(0.25)
                elif mark:
                    self.text(cx + cell / 2 - 1.5, cy + cell / 2 + 1.5, mark, 9, "B")

    def key(self) -> None:
        m = self.m
        self.text(LEFT, KEY_TOP + 2, f"Key: the {m.words[1]} colours and the moves they stand for"
                                     + (" (on the board drawn on the box)" if m.brain.folds else ""), 8, "B")
        cols = 3
        width = LABEL_W
        per_col = math.ceil(len(m.moves) / cols)
        step = min(4.2, (PAGE_H - KEY_TOP - 12) / max(per_col, 1))
        for i, move in enumerate(m.moves):
            cx = LEFT + (i // per_col) * width
            cy = KEY_TOP + 7 + (i % per_col) * step
            colour = m.colour_of[move]
            self.swatch(cx + 1.3, cy - 1.0, colour.rgb, 1.2)
            self.text(cx + 3.5, cy, f"{colour.name} = {m.move_words[move]}", 6.5 if step >= 3.5 else 5.5)

    def output(self) -> bytes:
        return bytes(self.pdf.output())


def machine_pdf(machine: Machine, *, title: str, game_title: str, seat_words: str = "",
                type_back: str = "sticks-tui play --paper --brain NAME") -> bytes:
    """The PDF of `machine`: a cover and its labels. `type_back`: the command that types a paper game in."""
    printer = _Printer(machine, title, game_title, seat_words, type_back)
    printer.cover()
    printer.labels()
    return printer.output()


def paper_command(brain, name: str) -> str:
    """The command line that types a paper game of brain `name` in."""
    import shlex

    from sticks_tui.engine import registry

    return f"sticks-tui play --paper --game {registry.entry_of(brain.rules).name} --brain {shlex.quote(name)}"


def print_brain(brain, name: str, *, as_is: bool = False, type_back: str | None = None,
                only=None) -> tuple[Machine, bytes]:
    """Brain `name` printed as a machine of paper: (its `Machine`, the PDF's bytes). The one way both
    `sticks-tui brain print` and the app's Print make it. `type_back`: where a paper game is typed in
    (default: the command line's `play --paper` for this brain). `only`: the brain's rows to print (the boxes a
    game from the app's start reaches, `learn.machine.rows_from`), numbered as in the whole machine."""
    from sticks_tui.engine import registry
    from sticks_tui.learn.machine import seat_words

    kind = registry.entry_of(brain.rules)
    machine = Machine(brain, as_is=as_is, only=only)
    if type_back is None:
        type_back = paper_command(brain, name)
    data = machine_pdf(machine, title=f"Build your own machine: {name}", game_title=kind.title,
                       seat_words=seat_words(brain), type_back=type_back)
    return machine, data


def write_machine_pdf(path: str | os.PathLike, data: bytes, *, force: bool = False, protected=()) -> None:
    """Write a printed machine at `path` through the export guard (an earlier print is replaced)."""
    from sticks_tui.store.safefile import write_file

    write_file(path, data, what="PDF", recognise=recognise, force=force, protected=list(protected))
