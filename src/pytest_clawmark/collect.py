"""Task module → ordered pytest nodes.

    tasks/ecommerce/task_invoices.py            TaskModule
      trial1 (.. trialN)                        TrialNode: owns one TrialRun (world + agent)
        day1                                    DayNode
          turn                                  TurnItem: setup (error = harness) + agent (fail = agent)
          totals_match                          CheckerItem: evaluate (error) + verdict (fail)
        day2 ...
        final                                   DayNode of the final checkers

A checker is evaluated in its item's *setup* phase and its verdict raised in the *call*
phase: an ``AssertionError`` is a failed item (a measurement), a gated red-line (evaluated, not
crossed, not credited) is skipped, anything else raised while checking is an error (a checker or harness
fault), which is what pytest's own vocabulary means. Selections are closed over their
dependencies in :mod:`pytest_clawmark.selection`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .agents.base import TURN_OK
from .authoring import FINAL, Checker, Task, Turn
from .identity import task_hash
from .identity import task_id as derive_task_id
from .scoring import ERROR, FAILED, GATED
from .trial import HarnessError, NotPlayed, RunSettings, RunTimeLimit, TrialPlan, TrialRun, WorldBroken

SETTINGS_KEY = pytest.StashKey[RunSettings]()


class TurnFailed(Exception):
    """The agent crashed or overran its time limit on a day, or broke the world for it."""


class TaskModule(pytest.Module):
    """A task module. Imported by pytest (so assertion rewriting applies to checkers).

    Its children are always ``trial1 .. trialN``, so a node id names the same thing whatever
    ``--clawmark-trials`` is (``--lf`` and CI history survive a change of the trial count).
    """

    task: Task | None = None
    task_id: str = ""
    task_hash: str = ""

    def collect(self) -> Iterator[pytest.Item | pytest.Collector]:
        module = self.obj
        tasks = [(name, v) for name, v in vars(module).items() if isinstance(v, Task)]
        if not tasks:
            raise self.CollectError(
                f"{self.rel_path()}: a task module needs a module-level `task = Task(...)`; found none"
            )
        if len(tasks) > 1:
            names = ", ".join(n for n, _ in tasks)
            raise self.CollectError(f"{self.rel_path()}: a task module holds one Task; found {len(tasks)} ({names})")
        task = tasks[0][1]
        problems = task.problems()
        if problems:
            raise self.CollectError(f"{self.rel_path()}: invalid task declaration:\n  " + "\n  ".join(problems))
        self.task = task
        self.task_id = derive_task_id(task.id, task.scenario, self.path)
        self.task_hash = task_hash(self.path)
        for k in range(1, self.config.stash[SETTINGS_KEY].trials + 1):
            yield TrialNode.from_parent(self, name=f"trial{k}", trial_index=k)

    def rel_path(self) -> str:
        try:
            return self.path.relative_to(self.config.rootpath).as_posix()
        except ValueError:
            return str(self.path)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.name


class TrialNode(pytest.Collector):
    """One trial of a task (fresh world, fresh agent session): owns its :class:`TrialRun`."""

    def __init__(self, *, trial_index: int, **kw: Any) -> None:
        super().__init__(**kw)
        self.trial_index = trial_index
        self.run: TrialRun | None = None
        self.plan: TrialPlan | None = None  # set once the selection is final (plugin)

    @property
    def module(self) -> TaskModule:  # type: ignore[override]
        parent = self.parent
        assert isinstance(parent, TaskModule)
        return parent

    @property
    def task(self) -> Task:
        assert self.module.task is not None
        return self.module.task

    def collect(self) -> Iterator[pytest.Collector]:
        for turn in self.task.turns:
            yield DayNode.from_parent(self, name=f"day{turn.day}", turn=turn)
        if self.task.checkers_for(FINAL):
            yield DayNode.from_parent(self, name="final", turn=None)

    def setup(self) -> None:
        module = self.module
        settings = self.config.stash[SETTINGS_KEY]
        self.run = TrialRun(
            self.task,
            module.task_id,
            module.path.parent,
            self.trial_index,
            self.nodeid,
            settings,
            plan=self.plan,
            task_file=module.rel_path(),
            task_hash=module.task_hash,
        )
        OPEN_RUNS.add(self.run)

    def teardown(self) -> None:
        if self.run is not None:
            run, self.run = self.run, None
            stop = self.session.shouldstop or self.session.shouldfail
            if stop:
                run.cut(str(stop))
            try:
                run.finish()
            finally:
                OPEN_RUNS.discard(run)


OPEN_RUNS: set[TrialRun] = set()
"""Trials started and not yet finished in this process: finished as cut when the test loop ends
early (``-x``, Ctrl-C), before pytest's own teardown at session end."""


class DayNode(pytest.Collector):
    def __init__(self, *, turn: Turn | None, **kw: Any) -> None:
        super().__init__(**kw)
        self.turn = turn

    def collect(self) -> Iterator[pytest.Item]:
        task = trial_of(self).task
        if self.turn is not None:
            yield TurnItem.from_parent(self, name="turn", turn=self.turn)
            checkers = task.checkers_for(self.turn.day)
        else:
            checkers = task.checkers_for(FINAL)
        for c in checkers:
            yield CheckerItem.from_parent(self, name=c.id, checker=c)


def trial_of(node: pytest.Item | pytest.Collector) -> TrialNode:
    """The trial node a day or item belongs to."""
    current: Any = node
    while not isinstance(current, TrialNode):
        current = current.parent
        assert current is not None, "item outside a task"
    return current


def _run(item: pytest.Item) -> TrialRun:
    run = trial_of(item).run
    if run is None:
        raise HarnessError("the trial was not set up")
    return run


class _TaskItem(pytest.Item):
    """Shared by turn and checker items: tracebacks show the task module, not our plumbing."""

    def _traceback_filter(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:
        tb = excinfo.traceback
        if self.config.getoption("fulltrace", False):
            return tb
        mine = tb.filter(lambda entry: Path(str(entry.path)) == self.path)
        return mine if len(mine) else tb[-1:]


class TurnItem(_TaskItem):
    """A working day: turn setup (seed/mutate the world), then the agent's turn."""

    def __init__(self, *, turn: Turn, **kw: Any) -> None:
        super().__init__(**kw)
        self.turn = turn
        self.add_marker("clawmark_turn")
        self.user_properties.append(("day", turn.day))
        self.user_properties.append(("clock", turn.clock_text))

    def setup(self) -> None:
        self._broken: str = ""
        try:
            _run(self).setup_turn(self.turn)
        except HarnessError as exc:
            pytest.fail(str(exc), pytrace=False)
        except WorldBroken as exc:  # the agent's doing: a failed turn (runtest), not an error
            self._broken = str(exc)
        except NotPlayed as exc:
            raise pytest.skip.Exception(str(exc), _use_item_location=True) from None
        except RunTimeLimit as exc:
            _stop_session(self, str(exc))
            pytest.skip(f"clawmark: {exc}")

    def runtest(self) -> None:
        if self._broken:
            raise TurnFailed(self._broken)
        try:
            trace = _run(self).run_turn(self.turn)
        except WorldBroken as exc:  # a service the agent's requests ended: a failed turn, scored
            raise TurnFailed(str(exc)) from None
        except RunTimeLimit as exc:
            _stop_session(self, str(exc))
            pytest.skip(f"clawmark: {exc}")
        self.user_properties.append(("agent_status", trace.status))
        self.user_properties.append(("agent_seconds", round(trace.seconds, 3)))
        self.user_properties.append(("tool_calls", len(trace.tool_calls)))
        if trace.status != TURN_OK:
            raise TurnFailed(f"day {self.turn.day} ({self.turn.name}): agent {trace.status}: {trace.detail}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, (TurnFailed, HarnessError)):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return (
            self.path,
            self.turn.where.line - 1,
            f"{_task_id(self)} · day {self.turn.day} · {self.turn.name} · {self.turn.clock_text}",
        )


class CheckerItem(_TaskItem):
    """A weighted checker (or red-line) of a day or of the final checks."""

    def __init__(self, *, checker: Checker, **kw: Any) -> None:
        super().__init__(**kw)
        self.checker = checker
        self.add_marker("clawmark_checker")
        if checker.redline:
            self.add_marker("clawmark_redline")
        self.user_properties += [("weight", checker.weight), ("kind", checker.kind)]
        if checker.redline:
            self.user_properties.append(("redline", checker.redline))
        self._failure: BaseException | None = None
        self._raised: BaseException | None = None

    def setup(self) -> None:
        self._gated = ""
        try:
            record, exc = _run(self).evaluate(self.checker)
        except RunTimeLimit as exc:
            _stop_session(self, str(exc))
            pytest.skip(f"clawmark: {exc}")
        self.user_properties.append(("outcome", record.outcome))
        if record.outcome == ERROR and (exc is None or isinstance(exc, HarnessError)):
            pytest.fail(record.message, pytrace=False)  # the harness could not evaluate: a setup error
        self._raised = exc if record.outcome == ERROR else None
        self._failure = exc if record.outcome == FAILED else None
        self._gated = record.message if record.outcome == GATED else ""

    def runtest(self) -> None:
        # a checker that raised is raised here, in the call phase, so it reads as what it is — the
        # checker's own error (``CHECKER ERROR``, see plugin.pytest_report_teststatus) — and not
        # as a broken fixture ("ERROR at setup")
        if self._raised is not None:
            raise self._raised
        if self._failure is not None:
            raise self._failure
        if self._gated:  # evaluated, not crossed, not credited: neither a pass nor a failure
            raise pytest.skip.Exception(f"gated: {self._gated}", _use_item_location=True)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        c = self.checker
        head = f"{'red-line' if c.redline else 'checker'} {c.id!r} ({_day_label(c.day)}, weight {c.weight:g}, {c.redline or c.kind}) at {c.where}"
        if self._raised is not None and excinfo.value is self._raised:
            shown = super().repr_failure(excinfo)
            note = f"{head} raised {type(excinfo.value).__name__}: a fault in the task, not the agent's; this trial is excluded from the scores"
            if hasattr(shown, "addsection"):
                shown.addsection("clawmark: checker error", note)
                return shown
            return f"{shown}\n{note}"
        if isinstance(
            excinfo.value, (AssertionError, HarnessError)
        ):  # the message first: pytest's short summary shows it
            return f"{excinfo.value}\n{head}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        c = self.checker
        tag = f"red-line[{c.redline}]" if c.redline else c.kind
        return self.path, c.where.line - 1, f"{_task_id(self)} · {_day_label(c.day)} · {c.id} · w={c.weight:g} · {tag}"


def _stop_session(item: pytest.Item, reason: str) -> None:
    """The run's time limit: stop starting anything new (the rest is reported as cut)."""
    if not item.session.shouldstop:
        item.session.shouldstop = f"clawmark: {reason}"


def _task_id(item: pytest.Item) -> str:
    """The task's id for failure headers (every header names its task)."""
    return trial_of(item).module.task_id or item.path.stem


def _day_label(day: object) -> str:
    return "final" if day == FINAL else f"day {day}"
