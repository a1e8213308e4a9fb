"""Worst cases an agent may legally cause in the kb (Notion API): time and memory of each.

    python benchmarks/hostile_kb.py [--json]

Part of ``benchmarks/hostile.py``. Each case is a request at a limit of
``pytest_clawmark.servers.kb.limits`` (the largest request, the costliest query, a workspace
filled to its quota) or a harness read of such a state (snapshot, restore, checker reads).
``--json`` prints one JSON list of ``{"service", "case", "seconds", "rss_growth_mb", "note"}``.
Measurements, not assertions.
"""

from __future__ import annotations

import json
import socket
import sys
import tempfile
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import benchmark_support as support
import httpx

from pytest_clawmark.servers.kb import limits
from pytest_clawmark.world import Person, World

USER = Person("Chen Fang", "chen.fang@hospital.internal")


def measure(case: str, fn: Callable[[], str], rows: list[dict[str, Any]]) -> None:
    support.measure("kb", case, fn, rows)


def new_world(root: Path) -> World:
    world = World({"kb"}, root, user=USER, people=[Person("Li Na", "nurse3@hospital.internal")])
    world.clock = datetime(2025, 4, 7, 9, tzinfo=timezone.utc)
    return world.start()


def agent_client(world: World) -> httpx.Client:
    env = world.agent_env()
    return httpx.Client(
        base_url=env["CLAWMARK_NOTION_URL"],
        trust_env=False,
        timeout=600,
        headers={"Authorization": f"Bearer {env['CLAWMARK_NOTION_TOKEN']}", "Notion-Version": "2025-09-03"},
    )


def largest_page(parent: str) -> dict[str, Any]:
    """1,000 blocks (10 toggles of 99 paragraphs) just under the 500 KB body limit."""
    text = "x" * 420
    paragraph = {"paragraph": {"rich_text": [{"text": {"content": text}}]}}
    toggles = [
        {"toggle": {"rich_text": [{"text": {"content": f"part {i}"}}], "children": [paragraph] * 99}} for i in range(10)
    ]
    return {
        "parent": {"page_id": parent},
        "properties": {"title": {"title": [{"text": {"content": "Big"}}]}},
        "children": toggles,
    }


def snapshot_size(world: World) -> float:
    return len(json.dumps(world.kb.snapshot(), separators=(",", ":"))) / 2**20


def run() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    tmp = Path(tempfile.mkdtemp(prefix="hostile-kb-"))

    # -- a workspace filled to its quota by the largest requests ---------------------------------
    world = new_world(tmp / "pages")
    home = world.kb.create_page("Home", "start")
    with agent_client(world) as http:
        body = json.dumps(largest_page(home)).encode()
        first: list[str] = []

        def post_largest() -> str:
            response = http.post("/v1/pages", content=body)
            first.append(response.json()["id"])
            return f"status {response.status_code}, {len(body)} bytes"

        measure("POST the largest allowed page (1,000 blocks)", post_largest, rows)

        def fill() -> str:
            count = 1
            while http.post("/v1/pages", content=body).status_code == 200:
                count += 1
            return f"{count} pages before the {limits.WORKSPACE_QUOTA_BYTES / 2**20:g} MiB quota refused one"

        measure("fill the workspace to its quota with the largest pages", fill, rows)
    measure(
        "snapshot of the filled workspace (harness, over HTTP)", lambda: f"{snapshot_size(world):.1f} MB of JSON", rows
    )
    snapshot = world.kb.snapshot()
    measure("restore that snapshot", lambda: world.kb.restore(snapshot) or "ok", rows)
    measure("checker read: page_text of a 1,000-block page", lambda: f"{len(world.kb.page_text(first[0]))} chars", rows)
    world.stop()

    # -- a data source filled to the quota with small rows (the most rows to query) ----------------
    world = new_world(tmp / "rows")
    schema = {"Name": "title", "Dose": "number", "Ward": {"select": ["A", "B", "C"]}, "Notes": "rich_text"}

    def row(i: int) -> dict[str, Any]:
        return {"Name": f"P-{i}", "Dose": i, "Ward": "ABC"[i % 3], "Notes": "note"}

    ledger = world.kb._store.size  # noqa: SLF001 - the ledger the quota reads
    start = ledger.total
    world.kb.create_database("Probe", schema, [row(i) for i in range(1000)])
    count = int(limits.WORKSPACE_QUOTA_BYTES / ((ledger.total - start) / 1000))
    measure(
        f"seed {count} rows through the admin plane (about the quota)",
        lambda: world.kb.create_database("Records", schema, [row(i) for i in range(count)]) and "ok",
        rows,
    )
    ds = world.kb.database("Records").data_source_id
    leaf = {"property": "Notes", "rich_text": {"contains": "zz"}}
    many = {"or": [leaf] * limits.MAX_FILTER_CONDITIONS}
    keys = ("Notes", "Name", "Ward", "Dose", "Notes")
    sorts = [{"property": p, "direction": "descending"} for p in keys][: limits.MAX_SORTS]
    with agent_client(world) as http:
        measure(
            f"query {count} rows with {limits.MAX_FILTER_CONDITIONS} text conditions (none match)",
            lambda: f"status {http.post(f'/v1/data_sources/{ds}/query', json={'filter': many}).status_code}",
            rows,
        )
        measure(
            f"query {count} rows with {limits.MAX_SORTS} sorts",
            lambda: f"status {http.post(f'/v1/data_sources/{ds}/query', json={'sorts': sorts}).status_code}",
            rows,
        )
        measure(
            "search all titles", lambda: f"status {http.post('/v1/search', json={'query': 'P-1 9'}).status_code}", rows
        )
        deep = b"[" * 200_000 + b"]" * 200_000
        measure(
            "refuse JSON nested 200,000 deep (400 KB)",
            lambda: f"status {http.post('/v1/search', content=deep).status_code}",
            rows,
        )
    measure(f"checker read: rows() of {count} rows", lambda: f"{len(world.kb.rows('Records'))} rows", rows)
    measure("snapshot of the filled data source", lambda: f"{snapshot_size(world):.1f} MB of JSON", rows)
    measure(
        "admin add_row on the filled workspace (a silent mutation)",
        lambda: world.kb.add_row("Records", {"Name": "late"}) and "ok",
        rows,
    )

    # -- refusals of oversize framing --------------------------------------------------------------
    port = int(world.kb.url.rsplit(":", 1)[1])
    token = world.credentials.agent_token

    def refuse_huge_body() -> str:
        body = b'{"x": "' + b"a" * (16 * 2**20) + b'"}'
        head = (
            f"POST /v1/pages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nNotion-Version: 2025-09-03\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode()
        with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
            sock.sendall(head + body)
            return sock.recv(200).split(b"\r\n", 1)[0].decode()

    measure("refuse a 16 MiB body (drained, then 413)", refuse_huge_body, rows)
    world.stop()
    return rows


def main(argv: list[str] | None = None) -> int:
    return support.part_main(__doc__, run, argv)


if __name__ == "__main__":
    sys.exit(main())
