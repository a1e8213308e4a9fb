"""The ``calendar`` service: Radicale (CalDAV) in-process on an ephemeral loopback port.

Agent plane: CalDAV at ``http://127.0.0.1:PORT/`` with HTTP Basic auth as the user; any CalDAV
client discovers the principal ``/<user>/`` and its calendars (``/<user>/calendar/`` exists
from the start). Admin plane: :class:`CalendarService` creates and deletes calendars, adds, moves,
cancels and deletes events (aware datetimes, naive ones as floating times, or dates) and
answers checkers deterministically (:meth:`~CalendarService.events` sorted by start, then UID;
:meth:`~CalendarService.event` raising :class:`EventNotFound` / :class:`AmbiguousEvent`,
``AssertionError``\\ s, instead of taking a first match). It works on Radicale's storage
directly, under Radicale's own storage lock, so it is safe while the agent is connected.

The agent's requests pass the audit log, then a guard (:mod:`..servers.calendar.guard`) that
enforces :mod:`..servers.calendar.limits` and refuses what a real server refuses (deleting the
principal or the default calendar, changing protected properties) before Radicale sees them.
Reads never fail on what the agent stored: an item ``icalendar`` cannot read as an event is listed
under ``unreadable`` in the snapshot instead of raising.
"""

from __future__ import annotations

import hashlib
import http.client
from collections.abc import Iterable
from datetime import date, datetime, timezone
from typing import Any

import icalendar
import radicale.storage

from ..servers.calendar.audit import ADMIN_ENVIRON, ADMIN_HEADER, AuditMiddleware
from ..servers.calendar.events import PRODID, Event, When, build_calendar, overlaps, portable_time, read_item
from ..servers.calendar.guard import RequestGuard
from ..servers.calendar.radicale_app import RadicaleSetup
from ..servers.calendar.store import CalendarStore, calendar_path, safe_href
from ..servers.calendar.wsgi import WsgiHandle, start_wsgi
from ..servers.faulting import FaultyWsgi
from .service import Person, Service

__all__ = ["AmbiguousEvent", "CalendarService", "Event", "EventNotFound"]

"""Used for DTSTAMPs before the first turn sets the in-universe clock (seeding in fixtures)."""

DEFAULT_CALENDAR = "calendar"


class EventNotFound(AssertionError):
    """No event matches a checker's lookup (a missing event is the agent's failure)."""


class AmbiguousEvent(AssertionError):
    """More than one event matches a lookup that expects exactly one."""


def when(value: object, what: str = "time") -> When:
    """An event bound from a datetime, a date, or ISO 8601 text (``"2025-04-09T14:00:00+02:00"``;
    ``"2025-04-09"`` is a date: all-day); anything else is a clear :class:`TypeError`."""
    if isinstance(value, (datetime, date)):
        return value
    if isinstance(value, str):
        text = value.strip()
        try:
            return date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text)
        except ValueError:
            raise ValueError(
                f"{what} {value!r} is not an ISO 8601 date or date-time (e.g. '2025-04-09T14:00:00+02:00')"
            ) from None
    raise TypeError(f"{what} must be a datetime, a date or ISO 8601 text, not {type(value).__name__}")


def _when_or_none(value: object, what: str) -> When | None:
    return None if value is None else when(value, what)


def _address(who: str | Person) -> str:
    return who.email if isinstance(who, Person) else str(who).strip()


class CalendarService(Service):
    name = "calendar"

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> None:
        ctx = self.ctx
        self._http: WsgiHandle | None = None
        people = (ctx.user, *ctx.people)
        self._names = {p.email.lower(): p.name for p in people}
        self._logins = {p.email.lower(): p.email for p in people}
        passwords = {ctx.user.email: ctx.credentials.agent_password}
        passwords.update({p.email: ctx.credentials.people_password for p in ctx.people})
        self._radicale = RadicaleSetup(ctx.root, passwords)
        self._store = CalendarStore(self._radicale.storage)
        self._store.ensure_calendar(ctx.user.email, DEFAULT_CALENDAR)
        self._added = 0  # admin-added events so far: part of default UIDs
        self._serve(passwords)

    def _serve(self, passwords: dict[str, str]) -> None:
        """Serve the agent plane: Radicale behind our request guard and audit, on the world's loop
        (the docker backend serves the same storage from a container instead)."""
        guarded = RequestGuard(
            self._radicale.application, self._radicale.collection_root, protected_calendars=[DEFAULT_CALENDAR]
        )
        app: Any = AuditMiddleware(guarded, self._record, self.ctx.credentials.admin_token)
        gate = self.ctx.fault_gate("calendar")
        if gate is not None:
            app = FaultyWsgi(app, gate, admin_environ=ADMIN_ENVIRON, admin_token=self.ctx.credentials.admin_token)

        async def start() -> WsgiHandle:
            return await start_wsgi(app)

        self._http = self.ctx.loop.call(start)

    def stop(self) -> None:
        handle, self._http = getattr(self, "_http", None), None
        if handle is not None:
            try:
                self.ctx.loop.call(handle.close, timeout=5)
            except RuntimeError:  # the loop is already gone
                pass

    # -- agent plane ---------------------------------------------------------------------------
    @property
    def url(self) -> str:
        assert self._http is not None, "calendar service not started"
        return self._http.url + "/"

    @property
    def configuration(self) -> Any:
        """Radicale's effective configuration (read-only use: tests check ``auth.delay``)."""
        return self._radicale.configuration

    def agent_env(self) -> dict[str, str]:
        return {
            "CLAWMARK_CALDAV_URL": self.url,
            "CLAWMARK_CALDAV_USER": self.ctx.user.email,
            "CLAWMARK_CALDAV_PASSWORD": self.ctx.credentials.agent_password,
        }

    def tools_markdown(self) -> str:
        user = self.ctx.user.email
        return (
            "## Calendar (CalDAV)\n"
            f"- Server: `{self.url}` (`$CLAWMARK_CALDAV_URL`), HTTP Basic auth, plain HTTP (loopback only).\n"
            f"- User `{user}` (`$CLAWMARK_CALDAV_USER`), password in `$CLAWMARK_CALDAV_PASSWORD`.\n"
            f"- Your calendars live under `/{user}/`; the default one is `/{user}/{DEFAULT_CALENDAR}/`.\n\n"
            "```python\n"
            "import os\n"
            "from datetime import datetime, timezone\n"
            "import caldav\n"
            "env = os.environ\n"
            "with caldav.DAVClient(url=env['CLAWMARK_CALDAV_URL'], username=env['CLAWMARK_CALDAV_USER'],\n"
            "                      password=env['CLAWMARK_CALDAV_PASSWORD']) as client:\n"
            "    cal = client.principal().calendars()[0]\n"
            "    for ev in cal.search(start=datetime(2025, 4, 7, tzinfo=timezone.utc),\n"
            "                         end=datetime(2025, 4, 8, tzinfo=timezone.utc), event=True):\n"
            "        print(ev.icalendar_component['SUMMARY'])\n"
            "    cal.save_event(dtstart=datetime(2025, 4, 7, 14, tzinfo=timezone.utc),\n"
            "                   dtend=datetime(2025, 4, 7, 15, tzinfo=timezone.utc), summary='Review')\n"
            "```\n"
        )

    def _endpoint(self) -> tuple[str, int]:
        """Host and port of the agent plane (the docker backend's is its container's)."""
        assert self._http is not None, "calendar service not started"
        return "127.0.0.1", self._http.port

    def ping(self) -> None:
        conn = http.client.HTTPConnection(*self._endpoint(), timeout=2)
        try:
            conn.request("OPTIONS", "/", headers={ADMIN_HEADER: self.ctx.credentials.admin_token})
            status = conn.getresponse().status
        finally:
            conn.close()
        if status >= 500:
            raise ConnectionError(f"CalDAV server answered OPTIONS with {status}")

    # -- admin plane: setup --------------------------------------------------------------------
    def _owner(self, owner: str | Person | None) -> str:
        address = _address(owner) if owner is not None else self.ctx.user.email
        login = self._logins.get(address.lower())
        if login is None:
            raise ValueError(f"{address!r} has no calendar account in this world")
        return login

    def create_calendar(
        self,
        name: str,
        *,
        owner: str | Person | None = None,
        display_name: str | None = None,
        silent: str | None = None,
    ) -> str:
        """Create a calendar collection ``/<owner>/<name>/`` (idempotent); returns its path."""
        login = self._owner(owner)
        props = {
            "tag": "VCALENDAR",
            "C:supported-calendar-component-set": "VEVENT,VTODO,VJOURNAL",
            "D:displayname": display_name or name,
        }
        path = self._store.ensure_calendar(login, name, props)
        self.ctx.mutations.note(silent, self.name, f"created calendar {path}")
        return path

    def delete_calendar(self, calendar: str, *, owner: str | Person | None = None, silent: str | None = None) -> None:
        """Delete one of the owner's calendars (collection name or path) with all its events.

        The default calendar cannot be deleted (the agent plane refuses that too: agents and
        checkers rely on it existing); an unknown calendar raises ``KeyError``.
        """
        login = self._owner(owner)
        path = self._calendar_path(login, calendar)
        if path == calendar_path(login, DEFAULT_CALENDAR):
            raise ValueError(f"the default calendar {path} cannot be deleted")
        storage = self._store.storage
        with storage.acquire_lock("w", login):
            col = next(iter(storage.discover(path)), None) if path.startswith(f"/{login}/") else None
            if not isinstance(col, radicale.storage.BaseCollection) or col.tag != "VCALENDAR":
                raise KeyError(f"{login} has no calendar {path!r}")
            col.delete()
        self.ctx.mutations.note(silent, self.name, f"deleted calendar {path}")

    def add_event(
        self,
        summary: str,
        start: When,
        end: When,
        *,
        calendar: str | None = None,
        owner: str | Person | None = None,
        attendees: Iterable[str | Person] = (),
        location: str | None = None,
        description: str | None = None,
        uid: str | None = None,
        status: str | None = None,
        silent: str | None = None,
    ) -> Event:
        """Put an event in ``owner``'s calendar (default: the user's default calendar).

        ``start``/``end`` are aware datetimes, naive datetimes (floating times: stored without a
        zone, as a wall-clock time for every reader; compared with other times as UTC), dates
        (all-day), or the same as ISO 8601 text. The default UID is derived
        from the content and a counter, so the same seeding yields the same UIDs. The
        calendar is created if missing.
        """
        start, end = when(start, "start"), when(end, "end")
        login = self._owner(owner)
        name = (calendar or DEFAULT_CALENDAR).strip("/").split("/")[-1]
        path = self._store.ensure_calendar(login, name)
        self._added += 1
        if uid is None:
            seed = "\0".join([login, name, summary, start.isoformat(), end.isoformat(), str(self._added)])
            uid = f"{hashlib.sha256(seed.encode()).hexdigest()[:16]}@clawmark"
        ics = build_calendar(
            uid=uid,
            summary=summary,
            start=start,
            end=end,
            stamp=self._now(),
            organizer=login,
            attendees=[_address(a) for a in attendees],
            names=self._names,
            location=location,
            description=description,
            status=status,
        )
        href = safe_href(uid)
        stored = self._store.put(login, path, href, ics)
        self.ctx.mutations.note(silent, self.name, f"added event {summary!r} ({uid}) to {path}")
        return self._stored(login, path, href, stored)

    def move_event(
        self,
        uid_or_summary: str,
        new_start: When,
        new_end: When,
        *,
        owner: str | Person | None = None,
        silent: str | None = None,
    ) -> Event:
        """Reschedule one event (found by exact UID, else exact summary); bumps SEQUENCE."""
        new_start, new_end = when(new_start, "new_start"), when(new_end, "new_end")
        login = self._owner(owner)
        event = self._lookup(uid_or_summary, login)
        ics = self._rewrite(event, dtstart=new_start, dtend=new_end)
        stored = self._store.put(login, event.calendar, event.href, ics)
        self.ctx.mutations.note(silent, self.name, f"moved {event.summary!r} ({event.uid}) to {new_start.isoformat()}")
        return self._stored(login, event.calendar, event.href, stored)

    def cancel_event(
        self,
        uid_or_summary: str,
        *,
        owner: str | Person | None = None,
        remove: bool = False,
        silent: str | None = None,
    ) -> None:
        """Cancel one event: ``STATUS:CANCELLED`` (as an organiser's cancellation shows up in
        calendars), or delete it outright with ``remove=True``."""
        login = self._owner(owner)
        event = self._lookup(uid_or_summary, login)
        if remove:
            self._store.delete(login, event.calendar, event.href)
        else:
            self._store.put(login, event.calendar, event.href, self._rewrite(event, status="CANCELLED"))
        verb = "removed" if remove else "cancelled"
        self.ctx.mutations.note(silent, self.name, f"{verb} {event.summary!r} ({event.uid})")

    def delete_event(
        self, uid: str, *, calendar: str | None = None, owner: str | Person | None = None, silent: str | None = None
    ) -> None:
        """Delete the event with exactly this UID from one calendar (collection name or path;
        default: the default calendar), whoever stored it; every item holding that UID there goes.
        Raises :class:`EventNotFound` when the calendar has no such event."""
        login = self._owner(owner)
        path = self._calendar_path(login, calendar or DEFAULT_CALENDAR)
        hrefs = sorted({e.href for e in self.events(login, calendar=path) if e.uid == uid})
        if not hrefs:
            raise EventNotFound(f"no event with uid={uid!r} in {path}")
        for href in hrefs:
            self._store.delete(login, path, href)
        self.ctx.mutations.note(silent, self.name, f"deleted event {uid} from {path}")

    def _rewrite(self, event: Event, **changes: Any) -> str:
        """The event's stored iCalendar with some properties replaced (icalendar round trip)."""
        cal = icalendar.Calendar.from_ical(event.ics)
        stamp = self._now().astimezone(timezone.utc)
        for comp in cal.walk("VEVENT"):
            if str(comp.get("uid", "")) != event.uid or comp.get("recurrence-id") is not None:
                continue
            for key, value in changes.items():
                if key in comp:
                    del comp[key]
                comp.add(key, portable_time(value))
            if "duration" in comp and "dtend" in changes:
                del comp["duration"]
            seq = int(comp.get("sequence", 0)) + 1
            for key, value in (("sequence", seq), ("dtstamp", stamp), ("last-modified", stamp)):
                if key in comp:
                    del comp[key]
                comp.add(key, value)
        return cal.to_ical().decode("utf-8")

    # -- admin plane: deterministic reads ------------------------------------------------------
    def calendars(self, owner: str | Person | None = None) -> list[str]:
        """Paths of the owner's calendars, sorted."""
        return [c.path for c in self._store.calendars(self._owner(owner))]

    def calendar_names(self, owner: str | Person | None = None) -> dict[str, str]:
        """The display name of each of the owner's calendars (``""`` where none is set), by path,
        sorted by path: the name CalDAV clients show (``caldav``'s ``Calendar.name``)."""
        return {c.path: str(c.props.get("D:displayname") or "") for c in self._store.calendars(self._owner(owner))}

    def events(
        self,
        owner: str | Person | None = None,
        start: When | None = None,
        end: When | None = None,
        *,
        calendar: str | None = None,
    ) -> list[Event]:
        """The owner's events (all calendars, or one) overlapping ``[start, end)``, sorted by
        start then UID. Cancelled events are included (see ``Event.cancelled``)."""
        start, end = _when_or_none(start, "start"), _when_or_none(end, "end")
        login = self._owner(owner)
        found = self._store.events(login)
        if calendar is not None:
            path = self._calendar_path(login, calendar)
            found = [e for e in found if e.calendar == path]
        if start is None and end is None:
            return found  # the store's list is already sorted by start, then UID
        return [e for e in found if overlaps(e, start, end)]

    def event(
        self,
        summary: str | None = None,
        *,
        uid: str | None = None,
        owner: str | Person | None = None,
        start: When | None = None,
        end: When | None = None,
    ) -> Event:
        """The one event with exactly this summary (whitespace-normalised) and/or UID."""
        return self._find(summary=summary, uid=uid, owner=owner, start=start, end=end)

    def _find(
        self,
        *,
        summary: str | None = None,
        uid: str | None = None,
        owner: str | Person | None = None,
        start: When | None = None,
        end: When | None = None,
    ) -> Event:
        if summary is None and uid is None:
            raise TypeError("event() needs a summary or a uid")
        found = self.events(owner, start, end)
        if uid is not None:
            found = [e for e in found if e.uid == uid]
        if summary is not None:
            want = " ".join(summary.split())
            found = [e for e in found if " ".join(e.summary.split()) == want]
        what = ", ".join(f"{k}={v!r}" for k, v in (("summary", summary), ("uid", uid)) if v is not None)
        if not found:
            near = [e.summary for e in self.events(owner)][:10]
            raise EventNotFound(f"no event with {what}; the calendar has {near}")
        if len(found) > 1:
            listed = "; ".join(f"{e.summary!r} at {e.start.isoformat()} ({e.uid})" for e in found[:5])
            raise AmbiguousEvent(f"{len(found)} events match {what}: {listed}")
        return found[0]

    @staticmethod
    def _calendar_path(login: str, calendar: str) -> str:
        """A calendar given by path (``/owner/name/``) or by collection name, as its path."""
        return calendar if calendar.startswith("/") else calendar_path(login, calendar)

    @staticmethod
    def _stored(login: str, calendar: str, href: str, stored: str | None) -> Event:
        """The event just written to ``calendar``/``href`` (not looked up by UID: the agent may
        legally hold another event with the same UID in another calendar), read from the text
        as stored (what a fresh read of the calendar gives), not by re-reading the calendar."""
        (event,) = read_item(stored, calendar=calendar, owner=login, href=href)[0] if stored is not None else []
        return event

    def _lookup(self, uid_or_summary: str, login: str) -> Event:
        """The event a turn setup means (exact UID, else exact summary).

        Setup must not fail because the agent did something legal: when the agent made a copy
        (the same UID in another calendar, or the same summary), the event the admin plane wrote
        (its PRODID says so) is the one meant. Checker reads (:meth:`event`) stay strict.
        """
        events = self.events(login)
        by_uid = [e for e in events if e.uid == uid_or_summary]
        want = " ".join(uid_or_summary.split())
        by_summary = [e for e in events if " ".join(e.summary.split()) == want]
        for found in (by_uid, by_summary):
            ours = [e for e in found if f"PRODID:{PRODID}" in e.ics]
            if len(found) == 1:
                return found[0]
            if len(found) > 1 and len(ours) == 1:
                return ours[0]
        return self._find(summary=uid_or_summary, owner=login)

    # -- evidence ------------------------------------------------------------------------------
    def _owners(self) -> list[str]:
        return sorted(self._logins.values(), key=str.lower)

    def snapshot(self) -> dict[str, Any]:
        """Every calendar's properties and items (the iCalendar text, once), the events read from
        them (without repeating the text), and the items that could not be read as events."""
        calendars: dict[str, Any] = {}
        for owner in self._owners():
            for cal, readings in self._store.readings(owner):
                events: list[dict[str, Any]] = []
                unreadable: list[dict[str, str]] = []
                for href, reading in readings:
                    events.extend({k: v for k, v in e.to_json().items() if k != "ics"} for _, e in reading.events)
                    if reading.problem:
                        unreadable.append({"href": href, "problem": reading.problem})
                calendars[cal.path] = {
                    "owner": owner,
                    "props": {k: cal.props[k] for k in sorted(cal.props)},
                    "items": [{"href": href, "ics": ics} for href, ics in cal.items],
                    "events": sorted(events, key=lambda e: (e["start"], e["uid"], e["href"])),
                    "unreadable": unreadable,
                }
        return {"calendars": calendars, "counters": {"added": self._added}}

    def restore(self, data: dict[str, Any]) -> None:
        """Make the calendars exactly the snapshot's (collections, properties, items)."""
        plan = [
            (
                self._owner(entry["owner"]),
                path,
                dict(entry.get("props", {})),
                [(item["href"], item["ics"]) for item in entry.get("items", [])],
            )
            for path, entry in sorted(data.get("calendars", {}).items())
        ]
        self._store.replace_all(self._owners(), plan)
        self._added = int(data.get("counters", {}).get("added", 0))
