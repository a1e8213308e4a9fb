"""The ``kb`` service: the team's knowledge base, behind a Notion-compatible REST API.

Agent plane: our own Notion API server (:mod:`pytest_clawmark.servers.kb`) on a loopback port,
usable with the official clients (notion-client, @notionhq/client, the Notion MCP server) in
both the ``2022-06-28`` and ``2025-09-03`` dialects.

Admin plane: this class. Turn setup seeds databases, rows and pages and applies silent
mutations (``silent="marker"``); checkers read rows and pages back as plain Python values.
Lookups are by id or *exact* title, and raise instead of guessing. Reads of things the agent
was expected to produce raise :class:`KbNotFound` (an ``AssertionError``: the agent's failure,
a failed checker); refused setup calls raise :class:`KbAdminError` (a harness error).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from pytest_clawmark.servers.kb import CURRENT, LEGACY, KbStore, User, create_app, limits
from pytest_clawmark.servers.kb.http_limits import notion_error_body
from pytest_clawmark.servers.kb.ids import user_id

from ..servers.asgi import AsgiServer, start_asgi, stop_asgi
from ..servers.faulting import FaultyAsgi, notion_fault
from .service import Service

PropertySpec = str | Mapping[str, Any]
"""A column type: ``"number"``, ``"date"``, … or ``{"select": ["A", "B"]}`` / a Notion property spec."""
Blocks = str | Sequence[str | Mapping[str, Any]]
"""Page content: Markdown text, or a list of Markdown strings and Notion block objects."""


class KbNotFound(AssertionError):
    """A database, row or page a checker asked for does not exist (the agent's failure)."""


class KbAmbiguous(AssertionError):
    """Several objects have the exact title a checker asked for; pass an id instead."""


class KbAdminError(RuntimeError):
    """The kb admin plane refused a setup call (bad schema or value, missing target)."""


@dataclass(frozen=True)
class KbDatabase:
    """A database as the admin plane sees it."""

    id: str
    title: str
    data_source_id: str  # the (first) data source: where rows live under Notion-Version 2025-09-03
    properties: dict[str, str]  # property name → type, in schema order
    in_trash: bool


@dataclass(frozen=True)
class KbComment:
    id: str
    parent_id: str
    page: str | None  # title of the commented page (None for comments on a block)
    discussion_id: str
    author: str
    text: str
    created_time: str


class KbService(Service):
    name = "kb"
    handle: AsgiServer | None = None
    _http: httpx.Client | None = None

    def start(self) -> None:
        ctx = self.ctx
        people = [User(user_id(p.email), p.name, p.email) for p in (ctx.user, *ctx.people)]
        bot = User(user_id("bot:clawmark-kb"), f"{ctx.user.name}'s assistant", None, "bot")
        self._store = KbStore(people, bot, self._now)
        app = create_app(
            self._store,
            agent_token=ctx.credentials.agent_token,
            admin_token=ctx.credentials.admin_token,
            audit=self._record,
        )
        gate = ctx.fault_gate("kb")
        if gate is not None:
            app = FaultyAsgi(app, gate, notion_fault, admin_token=ctx.credentials.admin_token)
        handle = self.handle = start_asgi(
            ctx.loop,
            app,
            error_body=notion_error_body,
            max_head_bytes=limits.MAX_INCOMPLETE_HEAD_BYTES,
            head_timeout=limits.HEAD_TIMEOUT_S,
        )
        self._connect(handle.url)

    def _connect(self, url: str) -> None:
        """The admin plane's client of the server at ``url`` (embedded, or in a container)."""
        # verify=False: creating an SSL context costs ~18 ms and this client only speaks plain HTTP on
        # loopback; trust_env=False keeps proxy settings of the host away from loopback calls.
        self._http = httpx.Client(
            base_url=url,
            verify=False,
            trust_env=False,
            timeout=30.0,
            headers={"Authorization": f"Bearer {self.ctx.credentials.admin_token}"},
            transport=self.admin_transport(),
        )

    def stop(self) -> None:
        if self._http is not None:
            self._http.close()
            self._http = None
        stop_asgi(self.ctx.loop, self.handle)
        self.handle = None

    # -- agent plane -----------------------------------------------------------------------------
    @property
    def url(self) -> str:
        """Base URL of the agent plane, without ``/v1`` (what notion-client calls ``base_url``)."""
        if self.handle is None:
            raise RuntimeError("the kb service is not running")
        return self.handle.url

    def agent_env(self) -> dict[str, str]:
        """``CLAWMARK_NOTION_VERSION`` is the default dialect; ``2025-09-03`` works as well."""
        return {
            "CLAWMARK_NOTION_URL": self.url,
            "CLAWMARK_NOTION_TOKEN": self.ctx.credentials.agent_token,
            "CLAWMARK_NOTION_VERSION": LEGACY,
        }

    def tools_markdown(self) -> str:
        url, token = self.url, self.ctx.credentials.agent_token
        return (
            "## Knowledge base (Notion API)\n"
            f"The team knowledge base speaks the Notion REST API at `{url}` (`$CLAWMARK_NOTION_URL`; "
            "endpoints under `/v1/`, as in Notion's API reference).\n"
            f"- Token: `{token}` (`$CLAWMARK_NOTION_TOKEN`), sent as `Authorization: Bearer <token>`.\n"
            f"- Version header `Notion-Version: {LEGACY}` (`$CLAWMARK_NOTION_VERSION`): databases carry their "
            "properties; query rows with `POST /v1/databases/{id}/query`.\n"
            f"- `Notion-Version: {CURRENT}` works too: databases list `data_sources`; schemas and queries live at "
            "`/v1/data_sources/{id}` and `POST /v1/data_sources/{id}/query`.\n"
            "- Clients: notion-client `Client(auth=token, base_url=url)`, @notionhq/client `baseUrl`, "
            "the Notion MCP server with `BASE_URL=$CLAWMARK_NOTION_URL NOTION_TOKEN=$CLAWMARK_NOTION_TOKEN`.\n\n"
            "```sh\n"
            'curl -s -X POST "$CLAWMARK_NOTION_URL/v1/search" \\\n'
            '  -H "Authorization: Bearer $CLAWMARK_NOTION_TOKEN" -H "Notion-Version: $CLAWMARK_NOTION_VERSION" \\\n'
            "  -H 'Content-Type: application/json' -d '{\"query\": \"\"}'\n"
            "```\n"
        )

    def ping(self) -> None:
        """Raise unless the server answers (the admin ping shares the agent plane's port and app,
        and is not recorded as an agent action)."""
        self._admin("GET", "/_admin/ping")

    # -- admin transport -------------------------------------------------------------------------
    def _admin(self, method: str, path: str, body: Any = None, *, read: bool = False) -> Any:
        if self._http is None:
            raise RuntimeError("the kb service is not running")
        response = self._http.request(method, path, json=body)
        try:
            payload = response.json()
        except ValueError:
            raise KbAdminError(f"kb admin {path}: HTTP {response.status_code}: {response.text[:200]}") from None
        if response.status_code == 200:
            return payload
        message = f"kb: {payload.get('message', response.text[:200])}"
        if read and response.status_code == 404:
            raise KbNotFound(message)
        if read and response.status_code == 409:
            raise KbAmbiguous(message)
        raise KbAdminError(message)

    def _op(self, op: str, body: dict[str, Any], *, read: bool = False) -> Any:
        return self._admin("POST", f"/_admin/{op}", body, read=read)

    def _mutate(self, op: str, body: dict[str, Any], silent: str | None, description: str) -> Any:
        result = self._op(op, body)
        self.ctx.mutations.note(silent, self.name, description)
        return result

    # -- admin plane: setup ----------------------------------------------------------------------
    def create_database(
        self,
        title: str,
        schema: Mapping[str, PropertySpec],
        rows: Sequence[Mapping[str, Any]] = (),
        parent_page: str | None = None,
        *,
        silent: str | None = None,
    ) -> str:
        """Create a database (one data source) with ``schema`` and seed ``rows``; returns its id.

        ``schema`` maps column names to types — exactly one ``"title"`` — e.g.
        ``{"Patient": "title", "Dose": "number", "Status": {"select": ["Open", "Done"]}}``.
        ``rows`` hold plain values (see :meth:`add_row`). ``parent_page`` is a page title or id
        (default: the workspace top level).
        """
        body = {"title": title, "schema": dict(schema), "rows": [dict(r) for r in rows], "parent_page": parent_page}
        return self._mutate("create_database", body, silent, f"created database {title!r} with {len(rows)} rows")[
            "database_id"
        ]

    def database_from_csv(
        self,
        title: str,
        schema: Mapping[str, PropertySpec],
        path: str,
        parent_page: str | None = None,
        *,
        silent: str | None = None,
        **values: Any,
    ) -> str:
        """:meth:`create_database` with the rows of a CSV file of the task's folder (one column
        per property of ``schema``, typed by it: see :func:`..taskfiles.kb_rows`); ``{{ facts }}``
        in the file are filled in from the folder's ``facts.toml`` and ``values``."""
        from ..taskfiles import TaskFolder, kb_rows, read_table

        folder = TaskFolder.at(self.ctx.task_dir)
        header, rows = read_table(folder.path(path), folder._values(values))
        return self.create_database(title, schema, kb_rows(header, rows, schema, path), parent_page, silent=silent)

    def page_from_file(
        self,
        title: str,
        path: str,
        parent: str | None = None,
        *,
        silent: str | None = None,
        author: str | None = None,
        **values: Any,
    ) -> str:
        """:meth:`create_page` with the Markdown of a file of the task's folder (facts filled in)."""
        from ..taskfiles import TaskFolder

        return self.create_page(
            title, TaskFolder.at(self.ctx.task_dir).text(path, **values), parent, silent=silent, author=author
        )

    def add_row(
        self, db: str, props: Mapping[str, Any], *, silent: str | None = None, author: str | None = None
    ) -> str:
        """Add a row to database ``db`` (exact title or id); returns the row's page id.

        Plain values: ``str`` for title/text/select/status/email/url/phone, numbers, ``bool``,
        ``list[str]`` for multi-select, names or e-mails for people, ISO strings (or ``date``)
        for dates (``"start/end"`` for a range). ``author``: a person's name or e-mail.
        """
        return self._mutate(
            "add_row", {"db": db, "props": dict(props), "author": author}, silent, f"added a row to {db!r}"
        )["id"]

    def update_row(
        self, db: str, key: str, props: Mapping[str, Any], *, silent: str | None = None, author: str | None = None
    ) -> str:
        """Change some values of the row whose title is exactly ``key`` (or whose id is ``key``)."""
        return self._mutate(
            "update_row",
            {"db": db, "key": key, "props": dict(props), "author": author},
            silent,
            f"updated {', '.join(props)} of row {key!r} in {db!r}",
        )["id"]

    def delete_row(self, db: str, key: str, *, silent: str | None = None) -> str:
        """Move the row ``key`` of ``db`` to the trash (as deleting in Notion does)."""
        return self._mutate("delete_row", {"db": db, "key": key}, silent, f"deleted row {key!r} of {db!r}")["id"]

    def create_page(
        self,
        title: str,
        blocks: Blocks = (),
        parent: str | None = None,
        *,
        silent: str | None = None,
        author: str | None = None,
    ) -> str:
        """Create a page with Markdown/block content under ``parent`` (page title or id; default: top level)."""
        body = {
            "title": title,
            "blocks": blocks if isinstance(blocks, str) else list(blocks),
            "parent": parent,
            "author": author,
        }
        return self._mutate("create_page", body, silent, f"created page {title!r}")["id"]

    def append_blocks(self, page: str, blocks: Blocks, *, silent: str | None = None) -> list[str]:
        """Append content to a page (title or id); returns the new top-level block ids."""
        body = {"page": page, "blocks": blocks if isinstance(blocks, str) else list(blocks)}
        return self._mutate("append_blocks", body, silent, f"appended content to page {page!r}")["ids"]

    def add_comment(self, page: str, text: str, *, author: str | None = None, silent: str | None = None) -> str:
        """Comment on a page as ``author`` (a person's name or e-mail; default: the world's user)."""
        return self._mutate(
            "add_comment", {"page": page, "text": text, "author": author}, silent, f"commented on page {page!r}"
        )["id"]

    # -- admin plane: raw Notion calls ------------------------------------------------------------
    def notion(
        self,
        method: str,
        path: str,
        body: Mapping[str, Any] | None = None,
        *,
        version: str | None = None,
        author: str | None = None,
        silent: str | None = None,
    ) -> dict[str, Any]:
        """Run one Notion REST call (``"POST"``, ``"/v1/databases/<id>/query"``, raw JSON body) on
        the admin plane; returns Notion's raw response JSON.

        For harness code that already speaks Notion's objects (upstream ClawMark's tasks): the call
        goes through the agent plane's own handlers, so what it creates and returns is exactly what
        the agent's clients see — but it is not recorded in the audit log as an agent action.
        ``version`` is the ``Notion-Version`` dialect (default ``2022-06-28``); query parameters go
        in ``path`` (``"/v1/blocks/<id>/children?page_size=100"``).

        Changes are attributed to ``author`` (a person's name or e-mail), by default the world's
        user — as for every admin op, and not to the agent's bot: ``created_by``/``last_edited_by``
        are evidence of who did what, and set-up state is the team's, not the agent's.

        Raises :class:`KbAdminError` with Notion's message (and the call) when Notion would refuse it.
        """
        payload = None if body is None else dict(body)
        request = {"method": method, "path": path, "body": payload, "version": version, "author": author}
        return self._mutate("notion", request, silent, f"{method.upper()} {path}")

    # -- admin plane: deterministic reads --------------------------------------------------------
    def database(self, title: str) -> KbDatabase:
        """The live database titled exactly ``title`` (or with that database/data-source id)."""
        d = self._op("database", {"db": title}, read=True)
        return KbDatabase(d["id"], d["title"], d["data_source_id"], d["properties"], d["in_trash"])

    def rows(self, db: str) -> list[dict[str, Any]]:
        """Every live row of ``db`` as ``{column: plain value}``, in creation order."""
        return self._op("rows", {"db": db}, read=True)["rows"]

    def row(self, db: str, key: str) -> dict[str, Any]:
        """The row whose title is exactly ``key``; :class:`KbNotFound` if there is none."""
        return self._op("row", {"db": db, "key": key}, read=True)["row"]

    def row_id(self, db: str, key: str) -> str:
        """The page id of the row ``key`` (e.g. to look it up in the audit log)."""
        return self._op("row", {"db": db, "key": key}, read=True)["id"]

    def page_text(self, title_or_id: str) -> str:
        """A page's content as Markdown-ish text (one line per block, nested blocks indented).

        The title is not included; database rows are pages too.
        """
        return self._op("page_text", {"page": title_or_id}, read=True)["text"]

    def comments(self, page: str | None = None) -> list[KbComment]:
        """Comments in creation order — all of them, or those on ``page`` (title or id)."""
        found = self._op("comments", {"page": page}, read=True)["comments"]
        return [KbComment(**c) for c in found]

    # -- evidence --------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return self._admin("GET", "/_admin/snapshot")

    def restore(self, data: dict[str, Any]) -> None:
        self._admin("PUT", "/_admin/snapshot", data)
