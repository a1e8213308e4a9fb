"""Task module → ordered pytest nodes.

    tasks/ecommerce/task_invoices.py            TaskModule (the trial scope when trials == 1)
      [trial2]                                  TrialNode (only with --clawmark-trials > 1)
        day1                                    DayNode
          turn                                  TurnItem: setup (error = harness) + agent (fail = agent)
          totals_match                          CheckerItem: evaluate (error) + verdict (fail)
        day2 ...
        final                                   DayNode of the final checkers

A checker is evaluated in its item's *setup* phase and its verdict raised in the *call*
phase: an ``AssertionError`` is a failed item (a measurement), anything else raised while
checking is an error (a checker or harness fault), which is what pytest's own vocabulary means.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .agents.base import OK
from .authoring import FINAL, Checker, Task, Turn
from .trial import HarnessError, RunSettings, TrialRun

SETTINGS_KEY = pytest.StashKey[RunSettings]()


class TurnFailed(Exception):
    """The agent crashed or overran its time limit on a day."""


class TrialScope:
    """Mixin for the node that owns a trial's runtime (world + agent) for its subtree."""

    trial_index: int = 1
    run: TrialRun | None = None

    @property
    def owns_trial(self) -> bool:
        return True

    def _task(self) -> Task:
        module = self.getparent(TaskModule)  # type: ignore[attr-defined]
        assert module is not None and module.task is not None
        return module.task

    def setup(self) -> None:
        module: TaskModule = self.getparent(TaskModule)  # type: ignore[attr-defined]
        settings = self.config.stash[SETTINGS_KEY]  # type: ignore[attr-defined]
        self.run = TrialRun(module.task, module.task_id, module.path.parent, self.trial_index, self.nodeid, settings)  # type: ignore[attr-defined, arg-type]

    def teardown(self) -> None:
        if self.run is not None:
            run, self.run = self.run, None
            run.finish()

    def day_nodes(self) -> Iterator[pytest.Collector]:
        task = self._task()
        for turn in task.turns:
            yield DayNode.from_parent(self, name=f"day{turn.day}", turn=turn)  # type: ignore[arg-type]
        if task.checkers_for(FINAL):
            yield DayNode.from_parent(self, name="final", turn=None)  # type: ignore[arg-type]


class TaskModule(TrialScope, pytest.Module):
    """A task module. Imported by pytest (so assertion rewriting applies to checkers)."""

    task: Task | None = None
    task_id: str = ""

    def collect(self) -> Iterator[pytest.Item | pytest.Collector]:
        module = self.obj
        tasks = [(name, v) for name, v in vars(module).items() if isinstance(v, Task)]
        if not tasks:
            raise self.CollectError(f"{self._rel()}: a task module needs a module-level `task = Task(...)`; found none")
        if len(tasks) > 1:
            names = ", ".join(n for n, _ in tasks)
            raise self.CollectError(f"{self._rel()}: a task module holds one Task; found {len(tasks)} ({names})")
        task = tasks[0][1]
        problems = task.problems()
        if problems:
            raise self.CollectError(f"{self._rel()}: invalid task declaration:\n  " + "\n  ".join(problems))
        self.task = task
        stem = self.path.stem.removeprefix("task_")
        self.task_id = task.id or f"{task.scenario}/{stem}"
        trials = self.config.stash[SETTINGS_KEY].trials
        if trials == 1:
            yield from self.day_nodes()
        else:
            for k in range(1, trials + 1):
                yield TrialNode.from_parent(self, name=f"trial{k}", trial_index=k)

    @property
    def owns_trial(self) -> bool:
        """With one trial the module is the trial; with several, its TrialNode children are."""
        return self.config.stash[SETTINGS_KEY].trials == 1

    def setup(self) -> None:
        if self.owns_trial:
            TrialScope.setup(self)

    def _rel(self) -> str:
        try:
            return self.path.relative_to(self.config.rootpath).as_posix()
        except ValueError:
            return str(self.path)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, self.name


class TrialNode(TrialScope, pytest.Collector):
    """One of several independent trials of a task (fresh world, fresh agent session)."""

    def __init__(self, *, trial_index: int, **kw: Any) -> None:
        super().__init__(**kw)
        self.trial_index = trial_index

    def collect(self) -> Iterator[pytest.Collector]:
        yield from self.day_nodes()


class DayNode(pytest.Collector):
    def __init__(self, *, turn: Turn | None, **kw: Any) -> None:
        super().__init__(**kw)
        self.turn = turn

    def collect(self) -> Iterator[pytest.Item]:
        scope = _scope(self)
        task = scope._task()
        if self.turn is not None:
            yield TurnItem.from_parent(self, name="turn", turn=self.turn)
            checkers = task.checkers_for(self.turn.day)
        else:
            checkers = task.checkers_for(FINAL)
        for c in checkers:
            yield CheckerItem.from_parent(self, name=c.id, checker=c)


def _scope(node: pytest.Item | pytest.Collector) -> TrialScope:
    """The node owning the trial this node belongs to."""
    current: Any = node
    while not (isinstance(current, TrialScope) and current.owns_trial):
        current = current.parent
        assert current is not None, "item outside a task"
    return current


def _run(item: pytest.Item) -> TrialRun:
    run = _scope(item).run
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
        try:
            _run(self).setup_turn(self.turn)
        except HarnessError as exc:
            pytest.fail(str(exc), pytrace=False)

    def runtest(self) -> None:
        trace = _run(self).run_turn(self.turn)
        self.user_properties.append(("agent_status", trace.status))
        self.user_properties.append(("agent_seconds", round(trace.seconds, 3)))
        if trace.status != OK:
            raise TurnFailed(f"day {self.turn.day} ({self.turn.name}): agent {trace.status}: {trace.detail}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, (TurnFailed, HarnessError)):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.turn.where.line - 1, f"day {self.turn.day} · {self.turn.name} · {self.turn.clock_text}"


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

    def setup(self) -> None:
        record, exc = _run(self).evaluate(self.checker)
        self.user_properties.append(("outcome", record.outcome))
        if record.outcome == "error":
            if exc is None or isinstance(exc, HarnessError):
                pytest.fail(record.message, pytrace=False)
            raise exc
        self._failure = exc if record.outcome == "failed" else None

    def runtest(self) -> None:
        if self._failure is not None:
            raise self._failure

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        c = self.checker
        head = f"{'red-line' if c.redline else 'checker'} {c.id!r} ({_day_label(c.day)}, weight {c.weight:g}, {c.redline or c.kind}) at {c.where}"
        if isinstance(excinfo.value, AssertionError):
            return f"{head}\n{excinfo.value}"
        if isinstance(excinfo.value, HarnessError):
            return f"{head}\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        c = self.checker
        tag = f"red-line[{c.redline}]" if c.redline else c.kind
        return self.path, c.where.line - 1, f"{_day_label(c.day)} · {c.id} · w={c.weight:g} · {tag}"


def _day_label(day: object) -> str:
    return "final" if day == FINAL else f"day {day}"
