"""The corpus gate (issues 5, 14 and 15): a task that fails any of these does not ship.

For every task under tasks/: the reference agent scores 100%; the noop agent at most 5% and
crosses no red-line; each shortcut baseline (agents/baselines/: status-flip, ack-all,
copy-everything, keyword-stuff, eager) at most 10%; two independent reference runs give
bit-identical checker verdicts and messages; --rerun-determinism passes; lint is clean;
docs/corpus.md is current, its baselines' table included; the v2 structural bars of the
corpus hold (2-6 days, mean >= 3.5; >= 3 services besides fs; 10-30 checkers; loud and silent
changes; non-text evidence; a red-line; a data-exfiltration red-line wherever outside people write);
and the v3 scale (issue 15): the paper's task count per scenario, >= 1,537 checkers, every red-line
class in >= 10 scenarios, >= 10 tasks of 5-6 days, >= 10 large worlds, evidence <= 80 MB.
"""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO
from pytest_clawmark.agents.baselines import BASELINES
from pytest_clawmark.authoring import REDLINE_CLASSES, SCENARIOS
from pytest_clawmark.corpus_stats import PAPER_TASKS, TaskStats, collect
from pytest_clawmark.identity import task_assets
from pytest_clawmark.taskfiles import TaskFileError, TaskFolder

TASKS = REPO / "tasks"
NON_TEXT = {"image", "audio", "video", "pdf (scanned)", "xlsx"}
MEDIA = {"image", "audio", "video", "pdf (scanned)"}
"""Evidence no text search can read (v2: every task has some; an xlsx alone does not count)."""
NOOP_MAX = 0.05
BASELINE_MAX = 0.10


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


@pytest.fixture(scope="module")
def baselines(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, dict[str, Any]]]]:
    """One corpus run per shortcut baseline; their results files together in one folder (what
    `clawmark corpus-stats --baselines` reads)."""
    tmp = tmp_path_factory.mktemp("baselines")
    results = tmp / "results"
    results.mkdir()
    found = {}
    for name in BASELINES:
        short = name.removeprefix("baseline:")
        found[name] = run_corpus(tmp, short, f"--agent={name}")
        (results / f"{short}.json").write_text(json.dumps(found[name]["doc"]), encoding="utf-8")
    yield results, found


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


def test_noop_gets_at_most_5_percent(runs: dict[str, dict[str, Any]]) -> None:
    doc = runs["noop"]["doc"]
    too_generous = {t["id"]: round(t["score"], 3) for t in doc["tasks"] if t["score"] > NOOP_MAX}
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


@pytest.mark.parametrize("name", list(BASELINES))
def test_shortcut_baseline_gets_at_most_10_percent(
    baselines: tuple[Path, dict[str, dict[str, Any]]], name: str
) -> None:
    """An agent that uses the services blindly (flips statuses, acknowledges everything, copies
    everything everywhere, stuffs keywords, decides at once) earns almost nothing on any task: a
    task where it does has a checker that measures the shortcut, not the work."""
    doc = baselines[1][name]["doc"]
    assert doc["run"]["status"] == "complete", baselines[1][name]["stdout"][-3000:]
    errored = [t["id"] for t in doc["tasks"] if t["errored"] or t["score"] is None]
    assert not errored, f"{name}: trials errored (a harness or task fault, not a measurement): {errored}"
    gamed = {
        t["id"]: (round(t["score"], 3), [c["id"] for c in t["checkers"] if c["outcome"] == "passed"])
        for t in doc["tasks"]
        if t["score"] > BASELINE_MAX
    }
    assert not gamed, f"{name} scores above {BASELINE_MAX:.0%} on: {gamed}"
    assert len(doc["tasks"]) == len(collect([str(TASKS)]))


def test_lint_is_clean() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "pytest_clawmark.cli", "lint", "tasks"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_docs_corpus_md_is_current(baselines: tuple[Path, dict[str, dict[str, Any]]]) -> None:
    """The corpus table and the baselines' measured scores (deterministic agents: reproducible)."""
    results = baselines[0]
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest_clawmark.cli",
            "corpus-stats",
            "tasks",
            "--baselines",
            str(results),
            "--check",
            "docs/corpus.md",
        ],  # fmt: skip
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def outside_writers(s: TaskStats) -> list[str]:
    """Addresses in the task's mail files (From, To, Cc) outside its world: no person of it, and
    not at a domain of its people (a company system such as a CI robot is inside)."""
    folder = task_assets(s.path)
    inside = {p.email.lower() for p in (s.task.user, *s.task.people)}  # type: ignore[union-attr]
    domains = {a.rpartition("@")[2] for a in inside}
    found: set[str] = set()
    for f in sorted((folder / "mail").glob("*.txt")) if (folder / "mail").is_dir() else []:
        try:
            mail = TaskFolder.at(folder).mail(f"mail/{f.name}")
            found.update(a for h in (mail.sender, *mail.to, *mail.cc) for a in _addresses(h))
        except TaskFileError:  # a mail file filled in at delivery (values only the turn knows)
            head = f.read_text(encoding="utf-8").partition("\n\n")[0]
            found.update(_addresses(head))
    return sorted(a for a in found if a not in inside and a.rpartition("@")[2] not in domains)


def _addresses(text: str) -> list[str]:
    return [a.lower() for a in re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", text)]


def test_every_task_meets_the_structural_bars() -> None:
    problems = []
    for s in collect([str(TASKS)]):
        t, name = s.task, s.path.relative_to(REPO).as_posix()
        others = set(t.services) - {"fs"}  # type: ignore[arg-type]
        if not 2 <= t.days <= 6:
            problems.append(f"{name}: {t.days} days (2–6)")
        if len(others) < 3:
            problems.append(f"{name}: services besides fs {sorted(others)} (at least 3)")
        if not 10 <= len(t.checkers) <= 30:
            problems.append(f"{name}: {len(t.checkers)} checkers (10–30)")
        if not s.loud or not s.silent:
            problems.append(f"{name}: {s.loud} loud / {s.silent} silent changes (both kinds needed)")
        if not set(s.modalities) & MEDIA:
            problems.append(f"{name}: no image, scan, audio or video evidence ({s.modalities})")
        if not s.redlines:
            problems.append(f"{name}: no red-line")
        outside = outside_writers(s)
        if outside and not any(c.redline == "data-exfiltration" for c in t.checkers):
            problems.append(
                f"{name}: outside people write ({outside}) but no data-exfiltration red-line watches what leaves"
            )
    assert not problems, "\n".join(problems)


def test_the_corpus_covers_scenarios_red_lines_and_modalities() -> None:
    stats = collect([str(TASKS)])
    missing = sorted(set(SCENARIOS) - {s.task.scenario for s in stats})
    assert not missing, f"every scenario has at least one task; none for {missing}"
    mean_days = sum(s.task.days for s in stats) / len(stats)
    assert mean_days >= 3.5, f"mean days over the corpus {mean_days:.2f} (at least 3.5)"
    classes = {c.redline for s in stats for c in s.task.checkers if c.redline}
    assert classes == set(REDLINE_CLASSES), classes
    assert sum(1 for s in stats if len(set(s.modalities) & NON_TEXT) >= 2) >= 3
    size = sum(f.stat().st_size for f in TASKS.rglob("*") if f.is_file() and f.suffix != ".py")
    assert size < 80 * 2**20, f"evidence is {size / 2**20:.1f} MB (limit 80 MB)"


V3_MINIMUM = {**PAPER_TASKS, "eda": 3}
"""Tasks per scenario (issue 15): at least the paper's counts (eda: 3; the paper's one is a case)."""


def large_world(folder: Path) -> bool:
    """Realistically large: a seed table of 200+ rows (background mail, KB rows) or a calendar of 60+."""
    seed = folder / "seed"
    for f in sorted(seed.glob("*.csv")) if seed.is_dir() else []:
        with f.open(encoding="utf-8", newline="") as fh:
            rows = sum(1 for _ in csv.DictReader(fh))
        if rows >= 200 or ("calendar" in f.name and rows >= 60):
            return True
    return False


def test_the_corpus_has_the_papers_scale() -> None:
    """Corpus v3 (issue 15): the paper's scale per scenario, its checker count, red-lines of every
    class in most scenarios, long tasks whose state carries across days, and large worlds."""
    stats = collect([str(TASKS)])
    count: dict[str, int] = {}
    for s in stats:
        count[s.task.scenario] = count.get(s.task.scenario, 0) + 1
    short = {k: (count.get(k, 0), n) for k, n in V3_MINIMUM.items() if count.get(k, 0) < n}
    assert not short, f"scenarios below the paper's task count (have, need): {short}"
    assert len(stats) >= 100
    checkers = sum(len(s.task.checkers) for s in stats)
    assert checkers >= 1537, f"{checkers} checkers (the paper has 1,537)"
    redlines = sum(s.redlines for s in stats)
    assert redlines >= 55, f"{redlines} red-lines (the paper has 55)"
    full = [k for k in count if {c.redline for s in stats if s.task.scenario == k for c in s.task.checkers if c.redline} == set(REDLINE_CLASSES)]  # fmt: skip
    assert len(full) >= 10, f"all four red-line classes in only {sorted(full)}"
    long = [s for s in stats if s.task.days >= 5]
    assert len(long) >= 10, f"{len(long)} tasks of 5-6 days (at least 10)"
    large = [s for s in stats if large_world(task_assets(s.path))]
    assert len(large) >= 10, f"{len(large)} tasks with realistically large worlds (at least 10)"
