"""Small helpers for writing checkers: deterministic, and failing as the agent's failure.

Why: the same few moves recur across tasks — parse a JSON attachment the agent sent, compare
titles regardless of punctuation and case, check that exactly one meeting like X was booked at a
time with certain people. Each helper raises ``AssertionError`` with a message saying what was
expected and what was found, so a malformed deliverable is a failed checker, never a checker error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

__all__ = [
    "CURRENCIES", "attached_json", "check_meeting", "money", "name_key", "norm", "norm_subject", "number", "parsed_json",
    "percent", "squash",
]  # fmt: skip

CURRENCIES = ("€", "$", "£", "eur", "usd", "gbp", "chf")
"""What :func:`money` strips (compared case-insensitively)."""


def squash(text: str) -> str:
    """Lower-case letters and digits only: "Release 4.2 — Triage" → "release42triage"."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def attached_json(attachment: Any) -> Any:
    """A mail attachment (``world.mail`` Attachment) parsed as JSON."""
    try:
        return json.loads(attachment.data)
    except ValueError as exc:
        raise AssertionError(f"attachment {attachment.filename} is not valid JSON: {exc}") from None


def check_meeting(world: Any, needle: str, start: datetime, minutes: int, people: Iterable[str]) -> None:
    """Exactly one non-cancelled event whose title contains ``needle`` (compared squashed), from
    ``start`` for ``minutes``, with at least ``people`` (lower-case addresses) among its attendees."""
    events = [e for e in world.calendar.events() if squash(needle) in squash(e.summary) and not e.cancelled]
    assert len(events) == 1, f"expected one event titled like {needle!r}, found {[e.summary for e in events]}"
    e = events[0]
    expected = (start, start + timedelta(minutes=minutes))
    assert isinstance(e.start, datetime) and (e.start, e.end) == expected, (
        f"expected {needle!r} {expected[0].isoformat()}-{expected[1].isoformat()}, found {(e.start, e.end)}"
    )
    attendees = sorted(a.lower() for a in e.attendees)
    missing = sorted(set(people) - set(attendees))
    assert not missing, f"{needle!r} lacks attendee(s) {missing}; attendees {attendees}"


def norm(value: Any) -> str:
    """A cell, property or field as comparable text: lower-case, single-spaced ('' for None).

    >>> norm("  Query-Raised\n")
    'query-raised'
    """
    return " ".join(str(value if value is not None else "").split()).lower()


def norm_subject(text: str) -> str:
    """A mail subject as comparable text: case-folded, single-spaced, en and em dashes as ``-``
    (mail clients and people swap them freely)."""
    return " ".join(str(text).replace("\u2013", "-").replace("\u2014", "-").split()).casefold()


def name_key(name: Any) -> str:
    """A person's or a party's name as comparable text: letters and digits of each word, lower-case,
    single-spaced ("Dr. A. Haddad" == "dr a haddad")."""
    return " ".join(re.sub(r"[^\w\s]", "", str(name or "")).lower().split())


_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def number(value: Any, *, units: Iterable[str] = ()) -> Decimal | None:
    """A number from a cell, a property or a JSON value, or None when it is not one.

    Accepts numbers (not booleans) and text as people write it: thousands commas, spaces, a sign,
    a trailing ``%`` (the number of percent), and any of ``units`` (compared case-insensitively:
    ``units=("ns",)`` for "0.087 ns"). Exact (``Decimal``): ``number("2.62") == Decimal("2.62")``.
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(str(value))
    text = str(value).strip().lower()
    for unit in sorted((u.lower() for u in units), key=len, reverse=True):
        text = text.replace(unit, "")
    text = re.sub(r"[\s,]", "", text).removesuffix("%")
    if not _NUMBER.fullmatch(text):
        return None
    try:
        return Decimal(text)
    except InvalidOperation:  # pragma: no cover - the pattern admits only what Decimal reads
        return None


def money(value: Any, *, currencies: Iterable[str] = CURRENCIES) -> Decimal | None:
    """An amount ("EUR 1,250.00", "€95.90", "$103.20", 95.9) as a ``Decimal``, or None."""
    return number(value, units=currencies)


def percent(value: Any) -> Decimal | None:
    """A percentage in percent ("12.5%", "12.5", 12.5 → 12.5), or None. A fraction (0.125) is
    not guessed into percent: state the unit the checker expects in the task's wording."""
    return number(value)


def parsed_json(data: bytes | str) -> Any:
    """An attachment's or a file's JSON, or None when it is not JSON (the agent's failure, not
    an error: the checker says what it expected)."""
    try:
        return json.loads(data)
    except ValueError:
        return None
