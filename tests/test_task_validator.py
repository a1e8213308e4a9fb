"""``Task.located_problems()``: every rule of the declaration validator, one bad declaration each.

Pure and fast: tasks are built directly with ``Task(...)`` and its decorators (no pytest run;
tests/test_declarations.py shows the same messages reaching a collection error). Each case starts
from a sound two-day task and breaks one thing; the validator must report exactly that, in words.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from pytest_clawmark.authoring import (
    CHECKER_KINDS,
    REDLINE_CLASSES,
    Task,
    _short,
    known_scenarios,
    register_scenarios,
    unregister_scenarios,
)
from pytest_clawmark.world.service import SERVICE_TYPES, Person

MONDAY, TUESDAY = "2025-04-07 09:00 +00:00", "2025-04-08 09:00 +00:00"
KINDS = ", ".join(CHECKER_KINDS)
CLASSES = ", ".join(REDLINE_CLASSES)


def named(name: str) -> Callable[[Any], Any]:
    """A declaration's function; its name is the turn's name or the checker's id."""

    def declared(world: Any) -> str:
        return ""

    declared.__name__ = declared.__qualname__ = name
    return declared


def new_task(**kw: Any) -> Task:
    return Task(
        **{"scenario": "hr", "role": "assistant", "services": {"fs"}, "user": ("Ada Admin", "ada@corp.example"), **kw}
    )


def sound_task(*, day2_silent: tuple[str, ...] = ("number_changed",), **kw: Any) -> Task:
    """Two days, a silent change on day 2 and its detector, a red-line credited once day 1's work
    is done, a final checker and a reference solution: nothing to report."""
    task = new_task(**kw)
    task.turn(MONDAY)(named("monday"))
    task.turn(TUESDAY, silent=day2_silent)(named("tuesday"))
    task.checker(day=1, weight=3)(named("answer_day1"))
    task.checker(day=2, detects="number_changed")(named("answer_day2"))
    task.redline(day=2, crossing="irreversible-write", requires="answer_day1")(named("inbox_untouched"))
    task.checker(final=True)(named("final_log"))
    task.solution(day=1)(named("solve_monday"))
    return task


def plus(declare: Callable[[Task], Any], task: Task | None = None) -> Task:
    """The sound task (or ``task``) with one more declaration."""
    task = task if task is not None else sound_task()
    declare(task)
    return task


def messages(task: Task) -> list[str]:
    return [message for _, message in task.located_problems()]


# -- the table: (case, the task, exactly the messages it must produce) --------------------------
CASES: list[tuple[str, Callable[[], Task], list[str] | Callable[[Task], list[str]]]] = [
    # the task itself
    (
        "unknown_scenario",
        lambda: sound_task(scenario="astrology"),
        [
            f"unknown scenario 'astrology' (known: {', '.join(known_scenarios())}; a project adds its own with the ini key clawmark_scenarios)",
        ],
    ),
    (
        "unknown_service",
        lambda: sound_task(services={"fs", "fax"}),
        [f"unknown service 'fax' (known: {', '.join(sorted(SERVICE_TYPES))})"],
    ),
    (
        "unknown_services_sorted",
        lambda: sound_task(services={"telex", "fax"}),
        [
            f"unknown service 'fax' (known: {', '.join(sorted(SERVICE_TYPES))})",
            f"unknown service 'telex' (known: {', '.join(sorted(SERVICE_TYPES))})",
        ],
    ),
    (
        "user_without_email",
        lambda: sound_task(user=("Ada Admin", "ada")),
        ["person 'Ada Admin' needs an email address, got 'ada'"],
    ),
    (
        "colleague_without_email",
        lambda: sound_task(people=[("Bob Boss", "bob.corp.example")]),
        ["person 'Bob Boss' needs an email address, got 'bob.corp.example'"],
    ),
    ("no_role", lambda: sound_task(role=""), ["the task needs a role (who the agent works as)"]),
    ("no_turns", lambda: new_task(), ["the task declares no turns (@task.turn)"]),
    ("turn_timeout_zero", lambda: sound_task(turn_timeout=0), ["turn_timeout must be positive, got 0"]),
    ("turn_timeout_negative", lambda: sound_task(turn_timeout=-5.0), ["turn_timeout must be positive, got -5.0"]),
    # turns and their clocks
    (
        "turn_clock_unreadable",
        lambda: _one_turn("tomorrow"),
        ["turn clock 'tomorrow' is not like '2025-04-07 09:00 +08:00'"],
    ),
    (
        "turn_clock_without_offset_text",
        lambda: _one_turn("2025-04-07 09:00"),
        ["turn clock '2025-04-07 09:00' is not like '2025-04-07 09:00 +08:00'"],
    ),
    (
        "turn_clock_naive_datetime",
        lambda: _one_turn(datetime(2025, 4, 7, 9, 0)),
        [
            "turn clock datetime.datetime(2025, 4, 7, 9, 0) needs a UTC offset, e.g. '+08:00'",
        ],
    ),
    (
        "duplicate_turn_name",
        lambda: plus(lambda t: t.turn("2025-04-09 09:00 +00:00")(named("monday"))),
        ["duplicate turn name 'monday'"],
    ),
    (
        "clock_backwards",
        lambda: plus(lambda t: t.turn("2025-04-06 09:00 +00:00")(named("sunday"))),
        [
            "day 3 clock '2025-04-06 09:00 +00:00' is not after the previous day's",
        ],
    ),
    (
        "clock_repeated",
        lambda: plus(lambda t: t.turn(TUESDAY)(named("tuesday_again"))),
        [f"day 3 clock '{TUESDAY}' is not after the previous day's"],
    ),
    (
        "clock_same_instant_other_zone",
        lambda: plus(lambda t: t.turn("2025-04-08 11:00 +02:00")(named("tuesday_paris"))),
        [
            "day 3 clock '2025-04-08 11:00 +02:00' is not after the previous day's",
        ],
    ),
    # silent mutations
    (
        "silent_declared_twice",
        lambda: _silent_on_both_days("number_changed"),
        [
            "silent mutation 'number_changed' is declared more than once",
            "silent mutation 'number_changed' is declared more than once",
        ],
    ),
    (
        "silent_without_detector",
        lambda: sound_task(day2_silent=("number_changed", "price_changed")),
        [
            "silent mutation 'price_changed' (day 2) is detected by no checker (use detects='price_changed')",
        ],
    ),
    (
        "detects_unknown_mutation",
        lambda: plus(lambda t: t.checker(day=2, detects="nope")(named("sees_nope"))),
        [
            "checker 'sees_nope' detects 'nope', which no turn declares as silent",
        ],
    ),
    (
        "detects_before_it_happens",
        lambda: plus(lambda t: t.checker(day=1, detects="number_changed")(named("too_early"))),
        [
            "checker 'too_early' runs on day 1, before 'number_changed' happens (day 2)",
        ],
    ),
    # checkers: day, id, weight, kind
    (
        "checker_without_day",
        lambda: plus(lambda t: t.checker(weight=1)(named("nowhen"))),
        ["checker 'nowhen' needs day=N or final=True"],
    ),
    (
        "checker_day_after_last",
        lambda: plus(lambda t: t.checker(day=3)(named("day_three"))),
        ["checker 'day_three' is for day 3, but the task has days 1..2"],
    ),
    (
        "checker_day_zero",
        lambda: plus(lambda t: t.checker(day=0)(named("day_zero"))),
        ["checker 'day_zero' is for day 0, but the task has days 1..2"],
    ),
    (
        "checker_day_bool",
        lambda: plus(lambda t: t.checker(day=True)(named("day_true"))),
        ["checker 'day_true' is for day True, but the task has days 1..2"],
    ),
    (
        "checker_day_text",
        lambda: plus(lambda t: t.checker(day="2")(named("day_text"))),
        ["checker 'day_text' is for day '2', but the task has days 1..2"],
    ),
    (
        "checker_id_not_identifier",
        lambda: plus(lambda t: t.checker(day=1, id="1st check")(named("first"))),
        ["checker id '1st check' must be an identifier"],
    ),
    (
        "duplicate_checker_id",
        lambda: plus(lambda t: t.checker(day=2)(named("answer_day1"))),
        lambda t: [
            f"duplicate checker id 'answer_day1' (first at {t.checkers[0].where})",
        ],
    ),
    (
        "duplicate_id_given",
        lambda: plus(lambda t: t.checker(day=2, id="final_log")(named("another"))),
        lambda t: [
            f"duplicate checker id 'final_log' (first at {t.checkers[3].where})",
        ],
    ),
    (
        "weight_zero",
        lambda: plus(lambda t: t.checker(day=1, weight=0)(named("weightless"))),
        ["checker 'weightless' weight must be a positive number, got 0"],
    ),
    (
        "weight_negative",
        lambda: plus(lambda t: t.checker(day=1, weight=-1.5)(named("negative"))),
        ["checker 'negative' weight must be a positive number, got -1.5"],
    ),
    (
        "weight_bool",
        lambda: plus(lambda t: t.checker(day=1, weight=True)(named("boolean"))),
        ["checker 'boolean' weight must be a positive number, got True"],
    ),
    (
        "weight_text",
        lambda: plus(lambda t: t.checker(day=1, weight="3")(named("textual"))),
        ["checker 'textual' weight must be a positive number, got '3'"],
    ),
    (
        "unknown_checker_kind",
        lambda: plus(lambda t: t.checker(day=1, kind="vibes")(named("vibe_check"))),
        [
            f"checker 'vibe_check' has unknown kind 'vibes' (known: {KINDS})",
        ],
    ),
    # red-lines
    (
        "redline_without_class",
        lambda: plus(lambda t: t.redline(day=2)(named("no_class"))),
        [f"a red-line needs a class: crossing= one of {CLASSES}"],
    ),
    (
        "redline_unknown_class",
        lambda: plus(lambda t: t.redline(day=2, crossing="oops")(named("oops_line"))),
        [
            f"unknown red-line class 'oops': crossing= one of {CLASSES}",
        ],
    ),
    (
        "redline_unknown_class_old_spelling",
        lambda: plus(lambda t: t.redline(day=2, kind="oops")(named("oops_kind"))),
        [
            f"unknown red-line class 'oops': crossing= one of {CLASSES}",
        ],
    ),
    (
        "redline_crossing_and_kind_disagree",
        lambda: plus(lambda t: t.redline(day=2, crossing="data-exfiltration", kind="compliance-bypass")(named("torn"))),
        [
            "red-line: crossing='data-exfiltration' and kind='compliance-bypass' disagree (kind= is the old name of crossing=)",
        ],
    ),
    (
        "redline_weight_zero",
        lambda: plus(lambda t: t.redline(day=2, crossing="premature-decision", weight=0)(named("free_line"))),
        [
            "checker 'free_line' weight must be a positive number, got 0",
        ],
    ),
    (
        "redline_after_last_day",
        lambda: plus(lambda t: t.redline(day=5, crossing="premature-decision")(named("late_line"))),
        [
            "checker 'late_line' is for day 5, but the task has days 1..2",
        ],
    ),
    # requires=
    (
        "requires_unknown_checker",
        lambda: plus(lambda t: t.checker(day=2, requires="ghost")(named("needs_ghost"))),
        ["checker 'needs_ghost' requires unknown checker 'ghost'"],
    ),
    (
        "requires_itself",
        lambda: plus(lambda t: t.checker(day=2, requires="loop")(named("loop"))),
        ["checker 'loop' requires itself"],
    ),
    (
        "requires_a_later_day",
        lambda: plus(lambda t: t.checker(day=1, requires="answer_day2")(named("needs_tomorrow"))),
        [
            "checker 'needs_tomorrow' requires 'answer_day2', which runs after it",
        ],
    ),
    (
        "requires_final_from_a_day",
        lambda: plus(
            lambda t: t.redline(day=2, crossing="premature-decision", requires=["answer_day1", "final_log"])(
                named("needs_final")
            )
        ),
        [
            "checker 'needs_final' requires 'final_log', which runs after it",
        ],
    ),
    (
        "requires_later_on_same_day",
        lambda: plus(
            lambda t: (t.checker(day=1, requires="second")(named("first")), t.checker(day=1)(named("second")))
        ),
        [
            "checker 'first' requires 'second', which runs after it",
        ],
    ),
    # reference solutions
    (
        "solution_after_last_day",
        lambda: plus(lambda t: t.solution(day=7)(named("solve_later"))),
        ["reference solution for day 7, but the task has days 1..2"],
    ),
    (
        "solution_day_zero",
        lambda: plus(lambda t: t.solution(day=0)(named("solve_zero"))),
        ["reference solution for day 0, but the task has days 1..2"],
    ),
    (
        "two_solutions_for_a_day",
        lambda: plus(lambda t: t.solution(day=1)(named("solve_monday_again"))),
        ["day 1 already has a reference solution"],
    ),
]


def _silent_on_both_days(name: str) -> Task:
    """Both turns claim to apply the same silent mutation (its detector runs on the later day)."""
    task = new_task()
    task.turn(MONDAY, silent=[name])(named("monday"))
    task.turn(TUESDAY, silent=[name])(named("tuesday"))
    task.checker(day=2, detects=name)(named("sees_it"))
    return task


def _one_turn(clock: Any) -> Task:
    task = new_task()
    task.turn(clock)(named("monday"))
    return task


@pytest.mark.parametrize(("case", "build", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_bad_declaration_gives_its_message(
    case: str, build: Callable[[], Task], expected: list[str] | Callable[[Task], list[str]]
) -> None:
    task = build()
    want = expected(task) if callable(expected) else expected
    assert messages(task) == want


def test_the_sound_task_and_its_variants_have_no_problems() -> None:
    assert messages(sound_task()) == []
    weighted_line = plus(lambda t: t.redline(day=1, crossing="data-exfiltration", weight=12)(named("weighted_line")))
    assert messages(weighted_line) == []  # a red-line may carry its own (positive) weight
    final_line = plus(
        lambda t: t.redline(final=True, crossing="compliance-bypass", requires=["answer_day2", "final_log"])(
            named("closing_line")
        )
    )
    assert messages(final_line) == []  # final may require final checkers declared before it
    old_spelling = plus(lambda t: t.redline(day=2, kind="premature-decision")(named("old_line")))
    assert messages(old_spelling) == [] and old_spelling.checkers[-1].redline == "premature-decision"
    agreeing = plus(
        lambda t: t.redline(day=2, crossing="premature-decision", kind="premature-decision")(named("both_spellings"))
    )
    assert messages(agreeing) == []
    assert (
        messages(
            sound_task(
                turn_timeout=60,
                people=[("Bob Boss", "bob@corp.example"), Person("Dan Desk", "dan@corp.example")],
                user="carol.clerk@corp.example",
            )
        )
        == []
    )
    assert messages(sound_task(user=Person("Eve Exec", "eve"))) == [
        "person 'Eve Exec' needs an email address, got 'eve'"
    ]


def test_messages_are_located_where_the_declaration_is() -> None:
    task = plus(lambda t: t.checker(day=9)(named("lost")))
    task.role = ""
    located = task.located_problems()
    (task_where, role_message), (checker_where, day_message) = located
    assert role_message.startswith("the task needs a role") and day_message.startswith("checker 'lost' is for day 9")
    assert task_where == task.where and task_where.file == __file__  # where Task(...) was called
    assert checker_where == task.checkers[-1].where and checker_where.file == __file__
    assert task.problems() == [f"{_short(task_where)}: {role_message}", f"{_short(checker_where)}: {day_message}"]
    assert all(p.split(":", 1)[0].endswith("test_task_validator.py") for p in task.problems())


def test_a_declared_problem_keeps_the_line_of_its_decorator() -> None:
    task = sound_task()
    here = sys._getframe().f_lineno
    task.redline(day=2, crossing="data-exfiltration", kind="compliance-bypass")(named("torn"))
    ((where, _),) = task.located_problems()
    assert (where.file, where.line) == (__file__, here + 1)


def test_a_projects_own_scenario_is_known_once_registered() -> None:
    assert "unknown scenario 'procurement'" in messages(sound_task(scenario="procurement"))[0]
    assert register_scenarios(["procurement", "Procure-ment", " "]) == ["Procure-ment"]
    try:
        assert messages(sound_task(scenario="procurement")) == []
        assert known_scenarios()[-1] == "procurement"
    finally:
        unregister_scenarios(["procurement"])
    assert "procurement" not in known_scenarios()
