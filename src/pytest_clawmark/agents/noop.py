"""The ``noop`` agent: does nothing. It measures how much a task gives away for free."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from .base import AgentSession, TurnTrace


class NoopAgent:
    name = "noop"

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options = dict(options or {})

    def start(self, session: AgentSession) -> None:
        pass

    def wake(self, message: str, day: int, clock: datetime) -> TurnTrace:
        return TurnTrace(detail="did nothing")

    def stop(self) -> None:
        pass
