"""The screens' header: Textual's Header, safe while its screen is being taken down.

Textual's Header sets its title from watchers on the app's and the screen's titles, and only
expects NoScreen there. A screen closed within a frame of opening (Escape at once on the
trained-AI screen, or a run that ends at once) can have its HeaderTitle gone before a watcher
runs: the query then raises NoMatches, which ended the app. This header skips that update: there
is no title left to show.
"""
from __future__ import annotations

from textual.css.query import NoMatches
from textual.dom import NoScreen
from textual.events import Mount
from textual.widget import Widget
from textual.widgets import Header
from textual.widgets._header import HeaderTitle


class AppHeader(Header):
    def _on_mount(self, event: Mount) -> None:
        async def set_title() -> None:
            try:
                self.query_one(HeaderTitle).update(self.format_title())
            except (NoScreen, NoMatches):  # the screen is being taken down: no title to set
                pass

        self.watch(self.app, "title", set_title)
        self.watch(self.app, "sub_title", set_title)
        self.watch(self.screen, "title", set_title)
        self.watch(self.screen, "sub_title", set_title)
        event.prevent_default()  # Header's own _on_mount (the unsafe watchers) is not run
        Widget._on_mount(self, event)
