"""IMAP LIST/LSUB patterns matched without backtracking, installed into pymap's ``ListTree``.

Why: pymap 0.36 turns a pattern into a regular expression with one lazy ``.*?`` per wildcard, and
Python's backtracking engine needs exponential time to reject a name: ``LIST "" "*a*a*a*a*b"``
against one 150-character folder name took 7.5 s with four wildcards (measured), a minute with
five, and the whole world's event loop stood still meanwhile.

How: RFC 3501 §6.3.8 wildcards (``*`` matches anything, ``%`` anything but the hierarchy
delimiter) as a bit-parallel automaton: one integer holds every pattern position reached so far,
each character of the name advances all of them at once. Time is the name's length times a few
integer operations, whatever the pattern.
"""

from __future__ import annotations

import re
from typing import Any

from pymap.listtree import ListTree

__all__ = ["GlobPattern", "install"]

_WILDCARD_RUN = re.compile(r"[*%]+")


class GlobPattern:
    """One LIST pattern; :meth:`match` has the interface pymap expects of a compiled regex."""

    def __init__(self, pattern: str, delimiter: str, *, ignore_case: bool = False) -> None:
        self._fold = str.lower if ignore_case else (lambda s: s)
        # A run of wildcards is one wildcard: '*' if the run has any '*', else '%'.
        pattern = _WILDCARD_RUN.sub(lambda m: "*" if "*" in m.group(0) else "%", self._fold(pattern))
        self._delimiter = delimiter
        self._accept = 1 << len(pattern)
        self._star = self._percent = 0
        self._literal: dict[str, int] = {}
        for i, ch in enumerate(pattern):
            if ch == "*":
                self._star |= 1 << i
            elif ch == "%":
                self._percent |= 1 << i
            else:
                self._literal[ch] = self._literal.get(ch, 0) | (1 << i)
        self._wild = self._star | self._percent
        self._start = self._close(1)

    def _close(self, states: int) -> int:
        """Add the positions after every reached wildcard (a wildcard may match nothing)."""
        return states | ((states & self._wild) << 1)  # runs are collapsed: one step suffices

    def match(self, name: str) -> bool:
        states = self._start
        for ch in self._fold(name):
            stay = states & (self._star if ch == self._delimiter else self._wild)
            states = self._close(((states & self._literal.get(ch, 0)) << 1) | stay)
            if not states:
                return False
        return bool(states & self._accept)


def _get_pattern(self: ListTree, query: str) -> tuple[Any, Any]:
    delimiter = self._delimiter  # type: ignore[attr-defined]
    return GlobPattern(query, delimiter), GlobPattern(query, delimiter, ignore_case=True)


def install() -> None:
    """Make pymap's ``ListTree`` match patterns with :class:`GlobPattern` (idempotent)."""
    ListTree._get_pattern = _get_pattern  # type: ignore[method-assign]
