"""``ctx.notion`` of upstream tasks, over our knowledge base's admin plane (``world.kb.notion``).

Upstream's tasks speak raw Notion JSON: schemas such as ``{"Name": {"title": {}}}``, row values
such as ``{"Status": {"select": {"name": "Open"}}}``, and checkers that read the page objects a
query returns (``properties[name]["title"][0]["plain_text"]``, ``["select"]["name"]``...). So the
adapter translates nothing: each method is the Notion REST call upstream's manager makes, sent
through ``world.kb.notion`` — the agent plane's own handlers, in upstream's ``2022-06-28``
dialect — which neither appears in the audit log as an agent action nor is attributed to the
agent (the world's user is the author, see :meth:`KbService.notion
<pytest_clawmark.world.kb.KbService.notion>`).

The "current page" rule is upstream's: :meth:`~UpstreamNotion.create_page` makes a page (at the
workspace top level: upstream's "eval hub" parent page has no counterpart here) and makes it
*current*; databases are created in the current page, and ``db_title`` finds the first database
among the current page's direct children whose title contains it, ignoring case. Without a
current page or such a database, ``query_db`` and ``read_page`` return empty, while writes raise
:class:`UpstreamNotionError`.

Where upstream's manager would swallow a failed ``append_blocks``, this adapter raises: a set-up
step our server refuses is a harness gap to see, not a task to run on quietly different state.
"""

from __future__ import annotations

from typing import Any

UPSTREAM_VERSION = "2022-06-28"
"""The Notion-Version upstream's client sends (and the default of ``world.kb.notion``)."""
_TEXT_BLOCKS = {
    "paragraph": "",
    "heading_1": "# ",
    "heading_2": "## ",
    "heading_3": "### ",
    "bulleted_list_item": "",
    "numbered_list_item": "",
}
"""Block types ``read_page`` renders, with their line prefixes (upstream reads only these)."""


class UpstreamNotionError(RuntimeError):
    """A ``ctx.notion`` call that cannot be carried out (no current page, unknown database...)."""


class TemplatesUnavailable(UpstreamNotionError):
    """``copy_page``: the task needs a template page of upstream's private Notion workspace."""


class UpstreamNotion:
    """The methods upstream's ``NotionStateManager`` offers tasks, with its semantics and shapes."""

    def __init__(self, world: Any) -> None:
        self._world = world
        self.current_page: str | None = None
        """Id of the page made by the last :meth:`create_page` (``None`` before the first)."""

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        return self._world.kb.notion(method, path, body, version=UPSTREAM_VERSION)

    def _page(self, what: str) -> str:
        if self.current_page is None:
            raise UpstreamNotionError(f"{what}: no current page; the task must call create_page() first")
        return self.current_page

    def _children(self, block_id: str) -> list[dict[str, Any]]:
        """Every direct child block of ``block_id``, following the pagination."""
        found: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            path = f"/v1/blocks/{block_id}/children?page_size=100" + (f"&start_cursor={cursor}" if cursor else "")
            listing = self._call("GET", path)
            found += listing["results"]
            cursor = listing.get("next_cursor")
            if not listing.get("has_more") or not cursor:
                return found

    def _database(self, db_title: str) -> str | None:
        """The first database in the current page whose title contains ``db_title`` (any case)."""
        if self.current_page is None:
            return None
        wanted = db_title.lower()
        for child in self._children(self.current_page):
            if child.get("type") == "child_database" and wanted in child["child_database"]["title"].lower():
                return child["id"]
        return None

    # -- pages ---------------------------------------------------------------------------------
    async def create_page(self, title: str) -> dict[str, str]:
        """A new top-level page titled ``title``, which becomes the current page."""
        page = self._call(
            "POST",
            "/v1/pages",
            {
                "parent": {"type": "workspace", "workspace": True},
                "properties": {"title": {"title": [{"text": {"content": title}}]}},
            },
        )
        self.current_page = page["id"]
        url = page.get("url") or f"https://www.notion.so/{page['id'].replace('-', '')}"
        return {"page_id": page["id"], "page_url": url}

    async def copy_page(self, template: str) -> dict[str, str]:
        raise TemplatesUnavailable(
            f"copy_page({template!r}) duplicates a template page of upstream's private Notion workspace, which "
            "cannot be reached offline; this task cannot run here (tasks that build their pages with "
            "create_page/create_database can)"
        )

    async def append_blocks(self, blocks: list[dict[str, Any]]) -> None:
        """Append raw Notion block objects to the current page (one request, as upstream)."""
        self._call("PATCH", f"/v1/blocks/{self._page('append_blocks')}/children", {"children": list(blocks)})

    async def update_property(self, properties: dict[str, Any]) -> None:
        """Set raw property values of the current page itself."""
        self._call("PATCH", f"/v1/pages/{self._page('update_property')}", {"properties": properties})

    async def read_page(self) -> str:
        """The current page's text blocks, one per paragraph (``""`` without a current page).

        Upstream's rendering: top-level paragraphs, headings (``#`` prefixes) and list items
        only, blank ones skipped, joined by blank lines.
        """
        if self.current_page is None:
            return ""
        parts = []
        for block in self._children(self.current_page):
            prefix = _TEXT_BLOCKS.get(block.get("type", ""))
            if prefix is None:
                continue
            text = "".join(r.get("plain_text") or "" for r in block[block["type"]].get("rich_text", []))
            if text.strip():
                parts.append(prefix + text)
        return "\n\n".join(parts)

    # -- databases -----------------------------------------------------------------------------
    async def create_database(self, title: str, properties_schema: dict[str, Any]) -> str:
        """A database titled ``title`` with the raw Notion schema, in the current page; its id."""
        db = self._call(
            "POST",
            "/v1/databases",
            {
                "parent": {"type": "page_id", "page_id": self._page("create_database")},
                "title": [{"text": {"content": title}}],
                "properties": properties_schema,
            },
        )
        return db["id"]

    async def add_database_row(self, db_title: str, properties: dict[str, Any]) -> str:
        """A row with raw property values in the current page's database ``db_title``; its page id."""
        self._page("add_database_row")
        db_id = self._database(db_title)
        if db_id is None:
            raise UpstreamNotionError(f"add_database_row: no database titled like {db_title!r} in the current page")
        parent = {"type": "database_id", "database_id": db_id}
        row = self._call("POST", "/v1/pages", {"parent": parent, "properties": properties})
        return row["id"]

    async def query_db(self, db_title: str) -> list[dict[str, Any]]:
        """Every row of the current page's database ``db_title`` as raw page objects (``[]`` if none)."""
        db_id = self._database(db_title)
        if db_id is None:
            return []
        rows: list[dict[str, Any]] = []
        body: dict[str, Any] = {}
        while True:
            listing = self._call("POST", f"/v1/databases/{db_id}/query", body)
            rows += listing["results"]
            if not listing.get("has_more") or not listing.get("next_cursor"):
                return rows
            body = {"start_cursor": listing["next_cursor"]}

    async def update_db_row(self, page_id: str, properties: dict[str, Any]) -> None:
        """Set raw property values of the row (any page) ``page_id``; needs no current page."""
        self._call("PATCH", f"/v1/pages/{page_id}", {"properties": properties})
