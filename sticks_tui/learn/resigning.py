"""How often a training run leaves the learner resigning for good (issue 33 item 1), measured by the
one compiled loop (`learn.kernel.play_games`), never guessed.

Under the floor 'none' with `empty='resign'` (Michie's MENACE) a container may run out of tokens, and
an empty container resigns the game. When a container the learner faces at its first move empties,
no token is ever drawn from it again, so it never fills again: the learner resigns every game that
reaches it, for good. Against the perfect player that is the headline failure of MENACE's default
run ("its first box is empty: it resigns every game").

`emptied_runs(brain, rules, opponent, games, seeds)` plays the run once per seed, each from a fresh
copy of `brain` (the same rule, seat and folding), and counts the seeds that end with one of the
learner's first containers empty. The train dialog runs it on 20 fixed seeds before a run
(`TRIAL_SEEDS`, at most `TRIAL_GAMES` games each); `benchmarks/bench_menace_beads.py` runs it on
held-out seeds to choose MENACE's default start beads. A rule that cannot resign (a floor, or
`empty='refill'`) empties nothing for good: 0, with nothing played.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: The dialog's trial: this many seeds (fixed, so the warning is the same every time the same run is asked)
#: of the run asked for, at most TRIAL_GAMES games each (a first box empties early, if at all: a run of a
#: million games is judged by its first TRIAL_GAMES).
TRIAL_SEEDS = tuple(range(1, 21))
TRIAL_GAMES = 20_000
#: The opponents a trial plays, by the trainer's names (`learn.trainer.OPPONENTS`).
OPPONENT_CODES = ("self", "random", "best-at-random")


@dataclass(frozen=True)
class Emptied:
    """Of `seeds` runs of `games` games each, `runs` ended with a first container empty (resigning for good)."""

    runs: int
    seeds: int
    games: int

    @property
    def share(self) -> float:
        return self.runs / self.seeds if self.seeds else 0.0

    @property
    def likely(self) -> bool:
        """More than 1 run in 20: what MENACE's default start beads must stay under (issue 33)."""
        return self.runs * 20 > self.seeds


def first_positions(rules, brain, starts, a_seats) -> tuple:
    """The positions where the learner makes its first move of a game from `starts` (in `a_seats`) and
    draws from a container (not a forced move): the start when it moves first, the positions after each
    first move of the other player when it moves second."""
    from sticks_tui.learn.hats import forced

    found = []
    for start in starts:
        if rules.is_terminal(start):
            continue
        if 0 in a_seats:
            found.append(start)
        if 1 in a_seats:
            for move in rules.legal_moves(start):
                after = rules.apply(start, move)
                if not rules.is_terminal(after):
                    found.append(after)
    return tuple(dict.fromkeys(p for p in found if not forced(rules, p) and brain.has_hat(p)))


#: How many times the start tokens at its first move a trial tries beside the run asked for, when that run
#: empties a first container: whether more of them are the remedy the warning offers (Michie's 4,3,2,1 with 16
#: at the first move is rare; against the perfect X, MENACE as O empties one of its first boxes in every run
#: even with 40, 20, 10, 5 beads: there they are not).
MORE_TOKENS = 4


def with_more_tokens(rule, times: int = MORE_TOKENS):
    """`rule` with `times` as many start tokens at the learner's first move (at most the rule's limit); a rule
    of one start number for every move: at every move."""
    from dataclasses import replace

    from sticks_tui.learn.hats import RULE_LIMITS

    high = RULE_LIMITS["start_balls"][1]
    start = rule.start_balls
    more = (min(high, start[0] * times), *start[1:]) if isinstance(start, tuple) else min(high, start * times)
    return replace(rule, start_balls=more)


def can_resign(rule) -> bool:
    return rule.floor == "none" and rule.empty == "resign"


def emptied_runs(brain, rules, opponent: str, games: int, seeds, *, protocol: str = "classic",
                 seats: str = "first") -> Emptied:
    """Of the runs of `games` games of a fresh copy of `brain` against `opponent` ('self', 'random',
    'best-at-random'), one per seed of `seeds`, how many end with one of the learner's first containers
    empty (see the module's words). `protocol` and `seats` as `learn.trainer.TrainingConfig`'s."""
    from sticks_tui.learn import compiled
    from sticks_tui.learn.rng import XorShift64Star
    from sticks_tui.learn.tables import game_tables, lay_out
    from sticks_tui.learn.trainer import TrainingConfig, seat_code, sparring_brain, start_positions

    seeds = tuple(seeds)
    if opponent not in OPPONENT_CODES:
        raise ValueError(f"The opponent is one of {', '.join(OPPONENT_CODES)}, not {opponent!r}.")
    if not can_resign(brain.rule) or games <= 0:
        return Emptied(0, len(seeds), games)
    problem = compiled.load()
    if problem is not None:
        raise RuntimeError(problem)
    k = compiled.kernel()
    config = TrainingConfig(game=rules, games=games, protocol=protocol, seats=seats, curve=False)
    starts = start_positions(config)
    a_seats = config.a_seats
    fresh_a = brain.fresh()
    fresh_b = sparring_brain(rules, fresh_a) if opponent == "self" else None
    match = lay_out(game_tables(rules), fresh_a, fresh_b, starts, a_seats)
    code = {"self": k.SELF, "random": k.RANDOM, "best-at-random": k.BEST_AT_RANDOM}[opponent]
    rule_a = k.compile_rule(fresh_a.rule)
    rule_b = k.compile_rule(fresh_b.rule if fresh_b is not None else fresh_a.rule)
    rows = [fresh_a.row(p) for p in first_positions(rules, fresh_a, starts, a_seats)]
    none, watch = np.zeros((1, 1), dtype=np.int64), k.Watch.none()
    emptied = 0
    for seed in seeds:
        counts_a = fresh_a.counts.copy()
        counts_b = fresh_b.counts.copy() if fresh_b is not None else none
        run = k.RunState.new(XorShift64Star(seed).state, match)
        k.play_games(counts_a, counts_b, match, rule_a, rule_b, code, seat_code(k, seats), games, 0, run, False, watch)
        if any(int(counts_a[row].sum()) == 0 for row in rows):
            emptied += 1
    return Emptied(emptied, len(seeds), games)
