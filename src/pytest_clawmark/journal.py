"""The run journal: what a run has measured so far, on disk, as it happens.

Why: a benchmark run takes hours; a crash, a ``kill -9`` or a lost CI machine must not lose the
trials that already finished, and a later run must be able to resume where this one stopped.
Each finished (or cut) task trial is appended to ``journal.jsonl`` in the run's evidence folder
the moment it ends — one JSON line, one ``write``, ``fsync``'d — by whichever process ran it
(an xdist worker or the single pytest process). The controller builds the results from the
journal, never from memory, so the results of an interrupted run are exactly what reached disk.

Beside it, written atomically: ``manifest.json`` (what was measured: agent, options, trial
count, settings that change results; checked by ``--clawmark-resume``) and one
``plan.<attempt>.json`` per run attempt (the task trials that attempt meant to measure, so
trials that never started are listed instead of silently missing).

A line cut short by a kill is skipped when reading (and counted); for a trial journaled more
than once (a resumed run re-measures cut trials) the last line wins.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .results import PlannedTrial, TrialRecord, write_atomic

JOURNAL = "journal.jsonl"
MANIFEST = "manifest.json"
PLAN_GLOB = "plan.*.json"
FORMAT = 1


class JournalError(Exception):
    """A journal or manifest that cannot be used; the message says which file and why."""


def append(root: Path, record: TrialRecord) -> None:
    """Append one trial record to the journal of the run in ``root``: a single ``write`` of one
    line (O_APPEND, so concurrent workers never interleave), then ``fsync``."""
    root.mkdir(parents=True, exist_ok=True)
    line = json.dumps({"journal": FORMAT, "record": record.to_json()}, sort_keys=True, separators=(",", ":")) + "\n"
    data = line.encode("utf-8")
    fd = os.open(root / JOURNAL, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass
class Journal:
    """What a run folder holds: the last record of each trial, in journal order."""

    records: list[TrialRecord] = field(default_factory=list)
    unreadable_lines: int = 0  # lines cut short by a kill (or damaged): skipped


def read(root: Path) -> Journal:
    path = Path(root) / JOURNAL
    journal = Journal()
    if not path.exists():
        return journal
    latest: dict[tuple[str, int], TrialRecord] = {}
    with path.open("rb") as fh:
        for raw in fh:
            try:
                entry = json.loads(raw.decode("utf-8"))
                record = TrialRecord.from_json(entry["record"])
            except (ValueError, KeyError, TypeError, UnicodeDecodeError):
                journal.unreadable_lines += 1
                continue
            key = (record.id, record.trial)
            latest.pop(key, None)  # re-insert: order = the last time each trial was journaled
            latest[key] = record
    journal.records = list(latest.values())
    return journal


def has_run(root: Path) -> bool:
    return (Path(root) / MANIFEST).exists() or (Path(root) / JOURNAL).exists()


def write_manifest(root: Path, manifest: dict[str, Any]) -> None:
    """Write the manifest once (identical content from every process of the run)."""
    path = Path(root) / MANIFEST
    if not path.exists():
        write_atomic(path, {"journal": FORMAT, **manifest})


def read_manifest(root: Path) -> dict[str, Any]:
    path = Path(root) / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise JournalError(f"{root}: no {MANIFEST}: not the evidence folder of a clawmark run") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise JournalError(f"{path}: unreadable ({exc})") from None
    if not isinstance(data, dict) or data.get("journal") != FORMAT:
        raise JournalError(f"{path}: not a clawmark run manifest of format {FORMAT}")
    return data


def document(root: Path, meta: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The results document of the run in ``root`` as its journal and plans stand (None when
    it holds neither). The end of a run builds its results this way; ``clawmark report RUN_DIR``
    too, for a run killed before it could write them — trials that never finished are then cut
    or never started, so such a document says *interrupted*. ``meta`` (default: the manifest)
    becomes the ``run`` block."""
    from .results import build_document

    root = Path(root)
    read_back = read(root)
    planned = read_plans(root)
    if not read_back.records and not planned:
        return None
    have = {(r.id, r.trial) for r in read_back.records}
    waiting = [p for p in planned if (p.id, p.trial) not in have]
    if meta is None:
        meta = {"stop_reason": "read from the run's journal (the run wrote no results file)" if waiting else ""}
        meta.update(read_manifest(root))
    run = {k: v for k, v in meta.items() if k not in ("journal", "rootdir")}
    run.update(
        evidence_dir=str(root.resolve()),
        journal=str(root.resolve() / JOURNAL),
        journal_unreadable_lines=read_back.unreadable_lines,
        attempts=next_attempt(root) - 1,
    )
    return build_document(run, read_back.records, waiting)


def write_plan(root: Path, attempt: int, planned: list[PlannedTrial]) -> None:
    """The task trials run attempt ``attempt`` means to measure (identical from every worker)."""
    write_atomic(Path(root) / f"plan.{attempt}.json", {"journal": FORMAT, "planned": [p.to_json() for p in planned]})


def read_plans(root: Path) -> list[PlannedTrial]:
    """Every planned trial of every attempt of the run in ``root`` (union, sorted)."""
    found: dict[tuple[str, int], PlannedTrial] = {}
    for path in sorted(Path(root).glob(PLAN_GLOB)):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            planned = [PlannedTrial.from_json(p) for p in data["planned"]]
        except (ValueError, KeyError, TypeError, UnicodeDecodeError, OSError):
            continue  # a plan being written right now (atomic rename) or damaged: nothing to add
        for p in planned:
            found[(p.id, p.trial)] = p
    return [found[k] for k in sorted(found)]


def next_attempt(root: Path) -> int:
    """1 for a new run, 2 for its first resume, ..."""
    numbers = []
    for path in Path(root).glob(PLAN_GLOB):
        middle = path.name[len("plan.") : -len(".json")]
        if middle.isdigit():
            numbers.append(int(middle))
    return max(numbers, default=0) + 1
