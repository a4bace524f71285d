"""Hypothesis profiles for the adversarial sweep (issue 13).

`default` is small (a smoke run of each sweep, 20 examples), so the whole suite
stays short; `nightly` is the long sweep:

    HYPOTHESIS_PROFILE=nightly .venv/bin/python -m pytest -p no:cacheprovider tests/adversarial

The profile also applies to hypothesis tests elsewhere that do not set their own example count
(every test under tests/unit sets its own).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

SLOW_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large]
NIGHTLY = os.environ.get("HYPOTHESIS_PROFILE") == "nightly"

settings.register_profile("default", max_examples=20, deadline=None, suppress_health_check=SLOW_CHECKS)
settings.register_profile("nightly", max_examples=2000, stateful_step_count=60, deadline=None,
                          suppress_health_check=SLOW_CHECKS)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
