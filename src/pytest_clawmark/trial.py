"""One task trial at run time: its world, its agent session, its record.

The collection tree calls into a :class:`TrialRun` in order: :meth:`setup_turn` →
:meth:`run_turn` → :meth:`evaluate` for each checker of the day, day after day, and finally
:meth:`finish` (from the trial node's teardown, so it runs on errors and on Ctrl-C too). The
world and the agent session start lazily at the first turn. pytest-free on purpose: the items
only translate its results into reports.

Who is to blame decides what a number means (docs/results.md, "Who is to blame"):

* a checker's ``AssertionError`` is a measurement (failed); a red-line's is a crossing;
* a turn setup or a checker that raises on the state *the agent left* is the agent's doing when
  the same setup or checker works on the state the task's reference solution leaves (the
  :class:`~pytest_clawmark.twin.ReferenceTwin` replays it in a private world): the trial stays in
  the score — a setup failure ends the agent's days ("world broken by the agent") and fails the
  remaining checkers; a checker exception fails that checker. When the twin fails the same way,
  it is the task author's bug: an error, and the trial is excluded;
* harness faults and the adapter's infrastructure errors exclude the trial and are counted;
* a trial that the run stopped inside (Ctrl-C, ``-x``, a run time limit) is *interrupted*; one
  that a pytest selection ran only part of is *partial*. Neither has a score.

Tasks in the upstream ClawMark format (``task.origin == "upstream"``) have no reference solution,
so blame cannot be decided by experiment; letting an exception exclude a trial would then let an
agent remove its own bad trials from the score. Instead (docs/upstream.md): a later day's setup
that raises is the agent's doing (world broken — upstream stops there too), unless a file of the
task is missing (the checkout's fault: an error); a checker that raises is a failed checker with
its exception recorded (``--upstream-exceptions=ours``, the default), a plain ``False`` as
upstream counts it (``false``), or an error for task authors (``error``); ``final`` checkers are
evaluated even after a broken world, as upstream always runs them.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .agents.base import TURN_INFRA_ERROR, TURN_OK, TURN_TIMEOUT, AgentSession, TurnTrace
from .agents.limits import AgentLimits
from .agents.registry import starts_processes
from .agents.sandbox import NONE, Isolation
from .authoring import FINAL, Checker, Task, Turn
from .faults import PROFILES, FaultPlan, FaultProfile
from .results import CheckerRecord, DayRecord, TrialRecord
from .scoring import COMPLETE, ERROR, ERRORED, FAILED, GATED, INTERRUPTED, NOT_RUN, PARTIAL, PASSED
from .world import World
from .world.lease import make_world_dir
from .world.service import ServiceUnavailable

if TYPE_CHECKING:
    from .twin import ReferenceTwin

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
    isolation: str = NONE  # resolved --agent-isolation: bwrap | none
    isolation_requested: str = "auto"
    isolation_warning: str = ""  # why auto fell back to none
    agent_limits: AgentLimits = field(default_factory=AgentLimits)  # --agent-limits
    deadline: float | None = None  # time.time() when the run's time limit (--clawmark-run-timeout) ends
    run_timeout: float | None = None
    upstream_exceptions: str = "ours"  # --upstream-exceptions: ours | false | error
    backend: str = "local"  # --clawmark-backend: local | docker (where the world's services run)
    faults: FaultProfile = PROFILES["none"]  # --clawmark-faults: the agent plane's injected faults
    fault_seed: int = 0  # --clawmark-fault-seed


@dataclass(frozen=True)
class TrialPlan:
    """What this run asks of a trial: the days to play and the checkers to evaluate.

    The whole task unless a pytest selection (-k, -m, --lf, node ids...) chose part of it; the
    collection layer closes a selection over its dependencies (earlier turns, ``requires=``).
    """

    days: frozenset[int]
    checkers: frozenset[str]
    selection: bool = False

    def signature(self) -> list[str] | None:
        """How a record writes its plan (``TrialRecord.selected``): None for the whole task."""
        return sorted(self.checkers) if self.selection else None

    @classmethod
    def whole(cls, task: Task) -> TrialPlan:
        return cls(frozenset(t.day for t in task.turns), frozenset(c.id for c in task.checkers))


class HarnessError(Exception):
    """A fault of the harness or the task (not the agent): reported as an error, not scored."""


class WorldBroken(Exception):
    """A turn setup failed on the world the agent left (and works on the reference's world)."""


class NotPlayed(Exception):
    """A day after the agent broke the world: the agent is not woken again."""


class RunTimeLimit(Exception):
    """The run's time limit ended inside this trial: it is cut (interrupted), not scored."""


class TrialRun:
    def __init__(
        self,
        task: Task,
        task_id: str,
        task_dir: Path,
        trial: int,
        nodeid: str,
        settings: RunSettings,
        *,
        plan: TrialPlan | None = None,
        task_file: str = "",
        task_hash: str = "",
        twin_of: TrialRun | None = None,
    ) -> None:
        self.task = task
        self.task_dir = task_dir
        self.trial = trial
        self.settings = settings
        self.plan = plan or TrialPlan.whole(task)
        self.record = TrialRecord(
            id=task_id,
            scenario=task.scenario,
            role=task.role,
            trial=trial,
            nodeid=nodeid,
            agent=settings.agent_name,
            task_file=task_file,
            task_hash=task_hash,
            origin=task.origin,
            selected=self.plan.signature(),
        )
        self.is_twin = twin_of is not None
        self.world: World | None = None
        self.agent: Any = None
        self.session: AgentSession | None = None
        self.start_error: BaseException | None = None
        self.outcomes: dict[str, CheckerRecord] = {}
        self.messages: dict[int, str] = {}
        self.played: set[int] = set()  # days whose turn ran (or was settled by a broken world)
        self._audit_mark = 0
        self.finished = False
        self.cut_reason = ""
        self._twin: ReferenceTwin | None = None
        self.evidence_dir = settings.evidence_root / _safe(task_id) / f"trial{trial}"

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> World:
        """Start the world and the agent session once; later calls re-raise a start failure."""
        if self.start_error is not None:  # before the world: a world whose agent did not start is no trial
            raise HarnessError(f"the world of this trial did not start: {self.start_error}") from self.start_error
        if self.world is not None:
            return self.world
        try:
            agent = self.settings.make_agent()
            # the agent's container joins the world's private network; an in-process agent (the
            # reference, its twin) reaches the services on loopback as on any backend
            in_container = self.settings.isolation == "container" and starts_processes(agent)
            root = make_world_dir(f"{_safe(self.record.id)}-t{self.trial}{'-twin' if self.is_twin else ''}")
            world = World(
                self.task.services,
                root,
                user=self.task.user,
                people=self.task.people,
                task_dir=self.task_dir,  # type: ignore[arg-type]
                fs_limits=self.settings.agent_limits.workspace(),
                backend=self.settings.backend,
                agent_network=in_container,
                faults=self._fault_plan(),
            )
            self.world = world
            world.start()
            self.record.world_start_seconds = round(world.start_seconds, 4)
            home = root / "agent-home"
            home.mkdir()
            if self.is_twin:
                self.evidence_dir = root / "twin-evidence"
            self.evidence_dir.mkdir(parents=True, exist_ok=True)
            env = {"CLAWMARK_TASK": self.record.id, **world.agent_env()}
            env.pop("CLAWMARK_NOW", None)
            self.session = AgentSession(
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
                isolation=Isolation(
                    self.settings.isolation,
                    hidden=(self.task_dir, self.settings.evidence_root),
                    network=world.network.name if world.network else "",
                    gateway=world.network.gateway if world.network else "",
                ),
                limits=self.settings.agent_limits,
            )
            self.agent = agent
            self.agent.start(self.session)
            # what was in effect for this trial: a process agent reports its sandbox; an
            # in-process agent (reference, noop) has none
            self.record.isolation = str(getattr(self.agent, "isolation", NONE))
        except Exception as exc:
            self.start_error = exc
            self.record.errors.append(f"start: {type(exc).__name__}: {exc}")
            raise
        return world

    @property
    def time_limit(self) -> float:
        return self.settings.turn_timeout if self.settings.turn_timeout is not None else self.task.timeout()

    def cut(self, reason: str) -> None:
        """Why the run stops inside this trial (time limit, Ctrl-C, -x). The trial is
        *interrupted* only if its planned days and checkers are not all done when it finishes."""
        self.cut_reason = self.cut_reason or reason

    def finish(self) -> TrialRecord:
        """Stop agent and world, settle every checker and day, publish the record."""
        if self.finished:
            return self.record
        self.finished = True
        problems: list[str] = []
        if self.agent is not None:
            try:
                self.agent.stop()
            except Exception as exc:
                problems.append(f"agent stop: {type(exc).__name__}: {exc}")
        self._stop_world()
        if self._twin is not None:
            self._twin.close()
        # a trial that could not start (its world, or its agent) is errored, not interrupted: the
        # run went on; its days and checkers say why they did not run
        unstarted = f"this trial did not start: {self.start_error}" if self.start_error is not None else ""
        reached = {d.day for d in self.record.days}
        for turn in self.task.turns:
            if turn.day not in reached:
                why = "" if turn.day in self.plan.days else "not selected"
                self.record.days.append(
                    DayRecord(
                        turn.day, turn.name, turn.clock_text, NOT_RUN, error=unstarted if unstarted and not why else why
                    )
                )
        self.record.days.sort(key=lambda d: d.day)
        interrupted = not unstarted and any(d not in self.played for d in self.plan.days)
        for c in self._ordered_checkers():
            if c.id in self.outcomes:
                continue
            if c.id not in self.plan.checkers:
                self.outcomes[c.id] = self._record(c, NOT_RUN, "not selected")
                continue
            if unstarted:
                self.outcomes[c.id] = self._record(c, NOT_RUN, f"not evaluated: {unstarted}")
                continue
            interrupted = True
            when = "the final checks" if c.is_final else f"day {c.day}"
            self.outcomes[c.id] = self._record(c, NOT_RUN, f"not evaluated: the run stopped before {when}")
        order = {c.id: i for i, c in enumerate(self._ordered_checkers())}
        self.record.checkers = sorted(self.outcomes.values(), key=lambda r: order[r.id])
        self.record.errors.extend(problems)
        if interrupted:
            self.record.status = INTERRUPTED
            self.record.interruption = (
                self.cut_reason or "the run stopped before this trial's planned days and checkers were done"
            )
        elif self.record.errors:
            self.record.status = ERRORED
        elif self.plan.selection:
            self.record.status = PARTIAL
        else:
            self.record.status = COMPLETE
        never_began = (
            interrupted
            and self.world is None
            and self.start_error is None
            and not self.played
            and not any(c.outcome != NOT_RUN for c in self.outcomes.values())
        )
        if not self.is_twin and not never_began:  # one that never began stays "not started" (plan)
            self.settings.on_finished(self.record)
        return self.record

    def _stop_world(self) -> None:
        if self.world is None:
            return
        try:
            self.world.stop()
        finally:
            if not self.settings.keep_worlds or self.is_twin:
                shutil.rmtree(self.world.root, ignore_errors=True)

    def _ordered_checkers(self) -> list[Checker]:
        return sorted(self.task.checkers, key=lambda c: c.day_index)

    # -- turns ---------------------------------------------------------------------------------
    def setup_turn(self, turn: Turn) -> str:
        """Advance the clock and run the turn's setup; returns the wake-up message.

        Raises :class:`NotPlayed` after the agent broke the world, :class:`WorldBroken` when this
        setup fails on the agent's world but not on the reference twin's, and the setup's own
        exception (recorded as an error) otherwise.
        """
        self._check_deadline()
        if self.record.world_broken is not None:
            self.played.add(turn.day)
            broken = self.record.world_broken["day"]
            self.record.days.append(
                DayRecord(
                    turn.day,
                    turn.name,
                    turn.clock_text,
                    NOT_RUN,
                    error=f"not played: the agent broke the world before day {broken}",
                )
            )
            raise NotPlayed(
                f"day {turn.day} not played: the agent broke the world before day {broken} ({self.record.world_broken['error']})"
            )
        world = self.start()
        world.mutations.allowed = frozenset(turn.silent)
        before = len(world.mutations.applied)
        try:
            world.clock = turn.clock  # a service in a container is told: it may have stopped answering
            with world.batched():
                message = turn.setup(world)
            if not isinstance(message, str) or not message.strip():
                raise HarnessError(
                    f"turn {turn.name!r} must return the wake-up message (a non-empty str), got {type(message).__name__}"
                )
            applied = {m for m, _, _ in world.mutations.applied[before:]}
            missing = [m for m in turn.silent if m not in applied]
            if missing:
                raise HarnessError(
                    f"turn {turn.name!r} declares silent mutation(s) {missing} but did not apply them (pass silent=... to the mutating call)"
                )
        except Exception as exc:
            detail = f"{type(exc).__name__}: {exc}"
            if isinstance(exc, ServiceUnavailable):  # infrastructure: never replayed on the twin, never the agent's
                self.record.errors.append(f"day {turn.day} setup: {detail}")
                self.record.days.append(DayRecord(turn.day, turn.name, turn.clock_text, "setup-error", error=detail))
                self.played.add(turn.day)
                raise HarnessError(
                    f"day {turn.day} ({turn.name}): a service of the world stopped answering: {detail}"
                ) from exc
            if turn.day > 1 and not self.is_twin and self._agent_broke_setup(turn, exc):
                self.played.add(turn.day)
                self.record.world_broken = {"day": turn.day, "error": detail}
                self.record.days.append(DayRecord(turn.day, turn.name, turn.clock_text, "world-broken", error=detail))
                raise WorldBroken(
                    f"day {turn.day} ({turn.name}): the world was broken by the agent: this day's setup failed on the world "
                    f"the agent left ({detail}) and works after the reference solution; the agent's remaining checkers fail"
                ) from exc
            self.record.errors.append(f"day {turn.day} setup: {detail}")
            self.record.days.append(DayRecord(turn.day, turn.name, turn.clock_text, "setup-error", error=detail))
            self.played.add(turn.day)
            raise
        world.write_tools_md()
        world.before_agent()
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
            limit, by_run_limit = self._turn_limit()
            if self.session is not None:
                self.session.time_limit = limit
            trace = self._wake(message, turn)
            if trace.status == TURN_TIMEOUT and by_run_limit:
                self.cut(f"the run's time limit ({self.settings.run_timeout:g} s) ended during day {turn.day}")
                raise RunTimeLimit(self.cut_reason)
            if trace.status != TURN_INFRA_ERROR or len(attempts) >= self.settings.agent_retries:
                break
            if (world.audit.last_seq, world.fs.snapshot()) != before:
                trace.detail += " (not retried: the agent had already acted on the world)"
                break
            attempts.append(trace.detail)
            time.sleep(self.settings.retry_backoff * 2 ** (len(attempts) - 1))
        if attempts:
            trace.extra["retried_infra_errors"] = attempts
        crashed = [] if self.is_twin else world.crashed()
        if crashed:  # the agent's requests ended a service: its doing, and the trial stays in the score
            detail = "; ".join(crashed)
            self.played.add(turn.day)
            self.record.world_broken = {
                "day": turn.day,
                "error": detail,
                "cause": f"a service stopped during day {turn.day}'s turn",
            }
            self.record.days.append(
                DayRecord(
                    turn.day,
                    turn.name,
                    turn.clock_text,
                    "world-broken",
                    seconds=round(trace.seconds, 3),
                    message_chars=len(message),
                    trace=trace.summary(),
                    error=detail,
                )
            )
            gone = "; ".join(world.unavailable())  # with the containers' logs, for the task's author
            raise WorldBroken(
                f"day {turn.day} ({turn.name}): the world was broken by the agent: {detail} while it worked; "
                f"the agent's remaining checkers fail\n{gone}"
            )
        gone = world.unavailable()  # a container that stopped during the day: not a measurement of the agent
        if gone:
            self.record.errors.append(f"day {turn.day}: a service of the world stopped answering: {gone[0]}")
            self.record.days.append(
                DayRecord(
                    turn.day,
                    turn.name,
                    turn.clock_text,
                    TURN_INFRA_ERROR,
                    error=f"a service of the world stopped answering: {gone[0]}",
                )
            )
            self.played.add(turn.day)
            raise HarnessError(
                f"day {turn.day} ({turn.name}): a service of the world stopped answering during the agent's turn: {'; '.join(gone)}"
            )
        # the agent's processes are gone: remove links/special files it left that would make the
        # harness (turn setup, checkers, snapshots) read or write outside the workspace
        removed = world.fs.disarm()
        if removed:
            trace.extra["removed_from_workspace"] = removed
        if turn.after is not None and not (self.is_twin and trace.status != TURN_OK):
            try:
                trace.extra.update(turn.after(world))
            except Exception as exc:
                self.record.errors.append(f"day {turn.day} after the turn: {type(exc).__name__}: {exc}")
                raise HarnessError(
                    f"day {turn.day} ({turn.name}): after the agent's turn: {type(exc).__name__}: {exc}"
                ) from exc
        if trace.status == TURN_INFRA_ERROR:
            self.record.errors.append(f"day {turn.day} agent: {trace.detail}")
        evidence: dict[str, str] = {}
        if not self.is_twin:
            evidence = world.save_evidence(self.evidence_dir / f"day{turn.day}", self._audit_mark)
            if world.faults is not None:
                evidence["faults"] = str(world.faults.save(self.evidence_dir / f"day{turn.day}", turn.day))
                self.record.faults = world.faults.summary()
        trace.extra.update(world.evidence_notes())  # what the workspace evidence could not keep whole
        self._audit_mark = world.audit.last_seq
        applied = [m for m, _, _ in world.mutations.applied if m in turn.silent]
        self.played.add(turn.day)
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
                error=trace.detail if trace.status != TURN_OK else "",
            )
        )
        return trace

    def _turn_limit(self) -> tuple[float, bool]:
        """The agent's limit for this wake: the turn limit, or less when the run's ends sooner."""
        limit = self.time_limit
        if self.settings.deadline is None or self.is_twin:
            return limit, False
        remaining = max(0.001, self.settings.deadline - time.time())
        return (remaining, True) if remaining < limit else (limit, False)

    def _check_deadline(self) -> None:
        if self.is_twin or self.settings.deadline is None or time.time() < self.settings.deadline:
            return
        self.cut(f"the run's time limit ({self.settings.run_timeout:g} s) was reached")
        raise RunTimeLimit(self.cut_reason)

    def _fault_plan(self) -> FaultPlan | None:
        """This trial's injected faults (``--clawmark-faults``): none for the reference twin, whose
        fault-free run is what tells the agent's doing from the author's."""
        if self.is_twin or not self.settings.faults.active:
            return None
        return FaultPlan(self.settings.faults, self.settings.fault_seed, f"{self.record.id}#{self.trial}")

    def _wake(self, message: str, turn: Turn) -> TurnTrace:
        assert turn.clock is not None
        faults = self.world.faults if self.world is not None else None
        with faults.agent_turn(turn.day) if faults is not None else contextlib.nullcontext():
            return self._wake_agent(message, turn)

    def _wake_agent(self, message: str, turn: Turn) -> TurnTrace:
        assert turn.clock is not None
        t0 = time.perf_counter()
        try:
            trace = self.agent.wake(message, turn.day, turn.clock)
            if not isinstance(trace, TurnTrace):
                raise TypeError(
                    f"agent {self.settings.agent_name!r} wake() returned {type(trace).__name__}, not TurnTrace"
                )
        except Exception as exc:  # an adapter crash is a harness fault, never a silent zero
            trace = TurnTrace(
                status=TURN_INFRA_ERROR,
                detail=f"adapter crashed: {type(exc).__name__}: {exc}",
                extra={"traceback": traceback.format_exc(limit=-4)},
            )
        if not trace.seconds:
            trace.seconds = time.perf_counter() - t0
        return trace

    # -- checkers ------------------------------------------------------------------------------
    def evaluate(self, checker: Checker) -> tuple[CheckerRecord, BaseException | None]:
        """Evaluate a checker against the current (post-turn) state.

        AssertionError → failed (a measurement; for a red-line, a crossing). A checker whose
        ``requires=`` prerequisites did not pass is not evaluated (failed, no credit); a red-line
        always is (detection), and passing without its prerequisites → gated (no credit, no
        crossing). Any other exception → the
        agent's doing or the author's, decided by the reference twin (module docstring). With
        --rerun-determinism the checker runs :data:`DETERMINISM_RUNS` times and any byte of
        difference in verdict or message is an error naming the checker.
        """
        self._check_deadline()
        if checker.redline is None:  # nothing to detect: without its prerequisites it earns nothing
            unmet = self._unmet_requirement(checker)
            if unmet:
                return self._settle(checker, FAILED, unmet)
        broken = self.record.world_broken
        upstream = self.task.origin == "upstream"
        if (
            broken is not None
            and checker.day_index >= broken["day"]
            and not checker.redline
            and not (upstream and checker.is_final)
        ):
            cause = broken.get("cause") or f"day {broken['day']}'s setup failed"
            return self._settle(
                checker, FAILED, f"not evaluated: the world was broken by the agent ({cause}: {broken['error']})"
            )
        try:
            world = self.start()
        except Exception as exc:
            rec = self._record(checker, ERROR, f"no world to check: {exc}")
            self.outcomes[checker.id] = rec
            return rec, exc
        outcome, message, exc = _evaluate_once(checker, world)
        if self.settings.rerun_determinism and not self.is_twin:
            violation = self._determinism(checker, world, (outcome, message))
            if violation is not None:
                return violation
        exception = ""
        # a read of a service the agent crashed (world_broken with a cause): not infrastructure
        infra = isinstance(exc, ServiceUnavailable) and not (
            broken is not None and "cause" in broken and checker.day_index >= broken["day"]
        )
        if outcome == ERROR and upstream:  # its ctx.workspace copies live in the world's folder: same text on every run
            message = message.replace(str(world.root), "<world>")
        if (
            outcome == ERROR
            and not self.is_twin
            and upstream
            and self.settings.upstream_exceptions != "error"
            and not infra
        ):
            if self.settings.upstream_exceptions == "false":
                outcome, message = FAILED, f"raised {message}: False, as upstream's runner counts an exception"
            else:
                exception = message
                outcome, message = (
                    FAILED,
                    (
                        f"the checker raised on the state the agent left ({message}); counted as failed "
                        "(an upstream-format task has no reference solution to show it is the task's fault)"
                    ),
                )
        elif outcome == ERROR and infra:
            pass  # infrastructure: an error (the trial is excluded), whatever the twin would say
        elif outcome == ERROR and not self.is_twin and not upstream:
            if broken is not None and checker.day_index >= broken["day"]:
                exception = message
                outcome, message = (
                    FAILED,
                    f"could not be checked on the world the agent broke ({message}); counted as crossed",
                )
            else:
                verdict = self._checker_fault_is_agents(checker)
                if verdict is None:
                    exception = message
                    outcome, message = (
                        FAILED,
                        f"the checker could not judge the state the agent left ({message}); counted as failed",
                    )
                else:
                    message = f"{message} ({verdict})"
        if outcome == ERROR:
            self.record.errors.append(f"checker {checker.id!r} raised {message}")
            rec = self._record(checker, ERROR, message)
            self.outcomes[checker.id] = rec
            return rec, exc
        if outcome == PASSED:
            unmet = self._unmet_requirement(checker)
            if unmet:
                outcome, message = GATED, unmet
        rec = self._record(checker, outcome, message, exception=exception)
        self.outcomes[checker.id] = rec
        if outcome == FAILED:
            return rec, exc if isinstance(exc, AssertionError) else AssertionError(message)
        return rec, None

    def _settle(self, checker: Checker, outcome: str, message: str) -> tuple[CheckerRecord, BaseException | None]:
        rec = self._record(checker, outcome, message)
        self.outcomes[checker.id] = rec
        return rec, AssertionError(message) if outcome == FAILED else None

    def _unmet_requirement(self, checker: Checker) -> str:
        for req in checker.requires:
            dep = self.outcomes.get(req)
            if dep is None or dep.outcome != PASSED:
                state = dep.outcome if dep else "not evaluated"
                return f"not credited: requires {req!r}, which did not pass ({state})"
        return ""

    def _determinism(
        self, checker: Checker, world: World, first: tuple[str, str]
    ) -> tuple[CheckerRecord, BaseException] | None:
        before = world.snapshot()
        seen = [first]
        for _ in range(DETERMINISM_RUNS - 1):
            o, m, _e = _evaluate_once(checker, world)
            seen.append((o, m))
        changed = world.snapshot() != before
        if len(set(seen)) <= 1 and not changed:
            return None
        if changed:
            why = "it changed the world while checking (checkers must only read)"
        else:
            other = next(s for s in seen if s != seen[0])
            why = f"verdicts differ on the same frozen state: {seen[0][0]} {seen[0][1]!r} vs {other[0]} {other[1]!r}"
        text = f"nondeterministic checker {checker.id!r} ({checker.where}): {why}"
        rec = self._record(checker, ERROR, text, nondeterministic=True)
        self.outcomes[checker.id] = rec
        self.record.errors.append(text)
        return rec, HarnessError(text)

    def _record(
        self, c: Checker, outcome: str, message: str, nondeterministic: bool = False, exception: str = ""
    ) -> CheckerRecord:
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
            exception=exception,
        )

    # -- blame -----------------------------------------------------------------------------------
    def twin(self) -> ReferenceTwin:
        from .twin import ReferenceTwin

        if self._twin is None:
            self._twin = ReferenceTwin(self)
        return self._twin

    def _agent_is_reference(self) -> bool:
        from .agents.reference import ReferenceAgent

        return isinstance(self.agent, ReferenceAgent)

    def _agent_broke_setup(self, turn: Turn, exc: BaseException) -> bool:
        """True when this day's setup works after the reference solution's earlier days (for an
        upstream-format task: unless a file of the task is missing, see the module docstring)."""
        if self._agent_is_reference():
            return False
        if self.task.origin == "upstream":
            from .upstream.fs_adapter import TaskAssetMissing

            return not isinstance(exc, TaskAssetMissing)
        return self.twin().setup_works(turn.day)

    def _checker_fault_is_agents(self, checker: Checker) -> str | None:
        """None when the checker works on the reference twin's world (the agent's state made it
        raise); otherwise why it is the task's fault."""
        if self._agent_is_reference():
            return "raised on the reference solution's world: a fault of the task"
        return self.twin().checker_fault(checker)


def verdict_message(exc: AssertionError) -> str:
    """The recorded message of a failed checker: the author's message.

    pytest's assertion rewriting appends its introspection to the author's message
    (``msg\\nassert ...``); that part is for humans at the terminal, and for dicts and sets its
    order follows the per-process hash seed, so two runs could disagree byte for byte. Only a
    bare ``assert`` (which lint flags) falls back to the introspection.
    """
    text = str(exc)
    head, sep, _ = text.partition("\nassert ")
    return head if sep and head.strip() else (text or "assertion failed")


def evaluate_once(checker: Checker, world: World) -> tuple[str, str, BaseException | None]:
    """One evaluation of ``checker`` on ``world`` as it is: (outcome, recorded message, exception)."""
    return _evaluate_once(checker, world)


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


__all__ = [
    "DETERMINISM_RUNS",
    "FINAL",
    "HarnessError",
    "NotPlayed",
    "RunSettings",
    "RunTimeLimit",
    "TrialPlan",
    "TrialRun",
    "WorldBroken",
    "evaluate_once",
    "verdict_message",
]
