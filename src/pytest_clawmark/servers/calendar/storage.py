"""Radicale's ``multifilesystem`` storage, counting its writes (``storage.type`` of every world).

Why: the admin plane keeps the items it has read (text and parsed events) in memory, so that a
checker read or a snapshot of a full calendar does not re-read and re-parse thousands of files.
Every write Radicale makes in this process (an agent's PUT, DELETE, MOVE, MKCALENDAR or
PROPPATCH, and the admin plane's own writes) goes through one of the methods below, which give
the storage folder a new write generation; the admin plane's cache of a collection is trusted
only while that generation and the collection folder's own stat are what they were when it was
filled (see :class:`..store.CalendarStore`).

One more difference, for seeding speed: Radicale cleans the sync history of deleted items after
every write, scanning the whole history folder (O(N) per write, O(N²) to fill a calendar), to drop
entries older than ``storage.max_sync_token_age`` (30 days). Here that clean runs at most once an
hour per collection: an entry may outlive its 30 days by up to an hour, nothing else changes.
Reads: ``get_all`` (what every REPORT, PROPFIND and UID check walks) keeps what ``_get`` gave
for each item in memory, per collection folder, under the same rule as the admin plane's cache:
trusted as a whole while the write generation and the folder's stat are unchanged, otherwise
re-checked item by item by the file's stat (inode, size, mtime, ctime) and re-read where it changed.

And each atomic write goes through a temporary file next to its target rather than a file in a
temporary folder (no mkdir/rmdir per file: three of each per stored item). Otherwise the same
files and the same locks.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import secrets
import time
from collections.abc import Iterator
from typing import IO, Any

from radicale import item as radicale_item
from radicale import pathutils
from radicale.item import filter as radicale_filter
from radicale.storage import multifilesystem

__all__ = ["Collection", "Storage", "write_generation"]

_counter = itertools.count(1)
_generations: dict[str, int] = {}
_history_cleaned: dict[str, float] = {}  # collection folder -> monotonic time of its last clean
HISTORY_CLEAN_INTERVAL = 3600.0  # seconds; Radicale's max_sync_token_age is 30 days


_Fields = tuple[str, str, str, str, str, str, tuple[int, int]]
# per collection folder: (token when filled, {href: (file key, fields or None if not served)})
_items: dict[str, tuple[tuple[int, tuple[int, ...]], dict[str, tuple[tuple[int, ...], _Fields | None]]]] = {}


def _stat_key(path: str) -> tuple[int, ...] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def write_generation(folder: str) -> int:
    """The storage folder's current write generation (changes on every write through Radicale)."""
    return _generations.get(folder, 0)


def _wrote(folder: str) -> None:
    # A fresh value from a shared counter: never equal to one a reader has already seen.
    _generations[folder] = next(_counter)


class Collection(multifilesystem.Collection):
    @contextlib.contextmanager
    def _atomic_write(self, path: str, mode: str = "w", newline: str | None = None) -> Iterator[IO[Any]]:
        """Write ``path`` atomically: a new file (a name Radicale never lists) renamed over it."""
        parent_dir, name = os.path.split(path)
        tmp = os.path.join(parent_dir, f".Radicale.tmp-{secrets.token_hex(8)}-{name}")
        try:
            with open(
                tmp, mode.replace("w", "x"), newline=newline, encoding=None if "b" in mode else self._encoding
            ) as f:
                yield f
                f.flush()
                self._storage._fsync(f)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(tmp)
            raise
        self._storage._sync_directory(parent_dir)

    def _wrote(self) -> None:
        _wrote(self._storage._filesystem_folder)

    def get_all(self) -> Iterator[radicale_item.Item]:
        """The items ``multifilesystem`` yields, in its order, from memory where unchanged."""
        for href, fields in self._entries():
            yield self._item(href, fields)

    def get_filtered(self, filters: Any) -> Iterator[tuple[radicale_item.Item, bool]]:
        """Radicale's own prefilter (``BaseCollection.get_filtered``), on the remembered component
        names and time ranges: only matching items are built."""
        if not self.tag:
            return
        tag, start, end, simple = radicale_filter.simplify_prefilters(filters, self.tag)
        for href, fields in self._entries():
            if tag is not None and tag != fields[5]:
                continue
            istart, iend = fields[6]
            if istart >= end or iend <= start:
                continue
            yield self._item(href, fields), simple and (start <= istart or iend <= end)

    def _item(self, href: str, fields: _Fields) -> radicale_item.Item:
        last_modified, etag, text, uid, name, component_name, time_range = fields
        return radicale_item.Item(
            collection=self,
            href=href,
            last_modified=last_modified,
            etag=etag,
            text=text,
            uid=uid,
            name=name,
            component_name=component_name,
            time_range=time_range,
        )

    def _entries(self) -> list[tuple[str, _Fields]]:
        """(href, fields) of every served item, in ``_list`` order; re-read where changed."""
        folder = self._filesystem_path
        token = (write_generation(self._storage._filesystem_folder), _stat_key(folder) or ())
        cached = _items.get(folder)
        if cached is not None and cached[0] == token:
            entries = cached[1]
        else:
            old = cached[1] if cached is not None else {}
            entries = {}
            for href in self._list():
                path = os.path.join(folder, href)
                key = _stat_key(path)
                if key is None:
                    continue
                known = old.get(href)
                if known is not None and known[0] == key:
                    entries[href] = known
                    continue
                item = self._get(href, verify_href=False)
                fields: _Fields | None = None
                if item is not None and pathutils.file_check_size(path, self._storage._max_resource_size):
                    fields = (
                        str(item.last_modified),
                        item.etag,
                        item.serialize(),
                        item.uid,
                        item.name,
                        item.component_name,
                        item.time_range,
                    )
                entries[href] = (key, fields)
            _items[folder] = (token, entries)
        return [(href, fields) for href, (_, fields) in entries.items() if fields is not None]

    def _clean_history(self) -> None:
        if self._max_sync_token_age < 10 * HISTORY_CLEAN_INTERVAL:  # a short age: clean as Radicale does
            super()._clean_history()
            return
        now = time.monotonic()
        last = _history_cleaned.get(self._filesystem_path)
        if last is not None and now - last < HISTORY_CLEAN_INTERVAL:
            return
        _history_cleaned[self._filesystem_path] = now
        super()._clean_history()

    def upload(self, href: str, item: Any) -> Any:
        try:
            return super().upload(href, item)
        finally:
            self._wrote()

    def delete(self, href: str | None = None) -> None:
        try:
            super().delete(href)
        finally:
            self._wrote()

    def set_meta(self, props: Any) -> None:
        try:
            super().set_meta(props)
        finally:
            self._wrote()


class Storage(multifilesystem.Storage):
    _collection_class = Collection

    def create_collection(self, href: str, items: Any = None, props: Any = None) -> Any:
        try:
            return super().create_collection(href, items, props)
        finally:
            _wrote(self._filesystem_folder)

    def move(self, item: Any, to_collection: Any, to_href: str) -> None:
        try:
            super().move(item, to_collection, to_href)
        finally:
            _wrote(self._filesystem_folder)
