"""Keep formulas pointing at the same data when rows, columns or sheets move.

Google rewrites references when the grid changes: insert a row above ``B10`` and
``=SUM(B2:B10)`` becomes ``=SUM(B2:B11)``; delete the rows a reference points at and it becomes
``#REF!``; rename a sheet and ``='Old'!A1`` follows it. Agents insert rows above totals all the
time (gspread's ``insert_row``), so without this the totals a checker reads would silently go
stale.

The formula is tokenized by the ``formulas`` library (the same parser that evaluates it), so we
only ever touch real references — never text inside string literals or function names — and
rewrite them in place, preserving ``$`` anchors and everything else the author typed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from .a1 import col_index, col_letters, quote_sheet
from .library import load_library

REF_ERROR = "#REF!"

Spans = tuple[tuple[int, int], ...]
"""(start, end) offsets of a formula's references: what a cell keeps so that moving rows never
re-parses its formula (the library's tokenizer costs about 100 µs a token)."""


@dataclass(frozen=True)
class Shift:
    """Rows or columns ``[start, start + n)`` of the target sheet were inserted or deleted."""

    dim: str  # "ROWS" or "COLUMNS"
    start: int
    n: int
    inserted: bool


@dataclass(frozen=True)
class Rename:
    """Sheet ``old`` is now called ``new`` (``None``: it was deleted)."""

    old: str
    new: str | None


Change = Shift | Rename

_REF_RE = re.compile(r"(?P<prefix>(?P<sheet>'(?:[^']|'')+'|[^'!]+)!)?(?P<area>[^!]+)")
_END_RE = re.compile(r"(\$?)([A-Za-z]{1,3})?(\$?)([0-9]{1,8})?")
_NAME_RE = re.compile(r"[A-Za-z_][\w.]*")


CACHED_FORMULA_CHARS = 4096
"""Only formulas up to this long are cached (8,192 of the longest would otherwise pin 400 MB)."""


def token_spans(formula: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, kind) of the tokens we may rewrite — kind is ``range``, ``function``,
    ``error`` or ``bool`` — found by the ``formulas`` tokenizer (empty if unparsable)."""
    return _cached_spans(formula) if len(formula) <= CACHED_FORMULA_CHARS else _token_spans(formula)


@functools.lru_cache(maxsize=8192)
def _cached_spans(formula: str) -> tuple[tuple[int, int, str], ...]:
    return _token_spans(formula)


def _token_spans(formula: str) -> tuple[tuple[int, int, str], ...]:
    if "\n" in formula:
        return ()
    lib = load_library()
    try:
        match = lib.parser.is_formula(formula)
        body = match.groupdict()["name"] if match else None
        if not body:
            return ()
        tokens, _ = lib.parser.ast(formula)
    except Exception:  # an unparsable formula keeps its text; it evaluates to #ERROR! anyway
        return ()
    prefix = len(formula) - len(body)
    spans = []
    for token in tokens:
        name = type(token).__name__
        kind = {"Range": "range", "Function": "function", "Error": "error", "Number": "bool"}.get(name)
        if kind is None or not hasattr(token, "end_match"):
            continue
        text = token.source[: token.end_match]
        start = prefix + len(body) - len(token.source)
        stripped = text.lstrip()
        start += len(text) - len(stripped)
        stripped = stripped.rstrip()
        if kind == "function":
            stripped = _NAME_RE.match(stripped).group(0) if _NAME_RE.match(stripped) else ""
        if kind == "bool" and stripped.upper() not in ("TRUE", "FALSE"):
            continue
        if stripped and formula[start : start + len(stripped)] == stripped:
            spans.append((start, start + len(stripped), kind))
    return tuple(spans)


def reference_spans(formula: str) -> tuple[tuple[int, int], ...]:
    """(start, end) offsets of every cell/range reference in ``formula``."""
    return tuple((a, b) for a, b, kind in token_spans(formula) if kind == "range")


def normalize(formula: str) -> str:
    """The formula as Sheets stores it: function names, cell references, booleans and error
    literals in upper case (``=sum(a1:b2)`` → ``=SUM(A1:B2)``); strings and sheet names kept.
    Every token keeps its length, so the original's reference spans are the result's."""
    return _cached_normal(formula) if len(formula) <= CACHED_FORMULA_CHARS else _normalize(formula)


@functools.lru_cache(maxsize=8192)
def _cached_normal(formula: str) -> str:
    return _normalize(formula)


def _normalize(formula: str) -> str:
    spans = token_spans(formula)
    if not spans:
        return formula
    out: list[str] = []
    last = 0
    for start, end, kind in spans:
        text = formula[start:end]
        if kind == "range":
            m = _REF_RE.fullmatch(text)
            new = (m.group("prefix") or "") + m.group("area").upper() if m else text
        else:
            new = text.upper()
        out.append(formula[last:start])
        out.append(new)
        last = end
    out.append(formula[last:])
    return "".join(out)


def _unquote(sheet: str) -> str:
    if sheet.startswith("'") and sheet.endswith("'") and len(sheet) >= 2:
        return sheet[1:-1].replace("''", "'")
    return sheet


def _shift_index(i: int, change: Shift) -> int | None:
    """Where index ``i`` lands for a single-cell reference (None: deleted)."""
    if change.inserted:
        return i + change.n if i >= change.start else i
    if change.start <= i < change.start + change.n:
        return None
    return i - change.n if i >= change.start + change.n else i


def _shift_span(a: int, b: int, change: Shift) -> tuple[int, int] | None:
    """Where the inclusive span a..b lands (None: every index of it was deleted)."""
    if change.inserted:
        return (a + change.n if a >= change.start else a, b + change.n if b >= change.start else b)
    end = change.start + change.n
    na = a if a < change.start else (change.start if a < end else a - change.n)
    nb = b if b < change.start else (change.start - 1 if b < end else b - change.n)
    return None if nb < na else (na, nb)


def _rewrite_area(area: str, change: Shift) -> str | None:
    """The area with indices moved, or None when it was deleted."""
    ends = area.split(":")
    if len(ends) > 2:
        return area
    parsed = []
    for end in ends:
        m = _END_RE.fullmatch(end.strip())
        if not m or (m.group(2) is None and m.group(4) is None):
            return area  # not something we understand (a named range...): leave it alone
        parsed.append(list(m.groups()))
    rows = change.dim == "ROWS"
    slot = 3 if rows else 1
    if any(p[slot] is None for p in parsed):
        return area  # whole columns are unaffected by row changes, and vice versa
    idx = [int(p[3]) - 1 if rows else col_index(p[1]) for p in parsed]
    if len(idx) == 1:
        moved = _shift_index(idx[0], change)
        if moved is None:
            return None
        new_idx = [moved]
    else:
        span = _shift_span(min(idx), max(idx), change)
        if span is None:
            return None
        new_idx = list(span) if idx[0] <= idx[1] else [span[1], span[0]]
    for p, i in zip(parsed, new_idx):
        p[slot] = str(i + 1) if rows else col_letters(i)
    return ":".join("".join(x or "" for x in p) for p in parsed)


def rewrite_reference(text: str, host: str, target: str | None, change: Change) -> str:
    """One reference (``'Sheet 2'!$B$3``, ``A1:A9``...) after ``change``."""
    m = _REF_RE.fullmatch(text)
    if not m:
        return text
    sheet = _unquote(m.group("sheet")) if m.group("sheet") else None
    area = m.group("area")
    if isinstance(change, Rename):
        if sheet is None or sheet.casefold() != change.old.casefold():
            return text
        if change.new is None:
            return REF_ERROR
        return f"{quote_sheet(change.new)}!{area}"
    if target is None or (sheet or host).casefold() != target.casefold():
        return text
    moved = _rewrite_area(area, change)
    if moved is None:
        return REF_ERROR
    return (m.group("prefix") or "") + moved


def _translate_area(area: str, dr: int, dc: int) -> str | None:
    """The area with its relative (un-``$``-ed) parts moved by (dr, dc); None if it falls off."""
    ends = area.split(":")
    if len(ends) > 2:
        return area
    out = []
    for end in ends:
        m = _END_RE.fullmatch(end.strip())
        if not m or (m.group(2) is None and m.group(4) is None):
            return area
        col_abs, col, row_abs, row = m.groups()
        if col is not None and not col_abs:
            n = col_index(col) + dc
            if n < 0:
                return None
            col = col_letters(n)
        if row is not None and not row_abs:
            n = int(row) + dr
            if n < 1:
                return None
            row = str(n)
        out.append(f"{col_abs}{col or ''}{row_abs}{row or ''}")
    return ":".join(out)


def _replace(formula: str, spans: Spans, new_text: Callable[[str], str | None]) -> tuple[str, Spans]:
    """Replace each reference of ``formula`` by ``new_text(reference)`` (None: keep it); returns
    the new formula and the spans of its references (a reference that became ``#REF!`` is one no
    longer)."""
    out: list[str] = []
    new_spans: list[tuple[int, int]] = []
    last = 0
    shift = 0
    for start, end in spans:
        old = formula[start:end]
        new = new_text(old)
        if new is None or new == old:
            new_spans.append((start + shift, end + shift))
            continue
        out.append(formula[last:start])
        out.append(new)
        last = end
        if new != REF_ERROR:
            new_spans.append((start + shift, start + shift + len(new)))
        shift += len(new) - len(old)
    if not out:
        return formula, spans
    out.append(formula[last:])
    return "".join(out), tuple(new_spans)


def translate(formula: str, dr: int, dc: int, spans: Spans | None = None) -> str:
    """``formula`` copied ``dr`` rows and ``dc`` columns away: relative references follow,
    absolute ones stay (what sorting a range does to the formulas it moves)."""
    return translate_spans(formula, dr, dc, spans)[0]


def translate_spans(formula: str, dr: int, dc: int, spans: Spans | None = None) -> tuple[str, Spans]:
    """:func:`translate`, also answering the new formula's reference spans."""
    if spans is None:
        spans = reference_spans(formula)
    if dr == 0 and dc == 0:
        return formula, spans

    def moved(text: str) -> str | None:
        m = _REF_RE.fullmatch(text)
        if not m:
            return None
        area = _translate_area(m.group("area"), dr, dc)
        return REF_ERROR if area is None else (m.group("prefix") or "") + area

    return _replace(formula, spans, moved)


def rewrite(formula: str, host: str, target: str | None, change: Change, spans: Spans | None = None) -> str:
    """``formula`` (living on sheet ``host``) after ``change`` to sheet ``target``."""
    return rewrite_spans(formula, host, target, change, spans)[0]


def rewrite_spans(
    formula: str, host: str, target: str | None, change: Change, spans: Spans | None = None
) -> tuple[str, Spans]:
    """:func:`rewrite`, also answering the new formula's reference spans (from ``spans`` when
    given, so that nothing is re-parsed)."""
    if spans is None:
        spans = reference_spans(formula)
    if not spans:
        return formula, spans
    return _replace(formula, spans, lambda text: rewrite_reference(text, host, target, change))
