"""``clawmark recheck RESULTS.json``: re-score a run's saved worlds with the (possibly edited) checkers.

Why: a task author who fixes a checker, or a benchmark maintainer who tightens one, must not
re-run an agent for hours (and pay its model) to see the new numbers. Every trial saves, after
each day's turn, the state of every service and the workspace (``<day>/<service>.snapshot.json``)
and the day's audit slice — exactly what that day's checkers read. Recheck restores each day's
saved state into a fresh world, in order, and evaluates the task's current checkers on it through
the same :class:`~pytest_clawmark.trial.TrialRun` the live run uses (``requires=`` gating,
red-lines, the reference twin for checker exceptions, a broken world). The agent is not run.

Honest numbers: only trials that were *complete* are re-scored; others are kept as they were and
listed. The new document says it is a recheck (``run.recheck``: of which file, which tasks changed
since the run, how many verdicts changed), so it is never mistaken for a fresh measurement of the
agent on the current tasks — the agent acted on the task as it was then.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .authoring import Checker, Task
from .identity import task_hash
from .loading import TaskLoadError, import_task, task_files
from .results import COMPLETE, ERRORED, CheckerRecord, TrialRecord, build_document, load, not_started_of, records_of
from .trial import RunSettings, TrialRun
from .world import World

SNAPSHOTS = ("fs", "mail", "calendar", "kb", "sheets")


class RecheckError(Exception):
    """The results cannot be rechecked (one line: what is missing and what to do)."""


@dataclass
class Rechecked:
    document: dict[str, Any]
    changed: list[tuple[str, int, str, str, str]] = field(default_factory=list)  # task, trial, checker, before, after
    kept: list[str] = field(default_factory=list)  # trials not re-scored, with why


def recheck(results: Path, *, search: list[str] | None = None, evidence_dir: Path | None = None) -> Rechecked:
    """Re-evaluate every complete trial of ``results`` on its saved day states."""
    doc = load(results)
    run = doc.get("run", {})
    evidence_root = Path(evidence_dir or run.get("evidence_dir") or "")
    if not evidence_root.is_dir():
        raise RecheckError(f"the run's evidence folder {evidence_root} is not here: give it with --evidence DIR")
    modules = _modules_by_id(search or ["tasks"])
    out = Rechecked(document={})
    records: list[TrialRecord] = []
    hashes_changed: set[str] = set()
    for record in records_of(doc):
        if record.status != COMPLETE:
            out.kept.append(f"{record.id} trial {record.trial}: {record.status}, kept as it was")
            records.append(record)
            continue
        path = _task_path(record, modules)
        _, task = import_task(path)
        new_hash = task_hash(path)
        if new_hash != record.task_hash:
            hashes_changed.add(record.id)
        try:
            fresh = _recheck_trial(record, task, path, new_hash, evidence_root)
        except RecheckError as exc:
            out.kept.append(f"{record.id} trial {record.trial}: {exc}; kept as it was")
            records.append(record)
            continue
        before = {c.id: (c.outcome, c.message) for c in record.checkers}
        for c in fresh.checkers:
            if before.get(c.id) != (c.outcome, c.message):
                out.changed.append(
                    (record.id, record.trial, c.id, "/".join(before.get(c.id, ("new", ""))[:1]), c.outcome)
                )
        records.append(fresh)
    meta = {k: v for k, v in run.items() if k != "not_started"}
    meta["recheck"] = {
        "of": str(results),
        "at": datetime.now().astimezone().isoformat(timespec="seconds"),
        "tasks_changed_since_run": sorted(hashes_changed),
        "verdicts_changed": len(out.changed),
        "kept_as_they_were": out.kept,
        "note": "the agent's saved states re-scored by the current checkers; the agent was not run again",
    }
    out.document = build_document(meta, records, not_started_of(doc))
    return out


def _modules_by_id(search: list[str]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    try:
        files = task_files(search)
    except Exception:  # a search path that does not exist: only the recorded paths are tried
        return found
    for f in files:
        try:
            _, task = import_task(f)
        except TaskLoadError:
            continue
        found[task.id or f"{task.scenario}/{f.stem.removeprefix('task_')}"] = f
    return found


def _task_path(record: TrialRecord, modules: dict[str, Path]) -> Path:
    recorded = Path(record.task_file) if record.task_file else None
    if recorded is not None and recorded.is_file():
        return recorded
    if record.id in modules:  # the module moved since the run (e.g. into its task folder)
        return modules[record.id]
    raise RecheckError(
        f"{record.id}: its task module {record.task_file or '(unrecorded)'} is not here; run from the project's root or give --tasks PATH"
    )


def _recheck_trial(record: TrialRecord, task: Task, path: Path, new_hash: str, evidence_root: Path) -> TrialRecord:
    days = {d.day: d for d in record.days}
    with tempfile.TemporaryDirectory(prefix="clawmark-recheck-") as tmp:
        settings = RunSettings(
            agent_name=record.agent, agent_options={}, make_agent=_no_agent, evidence_root=Path(tmp) / "evidence"
        )
        run = TrialRun(
            task,
            record.id,
            path.resolve().parent,
            record.trial,
            record.nodeid,
            settings,
            task_file=record.task_file,
            task_hash=new_hash,
        )
        run.record.days = record.days
        run.record.world_broken = record.world_broken
        run.record.isolation = record.isolation
        run.played = set(days)
        if record.agent == "reference":  # a checker that raises on the reference's own world is the task's fault
            from .agents.reference import ReferenceAgent

            run.agent = ReferenceAgent({})
        world = World(
            task.services, Path(tmp) / "world", user=task.user, people=task.people, task_dir=path.resolve().parent
        )  # type: ignore[arg-type]
        run.world = world
        world.start()
        try:
            by_day: dict[int, list[Checker]] = {}
            for checker in sorted(task.checkers, key=lambda c: c.day_index):
                by_day.setdefault(checker.day_index, []).append(checker)
            last_restored = 0
            for day_index in sorted(by_day):
                state_day = min(day_index, max(days) if days else 0)
                restored = _restore(world, task, days.get(state_day), evidence_root, state_day)
                if restored:
                    last_restored = state_day
                for checker in by_day[day_index]:
                    if not restored and last_restored != state_day:
                        old = next((c for c in record.checkers if c.id == checker.id), None)
                        run.outcomes[checker.id] = old or CheckerRecord(
                            checker.id,
                            checker.day,
                            checker.weight,
                            checker.kind,
                            checker.redline,
                            "not-run",
                            "no saved state of its day",
                        )
                        continue
                    run.evaluate(checker)
        finally:
            world.stop()
            shutil.rmtree(Path(tmp) / "world", ignore_errors=True)
    fresh = run.record
    order = {c.id: i for i, c in enumerate(sorted(task.checkers, key=lambda c: c.day_index))}
    fresh.checkers = sorted(run.outcomes.values(), key=lambda r: order.get(r.id, len(order)))
    fresh.status = COMPLETE if not run.record.errors else ERRORED
    fresh.errors = list(run.record.errors)
    fresh.world_start_seconds = record.world_start_seconds
    return fresh


def _restore(world: World, task: Task, day: Any, evidence_root: Path, day_number: int) -> bool:
    """Put the state saved after ``day``'s turn into ``world`` (its services, its workspace, its
    audit log so far, its clock); False when the run saved none (a day not played)."""
    evidence = getattr(day, "evidence", None) or {}
    if not evidence:
        return False
    for name in SNAPSHOTS:
        rel = evidence.get(f"{name}_snapshot")
        if rel is None or name not in world.names:
            continue
        data = json.loads((evidence_root / rel).read_text(encoding="utf-8"))
        if name == "fs":
            _fill_hash_only(world, data, task)
        world.service(name).restore(data)
    audit = evidence.get("audit")
    if audit and (evidence_root / audit).is_file():
        world.audit.replay(
            json.loads(line)
            for line in (evidence_root / audit).read_text(encoding="utf-8").splitlines()
            if line.strip()
        )
    turn = next((t for t in task.turns if t.day == day_number), None)
    if turn is not None and turn.clock is not None:
        world.clock = turn.clock
    return True


def _fill_hash_only(world: World, data: dict[str, Any], task: Task) -> None:
    """Large files a snapshot keeps by hash only (evidence the turns copied in: audio, scans) are
    put back from the task's folder, found by their SHA-256; one that is not there (a large file
    the agent wrote) cannot be restored, and the trial is kept as it was."""
    import hashlib

    folder = getattr(world, "task_dir", None)
    index: dict[str, Path] | None = None
    for rel, entry in sorted(data.get("files", {}).items()):
        digest = entry.get("sha256")
        if "base64" in entry:
            continue
        if digest is None:
            raise RecheckError(
                f"the workspace file {rel} was saved by size only (past the snapshot's limits): it cannot be restored"
            )
        target = world.fs.path(rel)
        if target.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == digest:
            continue
        if index is None:
            index = {}
            for f in sorted(Path(folder).rglob("*")) if folder else []:
                if f.is_file() and f.stat().st_size > 0:
                    index.setdefault(hashlib.sha256(f.read_bytes()).hexdigest(), f)
        source = index.get(digest)
        if source is None:
            raise RecheckError(
                f"the workspace file {rel} was saved by hash only and is not among the task's files: it cannot be restored"
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def _no_agent() -> Any:
    raise RuntimeError("recheck runs no agent")
