"""A game played with a machine of paper, typed back in move by move (issue 36's paper game).

A class plays the printed machine (`sticks-tui brain print`) by hand. At the machine's turn they
say which box they took and which bead they drew ("17 red"); at the other side's turn, the move
made. `PaperGame` checks each against the game and the brain as the store keeps it, and refuses,
with the reason and changing nothing, a box that is not the one for the position (its number is
the printed one, `learn.machine.Machine`), a colour that box has no bead of, or a bead the box on
screen has run out of. A bead drawn from a box whose board is the position turned or mirrored is
played on the real board turned back (the move is said, so the class plays the same square).

When the game is over it is recorded through the store with the machine's lesson, exactly as a game
on screen teaches the same brain (`Store.record_game(learning=...)`, one transaction), and the
changes come back as boxes and colours: what a screen or the line mode shows (before -> after).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sticks_tui.engine import registry
from sticks_tui.learn.hats import forced
from sticks_tui.learn.machine import Machine, fresh_brain


class PaperRefusal(ValueError):
    """A typed move the game or the machine cannot take; nothing changed."""


@dataclass(frozen=True, slots=True)
class BoxChange:
    """One bead colour of one box, before and after a game's lesson."""

    box: int
    colour: str
    move_words: str
    before: int
    after: int

    def __str__(self) -> str:
        return f"box {self.box} {self.colour}: {self.before}→{self.after}"


class PaperGame:
    """One game of brain `name`'s paper machine against a person (or the class), from the start.

    A name no brain has yet, with its `game`, plays the new brain `brain print` printed for it, kept with
    its first game.

    `machine_seat`: which side the machine plays (0 moves first) when the brain keeps both sides'
    containers (sticks, Nim); a one-seat brain (MENACE: X) plays its own seat. `start`: the position
    the game starts from (the app's setup: 20 sticks on a brain of 100 hats); None: the rules' first.
    """

    def __init__(self, store, name: str, *, game: str | None = None, machine_seat: int = 0,
                 players: tuple[str, str] = ("Class", "Paper machine"), start=None) -> None:
        brain = store.load_brain(name, game)
        self.new = None  # a new brain, kept with the first game it plays
        if brain is None:  # the new brain `brain print` printed for a new name
            if game is None:
                raise PaperRefusal(f"There is no brain called {name!r}; name its game to start a new one.")
            brain = self.new = fresh_brain(registry.entry(game))
        self.store, self.name = store, name
        self.kind = registry.entry_of(brain.rules)
        self.rules = brain.rules
        self.machine = Machine(brain)
        self.seat = brain.seat if brain.seat is not None else machine_seat
        # `start`: where the game starts (a heap, piles: the app's setup); else the rules' first start
        self.start = self.rules.start_positions()[0] if start is None else start
        if self.rules.is_terminal(self.start):
            raise PaperRefusal(f"A game cannot start where it is over ({self.rules.position_text(self.start)}).")
        self.position = self.start
        self.moves: list = []
        self.drawn: list = []
        self.turn = 0  # the seat to move (0 moved first)
        self.resigned = False
        person, machine = players
        self.players = (machine, person) if self.seat == 0 else (person, machine)

    # -- the state of play ----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.resigned or self.rules.is_terminal(self.position)

    @property
    def machine_to_move(self) -> bool:
        return not self.over and self.turn == self.seat

    def machine_forced(self):
        """The machine's move where it has one legal move (no box, no bead: it just makes it), else None."""
        if self.machine_to_move and forced(self.rules, self.position):
            return tuple(self.rules.legal_moves(self.position))[0]
        return None

    def box_now(self):
        """The printed box for the position now (None where the move is forced)."""
        return self.machine.box_for(self.position)

    # -- moves as typed --------------------------------------------------------------------------------
    def machine_move(self, box_number: int, colour: str):
        """The bead `colour` drawn from box `box_number`: the move it makes on the board as it is."""
        if not self.machine_to_move:
            raise PaperRefusal("It is not the machine's turn.")
        if self.machine_forced() is not None:
            raise PaperRefusal("The machine has one move here: it makes it without a box.")
        try:
            box = self.machine.box(box_number)
            canon = self.machine.move_of_colour(colour)
        except ValueError as exc:
            raise PaperRefusal(str(exc)) from None
        wanted = self.box_now()
        Box, bead = self.machine.words[0].capitalize(), self.machine.words[1]
        if box != wanted:
            raise PaperRefusal(f"{Box} {box.number} is the {Box.lower()} for {self.rules.position_text(box.position)}; "
                               f"this game needs {Box.lower()} {wanted.number}.")
        colour_name = self.machine.colour_of[canon].name
        if canon not in box.moves:
            raise PaperRefusal(f"{Box} {box.number} holds no {colour_name} {bead}: its colours are "
                               f"{', '.join(c.name for c in box.colours)}.")
        brain = self._stored()
        row, column = box.row, box.moves.index(canon)
        held = brain.counts[row, : len(box.moves)]
        if int(held.sum()) == 0 and brain.rule.empty == "resign":
            raise PaperRefusal(f"{Box} {box.number} is empty on screen: the machine resigns (type 'resign').")
        if int(held[column]) == 0 and int(held.sum()) > 0:
            raise PaperRefusal(f"{Box} {box.number} on screen has no {colour_name} {bead} left (its {bead}s: "
                               + ", ".join(f"{c.name} {int(n)}" for c, n in zip(box.colours, held, strict=True))
                               + f"). Draw again; restock the paper {Box.lower()} from `brain print --as-is`.")
        real = dict(brain.find(self.position)[1])[canon]
        self._play(real)
        self.drawn.append((self._before, real))
        return real

    def typed_machine_move(self, text: str):
        """The machine's turn as a class types it: "17 red" (the box, then the bead drawn: its move, made), or
        "resign" (None). A PaperRefusal says why anything else is refused."""
        answer = " ".join(str(text).split())
        if answer.lower() == "resign":
            self.resign()
            return None
        box_word, bead_word = self.machine.words
        number, _, colour = answer.partition(" ")
        try:
            number = int(number)
            if not colour.strip():
                raise ValueError
        except ValueError:
            box = self.box_now()
            example = f"{box.number} {box.colours[0].name}" if box is not None else f"1 {self.machine.boxes[0].colours[0].name}"
            raise PaperRefusal(f"Type the {box_word}'s number, then the {bead_word}'s colour "
                               f"(e.g. '{example}'), not {answer!r}.") from None
        return self.machine_move(number, colour)

    def resign(self) -> None:
        """The machine resigns: only when its box on screen is empty and its rule says an empty box resigns."""
        if not self.machine_to_move:
            raise PaperRefusal("It is not the machine's turn.")
        box = self.box_now()
        brain = self._stored()
        if box is None or brain.rule.empty != "resign" or int(brain.counts[box.row, : len(box.moves)].sum()) > 0:
            box_word, bead = self.machine.words
            raise PaperRefusal(f"The machine resigns only when its {box_word} is empty (and its rule says an empty "
                               f"{box_word} resigns); draw a {bead}.")
        self.resigned = True

    def forced_move(self):
        move = self.machine_forced()
        if move is None:
            raise PaperRefusal("The machine has a box to draw from here.")
        self._play(move)
        return move

    def other_move(self, text):
        """The other side's move as typed (as the game writes it: sticks '2', noughts '5', Nim '2:3')."""
        if self.over or self.turn == self.seat:
            raise PaperRefusal("It is the machine's turn." if not self.over else "The game is over.")
        value = text
        if isinstance(text, str):
            try:
                value = json.loads(text)
            except ValueError:
                value = text.strip()
        try:
            move = self.rules.decode_move(self.position, self.kind.parse_move(value))
        except ValueError as exc:
            raise PaperRefusal(str(exc)) from None
        self._play(move)
        return move

    def _play(self, move) -> None:
        self._before = self.position
        self.moves.append(move)
        self.position = self.rules.apply(self.position, move)
        self.turn = 1 - self.turn

    def _stored(self):
        brain = self.store.load_brain(self.name, self.kind.name)
        if brain is None and self.new is not None:
            return self.new
        if brain is None:
            raise PaperRefusal(f"The brain {self.name!r} is no longer kept (deleted meanwhile?).")
        return brain

    # -- the end ---------------------------------------------------------------------------------------
    @property
    def loser(self) -> int | None:
        if self.resigned:
            return self.seat
        result = self.rules.outcome(self.position)
        last = 1 - self.turn
        return None if result == 0 else (1 - last if result > 0 else last)

    def finish(self) -> tuple[int, tuple[BoxChange, ...]]:
        """Record the finished game with the machine's lesson; (its id, the boxes it changed)."""
        if not self.over:
            raise PaperRefusal("The game is not over yet.")
        if self.new is not None and self.store.load_brain(self.name, self.kind.name) is None:
            self.store.save_brain(self.name, self.new)
        recorded = self.store.record_game(
            game=self.kind.name, start=self.kind.record_start(self.start), opponent="paper",
            players=self.players, moves=[self.kind.record_move(self.rules, m) for m in self.moves],
            loser=self.loser, brain=self.name, ai_seats=(self.seat,), first=0, resigned=self.resigned,
            learning={self.seat: (self.name, list(self.drawn))})
        brain = recorded.brains.get(self.seat)
        out = []
        for change in recorded.changes.get(self.seat, ()):
            box = self.machine.box_for(change.hat)
            canon = box.moves[brain.column(change.hat, change.ball)]
            out.append(BoxChange(box.number, self.machine.colour_of[canon].name,
                                 self.machine.move_words[canon], change.before, change.after))
        return int(recorded), tuple(out)
