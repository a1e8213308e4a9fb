"""Direct, locked access to Radicale's storage for the admin plane.

Why not CalDAV requests with an admin account: the storage API is what Radicale's own request
handlers call, under the same storage lock, so admin writes and agent requests never interleave
half-way, there is no admin identity for the agent to discover, and the admin plane costs no
HTTP round trips. Items are still validated the way a PUT is (``Item.prepare``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import radicale.item as radicale_item
import radicale.storage
from radicale import pathutils

from .events import Event, parse_events, sort_key

__all__ = ["CalendarStore", "StoredCalendar", "DEFAULT_PROPS"]

DEFAULT_PROPS = {
    "tag": "VCALENDAR",
    "C:supported-calendar-component-set": "VEVENT,VTODO,VJOURNAL",
}


@dataclass(frozen=True)
class StoredCalendar:
    path: str  # "/owner/name/"
    owner: str
    props: Mapping[str, str]
    items: tuple[tuple[str, str], ...]  # (href, ics text), by href


def calendar_path(owner: str, name: str) -> str:
    return f"/{owner}/{name.strip('/')}/"


def safe_href(uid: str) -> str:
    """An item name Radicale accepts and every client can put in a URL."""
    return re.sub(r"[^A-Za-z0-9@._-]", "_", uid)[:120] + ".ics"


class CalendarStore:
    def __init__(self, storage: radicale.storage.BaseStorage) -> None:
        self.storage = storage

    # -- collections ---------------------------------------------------------------------------
    def ensure_calendar(self, owner: str, name: str, props: Mapping[str, str] | None = None) -> str:
        """Create ``/owner/`` and the calendar ``/owner/name/`` unless they exist; returns its path."""
        path = calendar_path(owner, name)
        with self.storage.acquire_lock("w", owner):
            if next(iter(self.storage.discover(f"/{owner}/")), None) is None:
                self.storage.create_collection(f"/{owner}/")
            if next(iter(self.storage.discover(path)), None) is None:
                self.storage.create_collection(path, props=dict(props or {**DEFAULT_PROPS, "D:displayname": name}))
        return path

    def calendars(self, owner: str) -> list[StoredCalendar]:
        """The owner's calendar collections with their items, sorted by path and href."""
        out: list[StoredCalendar] = []
        with self.storage.acquire_lock("r", owner):
            found = list(self.storage.discover(f"/{owner}/", depth="1"))
            for col in found:
                if not isinstance(col, radicale.storage.BaseCollection) or col.tag != "VCALENDAR":
                    continue
                items = sorted(((item.href or "", item.serialize()) for item in col.get_all()), key=lambda p: p[0])
                path = pathutils.unstrip_path(col.path, True)
                out.append(StoredCalendar(path, owner, dict(col.get_meta()), tuple(items)))
        return sorted(out, key=lambda c: c.path)

    def events(self, owner: str) -> list[Event]:
        events: list[Event] = []
        for cal in self.calendars(owner):
            for href, ics in cal.items:
                events.extend(parse_events(ics, calendar=cal.path, owner=owner, href=href))
        return sorted(events, key=sort_key)

    # -- items ---------------------------------------------------------------------------------
    def put(self, owner: str, calendar: str, href: str, ics: str) -> None:
        """Create or replace one item, validated as Radicale validates a PUT."""
        with self.storage.acquire_lock("w", owner):
            col = next(iter(self.storage.discover(calendar)), None)
            if not isinstance(col, radicale.storage.BaseCollection):
                raise KeyError(f"no calendar {calendar!r}")
            (vobject_item,) = radicale_item.read_components(ics)
            radicale_item.check_and_sanitize_items(
                [vobject_item],
                max_vevent_rrule_occurrence=self.storage.configuration.get("server", "max_vevent_rrule_occurrence"),
                tag="VCALENDAR",
            )
            item = radicale_item.Item(collection_path=pathutils.strip_path(calendar), vobject_item=vobject_item)
            item.prepare()
            col.upload(href, item)

    def delete(self, owner: str, calendar: str, href: str) -> None:
        with self.storage.acquire_lock("w", owner):
            col = next(iter(self.storage.discover(calendar)), None)
            if isinstance(col, radicale.storage.BaseCollection):
                col.delete(href)

    # -- whole state ---------------------------------------------------------------------------
    def replace_all(
        self, owners: Iterable[str], calendars: Iterable[tuple[str, str, Mapping[str, str], list[tuple[str, str]]]]
    ) -> None:
        """Delete every owner's collections, then create ``(owner, path, props, items)``."""
        for owner in owners:
            with self.storage.acquire_lock("w", owner):
                for col in list(self.storage.discover(f"/{owner}/", depth="1")):
                    if isinstance(col, radicale.storage.BaseCollection) and col.tag:
                        col.delete()
        for owner, path, props, items in calendars:
            name = path.strip("/").split("/", 1)[1]
            self.ensure_calendar(owner, name, props)
            for href, ics in items:
                self.put(owner, path, href, ics)
