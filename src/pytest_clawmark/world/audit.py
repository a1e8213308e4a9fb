"""The audit log: every request the agent makes to a service, recorded server-side.

Why: checkers and humans need to know what the agent *did*, not only the state it left
(e.g. "the agent read the lab results before deciding"). The log lives in the harness
process, appended to by the servers; the agent plane has no endpoint that writes or deletes
entries, so the agent cannot alter it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class AuditEntry:
    seq: int
    time: float  # wall-clock seconds since the epoch: evidence only, never used in scoring
    service: str
    operation: str  # e.g. "POST /v1/pages", "SMTP DATA", "IMAP FETCH"
    target: str  # the object acted on: page id, mailbox, spreadsheet id, path...
    summary: str  # a short, secret-free summary of the request
    status: str  # "200", "404", "OK", "NO", "250"...

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class AuditLog:
    """An append-only, thread-safe list of :class:`AuditEntry`, shared by a world's services."""

    def __init__(self) -> None:
        self._entries: list[AuditEntry] = []
        self._lock = threading.Lock()
        self._sources: list[Callable[[], None]] = []
        self._pulling = threading.local()

    def add_source(self, pull: Callable[[], None]) -> None:
        """A server that keeps its own log (a service in a container): ``pull()`` records what it
        saw since its last call, and runs before every read, so a read never misses a request."""
        self._sources.append(pull)

    def _pull(self) -> None:
        if not self._sources or getattr(self._pulling, "active", False):
            return
        self._pulling.active = True
        try:
            for pull in list(self._sources):
                pull()
        finally:
            self._pulling.active = False

    def record(self, service: str, operation: str, target: str = "", summary: str = "", status: str = "") -> None:
        with self._lock:
            self._entries.append(
                AuditEntry(len(self._entries) + 1, time.time(), service, operation, target, summary[:500], str(status))
            )

    def replay(self, entries: Any) -> int:
        """Append saved entries (``AuditEntry.to_json`` dicts, from a day's ``audit.jsonl``) that
        follow the log's end, as they were (``clawmark recheck``); returns how many."""
        added = 0
        with self._lock:
            for data in entries:
                entry = AuditEntry(**data)
                if entry.seq == len(self._entries) + 1:
                    self._entries.append(entry)
                    added += 1
        return added

    def entries(self, service: str | None = None, since: int = 0) -> list[AuditEntry]:
        """Entries with ``seq > since``, optionally of one service, in recording order."""
        self._pull()
        with self._lock:
            return [e for e in self._entries if e.seq > since and (service is None or e.service == service)]

    @property
    def last_seq(self) -> int:
        self._pull()
        with self._lock:
            return len(self._entries)
