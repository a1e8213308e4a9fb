"""Shared settings of the hostile-input fuzz suites (issue 9).

Why one place: every server's fuzz suite must explore at least 500 generated inputs in CI, derandomised
(so a red CI reproduces), and may explore many more on a developer's machine. ``CLAWMARK_FUZZ_SCALE``
multiplies the example counts (e.g. ``CLAWMARK_FUZZ_SCALE=10 pytest tests/test_*_fuzz.py``); CI runs
the suites at scale 1 under the ``ci`` hypothesis profile (tests/conftest.py).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

FUZZ_SCALE = max(0.1, float(os.environ.get("CLAWMARK_FUZZ_SCALE", "1")))
REQUEST_LIMIT_S = 10.0
"""What the suites accept as "no hang": one hostile request answered within this many seconds.

A limit, not a benchmark: real answers take milliseconds; a stalled server would take minutes."""


def fuzz_settings(examples: int) -> settings:
    """Hypothesis settings for ``examples`` generated inputs (scaled), no deadline, fixtures allowed.

    No per-example deadline: the machines are noisy; the suites assert their own generous
    :data:`REQUEST_LIMIT_S` per request instead, which is what "no hang" means.
    """
    return settings(
        max_examples=max(1, int(examples * FUZZ_SCALE)),
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
            HealthCheck.data_too_large,
        ],
    )
