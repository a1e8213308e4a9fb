"""The agent-plane clients reference solutions use, against a real world's servers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from pytest_clawmark.agentplane import AgentPlaneError, text_value
from pytest_clawmark.agents.base import AgentView
from pytest_clawmark.world import Person, World

USER = Person("Sam Rivera", "sam@corp.example")
ALEX = Person("Alex Chen", "alex@corp.example")
NOW = datetime(2025, 6, 2, 9, tzinfo=timezone(timedelta(hours=2)))


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = World({"mail", "calendar", "kb", "sheets"}, tmp_path / "w", user=USER, people=[ALEX])
    w.clock = NOW
    w.start()
    yield w
    w.stop()


@pytest.fixture
def view(world: World) -> AgentView:
    return AgentView(world.workspace, world.agent_env(), USER, NOW, 1, "")


def test_mail_send_find_and_attachments(world: World, view: AgentView) -> None:
    world.mail.deliver(ALEX, USER, "Run results", "attached", attachments=[("run.csv", b"suite,failed\na,1\n")])
    msg = view.mail.find("Run results")
    assert view.mail.attachments(msg) == {"run.csv": b"suite,failed\na,1\n"}
    assert world.mail.inbox()[0].flags == ()  # read with PEEK: nothing marked as seen
    view.mail.send(
        [ALEX.email],
        "Decision",
        "see attached",
        cc=["boss@outside.example"],
        attachments=[("d.json", b'{"go": false}')],
    )
    sent = world.mail.find(subject="Decision")
    assert sent.recipients and {a.filename for a in sent.attachments} == {"d.json"}
    assert [m.subject for m in world.mail.outside()] == ["Decision"]
    with pytest.raises(AgentPlaneError):
        view.mail.find("nothing like this")


def test_kb_rows_create_update_and_plain_values(world: World, view: AgentView) -> None:
    world.kb.create_database(
        "Issues",
        {"Key": "title", "Severity": {"select": ["blocker", "minor"]}, "Points": "number"},
        rows=[{"Key": f"I-{i}", "Severity": "minor", "Points": i} for i in range(120)],
    )
    rows = view.kb.rows("Issues")
    assert len(rows) == 120  # pagination followed
    view.kb.create_row("Issues", {"Key": {"title": text_value("NEW-1")}, "Severity": {"select": {"name": "blocker"}}})
    view.kb.update_page(rows["I-3"]["id"], {"Points": {"number": 42}})
    assert world.kb.row("Issues", "NEW-1")["Severity"] == "blocker" and world.kb.row("Issues", "I-3")["Points"] == 42
    blockers = view.kb.query("Issues", filter={"property": "Severity", "select": {"equals": "blocker"}})
    assert [view.kb.plain(r["properties"]["Key"]) for r in blockers] == ["NEW-1"]
    with pytest.raises(AgentPlaneError, match="database titled 'Nope'"):
        view.kb.database_id("Nope")


def test_sheets_values_update_append_batch_records(world: World, view: AgentView) -> None:
    world.sheets.create_spreadsheet("Tracker", {"Checklist": [["Item", "Value"], ["Open", ""], ["Failed", ""]]})
    view.sheets.update("Tracker", "Checklist!B2", [[3]])
    view.sheets.batch_update("Tracker", {"Checklist!B3": [["=B2*2"]]})
    view.sheets.append("Tracker", "Checklist!A1", [["Decision", "no-go"]])
    assert view.sheets.records("Tracker", "Checklist") == [
        {"Item": "Open", "Value": "3"},
        {"Item": "Failed", "Value": "6"},
        {"Item": "Decision", "Value": "no-go"},
    ]
    assert world.sheets.row("Tracker", "Checklist", "Item", "Failed")["Value"] == 6
    with pytest.raises(AgentPlaneError):
        view.sheets.spreadsheet_id("Tracker 2")


def test_calendar_book_and_list(world: World, view: AgentView) -> None:
    start = NOW + timedelta(days=1, hours=1)
    view.calendar.book(
        "t@corp.example",
        "Triage",
        start,
        start + timedelta(minutes=30),
        attendees=[ALEX.email],
        location="Room 4",
        stamp=NOW,
    )
    ev = world.calendar.event(uid="t@corp.example")
    assert (ev.start, ev.location, ev.attendees) == (start, "Room 4", (ALEX.email,))
    found = view.calendar.events(NOW, NOW + timedelta(days=2))
    assert [str(c["SUMMARY"]) for c in found] == ["Triage"]
    assert json.dumps(str(found[0]["UID"])) == '"t@corp.example"'


def test_calendar_delete_and_kb_page_text(world: World, view: AgentView) -> None:
    """What task authors reached for raw caldav and block endpoints to do."""
    from caldav.lib import error as caldav_error

    start = datetime(2025, 6, 3, 10, tzinfo=timezone.utc)
    view.calendar.book("keep-1", "Keep", start, start + timedelta(hours=1))
    view.calendar.book("drop-1", "Drop", start, start + timedelta(hours=1))
    view.calendar.delete("drop-1")
    assert [str(e["UID"]) for e in view.calendar.events(start, start + timedelta(hours=2))] == ["keep-1"]
    with pytest.raises(caldav_error.NotFoundError):
        view.calendar.delete("drop-1")  # gone: an error, not a silent no-op
    world.kb.create_page("Runbook", "# Cutover\n\nStep one: freeze writes.\n\n- check the sync\n- call Dana")
    text = view.kb.page_text("Runbook")
    assert "Step one: freeze writes." in text and "call Dana" in text
    with pytest.raises(AgentPlaneError):
        view.kb.page_text("No such page")
