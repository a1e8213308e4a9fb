"""Deterministic identifiers.

Why not ``uuid4``: checker messages and snapshots must be bit-identical when the same seed and the
same agent actions are replayed, so every id derives from a fixed namespace and a per-store
sequence number (objects) or a stable key (users, properties, select options).
"""

from __future__ import annotations

import base64
import hashlib
import re
import uuid
from collections.abc import Container

NAMESPACE = uuid.UUID("6f1c1f0e-9d0c-5b8e-a3c2-6b6c61776d6b")
"""Fixed namespace of every id the kb server mints (never change: ids would shift)."""

_HEX32 = re.compile(r"^[0-9a-fA-F]{32}$")


def object_id(seq: int) -> str:
    """The id of the ``seq``-th object (page, database, data source, block, comment) of a store."""
    return str(uuid.uuid5(NAMESPACE, f"object/{seq}"))


def user_id(key: str) -> str:
    """A user's id, stable across worlds for the same e-mail (or name, for people-as-text)."""
    return str(uuid.uuid5(NAMESPACE, f"user/{key.strip().casefold()}"))


def canonical(raw: object) -> str | None:
    """``raw`` as a dashed lower-case UUID, or None if it is not one.

    Notion accepts ids with or without dashes (and agents copy both from URLs), so both are
    normalised here; anything else is not an id.
    """
    if not isinstance(raw, str):
        return None
    compact = raw.strip().replace("-", "")
    if len(compact) != 32 or not _HEX32.match(compact):
        return None
    c = compact.lower()
    return f"{c[:8]}-{c[8:12]}-{c[12:16]}-{c[16:20]}-{c[20:]}"


def short_id(seed: str, taken: Container[str] = ()) -> str:
    """A short, URL-safe id (property and select-option ids), unique among ``taken``.

    Notion's property ids are short opaque strings; ours are four characters derived from the
    seed so the same schema always gets the same ids.
    """
    for salt in range(1000):
        digest = hashlib.blake2s(f"{seed}#{salt}".encode(), digest_size=6).digest()
        candidate = base64.b32encode(digest).decode("ascii").lower()[: 4 if salt < 100 else 8]
        if candidate != "title" and candidate not in taken:
            return candidate
    raise RuntimeError("could not mint a unique short id")  # pragma: no cover - 1000 collisions
