"""A tab's driver: Textual's web driver, with the page's own focus and blur told apart from the driver's.

Textual's web driver tells the app, as it starts, that it has lost focus (an AppBlur of its own), and the
page then tells it that it has focus (sticks.js gives the terminal the keyboard once connected): two
restyles of the whole screen at every tab's start, the focused widget unfocused and focused again, for a
screen that ends as it began. `sticks-tui serve` runs its tabs on this driver (TEXTUAL_DRIVER), which marks
the focus and blur the page reports (`from_page`); the app (ui/app.py) acts on those only, and so keeps its
focus until the page says it has lost it: a pupil's tab starts ~0.05 CPU s cheaper (0.4 s a warm tab).
"""

from __future__ import annotations

from textual import events
from textual.drivers.web_driver import WebDriver

def page_event(kind: str) -> events.AppFocus | events.AppBlur:
    """The app's AppFocus ("focus") or AppBlur ("blur"), marked as the page's."""
    event = events.AppFocus() if kind == "focus" else events.AppBlur()
    event.from_page = True  # type: ignore[attr-defined]
    return event


def from_page(event: events.AppFocus | events.AppBlur) -> bool:
    return getattr(event, "from_page", False) is True


class PageDriver(WebDriver):
    """Textual's web driver; the page's focus and blur reach the app marked as the page's."""

    #: The app may ignore an AppBlur not marked (the driver's own, at start): the page says its focus itself.
    page_tells_focus = True

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        if packet_type in ("focus", "blur"):
            self._app.post_message(page_event(packet_type))
            return
        super().on_meta(packet_type, payload)
