"""Textual messages: one typed message per core event, and the training worker's two messages.

A screen subscribes to its game's `EventBus` with `post_core_event`; each core event arrives as
its own message type, handled by an `on_<name>` method (e.g. `on_move_made_msg`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message

from sticks_tui.engine.events import BallDrawn, GameOver, HatsReinforced, MoveMade

if TYPE_CHECKING:
    from sticks_tui.learn.trainer import TrainingResult


class CoreMessage(Message, bubble=False):
    """Base of the messages that carry one core event; `event` is the frozen core dataclass."""

    def __init__(self, event: Any) -> None:
        super().__init__()
        self.event = event


class MoveMadeMsg(CoreMessage):
    """A player made a move, in any game (`event` is a `MoveMade`)."""

    event: MoveMade


class BallDrawnMsg(CoreMessage):
    """A hat learner drew a ball (`event` is a `BallDrawn`)."""

    event: BallDrawn


class HatsReinforcedMsg(CoreMessage):
    """A hat learner applied its rule after a game (`event` is a `HatsReinforced`)."""

    event: HatsReinforced


class GameOverMsg(CoreMessage):
    """A game ended (`event` is a `GameOver`)."""

    event: GameOver


_BY_EVENT: dict[type, type[CoreMessage]] = {
    MoveMade: MoveMadeMsg,
    BallDrawn: BallDrawnMsg,
    HatsReinforced: HatsReinforcedMsg,
    GameOver: GameOverMsg,
}


def core_message(event: Any) -> CoreMessage | None:
    """The typed message for a core event (None for an event the UI does not show)."""
    kind = _BY_EVENT.get(type(event))
    return kind(event) if kind is not None else None


class TrainingProgressMsg(Message, bubble=False):
    """A progress snapshot of a training run (`purpose` says which). Only the newest matters, so a
    queued one is replaced by the next of the same run."""

    def __init__(self, purpose: str, progress: Any) -> None:
        super().__init__()
        self.purpose = purpose
        self.progress = progress

    def can_replace(self, message: Message) -> bool:
        # Textual asks the older queued message (self) whether the newer `message` may take its
        # place: self is the one dropped, so the guards are on self. A game told, or the run's last
        # report, is never dropped.
        return (isinstance(message, TrainingProgressMsg) and message.purpose == self.purpose
                and not self.progress.finished
                and getattr(self.progress, "story", None) is None)


class TrainingFinished(Message, bubble=False):
    """A training run ended: `result` is its `learn.trainer.TrainingResult` (every run's, sticks or
    Nim; None if it failed, then `error` says why). A cancelled run also ends here, with the result of
    the games it played."""

    def __init__(self, purpose: str, result: TrainingResult | None, error: BaseException | None = None) -> None:
        super().__init__()
        self.purpose = purpose
        self.result = result
        self.error = error
