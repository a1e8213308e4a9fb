"""The in-memory knowledge base: pages, databases, data sources, blocks, comments, users.

One store per world, owned by the world's event loop (every access arrives through the ASGI
app, so requests are applied one at a time). Each operation validates its whole input first
and mutates only afterwards: a refused request leaves the store exactly as it was.

The store is dialect-free; :mod:`.dialects` and :mod:`.render` decide how objects look under
``Notion-Version`` 2022-06-28 or 2025-09-03.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, TypeVar

from . import blocks as blocklib
from . import limits, richtext
from . import properties as props
from .errors import NotionError, in_trash, invalid, not_found
from .filters import FilterCompiler
from .ids import canonical, object_id, user_id
from .model import Block, Comment, Database, DataSource, Page, User, from_json, to_json
from .properties import PAGE_TITLE, PropertySchema
from .quota import SizeLedger

SNAPSHOT_FORMAT = 1
T = TypeVar("T")
FALLBACK_EPOCH = datetime(2025, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Parent:
    """Where a new page or database goes: ``kind`` is workspace, page_id, block_id or data_source_id."""

    kind: str
    id: str | None = None


def stamp(moment: datetime) -> str:
    """Notion's timestamp format (UTC, millisecond precision, ``Z``)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    utc = moment.astimezone(timezone.utc)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


class KbStore:
    """The state of one knowledge base and every operation on it."""

    def __init__(self, users: Sequence[User], bot: User, now: Callable[[], datetime]) -> None:
        self.now = now
        self.seq = 0
        self.bot_id = bot.id
        self.users: dict[str, User] = {u.id: u for u in (*users, bot)}
        self.pages: dict[str, Page] = {}
        self.blocks: dict[str, Block] = {}
        self.databases: dict[str, Database] = {}
        self.data_sources: dict[str, DataSource] = {}
        self.comments: dict[str, Comment] = {}
        self.size = SizeLedger()
        self.size.measure(*self.users.values())

    # -- basics --------------------------------------------------------------------------------
    def _next(self) -> tuple[str, int]:
        self.seq += 1
        return object_id(self.seq), self.seq

    def stamp(self) -> str:
        return stamp(self.now())

    def person(self, uid: str) -> dict[str, Any]:
        """A user as ``{"id", "name", "email"}`` (unknown ids keep just their id)."""
        u = self.users.get(uid)
        return {"id": uid, "name": u.name if u else None, "email": u.email if u else None}

    def user_name(self, uid: str) -> str:
        u = self.users.get(uid)
        return u.name if u else uid

    def resolve_people(self, entries: list[Any], where: str) -> list[dict[str, Any]]:
        """People values: user objects or ids, or — leniently — names and e-mails as text.

        Known names and e-mails resolve to the workspace's users; unknown names are kept as
        text-only people with a stable id derived from the name.
        """
        out: list[dict[str, Any]] = []
        text_people: dict[str, dict[str, Any]] | None = None  # built once, only if an id needs it
        for i, entry in enumerate(entries):
            w = f"{where}[{i}]"
            if isinstance(entry, dict):
                if isinstance(entry.get("id"), str):
                    uid = canonical(entry["id"])
                    known: dict[str, Any] | None = None
                    if uid in self.users:
                        known = self.person(uid)
                    elif uid is not None:
                        text_people = self._text_people() if text_people is None else text_people
                        known = dict(text_people[uid]) if uid in text_people else None
                    if known is None and isinstance(entry.get("name"), str):
                        known = self._person_from_text(entry["name"], w)
                    if known is None:
                        raise invalid(f"{w}.id {entry['id']!r} is not a user of this workspace (see GET /v1/users).")
                    person = known
                else:
                    inner = entry.get("person")
                    email = inner.get("email") if isinstance(inner, dict) else None
                    name = entry.get("name") if isinstance(entry.get("name"), str) and entry["name"].strip() else email
                    if not isinstance(name, str):
                        raise invalid(f"{w} should be a user object with an id (or a name).")
                    person = self._person_from_text(name, w)
            elif isinstance(entry, str):
                person = self._person_from_text(entry, w)
            else:
                raise invalid(f"{w} should be a user object, instead was {richtext.type_name(entry)}.")
            if all(p["id"] != person["id"] for p in out):
                out.append(person)
        return out

    def _text_people(self) -> dict[str, dict[str, Any]]:
        """The text-only people (people-as-text) rows hold, by id, so their ids can be echoed back.

        One pass over the rows per request that needs it (it used to be one pass per person).
        """
        found: dict[str, dict[str, Any]] = {}
        for ds in self.data_sources.values():
            people_props = [p.id for p in ds.properties if p.type == "people"]
            for row in ds.rows if people_props else ():
                for pid in people_props:
                    for person in self.pages[row].properties.get(pid) or ():
                        found.setdefault(person["id"], person)
        return found

    def _person_from_text(self, text: str, where: str) -> dict[str, Any]:
        text = text.strip()
        if not text or len(text) > 200:
            raise invalid(f"{where} should be a user id, name or e-mail.")
        uid = canonical(text)
        if uid is not None and uid in self.users:
            return self.person(uid)
        key = text.casefold()
        matches = [
            u
            for u in self.users.values()
            if u.type == "person" and key in (u.name.casefold(), (u.email or "").casefold())
        ]
        if len(matches) == 1:
            return self.person(matches[0].id)
        return {"id": user_id(f"text:{text}"), "name": text, "email": text if "@" in text else None}

    # -- lookups -------------------------------------------------------------------------------
    def page(self, pid: str) -> Page:
        page = self.pages.get(pid)
        if page is None:
            raise not_found("page", pid)
        return page

    def database(self, did: str) -> Database:
        db = self.databases.get(did)
        if db is None:
            raise not_found("database", did)
        return db

    def data_source(self, dsid: str) -> DataSource:
        ds = self.data_sources.get(dsid)
        if ds is None:
            raise not_found("data source", dsid)
        return ds

    def primary_source(self, db: Database) -> DataSource:
        """The data source a 2022-06-28 request means by a database id (its first one)."""
        for dsid in db.data_source_ids:
            ds = self.data_sources[dsid]
            if not ds.in_trash:
                return ds
        return self.data_sources[db.data_source_ids[0]]

    def schema_of(self, page: Page) -> list[PropertySchema]:
        if page.parent_type == "data_source_id" and page.parent_id in self.data_sources:
            return self.data_sources[page.parent_id].properties
        return [PAGE_TITLE]

    def title_of(self, page: Page) -> str:
        prop = next(p for p in self.schema_of(page) if p.type == "title")
        return richtext.plain_text(page.properties.get(prop.id))

    def title_prop_of(self, page: Page) -> PropertySchema:
        return next(p for p in self.schema_of(page) if p.type == "title")

    # -- databases and data sources ------------------------------------------------------------
    def create_database(
        self,
        parent: Parent,
        title: list[dict[str, Any]],
        schema: Any,
        actor: str,
        *,
        description: list[dict[str, Any]] | None = None,
        is_inline: bool = False,
        source_title: list[dict[str, Any]] | None = None,
        icon: Any = None,
        cover: Any = None,
        where: str = "body.properties",
    ) -> Database:
        """A database with one data source holding ``schema`` (a Notion ``properties`` object)."""
        if parent.kind not in ("workspace", "page_id"):
            raise invalid("body.parent should be a page_id (or workspace) for a new database.")
        if parent.kind == "page_id":
            host = self.page(parent.id or "")
            if host.in_trash:
                raise in_trash("page", host.id)
        properties = self._new_schema(schema, where)
        now = self.stamp()
        did, dseq = self._next()
        dsid, sseq = self._next()
        db = Database(
            did,
            dseq,
            title,
            description or [],
            parent.kind,
            parent.id,
            now,
            now,
            actor,
            actor,
            is_inline=is_inline,
            icon=icon,
            cover=cover,
            data_source_ids=[dsid],
        )
        ds = DataSource(
            dsid,
            sseq,
            did,
            source_title if source_title is not None else props.copy_json(title),
            properties,
            now,
            now,
            actor,
            actor,
        )
        self.databases[did] = db
        self.data_sources[dsid] = ds
        self.size.measure(db, ds)
        if parent.kind == "page_id":
            host = self.pages[parent.id or ""]
            host.children.append(did)
            host.last_edited_time = now
            self.size.grow(host.id)
        return db

    def add_data_source(self, db: Database, title: list[dict[str, Any]], schema: Any, actor: str) -> DataSource:
        if db.in_trash:
            raise in_trash("database", db.id)
        properties = self._new_schema(schema, "body.properties")
        now = self.stamp()
        dsid, seq = self._next()
        ds = DataSource(dsid, seq, db.id, title, properties, now, now, actor, actor)
        self.data_sources[dsid] = ds
        db.data_source_ids.append(dsid)
        db.last_edited_time = now
        self.size.measure(ds)
        self.size.grow(db.id)
        return ds

    def _new_schema(self, schema: Any, where: str) -> list[PropertySchema]:
        if not isinstance(schema, dict) or not schema:
            raise invalid(f"{where} should be an object with at least a title property.")
        if len(schema) > limits.MAX_PROPERTIES:
            raise invalid(f"{where} has more than {limits.MAX_PROPERTIES} properties.")
        out: list[PropertySchema] = []
        taken: set[str] = set()
        for name, spec in schema.items():
            if not isinstance(name, str) or not name.strip():
                raise invalid(f"{where} keys should be non-empty property names.")
            prop = props.parse_spec(name, spec, None, taken, f"{where}.{name}")
            if any(p.name == prop.name for p in out):
                raise invalid(f"{where}: two properties are named {prop.name!r}.")
            taken.add(prop.id)
            out.append(prop)
        titles = [p for p in out if p.type == "title"]
        if len(titles) != 1:
            raise invalid(f"{where} should have exactly one title property, instead had {len(titles)}.")
        return out

    def update_schema(self, ds: DataSource, patch: Any, actor: str, where: str = "body.properties") -> None:
        """Add, rename, retype or delete (``null``) properties; values follow type changes."""
        if not isinstance(patch, dict):
            raise invalid(f"{where} should be an object, instead was {richtext.type_name(patch)}.")
        new_schema = [PropertySchema(p.id, p.name, p.type, props.copy_json(p.config)) for p in ds.properties]
        taken = {p.id for p in new_schema}
        for key, spec in patch.items():
            w = f"{where}.{key}"
            current = next((p for p in new_schema if p.name == key), None) or next(
                (p for p in new_schema if p.id == key), None
            )
            if spec is None:
                if current is None:
                    raise invalid(f"{w}: there is no property {key!r} to delete.")
                if current.type == "title":
                    raise invalid(f"{w}: the title property cannot be deleted.")
                new_schema.remove(current)
                continue
            updated = props.parse_spec(key, spec, current, taken, w)
            if current is None:
                new_schema.append(updated)
                taken.add(updated.id)
            else:
                new_schema[new_schema.index(current)] = updated
        if len(new_schema) > limits.MAX_PROPERTIES:
            raise invalid(f"{where}: a data source has at most {limits.MAX_PROPERTIES} properties.")
        names = [p.name for p in new_schema]
        if len(names) != len(set(names)):
            raise invalid(f"{where}: property names must be unique.")
        if [p.type for p in new_schema].count("title") != 1:
            raise invalid(f"{where}: a data source has exactly one title property (its type cannot change).")
        # Convert values whose property changed type (via their plain form), then commit.
        old = {p.id: p for p in ds.properties}
        rows = [self.pages[r] for r in ds.rows]
        converted: dict[tuple[str, str], Any] = {}
        for prop in new_schema:
            before = old.get(prop.id)
            if before is None or before.type == prop.type or prop.type in props.READ_ONLY_TYPES:
                continue
            for row in rows:
                plain = props.to_plain(before, row.properties.get(prop.id), row, self.user_name)
                if isinstance(plain, list) and prop.type not in ("multi_select", "people"):
                    plain = ", ".join(str(p) for p in plain)  # several names into one value
                try:
                    value, created = props.from_plain(
                        prop, plain if plain not in ("", []) else None, self.resolve_people, w
                    )
                except NotionError:
                    value, created = prop.default_value(), []
                prop.add_options(created)
                converted[(row.id, prop.id)] = value
        kept = {p.id for p in new_schema if p.type not in props.READ_ONLY_TYPES}
        option_ids = {p.id: {o["id"] for o in p.options} for p in new_schema if p.type in props.OPTION_TYPES}
        # Every row's new values are computed first and assigned only when all are: values that
        # changed type are converted *before* options removed from the schema are dropped (a
        # people value retyped to select used to reach the option filter as a list of dicts).
        new_values: dict[str, dict[str, Any]] = {}
        for row in rows:
            values = {pid: v for pid, v in row.properties.items() if pid in kept}
            for prop in new_schema:
                if (row.id, prop.id) in converted:
                    values[prop.id] = converted[(row.id, prop.id)]
                elif prop.id in kept and prop.id not in values:
                    values[prop.id] = prop.default_value()
            for pid, valid in option_ids.items():  # options removed from the schema leave the rows
                value = values.get(pid)
                if isinstance(value, list):
                    values[pid] = [v for v in value if isinstance(v, str) and v in valid]
                elif value is not None and not (isinstance(value, str) and value in valid):
                    values[pid] = None
            new_values[row.id] = values
        for row in rows:
            row.properties = new_values[row.id]
        ds.properties = new_schema
        ds.last_edited_time = self.stamp()
        ds.last_edited_by = actor
        self.size.measure(ds, *rows)

    # -- pages ---------------------------------------------------------------------------------
    def parse_properties(
        self,
        schema: list[PropertySchema],
        raw: Any,
        *,
        plain: bool,
        where: str = "body.properties",
    ) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
        """Request property values → (values by property id, new options by property id)."""
        if raw is None:
            return {}, {}
        if not isinstance(raw, dict):
            raise invalid(f"{where} should be an object, instead was {richtext.type_name(raw)}.")
        values: dict[str, Any] = {}
        options: dict[str, list[dict[str, Any]]] = {}
        for key, value in raw.items():
            prop = next((p for p in schema if p.name == key), None) or next((p for p in schema if p.id == key), None)
            if (
                prop is None
                and schema == [PAGE_TITLE]
                and (key == "Name" or (isinstance(value, dict) and "title" in value))
            ):
                prop = PAGE_TITLE  # a plain page has one property, the title, whatever the request calls it
            if prop is None:
                names = ", ".join(p.name for p in schema)
                raise invalid(f"{key} is not a property that exists. Properties: {names}.")
            w = f"{where}.{key}"
            if plain:
                parsed, created = props.from_plain(prop, value, self.resolve_people, w)
            else:
                parsed, created = props.parse_value(prop, value, self.resolve_people, w)
            values[prop.id] = parsed
            if created:
                options[prop.id] = options.get(prop.id, []) + [
                    o for o in created if o["id"] not in {x["id"] for x in options.get(prop.id, [])}
                ]
        return values, options

    def _apply_options(self, schema: list[PropertySchema], options: dict[str, list[dict[str, Any]]]) -> None:
        for prop in schema:
            if prop.id in options:
                prop.add_options(options[prop.id])

    def create_page(
        self,
        parent: Parent,
        raw_properties: Any,
        children: list[blocklib.NewBlock],
        actor: str,
        *,
        plain: bool = False,
        icon: Any = None,
        cover: Any = None,
    ) -> Page:
        """A page under a page, block or data source (a database row), or at the workspace top."""
        schema: list[PropertySchema] = [PAGE_TITLE]
        ds: DataSource | None = None
        host: Page | Block | None = None
        if parent.kind == "data_source_id":
            ds = self.data_source(parent.id or "")
            if (ds.in_trash or self.databases[ds.database_id].in_trash) and not plain:
                raise in_trash("database", ds.database_id)  # turn setup (plain values) may write there
            schema = ds.properties
        elif parent.kind == "page_id":
            host = self.page(parent.id or "")
        elif parent.kind == "block_id":
            host = self.blocks.get(parent.id or "")
            if host is None:
                raise not_found("block", parent.id or "")
        elif parent.kind != "workspace":
            raise invalid("body.parent should have a page_id, data_source_id, database_id or workspace.")
        if host is not None and host.in_trash and not plain:
            raise in_trash("block", host.id)
        values, options = self.parse_properties(schema, raw_properties, plain=plain)
        if len(children) > blocklib.MAX_CHILDREN:
            raise invalid(f"body.children.length should be ≤ {blocklib.MAX_CHILDREN}.")
        # validated: commit
        self._apply_options(schema, options)
        full = {p.id: p.default_value() for p in schema if p.type not in props.READ_ONLY_TYPES}
        full.update(values)
        now = self.stamp()
        pid, seq = self._next()
        page = Page(pid, seq, parent.kind, parent.id, full, now, now, actor, actor, icon=icon, cover=cover)
        self.pages[pid] = page
        self.size.measure(page)
        if ds is not None:
            ds.rows.append(pid)
            self.size.grow(ds.id)
        if host is not None:
            host.children.append(pid)
            host.last_edited_time = now
            self.size.grow(host.id)
        self._insert_blocks("page_id", page, children, actor, None)
        return page

    def update_page(
        self,
        page: Page,
        raw_properties: Any,
        actor: str,
        *,
        plain: bool = False,
        trash: bool | None = None,
        icon: Any = ...,
        cover: Any = ...,
    ) -> Page:
        restoring = trash is False
        if page.in_trash and not restoring and not plain and (raw_properties or icon is not ... or cover is not ...):
            raise in_trash("page", page.id)
        schema = self.schema_of(page)
        values, options = self.parse_properties(schema, raw_properties, plain=plain)
        self._apply_options(schema, options)
        page.properties.update(values)
        if trash is not None:
            page.in_trash = trash
        if icon is not ...:
            page.icon = icon
        if cover is not ...:
            page.cover = cover
        page.last_edited_time = self.stamp()
        page.last_edited_by = actor
        self.size.measure(page)
        return page

    def query(self, ds: DataSource, filter_raw: Any, sorts_raw: Any) -> list[Page]:
        """Rows of ``ds`` matching the filter, in sort order (creation order by default)."""
        compiler = FilterCompiler(ds.prop, self.person, self._now_aware())
        predicate = compiler.compile(filter_raw) if filter_raw is not None else None
        order = compiler.sorter(sorts_raw)
        rows = [self.pages[r] for r in ds.rows if not self.pages[r].in_trash]
        if predicate is not None:
            rows = [r for r in rows if predicate(r)]
        return order(rows)  # type: ignore[arg-type,return-value]

    def _now_aware(self) -> datetime:
        moment = self.now()
        return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)

    # -- blocks --------------------------------------------------------------------------------
    def container(self, cid: str) -> Page | Block:
        """A page or block that can hold children."""
        if cid in self.pages:
            return self.pages[cid]
        if cid in self.blocks:
            return self.blocks[cid]
        if cid in self.databases:
            raise invalid(f"{cid} is a database; add rows with POST /v1/pages instead of appending blocks.")
        raise not_found("block", cid)

    def append_blocks(
        self,
        cid: str,
        new: list[blocklib.NewBlock],
        actor: str,
        after: str | None = None,
        *,
        at_start: bool = False,
        setup: bool = False,
    ) -> list[str]:
        """Add ``new`` at the end of ``cid``'s children, after the child ``after``, or at the start.

        ``setup``: turn setup may write into what the agent moved to the trash.
        """
        host = self.container(cid)
        if host.in_trash and not setup:
            raise in_trash("block", host.id)
        if isinstance(host, Block) and host.type == "divider":
            raise invalid(f"Block {host.id} is a divider, which cannot have children.")
        if after is not None and after not in host.children:
            raise invalid(f"body.after: {after} is not a child of {host.id}.")
        kind = "page_id" if isinstance(host, Page) else "block_id"
        ids = self._insert_blocks(kind, host, new, actor, after, at_start=at_start)
        host.last_edited_time = self.stamp()
        host.last_edited_by = actor
        return ids

    def _insert_blocks(
        self,
        parent_type: str,
        host: Page | Block,
        new: list[blocklib.NewBlock],
        actor: str,
        after: str | None,
        *,
        at_start: bool = False,
    ) -> list[str]:
        ids: list[str] = []
        now = self.stamp()
        for nb in new:
            bid, seq = self._next()
            block = Block(bid, seq, parent_type, host.id, nb.type, props.copy_json(nb.data), now, now, actor, actor)
            self.blocks[bid] = block
            ids.append(bid)
            self.size.measure(block)
            self._insert_blocks("block_id", block, nb.children, actor, None)
        if at_start:
            host.children[0:0] = ids
        elif after is None:
            host.children.extend(ids)
        else:
            at = host.children.index(after) + 1
            host.children[at:at] = ids
        self.size.grow(host.id, len(ids))
        return ids

    def update_block(self, bid: str, body: dict[str, Any], actor: str) -> None:
        """``PATCH /v1/blocks/{id}``: new content for the block's own type, or trash/restore."""
        trash = trash_flag(body)
        if bid in self.pages or bid in self.databases:
            own = "child_page" if bid in self.pages else "child_database"
            others = [k for k in body if k not in ("archived", "in_trash", own, "type")]
            if others:
                raise invalid(
                    f'body.{others[0]}: {bid} is a {own} block; send {{"{own}": {{"title": ...}}}} or in_trash.'
                )
        if bid in self.pages:
            page = self.pages[bid]
            title = body.get("child_page")
            raw = None
            if title is not None:
                if not isinstance(title, dict) or not isinstance(title.get("title"), str):
                    raise invalid("body.child_page.title should be a string.")
                raw = {self.title_prop_of(page).id: {"title": richtext.from_plain(title["title"][:2000])}}
            self.update_page(page, raw, actor, trash=trash)
            return
        if bid in self.databases:
            db = self.databases[bid]
            title = body.get("child_database")
            new_title = None
            if title is not None:
                if not isinstance(title, dict) or not isinstance(title.get("title"), str):
                    raise invalid("body.child_database.title should be a string.")
                new_title = richtext.from_plain(title["title"][:2000])
            self.update_database(db, actor, title=new_title, trash=trash)
            return
        block = self.blocks.get(bid)
        if block is None:
            raise not_found("block", bid)
        others = [k for k in body if k not in ("archived", "in_trash", block.type, "type")]
        if others:
            raise invalid(f'body.{others[0]}: block {bid} is a {block.type} block; send {{"{block.type}": {{...}}}}.')
        data = block.data
        if block.type in body:
            if block.in_trash and trash is not False:
                raise in_trash("block", bid)
            data = blocklib.update_content(block.type, block.data, body[block.type], f"body.{block.type}")
        block.data = data
        if trash is not None:
            block.in_trash = trash
        block.last_edited_time = self.stamp()
        block.last_edited_by = actor
        self.size.measure(block)

    def trash(self, bid: str, actor: str) -> None:
        """``DELETE /v1/blocks/{id}``: a block, page or database goes to the trash."""
        if bid in self.pages:
            self.update_page(self.pages[bid], None, actor, trash=True)
        elif bid in self.databases:
            self.update_database(self.databases[bid], actor, trash=True)
        elif bid in self.blocks:
            self.update_block(bid, {"in_trash": True}, actor)
        else:
            raise not_found("block", bid)

    def resolve_block(self, bid: str, *, include_trashed: bool = False) -> tuple[str, dict[str, Any], list[str]] | None:
        """A child id as (type, content, children) for rendering; child pages and databases too."""
        if bid in self.blocks:
            b = self.blocks[bid]
            return None if b.in_trash and not include_trashed else (b.type, b.data, b.children)
        if bid in self.pages:
            p = self.pages[bid]
            return None if p.in_trash and not include_trashed else ("child_page", {"title": self.title_of(p)}, [])
        if bid in self.databases:
            d = self.databases[bid]
            title = richtext.plain_text(d.title)
            return None if d.in_trash and not include_trashed else ("child_database", {"title": title}, [])
        return None

    def live_children(self, host: Page | Block) -> list[str]:
        return [c for c in host.children if self.resolve_block(c) is not None]

    def markdown(self, host: Page | Block, *, links: bool = True, content_only: bool = False) -> str:
        """The content as Markdown; ``content_only`` leaves out child pages and databases."""
        children = [c for c in host.children if c in self.blocks] if content_only else host.children
        return "\n".join(blocklib.to_markdown(children, self.resolve_block, links=links))

    def replace_content(self, page: Page, new: list[blocklib.NewBlock], actor: str) -> None:
        """Trash every content block of ``page`` and put ``new`` in their place, before the
        child pages and databases (which are not content and stay)."""
        if page.in_trash:
            raise in_trash("page", page.id)
        kept = [c for c in page.children if c in self.pages or c in self.databases]
        for c in page.children:
            if c in self.blocks:
                self.blocks[c].in_trash = True
        page.children = []
        self._insert_blocks("page_id", page, new, actor, None)
        page.children += kept
        page.last_edited_time = self.stamp()
        page.last_edited_by = actor
        self.size.measure(page)

    # -- databases: updates --------------------------------------------------------------------
    def update_database(
        self,
        db: Database,
        actor: str,
        *,
        title: list[dict[str, Any]] | None = None,
        description: list[dict[str, Any]] | None = None,
        is_inline: bool | None = None,
        trash: bool | None = None,
        schema_patch: Any = None,
    ) -> None:
        if db.in_trash and trash is not False and (title or description or schema_patch):
            raise in_trash("database", db.id)
        if schema_patch is not None:
            self.update_schema(self.primary_source(db), schema_patch, actor)
        if title is not None:
            db.title = title
        if description is not None:
            db.description = description
        if is_inline is not None:
            db.is_inline = is_inline
        if trash is not None:
            db.in_trash = trash
        db.last_edited_time = self.stamp()
        db.last_edited_by = actor
        self.size.measure(db)

    def update_data_source(
        self,
        ds: DataSource,
        actor: str,
        *,
        title: list[dict[str, Any]] | None = None,
        trash: bool | None = None,
        schema_patch: Any = None,
    ) -> None:
        if ds.in_trash and trash is not False and (title or schema_patch):
            raise in_trash("data source", ds.id)
        if schema_patch is not None:
            self.update_schema(ds, schema_patch, actor)
        if title is not None:
            ds.title = title
        if trash is not None:
            ds.in_trash = trash
        ds.last_edited_time = self.stamp()
        ds.last_edited_by = actor
        self.size.measure(ds)

    # -- comments ------------------------------------------------------------------------------
    def add_comment(
        self,
        parent_id: str | None,
        discussion_id: str | None,
        text: list[dict[str, Any]],
        actor: str,
        *,
        setup: bool = False,
    ) -> Comment:
        if discussion_id is not None:
            first = next((c for c in self.comments.values() if c.discussion_id == discussion_id), None)
            if first is None:
                raise not_found("discussion", discussion_id)
            parent_type, pid = first.parent_type, first.parent_id
        else:
            if parent_id is None:
                raise invalid("body.parent (page_id or block_id) or body.discussion_id should be defined.")
            if parent_id in self.pages:
                parent_type, pid = "page_id", parent_id
                if self.pages[pid].in_trash and not setup:
                    raise in_trash("page", pid)
            elif parent_id in self.blocks:
                parent_type, pid = "block_id", parent_id
            else:
                raise not_found("page", parent_id)
        if not text:
            raise invalid("body.rich_text should not be empty.")
        cid, seq = self._next()
        comment = Comment(cid, seq, parent_type, pid, discussion_id or cid, text, self.stamp(), actor)
        self.comments[cid] = comment
        self.size.measure(comment)
        return comment

    def comments_of(self, target: str) -> list[Comment]:
        return [c for c in self.comments.values() if c.parent_id == target]

    # -- search --------------------------------------------------------------------------------
    def search(self, query: str, kinds: Iterable[str], descending: bool = True) -> list[Page | Database | DataSource]:
        """Pages, databases and/or data sources whose title holds every word of ``query``."""
        terms = query.casefold().split()
        kinds = set(kinds)
        found: list[Page | Database | DataSource] = []
        if "page" in kinds:
            found += [p for p in self.pages.values() if not p.in_trash]
        if "database" in kinds:
            found += [d for d in self.databases.values() if not d.in_trash]
        if "data_source" in kinds:
            found += [
                s for s in self.data_sources.values() if not s.in_trash and not self.databases[s.database_id].in_trash
            ]

        def title(obj: Page | Database | DataSource) -> str:
            return self.title_of(obj) if isinstance(obj, Page) else richtext.plain_text(obj.title)

        hits = [o for o in found if all(t in title(o).casefold() for t in terms)]
        hits.sort(key=lambda o: (o.last_edited_time, o.seq), reverse=descending)
        return hits

    # -- admin lookups (exact, never by substring) ---------------------------------------------
    def find_database(self, key: str, *, for_setup: bool = False) -> Database:
        """A live database by id or exact title; raises 404 if absent, 409 if ambiguous.

        ``for_setup`` (turn setup's writes): see :meth:`_setup_choice`.
        """
        did = canonical(key)
        if did is not None and did in self.databases:
            return self.databases[did]
        if did is not None and did in self.data_sources:
            return self.databases[self.data_sources[did].database_id]
        named = [d for d in self.databases.values() if richtext.plain_text(d.title) == key]
        return self._pick(named, for_setup, f"database titled {key!r}")

    def find_row(self, ds: DataSource, key: str, *, for_setup: bool = False) -> Page:
        """A live row by id or exact title-property value."""
        pid = canonical(key)
        if pid is not None and pid in ds.rows:
            return self.pages[pid]
        title = ds.title_prop.id
        named = [self.pages[r] for r in ds.rows if richtext.plain_text(self.pages[r].properties.get(title)) == key]
        db_title = richtext.plain_text(self.databases[ds.database_id].title)
        return self._pick(named, for_setup, f"row {key!r} in database {db_title!r}")

    def find_page(self, key: str, *, for_setup: bool = False) -> Page:
        """A live page (database rows included) by id or exact title."""
        pid = canonical(key)
        if pid is not None and pid in self.pages:
            return self.pages[pid]
        named = [p for p in self.pages.values() if self.title_of(p) == key]
        return self._pick(named, for_setup, f"page titled {key!r}")

    def _pick(self, named: list[T], for_setup: bool, what: str) -> T:
        """The one live object of ``named``; for turn setup, the team's, whatever the agent did.

        Checkers stay strict (a missing or doubled object is the agent's failure). Turn setup
        must not fail because the agent did something legal: when the agent made a same-titled copy
        (a row duplicated instead of updated), the object the team made — not by the agent's bot —
        is the one meant; when the agent moved it to the trash, the trashed one still is.
        """
        live = [o for o in named if not o.in_trash]  # type: ignore[attr-defined]
        if for_setup:
            for pool in (live, named):
                team = [o for o in pool if o.created_by != self.bot_id]  # type: ignore[attr-defined]
                if len(pool) > 1 and len(team) == 1:
                    return team[0]
                if pool:
                    return _one(pool, what, [o.id for o in pool])  # type: ignore[attr-defined]
        return _one(live, what, [o.id for o in live])  # type: ignore[attr-defined]

    # -- snapshot ------------------------------------------------------------------------------
    def snapshot(self, *, copy: bool = True) -> dict[str, Any]:
        """The whole state as JSON data; ``copy=False`` shares the objects' values (see
        :func:`.model.to_json`: only for a snapshot serialised before the store changes)."""
        return {
            "format": SNAPSHOT_FORMAT,
            "seq": self.seq,
            "bot": self.bot_id,
            "users": [to_json(u, copy=copy) for u in self.users.values()],
            "databases": [to_json(d, copy=copy) for d in self.databases.values()],
            "data_sources": [to_json(s, copy=copy) for s in self.data_sources.values()],
            "pages": [to_json(p, copy=copy) for p in self.pages.values()],
            "blocks": [to_json(b, copy=copy) for b in self.blocks.values()],
            "comments": [to_json(c, copy=copy) for c in self.comments.values()],
        }

    def restore(self, data: dict[str, Any]) -> None:
        """Replace the whole state with a :meth:`snapshot` (validated before anything changes)."""
        if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
            raise invalid(f"not a kb snapshot (format {SNAPSHOT_FORMAT} expected)")
        try:
            users = {u["id"]: from_json(User, u) for u in data["users"]}
            databases = {d["id"]: from_json(Database, d) for d in data["databases"]}
            sources = {s["id"]: from_json(DataSource, s) for s in data["data_sources"]}
            pages = {p["id"]: from_json(Page, p) for p in data["pages"]}
            blocks = {b["id"]: from_json(Block, b) for b in data["blocks"]}
            comments = {c["id"]: from_json(Comment, c) for c in data["comments"]}
            seq, bot = int(data["seq"]), str(data["bot"])
        except (KeyError, TypeError, ValueError) as exc:
            raise invalid(f"malformed kb snapshot: {exc!r}") from None
        self.seq, self.bot_id, self.users = seq, bot, users
        self.databases, self.data_sources, self.pages = databases, sources, pages
        self.blocks, self.comments = blocks, comments
        self.size.reset(
            [
                *users.values(),
                *databases.values(),
                *sources.values(),
                *pages.values(),
                *blocks.values(),
                *comments.values(),
            ]
        )


def trash_flag(body: dict[str, Any]) -> bool | None:
    """``in_trash`` (or its deprecated alias ``archived``) from a request body."""
    for key in ("in_trash", "archived"):
        if key in body:
            if not isinstance(body[key], bool):
                raise invalid(f"body.{key} should be a boolean.")
            return body[key]
    return None


def _one(hits: list[T], what: str, ids: list[str]) -> T:
    if not hits:
        raise NotionError(404, "object_not_found", f"no {what}")
    if len(hits) > 1:
        raise NotionError(409, "conflict_error", f"{len(hits)} objects match {what} (ids: {', '.join(ids)}); use an id")
    return hits[0]
