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
from typing import Any, Union

import icalendar

__all__ = ["Event", "When", "build_calendar", "parse_events", "portable_time", "sort_key", "as_utc", "overlaps"]

PRODID = "-//clawmark//admin plane//EN"

When = Union[datetime, date]
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
        event.add("organizer", _mailto(organizer), parameters={"CN": names[organizer.lower()]} if organizer.lower() in names else None)
    for address in attendees:
        params = {"ROLE": "REQ-PARTICIPANT", "PARTSTAT": "NEEDS-ACTION"}
        if address.lower() in names:
            params["CN"] = names[address.lower()]
        event.add("attendee", _mailto(address), parameters=params)
    cal.add_component(event)
    return cal.to_ical().decode("utf-8")


def _when(value: Any) -> When:
    dt = value.dt if hasattr(value, "dt") else value
    return dt


def parse_events(ics: str, *, calendar: str, owner: str, href: str) -> list[Event]:
    """Every VEVENT of one stored item (an item holds one UID, with its overrides)."""
    cal = icalendar.Calendar.from_ical(ics)
    out: list[Event] = []
    for comp in cal.walk("VEVENT"):
        if comp.get("recurrence-id") is not None:
            continue  # an override of a recurring event: reported through its master
        start = _when(comp.get("dtstart"))
        if comp.get("dtend") is not None:
            end = _when(comp.get("dtend"))
        elif comp.get("duration") is not None:
            end = start + comp.get("duration").dt
        else:
            end = start + (timedelta(days=1) if not isinstance(start, datetime) else timedelta(0))
        attendees = comp.get("attendee", [])
        if not isinstance(attendees, list):
            attendees = [attendees]
        rrule = comp.get("rrule")
        out.append(
            Event(
                uid=str(comp.get("uid", "")),
                summary=str(comp.get("summary", "")),
                start=start,
                end=end,
                calendar=calendar,
                owner=owner,
                href=href,
                location=str(comp.get("location", "")),
                description=str(comp.get("description", "")),
                status=str(comp.get("status", "")),
                organizer=_strip_mailto(comp.get("organizer", "")),
                attendees=tuple(_strip_mailto(a) for a in attendees),
                rrule=rrule.to_ical().decode() if rrule is not None else "",
                sequence=int(comp.get("sequence", 0)),
                ics=ics,
            )
        )
    return out
