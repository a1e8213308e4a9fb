"""The work one agent request may do, counted in cell operations, refused before it is done.

Why: a request is small but what it asks for need not be. One ``batchUpdate`` may carry 10,000
requests that each move every row of a 500,000-cell sheet; one ``batchGet`` may read the same
huge range a thousand times; inserting a row re-parses every formula that might point below it.
Each of those paths calls :func:`charge` with what it is about to do, weighted by what it costs
(:data:`~.limits.WORK_CELL_WRITE` and friends, about a microsecond a unit here); once a request
has spent :data:`~.limits.MAX_REQUEST_WORK`, it is refused with a 400 that says so, and since
every write works on a draft (see :meth:`.store.Store.edit`) nothing has changed.

The count is deterministic (cells, tokens), never time, so whether a request is accepted never
depends on the machine. Admin-plane requests are not metered: the harness is trusted.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import invalid
from .limits import MAX_REQUEST_WORK, WORK_CELL_MOVE, WORK_CELL_READ, WORK_CELL_WRITE, WORK_FORMULA_TOKEN

__all__ = ["WORK_CELL_MOVE", "WORK_CELL_READ", "WORK_CELL_WRITE", "agent_request", "charge", "charge_parse", "metered"]


class _Meter:
    """What is left of one request's work, and the formulas it has parsed already."""

    def __init__(self, limit: int) -> None:
        self.left = limit
        self.parsed: set[str] = set()


_METER: contextvars.ContextVar[_Meter | None] = contextvars.ContextVar("clawmark_sheets_work", default=None)


@contextmanager
def metered(limit: int = MAX_REQUEST_WORK) -> Iterator[None]:
    """Meter the work done inside the block (one agent request)."""
    token = _METER.set(_Meter(limit))
    try:
        yield
    finally:
        _METER.reset(token)


def agent_request() -> bool:
    """True inside an agent request (the storage quota binds the agent, not the harness)."""
    return _METER.get() is not None


def charge(units: int) -> None:
    """Spend ``units`` of the current request's work; refuse the request when it is over."""
    meter = _METER.get()
    if meter is None or units <= 0:
        return
    meter.left -= units
    if meter.left < 0:
        meter.left = 0
        raise invalid(
            f"This request is too large to process: it would take more than {MAX_REQUEST_WORK} units of "
            "work (cells written, moved, cleared or read, formulas parsed). Split it into smaller requests."
        )


def charge_parse(formula: str, tokens: int) -> None:
    """Spend what parsing ``formula`` (of ``tokens`` tokens) costs, once per request: the same
    text again (a formula repeated over a range) is parsed from a cache."""
    meter = _METER.get()
    if meter is None:
        return
    if formula in meter.parsed:
        charge(WORK_CELL_WRITE)
        return
    charge(tokens * WORK_FORMULA_TOKEN)
    meter.parsed.add(formula)
