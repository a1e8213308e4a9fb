"""What a cell holds, and how typed input becomes a cell (``RAW`` / ``USER_ENTERED``).

Why a tiny immutable cell: a batch of requests is applied to a copy of the spreadsheet and
swapped in only if every request succeeds (Google's batchUpdate is atomic). With immutable
cells that copy is a shallow ``dict`` copy, so atomicity costs microseconds, not a deep copy.

``USER_ENTERED`` follows what a person typing into Google Sheets gets (lightly): numbers,
``1,234.5``, ``$12.50``, ``15%``, ``TRUE``/``FALSE``, ISO and US dates and times, ``=``
formulas, and a leading apostrophe to force text. The inferred number format is kept (as a
Sheets ``numberFormat`` pattern) so ``FORMATTED_VALUE`` shows what was typed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Literal

from .errors import invalid

Scalar = str | int | float | bool
InputOption = Literal["RAW", "USER_ENTERED"]

EPOCH = datetime(1899, 12, 30)
"""Day 0 of spreadsheet serial dates (Lotus 1-2-3 convention, kept by Sheets and Excel)."""


@dataclass(frozen=True, slots=True)
class Cell:
    """A non-empty cell: a literal ``value`` or a ``formula`` (``"=..."``), plus a number format."""

    value: Scalar | None = None
    formula: str | None = None
    fmt: str | None = None  # a Sheets numberFormat pattern, e.g. "yyyy-mm-dd", "0.00%"
    refs: tuple[tuple[int, int], ...] | None = field(default=None, compare=False, repr=False)
    """The formula's reference spans, found when it was written (None: not known yet), so that
    moving rows rewrites it without parsing it again (see :mod:`.refs`)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"f": self.formula} if self.formula is not None else {"v": self.value}
        if self.fmt:
            out["fmt"] = self.fmt
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Cell:
        if "f" in data:
            return cls(formula=str(data["f"]), fmt=data.get("fmt"))
        value = data.get("v")
        if not isinstance(value, (str, int, float, bool)):
            raise ValueError(f"bad cell value in snapshot: {value!r}")
        return cls(value=value, fmt=data.get("fmt"))


def serial_from_datetime(value: datetime | date) -> float:
    """A date/datetime as a spreadsheet serial number (days since 1899-12-30)."""
    if not isinstance(value, datetime):
        value = datetime(value.year, value.month, value.day)
    value = value.replace(tzinfo=None)
    delta = value - EPOCH
    serial = delta.days + delta.seconds / 86400
    return int(serial) if serial == int(serial) else serial


def datetime_from_serial(serial: float) -> datetime:
    return EPOCH + timedelta(days=float(serial))


def check_json_scalar(value: Any, where: str) -> Scalar | None:
    """Validate one value of a ``values`` array: string, number, bool or null, nothing else."""
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            raise invalid(f"Invalid value at '{where}': numbers must be finite")
        if isinstance(value, int) and abs(value) > 10**300:
            raise invalid(f"Invalid value at '{where}': number out of range")
        return value
    kind = "list_value" if isinstance(value, list) else "struct_value" if isinstance(value, dict) else "value"
    raise invalid(f"Invalid {where}: {kind} is not a valid cell value (use a string, number or boolean)")


def number(value: float) -> int | float:
    """Integral floats as ints (Google answers ``6``, not ``6.0``), within float's exact range."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


_NUM = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_PLAIN_RE = re.compile(rf"[+-]?{_NUM}")
_THOUSANDS_RE = re.compile(r"([+-]?)(\d{1,3}(?:,\d{3})+)(\.\d*)?")
_CURRENCY_RE = re.compile(r"([+-]?)\$\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d*)?")
_PERCENT_RE = re.compile(rf"([+-]?{_NUM})\s?%")
_ISO_DATE_RE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?")
_US_DATE_RE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?")
_TIME_RE = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s?([AaPp][Mm]))?")


def _decimals(fraction: str | None) -> int:
    return max(len(fraction) - 1, 0) if fraction else 0


def _zeros(n: int) -> str:
    return "." + "0" * n if n else ""


def _date_cell(y: int, mo: int, d: int, h: str | None, mi: str | None, s: str | None, pattern: str) -> Cell | None:
    try:
        when = datetime(y, mo, d, int(h or 0), int(mi or 0), int(s or 0))
    except ValueError:
        return None
    if h is not None:
        pattern += " hh:mm" if pattern.startswith("yyyy") else " h:mm"
        if s is not None:
            pattern += ":ss"
    return Cell(value=serial_from_datetime(when), fmt=pattern)


def _parse_text(text: str) -> Cell | None:
    """The typed-in interpretation of ``text``, or None when it stays a string."""
    cell = _interpret(text)
    if cell is not None and isinstance(cell.value, float) and not math.isfinite(cell.value):
        return None  # "1e400" overflows a double: Sheets keeps such text as text
    return cell


def _interpret(text: str) -> Cell | None:
    t = text.strip()
    if not t:
        return None
    upper = t.upper()
    if upper in ("TRUE", "FALSE"):
        return Cell(value=upper == "TRUE")
    if _PLAIN_RE.fullmatch(t):
        return Cell(value=number(float(t)))
    if m := _THOUSANDS_RE.fullmatch(t):
        v = float(m.group(2).replace(",", "") + (m.group(3) or ""))
        v = -v if m.group(1) == "-" else v
        return Cell(value=number(v), fmt="#,##0" + _zeros(_decimals(m.group(3))))
    if m := _CURRENCY_RE.fullmatch(t):
        v = float(m.group(2).replace(",", "") + (m.group(3) or ""))
        v = -v if m.group(1) == "-" else v
        return Cell(value=number(v), fmt="$#,##0.00")
    if m := _PERCENT_RE.fullmatch(t):
        digits = m.group(1)
        dec = len(digits.split(".", 1)[1]) if "." in digits and "e" not in digits.lower() else 0
        return Cell(value=number(round(float(digits) / 100, 15)), fmt="0" + _zeros(dec) + "%")
    if m := _ISO_DATE_RE.fullmatch(t):
        y, mo, d = (int(x) for x in m.group(1, 2, 3))
        return _date_cell(y, mo, d, *m.group(4, 5, 6), pattern="yyyy-mm-dd")
    if m := _US_DATE_RE.fullmatch(t):
        mo, d, y = (int(x) for x in m.group(1, 2, 3))
        return _date_cell(y, mo, d, *m.group(4, 5, 6), pattern="m/d/yyyy")
    if m := _TIME_RE.fullmatch(t):
        h, mi, s, ampm = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
        if ampm:
            if not 1 <= h <= 12:
                return None
            h = h % 12 + (12 if ampm.upper() == "PM" else 0)
        if h > 23 or mi > 59 or (s is not None and int(s) > 59):
            return None
        serial = (h * 3600 + mi * 60 + int(s or 0)) / 86400
        pattern = "h:mm" + (":ss" if s is not None else "") + (" AM/PM" if ampm else "")
        return Cell(value=serial, fmt=pattern)
    return None


_DATE_FUNCTIONS_RE = re.compile(r"=\s*(TODAY|DATE|EDATE|EOMONTH|DATEVALUE|WORKDAY|WORKDAY\.INTL)\s*\(", re.IGNORECASE)
_DATETIME_FUNCTIONS_RE = re.compile(r"=\s*NOW\s*\(", re.IGNORECASE)


def _whole_call(formula: str, open_at: int) -> bool:
    """True when the parenthesis opened at ``open_at`` closes at the formula's end."""
    depth, quoted = 0, False
    body = formula.rstrip()
    for i in range(open_at, len(body)):
        ch = body[i]
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")":
            depth -= 1
            if depth == 0:
                return i == len(body) - 1
    return False


def formula_format(formula: str) -> str | None:
    """The number format Sheets picks for a formula that is one call returning a date."""
    for pattern, fmt in ((_DATE_FUNCTIONS_RE, "m/d/yyyy"), (_DATETIME_FUNCTIONS_RE, "m/d/yyyy h:mm:ss")):
        m = pattern.match(formula)
        if m and _whole_call(formula, m.end() - 1):
            return fmt
    return None


def make_cell(value: Scalar, option: InputOption) -> Cell | None:
    """The cell that writing ``value`` with ``option`` produces; None means "clear the cell"."""
    if isinstance(value, bool):
        return Cell(value=value)
    if isinstance(value, (int, float)):
        if isinstance(value, int) and abs(value) >= 2**53:
            value = float(value)  # Sheets holds every number as a double
        return Cell(value=number(value) if isinstance(value, float) else value)
    if value == "":
        return None
    if option == "RAW":
        return Cell(value=value)
    if value.startswith("'"):
        return Cell(value=value[1:]) if len(value) > 1 else None
    if value.startswith("=") and len(value) > 1:
        return Cell(formula=value, fmt=formula_format(value))
    return _parse_text(value) or Cell(value=value)
