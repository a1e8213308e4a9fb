"""``clawmark recheck RESULTS.json``: re-score a run's saved worlds with the (possibly edited) checkers.

Why: a task author who fixes a checker, or a benchmark maintainer who tightens one, must not
re-run an agent for hours (and pay its model) to see the new numbers. Every trial saves, after
each day's turn, the state of every service and the workspace (``<day>/<service>.snapshot.json``)
and the day's audit slice — exactly what that day's checkers read. Recheck restores each day's
saved state into a fresh world, in order, and evaluates the task's current checkers on it through
the same :class:`~pytest_clawmark.trial.TrialRun` the live run uses (``requires=`` gating,
red-lines, the reference twin for checker exceptions, a broken world). The agent is not run.

Honest numbers: only trials that were *complete* are re-scored; partial, interrupted and errored
ones are kept as they were (they carry no score). A complete trial whose saved state cannot be
restored faithfully is *errored* in the new document, with the reason: its old verdicts came from
other checkers and must not be summed with the new ones. The new document says it is a recheck (``run.recheck``: of which file, which tasks changed
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
from .identity import task_id as derive_task_id
from .loading import TaskLoadError, import_task, task_files
from .results import COMPLETE, ERRORED, TrialRecord, build_document, load, not_started_of, records_of
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
    modules = _ModulesById(search or ["tasks"])
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
            out.kept.append(f"{record.id} trial {record.trial}: {exc}; errored (not re-scored)")
            record.status = ERRORED
            record.errors = [*record.errors, f"recheck: {exc}"]
            records.append(record)
            continue
        before = {c.id: (c.outcome, c.message) for c in record.checkers}
        for c in fresh.checkers:
            if before.get(c.id) != (c.outcome, c.message):
                out.changed.append((record.id, record.trial, c.id, before.get(c.id, ("new",))[0], c.outcome))
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


class _ModulesById:
    """Task modules under the search paths by task id — imported only when a recorded module path
    is missing (a module that moved since the run), and then once."""

    def __init__(self, search: list[str]) -> None:
        self.search = search
        self._found: dict[str, Path] | None = None

    def get(self, task_id: str) -> Path | None:
        if self._found is None:
            self._found = {}
            try:
                files = task_files(self.search)
            except Exception:  # a search path that does not exist: only the recorded paths are tried
                files = []
            for f in files:
                try:
                    _, task = import_task(f)
                except TaskLoadError:
                    continue
                self._found[derive_task_id(task.id, task.scenario, f)] = f
        return self._found.get(task_id)


def _task_path(record: TrialRecord, modules: _ModulesById) -> Path:
    recorded = Path(record.task_file) if record.task_file else None
    if recorded is not None and recorded.is_file():
        return recorded
    moved = modules.get(record.id)  # the module moved since the run (e.g. into its task folder)
    if moved is not None:
        return moved
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
            state_day, restored = None, False
            for day_index in sorted(by_day):
                wanted = min(day_index, max(days, default=0))  # final checkers: the last day's state
                if wanted != state_day:  # each saved day is restored once
                    state_day, restored = wanted, _restore(world, task, days.get(wanted), evidence_root, wanted)
                for checker in by_day[day_index]:
                    if not restored and not (record.world_broken and checker.redline is None):
                        # no saved state of its day (the world broke before it): a red-line's old
                        # verdict stands only if it came from this very checker
                        old = next((c for c in record.checkers if c.id == checker.id), None)
                        if old is None or new_hash != record.task_hash:
                            raise RecheckError(
                                f"no saved state of day {wanted} for {checker.id!r}, and the task changed since the run"
                            )
                        run.outcomes[checker.id] = old
                        continue
                    run.evaluate(checker)  # on a broken world's later days: settled without reading it
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
