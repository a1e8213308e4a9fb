"""The ``reference`` agent: runs the task's reference solution for each day.

It proves a task is solvable through the agent plane alone and is the corpus gate's 100%
baseline. Solutions receive an :class:`~pytest_clawmark.agents.base.AgentView` (workspace and
endpoints), never the admin plane.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Mapping
from datetime import datetime

from .base import TURN_FAILED, AgentSession, AgentView, TurnTrace


class ReferenceAgent:
    name = "reference"

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options = dict(options or {})
        self.session: AgentSession | None = None

    def start(self, session: AgentSession) -> None:
        self.session = session

    def wake(self, message: str, day: int, clock: datetime) -> TurnTrace:
        assert self.session is not None, "wake() before start()"
        solution = self.session.solutions.get(day)
        if solution is None:
            return TurnTrace(status=TURN_FAILED, detail=f"the task has no reference solution for day {day}")
        view = AgentView(self.session.workspace, self.session.env, self.session.user, clock, day, message)
        t0 = time.perf_counter()
        try:
            solution(view)
        except Exception as exc:  # the solution is the agent here: its crash is the agent's failure
            tb = traceback.format_exc(limit=-3)
            return TurnTrace(
                status=TURN_FAILED,
                seconds=time.perf_counter() - t0,
                detail=f"{type(exc).__name__}: {exc}",
                extra={"traceback": tb},
            )
        return TurnTrace(seconds=time.perf_counter() - t0)

    def stop(self) -> None:
        self.session = None
