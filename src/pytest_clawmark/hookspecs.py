"""pytest-clawmark's own hookspecs (added to pytest's plugin manager in ``pytest_addhooks``).

Third-party packages implement these in a pytest plugin (``pytest11`` entry point) or in a
``conftest.py``. Agents can also be registered without a pytest plugin through the entry-point
group ``pytest_clawmark.agents`` (name -> factory).
"""

from __future__ import annotations

from typing import Any

import pytest


@pytest.hookspec
def pytest_clawmark_agents() -> dict[str, Any]:  # type: ignore[empty-body]
    """Return ``{name: factory}``; a factory takes the ``--agent-option`` mapping and returns an
    object following :class:`pytest_clawmark.agents.base.Agent`."""


@pytest.hookspec
def pytest_clawmark_scenarios() -> list[str]:  # type: ignore[empty-body]
    """Return the names of a project's own scenarios (besides the paper's 13), e.g.
    ``["procurement"]``; the same as the ini key ``clawmark_scenarios``."""


@pytest.hookspec
def pytest_clawmark_trial_finished(record: Any) -> None:
    """Called (on the process that ran it) when a task trial is finished and its
    :class:`pytest_clawmark.results.TrialRecord` is final."""


@pytest.hookspec
def pytest_clawmark_results(document: dict[str, Any]) -> None:
    """Called on the controller with the complete results document before it is written;
    plugins may add keys (e.g. their own report data)."""
