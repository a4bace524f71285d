"""Named brains (the counts learner's: hats, MENACE's matchboxes) and their training curves.

A brain is kept in one shape for every game (`learn.hats.Hats`): its game (`game`), its layout (the
game's columns `size`, `max_take` and `shape`, `registry.GameEntry.store_columns`; `seat`: 0 or 1 when
it keeps one player's containers only, as MENACE's X and O brains do, else NULL), its counts (one JSON
list a container, as long as its moves, in the layout's row order) and its whole rule (`rule`, JSON:
start tokens, one number or one per move number; win, draw and loss incentives; the floor; what an
empty container does), with the rule's numbers also in the columns a listing reads (`_RULE_COLUMNS`).

The brain is the sum of its games: a game's learning is applied to the brain as stored, in the
same transaction as the game's record (`RecordsMixin.record_game(learning=...)`), and kept in
`game_learning`; a training run merges its net change (`apply_training`). Every whole write
(make, copy, reset, import, save, train) starts a new generation whose `base_counts` plus the
learning of its games, in order, is the brain (`rebuild_brain` checks it).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import chain

import numpy as np

from sticks_tui import vocabulary
from sticks_tui.engine import registry
from sticks_tui.learn.analysis import CurvePoint
from sticks_tui.learn.hats import MAX_COUNT, NEVER_EMPTY, HatRule, Hats, forced
from sticks_tui.learn.merge import merge_net_change
from sticks_tui.store import brainfile
from sticks_tui.store.connection import now, parse_time
from sticks_tui.store.errors import PUPIL_CLASS_BRAINS, StoreError, validate_name, validate_pupil_brain_name
from sticks_tui.store.names import name_key

#: A sticks brain as the app makes it: one hat for every heap the app offers (10-100); `sticks-tui
#: train --brain` makes a new one alike.
APP_BRAIN_SIZE = vocabulary.APP_BRAIN_SIZE
#: A brain's rule in the brains table's columns (what a listing reads), in `HatRule`'s order of fields;
#: the whole rule is the `rule` column's (`rule_json`, `rule_from`).
_RULE_COLUMNS = "start_balls, win_reward, loss_penalty, floor, draw_reward"
#: Every column a brain is read from.
_BRAIN_COLUMNS = f"size, max_take, {_RULE_COLUMNS}, rule, seat"


def rule_json(rule: HatRule) -> str:
    """A brain's whole rule as the `rule` column keeps it."""
    starts = list(rule.starts)
    return json.dumps({"start": starts if len(starts) > 1 else starts[0], "win": rule.win_reward,
                       "draw": rule.draw_reward, "loss": rule.loss_penalty, "floor": rule.floor,
                       "empty": rule.empty}, separators=(",", ":"))


def rule_from(text: str | None, start_balls=1, win_reward=1, loss_penalty=1, floor="each", draw_reward=0) -> HatRule:
    """The rule of a stored brain: its `rule` column, or (a row kept before there was one) its columns;
    ValueError (or KeyError, TypeError) when it is not a rule."""
    if not text:
        return HatRule(start_balls, win_reward, loss_penalty, floor, draw_reward)
    raw = json.loads(text)
    start = raw["start"]
    empty = raw.get("empty", NEVER_EMPTY)
    return HatRule(start_balls=tuple(start) if isinstance(start, list) else start, win_reward=raw["win"],
                   loss_penalty=raw["loss"], floor=raw["floor"], draw_reward=raw.get("draw", 0),
                   empty=None if empty == NEVER_EMPTY else empty)


def _rule_of(start_balls, win_reward, loss_penalty, floor, draw_reward, rule=None) -> HatRule:
    return rule_from(rule, start_balls, win_reward, loss_penalty, floor, draw_reward)


def _rule_columns(rule: HatRule) -> tuple:
    """(start_balls, win_reward, loss_penalty, floor, draw_reward) of a rule for the brains table's
    columns: its first start number and its incentives."""
    return rule.starts[0], rule.win_reward, rule.loss_penalty, rule.floor, rule.draw_reward


@dataclass(frozen=True, slots=True)
class BrainInfo:
    name: str
    size: int
    max_take: int
    rule: HatRule
    games_trained: int
    updated: datetime
    created: datetime  # when this brain was made, copied or last reset: its own record counts from here
    game: str
    shape: str | None = None  # its layout as stored (the game's `store_columns`)
    seat: int | None = None  # the one player whose containers it keeps (None: every position's)


def fit_to(brain: Hats, positions) -> Hats:
    """`brain` with a hat for every one of `positions`: where its game's brains grow (sticks: a heap
    bigger than any it has a hat for), new hats (fresh balls) are added and learned ones kept;
    ValueError where they do not."""
    missing = [p for p in positions if not brain.has_hat(p) and not forced(brain.rules, p)]
    if not missing or brain.folds:
        return brain
    kind = registry.entry_of(brain.rules)
    bigger = kind.grown(brain.rules, missing) if kind.grown is not None else None
    if bigger is None:
        raise ValueError(f"The {kind.brain_words[2:]} has no hat for {missing[0]!r}.")
    grown = Hats(bigger, rule=brain.rule, seat=brain.seat)
    for position in brain.positions:
        grown.counts[grown.row(position)] = brain.counts[brain.row(position)]
    return grown


def fit_hats(hats: Hats, size: int) -> Hats:
    """A sticks brain with at least `size` hats (`fit_to` the heap `size`)."""
    return fit_to(hats, [size]) if size >= 1 else hats


def legal_of(brain) -> np.ndarray:
    """Which cells of the brain's counts are balls (the brain's own mask)."""
    return brain.legal_mask


def _validate(brain) -> object:
    if not isinstance(brain, Hats):
        raise TypeError(f"A brain is a Hats object, not {type(brain).__name__}.")
    kind = registry.entry_of(brain.rules)  # a game this sticks-tui knows (ValueError if not)
    if kind.max_hats is not None and not 1 <= len(brain.positions) <= kind.max_hats:  # a brain that grows
        raise StoreError(f"A brain holds 1 to {kind.max_hats} hats, not {len(brain.positions)}.")
    counts = np.asarray(brain.counts)
    if counts.shape != brain.legal_mask.shape or (counts < 0).any() or (counts > MAX_COUNT).any():
        raise StoreError("This brain's counts are damaged (negative, too big, or the wrong shape); it was not saved.")
    return brain


def _encode(brain) -> tuple[str, int, int, str | None, str]:
    """(game, size, max_take, shape, counts JSON) of a brain."""
    kind = registry.entry_of(brain.rules)
    size, max_take, shape = kind.store_columns(brain.rules, brain.counts.shape)
    return kind.name, size, max_take, shape, json.dumps(brain.as_lists(), separators=(",", ":"))


def _decode(size, max_take, rule: HatRule, counts_json: str, game: str, shape: str | None, *,
            base: bool = False, seat: int | None = None):
    """The brain object of a stored row; ValueError/TypeError if the row is not a usable brain.

    `base`: the counts are a generation's base, which a brain that grows may have kept smaller than
    it is now: its later hats start fresh (as they did when a game first reached them)."""
    try:
        kind = registry.entry(game)
    except ValueError:
        raise ValueError(f"it is a brain for {game!r}, a game this sticks-tui does not know") from None
    brain = Hats(kind.stored_rules(size, max_take, shape), rule=rule, seat=seat)
    rows = json.loads(counts_json)
    if not isinstance(rows, list):
        raise ValueError("its counts are not a list of hats")
    grows = base and kind.grown is not None
    if len(rows) > brain.counts.shape[0] or (len(rows) < brain.counts.shape[0] and not grows):
        raise ValueError(f"it has {len(rows) - 1} hats, not {size}")
    if len(rows) == brain.counts.shape[0] and all(type(row) is list for row in rows) \
            and list(map(len, rows)) == list(brain.n_moves):  # as every brain is written (`Hats.as_lists`)
        flat = list(chain.from_iterable(rows))
        if set(map(type, flat)) <= _INT_ONLY and (not flat or 0 <= min(flat) <= max(flat) <= MAX_COUNT):
            brain.counts[brain.legal_mask] = flat  # the legal cells, row by row: each hat's counts in order
            return brain
    for i, (row, n) in enumerate(zip(rows, brain.n_moves, strict=False)):  # ... else which hat is wrong, and why
        # every count a whole number 0..MAX_COUNT: JSON's ints only (a bool, a float, text or null is another
        # type), each row looked at by C loops (type, min, max), not cell by cell in Python: a Nim brain of 512
        # hats decoded in 15 ms that way, and every game a pupil plays against it decodes it (to learn)
        if not isinstance(row, list) or len(row) not in (n, brain.counts.shape[1]) or any(row[n:]) \
                or not set(map(type, row)) <= _INT_ONLY or (row and not 0 <= min(row) <= max(row) <= MAX_COUNT):
            raise ValueError(f"hat {brain._layout.rows[i]} should hold {n} counts, not {row!r}")
        brain.counts[i, : len(row)] = row
    return brain


_INT_ONLY = {int}


def _finite(x: float) -> float | None:
    x = float(x)
    return None if x != x or x in (float("inf"), float("-inf")) else x


#: A kept curve point's values, in order: the first four every sticks-tui wrote; the rest (issue 32: every curve
#: of every game kept whole) its chances not to lose against the perfect player moving first / second (the
#: figure of a game with draws: MENACE's, Hexapawn's), the chance a token drawn is a winning move, and the run's
#: results so far (won, drawn, lost). A point of 5 or more values is read as far as it goes (NaN / None after).
CURVE_VALUES = ("games", "agreement", "win_first", "win_second", "keep_first", "keep_second", "draw_wins", "results")


def _curve_points(curve) -> list[CurvePoint]:
    """CurvePoints from CurvePoints, (games, agreement, win first, win second, keep first, keep second, draw wins,
    results) with any of the values after the fourth left out, or older (games, agreement, win averaged over the
    seats) tuples."""
    points = []
    for p in curve:
        if isinstance(p, CurvePoint):
            points.append(p)
            continue
        values = tuple(p)
        if len(values) == 3:  # kept before the seats were told apart: which seat won how often is unknown
            g, a, _ = values
            points.append(CurvePoint(int(g), float(a)))
        elif 4 <= len(values) <= len(CURVE_VALUES):
            g, a, *rest = values
            results = rest[5] if len(rest) > 5 else None
            if isinstance(results, float) and results != results:  # read back from JSON's null
                results = None
            figures = dict(zip(CURVE_VALUES[2:7], (float(v) for v in rest[:5]), strict=False))
            if results is not None and not (isinstance(results, list | tuple)
                                            and all(isinstance(n, int) and n >= 0 for n in results)):
                raise ValueError(f"A learning-curve point's results are counts of games, not {results!r}.")
            points.append(CurvePoint(int(g), float(a), **figures,
                                     results=None if results is None else tuple(results)))
        else:
            raise ValueError(f"A learning-curve point has 3 to {len(CURVE_VALUES)} values, not {len(values)}.")
    return points


def _curve_json(curve) -> str:
    """Every figure of every point (CURVE_VALUES), the ones no point has left off the end (a sticks curve is
    written as before: 4 values a point)."""
    rows = []
    for p in _curve_points(curve):
        rows.append([p.games, _finite(p.agreement), _finite(p.win_first), _finite(p.win_second),
                     _finite(p.keep_first), _finite(p.keep_second), _finite(p.draw_wins),
                     None if p.results is None else [int(n) for n in p.results]])
    width = max((max((i + 1 for i, v in enumerate(row) if v is not None), default=1) for row in rows), default=4)
    return json.dumps([row[:max(4, width)] for row in rows], separators=(",", ":"))


def _curve_heap(heap) -> int | None:
    if heap is not None and (isinstance(heap, bool) or not isinstance(heap, int) or heap < 1):
        raise ValueError(f"A curve's heap is a whole number of 1 or more, not {heap!r}.")
    return heap


class BrainsMixin:
    """The brains half of `Store` (needs `_write`, `_read` and `location`)."""

    # -- reading ---------------------------------------------------------------------------
    def list_brains(self) -> list[BrainInfo]:
        with self._read("list the brains") as conn:
            rows = conn.execute(
                f"SELECT name, size, max_take, {_RULE_COLUMNS}, rule, games_trained, "
                "updated, created, game, shape, seat FROM brains ORDER BY key").fetchall()
        return [_info(row) for row in rows]

    def brain_info(self, name: str) -> BrainInfo | None:
        key = name_key(name)
        with self._read(f"read the brain {name!r}") as conn:
            row = conn.execute(
                f"SELECT name, size, max_take, {_RULE_COLUMNS}, rule, games_trained, "
                "updated, created, game, shape, seat FROM brains WHERE key = ?", (key,)).fetchone()
        return None if row is None else _info(row)

    def _brain_row(self, conn: sqlite3.Connection, name: str, game: str | None = None):
        """The stored brain `name` as an object, or None; StoreError if it is damaged or another game's."""
        row = conn.execute(
            f"SELECT {_BRAIN_COLUMNS}, counts, game, shape, name "
            "FROM brains WHERE key = ?", (name_key(name),)).fetchone()
        if row is None:
            return None
        size, max_take, sb, wr, lp, fl, dr, rule, seat, counts, stored_game, shape, stored_name = row
        if game is not None and stored_game != game:
            raise StoreError(f"The brain {stored_name!r} is a brain for {stored_game}, not for {game}; "
                             "pick another name.")
        try:
            return _decode(size, max_take, _rule_of(sb, wr, lp, fl, dr, rule), counts, stored_game, shape, seat=seat)
        except (ValueError, TypeError) as exc:
            raise StoreError(f"The brain {stored_name!r} in {self.location} is damaged ({exc}); "
                             "reset or delete it.") from None

    def load_brain(self, name: str, game: str | None = None):
        """The brain called `name` (Hats for sticks, the Nim learner's hats for Nim), or None."""
        with self._read(f"load the brain {name!r}") as conn:
            return self._brain_row(conn, name, game)

    def load_or_create_brain(self, name: str, size: int = 0, max_take: int = 3, rule: HatRule | None = None, *,
                             game: str | None = None, box: Sequence[int] = (), max_size: int | None = None,
                             seat: int | None = None):
        """The brain called `name` that can play `game`; a fresh one (saved) if there is none.

        Sticks: at least `size` hats of `max_take` balls; a stored brain smaller than `size` comes
        back grown with fresh hats (they are stored when a game first teaches them). Nim: the
        learner's hats over piles up to `box`. `seat` 0 or 1: a brain of that player's containers only
        (MENACE's boxes for X or O), where the game says whose turn a position is.
        A stored brain this game cannot use (another game, another max take, more than `max_size`
        hats, another box, another seat, a hat with no ball where its rule keeps one) raises StoreError,
        and nothing is saved over it. A stored brain keeps its own rule. The existence check and the
        creation are one transaction.
        """
        name = validate_name(name)
        game = registry.first_name() if game is None else game
        kind = registry.entry(game)
        wanted = kind.brain_rules(size, max_take, tuple(box))
        stored = self.load_brain(name, game)  # a read: a read-only database still plays its brains
        if stored is None:
            fresh = Hats(wanted, rule=rule or HatRule(**kind.learner_settings), seat=seat)
            with self._write(f"make the brain {name!r}") as conn:
                stored = self._brain_row(conn, name, game)  # made meanwhile by another copy?
                if stored is None:
                    self._put(conn, name, fresh, 0, replace=True)
                    return fresh
        self._check_usable(name, stored, kind, wanted, max_size, seat)
        return fit_to(stored, wanted.positions())

    def _check_usable(self, name, stored, kind, wanted, max_size, seat=None) -> None:
        reason = kind.unusable(stored.rules, wanted)
        if reason is not None:
            raise StoreError(f"The brain {name!r} {reason}; it was left as it is.")
        if stored.seat != seat:
            raise StoreError(f"The brain {name!r} {_seat_words(stored.rules, stored.seat)}, not "
                             f"{_seat_words(stored.rules, seat)}; it was left as it is.")
        if max_size is not None and len(stored.positions) > max_size:
            raise StoreError(f"The brain {name!r} has {len(stored.positions)} hats; this game uses at most "
                             f"{max_size}. It was left as it is.")
        empty = brainfile.empty_container(stored) if stored.rule.floor != "none" else None  # 'none': may run out
        if empty is not None:
            raise StoreError(f"The brain {name!r} cannot play: {brainfile.empty_words(stored, empty)}. It was left "
                             "as it is; reset or delete it.")

    # -- whole writes ------------------------------------------------------------------------
    def _put(self, conn: sqlite3.Connection, name: str, brain, games_trained: int, *, replace: bool) -> None:
        """Write `brain` whole as `name`, starting a new generation (its base is these counts)."""
        game, size, max_take, shape, counts = _encode(brain)
        rule = _rule_columns(brain.rule)
        stamp = now()
        key = name_key(name)
        if replace:
            conn.execute("DELETE FROM brains WHERE key = ?", (key,))
        conn.execute(
            f"INSERT INTO brains (name, key, size, max_take, {_RULE_COLUMNS}, rule, seat, counts, "
            "games_trained, created, updated, game, shape, uid, base_counts) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, lower(hex(randomblob(16))), ?) "
            "ON CONFLICT(key) DO UPDATE SET size = excluded.size, max_take = excluded.max_take, "
            "start_balls = excluded.start_balls, win_reward = excluded.win_reward, "
            "loss_penalty = excluded.loss_penalty, floor = excluded.floor, draw_reward = excluded.draw_reward, "
            "rule = excluded.rule, seat = excluded.seat, counts = excluded.counts, "
            "games_trained = games_trained + excluded.games_trained, updated = excluded.updated, "
            "game = excluded.game, shape = excluded.shape, uid = excluded.uid, base_counts = excluded.counts",
            (name, key, size, max_take, *rule, rule_json(brain.rule), brain.seat, counts, games_trained, stamp, stamp,
             game, shape, counts))

    def save_brain(self, name: str, hats, games_trained: int = 0, *, replace: bool = False, base=None):
        """Save `hats` as brain `name`; `games_trained` is added to its total.

        With `base` (the counts this copy of the brain had when it last read or wrote the store, as
        every copy the app plays with has), only the copy's change since then, hats - base, is merged
        onto the brain as stored, as a training run is (`apply_training`): what other copies taught
        it meanwhile is kept; a brain deleted meanwhile is saved as this copy has it (nothing stored
        to lose). The stored brain is returned. A copy that is behind the store can never write its
        old counts over the class's.

        Without `base` this writes the hats whole, over whatever the brain learned meanwhile
        elsewhere: for brains with no other copy (imports, the classic program's own). Games should
        teach a brain through `record_game(learning=...)`, training through `apply_training`.
        replace=True starts the brain anew: its total becomes `games_trained` and its own record
        starts from now (as after a reset).
        """
        name = validate_name(name)
        hats = _validate(hats)
        if isinstance(games_trained, bool) or not isinstance(games_trained, int) or games_trained < 0:
            raise ValueError(f"Games trained is a whole number of 0 or more, not {games_trained!r}.")
        if base is not None and replace:
            raise ValueError("A brain started anew has no base to merge onto; save it whole.")
        if replace:
            self.teacher_only(f"start the brain {name!r} anew")
        with self._write(f"save the brain {name!r}",
                         "The AI plays on, but what it learned since the last save is not kept.") as conn:
            # a brain deleted meanwhile is saved as this copy has it: nothing of anyone's to lose (but a pupil's
            # tab never makes again a brain the teacher deleted, or a restore took away)
            if base is not None and self._brain_row(conn, name) is not None:
                hats = self._merge_onto_stored(conn, name, base, hats.counts, "what this copy learned")
            elif base is not None and self.pupil:
                raise StoreError(f"The brain {name!r} is no longer kept (the teacher deleted it, or restored a "
                                 "back-up without it).")
            if replace:
                stored = conn.execute("SELECT name FROM brains WHERE key = ?", (name_key(name),)).fetchone()
                if stored is not None:
                    self.backup_before("before-replace-brain", stored[0], action=f"start the brain {name!r} anew")
            self._put(conn, name, hats, games_trained, replace=replace)
        return hats

    def _save_new_brain(self, name: str, brain, games_trained: int, *, replace: bool, action: str) -> None:
        """Save an imported brain; without `replace` an existing name is refused (checked in the same
        transaction as the write, so two imports of one new name cannot both succeed)."""
        brain = _validate(brain)
        with self._write(action) as conn:
            row = conn.execute("SELECT name, game, seat FROM brains WHERE key = ?", (name_key(name),)).fetchone()
            if row is not None and not replace:
                raise StoreError(f"A brain called {row[0]!r} already exists; import under another name, "
                                 "or replace it. Nothing was changed.")
            kind = registry.entry_of(brain.rules)
            if row is not None and row[1] != kind.name:
                raise StoreError(f"The brain {row[0]!r} is {_brain_words(row[1])}, and this is "
                                 f"{kind.brain_words}: a brain is only replaced by one of its "
                                 "own game. Import it under another name. Nothing was changed.")
            if row is not None and row[2] != brain.seat:
                raise StoreError(f"The brain {row[0]!r} {_seat_words(brain.rules, row[2])}, and this one "
                                 f"{_seat_words(brain.rules, brain.seat)}: a brain is only replaced by one for the "
                                 "same player. Import it under another name. Nothing was changed.")
            if row is not None:
                self.backup_before("before-replace-brain", row[0], action=action)
            self._put(conn, name, brain, games_trained, replace=True)

    # -- learning ----------------------------------------------------------------------------
    def _learn(self, conn: sqlite3.Connection, game_id: int, seat: int, name: str, game: str,
               drawn: list, *, won: bool, when: str, start: str | None = None, outcome: int | None = None,
               training: bool = False):
        """Apply one seat's drawn balls to brain `name` as stored (inside the caller's transaction). `training`:
        no person played the game (two AIs), so it counts among the brain's games trained; a game against a
        person teaches the brain but is not a training game (issue 33 item 6: "Trained" counts those only)."""
        brain = self._brain_row(conn, name, game)
        if brain is None:
            raise StoreError(f"There is no brain called {name!r} (deleted meanwhile?), so this game cannot "
                             "teach it.")
        outcome = (1 if won else -1) if outcome is None else outcome
        brain, hats, changes = self._hats_lesson(brain, name, drawn, outcome, start)
        _, size, _, _, counts = _encode(brain)
        conn.execute("UPDATE brains SET size = ?, counts = ?, games_trained = games_trained + ?, updated = ? "
                     "WHERE key = ?", (size, counts, int(training), when, name_key(name)))
        stored_name, uid = conn.execute("SELECT name, uid FROM brains WHERE key = ?", (name_key(name),)).fetchone()
        conn.execute(
            "INSERT INTO game_learning (game_id, seat, brain, brain_key, brain_uid, won, drawn, changes, hats, outcome) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, seat, stored_name, name_key(name), uid, int(outcome > 0),
             json.dumps([[_plain(h), _plain(b)] for h, b in drawn]),
             json.dumps([[_plain(c.hat), _plain(c.ball), c.before, c.after] for c in changes]),
             json.dumps(hats, separators=(",", ":")), outcome))
        return brain, changes

    def _hats_lesson(self, brain, name: str, drawn: list, outcome: int, start: str | None):
        """A hats brain's lesson: (the brain, its hats before, the changes)."""
        brain = fit_to(brain, [hat for hat, _ in drawn])  # sticks: a bigger heap than it has seen
        most = registry.entry_of(brain.rules).max_hats  # sticks: a brain grown past its game's most hats
        if most is not None and len(brain.positions) > most:
            raise ValueError(f"A brain holds at most {most} hats, not {len(brain.positions)}.")
        for hat, ball in drawn:
            if not brain.has_hat(hat):
                raise ValueError(f"The brain {name!r} has no hat for {hat!r}.")
            try:
                brain.column(hat, ball)
            except ValueError:
                raise ValueError(f"The brain {name!r} has no ball {ball!r} in its hat {hat!r}: "
                                 f"{brain.rules.name} allows {list(brain.moves_of(hat))} there.") from None
            brain.ready(brain.row(hat))  # each container as the game drew from it (refilled by the rule)
        hats = _hats_before(brain, drawn, start)
        changes = brain.reinforce(list(drawn), outcome=outcome)  # a draw: the rule's draw reward
        return brain, hats, changes

    def apply_training(self, name: str, start_counts: np.ndarray, trained_counts: np.ndarray, *,
                       games_trained: int = 0, curve: Sequence[tuple[int, float, float]] | None = None,
                       heap: int | None = None):
        """Merge a training run's net change (trained - start) onto brain `name` as stored, in one
        transaction with its games trained and (if given) its learning curve, scored over heaps up to
        `heap` (sticks: the heap trained); return the stored brain.

        What the brain learned meanwhile (games recorded by this or other copies) is kept; every
        hat stays within the floor of its rule and under the cap (`learn.merge.merge_net_change`).
        """
        name = validate_name(name)
        if isinstance(games_trained, bool) or not isinstance(games_trained, int) or games_trained < 0:
            raise ValueError(f"Games trained is a whole number of 0 or more, not {games_trained!r}.")
        with self._write(f"save the training of {name!r}",
                         "The AI plays on, but what this training run taught it is not kept.") as conn:
            brain = self._merge_onto_stored(conn, name, start_counts, trained_counts, "the training run")
            self._put(conn, name, brain, games_trained, replace=False)
            if curve is not None:
                self._put_curve(conn, name, curve, heap)
        return brain

    def _merge_onto_stored(self, conn: sqlite3.Connection, name: str, start_counts, counts, what: str):
        """Brain `name` as stored plus (counts - start_counts), within its rule (inside the caller's
        transaction); not written yet."""
        brain = self._brain_row(conn, name)
        if brain is None:
            raise StoreError(f"There is no brain called {name!r} (deleted meanwhile?); {what} was not kept.")
        start = np.asarray(start_counts, dtype=np.int64)
        if start.shape[0] > brain.counts.shape[0]:  # the copy grew (sticks: row n is the heap n)
            try:
                brain = fit_to(brain, [start.shape[0] - 1])
            except ValueError as exc:
                raise StoreError(f"The brain {name!r} cannot take this change ({exc}); {what} was not kept.") \
                    from None
        try:
            merged = merge_net_change(brain.counts, start, counts, brain.rule, legal_of(brain))
        except ValueError as exc:
            raise StoreError(f"The brain {name!r} cannot take this change ({exc}); {what} was not kept.") from None
        return Hats(brain.rules, rule=brain.rule, counts=merged, seat=brain.seat)

    def keep_training(self, name: str, start_counts: np.ndarray, result):
        """Keep a training run of a copy of brain `name` (`learn.trainer.TrainingResult`; the copy's
        counts were `start_counts` when it started): its net change merged onto the brain as stored,
        its games trained and its curve with the heap it was scored over (`apply_training`). The one
        way the app and `sticks-tui train --brain` keep a run. Returns the stored brain."""
        return self.apply_training(name, start_counts, result.brain.counts, games_trained=result.games_played,
                                   curve=result.curve, heap=result.heap)

    def rebuild_brain(self, name: str):
        """The brain as its generation's base plus the learning of its games in record order.

        The store keeps this equal to the stored brain (the brain is the sum of its games).
        """
        with self._read(f"read the brain {name!r}") as conn:
            row = conn.execute(
                f"SELECT {_BRAIN_COLUMNS}, base_counts, game, shape, "
                "uid FROM brains WHERE key = ?", (name_key(name),)).fetchone()
            if row is None:
                return None
            size, max_take, sb, wr, lp, fl, dr, rule, seat, base, game, shape, uid = row
            lessons = conn.execute("SELECT drawn, won, outcome FROM game_learning WHERE brain_uid = ? "
                                   "ORDER BY game_id, seat", (uid,)).fetchall()
        brain = _decode(size, max_take, _rule_of(sb, wr, lp, fl, dr, rule), base, game, shape, base=True, seat=seat)
        for drawn, won, outcome in lessons:
            drawn = [(_tuples(h), _tuples(b)) for h, b in json.loads(drawn)]
            brain = fit_to(brain, [h for h, _ in drawn])
            brain.reinforce(drawn, outcome=(1 if won else -1) if outcome is None else outcome)
        return brain

    # -- whole-brain actions -----------------------------------------------------------------
    def _require_brain(self, conn: sqlite3.Connection, name: str) -> str:
        row = conn.execute("SELECT name FROM brains WHERE key = ?", (name_key(name),)).fetchone()
        if row is None:
            raise StoreError(f"There is no brain called {name!r}.")
        return row[0]

    def copy_brain(self, src: str, dst: str) -> None:
        """A new brain `dst` with `src`'s hats and games trained; its own record starts empty. A pupil's copy
        (`pupil`) has a short, plain name (`validate_pupil_brain_name`) and is made only while the class holds
        fewer than PUPIL_CLASS_BRAINS brains (counted in the same transaction: two pupils cannot pass it together)."""
        dst = validate_pupil_brain_name(dst) if self.pupil else validate_name(dst)
        stamp = now()
        with self._write(f"copy the brain {src!r}") as conn:
            self._require_brain(conn, src)
            row = conn.execute("SELECT name FROM brains WHERE key = ?", (name_key(dst),)).fetchone()
            if row:
                raise StoreError(f"A brain called {row[0]!r} already exists; pick another name or delete it first.")
            if self.pupil and conn.execute("SELECT COUNT(*) FROM brains").fetchone()[0] >= PUPIL_CLASS_BRAINS:
                raise StoreError(f"The class has {PUPIL_CLASS_BRAINS} brains already, the most a pupil may copy "
                                 "to: ask the teacher to delete some. Nothing was changed.")
            conn.execute(
                f"INSERT INTO brains (name, key, size, max_take, {_RULE_COLUMNS}, rule, seat, counts, "
                "games_trained, created, updated, game, shape, uid, base_counts) SELECT ?, ?, size, max_take, "
                f"{_RULE_COLUMNS}, rule, seat, counts, games_trained, ?, ?, game, shape, "
                "lower(hex(randomblob(16))), counts FROM brains WHERE key = ?",
                (dst, name_key(dst), stamp, stamp, name_key(src)))

    def reset_brain(self, name: str) -> None:
        """Make the brain forget everything: fresh hats (same size and rule), 0 games, record from now."""
        self.teacher_only(f"reset the brain {name!r}")
        stamp = now()
        key = name_key(name)
        with self._write(f"reset the brain {name!r}") as conn:
            stored = self._require_brain(conn, name)
            self.backup_before("before-reset-brain", stored, action=f"reset the brain {name!r}")
            size, max_take, sb, wr, lp, fl, dr, rule, seat, game, shape = conn.execute(
                f"SELECT {_BRAIN_COLUMNS}, game, shape FROM brains WHERE key = ?", (key,)).fetchone()
            fresh = Hats(registry.entry(game).stored_rules(size, max_take, shape),
                         rule=_rule_of(sb, wr, lp, fl, dr, rule), seat=seat)
            counts = _encode(fresh)[4]
            conn.execute("UPDATE brains SET counts = ?, base_counts = ?, uid = lower(hex(randomblob(16))), "
                         "games_trained = 0, created = ?, updated = ? WHERE key = ?",
                         (counts, counts, stamp, stamp, key))
            conn.execute("DELETE FROM training_curves WHERE key = ?", (key,))

    def delete_brain(self, name: str) -> None:
        """Delete a brain and its training curve (games played with it stay in the history)."""
        self.teacher_only(f"delete the brain {name!r}")
        key = name_key(name)
        with self._write(f"delete the brain {name!r}") as conn:
            stored = self._require_brain(conn, name)
            self.backup_before("before-delete-brain", stored, action=f"delete the brain {name!r}")
            conn.execute("DELETE FROM brains WHERE key = ?", (key,))
            conn.execute("DELETE FROM training_curves WHERE key = ?", (key,))

    def rename_brain(self, old: str, new: str) -> None:
        """Rename a brain; its games and training curve follow it."""
        self.teacher_only(f"rename the brain {old!r}")
        new = validate_name(new)
        old_key, new_key = name_key(old), name_key(new)
        with self._write(f"rename the brain {old!r}") as conn:
            self._require_brain(conn, old)
            if old_key != new_key:
                row = conn.execute("SELECT name FROM brains WHERE key = ?", (new_key,)).fetchone()
                if row:
                    raise StoreError(f"A brain called {row[0]!r} already exists; pick another name.")
            conn.execute("UPDATE brains SET name = ?, key = ? WHERE key = ?", (new, new_key, old_key))
            conn.execute("UPDATE games SET brain = ?, brain_key = ? WHERE brain_key = ?", (new, new_key, old_key))
            conn.execute("UPDATE game_learning SET brain = ?, brain_key = ? WHERE brain_key = ?",
                         (new, new_key, old_key))
            conn.execute("UPDATE training_curves SET brain = ?, key = ? WHERE key = ?", (new, new_key, old_key))

    # -- training curves ---------------------------------------------------------------------
    def _put_curve(self, conn, brain: str, curve, heap: int | None = None) -> None:
        conn.execute("INSERT INTO training_curves (brain, key, saved_at, points, heap) VALUES (?, ?, ?, ?, ?) "
                     "ON CONFLICT(key) DO UPDATE SET brain = excluded.brain, saved_at = excluded.saved_at, "
                     "points = excluded.points, heap = excluded.heap",
                     (brain, name_key(brain), now(), _curve_json(curve), _curve_heap(heap)))

    def save_training_curve(self, brain: str, curve: Sequence[tuple[int, float, float]],
                            heap: int | None = None) -> None:
        """Keep the learning curve of `brain`'s last training run (replacing the previous one);
        `heap`: the heap the run trained, whose figures the curve holds (None: all the brain's hats)."""
        brain = validate_name(brain)
        points = _curve_json(curve)  # checked before the transaction
        del points
        _curve_heap(heap)
        with self._write(f"save the training curve of {brain!r}") as conn:
            self._put_curve(conn, brain, curve, heap)

    def last_training_heap(self, brain: str) -> int | None:
        """The heap `brain`'s last training run trained (its curve is over heaps 2..heap); None when
        unknown (no curve, or one kept before the heap was: scored over all the brain's hats)."""
        with self._read(f"read the training curve of {brain!r}") as conn:
            row = conn.execute("SELECT heap FROM training_curves WHERE key = ?", (name_key(brain),)).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def last_training_curve(self, brain: str) -> list[CurvePoint]:
        """The points of `brain`'s last training run; [] if never trained."""
        with self._read(f"read the training curve of {brain!r}") as conn:
            row = conn.execute("SELECT points FROM training_curves WHERE key = ?", (name_key(brain),)).fetchone()
        if row is None:
            return []
        nan = float("nan")
        return _curve_points([tuple(nan if v is None else v for v in point) for point in json.loads(row[0])])


def _hats_before(brain, drawn: list, start: str | None) -> list:
    """The hats a replay shows, as they are before the game's learning: [[hat, [count, ...]], ...].

    Where the game's replay shows every hat (sticks: the heatmap shows hats 1 to the game's heap),
    every hat of a position the game could reach from its start (or from the drawn hats); else
    (Nim) the hats drawn from.
    """
    kind = registry.entry_of(brain.rules)
    if kind.replay_every_hat:
        tops = [kind.parse_start(start)] if start is not None else [h for h, _ in drawn]
        seen = reachable(brain.rules, tops)
        return [[_plain(p), list(brain.hat(p))] for p in brain.positions if p in seen]
    seen = []
    for hat, _ in drawn:
        if hat not in seen:
            seen.append(hat)
    return [[_plain(h), list(brain.hat(h))] for h in seen]


def reachable(rules, starts) -> set:
    """Every non-terminal position a game from any of `starts` can reach (the starts too)."""
    seen, todo = set(), [s for s in starts if not rules.is_terminal(s)]
    while todo:
        here = todo.pop()
        if here in seen:
            continue
        seen.add(here)
        todo.extend(after for m in rules.legal_moves(here) if not rules.is_terminal(after := rules.apply(here, m)))
    return seen


def _info(row) -> BrainInfo:
    n, size, mt, sb, wr, lp, fl, dr, rule, g, u, c, game, shape, seat = row
    try:
        kept = _rule_of(sb, wr, lp, fl, dr, rule)
    except (ValueError, TypeError, KeyError):  # a damaged rule: the columns say what they can
        kept = _rule_of(sb, min(max(wr, 0), 1000), min(max(lp, 0), 1000), fl if fl in ("each", "nonempty") else "each",
                        dr)
    return BrainInfo(n, size, mt, kept, g, parse_time(u), parse_time(c), game, shape, seat)


def _seat_words(rules, seat) -> str:
    """'keeps every position's containers', or whose it keeps ('keeps X's containers', by the game's words)."""
    if seat is None:
        return "keeps a container for every position"
    name = getattr(rules, "seat_names", ("the first player", "the second player"))[seat]
    return f"keeps {name}'s containers only"


def _brain_words(game: str) -> str:
    """'a sticks brain' for a game's name (the name itself for a game this sticks-tui does not know)."""
    try:
        return registry.entry(game).brain_words
    except ValueError:
        return game


def _tuples(x):
    return tuple(_tuples(v) for v in x) if isinstance(x, list) else x


def _plain(x):
    """A hat or ball as JSON: numbers (and tuples of them) as ints, a board (noughts) as its text."""
    if isinstance(x, str):
        return x
    return [_plain(v) for v in x] if isinstance(x, (tuple, list)) else int(x)


__all__ = ["BrainInfo", "BrainsMixin", "MAX_COUNT", "fit_hats"]
