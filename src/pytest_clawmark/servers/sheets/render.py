"""How a cell's value is rendered: ``FORMATTED_VALUE``, ``UNFORMATTED_VALUE`` or ``FORMULA``.

Why it matters: agents read sheets through gspread's defaults (formatted strings), checkers read
typed values (unformatted numbers, booleans, date serials), and reference solutions round-trip
formulas. The three renderings must agree with each other and with what Google answers:
``6`` not ``6.0``; ``TRUE`` as text when formatted but ``true`` when not; formula errors as the
error text (``#DIV/0!``) in every rendering except ``FORMULA``.

We render only the number formats :mod:`.cells` infers (dates, times, percentages,
thousands, dollars) plus Google's automatic format for everything else.
"""

from __future__ import annotations

from typing import Any, Literal

from .cells import Cell, Scalar, datetime_from_serial, number

RenderOption = Literal["FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"]
DateTimeOption = Literal["SERIAL_NUMBER", "FORMATTED_STRING"]
RENDER_OPTIONS = ("FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA")
DATETIME_OPTIONS = ("SERIAL_NUMBER", "FORMATTED_STRING")


class ErrorValue(str):
    """A formula error (``#DIV/0!``, ``#REF!``...): rendered as its text, typed as an error.

    ``message`` is what Google shows when hovering the cell (``errorValue.message`` of grid
    data), e.g. why a calculation limit was hit; it defaults to the error's text.
    """

    message: str

    def __new__(cls, code: str, message: str = "") -> ErrorValue:
        self = super().__new__(cls, code)
        self.message = message or code
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (ErrorValue, (str(self), self.message))


Value = Scalar | ErrorValue | None
"""A cell's effective value: literal, or a formula's computed result (None: empty)."""


def format_type(pattern: str | None) -> str | None:
    """The Sheets ``NumberFormatType`` of a pattern we produce."""
    if not pattern:
        return None
    has_date = "yy" in pattern
    has_time = ":" in pattern
    if has_date and has_time:
        return "DATE_TIME"
    if has_date:
        return "DATE"
    if has_time:
        return "TIME"
    if pattern.endswith("%"):
        return "PERCENT"
    if pattern.startswith("$"):
        return "CURRENCY"
    return "NUMBER"


def _general(value: float) -> str:
    """Google's automatic number format (about ten significant digits, no trailing zeros)."""
    if isinstance(value, int):
        return str(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    text = f"{value:.10g}"
    if "e" in text:
        if 1e-5 <= abs(value) < 1e15:
            text = f"{value:.10f}".rstrip("0").rstrip(".")
        else:
            mantissa, _, exp = text.partition("e")
            sign = "-" if exp.startswith("-") else "+"
            text = f"{mantissa}E{sign}{exp.lstrip('+-').zfill(2)}"
    return text


def _decimals(pattern: str) -> int:
    return len(pattern.split(".", 1)[1].rstrip("%")) if "." in pattern else 0


def _date_text(serial: float, pattern: str) -> str:
    try:
        when = datetime_from_serial(serial)
    except (OverflowError, ValueError):
        return _general(serial)
    date_part, _, time_part = pattern.partition(" ") if "yy" in pattern else ("", "", pattern)
    pieces = []
    if date_part == "yyyy-mm-dd":
        pieces.append(f"{when.year:04d}-{when.month:02d}-{when.day:02d}")
    elif date_part == "m/d/yyyy":
        pieces.append(f"{when.month}/{when.day}/{when.year:04d}")
    if time_part:
        hour = when.hour
        suffix = ""
        if "AM/PM" in time_part:
            suffix = " PM" if hour >= 12 else " AM"
            hour = hour % 12 or 12
        text = f"{hour:02d}" if time_part.startswith("hh") else f"{hour}"
        text += f":{when.minute:02d}"
        if ":ss" in time_part:
            text += f":{when.second:02d}"
        pieces.append(text + suffix)
    return " ".join(pieces)


def format_number(value: float, pattern: str | None) -> str:
    """``value`` shown with ``pattern`` (or the automatic format when there is none)."""
    kind = format_type(pattern)
    if kind is None or pattern is None:
        return _general(value)
    if kind in ("DATE", "DATE_TIME", "TIME"):
        return _date_text(value, pattern)
    decimals = _decimals(pattern)
    if kind == "PERCENT":
        return f"{value * 100:.{decimals}f}%"
    if kind == "CURRENCY":
        return ("-" if value < 0 else "") + f"${abs(value):,.{decimals}f}"
    return f"{value:,.{decimals}f}"


def formatted(value: Value, pattern: str | None) -> str:
    """The FORMATTED_VALUE text of an effective value."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return format_number(value, pattern)
    return str(value)


def unformatted(value: Value, pattern: str | None, dt_option: DateTimeOption = "SERIAL_NUMBER") -> Any:
    """The UNFORMATTED_VALUE of an effective value (JSON-ready)."""
    if value is None:
        return ""
    if isinstance(value, ErrorValue):
        return str(value)
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if dt_option == "FORMATTED_STRING" and format_type(pattern) in ("DATE", "DATE_TIME", "TIME"):
        return format_number(value, pattern)
    return number(value)


def render(cell: Cell | None, value: Value, option: RenderOption, dt_option: DateTimeOption = "SERIAL_NUMBER") -> Any:
    """One cell of a values response under ``option``."""
    if cell is None:
        return ""
    if option == "FORMULA" and cell.formula is not None:
        return cell.formula
    if option == "FORMATTED_VALUE":
        return formatted(value, cell.fmt)
    return unformatted(value, cell.fmt, dt_option)


def extended_value(value: Value) -> dict[str, Any] | None:
    """A Sheets ``ExtendedValue`` (``effectiveValue`` / ``userEnteredValue`` of grid data)."""
    if value is None:
        return None
    if isinstance(value, ErrorValue):
        return {"errorValue": {"type": _ERROR_TYPES.get(str(value), "ERROR"), "message": value.message}}
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, (int, float)):
        return {"numberValue": number(value)}
    return {"stringValue": value}


_ERROR_TYPES = {
    "#NULL!": "NULL_VALUE",
    "#DIV/0!": "DIVIDE_BY_ZERO",
    "#VALUE!": "VALUE",
    "#REF!": "REF",
    "#NAME?": "NAME",
    "#NUM!": "NUM",
    "#N/A": "N_A",
    "#ERROR!": "ERROR",
}
