"""The clawmark command on real results files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ADDER, BASIC_TASK, make_task

CLI = [sys.executable, "-m", "pytest_clawmark.cli"]


@pytest.fixture
def two_runs(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    make_task(pytester, "task_basic", BASIC_TASK)
    make_task(pytester, "task_other", BASIC_TASK.replace('scenario="hr"', 'scenario="legal"'))
    pytester.makeconftest(ADDER)
    pytester.runpytest("--agent=adder", "--clawmark-json=base.json")
    monkeypatch.setenv("ADDER_SLIPS", "legal/other")  # the same agent regresses on one checker
    pytester.runpytest("--agent=adder", "--clawmark-json=new.json")
    return pytester.path / "base.json", pytester.path / "new.json"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=60)


def test_compare_gates_a_regression(two_runs: tuple[Path, Path]) -> None:
    base, new = two_runs
    # legal drops from 100 to 90 (answer_day2, weight 1 of 10, now fails)
    r = run("compare", str(base), str(new))
    assert r.returncode == 1, r.stdout
    assert "score dropped beyond --max-drop 0 pts: overall -5.0, legal -10.0" in r.stdout
    assert "legal/other trial 1 answer_day2: passed -> failed  expected 100, found '99'" in r.stdout
    assert run("compare", str(base), str(new), "--max-drop", "10", "--max-success-drop", "100").returncode == 0
    assert run("compare", str(new), str(base)).returncode == 0  # an improvement is fine


def test_report_and_merge(two_runs: tuple[Path, Path], tmp_path: Path) -> None:
    base, new = two_runs
    r = run("report", str(base))
    assert r.returncode == 0 and "overall" in r.stdout and "100.0%" in r.stdout
    r = run("merge", str(tmp_path / "m.json"), str(base), str(new))
    assert r.returncode == 2 and "appears in more than one input" in r.stderr


def test_report_failed_and_one_task(two_runs: tuple[Path, Path]) -> None:
    _, new = two_runs
    r = run("report", str(new), "--failed")
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert "legal/other trial 1 (90.0%):" in out and "  day 2:" in out
    assert any(
        line.startswith("    failed   answer_day2 (w=1, ") and line.endswith("expected 100, found '99'") for line in out
    ), r.stdout
    assert not any(line.startswith("hr/basic") for line in out)  # every checker of it passed
    r = run("report", str(new), "--task", "legal/other")
    assert r.returncode == 0 and "legal/other trial 1: complete, score 90.0%" in r.stdout and "passed   1" in r.stdout
    assert run("report", str(new), "--failed", "--task", "hr/basic").stdout.strip().endswith("every checker passed")
    r = run("report", str(new), "--task", "nope")
    assert r.returncode == 2 and "no task 'nope'" in r.stderr and "hr/basic" in r.stderr


def test_bad_files_give_clear_errors(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("{not json")
    (tmp_path / "y.json").write_text(json.dumps({"hello": 1}))
    r = run("report", str(tmp_path / "x.json"))
    assert r.returncode == 2 and "not JSON" in r.stderr and "Traceback" not in r.stderr
    r = run("compare", str(tmp_path / "y.json"), str(tmp_path / "y.json"))
    assert r.returncode == 2 and "not a pytest-clawmark results file" in r.stderr
    r = run("report", str(tmp_path / "missing.json"))
    assert r.returncode == 2 and "no such file" in r.stderr


def test_the_admin_plane_reference_is_current() -> None:
    """docs/admin-api.md is generated from the code (every public admin-plane method, with its
    signature): a changed signature without a regenerated file fails here."""
    repo = Path(__file__).resolve().parents[1]
    r = subprocess.run(
        [*CLI, "api-docs", "--check", str(repo / "docs" / "admin-api.md")], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    text = (repo / "docs" / "admin-api.md").read_text()
    for method in ("world.fs", "deliver(", "add_event(", "create_database(", "update_row(", "by_id(", "notion("):
        assert method in text


def test_every_admin_plane_example_runs_and_calls_every_method_of_its_section(tmp_path: Path) -> None:
    """The reference's worked examples are run, in order, against a real five-service world (an
    example that rots fails here), and each calls every method its section lists."""
    import re
    from datetime import datetime, timezone

    from pytest_clawmark.apidocs import SECTIONS, _members
    from pytest_clawmark.apidocs_examples import EXAMPLES
    from pytest_clawmark.world import Person, World

    shared = {"snapshot", "restore", "audit"}  # every service has them: called once, in the world section
    for title, cls, _ in SECTIONS:
        code = EXAMPLES[title]
        methods = {name for name, value in _members(cls) if callable(value) and not isinstance(value, property)}
        uncalled = sorted(
            m for m in methods - (shared if title != "world" else set()) if not re.search(rf"\.{m}\(", code)
        )
        properties = sorted(
            name for name, value in _members(cls) if isinstance(value, property) and f".{name}" not in code
        )
        assert not uncalled and not properties, f"{title}: the example never uses {uncalled + properties}"
    from pytest_clawmark.apidocs_examples import TASK_FILES

    for rel, text in TASK_FILES.items():
        (tmp_path / "task" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "task" / rel).write_text(text)
    world = World(
        ("fs", "mail", "calendar", "kb", "sheets"),
        tmp_path / "w",
        user=Person("Sam Rivera", "sam@corp.example"),
        people=[Person("Mira Stone", "mira@corp.example")],
        task_dir=tmp_path / "task",
    )
    world.clock = datetime(2025, 4, 8, 9, tzinfo=timezone.utc)
    world.start()
    namespace: dict[str, object] = {"world": world}
    try:
        for title, code in EXAMPLES.items():
            exec(compile(code, f"<example {title}>", "exec"), namespace)
    finally:
        world.stop()
