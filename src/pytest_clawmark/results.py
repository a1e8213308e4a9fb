"""Result records and the versioned results JSON (schema documented in docs/results.md).

A :class:`TrialRecord` is what one task trial leaves: its checker outcomes, per-day records and
evidence paths. Records travel from xdist workers to the controller as plain JSON (through
``workeroutput``), are merged there, summarised with :func:`pytest_clawmark.scoring.summarize`
and written atomically, so a crashed or interrupted run never leaves half a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .scoring import Outcome, TrialScore, redline_counts, summarize, task_success, weighted_score

SCHEMA = "pytest-clawmark/results"
SCHEMA_VERSION = 1


@dataclass
class DayRecord:
    day: int
    name: str
    clock: str
    status: str  # ok | failed | timeout | infra-error | setup-error | not-run
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
    outcome: str
    message: str = ""
    detects: str | None = None
    nondeterministic: bool = False
    gated: bool = False

    def as_outcome(self) -> Outcome:
        return Outcome(self.id, self.day, self.weight, self.kind, self.redline, self.outcome, self.message, self.gated)


@dataclass
class TrialRecord:
    id: str
    scenario: str
    role: str
    trial: int
    nodeid: str
    agent: str
    isolation: str = ""  # bwrap | none: the sandbox the agent's processes ran in
    world_start_seconds: float = 0.0
    errors: list[str] = field(default_factory=list)
    days: list[DayRecord] = field(default_factory=list)
    checkers: list[CheckerRecord] = field(default_factory=list)

    @property
    def errored(self) -> bool:
        return bool(self.errors)

    def outcomes(self) -> tuple[Outcome, ...]:
        return tuple(c.as_outcome() for c in self.checkers)

    def to_json(self) -> dict[str, Any]:
        outcomes = self.outcomes()
        failed, evaluated = redline_counts(outcomes)
        data = asdict(self)
        data.update(
            score=weighted_score(outcomes),
            success=task_success(outcomes),
            errored=self.errored,
            redline_failed=failed,
            redline_evaluated=evaluated,
        )
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TrialRecord":
        known = {k: data[k] for k in ("id", "scenario", "role", "trial", "nodeid", "agent") if k in data}
        rec = cls(**known)
        rec.world_start_seconds = data.get("world_start_seconds", 0.0)
        rec.isolation = data.get("isolation", "")
        rec.errors = list(data.get("errors", []))
        rec.days = [DayRecord(**d) for d in data.get("days", [])]
        rec.checkers = [CheckerRecord(**c) for c in data.get("checkers", [])]
        return rec

    def trial_score(self) -> TrialScore:
        return TrialScore(self.id, self.scenario, self.trial, self.outcomes(), self.errored)


def efficiency(records: list[TrialRecord]) -> dict[str, Any]:
    """Mean cost of a task trial (Claw-Eval's efficiency figures): tool calls, tokens, agent
    wall time, over trials without harness faults. Evidence only: never part of a score."""
    good = [r for r in records if not r.errored]
    per_trial = []
    for r in good:
        totals = {"tool_calls": 0.0, "input_tokens": 0.0, "output_tokens": 0.0, "cache_read_tokens": 0.0, "cache_write_tokens": 0.0, "agent_seconds": 0.0}
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
    return {f"mean_{k}": (sum(t[k] for t in per_trial) / len(per_trial) if per_trial else 0.0) for k in keys}


def build_document(meta: dict[str, Any], records: list[TrialRecord]) -> dict[str, Any]:
    ordered = sorted(records, key=lambda r: (r.id, r.trial))
    summary = summarize(r.trial_score() for r in ordered)
    summary["efficiency"] = efficiency(ordered)
    summary["infra_errors"] = sum(1 for r in ordered for d in r.days if d.status == "infra-error")
    return {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "run": meta,
        "tasks": [r.to_json() for r in ordered],
        "summary": summary,
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
        raise ResultsError(f"{p}: not a pytest-clawmark results file (schema {data.get('schema') if isinstance(data, dict) else None!r})")
    if data.get("schema_version", 0) > SCHEMA_VERSION:
        raise ResultsError(f"{p}: schema version {data['schema_version']} is newer than this clawmark ({SCHEMA_VERSION})")
    return data


def records_of(document: dict[str, Any]) -> list[TrialRecord]:
    return [TrialRecord.from_json(t) for t in document.get("tasks", [])]
