"""The class, live: what classmates' tabs stored since this tab last looked, for the screens to show.

Twice a second (LIVE_CHECK) the app asks its store one cheap question, SQLite's `PRAGMA data_version`
(`Store.data_version`: it changes only when another connection commits). When it changed, `ClassWatch`
reads the games recorded since the last one it saw (not this tab's own) and the brain in play as
stored, adopts that brain (when this tab has nothing of its own unsaved), and returns a `ClassChange`:
the games, the cells of the brain that changed (hat, ball, delta: the heatmap's ↑/↓ marks) and a line
saying whose game taught it ("Ann's game: hat 7, ball 2 ↑"; "the class's brain changed: ..." for another
tab's training run, which is nobody's game). A game that did not teach the brain in play (a classmate's
noughts game, seen from the sticks hats) is named only in the records' line (`news`), never over the hats.

A restore of a back-up (by the teacher's tab or the command line) is told as one: the store marks it in the
same step as the restore (`Store.last_restore`), and the change says "the teacher restored the back-up of
10:40" instead of presenting the restored games as just played; only games played after it count as new.
The app publishes it in its `class_change` reactive; each screen that shows the class's brain or records
redraws from it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LIVE_CHECK = 0.5  # seconds between two checks: a classmate's game shows within a second
MOST_CELLS = 3  # cells named in the line; more are counted


@dataclass(frozen=True)
class ClassChange:
    games: tuple = ()  # store GameRecords recorded by other tabs since the last change, oldest first
    cells: tuple[tuple, ...] = ()  # (position, move, delta) of the brain in play (sticks: hat, ball, delta)
    brain: str = ""  # the brain in play's name
    words: str = ""  # in a line, for the screens
    #: The other kept brains this tab holds (`Session.other_kept_brains`: the Nim learner's, MENACE's boxes),
    #: what changed in each as stored now: (name, ((position, move, delta), ...)).
    others: tuple[tuple[str, tuple], ...] = ()
    #: "the teacher restored the back-up of 10:40" when a back-up was restored since the last check, else ""
    restored: str = ""
    #: Whose games they were, all of them (whatever brain they taught), in a line: for the records.
    news: str = ""

    def changes_of(self, name: str | None) -> tuple:
        """(position, move, delta) of each ball of the kept brain called `name` that changed (the brain in play's
        or another's); () if none."""
        if name is not None and name == self.brain and self.cells:
            return self.cells
        return next((cells for brain, cells in self.others if name is not None and brain == name), ())

    @property
    def brain_changed(self) -> bool:
        return bool(self.cells)


def whose(game) -> str:
    """"Ann's game", "Ann and Bob's game", "the AIs' game": the people who played it."""
    people = [name for seat, name in enumerate(game.players) if seat not in game.ai_seats]
    if not people:
        return "the AIs' game"
    return " and ".join(dict.fromkeys(people)) + "'s game"


def _arrow(delta: int) -> str:
    return "↑" if delta > 0 else "↓"


def cell_words(cells) -> str:
    shown = [f"hat {hat}, ball {ball} {_arrow(delta)}" for hat, ball, delta in cells[:MOST_CELLS]]
    more = len(cells) - len(shown)
    return "; ".join(shown) + (f" and {more} more" if more > 0 else "")


def other_brain_words(change: ClassChange, name: str, cell_words, nobody: str) -> str:
    """What a change taught the other brain `name`, in a line: "Ann's game: hat (1, 0, 0), 1 nickel ↑";
    `cell_words(position, move)` names a cell, `nobody` is said when no game taught it (a run, a restore)."""
    cells = change.changes_of(name)
    taught = [whose(g) for g in change.games if taught_by(g, name)]
    shown = "; ".join(f"{cell_words(position, move)} {_arrow(delta)}" for position, move, delta in cells[:MOST_CELLS])
    more = len(cells) - min(len(cells), MOST_CELLS)
    return (" and ".join(dict.fromkeys(taught)) if taught else change.restored or nobody) + f": {shown}" + \
        (f" and {more} more" if more > 0 else "")


def taught_by(game, brain: str) -> bool:
    """Whether `game` had a learning seat playing with the brain called `brain` (a lesson for it)."""
    return any(s.brain.casefold() == brain.casefold() for s in game.learning)


def _joined(parts: list[str]) -> str:
    return "; ".join(parts[-3:]) + (f" (and {len(parts) - 3} more games)" if len(parts) > 3 else "")


def change_words(games, brain: str, cells, restored: str = "") -> str:
    """Whose games taught the brain in play and what each taught it, in a line: "Ann's game: hat 7, ball 2 ↑".
    A game of another brain (another game's) is not named here: these words go over the brain's hats.
    `restored`: the restore's words, said first (the cells then are what the restore changed)."""
    parts = []
    for game in games:
        if not taught_by(game, brain):
            continue
        taught = tuple((h, b, after - before) for s in game.learning if s.brain.casefold() == brain.casefold()
                       for h, b, before, after in s.changes if after != before)
        parts.append(f"{whose(game)}: {cell_words(taught)}" if taught else whose(game))
    if not parts and cells and not restored:  # the brain changed with no game of it: another tab's training run
        parts.append(f"the class's brain changed: {cell_words(cells)}")
    return "; ".join(p for p in (restored, _joined(parts)) if p)


def news_words(games, restored: str = "") -> str:
    """Whose games they were, every one, in a line (the records': "Bo and Cy's game"), after the restore's words."""
    return "; ".join(p for p in (restored, _joined([whose(g) for g in games])) if p)


def restore_words(restored, today=None) -> str:
    """"the teacher restored the back-up of 10:40" (the back-up's time, local; its date too if not today's)."""
    from datetime import datetime

    made = restored.backup_made_at.astimezone()
    today = today if today is not None else datetime.now().astimezone().date()
    when = made.strftime("%H:%M") if made.date() == today else made.strftime("%Y-%m-%d %H:%M")
    return f"the teacher restored the back-up of {when}"


class ClassWatch:
    """Remembers what this tab has seen (the data version, the last game id); its own games are the
    store's `own_games`."""

    def __init__(self) -> None:
        self.version: int | None = None
        self.last_game: int | None = None
        self.restore: str | None = None  # the uid of the newest restore seen (`Store.last_restore`)

    def start(self, store) -> None:
        from sticks_tui.store import StoreError

        try:
            self.version = store.data_version()
            self.last_game = store.last_game_id()
            restored = store.last_restore()
            self.restore = restored.uid if restored is not None else None
        except StoreError:
            self.version, self.last_game = None, 0

    def check(self, session, *, adopt) -> ClassChange | None:
        """A ClassChange if another connection wrote since the last check, else None. `adopt(counts)` plays
        on with the brain as stored (the app's `adopt_stored_counts`)."""
        from sticks_tui.store import StoreError

        store = session.store
        if store is None or not store.persistent:
            return None
        try:
            version = store.data_version()
            if version == self.version:
                return None
            self.version = version
            restored = store.last_restore()
            said = ""
            if restored is not None and restored.uid != self.restore:
                # a back-up restored: its games are not new; only those played since it are
                self.restore, self.last_game = restored.uid, restored.last_game
                store.own_games.clear()  # ids count again from the back-up's: an old id of ours is not ours now
                if restored.uid not in store.own_restores:
                    said = restore_words(restored)
            newest = store.last_game_id()
            if self.last_game is None or newest < self.last_game:
                self.last_game = newest  # records reset: count from what is there now
            found = store.games_after(self.last_game)
        except StoreError:
            return None
        if found:
            self.last_game = max(g.id for g in found)
        games = tuple(g for g in found if g.id not in store.own_games)
        cells: tuple = ()
        brain, base = session.brain, session.brain_base
        # only a brain with nothing of this tab's own unsaved (a game's lesson is saved as it ends)
        if session.brain_kept and base is not None and np.array_equal(brain.counts, base):
            change = _stored_change(store, session.brain_name, brain)
            if change is not None:
                from sticks_tui.ui.brains import cell_of

                stored, delta = change
                hats, balls = np.nonzero(delta)
                cells = tuple((*cell_of(brain, int(h), int(b)), int(delta[h, b])) for h, b in zip(hats, balls))
                adopt(stored)
        others = []
        for name, held, held_base, adopt_other, cell in session.other_kept_brains():
            if held_base is None or not np.array_equal(held.counts, held_base):
                continue  # a lesson of this tab's own not saved yet: left alone, as the brain in play is
            change = _stored_change(store, name, held)
            if change is not None:
                stored, delta = change
                rows, balls = np.nonzero(delta)
                others.append((name, tuple((*cell(int(r), int(b)), int(delta[r, b])) for r, b in zip(rows, balls))))
                adopt_other(stored)
        if not games and not cells and not others and not said:
            return None
        return ClassChange(games, cells, session.brain_name, change_words(games, session.brain_name, cells, said),
                           tuple(others), restored=said, news=news_words(games, said))


def _stored_change(store, name: str, held):
    """(the stored brain `name`'s counts, those minus `held`'s as int64) when it has the same layout and
    differs; else None."""
    from sticks_tui.store import StoreError

    try:
        stored = store.load_brain(name)
    except StoreError:
        return None
    if stored is None or stored.counts.shape != held.counts.shape or np.array_equal(stored.counts, held.counts):
        return None
    return stored.counts, stored.counts.astype(np.int64) - held.counts.astype(np.int64)
