"""Deterministic chunking of streamed text.

Why split at all: a client that only works when a whole message arrives in one SSE event has
a bug a real provider will expose; small fixed-size pieces exercise delta accumulation.
"""

from __future__ import annotations

from collections.abc import Iterator

PIECE = 48


def pieces(text: str, size: int = PIECE) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]
