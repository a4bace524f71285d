"""Players share one protocol: `choose(state) -> move`, and `game_over(won)` for learners.

Every player here works for any game of the game protocol (`engine.protocol`): a state in play has
`.position`, `.legal_moves` and `.rules`; a move is whatever the game's moves are (a number of
sticks, a (pile, coins) tuple). A human is just another player whose move arrives from outside
(`is_human` tells the driver to wait).
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from sticks_tui.engine.events import BallDrawn, EventBus, HatsReinforced
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

    `hats` is a `learn.hats.Hats` brain for the game played (every game's: the hats, MENACE's matchboxes).
    Balls drawn during a game are "set beside the hats" (`beside`); `game_over` applies the rule. A forced
    move (one legal move) is made without a draw and teaches nothing; an empty container whose rule
    resigns answers `RESIGN`. Events: `BallDrawn(hat=position, ball=move, counts=that container's tokens
    for each legal move, in legal-move order; 0 for a move alike to a counted one by a symmetry of the
    position)` and `HatsReinforced`.
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
        from sticks_tui.learn.hats import RESIGN as EMPTY, forced

        problem = self.hats.cannot_play(state)
        if problem:
            raise ValueError(problem)
        position = state.position
        if forced(state.rules, position):
            return state.legal_moves[0]
        row, pairs = self.hats.find(position)
        by_move = {move: int(self.hats.counts[row, column]) for column, (_, move) in enumerate(pairs)}
        counts = tuple(by_move.get(move, 0) for move in state.legal_moves)
        ball = self.hats.draw(position, self.rng)
        if ball is EMPTY:
            return RESIGN
        if sum(counts) == 0:  # refilled to draw: the tokens it drew from
            by_move = {move: int(self.hats.counts[row, column]) for column, (_, move) in enumerate(pairs)}
            counts = tuple(by_move.get(move, 0) for move in state.legal_moves)
        self.beside.append((position, ball))
        if self.bus is not None:
            self.bus.publish(BallDrawn(self.seat, self.name, position, ball, counts))
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

    @property
    def drawn(self) -> list[tuple]:
        """(position, move) of each ball drawn this game so far."""
        return list(self.beside)
