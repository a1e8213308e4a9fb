"""The objects a knowledge base holds, and their snapshot form.

Plain dataclasses, one per Notion object kind. Every object carries ``seq``, its creation
number in the store: ids derive from it, and it is the stable tie-breaker of every ordering
(rows, search results, children), which is what makes replays byte-identical.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, TypeVar

from .properties import PropertySchema, copy_json

T = TypeVar("T")


@dataclass
class User:
    id: str
    name: str
    email: str | None
    type: str = "person"  # "person" or "bot"


@dataclass
class Page:
    id: str
    seq: int
    parent_type: str  # "workspace", "page_id", "block_id" or "data_source_id"
    parent_id: str | None
    properties: dict[str, Any]  # property id → internal value
    created_time: str
    last_edited_time: str
    created_by: str
    last_edited_by: str
    in_trash: bool = False
    icon: Any = None
    cover: Any = None
    children: list[str] = field(default_factory=list)  # block, child page and child database ids


@dataclass
class Block:
    id: str
    seq: int
    parent_type: str  # "page_id" or "block_id"
    parent_id: str
    type: str
    data: dict[str, Any]
    created_time: str
    last_edited_time: str
    created_by: str
    last_edited_by: str
    in_trash: bool = False
    children: list[str] = field(default_factory=list)


@dataclass
class Database:
    id: str
    seq: int
    title: list[dict[str, Any]]
    description: list[dict[str, Any]]
    parent_type: str  # "workspace" or "page_id"
    parent_id: str | None
    created_time: str
    last_edited_time: str
    created_by: str
    last_edited_by: str
    is_inline: bool = False
    in_trash: bool = False
    icon: Any = None
    cover: Any = None
    data_source_ids: list[str] = field(default_factory=list)


@dataclass
class DataSource:
    id: str
    seq: int
    database_id: str
    title: list[dict[str, Any]]
    properties: list[PropertySchema]
    created_time: str
    last_edited_time: str
    created_by: str
    last_edited_by: str
    in_trash: bool = False
    rows: list[str] = field(default_factory=list)  # page ids in creation order

    def prop(self, key: str) -> PropertySchema | None:
        """A property by exact name, else by id (requests may use either)."""
        for p in self.properties:
            if p.name == key:
                return p
        for p in self.properties:
            if p.id == key:
                return p
        return None

    @property
    def title_prop(self) -> PropertySchema:
        return next(p for p in self.properties if p.type == "title")


@dataclass
class Comment:
    id: str
    seq: int
    parent_type: str  # "page_id" or "block_id"
    parent_id: str
    discussion_id: str
    rich_text: list[dict[str, Any]]
    created_time: str
    created_by: str


def to_json(obj: Any, *, copy: bool = True) -> dict[str, Any]:
    """Snapshot form of one object (property schemas flattened, everything else as is).

    ``copy=False`` shares the object's values: only for output rendered before the store changes
    again (the admin snapshot endpoint serialises it at once; deep copies were most of its time)."""
    out = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        if f.name == "properties" and isinstance(obj, DataSource):
            value = [p.to_json() for p in value]
        elif copy:
            value = copy_json(value)
        out[f.name] = value
    return out


def from_json(cls: type[T], data: dict[str, Any]) -> T:
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    kwargs = {k: copy_json(v) for k, v in data.items() if k in names}
    if cls is DataSource:
        kwargs["properties"] = [PropertySchema.from_json(p) for p in data["properties"]]
    return cls(**kwargs)


__all__ = ["Block", "Comment", "DataSource", "Database", "Page", "User", "asdict", "from_json", "to_json"]
