"""Calendar events for the admin plane: built and read with the ``icalendar`` package.

Why not by hand: iCalendar's folding, escaping, time zones and value types are easy to get
subtly wrong, and Radicale and every CalDAV client parse what we write. Building is
deterministic (``DTSTAMP`` from the in-universe clock, UIDs from the content), so two worlds
seeded alike hold identical calendars.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from functools import lru_cache
from typing import Any

import icalendar

__all__ = [
    "Event",
    "When",
    "build_calendar",
    "parse_events",
    "read_item",
    "portable_time",
    "sort_key",
    "as_utc",
    "overlaps",
]

PRODID = "-//clawmark//admin plane//EN"

When = datetime | date
"""An event bound: an aware datetime (timed event) or a date (all-day event)."""


def as_utc(value: When) -> datetime:
    """A comparable instant: dates are midnight UTC, naive datetimes are taken as UTC."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)
    return datetime.combine(value, time(0), tzinfo=timezone.utc)


@dataclass(frozen=True)
class Event:
    """One VEVENT as stored in a calendar (recurrence rules are reported, not expanded)."""

    uid: str
    summary: str
    start: When
    end: When
    calendar: str  # collection path, e.g. "/chen@hospital.internal/calendar/"
    owner: str
    href: str  # the item's name inside the collection
    location: str = ""
    description: str = ""
    status: str = ""  # CONFIRMED / TENTATIVE / CANCELLED or ""
    organizer: str = ""
    attendees: tuple[str, ...] = ()
    rrule: str = ""
    sequence: int = 0
    ics: str = field(default="", repr=False)

    @property
    def all_day(self) -> bool:
        return not isinstance(self.start, datetime)

    @property
    def cancelled(self) -> bool:
        return self.status.upper() == "CANCELLED"

    def to_json(self) -> dict[str, Any]:
        return {
            "uid": self.uid,
            "summary": self.summary,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "all_day": self.all_day,
            "calendar": self.calendar,
            "href": self.href,
            "location": self.location,
            "description": self.description,
            "status": self.status,
            "organizer": self.organizer,
            "attendees": list(self.attendees),
            "rrule": self.rrule,
            "sequence": self.sequence,
            "ics": self.ics,
        }


def sort_key(event: Event) -> tuple[datetime, str]:
    return (as_utc(event.start), event.uid)


def overlaps(event: Event, start: When | None, end: When | None) -> bool:
    """True if the event intersects ``[start, end)`` (open bounds when None)."""
    if start is not None and as_utc(event.end) <= as_utc(start):
        return False
    if end is not None and as_utc(event.start) >= as_utc(end):
        return False
    return True


def _mailto(address: str) -> str:
    return address if address.lower().startswith("mailto:") else f"mailto:{address}"


def _strip_mailto(value: Any) -> str:
    text = str(value)
    return text[7:] if text.lower().startswith("mailto:") else text


def portable_time(value: When) -> When:
    """Fixed-offset datetimes (``timezone(timedelta(hours=2))``) as UTC.

    icalendar writes them as ``TZID="UTC+02:00"`` without a VTIMEZONE, which no reader (icalendar
    included) can resolve, so the time would come back naive and shifted. Named zones
    (zoneinfo) keep their TZID.
    """
    if isinstance(value, datetime) and isinstance(value.tzinfo, timezone) and value.tzinfo is not timezone.utc:
        return value.astimezone(timezone.utc)
    return value


def build_calendar(
    *,
    uid: str,
    summary: str,
    start: When,
    end: When,
    stamp: datetime,
    organizer: str = "",
    attendees: Iterable[str] = (),
    names: Mapping[str, str] | None = None,
    location: str | None = None,
    description: str | None = None,
    status: str | None = None,
    sequence: int = 0,
) -> str:
    """A VCALENDAR with one VEVENT, as text (CRLF line ends, folded)."""
    names = names or {}
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    event = icalendar.Event()
    event.add("uid", uid)
    event.add("dtstamp", as_utc(stamp))
    event.add("dtstart", portable_time(start))
    event.add("dtend", portable_time(end))
    event.add("summary", summary)
    if sequence:
        event.add("sequence", sequence)
    if location:
        event.add("location", location)
    if description:
        event.add("description", description)
    if status:
        event.add("status", status)
    if organizer:
        event.add(
            "organizer",
            _mailto(organizer),
            parameters={"CN": names[organizer.lower()]} if organizer.lower() in names else None,
        )
    for address in attendees:
        params = {"ROLE": "REQ-PARTICIPANT", "PARTSTAT": "NEEDS-ACTION"}
        if address.lower() in names:
            params["CN"] = names[address.lower()]
        event.add("attendee", _mailto(address), parameters=params)
    cal.add_component(event)
    return cal.to_ical().decode("utf-8")


def _first(value: Any) -> Any:
    """A property given more than once comes back as a list: the first one counts."""
    return value[0] if isinstance(value, list) and value else value


def _text(value: Any) -> str:
    value = _first(value)
    return "" if value is None else str(value)


def _when(value: Any) -> When | None:
    """The date or datetime of a DTSTART/DTEND value; None for anything else (times, periods)."""
    dt = getattr(_first(value), "dt", None)
    return dt if isinstance(dt, (date, datetime)) else None


@dataclass(frozen=True)
class _Parsed:
    """One VEVENT's fields, independent of where the item is stored (what the cache holds)."""

    uid: str
    summary: str
    start: When
    end: When
    location: str
    description: str
    status: str
    organizer: str
    attendees: tuple[str, ...]
    rrule: str
    sequence: int


def _parse_component(comp: Any) -> _Parsed | str:
    """A VEVENT's fields, or why it cannot be read as an event."""
    start = _when(comp.get("dtstart"))
    if start is None:
        return "a VEVENT without a date or date-time DTSTART"
    end: When | None
    duration = getattr(_first(comp.get("duration")), "dt", None)
    if comp.get("dtend") is not None:
        end = _when(comp.get("dtend"))
    elif isinstance(duration, timedelta):
        end = start + duration
    else:
        end = start + (timedelta(days=1) if not isinstance(start, datetime) else timedelta(0))
    if end is None:
        return "a VEVENT whose DTEND is not a date or date-time"
    as_utc(start), as_utc(end)  # raises for values no clock can place
    attendees = comp.get("attendee", [])
    if not isinstance(attendees, list):
        attendees = [attendees]
    rrule = _first(comp.get("rrule"))
    try:
        sequence = int(_text(comp.get("sequence")) or 0)
    except ValueError:
        sequence = 0
    return _Parsed(
        uid=_text(comp.get("uid")),
        summary=_text(comp.get("summary")),
        start=start,
        end=end,
        location=_text(comp.get("location")),
        description=_text(comp.get("description")),
        status=_text(comp.get("status")),
        organizer=_strip_mailto(_text(comp.get("organizer"))),
        attendees=tuple(_strip_mailto(str(a)) for a in attendees),
        rrule=rrule.to_ical().decode("utf-8", "replace") if rrule is not None else "",
        sequence=sequence,
    )


@lru_cache(maxsize=8192)
def _parse_item(ics: str) -> tuple[tuple[_Parsed, ...], str]:
    """Every readable VEVENT of an item, and what could not be read ('' if all could).

    Cached by content: checkers and snapshots read every stored item, often many times a turn,
    and an item's text only changes when it is rewritten. Never raises: whatever an agent stored
    that Radicale accepted but ``icalendar`` cannot read is reported, not fatal to the harness.
    """
    try:
        cal = icalendar.Calendar.from_ical(ics)
        components = list(cal.walk("VEVENT"))
    except Exception as exc:  # icalendar raises ValueError, KeyError, IndexError... on odd input
        return (), f"unreadable iCalendar: {type(exc).__name__}: {str(exc)[:200]}"
    parsed: list[_Parsed] = []
    problems: list[str] = []
    for comp in components:
        if comp.get("recurrence-id") is not None:
            continue  # an override of a recurring event: reported through its master
        try:
            result = _parse_component(comp)
        except Exception as exc:
            result = f"{type(exc).__name__}: {str(exc)[:200]}"
        if isinstance(result, str):
            problems.append(result)
        else:
            parsed.append(result)
    return tuple(parsed), "; ".join(problems[:5])


def read_item(ics: str, *, calendar: str, owner: str, href: str) -> tuple[list[Event], str]:
    """The events of one stored item (an item holds one UID, with its overrides), and what of it
    could not be read ('' when everything could)."""
    parsed, problem = _parse_item(ics)
    events = [
        Event(
            uid=p.uid,
            summary=p.summary,
            start=p.start,
            end=p.end,
            calendar=calendar,
            owner=owner,
            href=href,
            location=p.location,
            description=p.description,
            status=p.status,
            organizer=p.organizer,
            attendees=p.attendees,
            rrule=p.rrule,
            sequence=p.sequence,
            ics=ics,
        )
        for p in parsed
    ]
    return events, problem


def parse_events(ics: str, *, calendar: str, owner: str, href: str) -> list[Event]:
    """Every readable VEVENT of one stored item (see :func:`read_item` for what was not)."""
    return read_item(ics, calendar=calendar, owner=owner, href=href)[0]
