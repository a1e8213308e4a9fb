"""Query filters and sorts of data-source (database) queries.

A filter is compiled once into a predicate — validating every condition up front, so a bad
filter is a 400 before anything runs — and then applied to each row. Semantics follow Notion's
reference: one operator per condition, ``and``/``or`` compounds, empty values sorted last.
Deliberate leniencies (documented because agents hit them): text comparisons ignore case;
a people condition matches a user id, a name or an e-mail; ``title``/``rich_text`` filter keys
are interchangeable on text-like properties.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Protocol

from . import limits, richtext
from .errors import invalid
from .properties import PropertySchema, parse_iso
from .richtext import type_name

MAX_DEPTH = limits.MAX_FILTER_DEPTH
"""Nesting limit of compound filters (Notion allows two levels; a little slack, but bounded)."""


class Row(Protocol):
    seq: int
    properties: dict[str, Any]
    created_time: str
    last_edited_time: str
    created_by: str
    last_edited_by: str


Predicate = Callable[[Row], bool]
PropertyLookup = Callable[[str], PropertySchema | None]
PersonLookup = Callable[[str], dict[str, Any]]

_FAMILY = {
    "title": "text",
    "rich_text": "text",
    "url": "text",
    "email": "text",
    "phone_number": "text",
    "number": "number",
    "checkbox": "checkbox",
    "select": "select",
    "status": "select",
    "multi_select": "multi_select",
    "date": "date",
    "created_time": "date",
    "last_edited_time": "date",
    "people": "people",
    "created_by": "people",
    "last_edited_by": "people",
}
_OPERATORS = {
    "text": (
        "equals",
        "does_not_equal",
        "contains",
        "does_not_contain",
        "starts_with",
        "ends_with",
        "is_empty",
        "is_not_empty",
    ),
    "number": (
        "equals",
        "does_not_equal",
        "greater_than",
        "less_than",
        "greater_than_or_equal_to",
        "less_than_or_equal_to",
        "is_empty",
        "is_not_empty",
    ),
    "checkbox": ("equals", "does_not_equal"),
    "select": ("equals", "does_not_equal", "is_empty", "is_not_empty"),
    "multi_select": ("contains", "does_not_contain", "is_empty", "is_not_empty"),
    "date": (
        "equals",
        "before",
        "after",
        "on_or_before",
        "on_or_after",
        "is_empty",
        "is_not_empty",
        "past_week",
        "past_month",
        "past_year",
        "next_week",
        "next_month",
        "next_year",
        "this_week",
    ),
    "people": ("contains", "does_not_contain", "is_empty", "is_not_empty"),
}
_RELATIVE = {"past_week": -7, "past_month": -30, "past_year": -365, "next_week": 7, "next_month": 30, "next_year": 365}


class FilterCompiler:
    """Compiles filter and sort JSON against one data source's schema."""

    def __init__(self, lookup: PropertyLookup, person: PersonLookup, now: datetime) -> None:
        self.lookup = lookup
        self.person = person
        self.now = now if now.tzinfo else now.replace(tzinfo=timezone.utc)
        self.conditions = 0  # leaves compiled so far: each costs one evaluation per row
        self._getters: dict[tuple[str, str], Callable[[Row], Any]] = {}
        self._folded: dict[int, Callable[[Row], str]] = {}

    # -- filters -----------------------------------------------------------------------------
    def compile(self, raw: Any, where: str = "body.filter", depth: int = 0) -> Predicate:
        if not isinstance(raw, dict):
            raise invalid(f"{where} should be an object, instead was {type_name(raw)}.")
        compound = [k for k in ("and", "or") if k in raw]
        if compound:
            if len(raw) != 1:
                raise invalid(f"{where} should have only one key when it is an {compound[0]!r} compound filter.")
            if depth >= MAX_DEPTH:
                raise invalid(f"{where} nests compound filters deeper than {MAX_DEPTH} levels.")
            items = raw[compound[0]]
            if not isinstance(items, list) or len(items) > limits.MAX_ARRAY:
                raise invalid(f"{where}.{compound[0]} should be an array of at most {limits.MAX_ARRAY} filters.")
            parts = [self.compile(item, f"{where}.{compound[0]}[{i}]", depth + 1) for i, item in enumerate(items)]
            if compound[0] == "and":
                return lambda row: all(p(row) for p in parts)
            return lambda row: any(p(row) for p in parts)
        self.conditions += 1
        if self.conditions > limits.MAX_FILTER_CONDITIONS:
            raise invalid(f"body.filter has more than {limits.MAX_FILTER_CONDITIONS} conditions.")
        if "timestamp" in raw:
            kind = raw["timestamp"]
            if kind not in ("created_time", "last_edited_time"):
                raise invalid(f"{where}.timestamp should be created_time or last_edited_time.")
            cond = raw.get(kind, raw.get("date"))
            getter: Callable[[Row], Any] = (
                (lambda r: r.created_time) if kind == "created_time" else (lambda r: r.last_edited_time)
            )
            return self._condition("date", getter, cond, f"{where}.{kind}")
        if "property" not in raw:
            raise invalid(f"{where} should have a property, a timestamp, or an and/or compound.")
        key = raw["property"]
        prop = self.lookup(key) if isinstance(key, str) else None
        if prop is None:
            raise invalid(f"Could not find property with name or id: {key}")
        conditions = [k for k in raw if k not in ("property", "type")]
        if len(conditions) != 1:
            raise invalid(f'{where} should have exactly one condition key, e.g. {{"{prop.type}": {{...}}}}.')
        ckey = conditions[0]
        family = _FAMILY.get(ckey)
        if family is None:
            raise invalid(f"{where}.{ckey} is not a filter type.")
        own = _FAMILY[prop.type]
        if family != own and not (family == "text" and own == "people"):
            hint = f'{{"{prop.type}": {{...}}}}'
            raise invalid(f"{where}: property {prop.name!r} is {prop.type}; filter it with {hint}, not {ckey}.")
        return self._condition(family, self._getter(prop, family), raw[ckey], f"{where}.{ckey}")

    def _getter(self, prop: PropertySchema, family: str) -> Callable[[Row], Any]:
        """One getter per property, remembering the last row's value: a filter with many
        conditions on one property reads (and, for text, flattens) each row's value once."""
        key = (prop.id, family)
        if key not in self._getters:
            self._getters[key] = _per_row(self._make_getter(prop, family))
        return self._getters[key]

    def _make_getter(self, prop: PropertySchema, family: str) -> Callable[[Row], Any]:
        t, pid = prop.type, prop.id
        if t == "created_time":
            return lambda r: r.created_time
        if t == "last_edited_time":
            return lambda r: r.last_edited_time
        if t in ("created_by", "last_edited_by"):
            attr = t
            return lambda r: [self.person(getattr(r, attr))]
        if t == "people" and family == "text":
            return lambda r: ", ".join(p.get("name") or "" for p in r.properties.get(pid) or ())
        if t in ("title", "rich_text"):
            return lambda r: richtext.plain_text(r.properties.get(pid))
        if t in ("select", "status"):

            def select_name(r: Row) -> str | None:
                option = prop.option_by_id(r.properties.get(pid) or "")
                return option["name"] if option else None

            return select_name
        if t == "multi_select":
            return lambda r: [o["name"] for o in (prop.option_by_id(v) for v in r.properties.get(pid) or ()) if o]
        if t == "date":
            return lambda r: (r.properties.get(pid) or {}).get("start")
        return lambda r: r.properties.get(pid)

    def _condition(self, family: str, get: Callable[[Row], Any], cond: Any, where: str) -> Predicate:
        if not isinstance(cond, dict) or len(cond) != 1:
            raise invalid(f"{where} should be an object with exactly one operator ({', '.join(_OPERATORS[family])}).")
        op, value = next(iter(cond.items()))
        if op not in _OPERATORS[family]:
            raise invalid(
                f"{where}.{op} is not a {family} filter operator (use one of {', '.join(_OPERATORS[family])})."
            )
        if op in ("is_empty", "is_not_empty"):
            if not isinstance(value, bool):
                raise invalid(f"{where}.{op} should be true.")
            want_empty = (op == "is_empty") == value
            return lambda r: _is_empty(get(r)) == want_empty
        return getattr(self, f"_{family}")(op, value, get, f"{where}.{op}")

    def _text(self, op: str, value: Any, get: Callable[[Row], Any], where: str) -> Predicate:
        if not isinstance(value, str):
            raise invalid(f"{where} should be a string, instead was {type_name(value)}.")
        needle = value.casefold()
        if id(get) not in self._folded:
            self._folded[id(get)] = _per_row(lambda r: (get(r) or "").casefold())
        folded = self._folded[id(get)]
        tests: dict[str, Callable[[str], bool]] = {
            "equals": lambda s: s == needle,
            "does_not_equal": lambda s: s != needle,
            "contains": lambda s: needle in s,
            "does_not_contain": lambda s: needle not in s,
            "starts_with": lambda s: s.startswith(needle),
            "ends_with": lambda s: s.endswith(needle),
        }
        test = tests[op]
        return lambda r: test(folded(r))

    def _number(self, op: str, value: Any, get: Callable[[Row], Any], where: str) -> Predicate:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise invalid(f"{where} should be a number, instead was {type_name(value)}.")
        tests: dict[str, Callable[[Any], bool]] = {
            "equals": lambda v: v is not None and v == value,
            "does_not_equal": lambda v: v is None or v != value,
            "greater_than": lambda v: v is not None and v > value,
            "less_than": lambda v: v is not None and v < value,
            "greater_than_or_equal_to": lambda v: v is not None and v >= value,
            "less_than_or_equal_to": lambda v: v is not None and v <= value,
        }
        test = tests[op]
        return lambda r: test(get(r))

    def _checkbox(self, op: str, value: Any, get: Callable[[Row], Any], where: str) -> Predicate:
        if not isinstance(value, bool):
            raise invalid(f"{where} should be a boolean, instead was {type_name(value)}.")
        if op == "equals":
            return lambda r: bool(get(r)) == value
        return lambda r: bool(get(r)) != value

    def _select(self, op: str, value: Any, get: Callable[[Row], Any], where: str) -> Predicate:
        if not isinstance(value, str):
            raise invalid(f"{where} should be a string, instead was {type_name(value)}.")
        needle = value.casefold()
        if op == "equals":
            return lambda r: (get(r) or "").casefold() == needle and get(r) is not None
        return lambda r: (get(r) or "").casefold() != needle or get(r) is None

    def _multi_select(self, op: str, value: Any, get: Callable[[Row], Any], where: str) -> Predicate:
        if not isinstance(value, str):
            raise invalid(f"{where} should be a string, instead was {type_name(value)}.")
        needle = value.casefold()
        if op == "contains":
            return lambda r: any(n.casefold() == needle for n in get(r) or ())
        return lambda r: not any(n.casefold() == needle for n in get(r) or ())

    def _people(self, op: str, value: Any, get: Callable[[Row], Any], where: str) -> Predicate:
        if not isinstance(value, str):
            raise invalid(f"{where} should be a user id (or, here, a name or e-mail), instead was {type_name(value)}.")
        needle = value.strip().casefold().replace("-", "")

        def matches(people: Sequence[dict[str, Any]]) -> bool:
            for p in people or ():
                keys = {
                    (p.get("id") or "").replace("-", ""),
                    (p.get("name") or "").casefold(),
                    (p.get("email") or "").casefold(),
                }
                if needle in keys:
                    return True
            return False

        if op == "contains":
            return lambda r: matches(get(r))
        return lambda r: not matches(get(r))

    def _date(self, op: str, value: Any, get: Callable[[Row], Any], where: str) -> Predicate:
        if op in _RELATIVE or op == "this_week":
            if value != {} and value is not True:
                raise invalid(f"{where} should be an empty object {{}}.")
            now = self.now
            if op == "this_week":
                monday = now.date() - timedelta(days=now.weekday())
                lo, hi = _instant(monday), _instant(monday + timedelta(days=7)) - timedelta(microseconds=1)
            else:
                shifted = now + timedelta(days=_RELATIVE[op])
                lo, hi = min(now, shifted), max(now, shifted)
            return lambda r: (v := _parse_point(get(r))) is not None and lo <= _instant(v) <= hi
        if not isinstance(value, str) or parse_iso(value) is None:
            raise invalid(f"{where} should be an ISO 8601 date or date-time string, e.g. 2025-04-07.")
        bound = parse_iso(value)
        assert bound is not None
        as_date = not isinstance(bound, datetime)
        key = bound if as_date else _instant(bound)
        tests: dict[str, Callable[[Any], bool]] = {
            "equals": lambda v: v == key,
            "before": lambda v: v < key,
            "after": lambda v: v > key,
            "on_or_before": lambda v: v <= key,
            "on_or_after": lambda v: v >= key,
        }
        test = tests[op]

        def predicate(r: Row) -> bool:
            point = _parse_point(get(r))
            if point is None:
                return False
            if as_date:
                return test(point.date() if isinstance(point, datetime) else point)
            return test(_instant(point))

        return predicate

    # -- sorts -------------------------------------------------------------------------------
    def sorter(self, raw: Any, where: str = "body.sorts") -> Callable[[list[Row]], list[Row]]:
        """Validate ``sorts`` and return a function ordering rows by them (stable, empties last)."""
        if raw is None:
            return lambda rows: list(rows)
        if not isinstance(raw, list) or len(raw) > limits.MAX_SORTS:
            raise invalid(f"{where} should be an array of at most {limits.MAX_SORTS} sort objects.")
        keys: list[tuple[Callable[[Row], Any], bool]] = []
        for i, item in enumerate(raw):
            w = f"{where}[{i}]"
            if not isinstance(item, dict):
                raise invalid(f"{w} should be an object, instead was {type_name(item)}.")
            direction = item.get("direction", "ascending")
            if direction not in ("ascending", "descending"):
                raise invalid(f"{w}.direction should be ascending or descending.")
            if "timestamp" in item:
                ts = item["timestamp"]
                if ts not in ("created_time", "last_edited_time"):
                    raise invalid(f"{w}.timestamp should be created_time or last_edited_time.")
                keys.append((_timestamp_key(ts), direction == "descending"))
            elif "property" in item:
                prop = self.lookup(item["property"]) if isinstance(item["property"], str) else None
                if prop is None:
                    raise invalid(f"Could not find sort property with name or id: {item['property']}")
                keys.append((self._sort_key(prop), direction == "descending"))
            else:
                raise invalid(f"{w} should have a property or a timestamp.")

        def apply(rows: list[Row]) -> list[Row]:
            ordered = sorted(rows, key=lambda r: r.seq)
            for key, descending in reversed(keys):
                present = [(key(r), r) for r in ordered]
                full = [(k, r) for k, r in present if not _is_empty(k)]
                full.sort(key=lambda kr: kr[0], reverse=descending)
                ordered = [r for _, r in full] + [r for k, r in present if _is_empty(k)]
            return ordered

        return apply

    def _sort_key(self, prop: PropertySchema) -> Callable[[Row], Any]:
        t, pid = prop.type, prop.id
        if t in ("title", "rich_text"):
            return lambda r: richtext.plain_text(r.properties.get(pid)).casefold()
        if t in ("email", "url", "phone_number"):
            return lambda r: (r.properties.get(pid) or "").casefold()
        if t == "number":
            return lambda r: r.properties.get(pid)
        if t == "checkbox":
            return lambda r: bool(r.properties.get(pid))
        if t in ("select", "status"):
            return lambda r: prop.option_rank(r.properties[pid]) if r.properties.get(pid) else None
        if t == "multi_select":
            return lambda r: tuple(sorted(prop.option_rank(v) for v in r.properties.get(pid) or ()))
        if t == "date":
            return lambda r: (lambda p: _instant(p) if p is not None else None)(
                _parse_point((r.properties.get(pid) or {}).get("start"))
            )
        if t in ("created_time", "last_edited_time"):
            return lambda r: getattr(r, t)
        if t in ("created_by", "last_edited_by"):
            return lambda r: (self.person(getattr(r, t)).get("name") or "").casefold()
        return lambda r: ", ".join(p.get("name") or "" for p in r.properties.get(pid) or ()).casefold()


def _per_row(get: Callable[[Row], Any]) -> Callable[[Row], Any]:
    """``get``, computed once per row while the same row is asked for again (rows are evaluated
    one at a time, every condition in turn)."""
    last_row: Row | None = None
    last_value: Any = None

    def remembered(row: Row) -> Any:
        nonlocal last_row, last_value
        if row is not last_row:
            last_row, last_value = row, get(row)
        return last_value

    return remembered


def _timestamp_key(attr: str) -> Callable[[Row], Any]:
    return lambda r: getattr(r, attr)


def _is_empty(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, (list, tuple)) and len(value) == 0)


def _parse_point(value: Any) -> date | datetime | None:
    return parse_iso(value) if isinstance(value, str) else None


def _instant(value: date | datetime) -> datetime:
    """A comparable aware datetime (date-only → midnight UTC, naive → UTC)."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    return datetime.combine(value, time(0), tzinfo=timezone.utc)
