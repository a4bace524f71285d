"""Games of the Nim learner against a random player, recorded as the app records them: shared by
test_store_nim.py and the processes it starts (which import this, not the test module, so they do
not pay for importing pytest)."""

from __future__ import annotations

import random

from sticks_tui.engine.nim import nim_after
from sticks_tui.learn.hats import Hats
from sticks_tui.vocabulary import NIM_LEARNER_BOX, nim_brain_name

NAME = nim_brain_name(NIM_LEARNER_BOX)


def play_nim(hats: Hats, piles, rng: random.Random, ai_seat: int = 1):
    """A game of the hats (seat `ai_seat`) against a random player: (moves "pile:coins", loser, drawn)."""
    moves, drawn, seat = [], [], 0
    piles = tuple(piles)
    while sum(piles):
        if seat == ai_seat:
            move = hats.draw(piles, rng)
            drawn.append((piles, move))
        else:
            move = rng.choice(hats.moves_of(piles))
        moves.append(f"{move[0] + 1}:{move[1]}")
        piles = nim_after(piles, move)
        seat = 1 - seat
    return moves, seat, drawn  # whoever moved last (1 - seat) took the last coin and won


def record(store, moves, loser, drawn, start=(3, 4, 5), name=NAME):
    return store.record_game(game="nim", start=start, opponent="learning", players=("Ann", "Nim AI"),
                             moves=moves, loser=loser, brain=name, learning={1: (name, drawn)})
