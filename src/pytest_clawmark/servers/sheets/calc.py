"""Formula evaluation: the ``formulas`` library computes, this module only feeds it cells.

Why this shape (measured on the 2-core CI box):

* ``formulas`` parses and evaluates Excel-grammar formulas with a large, maintained function
  library (SUM, AVERAGE, IF, VLOOKUP, COUNTIF, cross-sheet references...). We never evaluate a
  formula ourselves. But building an ``ExcelModel`` of the whole book per edit costs tens of
  milliseconds and grows with the book, so instead each distinct formula text is compiled
  **once per process** (0.5–1 ms) into a function of its input ranges and called with numpy
  arrays of the current cell values (70–200 µs per call, almost all of it inside the library).
* After an edit only what the edit can reach is recomputed: a new version of a spreadsheet
  keeps the previous version's results except for the edited cells and the formulas that
  (transitively) read them, found through the input ranges recorded at evaluation time.
  Volatile functions (``TODAY``, ``NOW``, ``RAND``, ``INDIRECT``, ``OFFSET``) are always
  recomputed; changes of structure (rows, columns, sheets) recompute everything.
* Importing the library's function tables costs about a second, once per process, so
  :mod:`.library` imports it lazily — a world whose sheets hold no formula never pays it — and
  :func:`warm_up` lets a harness pay it up front, outside any timed section.
* Values are computed lazily and memoized per spreadsheet *version* (every committed edit makes a
  new version), in dependency order with an explicit stack, so a 5,000-row running balance does
  not hit Python's recursion limit, and cycles become ``#REF!`` as in Google Sheets.
* ``TODAY()`` and ``NOW()`` read the world's in-universe clock, never the wall clock, so a rerun
  of the same task computes the same values.
* Formulas are agent-written code. Each recalculation runs under a :class:`~.budget.Budget`
  (steps, array cells, text) that :mod:`.guards` enforces inside the library; formulas the budget
  does not reach show ``#ERROR!`` ("calculation limit"). :meth:`Calculator.evaluate_all`
  evaluates every formula in one fixed order (sheets, rows, columns), so when a budget runs out
  it always runs out at the same cell, and a version whose budget ran out is never reused: the
  values are the same whoever reads them, in whatever order.
"""

from __future__ import annotations

import bisect
import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .a1 import A1Ref, parse_a1
from .budget import Budget, CalculationLimit, spending
from .complexity import formula_steps, measure, within_limits
from .library import CLOCK, load_library
from .limits import FORMULA_CACHE_UNITS, MAX_FORMULA_INPUT_CELLS, MAX_TEXT_RESULT_CHARS
from .render import ErrorValue, Value
from .watchdog import WATCHDOG, FormulaInterrupted

if TYPE_CHECKING:  # annotations only: the store builds calculators, a calculator never builds a store
    from .store import Sheet, Spreadsheet

CIRCULAR = ErrorValue("#REF!")
PARSE_ERROR = ErrorValue("#ERROR!")
NAME_ERROR = ErrorValue("#NAME?")
VALUE_ERROR = ErrorValue("#VALUE!")
NUM_ERROR = ErrorValue("#NUM!")
TOO_COMPLEX = ErrorValue("#ERROR!", "Formula too complex to calculate (see the formula limits).")
TEXT_TOO_LONG = ErrorValue("#VALUE!", f"Text result is longer than the limit of {MAX_TEXT_RESULT_CHARS} characters.")
MAX_ARRAY_CELLS = MAX_FORMULA_INPUT_CELLS
"""Bounded ranges bigger than this are clipped to the sheet's data (a guard, not a semantic)."""
DIRTY_BUDGET = 200_000
"""Dependency checks an incremental update may spend before recomputing everything instead."""
WIDE = 64
"""Input ranges wider than this many columns are indexed as one rectangle, not per column."""
INF = 1 << 40
_VOLATILE_RE = re.compile(r"\b(TODAY|NOW|RAND|RANDBETWEEN|RANDARRAY|INDIRECT|OFFSET)\s*\(", re.IGNORECASE)


def warm_up() -> None:
    """Pay the one-off import and first-compile cost now (about a second) instead of mid-task."""
    FORMULAS.get("=SUM(A1:A2)+IF(A1>0,1,0)")


def limit_error(reason: str) -> ErrorValue:
    """What a formula shows when its recalculation hit a calculation limit."""
    return ErrorValue("#ERROR!", f"Calculation limit reached: {reason}.")


@dataclass(frozen=True)
class Compiled:
    """A compiled formula: a function of its input ranges, in the order it takes them."""

    fn: Any
    inputs: tuple[A1Ref | None, ...]  # None: a name we cannot resolve (named ranges) → #NAME?
    volatile: bool
    lock: Any  # a compiled function keeps per-call state: one caller at a time (worlds are threads)
    cost: tuple[int, int, int] = (0, 0, 0)
    """(steps, cells, characters) compiling spent: constant parts are computed at compile time,
    and every use of a cached compilation spends them again, so a value never depends on what
    happened to be in the cache."""


class FormulaCache:
    """Compiled formulas by text, shared by every spreadsheet of every world in the process.

    Shared because seeded tasks repeat the same formulas trial after trial; safe because each
    compiled function is called under its own lock. Bounded by an estimate of memory rather than
    by a count: a compiled formula costs about 30 KB plus 5 KB per token, so the cache holds at
    most :data:`~.limits.FORMULA_CACHE_UNITS` units (tokens, plus a fixed part per formula) and
    forgets the oldest compilations first.
    """

    MAX_ENTRIES = 50_000

    def __init__(self, capacity: int = FORMULA_CACHE_UNITS) -> None:
        self._compiled: dict[str, Compiled | ErrorValue] = {}
        self._units: dict[str, int] = {}
        self._total = 0
        self.capacity = capacity
        self._lock = threading.Lock()

    def get(self, formula: str) -> Compiled | ErrorValue:
        """The compilation of ``formula`` (compiled now if needed; formulas over the complexity
        limits are never handed to the library)."""
        found = self._compiled.get(formula)
        if found is None:
            with self._lock:
                found = self._compiled.get(formula)
                if found is None:
                    found, cacheable = self._compile(formula)
                    if cacheable:
                        self._remember(formula, found)
        return found

    def clear(self) -> None:
        """Forget every compilation (benchmarks measure cold compiles)."""
        with self._lock:
            self._compiled.clear()
            self._units.clear()
            self._total = 0

    def forget(self, formula: str) -> None:
        """Drop a compilation (one interrupted mid-call may hold broken internal state)."""
        with self._lock:
            if self._compiled.pop(formula, None) is not None:
                self._total -= self._units.pop(formula, 0)

    def _remember(self, formula: str, found: Compiled | ErrorValue) -> None:
        units = 8 + measure(formula).tokens + len(formula) // 1000
        self._compiled[formula] = found
        self._units[formula] = units
        self._total += units
        while (self._total > self.capacity or len(self._compiled) > self.MAX_ENTRIES) and len(self._compiled) > 1:
            oldest = next(iter(self._compiled))
            del self._compiled[oldest]
            self._total -= self._units.pop(oldest, 0)

    @staticmethod
    def _compile(formula: str) -> tuple[Compiled | ErrorValue, bool]:
        """(the compilation or the error it gives, whether that answer may be cached)."""
        if not within_limits(formula):
            return TOO_COMPLEX, True
        lib = load_library()
        budget = Budget()
        try:
            with spending(budget), budget.formula(), WATCHDOG.armed(budget.formula_deadline):
                fn = lib.parser.ast(formula)[1].compile()
        except CalculationLimit:
            # Compiling alone exceeds a whole recalculation's budget: always, unless it was the
            # wall-clock backstop (that answer depends on the machine: not cached).
            return limit_error(budget.spent or "compiling the formula"), not budget.timed_out
        except lib.DispatcherError as exc:
            return (NAME_ERROR if isinstance(getattr(exc, "ex", None), NotImplementedError) else PARSE_ERROR), True
        except Exception:
            return PARSE_ERROR, True
        inputs: list[A1Ref | None] = []
        for name in fn.inputs:
            try:
                ref = parse_a1(str(name))
            except Exception:
                ref = None
            inputs.append(None if ref is None or ref.sheet_only else ref)
        fresh = Budget()
        cost = (fresh.steps - budget.steps, fresh.cells - budget.cells, fresh.chars - budget.chars)
        return Compiled(fn, tuple(inputs), bool(_VOLATILE_RE.search(formula)), threading.Lock(), cost), True


FORMULAS = FormulaCache()

Key = tuple[int, int, int]  # (sheetId, row, col)
Rect = tuple[int, int, int, int, int]  # (sheetId, row0, col0, row1, col1), half-open; INF: open


class Calculator:
    """The formula values of one version of a spreadsheet, computed on demand and memoized.

    Given the calculator of an earlier version (``base``) and the cells edited since
    (``changed``), it starts from the earlier results minus everything the edits can reach —
    unless that version ran out of budget: then everything is recomputed, so that which cells
    hit the limit never depends on the history of edits.
    """

    def __init__(self, ss: Spreadsheet, base: Calculator | None = None, changed: set[Key] | None = None) -> None:
        self.ss = ss
        self.cache = FORMULAS
        self.budget = Budget()
        self.memo: dict[Key, Value] = {}
        self._rects: dict[Key, list[Rect]] = {}  # the input rectangles of every evaluated formula
        self._volatile: set[Key] = set()
        self._sheets: dict[int, Sheet] = {s.sheet_id: s for s in ss.sheets}
        self._index: dict[int, dict[int, list[int]]] | None = None
        self._extent: dict[int, tuple[int, int]] = {}
        self._arrays: dict[tuple[int, int, int, int, int], Any] = {}
        self._dependents: (
            tuple[dict[Key, list[Key]], dict[tuple[int, int], list[tuple[int, int, Key]]], list[tuple[Rect, Key]]]
            | None
        ) = None
        if base is not None and changed is not None and base.memo and not base.limited:
            dirty = base._reach(changed)
            if dirty is not None:
                self.memo = {k: v for k, v in base.memo.items() if k not in dirty}
                self._rects = {k: r for k, r in base._rects.items() if k not in dirty}

    # -- incremental recomputation -----------------------------------------------------------
    def _dependents_index(
        self,
    ) -> tuple[dict[Key, list[Key]], dict[tuple[int, int], list[tuple[int, int, Key]]], list[tuple[Rect, Key]]]:
        """Who reads what: single cells, per-column row spans, and wide rectangles."""
        if self._dependents is None:
            single: dict[Key, list[Key]] = {}
            by_col: dict[tuple[int, int], list[tuple[int, int, Key]]] = {}
            wide: list[tuple[Rect, Key]] = []
            for key, rects in self._rects.items():
                for rect in rects:
                    sid, r0, c0, r1, c1 = rect
                    if r1 - r0 == 1 and c1 - c0 == 1:
                        single.setdefault((sid, r0, c0), []).append(key)
                    elif c1 - c0 <= WIDE:
                        for c in range(c0, c1):
                            by_col.setdefault((sid, c), []).append((r0, r1, key))
                    else:
                        wide.append((rect, key))
            self._dependents = (single, by_col, wide)
        return self._dependents

    def _reach(self, changed: set[Key]) -> set[Key] | None:
        """The edited cells plus every formula that reads them, transitively (and the volatile
        ones); None when that costs more than recomputing everything."""
        single, by_col, wide = self._dependents_index()
        work = list(changed | self._volatile)
        dirty = set(work)
        budget = DIRTY_BUDGET
        while work:
            sid, r, c = cell = work.pop()
            found = list(single.get(cell, ()))
            spans = by_col.get((sid, c), ())
            budget -= len(spans) + len(wide) + 1
            if budget < 0:
                return None
            found += [k for r0, r1, k in spans if r0 <= r < r1]
            found += [k for (ws, r0, c0, r1, c1), k in wide if ws == sid and r0 <= r < r1 and c0 <= c < c1]
            for k in found:
                if k not in dirty:
                    dirty.add(k)
                    work.append(k)
        return dirty

    # -- public ------------------------------------------------------------------------------
    @property
    def limited(self) -> bool:
        """True when this version's recalculation ran out of budget (or a formula out of time):
        such a version is never the base of the next one."""
        return self.budget.spent is not None or self.budget.timed_out

    def value(self, sheet: Sheet, row: int, col: int) -> Value:
        key = (sheet.sheet_id, row, col)
        if key not in self.memo:
            self._evaluate(key)
        return self.memo[key]

    def evaluate_all(self) -> None:
        """Compute every formula not computed yet, sheet by sheet, row by row, column by column.

        The fixed order is what makes a spent budget deterministic; the arrays built on the way
        are dropped afterwards (a committed version keeps only its values)."""
        self.budget.restart()
        for sheet in self.ss.sheets:
            sid = sheet.sheet_id
            for r, c in sorted(k for k, cell in sheet.cells.items() if cell.formula is not None):
                if (sid, r, c) not in self.memo:
                    self._evaluate((sid, r, c))
        self._arrays.clear()
        self._extent.clear()
        self._index = None

    # -- dependency walk ---------------------------------------------------------------------
    def _formula_index(self) -> dict[int, dict[int, list[int]]]:
        """Per sheet, per column, the sorted rows holding formulas (for range → formula lookups)."""
        if self._index is None:
            index: dict[int, dict[int, list[int]]] = {}
            for s in self.ss.sheets:
                cols: dict[int, list[int]] = {}
                for (r, c), cell in s.cells.items():
                    if cell.formula is not None:
                        cols.setdefault(c, []).append(r)
                for rows in cols.values():
                    rows.sort()
                index[s.sheet_id] = cols
            self._index = index
        return self._index

    def _bounds(self, host: Sheet, ref: A1Ref) -> tuple[Sheet, int, int, int, int] | None:
        sheet = host if ref.sheet is None else self.ss.sheet_by_title(ref.sheet)
        if sheet is None:
            return None
        if sheet.sheet_id not in self._extent:
            self._extent[sheet.sheet_id] = sheet.extent()
        ext_rows, ext_cols = self._extent[sheet.sheet_id]
        row0, col0 = ref.row0 or 0, ref.col0 or 0
        row1 = ref.row1 if ref.row1 is not None else max(min(ext_rows, sheet.row_count), row0 + 1)
        col1 = ref.col1 if ref.col1 is not None else max(min(ext_cols, sheet.column_count), col0 + 1)
        if (row1 - row0) * (col1 - col0) > MAX_ARRAY_CELLS:
            row1 = max(min(row1, ext_rows), row0 + 1)
            col1 = max(min(col1, ext_cols), col0 + 1)
        return sheet, row0, col0, row1, col1

    def _deps(self, key: Key, compiled: Compiled) -> list[Key]:
        """Formula cells the formula at ``key`` reads; records its input rectangles on the way."""
        host = self._sheets[key[0]]
        index = self._formula_index()
        deps: list[Key] = []
        rects: list[Rect] = []
        if compiled.volatile:
            self._volatile.add(key)
        for ref in compiled.inputs:
            if ref is None:
                continue
            b = self._bounds(host, ref)
            if b is None:
                continue
            sheet, row0, col0, row1, col1 = b
            rects.append((
                sheet.sheet_id, row0, col0,
                INF if ref.row1 is None else row1,
                INF if ref.col1 is None else col1,
            ))  # fmt: skip
            columns = index.get(sheet.sheet_id, {})
            wanted = range(col0, col1) if col1 - col0 < len(columns) else sorted(c for c in columns if col0 <= c < col1)
            for c in wanted:
                rows = columns.get(c)
                if rows:
                    lo = bisect.bisect_left(rows, row0)
                    hi = bisect.bisect_left(rows, row1)
                    deps.extend((sheet.sheet_id, r, c) for r in rows[lo:hi])
        self._rects[key] = rects
        return deps

    def _evaluate(self, root: Key) -> None:
        """Depth-first, with an explicit stack: dependencies first, cycles become #REF!."""
        memo = self.memo
        stack: list[tuple[Key, Any, Any]] = []
        on_path: set[Key] = set()

        def push(key: Key) -> None:
            sheet = self._sheets[key[0]]
            cell = sheet.cells.get((key[1], key[2]))
            if cell is None or cell.formula is None:
                memo[key] = None if cell is None else cell.value
                return
            compiled = self._compiled(cell.formula)
            if isinstance(compiled, ErrorValue):
                memo[key] = compiled
                return
            stack.append((key, compiled, iter(self._deps(key, compiled))))
            on_path.add(key)

        push(root)
        while stack:
            key, compiled, deps = stack[-1]
            descended = False
            for dep in deps:
                if dep in memo:
                    continue
                if dep in on_path:
                    memo[key] = CIRCULAR
                    break
                push(dep)
                descended = True
                break
            if descended:
                continue
            stack.pop()
            on_path.discard(key)
            if key not in memo:
                memo[key] = self._call(key, compiled)

    # -- calling the library -----------------------------------------------------------------
    def _compiled(self, formula: str) -> Compiled | ErrorValue:
        """The formula's compilation, its cost spent from the budget (or the limit error)."""
        budget = self.budget
        try:
            budget.check()
            budget.spend_steps(formula_steps(formula))
            compiled = self.cache.get(formula)
            if isinstance(compiled, Compiled):
                steps, cells, chars = compiled.cost
                budget.spend_steps(steps)
                budget.spend_cells(cells)
                budget.spend_chars(chars)
        except CalculationLimit as exc:
            return limit_error(exc.reason)
        return compiled

    def _array(self, host: Sheet, ref: A1Ref | None) -> Any:
        lib = load_library()
        b = self._bounds(host, ref) if ref is not None else None
        if b is None:
            err = lib.errors["#REF!" if ref is not None else "#NAME?"]
            return lib.np.asarray([[err]], dtype=object)
        sheet, row0, col0, row1, col1 = b
        cache_key = (sheet.sheet_id, row0, col0, row1, col1)
        arr = self._arrays.get(cache_key)
        if arr is not None:
            return arr
        area = (row1 - row0) * (col1 - col0)
        self.budget.spend_cells(area // 16 + 2 * min(area, len(sheet.cells)))  # filling it, then reading the filled
        arr = lib.np.empty((row1 - row0, col1 - col0), dtype=object)
        arr.fill(lib.EMPTY)
        for r, c, cell in sheet.cells_in(row0, col0, row1, col1):
            v = cell.value if cell.formula is None else self.memo.get((sheet.sheet_id, r, c))
            if v is None:
                continue
            if isinstance(v, ErrorValue):
                v = lib.errors.get(str(v), lib.errors["#VALUE!"])
            arr[r - row0, c - col0] = v
        self._arrays[cache_key] = arr
        return arr

    def _call(self, key: Key, compiled: Compiled) -> Value:
        lib = load_library()
        host = self._sheets[key[0]]
        token = CLOCK.set(self.ss.clock)
        try:
            with spending(self.budget):
                self.budget.check()
                args = [self._array(host, ref) for ref in compiled.inputs]
                with compiled.lock, self.budget.formula(), WATCHDOG.armed(self.budget.formula_deadline):
                    result = compiled.fn(*args)
        except FormulaInterrupted as exc:
            cell = host.cells.get((key[1], key[2]))
            if cell is not None and cell.formula is not None:
                self.cache.forget(cell.formula)  # interrupted mid-call: its internal state is suspect
            return limit_error(exc.reason)
        except CalculationLimit as exc:
            return limit_error(exc.reason)
        except lib.DispatcherError as exc:
            return NAME_ERROR if isinstance(getattr(exc, "ex", None), NotImplementedError) else VALUE_ERROR
        except Exception:
            return VALUE_ERROR
        finally:
            CLOCK.reset(token)
        return self._scalar(result)

    @staticmethod
    def _scalar(result: Any) -> Value:
        """The library's result (often a 1×1 array) as a plain cell value (top-left of arrays)."""
        lib = load_library()
        if isinstance(result, lib.np.ndarray):
            if result.size == 0:
                return None
            result = result.ravel()[0]
        if result is lib.EMPTY:
            return None
        if isinstance(result, lib.XlError):
            return ErrorValue(str(result), getattr(result, "message", ""))
        if isinstance(result, lib.np.generic):
            result = result.item()
        if isinstance(result, bool):
            return result
        if isinstance(result, int) and abs(result) >= 2**53:
            try:
                result = float(result)  # Sheets holds every number as a double
            except OverflowError:
                return NUM_ERROR
        if isinstance(result, (int, float)):
            if result != result or result in (float("inf"), float("-inf")):
                return NUM_ERROR
            return result
        if isinstance(result, str):
            return str(result) if len(result) <= MAX_TEXT_RESULT_CHARS else TEXT_TOO_LONG
        return VALUE_ERROR
