"""The kb admin plane (KbService): seeding, silent mutations, exact lookups, snapshots, audit,
determinism and start-up time."""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

import httpx
import notion_client
import pytest
from kb_support import CLOCK, ROWS, SCHEMA, client, make_world, notion, seeded, world  # noqa: F401

from pytest_clawmark.world import World
from pytest_clawmark.world.kb import KbAdminError, KbAmbiguous, KbDatabase, KbNotFound

DB = "Medication records"


def test_seed_and_read_plain_rows(seeded: World) -> None:
    kb = seeded.kb
    info = kb.database(DB)
    assert isinstance(info, KbDatabase) and info.title == DB and not info.in_trash
    assert info.properties["Ward"] == "select" and list(info.properties) == list(SCHEMA)
    rows = kb.rows(DB)
    assert [r["Patient"] for r in rows] == [r["Patient"] for r in ROWS]  # creation order
    first = rows[0]
    assert first == {
        "Patient": "P-2189",
        "Notes": "warfarin 5 mg",
        "Dose": 5,
        "Ward": "Cardiology",
        "Tags": ["urgent", "review"],
        "Stage": "Admitted",
        "Due": "2025-04-07",
        "Checked": False,
        "Contact": "p2189@family.example",
        "Chart": "https://charts.example/2189",
        "Phone": "+86 10 5555 2189",
        "Owner": ["Li Na"],
        "Created": "2025-04-07T01:00:00.000Z",
        "Edited": "2025-04-07T01:00:00.000Z",
    }
    assert kb.row(DB, "Q-0007")["Owner"] == ["Chen Fang"]  # an e-mail resolves to the person
    assert kb.database(info.id) == info and kb.database(info.data_source_id) == info


def test_update_add_delete_rows_with_silent_markers(seeded: World) -> None:
    kb = seeded.kb
    kb.update_row(DB, "P-2189", {"Notes": "creatinine 180 µmol/L", "Dose": 2.5}, silent="creatinine_rise")
    kb.add_row(DB, {"Patient": "P-5000", "Ward": "Neurology", "Due": "2025-04-08/2025-04-10"}, silent="new_admission")
    kb.delete_row(DB, "P-4410", silent="record_removed")
    rows = {r["Patient"]: r for r in kb.rows(DB)}
    assert rows["P-2189"]["Notes"] == "creatinine 180 µmol/L" and rows["P-2189"]["Dose"] == 2.5
    assert rows["P-5000"]["Ward"] == "Neurology" and rows["P-5000"]["Due"] == "2025-04-08/2025-04-10"
    assert "P-4410" not in rows
    assert [(m, s) for m, s, _ in seeded.mutations.applied] == [
        ("creatinine_rise", "kb"),
        ("new_admission", "kb"),
        ("record_removed", "kb"),
    ]
    # loud (non-silent) changes are not in the ledger
    kb.update_row(DB, "P-2189", {"Checked": True})
    assert len(seeded.mutations.applied) == 3


def test_lookups_are_exact_and_raise_clearly(seeded: World) -> None:
    kb = seeded.kb
    with pytest.raises(KbNotFound, match="P-21"):
        kb.row(DB, "P-21")  # never a substring match
    with pytest.raises(AssertionError):
        kb.row(DB, "p-2189")  # nor a case-insensitive one
    with pytest.raises(KbNotFound, match="database titled 'Medication'"):
        kb.rows("Medication")
    kb.add_row(DB, {"Patient": "P-2189", "Dose": 1})
    with pytest.raises(KbAmbiguous, match="2 objects match"):
        kb.row(DB, "P-2189")
    ids = [r for r in seeded.kb.rows(DB) if r["Patient"] == "P-2189"]
    assert len(ids) == 2
    with pytest.raises(KbAdminError):
        kb.update_row(DB, "P-2189", {"Dose": 3})  # ambiguous setup is a harness error
    with pytest.raises(KbAdminError):
        kb.update_row(DB, "nobody", {"Dose": 3})


def test_refused_setup_changes_nothing(seeded: World) -> None:
    kb = seeded.kb
    before = kb.snapshot()
    bad_calls = [
        lambda: kb.update_row(DB, "P-2189", {"Nope": 1}),
        lambda: kb.update_row(DB, "P-2189", {"Dose": 1, "Checked": "yes"}),
        lambda: kb.add_row(DB, {"Patient": "X", "Stage": "Not a stage"}),
        lambda: kb.create_database("Broken", {"A": "title", "B": "title"}),
        lambda: kb.create_database("Broken", {"A": "title", "B": "formula"}),
        lambda: kb.create_database(
            "Half", {"A": "title", "N": "number"}, rows=[{"A": "ok", "N": 1}, {"A": "bad", "N": "x"}]
        ),
        lambda: kb.create_page("Child", "text", parent="No such page"),
        lambda: kb.append_blocks("No such page", "text"),
        lambda: kb.add_comment("P-2189", "hi", author="Someone Unknown"),
    ]
    for call in bad_calls:
        with pytest.raises(KbAdminError):
            call()
    assert kb.snapshot() == before


def test_pages_blocks_and_page_text(world: World) -> None:
    kb = world.kb
    kb.create_page("Handbook", "# Handbook\nWelcome.")
    kb.create_page(
        "Warfarin protocol",
        [
            "## Dosing",
            "- check INR daily\n  - target 2.0-3.0",
            {"type": "to_do", "to_do": {"rich_text": [{"text": {"content": "sign off"}}], "checked": True}},
            "```\nINR > 4: hold\n```",
        ],
        parent="Handbook",
    )
    kb.append_blocks("Warfarin protocol", "1. step one\n2. step two\n---\n> quoted")
    assert kb.page_text("Warfarin protocol") == (
        "## Dosing\n- check INR daily\n  - target 2.0-3.0\n- [x] sign off\n```plain text\nINR > 4: hold\n```\n"
        "1. step one\n2. step two\n---\n> quoted"
    )
    assert kb.page_text("Handbook") == "# Handbook\nWelcome.\nWarfarin protocol"
    with pytest.raises(KbNotFound):
        kb.page_text("Warfarin")
    long_text = "x" * 5000  # longer than one Notion text span: split, not refused
    kb.create_page("Long", [long_text])
    assert kb.page_text("Long") == long_text


def test_comments_by_people_are_visible_to_the_agent(world: World, notion: notion_client.Client) -> None:
    kb = world.kb
    pid = kb.create_page("Rounds", "notes")
    kb.add_comment("Rounds", "Please double-check the INR.", author="Li Na")
    listed = notion.comments.list(block_id=pid)["results"]
    nurse = next(u for u in notion.users.list()["results"] if u.get("name") == "Li Na")
    assert [(c["created_by"]["id"], c["rich_text"][0]["plain_text"]) for c in listed] == [
        (nurse["id"], "Please double-check the INR.")
    ]
    notion.comments.create(parent={"page_id": pid}, rich_text=[{"text": {"content": "Done, INR 2.4."}}])
    got = kb.comments("Rounds")
    assert [(c.author, c.text, c.page) for c in got] == [
        ("Li Na", "Please double-check the INR.", "Rounds"),
        ("Chen Fang's assistant", "Done, INR 2.4.", "Rounds"),
    ]
    assert kb.comments() == got


def test_agent_env_tools_markdown_and_ping(world: World) -> None:
    kb = world.kb
    env = kb.agent_env()
    assert env == {
        "CLAWMARK_NOTION_URL": kb.url,
        "CLAWMARK_NOTION_TOKEN": world.credentials.agent_token,
        "CLAWMARK_NOTION_VERSION": "2022-06-28",
    }
    assert world.credentials.admin_token not in json.dumps(world.agent_env())
    md = kb.tools_markdown()
    assert kb.url in md and world.credentials.agent_token in md and "2025-09-03" in md and "curl" in md
    assert world.credentials.admin_token not in md
    assert "Knowledge base" in (world.workspace / "TOOLS.md").read_text()
    kb.ping()
    assert world.audit.entries("kb") == []  # neither ping nor setup is an agent action


def test_audit_records_agent_requests_only(seeded: World, notion: notion_client.Client) -> None:
    kb = seeded.kb
    row_id = kb.row_id(DB, "P-2189")
    notion.pages.retrieve(row_id)
    notion.pages.update(row_id, properties={"Dose": {"number": 7}})
    with pytest.raises(notion_client.APIResponseError):
        notion.pages.update(row_id, properties={"Dose": {"number": "seven"}})
    httpx.get(kb.url + "/v1/nowhere", headers={"Authorization": "Bearer wrong"})
    kb.update_row(DB, "P-2189", {"Dose": 8})
    kb.rows(DB)
    kb.snapshot()
    entries = seeded.audit.entries("kb")
    assert [(e.operation, e.target, e.status) for e in entries] == [
        ("GET /v1/pages/{page_id}", row_id, "200"),
        ("PATCH /v1/pages/{page_id}", row_id, "200"),
        ("PATCH /v1/pages/{page_id}", row_id, "400"),
        ("GET /v1/nowhere", "/v1/nowhere", "400"),
    ]
    assert entries[1].summary == "update page 'P-2189': Dose"
    assert "number" in entries[2].summary
    assert all(seeded.credentials.agent_token not in e.summary for e in entries)


def test_snapshot_restore_roundtrip(seeded: World, notion: notion_client.Client) -> None:
    kb = seeded.kb
    before = kb.snapshot()
    assert json.loads(json.dumps(before)) == before  # JSON-able
    notion.pages.update(kb.row_id(DB, "P-2189"), properties={"Dose": {"number": 99}})
    kb.create_page("Scratch", "tmp")
    assert kb.snapshot() != before
    kb.restore(before)
    assert kb.snapshot() == before
    assert kb.row(DB, "P-2189")["Dose"] == 5
    # ids keep counting from the restored sequence
    new_id = kb.add_row(DB, {"Patient": "P-7"})
    assert new_id not in json.dumps(before)
    with pytest.raises(KbAdminError):
        kb.restore({"format": 999})


def test_clock_falls_back_to_a_fixed_epoch(tmp_path: Path) -> None:
    w = make_world(tmp_path / "w", clock=None)
    try:
        w.kb.create_database("T", {"Name": "title", "When": "created_time"}, rows=[{"Name": "a"}])
        assert w.kb.row("T", "a")["When"] == "2025-01-01T00:00:00.000Z"
        w.clock = CLOCK
        w.kb.add_row("T", {"Name": "b"})
        assert w.kb.row("T", "b")["When"] == "2025-04-07T01:00:00.000Z"
    finally:
        w.stop()


def _replay(root: Path) -> tuple[dict, list[tuple[str, str, str, str]]]:
    w = make_world(root)
    try:
        w.kb.create_database(DB, SCHEMA, ROWS)
        w.kb.create_page("Notes", "# Day 1\n- a")
        c = client(w)
        ds = w.kb.database(DB).data_source_id
        page = c.pages.create(
            parent={"data_source_id": ds},
            properties={
                "Patient": {"title": [{"text": {"content": "P-8"}}]},
                "Tags": {"multi_select": [{"name": "fresh"}]},
            },
        )
        c.blocks.children.append(page["id"], children=[{"paragraph": {"rich_text": [{"text": {"content": "hi"}}]}}])
        c.comments.create(parent={"page_id": page["id"]}, rich_text=[{"text": {"content": "ok"}}])
        c.data_sources.update(ds, properties={"Risk": {"select": {"options": [{"name": "high"}]}}})
        c.pages.update(w.kb.row_id(DB, "P-3301"), properties={"Risk": {"select": {"name": "low"}}}, in_trash=True)
        c.close()
        audit = [(e.operation, e.target, e.summary, e.status) for e in w.audit.entries("kb")]
        return w.kb.snapshot(), audit
    finally:
        w.stop()


def test_identical_replays_give_identical_snapshots(tmp_path: Path) -> None:
    snap_a, audit_a = _replay(tmp_path / "a")
    snap_b, audit_b = _replay(tmp_path / "b")  # different folder, different random tokens
    assert json.dumps(snap_a, sort_keys=True) == json.dumps(snap_b, sort_keys=True)
    assert audit_a == audit_b


def test_kb_starts_in_milliseconds(tmp_path: Path) -> None:
    """The kb part of a world start (budget: the whole 5-service world < 300 ms)."""
    from pytest_clawmark.world.kb import KbService

    make_world(tmp_path / "warm").stop()  # imports
    timings = []
    for i in range(5):
        w = make_world(tmp_path / f"w{i}")
        try:
            svc: KbService = w.kb
            svc.stop()
            t0 = time.perf_counter()
            svc.start()
            timings.append(time.perf_counter() - t0)
            svc.ping()
        finally:
            w.stop()
    assert statistics.median(timings) < 0.1, timings
