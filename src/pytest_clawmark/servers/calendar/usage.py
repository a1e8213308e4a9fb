"""How much an account stores: calendars, items and bytes, read from Radicale's folder.

Why from the file system: Radicale's ``multifilesystem`` storage keeps one file per item in one
folder per collection (``collection-root/<owner>/<calendar>/<href>``, metadata in dot-files), so a
``scandir`` gives exact counts and sizes in a millisecond, where asking the storage API would load
and parse every item. The guard asks before each write that could grow the account; concurrent
writes may overshoot a limit by at most one item each, which is harmless.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["AccountUsage", "account_usage", "item_size"]


@dataclass(frozen=True)
class AccountUsage:
    calendars: int = 0
    items: int = 0
    bytes: int = 0
    items_in: dict[str, int] = field(default_factory=dict)  # calendar name -> items


def _visible(entry: os.DirEntry[str]) -> bool:
    return not entry.name.startswith(".")


def account_usage(collection_root: Path, owner: str) -> AccountUsage:
    """Usage of ``/<owner>/`` (zero for an owner with no folder)."""
    home = collection_root / owner
    calendars = items = size = 0
    items_in: dict[str, int] = {}
    try:
        collections = [e for e in os.scandir(home) if _visible(e) and e.is_dir(follow_symlinks=False)]
    except (OSError, ValueError):  # ValueError: a NUL in the path
        return AccountUsage()
    for collection in collections:
        calendars += 1
        count = 0
        try:
            with os.scandir(collection.path) as entries:
                for entry in entries:
                    if _visible(entry) and entry.is_file(follow_symlinks=False):
                        count += 1
                        size += entry.stat(follow_symlinks=False).st_size
        except (OSError, ValueError):  # ValueError: a NUL in the path
            continue
        items += count
        items_in[collection.name] = count
    return AccountUsage(calendars, items, size, items_in)


def item_size(collection_root: Path, owner: str, calendar: str, href: str) -> int | None:
    """Size of a stored item, or None if there is none (a PUT that creates rather than replaces)."""
    try:
        return (collection_root / owner / calendar / href).stat().st_size
    except (OSError, ValueError):
        return None
