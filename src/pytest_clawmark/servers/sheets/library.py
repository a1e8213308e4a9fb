"""The ``formulas`` library, loaded once per process, with our clock and guards installed.

Why a module of its own: two layers use the library — :mod:`.calc` evaluates formulas with it and
:mod:`.refs` tokenizes them with the same parser (so that moving rows rewrites exactly the
references the evaluator reads). Both depend on this module; neither depends on the other, and
the store, which uses both, sits above them.

Why lazily: importing the library's function tables (and numpy, schedula, regex under them)
costs about a second, once per process. A world whose sheets hold no formula never pays it;
:func:`.calc.warm_up` lets a harness pay it up front. The third-party imports therefore stay
inside :func:`load_library` on purpose.

``TODAY()`` and ``NOW()`` read :data:`CLOCK` — the in-universe clock of the spreadsheet being
computed, set by the calculator around each call — never the wall clock, so a rerun of the same
task computes the same values.
"""

from __future__ import annotations

import collections
import contextvars
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from .guards import install

CLOCK: contextvars.ContextVar[Callable[[], datetime] | None] = contextvars.ContextVar(
    "clawmark_sheets_clock", default=None
)
"""The clock ``TODAY()``/``NOW()`` read while a formula runs (None: a fixed date, never the wall clock)."""


@dataclass(frozen=True)
class Library:
    """The parts of ``formulas`` (and its dependencies) we use, loaded once per process."""

    parser: Any
    Range: type
    EMPTY: Any
    XlError: type
    errors: dict[str, Any]
    np: Any
    DispatcherError: type


_LIBRARY: Library | None = None
_LOCK = threading.Lock()


def _now() -> datetime:
    clock = CLOCK.get()
    return clock() if clock is not None else datetime(2025, 1, 1, tzinfo=timezone.utc)  # never the wall clock


def load_library() -> Library:
    """Import ``formulas`` and install the clock-aware ``TODAY``/``NOW`` (thread-safe, once)."""
    global _LIBRARY
    if _LIBRARY is not None:
        return _LIBRARY
    with _LOCK:
        if _LIBRARY is not None:
            return _LIBRARY
        # Third-party and lazy on purpose (about a second of imports; see the module docstring).
        import numpy as np
        import schedula as sh
        from formulas.functions import COMPILING, get_functions, wrap_func, wrap_impure_func
        from formulas.functions.date import xdate, xtime
        from formulas.functions.operators import OPERATORS
        from formulas.parser import Parser
        from formulas.tokens.operand import Error, Range, XlError

        def xtoday() -> Any:
            d = _now()
            return xdate(d.year, d.month, d.day)

        def xnow() -> Any:
            d = _now()
            return xdate(d.year, d.month, d.day) + xtime(d.hour, d.minute, d.second)

        functions = get_functions()  # the library's own (cached) registry
        for name, fn in (("TODAY", xtoday), ("NOW", xnow)):
            functions[name] = {
                "extra_inputs": collections.OrderedDict([(COMPILING, False)]),
                "function": wrap_impure_func(wrap_func(fn)),
            }
        install(functions, OPERATORS)  # every function and operator spends the recalculation budget
        # schedula logs every failed function node (e.g. an unknown function) with a traceback;
        # those are ordinary spreadsheet errors (#NAME?) here, not faults worth a log line.
        logging.getLogger("schedula.utils.sol").setLevel(logging.CRITICAL)
        _LIBRARY = Library(Parser(), Range, sh.EMPTY, XlError, dict(Error.errors), np, sh.DispatcherError)
        return _LIBRARY


__all__ = ["CLOCK", "Library", "load_library"]
