"""Seeded fault injection (issue 16): profiles, determinism, what the official clients see, the
all-or-nothing rule, the audit trail, and the robustness figures of a run.

Faults are forced here with rate 1.0 custom profiles, so every assertion is about one known fault.
"""

from __future__ import annotations

import imaplib
import json
import smtplib
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import notion_client
import pytest

from conftest import REPO
from pytest_clawmark.agentplane import Calendar, Mail, Notion
from pytest_clawmark.faults import FaultPlan, FaultProfileError, draw, parse_profile
from pytest_clawmark.servers.sheets.clients import gspread_client
from pytest_clawmark.world import Person, World

CLOCK = datetime(2026, 3, 9, 9, 0, tzinfo=timezone.utc)
USER = Person("Chen Fang", "chen.fang@northbay.example")
ANA = Person("Ana Ruiz", "ana.ruiz@northbay.example")


def faulty_world(root: Path, spec: str, services: set[str]) -> World:
    plan = FaultPlan(parse_profile(f"{spec},latency_ms=1"), seed=0, world="test#1")
    world = World(services, root, user=USER, people=[ANA], faults=plan)
    world.clock = CLOCK
    return world.start()


@pytest.fixture
def kb_world(tmp_path: Path) -> Iterator[World]:
    w = faulty_world(tmp_path / "w", "kb.rate_limit=1.0", {"kb"})
    yield w
    w.stop()


# -- profiles ---------------------------------------------------------------------------------
def test_named_inline_and_toml_profiles(tmp_path: Path) -> None:
    assert not parse_profile("none").active and parse_profile("light").active
    custom = parse_profile("light,kb.rate_limit=0.2,latency_ms=500")
    assert custom.rates["kb"]["rate_limit"] == 0.2 and custom.latency_ms == 500
    assert custom.rates["imap"] == parse_profile("light").rates["imap"]  # the base's other rates stay
    toml = tmp_path / "outage.toml"
    toml.write_text('base = "heavy"\nretry_after = 2\n[smtp]\ntemporary = 0.5\n')
    profile = parse_profile(str(toml))
    assert profile.name == "outage" and profile.retry_after == 2 and profile.rates["smtp"]["temporary"] == 0.5


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("medium", "unknown fault profile 'medium'"),
        ("kb.timeout=0.1", "unknown rate 'kb.timeout'"),
        ("kb.rate_limit=2", "is not a probability"),
        ("kb.rate_limit=0.6,kb.server_error=0.6", "add up to more than 1"),
        ("kb.rate_limit=lots", "must be a probability"),
        ("latency_ms=-5", "out of range"),
        ("retry_after=0", "out of range"),
        ("/nowhere/faults.toml", "fault profile file"),
    ],
)
def test_bad_profiles_are_clear_errors(spec: str, says: str) -> None:
    with pytest.raises(FaultProfileError, match=says.replace("(", r"\(")):
        parse_profile(spec)


def test_a_bad_profile_on_the_command_line_is_a_usage_error_not_a_traceback(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "tasks/clinical/medication_audit", "--agent=reference", "-p", "no:cacheprovider",
         "--clawmark-faults=kb.rate_limit=3"],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 4, r.stdout + r.stderr
    assert "kb.rate_limit=3.0 is not a probability" in r.stderr and "Traceback" not in r.stderr


# -- determinism ------------------------------------------------------------------------------
def test_draws_are_a_pure_function_of_seed_world_day_stream_and_request() -> None:
    assert draw(7, "t#1", 2, "kb", 5) == draw(7, "t#1", 2, "kb", 5)
    others = {draw(8, "t#1", 2, "kb", 5), draw(7, "t#2", 2, "kb", 5), draw(7, "t#1", 3, "kb", 5)}
    assert draw(7, "t#1", 2, "kb", 5) not in others
    profile = parse_profile("heavy")
    runs = []
    for _ in range(2):
        plan = FaultPlan(profile, seed=3, world="x#1")
        with plan.agent_turn(1):
            runs.append([plan.decide("kb")[0] for _ in range(200)])
    assert runs[0] == runs[1] and any(runs[0]) and None in runs[0]


def test_no_fault_outside_the_agents_turn() -> None:
    plan = FaultPlan(parse_profile("kb.rate_limit=1.0"), seed=0, world="x#1")
    assert plan.decide("kb") == (None, 0)  # setup, checkers: never
    with plan.agent_turn(1):
        assert plan.decide("kb") == ("rate_limit", 1)
    assert plan.decide("kb") == (None, 0)


# -- what the official clients see ------------------------------------------------------------
def test_kb_rate_limit_is_notions_error_and_a_refused_write_is_not_applied(kb_world: World) -> None:
    kb_world.kb.create_database("Orders", {"Order": "title", "Status": {"select": ["open", "paid"]}})
    client = notion_client.Client(auth=kb_world.agent_env()["CLAWMARK_NOTION_TOKEN"], base_url=kb_world.kb.url)
    db = kb_world.kb.database("Orders")  # the admin plane is never faulted
    with kb_world.faults.agent_turn(1):  # type: ignore[union-attr]
        with pytest.raises(notion_client.APIResponseError) as refused:
            client.pages.create(parent={"database_id": db.id}, properties={"Order": {"title": [{"text": {"content": "O-1"}}]}})  # fmt: skip
    assert refused.value.code == "rate_limited" and refused.value.status == 429
    assert kb_world.kb.rows("Orders") == []  # all or nothing: the refused create left no page
    faults = [e for e in kb_world.audit.entries("kb") if e.summary.startswith("fault:")]
    # notion-client itself retries a rate limit (its default: twice), so the log shows each refusal
    assert faults and {(e.operation, e.status) for e in faults} == {("POST /v1/pages", "429")}


def test_the_agent_plane_client_retries_and_the_fault_counts_as_recovered(tmp_path: Path) -> None:
    world = faulty_world(tmp_path / "w", "kb.server_error=0.5", {"kb"})
    try:
        world.kb.create_database("Orders", {"Order": "title"})
        view = Notion(world.agent_env())
        with world.faults.agent_turn(1):  # type: ignore[union-attr]
            for i in range(6):
                view.add_row("Orders", {"Order": f"O-{i}"})
        assert sorted(r["Order"] for r in world.kb.rows("Orders")) == [f"O-{i}" for i in range(6)]  # once each
        summary = world.faults.summary()  # type: ignore[union-attr]
        assert summary["injected"] > 0 and summary["recovered"] == summary["injected"]
    finally:
        world.stop()


def test_sheets_faults_are_googles_error_shape(tmp_path: Path) -> None:
    import gspread

    world = faulty_world(tmp_path / "w", "sheets.rate_limit=1.0", {"sheets"})
    try:
        made = world.sheets.create_spreadsheet("Budget", {"Data": [["Item", "Cost"]]})  # its id
        env = world.agent_env()
        gc = gspread_client(env["CLAWMARK_SHEETS_URL"], env["CLAWMARK_SHEETS_TOKEN"])
        with world.faults.agent_turn(1):  # type: ignore[union-attr]
            with pytest.raises(gspread.exceptions.APIError) as refused:
                gc.open_by_key(made).sheet1.update_acell("A2", "Tea")
        assert refused.value.response.status_code == 429
        assert refused.value.response.json()["error"]["status"] == "RESOURCE_EXHAUSTED"
        assert world.sheets.values("Budget", "Data") == [["Item", "Cost"]]  # nothing written
    finally:
        world.stop()


def test_calendar_503_carries_retry_after_and_the_careful_client_gets_through(tmp_path: Path) -> None:
    world = faulty_world(tmp_path / "w", "calendar.unavailable=1.0", {"calendar"})
    try:
        env = world.agent_env()
        with world.faults.agent_turn(1):  # type: ignore[union-attr]
            r = httpx.request("PROPFIND", world.calendar.url, auth=(env["CLAWMARK_CALDAV_USER"], env["CLAWMARK_CALDAV_PASSWORD"]))  # fmt: skip
        assert r.status_code == 503 and r.headers["retry-after"] == "1"
        world.faults.profile = parse_profile("calendar.unavailable=0.3")  # type: ignore[union-attr,misc]
        start = CLOCK + timedelta(hours=2)
        with world.faults.agent_turn(2):  # type: ignore[union-attr]
            Calendar(env).book("sync@x", "Ward sync", start, start + timedelta(minutes=30))
        assert [e.summary for e in world.calendar.events()] == ["Ward sync"]
    finally:
        world.stop()


def test_imap_unavailable_bye_and_drop(tmp_path: Path) -> None:
    world = faulty_world(tmp_path / "w", "imap.unavailable=1.0", {"mail"})
    try:
        env = world.agent_env()
        host, port = env["CLAWMARK_IMAP_HOST"], int(env["CLAWMARK_IMAP_PORT"])
        with world.faults.agent_turn(1):  # type: ignore[union-attr]
            imap = imaplib.IMAP4(host, port)
            with pytest.raises(imaplib.IMAP4.error, match="UNAVAILABLE"):
                imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
            imap.shutdown()
        for kind in ("bye", "drop"):
            world.faults.profile = parse_profile(f"imap.{kind}=1.0")  # type: ignore[union-attr,misc]
            with world.faults.agent_turn(2):  # type: ignore[union-attr]
                imap = imaplib.IMAP4(host, port)
                with pytest.raises(imaplib.IMAP4.abort):
                    imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
        kinds = [f.kind for f in world.faults.faults()]  # type: ignore[union-attr]
        assert kinds == ["unavailable", "bye", "drop"]
    finally:
        world.stop()


def test_smtp_temporary_failures_deliver_nothing_and_a_retry_delivers_once(tmp_path: Path) -> None:
    world = faulty_world(tmp_path / "w", "smtp.temporary=1.0", {"mail"})
    try:
        env = world.agent_env()
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = USER.email, ANA.email, "Rota"
        msg.set_content("Swap confirmed.")
        with world.faults.agent_turn(1):  # type: ignore[union-attr]
            with smtplib.SMTP(env["CLAWMARK_SMTP_HOST"], int(env["CLAWMARK_SMTP_PORT"])) as smtp:
                smtp.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
                with pytest.raises(smtplib.SMTPDataError) as refused:
                    smtp.send_message(msg)
        assert refused.value.smtp_code == 451 and world.mail.inbox(ANA.email) == []
        world.faults.profile = parse_profile("smtp.closing=0.5")  # type: ignore[union-attr,misc]
        with world.faults.agent_turn(2):  # type: ignore[union-attr]
            for i in range(4):
                Mail(env).send([ANA.email], f"Rota {i}", "Swap confirmed.")
        assert sorted(m.subject for m in world.mail.inbox(ANA.email)) == [f"Rota {i}" for i in range(4)]
        assert all(f.recovered for f in world.faults.faults(2))  # type: ignore[union-attr]
    finally:
        world.stop()


# -- a run under faults -----------------------------------------------------------------------
NAIVE_PLUGIN = '''
import pytest_clawmark.retrying as retrying
from pytest_clawmark.agents.reference import ReferenceAgent


class Naive(ReferenceAgent):
    """The reference solutions through clients that never retry: a careless agent."""

    def wake(self, *args, **kwargs):
        saved, retrying.ATTEMPTS = retrying.ATTEMPTS, 1
        try:
            return super().wake(*args, **kwargs)
        finally:
            retrying.ATTEMPTS = saved


def pytest_clawmark_agents():
    return {"naive": lambda options: Naive(options)}
'''
TASKS = ["tasks/hr/hiring_loop"]  # mail, calendar, kb and sheets
PROFILE = "kb.server_error=0.15,sheets.server_error=0.15,imap.bye=0.1,smtp.temporary=0.2,latency_ms=1"
"""No 429s here (their Retry-After is a second of waiting each): 5xx, BYE and 451 are retried at once."""


def run(tmp: Path, name: str, agent: str, *extra: str) -> dict[str, Any]:
    (tmp / "naive_agent.py").write_text(NAIVE_PLUGIN)
    out = tmp / f"{name}.json"
    subprocess.run(
        [sys.executable, "-m", "pytest", *TASKS, f"--agent={agent}", "-q", "-p", "no:cacheprovider", "-p", "naive_agent",
         f"--clawmark-json={out}", f"--clawmark-evidence={tmp / name}", *extra],
        cwd=REPO, capture_output=True, text=True, timeout=600, env={**__import__("os").environ, "PYTHONPATH": str(tmp)},
    )  # fmt: skip
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("faulted")
    faults = f"--clawmark-faults={PROFILE}"
    return {
        "reference": run(tmp, "reference", "reference", faults, "--rerun-determinism"),
        "again": run(tmp, "again", "reference", faults),
        "naive": run(tmp, "naive", "naive", faults),
        "other_seed": run(tmp, "other_seed", "reference", faults, "--clawmark-fault-seed=9"),
    }


def test_the_reference_keeps_100_percent_under_faults_and_recovers_every_one(runs: dict[str, Any]) -> None:
    doc = runs["reference"]
    assert [t["score"] for t in doc["tasks"]] == [1.0] and doc["determinism_violations"] == []
    rb = doc["summary"]["robustness"]
    assert rb["injected"] > 0 and rb["recovered"] == rb["injected"] and rb["recovery_rate"] == 1.0
    assert doc["run"]["faults"]["seed"] == 0 and doc["run"]["faults"]["rates"]["kb"]["server_error"] == 0.15


def test_a_naive_agent_that_never_retries_loses_score_under_the_same_faults(runs: dict[str, Any]) -> None:
    naive = runs["naive"]
    assert naive["summary"]["score"] < runs["reference"]["summary"]["score"]
    assert naive["summary"]["robustness"]["recovery_rate"] < 1.0


def test_same_seed_same_faults_same_verdicts_other_seed_other_faults(runs: dict[str, Any], tmp_path: Path) -> None:
    def faults(doc: dict[str, Any]) -> list[Any]:
        root = Path(doc["run"]["evidence_dir"])
        return [
            json.loads((root / d["evidence"]["faults"]).read_text())["faults"] for t in doc["tasks"] for d in t["days"]
        ]

    def verdicts(doc: dict[str, Any]) -> list[Any]:
        return [(t["id"], [(c["id"], c["outcome"], c["message"]) for c in t["checkers"]]) for t in doc["tasks"]]

    assert faults(runs["reference"]) == faults(runs["again"])
    assert verdicts(runs["reference"]) == verdicts(runs["again"])
    assert faults(runs["reference"]) != faults(runs["other_seed"])


def test_faults_on_the_docker_backend_are_refused_with_a_reason() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "tasks/clinical/medication_audit", "--agent=reference", "-p", "no:cacheprovider",
         "--clawmark-backend=docker", "--clawmark-faults=light"],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 4, r.stdout + r.stderr
    assert "runs on the local backend only" in r.stderr and "Traceback" not in r.stderr
