"""IMAP sequence sets flattened in time proportional to the messages they name.

Why: pymap 0.36 flattens a sequence set by enumerating every range it lists, overlaps included,
so ``FETCH 1:*,1:*,1:*,...`` (thousands of repeats within one command line) enumerates the whole
folder thousands of times on the world's event loop. Merging the ranges first bounds the work by
the folder's size, whatever the client sends. :func:`install` replaces ``SequenceSet.flatten``;
the result is the same set.
"""

from __future__ import annotations

from itertools import chain

from pymap.parsing.specials.sequenceset import SequenceSet

__all__ = ["flatten_merged", "install"]


def flatten_merged(self: SequenceSet, max_value: int) -> frozenset[int]:
    """Every number the set names, up to ``max_value`` (``*`` is ``max_value``)."""
    spans: list[tuple[int, int]] = []
    for elem in self.sequences:
        found = self._get_range(elem, max_value)  # a range, or () when out of bounds
        if found:
            spans.append((found.start, found.stop))  # type: ignore[union-attr]
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, stop in spans:
        if merged and start <= merged[-1][1]:
            if stop > merged[-1][1]:
                merged[-1] = (merged[-1][0], stop)
        else:
            merged.append((start, stop))
    return frozenset(chain.from_iterable(range(a, b) for a, b in merged))


def install() -> None:
    """Point pymap's ``SequenceSet.flatten`` at :func:`flatten_merged` (idempotent)."""
    SequenceSet.flatten = flatten_merged  # type: ignore[method-assign]
