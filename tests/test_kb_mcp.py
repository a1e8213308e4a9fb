"""The official Notion MCP server (@notionhq/notion-mcp-server) against our kb, over stdio.

Install it first with ``tests/support/install_mcp.sh`` (or set ``CLAWMARK_NOTION_MCP_DIR`` to
the npm prefix it is installed in); without node or the package the module is skipped. The
server is pointed at the world with its own ``BASE_URL`` and ``NOTION_TOKEN`` variables and
driven by a minimal JSON-RPC client (initialize, tools/list, tools/call).
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kb_support import make_world

from pytest_clawmark.world import World

MCP_DIR = Path(os.environ.get("CLAWMARK_NOTION_MCP_DIR", Path.home() / ".cache" / "clawmark" / "notion-mcp"))
CLI = MCP_DIR / "node_modules" / "@notionhq" / "notion-mcp-server" / "bin" / "cli.mjs"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None or not CLI.is_file(),
    reason=f"the Notion MCP server is not installed (need node and {CLI}; run tests/support/install_mcp.sh)",
)


class StdioRpc:
    """Just enough of an MCP client: newline-delimited JSON-RPC 2.0 over a child's stdio."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
            encoding="utf-8",
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, **({"params": params} if params else {})})

    def request(self, method: str, params: dict[str, Any], timeout: float = 20.0) -> Any:
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise TimeoutError(f"no answer to {method} within {timeout} s") from None
            if line is None:
                raise RuntimeError(f"the MCP server exited: {self.stderr()}")
            message = json.loads(line)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method} failed: {message['error']}")
                return message["result"]

    def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        """A tool's result, its text content decoded as JSON (the Notion API response)."""
        result = self.request("tools/call", {"name": name, "arguments": arguments})
        assert not result.get("isError"), result
        return json.loads(result["content"][0]["text"])

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def stderr(self) -> str:
        return self.proc.stderr.read()[-2000:] if self.proc.stderr and self.proc.poll() is not None else ""

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    w = make_world(tmp_path_factory.mktemp("kb-mcp"))
    w.kb.create_database(
        "Medication records",
        {"Patient": "title", "Dose": "number", "Ward": {"select": ["ICU", "Cardiology"]}},
        rows=[{"Patient": "P-2189", "Dose": 5, "Ward": "Cardiology"}, {"Patient": "P-3301", "Dose": 1, "Ward": "ICU"}],
    )
    w.kb.create_page("Ward handbook", "# Warfarin\n- check INR before every dose")
    yield w
    w.stop()


@pytest.fixture(scope="module")
def mcp(world: World, tmp_path_factory: pytest.TempPathFactory) -> Iterator[StdioRpc]:
    env = world.agent_env()
    child_env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path_factory.mktemp("mcp-home")),
        "BASE_URL": env["CLAWMARK_NOTION_URL"],
        "NOTION_TOKEN": env["CLAWMARK_NOTION_TOKEN"],
    }
    rpc = StdioRpc([NODE or "node", str(CLI)], child_env)
    try:
        init = rpc.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "clawmark-tests", "version": "0"},
            },
        )
        assert init["serverInfo"]["name"]
        rpc.notify("notifications/initialized")
        yield rpc
    finally:
        rpc.close()


def test_lists_the_notion_tools(mcp: StdioRpc) -> None:
    names = {t["name"] for t in mcp.request("tools/list", {})["tools"]}
    assert {
        "API-post-search",
        "API-retrieve-a-page",
        "API-query-data-source",
        "API-post-page",
        "API-patch-page",
        "API-get-block-children",
        "API-retrieve-a-database",
    } <= names


def test_search_and_retrieve_real_data(world: World, mcp: StdioRpc) -> None:
    found = mcp.call_tool("API-post-search", {"query": "handbook"})
    assert [r["object"] for r in found["results"]] == ["page"]
    page = found["results"][0]
    assert page["properties"]["title"]["title"][0]["plain_text"] == "Ward handbook"
    again = mcp.call_tool("API-retrieve-a-page", {"page_id": page["id"]})
    assert again["id"] == page["id"] and again["object"] == "page"
    children = mcp.call_tool("API-get-block-children", {"block_id": page["id"]})
    assert children["results"][1]["bulleted_list_item"]["rich_text"][0]["plain_text"] == "check INR before every dose"
    markdown = mcp.call_tool("API-retrieve-page-markdown", {"page_id": page["id"]})
    assert markdown["markdown"] == "# Warfarin\n- check INR before every dose"


def test_query_data_source_and_write_back(world: World, mcp: StdioRpc) -> None:
    db = mcp.call_tool("API-retrieve-a-database", {"database_id": world.kb.database("Medication records").id})
    ds = db["data_sources"][0]["id"]
    rows = mcp.call_tool(
        "API-query-data-source", {"data_source_id": ds, "filter": {"property": "Ward", "select": {"equals": "ICU"}}}
    )
    assert [r["properties"]["Patient"]["title"][0]["plain_text"] for r in rows["results"]] == ["P-3301"]
    mcp.call_tool("API-patch-page", {"page_id": rows["results"][0]["id"], "properties": {"Dose": {"number": 0.5}}})
    assert world.kb.row("Medication records", "P-3301")["Dose"] == 0.5
    parent = mcp.call_tool("API-post-search", {"query": "handbook"})["results"][0]["id"]
    mcp.call_tool(
        "API-post-page",
        {
            "parent": {"page_id": parent},
            "properties": {"title": [{"text": {"content": "Handover"}}]},
            "children": [json.dumps({"paragraph": {"rich_text": [{"text": {"content": "P-3301 dose halved"}}]}})],
        },
    )
    assert world.kb.page_text("Handover") == "P-3301 dose halved"
    ops = {(e.operation, e.status) for e in world.audit.entries("kb")}
    assert {
        ("POST /v1/data_sources/{data_source_id}/query", "200"),
        ("PATCH /v1/pages/{page_id}", "200"),
        ("POST /v1/pages", "200"),
    } <= ops
