"""Snapshots taken one after another in one app session (`snap_walk`), each compared with the SVG file of its own
name, as `snap_compare` compares one snapshot with the file named after its test."""

from __future__ import annotations

import pytest
from pytest_textual_snapshot import SVGImageExtension


class NamedSVG(SVGImageExtension):
    """A snapshot file named by the name given (`snapshot(name=...)`), not by the test and an index: the screens a
    walk passes keep the files their own tests made."""

    @classmethod
    def get_snapshot_name(cls, *, test_location, index=0) -> str:
        if isinstance(index, str):
            return index
        return super().get_snapshot_name(test_location=test_location, index=index)


@pytest.fixture
def snap_walk(snapshot):
    """`await shot(pilot, name)`: the screen now, taken as `snap_compare` takes it after its `run_before` (the same
    waits, the same export), compared with `__snapshots__/<module>/<name>.svg` (`--snapshot-update` writes it).
    Run the app with `app.run_test(size=..., tooltips=True, notifications=True)`, as `snap_compare` runs it."""
    named = snapshot.use_extension(NamedSVG)

    async def shot(pilot, name: str) -> None:
        app = pilot.app
        await pilot.pause()
        await pilot.press()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        svg = app.export_screenshot(title=app.title, simplify=True)
        assert named(name=name) == svg, f"the screen differs from {name}.svg"

    return shot
