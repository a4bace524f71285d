"""Textual messages that carry the core's events into the UI."""

from __future__ import annotations

from typing import Any

from textual.message import Message


class CoreEvent(Message):
    """A core event (MoveMade, BallDrawn, HatsReinforced, GameOver) adapted into a Textual message."""

    def __init__(self, event: Any) -> None:
        super().__init__()
        self.event = event


class TrainingUpdate(Message):
    """A training snapshot. Only the newest matters, so a queued one is replaced by the next."""

    def __init__(self, progress: Any) -> None:
        super().__init__()
        self.progress = progress

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, TrainingUpdate) and not message.progress.finished
