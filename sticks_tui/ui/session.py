"""What a game needs from setup, and how the players for it are made. No rules decided here."""

from __future__ import annotations

import random
from dataclasses import dataclass

from sticks_tui.engine.players import (
    AlwaysOnePlayer,
    HatPlayer,
    HumanPlayer,
    PerfectPlayer,
    RandomPlayer,
)

OPPONENTS: dict[str, str] = {
    "friend": "a friend (same keyboard)",
    "dumb": "the dumb AI (always takes 1)",
    "random": "the random AI",
    "learning": "the learning AI (the hats)",
    "trained": "the trained AI (100,000 games first)",
    "perfect": "the perfect AI (the solver)",
}
AI_NAMES: dict[str, str] = {
    "dumb": "Dumb AI",
    "random": "Random AI",
    "learning": "Learning AI",
    "trained": "Trained AI",
    "perfect": "Perfect AI",
}
FIRST_CHOICES: dict[str, str] = {
    "p1": "Player 1",
    "p2": "Player 2",
    "alternate": "take turns each game",
    "random": "random each game",
}
SPEEDS: dict[str, float] = {"slow": 1.2, "normal": 0.6, "fast": 0.2, "instant": 0.0}
DEFAULT_SPEED = "normal"
TRAINED_AI_GAMES = 100_000


@dataclass(frozen=True)
class MatchSetup:
    game: str = "sticks"  # or "nim"
    piles: tuple[int, int, int] = (3, 4, 5)  # Nim's nickels, dimes, quarters
    heap: int = 20
    opponent: str = "learning"
    name1: str = "Player 1"
    name2: str = "Player 2"
    first: str = "p1"
    watch: bool = False
    speed: str = DEFAULT_SPEED

    @property
    def delay(self) -> float:
        return SPEEDS.get(self.speed, SPEEDS[DEFAULT_SPEED])

    def first_mover(self, round_number: int, rng: random.Random) -> int:
        if self.first == "p2":
            return 1
        if self.first == "alternate":
            return round_number % 2
        if self.first == "random":
            return rng.randrange(2)
        return 0


def make_opponent(kind: str, name: str, *, brain=None, rng: random.Random, bus=None):
    if kind == "friend":
        return HumanPlayer(name)
    if kind == "dumb":
        return AlwaysOnePlayer(name)
    if kind == "random":
        return RandomPlayer(name, rng)
    if kind == "perfect":
        return PerfectPlayer(name)
    if kind in ("learning", "trained"):
        if brain is None:
            raise ValueError(f"The {AI_NAMES[kind].lower()} needs a brain.")
        player = HatPlayer(name, brain, rng, bus)
        player.kind = kind
        return player
    raise ValueError(f"There is no opponent called {kind!r}.")
