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
from typing import Any


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
        f"expected {needle!r} {expected[0].isoformat()}-{expected[1].isoformat()}, found {(e.start, e.end)}")
    attendees = sorted(a.lower() for a in e.attendees)
    missing = sorted(set(people) - set(attendees))
    assert not missing, f"{needle!r} lacks attendee(s) {missing}; attendees {attendees}"
