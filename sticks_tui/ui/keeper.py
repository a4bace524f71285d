"""The kept brain (issue 17 item 3): one service that loads a brain, records a finished game with its
lesson, and merges a training run into it, for every game (sticks and Nim alike).

One failure behaviour everywhere: when the store fails, the stored brain is never written over (not
saved whole, not made anew), the AI keeps what it learned in memory, and the app says so, with the
store's reason. A game whose lesson the brain as stored cannot take is kept without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sticks_tui.learn.hats import Hats
from sticks_tui.learn.merge import merge_net_change
from sticks_tui.store import StoreError

if TYPE_CHECKING:
    from textual.app import App

NOT_WRITTEN = "The stored brain is left as it is; the AI keeps what it learned until you quit."


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
    def load(self, name: str, size: int, rule=None) -> tuple[Hats, bool]:
        """The stored brain `name` (made, by `rule`, if there is none) and True; if the store cannot
        give it, fresh hats that are never saved and False (the stored brain is left as it is)."""
        try:
            return self.store.load_or_create_brain(name, size, rule=rule), True
        except StoreError as exc:
            self.refused(f"{exc} The AI plays with fresh hats, which are not saved: the stored brain "
                         f"'{name}' is left as it is.", title="Brain not loaded")
            return Hats(size, 3, rule), False

    # -- record -----------------------------------------------------------------------------------
    def record(self, fields: dict, learning: dict | None = None):
        """Keep a finished game (`Store.record_game` fields) with the lesson `learning` ({seat: (brain
        name, balls drawn)}) applied to the brain as stored, in one transaction. Returns what the store
        kept (its `.brains` are the taught brains as stored), or None if it kept no lesson.

        If the store cannot take the lesson, the app says why, the game is kept without it (if even
        that fails, the app says so too) and the stored brain is not written."""
        if learning:
            try:
                return self.store.record_game(**fields, learning=learning)
            except (StoreError, ValueError) as exc:
                self.refused(f"{exc} {NOT_WRITTEN}")
        try:
            self.store.record_game(**fields)
        except (StoreError, ValueError) as exc:
            self.refused(str(exc))
        return None

    # -- merge a training run ---------------------------------------------------------------------
    def merge(self, name: str | None, hats: Hats, start, result):
        """Keep a training run of a copy of `hats` (whose counts were `start` when it began): its net
        change merged onto the stored brain `name` with its games and curve, in one transaction, and
        `hats` (in place) becomes the brain as stored. With `name` None (hats not kept) or if the store
        fails (the app says why), the change is merged into `hats` in memory only and the stored brain
        is not written. Returns the brain as stored, or None if the store did not keep the run."""
        stored = None
        if name is not None:
            try:
                stored = self.store.keep_training(name, start, result)
            except (StoreError, ValueError) as exc:
                self.refused(f"{exc} {NOT_WRITTEN}")
        if stored is not None and stored.counts.shape == hats.counts.shape:
            hats.counts[:] = stored.counts
        else:
            self._merge_in_memory(hats, start, result)
        return stored

    @staticmethod
    def _merge_in_memory(hats: Hats, start, result) -> None:
        trained = result.brain.counts
        legal = hats.legal_mask if hats.counts.shape == trained.shape else None
        hats.counts[:] = merge_net_change(hats.counts, start, trained, hats.rule, legal)
