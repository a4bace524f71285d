"""The kept brain (issue 17 item 3): one service that loads a brain, records a finished game with its
lesson, and merges a training run into it, for every game alike.

One failure behaviour everywhere: when the store cannot take a lesson or a run, the app says why, the
game is kept without its lesson, and what the copy learned since it last read the store (`base`) is
merged onto the brain as stored (`Store.save_brain(base=...)`: never written over; a brain deleted
meanwhile is saved as this copy has it, nothing of anyone's to lose). If the store cannot take that
either (the brain does not fit, the store cannot be written), the app says so, the stored brain is
left as it is, and the AI keeps what it learned in memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sticks_tui import vocabulary
from sticks_tui.engine import registry
from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.learn.merge import merge_net_change
from sticks_tui.store import StoreError

if TYPE_CHECKING:
    from textual.app import App

NOT_WRITTEN = "The stored brain is left as it is; the AI keeps what it learned until you quit."
NOT_WITH = "Not kept with the {what}; the app adds what the AI learned to the brain as stored instead, if it can."


@dataclass(frozen=True)
class LoadedBrain:
    """A brain as the store gave it (`kept`), or fresh hats that are never saved and the reason why."""

    hats: Hats
    kept: bool
    problem: str | None = None


def load_kept(store, name: str, game: str = "sticks", *, size: int = 0, rule=None,
              box=vocabulary.NIM_LEARNER_BOX, seat: int | None = None) -> LoadedBrain:
    """The stored brain `name` of `game` (made, by `rule`, if there is none), for every game alike. If
    the store cannot give it (another game's, another layout, damaged, unreadable) or there is no
    store, fresh hats of the brain the store would have made, never saved: the stored brain is left as
    it is, and `problem` says so (None without a store: nothing was refused). `seat` 0 or 1: a brain of
    one player's containers only (MENACE's boxes for X or O)."""
    if store is not None:
        try:
            return LoadedBrain(store.load_or_create_brain(name, size, rule=rule, game=game, box=box, seat=seat),
                               True)
        except StoreError as exc:
            problem = (f"{exc} The AI plays with fresh hats, which are not saved: the stored brain '{name}' is "
                       "left as it is.")
    else:
        problem = None
    kind = registry.entry(game)
    fresh = Hats(kind.brain_rules(size, 3, tuple(box)), rule=rule or HatRule(**kind.learner_settings), seat=seat)
    return LoadedBrain(fresh, False, problem)


def rule_of_brain(name: str):
    """The rule a brain of this name is made by when the store has none: the setup's hats (the seeds' brain,
    the MENACE-like one) by their own; None for any other (its game's own rule)."""
    from sticks_tui.learn.hats import RULE_PRESETS

    hats = next((key for key, brain in vocabulary.HAT_BRAINS.items() if brain == name), None)
    return RULE_PRESETS[hats] if hats is not None else None


def brain_name(session: Any, game: str, side: int = 0) -> str:
    """The kept brain the learning AI of `game` plays `side` with (0 moving first, 1 second): the one
    chosen for the game (the setup's hats, the analysis screen's pick), else its game's (`GameEntry.ai_brains`)."""
    entry = registry.entry(game)
    if side == 1 and entry.brains_by_side():
        return entry.ai_brain(1)
    return session.chosen.get(game, entry.ai_brain(0))


def kept_brain(session: Any, game: str, side: int = 0, *, rule=None):
    """The learning AI's brain of `game` for `side`, loaded into `session.kept` on first use by
    `load_kept` (made in the store if new): a stored brain that does not fit is left as it is, the AI
    plays with a fresh brain that is not kept, and its `problem` says why."""
    from sticks_tui.ui.session import KeptBrain

    name = brain_name(session, game, side)
    kept = session.kept.get((game, name))
    if kept is None:
        loaded = load_kept(session.store, name, game, rule=rule, **registry.entry(game).ai_brain_options(side))
        kept = KeptBrain(game, name, loaded.hats, loaded.kept, loaded.hats.counts.copy() if loaded.kept else None,
                         loaded.problem)
        session.kept[kept.key] = kept
    return kept


class BrainKeeper:
    """The app's one way to keep a brain in the store (`App.keeper`); screens ask it, never the store."""

    def __init__(self, app: App) -> None:
        self.app = app

    @property
    def store(self):
        return self.app.session.store

    def refused(self, reason: str, title: str = "Not saved") -> None:
        """Say (with the store's reason) that the store did not keep something."""
        self.app.notify(reason, title=title, severity="error", timeout=10)

    # -- load -------------------------------------------------------------------------------------
    def load(self, name: str, size: int = 0, rule=None, *, game: str = "sticks", seat: int | None = None):
        """The stored brain `name` of `game` (made, by `rule`, if there is none) and True; if the store
        cannot give it, a fresh brain that is never saved and False (the stored brain is left as it is).
        `seat`: whose containers, for a brain of one player's only (MENACE's X or O)."""
        loaded = load_kept(self.store, name, game, size=size, rule=rule, seat=seat)
        if loaded.problem is not None:
            self.refused(loaded.problem, title="Brain not loaded")
        return loaded.hats, loaded.kept

    def learner(self, game: str, side: int = 0):
        """The `KeptBrain` the learning AI of `game` plays `side` with (`kept_brain`), loaded on first use;
        the screens say why when it is not kept (its `problem`)."""
        return kept_brain(self.app.session, game, side)

    # -- reset ----------------------------------------------------------------------------------
    def reset(self, name: str, rule=None) -> Hats:
        """Reset the stored brain `name` (the store's own reset: its hats back to their start, its games
        to 0); with `rule` other than its own, fresh hats learning by `rule` take its place (the one way a
        brain changes rule: a teacher's reset). Returns the brain as stored; raises StoreError (or
        ValueError) saying why, with the stored brain left as it was if the reset itself failed."""
        self.store.reset_brain(name)
        stored = self.store.load_brain(name)
        if rule is not None and stored.rule != rule:
            stored = self.store.save_brain(name, Hats(stored.rules, rule=rule), replace=True)
        return stored

    # -- record -----------------------------------------------------------------------------------
    def record(self, fields: dict, learning: dict | None = None, *, hats: Hats | None = None, base=None):
        """Keep a finished game (`Store.record_game` fields) with the lesson `learning` ({seat: (brain
        name, balls drawn)}) applied to the brain as stored, in one transaction. Returns (what the store
        kept, whose `.brains` are the taught brains as stored, or None; the brain as stored after the
        fallback, or None).

        If the store cannot take the lesson, the app says why, the game is kept without it, and `hats`
        (the copy that learned it, whose counts were `base` when it last read the store) is saved by
        `save` (the module's failure behaviour)."""
        if learning:
            try:
                return self.store.record_game(**fields, learning=learning), None
            except (StoreError, ValueError) as exc:
                self.refused(f"{exc} {NOT_WITH.format(what='game')}")
        try:
            self.store.record_game(**fields)
        except (StoreError, ValueError) as exc:
            self.refused(str(exc))
        if learning and hats is not None:
            name = next(iter(learning.values()))[0]
            return None, self.save(name, hats, base)
        return None, None

    def save(self, name: str, hats: Hats, base, games_trained: int = 0):
        """What `hats` learned since its counts were `base` (when it last read or wrote the store), merged
        onto brain `name` as stored (never written whole over it); `hats` becomes the brain as stored.
        Returns the stored brain, or None (the app says why; the stored brain is left as it is)."""
        if base is None:  # not read from the store: nothing to merge onto, never written whole
            self.refused("The brain was not saved: it was never read from the store.")
            return None
        try:
            stored = self.store.save_brain(name, hats, games_trained=games_trained, base=base)
        except (StoreError, ValueError) as exc:
            self.refused(f"{exc} {NOT_WRITTEN}")
            return None
        if stored.counts.shape == hats.counts.shape:
            hats.counts[:] = stored.counts
        return stored

    # -- merge a training run ---------------------------------------------------------------------
    def merge(self, name: str | None, hats: Hats, start, result, base=None):
        """Keep a training run of a copy of `hats` (whose counts were `start` when it began): its net
        change merged onto the stored brain `name` with its games and curve, in one transaction, and
        `hats` (in place) becomes the brain as stored. With `name` None (hats not kept) the run is
        merged in memory only. If the store cannot take it, the app says why, the run is merged into
        `hats` in memory and saved by `save` (with `base`), its curve after it. Returns the brain as
        stored, or None if the store did not keep the run."""
        if name is None:
            self._merge_in_memory(hats, start, result)
            return None
        try:
            stored = self.store.keep_training(name, start, result)
        except (StoreError, ValueError) as exc:
            self.refused(f"{exc} {NOT_WITH.format(what='training run')}")
        else:
            if stored.counts.shape == hats.counts.shape:
                hats.counts[:] = stored.counts
            else:
                self._merge_in_memory(hats, start, result)
            return stored
        self._merge_in_memory(hats, start, result)
        stored = self.save(name, hats, base, games_trained=result.games_played)
        if stored is not None:
            try:
                self.store.save_training_curve(name, result.curve, result.heap)
            except Exception as exc:  # noqa: BLE001 - a curve not saved must not stop the app
                self.app.notify(f"The learning curve was not saved: {exc}", severity="warning")
        return stored

    @staticmethod
    def _merge_in_memory(hats: Hats, start, result) -> None:
        trained = result.brain.counts
        legal = hats.legal_mask if hats.counts.shape == trained.shape else None
        hats.counts[:] = merge_net_change(hats.counts, start, trained, hats.rule, legal)
