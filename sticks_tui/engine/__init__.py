"""The rules of the games, the players and the events they publish. Pure Python: no UI here."""

from sticks_tui.engine.events import (
    BallDrawn,
    Event,
    EventBus,
    GameOver,
    HatChange,
    HatsReinforced,
    MoveMade,
    TrainingProgress,
)
from sticks_tui.engine.rules import (
    DEFAULT_MAX_TAKE,
    MAX_HEAP,
    MIN_HEAP,
    GameState,
    IllegalMove,
    Move,
    legal_moves,
    new_game,
)

__all__ = [
    "DEFAULT_MAX_TAKE",
    "MAX_HEAP",
    "MIN_HEAP",
    "BallDrawn",
    "Event",
    "EventBus",
    "GameOver",
    "GameState",
    "HatChange",
    "HatsReinforced",
    "IllegalMove",
    "Move",
    "MoveMade",
    "TrainingProgress",
    "legal_moves",
    "new_game",
]
