"""Agent-plane endpoints: the Notion REST API (``/v1/...``).

Each handler takes a :class:`Call` (store, dialect, path/query parameters, parsed body) and
returns the response JSON; it fills ``call.target`` and ``call.summary`` for the audit log.
Handlers validate everything (through the store's parse-then-commit operations) before any
state changes; :mod:`.app` turns :class:`~.errors.NotionError` into Notion's error shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from . import blocks as blocklib
from . import icons, limits, render, richtext
from . import properties as props
from .dialects import Dialect
from .errors import invalid, not_found
from .ids import canonical
from .model import DataSource, Page
from .store import KbStore, Parent, trash_flag

T = TypeVar("T")
_SMALL_INT = re.compile(r"^[0-9]{1,6}$")
DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = limits.MAX_PAGE_SIZE


@dataclass
class Call:
    """One agent request, as handlers see it."""

    store: KbStore
    dialect: Dialect
    method: str
    params: dict[str, str]
    query: Sequence[tuple[str, str]]
    body: dict[str, Any]
    actor: str
    target: str = ""
    summary: str = ""

    def arg(self, name: str) -> str | None:
        return next((v for k, v in self.query if k == name), None)

    def args(self, name: str) -> list[str]:
        return [v for k, v in self.query if k == name]


Handler = Callable[[Call], dict[str, Any]]


# -- helpers -----------------------------------------------------------------------------------
def path_id(call: Call, name: str) -> str:
    raw = call.params[name]
    cid = canonical(raw)
    if cid is None:
        raise invalid(f"path failed validation: path.{name} should be a valid uuid, instead was `{raw[:80]}`.")
    call.target = cid
    return cid


def paginate(call: Call, items: list[T], id_of: Callable[[T], str]) -> tuple[list[T], str | None]:
    """The window of ``items`` the request's ``start_cursor``/``page_size`` ask for."""
    if call.method in ("GET", "DELETE"):
        cursor: Any = call.arg("start_cursor")
        size: Any = call.arg("page_size")
        if isinstance(size, str):
            if not _SMALL_INT.match(size.strip()):
                raise invalid(f"query.page_size should be an integer between 1 and {MAX_PAGE_SIZE}.")
            size = int(size)
    else:
        cursor, size = call.body.get("start_cursor"), call.body.get("page_size")
    if size is None:
        size = DEFAULT_PAGE_SIZE
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_PAGE_SIZE:
        raise invalid(f"page_size should be an integer between 1 and {MAX_PAGE_SIZE}, instead was {str(size)[:40]}.")
    start = 0
    if cursor is not None:
        if not isinstance(cursor, str):
            raise invalid("start_cursor should be a string.")
        ids = [id_of(i) for i in items]
        wanted = canonical(cursor) or cursor
        if wanted not in ids:
            raise invalid(f"start_cursor {cursor[:80]!r} is not valid for this request.")
        start = ids.index(wanted)
    window = items[start : start + size]
    nxt = id_of(items[start + size]) if start + size < len(items) else None
    return window, nxt


def _parent(store: KbStore, raw: Any, where: str = "body.parent") -> Parent:
    """A request's parent object → :class:`Parent` (database ids mean their primary data source)."""
    if not isinstance(raw, dict):
        raise invalid(f"{where} should be an object, instead was {richtext.type_name(raw)}.")
    kind = raw.get("type")
    if kind is None:
        kind = next(
            (k for k in ("data_source_id", "database_id", "page_id", "block_id", "workspace") if k in raw), None
        )
    if kind == "workspace":
        return Parent("workspace")
    if kind not in ("data_source_id", "database_id", "page_id", "block_id") or kind not in raw:
        raise invalid(f"{where} should have one of page_id, data_source_id, database_id, block_id or workspace.")
    pid = canonical(raw[kind])
    if pid is None:
        raise invalid(f"{where}.{kind} should be a valid uuid, instead was {str(raw[kind])[:80]!r}.")
    if kind == "database_id":
        if pid in store.data_sources:  # agents mix the two up; the id is unambiguous
            return Parent("data_source_id", pid)
        return Parent("data_source_id", store.primary_source(store.database(pid)).id)
    if kind == "data_source_id" and pid not in store.data_sources and pid in store.databases:
        return Parent("data_source_id", store.primary_source(store.databases[pid]).id)
    return Parent(kind, pid)


def _icon(raw: Any, where: str) -> Any:
    return icons.parse_icon(raw, where)


def _rich(body: dict[str, Any], key: str) -> list[dict[str, Any]] | None:
    return richtext.parse(body[key], f"body.{key}") if key in body and body[key] is not None else None


def _bool(body: dict[str, Any], key: str) -> bool | None:
    if key not in body or body[key] is None:
        return None
    if not isinstance(body[key], bool):
        raise invalid(f"body.{key} should be a boolean.")
    return body[key]


def _list_type(call: Call) -> str:
    return "page_or_data_source" if call.dialect.data_sources else "page_or_database"


def _names(raw: Any) -> str:
    return ", ".join(list(raw)[:8]) if isinstance(raw, dict) else ""


# -- users -------------------------------------------------------------------------------------
def users_me(call: Call) -> dict[str, Any]:
    call.target = call.store.bot_id
    return render.user(call.store, call.store.bot_id)


def users_list(call: Call) -> dict[str, Any]:
    people = [u for u in call.store.users.values() if u.type == "person"]
    bots = [u for u in call.store.users.values() if u.type == "bot"]
    window, nxt = paginate(call, people + bots, lambda u: u.id)
    call.summary = f"{len(window)} users"
    return render.listing([render.user_object(call.store, u) for u in window], nxt, "user")


def users_get(call: Call) -> dict[str, Any]:
    uid = path_id(call, "user_id")
    if uid not in call.store.users:
        raise not_found("user", uid)
    return render.user(call.store, uid)


# -- search ------------------------------------------------------------------------------------
def search(call: Call) -> dict[str, Any]:
    body = call.body
    query = body.get("query", "")
    if query is None:
        query = ""
    if not isinstance(query, str) or len(query) > limits.MAX_SEARCH_QUERY:
        raise invalid(f"body.query should be a string of at most {limits.MAX_SEARCH_QUERY} characters.")
    db_kind = "data_source" if call.dialect.data_sources else "database"
    kinds = {"page", db_kind}
    flt = body.get("filter")
    if flt is not None:
        if not isinstance(flt, dict) or flt.get("property", "object") != "object":
            raise invalid('body.filter should be {"property": "object", "value": "page" or "' + db_kind + '"}.')
        value = flt.get("value")
        if value == "page":
            kinds = {"page"}
        elif value in ("database", "data_source"):
            kinds = {db_kind}
        else:
            raise invalid(f'body.filter.value should be "page" or "{db_kind}", instead was {value!r}.')
    descending = True
    sort = body.get("sort")
    if sort is not None:
        if (
            not isinstance(sort, dict)
            or sort.get("timestamp", "last_edited_time") != "last_edited_time"
            or sort.get("direction", "descending") not in ("ascending", "descending")
        ):
            raise invalid(
                'body.sort should be {"timestamp": "last_edited_time", "direction": "ascending" or "descending"}.'
            )
        descending = sort.get("direction", "descending") == "descending"
    found = call.store.search(query, kinds, descending)
    window, nxt = paginate(call, found, lambda o: o.id)
    results = []
    for obj in window:
        if isinstance(obj, Page):
            results.append(render.page(call.store, obj, call.dialect))
        elif isinstance(obj, DataSource):
            results.append(render.data_source(call.store, obj, call.dialect))
        else:
            results.append(render.database(call.store, obj, call.dialect))
    call.target = "/v1/search"
    call.summary = f"query {query[:60]!r}, {sorted(kinds)} → {len(found)} found"
    return render.listing(results, nxt, _list_type(call))


# -- pages -------------------------------------------------------------------------------------
def pages_create(call: Call) -> dict[str, Any]:
    body, store = call.body, call.store
    if "parent" not in body:
        raise invalid("body.parent should be defined, instead was `undefined`.")
    parent = _parent(store, body["parent"])
    children: list[blocklib.NewBlock] = []
    if body.get("children") is not None:
        children = blocklib.parse_children(body["children"], "body.children")
    elif isinstance(body.get("markdown"), str):
        children = blocklib.from_markdown(body["markdown"])[: blocklib.MAX_CHILDREN]
    blocklib.check_block_count(children, "body.children")
    page = store.create_page(
        parent,
        body.get("properties"),
        children,
        call.actor,
        icon=_icon(body.get("icon"), "body.icon"),
        cover=_icon(body.get("cover"), "body.cover"),
    )
    call.target = page.id
    call.summary = f"create page {store.title_of(page)[:60]!r} under {parent.kind} {parent.id or ''}".rstrip()
    return render.page(store, page, call.dialect)


def _filter_properties(call: Call) -> set[str] | None:
    wanted = call.args("filter_properties") + call.args("filter_properties[]")
    return set(wanted) if wanted else None


def pages_get(call: Call) -> dict[str, Any]:
    page = call.store.page(path_id(call, "page_id"))
    call.summary = f"read page {call.store.title_of(page)[:60]!r}"
    return render.page(call.store, page, call.dialect, _filter_properties(call))


def pages_update(call: Call) -> dict[str, Any]:
    store, body = call.store, call.body
    page = store.page(path_id(call, "page_id"))
    trash = trash_flag(body)
    icon = _icon(body["icon"], "body.icon") if "icon" in body else ...
    cover = _icon(body["cover"], "body.cover") if "cover" in body else ...
    store.update_page(page, body.get("properties"), call.actor, trash=trash, icon=icon, cover=cover)
    changed = _names(body.get("properties"))
    call.summary = (
        f"update page {store.title_of(page)[:60]!r}"
        + (f": {changed}" if changed else "")
        + (f" (in_trash={trash})" if trash is not None else "")
    )
    return render.page(store, page, call.dialect)


def page_property(call: Call) -> dict[str, Any]:
    store = call.store
    page = store.page(path_id(call, "page_id"))
    key = call.params["property_id"]
    schema = store.schema_of(page)
    prop = next((p for p in schema if p.id == key), None) or next((p for p in schema if p.name == key), None)
    if prop is None:
        raise not_found("property", key)
    call.summary = f"read property {prop.name!r}"
    value = props.render_value(prop, page.properties.get(prop.id), page, lambda uid: render.user(store, uid))
    if prop.type in ("title", "rich_text", "people"):
        items = [{"object": "property_item", "id": prop.id, "type": prop.type, prop.type: v} for v in value[prop.type]]
        out = render.listing(items, None, "property_item")
        out["property_item"] = {"id": prop.id, "next_url": None, "type": prop.type, prop.type: {}}
        return out
    return {"object": "property_item", **value}


def page_markdown_get(call: Call) -> dict[str, Any]:
    store = call.store
    host = store.container(path_id(call, "page_id"))
    call.summary = "read page as markdown"
    return {
        "object": "page_markdown",
        "id": host.id,
        "markdown": store.markdown(host),
        "truncated": False,
        "unknown_block_ids": [],
    }


def page_markdown_update(call: Call) -> dict[str, Any]:
    store, body = call.store, call.body
    page = store.page(path_id(call, "page_id"))
    kind = body.get("type")
    op = body.get(kind) if isinstance(kind, str) else None
    if not isinstance(op, dict):
        raise invalid(
            "body.type should name the edit (replace_content, update_content, insert_content) with a matching object."
        )
    current = store.markdown(page, content_only=True)
    if kind == "replace_content":
        text = op.get("new_str")
        if not isinstance(text, str):
            raise invalid("body.replace_content.new_str should be a string.")
        new = text
    elif kind == "update_content":
        updates = op.get("content_updates")
        if not isinstance(updates, list) or not 1 <= len(updates) <= 100:
            raise invalid("body.update_content.content_updates should be an array of 1 to 100 {old_str, new_str}.")
        new = current
        for i, u in enumerate(updates):
            if (
                not isinstance(u, dict)
                or not isinstance(u.get("old_str"), str)
                or not isinstance(u.get("new_str"), str)
                or not u["old_str"]
            ):
                raise invalid(f"body.update_content.content_updates[{i}] should have old_str and new_str strings.")
            count = new.count(u["old_str"])
            if count == 0:
                raise invalid(f"body.update_content.content_updates[{i}].old_str was not found in the page.")
            if count > 1 and not u.get("replace_all_matches"):
                raise invalid(
                    f"body.update_content.content_updates[{i}].old_str matches {count} times; "
                    "set replace_all_matches or give more context."
                )
            new = new.replace(u["old_str"], u["new_str"])
    elif kind == "insert_content":
        text = op.get("content")
        if not isinstance(text, str):
            raise invalid("body.insert_content.content should be a string.")
        at_start = (op.get("position") or {}).get("type") == "start" if isinstance(op.get("position"), dict) else False
        new = f"{text}\n{current}" if at_start else f"{current}\n{text}"
    else:
        raise invalid(
            f"body.type {kind!r} is not supported here (use replace_content, update_content or insert_content)."
        )
    if len(new) > limits.MAX_MARKDOWN_CHARS:
        raise invalid(f"the resulting page is too long (at most {limits.MAX_MARKDOWN_CHARS} characters).")
    blocks = blocklib.check_block_count(blocklib.from_markdown(new), "the resulting page")
    store.replace_content(page, blocks, call.actor)
    call.summary = f"{kind} on page {store.title_of(page)[:60]!r}"
    return {
        "object": "page_markdown",
        "id": page.id,
        "markdown": store.markdown(page),
        "truncated": False,
        "unknown_block_ids": [],
    }


# -- databases and data sources ----------------------------------------------------------------
def databases_create(call: Call) -> dict[str, Any]:
    store, body = call.store, call.body
    if "parent" not in body:
        raise invalid("body.parent should be defined, instead was `undefined`.")
    parent = _parent(store, body["parent"])
    initial = body.get("initial_data_source")
    if initial is not None and not isinstance(initial, dict):
        raise invalid("body.initial_data_source should be an object.")
    schema = (initial or {}).get("properties", body.get("properties"))
    title = _rich(body, "title") or []
    is_inline = _bool(body, "is_inline")
    db = store.create_database(
        parent,
        title,
        schema,
        call.actor,
        description=_rich(body, "description"),
        is_inline=bool(is_inline),
        icon=_icon(body.get("icon"), "body.icon"),
        cover=_icon(body.get("cover"), "body.cover"),
        where="body.initial_data_source.properties" if initial else "body.properties",
    )
    call.target = db.id
    call.summary = f"create database {richtext.plain_text(db.title)[:60]!r}"
    return render.database(store, db, call.dialect)


def databases_get(call: Call) -> dict[str, Any]:
    db = call.store.database(path_id(call, "database_id"))
    call.summary = f"read database {richtext.plain_text(db.title)[:60]!r}"
    return render.database(call.store, db, call.dialect)


def databases_update(call: Call) -> dict[str, Any]:
    store, body = call.store, call.body
    db = store.database(path_id(call, "database_id"))
    schema_patch = body.get("properties")
    if schema_patch is not None and call.dialect.data_sources:
        ds_ids = ", ".join(db.data_source_ids)
        raise invalid(
            "Under Notion-Version 2025-09-03 a database's properties live on its data source: "
            f"PATCH /v1/data_sources/{{id}} (data sources of this database: {ds_ids})."
        )
    store.update_database(
        db,
        call.actor,
        title=_rich(body, "title"),
        description=_rich(body, "description"),
        is_inline=_bool(body, "is_inline"),
        trash=trash_flag(body),
        schema_patch=schema_patch,
    )
    call.summary = f"update database {richtext.plain_text(db.title)[:60]!r}" + (
        f": properties {_names(schema_patch)}" if schema_patch else ""
    )
    return render.database(store, db, call.dialect)


def _query(call: Call, ds: DataSource, label: str) -> dict[str, Any]:
    store, body = call.store, call.body
    if store.databases[ds.database_id].in_trash or ds.in_trash:
        raise not_found("database", ds.database_id)
    rows = store.query(ds, body.get("filter"), body.get("sorts"))
    window, nxt = paginate(call, rows, lambda p: p.id)
    only = _filter_properties(call)
    call.summary = (
        f"query {label} {richtext.plain_text(ds.title)[:60]!r}"
        + (" with filter" if body.get("filter") is not None else "")
        + (f", {len(body['sorts'])} sorts" if isinstance(body.get("sorts"), list) else "")
        + f" → {len(rows)} rows"
    )
    return render.listing([render.page(store, p, call.dialect, only) for p in window], nxt, _list_type(call))


def databases_query(call: Call) -> dict[str, Any]:
    db = call.store.database(path_id(call, "database_id"))
    return _query(call, call.store.primary_source(db), "database")


def data_sources_create(call: Call) -> dict[str, Any]:
    store, body = call.store, call.body
    parent = body.get("parent")
    if not isinstance(parent, dict) or canonical(parent.get("database_id")) is None:
        raise invalid('body.parent should be {"type": "database_id", "database_id": "<id>"}.')
    db = store.database(canonical(parent["database_id"]) or "")
    ds = store.add_data_source(db, _rich(body, "title") or [], body.get("properties"), call.actor)
    call.target = ds.id
    call.summary = f"create data source {richtext.plain_text(ds.title)[:60]!r} in database {db.id}"
    return render.data_source(store, ds, call.dialect)


def data_sources_get(call: Call) -> dict[str, Any]:
    ds = call.store.data_source(path_id(call, "data_source_id"))
    call.summary = f"read data source {richtext.plain_text(ds.title)[:60]!r}"
    return render.data_source(call.store, ds, call.dialect)


def data_sources_update(call: Call) -> dict[str, Any]:
    store, body = call.store, call.body
    ds = store.data_source(path_id(call, "data_source_id"))
    store.update_data_source(
        ds, call.actor, title=_rich(body, "title"), trash=trash_flag(body), schema_patch=body.get("properties")
    )
    call.summary = f"update data source {richtext.plain_text(ds.title)[:60]!r}" + (
        f": properties {_names(body.get('properties'))}" if body.get("properties") else ""
    )
    return render.data_source(store, ds, call.dialect)


def data_sources_query(call: Call) -> dict[str, Any]:
    ds = call.store.data_source(path_id(call, "data_source_id"))
    return _query(call, ds, "data source")


# -- blocks ------------------------------------------------------------------------------------
def _known_block(store: KbStore, bid: str) -> None:
    if bid not in store.blocks and bid not in store.pages and bid not in store.databases:
        raise not_found("block", bid)


def blocks_get(call: Call) -> dict[str, Any]:
    bid = path_id(call, "block_id")
    _known_block(call.store, bid)
    call.summary = "read block"
    return render.block(call.store, bid, call.dialect)


def blocks_update(call: Call) -> dict[str, Any]:
    bid = path_id(call, "block_id")
    call.store.update_block(bid, call.body, call.actor)
    call.summary = "update block: " + ", ".join(sorted(call.body)[:5])
    return render.block(call.store, bid, call.dialect)


def blocks_delete(call: Call) -> dict[str, Any]:
    bid = path_id(call, "block_id")
    call.store.trash(bid, call.actor)
    call.summary = "move to trash"
    return render.block(call.store, bid, call.dialect)


def children_list(call: Call) -> dict[str, Any]:
    store = call.store
    host = store.container(path_id(call, "block_id"))
    live = store.live_children(host)
    window, nxt = paginate(call, live, lambda c: c)
    call.summary = f"list {len(live)} children"
    out = render.listing([render.block(store, c, call.dialect) for c in window], nxt, "block")
    return out


def children_append(call: Call) -> dict[str, Any]:
    store, body = call.store, call.body
    cid = path_id(call, "block_id")
    if "children" not in body:
        raise invalid("body.children should be defined, instead was `undefined`.")
    new = blocklib.check_block_count(blocklib.parse_children(body["children"], "body.children"), "body.children")
    after = body.get("after")
    at_start = False
    position = body.get("position")
    if position is not None:
        ptype = position.get("type") if isinstance(position, dict) else None
        if ptype == "after_block" and isinstance(position.get("after_block"), dict):
            after = position["after_block"].get("id")
        elif ptype == "start":
            at_start = True
        elif ptype != "end":
            raise invalid("body.position.type should be start, end or after_block.")
    if after is not None:
        after_id = canonical(after)
        if after_id is None:
            raise invalid("body.after should be a block id.")
        after = after_id
    ids = store.append_blocks(cid, new, call.actor, after, at_start=at_start)
    call.summary = f"append {len(ids)} blocks"
    return render.listing([render.block(store, b, call.dialect) for b in ids], None, "block")


# -- comments ----------------------------------------------------------------------------------
def comments_create(call: Call) -> dict[str, Any]:
    store, body = call.store, call.body
    parent_id: str | None = None
    discussion = body.get("discussion_id")
    if discussion is not None:
        discussion = canonical(discussion)
        if discussion is None:
            raise invalid("body.discussion_id should be a valid uuid.")
    else:
        parent = body.get("parent")
        if not isinstance(parent, dict):
            raise invalid("body.parent should be an object with a page_id or block_id (or give body.discussion_id).")
        key = "page_id" if "page_id" in parent else "block_id"
        parent_id = canonical(parent.get(key))
        if parent_id is None:
            raise invalid(f"body.parent.{key} should be a valid uuid.")
    text = richtext.parse(body.get("rich_text", []), "body.rich_text")
    comment = store.add_comment(parent_id, discussion, text, call.actor)
    call.target = comment.parent_id
    call.summary = f"comment: {richtext.plain_text(text)[:80]!r}"
    return render.comment(comment)


def comments_list(call: Call) -> dict[str, Any]:
    store = call.store
    raw = call.arg("block_id")
    target = canonical(raw)
    if target is None:
        raise invalid("query.block_id should be a valid uuid.")
    call.target = target
    if target not in store.pages and target not in store.blocks:
        raise not_found("block", target)
    found = store.comments_of(target)
    window, nxt = paginate(call, found, lambda c: c.id)
    call.summary = f"{len(found)} comments"
    return render.listing([render.comment(c) for c in window], nxt, "comment")


ROUTES: list[tuple[str, str, Handler]] = [
    ("GET", "/v1/users/me", users_me),
    ("GET", "/v1/users", users_list),
    ("GET", "/v1/users/{user_id}", users_get),
    ("POST", "/v1/search", search),
    ("POST", "/v1/pages", pages_create),
    ("GET", "/v1/pages/{page_id}", pages_get),
    ("PATCH", "/v1/pages/{page_id}", pages_update),
    ("GET", "/v1/pages/{page_id}/properties/{property_id}", page_property),
    ("GET", "/v1/pages/{page_id}/markdown", page_markdown_get),
    ("PATCH", "/v1/pages/{page_id}/markdown", page_markdown_update),
    ("POST", "/v1/databases", databases_create),
    ("GET", "/v1/databases/{database_id}", databases_get),
    ("PATCH", "/v1/databases/{database_id}", databases_update),
    ("POST", "/v1/databases/{database_id}/query", databases_query),
    ("POST", "/v1/data_sources", data_sources_create),
    ("GET", "/v1/data_sources/{data_source_id}", data_sources_get),
    ("PATCH", "/v1/data_sources/{data_source_id}", data_sources_update),
    ("POST", "/v1/data_sources/{data_source_id}/query", data_sources_query),
    ("GET", "/v1/blocks/{block_id}", blocks_get),
    ("PATCH", "/v1/blocks/{block_id}", blocks_update),
    ("DELETE", "/v1/blocks/{block_id}", blocks_delete),
    ("GET", "/v1/blocks/{block_id}/children", children_list),
    ("PATCH", "/v1/blocks/{block_id}/children", children_append),
    ("POST", "/v1/comments", comments_create),
    ("GET", "/v1/comments", comments_list),
]
"""(method, path template, handler) of every agent-plane endpoint."""

QUERIES: frozenset[Handler] = frozenset({search, databases_query, data_sources_query})
"""POST endpoints that only read (served even when the workspace is over its quota)."""
