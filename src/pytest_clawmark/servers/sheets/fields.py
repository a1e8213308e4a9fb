"""Google's partial-response ``fields`` masks: ``files(id,name),nextPageToken``, ``sheets.properties``.

Why: gspread and Drive callers ask for ``fields=...`` on almost every call (gspread lists files
with ``kind,nextPageToken,files(id,name,createdTime,modifiedTime)``), and ``updateSheetProperties``
uses the same mask syntax to say which properties to change. One small parser serves both.
Paths may use ``/`` or ``.``; ``*`` selects everything at its level.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import invalid

Mask = dict[str, "Mask | None"]
"""A parsed mask: field name → sub-mask, or None for "the whole field"."""

_TOKEN_RE = re.compile(r"\s*([A-Za-z_*][A-Za-z0-9_]*|[(),./])")
MAX_MASK_DEPTH = 32
"""Deepest parenthesis nesting of a mask (the resources nest about 8 levels)."""


def _merge(a: Mask | None, b: Mask | None) -> Mask | None:
    if a is None or b is None:
        return None
    out = dict(a)
    for k, v in b.items():
        out[k] = _merge(out[k], v) if k in out else v
    return out


def parse_mask(text: str) -> Mask:
    """Parse a mask; raises a 400 :class:`ApiError` when it is not valid syntax."""
    if not isinstance(text, str) or len(text) > 4000:
        raise invalid("Invalid field selection")
    tokens = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        m = _TOKEN_RE.match(stripped, pos)
        if not m:
            raise invalid(f"Invalid field selection {text}")
        tokens.append(m.group(1))
        pos = m.end()
    if not tokens:
        raise invalid(f"Invalid field selection {text}")
    i = 0

    def parse_list(depth: int) -> Mask:
        nonlocal i
        if depth > MAX_MASK_DEPTH:
            raise invalid(f"Invalid field selection {text[:200]}: nested more than {MAX_MASK_DEPTH} levels")
        mask: Mask = {}
        while True:
            path = []
            while True:
                if i >= len(tokens) or tokens[i] in "(),./":
                    raise invalid(f"Invalid field selection {text}")
                path.append(tokens[i])
                i += 1
                if i < len(tokens) and tokens[i] in "./":
                    i += 1
                    continue
                break
            sub: Mask | None = None
            if i < len(tokens) and tokens[i] == "(":
                i += 1
                sub = parse_list(depth + 1)
                if i >= len(tokens) or tokens[i] != ")":
                    raise invalid(f"Invalid field selection {text}")
                i += 1
            node: Mask | None = sub
            for name in reversed(path[1:]):
                node = {name: node}
            mask[path[0]] = _merge(mask[path[0]], node) if path[0] in mask else node
            if i < len(tokens) and tokens[i] == ",":
                i += 1
                continue
            if depth == 0 and i < len(tokens):
                raise invalid(f"Invalid field selection {text}")
            return mask

    return parse_list(0)


def apply_mask(data: Any, mask: Mask | None) -> Any:
    """Keep only the masked fields of ``data`` (lists are masked element by element)."""
    if mask is None or "*" in mask:
        return data
    if isinstance(data, list):
        return [apply_mask(x, mask) for x in data]
    if isinstance(data, dict):
        return {k: apply_mask(data[k], sub) for k, sub in mask.items() if k in data}
    return data


def selects(mask: Mask | None, *path: str) -> bool:
    """True when the mask names ``path`` explicitly (e.g. ``sheets.data`` asks for grid data)."""
    node: Mask | None = mask
    for name in path:
        if node is None or name not in node:
            return False
        node = node[name]
    return True


def paths(mask: Mask, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every leaf path of a mask (``gridProperties.rowCount`` → ``("gridProperties", "rowCount")``)."""
    out: list[tuple[str, ...]] = []
    for k, sub in mask.items():
        if sub is None:
            out.append(prefix + (k,))
        else:
            out.extend(paths(sub, prefix + (k,)))
    return out
