"""Strict decoding of request bodies: JSON as Notion accepts it, nothing a store cannot keep.

Why stricter than :func:`json.loads`: Python's decoder turns ``1e999999`` into infinity, accepts
integers thousands of digits long, nests as deep as the recursion limit and keeps lone UTF-16
surrogates. Each of those, once stored (an icon, a mention payload), made every later read of the
object and every snapshot of the workspace fail with a 500, since the answer cannot be encoded
as JSON again. Here they are refused at the door: ``NaN``/``Infinity`` literals and malformed text
are ``invalid_json`` (they are not JSON), out-of-range numbers and over-deep nesting are
``validation_error`` (valid JSON this API does not take).
"""

from __future__ import annotations

import json
import math
from typing import Any

from . import limits
from .errors import NotionError, invalid

__all__ = ["decode_object", "decode_value"]


class _OutOfRange(ValueError):
    """A number the API cannot hold; raised from inside the decoder's number hooks."""


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _OutOfRange(f"the number {text[:40]} is outside the range of a 64-bit float")
    return value


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > limits.MAX_INTEGER_DIGITS:
        raise _OutOfRange(f"an integer of {digits} digits is too large (at most {limits.MAX_INTEGER_DIGITS})")
    return int(text)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _bad_json() -> NotionError:
    return NotionError(400, "invalid_json", "Error parsing JSON body.")


def _check_tree(value: Any, *, strings: bool) -> None:
    """Depth of nesting (iteratively: the tree may be deep), and, if ``strings``, lone surrogates."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limits.MAX_JSON_DEPTH:
                raise invalid(f"body failed validation: the JSON nests deeper than {limits.MAX_JSON_DEPTH} levels.")
            children = list(item.items()) if isinstance(item, dict) else [(None, v) for v in item]
            for key, child in children:
                if strings and isinstance(key, str):
                    _encodable(key)
                stack.append((child, depth + 1))
        elif strings and isinstance(item, str):
            _encodable(item)


def _encodable(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise _bad_json() from None  # a lone surrogate ("\ud800") decodes but cannot be stored


def decode_value(text: str) -> Any:
    """Any JSON value from ``text``, or a :class:`NotionError`."""
    try:
        value = json.loads(text, parse_float=_float, parse_int=_int, parse_constant=_constant)
    except _OutOfRange as exc:
        raise invalid(f"body failed validation: {exc}.") from None
    except RecursionError:
        raise invalid(f"body failed validation: the JSON nests deeper than {limits.MAX_JSON_DEPTH} levels.") from None
    except ValueError:
        raise _bad_json() from None
    _check_tree(value, strings="\\u" in text)
    return value


def decode_object(raw: bytes) -> dict[str, Any]:
    """A request body as a JSON object (``{}`` when empty), or a :class:`NotionError`."""
    if not raw.strip():
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _bad_json() from None
    body = decode_value(text)
    if not isinstance(body, dict):
        raise invalid("body failed validation: body should be an object.")
    return body
