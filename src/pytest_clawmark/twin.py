"""The reference twin: the same task trial played by its reference solution, in a private world.

Why: when a turn setup or a checker raises on the world an agent left, either the agent broke
something (deleted the spreadsheet a later day updates, wrote a cell a checker cannot parse)
or the task's author made a mistake. Only the first may stay in the score — otherwise an agent
could remove its own bad trials from the aggregates by wrecking its world — and only the second
may be excluded. The twin decides by experiment, not by guess: it replays the task's turns with
the reference agent in a fresh world (never visible to the agent under test) and runs the same
setup or checker there. Works there → the agent's doing. Fails there too → the task's fault.

The twin starts lazily on the first such question (an ordinary run never pays for it) and
advances monotonically with the trial it shadows, since checkers and turns come in day order.
Setups and reference solutions are deterministic, so the verdict is too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .agents.base import TURN_OK
from .agents.reference import ReferenceAgent
from .authoring import Checker

if TYPE_CHECKING:
    from .trial import TrialRun


class ReferenceTwin:
    def __init__(self, of: TrialRun) -> None:
        from .trial import TrialRun

        settings = replace(
            of.settings,
            agent_name="reference",
            agent_options={},
            make_agent=lambda: ReferenceAgent({}),
            isolation="none",
            keep_worlds=False,
            rerun_determinism=False,
            agent_retries=0,
            deadline=None,
            on_finished=lambda record: None,
        )
        self.run = TrialRun(
            of.task, of.record.id, of.task_dir, of.trial, of.record.nodeid + "[twin]", settings, twin_of=of
        )
        self._set_up = 0  # last day whose setup ran in the twin
        self._solved = 0  # last day whose reference solution ran in the twin
        self.failure = ""  # why the twin could not go on (then it proves nothing)

    def _reach(self, day: int, solved: bool) -> bool:
        """Play the twin up to ``day``'s setup (and its solution when ``solved``)."""
        turns = {t.day: t for t in self.run.task.turns}
        try:
            while not self.failure:
                if self._solved < self._set_up:  # the pending day's solution
                    if self._set_up > day or (self._set_up == day and not solved):
                        break
                    trace = self.run.run_turn(turns[self._set_up])
                    if trace.status != TURN_OK:
                        self.failure = (
                            f"the reference solution of day {self._set_up} failed ({trace.status}: {trace.detail})"
                        )
                        break
                    self._solved = self._set_up
                elif self._set_up < day:
                    self.run.setup_turn(turns[self._set_up + 1])
                    self._set_up += 1
                else:
                    break
        except Exception as exc:
            self.failure = f"day {self._set_up + 1} failed in the reference replay ({type(exc).__name__}: {exc})"
        return not self.failure

    def setup_works(self, day: int) -> bool:
        """Does ``day``'s setup succeed after the reference solution played the earlier days?"""
        return self._reach(day, solved=False) and self._set_up >= day

    def checker_fault(self, checker: Checker) -> str | None:
        """``None`` when ``checker`` judges the reference solution's world without raising (so
        its exception on the agent's world is the agent's doing); else why it is the task's."""
        day = self.run.task.days if checker.is_final else int(checker.day)
        if not self._reach(day, solved=True):
            return f"not attributable to the agent: {self.failure}"
        if self._solved > day:  # pragma: no cover - checkers come in day order
            return "not attributable to the agent: the reference replay is past this checker's day"
        try:
            checker.fn(self.run.start())
        except AssertionError:
            return None
        except Exception as exc:
            return f"raises on the reference solution's world too ({type(exc).__name__}): a fault of the task"
        return None

    def close(self) -> None:
        self.run.finish()
