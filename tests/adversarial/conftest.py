"""Hypothesis profiles for the adversarial sweep.

The default run keeps example counts small (the whole suite stays under 2 minutes). A longer
nightly sweep: `HYPOTHESIS_PROFILE=nightly pytest tests/adversarial`.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

NIGHTLY = os.environ.get("HYPOTHESIS_PROFILE") == "nightly"

settings.register_profile("nightly", max_examples=1000, stateful_step_count=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
if NIGHTLY:
    settings.load_profile("nightly")
