"""Guards around the ``formulas`` library's spreadsheet functions: what one call may cost.

Why: the library evaluates whatever a formula asks for, however big. ``REPT("x", 1e8)`` builds a
100 MB string, a column times a row builds their full product, ``ROUND(1, 1e9)`` computes
``10**1000000000``, ``PERMUT(1e7, 2)`` a factorial of ten million, a regular expression such as
``(a|aa)+$`` backtracks for hours. None of that may stall a world, so every function and operator
of the library is wrapped (once per process, by :func:`install`) in a guard that, inside a
recalculation:

* spends one step of the :class:`~.budget.Budget` per call (so a LAMBDA loop runs out too) and
  checks the wall-clock backstop;
* refuses a call whose result would be an array much bigger than its largest input (a column
  times a row, MUNIT, EXPAND, MAKEARRAY, WRAPROWS, TEXTSPLIT): a calculation limit;
* for the functions that build text (``&``, CONCATENATE, CONCAT, TEXTJOIN, REPT, SUBSTITUTE),
  measures the text *before* it is built: an element longer than
  :data:`~.limits.MAX_TEXT_RESULT_CHARS` becomes ``#VALUE!`` (Google: "Text result of REPT is
  longer than the limit of 50000 characters"), the rest is spent from the budget;
* for the functions whose numeric arguments are sizes or exponents (FACT, ROUND, PERMUT...),
  answers ``#NUM!`` where the library would compute a number of millions of digits;
* replaces the regular-expression functions by equivalents with a time limit and a capped
  output (see :data:`~.limits.REGEX_TIMEOUT_S`);
* spends the cells of the result, and turns any text result still over the limit into
  ``#VALUE!``.

Outside a recalculation (no current budget) the guards only forward the call. The guards touch
the library's internals (its function registry and a few private helpers); ``formulas`` is pinned
to one minor version in pyproject.toml for that reason, and tests/test_sheets_hostile.py fails
loudly if a guard stops applying.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .budget import Budget, current
from .limits import MAX_ARRAY_RESULT_CELLS, MAX_REGEX_PATTERN_CHARS, MAX_TEXT_RESULT_CHARS, REGEX_TIMEOUT_S

if TYPE_CHECKING:
    import numpy as np
else:
    np = None  # numpy, bound by install(): importing this module stays free of numpy's ~0.2 s

Args = tuple[Any, ...]
Guard = Callable[[str, Args, Budget], Args]
"""A pre-call check: returns the (possibly changed) arguments, raises :class:`_Answer` to answer
without calling the library, or spends/fails the budget."""

MAX_EXPONENT_DIGITS = 330
"""Decimal digits beyond which a number is out of a double's range (1e308): ROUND(x, 400) would
compute 10**400 as an exact integer only to overflow."""
MAX_PERMUT_N = 50_000
"""PERMUT computes n! exactly: 50,000! takes about 0.1 s, ten million! minutes."""
MAX_FACTDOUBLE_N = 400
MAX_CUMULATIVE_PERIODS = 1_000_000
"""CUMIPMT / CUMPRINC list every period between start and end."""
MAX_PLACES = 10
"""Excel's limit on the ``places`` of DEC2BIN and friends (over it: ``#NUM!``); the library pads
first and checks after, so DEC2BIN(2, 1e9) built a billion-character string."""
MAX_ERLANG_N = 10_000_000
"""HYPGEOM.DIST and friends loop or build factorials over their population size."""


class _Answer(Exception):
    """Raised by a guard to answer a call without running the library's function."""

    def __init__(self, value: Any) -> None:
        super().__init__("answered by a guard")
        self.value = value


class _Lib:
    """The library internals the guards use, loaded by :func:`install`."""

    Array: Any
    EMPTY: Any
    XlError: type
    errors: dict[str, Any]
    FoundError: type
    replace_empty: Callable[..., Any]
    flatten: Callable[..., Any]
    parse_ranges: Callable[..., Any]
    text_str: Callable[[Any], str]
    too_long: Any
    """``#VALUE!`` carrying Google's message for an over-long text result."""


_LIB = _Lib()


def _error(code: str | Any) -> Any:
    """An error value as the library returns one from a function (a 1×1 array)."""
    error = _LIB.errors[code] if type(code) is str else code  # an XlError is a str subclass
    return np.asarray([[error]], object).view(_LIB.Array)


# -- measuring arguments -----------------------------------------------------------------------
def _shape(arg: Any) -> tuple[int, int]:
    shape = getattr(arg, "shape", None)
    if not shape:
        return 1, 1
    return int(shape[0]), int(shape[1]) if len(shape) > 1 else 1


def _scalars(arg: Any) -> Iterable[Any]:
    if isinstance(arg, np.ndarray):
        return arg.flat
    return (arg,)


def _first(arg: Any) -> Any:
    if isinstance(arg, np.ndarray):
        return arg.flat[0] if arg.size else _LIB.EMPTY
    return arg


def _number(value: Any) -> float | None:
    """A cell value as a number, or None when it is not one (the library answers those)."""
    if isinstance(value, np.ndarray):
        value = _first(value)
    if value is _LIB.EMPTY or value is None:
        return 0.0
    if isinstance(value, (bool, _LIB.XlError)):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _text_len(value: Any) -> int:
    """Characters the library's text conversion gives ``value`` (errors and empties: 0)."""
    if value is _LIB.EMPTY or isinstance(value, _LIB.XlError):
        return 0
    if isinstance(value, str):
        return len(value)
    return len(_LIB.text_str(value))


def _text(value: Any) -> str:
    if value is _LIB.EMPTY or isinstance(value, _LIB.XlError):
        return ""
    return _LIB.text_str(value)


def _elements(arrays: list[Any], shape: tuple[int, ...]) -> Iterable[tuple[Any, ...]]:
    """The broadcast elements, in C order (``np.broadcast`` takes at most 32 arrays)."""
    if len(arrays) <= 32:
        return np.broadcast(*arrays)
    views = [np.broadcast_to(a, shape) for a in arrays]
    return (tuple(v[index] for v in views) for index in np.ndindex(*shape))


def _elementwise(
    args: Args, measure: Callable[[tuple[Any, ...]], int | None], error: Any, budget: Budget | None
) -> Args:
    """Check an element-wise function before the library runs it.

    ``measure`` gets one element of the broadcast arguments and answers the characters it will
    produce, or None when that element must be ``error``: those elements get the error in place
    of their first argument, which the library then propagates. The characters of the others
    are spent from ``budget`` (when given) before anything is built.
    """
    if not args:
        return args
    arrays = [a if isinstance(a, np.ndarray) else np.asarray(a, dtype=object) for a in args]
    try:
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        return args  # the library reports mismatched shapes itself
    bad: list[int] = []
    total = 0
    for i, element in enumerate(_elements(arrays, shape)):
        size = measure(element)
        if size is None:
            bad.append(i)
        else:
            total += size
    if budget is not None and total:
        budget.spend_chars(total)
    if not bad:
        return args
    full = [np.array(np.broadcast_to(a, shape), dtype=object) for a in arrays]
    for i in bad:
        full[0].flat[i] = error
    return tuple(full)


# -- the guards ----------------------------------------------------------------------------------
def _text_size(size: int) -> int | None:
    return size if size <= MAX_TEXT_RESULT_CHARS else None


def _rept(name: str, args: Args, budget: Budget) -> Args:
    def measure(e: tuple[Any, ...]) -> int | None:
        times = _number(e[1]) if len(e) > 1 else None
        if times is None or times < 0:
            return 0
        return _text_size(_text_len(e[0]) * int(times))

    return _elementwise(args, measure, _LIB.too_long, budget)


def _concatenate(name: str, args: Args, budget: Budget) -> Args:
    return _elementwise(args, lambda e: _text_size(sum(_text_len(x) for x in e)), _LIB.too_long, budget)


def _substitute(name: str, args: Args, budget: Budget) -> Args:
    def measure(e: tuple[Any, ...]) -> int | None:
        if len(e) < 3:
            return 0
        text, old, new = _text(e[0]), _text(e[1]), _text(e[2])
        if len(e) > 3 and e[3] is not _LIB.EMPTY:
            return _text_size(len(text) + len(new))
        count = text.count(old) if old else len(text) + 1
        return _text_size(len(text) + count * max(len(new) - len(old), 0))

    return _elementwise(args, measure, _LIB.too_long, budget)


def _join(name: str, args: Args, budget: Budget) -> Args:
    """CONCAT and TEXTJOIN: one text from every element of every argument."""
    values = args[2:] if name == "TEXTJOIN" else args
    total = 0
    count = 0
    for arg in values:
        for x in _scalars(arg):
            total += _text_len(x)
            count += 1
    if name == "TEXTJOIN" and args:
        total += _text_len(_first(args[0])) * max(count - 1, 0)
    if total > MAX_TEXT_RESULT_CHARS:
        raise _Answer(_error(_LIB.too_long))
    budget.spend_chars(total)
    return args


def _numeric(position: int, too_big: Callable[[float], bool], code: str = "#NUM!") -> Guard:
    """An element-wise guard: where argument ``position`` is a number ``too_big`` accepts, the
    element is ``code`` instead of what the library would spend minutes computing."""

    def guard(name: str, args: Args, budget: Budget) -> Args:
        if len(args) <= position:
            return args

        def measure(e: tuple[Any, ...]) -> int | None:
            n = _number(e[position])
            return None if n is not None and too_big(n) else 0

        return _elementwise(args, measure, _LIB.errors[code], None)

    return guard


def _scalar_arg(position: int, too_big: Callable[[float], bool], code: str = "#NUM!") -> Guard:
    """Like :func:`_numeric` for functions that are not element-wise: any offending element of
    argument ``position`` answers ``code`` for the whole call."""

    def guard(name: str, args: Args, budget: Budget) -> Args:
        if len(args) > position:
            for x in _scalars(args[position]):
                n = _number(x)
                if n is not None and too_big(n):
                    raise _Answer(_error(code))
        return args

    return guard


def _permutationa(name: str, args: Args, budget: Budget) -> Args:
    def measure(e: tuple[Any, ...]) -> int | None:
        n, k = (_number(x) for x in (e + (0, 0))[:2])
        if n is None or k is None:
            return 0
        return None if k * math.log10(max(abs(n), 2)) > MAX_EXPONENT_DIGITS else 0

    return _elementwise(args, measure, _LIB.errors["#NUM!"], None)


def _cumulative(name: str, args: Args, budget: Budget) -> Args:
    if len(args) >= 5:
        start, end = _number(args[3]), _number(args[4])
        if (
            start is not None
            and end is not None
            and (abs(end - start) > MAX_CUMULATIVE_PERIODS or abs(end) > 10 * MAX_CUMULATIVE_PERIODS)
        ):
            raise _Answer(_error("#NUM!"))
    return args


def _array_of(rows: float | None, cols: float | None, budget: Budget, name: str, base: int = 0) -> None:
    if rows is None or cols is None:
        return
    cells = max(rows, 1) * max(cols, 1)
    if cells > max(base, MAX_ARRAY_RESULT_CELLS):
        budget.fail(f"{name} would produce an array of {cells:.0f} cells")


def _munit(name: str, args: Args, budget: Budget) -> Args:
    for x in _scalars(args[0]) if args else ():
        n = _number(x)
        _array_of(n, n, budget, name)
    return args


def _expand(name: str, args: Args, budget: Budget) -> Args:
    base = int(getattr(args[0], "size", 1)) if args else 1
    rows = _number(args[1]) if len(args) > 1 else None
    cols = _number(args[2]) if len(args) > 2 else 1.0
    _array_of(rows, cols, budget, name, base)
    return args


def _makearray(name: str, args: Args, budget: Budget) -> Args:
    if len(args) >= 2:
        _array_of(_number(args[0]), _number(args[1]), budget, name)
    return args


def _wrap(name: str, args: Args, budget: Budget) -> Args:
    if len(args) >= 2:
        for x in _scalars(args[1]):
            _array_of(_number(x), 1, budget, name, int(getattr(args[0], "size", 1)))
    return args


def _textsplit(name: str, args: Args, budget: Budget) -> Args:
    """Rows × columns of the padded array TEXTSPLIT builds, counted before it splits anything."""
    if len(args) < 2:
        return args
    col_delims = [d for d in (_text(x) for x in _scalars(args[1])) if d]
    row_delims = [d for d in (_text(x) for x in _scalars(args[2])) if d] if len(args) > 2 else []
    cells = 0
    for value in _scalars(args[0]):
        text = _text(value)
        rows = [text]
        for d in row_delims:
            rows = [piece for row in rows for piece in row.split(d)]
            if len(rows) > MAX_ARRAY_RESULT_CELLS:
                budget.fail(f"{name} would produce more than {MAX_ARRAY_RESULT_CELLS} rows")
        widest = max((1 + sum(row.count(d) for d in col_delims) for row in rows), default=1)
        cells += len(rows) * widest
    _array_of(cells, 1, budget, name)
    budget.spend_cells(cells)
    return args


def _matrix(name: str, args: Args, budget: Budget) -> Args:
    """Matrix products and inverses cost rows × inner × columns operations."""
    if name == "MMULT" and len(args) >= 2:
        (r, k), (_, c) = _shape(args[0]), _shape(args[1])
        budget.spend_cells(r * k * c)
    elif args:
        n = max(_shape(args[0]))
        budget.spend_cells(n**3)
    return args


GUARDS: dict[str, Guard] = {
    "REPT": _rept,
    "&": _concatenate,
    "CONCATENATE": _concatenate,
    "CONCAT": _join,
    "TEXTJOIN": _join,
    "SUBSTITUTE": _substitute,
    "FACT": _numeric(0, lambda n: abs(n) > 170),
    "FACTDOUBLE": _scalar_arg(0, lambda n: abs(n) > MAX_FACTDOUBLE_N),
    "ROUND": _numeric(1, lambda d: abs(d) > MAX_EXPONENT_DIGITS),
    "ROUNDUP": _numeric(1, lambda d: abs(d) > MAX_EXPONENT_DIGITS),
    "ROUNDDOWN": _numeric(1, lambda d: abs(d) > MAX_EXPONENT_DIGITS),
    "TRUNC": _numeric(1, lambda d: abs(d) > MAX_EXPONENT_DIGITS),
    "PERMUT": _numeric(0, lambda n: abs(n) > MAX_PERMUT_N),
    "PERMUTATIONA": _permutationa,
    "PERCENTRANK": _scalar_arg(2, lambda s: abs(s) > MAX_EXPONENT_DIGITS),
    "PERCENTRANK.INC": _scalar_arg(2, lambda s: abs(s) > MAX_EXPONENT_DIGITS),
    "PERCENTRANK.EXC": _scalar_arg(2, lambda s: abs(s) > MAX_EXPONENT_DIGITS),
    "CUMIPMT": _cumulative,
    "CUMPRINC": _cumulative,
    "HYPGEOMDIST": _numeric(3, lambda n: abs(n) > MAX_ERLANG_N),
    "HYPGEOM.DIST": _numeric(3, lambda n: abs(n) > MAX_ERLANG_N),
    **{
        name: _numeric(1, lambda places: places > MAX_PLACES)
        for name in (
            "DEC2BIN",
            "DEC2HEX",
            "DEC2OCT",
            "BIN2HEX",
            "BIN2OCT",
            "HEX2BIN",
            "HEX2OCT",
            "OCT2BIN",
            "OCT2HEX",
        )
    },  # fmt: skip
    "MUNIT": _munit,
    "EXPAND": _expand,
    "MAKEARRAY": _makearray,
    "WRAPROWS": _wrap,
    "WRAPCOLS": _wrap,
    "TEXTSPLIT": _textsplit,
    "MMULT": _matrix,
    "MINVERSE": _matrix,
    "MDETERM": _matrix,
}
"""Function (or operator) name → its pre-call guard. Aliases (``_XLFN.``) share the guard."""


# -- the wrapper ---------------------------------------------------------------------------------
def _check_result(name: str, result: Any, budget: Budget) -> Any:
    """Spend the result's cells; text still over the limit becomes ``#VALUE!``."""
    if isinstance(result, np.ndarray):
        budget.spend_cells(int(result.size))
        if result.dtype == object:
            long = [i for i, x in enumerate(result.flat) if isinstance(x, str) and len(x) > MAX_TEXT_RESULT_CHARS]
            if long:
                result = result.copy()
                for i in long:
                    result.flat[i] = _LIB.too_long
        return result
    budget.spend_cells(1)
    if isinstance(result, str) and len(result) > MAX_TEXT_RESULT_CHARS:
        return _error(_LIB.too_long)
    return result


def guarded(name: str, fn: Callable[..., Any], guard: Guard | None) -> Callable[..., Any]:
    """``fn`` wrapped so that, inside a recalculation, it spends and respects the budget."""

    def call(*args: Any, **kwargs: Any) -> Any:
        budget = current()
        if budget is None:
            return fn(*args, **kwargs)
        budget.check()
        budget.spend_steps(1)
        largest = rows = cols = 1
        given = 0
        for arg in args:
            if isinstance(arg, np.ndarray) and arg.ndim:
                r, c = _shape(arg)
                largest, rows, cols = max(largest, r * c), max(rows, r), max(cols, c)
                given += r * c
        if rows * cols > max(largest, MAX_ARRAY_RESULT_CELLS):
            budget.fail(f"{name} would produce an array of {rows} × {cols} cells")
        budget.spend_cells(given)  # the library visits every cell it is given
        if guard is not None:
            try:
                args, kwargs = _LIB.parse_ranges(*args, **kwargs)
                args = guard(name, tuple(args), budget)
            except _Answer as answer:
                return answer.value
        return _check_result(name, fn(*args, **kwargs), budget)

    call.__name__ = getattr(fn, "__name__", name)
    call.__doc__ = getattr(fn, "__doc__", None)
    call.__wrapped__ = fn  # type: ignore[attr-defined]
    call.__clawmark_guard__ = True  # type: ignore[attr-defined]
    return call


def _wrap_entry(name: str, entry: Any) -> Any:
    """One registry entry (a function, or a dict holding one) with its function guarded."""
    guard = GUARDS.get(name[len("_XLFN.") :] if name.startswith("_XLFN.") else name)
    if isinstance(entry, dict):
        fn = entry.get("function")
        if fn is None or getattr(fn, "__clawmark_guard__", False):
            return entry
        return {**entry, "function": guarded(name, fn, guard)}
    if not callable(entry) or getattr(entry, "__clawmark_guard__", False):
        return entry
    return guarded(name, entry, guard)


def install(functions: dict[str, Any], operators: dict[str, Any]) -> None:
    """Wrap every function of the library's registry and every operator (once per process)."""
    # Third-party and lazy on purpose: only a world that computes formulas pays for these imports
    # (:mod:`.library` calls this once, when it loads the library).
    global np
    import numpy as np
    import regex
    from formulas.errors import FoundError
    from formulas.functions import Array, Error, XlError, flatten, parse_ranges, replace_empty, wrap_ufunc
    from formulas.functions import text as textlib
    from schedula import EMPTY

    _LIB.Array, _LIB.EMPTY, _LIB.XlError, _LIB.errors = Array, EMPTY, XlError, dict(Error.errors)
    _LIB.FoundError, _LIB.replace_empty, _LIB.flatten, _LIB.parse_ranges = (
        FoundError,
        replace_empty,
        flatten,
        parse_ranges,
    )
    _LIB.text_str = textlib._str
    _LIB.too_long = XlError("#VALUE!")
    _LIB.too_long.message = f"Text result is longer than the limit of {MAX_TEXT_RESULT_CHARS} characters."

    for name, fn in _regex_functions(regex, textlib, wrap_ufunc).items():
        for alias in (name, f"_XLFN.{name}"):
            functions[alias] = fn
    for name in list(functions):
        functions[name] = _wrap_entry(name, functions[name])
    for name in list(operators):
        operators[name] = _wrap_entry(name, operators[name])


# -- regular expressions -------------------------------------------------------------------------
def _regex_functions(regex: Any, textlib: Any, wrap_ufunc: Callable[..., Any]) -> dict[str, Any]:
    """REGEXEXTRACT / REGEXREPLACE / REGEXTEST as the library defines them, but matched by the
    ``regex`` engine with a time limit and with REGEXREPLACE's output capped as it is built."""
    errors = _LIB.errors

    def fail() -> Any:
        raise _LIB.FoundError(err=errors["#VALUE!"])

    def compiled(pattern: Any, case_sensitivity: Any) -> Any:
        case = int(float(_LIB.replace_empty(case_sensitivity)))
        if case not in (0, 1):
            fail()
        text = _LIB.text_str(pattern)
        if len(text) > MAX_REGEX_PATTERN_CHARS:
            fail()
        try:
            return regex.compile(text, regex.IGNORECASE if case == 1 else 0)
        except (regex.error, ValueError, OverflowError):
            fail()

    def timed(run: Callable[[], Any]) -> Any:
        try:
            return run()
        except TimeoutError:
            return fail()

    def extract(text: Any, pattern: Any, return_mode: Any = 0, case_sensitivity: Any = 0) -> Any:
        rx, text = compiled(pattern, case_sensitivity), _LIB.text_str(text)
        mode = int(float(_LIB.replace_empty(return_mode)))
        if mode == 0:
            m = timed(lambda: rx.search(text, timeout=REGEX_TIMEOUT_S, concurrent=True))
            found = [m.group(0) if m else None]
        elif mode == 1:
            found = timed(
                lambda: [m.group(0) for m in rx.finditer(text, timeout=REGEX_TIMEOUT_S, concurrent=True)]
            ) or [None]
        elif mode == 2:
            m = timed(lambda: rx.search(text, timeout=REGEX_TIMEOUT_S, concurrent=True))
            found = list(m.groups() or [errors["#VALUE!"]]) if m else [None]
        else:
            return errors["#VALUE!"]
        return [errors["#N/A"] if v is None else v for v in found]

    def replace(text: Any, pattern: Any, replacement: Any, occurrence: Any = 0, case_sensitivity: Any = 0) -> Any:
        rx, text = compiled(pattern, case_sensitivity), _LIB.text_str(text)
        template = _LIB.text_str(replacement)
        size = [len(text)]

        def piece(m: Any) -> str:
            out = m.expand(template)
            size[0] += len(out)
            if size[0] > MAX_TEXT_RESULT_CHARS:
                fail()
            return out

        count = int(float(_LIB.replace_empty(occurrence)))
        result = timed(lambda: rx.sub(piece, text, count=max(count, 0), timeout=REGEX_TIMEOUT_S, concurrent=True))
        budget = current()
        if budget is not None:
            budget.spend_chars(len(result))
        return result

    def test(text: Any, pattern: Any, case_sensitivity: Any = 0) -> Any:
        rx, text = compiled(pattern, case_sensitivity), _LIB.text_str(text)
        return timed(lambda: rx.match(text, timeout=REGEX_TIMEOUT_S, concurrent=True)) is not None

    kw = dict(textlib._kw0)
    return {
        "REGEXEXTRACT": wrap_ufunc(extract, return_func=textlib._xregexextract_return_func, check_nan=False, **kw),
        "REGEXREPLACE": wrap_ufunc(replace, check_nan=False, **kw),
        "REGEXTEST": wrap_ufunc(test, check_nan=False, **kw),
    }
