"""Direct, locked access to Radicale's storage for the admin plane.

Why not CalDAV requests with an admin account: the storage API is what Radicale's own request
handlers call, under the same storage lock, so admin writes and agent requests never interleave
half-way, there is no admin identity for the agent to discover, and the admin plane costs no
HTTP round trips. Items are still validated the way a PUT is (``Item.prepare``).

Reads are cached, so a full calendar (thousands of items) costs a checker read or a snapshot
no file reads or parsing when nothing changed. Per collection folder the store keeps what
Radicale's ``get_all`` gave for each item (its text, or that it is not served) and the events read
from it. Invalidation: the collection's cache is trusted as a whole while the storage's write
generation (:func:`.storage.write_generation`, changed by every write Radicale makes in this
process) and the collection folder's stat (inode, size, mtime, ctime: changes by another process
add, replace or remove entries) are what they were when it was filled; otherwise each item is
re-checked by its file's stat (inode, size, mtime, ctime: Radicale replaces items by renaming a
new file over the old one, so a rewrite has another inode) and only changed items are read again,
through Radicale. The admin plane's own writes update the cache in place.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import radicale.item as radicale_item
import radicale.storage
from radicale import pathutils

from .events import Event, read_item, sort_key
from .storage import write_generation

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


@dataclass(frozen=True)
class Reading:
    """One stored item as the admin plane reads it: its text (None: Radicale does not serve it,
    e.g. too large), its events (with their sort keys) and what of it could not be read."""

    key: tuple[int, int, int, int]  # the file's (inode, size, mtime_ns, ctime_ns) when read
    text: str | None
    events: tuple[tuple[tuple[object, str], Event], ...] = ()
    problem: str = ""


@dataclass
class _Cached:
    """What the store knows of one collection folder, valid while ``token`` holds."""

    token: tuple[int, tuple[int, ...]]
    items: dict[str, Reading]
    listing: tuple[tuple[str, str], ...] | None = None  # (href, text), by href
    events: list[tuple[tuple[object, str], Event]] | None = None  # by sort key, then href
    readings: list[tuple[str, Reading]] | None = field(default=None)  # by href, served items only


def _file_key(path: str) -> tuple[int, int, int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _dir_key(path: str) -> tuple[int, ...]:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return ()
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def calendar_path(owner: str, name: str) -> str:
    return f"/{owner}/{name.strip('/')}/"


def safe_href(uid: str) -> str:
    """An item name Radicale accepts and every client can put in a URL."""
    return re.sub(r"[^A-Za-z0-9@._-]", "_", uid)[:120] + ".ics"


class CalendarStore:
    def __init__(self, storage: radicale.storage.BaseStorage) -> None:
        self.storage = storage
        self._folder = storage.configuration.get("storage", "filesystem_folder")
        self._max_size = storage.configuration.get("server", "max_resource_size")
        self._cache: dict[tuple[str, str], _Cached] = {}  # by (collection folder, owner)

    # -- the read cache ------------------------------------------------------------------------
    def _token(self, folder: str) -> tuple[int, tuple[int, ...]]:
        return (write_generation(self._folder), _dir_key(folder))

    def _reading(self, key: tuple[int, int, int, int], text: str | None, path: str, owner: str, href: str) -> Reading:
        if text is None:
            return Reading(key, None)
        found, problem = read_item(text, calendar=path, owner=owner, href=href)
        return Reading(key, text, tuple((sort_key(e), e) for e in found), problem)

    def _read_file(self, col: object, href: str, key: tuple[int, int, int, int], path: str, owner: str) -> Reading:
        """One item exactly as ``get_all`` yields it (or not): through Radicale."""
        item = col._get(href, verify_href=False)  # type: ignore[attr-defined]
        file = os.path.join(col._filesystem_path, href)  # type: ignore[attr-defined]
        text = item.serialize() if item is not None and pathutils.file_check_size(file, self._max_size) else None
        return self._reading(key, text, path, owner, href)

    def _state(self, col: radicale.storage.BaseCollection, owner: str) -> _Cached:
        """The collection's cached items, brought up to date (call under the storage lock)."""
        folder = col._filesystem_path  # type: ignore[attr-defined]
        token = self._token(folder)  # before looking: a change after it shows next time
        cached = self._cache.get((folder, owner))
        if cached is not None and cached.token == token:
            return cached
        path = pathutils.unstrip_path(col.path, True)
        old = cached.items if cached is not None else {}
        items: dict[str, Reading] = {}
        for href in col._list():  # type: ignore[attr-defined]
            key = _file_key(os.path.join(folder, href))
            if key is None:
                continue
            known = old.get(href)
            items[href] = (
                known if known is not None and known.key == key else self._read_file(col, href, key, path, owner)
            )
        cached = _Cached(token, items)
        self._cache[(folder, owner)] = cached
        return cached

    @staticmethod
    def _readings(cached: _Cached) -> list[tuple[str, Reading]]:
        if cached.readings is None:
            cached.readings = sorted(
                ((h, r) for h, r in cached.items.items() if r.text is not None), key=lambda p: p[0]
            )
        return cached.readings

    def _listing(self, cached: _Cached) -> tuple[tuple[str, str], ...]:
        if cached.listing is None:
            cached.listing = tuple((h, r.text) for h, r in self._readings(cached) if r.text is not None)
        return cached.listing

    def _events(self, cached: _Cached) -> list[tuple[tuple[object, str], Event]]:
        if cached.events is None:
            # by href first, then a stable sort by (start, UID): the order a full re-read gives
            cached.events = sorted((pair for _, r in self._readings(cached) for pair in r.events), key=lambda p: p[0])
        return cached.events

    def _update(
        self, col: radicale.storage.BaseCollection, owner: str, href: str, text: str | None, valid: bool
    ) -> None:
        """After an admin write (under the write lock): the cache learns it without re-reading,
        if it was up to date before the write; otherwise the next read re-checks."""
        folder = col._filesystem_path  # type: ignore[attr-defined]
        cached = self._cache.get((folder, owner))
        if cached is None or not valid:
            return
        cached.listing = cached.events = cached.readings = None
        key = _file_key(os.path.join(folder, href))
        if key is None:
            cached.items.pop(href, None)
        else:
            path = pathutils.unstrip_path(col.path, True)
            cached.items[href] = self._reading(key, text, path, owner, href)
        cached.token = self._token(folder)

    def _valid(self, col: radicale.storage.BaseCollection) -> list[str]:
        """Owners whose cache of ``col`` is up to date now."""
        folder = col._filesystem_path  # type: ignore[attr-defined]
        token = self._token(folder)
        return [o for (f, o), c in self._cache.items() if f == folder and c.token == token]

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
                path = pathutils.unstrip_path(col.path, True)
                cached = self._state(col, owner)
                out.append(StoredCalendar(path, owner, dict(col.get_meta()), self._listing(cached)))
        return sorted(out, key=lambda c: c.path)

    def _states(self, owner: str) -> list[tuple[str, radicale.storage.BaseCollection, _Cached]]:
        out = []
        with self.storage.acquire_lock("r", owner):
            for col in list(self.storage.discover(f"/{owner}/", depth="1")):
                if not isinstance(col, radicale.storage.BaseCollection) or col.tag != "VCALENDAR":
                    continue
                out.append((pathutils.unstrip_path(col.path, True), col, self._state(col, owner)))
        return sorted(out, key=lambda c: c[0])

    def events(self, owner: str) -> list[Event]:
        """The owner's events in all calendars, sorted by start then UID (ties: by calendar path,
        then href)."""
        states = self._states(owner)
        if len(states) == 1:
            return [e for _, e in self._events(states[0][2])]
        pairs = [pair for _, _, cached in states for pair in self._events(cached)]
        return [e for _, e in sorted(pairs, key=lambda p: p[0])]

    def readings(self, owner: str) -> list[tuple[StoredCalendar, list[tuple[str, Reading]]]]:
        """Each calendar with its served items' readings (by href): what a snapshot shows."""
        out = []
        for path, col, cached in self._states(owner):
            cal = StoredCalendar(path, owner, dict(col.get_meta()), self._listing(cached))
            out.append((cal, self._readings(cached)))
        return out

    # -- items ---------------------------------------------------------------------------------
    def put(self, owner: str, calendar: str, href: str, ics: str) -> str | None:
        """Create or replace one item, validated as Radicale validates a PUT; returns the text as
        stored (what reads give; None if Radicale will not serve it)."""
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
            self._state(col, owner)  # up to date before the write, so the write can update it
            valid = self._valid(col)
            uploaded, _ = col.upload(href, item)
            file = os.path.join(col._filesystem_path, href)  # type: ignore[attr-defined]
            text = uploaded.serialize() if pathutils.file_check_size(file, self._max_size) else None
            for o in valid:
                self._update(col, o, href, text, True)
            return text

    def delete(self, owner: str, calendar: str, href: str) -> None:
        with self.storage.acquire_lock("w", owner):
            col = next(iter(self.storage.discover(calendar)), None)
            if isinstance(col, radicale.storage.BaseCollection):
                self._state(col, owner)
                valid = self._valid(col)
                col.delete(href)
                for o in valid:
                    self._update(col, o, href, None, True)

    # -- whole state ---------------------------------------------------------------------------
    def replace_all(
        self, owners: Iterable[str], calendars: Iterable[tuple[str, str, Mapping[str, str], list[tuple[str, str]]]]
    ) -> None:
        """Delete every owner's collections, then create ``(owner, path, props, items)``."""
        self._cache.clear()
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
