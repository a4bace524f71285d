"""The app's words and numbers, below the UI: who a game can be played against, the names the AIs
play under, the choices of a setup and their defaults and ranges. The screens, the settings file,
the store's name rule and the console game read them here; what differs by game is in each game's
registry entry (`engine.registry`: its opponents, its AIs' names, its default opponent).
"""

from __future__ import annotations

from sticks_tui.engine import registry
from sticks_tui.engine.nim import LEARNER_BOX, MAX_PILE
# the stored brain of the learning AI for Nim on piles up to a box: one brain per box size
from sticks_tui.engine.nim import brain_name as nim_brain_name
from sticks_tui.engine.rules import MAX_HEAP, MIN_HEAP

#: How training games start: the one list (the trainer, the lab, the settings file, the command line and the
#: training dialog read it).
TRAINING_PROTOCOLS: dict[str, str] = {
    "explore": "every game starts from a random position of the game (sticks: a random heap between 2 and N), "
               "so every hat keeps being visited",
    "classic": "every game starts from the game's start position (sticks: the full heap), as in the seeds",
}
#: Who moves first.
FIRST_CHOICES: dict[str, str] = {
    "p1": "Player 1",
    "p2": "Player 2",
    "alternate": "take turns each game",
    "random": "random each game",
}
#: The AI's pace in a game: seconds a move.
SPEEDS: dict[str, float] = {"slow": 1.2, "normal": 0.6, "fast": 0.2, "instant": 0.0}
DEFAULT_SPEED = "normal"
#: Opponent kinds in which both seats are people; any other kind puts an AI in seat 2 by default.
HUMAN_OPPONENTS = ("friend", "human")
#: Watching AI vs AI, the second AI plays under its name with this suffix ("Learning AI 2").
SECOND_AI_SUFFIX = " 2"
#: The learning AI's hats, as the setup screen offers them: each a brain of its own, so trying the
#: MENACE-like rule never resets the seeds' brain.
DEFAULT_BRAIN = registry.entry(registry.first_name()).ai_brain()
HAT_BRAINS: dict[str, str] = {"seeds": DEFAULT_BRAIN, "menace": "menace"}
HAT_CHOICES: dict[str, str] = {"seeds": "the seeds' rule: 1 ball each, win +1, loss -1",
                               "menace": "MENACE-like: 3 balls each, win +3, loss -1"}
#: MENACE's brains for noughts and crosses, by whose boxes they are (X's, and O's second brain): their
#: own names, apart from the sticks AI's MENACE-like hats ("menace").
NOUGHTS_GAME = "noughts"
NOUGHTS_BRAINS: dict[str, str] = dict(zip(("X", "O"), registry.entry(NOUGHTS_GAME).ai_brains))
#: The trained AI plays this many games against another learner before it plays you.
TRAINED_AI_GAMES = 100_000
#: A sticks brain as the app makes it: one hat for every heap the app offers.
APP_BRAIN_SIZE = MAX_HEAP
#: The learning AI for Nim knows piles of up to 7 coins each, and trains by this many games of self-play.
NIM_LEARNER_BOX = LEARNER_BOX
NIM_TRAIN_GAMES = 500_000
#: The ranges a setup offers (seed 000: a heap "between 10 and 100"; Nim's piles 1 to 100 coins).
HEAP_RANGE = (MIN_HEAP, MAX_HEAP)
PILE_RANGE = (1, MAX_PILE)


def opponents(game: str) -> dict[str, str]:
    """The opponents a game of `game` offers, kind -> words."""
    return registry.entry(game).opponents


def ai_names(game: str) -> dict[str, str]:
    """The names `game`'s AIs play under, kind -> name."""
    return registry.entry(game).ai_names


def every_opponent() -> tuple[str, ...]:
    """Every opponent kind of every game, in the order the games list them."""
    kinds: list[str] = []
    for game in registry.names():
        kinds.extend(k for k in registry.entry(game).opponents if k not in kinds)
    return tuple(kinds)


def every_ai_name() -> tuple[str, ...]:
    """Every name an AI of the app plays under, as the app writes it (a second AI's too)."""
    names: list[str] = []
    for game in registry.names():
        names.extend(registry.entry(game).ai_names.values())
    watched = [n for game in registry.names() if registry.entry(game).watchable
               for n in registry.entry(game).ai_names.values()]  # two of them play each other, watched
    return (*names, *(n + SECOND_AI_SUFFIX for n in watched))
