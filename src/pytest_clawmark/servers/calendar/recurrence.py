"""How many occurrences a time-range query would make Radicale iterate: a cheap estimate.

Why: Radicale answers a time-range REPORT by iterating each recurring event's occurrences from its
DTSTART up to the end of the range (dateutil, ~6 µs an occurrence). Twenty endless daily events
starting in 1970, queried in 2099, took 6 s; a calendar full of them would take many minutes —
holding Radicale's storage lock, which the admin plane's writes wait for. Before such a REPORT
reaches Radicale, the guard reads the calendar's stored items (raw bytes: a regex scan of at most
the account's quota, milliseconds) and estimates the occurrences from each RRULE's frequency,
interval, BY-lists and COUNT/UNTIL; over :data:`~.limits.MAX_QUERY_OCCURRENCES` the query is refused.
The estimate is an upper bound in spirit (every BY-list value counts as a multiplier).
Counts are remembered per item file and totals per folder (see :func:`estimated_occurrences`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from .storage import write_generation

__all__ = ["estimated_occurrences", "item_occurrences"]

_FOLD = re.compile(rb"\r?\n[ \t]")
_RULE = re.compile(rb"^(?:RRULE|EXRULE)[^:\r\n]*:([^\r\n]*)", re.MULTILINE | re.IGNORECASE)
_START = re.compile(rb"^DTSTART[^:\r\n]*:(\d{4})", re.MULTILINE | re.IGNORECASE)
_RDATE = re.compile(rb"^RDATE[^:\r\n]*:([^\r\n]*)", re.MULTILINE | re.IGNORECASE)
_PER_YEAR = {
    "SECONDLY": 31_622_400,
    "MINUTELY": 527_040,
    "HOURLY": 8784,
    "DAILY": 366,
    "WEEKLY": 53,
    "MONTHLY": 12,
    "YEARLY": 1,
}
_RANK = {"SECONDLY": 0, "MINUTELY": 1, "HOURLY": 2, "DAILY": 3, "WEEKLY": 4, "MONTHLY": 5, "YEARLY": 6}
_EXPANDS_ABOVE = {
    "BYSECOND": 0,
    "BYMINUTE": 1,
    "BYHOUR": 2,
    "BYDAY": 3,
    "BYMONTHDAY": 4,
    "BYYEARDAY": 5,
    "BYWEEKNO": 5,
    "BYMONTH": 5,
}
"""RFC 5545's table: a BY part adds occurrences (rather than filtering them) when the frequency
is coarser than its unit (BYDAY expands a weekly rule, but filters a daily one)."""


def item_occurrences(data: bytes, until_year: int) -> int:
    """Candidate occurrences Radicale iterates for one stored item up to ``until_year`` (0 for a
    one-off event): from DTSTART on, per the frequency and interval, times every expanding BY list,
    capped by COUNT when no BY part filters (filters make the search longer, not shorter)."""
    text = _FOLD.sub(b"", data)
    start = _START.search(text)
    start_year = int(start.group(1)) if start else until_year
    total = sum(len(m.group(1).split(b",")) for m in _RDATE.finditer(text))
    for match in _RULE.finditer(text):
        parts = {
            k.decode("ascii", "replace"): v
            for k, _, v in (p.partition(b"=") for p in match.group(1).upper().split(b";"))
        }
        freq = parts.get("FREQ", b"").decode("ascii", "replace")
        rank = _RANK.get(freq, 3)
        interval = int(parts["INTERVAL"]) if parts.get("INTERVAL", b"").isdigit() else 1
        last_year = until_year
        until = parts.get("UNTIL", b"")[:4]
        if until.isdigit():
            last_year = min(last_year, int(until))
        count = _PER_YEAR.get(freq, 366) * max(0, last_year - start_year + 1) // max(1, interval)
        filters = False
        for name, above in _EXPANDS_ABOVE.items():
            values = parts.get(name)
            if values:
                if rank > above:
                    count *= len(values.split(b","))
                else:
                    filters = True
        if parts.get("COUNT", b"").isdigit() and not filters:
            count = min(count, int(parts["COUNT"]))
        total += count
    return total


_folder_totals: dict[tuple[str, int], tuple[tuple[int, tuple[int, ...]], int]] = {}
_item_counts: dict[str, tuple[tuple[int, ...], int, int]] = {}  # path -> (stat key, until_year, count)


def _stat_key(st: os.stat_result) -> tuple[int, ...]:
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _folder_token(folder: Path) -> tuple[int, tuple[int, ...]]:
    """Changes whenever Radicale in this process writes (the storage's write generation) or the
    folder's entries change (its stat): the rule of the admin plane's cache (see ``.store``)."""
    try:
        here = _stat_key(os.stat(folder))
    except (OSError, ValueError):
        here = ()
    # the storage folder is the parent of ``collection-root``, two levels above a calendar
    return (write_generation(str(folder.parent.parent.parent)), here)


def _folder_occurrences(folder: Path, until_year: int, stop_at: int) -> int:
    """The folder's items' occurrences, counting no further than ``stop_at``; each item's count
    is remembered by its file's stat (inode, size, mtime, ctime), the folder's total by its token."""
    token = _folder_token(folder)
    known = _folder_totals.get((str(folder), until_year))
    if known is not None and known[0] == token:
        return known[1]
    total = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if entry.name.startswith(".") or not entry.is_file(follow_symlinks=False):
            continue
        try:
            key = _stat_key(entry.stat(follow_symlinks=False))
            cached = _item_counts.get(entry.path)
            if cached is not None and cached[0] == key and cached[1] == until_year:
                count = cached[2]
            else:
                with open(entry.path, "rb") as f:
                    count = item_occurrences(f.read(), until_year)
                _item_counts[entry.path] = (key, until_year, count)
        except OSError:
            continue
        total += count
        if total > stop_at:
            return total
    _folder_totals[(str(folder), until_year)] = (token, total)
    return total


def estimated_occurrences(collections: Iterable[Path], until_year: int, stop_at: int) -> int:
    """Occurrences over every item of ``collections`` (folders of Radicale's storage), counting
    no further than ``stop_at`` (only whether the result exceeds ``stop_at`` is meant to matter).

    Remembered between queries, so a REPORT on a calendar of thousands of items reads no files
    when nothing changed."""
    total = 0
    for folder in collections:
        total += _folder_occurrences(Path(folder), until_year, stop_at - total)
        if total > stop_at:
            return total
    return total
