"""Cheap checks of an iCalendar PUT body before Radicale parses it.

Why a line scan and not a parser: the point is to refuse, in microseconds, the bodies whose
*parsing* or *use* is expensive — too many lines, endless sub-daily recurrences, dates so far
away that every time-range query iterates for long — before Radicale (vobject) or the admin plane
(icalendar) spends seconds on them. Radicale still validates the object fully afterwards; this
module only enforces :mod:`.limits`, each refusal naming the RFC 4791 precondition it breaks.
"""

from __future__ import annotations

import re
from datetime import datetime
from itertools import islice

from dateutil.rrule import rrulestr

from . import limits
from .davxml import CALDAV

__all__ = ["IcsRefusal", "check_resource"]

_FOLD = re.compile(r"\r?\n[ \t]")
_DATE_PROPERTIES = frozenset({"DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "RDATE", "EXDATE"})
_RULE_PROPERTIES = frozenset({"RRULE", "EXRULE"})
_INSTANCE_COMPONENTS = frozenset({"VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY"})
_EXPANDING_BY_PARTS = ("BYHOUR", "BYMINUTE", "BYSECOND")
_START = re.compile(r"^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2}))?")


class IcsRefusal(ValueError):
    """A PUT body breaks a limit: answer 403 with ``precondition`` (Clark notation) and ``message``."""

    def __init__(self, precondition: str, message: str) -> None:
        super().__init__(message)
        self.precondition = precondition
        self.message = message


def check_resource(body: bytes) -> None:
    """Raise :class:`IcsRefusal` if ``body`` (a calendar object resource) breaks a limit."""
    if len(body) > limits.MAX_RESOURCE_BYTES:
        raise IcsRefusal(
            f"{{{CALDAV}}}max-resource-size",
            f"calendar object is {len(body)} bytes; the limit is {limits.MAX_RESOURCE_BYTES}",
        )
    text = _FOLD.sub("", body.decode("utf-8", "replace"))
    lines = text.splitlines()
    if len(lines) > limits.MAX_RESOURCE_LINES:
        raise IcsRefusal(
            f"{{{CALDAV}}}max-resource-size",
            f"calendar object has {len(lines)} content lines; the limit is {limits.MAX_RESOURCE_LINES}",
        )
    attendees = 0
    start = ""
    rules: list[str] = []
    stack: list[str] = []  # open components; VTIMEZONE's own dates and rules are not events'
    for line in lines:
        head, _, value = line.partition(":")
        name = head.partition(";")[0].strip().upper()
        if name == "BEGIN":
            stack.append(value.strip().upper())
        elif name == "END":
            if stack and stack[-1] in _INSTANCE_COMPONENTS:
                for rule in rules:
                    _check_rule(rule, start)
                attendees, start, rules = 0, "", []
            if stack:
                stack.pop()
        elif "VTIMEZONE" in stack:
            continue
        elif name == "ATTENDEE":
            attendees += 1
            if attendees > limits.MAX_ATTENDEES_PER_INSTANCE:
                raise IcsRefusal(
                    f"{{{CALDAV}}}max-attendees-per-instance",
                    f"more than {limits.MAX_ATTENDEES_PER_INSTANCE} attendees in one component",
                )
        elif name in _RULE_PROPERTIES:
            rules.append(value)
        elif name in _DATE_PROPERTIES:
            if name == "DTSTART":
                start = value.strip()
            for item in value.split(","):
                for bound in item.split("/")[:1]:  # a PERIOD's end may be a duration
                    _check_year(bound, name)


def _check_rule(value: str, start: str) -> None:
    """A recurrence rule's cost: what Radicale (dateutil) iterates to store and to query it."""
    parts: dict[str, str] = {}
    for piece in value.split(";"):
        key, _, part = piece.partition("=")
        parts[key.strip().upper()] = part.strip()
    freq = parts.get("FREQ", "").upper()
    count = parts.get("COUNT", "")
    if count.isdigit() and int(count) > limits.MAX_INSTANCES:
        raise IcsRefusal(
            f"{{{CALDAV}}}max-instances",
            f"recurrence COUNT={count} exceeds the limit of {limits.MAX_INSTANCES} instances",
        )
    if "UNTIL" in parts:
        _check_year(parts["UNTIL"], "UNTIL")
    by_parts = sorted(p for p in parts if p.startswith("BY"))
    if freq in limits.SUB_DAILY_FREQUENCIES:
        if "COUNT" not in parts and "UNTIL" not in parts:
            raise IcsRefusal(
                f"{{{CALDAV}}}max-instances",
                f"an endless recurrence with FREQ={freq} recurs more often than daily; give it a COUNT or an UNTIL",
            )
        if by_parts:
            raise IcsRefusal(
                f"{{{CALDAV}}}max-instances",
                f"a FREQ={freq} recurrence cannot take {by_parts[0]} here (it may have to search for years "
                "between occurrences); use a daily or coarser rule",
            )
        return  # bounded by COUNT, or by Radicale's count of the occurrences until UNTIL
    expanding = [p for p in _EXPANDING_BY_PARTS if len(parts.get(p, "").split(",")) > limits.MAX_EXPANDING_BY_VALUES]
    if expanding:
        raise IcsRefusal(
            f"{{{CALDAV}}}max-instances",
            f"several {expanding[0]} values make a recurrence more frequent than daily; split it into several events",
        )
    if by_parts:
        _check_occurs(value, start, int(count) if count.isdigit() else 1)


def _check_occurs(rule: str, start: str, wanted: int) -> None:
    """BY-parts can make a rule match rarely or never (``FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30``):
    dateutil then searches until the year 9999 — ~5 s of CPU at every PUT and at every query —
    and a COUNT the rule cannot reach does the same. The Gregorian calendar repeats every 400
    years (to the weekday), so the same rule started 400·k years later, within 401 years of 9999,
    shows whether it occurs at all and how often, in one bounded search (~0.25 s at worst)."""
    match = _START.match(start)
    if not match:
        return  # Radicale refuses a DTSTART it cannot read
    try:
        year = int(match.group(1))
        clock = [int(g) if g else 0 for g in match.group(4, 5, 6)]
        first = datetime(year, int(match.group(2)), int(match.group(3)), *clock)
        shifted = first.replace(year=year + 400 * ((9999 - 401 - year) // 400))
        unbounded = rrulestr(rule, dtstart=shifted, ignoretz=True).replace(count=None, until=None)
        found = sum(1 for _ in islice(unbounded, wanted))
    except (ValueError, TypeError, AttributeError, OverflowError):
        return  # Radicale refuses a rule dateutil cannot read
    if found == 0:
        raise IcsRefusal(f"{{{CALDAV}}}valid-calendar-object-resource", f"the recurrence {rule[:120]!r} never occurs")
    if found < wanted:
        raise IcsRefusal(
            f"{{{CALDAV}}}max-instances",
            f"the recurrence occurs {found} times in 400 years, short of its COUNT={wanted}: finding them all would "
            "take a search to the year 9999; lower the COUNT or give it an UNTIL",
        )


def _check_year(value: str, name: str) -> None:
    digits = value.strip()[:4]
    if len(digits) == 4 and digits.isdigit():
        year = int(digits)
        if year < limits.MIN_YEAR:
            raise IcsRefusal(f"{{{CALDAV}}}min-date-time", f"{name} {value.strip()[:40]!r} is before {limits.MIN_YEAR}")
        if year > limits.MAX_YEAR:
            raise IcsRefusal(f"{{{CALDAV}}}max-date-time", f"{name} {value.strip()[:40]!r} is after {limits.MAX_YEAR}")
