"""The whole world: five services side by side, evidence per turn, and `clawmark serve`."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import httpx
import pytest

from conftest import REPO, read_json, serve_world, stop_served
from pytest_clawmark.world import Person, World

USER = Person("Sam Rivera", "sam.rivera@corp.example")
PEOPLE = [Person("Alex Chen", "alex.chen@corp.example")]
ALL = ("fs", "mail", "calendar", "kb", "sheets")


@pytest.fixture
def two_worlds(tmp_path: Path) -> Iterator[tuple[World, World]]:
    a = World(ALL, tmp_path / "a", user=USER, people=PEOPLE)
    b = World(ALL, tmp_path / "b", user=USER, people=PEOPLE)
    for w in (a, b):
        w.clock = datetime(2025, 4, 7, 9, tzinfo=timezone.utc)
        w.start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def ports(world: World) -> set[str]:
    return {
        v.rsplit(":", 1)[-1].split("/")[0] for k, v in world.agent_env().items() if k.endswith("_URL") and "://" in v
    }


def test_worlds_side_by_side_share_no_state_ports_or_secrets(two_worlds: tuple[World, World]) -> None:
    a, b = two_worlds
    assert len(ports(a)) == 5 and not ports(a) & ports(b)
    assert a.credentials.agent_token != b.credentials.agent_token
    a.kb.create_database("Only in A", {"Name": "title"}, rows=[{"Name": "x"}])
    a.sheets.create_spreadsheet("Only in A", {"S": [["k"], ["v"]]})
    a.mail.deliver(PEOPLE[0], USER, "only in A", "body")
    a.calendar.add_event(
        "only in A", datetime(2025, 4, 7, 10, tzinfo=timezone.utc), datetime(2025, 4, 7, 11, tzinfo=timezone.utc)
    )
    assert [r["Name"] for r in a.kb.rows("Only in A")] == ["x"]
    with pytest.raises(AssertionError):
        b.kb.database("Only in A")
    with pytest.raises(AssertionError):
        b.sheets.spreadsheet("Only in A")
    assert b.mail.inbox() == [] and b.calendar.events() == []
    # world A's agent token is worthless in world B
    env_a, env_b = a.agent_env(), b.agent_env()
    r = httpx.get(
        env_b["CLAWMARK_NOTION_URL"] + "/v1/users/me",
        headers={"Authorization": f"Bearer {env_a['CLAWMARK_NOTION_TOKEN']}", "Notion-Version": "2022-06-28"},
    )
    assert r.status_code == 401


def test_agent_env_and_tools_md_describe_every_service(two_worlds: tuple[World, World]) -> None:
    a, _ = two_worlds
    env = a.agent_env()
    for key in (
        "CLAWMARK_WORKSPACE",
        "CLAWMARK_IMAP_URL",
        "CLAWMARK_SMTP_URL",
        "CLAWMARK_MAIL_USER",
        "CLAWMARK_MAIL_PASSWORD",
        "CLAWMARK_CALDAV_URL",
        "CLAWMARK_CALDAV_USER",
        "CLAWMARK_CALDAV_PASSWORD",
        "CLAWMARK_NOTION_URL",
        "CLAWMARK_NOTION_TOKEN",
        "CLAWMARK_SHEETS_URL",
        "CLAWMARK_SHEETS_TOKEN",
        "CLAWMARK_USER_EMAIL",
    ):
        assert env.get(key), key
    assert a.credentials.admin_token not in json.dumps(env)
    tools = (a.workspace / "TOOLS.md").read_text()
    for heading in ("Workspace", "Mail", "Calendar", "Notion", "Sheets"):
        assert heading.lower() in tools.lower(), heading
    assert a.credentials.admin_token not in tools


def test_every_turn_keeps_snapshots_and_audit_of_all_services(pytester: pytest.Pytester) -> None:
    task = REPO / "tests" / "tasks" / "pm" / "task_release_readiness.py"
    # a subprocess: pytester's in-process runs restore sys.modules afterwards, which breaks
    # libraries (niquests via caldav) first imported inside the run for later tests
    pytester.runpytest_subprocess(str(task), "--agent=reference", "--clawmark-json=out.json", "-p", "no:cacheprovider")
    doc = read_json(pytester.path / "out.json")
    (t,) = doc["tasks"]
    assert t["score"] == 1.0
    root = Path(doc["run"]["evidence_dir"])
    day1 = t["days"][0]["evidence"]
    assert set(day1) == {"fs_snapshot", "mail_snapshot", "calendar_snapshot", "kb_snapshot", "sheets_snapshot", "audit"}
    audit = [json.loads(line) for line in (root / day1["audit"]).read_text().splitlines()]
    assert {e["service"] for e in audit} >= {"mail", "calendar", "kb", "sheets"}
    assert all(set(e) == {"seq", "time", "service", "operation", "target", "summary", "status"} for e in audit)
    day2 = [json.loads(line) for line in (root / t["days"][1]["evidence"]["audit"]).read_text().splitlines()]
    assert day2 and min(e["seq"] for e in day2) > max(e["seq"] for e in audit)  # per-day slices
    kb = json.loads((root / t["days"][1]["evidence"]["kb_snapshot"]).read_text())
    assert "SUP-311" in json.dumps(kb)


def test_serve_prints_endpoints_that_official_clients_can_use() -> None:
    import caldav
    import gspread  # noqa: F401
    from imapclient import IMAPClient
    from notion_client import Client

    from pytest_clawmark.servers.sheets.clients import gspread_client

    proc, info = serve_world()
    try:
        env = info["env"]
        assert info["services"] == list(ALL)
        with IMAPClient(env["CLAWMARK_IMAP_HOST"], port=int(env["CLAWMARK_IMAP_PORT"]), ssl=False) as imap:
            imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
            assert imap.select_folder("INBOX")[b"EXISTS"] == 0
        with caldav.DAVClient(
            url=env["CLAWMARK_CALDAV_URL"],
            username=env["CLAWMARK_CALDAV_USER"],
            password=env["CLAWMARK_CALDAV_PASSWORD"],
        ) as client:
            assert client.principal().calendars()
        notion = Client(auth=env["CLAWMARK_NOTION_TOKEN"], base_url=env["CLAWMARK_NOTION_URL"])
        assert notion.users.me()["object"] == "user"
        gc = gspread_client(env["CLAWMARK_SHEETS_URL"], env["CLAWMARK_SHEETS_TOKEN"])
        sh = gc.create("Scratch")
        sh.sheet1.update([["a", 1]], "A1")
        assert gc.open("Scratch").sheet1.acell("B1").value == "1"
        workspace = Path(info["workspace"])
        assert (workspace / "TOOLS.md").exists()
    finally:
        err = stop_served(proc)
    assert "stopped" in err
    assert not workspace.parent.exists()  # the world's folder is cleaned up


def test_serve_seeds_a_task_up_to_a_day() -> None:
    from imapclient import IMAPClient
    from notion_client import Client

    proc, info = serve_world("--task", "tests/tasks/pm/task_release_readiness.py", "--day", "2")
    try:
        env = info["env"]
        assert sorted(info["messages"]) == ["1", "2"] and info["clock"].startswith("2025-06-03T09:00")
        with IMAPClient(env["CLAWMARK_IMAP_HOST"], port=int(env["CLAWMARK_IMAP_PORT"]), ssl=False) as imap:
            imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
            assert imap.select_folder("INBOX")[b"EXISTS"] == 4
        notion = Client(
            auth=env["CLAWMARK_NOTION_TOKEN"], base_url=env["CLAWMARK_NOTION_URL"], notion_version="2022-06-28"
        )
        db = notion.search(query="Release 4.2 Issues", filter={"property": "object", "value": "database"})["results"][0]
        rows = notion.request(path=f"databases/{db['id']}/query", method="POST", body={})["results"]
        status = {
            r["properties"]["Key"]["title"][0]["plain_text"]: r["properties"]["Status"]["select"]["name"] for r in rows
        }
        assert status["ENG-101"] == "fixed"  # day 2's silent mutation was applied
    finally:
        stop_served(proc)


def test_serve_rejects_bad_input_clearly() -> None:
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest_clawmark.cli",
            "serve",
            "--task",
            "tests/tasks/pm/task_release_readiness.py",
            "--day",
            "9",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert r.returncode == 2 and "--day 9: the task has days 1..2" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run(
        [sys.executable, "-m", "pytest_clawmark.cli", "serve", "--services", "fs", "fax"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert r.returncode == 2 and "unknown service 'fax'" in r.stderr and "Traceback" not in r.stderr


def test_fixed_offset_times_survive_add_and_move(two_worlds: tuple[World, World]) -> None:
    from datetime import timedelta

    import caldav

    a, _ = two_worlds
    tz = timezone(timedelta(hours=2))
    a.calendar.add_event("Review", datetime(2025, 4, 7, 15, tzinfo=tz), datetime(2025, 4, 7, 16, tzinfo=tz), uid="r@x")
    a.calendar.move_event("r@x", datetime(2025, 4, 7, 17, tzinfo=tz), datetime(2025, 4, 7, 18, tzinfo=tz))
    e = a.calendar.event(uid="r@x")
    assert e.start == datetime(2025, 4, 7, 17, tzinfo=tz) and e.start.tzinfo is not None
    env = a.agent_env()
    with caldav.DAVClient(
        url=env["CLAWMARK_CALDAV_URL"], username=env["CLAWMARK_CALDAV_USER"], password=env["CLAWMARK_CALDAV_PASSWORD"]
    ) as client:
        (ev,) = client.principal().calendars()[0].search(event=True)
        assert ev.icalendar_component["DTSTART"].dt == datetime(2025, 4, 7, 15, tzinfo=timezone.utc)


def test_check_evaluates_a_days_checkers_on_the_world_as_it_is() -> None:
    """``clawmark check``: the world of a task up to day N (with --solve: after its reference
    solutions), and the day's checkers evaluated each time ``check`` is typed."""
    import json as _json

    def check(*extra: str) -> list[dict]:
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest_clawmark.cli",
                "check",
                "--task",
                "tests/tasks/pm/task_release_readiness.py",
                "--day",
                "1",
                *extra,
            ],
            input="check\n",
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=120,
        )
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        return [_json.loads(line) for line in r.stdout.splitlines() if line.startswith('{"day"')]

    solved = check("--solve")
    assert solved and all(v["outcome"] == "passed" and v["day"] == 1 for v in solved), solved
    untouched = check()
    assert {v["id"] for v in untouched} == {v["id"] for v in solved}
    assert any(v["outcome"] == "failed" and v["message"] for v in untouched), untouched
