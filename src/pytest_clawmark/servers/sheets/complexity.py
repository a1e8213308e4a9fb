"""How big a formula is, measured before the ``formulas`` library ever sees it.

Why a lexer of our own: the library parses and compiles in time quadratic in a formula's
operators (``=1+1+...`` with 20,000 terms kept a world's event loop busy for minutes). Its cost
has to be known *before* calling it, in time linear in the text, so every formula is measured
here first: a formula over :data:`~.limits.MAX_FORMULA_TOKENS` tokens or
:data:`~.limits.MAX_FORMULA_NESTING` brackets deep is refused when written and never parsed.
The count only needs to bound the library's work, not to agree with its grammar token for
token: string literals, quoted sheet names, names and numbers count one each, every operator,
bracket and separator one.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .errors import invalid
from .limits import FORMULA_STEPS, FORMULA_STEPS_QUADRATIC, MAX_CELL_CHARS, MAX_FORMULA_NESTING, MAX_FORMULA_TOKENS

_TOKEN_RE = re.compile(
    r"""
      "(?:[^"]|"")*"?          # a string literal ("" escapes a quote; unterminated still counts)
    | '(?:[^']|'')*'?          # a quoted sheet name
    | \#[A-Za-z0-9/!?]+        # an error literal (#N/A, #REF!...)
    | [A-Za-z0-9_.$\\]+        # names, numbers, cell references (and their parts)
    | <=|>=|<>                 # two-character operators
    | \s+                      # white space (not a token)
    | .                        # any other character: an operator, bracket or separator
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass(frozen=True)
class Size:
    """A formula's size: its tokens and its deepest bracket nesting."""

    tokens: int
    depth: int


@functools.lru_cache(maxsize=65536)
def measure(formula: str) -> Size:
    """Tokens and bracket depth of ``formula`` (time linear in its length)."""
    tokens = depth = deepest = 0
    for m in _TOKEN_RE.finditer(formula, 1 if formula.startswith("=") else 0):
        text = m.group()
        if text.isspace():
            continue
        tokens += 1
        if text in ("(", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif text in (")", "}"):
            depth -= 1
    return Size(tokens, deepest)


def check_formula(formula: str, where: str = "formula") -> None:
    """Refuse (400) a formula too long or too complex to be parsed within the limits."""
    if len(formula) > MAX_CELL_CHARS:
        raise invalid(
            f"Invalid {where}: your input contains more than the maximum of {MAX_CELL_CHARS} characters in a single cell."
        )
    size = measure(formula)
    if size.tokens > MAX_FORMULA_TOKENS:
        raise invalid(
            f"Invalid {where}: the formula is too complex ({size.tokens} tokens; the limit is "
            f"{MAX_FORMULA_TOKENS}). Split it over several cells."
        )
    if size.depth > MAX_FORMULA_NESTING:
        raise invalid(
            f"Invalid {where}: the formula nests brackets {size.depth} levels deep (the limit is "
            f"{MAX_FORMULA_NESTING})."
        )


def within_limits(formula: str) -> bool:
    """True when ``formula`` may be handed to the library (see :func:`check_formula`)."""
    if len(formula) > MAX_CELL_CHARS:
        return False
    size = measure(formula)
    return size.tokens <= MAX_FORMULA_TOKENS and size.depth <= MAX_FORMULA_NESTING


def formula_steps(formula: str) -> int:
    """Recalculation steps compiling and calling ``formula`` costs (see :data:`~.limits.RECALC_STEPS`)."""
    tokens = measure(formula).tokens
    return tokens + tokens * tokens // FORMULA_STEPS_QUADRATIC + FORMULA_STEPS
