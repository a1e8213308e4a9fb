"""pytest-clawmark: a living-world, multi-day benchmark for coworker agents, as a pytest plugin.

The public API is small and re-exported here; everything else is an implementation detail.
"""

from .agents.base import Agent, AgentSession, AgentView, ToolCall, TurnTrace
from .authoring import CHECKER_KINDS, REDLINE_CLASSES, REDLINE_WEIGHT, SCENARIOS, Task
from .world import DeliverableMissing, Person, World

__version__ = "0.1.0"

__all__ = [
    "Agent",
    "AgentSession",
    "AgentView",
    "CHECKER_KINDS",
    "DeliverableMissing",
    "Person",
    "REDLINE_CLASSES",
    "REDLINE_WEIGHT",
    "SCENARIOS",
    "Task",
    "ToolCall",
    "TurnTrace",
    "World",
    "__version__",
]
