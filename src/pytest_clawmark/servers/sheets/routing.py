"""Route tables matched on the *raw* path: (method, path pattern) → handler, first match wins.

Why not a framework router: Starlette's matches the *decoded* path, where a range has already
changed shape. Ranges travel inside the path (``values/Sheet1!A1:B2``), percent-encoded to
different degrees by different clients, may contain ``/`` (a sheet named ``Q1/Q2``), and custom
methods hang off them with a colon (``...:append``). So patterns are matched against the
undecoded path, and each placeholder is decoded only once it has been cut out.

A pattern is literal text with placeholders:

* ``{name}`` — one path segment, up to a ``/`` or a custom method's ``:`` (a spreadsheet id);
* ``{name:segment}`` — one path segment, colons included (a Drive file id, a custom method);
* ``{name:path}`` — any text, slashes included (a range);
* ``{name:verb}`` — an optional ``:custom`` suffix (empty when absent);

and may end in ``/?``: the same resource with or without a final slash. Every placeholder may
match the empty string (a bad id is the handler's 404, not the router's).

A table is searched in order and the first route whose pattern *and* method match answers. A
route of method :data:`ANY` after a resource's real routes says what every other method gets:
usually a :class:`Refusal` (405 "no such method", 501 "not supported", 404), whose message is
part of the API's observable behaviour and so is written in the table, next to the routes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .errors import ApiError

H = TypeVar("H")

ANY = "*"
"""The method of a route that answers every method (after the routes of specific methods)."""

_CONVERTERS = {
    "": r"[^/:]*",
    "segment": r"[^/]*",
    "path": r".*",
    "verb": r"(?::[^/]*)?",
}
_PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")


@dataclass(frozen=True)
class Refusal:
    """An answer that is always an error: ``message`` is formatted with ``method`` and the raw
    (undecoded) placeholders of the path; ``{{id}}`` writes a literal ``{id}``."""

    code: int
    message: str

    def error(self, method: str, raw: dict[str, str]) -> ApiError:
        return ApiError(self.code, self.message.format(method=method, **raw))


@dataclass(frozen=True)
class Route(Generic[H]):
    """One row of a route table. ``operation`` names it in the audit log (``""``: a refusal,
    audited under its method and path)."""

    method: str
    pattern: str
    answer: H | Refusal
    operation: str = ""
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", compile_pattern(self.pattern))


def compile_pattern(pattern: str) -> re.Pattern[str]:
    """The regular expression of a route pattern (see the module docstring for the syntax)."""
    slash = pattern.endswith("/?")
    body = pattern[:-2] if slash else pattern
    parts: list[str] = []
    at = 0
    for m in _PLACEHOLDER.finditer(body):
        parts.append(re.escape(body[at : m.start()]))
        parts.append(f"(?P<{m.group(1)}>{_CONVERTERS[m.group(2) or '']})")
        at = m.end()
    parts.append(re.escape(body[at:]))
    return re.compile("".join(parts) + ("/?" if slash else ""), re.DOTALL)


def find(routes: tuple[Route[H], ...], method: str, path: str) -> tuple[Route[H], dict[str, str]] | None:
    """The first route matching ``method`` and the raw ``path``, with its raw placeholders."""
    for route in routes:
        if route.method != ANY and route.method != method:
            continue
        m = route.regex.fullmatch(path)
        if m is not None:
            return route, m.groupdict()
    return None


__all__ = ["ANY", "Refusal", "Route", "compile_pattern", "find"]
