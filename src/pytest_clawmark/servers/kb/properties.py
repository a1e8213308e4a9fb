"""Typed database properties: schemas (what a column is) and values (what a row holds).

Three representations of a value, one concept:

* **API** — what requests send and responses carry (``{"select": {"name": "Done"}}``);
* **internal** — what the store keeps: rich-text spans, option *ids* for selects (so renaming an
  option renames it everywhere), ``{"start","end","time_zone"}`` dates, people as
  ``{"id","name","email"}``;
* **plain** — what the admin plane exchanges with turn setup and checkers: ``str``, ``int``,
  ``bool``, ``list[str]``… so a checker reads ``row["Status"] == "Done"``.

Parsing never mutates a schema: new select options a value introduces are returned alongside
the value and applied by the store only once the whole request has validated.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Protocol

from . import limits, richtext
from .errors import invalid
from .ids import short_id
from .richtext import type_name

WRITABLE_TYPES = (
    "title",
    "rich_text",
    "number",
    "select",
    "multi_select",
    "status",
    "date",
    "checkbox",
    "email",
    "url",
    "phone_number",
    "people",
)
READ_ONLY_TYPES = ("created_time", "last_edited_time", "created_by", "last_edited_by")
TYPES = WRITABLE_TYPES + READ_ONLY_TYPES
OPTION_TYPES = ("select", "multi_select", "status")
NUMBER_FORMATS = frozenset(
    "number number_with_commas percent dollar canadian_dollar euro pound yen ruble rupee won yuan real "
    "lira rupiah franc hong_kong_dollar new_zealand_dollar krona norwegian_krone mexican_peso rand "
    "new_taiwan_dollar danish_krone zloty baht forint koruna shekel chilean_peso philippine_peso dirham "
    "colombian_peso riyal ringgit leu argentine_peso uruguayan_peso singapore_dollar".split()
)
MAX_TEXT = limits.MAX_TEXT_CONTENT
MAX_OPTION_NAME = limits.MAX_NAME
_MAX_CHARS = {"url": limits.MAX_URL, "email": limits.MAX_EMAIL, "phone_number": limits.MAX_PHONE}

DEFAULT_STATUS = (
    ("Not started", "default", "To-do"),
    ("In progress", "blue", "In progress"),
    ("Done", "green", "Complete"),
)
STATUS_GROUPS = (("To-do", "gray"), ("In progress", "blue"), ("Complete", "green"))


@dataclass
class PropertySchema:
    """One column of a data source. ``config`` is Notion's type-specific configuration object."""

    id: str
    name: str
    type: str
    config: dict[str, Any] = field(default_factory=dict)

    # -- options (select, multi_select, status) -------------------------------------------
    @property
    def options(self) -> list[dict[str, Any]]:
        return self.config.setdefault("options", []) if self.type in OPTION_TYPES else []

    def option_by_id(self, option_id: str) -> dict[str, Any] | None:
        return next((o for o in self.options if o["id"] == option_id), None)

    def option_by_name(self, name: str) -> dict[str, Any] | None:
        exact = next((o for o in self.options if o["name"] == name), None)
        if exact is not None:
            return exact
        folded = [o for o in self.options if o["name"].casefold() == name.strip().casefold()]
        return folded[0] if len(folded) == 1 else None

    def option_rank(self, option_id: str) -> int:
        for i, o in enumerate(self.options):
            if o["id"] == option_id:
                return i
        return len(self.options)

    def add_options(self, new: Iterable[dict[str, Any]]) -> None:
        for option in new:
            if self.option_by_id(option["id"]) is None:
                self.options.append(dict(option))

    def default_value(self) -> Any:
        """The value a new row gets when the request leaves this property out."""
        if self.type in ("title", "rich_text", "multi_select", "people"):
            return []
        if self.type == "checkbox":
            return False
        if self.type == "status":
            groups = self.config.get("groups") or []
            todo = next((g for g in groups if g.get("name") == "To-do" and g.get("option_ids")), None)
            if todo:
                return todo["option_ids"][0]
            return self.options[0]["id"] if self.options else None
        return None

    # -- JSON --------------------------------------------------------------------------------
    def to_api(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "type": self.type,
            "description": None,
            self.type: copy_json(self.config),
        }

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "type": self.type, "config": copy_json(self.config)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PropertySchema:
        return cls(data["id"], data["name"], data["type"], copy_json(data.get("config") or {}))


PAGE_TITLE = PropertySchema("title", "title", "title")
"""The only property of a page whose parent is not a data source."""


class PeopleResolver(Protocol):
    def __call__(self, entries: list[Any], where: str) -> list[dict[str, Any]]: ...


class PageMeta(Protocol):
    created_time: str
    last_edited_time: str
    created_by: str
    last_edited_by: str


# -- schemas ---------------------------------------------------------------------------------
def parse_spec(name: str, spec: Any, current: PropertySchema | None, taken_ids: set[str], where: str) -> PropertySchema:
    """A property schema from a request's ``properties`` entry (create, or update of ``current``).

    ``{"name": "New"}`` renames; a type key (``{"number": {"format": "dollar"}}``) sets or changes
    the type and its configuration.
    """
    if not isinstance(spec, dict):
        raise invalid(f"{where} should be an object or null, instead was {type_name(spec)}.")
    new_name = spec.get("name", name if current is None else current.name)
    if not isinstance(new_name, str) or not new_name.strip() or len(new_name) > MAX_OPTION_NAME:
        raise invalid(f"{where}.name should be a non-empty string of at most {MAX_OPTION_NAME} characters.")
    kind = spec.get("type")
    if kind is None:
        present = [k for k in spec if k in TYPES]
        unsupported = [k for k in spec if k not in TYPES and k not in ("name", "id", "description", "type")]
        if len(present) > 1:
            raise invalid(f"{where} should have one property type, instead had {', '.join(present)}.")
        if unsupported:
            raise invalid(
                f"{where}: property type {unsupported[0]!r} is not supported (supported: {', '.join(TYPES)})."
            )
        kind = present[0] if present else None
    if kind is None:
        if current is None:
            raise invalid(f'{where} should set a property type, e.g. {{"rich_text": {{}}}}.')
        return PropertySchema(current.id, new_name.strip(), current.type, copy_json(current.config))
    if kind not in TYPES:
        raise invalid(f"{where}: property type {kind!r} is not supported (supported: {', '.join(TYPES)}).")
    raw_config = spec.get(kind, {})
    if raw_config is None:
        raw_config = {}
    if not isinstance(raw_config, dict):
        raise invalid(f"{where}.{kind} should be an object, instead was {type_name(raw_config)}.")
    if current is not None:
        prop_id = current.id
    elif kind == "title":
        prop_id = "title"
    else:
        prop_id = short_id(f"prop/{new_name}", taken_ids)
    same_family = current is not None and current.type in OPTION_TYPES and kind in OPTION_TYPES
    previous = current if current is not None and (current.type == kind or same_family) else None
    config = _parse_config(kind, raw_config, prop_id, previous, f"{where}.{kind}")
    return PropertySchema(prop_id, new_name.strip(), kind, config)


def _parse_config(
    kind: str, raw: dict[str, Any], prop_id: str, previous: PropertySchema | None, where: str
) -> dict[str, Any]:
    if kind == "number":
        fmt = raw.get("format", previous.config.get("format", "number") if previous else "number")
        if not isinstance(fmt, str) or fmt not in NUMBER_FORMATS:
            raise invalid(f"{where}.format should be a Notion number format, e.g. number, dollar, percent.")
        return {"format": fmt}
    if kind not in OPTION_TYPES:
        return {}
    if "options" not in raw:
        if previous is None:
            return _default_status(prop_id) if kind == "status" else {"options": []}
        kept = copy_json(previous.config.get("options", []))
        if kind != "status":
            return {"options": kept}
        return {"options": kept, "groups": copy_json(previous.config.get("groups")) or _status_groups(prop_id, kept)}
    options_in = raw["options"]
    if not isinstance(options_in, list) or len(options_in) > limits.MAX_OPTIONS:
        raise invalid(f"{where}.options should be an array of at most 100 options.")
    options: list[dict[str, Any]] = []
    for i, item in enumerate(options_in):
        if isinstance(item, str):
            item = {"name": item}
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"].strip():
            raise invalid(f"{where}.options[{i}] should be an object with a non-empty name.")
        name = item["name"].strip()
        if len(name) > MAX_OPTION_NAME:
            raise invalid(f"{where}.options[{i}].name should be at most {MAX_OPTION_NAME} characters.")
        if any(o["name"] == name for o in options):
            continue
        color = item.get("color", "default")
        if not richtext.is_color(color, background=False):
            raise invalid(f"{where}.options[{i}].color should be a Notion color.")
        old = previous.option_by_name(name) if previous else None
        option_id = old["id"] if old else short_id(f"{prop_id}/option/{name}", {o["id"] for o in options})
        description = item.get("description")
        options.append(
            {
                "id": option_id,
                "name": name,
                "color": color,
                "description": description if isinstance(description, str) else None,
            }
        )
    if kind != "status":
        return {"options": options}
    return {"options": options, "groups": _status_groups(prop_id, options)}


def _default_status(prop_id: str) -> dict[str, Any]:
    options = [
        {"id": short_id(f"{prop_id}/option/{n}"), "name": n, "color": c, "description": None}
        for n, c, _ in DEFAULT_STATUS
    ]
    return {"options": options, "groups": _status_groups(prop_id, options)}


def _status_groups(prop_id: str, options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Status groups: the first option is to-do, the last complete, the rest in progress."""
    default_groups = {n: g for n, _, g in DEFAULT_STATUS}
    members: dict[str, list[str]] = {g: [] for g, _ in STATUS_GROUPS}
    for i, o in enumerate(options):
        group = default_groups.get(o["name"])
        if group is None:
            group = "To-do" if i == 0 else "Complete" if i == len(options) - 1 and len(options) > 1 else "In progress"
        members[group].append(o["id"])
    return [
        {"id": short_id(f"{prop_id}/group/{g}"), "name": g, "color": c, "option_ids": members[g]}
        for g, c in STATUS_GROUPS
    ]


def spec_from_plain(kind_or_spec: str | dict[str, Any], where: str) -> dict[str, Any]:
    """Admin-plane schema shorthand → an API property spec.

    ``"number"`` → ``{"number": {}}``; ``{"select": ["A", "B"]}`` → options A, B; a full Notion
    spec (``{"select": {"options": [...]}}``) passes through.
    """
    if isinstance(kind_or_spec, str):
        return {kind_or_spec: {}} if kind_or_spec in TYPES else {"type": kind_or_spec}
    if not isinstance(kind_or_spec, dict) or not kind_or_spec:
        raise invalid(f"{where} should be a property type name or a one-key mapping, e.g. {{'select': ['A', 'B']}}.")
    spec = dict(kind_or_spec)
    for key, value in list(spec.items()):
        if key in OPTION_TYPES and isinstance(value, (list, tuple)):
            spec[key] = {"options": [v if isinstance(v, dict) else {"name": str(v)} for v in value]}
        elif key == "number" and isinstance(value, str):
            spec[key] = {"format": value}
    return spec


# -- values: API in --------------------------------------------------------------------------
def parse_value(prop: PropertySchema, raw: Any, people: PeopleResolver, where: str) -> tuple[Any, list[dict[str, Any]]]:
    """An API property value → (internal value, select options it creates)."""
    if prop.type in READ_ONLY_TYPES:
        raise invalid(f"{where}: {prop.name} is a {prop.type} property, which cannot be set.")
    if not isinstance(raw, dict):
        # Notion's shorthand: the bare value of the property's type ({"title": [...]} for a page).
        return parse_inner(prop, raw, people, where)
    key = raw.get("type") if isinstance(raw.get("type"), str) else None
    if key is None:
        keys = [k for k in raw if k in TYPES]
        if len(keys) > 1:
            raise invalid(f"{where} should set only {prop.type!r}, instead had {', '.join(keys)}.")
        key = keys[0] if keys else None
        if key is None:  # a bare object value, e.g. {"name": "Done"} for a select, {"start": ...} for a date
            return parse_inner(prop, raw, people, where)
    if key not in raw:
        raise invalid(f'{where} should set {prop.type!r} (e.g. {{"{prop.type}": ...}}).')
    if key != prop.type and not _compatible(prop.type, key):
        raise invalid(f"{where}: {prop.name} is expected to be {prop.type}, not {key}.")
    return parse_inner(prop, raw[key], people, f"{where}.{key}", source=key)


def _compatible(prop_type: str, key: str) -> bool:
    text = ("title", "rich_text")
    if prop_type in text and key in text:
        return True
    return prop_type == "people" and key in text  # people-as-text


def parse_inner(
    prop: PropertySchema, inner: Any, people: PeopleResolver, where: str, source: str | None = None
) -> tuple[Any, list[dict[str, Any]]]:
    """The type-specific part of a value (``raw[prop.type]``) → (internal value, new options)."""
    t = prop.type
    if t in ("title", "rich_text"):
        return richtext.parse(inner if inner is not None else [], where), []
    if t == "number":
        return _number(inner, where), []
    if t == "checkbox":
        if not isinstance(inner, bool):
            raise invalid(f"{where} should be a boolean, instead was {type_name(inner)}.")
        return inner, []
    if t in ("email", "url", "phone_number"):
        if inner is None:
            return None, []
        if t == "phone_number" and isinstance(inner, (int, float)) and not isinstance(inner, bool):
            inner = str(inner)
        if not isinstance(inner, str):
            raise invalid(f"{where} should be a string or null, instead was {type_name(inner)}.")
        if len(inner) > _MAX_CHARS[t]:
            raise invalid(f"{where}.length should be ≤ {_MAX_CHARS[t]}, instead was {len(inner)}.")
        return (inner or None), []
    if t == "date":
        return parse_date_value(inner, where), []
    if t in ("select", "status"):
        if inner is None:
            return None, []
        option, new = _option(prop, inner, where, create=t == "select")
        return option, new
    if t == "multi_select":
        if inner is None:
            return [], []
        if isinstance(inner, str):
            inner = [s for s in (p.strip() for p in inner.split(",")) if s]
        if not isinstance(inner, list) or len(inner) > limits.MAX_OPTIONS:
            raise invalid(f"{where} should be an array of at most {limits.MAX_OPTIONS} options.")
        ids: list[str] = []
        created: list[dict[str, Any]] = []
        for i, item in enumerate(inner):
            option_id, new = _option(prop, item, f"{where}[{i}]", create=True, pending=created)
            created += new
            if option_id not in ids:
                ids.append(option_id)
        return ids, created
    if t == "people":
        if source in ("title", "rich_text"):
            names = richtext.plain_text(richtext.parse(inner if inner is not None else [], where))
            inner = [s for s in (p.strip() for p in names.split(",")) if s]
        if inner is None:
            return [], []
        if isinstance(inner, (str, dict)):
            inner = [inner] if not isinstance(inner, str) else [s for s in (p.strip() for p in inner.split(",")) if s]
        if not isinstance(inner, list) or len(inner) > limits.MAX_PEOPLE:
            raise invalid(f"{where} should be an array of at most {limits.MAX_PEOPLE} users.")
        return people(inner, where), []
    raise invalid(f"{where}: {t} values cannot be set.")  # pragma: no cover - guarded by parse_value


def _number(value: Any, where: str) -> int | float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise invalid(f"{where} should be a number or null, instead was {type_name(value)}.")
    if isinstance(value, float) and not math.isfinite(value):
        raise invalid(f"{where} should be a finite number.")
    if isinstance(value, int) and abs(value) > 2**63:
        raise invalid(f"{where} is too large.")
    return value


def _option(
    prop: PropertySchema, item: Any, where: str, *, create: bool, pending: list[dict[str, Any]] | None = None
) -> tuple[str, list[dict[str, Any]]]:
    if isinstance(item, str):
        item = {"name": item}
    if not isinstance(item, dict):
        raise invalid(f"{where} should be an object with a name or id, instead was {type_name(item)}.")
    if isinstance(item.get("id"), str) and "name" not in item:
        if prop.option_by_id(item["id"]) is None:
            raise invalid(f"{where}.id {item['id']!r} is not an option of {prop.name}.")
        return item["id"], []
    name = item.get("name")
    if not isinstance(name, str) or not name.strip():
        raise invalid(f"{where} should be an object with a non-empty name or an id.")
    if len(name) > MAX_OPTION_NAME:
        raise invalid(f"{where}.name should be at most {MAX_OPTION_NAME} characters.")
    existing = prop.option_by_name(name)
    if existing is not None:
        return existing["id"], []
    for option in pending or ():
        if option["name"] == name.strip():
            return option["id"], []
    if not create:
        names = ", ".join(o["name"] for o in prop.options) or "none"
        raise invalid(f"{where}: {name!r} is not a valid {prop.type} option of {prop.name} (options: {names}).")
    taken = {o["id"] for o in prop.options} | {o["id"] for o in pending or ()}
    color = item.get("color", "default")
    if not richtext.is_color(color, background=False):
        color = "default"
    option = {
        "id": short_id(f"{prop.id}/option/{name.strip()}", taken),
        "name": name.strip(),
        "color": color,
        "description": None,
    }
    return option["id"], [option]


def parse_date_value(inner: Any, where: str) -> dict[str, Any] | None:
    if inner is None:
        return None
    if isinstance(inner, str):
        inner = {"start": inner}
    if not isinstance(inner, dict):
        raise invalid(f"{where} should be an object with a start date, or null.")
    start = inner.get("start")
    if not isinstance(start, str) or parse_iso(start) is None:
        raise invalid(f"{where}.start should be an ISO 8601 date or date-time, e.g. 2025-04-07.")
    end = inner.get("end")
    if end is not None and (not isinstance(end, str) or parse_iso(end) is None):
        raise invalid(f"{where}.end should be an ISO 8601 date or date-time, or null.")
    tz = inner.get("time_zone")
    if tz is not None and (not isinstance(tz, str) or len(tz) > 64):
        raise invalid(f"{where}.time_zone should be an IANA time zone name, or null.")
    return {"start": start.strip(), "end": end.strip() if end else None, "time_zone": tz}


def parse_iso(text: str) -> date | datetime | None:
    """An ISO 8601 date (``date``) or date-time (``datetime``), or None when it is neither."""
    text = text.strip()
    if len(text) > 40:
        return None
    try:
        if len(text) == 10:
            return date.fromisoformat(text)
        return datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None


# -- values: admin plain in ------------------------------------------------------------------
def from_plain(
    prop: PropertySchema, value: Any, people: PeopleResolver, where: str
) -> tuple[Any, list[dict[str, Any]]]:
    """A plain admin value (``"Done"``, ``3``, ``["a", "b"]``, ``"2025-04-07"``) → internal value."""
    t = prop.type
    if t in READ_ONLY_TYPES:
        raise invalid(f"{where}: {prop.name} is a {t} property, which cannot be set.")
    if t in ("title", "rich_text"):
        if value is None:
            return [], []
        if isinstance(value, list):
            return richtext.parse(value, where), []
        return richtext.from_plain(str(value)), []
    if t == "date" and isinstance(value, (date, datetime)):
        value = value.isoformat()
    if t == "date" and isinstance(value, str) and "/" in value:
        start, _, end = value.partition("/")
        value = {"start": start, "end": end}
    if t in ("select", "status") and value is not None and not isinstance(value, dict):
        value = {"name": str(value)}
    if t == "multi_select" and isinstance(value, (tuple, set, frozenset)):
        value = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
    if t == "people" and isinstance(value, tuple):
        value = list(value)
    return parse_inner(prop, value, people, where)


# -- values: out -----------------------------------------------------------------------------
def render_value(
    prop: PropertySchema, value: Any, page: PageMeta, user: Callable[[str], dict[str, Any]]
) -> dict[str, Any]:
    """The API form of a page's property value (``{"id", "type", <type>: ...}``)."""
    t = prop.type
    out: Any
    if t == "created_time":
        out = page.created_time
    elif t == "last_edited_time":
        out = page.last_edited_time
    elif t == "created_by":
        out = {"object": "user", "id": page.created_by}
    elif t == "last_edited_by":
        out = {"object": "user", "id": page.last_edited_by}
    elif t in ("title", "rich_text"):
        out = copy_json(value or [])
    elif t in ("select", "status"):
        option = prop.option_by_id(value) if value else None
        out = {"id": option["id"], "name": option["name"], "color": option["color"]} if option else None
    elif t == "multi_select":
        out = [
            {"id": o["id"], "name": o["name"], "color": o["color"]}
            for o in (prop.option_by_id(v) for v in value or ())
            if o
        ]
    elif t == "people":
        out = [user(p["id"]) | _person_fields(p) for p in value or ()]
    elif t == "date":
        out = dict(value) if value else None
    elif t == "checkbox":
        out = bool(value)
    else:
        out = value
    return {"id": prop.id, "type": t, t: out}


def _person_fields(p: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": p.get("name"),
        "avatar_url": None,
        "type": "person",
        "person": {"email": p["email"]} if p.get("email") else {},
    }


def to_plain(prop: PropertySchema, value: Any, page: PageMeta, user_name: Callable[[str], str]) -> Any:
    """The plain Python form of a value, for checkers (see the module docstring)."""
    t = prop.type
    if t == "created_time":
        return page.created_time
    if t == "last_edited_time":
        return page.last_edited_time
    if t == "created_by":
        return user_name(page.created_by)
    if t == "last_edited_by":
        return user_name(page.last_edited_by)
    if t in ("title", "rich_text"):
        return richtext.plain_text(value)
    if t in ("select", "status"):
        option = prop.option_by_id(value) if value else None
        return option["name"] if option else None
    if t == "multi_select":
        return [o["name"] for o in (prop.option_by_id(v) for v in value or ()) if o]
    if t == "people":
        return [p.get("name") or p.get("email") or p["id"] for p in value or ()]
    if t == "date":
        if not value:
            return None
        return value["start"] if not value.get("end") else f"{value['start']}/{value['end']}"
    if t == "checkbox":
        return bool(value)
    return value


def text_of(prop: PropertySchema, value: Any) -> str:
    """The searchable text of a value (text filters, search, sorting by text)."""
    if prop.type in ("title", "rich_text"):
        return richtext.plain_text(value)
    if prop.type in ("email", "url", "phone_number"):
        return value or ""
    return ""


def copy_json(value: Any) -> Any:
    """A deep copy of plain JSON data (values and configs are never shared between objects)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value
