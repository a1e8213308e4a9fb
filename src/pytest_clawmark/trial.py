"""One task trial at run time: its world, its agent session, its record.

The collection tree calls into a :class:`TrialRun` in order: :meth:`start` (lazily, at the
first turn), then per day :meth:`setup_turn` → :meth:`run_turn` → :meth:`evaluate` for each
checker, and finally :meth:`finish` (from the trial node's teardown, so it runs on errors and
on Ctrl-C too). pytest-free on purpose: the items only translate its results into reports.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agents.base import INFRA_ERROR, OK, AgentSession, TurnTrace
from .agents.sandbox import NONE, Isolation
from .authoring import Checker, Task, Turn
from .results import CheckerRecord, DayRecord, TrialRecord
from .scoring import ERROR, FAILED, NOT_RUN, PASSED
from .world import World

DETERMINISM_RUNS = 3
"""With --rerun-determinism, every checker is evaluated this many times on the frozen state."""


@dataclass
class RunSettings:
    """Run-wide settings, identical on every xdist worker."""

    agent_name: str
    agent_options: dict[str, str]
    make_agent: Callable[[], Any]
    evidence_root: Path
    turn_timeout: float | None = None  # an explicit override (CLI > env > ini); None: the task's
    trials: int = 1
    rerun_determinism: bool = False
    keep_worlds: bool = False
    agent_retries: int = 0  # re-wakes after an infra-error that left the world untouched
    retry_backoff: float = 2.0  # seconds before the first retry; doubles each time
    on_finished: Callable[[TrialRecord], None] = lambda record: None
    determinism_violations: list[str] = field(default_factory=list)
    isolation: str = NONE  # resolved --agent-isolation: bwrap | none
    isolation_requested: str = "auto"
    isolation_warning: str = ""  # why auto fell back to none


class HarnessError(Exception):
    """A fault of the harness or the task (not the agent): reported as an error, not scored."""


class TrialRun:
    def __init__(self, task: Task, task_id: str, task_dir: Path, trial: int, nodeid: str, settings: RunSettings) -> None:
        self.task = task
        self.task_dir = task_dir
        self.trial = trial
        self.settings = settings
        self.record = TrialRecord(
            id=task_id, scenario=task.scenario, role=task.role, trial=trial, nodeid=nodeid, agent=settings.agent_name
        )
        self.world: World | None = None
        self.agent: Any = None
        self.start_error: BaseException | None = None
        self.outcomes: dict[str, CheckerRecord] = {}
        self.messages: dict[int, str] = {}
        self._audit_mark = 0
        self.finished = False
        self.evidence_dir = settings.evidence_root / _safe(task_id) / f"trial{trial}"

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> World:
        """Start the world and the agent session once; later calls re-raise a start failure."""
        if self.world is not None:
            return self.world
        if self.start_error is not None:
            raise HarnessError(f"the world of this trial did not start: {self.start_error}") from self.start_error
        try:
            root = Path(tempfile.mkdtemp(prefix=f"clawmark-{_safe(self.record.id)}-t{self.trial}-"))
            world = World(
                self.task.services, root, user=self.task.user, people=self.task.people, task_dir=self.task_dir  # type: ignore[arg-type]
            )
            world.start()
            self.world = world
            self.record.world_start_seconds = round(world.start_seconds, 4)
            home = root / "agent-home"
            home.mkdir()
            self.evidence_dir.mkdir(parents=True, exist_ok=True)
            env = {"CLAWMARK_TASK": self.record.id, **world.agent_env()}
            env.pop("CLAWMARK_NOW", None)
            session = AgentSession(
                task_id=self.record.id,
                role=self.task.role,
                persona=self.task.persona,
                user=self.task.user,  # type: ignore[arg-type]
                workspace=world.workspace,
                home=home,
                env=env,
                time_limit=self.time_limit,
                options=self.settings.agent_options,
                evidence_dir=self.evidence_dir,
                solutions={d: s.fn for d, s in self.task.solutions.items()},
                isolation=Isolation(self.settings.isolation, hidden=(self.task_dir, self.settings.evidence_root)),
            )
            self.agent = self.settings.make_agent()
            self.agent.start(session)
            # what was in effect for this trial: a process agent reports its sandbox; an
            # in-process agent (reference, noop) has none
            self.record.isolation = str(getattr(self.agent, "isolation", NONE))
        except BaseException as exc:
            self.start_error = exc
            self.record.errors.append(f"start: {type(exc).__name__}: {exc}")
            raise
        return world

    @property
    def time_limit(self) -> float:
        return self.settings.turn_timeout if self.settings.turn_timeout is not None else self.task.timeout()

    def finish(self) -> TrialRecord:
        """Stop agent and world, mark never-reached checkers and days, publish the record."""
        if self.finished:
            return self.record
        self.finished = True
        problems: list[str] = []
        if self.agent is not None:
            try:
                self.agent.stop()
            except Exception as exc:
                problems.append(f"agent stop: {type(exc).__name__}: {exc}")
        if self.world is not None:
            try:
                self.world.stop()
            finally:
                if not self.settings.keep_worlds:
                    shutil.rmtree(self.world.root, ignore_errors=True)
        reached = {d.day for d in self.record.days}
        for turn in self.task.turns:
            if turn.day not in reached:
                self.record.days.append(DayRecord(turn.day, turn.name, turn.clock_text, NOT_RUN))
        self.record.days.sort(key=lambda d: d.day)
        for c in sorted(self.task.checkers, key=lambda c: c.day_index):
            if c.id not in self.outcomes:
                when = "the final checks were" if c.is_final else f"day {c.day} was"
                self.outcomes[c.id] = self._record(c, NOT_RUN, f"not evaluated: {when} never reached")
        order = {c.id: i for i, c in enumerate(sorted(self.task.checkers, key=lambda c: c.day_index))}
        self.record.checkers = sorted(self.outcomes.values(), key=lambda r: order[r.id])
        self.record.errors.extend(problems)
        self.settings.on_finished(self.record)
        return self.record

    # -- turns ---------------------------------------------------------------------------------
    def setup_turn(self, turn: Turn) -> str:
        """Advance the clock and run the turn's setup; returns the wake-up message."""
        world = self.start()
        world.clock = turn.clock
        world.mutations.allowed = frozenset(turn.silent)
        before = len(world.mutations.applied)
        try:
            message = turn.setup(world)
            if not isinstance(message, str) or not message.strip():
                raise HarnessError(f"turn {turn.name!r} must return the wake-up message (a non-empty str), got {type(message).__name__}")
            applied = {m for m, _, _ in world.mutations.applied[before:]}
            missing = [m for m in turn.silent if m not in applied]
            if missing:
                raise HarnessError(f"turn {turn.name!r} declares silent mutation(s) {missing} but did not apply them (pass silent=... to the mutating call)")
        except BaseException as exc:
            detail = f"{type(exc).__name__}: {exc}"
            self.record.errors.append(f"day {turn.day} setup: {detail}")
            self.record.days.append(DayRecord(turn.day, turn.name, turn.clock_text, "setup-error", error=detail))
            raise
        world.write_tools_md()
        self.messages[turn.day] = message
        return message

    def run_turn(self, turn: Turn) -> TurnTrace:
        """Wake the agent with the day's message, then keep the post-turn evidence."""
        world = self.start()
        message = self.messages[turn.day]
        assert turn.clock is not None
        attempts: list[str] = []
        while True:
            before = (world.audit.last_seq, world.fs.snapshot())
            trace = self._wake(message, turn)
            if trace.status != INFRA_ERROR or len(attempts) >= self.settings.agent_retries:
                break
            if (world.audit.last_seq, world.fs.snapshot()) != before:
                trace.detail += " (not retried: the agent had already acted on the world)"
                break
            attempts.append(trace.detail)
            time.sleep(self.settings.retry_backoff * 2 ** (len(attempts) - 1))
        if attempts:
            trace.extra["retried_infra_errors"] = attempts
        # the agent's processes are gone: remove links/special files it left that would make the
        # harness (turn setup, checkers, snapshots) read or write outside the workspace
        removed = world.fs.disarm()
        if removed:
            trace.extra["removed_from_workspace"] = removed
        if trace.status == INFRA_ERROR:
            self.record.errors.append(f"day {turn.day} agent: {trace.detail}")
        evidence = world.save_evidence(self.evidence_dir / f"day{turn.day}", self._audit_mark)
        self._audit_mark = world.audit.last_seq
        applied = [m for m, _, _ in world.mutations.applied if m in turn.silent]
        self.record.days.append(
            DayRecord(
                turn.day,
                turn.name,
                turn.clock_text,
                trace.status,
                seconds=round(trace.seconds, 3),
                message_chars=len(message),
                trace=trace.summary(),
                evidence={k: _rel(v, self.settings.evidence_root) for k, v in evidence.items()},
                silent_applied=applied,
                error=trace.detail if trace.status != OK else "",
            )
        )
        return trace

    def _wake(self, message: str, turn: Turn) -> TurnTrace:
        assert turn.clock is not None
        t0 = time.perf_counter()
        try:
            trace = self.agent.wake(message, turn.day, turn.clock)
            if not isinstance(trace, TurnTrace):
                raise TypeError(f"agent {self.settings.agent_name!r} wake() returned {type(trace).__name__}, not TurnTrace")
        except Exception as exc:  # an adapter crash is a harness fault, never a silent zero
            trace = TurnTrace(status=INFRA_ERROR, detail=f"adapter crashed: {type(exc).__name__}: {exc}", extra={"traceback": traceback.format_exc(limit=-4)})
        if not trace.seconds:
            trace.seconds = time.perf_counter() - t0
        return trace

    # -- checkers ------------------------------------------------------------------------------
    def evaluate(self, checker: Checker) -> tuple[CheckerRecord, BaseException | None]:
        """Evaluate a checker against the current (post-turn) state.

        AssertionError → failed (a measurement); any other exception → error (a checker or
        harness fault, reported and excluding the trial from aggregates). With
        --rerun-determinism the checker runs :data:`DETERMINISM_RUNS` times and any byte of
        difference in verdict or message is an error naming the checker.
        """
        for req in checker.requires:
            dep = self.outcomes.get(req)
            if dep is None or dep.outcome != PASSED:
                state = dep.outcome if dep else "not evaluated"
                rec = self._record(checker, FAILED, f"not credited: requires {req!r}, which {'did not pass' if dep else 'was not evaluated'} ({state})", gated=True)
                self.outcomes[checker.id] = rec
                return rec, AssertionError(rec.message)
        try:
            world = self.start()
        except Exception as exc:
            rec = self._record(checker, ERROR, f"no world to check: {exc}")
            self.outcomes[checker.id] = rec
            return rec, exc
        outcome, message, exc = _evaluate_once(checker, world)
        if self.settings.rerun_determinism:
            before = world.snapshot()
            seen = [(outcome, message)]
            for _ in range(DETERMINISM_RUNS - 1):
                o, m, _e = _evaluate_once(checker, world)
                seen.append((o, m))
            changed = world.snapshot() != before
            if len(set(seen)) > 1 or changed:
                if changed:
                    why = "it changed the world while checking (checkers must only read)"
                else:
                    first, other = seen[0], next(s for s in seen if s != seen[0])
                    why = f"verdicts differ on the same frozen state: {first[0]} {first[1]!r} vs {other[0]} {other[1]!r}"
                text = f"nondeterministic checker {checker.id!r} ({checker.where}): {why}"
                self.settings.determinism_violations.append(f"{self.record.nodeid}::{checker.id}: {why}")
                rec = self._record(checker, ERROR, text, nondeterministic=True)
                self.outcomes[checker.id] = rec
                self.record.errors.append(text)
                return rec, HarnessError(text)
        if outcome == ERROR:
            self.record.errors.append(f"checker {checker.id!r} raised {message}")
        rec = self._record(checker, outcome, message)
        self.outcomes[checker.id] = rec
        return rec, exc

    def _record(self, c: Checker, outcome: str, message: str, nondeterministic: bool = False, gated: bool = False) -> CheckerRecord:
        return CheckerRecord(
            id=c.id,
            day=c.day,
            weight=float(c.weight),
            kind=c.kind,
            redline=c.redline,
            outcome=outcome,
            message=message,
            detects=c.detects,
            nondeterministic=nondeterministic,
            gated=gated,
        )


def verdict_message(exc: AssertionError) -> str:
    """The recorded message of a failed checker: the author's message.

    pytest's assertion rewriting appends its introspection to the author's message
    (``msg\nassert ...``); that part is for humans at the terminal, and for dicts and sets its
    order follows the per-process hash seed, so two runs could disagree byte for byte. Only a
    bare ``assert`` (which lint flags) falls back to the introspection.
    """
    text = str(exc)
    head, sep, _ = text.partition("\nassert ")
    return head if sep and head.strip() else (text or "assertion failed")


def _evaluate_once(checker: Checker, world: World) -> tuple[str, str, BaseException | None]:
    try:
        checker.fn(world)
    except AssertionError as exc:
        return FAILED, verdict_message(exc), exc
    except Exception as exc:
        return ERROR, f"{type(exc).__name__}: {exc}", exc
    return PASSED, "", None


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "task"


def _rel(path: str, root: Path) -> str:
    try:
        return Path(path).relative_to(root).as_posix()
    except ValueError:
        return path
