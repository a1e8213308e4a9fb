"""The in-universe clock's origin, shared by the embedded world and by servers alone in containers.

Why its own module: the servers (``servers.standalone`` in a container) and the world's services
must agree on the time before the first turn, and the servers must not import upward from the
world package to learn it.
"""

from __future__ import annotations

from datetime import datetime, timezone

WORLD_EPOCH = datetime(2025, 1, 1, tzinfo=timezone.utc)
"""The in-universe time before the first turn (seeding at world start): fixed, never the wall clock."""
