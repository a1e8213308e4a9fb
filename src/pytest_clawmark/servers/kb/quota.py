"""The workspace's stored size, kept up to date as it changes, against its quota.

Why incremental: the quota must be checked before every write, and measuring the whole store
(its snapshot JSON) costs as much as a snapshot. Instead the store tells the ledger which object
it just created or changed; the ledger re-measures that object alone (the length of its snapshot
JSON) or, for the cheap and frequent case of one more id in a ``children``/``rows`` list, adds
the id's length. The total is therefore the snapshot's size up to the few bytes of flags
(``in_trash``) that trashing flips, which are not re-measured.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from . import limits
from .model import to_json

__all__ = ["ID_COST", "SizeLedger"]

ID_COST = len('"00000000-0000-0000-0000-000000000000",')
"""What one more id in a list adds to an object's JSON."""


def measure(obj: Any) -> int:
    return len(json.dumps(to_json(obj), ensure_ascii=False, separators=(",", ":")))


class SizeLedger:
    """Stored size per object id, and their total."""

    def __init__(self) -> None:
        self.sizes: dict[str, int] = {}
        self.total = 0

    def measure(self, *objects: Any) -> None:
        """Record the current size of each object (new or changed)."""
        for obj in objects:
            size = measure(obj)
            self.total += size - self.sizes.get(obj.id, 0)
            self.sizes[obj.id] = size

    def grow(self, object_id: str, ids: int = 1) -> None:
        """``object_id``'s JSON gained ``ids`` ids in a list (a child, a row)."""
        self.sizes[object_id] = self.sizes.get(object_id, 0) + ids * ID_COST
        self.total += ids * ID_COST

    def reset(self, objects: Iterable[Any]) -> None:
        """Measure everything afresh (after a restore)."""
        self.sizes = {}
        self.total = 0
        self.measure(*objects)

    def over_quota(self) -> bool:
        return self.total >= limits.WORKSPACE_QUOTA_BYTES
