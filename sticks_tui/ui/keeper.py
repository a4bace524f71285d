"""The kept brain (issue 17 item 3): one service that loads a brain, records a finished game with its
lesson, and merges a training run into it, for every game (sticks and Nim alike).

One failure behaviour everywhere: when the store cannot take a lesson or a run, the app says why, the
game is kept without its lesson, and what the copy learned since it last read the store (`base`) is
merged onto the brain as stored (`Store.save_brain(base=...)`: never written over; a brain deleted
meanwhile is saved as this copy has it, nothing of anyone's to lose). If the store cannot take that
either (the brain does not fit, the store cannot be written), the app says so, the stored brain is
left as it is, and the AI keeps what it learned in memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sticks_tui.engine import registry
from sticks_tui.learn.hats import Hats
from sticks_tui.learn.merge import merge_net_change
from sticks_tui.store import StoreError

if TYPE_CHECKING:
    from textual.app import App

NOT_WRITTEN = "The stored brain is left as it is; the AI keeps what it learned until you quit."
NOT_WITH = "Not kept with the {what}; the app adds what the AI learned to the brain as stored instead, if it can."


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
    def load(self, name: str, size: int = 0, rule=None, *, game: str = "sticks", marks: str = "X"):
        """The stored brain `name` of `game` (made, by `rule`, if there is none) and True; if the store
        cannot give it, a fresh brain that is never saved and False (the stored brain is left as it is).
        `marks`: whose boxes, for a game whose brains are MENACE's matchboxes."""
        try:
            return self.store.load_or_create_brain(name, size, rule=rule, game=game, marks=marks), True
        except StoreError as exc:
            self.refused(f"{exc} The AI plays with a fresh brain, which is not saved: the stored brain "
                         f"'{name}' is left as it is.", title="Brain not loaded")
            if registry.entry(game).brains == "matchboxes":
                from sticks_tui.learn.menace import MenaceBrain

                return MenaceBrain(rule, marks), False
            return Hats(size, 3, rule), False

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
