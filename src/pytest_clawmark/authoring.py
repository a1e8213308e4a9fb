"""The authoring API: a task module declares its world, turns, checkers, red-lines, solutions.

A task module holds one :class:`Task` and decorates plain functions with it::

    task = Task(scenario="clinical", role="AI assistant to pharmacist Chen Fang",
                services={"mail", "kb"}, user=("Chen Fang", "chen.fang@hospital.internal"))

    @task.turn("2025-04-07 09:00 +08:00", silent=["creatinine_rise"])
    def monday(world): ...; return "Today's priority: ..."

    @task.checker(day=1, weight=2, kind="cross-source")
    def warfarin_discrepancy(world): assert ..., "..."

Declarations are *recorded*, not judged, at import time; :meth:`Task.problems` lists what is
wrong with them so that collection can fail with one clear message naming the file and line,
instead of a traceback from deep inside the decorator.
"""

from __future__ import annotations

import inspect
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from .world.service import Person, known_services

SCENARIOS: tuple[str, ...] = (
    "clinical",
    "insurance",
    "legal",
    "investment",
    "eda",
    "executive_assistant",
    "hr",
    "content_operation",
    "ecommerce",
    "journalist",
    "pm",
    "real_estate",
    "research_assistant",
)
"""The 13 professional scenarios of the ClawMark paper (Table 2)."""

_EXTRA_SCENARIOS: set[str] = set()
_SCENARIO_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def register_scenarios(names: Iterable[str]) -> list[str]:
    """Accept a project's own scenarios besides the paper's 13 (ini key ``clawmark_scenarios``
    or the ``pytest_clawmark_scenarios`` hook); returns the names that are not valid
    (lower-case identifiers such as ``procurement``)."""
    bad = []
    for name in names:
        name = str(name).strip()
        if _SCENARIO_NAME.match(name):
            _EXTRA_SCENARIOS.add(name)
        elif name:
            bad.append(name)
    return bad


def unregister_scenarios(names: Iterable[str]) -> None:
    """Forget a run's own scenarios when it ends (in-process runs follow one another in tests)."""
    _EXTRA_SCENARIOS.difference_update(str(n).strip() for n in names)


def known_scenarios() -> tuple[str, ...]:
    """The paper's scenarios, then the project's own (sorted)."""
    return SCENARIOS + tuple(sorted(_EXTRA_SCENARIOS - set(SCENARIOS)))


REDLINE_CLASSES: tuple[str, ...] = (
    "premature-decision",
    "compliance-bypass",
    "data-exfiltration",
    "irreversible-write",
)

CHECKER_KINDS: tuple[str, ...] = (
    "silent-change",  # the agent noticed an unannounced mutation
    "writeback",  # the agent wrote the right state back into a service
    "cross-source",  # facts from several sources had to be reconciled
    "deliverable",  # a file / message the user asked for is correct
    "evidence",  # a fact only present in raw evidence (scan, audio, image...) was extracted
    "compliance",  # a rule or policy was followed (red-lines are always of this kind)
)
"""Checker kinds (docs/results.md, Definitions); scores are also reported per kind."""

REDLINE_WEIGHT = 5.0
"""The fixed, high default weight of a red-line (the paper's w_red)."""

DEFAULT_TURN_TIMEOUT = 1800.0

FINAL = "final"
Day = int | Literal["final"]


@dataclass(frozen=True)
class Where:
    """A declaration's place in its source file, for messages."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


def _where(fn: Callable[..., Any] | None = None, depth: int = 2) -> Where:
    if fn is not None:
        code = getattr(fn, "__code__", None)
        if code is not None:
            return Where(code.co_filename, code.co_firstlineno)
    frame = inspect.currentframe()
    for _ in range(depth):
        frame = frame.f_back if frame else None
    if frame is None:  # pragma: no cover
        return Where("?", 0)
    return Where(frame.f_code.co_filename, frame.f_lineno)


@dataclass
class Turn:
    """One in-universe working day: its clock, its setup, its between-turn changes."""

    day: int
    name: str
    clock_text: str
    clock: datetime | None
    setup: Callable[[Any], str]
    loud: tuple[str, ...]
    silent: tuple[str, ...]
    where: Where
    after: Callable[[Any], dict[str, Any]] | None = None
    """Run right after the agent's turn (before the day's checkers), e.g. an upstream-format
    task's workspace copy (``ctx.workspace``); returns notes for the day's record."""


@dataclass
class Checker:
    """A weighted, deterministic assertion over post-turn world state (maybe a red-line)."""

    id: str
    day: Day
    weight: float
    kind: str
    fn: Callable[[Any], Any]
    where: Where
    redline: str | None = None  # the red-line class, if this is a red-line
    detects: str | None = None  # the silent mutation this checker detects
    requires: tuple[str, ...] = ()  # checkers that must pass for this one to be credited
    description: str = ""

    @property
    def is_final(self) -> bool:
        return self.day == FINAL

    @property
    def day_index(self) -> int:
        """Sort key: final checkers after every day."""
        return 10**6 if self.day == FINAL else int(self.day)


@dataclass
class Solution:
    day: int
    fn: Callable[[Any], Any]
    where: Where


def parse_clock(text: str | datetime) -> datetime:
    """Parse a turn clock such as ``"2025-04-07 09:00 +08:00"``; it must carry a UTC offset."""
    if isinstance(text, datetime):
        value = text
    else:
        value = None
        for fmt in ("%Y-%m-%d %H:%M %z", "%Y-%m-%d %H:%M:%S %z", "%Y-%m-%dT%H:%M%z", "%Y-%m-%dT%H:%M:%S%z"):
            try:
                value = datetime.strptime(text.strip(), fmt)
                break
            except ValueError:
                continue
        if value is None:
            raise ValueError(f"turn clock {text!r} is not like '2025-04-07 09:00 +08:00'")
    if value.tzinfo is None:
        raise ValueError(f"turn clock {text!r} needs a UTC offset, e.g. '+08:00'")
    return value


_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")


@dataclass
class Task:
    """A task: a multi-day professional workflow in its own world. See the module docstring."""

    scenario: str
    role: str
    services: Iterable[str] = ("fs",)
    user: Person | tuple[str, str] | str = ("User", "user@example.test")
    people: Iterable[Person | tuple[str, str]] = ()
    id: str | None = None
    title: str = ""
    persona: str = ""
    turn_timeout: float | None = None
    origin: str = ""
    """``""`` for a task written with this API; ``"upstream"`` for a folder in the upstream
    ClawMark format (no reference solutions: see :mod:`pytest_clawmark.trial` for what changes)."""

    turns: list[Turn] = field(default_factory=list, init=False)
    checkers: list[Checker] = field(default_factory=list, init=False)
    solutions: dict[int, Solution] = field(default_factory=dict, init=False)
    where: Where = field(default_factory=lambda: _where(depth=3), init=False)
    _problems: list[tuple[Where, str]] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        self.services = frozenset(self.services) | {"fs"}
        self.user = _person(self.user)
        self.people = tuple(_person(p) for p in self.people)

    # -- decorators --------------------------------------------------------------------------
    def turn(
        self, clock: str | datetime, *, loud: Iterable[str] = (), silent: Iterable[str] = ()
    ) -> Callable[[Callable[[Any], str]], Callable[[Any], str]]:
        """Declare the next working day (days are numbered in declaration order).

        Args:
            clock: the day's in-universe time, ``"2025-04-07 09:00 +02:00"`` or an aware datetime.
            loud: names of the events the wake-up message announces.
            silent: names of the unannounced mutations this turn applies (each applied with
                ``silent=<name>`` and detected by a checker's ``detects=``).

        The decorated function takes the :class:`~pytest_clawmark.world.World`, seeds or mutates
        it, and returns the wake-up message. A clock that cannot be read is a declaration problem
        (collection fails naming the file and line), never an exception here.
        """

        def deco(fn: Callable[[Any], str]) -> Callable[[Any], str]:
            where = _where(fn)
            try:
                parsed: datetime | None = parse_clock(clock)
            except ValueError as exc:
                self._problems.append((where, str(exc)))
                parsed = None
            self.turns.append(
                Turn(len(self.turns) + 1, fn.__name__, str(clock), parsed, fn, tuple(loud), tuple(silent), where)
            )
            return fn

        return deco

    def checker(
        self,
        day: Day | None = None,
        *,
        weight: float = 1.0,
        kind: str | None = None,
        detects: str | None = None,
        requires: Iterable[str] | str = (),
        id: str | None = None,
        final: bool = False,
    ) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
        """Declare a weighted checker: a deterministic assertion over the world after a turn.

        Args:
            day: the day (1-based) after whose turn it runs, or ``"final"``.
            weight: its share of the task's score (positive).
            kind: one of :data:`CHECKER_KINDS` (default ``silent-change`` with ``detects=``,
                else ``deliverable``).
            detects: the silent mutation it detects (a name from a turn's ``silent=``).
            requires: ids of checkers that must pass first for it to earn its weight.
            id: its id in results (default: the function's name).
            final: the same as ``day="final"``.

        The decorated function takes the world and raises ``AssertionError`` with a message
        saying what was expected and what was found; returning is passing.
        """
        return self._declare(day, weight, kind, detects, requires, id, final, redline=None)

    def redline(
        self,
        day: Day | None = None,
        *,
        crossing: str | None = None,
        weight: float = REDLINE_WEIGHT,
        requires: Iterable[str] | str = (),
        id: str | None = None,
        final: bool = False,
        kind: str | None = None,
    ) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
        """Declare a red-line: something a coworker must never do.

        Args:
            day: the day after whose turn it is checked, or ``"final"``.
            crossing: what crossing it would be, one of :data:`REDLINE_CLASSES`
                (``premature-decision``, ``compliance-bypass``, ``data-exfiltration``,
                ``irreversible-write``).
            weight: its weight (default :data:`REDLINE_WEIGHT`).
            requires: checkers that must pass for it to be *credited* (a reverse check: doing
                nothing earns nothing); it is always evaluated, so a crossing always counts.
            id: its id in results (default: the function's name).
            final: the same as ``day="final"``.
            kind: the former spelling of ``crossing`` (a red-line's kind is always
                ``compliance``; ``kind=`` on a checker is the checker kind).

        The decorated function passes when the line was *not* crossed.
        """
        if crossing and kind and crossing != kind:
            self._problems.append(
                (
                    _where(depth=2),
                    f"red-line: crossing={crossing!r} and kind={kind!r} disagree (kind= is the old name of crossing=)",
                )
            )
        return self._declare(day, weight, "compliance", None, requires, id, final, redline=crossing or kind or "")

    def _declare(
        self,
        day: Day | None,
        weight: float,
        kind: str | None,
        detects: str | None,
        requires: Iterable[str] | str,
        id: str | None,
        final: bool,
        redline: str | None,
    ) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
        def deco(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
            where = _where(fn)
            the_day: Day
            if final or day == FINAL:
                the_day = FINAL
            elif day is None:
                self._problems.append((where, f"checker {fn.__name__!r} needs day=N or final=True"))
                the_day = 1
            else:
                the_day = day
            the_kind = kind or ("silent-change" if detects else "deliverable")
            reqs = (requires,) if isinstance(requires, str) else tuple(requires)
            self.checkers.append(
                Checker(
                    id=id or fn.__name__,
                    day=the_day,
                    weight=weight,
                    kind=the_kind,
                    fn=fn,
                    where=where,
                    redline=redline,
                    detects=detects,
                    requires=reqs,
                    description=inspect.cleandoc(fn.__doc__ or "").split("\n")[0],
                )
            )
            return fn

        return deco

    def solution(self, day: int) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
        """Declare the reference solution of ``day``.

        Args:
            day: the day (1-based) it solves; one solution per day.

        The decorated function takes an :class:`~pytest_clawmark.agents.base.AgentView` and acts
        only through the agent plane (``view.mail``, ``view.kb``, ``view.sheets``,
        ``view.calendar``, the workspace), never the admin plane: ``--agent=reference`` runs it,
        and the reference twin uses it to decide whether a checker's exception is the agent's
        doing or the task's.
        """

        def deco(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
            where = _where(fn)
            if day in self.solutions:
                self._problems.append((where, f"day {day} already has a reference solution"))
            self.solutions[day] = Solution(day, fn, where)
            return fn

        return deco

    # -- derived -----------------------------------------------------------------------------
    @property
    def days(self) -> int:
        return len(self.turns)

    def checkers_for(self, day: Day) -> list[Checker]:
        return [c for c in self.checkers if c.day == day]

    @property
    def silent_mutations(self) -> dict[str, int]:
        """Declared silent mutation name -> the day whose setup applies it."""
        return {name: t.day for t in self.turns for name in t.silent}

    def timeout(self) -> float:
        return self.turn_timeout if self.turn_timeout is not None else DEFAULT_TURN_TIMEOUT

    # -- validation --------------------------------------------------------------------------
    def problems(self) -> list[str]:
        """Everything wrong with the declarations, as ``file:line: problem`` strings, in order."""
        return [f"{_short(w)}: {m}" for w, m in self.located_problems()]

    def located_problems(self) -> list[tuple[Where, str]]:
        """Everything wrong with the declarations, with where each was declared."""
        out = [(w, m) for w, m in self._problems]
        here = self.where
        if self.scenario not in known_scenarios():
            out.append(
                (
                    here,
                    f"unknown scenario {self.scenario!r} (known: {', '.join(known_scenarios())}; "
                    "a project adds its own with the ini key clawmark_scenarios)",
                )
            )
        known = known_services()
        for s in sorted(self.services):
            if s not in known:
                out.append((here, f"unknown service {s!r} (known: {', '.join(sorted(known))})"))
        assert isinstance(self.user, Person)
        for p in (self.user, *self.people):  # type: ignore[misc]
            if "@" not in p.email:
                out.append((here, f"person {p.name!r} needs an email address, got {p.email!r}"))
        if not self.role:
            out.append((here, "the task needs a role (who the agent works as)"))
        if not self.turns:
            out.append((here, "the task declares no turns (@task.turn)"))
        if self.turn_timeout is not None and not self.turn_timeout > 0:
            out.append((here, f"turn_timeout must be positive, got {self.turn_timeout!r}"))

        seen_turns: dict[str, Turn] = {}
        previous: datetime | None = None
        for t in self.turns:
            if t.name in seen_turns:
                out.append((t.where, f"duplicate turn name {t.name!r}"))
            seen_turns[t.name] = t
            if t.clock is not None:
                if previous is not None and t.clock <= previous:
                    out.append((t.where, f"day {t.day} clock {t.clock_text!r} is not after the previous day's"))
                previous = t.clock

        silent = self.silent_mutations
        declared = Counter(name for t in self.turns for name in t.silent)
        for t in self.turns:
            for name in sorted(set(t.silent)):
                if declared[name] > 1:
                    out.append((t.where, f"silent mutation {name!r} is declared more than once"))

        ids: dict[str, Checker] = {}
        for c in self.checkers:
            if not _ID.match(c.id):
                out.append((c.where, f"checker id {c.id!r} must be an identifier"))
            if c.id in ids:
                out.append((c.where, f"duplicate checker id {c.id!r} (first at {ids[c.id].where})"))
            ids.setdefault(c.id, c)
            if c.day != FINAL and (
                not isinstance(c.day, int) or isinstance(c.day, bool) or not 1 <= c.day <= self.days
            ):
                out.append((c.where, f"checker {c.id!r} is for day {c.day!r}, but the task has days 1..{self.days}"))
            if not isinstance(c.weight, (int, float)) or isinstance(c.weight, bool) or not c.weight > 0:
                out.append((c.where, f"checker {c.id!r} weight must be a positive number, got {c.weight!r}"))
            if c.kind not in CHECKER_KINDS:
                out.append(
                    (c.where, f"checker {c.id!r} has unknown kind {c.kind!r} (known: {', '.join(CHECKER_KINDS)})")
                )
            if c.redline is not None and c.redline not in REDLINE_CLASSES:
                what = f"unknown red-line class {c.redline!r}" if c.redline else "a red-line needs a class"
                out.append((c.where, f"{what}: crossing= one of {', '.join(REDLINE_CLASSES)}"))
            if c.detects is not None:
                if c.detects not in silent:
                    out.append((c.where, f"checker {c.id!r} detects {c.detects!r}, which no turn declares as silent"))
                elif c.day != FINAL and isinstance(c.day, int) and c.day < silent[c.detects]:
                    out.append(
                        (
                            c.where,
                            f"checker {c.id!r} runs on day {c.day}, before {c.detects!r} happens (day {silent[c.detects]})",
                        )
                    )
        for c in self.checkers:
            for r in c.requires:
                dep = ids.get(r)
                if dep is None:
                    out.append((c.where, f"checker {c.id!r} requires unknown checker {r!r}"))
                elif dep is c:
                    out.append((c.where, f"checker {c.id!r} requires itself"))
                elif dep.day_index > c.day_index or (
                    dep.day_index == c.day_index and self.checkers.index(dep) > self.checkers.index(c)
                ):
                    out.append((c.where, f"checker {c.id!r} requires {r!r}, which runs after it"))
        detected = {c.detects for c in self.checkers if c.detects}
        for name, day in silent.items():
            if name not in detected:
                turn = self.turns[day - 1]
                out.append(
                    (
                        turn.where,
                        f"silent mutation {name!r} (day {day}) is detected by no checker (use detects={name!r})",
                    )
                )
        for day, sol in sorted(self.solutions.items()):
            if not 1 <= day <= self.days:
                out.append((sol.where, f"reference solution for day {day}, but the task has days 1..{self.days}"))
        return out


def _short(where: Where) -> str:
    try:
        rel = Path(where.file).resolve().relative_to(Path.cwd().resolve())
        return f"{rel.as_posix()}:{where.line}"
    except ValueError:
        return str(where)


def _person(value: Person | tuple[str, str] | str) -> Person:
    if isinstance(value, Person):
        return value
    if isinstance(value, str):
        local = value.split("@", 1)[0]
        return Person(local.replace(".", " ").title(), value)
    name, email = value
    return Person(name, email)
