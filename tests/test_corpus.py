"""The corpus gate (issue 5): a task that fails any of these does not ship.

For every task under tasks/: the reference agent scores 100%; the noop agent at most 15%; two
independent reference runs give bit-identical checker verdicts and messages; --rerun-determinism
passes; lint is clean; docs/corpus.md is current; and the structural bars of the corpus hold.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO
from pytest_clawmark.authoring import REDLINE_CLASSES, SCENARIOS
from pytest_clawmark.corpus_stats import collect

TASKS = REPO / "tasks"
NON_TEXT = {"image", "audio", "video", "pdf (scanned)", "xlsx"}


def run_corpus(tmp: Path, name: str, *args: str) -> dict[str, Any]:
    out = tmp / f"{name}.json"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(TASKS),
            "-n",
            "2",
            "-q",
            "-p",
            "no:cacheprovider",
            f"--clawmark-json={out}",
            f"--clawmark-evidence={tmp / name}",
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=900,
    )
    assert out.exists(), r.stdout[-3000:] + r.stderr[-2000:]
    return {"doc": json.loads(out.read_text()), "ret": r.returncode, "stdout": r.stdout}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, dict[str, Any]]]:
    tmp = tmp_path_factory.mktemp("corpus")
    yield {
        "reference": run_corpus(tmp, "reference", "--agent=reference", "--rerun-determinism"),
        "again": run_corpus(tmp, "again", "--agent=reference"),
        "noop": run_corpus(tmp, "noop", "--agent=noop"),
    }


def verdicts(doc: dict[str, Any]) -> dict[str, list[tuple[str, str, str]]]:
    return {t["id"]: [(c["id"], c["outcome"], c["message"]) for c in t["checkers"]] for t in doc["tasks"]}


def test_reference_scores_100_percent_with_rerun_determinism(runs: dict[str, dict[str, Any]]) -> None:
    ref = runs["reference"]
    assert ref["ret"] == 0, ref["stdout"][-3000:]
    doc = ref["doc"]
    assert doc["determinism_violations"] == []
    below = {
        t["id"]: (t["score"], [c["id"] for c in t["checkers"] if c["outcome"] != "passed"])
        for t in doc["tasks"]
        if t["score"] != 1.0 or t["errored"]
    }
    assert not below, below
    assert len(doc["tasks"]) == len(collect([str(TASKS)]))


def test_noop_gets_at_most_15_percent(runs: dict[str, dict[str, Any]]) -> None:
    doc = runs["noop"]["doc"]
    too_generous = {t["id"]: round(t["score"], 3) for t in doc["tasks"] if t["score"] > 0.15}
    assert not too_generous, f"tasks that give points for doing nothing: {too_generous}"
    assert not any(t["errored"] for t in doc["tasks"])
    assert doc["run"]["status"] == "complete" and all(t["status"] == "complete" for t in doc["tasks"])


def test_doing_nothing_crosses_no_red_line_and_breaks_nothing(runs: dict[str, dict[str, Any]]) -> None:
    """Red-lines are evaluated even when their prerequisites failed (detection always): one that
    fails for an idle agent is a requirement in disguise, not a line the agent crossed. A setup
    that fails after an idle day, or a checker that cannot read an untouched world, is a task bug."""
    doc = runs["noop"]["doc"]
    crossed = {
        t["id"]: [c["id"] for c in t["checkers"] if c["redline"] and c["outcome"] == "failed"] for t in doc["tasks"]
    }
    assert not {k: v for k, v in crossed.items() if v}, crossed
    assert doc["summary"]["redline_evaluated"] == sum(1 for t in doc["tasks"] for c in t["checkers"] if c["redline"])
    assert doc["summary"]["world_broken_trials"] == 0 and doc["summary"]["checker_exceptions"] == 0


def test_two_reference_runs_are_bit_identical(runs: dict[str, dict[str, Any]]) -> None:
    assert verdicts(runs["reference"]["doc"]) == verdicts(runs["again"]["doc"])


def test_lint_is_clean() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "pytest_clawmark.cli", "lint", "tasks"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_docs_corpus_md_is_current() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "pytest_clawmark.cli", "corpus-stats", "tasks", "--check", "docs/corpus.md"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_every_task_meets_the_structural_bars() -> None:
    problems = []
    for s in collect([str(TASKS)]):
        t, name = s.task, s.path.relative_to(REPO).as_posix()
        others = set(t.services) - {"fs"}  # type: ignore[arg-type]
        if not 3 <= t.days <= 5:
            problems.append(f"{name}: {t.days} days (3–5)")
        if len(others) < 3:
            problems.append(f"{name}: services besides fs {sorted(others)} (at least 3)")
        if not 10 <= len(t.checkers) <= 25:
            problems.append(f"{name}: {len(t.checkers)} checkers (10–25)")
        if not s.loud or not s.silent:
            problems.append(f"{name}: {s.loud} loud / {s.silent} silent changes (both kinds needed)")
        if not set(s.modalities) & NON_TEXT:
            problems.append(f"{name}: no non-text evidence ({s.modalities})")
    assert not problems, "\n".join(problems)


def test_the_corpus_covers_scenarios_red_lines_and_modalities() -> None:
    stats = collect([str(TASKS)])
    scenarios = sorted(s.task.scenario for s in stats)
    assert scenarios == sorted(SCENARIOS), f"one task per scenario: {scenarios}"
    with_redlines = [s for s in stats if s.redlines]
    assert len(with_redlines) >= 8
    classes = {c.redline for s in stats for c in s.task.checkers if c.redline}
    assert classes == set(REDLINE_CLASSES), classes
    assert sum(1 for s in stats if set(s.modalities) & NON_TEXT) >= 8
    assert sum(1 for s in stats if len(set(s.modalities) & NON_TEXT) >= 2) >= 3
    size = sum(f.stat().st_size for f in TASKS.rglob("*") if f.is_file() and f.suffix != ".py")
    assert size < 30 * 2**20, f"evidence is {size / 2**20:.1f} MB (limit 30 MB)"
