"""Players share one protocol: `choose(state) -> move`, and `game_over(won)` for learners.

Every player here works for any game of the game protocol (`engine.protocol`): a state in play has
`.position`, `.legal_moves` and `.rules`; a move is whatever the game's moves are (a number of
sticks, a (pile, coins) tuple). A human is just another player whose move arrives from outside
(`is_human` tells the driver to wait).
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from sticks_tui.engine.events import BallDrawn, EventBus, HatChange, HatsReinforced
from sticks_tui.engine.state import GameState
from sticks_tui.solve import solver_for


class _Resign:
    """What a player's `choose` answers to resign (`play.game.GameDriver` ends the game, lost for it)."""

    def __repr__(self) -> str:
        return "RESIGN"


RESIGN = _Resign()


@runtime_checkable
class Player(Protocol):
    name: str
    is_human: bool

    def choose(self, state: GameState) -> int: ...

    def game_over(self, won: bool, outcome: int | None = None) -> None: ...


class BasePlayer:
    is_human = False
    kind = "player"
    description = ""

    def __init__(self, name: str) -> None:
        self.name = name
        self.seat = 0  # set by the game driver

    def choose(self, state: GameState) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def game_over(self, won: bool, outcome: int | None = None) -> None:
        """Told the result of every game (`outcome`: +1 a win, 0 a draw, -1 a loss); only learners use it."""


class HumanPlayer(BasePlayer):
    """A person: the driver waits for their move instead of asking `choose`."""

    is_human = True
    kind = "human"
    description = "a person at this keyboard"

    def choose(self, state: GameState) -> int:
        raise RuntimeError("A human's move comes from the keyboard or the mouse, not from choose().")


class AlwaysOnePlayer(BasePlayer):
    """Seed 000's very dumb AI: always removes one stick."""

    kind = "dumb"
    description = "always takes 1"

    def choose(self, state: GameState) -> int:
        return state.legal_moves[0]  # sticks: take 1


class RandomPlayer(BasePlayer):
    """Seed 001's StupidAI: a random legal move, every legal move equally likely."""

    kind = "random"
    description = "takes a random legal move"

    def __init__(self, name: str, rng: random.Random | None = None) -> None:
        super().__init__(name)
        self.rng = rng or random.Random()

    def choose(self, state):
        moves = state.legal_moves
        return moves[self.rng.randrange(len(moves))]


class PerfectPlayer(BasePlayer):
    """Plays the game's exact solution (`solve.solver_for`); in a lost position, the solver's
    stalling move (sticks: take 1; Nim: one coin from the largest pile)."""

    kind = "perfect"
    description = "plays the exact solution"

    def __init__(self, name: str) -> None:
        super().__init__(name)

    def choose(self, state):
        return solver_for(state.rules).perfect_move(state.position)


class HatPlayer(BasePlayer):
    """The learning AI: draws a ball from the hat for the current position, learns from the result.

    `hats` is a `learn.hats.Hats` brain for the game played. Balls drawn during a game are "set
    beside the hats" (`beside`); `game_over` applies the rule. Events: `BallDrawn(hat=position,
    ball=move, counts=that hat's counts in legal-move order)` and `HatsReinforced`.
    """

    kind = "learning"
    description = "learns from every game (the hats)"

    def __init__(self, name: str, hats, rng=None, bus: EventBus | None = None, learn: bool = True) -> None:
        super().__init__(name)
        self.hats = hats
        self.rng = rng or random.Random()
        self.bus = bus
        self.learn = learn
        self.beside: list[tuple] = []

    def choose(self, state):
        problem = self.hats.cannot_play(state)
        if problem:
            raise ValueError(problem)
        hat = state.position
        counts = self.hats.hat(hat)
        ball = self.hats.draw(hat, self.rng)
        self.beside.append((hat, ball))
        if self.bus is not None:
            self.bus.publish(BallDrawn(self.seat, self.name, hat, ball, counts))
        return ball

    def game_over(self, won: bool, outcome: int | None = None) -> None:
        drawn, self.beside = self.beside, []
        if not self.learn:
            return
        outcome = outcome if outcome is not None else 1 if won else -1
        changes = self.hats.reinforce(drawn, outcome=outcome)
        if self.bus is not None:
            self.bus.publish(HatsReinforced(self.seat, self.name, won, changes, outcome))

    def forget_game(self) -> None:
        """Drop the balls set beside the hats without learning (a game abandoned half way)."""
        self.beside = []


class MenacePlayer(HatPlayer):
    """MENACE's matchboxes (`learn.menace.MenaceBrain`) as a player of the protocol, until its boxes are the
    one counts learner's (issue 31): a bead drawn from the box for the board (none where the move is
    forced), RESIGN when that box is empty and the brain's rule resigns, each bead drawn taught by the
    game's outcome. Its events are the hat learner's, in the game's own terms: `BallDrawn(hat=board,
    ball=square, counts=the beads for each empty square)`, `HatsReinforced` with a `HatChange(board,
    square, before, after)` for each bead."""

    def choose(self, state):
        board = state.position
        square, bead = self.hats.choose(board, self.rng)
        if square == 0:  # learn.menace.RESIGN: an empty box resigns
            return RESIGN
        if bead is not None:
            beads = self.hats.square_beads(board)
            self.beside.append((board, square, bead))
            if self.bus is not None:
                self.bus.publish(BallDrawn(self.seat, self.name, board, square,
                                           tuple(beads[s - 1] for s in state.legal_moves)))
        return square

    def game_over(self, won: bool, outcome: int | None = None) -> None:
        drawn, self.beside = self.beside, []
        if not self.learn:
            return
        outcome = outcome if outcome is not None else 1 if won else -1
        before = [int(self.hats.counts[row, col]) for _, _, (row, col) in drawn]
        self.hats.reinforce([bead for _, _, bead in drawn], outcome)
        changes = tuple(HatChange(board, square, was, int(self.hats.counts[row, col]))
                        for (board, square, (row, col)), was in zip(drawn, before, strict=True))
        if self.bus is not None:
            self.bus.publish(HatsReinforced(self.seat, self.name, won, changes, outcome))

    @property
    def drawn(self) -> list[tuple]:
        """(board, square) of each bead drawn this game so far."""
        return [(board, square) for board, square, _ in self.beside]
