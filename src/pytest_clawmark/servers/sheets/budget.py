"""The recalculation budget: what one recalculation of one spreadsheet may spend.

Why: formulas are agent-written code that the server runs. Each recalculation gets a
:class:`Budget` of *steps* (formulas and function calls), *cells* (array cells built or produced)
and *characters* (text produced), all counted in deterministic units so the same world always
computes the same values, plus a wall-clock backstop (:data:`~.limits.RECALC_DEADLINE_S`) for
costs the units fail to foresee. Spending past a budget raises :class:`CalculationLimit`; the
calculator turns the formula being evaluated, and every formula after it, into ``#ERROR!``
("calculation limit"), the way Google shows a calculation that hit its limits.

The current budget travels in a context variable because the spending happens deep inside the
``formulas`` library, in the guarded functions of :mod:`.guards`.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from .limits import FORMULA_DEADLINE_S, RECALC_CELLS, RECALC_CHARS, RECALC_DEADLINE_S, RECALC_STEPS


class CalculationLimit(BaseException):
    """A recalculation spent its budget.

    A ``BaseException`` on purpose: the ``formulas`` library (and schedula under it) turns every
    ``Exception`` raised by a spreadsheet function into ``#VALUE!``; a spent budget must instead
    unwind the whole formula.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Budget:
    """What is left of one recalculation's allowance."""

    steps: int = RECALC_STEPS
    cells: int = RECALC_CELLS
    chars: int = RECALC_CHARS
    deadline: float = field(default_factory=lambda: time.monotonic() + RECALC_DEADLINE_S)
    """When the recalculation must be done (:meth:`restart` moves it)."""
    formula_deadline: float = float("inf")
    """When the formula being compiled or evaluated must be done (see :meth:`formula`)."""
    spent: str | None = None
    """Why the budget ran out (None while it lasts)."""
    timed_out: bool = False
    """A wall-clock backstop (not a deterministic budget) decided a value."""

    def restart(self) -> None:
        """Start the wall-clock backstop now (a calculator may be made a while before it runs)."""
        if self.spent is None:
            self.deadline = time.monotonic() + RECALC_DEADLINE_S

    def fail(self, reason: str) -> None:
        """Mark the budget spent and unwind the current formula."""
        if self.spent is None:
            self.spent = reason
        raise CalculationLimit(self.spent)

    def check(self) -> None:
        """Unwind if the budget is already spent or a wall-clock backstop has passed."""
        if self.spent is not None:
            raise CalculationLimit(self.spent)
        now = time.monotonic()
        if now > self.formula_deadline:
            # One formula ran away: it shows the limit, the rest of the recalculation goes on.
            self.timed_out = True
            raise CalculationLimit(f"the formula ran longer than {FORMULA_DEADLINE_S:g} s")
        if now > self.deadline:
            self.timed_out = True
            self.fail(f"the recalculation ran longer than {RECALC_DEADLINE_S:g} s")

    @contextmanager
    def formula(self) -> Iterator[None]:
        """Give the block (one formula's compilation or evaluation) its own time backstop."""
        self.formula_deadline = time.monotonic() + FORMULA_DEADLINE_S
        try:
            yield
        finally:
            self.formula_deadline = float("inf")

    def spend_steps(self, n: int) -> None:
        self.steps -= n
        if self.steps < 0:
            self.fail(f"more than {RECALC_STEPS} calculation steps")

    def spend_cells(self, n: int) -> None:
        self.cells -= n
        if self.cells < 0:
            self.fail(f"more than {RECALC_CELLS} array cells")

    def spend_chars(self, n: int) -> None:
        self.chars -= n
        if self.chars < 0:
            self.fail(f"more than {RECALC_CHARS} characters of text")


_CURRENT: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("clawmark_sheets_budget", default=None)


def current() -> Budget | None:
    """The budget of the recalculation running in this thread (None outside one)."""
    return _CURRENT.get()


@contextmanager
def spending(budget: Budget) -> Iterator[Budget]:
    """Make ``budget`` the current one for the duration of the block."""
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)
