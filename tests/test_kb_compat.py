"""The kb server against the official, unmodified notion-client, in both dialects.

notion-client 3.x speaks 2025-09-03 (data sources); ``notion_version="2022-06-28"`` gives the
dialect older clients and many agents use. Endpoints the 3.x client no longer wraps (the
2022 database query) are reached through its own generic ``request`` method.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import notion_client
import pytest
from kb_support import (  # noqa: F401 - fixtures
    ROWS,
    client,
    legacy,
    notion,
    plain_title,
    raw,
    seeded,
    shared,
    shared_notion,
    titles,
    world,
)
from notion_client.helpers import collect_paginated_api

from pytest_clawmark.world import World

ALL = [r["Patient"] for r in ROWS]


def ds_id(world: World) -> str:
    return world.kb.database("Medication records").data_source_id


def db_id(world: World) -> str:
    return world.kb.database("Medication records").id


def user_id(world: World, name: str) -> str:
    users = client(world).users.list()["results"]
    return next(u["id"] for u in users if u.get("name") == name)


# -- users -----------------------------------------------------------------------------------------
def test_users_me_list_and_retrieve(world: World, notion: notion_client.Client) -> None:
    me = notion.users.me()
    assert me["object"] == "user" and me["type"] == "bot"
    assert me["bot"]["owner"]["user"]["person"]["email"] == "chen.fang@hospital.internal"
    users = notion.users.list()
    assert users["object"] == "list" and users["type"] == "user"
    people = [u for u in users["results"] if u["type"] == "person"]
    assert [u["name"] for u in people] == ["Chen Fang", "Li Na", "Wang Wei"]
    assert notion.users.retrieve(people[1]["id"])["person"]["email"] == "nurse3@hospital.internal"
    page1 = notion.users.list(page_size=2)
    assert page1["has_more"] and len(page1["results"]) == 2
    rest = notion.users.list(start_cursor=page1["next_cursor"])
    assert [u["id"] for u in page1["results"] + rest["results"]] == [u["id"] for u in users["results"]]


# -- databases, data sources and rows --------------------------------------------------------------
def test_create_database_and_rows_of_every_type_2025(world: World, notion: notion_client.Client) -> None:
    host = notion.pages.create(
        parent={"type": "workspace", "workspace": True},
        properties={"title": {"title": [{"text": {"content": "Pharmacy"}}]}},
    )
    db = notion.databases.create(
        parent={"type": "page_id", "page_id": host["id"]},
        title=[{"type": "text", "text": {"content": "Orders"}}],
        initial_data_source={
            "properties": {
                "Name": {"title": {}},
                "Notes": {"rich_text": {}},
                "Qty": {"number": {"format": "number"}},
                "Kind": {"select": {"options": [{"name": "oral", "color": "blue"}, {"name": "iv"}]}},
                "Flags": {"multi_select": {"options": [{"name": "a"}, {"name": "b"}]}},
                "State": {"status": {}},
                "When": {"date": {}},
                "Done": {"checkbox": {}},
                "Mail": {"email": {}},
                "Link": {"url": {}},
                "Tel": {"phone_number": {}},
                "Who": {"people": {}},
                "Created": {"created_time": {}},
                "Edited": {"last_edited_time": {}},
                "By": {"created_by": {}},
                "EditedBy": {"last_edited_by": {}},
            }
        },
    )
    assert db["object"] == "database" and "properties" not in db and len(db["data_sources"]) == 1
    source = notion.data_sources.retrieve(db["data_sources"][0]["id"])
    assert source["object"] == "data_source" and source["parent"] == {"type": "database_id", "database_id": db["id"]}
    assert source["properties"]["Kind"]["select"]["options"][0]["color"] == "blue"
    assert [o["name"] for o in source["properties"]["State"]["status"]["options"]] == [
        "Not started",
        "In progress",
        "Done",
    ]
    nurse = user_id(world, "Li Na")
    row = notion.pages.create(
        parent={"type": "data_source_id", "data_source_id": source["id"]},
        properties={
            "Name": {"title": [{"text": {"content": "Order 1"}}]},
            "Notes": {
                "rich_text": [
                    {"text": {"content": "bold", "link": {"url": "https://x.example"}}, "annotations": {"bold": True}},
                    {"text": {"content": " plain"}},
                ]
            },
            "Qty": {"number": 2.5},
            "Kind": {"select": {"name": "iv"}},
            "Flags": {"multi_select": [{"name": "a"}, {"name": "new-flag"}]},
            "State": {"status": {"name": "In progress"}},
            "When": {"date": {"start": "2025-04-07T09:00:00+08:00", "end": "2025-04-08"}},
            "Done": {"checkbox": True},
            "Mail": {"email": "a@b.example"},
            "Link": {"url": "https://example.org"},
            "Tel": {"phone_number": "+1 555 0100"},
            "Who": {"people": [{"object": "user", "id": nurse}]},
        },
    )
    assert row["parent"] == {"type": "data_source_id", "data_source_id": source["id"], "database_id": db["id"]}
    got = notion.pages.retrieve(row["id"])["properties"]
    assert got["Notes"]["rich_text"][0]["annotations"]["bold"] is True
    assert got["Notes"]["rich_text"][0]["href"] == "https://x.example"
    assert got["Qty"]["number"] == 2.5
    assert got["Kind"]["select"]["name"] == "iv"
    assert [o["name"] for o in got["Flags"]["multi_select"]] == ["a", "new-flag"]
    assert got["State"]["status"]["name"] == "In progress"
    assert got["When"]["date"] == {"start": "2025-04-07T09:00:00+08:00", "end": "2025-04-08", "time_zone": None}
    assert got["Done"]["checkbox"] is True and got["Mail"]["email"] == "a@b.example"
    assert got["Link"]["url"] == "https://example.org" and got["Tel"]["phone_number"] == "+1 555 0100"
    assert got["Who"]["people"][0]["id"] == nurse and got["Who"]["people"][0]["name"] == "Li Na"
    assert got["Created"]["created_time"] == "2025-04-07T01:00:00.000Z"
    assert got["Edited"]["last_edited_time"] == "2025-04-07T01:00:00.000Z"
    assert got["By"]["created_by"]["id"] == notion.users.me()["id"]
    # a new select option is added to the schema, as Notion does
    flags = notion.data_sources.retrieve(source["id"])["properties"]["Flags"]["multi_select"]["options"]
    assert [o["name"] for o in flags] == ["a", "b", "new-flag"]
    # the admin plane sees plain values
    assert world.kb.row("Orders", "Order 1") | {"Created": None, "Edited": None} == {
        "Name": "Order 1",
        "Notes": "bold plain",
        "Qty": 2.5,
        "Kind": "iv",
        "Flags": ["a", "new-flag"],
        "State": "In progress",
        "When": "2025-04-07T09:00:00+08:00/2025-04-08",
        "Done": True,
        "Mail": "a@b.example",
        "Link": "https://example.org",
        "Tel": "+1 555 0100",
        "Who": ["Li Na"],
        "Created": None,
        "Edited": None,
        "By": "Chen Fang's assistant",
        "EditedBy": "Chen Fang's assistant",
    }
    # the database is a child of its page
    children = notion.blocks.children.list(host["id"])["results"]
    assert [(c["type"], c["child_database"]["title"]) for c in children] == [("child_database", "Orders")]


def test_people_as_text_is_accepted(seeded: World, notion: notion_client.Client) -> None:
    page = notion.pages.create(
        parent={"data_source_id": ds_id(seeded)},
        properties={
            "Patient": {"title": [{"text": {"content": "P-9"}}]},
            "Owner": {"people": [{"name": "Wang Wei"}, "nurse3@hospital.internal", {"name": "Locum Doctor"}]},
        },
    )
    people = page["properties"]["Owner"]["people"]
    assert [p["name"] for p in people] == ["Wang Wei", "Li Na", "Locum Doctor"]
    # what was read can be written back as is, text-only people included
    echoed = notion.pages.update(page["id"], properties={"Owner": {"people": people}})
    assert echoed["properties"]["Owner"]["people"] == people
    notion.pages.update(page["id"], properties={"Owner": {"rich_text": [{"text": {"content": "Chen Fang, Li Na"}}]}})
    assert seeded.kb.row("Medication records", "P-9")["Owner"] == ["Chen Fang", "Li Na"]


def test_create_database_2022_and_schema_updates(world: World, legacy: notion_client.Client) -> None:
    host = legacy.pages.create(parent={"workspace": True}, properties={"title": [{"text": {"content": "Home"}}]})
    # notion-client 3.x no longer forwards 2022-style ``properties`` in databases.create/update,
    # so those two calls go through its generic request method, as a 2.x client would send them.
    db = legacy.request(
        path="databases",
        method="POST",
        body={
            "parent": {"page_id": host["id"]},
            "title": [{"text": {"content": "Tasks"}}],
            "properties": {"Task": {"title": {}}, "Points": {"number": {}}},
        },
    )
    assert "data_sources" not in db and set(db["properties"]) == {"Task", "Points"}
    row = legacy.pages.create(
        parent={"database_id": db["id"]},
        properties={"Task": {"title": [{"text": {"content": "Write"}}]}, "Points": {"number": 3}},
    )
    assert row["parent"] == {"type": "database_id", "database_id": db["id"]}
    updated = legacy.request(
        path=f"databases/{db['id']}",
        method="PATCH",
        body={
            "title": [{"text": {"content": "Team tasks"}}],
            "properties": {
                "Points": {"name": "Estimate"},
                "Owner": {"people": {}},
                "Kind": {"select": {"options": [{"name": "bug"}]}},
            },
        },
    )
    assert updated["title"][0]["plain_text"] == "Team tasks"
    assert set(updated["properties"]) == {"Task", "Estimate", "Owner", "Kind"}
    # options removed from a select leave the rows that had them
    legacy.pages.update(row["id"], properties={"Kind": {"select": {"name": "bug"}}})
    legacy.request(
        path=f"databases/{db['id']}",
        method="PATCH",
        body={"properties": {"Kind": {"select": {"options": [{"name": "feature"}]}}}},
    )
    assert world.kb.row("Team tasks", "Write")["Kind"] is None
    # retyping converts values; deleting drops them
    legacy.request(
        path=f"databases/{db['id']}", method="PATCH", body={"properties": {"Estimate": {"rich_text": {}}, "Kind": None}}
    )
    assert world.kb.rows("Team tasks") == [{"Task": "Write", "Estimate": "3", "Owner": []}]


def test_data_source_endpoints_2025(seeded: World, notion: notion_client.Client) -> None:
    db = notion.databases.retrieve(db_id(seeded))
    assert db["data_sources"] == [{"id": ds_id(seeded), "name": "Medication records"}]
    source = notion.data_sources.update(
        ds_id(seeded),
        title=[{"text": {"content": "Meds 2025"}}],
        properties={"Allergy": {"checkbox": {}}, "Phone": None},
    )
    assert "Allergy" in source["properties"] and "Phone" not in source["properties"]
    second = notion.data_sources.create(
        parent={"type": "database_id", "database_id": db["id"]},
        title=[{"text": {"content": "Discharges"}}],
        properties={"Who": {"title": {}}, "On": {"date": {}}},
    )
    notion.pages.create(
        parent={"data_source_id": second["id"]},
        properties={"Who": {"title": [{"text": {"content": "P-4410"}}]}, "On": {"date": {"start": "2025-04-08"}}},
    )
    assert titles(notion.data_sources.query(second["id"])["results"], "Who") == ["P-4410"]
    assert [d["name"] for d in notion.databases.retrieve(db["id"])["data_sources"]] == ["Meds 2025", "Discharges"]
    with pytest.raises(notion_client.APIResponseError) as err:
        notion.request(path=f"databases/{db['id']}", method="PATCH", body={"properties": {"X": {"number": {}}}})
    assert err.value.code == "validation_error" and "data_source" in str(err.value)


# -- queries -----------------------------------------------------------------------------------------
FILTERS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("title equals", {"property": "Patient", "title": {"equals": "P-2189"}}, ["P-2189"]),
    (
        "title does_not_equal",
        {"property": "Patient", "title": {"does_not_equal": "P-2189"}},
        ["P-3301", "P-4410", "Q-0007"],
    ),
    ("title contains (any case)", {"property": "Patient", "title": {"contains": "p-"}}, ["P-2189", "P-3301", "P-4410"]),
    ("title does_not_contain", {"property": "Patient", "title": {"does_not_contain": "P"}}, ["Q-0007"]),
    ("title starts_with", {"property": "Patient", "title": {"starts_with": "Q"}}, ["Q-0007"]),
    ("title ends_with", {"property": "Patient", "title": {"ends_with": "10"}}, ["P-4410"]),
    ("rich_text contains", {"property": "Notes", "rich_text": {"contains": "warfarin"}}, ["P-2189", "Q-0007"]),
    ("rich_text is_empty", {"property": "Notes", "rich_text": {"is_empty": True}}, ["P-4410"]),
    (
        "rich_text is_not_empty",
        {"property": "Notes", "rich_text": {"is_not_empty": True}},
        ["P-2189", "P-3301", "Q-0007"],
    ),
    ("number equals", {"property": "Dose", "number": {"equals": 5}}, ["P-2189"]),
    ("number does_not_equal", {"property": "Dose", "number": {"does_not_equal": 5}}, ["P-3301", "P-4410", "Q-0007"]),
    ("number greater_than", {"property": "Dose", "number": {"greater_than": 1}}, ["P-2189", "P-3301"]),
    ("number less_than", {"property": "Dose", "number": {"less_than": 1}}, ["Q-0007"]),
    ("number >=", {"property": "Dose", "number": {"greater_than_or_equal_to": 5}}, ["P-2189", "P-3301"]),
    ("number <=", {"property": "Dose", "number": {"less_than_or_equal_to": 5}}, ["P-2189", "Q-0007"]),
    ("number is_empty", {"property": "Dose", "number": {"is_empty": True}}, ["P-4410"]),
    ("select equals", {"property": "Ward", "select": {"equals": "Cardiology"}}, ["P-2189"]),
    (
        "select does_not_equal",
        {"property": "Ward", "select": {"does_not_equal": "Cardiology"}},
        ["P-3301", "P-4410", "Q-0007"],
    ),
    ("select is_empty", {"property": "Ward", "select": {"is_empty": True}}, ["Q-0007"]),
    ("select is_not_empty", {"property": "Ward", "select": {"is_not_empty": True}}, ["P-2189", "P-3301", "P-4410"]),
    ("multi_select contains", {"property": "Tags", "multi_select": {"contains": "review"}}, ["P-2189", "Q-0007"]),
    (
        "multi_select does_not_contain",
        {"property": "Tags", "multi_select": {"does_not_contain": "urgent"}},
        ["P-3301", "P-4410", "Q-0007"],
    ),
    ("multi_select is_empty", {"property": "Tags", "multi_select": {"is_empty": True}}, ["P-4410"]),
    (
        "status equals (default first option)",
        {"property": "Stage", "status": {"equals": "Admitted"}},
        ["P-2189", "Q-0007"],
    ),
    ("status does_not_equal", {"property": "Stage", "status": {"does_not_equal": "Admitted"}}, ["P-3301", "P-4410"]),
    ("date equals", {"property": "Due", "date": {"equals": "2025-04-07"}}, ["P-2189"]),
    ("date before", {"property": "Due", "date": {"before": "2025-04-07"}}, ["P-4410"]),
    ("date after", {"property": "Due", "date": {"after": "2025-04-07"}}, ["P-3301", "Q-0007"]),
    ("date on_or_before", {"property": "Due", "date": {"on_or_before": "2025-04-07"}}, ["P-2189", "P-4410"]),
    ("date on_or_after", {"property": "Due", "date": {"on_or_after": "2025-04-09"}}, ["P-3301", "Q-0007"]),
    ("date after datetime", {"property": "Due", "date": {"after": "2025-03-30T06:00:00Z"}}, ALL),
    ("date is_not_empty", {"property": "Due", "date": {"is_not_empty": True}}, ALL),
    ("date past_week (in-universe clock)", {"property": "Due", "date": {"past_week": {}}}, ["P-2189"]),
    ("date next_week", {"property": "Due", "date": {"next_week": {}}}, ["P-3301", "Q-0007"]),
    ("date this_week", {"property": "Due", "date": {"this_week": {}}}, ["P-2189", "P-3301"]),
    ("checkbox equals", {"property": "Checked", "checkbox": {"equals": True}}, ["P-3301", "Q-0007"]),
    ("checkbox does_not_equal", {"property": "Checked", "checkbox": {"does_not_equal": True}}, ["P-2189", "P-4410"]),
    ("email contains", {"property": "Contact", "email": {"contains": "family"}}, ["P-2189"]),
    ("email is_empty", {"property": "Contact", "email": {"is_empty": True}}, ["P-3301", "P-4410", "Q-0007"]),
    ("url starts_with", {"property": "Chart", "url": {"starts_with": "https://"}}, ["P-2189"]),
    ("phone_number contains", {"property": "Phone", "phone_number": {"contains": "2189"}}, ["P-2189"]),
    ("people contains a name (lenient)", {"property": "Owner", "people": {"contains": "Wang Wei"}}, ["P-3301"]),
    ("people is_empty", {"property": "Owner", "people": {"is_empty": True}}, ["P-4410"]),
    ("created_time timestamp", {"timestamp": "created_time", "created_time": {"on_or_after": "2025-04-07"}}, ALL),
    ("last_edited_time timestamp", {"timestamp": "last_edited_time", "last_edited_time": {"before": "2025-01-01"}}, []),
    ("created_time property", {"property": "Created", "created_time": {"equals": "2025-04-07"}}, ALL),
    (
        "and",
        {
            "and": [
                {"property": "Ward", "select": {"equals": "Cardiology"}},
                {"property": "Dose", "number": {"greater_than": 1}},
            ]
        },
        ["P-2189"],
    ),
    (
        "or",
        {
            "or": [
                {"property": "Ward", "select": {"equals": "ICU"}},
                {"property": "Checked", "checkbox": {"equals": True}},
            ]
        },
        ["P-3301", "P-4410", "Q-0007"],
    ),
    (
        "nested",
        {
            "and": [
                {
                    "or": [
                        {"property": "Tags", "multi_select": {"contains": "review"}},
                        {"property": "Tags", "multi_select": {"contains": "allergy"}},
                    ]
                },
                {"property": "Patient", "title": {"starts_with": "P"}},
            ]
        },
        ["P-2189", "P-3301"],
    ),
    ("filter by property id", {"property": "title", "title": {"equals": "Q-0007"}}, ["Q-0007"]),
]


@pytest.mark.parametrize(("filt", "expected"), [f[1:] for f in FILTERS], ids=[f[0] for f in FILTERS])
def test_query_filters_2025(
    shared: World, shared_notion: notion_client.Client, filt: dict[str, Any], expected: list[str]
) -> None:
    result = shared_notion.data_sources.query(ds_id(shared), filter=filt)
    assert result["object"] == "list" and result["type"] == "page_or_data_source"
    assert titles(result["results"]) == expected


def test_people_filter_by_user_id(shared: World, shared_notion: notion_client.Client) -> None:
    nurse = user_id(shared, "Li Na")
    found = shared_notion.data_sources.query(ds_id(shared), filter={"property": "Owner", "people": {"contains": nurse}})
    assert titles(found["results"]) == ["P-2189", "P-3301"]
    found = shared_notion.data_sources.query(
        ds_id(shared), filter={"property": "Owner", "people": {"does_not_contain": nurse}}
    )
    assert titles(found["results"]) == ["P-4410", "Q-0007"]


def test_query_filters_and_sorts_2022(seeded: World, legacy: notion_client.Client) -> None:
    path = f"databases/{db_id(seeded)}/query"
    result = legacy.request(
        path=path,
        method="POST",
        body={
            "filter": {
                "or": [
                    {"property": "Dose", "number": {"greater_than": 1}},
                    {"property": "Ward", "select": {"is_empty": True}},
                ]
            },
            "sorts": [{"property": "Dose", "direction": "descending"}],
        },
    )
    assert result["type"] == "page_or_database"
    assert titles(result["results"]) == ["P-3301", "P-2189", "Q-0007"]
    assert result["results"][0]["parent"] == {"type": "database_id", "database_id": db_id(seeded)}
    db = legacy.databases.retrieve(db_id(seeded))
    assert "data_sources" not in db and db["properties"]["Ward"]["type"] == "select"


SORTS: list[tuple[str, list[dict[str, Any]], list[str]]] = [
    (
        "number descending, empty last",
        [{"property": "Dose", "direction": "descending"}],
        ["P-3301", "P-2189", "Q-0007", "P-4410"],
    ),
    (
        "number ascending, empty last",
        [{"property": "Dose", "direction": "ascending"}],
        ["Q-0007", "P-2189", "P-3301", "P-4410"],
    ),
    (
        "select by option order",
        [{"property": "Ward", "direction": "ascending"}],
        ["P-2189", "P-3301", "P-4410", "Q-0007"],
    ),
    (
        "title descending",
        [{"property": "Patient", "direction": "descending"}],
        ["Q-0007", "P-4410", "P-3301", "P-2189"],
    ),
    ("date ascending", [{"property": "Due", "direction": "ascending"}], ["P-4410", "P-2189", "P-3301", "Q-0007"]),
    (
        "two keys",
        [{"property": "Checked", "direction": "descending"}, {"property": "Patient", "direction": "ascending"}],
        ["P-3301", "Q-0007", "P-2189", "P-4410"],
    ),
    ("timestamp, ties in creation order", [{"timestamp": "created_time", "direction": "descending"}], ALL),
]


@pytest.mark.parametrize(("sorts", "expected"), [s[1:] for s in SORTS], ids=[s[0] for s in SORTS])
def test_query_sorts(
    shared: World, shared_notion: notion_client.Client, sorts: list[dict[str, Any]], expected: list[str]
) -> None:
    assert titles(shared_notion.data_sources.query(ds_id(shared), sorts=sorts)["results"]) == expected


def test_query_pagination(shared: World, shared_notion: notion_client.Client) -> None:
    notion = shared_notion
    first = notion.data_sources.query(ds_id(shared), page_size=3)
    assert first["has_more"] is True and len(first["results"]) == 3
    second = notion.data_sources.query(ds_id(shared), page_size=3, start_cursor=first["next_cursor"])
    assert second["has_more"] is False and second["next_cursor"] is None
    assert titles(first["results"] + second["results"]) == ALL
    everything = collect_paginated_api(notion.data_sources.query, data_source_id=ds_id(shared), page_size=1)
    assert titles(everything) == ALL


def test_filter_properties_limits_returned_properties(shared: World, shared_notion: notion_client.Client) -> None:
    found = shared_notion.data_sources.query(ds_id(shared), filter_properties=["title"])
    assert set(found["results"][0]["properties"]) == {"Patient"}


# -- pages -------------------------------------------------------------------------------------------
def test_page_get_update_trash_restore(
    seeded: World, notion: notion_client.Client, legacy: notion_client.Client
) -> None:
    row_id = seeded.kb.row_id("Medication records", "P-2189")
    page = notion.pages.retrieve(row_id)
    assert page["object"] == "page" and plain_title(page) == "P-2189" and page["in_trash"] is False
    updated = notion.pages.update(
        row_id,
        properties={
            "Dose": {"number": 2.5},
            "Ward": {"select": None},
            "Stage": {"status": {"name": "Discharged"}},
            "Tags": {"multi_select": []},
            "Checked": {"checkbox": True},
            "Due": {"date": None},
        },
    )
    assert updated["properties"]["Dose"]["number"] == 2.5 and updated["properties"]["Ward"]["select"] is None
    row = seeded.kb.row("Medication records", "P-2189")
    assert (row["Dose"], row["Ward"], row["Stage"], row["Tags"], row["Checked"], row["Due"]) == (
        2.5,
        None,
        "Discharged",
        [],
        True,
        None,
    )
    trashed = notion.pages.update(row_id, in_trash=True)
    assert trashed["in_trash"] is True and trashed["archived"] is True
    assert "P-2189" not in titles(notion.data_sources.query(ds_id(seeded))["results"])
    assert [r["Patient"] for r in seeded.kb.rows("Medication records")] == ALL[1:]
    with pytest.raises(notion_client.APIResponseError) as err:
        notion.pages.update(row_id, properties={"Dose": {"number": 1}})
    assert err.value.code == "validation_error"
    legacy.pages.update(row_id, archived=False)  # the deprecated alias still works
    assert "P-2189" in titles(notion.data_sources.query(ds_id(seeded))["results"])


def test_page_property_item(seeded: World, notion: notion_client.Client) -> None:
    row_id = seeded.kb.row_id("Medication records", "P-3301")
    dose = notion.pages.properties.retrieve(row_id, "Dose")
    assert dose == {"object": "property_item", "id": dose["id"], "type": "number", "number": 12.5}
    title = notion.pages.properties.retrieve(row_id, "title")
    assert title["object"] == "list" and title["results"][0]["title"]["plain_text"] == "P-3301"
    with pytest.raises(notion_client.APIResponseError) as err:
        notion.pages.properties.retrieve(row_id, "nope")
    assert err.value.code == "object_not_found"


# -- blocks ------------------------------------------------------------------------------------------
def test_block_children_append_read_update_delete(world: World, notion: notion_client.Client) -> None:
    page = notion.pages.create(
        parent={"workspace": True},
        properties={"title": {"title": [{"text": {"content": "Ward notes"}}]}},
        children=[
            {
                "object": "block",
                "type": "paragraph",
                "paragraph": {"rich_text": [{"type": "text", "text": {"content": "Intro"}}]},
            }
        ],
    )
    text = lambda s: {"rich_text": [{"type": "text", "text": {"content": s}}]}  # noqa: E731
    appended = notion.blocks.children.append(
        page["id"],
        children=[
            {"type": "heading_1", "heading_1": text("Day 1")},
            {"type": "heading_2", "heading_2": text("Meds")},
            {"type": "heading_3", "heading_3": text("Warfarin")},
            {
                "type": "bulleted_list_item",
                "bulleted_list_item": text("check INR")
                | {"children": [{"type": "paragraph", "paragraph": text("target 2-3")}]},
            },
            {"type": "numbered_list_item", "numbered_list_item": text("first")},
            {"type": "numbered_list_item", "numbered_list_item": text("second")},
            {"type": "to_do", "to_do": text("call nurse") | {"checked": False}},
        ],
    )
    assert appended["object"] == "list" and [b["type"] for b in appended["results"]][:3] == [
        "heading_1",
        "heading_2",
        "heading_3",
    ]
    bullet = appended["results"][3]
    assert bullet["has_children"] is True
    nested = notion.blocks.children.list(bullet["id"])["results"]
    assert nested[0]["paragraph"]["rich_text"][0]["plain_text"] == "target 2-3"
    # insert after the first block
    intro_id = notion.blocks.children.list(page["id"])["results"][0]["id"]
    notion.blocks.children.append(page["id"], children=[{"paragraph": text("inserted")}], after=intro_id)
    listed = notion.blocks.children.list(page["id"])
    assert listed["type"] == "block" and len(listed["results"]) == 9
    assert listed["results"][1]["paragraph"]["rich_text"][0]["plain_text"] == "inserted"
    # pagination over children
    all_blocks = collect_paginated_api(notion.blocks.children.list, block_id=page["id"], page_size=4)
    assert [b["id"] for b in all_blocks] == [b["id"] for b in listed["results"]]
    # retrieve / update / delete
    todo = appended["results"][6]
    assert notion.blocks.retrieve(todo["id"])["to_do"]["checked"] is False
    assert notion.blocks.update(todo["id"], to_do={"checked": True})["to_do"]["checked"] is True
    notion.blocks.update(listed["results"][1]["id"], paragraph=text("edited"))
    deleted = notion.blocks.delete(appended["results"][1]["id"])
    assert deleted["in_trash"] is True
    assert world.kb.page_text("Ward notes") == (
        "Intro\nedited\n# Day 1\n### Warfarin\n- check INR\n  target 2-3\n1. first\n2. second\n- [x] call nurse"
    )
    # a child page shows up as a child_page block, and the page itself reads as a block
    child = notion.pages.create(
        parent={"page_id": page["id"]}, properties={"title": {"title": [{"text": {"content": "Sub"}}]}}
    )
    last = notion.blocks.children.list(page["id"])["results"][-1]
    assert (last["id"], last["type"], last["child_page"]["title"]) == (child["id"], "child_page", "Sub")
    assert notion.blocks.retrieve(page["id"])["type"] == "child_page"
    notion.blocks.delete(child["id"])
    assert notion.pages.retrieve(child["id"])["in_trash"] is True


def test_page_markdown_endpoints(world: World, notion: notion_client.Client) -> None:
    pid = world.kb.create_page("Plan", "# Plan\n- one\n- two\n")
    got = notion.request(path=f"pages/{pid}/markdown", method="GET")
    assert got == {
        "object": "page_markdown",
        "id": pid,
        "markdown": "# Plan\n- one\n- two",
        "truncated": False,
        "unknown_block_ids": [],
    }
    notion.request(
        path=f"pages/{pid}/markdown",
        method="PATCH",
        body={
            "type": "update_content",
            "update_content": {"content_updates": [{"old_str": "two", "new_str": "three"}]},
        },
    )
    notion.request(
        path=f"pages/{pid}/markdown",
        method="PATCH",
        body={"type": "insert_content", "insert_content": {"content": "- [ ] four"}},
    )
    assert world.kb.page_text("Plan") == "# Plan\n- one\n- three\n- [ ] four"
    # child pages are not content: edits keep them once, after the content
    world.kb.create_page("Appendix", "see above", parent="Plan")
    notion.request(
        path=f"pages/{pid}/markdown",
        method="PATCH",
        body={"type": "replace_content", "replace_content": {"new_str": "# Plan v2"}},
    )
    assert world.kb.page_text("Plan") == "# Plan v2\nAppendix"


# -- search and comments -----------------------------------------------------------------------------
def test_search_both_dialects(seeded: World, notion: notion_client.Client, legacy: notion_client.Client) -> None:
    seeded.kb.create_page("Medication policy", "Warfarin needs INR checks.")
    everything = notion.search()
    assert everything["type"] == "page_or_data_source"
    assert {r["object"] for r in everything["results"]} == {"page", "data_source"}
    found = notion.search(query="medication")
    assert [r["object"] for r in found["results"]] == ["page", "data_source"]  # most recently edited first
    only_sources = notion.search(filter={"property": "object", "value": "data_source"})
    assert [r["id"] for r in only_sources["results"]] == [ds_id(seeded)]
    only_dbs = legacy.search(query="records", filter={"property": "object", "value": "database"})
    assert only_dbs["type"] == "page_or_database" and [r["id"] for r in only_dbs["results"]] == [db_id(seeded)]
    assert "properties" in only_dbs["results"][0]
    pages = notion.search(
        filter={"property": "object", "value": "page"},
        page_size=2,
        sort={"direction": "ascending", "timestamp": "last_edited_time"},
    )
    assert pages["has_more"] is True and titles(pages["results"]) == ["P-2189", "P-3301"]
    rest = collect_paginated_api(
        notion.search,
        filter={"property": "object", "value": "page"},
        sort={"direction": "ascending", "timestamp": "last_edited_time"},
        page_size=2,
    )
    assert len(rest) == 5


def test_comments_create_list_reply(seeded: World, notion: notion_client.Client) -> None:
    row_id = seeded.kb.row_id("Medication records", "P-2189")
    first = notion.comments.create(
        parent={"page_id": row_id}, rich_text=[{"text": {"content": "INR is 4.1, hold warfarin?"}}]
    )
    assert first["object"] == "comment" and first["parent"] == {"type": "page_id", "page_id": row_id}
    reply = notion.comments.create(discussion_id=first["discussion_id"], rich_text=[{"text": {"content": "Held."}}])
    assert reply["discussion_id"] == first["discussion_id"]
    listed = notion.comments.list(block_id=row_id)
    assert listed["type"] == "comment" and [c["rich_text"][0]["plain_text"] for c in listed["results"]] == [
        "INR is 4.1, hold warfarin?",
        "Held.",
    ]
    got = seeded.kb.comments("P-2189")
    assert [(c.author, c.text) for c in got] == [
        ("Chen Fang's assistant", "INR is 4.1, hold warfarin?"),
        ("Chen Fang's assistant", "Held."),
    ]


def test_raw_http_leniencies(seeded: World, raw: httpx.Client) -> None:
    """What hand-written agents send: trailing slashes, dash-less ids, JSON-encoded nested fields."""
    assert raw.post("/v1/search/", json={"query": "P-2189"}).json()["results"][0]["object"] == "page"
    row = seeded.kb.row_id("Medication records", "P-2189")
    assert raw.get(f"/v1/pages/{row.replace('-', '')}").json()["id"] == row
    response = raw.patch(f"/v1/pages/{row}", json={"properties": json.dumps({"Dose": {"number": 6}})})
    assert response.status_code == 200, response.text
    assert seeded.kb.row("Medication records", "P-2189")["Dose"] == 6
