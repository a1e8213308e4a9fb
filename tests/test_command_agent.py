"""The command agent's trace lines and the example agent of docs/examples, end to end.

The example agent reads real mail over the world's real IMAP server (inside the sandbox when
bwrap works here) and files it into the workspace; the checkers and the results JSON show it.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from conftest import REPO, make_task, read_json
from pytest_clawmark.agents.tracefile import MAX_REASONS, parse_trace, read_trace

EXAMPLE = REPO / "docs" / "examples" / "imap_agent.py"

MAIL_TASK = '''
import csv, io, json
from pytest_clawmark import Task

task = Task(scenario="executive_assistant", role="assistant", services={"fs", "mail"},
            user=("Ada Admin", "ada@corp.example"), people=[("Bo Boss", "bo@corp.example")])
RECEIPT = bytes(range(256)) * 4

@task.turn("2025-04-07 09:00 +00:00")
def monday(world):
    world.mail.deliver("bo@corp.example", "ada@corp.example", "Q2 budget", "Please review the Q2 budget.")
    world.mail.deliver("Vendor <billing@vendor.example>", "ada@corp.example", "Invoice 77", "Attached.",
                       attachments=[("invoice-77.bin", RECEIPT)])
    return "File today's mail into mail/inbox.csv."

@task.turn("2025-04-08 09:00 +00:00")
def tuesday(world):
    world.mail.deliver("bo@corp.example", "ada@corp.example", "Offsite agenda", "Agenda inside.")
    return "File today's new mail too."

def rows(world):
    return list(csv.DictReader(io.StringIO(world.fs.read_text("mail/inbox.csv"))))

@task.checker(day=1, weight=2)
def monday_filed(world):
    assert [r["subject"] for r in rows(world)] == ["Q2 budget", "Invoice 77"], rows(world)
    assert "bo@corp.example" in rows(world)[0]["from"]

@task.checker(day=1, weight=1)
def attachment_saved(world):
    (uid,) = [r["uid"] for r in rows(world) if r["attachments"]]
    assert world.fs.read_bytes(f"mail/attachments/{uid}/invoice-77.bin") == RECEIPT

@task.checker(day=1, weight=1)
def mail_left_unread(world):
    assert all("\\\\Seen" not in m.flags for m in world.mail.inbox()), [m.flags for m in world.mail.inbox()]

@task.checker(day=2, weight=2)
def tuesday_only_new_mail(world):
    assert [r["subject"] for r in rows(world)] == ["Q2 budget", "Invoice 77", "Offsite agenda"]
    day2 = world.fs.read_json("mail/day2.json")
    assert [m["subject"] for m in day2["messages"]] == ["Offsite agenda"]
    assert day2["instructions"] == "File today's new mail too."
'''


def test_example_imap_agent_files_the_mail_and_reports_its_trace(pytester: pytest.Pytester) -> None:
    make_task(pytester, "task_mailroom", MAIL_TASK)
    result = pytester.runpytest("--agent=command", f"--agent-option=cmd={sys.executable} {EXAMPLE}", "--clawmark-json=out.json", "-rf")
    result.assert_outcomes(passed=6)
    doc = read_json(pytester.path / "out.json")
    (t,) = doc["tasks"]
    assert t["score"] == 1.0 and t["success"] is True
    day1, day2 = (d["trace"] for d in t["days"])
    assert [c["name"] for c in day1["tool_calls"]] == ["imap.login", "imap.select", "imap.search", "imap.fetch", "imap.fetch", "imap.logout", "fs.write"]
    assert all(c["status"] == "ok" for c in day1["tool_calls"]) and day1["tool_call_count"] == 7
    assert day1["tool_calls"][-1]["arguments"] == '{"paths":["mail/inbox.csv","mail/day1.json"]}'  # JSON arguments, compacted
    assert day1["messages"] == ["Filed 2 new message(s) into mail/inbox.csv."]
    assert day2["messages"] == ["Filed 1 new message(s) into mail/inbox.csv."]
    assert day1["extra"]["trace_lines"] == 8 and day1["extra"]["trace_malformed"] == 0
    assert Path(day1["transcript"]).name == "trace.jsonl" and Path(day1["transcript"]).is_file()  # kept as evidence
    assert day1["extra"]["isolation"] == t["isolation"] == doc["run"]["isolation"]
    assert [c["name"] for c in day2["tool_calls"]] == ["imap.login", "imap.select", "imap.search", "imap.fetch", "imap.logout", "fs.write"]
    assert doc["summary"]["efficiency"]["mean_tool_calls"] == 7 + 6


def test_trace_lines_are_summed_and_bad_lines_counted_never_fatal(pytester: pytest.Pytester, basic_task: Path) -> None:
    agent = pytester.makefile(".py", tracer=r'''
import json, os
os.makedirs("out", exist_ok=True)
open("out/answer.txt", "w").write(str(int(open("inbox/number.txt").read()) + 1))
with open(os.environ["CLAWMARK_TRACE_FILE"], "a") as fh:
    for line in [
        {"type": "tokens", "input": 100, "output": 7, "cache_read": 90},
        {"type": "tool_call", "name": "shell", "arguments": {"cmd": "cat inbox/number.txt"}, "status": "ok"},
        {"type": "tokens", "input": 50, "output": 3, "cache_write": 5},
        {"type": "message", "text": "done"},
        {"type": "thinking", "text": "an unknown type is ignored, not an error"},
        {"type": "tokens", "input": -1},
        {"type": "tool_call", "arguments": "no name"},
        ["not", "an", "object"],
    ]:
        fh.write(json.dumps(line) + "\n")
    fh.write("{not json\n\n")
''')
    pytester.runpytest("--agent=command", f"--agent-option=cmd={sys.executable} {agent}", "--clawmark-json=out.json")
    t = read_json(pytester.path / "out.json")["tasks"][0]
    assert [d["status"] for d in t["days"]] == ["ok", "ok"] and t["score"] == 1.0
    trace = t["days"][0]["trace"]
    assert trace["tokens"] == {"input": 150, "output": 10, "cache_read": 90, "cache_write": 5}
    assert [(c["name"], c["arguments"], c["status"]) for c in trace["tool_calls"]] == [("shell", '{"cmd":"cat inbox/number.txt"}', "ok")]
    assert trace["messages"] == ["done"]
    extra = trace["extra"]
    assert (extra["trace_lines"], extra["trace_malformed"], extra["trace_ignored"]) == (9, 4, 1)
    assert extra["trace_errors"] == [
        "line 6: tokens.input is not a non-negative integer",
        "line 7: tool_call without a string name",
        "line 8: a JSON list, not an object",
        "line 9: not JSON",
    ]


def test_no_trace_file_means_no_trace_fields(pytester: pytest.Pytester, basic_task: Path) -> None:
    agent = pytester.makefile(".py", quiet="print('hello')\n")
    pytester.runpytest("--agent=command", f"--agent-option=cmd={sys.executable} {agent}", "--clawmark-json=out.json")
    trace = read_json(pytester.path / "out.json")["tasks"][0]["days"][0]["trace"]
    assert trace["tool_calls"] == [] and trace["tokens"] == {} and trace["transcript"] == ""
    assert "trace_lines" not in trace["extra"] and trace["extra"]["stdout_tail"] == "hello\n"


def test_trace_reader_distrusts_the_file(tmp_path: Path) -> None:
    secret = tmp_path / "secret.jsonl"
    secret.write_text(json.dumps({"type": "message", "text": "harness-only"}) + "\n")
    link = tmp_path / "trace.jsonl"
    link.symlink_to(secret)
    parsed = read_trace(link)  # an agent-planted symlink is not followed
    assert parsed is not None and parsed.messages == [] and parsed.malformed == 1
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    parsed = read_trace(fifo)  # would block a naive reader forever
    assert parsed is not None and parsed.reasons == ["trace file is not a regular file"]
    assert read_trace(tmp_path / "absent.jsonl") is None


def test_trace_parser_caps_what_it_keeps() -> None:
    many = b"\n".join([b"oops"] * 20 + [json.dumps({"type": "message", "text": "x" * 10_000}).encode()])
    parsed = parse_trace(many)
    assert parsed.malformed == 20 and len(parsed.reasons) == MAX_REASONS
    assert len(parsed.messages[0]) == 4001 and parsed.messages[0].endswith("…")


def test_pass_env_hands_over_named_host_variables_only(pytester: pytest.Pytester, basic_task: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_PROVIDER_KEY", "sk-wanted")
    monkeypatch.setenv("OTHER_SECRET", "sk-unwanted")
    agent = pytester.makefile(".py", envdump="import os; print(os.environ.get('MY_PROVIDER_KEY'), os.environ.get('OTHER_SECRET'))\n")
    pytester.runpytest("--agent=command", f"--agent-option=cmd={sys.executable} {agent}", "--agent-option=pass_env=MY_PROVIDER_KEY:ABSENT",
                       "--clawmark-json=out.json")
    doc = read_json(pytester.path / "out.json")
    assert doc["tasks"][0]["days"][0]["trace"]["extra"]["stdout_tail"] == "sk-wanted None\n"
    assert "sk-wanted" not in json.dumps(doc["run"])
