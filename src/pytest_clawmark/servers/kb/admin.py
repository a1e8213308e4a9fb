"""Admin-plane operations: seeding, silent mutations and deterministic reads for the harness.

Exposed as ``POST /_admin/<op>`` with a JSON body (admin token only, never audited as agent
actions). Values are *plain* Python/JSON (``"Done"``, ``3``, ``["a", "b"]``) rather than Notion
property objects, lookups are by id or exact title (404 when absent, 409 when ambiguous —
never first match by substring), and every mutating op is all-or-nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from . import blocks as blocklib
from . import properties as props
from . import richtext
from .api import ROUTES, Call, Handler
from .dialects import LEGACY, parse_version
from .errors import NotionError, invalid
from .model import DataSource, Page
from .store import KbStore, Parent

AdminOp = Callable[[KbStore, dict[str, Any]], dict[str, Any]]


def _str(body: dict[str, Any], key: str, *, optional: bool = False) -> Any:
    value = body.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise invalid(f"{key} should be a non-empty string")
    return value


def _author(store: KbStore, body: dict[str, Any]) -> str:
    """The user an admin change is attributed to: ``author`` (name or e-mail) or the world's user."""
    author = body.get("author")
    if author is None:
        return next(u.id for u in store.users.values() if u.type == "person")
    people = store.resolve_people([author], "author")
    uid = people[0]["id"]
    if uid not in store.users:
        raise invalid(f"author {author!r} is not a person of this world")
    return uid


def _source(store: KbStore, body: dict[str, Any], *, setup: bool = False) -> DataSource:
    return store.primary_source(store.find_database(_str(body, "db"), for_setup=setup))


def _blocks(raw: Any) -> list[blocklib.NewBlock]:
    """Admin content: Markdown text, or a list of Markdown strings and Notion block objects."""
    if raw is None:
        return []
    if isinstance(raw, str):
        return blocklib.from_markdown(raw)
    if not isinstance(raw, list):
        raise invalid("blocks should be Markdown text or a list of strings and block objects")
    out: list[blocklib.NewBlock] = []
    for i, item in enumerate(raw):
        if isinstance(item, str):
            out += blocklib.from_markdown(item)
        else:
            out.append(blocklib.parse_block(item, f"blocks[{i}]"))
    return out


def _plain_row(store: KbStore, page: Page) -> dict[str, Any]:
    return {p.name: props.to_plain(p, page.properties.get(p.id), page, store.user_name) for p in store.schema_of(page)}


# -- ops ---------------------------------------------------------------------------------------
def create_database(store: KbStore, body: dict[str, Any]) -> dict[str, Any]:
    title = _str(body, "title")
    schema = body.get("schema")
    if not isinstance(schema, dict) or not schema:
        raise invalid("schema should map property names to types")
    specs = {name: props.spec_from_plain(spec, f"schema.{name}") for name, spec in schema.items()}
    parent = Parent("workspace")
    if body.get("parent_page") is not None:
        parent = Parent("page_id", store.find_page(_str(body, "parent_page"), for_setup=True).id)
    actor = _author(store, body)
    db = store.create_database(parent, richtext.from_plain(title), specs, actor, where="schema")
    ds = store.primary_source(db)
    rows = body.get("rows") or []
    if not isinstance(rows, list):
        raise invalid("rows should be a list of {property: value} mappings")
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise invalid(f"rows[{i}] should be a mapping of property names to values")
        store.create_page(Parent("data_source_id", ds.id), row, [], actor, plain=True)
    return {"database_id": db.id, "data_source_id": ds.id}


def database(store: KbStore, body: dict[str, Any]) -> dict[str, Any]:
    db = store.find_database(_str(body, "db"))
    ds = store.primary_source(db)
    return {
        "id": db.id,
        "title": richtext.plain_text(db.title),
        "data_source_id": ds.id,
        "data_source_ids": list(db.data_source_ids),
        "in_trash": db.in_trash,
        "properties": {p.name: p.type for p in ds.properties},
    }


def add_row(store: KbStore, body: dict[str, Any]) -> dict[str, Any]:
    ds = _source(store, body, setup=True)
    values = body.get("props") or {}
    page = store.create_page(
        Parent("data_source_id", ds.id), values, _blocks(body.get("blocks")), _author(store, body), plain=True
    )
    return {"id": page.id}


def update_row(store: KbStore, body: dict[str, Any]) -> dict[str, Any]:
    ds = _source(store, body, setup=True)
    page = store.find_row(ds, _str(body, "key"), for_setup=True)
    store.update_page(page, body.get("props") or {}, _author(store, body), plain=True)
    return {"id": page.id}


def delete_row(store: KbStore, body: dict[str, Any]) -> dict[str, Any]:
    ds = _source(store, body, setup=True)
    page = store.find_row(ds, _str(body, "key"), for_setup=True)
    store.update_page(page, None, _author(store, body), trash=True)
    return {"id": page.id}


def rows(store: KbStore, body: dict[str, Any]) -> dict[str, Any]:
    ds = _source(store, body)
    return {"rows": [_plain_row(store, store.pages[r]) for r in ds.rows if not store.pages[r].in_trash]}


def row(store: KbStore, body: dict[str, Any]) -> dict[str, Any]:
    ds = _source(store, body)
    page = store.find_row(ds, _str(body, "key"))
    return {"id": page.id, "row": _plain_row(store, page)}


def create_page(store: KbStore, body: dict[str, Any]) -> dict[str, Any]:
    title = _str(body, "title")
    parent = Parent("workspace")
    if body.get("parent") is not None:
        parent = Parent("page_id", store.find_page(_str(body, "parent"), for_setup=True).id)
    new = _blocks(body.get("blocks"))
    actor = _author(store, body)
    page = store.create_page(parent, {"title": title}, new[: blocklib.MAX_CHILDREN], actor, plain=True)
    for start in range(blocklib.MAX_CHILDREN, len(new), blocklib.MAX_CHILDREN):
        store.append_blocks(page.id, new[start : start + blocklib.MAX_CHILDREN], actor, setup=True)
    return {"id": page.id}


def append_blocks(store: KbStore, body: dict[str, Any]) -> dict[str, Any]:
    page = store.find_page(_str(body, "page"), for_setup=True)
    new = _blocks(body.get("blocks"))
    actor = _author(store, body)
    ids: list[str] = []
    for start in range(0, len(new), blocklib.MAX_CHILDREN):
        ids += store.append_blocks(page.id, new[start : start + blocklib.MAX_CHILDREN], actor, setup=True)
    return {"ids": ids}


def page_text(store: KbStore, body: dict[str, Any]) -> dict[str, Any]:
    page = store.find_page(_str(body, "page"))
    return {"id": page.id, "text": store.markdown(page, links=False)}


def add_comment(store: KbStore, body: dict[str, Any]) -> dict[str, Any]:
    page = store.find_page(_str(body, "page"), for_setup=True)
    text = richtext.from_plain(_str(body, "text"))
    comment = store.add_comment(page.id, None, text, _author(store, body), setup=True)
    return {"id": comment.id}


def comments(store: KbStore, body: dict[str, Any]) -> dict[str, Any]:
    found = list(store.comments.values())
    if body.get("page") is not None:
        page = store.find_page(_str(body, "page"))
        found = [c for c in found if c.parent_id == page.id]
    out = []
    for c in found:
        host = store.pages.get(c.parent_id)
        out.append(
            {
                "id": c.id,
                "parent_id": c.parent_id,
                "page": store.title_of(host) if host else None,
                "discussion_id": c.discussion_id,
                "author": store.user_name(c.created_by),
                "text": richtext.plain_text(c.rich_text),
                "created_time": c.created_time,
            }
        )
    return {"comments": out}


_TEMPLATES = [
    (method, re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template) + "$"), handler)
    for method, template, handler in ROUTES
]
"""The agent plane's routes as regular expressions (a path parameter is one segment, as in Starlette)."""


def _route(method: str, path: str) -> tuple[Handler, dict[str, str]]:
    allowed = []
    for verb, pattern, handler in _TEMPLATES:
        match = pattern.match(path)
        if match is None:
            continue
        if verb == method:
            return handler, match.groupdict()
        allowed.append(verb)
    if allowed:
        raise NotionError(405, "invalid_request_url", f"the method is not supported here (use {', '.join(allowed)}).")
    raise NotionError(400, "invalid_request_url", "not an endpoint of the Notion API (paths look like /v1/pages).")


def notion(store: KbStore, body: dict[str, Any]) -> dict[str, Any]:
    """One Notion REST call — ``{"method", "path", "body", "version", "author"}`` — answered with
    the raw Notion JSON the agent plane would give.

    Why: harnesses that speak raw Notion objects (upstream ClawMark's task stages build schemas
    and row values as Notion JSON and read rows back as page objects) then need no translation
    layer of their own, and cannot drift from what the agent sees: the call runs through the
    very handlers of :data:`.api.ROUTES`. What differs from the agent plane, and why:

    * the actor is ``author`` or the world's user (:func:`_author`), not the agent's bot — the
      state a harness sets up is the team's, and ``created_by``/``last_edited_by`` must not
      suggest the agent did something it did not (checkers and humans read them as evidence);
    * it is not audited (an admin-plane call), and the workspace quota does not apply (as for
      every admin op: seeding is the task author's responsibility);
    * ``version`` picks the dialect, :data:`.dialects.LEGACY` by default (what upstream sends);
    * errors keep Notion's status and code; the message names the call.
    """
    method = _str(body, "method").upper()
    split = urlsplit(_str(body, "path"))
    path = unquote(split.path).rstrip("/") or "/"
    dialect = parse_version(body.get("version") or LEGACY)
    payload = body.get("body")
    if payload is None:
        payload = {}
    if not isinstance(payload, dict):
        raise invalid(f"body of {method} {path} should be a JSON object, instead was {richtext.type_name(payload)}.")
    if payload and method not in ("POST", "PATCH"):
        raise invalid(f"{method} {path} takes no body (give query parameters in the path).")
    actor = _author(store, body)
    try:
        handler, params = _route(method, path)
        query = parse_qsl(split.query, keep_blank_values=True)
        return handler(Call(store, dialect, method, params, query, payload, actor))
    except NotionError as exc:
        raise NotionError(exc.status, exc.code, f"{method} {path} ({exc.status} {exc.code}): {exc.message}") from None


READ, ATOMIC, STEPS = "read", "atomic", "steps"
"""How an op changes the store: not at all; in one store operation that validates everything before
it commits (so a failure leaves nothing behind); or in several, which need a rollback."""

OPS: dict[str, tuple[AdminOp, str]] = {
    "create_database": (create_database, STEPS),
    "database": (database, READ),
    "add_row": (add_row, ATOMIC),
    "update_row": (update_row, ATOMIC),
    "delete_row": (delete_row, ATOMIC),
    "rows": (rows, READ),
    "row": (row, READ),
    "create_page": (create_page, STEPS),
    "append_blocks": (append_blocks, STEPS),
    "page_text": (page_text, READ),
    "add_comment": (add_comment, ATOMIC),
    "comments": (comments, READ),
    "notion": (notion, ATOMIC),  # agent-plane handlers validate everything before they change anything
}
"""op name → (function, kind). Mutating ops run all-or-nothing (see :func:`run`)."""


def run(store: KbStore, op: str, body: dict[str, Any]) -> dict[str, Any]:
    """Run one admin op; a mutating op that fails part-way leaves the store as it was.

    Only multi-step ops pay for a snapshot to roll back to: on a workspace filled to its quota a
    snapshot costs a good part of a second, and silent mutations are mostly single-row edits.
    """
    if op not in OPS:
        raise NotionError(
            400, "invalid_request_url", f"unknown admin operation {op!r} (known: {', '.join(sorted(OPS))})"
        )
    fn, kind = OPS[op]
    if kind != STEPS:
        return fn(store, body)
    before = store.snapshot()
    try:
        return fn(store, body)
    except BaseException:
        store.restore(before)
        raise
