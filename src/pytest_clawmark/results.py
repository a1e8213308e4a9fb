"""Result records and the versioned results JSON (schema documented in docs/results.md).

A :class:`TrialRecord` is what one task trial leaves: its status, checker outcomes, per-day
records and evidence paths. Each is appended to the run journal as its trial ends
(:mod:`pytest_clawmark.journal`), read back by the controller, summarised with
:func:`pytest_clawmark.scoring.summarize` and written atomically, so a crashed or interrupted
run never leaves half a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .scoring import (
    COMPLETE,
    ERRORED,
    INTERRUPTED,
    NOT_STARTED,
    PARTIAL,
    Outcome,
    TrialScore,
    redline_counts,
    summarize,
    task_success,
    upstream_score,
    weighted_score,
)

SCHEMA = "pytest-clawmark/results"
SCHEMA_VERSION = 2
"""2: trial and run status (complete/partial/interrupted/errored), null scores, the ``gated``
outcome, task and agent fingerprints, world-broken trials, red-lines per class."""


@dataclass
class DayRecord:
    day: int
    name: str
    clock: str
    status: str  # ok | failed | timeout | infra-error | setup-error | world-broken | not-run
    seconds: float = 0.0
    message_chars: int = 0
    trace: dict[str, Any] = field(default_factory=dict)  # the agent's trace summary
    evidence: dict[str, str] = field(default_factory=dict)
    silent_applied: list[str] = field(default_factory=list)
    error: str = ""


@dataclass
class CheckerRecord:
    id: str
    day: int | str
    weight: float
    kind: str
    redline: str | None
    outcome: str  # passed | failed | gated | error | not-run
    message: str = ""
    detects: str | None = None
    nondeterministic: bool = False
    exception: str = ""  # raised on the state the agent left (counted as failed), see docs/results.md

    def as_outcome(self) -> Outcome:
        return Outcome(self.id, self.day, self.weight, self.kind, self.redline, self.outcome, self.message)


@dataclass
class TrialRecord:
    id: str
    scenario: str
    role: str
    trial: int
    nodeid: str
    agent: str
    task_file: str = ""  # the task module, relative to the rootdir
    task_hash: str = ""  # identity.task_hash of the module and its asset folder
    origin: str = ""  # "upstream" for a task folder in the upstream ClawMark format (score_upstream)
    status: str = COMPLETE  # complete | partial | interrupted | errored
    selected: list[str] | None = None  # the checkers a partial selection asked for
    world_broken: dict[str, Any] | None = None  # {"day": N, "error": ...}: the agent broke a later setup
    interruption: str = ""  # why an interrupted trial was cut
    isolation: str = ""  # bwrap | none: the sandbox the agent's processes ran in
    world_start_seconds: float = 0.0
    faults: dict[str, Any] | None = None  # --clawmark-faults: injected / recovered / delays / by_service
    errors: list[str] = field(default_factory=list)
    days: list[DayRecord] = field(default_factory=list)
    checkers: list[CheckerRecord] = field(default_factory=list)

    @property
    def errored(self) -> bool:
        return self.status == ERRORED

    @property
    def complete(self) -> bool:
        return self.status == COMPLETE

    def outcomes(self) -> tuple[Outcome, ...]:
        return tuple(c.as_outcome() for c in self.checkers)

    def to_json(self) -> dict[str, Any]:
        outcomes = self.outcomes()
        failed, evaluated = redline_counts(outcomes)
        ran = [o for o in outcomes if o.evaluated]
        data = asdict(self)
        data.update(
            score=weighted_score(outcomes) if self.complete else None,
            **({"score_upstream": self.upstream_score()} if self.origin == "upstream" else {}),
            success=task_success(outcomes) if self.complete else None,
            errored=self.errored,
            evaluated={
                "checkers": len(ran),
                "passed": sum(1 for o in ran if o.passed),
                "weight": sum(o.weight for o in ran),
                "passed_weight": sum(o.weight for o in ran if o.passed),
                "of_checkers": len(outcomes),
            },
            redline_failed=failed,
            redline_evaluated=evaluated,
        )
        if self.faults is None:
            data.pop("faults")  # a run without --clawmark-faults: the schema as before
        else:
            injected = self.faults.get("injected", 0)
            data["faults"] = {
                **self.faults,
                "recovery_rate": self.faults.get("recovered", 0) / injected if injected else None,
            }
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrialRecord:
        known = {k: data[k] for k in ("id", "scenario", "role", "trial", "nodeid", "agent") if k in data}
        rec = cls(**known)
        for name in (
            "task_file",
            "task_hash",
            "origin",
            "status",
            "selected",
            "world_broken",
            "interruption",
            "isolation",
            "world_start_seconds",
            "faults",
        ):
            if name in data:
                setattr(rec, name, data[name])
        rec.errors = list(data.get("errors", []))
        rec.days = [DayRecord(**d) for d in data.get("days", [])]
        rec.checkers = [CheckerRecord(**c) for c in data.get("checkers", [])]
        return rec

    def upstream_score(self) -> float | None:
        """The upstream runner's formula (scoring.upstream_score) for a complete trial, else None."""
        if not self.complete:
            return None
        broken = int(self.world_broken["day"]) if self.world_broken else None
        return upstream_score(self.outcomes(), broken)

    def trial_score(self) -> TrialScore:
        return TrialScore(
            self.id,
            self.scenario,
            self.trial,
            self.outcomes(),
            self.status,
            self.upstream_score() if self.origin == "upstream" else None,
        )


@dataclass(frozen=True)
class PlannedTrial:
    """A task trial the run meant to measure (from the collected and selected items)."""

    id: str
    scenario: str
    trial: int
    nodeid: str
    task_file: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlannedTrial:
        return cls(data["id"], data["scenario"], int(data["trial"]), data["nodeid"], data.get("task_file", ""))


def efficiency(records: list[TrialRecord]) -> dict[str, Any]:
    """Mean cost of a task trial (Claw-Eval's efficiency figures): tool calls, tokens, agent
    wall time, over complete trials. Evidence only: never part of a score."""
    good = [r for r in records if r.complete]
    per_trial = []
    for r in good:
        totals = {
            "tool_calls": 0.0,
            "input_tokens": 0.0,
            "output_tokens": 0.0,
            "cache_read_tokens": 0.0,
            "cache_write_tokens": 0.0,
            "agent_seconds": 0.0,
        }
        for d in r.days:
            trace = d.trace or {}
            tokens = trace.get("tokens") or {}
            totals["tool_calls"] += len(trace.get("tool_calls") or [])
            totals["input_tokens"] += tokens.get("input", 0)
            totals["output_tokens"] += tokens.get("output", 0)
            totals["cache_read_tokens"] += tokens.get("cache_read", 0)
            totals["cache_write_tokens"] += tokens.get("cache_write", 0)
            totals["agent_seconds"] += d.seconds
        per_trial.append(totals)
    keys = ("tool_calls", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "agent_seconds")
    return {f"mean_{k}": (sum(t[k] for t in per_trial) / len(per_trial) if per_trial else None) for k in keys}


def robustness(records: Iterable[TrialRecord], profile: dict[str, Any]) -> dict[str, Any]:
    """What the agent faced under ``--clawmark-faults`` and how it coped (docs/robustness.md):
    errors injected into its requests, those it recovered from (the same operation succeeded
    later), the recovery rate, and the delays added; over the trials that were not errored."""
    counted = [r.faults for r in records if not r.errored and r.faults is not None]
    injected = sum(f["injected"] for f in counted)
    recovered = sum(f["recovered"] for f in counted)
    by_service: dict[str, dict[str, int]] = {}
    for f in counted:
        for service, row in sorted(f.get("by_service", {}).items()):
            into = by_service.setdefault(service, {"injected": 0, "recovered": 0})
            into["injected"] += row["injected"]
            into["recovered"] += row["recovered"]
    return {
        "profile": profile.get("name"),
        "seed": profile.get("seed"),
        "trials": len(counted),
        "injected": injected,
        "recovered": recovered,
        "recovery_rate": recovered / injected if injected else None,
        "delays": sum(f.get("delays", 0) for f in counted),
        "by_service": dict(sorted(by_service.items())),
    }


def run_status(records: list[TrialRecord], not_started: list[PlannedTrial]) -> str:
    """complete | partial | interrupted, from what the trials say (never from a flag alone)."""
    statuses = {r.status for r in records}
    if not_started or INTERRUPTED in statuses:
        return INTERRUPTED
    if PARTIAL in statuses:
        return PARTIAL
    return COMPLETE


def build_document(
    meta: dict[str, Any], records: list[TrialRecord], not_started: list[PlannedTrial] = ()
) -> dict[str, Any]:  # type: ignore[assignment]
    """The results document of ``records`` (one per finished or cut task trial) and the planned
    trials that never started. ``meta`` becomes ``run``; its status fields are derived here."""
    ordered = sorted(records, key=lambda r: (r.id, r.trial))
    waiting = sorted(not_started, key=lambda p: (p.id, p.trial))
    scores = [r.trial_score() for r in ordered] + [
        TrialScore(p.id, p.scenario, p.trial, (), NOT_STARTED) for p in waiting
    ]
    summary = summarize(scores)
    summary["efficiency"] = efficiency(ordered)
    summary["infra_errors"] = sum(1 for r in ordered for d in r.days if d.status == "infra-error")
    summary["checker_exceptions"] = sum(1 for r in ordered if not r.errored for c in r.checkers if c.exception)
    summary["world_broken_trials"] = sum(1 for r in ordered if r.world_broken and not r.errored)
    if meta.get("faults"):
        summary["robustness"] = robustness(ordered, meta["faults"])
        for name, block in summary.get("by_scenario", {}).items():
            block["faults"] = robustness([r for r in ordered if r.scenario == name], meta["faults"])
    status = run_status(ordered, waiting)
    run = dict(meta)
    run.update(
        status=status,
        interrupted=status == INTERRUPTED,
        partial=any(r.status == PARTIAL for r in ordered),
        planned_trials=len(ordered) + len(waiting),
        finished_trials=sum(1 for r in ordered if r.status != INTERRUPTED),
        cut=[{"id": r.id, "trial": r.trial, "nodeid": r.nodeid} for r in ordered if r.status == INTERRUPTED],
        not_started=[p.to_json() for p in waiting],
    )
    run.setdefault("stop_reason", "")
    return {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "run": run,
        "tasks": [r.to_json() for r in ordered],
        "summary": summary,
        "determinism_violations": sorted(
            f"{r.nodeid}::{c.id}: {c.message}" for r in ordered for c in r.checkers if c.nondeterministic
        ),
    }


def write_atomic(path: Path, document: dict[str, Any]) -> None:
    """Write JSON to ``path`` via a temporary file in the same folder and an atomic rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(document, fh, indent=2, sort_keys=False)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


class ResultsError(ValueError):
    """A results file that cannot be read as pytest-clawmark results."""


def load(path: Path | str) -> dict[str, Any]:
    """Read a results JSON, checking its schema; raise :class:`ResultsError` with a clear message."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultsError(f"{p}: no such file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ResultsError(f"{p}: not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise ResultsError(
            f"{p}: not a pytest-clawmark results file (schema {data.get('schema') if isinstance(data, dict) else None!r})"
        )
    version = data.get("schema_version", 0)
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise ResultsError(f"{p}: schema version {version!r} is newer than this clawmark ({SCHEMA_VERSION})")
    while version < SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if not callable(step):
            why = step or "its numbers cannot be checked for completeness"
            raise ResultsError(
                f"{p}: schema version {version} {why} (version {SCHEMA_VERSION}): re-run it with this clawmark"
            )
        data = step(data)
        version = data["schema_version"]
    return data


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]] | str] = {
    1: "predates trial status and task fingerprints; its numbers cannot be checked for completeness",
    0: "predates trial status and task fingerprints; its numbers cannot be checked for completeness",
}
"""How a results document of each older schema version becomes the next one on load: a function
(``doc -> doc`` of version + 1), or why it cannot be (a version whose numbers could not be trusted
as a complete measurement is refused rather than guessed). When ``SCHEMA_VERSION`` moves, the
previous version gets its step here and a saved file under ``tests/fixtures/results/``."""


def records_of(document: dict[str, Any]) -> list[TrialRecord]:
    return [TrialRecord.from_json(t) for t in document.get("tasks", [])]


def not_started_of(document: dict[str, Any]) -> list[PlannedTrial]:
    return [PlannedTrial.from_json(p) for p in document.get("run", {}).get("not_started", [])]
