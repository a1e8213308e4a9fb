"""The admin plane (setup, checker reads, snapshots), the audit trail, and determinism."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from sheets_support import BUDGET, USER, agent, budget, make_world, world  # noqa: F401  (fixtures)

from pytest_clawmark.servers.sheets.clients import gspread_client
from pytest_clawmark.world import World
from pytest_clawmark.world.sheets import AmbiguousMatch, RowMissing, SheetsLookupError, SpreadsheetMissing


def test_reads_are_exact_and_deterministic(world: World, budget: str) -> None:
    s = world.sheets
    s.create_spreadsheet("Budget 2025", {"Sheet1": [["x"]]})
    assert s.spreadsheet("Budget").id == budget  # exact title, not a prefix or substring match
    assert [i.title for i in s.spreadsheets()] == ["Budget", "Budget 2025"]
    assert s.spreadsheet("Budget").sheets == ("Data", "Summary")
    assert s.rows("Budget", "Data") == [
        {"Item": "Coffee", "Cost": 4.5, "Date": 45754, "Owner": "Ana"},
        {"Item": "Tea", "Cost": 3, "Date": 45755, "Owner": "Ben"},
        {"Item": "Cake", "Cost": 7.25, "Date": 45756, "Owner": "Ana"},
    ]
    assert s.rows("Budget", "Data", render="FORMATTED_VALUE")[0]["Date"] == "2025-04-07"
    assert s.row("Budget", "Data", "Item", "Tea")["Cost"] == 3
    assert s.row("Budget", "Data", "Cost", 7.25)["Item"] == "Cake"
    assert s.value("Budget", "Summary!B1") == 14.75
    assert s.value("Budget", "Summary!B1", "FORMULA") == "=SUM(Data!B2:B100)"
    assert s.values("Budget", "Summary!A4:B5") == [["Tea cost", 3], ["Big spender", "yes"]]
    with pytest.raises(RowMissing, match="no row"):
        s.row("Budget", "Data", "Item", "te")  # no substring matches
    with pytest.raises(AmbiguousMatch, match="2 rows"):
        s.row("Budget", "Data", "Owner", "Ana")
    with pytest.raises(RowMissing, match="no column"):
        s.row("Budget", "Data", "Price", "Tea")
    with pytest.raises(RowMissing, match="no sheet"):
        s.rows("Budget", "Expenses")
    with pytest.raises(RowMissing, match="no sheet"):
        s.values("Budget", "Expenses!A1")
    with pytest.raises(SpreadsheetMissing):
        s.rows("Budge", "Data")
    s.create_spreadsheet("Budget 2025", {})
    with pytest.raises(AmbiguousMatch):
        s.spreadsheet("Budget 2025")
    # Checker-facing failures are assertion failures (the agent's), not harness errors.
    assert issubclass(RowMissing, AssertionError) and issubclass(SpreadsheetMissing, AssertionError)


def test_setup_mutations_and_silent_markers(world: World, budget: str) -> None:
    s = world.sheets
    world.mutations.allowed = frozenset({"price_rise", "row_gone"})
    assert s.update_row("Budget", "Data", "Item", "Tea", {"Cost": 3.5, "Owner": None}, silent="price_rise") == 3
    assert s.row("Budget", "Data", "Item", "Tea") == {"Item": "Tea", "Cost": 3.5, "Date": 45755, "Owner": ""}
    assert s.value("Budget", "Summary!B1") == 15.25  # formulas follow silent changes
    assert s.append_rows("Budget", "Data", [["Bread", 2, "2025-04-10", "Ben"]]) == "Data!A5:D5"
    assert s.set_values("Budget", "Data!F1", [["Note"], ["checked"]]) == "Data!F1:F2"
    assert s.delete_row("Budget", "Data", "Item", "Coffee", silent="row_gone") == 2
    assert [r["Item"] for r in s.rows("Budget", "Data")] == ["Tea", "Cake", "Bread"]
    assert [(m, svc) for m, svc, _ in world.mutations.applied] == [("price_rise", "sheets"), ("row_gone", "sheets")]
    with pytest.raises(ValueError, match="not declared"):
        s.set_values("Budget", "Data!A1", [["Item"]], silent="undeclared")
    with pytest.raises(SheetsLookupError):
        s.update_row("Budget", "Data", "Item", "Nope", {"Cost": 1})
    assert s.update_row("Budget", "Data", "Owner", "Ben", {"Cost": 1}) == 4  # Tea lost its owner: Bread is the one
    s.append_rows("Budget", "Data", [["Pie", 1, "", "Ben"]])
    with pytest.raises(SheetsLookupError, match="2 rows"):
        s.update_row("Budget", "Data", "Owner", "Ben", {"Cost": 1})
    with pytest.raises(SheetsLookupError):
        s.set_values("No such spreadsheet", "A1", [[1]])
    # Big seeds grow the grid instead of tripping over Google's default 1000x26.
    s.create_spreadsheet("Wide", {"S": [[f"c{i}" for i in range(40)]] + [[i] for i in range(1500)]})
    assert len(s.values("Wide", "S!A1:AN1")[0]) == 40 and s.value("Wide", "S!A1501") == 1499
    s.batch_update("Wide", [{"addSheet": {"properties": {"title": "Extra"}}}])
    assert s.spreadsheet("Wide").sheets == ("S", "Extra")
    s.delete_spreadsheet("Wide")
    assert "Wide" not in [i.title for i in s.spreadsheets()]


def test_agent_requests_are_audited_and_admin_calls_are_not(world: World, budget: str) -> None:
    since = world.audit.last_seq
    world.sheets.values("Budget", "Data!A1:B2")
    world.sheets.set_values("Budget", "Data!F1", [["admin"]])
    world.sheets.snapshot()
    assert world.audit.entries("sheets", since) == []
    gc = gspread_client(*agent(world))
    ws = gc.open("Budget").worksheet("Data")
    ws.update([["agent"]], "G1")
    ws.append_row(["Pie", 1])
    entries = world.audit.entries("sheets", since)
    ops = [e.operation for e in entries]
    assert ops[0] == "GET drive.files.list" and "PUT values.update" in ops and "POST values.append" in ops
    update = next(e for e in entries if e.operation == "PUT values.update")
    assert (update.target, update.status) == (f"{budget}!'Data'!G1", "200")
    assert update.summary == "1x1 values RAW"
    assert all(e.service == "sheets" for e in entries)


def drive_world(root: Path) -> dict[str, Any]:
    """A fixed script of admin and agent actions; returns the final snapshot."""
    w = make_world(root)
    try:
        w.sheets.create_spreadsheet("Budget", BUDGET)
        url, token = agent(w)
        gc = gspread_client(url, token)
        sh = gc.create("Agent notes")
        ws = sh.add_worksheet("Q2", rows=10, cols=4)
        ws.append_rows([["a", "=1+1"], ["b", "=A1&A2"]], value_input_option="USER_ENTERED")
        sh.duplicate_sheet(ws.id)
        gc.open("Budget").worksheet("Data").insert_rows([["Bread", 2]], row=2)
        with httpx.Client(base_url=url, trust_env=False, headers={"Authorization": f"Bearer {token}"}) as raw:
            raw.post("/drive/v3/files", json={"name": "Empty", "mimeType": "application/vnd.google-apps.spreadsheet"})
        w.sheets.update_row("Budget", "Data", "Item", "Tea", {"Cost": 9})
        return w.sheets.snapshot()
    finally:
        w.stop()


def test_same_actions_give_identical_snapshots(tmp_path: Path) -> None:
    first = drive_world(tmp_path / "one")
    second = drive_world(tmp_path / "two")
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
    ids = [s["id"] for s in first["spreadsheets"]]
    assert len(set(ids)) == 3 and all(len(i) == 44 for i in ids)
    q2 = first["spreadsheets"][1]["sheets"]
    assert [s["title"] for s in q2] == ["Sheet1", "Q2", "Copy of Q2"]
    assert q2[1]["cells"]["B2"] == {"f": "=A1&A2", "v": "ab"}
    assert first["spreadsheets"][0]["modifiedTime"] == "2025-04-07T01:00:00.000Z"


def test_snapshot_restore_round_trip(tmp_path: Path) -> None:
    w = make_world(tmp_path / "a")
    try:
        w.sheets.create_spreadsheet("Budget", BUDGET)
        snap = w.sheets.snapshot()
        w.sheets.set_values("Budget", "Data!A2", [["Changed"]])
        w.sheets.restore(snap)
        assert w.sheets.snapshot() == snap
    finally:
        w.stop()
    other = make_world(tmp_path / "b")
    try:
        other.sheets.restore(snap)
        assert other.sheets.snapshot() == snap
        assert other.sheets.value("Budget", "Summary!B1") == 14.75
        gc = gspread_client(*agent(other))
        assert gc.open("Budget").id == snap["spreadsheets"][0]["id"]
        assert gc.create("Next").id not in {s["id"] for s in snap["spreadsheets"]}  # counters restored too
    finally:
        other.stop()


def test_agent_env_tools_markdown_and_ping(world: World) -> None:
    env = world.sheets.agent_env()
    assert set(env) == {"CLAWMARK_SHEETS_URL", "CLAWMARK_SHEETS_TOKEN"}
    assert env["CLAWMARK_SHEETS_URL"].startswith("http://127.0.0.1:")
    assert env["CLAWMARK_SHEETS_TOKEN"] == world.credentials.agent_token
    md = world.sheets.tools_markdown()
    assert env["CLAWMARK_SHEETS_URL"] in md and env["CLAWMARK_SHEETS_TOKEN"] in md
    assert "gspread" in md and "api_endpoint" in md and "curl" in md
    assert world.credentials.admin_token not in md
    assert "Spreadsheets" in (world.workspace / "TOOLS.md").read_text()
    world.sheets.ping()


def test_tools_markdown_snippets_work_as_written(world: World, budget: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The gspread and google-api-python-client snippets an agent reads in TOOLS.md really run."""
    for key, value in world.sheets.agent_env().items():
        monkeypatch.setenv(key, value)
    md = world.sheets.tools_markdown()
    blocks = [b.split("\n", 1)[1] for b in md.split("```python")[1:]]
    code = "\n".join(b.split("```", 1)[0] for b in blocks if "from pytest_clawmark" not in b.split("```", 1)[0])
    scope: dict[str, Any] = {}
    exec(compile(code, "TOOLS.md", "exec"), scope)
    ws = scope["gc"].open("Budget").worksheet("Data")
    ws.append_row(["Bread", 2, "2025-04-10", "Ben"], value_input_option="USER_ENTERED")
    assert world.sheets.rows("Budget", "Data")[-1] == {"Item": "Bread", "Cost": 2, "Date": 45757, "Owner": "Ben"}
    files = scope["drive"].files().list(q="name = 'Budget'").execute()["files"]
    assert [f["id"] for f in files] == [budget]
    got = scope["sheets"].spreadsheets().values().get(spreadsheetId=budget, range="Summary!B1").execute()
    assert got["values"] == [["16.75"]]  # the total includes the appended row


def test_start_is_fast(tmp_path: Path) -> None:
    make_world(tmp_path / "warm").stop()  # imports and first-use costs paid once per process
    times = []
    for i in range(5):
        w = World({"sheets"}, tmp_path / f"w{i}", user=USER).start()
        times.append(w.start_seconds)
        w.stop()
    times.sort()
    print(f"\nworld(fs+sheets) start: median {times[2] * 1000:.1f} ms, min {times[0] * 1000:.1f} ms")
    assert times[2] < 0.25
