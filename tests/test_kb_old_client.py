"""The kb server against an *old*, unmodified notion-client (2.2.1, the 2022-06-28 era).

Old clients still wrap ``databases.query`` and send database properties directly; many agents
in the wild pin them. The old client cannot share an interpreter with the new one, so it is
installed in its own folder (``.ci/install-tools`` does it) and driven in a subprocess that
puts that folder first on ``sys.path``. The test skips with a clear reason when it is absent.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from kb_support import world  # noqa: F401 - fixture

from pytest_clawmark.world import World

OLD = Path(os.environ.get("CLAWMARK_OLD_NOTION_CLIENT", Path.home() / ".cache/clawmark/notion-client-2.2.1"))

SCRIPT = r"""
import json, os, sys
import notion_client
from notion_client import Client
from notion_client.helpers import collect_paginated_api
assert notion_client.__file__.startswith(sys.argv[1]), notion_client.__file__
c = Client(auth=os.environ["TOKEN"], base_url=os.environ["URL"])
out = {"version": c.options.notion_version, "me": c.users.me()["object"]}
parent = c.pages.create(parent={"type": "workspace", "workspace": True}, properties={"title": {"title": [{"text": {"content": "Ops"}}]}})
db = c.databases.create(parent={"page_id": parent["id"]}, title=[{"text": {"content": "Tickets"}}], properties={
    "Name": {"title": {}}, "Priority": {"select": {"options": [{"name": "high"}, {"name": "low"}]}},
    "Points": {"number": {}}, "Done": {"checkbox": {}}})
for i in range(7):
    c.pages.create(parent={"database_id": db["id"]}, properties={
        "Name": {"title": [{"text": {"content": f"T-{i}"}}]}, "Priority": {"select": {"name": "high" if i % 2 else "low"}},
        "Points": {"number": i}, "Done": {"checkbox": i > 4}})
high = collect_paginated_api(c.databases.query, database_id=db["id"], page_size=2,
    filter={"and": [{"property": "Priority", "select": {"equals": "high"}}, {"property": "Points", "number": {"greater_than": 1}}]},
    sorts=[{"property": "Points", "direction": "descending"}])
out["high"] = [p["properties"]["Name"]["title"][0]["plain_text"] for p in high]
page = high[0]["id"]
c.pages.update(page_id=page, properties={"Done": {"checkbox": True}})
c.blocks.children.append(block_id=page, children=[{"object": "block", "type": "to_do", "to_do": {"rich_text": [{"text": {"content": "call vendor"}}], "checked": False}}])
out["blocks"] = [b["type"] for b in c.blocks.children.list(block_id=page)["results"]]
c.comments.create(parent={"page_id": page}, rich_text=[{"text": {"content": "looks good"}}])
out["comments"] = [x["rich_text"][0]["plain_text"] for x in c.comments.list(block_id=page)["results"]]
out["search"] = sorted(r["object"] for r in c.search(query="Tickets")["results"])
out["db_props"] = sorted(c.databases.retrieve(database_id=db["id"])["properties"])
print(json.dumps(out))
"""


@pytest.mark.skipif(
    not (OLD / "notion_client").is_dir(), reason=f"old notion-client not installed in {OLD} (see .ci/install-tools)"
)
def test_old_notion_client_end_to_end(world: World) -> None:  # noqa: F811
    env = world.agent_env()
    r = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(OLD)],
        env={
            **os.environ,
            "PYTHONPATH": str(OLD),
            "TOKEN": env["CLAWMARK_NOTION_TOKEN"],
            "URL": env["CLAWMARK_NOTION_URL"],
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["version"] == "2022-06-28" and out["me"] == "user"
    assert out["high"] == ["T-5", "T-3"]
    assert out["blocks"] == ["to_do"] and out["comments"] == ["looks good"]
    assert out["search"] == ["database"]
    assert out["db_props"] == ["Done", "Name", "Points", "Priority"]
    assert [r["Name"] for r in world.kb.rows("Tickets") if r["Done"]] == ["T-5", "T-6"]
