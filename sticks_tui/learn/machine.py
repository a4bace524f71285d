"""A brain of the counts learner as a machine of paper: numbered boxes, coloured beads (issue 36).

Michie built MENACE from 304 matchboxes, each labelled with a board and filled with coloured beads,
one colour per square. `Machine` is any brain of the counts learner (`learn.hats.Hats`) seen that way,
for every game: one box per container, numbered from 1 in the order of the move it serves (the
rules' `move_number`, as MENACE's boxes were; then the brain's row order), one colour per move of
the game (the same colour means the same move in every box), and the beads each box holds: the
rule's start beads (a new machine) or the brain's counts now (`as_is`: to restock a paper machine so
that it matches the screen). The printed labels (`store.machine_pdf`) and a paper game typed back in
(`play.paper`) both read it, so "box 17" and "a red bead" mean the same on paper and on screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from sticks_tui.learn.hats import Hats

#: The bead colours, by name (written beside every swatch, so a black-and-white print still reads)
#: and RGB. Past 16 moves the colours come round again with a number written on the bead ("red 2").
PALETTE: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("red", (220, 40, 40)), ("orange", (245, 140, 20)), ("yellow", (240, 215, 40)), ("green", (40, 160, 60)),
    ("blue", (40, 90, 220)), ("purple", (140, 60, 180)), ("pink", (240, 130, 180)), ("brown", (140, 90, 40)),
    ("black", (25, 25, 25)), ("white", (255, 255, 255)), ("grey", (150, 150, 150)),
    ("light blue", (130, 200, 240)), ("dark green", (0, 100, 40)), ("navy", (20, 30, 110)),
    ("cream", (250, 240, 200)), ("dark red", (120, 10, 20)),
)


@dataclass(frozen=True, slots=True)
class Colour:
    name: str
    rgb: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Box:
    """One container as a box of beads: its number, its position, and a count per move."""

    number: int
    row: int  # the brain's row
    position: object  # the position it is for (the canonical one, where the game folds symmetries)
    move_number: int | None  # which move of its player it serves (None: the game does not say)
    moves: tuple  # the moves it holds, in the brain's column order
    colours: tuple[Colour, ...]  # one per move
    counts: tuple[int, ...]  # beads per move, as printed


def plural(word: str) -> str:
    """'boxes', 'hats', 'beads'."""
    return word + ("es" if word.endswith(("x", "s")) else "s")


def _ordered(moves: list) -> list:
    try:
        return sorted(moves)
    except TypeError:
        return moves


class Machine:
    """The boxes of `brain`, numbered and coloured; `as_is` counts its beads now, else its start beads."""

    def __init__(self, brain: Hats, *, as_is: bool = False, only=None) -> None:
        """`only`: the brain's rows to keep as boxes (those a game from a start reaches: `rows_from`); the
        numbers stay those of the whole brain's machine, so box 17 is the same box in every machine of it."""
        self.brain = brain
        self.rules = brain.rules
        self.as_is = as_is
        counts = brain.counts if as_is else brain.start
        number = getattr(self.rules, "move_number", None)
        rows = [(brain.row(p), p) for p in brain.positions]
        numbered = [(None if number is None else int(number(p)), row, p) for row, p in rows]
        numbered.sort(key=lambda t: (t[0] or 0, t[1]))
        every: list = []
        for _, _, p in numbered:
            every.extend(m for m in brain.moves_of(p) if m not in every)
        self.moves = tuple(_ordered(every))
        many = len(self.moves) > len(PALETTE)
        self.colour_of = {
            m: Colour(PALETTE[i % len(PALETTE)][0] + (f" {i // len(PALETTE) + 1}" if many else ""),
                      PALETTE[i % len(PALETTE)][1])
            for i, m in enumerate(self.moves)}
        self.numbered_beads = many
        # a move in the key is said in the words of the first box that holds it
        self.move_words: dict = {}
        boxes = []
        for n, (move_no, row, p) in enumerate(numbered, start=1):
            moves = tuple(brain.moves_of(p))
            for m in moves:
                self.move_words.setdefault(m, self.rules.move_text(p, m))
            boxes.append(Box(n, row, p, move_no, moves, tuple(self.colour_of[m] for m in moves),
                             tuple(int(counts[row, j]) for j in range(len(moves)))))
        self._every = {b.number: b for b in boxes}
        self.boxes: tuple[Box, ...] = tuple(b for b in boxes if only is None or b.row in only)
        self._by_row = {b.row: b for b in boxes}
        self._by_name = {c.name: m for m, c in self.colour_of.items()}

    # -- words --------------------------------------------------------------------------------------
    @property
    def words(self) -> tuple[str, str]:
        """(container, token): a MENACE-like rule (no floor: beads run out) keeps beads in matchboxes,
        the seeds' rule balls in hats."""
        return ("box", "bead") if self.brain.rule.floor == "none" else ("hat", "ball")

    def totals(self) -> dict[str, int]:
        """Beads to buy, by colour name, in the key's order."""
        total = {self.colour_of[m].name: 0 for m in self.moves}
        for box in self.boxes:
            for colour, count in zip(box.colours, box.counts, strict=True):
                total[colour.name] += count
        return total

    def boxes_by_move(self) -> dict[int | None, int]:
        """How many boxes serve each move number (None: the game does not number its moves)."""
        out: dict[int | None, int] = {}
        for box in self.boxes:
            out[box.move_number] = out.get(box.move_number, 0) + 1
        return out

    # -- finding a box and a bead, as a class types them --------------------------------------------
    def box(self, number: int) -> Box:
        """Box `number`; ValueError saying which numbers there are."""
        if number not in self._every:
            box = self.words[0]
            raise ValueError(f"There is no {box} {number}: the {plural(box)} are numbered 1 to {len(self._every)}.")
        return self._every[number]

    def box_for(self, position) -> Box | None:
        """The box for `position` (alike up to a symmetry, where the game folds them), or None."""
        found = self.brain.find(position)
        return None if found is None else self._by_row.get(found[0])

    def move_of_colour(self, name: str):
        """The move a bead colour stands for (in a box's own position); ValueError listing the colours."""
        key = " ".join(name.lower().split())
        if key not in self._by_name:
            raise ValueError(f"There is no {key!r} {self.words[1]} in this machine: its colours are "
                             f"{', '.join(self._by_name)}.")
        return self._by_name[key]


def rows_from(brain: Hats, start) -> frozenset[int]:
    """The brain's rows (its containers) a game from `start` can reach (a game of 20 sticks on a brain of 100 hats
    reaches hats 1 to 20): the boxes a machine for games from there needs."""
    rules = brain.rules
    seen, frontier, rows = {start}, [start], set()
    while frontier:
        following = []
        for position in frontier:
            if rules.is_terminal(position):
                continue
            found = brain.find(position)
            if found is not None:
                rows.add(found[0])
            for move in rules.legal_moves(position):
                after = rules.apply(position, move)
                if after not in seen:
                    seen.add(after)
                    following.append(after)
        frontier = following
    return frozenset(rows)


def fresh_brain(kind, beads: tuple[int, ...] | None = None):
    """A new brain of the game `kind`, as the store makes one (a game of 20 sticks; Nim's learner's
    piles; one player's containers where the rules say whose turn it is: the entry's `learner_seat`, MENACE's X,
    HER's Black; else the first player's); `beads`: its start tokens by move number instead of the game's own
    (Michie's MENACE: 4, 3, 2, 1)."""
    from sticks_tui.learn.hats import HatRule
    from sticks_tui.vocabulary import NIM_LEARNER_BOX

    rules = kind.brain_rules(20, 3, NIM_LEARNER_BOX)
    seat = None
    if getattr(rules, "mover", None) is not None:
        seat = kind.learner_seat if kind.learner_seat is not None else 0
    settings = dict(kind.learner_settings) if beads is None else {**kind.learner_settings, "start_balls": tuple(beads)}
    return Hats(rules, rule=HatRule(**settings), seat=seat)


def seat_words(brain) -> str:
    """' (it plays X, moving first)': whose containers a one-seat brain keeps; '' for both."""
    if brain.seat is None:
        return ""
    names = getattr(brain.rules, "seat_names", None)
    who = names[brain.seat] if names else ("the first player", "the second player")[brain.seat]
    return f" (it plays {who}, moving {'first' if brain.seat == 0 else 'second'})"
