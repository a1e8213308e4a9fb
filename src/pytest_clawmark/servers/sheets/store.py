"""Spreadsheets, their sheets and cells: the whole state of one world's Sheets server.

Design choices, and why:

* **Sparse cells** keyed by 0-based ``(row, col)``: a 1000×26 grid with 40 filled cells costs
  40 entries, and no operation is proportional to the grid size — so a hostile
  ``insertDimension`` of a million rows is a counter change, not a million allocations.
* **Copy-on-write transactions** (:meth:`Store.edit`): every mutating request works on a clone
  and is swapped in only when it succeeds. This is how a ``batchUpdate`` is atomic (Google
  applies all of its requests or none) and why bad input can never leave state half-changed.
* **Deterministic identity**: spreadsheet ids and sheetIds are derived by hashing per-world
  counters, and times come from an injected (in-universe) clock, so the same seed and the same
  agent actions give byte-identical snapshots across runs.
* **Values are computed when a change is committed**, inside the recalculation budget (see
  :mod:`.calc`), and the world's storage quota (:mod:`.quota`) is checked against them: a
  committed version is always within the limits, and reading it — an agent's ``values.get``, a
  checker, a snapshot — never computes anything.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from . import refs, work
from .a1 import A1Ref, cell_name, format_range, parse_a1, parse_cell_name
from .calc import Calculator, Key
from .cells import Cell
from .complexity import check_formula, measure
from .errors import invalid, not_found
from .limits import MAX_CELL_CHARS, MAX_CELLS, MAX_COLUMNS, MAX_ROWS, MAX_SHEETS
from .quota import Quota, usage
from .render import unformatted

DEFAULT_ROWS = 1000
DEFAULT_COLUMNS = 26

ROWS, COLUMNS = "ROWS", "COLUMNS"


def rfc3339(when: datetime) -> str:
    """Drive's timestamp format: UTC with milliseconds and a ``Z``."""
    when = when.astimezone(timezone.utc)
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


@dataclass
class Sheet:
    """One tab: grid size, presentation properties we keep verbatim, and its cells."""

    sheet_id: int
    title: str
    row_count: int = DEFAULT_ROWS
    column_count: int = DEFAULT_COLUMNS
    frozen_rows: int = 0
    frozen_columns: int = 0
    hidden: bool = False
    extra: dict[str, Any] = field(default_factory=dict)  # tabColor, rightToLeft, hideGridlines...
    cells: dict[tuple[int, int], Cell] = field(default_factory=dict)

    def clone(self) -> Sheet:
        return Sheet(
            self.sheet_id,
            self.title,
            self.row_count,
            self.column_count,
            self.frozen_rows,
            self.frozen_columns,
            self.hidden,
            dict(self.extra),
            dict(self.cells),
        )

    def extent(self) -> tuple[int, int]:
        """(rows, columns) of the smallest top-left rectangle holding every filled cell."""
        if not self.cells:
            return 0, 0
        return max(r for r, _ in self.cells) + 1, max(c for _, c in self.cells) + 1

    def cells_in(self, row0: int, col0: int, row1: int, col1: int) -> Iterator[tuple[int, int, Cell]]:
        """Filled cells inside the half-open rectangle, in no particular order."""
        area = (row1 - row0) * (col1 - col0)
        if area <= len(self.cells):
            get = self.cells.get
            for r in range(row0, row1):
                for c in range(col0, col1):
                    cell = get((r, c))
                    if cell is not None:
                        yield r, c, cell
        else:
            for (r, c), cell in list(self.cells.items()):
                if row0 <= r < row1 and col0 <= c < col1:
                    yield r, c, cell


@dataclass
class Spreadsheet:
    """A spreadsheet (a Drive file): properties, sheets in tab order, Drive metadata."""

    id: str
    title: str
    sheets: list[Sheet]
    created: str
    modified: str
    locale: str = "en_US"
    time_zone: str = "Etc/GMT"
    trashed: bool = False
    parents: list[str] = field(default_factory=lambda: ["root"])
    sheet_seq: int = 0
    clock: Callable[[], datetime] | None = field(default=None, repr=False, compare=False)
    # Formula values: this version's calculator, and what the next one may reuse. ``_base`` is
    # the calculator of an earlier version and ``_changed`` the cells edited since; None means
    # "the structure changed, recompute everything".
    _calc: Calculator | None = field(default=None, repr=False, compare=False)
    _base: Calculator | None = field(default=None, repr=False, compare=False)
    _changed: set[Key] | None = field(default=None, repr=False, compare=False)

    def clone(self) -> Spreadsheet:
        work.charge(sum(len(s.cells) for s in self.sheets) // 50)  # a dict copy: about 20 ns a cell
        copy = Spreadsheet(
            self.id,
            self.title,
            [s.clone() for s in self.sheets],
            self.created,
            self.modified,
            self.locale,
            self.time_zone,
            self.trashed,
            list(self.parents),
            self.sheet_seq,
            self.clock,
        )
        if self._calc is not None:
            copy._base, copy._changed = self._calc, set()
        elif self._changed is not None:
            copy._base, copy._changed = self._base, set(self._changed)
        return copy

    # -- lookup ------------------------------------------------------------------------------
    def sheet_by_title(self, title: str) -> Sheet | None:
        """Sheet names are unique ignoring case, and ranges match them ignoring case (as Google)."""
        folded = title.casefold()
        for s in self.sheets:
            if s.title.casefold() == folded:
                return s
        return None

    def sheet_by_id(self, sheet_id: Any, where: str = "sheetId") -> Sheet:
        if isinstance(sheet_id, bool) or not isinstance(sheet_id, int):
            raise invalid(f"Invalid value at '{where}': expected an integer sheetId, got {sheet_id!r}")
        for s in self.sheets:
            if s.sheet_id == sheet_id:
                return s
        raise invalid(f"No grid with id: {sheet_id}")

    def resolve(self, ref: A1Ref | str, *, grow: bool = False) -> tuple[Sheet, int, int, int, int]:
        """The sheet and half-open bounds an A1 range covers.

        Open bounds end at the grid's edge. A bounded range outside the grid is refused the
        way Google refuses it ("exceeds grid limits") unless ``grow`` (admin seeding) is set,
        in which case the grid grows to hold it.
        """
        if isinstance(ref, str):
            ref = parse_a1(ref)
        if ref.sheet is None:
            sheet = self.sheets[0]
        else:
            found = self.sheet_by_title(ref.sheet)
            if found is None:
                raise invalid(f"Unable to parse range: {ref.text}")
            sheet = found
        row0 = ref.row0 or 0
        col0 = ref.col0 or 0
        row1 = ref.row1 if ref.row1 is not None else max(sheet.row_count, row0 + 1)
        col1 = ref.col1 if ref.col1 is not None else max(sheet.column_count, col0 + 1)
        if grow:
            self.ensure_grid(sheet, row1, col1)
        else:
            self.check_grid(sheet, row0, col0, row1, col1)
        return sheet, row0, col0, row1, col1

    def check_grid(self, sheet: Sheet, row0: int, col0: int, row1: int, col1: int) -> None:
        if row1 > sheet.row_count or col1 > sheet.column_count:
            raise invalid(
                f"Range ({format_range(sheet.title, row0, col0, row1, col1)}) exceeds grid limits. "
                f"Max rows: {sheet.row_count}, max columns: {sheet.column_count}"
            )

    def total_cells(self) -> int:
        return sum(s.row_count * s.column_count for s in self.sheets)

    def check_cell_limit(self, extra: int) -> None:
        if self.total_cells() + extra > MAX_CELLS:
            raise invalid(
                f"This action would increase the number of cells in the workbook above the limit of {MAX_CELLS} cells."
            )

    def check_sheet_limit(self, extra: int = 1) -> None:
        if len(self.sheets) + extra > MAX_SHEETS:
            raise invalid(f"A spreadsheet may have at most {MAX_SHEETS} sheets.")

    def ensure_grid(self, sheet: Sheet, rows: int, cols: int) -> None:
        """Grow ``sheet`` to at least rows × cols (append and admin writes grow the grid)."""
        rows, cols = max(rows, sheet.row_count), max(cols, sheet.column_count)
        if rows > MAX_ROWS or cols > MAX_COLUMNS:
            raise invalid(f"Range exceeds the maximum sheet size ({MAX_ROWS} rows, {MAX_COLUMNS} columns)")
        extra = rows * cols - sheet.row_count * sheet.column_count
        if extra > 0:
            self.check_cell_limit(extra)
            sheet.row_count, sheet.column_count = rows, cols

    # -- cells -------------------------------------------------------------------------------
    def invalidate(self) -> None:
        """Forget every computed formula value: for changes of structure (rows, columns, sheets)."""
        self._calc = None
        self._base = None
        self._changed = None

    def _edited(self, sheet: Sheet, row: int, col: int) -> None:
        self._calc = None
        if self._changed is not None:
            self._changed.add((sheet.sheet_id, row, col))

    def set_cell(self, sheet: Sheet, row: int, col: int, cell: Cell | None) -> None:
        work.charge(work.WORK_CELL_WRITE)
        if cell is not None and isinstance(cell.value, str) and len(cell.value) > MAX_CELL_CHARS:
            raise invalid(f"Your input contains more than the maximum of {MAX_CELL_CHARS} characters in a single cell.")
        if cell is not None and cell.formula is not None:
            check_formula(cell.formula, f"formula in {format_range(sheet.title, row, col, row + 1, col + 1)}")
            work.charge_parse(cell.formula, measure(cell.formula).tokens)
            spans = cell.refs if cell.refs is not None else refs.reference_spans(cell.formula)
            normal = refs.normalize(cell.formula)  # same token lengths: the spans still hold
            if normal != cell.formula or cell.refs is None:
                cell = Cell(formula=normal, fmt=cell.fmt, refs=spans)
        if cell is None:
            if sheet.cells.pop((row, col), None) is None:
                return
        else:
            sheet.cells[(row, col)] = cell
        self._edited(sheet, row, col)

    def clear(self, sheet: Sheet, row0: int, col0: int, row1: int, col1: int) -> None:
        work.charge(min((row1 - row0) * (col1 - col0), len(sheet.cells)))
        for r, c, _ in list(sheet.cells_in(row0, col0, row1, col1)):
            del sheet.cells[(r, c)]
            self._edited(sheet, r, c)

    @property
    def calc(self) -> Calculator:
        """The formula values of this version (computed lazily, reusing the last version's where
        no edited cell can reach them)."""
        if self._calc is None:
            self._calc = Calculator(self, self._base, self._changed)
        return self._calc

    @property
    def has_calc(self) -> bool:
        """True when this version's values have been (or are being) computed."""
        return self._calc is not None

    def settle(self) -> None:
        """Compute every formula value of this version now (within the recalculation budget)."""
        if self.has_formulas():
            self.calc.evaluate_all()
        else:
            self.invalidate()

    def value(self, sheet: Sheet, row: int, col: int) -> Any:
        """The effective value of a cell: its literal, or its formula's result (None: empty)."""
        cell = sheet.cells.get((row, col))
        if cell is None:
            return None
        if cell.formula is None:
            return cell.value
        return self.calc.value(sheet, row, col)

    def has_formulas(self) -> bool:
        return any(cell.formula is not None for s in self.sheets for cell in s.cells.values())

    # -- structure ---------------------------------------------------------------------------
    def new_sheet_id(self) -> int:
        """A deterministic, realistic-looking sheetId (Google's are large random integers)."""
        used = {s.sheet_id for s in self.sheets}
        while True:
            self.sheet_seq += 1
            digest = hashlib.sha256(f"{self.id}/sheet/{self.sheet_seq}".encode()).digest()
            candidate = int.from_bytes(digest[:4], "big") % 2_000_000_000 + 1
            if candidate not in used:
                return candidate

    def unique_title(self, base: str) -> str:
        n = 1
        while self.sheet_by_title(f"{base}{n}") is not None:
            n += 1
        return f"{base}{n}"

    def insert_dimension(self, sheet: Sheet, dim: str, start: int, end: int) -> None:
        work.charge(len(sheet.cells) * work.WORK_CELL_MOVE)
        n = end - start
        if dim == ROWS:
            self.check_cell_limit(n * sheet.column_count)
            if sheet.row_count + n > MAX_ROWS:
                raise invalid(f"Sheets may not have more than {MAX_ROWS} rows")
            sheet.cells = {((r + n if r >= start else r), c): v for (r, c), v in sheet.cells.items()}
            sheet.row_count += n
        else:
            self.check_cell_limit(n * sheet.row_count)
            if sheet.column_count + n > MAX_COLUMNS:
                raise invalid(f"Sheets may not have more than {MAX_COLUMNS} columns")
            sheet.cells = {(r, (c + n if c >= start else c)): v for (r, c), v in sheet.cells.items()}
            sheet.column_count += n
        self._rewrite(sheet, refs.Shift(dim, start, n, inserted=True))

    def delete_dimension(self, sheet: Sheet, dim: str, start: int, end: int) -> None:
        work.charge(len(sheet.cells) * work.WORK_CELL_MOVE)
        n = end - start
        if dim == ROWS:
            sheet.cells = {
                ((r - n if r >= end else r), c): v for (r, c), v in sheet.cells.items() if not start <= r < end
            }
            sheet.row_count -= n
        else:
            sheet.cells = {
                (r, (c - n if c >= end else c)): v for (r, c), v in sheet.cells.items() if not start <= c < end
            }
            sheet.column_count -= n
        self._rewrite(sheet, refs.Shift(dim, start, n, inserted=False))

    def resize(self, sheet: Sheet, rows: int, cols: int) -> None:
        if rows < 1 or cols < 1:
            raise invalid("A sheet must keep at least one row and one column")
        if rows > MAX_ROWS or cols > MAX_COLUMNS:
            raise invalid(f"Sheets may not exceed {MAX_ROWS} rows or {MAX_COLUMNS} columns")
        extra = rows * cols - sheet.row_count * sheet.column_count
        if extra > 0:
            self.check_cell_limit(extra)
        work.charge(len(sheet.cells) * work.WORK_CELL_MOVE)
        sheet.row_count, sheet.column_count = rows, cols
        sheet.cells = {(r, c): v for (r, c), v in sheet.cells.items() if r < rows and c < cols}
        self.invalidate()

    def rename_sheet(self, sheet: Sheet, title: str) -> None:
        old = sheet.title
        sheet.title = title
        if old != title:
            self._rewrite(None, refs.Rename(old, title))

    def delete_sheet(self, sheet: Sheet) -> None:
        self.sheets.remove(sheet)
        self._rewrite(None, refs.Rename(sheet.title, None))

    def _rewrite(self, target: Sheet | None, change: refs.Change) -> None:
        """Keep formulas pointing at the same data after rows, columns or sheets move (as Google)."""
        self.invalidate()
        target_title = target.title if target else None
        for s in self.sheets:
            work.charge(len(s.cells))
            for key, cell in list(s.cells.items()):
                if cell.formula is None:
                    continue
                spans = cell.refs
                if spans is None:  # restored from a snapshot: parsed once, then kept
                    work.charge_parse(cell.formula, measure(cell.formula).tokens)
                    spans = refs.reference_spans(cell.formula)
                work.charge(1 + 2 * len(spans))
                new, new_spans = refs.rewrite_spans(cell.formula, s.title, target_title, change, spans)
                if new != cell.formula or cell.refs is None:
                    s.cells[key] = Cell(formula=new, fmt=cell.fmt, refs=new_spans)


class Store:
    """All spreadsheets of one world, in creation order, plus the counters ids derive from."""

    def __init__(self, clock: Callable[[], datetime] | None = None, seed: str = "clawmark") -> None:
        self.spreadsheets: dict[str, Spreadsheet] = {}
        self.seq = 0
        self.seed = seed
        self._clock = clock
        self.quota = Quota()

    # -- time and identity -------------------------------------------------------------------
    def now(self) -> datetime:
        """The in-universe time, or a fixed epoch before the first turn (never the wall clock)."""
        if self._clock is not None:
            try:
                when = self._clock()
                if when.tzinfo is None:
                    when = when.replace(tzinfo=timezone.utc)
                return when
            except RuntimeError:
                pass
        return datetime(2025, 1, 1, tzinfo=timezone.utc)

    def new_id(self) -> str:
        """A 44-character, Google-looking spreadsheet id derived from the world's counter."""
        while True:
            self.seq += 1
            digest = hashlib.sha256(f"{self.seed}/spreadsheet/{self.seq}".encode()).digest()
            candidate = "1" + base64.urlsafe_b64encode(digest).decode("ascii")[:43]
            if candidate not in self.spreadsheets:
                return candidate

    # -- access ------------------------------------------------------------------------------
    def get(self, spreadsheet_id: str) -> Spreadsheet:
        try:
            return self.spreadsheets[spreadsheet_id]
        except KeyError:
            raise not_found() from None

    def create(
        self,
        title: str,
        sheets: list[Sheet] | None = None,
        *,
        locale: str = "en_US",
        time_zone: str = "Etc/GMT",
        fill: Callable[[Spreadsheet], None] | None = None,
    ) -> Spreadsheet:
        """A new spreadsheet; ``sheets`` default to one 1000×26 ``Sheet1`` with sheetId 0.

        Sheets whose ``sheet_id`` is negative get a generated id. ``fill`` may seed the new
        spreadsheet before it becomes visible; if it raises, nothing (not even the id counter)
        has changed.
        """
        self.quota.check_new_file(len(self.spreadsheets))
        seq = self.seq
        stamp = rfc3339(self.now())
        ss = Spreadsheet(self.new_id(), title, [], stamp, stamp, locale=locale, time_zone=time_zone, clock=self.now)
        try:
            for sheet in sheets or [Sheet(0, "Sheet1")]:
                if sheet.sheet_id < 0:  # "choose one for me"
                    sheet.sheet_id = ss.new_sheet_id()
                ss.sheets.append(sheet)
            ss.check_cell_limit(0)
            ss.check_sheet_limit(0)
            if fill is not None:
                fill(ss)
                ss.invalidate()
            ss.settle()
            used = self.quota.admit(ss.id, ss)
        except BaseException:
            self.seq = seq
            raise
        self.spreadsheets[ss.id] = ss
        self.quota.record(ss.id, used)
        return ss

    @contextmanager
    def edit(self, spreadsheet_id: str) -> Iterator[Spreadsheet]:
        """A draft copy of the spreadsheet, committed only if the block finishes without error."""
        draft = self.get(spreadsheet_id).clone()
        yield draft
        draft.modified = rfc3339(self.now())
        draft.settle()
        used = self.quota.admit(spreadsheet_id, draft)
        self.spreadsheets[spreadsheet_id] = draft
        self.quota.record(spreadsheet_id, used)

    def delete(self, spreadsheet_id: str) -> None:
        self.get(spreadsheet_id)
        del self.spreadsheets[spreadsheet_id]
        self.quota.forget(spreadsheet_id)

    # -- evidence ----------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON: every cell (formulas with their computed value), ids, counters."""
        out = []
        for ss in self.spreadsheets.values():
            sheets = []
            for s in ss.sheets:
                cells: dict[str, Any] = {}
                for r, c in sorted(s.cells):
                    cell = s.cells[(r, c)]
                    data = cell.to_json()
                    if cell.formula is not None:
                        data["v"] = unformatted(ss.value(s, r, c), None)
                    cells[cell_name(r, c)] = data
                sheets.append(
                    {
                        "sheetId": s.sheet_id,
                        "title": s.title,
                        "rowCount": s.row_count,
                        "columnCount": s.column_count,
                        "frozenRowCount": s.frozen_rows,
                        "frozenColumnCount": s.frozen_columns,
                        "hidden": s.hidden,
                        "extra": s.extra,
                        "cells": cells,
                    }
                )
            out.append(
                {
                    "id": ss.id,
                    "title": ss.title,
                    "locale": ss.locale,
                    "timeZone": ss.time_zone,
                    "createdTime": ss.created,
                    "modifiedTime": ss.modified,
                    "trashed": ss.trashed,
                    "parents": list(ss.parents),
                    "sheetSeq": ss.sheet_seq,
                    "sheets": sheets,
                }
            )
        return {"format": "clawmark-sheets/1", "seq": self.seq, "seed": self.seed, "spreadsheets": out}

    def restore(self, data: dict[str, Any]) -> None:
        """Replace everything with a :meth:`snapshot` (validated fully before anything changes)."""
        if not isinstance(data, dict) or data.get("format") != "clawmark-sheets/1":
            raise invalid("not a clawmark-sheets/1 snapshot")
        try:
            spreadsheets: dict[str, Spreadsheet] = {}
            for item in data["spreadsheets"]:
                sheets = []
                for sd in item["sheets"]:
                    cells = {parse_cell_name(k): Cell.from_json(v) for k, v in sd["cells"].items()}
                    sheets.append(
                        Sheet(
                            int(sd["sheetId"]),
                            str(sd["title"]),
                            int(sd["rowCount"]),
                            int(sd["columnCount"]),
                            int(sd.get("frozenRowCount", 0)),
                            int(sd.get("frozenColumnCount", 0)),
                            bool(sd.get("hidden", False)),
                            dict(sd.get("extra", {})),
                            cells,
                        )
                    )
                if not sheets:
                    raise ValueError("a spreadsheet needs at least one sheet")
                ss = Spreadsheet(
                    str(item["id"]),
                    str(item["title"]),
                    sheets,
                    str(item["createdTime"]),
                    str(item["modifiedTime"]),
                    str(item.get("locale", "en_US")),
                    str(item.get("timeZone", "Etc/GMT")),
                    bool(item.get("trashed", False)),
                    [str(p) for p in item.get("parents", ["root"])],
                    int(item.get("sheetSeq", 0)),
                    self.now,
                )
                spreadsheets[ss.id] = ss
            seq = int(data["seq"])
            seed = str(data.get("seed", self.seed))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise invalid(f"malformed snapshot: {exc}") from None
        self.spreadsheets, self.seq, self.seed = spreadsheets, seq, seed
        self.quota.reset()
        for ss in spreadsheets.values():
            ss.settle()
            self.quota.record(ss.id, usage(ss))
