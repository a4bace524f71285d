"""The line mode of any game (`sticks-tui play --game G`), for plain terminals and pipes.

The Game of Sticks has its own line mode, the seeds' console game (`sticks_tui.classic`, named by its
registry entry's `line_mode`); every other game is played here, in its own words (the rules'
`position_text` and `move_text`):

    Welcome to Hexapawn!
    Options:
     Play against HER, the learning AI (Gardner's matchboxes) (1)
     ...
    Which option do you take (1-4)? 1

    B B B / . . . / W W W (White to move)
     1: White a1 to a2   2: White b1 to b2   3: White c1 to c2
    Player 1: Which move do you take (1-3)? 2

    B B B / . W . / W . W (Black to move)
    HER plays Black a3 takes b2.
    ...
    HER wins.
    HER's boxes drawn from this game (beads per move, after its lesson):
      B B B / . W . / W . W (Black to move)  {Black a3 takes b2: 2, Black b3 ...}
    Play again (y/n)?

Decisions, as the classic game's: the person is Player 1 and moves first unless `ai_first`; a move is
its number in the list, or the move as the game writes it (Hexapawn `a1-a2`); the opponents are a friend,
the game's learning AI (a game of hats: its brain is kept in the store, named `brain`, and learns from
every game through the store), its perfect AI and its random AI, as its registry entry offers them.
Every finished game is recorded; an abandoned one is not. End of input ends the program with status 0,
Ctrl-C with status 130.
"""

from __future__ import annotations

import random
from typing import TextIO

from sticks_tui.classic import AGAIN_PROMPT, EndOfInput, LineConsole
from sticks_tui.engine.state import GameState, new_state
from sticks_tui.learn.machine import plural
from sticks_tui.play.game import GameDriver
from sticks_tui.play.players import HatPlayer, HumanPlayer, PerfectPlayer, RandomPlayer

#: The opponents the line mode can play, in the order a game's entry lists them ("learning": the game's learning AI).
KINDS = ("friend", "learning", "perfect", "random")


def kinds_of(game) -> tuple[str, ...]:
    """The opponents a game offers in the line mode, in its entry's order, as `--opponent` names them: "learning" is
    the game's learning AI whatever its entry calls it (`GameEntry.learning_kind`: MENACE on noughts)."""
    return tuple("learning" if k == game.learning_kind else k for k in game.opponents
                 if k in KINDS or k == game.learning_kind)


def entry_kind(game, kind: str) -> str:
    """The game entry's own name for a line-mode opponent (its records and AI names say it): "learning" is the
    game's learning kind."""
    return game.learning_kind if kind == "learning" and game.learning_kind else kind


class LineGame(LineConsole):
    """A game of `game` (a registry entry) played under `rules` from their start; `run()` returns the exit status."""

    def __init__(self, store, game, rules, *, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 stderr: TextIO | None = None, rng: random.Random | None = None, opponent: str | None = None,
                 ai_first: bool = False, names: tuple[str, str] = ("Player 1", "Player 2"),
                 brain: str | None = None, show_boxes: bool = True, echo: bool | None = None) -> None:
        kinds = kinds_of(game)
        if opponent is not None and opponent not in kinds:
            raise ValueError(f"{game.title} is played here against {', '.join(kinds)}, not {opponent!r}.")
        super().__init__(stdin=stdin, stdout=stdout, stderr=stderr, echo=echo)
        self.store, self.game, self.rules = store, game, rules
        self.rng = rng if rng is not None else random.Random()
        self.opponent, self.ai_first, self.names = opponent, ai_first, names
        #: No brain named: the one the app's learning AI plays the AI's side with (`GameEntry.ai_brains`), so a
        #: class teaches the same brain in the app and here; made as the app makes it (`ai_brain_options`)
        self.own_brain = brain is None
        self.brain_name = game.ai_brain(self.ai_seat) if brain is None else brain
        self.show_boxes = show_boxes
        self.kinds = kinds
        self.hats = None
        self.save_as: str | None = None  # the stored brain the learning AI's lessons go to

    @property
    def ai_seat(self) -> int:
        return 0 if self.ai_first else 1

    def run(self) -> int:
        try:
            for notice in getattr(self.store, "notices", []):
                self.warn(f"sticks-tui: {notice}")
            self.say(f"Welcome to {self.game.title}!")
            kind = self.opponent
            if kind is None:
                self.say("Options:")
                for i, k in enumerate(self.kinds, 1):
                    self.say(f" Play against {self.game.opponents[entry_kind(self.game, k)]} ({i})")
                top = len(self.kinds)
                kind = self.kinds[self.ask_number(f"Which option do you take (1-{top})? ", 1, top,
                                                  f"Please enter a number between 1 and {top}.") - 1]
            if kind == "learning":
                self.prepare_brain()
            while True:
                self.play_one(kind)
                if not self.ask_yes_no(AGAIN_PROMPT):
                    status = 0
                    break
        except EndOfInput:
            self.say()
            status = 0
        except KeyboardInterrupt:
            self.say()
            status = 130
        self.stdout.flush()
        return status

    def prepare_brain(self) -> None:
        """The learning AI's stored brain (made on first use); a fresh one not kept if the store cannot give
        one that plays this game from its start."""
        from sticks_tui.learn.hats import Hats

        self.save_as = self.brain_name
        if self.store is not None:
            # a stored brain of one side's containers (the app's HER: Black's) plays that side
            info = self.try_store(lambda: self.store.brain_info(self.brain_name))
            options = dict(self.game.ai_brain_options(self.ai_seat)) if self.own_brain else {}
            made_for = options.pop("seat", None)  # the app's brain of one side's boxes, made for that side
            seat = info.seat if info is not None and info.game == self.game.name else made_for
            self.hats = self.try_store(lambda: self.store.load_or_create_brain(self.brain_name, game=self.game.name,
                                                                               seat=seat, **options))
            if self.hats is not None and seat is not None and self.ai_first != (seat == 0):
                names = getattr(self.rules, "seat_names", ("the first player", "the second player"))
                self.warn(f"sticks-tui: the brain {self.brain_name!r} keeps {names[seat]}'s boxes only: it plays "
                          f"{names[seat]}, moving {('first', 'second')[seat]}.")
                self.ai_first = seat == 0
        # (asked at the start, where a brain of both sides or of the first mover's moves first)
        moves_at_start = self.hats is not None and self.hats.seat in (None, 0)
        why = self.hats.cannot_play(new_state(self.rules)) if moves_at_start else None
        if why is not None:
            self.warn(f"sticks-tui: the brain {self.brain_name!r} cannot play this game: {why} This game's AI starts "
                      "fresh and is not kept.")
        if self.hats is None or why is not None:
            self.hats, self.save_as = Hats(self.rules), None

    def player(self, kind: str):
        name = self.game.ai_names.get(entry_kind(self.game, kind), "AI")
        if kind == "perfect":
            return PerfectPlayer(name)
        if kind == "random":
            return RandomPlayer(name, self.rng)
        # with a store the brain learns through it (the lesson applied to the brain as stored, then adopted)
        return HatPlayer(name, self.hats, self.rng, learn=self.store is None or self.save_as is None)

    def play_one(self, kind: str) -> GameState:
        rules = self.rules
        people = [HumanPlayer(self.names[0])]
        other = HumanPlayer(self.names[1]) if kind == "friend" else self.player(kind)
        seats = [people[0], other] if kind == "friend" or not self.ai_first else [other, people[0]]
        game = GameDriver(seats, new_state(rules))
        drawn: list = []
        try:
            while not game.is_over:
                position = game.state.position
                self.say()
                self.say(rules.position_text(position))
                if game.waiting_for_human:
                    game.play(self.ask_move(game.current.name, position))
                else:
                    game.step()
                    if game.resigned is not None:  # its container here is empty, and its rule resigns
                        container = self.game.token_words()[0]
                        self.say(f"{seats[game.resigned].name} resigns: its {container} for this "
                                 f"{self.game.position_word} is empty.")
                        break
                    last = game.state.history[-1]
                    if kind == "learning":
                        drawn.append((last.before, last.move))
                    self.say(f"{seats[last.player].name} plays {rules.move_text(last.before, last.move)}.")
        except BaseException:
            game.abandon()  # a half game teaches the AI nothing and is not recorded
            raise
        state = game.state
        if game.resigned is None:
            self.say()
            self.say(rules.position_text(state.position))
        winner = game.winner
        if winner is None:
            self.say("A draw.")
        elif kind != "friend" and seats[winner] is people[0]:
            self.say("You win.")
        else:
            self.say(f"{seats[winner].name} wins.")
        self.keep(kind, state, (seats[0].name, seats[1].name), drawn, game.loser, game.resigned is not None)
        return state

    def ask_move(self, name: str, position):
        """The move the person at the keyboard chooses: its number in the list, or the move as the game writes it."""
        rules = self.rules
        moves = tuple(rules.legal_moves(position))
        self.say("   ".join(f" {i}: {rules.move_text(position, m)}" for i, m in enumerate(moves, 1)))
        top = len(moves)
        while True:
            answer = self.ask(f"{name}: Which move do you take (1-{top})? ")
            if answer.isdigit() and 1 <= int(answer) <= top:
                return moves[int(answer) - 1]
            try:
                return rules.decode_move(position, answer)
            except ValueError:
                self.say(f"Please enter a number between 1 and {top}.")

    def keep(self, kind: str, state: GameState, players: tuple[str, str], drawn: list, loser: int | None,
             resigned: bool) -> None:
        """Record the game; the learning AI's lesson goes to its brain as stored, in the same transaction (if the
        store fails, it learns in memory so the game still teaches it this session); then show its boxes."""
        game, rules = self.game, self.rules
        seat = self.ai_seat
        learning = {seat: (self.save_as, drawn)} if kind == "learning" and self.save_as is not None else None
        recorded = None
        if self.store is not None:
            recorded = self.try_store(lambda: self.store.record_game(
                game=game.name, start=game.record_start(state.start), opponent=entry_kind(game, kind), players=players,
                moves=[game.record_move(rules, t.move) for t in state.history], loser=loser,
                brain=self.save_as if learning else None, ai_seats=() if kind == "friend" else (seat,),
                learning=learning, first=0, resigned=resigned))
        if kind != "learning":
            return
        if learning is not None and recorded is not None and seat in recorded.brains:
            self.hats = recorded.brains[seat]
        elif self.store is not None and learning is not None:  # not kept: it still learns, in memory
            self.hats.reinforce(drawn, outcome=0 if loser is None else -1 if loser == seat else 1)
        if self.show_boxes and drawn:
            name = game.ai_names.get(entry_kind(game, "learning"), "The AI")
            container, token = (plural(w) for w in game.token_words())  # HER's boxes of beads, hats of balls
            self.say(f"{name}'s {container} drawn from this game ({token} per move, after its lesson):")
            for position in dict.fromkeys(p for p, _ in drawn):
                balls = ", ".join(f"{rules.move_text(position, m)}: {c}"
                                  for m, c in zip(self.hats.moves_of(position), self.hats.hat(position), strict=True))
                self.say(f"  {rules.position_text(position)}  {{{balls}}}")
