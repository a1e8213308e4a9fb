"""Small, strict readers for request JSON, raising Google-shaped 400s that name the bad field.

Why hand-written: requests are small and their schemas narrow; a validation framework would
cost import time on every world start for no gain in clarity. Every reader takes ``where``
(e.g. ``requests[2].insertDimension.range``) so the agent learns exactly what to fix.
"""

from __future__ import annotations

from typing import Any

from .errors import invalid


def obj(value: Any, where: str, *, optional: bool = False) -> dict[str, Any]:
    if value is None and optional:
        return {}
    if not isinstance(value, dict):
        raise invalid(f"Invalid value at '{where}': expected a JSON object")
    return value


def only_keys(value: dict[str, Any], allowed: set[str] | frozenset[str], where: str) -> None:
    """Refuse fields the API does not define (Google rejects unknown names too)."""
    for key in value:
        if key not in allowed:
            raise invalid(f"Invalid JSON payload received. Unknown name \"{key}\" at '{where}': Cannot find field.")


def integer(
    value: Any, where: str, *, default: int | None = None, low: int | None = None, high: int | None = None
) -> int:
    """An int32-style field: JSON numbers or digit strings (proto JSON accepts both)."""
    if value is None:
        if default is None:
            raise invalid(f"Invalid value at '{where}': a number is required")
        return default
    if isinstance(value, bool):
        raise invalid(f"Invalid value at '{where}' (TYPE_INT32), {str(value).lower()}")
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 12:
        value = int(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int):
        raise invalid(f"Invalid value at '{where}' (TYPE_INT32), {value!r}")
    if abs(value) > 2**31 - 1:
        raise invalid(f"Invalid value at '{where}' (TYPE_INT32), {value}: out of range")
    if low is not None and value < low:
        raise invalid(f"Invalid value at '{where}': must be at least {low}, got {value}")
    if high is not None and value > high:
        raise invalid(f"Invalid value at '{where}': must be at most {high}, got {value}")
    return value


def string(value: Any, where: str, *, default: str | None = None, max_len: int = 10_000) -> str:
    if value is None:
        if default is None:
            raise invalid(f"Invalid value at '{where}': a string is required")
        return default
    if not isinstance(value, str):
        raise invalid(f"Invalid value at '{where}' (TYPE_STRING), {value!r}")
    if len(value) > max_len:
        raise invalid(f"Invalid value at '{where}': longer than {max_len} characters")
    return value


def boolean(value: Any, where: str, *, default: bool = False) -> bool:
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise invalid(f"Invalid value at '{where}' (TYPE_BOOL), {value!r}")


def enum(value: Any, where: str, choices: tuple[str, ...], *, default: str | None = None) -> str:
    if value is None or value == "":
        if default is None:
            raise invalid(f"Invalid value at '{where}': one of {', '.join(choices)} is required")
        return default
    if not isinstance(value, str) or value not in choices:
        raise invalid(f"Invalid value at '{where}' ({', '.join(choices)}), {value!r}")
    return value


def array(value: Any, where: str, *, optional: bool = True, max_len: int = 100_000) -> list[Any]:
    if value is None and optional:
        return []
    if not isinstance(value, list):
        raise invalid(f"Invalid value at '{where}': expected a JSON array")
    if len(value) > max_len:
        raise invalid(f"Invalid value at '{where}': more than {max_len} items")
    return value
