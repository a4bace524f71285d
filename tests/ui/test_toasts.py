"""Toasts never lie over a dialog's buttons (issue 33 item 7): a dialog opening takes the earlier toasts away
(they were about the screen below), and one raised while it is open shows at the top, away from its buttons."""

from __future__ import annotations

from textual.widgets import Button
from textual.widgets._toast import Toast

from sticks_tui.ui.screens.training import TrainDialog
from ui_helpers import wait_until


def toasts_over_buttons(screen) -> list:
    buttons = [b.region for b in screen.query(Button) if b.display]
    return [(t.region, b) for t in screen.query(Toast) for b in buttons if t.region.overlaps(b)]


async def test_a_toast_never_covers_the_buttons_of_the_dialog_that_opens_after_it(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify("Finished 100,000 games in 12 s. Over heaps 2-20, its likeliest move is a winning move in "
                   "100% of the 15 positions where a win can be forced.", title="Training")
        await wait_until(pilot, lambda: len(app.screen.query(Toast)) == 1, what="the toast")
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainDialog), what="the train dialog")
        await pilot.pause()
        dialog = app.screen
        assert not dialog.query(Toast) and not app._notifications  # about the screen below: gone
        app.notify("A toast raised while the dialog is open, long enough to take two or three lines of it.",
                   title="Training")
        await wait_until(pilot, lambda: len(dialog.query(Toast)) == 1, what="the new toast")
        await pilot.pause()
        assert not toasts_over_buttons(dialog)
        assert dialog.query_one("#go", Button).region.y > dialog.query_one(Toast).region.bottom
