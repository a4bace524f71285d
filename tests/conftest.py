"""The whole suite: the tests marked `slow` run first.

`slow` marks a test that takes seconds of its own on an idle machine: a real Chromium, a real
server, a numba compile, a hypothesis sweep, a Pilot test that walks many screens. CI runs them
all (`pytest`, as the README says); `pytest -m "not slow"` is the quick run while you work.

Run first, the long tests start while both xdist workers are fresh, and the last minutes are
made of short tests that the workers share out (`--dist worksteal`: a worker that runs dry
takes half of what the other has left). Run last, one long test would keep one core busy
while the other waits.
"""

from __future__ import annotations


def pytest_collection_modifyitems(config, items):
    # a stable sort: the slow tests first, each group in its usual order (a module's tests stay together)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
