"""The task-folder shape: facts, text/table/mail files, the admin-plane loaders, the agent-plane
row helpers and ``clawmark new-task`` — each with its errors, on real services."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from pytest_clawmark.agentplane import Notion, Sheets, column_letter
from pytest_clawmark.taskfiles import Facts, TaskFileError, TaskFolder, kb_rows, read_mail, read_table
from pytest_clawmark.world import Person, World

TZ = timezone(timedelta(hours=2))
SAM = Person("Sam Rivera", "sam@corp.example")
MEI = Person("Mei Lin", "mei@corp.example")


def _folder(tmp_path: Path, files: dict[str, str]) -> TaskFolder:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    return TaskFolder(tmp_path / "task_x.py")


def test_facts_read_as_attributes_and_say_what_is_missing(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"facts.toml": '[patient]\nmrn = "P-1"\nage = 81\n[names]\nlog = "Log"\n'})
    F = folder.facts
    assert (F.patient.mrn, F["patient"]["age"], F.names.log) == ("P-1", 81, "Log")
    with pytest.raises(AttributeError, match=r"facts.toml.patient has no 'weight' \(it has: age, mrn\)"):
        _ = F.patient.weight
    assert isinstance(F.patient, Facts) and dict(F.patient) == {"mrn": "P-1", "age": 81}


def test_text_fills_facts_and_refuses_unknown_names(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {
        "facts.toml": '[patient]\nmrn = "P-1"\ndoses = [1, 2]\n',
        "messages/day1.md": "Check {{ patient.mrn }} and {{extra}}; keep {braces} and $5.\n",
        "messages/bad.md": "{{ patient.weight }}",
        "messages/list.md": "{{ patient.doses }}",
    })  # fmt: skip
    assert folder.text("messages/day1.md", extra="x") == "Check P-1 and x; keep {braces} and $5."
    with pytest.raises(TaskFileError, match=r"bad.md: \{\{ patient.weight \}\} names no fact"):
        folder.text("messages/bad.md")
    with pytest.raises(TaskFileError, match="is a table or a list"):
        folder.text("messages/list.md")
    with pytest.raises(TaskFileError, match="no such task file"):
        folder.text("messages/none.md")
    with pytest.raises(TaskFileError, match="outside the task's folder"):
        folder.text("../elsewhere.md")


def test_mail_files(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {
        "facts.toml": '[r]\nid = "REQ-1"\n',
        "mail/ok.txt": "From: Mei Lin <mei@corp.example>\nTo: sam@corp.example, x@out.example\nCc: a@corp.example\n"
                       "Subject: {{ r.id }}: a\n  folded subject\nAttachments: day1/a.pdf, day1/b.png\n\nHi,\n\n{{ r.id }} please.\n\n",
        "mail/noblank.txt": "From: a@x\nTo: b@x\nSubject: s",
        "mail/unknown.txt": "From: a@x\nTo: b@x\nSubject: s\nBcc: c@x\n\nbody",
        "mail/nofrom.txt": "To: b@x\nSubject: s\n\nbody",
        "mail/date.txt": "From: a@x\nTo: b@x\nSubject: s\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n\nbody",
    })  # fmt: skip
    mail = folder.mail("mail/ok.txt")
    assert (mail.sender, mail.to, mail.cc, mail.subject) == (
        "Mei Lin <mei@corp.example>",
        ["sam@corp.example", "x@out.example"],
        ["a@corp.example"],
        "REQ-1: a folded subject",
    )
    assert mail.attachments == ["day1/a.pdf", "day1/b.png"] and mail.body == "Hi,\n\nREQ-1 please."
    for name, message in [
        ("noblank", "no blank line"),
        ("unknown", r"unknown header\(s\) \['bcc'\]"),
        ("nofrom", "needs From"),
        ("date", "Date is the turn's"),
    ]:
        with pytest.raises(TaskFileError, match=message):
            read_mail(folder.path(f"mail/{name}.txt"))


def test_tables_and_kb_typing(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {
        "a.csv": 'Name,Age,Tags,Active,Note\nAda,"1,204",x; y,yes,\n',
        "dup.csv": "A,A\n1,2\n",
        "long.csv": "A,B\n1,2,3\n",
        "empty.csv": "",
    })  # fmt: skip
    header, rows = read_table(folder.path("a.csv"))
    schema = {"Name": "title", "Age": "number", "Tags": "multi_select", "Active": "checkbox", "Note": "rich_text"}
    assert kb_rows(header, rows, schema, "a.csv") == [{"Name": "Ada", "Age": 1204, "Tags": ["x", "y"], "Active": True}]
    with pytest.raises(TaskFileError, match=r"column\(s\) \['Note'\] are not in the database's schema"):
        kb_rows(header, rows, {k: v for k, v in schema.items() if k != "Note"}, "a.csv")
    with pytest.raises(TaskFileError, match=r"line 2, column 'Name' \(number\): 'Ada' is not a number"):
        kb_rows(header, rows, {**schema, "Name": "number"}, "a.csv")
    for name, message in [
        ("dup", "distinct, non-empty column names"),
        ("long", "line 2 has 3 cells for 2 columns"),
        ("empty", "an empty table"),
    ]:
        with pytest.raises(TaskFileError, match=message):
            read_table(folder.path(f"{name}.csv"))


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    folder = tmp_path / "task"
    _folder(folder, {
        "facts.toml": '[n]\ntracker = "Tracker"\nlimit = 1000\n',
        "seed/tracker.csv": "ID,Amount,Status\nR-1,{{ n.limit }},new\nR-2,12.5,\n",
        "seed/rules.md": "# Rules\n\nAbove {{ n.limit }} EUR: ask Max.\n",
        "seed/log.csv": "ID,Note\nR-1,first\n",
        "mail/m.txt": "From: Mei Lin <mei@corp.example>\nTo: Sam Rivera <sam@corp.example>\nSubject: R-1\nAttachments: day1/a.txt\n\nSee {{ n.limit }}.\n",
        "day1/a.txt": "evidence\n",
    })  # fmt: skip
    w = World({"mail", "kb", "sheets"}, tmp_path / "w", user=SAM, people=[MEI], task_dir=folder)
    w.clock = datetime(2025, 6, 2, 9, tzinfo=TZ)
    w.start()
    yield w
    w.stop()


def test_admin_plane_loaders_seed_the_services_from_files(world: World) -> None:
    world.kb.database_from_csv(
        "Tracker", {"ID": "title", "Amount": "number", "Status": {"select": ["new", "done"]}}, "seed/tracker.csv"
    )
    assert world.kb.rows("Tracker") == [
        {"ID": "R-1", "Amount": 1000, "Status": "new"},
        {"ID": "R-2", "Amount": 12.5, "Status": None},
    ]
    world.kb.page_from_file("Rules", "seed/rules.md")
    assert "Above 1000 EUR: ask Max." in world.kb.page_text("Rules")
    world.sheets.spreadsheet_from_csv("Log", {"Log": "seed/log.csv"})
    assert world.sheets.rows("Log", "Log") == [{"ID": "R-1", "Note": "first"}]
    world.mail.deliver_file("mail/m.txt")
    (mail,) = world.mail.inbox(SAM)
    assert (mail.subject, mail.sender, mail.text.strip()) == ("R-1", "mei@corp.example", "See 1000.")
    assert [(a.filename, a.data) for a in mail.attachments] == [("a.txt", b"evidence\n")]
    with pytest.raises(TaskFileError, match="no such task file"):
        world.mail.deliver_file("mail/none.txt")


def test_agent_plane_row_helpers(world: World) -> None:
    world.kb.create_database(
        "Orders",
        {"ID": "title", "Dose": "rich_text", "Status": {"select": ["active", "held"]}, "Qty": "number"},
        rows=[{"ID": "RX-1", "Dose": "5 mg", "Status": "active", "Qty": 1}],
    )
    header = [f"C{i}" for i in range(30)]  # past column Z: AA..AD
    world.sheets.create_spreadsheet("Wide", {"S 1": [header, ["k1", *[""] * 29]]})
    env = world.agent_env()
    kb, sheets = Notion(env), Sheets(env)
    kb.set_row("Orders", "RX-1", {"Dose": "2.5 mg", "Status": "held", "Qty": 2})
    kb.add_row("Orders", {"ID": "RX-2", "Dose": "40 mg", "Status": "active"})
    assert kb.plain_rows("Orders")["RX-1"]["Dose"] == "2.5 mg"
    assert world.kb.rows("Orders") == [
        {"ID": "RX-1", "Dose": "2.5 mg", "Status": "held", "Qty": 2},
        {"ID": "RX-2", "Dose": "40 mg", "Status": "active", "Qty": None},
    ]
    with pytest.raises(LookupError, match="has no property 'Nope'"):
        kb.set_row("Orders", "RX-1", {"Nope": 1})
    assert sheets.upsert("Wide", "S 1", {"C0": "k1"}, {"C29": "far", "C1": "near"}) == 2
    assert sheets.upsert("Wide", "S 1", {"C0": "k2"}, {"C27": "new"}) == 0
    rows = world.sheets.rows("Wide", "S 1")
    assert (rows[0]["C29"], rows[0]["C1"], rows[1]["C0"], rows[1]["C27"]) == ("far", "near", "k2", "new")
    with pytest.raises(LookupError, match=r"no column\(s\) \['Z9'\]"):
        sheets.upsert("Wide", "S 1", {"Z9": "k"}, {})


def test_column_letters() -> None:
    assert [column_letter(i) for i in (0, 25, 26, 51, 52, 701, 702)] == ["A", "Z", "AA", "AZ", "BA", "ZZ", "AAA"]
    with pytest.raises(ValueError):
        column_letter(-1)


def _clawmark(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_clawmark.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )


def test_new_task_scaffolds_a_lint_clean_task_that_scores_100_and_0(tmp_path: Path) -> None:
    r = _clawmark("new-task", "hr/purchase_requests", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    folder = tmp_path / "tasks" / "hr" / "purchase_requests"
    assert {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} == {
        "task_purchase_requests.py", "facts.toml", "seed/rules.md", "seed/requests.csv", "seed/spend.csv",
        "mail/day1_request.txt", "mail/day2_approval.txt", "messages/day1.md", "messages/day2.md",
    }  # fmt: skip
    lint = _clawmark("lint", "tasks", cwd=tmp_path)
    assert lint.returncode == 0 and "0 problem(s)" in lint.stdout, lint.stdout + lint.stderr
    scores = {}
    for agent in ("reference", "noop"):
        subprocess.run([sys.executable, "-m", "pytest", "tasks", f"--agent={agent}", f"--clawmark-json={agent}.json", "-p", "no:cacheprovider", "-q", "--clawmark-progress=off"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)  # fmt: skip
        (t,) = json.loads((tmp_path / f"{agent}.json").read_text())["tasks"]
        assert t["status"] == "complete" and not t["errors"], t
        scores[agent] = (t["id"], t["score"])
    assert scores == {"reference": ("hr/purchase_requests", 1.0), "noop": ("hr/purchase_requests", 0.0)}
    again = _clawmark("new-task", "hr/purchase_requests", cwd=tmp_path)
    assert again.returncode == 2 and "already exists and is not empty: nothing was written" in again.stderr
    for spec, message in [
        ("nowhere/x", "unknown scenario 'nowhere'"),
        ("hr", "give the task as <scenario>/<name>"),
        ("hr/Bad-Name", "lower-case identifier"),
    ]:
        bad = _clawmark("new-task", spec, cwd=tmp_path)
        assert bad.returncode == 2 and message in bad.stderr, (spec, bad.stderr)


def test_a_placeholder_that_is_no_fact_name_is_an_error() -> None:
    """``{{ items.IT-1 }}`` used to stay in the text as it was: a silent typo in a mail."""
    from pytest_clawmark.taskfiles import TaskFileError, fill

    assert fill("{{ a.b }}", {"a": {"b": 1}}, "mail/x.txt") == "1"
    with pytest.raises(TaskFileError, match=r"mail/x.txt: \{\{ items.IT-1 \}\} is not a fact name"):
        fill("See {{ items.IT-1 }}.", {"items": {"IT-1": 2}}, "mail/x.txt")
