"""The app's CSS parsed once a process, and under `sticks-tui serve` once for every tab (in the warm process).

Textual parses every CSS source (styles.tcss, each widget class's DEFAULT_CSS) again for each app: its
stylesheet's parse cache is its own. A parse is a pure function of the source, where it was read from, its
tie-breaker and scope, and the CSS variables (the theme's); the rule sets are only read afterwards (Textual's
own cache hands the same ones to every parse of a stylesheet). The app's stylesheet (SharedStylesheet) keeps its
parses in one cache for the process, keyed on all of these. The warm process (web/warm.py) calls `parse_ahead`
before it forks any tab: every source the app and the widgets imported bring, under the default theme; a tab
forked from it then parses none of them at start (~30 ms of CPU of ~0.3 s a warm tab). Another theme, or a
source not parsed ahead, is parsed as before (and kept).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, ClassVar

from textual.css.stylesheet import Stylesheet

#: The most parses kept (a source under a theme each; the app and Textual's widgets bring ~150 a theme).
MAX_PARSES = 4000


class SharedStylesheet(Stylesheet):
    """Textual's stylesheet, with its parses kept for the process."""

    _parsed: ClassVar[dict[tuple, list]] = {}

    def _variables_key(self) -> tuple:
        variables = self._variables
        held = self.__dict__.get("_key_of")
        if held is None or held[0] is not variables:  # set_variables() gives a new mapping
            held = self._key_of = (variables, tuple(sorted(variables.items())))
        return held[1]

    def _parse_rules(self, css: str, read_from: Any, is_default_rules: bool = False, tie_breaker: int = 0,
                     scope: str = "") -> list:
        key = (css, read_from, is_default_rules, tie_breaker, scope, self._variables_key())
        rules = self._parsed.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            if len(self._parsed) < MAX_PARSES:
                self._parsed[key] = rules
        return rules


def default_css_of(node_class: type) -> list[tuple]:
    """A DOMNode class's default CSS sources as its instances add them to the app's stylesheet
    (Textual's `DOMNode._get_default_css`, which reads only the class's CSS bases)."""
    from textual.dom import DOMNode

    return DOMNode._get_default_css(SimpleNamespace(_node_bases=DOMNode._css_bases(node_class)))


def _node_classes() -> list[type]:
    from textual.dom import DOMNode

    found, todo = [], [DOMNode]
    seen = set()
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in seen:
                seen.add(sub)
                found.append(sub)
                todo.append(sub)
    return found


def parse_ahead(app_class: type) -> int:
    """Parse into the process's cache, under the default theme, `app_class`'s CSS file and every default CSS
    of the DOMNode classes imported so far (the app's, its screens', Textual's widgets'), at every tie-breaker
    it can have in an app (a base's CSS takes the lowest of the classes mounted that inherit it). Returns how
    many were parsed. An app is made to learn the theme's variables, never started."""
    from pathlib import Path

    from textual.app import App

    sheet = SharedStylesheet(variables=App().get_css_variables())
    css_path = getattr(app_class, "CSS_PATH", None)
    if isinstance(css_path, (str, Path)):
        sheet.read_all([Path(css_path)])
    sources = {(read_from, source.content, source.is_defaults, source.tie_breaker, source.scope)
               for read_from, source in sheet.source.items()}
    for node_class in _node_classes():
        for read_from, css, tie_breaker, scope in default_css_of(node_class):
            sources.add((read_from, css, True, tie_breaker, scope))
    done = 0
    for read_from, css, is_default, tie_breaker, scope in sources:
        try:
            sheet._parse_rules(css, read_from, is_default, tie_breaker, scope)
        except Exception:  # noqa: BLE001 - a source that does not parse is the tab's to report, as before
            continue
        done += 1
    return done
