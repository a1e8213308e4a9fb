"""``clawmark recheck``: a run's saved day states re-scored by the current checkers, no agent run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import REPO


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_recheck_reproduces_the_verdicts_then_follows_an_edited_checker(tmp_path: Path) -> None:
    assert _run(tmp_path, "-m", "pytest_clawmark.cli", "new-task", "hr/purchase_requests").returncode == 0
    for agent in ("reference", "noop"):
        _run(
            tmp_path,
            "-m",
            "pytest",
            "tasks",
            f"--agent={agent}",
            f"--clawmark-json={agent}.json",
            "-p",
            "no:cacheprovider",
            "-q",
            "--clawmark-progress=off",
        )
    for agent in ("reference", "noop"):
        r = _run(tmp_path, "-m", "pytest_clawmark.cli", "recheck", f"{agent}.json")
        assert r.returncode == 0 and "0 verdict(s) changed" in r.stdout, r.stdout + r.stderr
        before, after = (
            json.loads((tmp_path / name).read_text()) for name in (f"{agent}.json", f"{agent}.rechecked.json")
        )
        assert [(c["id"], c["outcome"], c["message"]) for c in after["tasks"][0]["checkers"]] == [
            (c["id"], c["outcome"], c["message"]) for c in before["tasks"][0]["checkers"]
        ]
        assert (
            after["summary"]["score"] == before["summary"]["score"]
            and after["run"]["recheck"]["tasks_changed_since_run"] == []
        )
    # the author tightens a checker (the amount must now be the original one): re-scored without the agent
    module = tmp_path / "tasks" / "hr" / "purchase_requests" / "task_purchase_requests.py"
    module.write_text(
        module.read_text().replace(
            "assert found == [money(F.request.revised_amount)]", "assert found == [money(F.request.amount)]"
        )
    )
    r = _run(tmp_path, "-m", "pytest_clawmark.cli", "recheck", "reference.json", "--out", "tightened.json")
    assert r.returncode == 0 and "1 verdict(s) changed" in r.stdout and "spend_logged: passed -> failed" in r.stdout, (
        r.stdout + r.stderr
    )
    doc = json.loads((tmp_path / "tightened.json").read_text())
    (t,) = doc["tasks"]
    spend = next(c for c in t["checkers"] if c["id"] == "spend_logged")
    assert spend["outcome"] == "failed" and spend["message"].startswith("expected one Spend row for REQ-102"), spend
    assert t["score"] < 1.0 and doc["run"]["recheck"]["tasks_changed_since_run"] == ["hr/purchase_requests"]
    assert (
        doc["run"]["recheck"]["verdicts_changed"] == 1
        and "the agent was not run again" in doc["run"]["recheck"]["note"]
    )


def test_recheck_keeps_trials_that_were_not_complete_and_says_why(tmp_path: Path) -> None:
    assert _run(tmp_path, "-m", "pytest_clawmark.cli", "new-task", "hr/purchase_requests").returncode == 0
    _run(
        tmp_path,
        "-m",
        "pytest",
        "tasks",
        "--agent=reference",
        "--clawmark-json=part.json",
        "-k",
        "day1",
        "-p",
        "no:cacheprovider",
        "-q",
        "--clawmark-progress=off",
    )
    doc = json.loads((tmp_path / "part.json").read_text())
    assert doc["tasks"][0]["status"] == "partial"
    r = _run(tmp_path, "-m", "pytest_clawmark.cli", "recheck", "part.json")
    assert r.returncode == 0 and "not rechecked: hr/purchase_requests trial 1: partial, kept as it was" in r.stdout, (
        r.stdout + r.stderr
    )
    after = json.loads((tmp_path / "part.rechecked.json").read_text())
    assert after["tasks"][0]["status"] == "partial" and after["tasks"][0]["score"] is None


def test_recheck_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{}")
    r = _run(REPO, "-m", "pytest_clawmark.cli", "recheck", str(tmp_path / "bad.json"))
    assert r.returncode == 2 and "not a pytest-clawmark results file" in r.stderr and "Traceback" not in r.stderr
    r = _run(REPO, "-m", "pytest_clawmark.cli", "recheck", str(tmp_path / "none.json"))
    assert r.returncode == 2 and "no such file" in r.stderr


def test_a_trial_whose_state_cannot_be_restored_is_errored_not_mixed_into_the_score(tmp_path: Path) -> None:
    assert _run(tmp_path, "-m", "pytest_clawmark.cli", "new-task", "hr/purchase_requests").returncode == 0
    _run(
        tmp_path,
        "-m",
        "pytest",
        "tasks",
        "--agent=reference",
        "--clawmark-json=ref.json",
        "-p",
        "no:cacheprovider",
        "-q",
        "--clawmark-progress=off",
    )
    doc = json.loads((tmp_path / "ref.json").read_text())
    evidence = Path(doc["run"]["evidence_dir"]) / doc["tasks"][0]["days"][0]["evidence"]["fs_snapshot"]
    snapshot = json.loads(evidence.read_text())
    # a large file the agent wrote: a snapshot keeps it by hash only, and the task's folder has no copy
    snapshot["files"]["out/big.bin"] = {"size": 9_000_000, "sha256": "0" * 64}
    evidence.write_text(json.dumps(snapshot))
    r = _run(tmp_path, "-m", "pytest_clawmark.cli", "recheck", "ref.json")
    assert r.returncode == 0 and "not rechecked: hr/purchase_requests trial 1" in r.stdout, r.stdout + r.stderr
    (t,) = json.loads((tmp_path / "ref.rechecked.json").read_text())["tasks"]
    assert t["status"] == "errored" and t["score"] is None
    assert "out/big.bin was saved by hash only and is not among the task's files" in t["errors"][-1]
