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
from sticks_tui.engine.errors import IllegalMove
from sticks_tui.engine.rules import DEFAULT_MAX_TAKE, MAX_HEAP, MIN_HEAP, legal_moves, new_game
from sticks_tui.engine.state import GameState, Turn

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
    "MoveMade",
    "TrainingProgress",
    "Turn",
    "legal_moves",
    "new_game",
]
