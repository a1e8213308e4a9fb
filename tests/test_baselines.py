"""The shortcut baselines (agents/baselines/) do what they claim, through the real servers.

Each runs on a tiny one-day world (a KB database and page, a spreadsheet, a mail with an
attachment from a colleague copied to an outside partner, workspace files, a calendar) whose
checkers assert the baseline's blind moves — a pytest run in a subprocess (the world's clients
import libraries pytester's in-process runs would re-import) scoring 100% means it did them all.
The corpus gate (test_corpus.py) measures what they earn on the real tasks.
"""

from __future__ import annotations

import textwrap

import pytest

from conftest import read_json
from pytest_clawmark.agents.baselines import BASELINES
from pytest_clawmark.agents.baselines.toolkit import deliverables, positive_choice, words
from pytest_clawmark.agents.registry import available, make_agent, starts_processes

WORLD = """
from pytest_clawmark import Task

task = Task(scenario="pm", role="assistant", services={"fs", "mail", "kb", "sheets", "calendar"},
            user=("Ada Admin", "ada@corp.example"), people=[("Mira Colleague", "mira@corp.example")])
MIRA = "mira@corp.example"
PARTNER = "ext@partner.example"
CSV = b"item,amount\\nwidget,12\\n"


@task.turn("2025-04-07 09:00 +00:00")
def monday(world):
    world.kb.create_database("Items", {"Name": "title", "Status": {"select": ["open", "done"]}, "Done": "checkbox",
                                       "Note": "rich_text"}, rows=[{"Name": "A", "Status": "open", "Note": "x"}])
    world.kb.create_page("Notes", "# Notes\\nStart.")
    world.sheets.create_spreadsheet("Tracker", {"Log": [["Item", "Status", "Comment"], ["A", "open", ""]]})
    world.fs.write("inbox/brief.txt", "the brief")
    world.fs.write("out/keep.txt", "keep")
    world.mail.deliver(world.people[0], [world.user], "Invoice INV-7", "Please check invoice INV-7 for EUR 1,204.50.",
                       cc=[PARTNER], attachments=[("inv.csv", CSV)])
    return "Check INV-7 with mira@corp.example and write summary.json."


def mails(world, subject):
    return [m for m in world.mail.sent() if m.subject == subject]
"""

CHECKERS = {
    "baseline:status-flip": """
@task.checker(day=1)
def kb_status_flipped(world):
    row = world.kb.row("Items", "A")
    assert (row["Status"], row["Done"], row["Note"]) == ("done", True, "x"), row


@task.checker(day=1)
def sheet_status_flipped(world):
    row = world.sheets.row("Tracker", "Log", "Item", "A")
    assert (row["Status"], row["Comment"]) == ("done", ""), row
""",
    "baseline:ack-all": """
@task.checker(day=1)
def replied_in_thread(world):
    (original,) = world.mail.inbox()
    (reply,) = mails(world, "Re: Invoice INV-7")
    assert reply.recipients == (MIRA,) and reply.in_reply_to == original.message_id, reply
    assert "> Please check invoice INV-7" in reply.text, reply.text
""",
    "baseline:copy-everything": """
@task.checker(day=1)
def forwarded_to_everyone_with_attachment(world):
    (fwd,) = mails(world, "Fwd: Invoice INV-7")
    assert sorted(fwd.recipients) == [PARTNER, MIRA], fwd.recipients
    assert [(a.filename, a.data) for a in fwd.attachments] == [("inv.csv", CSV)]


@task.checker(day=1)
def files_copied_everywhere(world):
    assert world.fs.read_text("out/brief.txt") == "the brief" and world.fs.read_text("inbox/keep.txt") == "keep"


@task.checker(day=1)
def mail_pasted_into_kb_and_sheet(world):
    assert "Please check invoice INV-7" in world.kb.page_text("Notes")
    assert any(r["Item"] == "Invoice INV-7" for r in world.sheets.rows("Tracker", "Log"))
    assert any(r["Name"] == "Invoice INV-7" for r in world.kb.rows("Items"))
""",
    "baseline:keyword-stuff": """
@task.checker(day=1)
def kb_text_stuffed(world):
    note = world.kb.row("Items", "A")["Note"]
    assert "INV-7" in note and "1,204.50" in note and "summary.json" in note, note


@task.checker(day=1)
def empty_sheet_column_stuffed(world):
    row = world.sheets.row("Tracker", "Log", "Item", "A")
    assert row["Status"] == "open" and "INV-7" in row["Comment"], row


@task.checker(day=1)
def deliverable_written(world):
    assert "INV-7" in world.fs.read_json("summary.json")["words"]
""",
    "baseline:eager": """
@task.checker(day=1)
def meeting_with_everyone(world):
    (event,) = world.calendar.events()
    assert event.summary == "Invoice INV-7" and (event.end - event.start).total_seconds() == 3600, event
    assert sorted(a.lower() for a in event.attendees) == [PARTNER, MIRA], event.attendees


@task.checker(day=1)
def go_ahead_to_everyone_mentioned(world):
    sent = sorted(r for m in mails(world, "Re: Invoice INV-7") for r in m.recipients)
    assert sent == [PARTNER, MIRA], [(m.subject, m.recipients) for m in world.mail.sent()]
    assert all("approved" in m.text.lower() for m in mails(world, "Re: Invoice INV-7"))


@task.checker(day=1)
def everything_decided(world):
    assert world.kb.row("Items", "A")["Status"] == "done"
    assert world.sheets.row("Tracker", "Log", "Item", "A")["Status"] == "done"
""",
}


@pytest.mark.parametrize("name", list(BASELINES))
def test_baseline_acts_blindly_through_the_agent_plane(pytester: pytest.Pytester, name: str) -> None:
    pytester.makepyfile(task_tiny=textwrap.dedent(WORLD) + textwrap.dedent(CHECKERS[name]))
    result = pytester.runpytest_subprocess(
        f"--agent={name}", "--clawmark-json=out.json", "-p", "no:cacheprovider", "--agent-isolation=none"
    )
    doc = read_json(pytester.path / "out.json")
    (t,) = doc["tasks"]
    failed = {c["id"]: c["message"] for c in t["checkers"] if c["outcome"] != "passed"}
    assert t["score"] == 1.0 and not failed, (failed, result.stdout.str()[-3000:])
    day = t["days"][0]
    assert day["status"] == "ok" and day["trace"]["tool_call_count"] > 0, day


def test_a_service_the_task_lacks_is_skipped_not_fatal(pytester: pytest.Pytester) -> None:
    """An fs-only world: every baseline's turn ends ok (nothing to use is not a crash)."""
    pytester.makepyfile(
        task_fs=textwrap.dedent(
            """
            from pytest_clawmark import Task
            task = Task(scenario="pm", role="assistant", services={"fs"}, user=("Ada", "ada@corp.example"))

            @task.turn("2025-04-07 09:00 +00:00")
            def monday(world):
                world.fs.write("inbox/a.txt", "a")
                return "Write report.md."

            @task.checker(day=1)
            def nothing(world):
                assert True
            """
        )
    )
    for name in BASELINES:
        pytester.runpytest_subprocess(f"--agent={name}", f"--clawmark-json={name[9:]}.json", "-p", "no:cacheprovider")
        (t,) = read_json(pytester.path / f"{name[9:]}.json")["tasks"]
        assert (t["errored"], [d["status"] for d in t["days"]]) == (False, ["ok"]), (name, t["days"])


def test_registered_as_in_process_builtins() -> None:
    found = available()
    for name in BASELINES:
        assert name in found
        agent = make_agent(name, {})
        assert agent.name == name and not starts_processes(agent)


def test_blind_helpers() -> None:
    assert positive_choice(["open", "pass", "fail"]) == "pass"
    assert positive_choice(["draft", "Sent to counterparty"]) == "Sent to counterparty"
    assert positive_choice(["open", "held"]) is None
    assert words("Check P-2189: EUR 1,204.50 at 09:30.") == ["Check", "P-2189", "EUR", "1,204.50", "at", "09:30"]
    assert deliverables("Write handover/P-2189_handover.csv and summary.json (see https://x.example/a.csv).") == [
        "handover/P-2189_handover.csv",
        "summary.json",
    ]
