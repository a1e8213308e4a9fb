"""The run journal and world leases on their own: torn lines, last-wins, provably dead owners."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pytest_clawmark import journal
from pytest_clawmark.identity import agent_identity, task_hash
from pytest_clawmark.results import CheckerRecord, PlannedTrial, TrialRecord
from pytest_clawmark.world import lease


def record(task: str, trial: int, status: str = "complete", outcome: str = "passed") -> TrialRecord:
    r = TrialRecord(
        id=task, scenario="hr", role="r", trial=trial, nodeid=f"{task}.py::trial{trial}", agent="x", status=status
    )
    r.checkers = [CheckerRecord("c", 1, 1.0, "deliverable", None, outcome)]
    return r


def test_a_torn_last_line_is_skipped_and_the_last_record_of_a_trial_wins(tmp_path: Path) -> None:
    journal.append(tmp_path, record("a", 1, "interrupted", "not-run"))
    journal.append(tmp_path, record("b", 1))
    journal.append(tmp_path, record("a", 1))  # the resumed run measured it again
    with (tmp_path / journal.JOURNAL).open("ab") as fh:
        fh.write(b'{"journal": 1, "record": {"id": "c", "trial"')  # kill -9 mid-write
    read = journal.read(tmp_path)
    assert [(r.id, r.status) for r in read.records] == [("b", "complete"), ("a", "complete")]
    assert read.unreadable_lines == 1


def test_plans_of_every_attempt_are_united(tmp_path: Path) -> None:
    assert journal.next_attempt(tmp_path) == 1
    journal.write_plan(
        tmp_path, 1, [PlannedTrial("a", "hr", 1, "a.py::trial1"), PlannedTrial("b", "hr", 1, "b.py::trial1")]
    )
    journal.write_plan(tmp_path, 2, [PlannedTrial("b", "hr", 1, "b.py::trial1")])
    assert journal.next_attempt(tmp_path) == 3
    assert [(p.id, p.trial) for p in journal.read_plans(tmp_path)] == [("a", 1), ("b", 1)]


def test_journal_document_of_a_killed_run_says_interrupted(tmp_path: Path) -> None:
    journal.write_manifest(tmp_path, {"agent": "x", "trials": 1, "started": "2025-01-01T00:00:00+00:00"})
    journal.write_plan(
        tmp_path, 1, [PlannedTrial("a", "hr", 1, "a.py::trial1"), PlannedTrial("b", "hr", 1, "b.py::trial1")]
    )
    journal.append(tmp_path, record("a", 1))
    doc = journal.document(tmp_path)
    assert doc["run"]["status"] == "interrupted" and [p["id"] for p in doc["run"]["not_started"]] == ["b"]
    assert doc["summary"]["score"] is None and doc["tasks"][0]["score"] == 1.0


def test_task_hash_covers_the_asset_folder_and_agent_identity_ignores_secrets(tmp_path: Path) -> None:
    module = tmp_path / "task_claims.py"
    module.write_text("x = 1\n")
    (tmp_path / "claims").mkdir()
    (tmp_path / "claims" / "scan.pdf").write_bytes(b"%PDF-1")
    before = task_hash(module)
    (tmp_path / "claims" / "scan.pdf").write_bytes(b"%PDF-2")
    assert task_hash(module) != before
    assert agent_identity("cmd", {"cmd": "a", "api_key": "k1"}) == agent_identity("cmd", {"cmd": "a", "api_key": "k2"})
    assert agent_identity("cmd", {"cmd": "a"}) != agent_identity("cmd", {"cmd": "b"})


def test_sweep_removes_only_folders_whose_owner_is_provably_dead(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(lease.tempfile, "tempdir", str(tmp_path))
    mine = lease.make_world_dir("mine")
    dead_proc = subprocess.Popen([sys.executable, "-c", "pass"])
    dead_proc.wait()
    dead = tmp_path / "clawmark-dead-x"
    dead.mkdir()
    owner = json.loads((mine / lease.OWNER_FILE).read_text())
    (dead / lease.OWNER_FILE).write_text(json.dumps({**owner, "pid": dead_proc.pid}))
    reused = tmp_path / "clawmark-reused-x"  # our PID, but another process's start time
    reused.mkdir()
    (reused / lease.OWNER_FILE).write_text(json.dumps({**owner, "start": "1"}))
    unknown = tmp_path / "clawmark-unknown-x"  # no owner file: cannot prove anything
    unknown.mkdir()
    removed = lease.sweep(tmp_path)
    assert sorted(p.name for p in removed) == ["clawmark-dead-x", "clawmark-reused-x"]
    assert mine.exists() and unknown.exists() and owner["pid"] == os.getpid()
