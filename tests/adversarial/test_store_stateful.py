"""A stateful sweep of the store: two connections to one database file, and brains imported,
copied, renamed, reset, deleted and taught by games in random order, with a full disk now and
then. After every step:
- brain names are unique by their key (NFKC, casefold), and match what the model expects;
- every count is within the floor of its rule (and under the cap), no hat is empty;
- each brain is the sum of its games: its generation's base plus its games' learning, in order;
- both connections see the same brains.
Default example counts are small; HYPOTHESIS_PROFILE=nightly runs a long sweep.
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from sticks_tui.learn.hats import MAX_COUNT, HatRule, Hats
from sticks_tui.store import Store, StoreError, name_key
from sticks_tui.store.brainfile import encode

NIGHTLY = os.environ.get("HYPOTHESIS_PROFILE") == "nightly"
NAMES = ["Straße", "STRASSE", "Émile", "émile", "Øre", "øre", "σίσυφος", "ΣΊΣΥΦΟΣ", "kid"]
names = st.sampled_from(NAMES)
seats = st.sampled_from([0, 1])
rules = st.sampled_from([HatRule(), HatRule(floor="nonempty"), HatRule(2, 1, 3, "nonempty"), HatRule(1, 2, 1)])


def play(hats: Hats, heap: int, rng: random.Random):
    """The hats (seat 1) against random moves; (moves, loser, drawn)."""
    moves, drawn, seat = [], [], 0
    while heap:
        if seat == 1:
            take = hats.draw(heap, rng)
            drawn.append((heap, take))
        else:
            take = rng.randint(1, min(3, heap))
        moves.append(take)
        heap -= take
        seat = 1 - seat
    return moves, 1 - seat, drawn


class StoreMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="sticks-stateful-"))
        self.stores = [Store.open(self.dir), Store.open(self.dir)]
        self.model: dict[str, str] = {}  # key -> name as typed
        self.files = 0

    def teardown(self) -> None:
        for s in self.stores:
            s.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def brain_file(self, rule: HatRule, seed: int) -> Path:
        rng = random.Random(seed)
        hats = Hats(10, 3, rule)
        for n in range(1, 11):
            for b in range(min(3, n)):
                hats.counts[n, b] = rng.randint(1, 9)
        self.files += 1
        path = self.dir / f"brain{self.files}.json"
        path.write_text(encode("from file", hats, 5, "2025-01-01T00:00:00+00:00"), encoding="utf-8")
        return path

    @rule(s=seats, name=names, replace=st.booleans(), rule_=rules, seed=st.integers(0, 1000))
    def import_brain(self, s, name, replace, rule_, seed):
        path = self.brain_file(rule_, seed)
        refused = name_key(name) in self.model and not replace  # the one reason to refuse
        try:
            self.stores[s].import_brain(path, name, replace=replace)
        except StoreError as exc:
            assert refused and "already exists" in str(exc)
            return
        assert not refused
        self.model[name_key(name)] = name

    @rule(s=seats, src=names, dst=names)
    def copy(self, s, src, dst):
        possible = name_key(src) in self.model and name_key(dst) not in self.model
        try:
            self.stores[s].copy_brain(src, dst)
        except StoreError:
            assert not possible
            return
        assert possible
        self.model[name_key(dst)] = dst

    @rule(s=seats, old=names, new=names)
    def rename(self, s, old, new):
        ok = name_key(old) in self.model and (name_key(new) == name_key(old) or name_key(new) not in self.model)
        try:
            self.stores[s].rename_brain(old, new)
        except StoreError:
            assert not ok
            return
        assert ok
        del self.model[name_key(old)]
        self.model[name_key(new)] = new

    @rule(s=seats, name=names)
    def reset(self, s, name):
        try:
            self.stores[s].reset_brain(name)
        except StoreError:
            assert name_key(name) not in self.model
            return
        assert name_key(name) in self.model

    @rule(s=seats, name=names)
    def delete(self, s, name):
        try:
            self.stores[s].delete_brain(name)
        except StoreError:
            assert name_key(name) not in self.model
            return
        del self.model[name_key(name)]

    @rule(s=seats, name=names, heap=st.integers(1, 10), seed=st.integers(0, 10**6), games=st.integers(1, 3))
    def record(self, s, name, heap, seed, games):
        store = self.stores[s]
        if name_key(name) not in self.model:
            return
        rng = random.Random(seed)
        brain = store.load_brain(name)
        for _ in range(games):
            moves, loser, drawn = play(brain, heap, rng)
            got = store.record_game(game="sticks", start=heap, opponent="learning", players=("Kid", "AI"),
                                    moves=moves, loser=loser, brain=name, learning={1: (name, drawn)})
            brain = got.brains[1]
            assert brain == store.load_brain(name)

    @rule(s=seats, name=names)
    def write_to_a_full_disk(self, s, name):
        store = self.stores[s]
        conn = store._conn
        before = self.snapshot()
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
        try:
            big = Hats(1000)
            big.counts[1:, 0] = 10**12  # far more pages than the file holds free
            try:
                store.save_brain(name, big)
                assert free > 20, "a write that needs new pages succeeded on a full disk"
                self.model[name_key(name)] = self.model.get(name_key(name), name)
                return
            except StoreError as exc:
                assert "disk is full" in str(exc)
        finally:
            conn.execute("PRAGMA max_page_count = 1073741823")
        assert self.snapshot() == before  # the failed write changed nothing

    def snapshot(self):
        s = self.stores[0]
        return ([(b.name, b.games_trained) for b in s.list_brains()],
                {b.name: s.load_brain(b.name).counts.tobytes() for b in s.list_brains()}, s.game_count())

    @invariant()
    def names_are_unique_by_key_and_as_modelled(self):
        for s in self.stores:
            listed = s.list_brains()
            keys = [name_key(b.name) for b in listed]
            assert len(keys) == len(set(keys))
            assert {name_key(b.name): b.name for b in listed} == self.model

    @invariant()
    def counts_within_the_floor_and_the_cap_and_each_brain_is_the_sum_of_its_games(self):
        a, b = self.stores
        for info in a.list_brains():
            brain = a.load_brain(info.name)
            assert brain == b.load_brain(info.name)
            counts = brain.counts
            for n in range(1, brain.size + 1):
                legal = counts[n, : min(brain.max_take, n)]
                assert (legal <= MAX_COUNT).all() and legal.sum() > 0
                if brain.rule.floor == "each":
                    assert (legal >= 1).all()
                else:
                    assert (legal >= 0).all()
            rebuilt = a.rebuild_brain(info.name)
            assert np.array_equal(rebuilt.counts, counts)


StoreMachine.TestCase.settings = settings(
    max_examples=300 if NIGHTLY else 10, stateful_step_count=50 if NIGHTLY else 10, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
TestStoreStateful = StoreMachine.TestCase
