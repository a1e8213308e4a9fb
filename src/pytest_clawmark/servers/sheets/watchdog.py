"""The last backstop: interrupt a spreadsheet function that runs away inside the library.

Why: the recalculation budget (:mod:`.budget`) is checked at every call of a spreadsheet function,
so a formula that loops through functions (a LAMBDA recursion, MAKEARRAY) always stops. What it
cannot stop is *one* library function that loops for a long time in Python on its own (a
financial function iterating over a billion periods, say). The known ones are guarded
(:mod:`.guards`); for the unknown ones, the worker thread arms this watchdog around each formula
evaluation, and a formula still running a second after its deadline gets an asynchronous
:class:`FormulaInterrupted` raised in its thread (CPython's ``PyThreadState_SetAsyncExc``, the
documented way to interrupt another thread). The formula shows ``#ERROR!`` and its compilation is
dropped from the cache (its internal state may be broken).

It cannot interrupt a single long call into C (a huge factorial, a huge ``str * n``); those are
exactly what the guards refuse up front.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from .budget import CalculationLimit
from .limits import FORMULA_DEADLINE_S

GRACE_S = 1.0
"""How long after a formula's deadline the watchdog waits for the budget's own check to stop it."""
TICK_S = 0.1


class FormulaInterrupted(CalculationLimit):
    """Raised asynchronously in a worker thread whose formula outlived its deadline."""

    def __init__(self, reason: str = f"the formula ran longer than {FORMULA_DEADLINE_S:g} s") -> None:
        super().__init__(reason)


def _raise_in(thread_id: int, exc: type[BaseException] | None) -> None:
    """Schedule ``exc`` in the thread (``None`` cancels a scheduled one)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc else None)


class Watchdog:
    """Armed by a thread around a formula; fires at most once per arming."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._armed: dict[int, list[float | bool]] = {}  # thread id → [deadline, fired]
        self._thread: threading.Thread | None = None

    @contextmanager
    def armed(self, deadline: float) -> Iterator[None]:
        """Interrupt the calling thread if the block is still running at ``deadline`` + grace."""
        me = threading.get_ident()
        with self._lock:
            self._armed[me] = [deadline + GRACE_S, False]
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="clawmark-sheets-watchdog", daemon=True)
                self._thread.start()
        try:
            yield
        finally:
            with self._lock:
                entry = self._armed.pop(me, None)
                if entry is not None and entry[1]:
                    _raise_in(me, None)  # fired but not delivered yet: never let it escape the block

    def _watch(self) -> None:
        while True:
            time.sleep(TICK_S)
            now = time.monotonic()
            with self._lock:
                for thread_id, entry in self._armed.items():
                    if not entry[1] and now > float(entry[0]):
                        entry[1] = True
                        _raise_in(thread_id, FormulaInterrupted)


WATCHDOG = Watchdog()
