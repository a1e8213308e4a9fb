"""Bad task declarations fail at collection with one clear message naming the file and problem."""

from __future__ import annotations

import pytest

from conftest import BASIC_TASK, make_task

CASES = [
    ("unknown_service", ('services={"fs"}', 'services={"fs", "fax"}'), "unknown service 'fax'"),
    (
        "bad_day",
        ("@task.checker(day=2, weight=1, detects", "@task.checker(day=3, weight=1, detects"),
        "checker 'answer_day2' is for day 3, but the task has days 1..2",
    ),
    ("dup_id", ("def final_log(world):", "def answer_day1(world):"), "duplicate checker id 'answer_day1'"),
    (
        "redline_no_class",
        ('@task.redline(day=2, crossing="irreversible-write",', "@task.redline(day=2,"),
        "a red-line needs a class",
    ),
    ("redline_bad_class", ('crossing="irreversible-write"', 'crossing="oops"'), "unknown red-line class 'oops'"),
    (
        "undetected_silent",
        ('detects="number_changed"', 'kind="deliverable"'),
        "silent mutation 'number_changed' (day 2) is detected by no checker",
    ),
    (
        "unknown_detects",
        ('detects="number_changed"', 'detects="nope"'),
        "detects 'nope', which no turn declares as silent",
    ),
    (
        "bad_weight",
        ("@task.checker(day=1, weight=3)", "@task.checker(day=1, weight=0)"),
        "weight must be a positive number, got 0",
    ),
    (
        "bad_kind",
        ("@task.checker(day=1, weight=3)", '@task.checker(day=1, weight=3, kind="vibes")'),
        "unknown kind 'vibes'",
    ),
    ("bad_scenario", ('scenario="hr"', 'scenario="astrology"'), "unknown scenario 'astrology'"),
    ("bad_clock", ('"2025-04-08 09:00 +00:00"', '"tomorrow"'), "turn clock 'tomorrow' is not like"),
    (
        "clock_backwards",
        ('"2025-04-08 09:00 +00:00"', '"2025-04-06 09:00 +00:00"'),
        "day 2 clock '2025-04-06 09:00 +00:00' is not after",
    ),
    ("bad_requires", ('requires="answer_day1"', 'requires="ghost"'), "requires unknown checker 'ghost'"),
    ("late_requires", ('requires="answer_day1"', 'requires="final_log"'), "requires 'final_log', which runs after it"),
    ("bad_solution_day", ("@task.solution(day=2)", "@task.solution(day=7)"), "reference solution for day 7"),
]


@pytest.mark.parametrize(("name", "edit", "expected"), CASES, ids=[c[0] for c in CASES])
def test_bad_declaration_fails_collection_clearly(
    pytester: pytest.Pytester, name: str, edit: tuple[str, str], expected: str
) -> None:
    old, new = edit
    assert old in BASIC_TASK
    make_task(pytester, f"task_{name}", BASIC_TASK.replace(old, new, 1))
    result = pytester.runpytest("--agent=reference")
    assert result.ret == pytest.ExitCode.INTERRUPTED  # collection errors stop the run
    text = result.stdout.str()
    assert f"task_{name}.py: invalid task declaration:" in text
    assert expected in text, text
    assert f"task_{name}.py:" in text.split("invalid task declaration:")[1]  # file:line of the problem
    assert "Traceback" not in text


def test_module_without_task(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(task_empty="x = 1\n")
    result = pytester.runpytest("--agent=reference")
    result.stdout.fnmatch_lines(["*task_empty.py: a task module needs a module-level `task = Task(...)`; found none*"])


def test_undeclared_silent_marker_is_a_setup_error(pytester: pytest.Pytester) -> None:
    make_task(
        pytester,
        "task_marker",
        BASIC_TASK.replace(
            'world.fs.write("inbox/number.txt", "41")', 'world.fs.write("inbox/number.txt", "41", silent="sneaky")'
        ),
    )
    result = pytester.runpytest("--agent=reference")
    result.stdout.fnmatch_lines(["*silent='sneaky' is not declared by this task*"])


def test_declared_silent_mutation_must_be_applied(pytester: pytest.Pytester) -> None:
    make_task(
        pytester,
        "task_lazy",
        BASIC_TASK.replace(
            'world.fs.write("inbox/number.txt", "99", silent="number_changed")',
            'world.fs.write("inbox/number.txt", "99")',
        ),
    )
    result = pytester.runpytest("--agent=reference")
    assert "turn 'tuesday' declares silent mutation(s) ['number_changed'] but did not apply them" in result.stdout.str()
    assert "trial.py" not in result.stdout.str()  # no harness plumbing in the report


def test_silent_mutation_declared_twice(pytester: pytest.Pytester) -> None:
    make_task(
        pytester,
        "task_twice",
        BASIC_TASK.replace(
            '@task.turn("2025-04-07 09:00 +00:00")', '@task.turn("2025-04-07 09:00 +00:00", silent=["number_changed"])'
        ),
    )
    result = pytester.runpytest("--agent=reference")
    assert "silent mutation 'number_changed' is declared more than once" in result.stdout.str()
