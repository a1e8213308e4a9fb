"""The Agent protocol (docs/agents.md) and what the harness hands an agent.

An agent is a coworker, not a one-shot solver: one agent session spans every day of a task
trial. The harness calls :meth:`Agent.start` once, :meth:`Agent.wake` once per day with that
day's message, and :meth:`Agent.stop` once at the end, even after errors.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..agentplane import AgentView as AgentView  # the solution's view lives with its clients
from ..world.service import Person
from .limits import AgentLimits
from .sandbox import Isolation

# The status of an agent's turn (TurnTrace.status). Named TURN_* so that code reading both never
# confuses them with a checker's outcome (scoring.PASSED, FAILED, GATED, ERROR, NOT_RUN).
TURN_OK = "ok"
TURN_FAILED = "failed"  # the agent crashed or exited non-zero: the agent's failure
TURN_TIMEOUT = "timeout"  # the agent overran its turn time limit: the agent's failure
TURN_INFRA_ERROR = "infra-error"  # the adapter or provider failed: a harness fault, not scored
OK, FAILED, TIMEOUT, INFRA_ERROR = TURN_OK, TURN_FAILED, TURN_TIMEOUT, TURN_INFRA_ERROR
"""The former names, kept for adapters written against them."""
STATUSES = (OK, FAILED, TIMEOUT, INFRA_ERROR)


@dataclass
class ToolCall:
    name: str
    arguments: str = ""  # a short summary, never secrets
    status: str = ""


@dataclass
class TurnTrace:
    """What an agent reports about one day's work."""

    status: str = OK
    seconds: float = 0.0
    detail: str = ""  # why it failed, in one line
    tool_calls: list[ToolCall] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)  # assistant messages, maybe truncated
    tokens: dict[str, int] = field(default_factory=dict)  # input, output, cache_read, cache_write
    transcript: str = ""  # path of the raw transcript, if any
    extra: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        data = asdict(self)
        data["tool_call_count"] = len(self.tool_calls)
        return data


@dataclass
class AgentSession:
    """Everything an agent may know about its task trial: the agent plane, never the admin plane."""

    task_id: str
    role: str
    persona: str
    user: Person
    workspace: Path  # the agent's working folder (cwd of command agents)
    home: Path  # a private folder for the agent's own state (messages, transcripts)
    env: Mapping[str, str]  # CLAWMARK_* variables describing the world's endpoints
    time_limit: float  # seconds per turn
    options: Mapping[str, str]
    evidence_dir: Path  # where the harness keeps run evidence for this trial
    solutions: Mapping[int, Callable[[AgentView], Any]] = field(default_factory=dict)
    """Reference solutions, for the in-process ``reference`` agent only."""
    isolation: Isolation = field(default_factory=Isolation)
    """How process agents must confine what they start (``--agent-isolation``); see agents/sandbox.py."""
    limits: AgentLimits = field(default_factory=AgentLimits)
    """What each day's agent processes may take (``--agent-limits``); see agents/limits.py and
    :func:`~pytest_clawmark.agents.process.run_agent_process`, which applies them."""


@runtime_checkable
class Agent(Protocol):
    """An agent adapter: ``start`` once per task trial, ``wake`` once per day, ``stop`` at the end.

    Optional (not part of this protocol's required methods; adapters without it are fine):

    ``preflight(self, isolation: Isolation) -> None`` — called once per run, in the controller,
    right after the agent is built from its options and before any world starts, with the
    isolation in effect (mode ``bwrap`` or ``none``, already resolved). It raises
    :class:`AgentError` with a one-line, actionable message when the agent cannot possibly start
    (a missing program or script, a program the sandbox does not show); the run then stops with
    that message as a usage error, and nothing is scored. Keep it cheap and side-effect free: no
    network, no model call, and any probe process or folder gone when it returns.
    """

    name: str

    def start(self, session: AgentSession) -> None:
        """Begin a task trial (its world is up).

        Args:
            session: what the agent may know: its workspace and home, the world's ``CLAWMARK_*``
                endpoints, the persona, the turn time limit, the isolation and limits in effect.

        Raises:
            AgentError: the agent cannot run this trial (the trial is errored, never scored).
        """
        ...

    def wake(self, message: str, day: int, clock: datetime) -> TurnTrace:
        """Work one day: read the wake-up ``message`` and act on the world until done.

        Args:
            message: the day's wake-up message (what the user asks, loud events announced).
            day: the day's number, from 1.
            clock: the day's in-universe time (aware).

        Returns:
            A :class:`TurnTrace`: ``status`` ``ok``, ``failed`` (crashed), ``timeout`` (past
            ``session.time_limit``) or ``infra-error`` (the adapter or the model provider failed:
            not the agent's measurement), with tool calls, messages and tokens when known.
        """
        ...

    def stop(self) -> None:
        """End the trial: stop everything the agent started. Called even after errors; idempotent."""
        ...


AgentFactory = Callable[[Mapping[str, str]], Agent]
"""Builds an agent from its ``--agent-option`` mapping."""


class AgentError(Exception):
    """An agent that cannot be selected or started (bad name, bad option, missing tool)."""
