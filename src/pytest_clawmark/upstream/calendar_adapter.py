"""``ctx.calendar`` of upstream tasks, over our calendar service's admin plane (``world.calendar``).

The calendars are the world user's (the account the agent's CalDAV client logs into). Upstream
names calendars by their display name (``caldav``'s ``Calendar.name``); ours are collections
``/<user>/<id>/`` whose display name is the task's name, the id derived from it (``Work Rota`` →
``Work-Rota``), so the agent sees the name the prompt uses. A calendar is found by display name,
else by collection id (an agent-made calendar without a display name lists under its id).

Times, decided against upstream's own stack (``caldav`` 3 on Radicale 3):

- Writing: naive datetimes are stored as *floating* times (``DTSTART:20260325T090000``), no
  zone invented; aware ones keep their zone (fixed offsets as UTC); dates make all-day events.
  Upstream's ``caldav`` instead converts a naive datetime from the harness machine's local zone
  to UTC (``…T090000Z``): the same digits on a UTC host, shifted elsewhere.
- Reading: ``dtstart``/``dtend`` are ``isoformat()`` of what is stored, which is exactly upstream's
  read rule: floating ``2026-03-25T09:00:00``, UTC ``2026-03-25T09:00:00+00:00``, a TZID zone
  with its offset (``+08:00``), all-day ``2026-03-26``. So an event the agent writes comes back as
  upstream would return it; our own floating seeds print without the ``+00:00`` that upstream's
  UTC-converted seeds carry (checkers in the corpus parse with ``fromisoformat``, strip
  ``+00:00`` or test substrings: both forms pass them). ``dtend`` is absent when the event has
  no DTEND (a DURATION, or none), ``description``/``location`` when empty, as upstream's.
- Ranges (``get_events`` with both bounds; with one or none every event is returned, as
  upstream's): RFC 4791 time-range overlap as Radicale applies it (a zero-length event matches
  when ``start <= DTSTART < end``), floating times and naive bounds taken as UTC (Radicale's
  rule; upstream's client sends naive bounds in the local zone, UTC on a UTC host), recurring
  events expanded into their occurrences in the range (same UID, as ``expand=True`` gives).
  Results are sorted by start, then UID (upstream: server order). One deviation, kept for a
  single rule: upstream's client re-filters the occurrences of a *recurring* event with a TZID
  against naive bounds in that zone's wall-clock time (Radicale's UTC pre-filter still applies).

Bad input: an unknown calendar raises :class:`UnknownCalendar` (a ``ValueError`` saying
``Calendar not found: <name>``, as upstream's); an unknown UID in ``delete_event`` raises
:class:`UnknownEvent` (upstream: ``caldav``'s ``NotFoundError``); dtstart/dtend that are not a
date or datetime, or mix a date with a datetime, raise ``TypeError``. An event ending before it
starts is stored as given (upstream's client and server accept it too); it matches a range when
DTEND > start and DTSTART < end, as Radicale answers. ``create_calendar`` of a name that exists
returns that calendar (upstream's makes a same-named twin, and later lookups take whichever the
server lists first); ``delete_calendar`` refuses the world's default calendar.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date, datetime, timedelta
from typing import Any
from urllib.parse import quote

import icalendar

from ..servers.calendar.events import as_utc
from ..servers.calendar.limits import MAX_QUERY_OCCURRENCES
from ..servers.calendar.recurrence import item_occurrences
from ..world.calendar import EventNotFound

__all__ = ["UnknownCalendar", "UnknownEvent", "UpstreamCalendar"]

_UNSAFE_ID = re.compile(r"[^A-Za-z0-9._-]+")


class UnknownCalendar(ValueError):
    """No calendar of the user has this name."""


class UnknownEvent(LookupError):
    """The calendar holds no event with this UID."""


class UpstreamCalendar:
    """The methods upstream's ``CalendarStateManager`` offers tasks, with its return shapes."""

    def __init__(self, world: Any) -> None:
        self._world = world

    @property
    def _service(self) -> Any:
        return self._world.calendar

    # -- calendars ------------------------------------------------------------------------------
    def _named(self) -> list[tuple[str, str]]:
        """(path, name) of the user's calendars by path; the name is the display name, else the id."""
        return [(path, shown or _collection_id(path)) for path, shown in self._service.calendar_names().items()]

    def _path(self, name: str) -> str:
        named = self._service.calendar_names()
        by_display = [path for path, shown in named.items() if shown == name]
        if by_display:
            # two calendars showing one name (the agent made a twin): prefer the one create_calendar made
            preferred = [p for p in by_display if _collection_id(p) == _new_id(name)]
            return (preferred or by_display)[0]
        by_id = [path for path in named if _collection_id(path) == name]
        if by_id:
            return by_id[0]
        known = ", ".join(repr(n) for _, n in self._named()) or "none"
        raise UnknownCalendar(f"Calendar not found: {name} (the user's calendars: {known})")

    def _url(self, path: str) -> str:
        return self._service.url.rstrip("/") + quote(path, safe="/@")

    async def create_calendar(self, name: str) -> str:
        """Create the calendar (or find the one already showing this name); its CalDAV URL."""
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"create_calendar: a calendar needs a name, not {name!r}")
        try:
            return self._url(self._path(name))
        except UnknownCalendar:
            pass
        taken = {_collection_id(p).lower() for p in self._service.calendars()}  # case-blind: macOS/Windows disks
        cal_id = _new_id(name)
        if cal_id.lower() in taken:
            cal_id = f"{cal_id}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"
        base, n = cal_id, 2
        while cal_id.lower() in taken:
            cal_id, n = f"{base}-{n}", n + 1
        return self._url(self._service.create_calendar(cal_id, display_name=name))

    async def list_calendars(self) -> list[dict[str, str]]:
        """``[{"name", "url"}]`` for each of the user's calendars (sorted by path)."""
        return [{"name": name, "url": self._url(path)} for path, name in self._named()]

    async def delete_calendar(self, name: str) -> None:
        self._service.delete_calendar(self._path(name))

    # -- events ---------------------------------------------------------------------------------
    async def add_event(
        self,
        calendar_name: str,
        summary: str,
        dtstart: datetime | date,
        dtend: datetime | date,
        *,
        description: str = "",
        location: str = "",
        uid: str | None = None,
    ) -> str:
        """Add an event (naive datetimes as floating times); its UID. A UID the calendar already
        holds (at the same item name) is replaced, as upstream's PUT replaces it."""
        _check_bounds(dtstart, dtend)
        path = self._path(calendar_name)
        event = self._service.add_event(
            str(summary),
            dtstart,
            dtend,
            calendar=path,
            description=description or None,
            location=location or None,
            uid=uid,
        )
        return event.uid

    async def get_events(
        self, calendar_name: str, start: datetime | date | None = None, end: datetime | date | None = None
    ) -> list[dict[str, Any]]:
        """The calendar's events as upstream's dicts; with both bounds, the occurrences overlapping
        ``[start, end)`` (recurring events expanded), else every event once."""
        path = self._path(calendar_name)
        events = self._service.events(calendar=path)
        if not (start and end):
            return [_as_dict(comp) for comp in (_master(e) for e in events) if comp is not None]
        lo, hi = as_utc(start), as_utc(end)
        found: list[tuple[datetime, str, dict[str, Any]]] = []
        for event in events:
            for comp in _occurrences(event, lo, hi):
                first, last = _span(comp)
                if _overlaps(first, last, lo, hi):
                    found.append((as_utc(first), str(comp.get("uid", "")), _as_dict(comp)))
        found.sort(key=lambda t: (t[0], t[1]))
        return [d for _, _, d in found]

    async def find_events(self, calendar_name: str, summary_contains: str) -> list[dict[str, Any]]:
        """Every event whose summary contains the text, ignoring case (``str.lower``, as upstream's)."""
        needle = summary_contains.lower()
        return [e for e in await self.get_events(calendar_name) if needle in e.get("summary", "").lower()]

    async def delete_event(self, calendar_name: str, uid: str) -> None:
        path = self._path(calendar_name)
        try:
            self._service.delete_event(uid, calendar=path)
        except EventNotFound:
            raise UnknownEvent(f"no event with uid {uid!r} in calendar {calendar_name!r}") from None


# -- helpers -------------------------------------------------------------------------------------
def _collection_id(path: str) -> str:
    return path.strip("/").split("/")[-1]


def _new_id(name: str) -> str:
    """The collection id create_calendar gives a name: URL-safe, readable, deterministic, short
    enough for any file system (Radicale stores a collection as a folder)."""
    return _UNSAFE_ID.sub("-", name)[:64].strip("-.") or "cal"


def _check_bounds(dtstart: Any, dtend: Any) -> None:
    for label, value in (("dtstart", dtstart), ("dtend", dtend)):
        if not isinstance(value, date):
            raise TypeError(f"add_event: {label} must be a datetime or a date, not {type(value).__name__} ({value!r})")
    if isinstance(dtstart, datetime) != isinstance(dtend, datetime):
        raise TypeError(
            f"add_event: dtstart and dtend must both be datetimes or both dates, not {dtstart!r} and {dtend!r}"
        )


def _first(value: Any) -> Any:
    return value[0] if isinstance(value, list) and value else value


def _text(comp: Any, name: str) -> str:
    value = _first(comp.get(name))
    return "" if value is None else str(value)


def _iso(comp: Any, name: str) -> str | None:
    value = _first(comp.get(name))
    if value is None:
        return None
    dt = getattr(value, "dt", None)
    return dt.isoformat() if hasattr(dt, "isoformat") else str(value)


def _as_dict(comp: Any) -> dict[str, Any]:
    """Upstream's event dict: uid and summary always, the rest only where present and non-empty."""
    out: dict[str, Any] = {"uid": _text(comp, "uid"), "summary": _text(comp, "summary")}
    for key in ("dtstart", "dtend"):
        value = _iso(comp, key)
        if value:
            out[key] = value
    for key in ("description", "location"):
        value = _text(comp, key)
        if value:
            out[key] = value
    return out


def _components(event: Any) -> tuple[Any, Any] | None:
    """The stored item's calendar and the event's master VEVENT (None if it cannot be read)."""
    try:
        cal = icalendar.Calendar.from_ical(event.ics)
    except Exception:  # the world reads it, so this is unexpected; skip rather than fail a checker
        return None
    for comp in cal.walk("VEVENT"):
        if _text(comp, "uid") == event.uid and comp.get("recurrence-id") is None:
            return cal, comp
    return None


def _master(event: Any) -> Any:
    found = _components(event)
    return found[1] if found else None


def _occurrences(event: Any, lo: datetime, hi: datetime) -> list[Any]:
    """The event's components that may overlap ``[lo, hi)``: its occurrences there when it recurs
    (expanded over a day's margin, filtered exactly by the caller), else the master.

    A rule that would make more occurrences than the agent plane lets a query iterate is not
    expanded (only its first occurrence is considered): the harness must not hang on it.
    """
    found = _components(event)
    if found is None:
        return []
    cal, master = found
    if master.get("rrule") is None and master.get("rdate") is None:
        return [master]
    if item_occurrences(event.ics.encode("utf-8", "replace"), hi.year) > MAX_QUERY_OCCURRENCES:
        return [master]
    import recurring_ical_events  # a dependency of caldav (ours): used only for recurring events

    margin = timedelta(days=1)
    try:
        expanded = recurring_ical_events.of(cal).between(lo - margin, hi + margin)
    except Exception:  # a rule the library cannot follow: the stored event as it is
        return [master]
    return [comp for comp in expanded if _text(comp, "uid") == event.uid]


def _span(comp: Any) -> tuple[datetime | date, datetime | date]:
    """DTSTART and the end RFC 5545 gives the component (DTEND, else DTSTART + DURATION, else
    a day for an all-day event and nothing for a timed one)."""
    start = _first(comp.get("dtstart")).dt
    if comp.get("dtend") is not None:
        return start, _first(comp.get("dtend")).dt
    duration = getattr(_first(comp.get("duration")), "dt", None)
    if isinstance(duration, timedelta):
        return start, start + duration
    return start, start if isinstance(start, datetime) else start + timedelta(days=1)


def _overlaps(first: datetime | date, last: datetime | date, lo: datetime, hi: datetime) -> bool:
    """RFC 4791 9.9 time-range overlap, floating and all-day times as UTC (as Radicale compares)."""
    a, b = as_utc(first), as_utc(last)
    if a == b:
        return lo <= a < hi
    return lo < b and hi > a
