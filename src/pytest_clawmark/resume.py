"""Resuming a run: which journaled trials stand, and when resuming must be refused.

A resumed run continues in the earlier run's evidence folder and journal. It reruns only the
trials that did not finish (cut by an interruption, or never started); the finished ones —
complete, partial or errored — are kept as journaled, so that for a deterministic agent the
resumed results equal an uninterrupted run's, task by task and checker by checker.

Refused, with the reason: a different agent, agent options, trial count or other setting that
changes measurements (the manifest's identity fields), a different clawmark version, and a task
whose module or asset folder changed since a kept trial was measured (its task hash).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import journal
from .identity import task_hash
from .scoring import COMPLETE, ERRORED, PARTIAL

FINISHED = (COMPLETE, PARTIAL, ERRORED)


class ResumeError(Exception):
    """A resume that cannot be done; the message says which run and why."""


@dataclass
class ResumePlan:
    keep: dict[str, list[str] | None] = field(default_factory=dict)  # trial node id -> its plan


def resolve_run_dir(value: str, rootdir: Path) -> Path:
    """``latest`` -> the newest run under ``<rootdir>/.clawmark/runs`` that has a manifest."""
    if value != "latest":
        root = Path(value).resolve()
        if not root.is_dir():
            raise ResumeError(f"--clawmark-resume={value}: no such folder")
        if not journal.has_run(root):
            raise ResumeError(
                f"--clawmark-resume={value}: not the evidence folder of a clawmark run (no manifest or journal)"
            )
        return root
    runs = rootdir / ".clawmark" / "runs"
    candidates = (
        sorted((p for p in runs.glob("*") if (p / journal.MANIFEST).is_file()), key=lambda p: p.name, reverse=True)
        if runs.is_dir()
        else []
    )
    if not candidates:
        raise ResumeError(f"--clawmark-resume: no earlier run under {runs} to resume")
    return candidates[0].resolve()


def resume_plan(
    root: Path, before: dict[str, Any], now: dict[str, Any], fields: tuple[str, ...], rootdir: Path
) -> ResumePlan:
    """Check that this run measures what the journaled one did; return the trials to keep."""
    different = [f for f in fields if before.get(f) != now.get(f)]
    if different:
        lines = ", ".join(f"{f}: {before.get(f)!r} then, {now.get(f)!r} now" for f in different)
        raise ResumeError(f"{root} was measured with other settings ({lines}); start a new run instead")
    plan = ResumePlan()
    changed: list[str] = []
    for record in journal.read(root).records:
        if record.status not in FINISHED:
            continue
        module = rootdir / record.task_file
        try:
            current = task_hash(module)
        except OSError:
            changed.append(f"{record.task_file} (gone)")
            continue
        if current != record.task_hash:
            changed.append(record.task_file)
            continue
        plan.keep[record.nodeid] = record.selected
    if changed:
        names = ", ".join(sorted(set(changed)))
        raise ResumeError(
            f"task(s) changed since {root} was measured: {names}; their kept trials would not match; start a new run instead"
        )
    return plan
