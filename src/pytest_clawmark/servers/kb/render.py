"""Store objects → Notion API JSON, per dialect.

Kept apart from the store so the state stays dialect-free and every response shape lives in
one place: page, database, data source, block, user, comment and list objects.
"""

from __future__ import annotations

from typing import Any

from . import properties as props
from . import richtext
from .dialects import Dialect
from .model import Block, Comment, Database, DataSource, Page, User
from .store import KbStore


def notion_url(object_id: str) -> str:
    return f"https://www.notion.so/{object_id.replace('-', '')}"


def user(store: KbStore, uid: str) -> dict[str, Any]:
    u = store.users.get(uid)
    if u is None:
        return {"object": "user", "id": uid}
    return user_object(store, u)


def user_object(store: KbStore, u: User) -> dict[str, Any]:
    out: dict[str, Any] = {"object": "user", "id": u.id, "name": u.name, "avatar_url": None, "type": u.type}
    if u.type == "bot":
        owner = next((x for x in store.users.values() if x.type == "person"), None)
        out["bot"] = {
            "owner": {"type": "user", "user": user_object(store, owner)}
            if owner
            else {"type": "workspace", "workspace": True},
            "workspace_name": _workspace_name(owner),
        }
    else:
        out["person"] = {"email": u.email} if u.email else {}
    return out


def _workspace_name(owner: User | None) -> str:
    if owner and owner.email and "@" in owner.email:
        return owner.email.split("@", 1)[1]
    return "Workspace"


def _ref(uid: str) -> dict[str, Any]:
    return {"object": "user", "id": uid}


def page_parent(store: KbStore, page: Page, dialect: Dialect) -> dict[str, Any]:
    if page.parent_type == "data_source_id" and page.parent_id in store.data_sources:
        ds = store.data_sources[page.parent_id]
        if dialect.data_sources:
            return {"type": "data_source_id", "data_source_id": ds.id, "database_id": ds.database_id}
        return {"type": "database_id", "database_id": ds.database_id}
    return _simple_parent(page.parent_type, page.parent_id)


def _simple_parent(kind: str, pid: str | None) -> dict[str, Any]:
    if kind == "workspace" or pid is None:
        return {"type": "workspace", "workspace": True}
    return {"type": kind, kind: pid}


def page(store: KbStore, p: Page, dialect: Dialect, only: set[str] | None = None) -> dict[str, Any]:
    """A page object; ``only`` limits properties to these ids (``filter_properties``)."""
    properties = {}
    for prop in store.schema_of(p):
        if only is not None and prop.id not in only and prop.name not in only:
            continue
        properties[prop.name] = props.render_value(prop, p.properties.get(prop.id), p, lambda uid: user(store, uid))
    return {
        "object": "page",
        "id": p.id,
        "created_time": p.created_time,
        "last_edited_time": p.last_edited_time,
        "created_by": _ref(p.created_by),
        "last_edited_by": _ref(p.last_edited_by),
        "cover": p.cover,
        "icon": p.icon,
        "parent": page_parent(store, p, dialect),
        "archived": p.in_trash,
        "in_trash": p.in_trash,
        "is_locked": False,
        "properties": properties,
        "url": notion_url(p.id),
        "public_url": None,
    }


def database(store: KbStore, db: Database, dialect: Dialect) -> dict[str, Any]:
    out: dict[str, Any] = {
        "object": "database",
        "id": db.id,
        "created_time": db.created_time,
        "last_edited_time": db.last_edited_time,
        "created_by": _ref(db.created_by),
        "last_edited_by": _ref(db.last_edited_by),
        "title": props.copy_json(db.title),
        "description": props.copy_json(db.description),
        "icon": db.icon,
        "cover": db.cover,
        "parent": _simple_parent(db.parent_type, db.parent_id),
        "is_inline": db.is_inline,
        "archived": db.in_trash,
        "in_trash": db.in_trash,
        "is_locked": False,
        "url": notion_url(db.id),
        "public_url": None,
    }
    if dialect.data_sources:
        out["data_sources"] = [
            {"id": s, "name": richtext.plain_text(store.data_sources[s].title)}
            for s in db.data_source_ids
            if not store.data_sources[s].in_trash
        ]
    else:
        out["properties"] = {p.name: p.to_api() for p in store.primary_source(db).properties}
    return out


def data_source(store: KbStore, ds: DataSource, dialect: Dialect) -> dict[str, Any]:
    db = store.databases[ds.database_id]
    return {
        "object": "data_source",
        "id": ds.id,
        "created_time": ds.created_time,
        "last_edited_time": ds.last_edited_time,
        "created_by": _ref(ds.created_by),
        "last_edited_by": _ref(ds.last_edited_by),
        "title": props.copy_json(ds.title),
        "description": [],
        "icon": db.icon,
        "cover": db.cover,
        "properties": {p.name: p.to_api() for p in ds.properties},
        "parent": {"type": "database_id", "database_id": db.id},
        "database_parent": _simple_parent(db.parent_type, db.parent_id),
        "is_inline": db.is_inline,
        "archived": ds.in_trash,
        "in_trash": ds.in_trash,
        "url": notion_url(ds.id),
        "public_url": None,
    }


def block(store: KbStore, bid: str, dialect: Dialect) -> dict[str, Any]:
    """Any child id as a block object: a content block, a child page or a child database."""
    if bid in store.pages:
        p = store.pages[bid]
        return _block_shell(
            bid, page_parent(store, p, dialect), p, p.in_trash, False, "child_page", {"title": store.title_of(p)}
        )
    if bid in store.databases:
        d = store.databases[bid]
        return _block_shell(
            bid,
            _simple_parent(d.parent_type, d.parent_id),
            d,
            d.in_trash,
            False,
            "child_database",
            {"title": richtext.plain_text(d.title)},
        )
    b: Block = store.blocks[bid]
    has_children = any(store.resolve_block(c) is not None for c in b.children)
    return _block_shell(
        bid, _simple_parent(b.parent_type, b.parent_id), b, b.in_trash, has_children, b.type, props.copy_json(b.data)
    )


def _block_shell(
    bid: str,
    parent: dict[str, Any],
    obj: Page | Block | Database,
    trashed: bool,
    has_children: bool,
    kind: str,
    content: dict[str, Any],
) -> dict[str, Any]:
    return {
        "object": "block",
        "id": bid,
        "parent": parent,
        "created_time": obj.created_time,
        "last_edited_time": obj.last_edited_time,
        "created_by": _ref(obj.created_by),
        "last_edited_by": _ref(obj.last_edited_by),
        "has_children": has_children,
        "archived": trashed,
        "in_trash": trashed,
        "type": kind,
        kind: content,
    }


def comment(c: Comment) -> dict[str, Any]:
    return {
        "object": "comment",
        "id": c.id,
        "parent": {"type": c.parent_type, c.parent_type: c.parent_id},
        "discussion_id": c.discussion_id,
        "created_time": c.created_time,
        "last_edited_time": c.created_time,
        "created_by": _ref(c.created_by),
        "rich_text": props.copy_json(c.rich_text),
    }


def listing(results: list[dict[str, Any]], next_cursor: str | None, kind: str) -> dict[str, Any]:
    """Notion's paginated list object (``kind``: page_or_database, block, user, comment…)."""
    return {
        "object": "list",
        "results": results,
        "next_cursor": next_cursor,
        "has_more": next_cursor is not None,
        "type": kind,
        kind: {},
    }
