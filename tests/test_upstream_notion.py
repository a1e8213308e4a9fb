"""Upstream's ``ctx.notion`` over a real world's knowledge base (``world.kb.notion``).

Raw Notion JSON in (schemas, row values), raw page objects out — the shapes upstream checkers
read — with upstream's "current page" rule; set-up calls stay out of the agent's audit log, and
the agent's official client sees the same database and rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import notion_client
import pytest
from upstream_support import run, world_of

from pytest_clawmark.upstream.notion_adapter import (
    TemplatesUnavailable,
    UpstreamNotion,
    UpstreamNotionError,
)
from pytest_clawmark.world import World
from pytest_clawmark.world.kb import KbAdminError
from pytest_clawmark.world.service import Person

USER = Person("Ines Marlow", "ines.marlow@ward.example")
DB = "Medication Records"
SCHEMA: dict[str, Any] = {
    "Patient ID": {"title": {}},
    "Name": {"rich_text": {}},
    "Age": {"number": {}},
    "Ward": {"select": {"options": [{"name": "Cardiology"}, {"name": "ICU"}]}},
    "Tags": {"multi_select": {"options": [{"name": "urgent"}, {"name": "review"}]}},
    "Admitted": {"date": {}},
    "Contact": {"email": {}},
    "Checked": {"checkbox": {}},
}


def title(v: str) -> dict[str, Any]:  # the helpers upstream tasks write
    return {"title": [{"text": {"content": v}}]}


def text(v: str) -> dict[str, Any]:
    return {"rich_text": [{"text": {"content": v}}]}


def row(pid: str, name: str, age: int, ward: str = "ICU") -> dict[str, Any]:
    return {
        "Patient ID": title(pid),
        "Name": text(name),
        "Age": {"number": age},
        "Ward": {"select": {"name": ward}},
        "Tags": {"multi_select": [{"name": "urgent"}, {"name": "review"}]},
        "Admitted": {"date": {"start": "2025-04-06"}},
        "Contact": {"email": f"{pid.lower()}@family.example"},
        "Checked": {"checkbox": True},
    }


def plain(prop: dict[str, Any], kind: str) -> str:  # as upstream checkers join rich text
    return "".join(t.get("plain_text", "") for t in prop.get(kind, []))


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    yield from world_of(tmp_path, {"fs", "kb"}, USER)


@pytest.fixture
def notion(world: World) -> UpstreamNotion:
    n = UpstreamNotion(world)
    page = run(n.create_page("Clinical Pharmacy Records 2025"))
    assert page["page_id"] == n.current_page and page["page_url"].startswith("https://")
    run(n.create_database(DB, SCHEMA))
    return n


def test_rows_come_back_as_raw_page_objects(notion: UpstreamNotion) -> None:
    row_id = run(notion.add_database_row(DB, row("P-2189", "Li Minghua", 68, "Cardiology")))
    rows = run(notion.query_db(DB))
    assert [r["id"] for r in rows] == [row_id] and rows[0]["object"] == "page"
    p = rows[0]["properties"]
    assert p["Patient ID"]["title"][0]["plain_text"] == "P-2189" and plain(p["Name"], "rich_text") == "Li Minghua"
    assert p["Age"]["number"] == 68 and p["Ward"]["select"]["name"] == "Cardiology"
    assert [t["name"] for t in p["Tags"]["multi_select"]] == ["urgent", "review"]
    assert p["Admitted"]["date"]["start"] == "2025-04-06" and p["Contact"]["email"] == "p-2189@family.example"
    assert p["Checked"]["checkbox"] is True
    assert rows[0]["parent"]["type"] == "database_id"  # upstream's 2022-06-28 dialect


def test_database_titles_match_case_insensitively_within_the_current_page(world: World) -> None:
    n = UpstreamNotion(world)
    assert run(n.query_db(DB)) == [] and run(n.read_page()) == ""  # no current page yet: empty, as upstream
    with pytest.raises(UpstreamNotionError, match="create_page"):
        run(n.create_database(DB, SCHEMA))
    with pytest.raises(UpstreamNotionError, match="create_page"):
        run(n.add_database_row(DB, row("P-1", "A", 1)))
    run(n.create_page("Ward"))
    run(n.create_database(DB, SCHEMA))
    run(n.add_database_row("medication records", row("P-1", "A", 1)))
    assert len(run(n.query_db("MEDICATION"))) == 1  # a substring, in any case
    assert run(n.query_db("Interaction Table")) == []
    with pytest.raises(UpstreamNotionError, match="Interaction Table"):
        run(n.add_database_row("Interaction Table", row("P-2", "B", 2)))
    run(n.create_page("Another page"))  # the new page is current; the old database is not in it
    assert run(n.query_db(DB)) == []


def test_update_db_row_changes_what_query_db_returns(notion: UpstreamNotion) -> None:
    first = run(notion.add_database_row(DB, row("P-2189", "Li Minghua", 68)))
    run(notion.add_database_row(DB, row("P-2190", "Zhao Shuhua", 73)))
    changes = {"Name": text("Li Minghua (confirmed)"), "Ward": {"select": {"name": "Cardiology"}}}
    run(notion.update_db_row(first, changes))
    rows = {r["properties"]["Patient ID"]["title"][0]["plain_text"]: r["properties"] for r in run(notion.query_db(DB))}
    assert plain(rows["P-2189"]["Name"], "rich_text") == "Li Minghua (confirmed)"
    assert rows["P-2189"]["Ward"]["select"]["name"] == "Cardiology" and rows["P-2189"]["Age"]["number"] == 68
    assert rows["P-2190"]["Ward"]["select"]["name"] == "ICU"


def test_query_db_returns_every_row_past_one_page(notion: UpstreamNotion) -> None:
    for i in range(130):
        run(notion.add_database_row(DB, {"Patient ID": title(f"P-{i:03d}"), "Age": {"number": i}}))
    rows = run(notion.query_db(DB))
    assert [r["properties"]["Age"]["number"] for r in rows] == list(range(130))


def test_page_content_and_properties_of_the_current_page(world: World, notion: UpstreamNotion) -> None:
    run(
        notion.append_blocks(
            [
                {"object": "block", "type": "heading_2", "heading_2": {"rich_text": [{"text": {"content": "Round"}}]}},
                {"type": "paragraph", "paragraph": {"rich_text": [{"text": {"content": "Bed 4 first."}}]}},
                {"type": "paragraph", "paragraph": {"rich_text": []}},
                {"type": "to_do", "to_do": {"rich_text": [{"text": {"content": "not read"}}]}},
                {"type": "bulleted_list_item", "bulleted_list_item": {"rich_text": [{"text": {"content": "INR"}}]}},
            ]
        )
    )
    assert run(notion.read_page()) == "## Round\n\nBed 4 first.\n\nINR"  # upstream's text, databases left out
    run(notion.update_property({"title": title("Clinical Pharmacy Records (final)")}))
    page = world.kb.notion("GET", f"/v1/pages/{notion.current_page}")
    assert plain(page["properties"]["title"], "title") == "Clinical Pharmacy Records (final)"
    with pytest.raises(TemplatesUnavailable, match="private Notion workspace"):
        run(notion.copy_page("Pharmacy template"))


def test_admin_calls_stay_out_of_the_audit_and_the_agent_sees_the_same_rows(
    world: World, notion: UpstreamNotion
) -> None:
    run(notion.add_database_row(DB, row("P-2189", "Li Minghua", 68)))
    run(notion.add_database_row(DB, row("P-2190", "Zhao Shuhua", 73)))
    run(notion.query_db(DB))
    assert world.audit.entries("kb") == []  # set-up and checker reads are not agent actions

    agent = notion_client.Client(auth=world.agent_env()["CLAWMARK_NOTION_TOKEN"], base_url=world.kb.url)
    found = agent.search(query="medication")["results"]  # the client's default dialect: 2025-09-03
    assert [r["object"] for r in found] == ["data_source"]
    rows = agent.data_sources.query(found[0]["id"])["results"]
    assert [plain(r["properties"]["Patient ID"], "title") for r in rows] == ["P-2189", "P-2190"]
    assert rows[0]["properties"]["Ward"]["select"]["name"] == "ICU"
    ops = [e.operation for e in world.audit.entries("kb")]
    assert ops == ["POST /v1/search", "POST /v1/data_sources/{data_source_id}/query"]

    # set-up is the world's user's doing, not the agent's bot's
    bot = agent.users.me()["id"]
    assert rows[0]["created_by"]["id"] != bot and rows[0]["last_edited_by"]["id"] != bot
    people = {u["id"]: u["name"] for u in agent.users.list()["results"]}
    assert people[rows[0]["created_by"]["id"]] == USER.name


def test_raw_calls_choose_the_dialect_and_report_notions_errors(world: World, notion: UpstreamNotion) -> None:
    kb = world.kb
    db = kb.database(DB).id
    legacy = kb.notion("GET", f"/v1/databases/{db}")
    assert "properties" in legacy and "data_sources" not in legacy
    current = kb.notion("GET", f"/v1/databases/{db}", version="2025-09-03")
    assert current["data_sources"][0]["id"]
    with pytest.raises(KbAdminError, match=r"GET /v1/nowhere .*not an endpoint"):
        kb.notion("GET", "/v1/nowhere")
    with pytest.raises(KbAdminError, match=r"DELETE /v1/pages \(405 .*use POST"):
        kb.notion("DELETE", "/v1/pages")
    with pytest.raises(KbAdminError, match=r"404 object_not_found"):
        kb.notion("GET", "/v1/pages/00000000-0000-4000-8000-000000000000")
    with pytest.raises(KbAdminError, match="takes no body"):
        kb.notion("GET", "/v1/users", {"page_size": 5})


def test_an_invalid_raw_schema_is_refused_naming_the_problem(notion: UpstreamNotion) -> None:
    bad = {"Patient ID": {"title": {}}, "Ward": {"select": {"options": [{"colour": "red"}]}}}
    with pytest.raises(KbAdminError, match=r"POST /v1/databases \(400 validation_error\): .*Ward"):
        run(notion.create_database("Broken", bad))
    with pytest.raises(KbAdminError, match="exactly one title"):
        run(notion.create_database("No title", {"Name": {"rich_text": {}}}))
    with pytest.raises(KbAdminError, match="Age"):
        run(notion.add_database_row(DB, {"Patient ID": title("P-1"), "Age": {"number": "sixty"}}))
    assert run(notion.query_db("Broken")) == [] and run(notion.query_db(DB)) == []  # nothing half-made
