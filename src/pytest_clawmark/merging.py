"""``clawmark merge`` as pure functions: one results document from the shards of one measurement.

Why strict: a merged file is read like any other run, so it must be one measurement. Shards of
different agents, option sets, trial counts, clawmark versions or task versions would average
into a number that no run measured, and a merged file that dropped a shard's never-started trials
would look complete. So :func:`merge_problems` refuses such inputs, and :func:`merge_documents`
rebuilds the document with :func:`results.build_document` from the records and the trials still
never started, letting the run status be derived, never copied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .comparison import run_identity
from .results import PlannedTrial, build_document, not_started_of, records_of

Input = tuple[str, Mapping[str, Any]]  # (name for messages, loaded document)

SAME_RUN_FIELDS = ("agent", "agent_options", "trials", "clawmark_version", "faults")
"""What every input must share: one agent's one measurement (``faults``: a shard run under
--clawmark-faults and one without are two measurements, docs/robustness.md)."""


def merge_problems(inputs: Sequence[Input]) -> list[str]:
    """One line per reason the inputs cannot be merged (empty: they can)."""
    problems: list[str] = []
    first_name, first = inputs[0]
    first_run = first.get("run", {})
    for name, doc in inputs[1:]:
        run = doc.get("run", {})
        differing = [f for f in SAME_RUN_FIELDS if run.get(f) != first_run.get(f)]
        for f in differing:
            problems.append(f"{name}: run.{f} {run.get(f)!r} differs from {first_name}'s {first_run.get(f)!r}")
        # the fingerprint follows from agent and options; report it only when they look equal
        if not {"agent", "agent_options"} & set(differing) and run_identity(run) != run_identity(first_run):
            problems.append(
                f"{name}: run.agent_identity {run_identity(run)} differs from {first_name}'s {run_identity(first_run)}"
            )

    problems += _shard_problems(inputs)
    hashes: dict[str, tuple[str, str]] = {}  # task id -> (task_hash, first input holding it)
    owner: dict[tuple[str, int], str] = {}
    for name, doc in inputs:
        for r in records_of(dict(doc)):
            seen = hashes.setdefault(r.id, (r.task_hash, name))
            if seen[0] != r.task_hash:
                problems.append(
                    f"task {r.id} has task_hash {seen[0] or '(none)'} in {seen[1]} but {r.task_hash or '(none)'} in {name}"
                )
                hashes[r.id] = (r.task_hash, name)  # report each further change once
            key = (r.id, r.trial)
            if key in owner:
                problems.append(f"task {r.id} trial {r.trial} appears in more than one input ({owner[key]}, {name})")
            else:
                owner[key] = name
    return problems


def _shard_problems(inputs: Sequence[Input]) -> list[str]:
    """Results of ``--clawmark-shard`` runs merge only as a whole set: one of each of 1..N."""
    shards = {name: doc.get("run", {}).get("shard") for name, doc in inputs}
    if not any(shards.values()):
        return []
    problems = [f"{name}: not a shard of the run (no run.shard), the others are" for name, s in shards.items() if not s]
    counts = sorted({int(s["count"]) for s in shards.values() if s})
    if len(counts) > 1:
        return problems + [
            f"the shards come from splits into different numbers of shards ({', '.join(map(str, counts))})"
        ]
    seen: dict[int, str] = {}
    for name, s in shards.items():
        if s:
            if int(s["index"]) in seen:
                problems.append(f"{name}: shard {s['index']}/{s['count']} is also {seen[int(s['index'])]}")
            seen.setdefault(int(s["index"]), name)
    missing = [str(i) for i in range(1, counts[0] + 1) if i not in seen]
    if missing:
        problems.append(
            f"shard(s) {', '.join(missing)} of {counts[0]} missing: a merge of some shards is not the run's measurement"
        )
    return problems


def merge_documents(inputs: Sequence[Input]) -> dict[str, Any]:
    """The merged document of inputs that :func:`merge_problems` accepted.

    ``run`` is the first input's, plus ``merged_from`` and the inputs' stop reasons; status,
    counts, ``cut`` and ``not_started`` are derived by build_document. A trial planned but never
    started by one shard and run by another is not "not started".
    """
    records = [r for _, doc in inputs for r in records_of(dict(doc))]
    ran = {(r.id, r.trial) for r in records}
    waiting: dict[tuple[str, int], PlannedTrial] = {}
    for _, doc in inputs:
        for p in not_started_of(dict(doc)):
            if (p.id, p.trial) not in ran:
                waiting.setdefault((p.id, p.trial), p)
    meta = dict(inputs[0][1].get("run", {}))
    meta["agent_identity"] = run_identity(meta)
    meta["merged_from"] = [name for name, _ in inputs]
    shard = meta.pop("shard", None)
    if shard:
        meta["shards"] = int(shard["count"])
    reasons = [str(doc.get("run", {}).get("stop_reason") or "") for _, doc in inputs]
    meta["stop_reason"] = "; ".join(dict.fromkeys(r for r in reasons if r))
    return build_document(meta, records, list(waiting.values()))
