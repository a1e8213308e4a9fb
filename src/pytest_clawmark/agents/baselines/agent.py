"""The in-process agent every shortcut baseline is: the Agent protocol around one strategy.

A baseline is an in-process agent like ``reference`` and ``noop``: no process of its own, no
model. Each day it builds nothing but a :class:`~.toolkit.Toolkit` over the agent plane and runs
its strategy's :meth:`BaselineAgent.act`. Errors of single actions are part of the trace (each
action is a tool call with its status), never a crash of the turn; the turn always ends ``ok``
unless the strategy itself has a bug, which the harness reports as an adapter fault.

Option: ``--agent-option seconds=N`` — the wall-clock budget of one day's actions (default 120,
never more than the turn's time limit); no new action starts after it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import datetime

from ..base import AgentError, AgentSession, TurnTrace
from .toolkit import Toolkit

DEFAULT_SECONDS = 120.0


class BaselineAgent:
    """Subclasses set ``name`` and implement :meth:`act`; state kept across days lives on ``self``."""

    name = "baseline"
    starts_processes = False  # in-process: nothing for isolation to confine

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options = dict(options or {})
        try:
            self.seconds = float(self.options.get("seconds", DEFAULT_SECONDS))
        except ValueError:
            raise AgentError(f"{self.name}: --agent-option seconds= expects a number of seconds") from None
        if self.seconds <= 0:
            raise AgentError(f"{self.name}: --agent-option seconds= must be positive")
        self.session: AgentSession | None = None
        self.kit: Toolkit | None = None

    def start(self, session: AgentSession) -> None:
        self.session = session
        budget = min(self.seconds, session.time_limit) if session.time_limit else self.seconds
        self.kit = Toolkit(session.env, session.workspace, session.user.email, budget)

    def wake(self, message: str, day: int, clock: datetime) -> TurnTrace:
        assert self.kit is not None, "wake() before start()"
        kit = self.kit
        kit.start_turn()
        t0 = time.perf_counter()
        try:
            self.act(kit, message, day, clock)
        finally:
            kit.close()
        failed = sum(1 for c in kit.calls if c.status != "ok")
        return TurnTrace(
            seconds=time.perf_counter() - t0,
            detail=f"{self.name}: {len(kit.calls)} action(s), {failed} refused or skipped",
            tool_calls=list(kit.calls),
        )

    def act(self, kit: Toolkit, message: str, day: int, clock: datetime) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def stop(self) -> None:
        if self.kit is not None:
            self.kit.close()
        self.session = None
        self.kit = None
