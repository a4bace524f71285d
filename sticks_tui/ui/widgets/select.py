"""Textual's Select, mounted with the value it opens with already shown: not styled a second time for it.

Textual's Select composes the box that shows its value (SelectCurrent) empty, and gives it its value once
mounted: the box then gains its class `-has-value`, and it and everything in it are styled again. Every
Select the app builds opens with a value (the setup screen's five, the train dialog's six, the export and
print dialogs', the lab's), so each was styled twice as its screen opened: about a fifth of the work of
Textual's styling on the way from the setup screen into a game and its train dialog. This one composes the
box with the class (and its `has_value`) it is about to be given, so its first styling is the one kept; and
the same for its list of options (SelectOverlay), whose `compact` is bound to the Select's and was set, with
its class `-textual-compact`, as it was mounted (every Select of the app is compact).
What it shows is the same: the value's label is set on mount, as Textual does.

Every dropdown of the app is this one (tests/ui/test_screen_work.py checks that none is styled again as it opens).
(Textual is pinned, 8.2.8: SelectCurrent's `has_value` sets that class, and Select's mount sets the value.)
"""

from __future__ import annotations

from textual.widgets import Select as TextualSelect
from textual.widgets._select import SelectCurrent, SelectOverlay


class Select(TextualSelect):
    """A dropdown whose value box is composed with the value it opens with shown (see the module)."""

    def _opens_with_a_value(self) -> bool:
        """Whether the mount gives it a value (Select._init_selected_option): its own, or the first option when
        it may not be blank."""
        return self._value != self.NULL or not self._allow_blank

    def compose(self):
        shown = self._opens_with_a_value()
        for widget in super().compose():
            if shown and isinstance(widget, SelectCurrent):
                widget.set_reactive(SelectCurrent.has_value, True)
                widget.add_class("-has-value", update=False)
            elif isinstance(widget, SelectOverlay) and self.compact:
                # its `compact` is bound to the Select's, and set (with its class) as it is mounted: given now
                widget.set_reactive(SelectOverlay.compact, True)
                widget.add_class("-textual-compact", update=False)
            yield widget
