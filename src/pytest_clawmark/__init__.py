"""pytest-clawmark: a living-world, multi-day benchmark for coworker agents, as a pytest plugin.

The public API is small and re-exported here; everything else is an implementation detail.
The re-exports are resolved on first use (PEP 562): importing one submodule — a server alone in
its container (``servers.standalone``), the CLI — does not pay for the agents, authoring and
world stacks (~0.3 s).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import bytecode

bytecode.install()  # first: every later import of this process profits (see the module)

__version__ = "0.1.0"

_EXPORTS = {
    "Agent": ".agents.base",
    "AgentSession": ".agents.base",
    "AgentView": ".agentplane",
    "ToolCall": ".agents.base",
    "TurnTrace": ".agents.base",
    "CHECKER_KINDS": ".authoring",
    "REDLINE_CLASSES": ".authoring",
    "REDLINE_WEIGHT": ".authoring",
    "SCENARIOS": ".authoring",
    "Task": ".authoring",
    "DeliverableMissing": ".world",
    "Person": ".world",
    "World": ".world",
}

__all__ = [
    "Agent", "AgentSession", "AgentView", "CHECKER_KINDS", "DeliverableMissing", "Person", "REDLINE_CLASSES",
    "REDLINE_WEIGHT", "SCENARIOS", "Task", "ToolCall", "TurnTrace", "World", "__version__",
]  # fmt: skip

if TYPE_CHECKING:
    from .agentplane import AgentView
    from .agents.base import Agent, AgentSession, ToolCall, TurnTrace
    from .authoring import CHECKER_KINDS, REDLINE_CLASSES, REDLINE_WEIGHT, SCENARIOS, Task
    from .world import DeliverableMissing, Person, World


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'pytest_clawmark' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value
