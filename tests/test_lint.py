"""clawmark lint on real task modules: clean on the corpus, file:line findings on bad ones."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BASIC_TASK, REPO, make_task

LINT = [sys.executable, "-m", "pytest_clawmark.cli", "lint"]


def lint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*LINT, *args], capture_output=True, text=True, cwd=cwd, timeout=60)


def test_the_corpus_is_clean() -> None:
    r = lint("tasks", cwd=REPO)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().endswith("0 problem(s)")


BAD = (
    BASIC_TASK.replace(
        "from pytest_clawmark import Task", "import datetime, os, random\nfrom pytest_clawmark import Task"
    )
    + """
def newest(world):
    return [p for p in os.listdir(world.fs.root)]

@task.checker(day=1, weight=1)
def uses_clock(world):
    assert datetime.datetime.now().year > 2000, "clock"

@task.checker(day=1, weight=1)
def bare(world):
    assert world.fs.exists("x")

@task.checker(day=1, weight=1)
def uses_random(world):
    assert random.random() < 2, "random"

@task.checker(day=1, weight=1)
def iterates_a_set(world):
    for name in {"a", "b"}:
        assert name, "name"
    assert newest(world) is not None, "newest"

@task.checker(day=1, weight=1)
def fine(world):
    assert sorted(os.listdir(world.fs.root)) is not None, "listing"

@task.turn("2025-04-09 09:00 +00:00")
def wednesday(world):
    world.fs.add("missing_evidence/day3.pdf")
    return "nothing to do"
"""
)


def test_findings_name_file_line_and_problem(pytester: pytest.Pytester) -> None:
    make_task(pytester, "task_bad", BAD)
    r = lint(".", cwd=pytester.path)
    assert r.returncode == 1
    lines = r.stdout.splitlines()
    text = "\n".join(lines)
    src = (pytester.path / "task_bad.py").read_text().splitlines()

    def line_of(fragment: str) -> int:
        return next(i + 1 for i, s in enumerate(src) if fragment in s)

    assert (
        f"task_bad.py:{line_of('datetime.datetime.now()')}: checker 'uses_clock' reads the clock or randomness: datetime.now()"
        in text
    )
    assert f"task_bad.py:{line_of('random.random()')}: checker 'uses_random' uses randomness: random.random()" in text
    assert f"task_bad.py:{line_of('for name in')}: checker 'iterates_a_set' iterates a set" in text
    assert (
        f"task_bad.py:{line_of('os.listdir(world.fs.root)]')}: checker 'iterates_a_set' iterates a directory listing (listdir) without sorted() (in helper newest())"
        in text
    )
    bare_line = line_of('exists("x")')
    assert f"task_bad.py:{bare_line}: checker 'bare' has an assert without a message" in text
    assert "'fine'" not in text
    assert f"task_bad.py:{line_of('missing_evidence')}: evidence 'missing_evidence/day3.pdf' does not exist" in text
    assert f"task_bad.py:{line_of('2025-04-09 09:00')}: day 3 (wednesday) has no checkers" in text
    assert f"task_bad.py:{line_of('2025-04-09 09:00')}: day 3 (wednesday) has no reference solution" in text
    assert lines[-1] == f"clawmark lint: 1 task module(s), {len(lines) - 1} problem(s)"


def test_declaration_problems_and_bad_paths(pytester: pytest.Pytester) -> None:
    make_task(pytester, "task_decl", BASIC_TASK.replace('crossing="irreversible-write"', 'crossing="oops"'))
    r = lint("task_decl.py", cwd=pytester.path)
    assert r.returncode == 1 and "unknown red-line class 'oops'" in r.stdout and "task_decl.py:" in r.stdout
    r = lint("nowhere", cwd=pytester.path)
    assert r.returncode == 2 and "nowhere: no such file or folder" in r.stderr and "Traceback" not in r.stderr


def test_a_module_level_dataclass_imports_as_under_pytest(pytester: pytest.Pytester) -> None:
    """The loader registers the module while it runs (dataclasses look their module up)."""
    source = BASIC_TASK.replace(
        "from pytest_clawmark import Task",
        "from __future__ import annotations\nfrom dataclasses import dataclass\nfrom pytest_clawmark import Task\n\n\n"
        "@dataclass(frozen=True)\nclass Row:\n    name: str\n",
    )
    assert "class Row" in source
    make_task(pytester, "task_dc", source)
    r = lint("task_dc.py", cwd=pytester.path)
    assert r.returncode == 0 and "importing the task failed" not in r.stdout, r.stdout + r.stderr
