"""The docker backend (issue 11): the world's mail (Dovecot + Postfix), calendar, knowledge base and
spreadsheets in containers started by testcontainers, the same admin planes, bit-identical verdicts.

These tests need a Docker engine (``DOCKER_HOST``; CI starts a private one with
``.ci/docker-engine``) and build the images when they are missing; without an engine they skip
with the reason.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import smtplib
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

import httpx
import pytest

from conftest import REPO, serve_world, stop_served
from pytest_clawmark.backends.images import ImageError, build_all, current_tag, engine_problem
from pytest_clawmark.world import Person, World
from pytest_clawmark.world.service import DOCKER_SERVICES

PROBLEM = engine_problem()
if PROBLEM and os.environ.get("CLAWMARK_REQUIRE_DOCKER"):  # CI started an engine: these tests must run
    raise RuntimeError(f"CLAWMARK_REQUIRE_DOCKER is set but {PROBLEM}")
pytestmark = pytest.mark.skipif(bool(PROBLEM), reason=f"no Docker engine: {PROBLEM}")

USER = Person("Sam Rivera", "sam.rivera@corp.example")
PEOPLE = [Person("Mira Stone", "mira.stone@corp.example")]
PARITY_TASKS = ("tasks/clinical", "tasks/hr", "tasks/pm")
"""The CI gate's few tasks (every task uses all five services); the whole corpus is compared by
``benchmarks/container_world.py --corpus``."""


@pytest.fixture(scope="session")
def servers_image(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The ``clawmark/servers`` image, built once (under a lock: xdist workers share the engine)."""
    lock_path = Path(os.environ.get("TMPDIR", "/tmp")) / "clawmark-images.lock"
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        tag = current_tag("servers")
        if not tag or not current_tag("harness") or not current_tag("mail"):
            debootstrap = os.geteuid() == 0 and bool(
                shutil.which("debootstrap") or shutil.which("debootstrap", path="/usr/sbin")
            )
            try:
                build_all(
                    base=None,
                    base_from_debootstrap=debootstrap,
                    cache=tmp_path_factory.mktemp("images"),
                    log=lambda line: None,
                )
            except ImageError as exc:
                pytest.fail(f"the images cannot be built: {exc}")
            tag = current_tag("servers")
    return tag


@pytest.fixture
def world(tmp_path: Path, servers_image: str) -> Iterator[World]:
    w = World(("fs", "calendar", "kb", "sheets"), tmp_path / "w", user=USER, people=PEOPLE, backend="docker")
    w.clock = datetime(2025, 4, 7, 9, tzinfo=timezone.utc)
    w.start()
    try:
        yield w
    finally:
        w.stop()


def _containers(label: str) -> list[str]:
    r = subprocess.run(
        ["docker", "ps", "-aq", "--filter", f"label={label}"], capture_output=True, text=True, timeout=60
    )
    return r.stdout.split()


def test_services_run_in_containers_reached_on_loopback_with_the_official_clients(world: World) -> None:
    import caldav
    from notion_client import Client

    assert world.backends() == {"fs": "local", "calendar": "docker", "kb": "docker", "sheets": "docker"}
    env = world.agent_env()
    assert all(
        env[k].startswith("http://127.0.0.1:")
        for k in ("CLAWMARK_CALDAV_URL", "CLAWMARK_NOTION_URL", "CLAWMARK_SHEETS_URL")
    )
    mine = _containers(f"org.clawmark.world={world.root / 'services' / 'kb'}")
    assert len(mine) == 1  # one container per service, labelled with its world

    # the admin plane seeds; the agent's official clients see it, and what they do is audited
    world.calendar.add_event("Launch review", "2025-04-08T14:00:00+00:00", "2025-04-08T15:00:00+00:00")
    with caldav.DAVClient(
        env["CLAWMARK_CALDAV_URL"], username=env["CLAWMARK_CALDAV_USER"], password=env["CLAWMARK_CALDAV_PASSWORD"]
    ) as client:
        cal = client.principal().calendars()[0]
        assert [e.icalendar_component["SUMMARY"] for e in cal.events()] == ["Launch review"]
        cal.save_event(
            dtstart=datetime(2025, 4, 9, 10, tzinfo=timezone.utc),
            dtend=datetime(2025, 4, 9, 11, tzinfo=timezone.utc),
            summary="Prep",
        )
    assert [e.summary for e in world.calendar.events()] == [
        "Launch review",
        "Prep",
    ]  # the container wrote the shared storage
    assert any(e.operation == "PUT" for e in world.calendar.audit())

    world.kb.create_database("Vendors", {"Name": "title", "Limit": "number"}, rows=[{"Name": "Acme", "Limit": 5000}])
    notion = Client(auth=env["CLAWMARK_NOTION_TOKEN"], base_url=env["CLAWMARK_NOTION_URL"])
    db = notion.search(query="Vendors")["results"][0]
    world.clock = datetime(2025, 4, 8, 9, 30, tzinfo=timezone.utc)  # a new turn: pushed to the container
    page = notion.pages.create(
        parent={"database_id": db["id"]}, properties={"Name": {"title": [{"text": {"content": "Globex"}}]}}
    )
    assert page["created_time"] == "2025-04-08T09:30:00.000Z"  # the in-universe clock, not the wall clock
    assert [r["Name"] for r in world.kb.rows("Vendors")] == ["Acme", "Globex"]
    assert [e.operation for e in world.kb.audit()] == ["POST /v1/search", "POST /v1/pages"]

    sid = world.sheets.create_spreadsheet("Budget", {"Items": [["Item", "Cost"], ["Banner", 300]]})
    r = httpx.get(
        f"{env['CLAWMARK_SHEETS_URL']}/v4/spreadsheets/{sid}/values/Items!A1:B2",
        headers={"Authorization": f"Bearer {env['CLAWMARK_SHEETS_TOKEN']}"},
    )
    assert r.json()["values"] == [["Item", "Cost"], ["Banner", "300"]]
    assert len(world.sheets.audit()) == 1 and world.audit.last_seq >= 5


def test_the_control_plane_and_the_admin_plane_refuse_the_agents_token(world: World) -> None:
    env = world.agent_env()
    agent = {"Authorization": f"Bearer {env['CLAWMARK_NOTION_TOKEN']}"}
    for url in (env["CLAWMARK_NOTION_URL"], env["CLAWMARK_SHEETS_URL"]):
        assert httpx.get(f"{url}/_clawmark/audit?since=0", headers=agent).status_code == 401
        assert (
            httpx.put(f"{url}/_clawmark/clock", headers=agent, json={"now": "2030-01-01T00:00:00+00:00"}).status_code
            == 401
        )
    assert httpx.get(env["CLAWMARK_CALDAV_URL"] + "_clawmark/audit?since=0").status_code == 401


def test_a_world_leaves_no_container_behind(tmp_path: Path, servers_image: str) -> None:
    w = World(("calendar", "kb", "sheets"), tmp_path / "w", user=USER, people=PEOPLE, backend="docker")
    w.start()
    label = f"org.clawmark.world={tmp_path / 'w' / 'services' / 'sheets'}"
    assert len(_containers(label)) == 1
    w.stop()
    assert _containers(label) == []


def _verdicts(path: Path) -> dict[tuple[str, int, str], tuple[str, str]]:
    doc = json.loads(path.read_text())
    return {(t["id"], t["trial"], c["id"]): (c["outcome"], c["message"]) for t in doc["tasks"] for c in t["checkers"]}


@pytest.mark.parametrize("agent", ["reference", "noop"])
def test_verdicts_and_messages_are_identical_on_both_backends(tmp_path: Path, servers_image: str, agent: str) -> None:
    """The CI gate: the same tasks, the same agent, local and docker: every checker's outcome and
    message equal (the reference passes everything; noop fails most checkers, with messages)."""
    results = {}
    for backend in ("local", "docker"):
        out = tmp_path / f"{backend}.json"
        r = subprocess.run(
            [sys.executable, "-m", "pytest", *PARITY_TASKS, f"--agent={agent}", f"--clawmark-backend={backend}", f"--clawmark-json={out}",
             f"--clawmark-evidence={tmp_path / backend}", "-q", "-p", "no:cacheprovider", "--clawmark-progress=off"],
            cwd=REPO, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert out.exists(), r.stdout[-3000:] + r.stderr[-2000:]
        doc = json.loads(out.read_text())
        assert doc["run"]["backend"] == backend and doc["run"]["status"] == "complete", r.stdout[-2000:]
        results[backend] = _verdicts(out)
    assert len(results["local"]) > 50
    assert results["docker"] == results["local"]
    if agent == "noop":
        assert sum(outcome != "passed" for outcome, _ in results["docker"].values()) > 20


def test_shards_run_as_harness_containers_and_merge_into_the_single_run(tmp_path: Path, servers_image: str) -> None:
    """Scale-out on one engine: two ``clawmark/harness`` containers each run their shard of the
    tasks (the project mounted at /work), ``clawmark merge`` joins them, and the merged results
    equal a single run's — verdicts, messages and every summary figure but the timings."""
    paths = ["tasks/clinical", "tasks/hr", "tasks/pm"]
    work = tmp_path / "work"
    (work / "out").mkdir(parents=True)
    procs = [
        subprocess.Popen(
            ["docker", "run", "--rm", "--user", f"{os.getuid()}:{os.getgid()}", "-e", "HOME=/tmp", "-e", f"JOB_COMPLETION_INDEX={i - 1}",
             "-v", f"{work}:/work", "-v", f"{REPO / 'tasks'}:/work/tasks:ro", "clawmark/harness:latest",
             *paths, "--agent=reference", "--clawmark-shard=2", f"--clawmark-json=out/{i}.json", "-q", "--clawmark-progress=off"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        for i in (1, 2)
    ]  # fmt: skip
    logs = [p.communicate(timeout=600)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs), "\n".join(log[-1500:] for log in logs)
    merged = tmp_path / "merged.json"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest_clawmark.cli",
            "merge",
            str(merged),
            str(work / "out" / "1.json"),
            str(work / "out" / "2.json"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    single = tmp_path / "single.json"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            *paths,
            "--agent=reference",
            f"--clawmark-json={single}",
            f"--clawmark-evidence={tmp_path / 'e'}",
            "-q",
            "-p",
            "no:cacheprovider",
            "--clawmark-progress=off",
        ],
        cwd=REPO,
        capture_output=True,
        timeout=600,
    )
    a, b = json.loads(merged.read_text()), json.loads(single.read_text())
    assert a["run"]["shards"] == 2 and a["run"]["status"] == "complete"
    assert {k: v for k, v in a["summary"].items() if k != "efficiency"} == {
        k: v for k, v in b["summary"].items() if k != "efficiency"
    }
    assert _verdicts(merged) == _verdicts(single)


KB_TASK = """
from pytest_clawmark import Task

task = Task(scenario="hr", role="assistant", services={"fs", "kb"}, user=("Ada Admin", "ada@corp.example"))

@task.turn("2025-04-07 09:00 +00:00")
def monday(world):
    world.kb.create_database("Vendors", {"Name": "title"}, rows=[{"Name": "Acme"}])
    return "Look at the Vendors database."

@task.turn("2025-04-08 09:00 +00:00")
def tuesday(world):
    return "Nothing new."

@task.checker(day=1)
def vendors_kept(world):
    assert [r["Name"] for r in world.kb.rows("Vendors")] == ["Acme"], "the vendors changed"
"""

KILLER = """import os, subprocess, sys
if os.environ['CLAWMARK_DAY'] == '1':
    label = 'org.clawmark.world=' + os.path.join(os.path.dirname(os.getcwd()), 'services', 'kb')
    ids = subprocess.run(['docker', 'ps', '-q', '--filter', 'label=' + label], capture_output=True, text=True).stdout.split()
    if sys.argv[1] == 'remove':
        subprocess.run(['docker', 'rm', '-f', *ids], capture_output=True)
    else:
        subprocess.run(['docker', 'exec', *ids, '/opt/clawmark/bin/python', '-c', 'import os, signal; os.kill(1, signal.SIGTERM)'], capture_output=True)
        subprocess.run(['docker', 'wait', *ids], capture_output=True)
"""
"""Stands in for the engine losing a container mid-day (``remove``: the agent itself never reaches
the engine), or for a server that ends itself while serving the agent (``exit``: as if what it was
sent crashed it)."""


def _run_killer(tmp_path: Path, mode: str) -> tuple[dict, str]:
    task = tmp_path / "tasks" / "hr" / "task_vendors.py"
    task.parent.mkdir(parents=True)
    task.write_text(KB_TASK)
    agent = tmp_path / "killer.py"
    agent.write_text(KILLER)
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "tasks", "--agent=command", f"--agent-option=cmd={sys.executable} {agent} {mode}", "--agent-option=pass_env=DOCKER_HOST",
         f"--agent-option=path={os.environ.get('PATH', '')}", "--agent-isolation=none", "--clawmark-backend=docker", "--clawmark-json=out.json",
         "-p", "no:cacheprovider", "--clawmark-progress=off"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    return json.loads((tmp_path / "out.json").read_text()), r.stdout[-3000:]


def test_a_container_lost_during_a_day_errors_the_trial_and_is_never_the_agents_score(
    tmp_path: Path, servers_image: str
) -> None:
    doc, out = _run_killer(tmp_path, "remove")
    t = doc["tasks"][0]
    assert t["status"] == "errored" and doc["summary"]["score"] is None and doc["summary"]["errored_trials"] == 1, out
    assert "a service of the world stopped answering: kb: the kb container" in t["errors"][0], t["errors"]
    assert all(c["outcome"] != "failed" for c in t["checkers"]), t["checkers"]  # nothing is counted against the agent


def test_a_service_that_stops_by_itself_while_the_agent_works_breaks_the_world_and_stays_in_the_score(
    tmp_path: Path, servers_image: str
) -> None:
    doc, out = _run_killer(tmp_path, "exit")
    t = doc["tasks"][0]
    assert t["status"] == "complete" and not t["errors"] and doc["summary"]["errored_trials"] == 0, (out, t["errors"])
    assert doc["summary"]["score"] == 0.0, out  # measured, and nothing earned
    (checker,) = t["checkers"]
    assert checker["outcome"] == "failed", checker
    assert checker["message"] == (
        "not evaluated: the world was broken by the agent (a service stopped during day 1's turn: "
        "the kb service's server stopped by itself (exit code 0))"
    ), checker
    days = {d["day"]: d for d in t["days"]}
    assert days[1]["status"] == "world-broken" and days[2]["status"] == "not-run", days


def test_clawmark_serve_and_check_on_the_docker_backend(servers_image: str) -> None:
    """Authors can look at a task's world with its services in containers, as the run has them."""
    proc, described = serve_world(
        "--task", "tests/tasks/pm/task_release_readiness.py", "--backend", "docker", "--solve"
    )
    try:
        assert {k: v for k, v in described["backends"].items() if v == "docker"} == {
            s: "docker" for s in DOCKER_SERVICES if s in described["services"]
        }
        assert described["solved"] is True and described["env"]["CLAWMARK_NOTION_URL"].startswith("http://127.0.0.1:")
    finally:
        stop_served(proc, timeout=30)


# -- mail: Dovecot and Postfix on the world's maildir -----------------------------------------------
@pytest.fixture
def mail_worlds(tmp_path: Path, servers_image: str) -> Iterator[dict[str, World]]:
    """The same mail world on both backends, at the same in-universe time."""
    worlds = {b: World(("fs", "mail"), tmp_path / b, user=USER, people=PEOPLE, backend=b) for b in ("local", "docker")}
    try:
        for w in worlds.values():
            w.clock = datetime(2025, 4, 7, 9, tzinfo=timezone.utc)
            w.start()
        yield worlds
    finally:
        for w in worlds.values():
            w.stop()


def _submit(env: dict[str, str], msg: EmailMessage, **kwargs: object) -> dict[str, tuple[int, bytes]]:
    with smtplib.SMTP(env["CLAWMARK_SMTP_HOST"], int(env["CLAWMARK_SMTP_PORT"]), timeout=30) as smtp:
        smtp.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
        return smtp.send_message(msg, **kwargs)  # type: ignore[arg-type]


def _reply(env: dict[str, str]) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = (
        env["CLAWMARK_MAIL_USER"],
        "Mira Stone <mira.stone@corp.example>",
        "Re: Budget",
    )
    msg.set_content("Approved at 4,800 EUR.\n")
    msg.add_attachment(b"item,cost\nbanner,300\n", maintype="text", subtype="csv", filename="budget.csv")
    return msg


def test_mail_is_dovecot_and_postfix_and_stores_what_the_embedded_server_stores(mail_worlds: dict[str, World]) -> None:
    """imapclient and smtplib against Debian's servers: the seeded mail, flags and folders as the
    admin plane wrote them; a submission (with a Bcc to an outsider) leaves the very same bytes in
    the ledger, Sent, the recipient's INBOX and the catch-all as on the embedded servers."""
    from imapclient import IMAPClient

    docker = mail_worlds["docker"]
    assert docker.backends()["mail"] == "docker" and mail_worlds["local"].backends()["mail"] == "local"
    for w in mail_worlds.values():
        w.mail.deliver(PEOPLE[0], USER, "Budget", "Can you approve 4,800 EUR?")
        w.before_agent()
    for backend, w in mail_worlds.items():
        env = w.agent_env()
        with IMAPClient(env["CLAWMARK_IMAP_HOST"], port=int(env["CLAWMARK_IMAP_PORT"]), ssl=False, timeout=30) as imap:
            assert (b"Dovecot" in imap.welcome) == (backend == "docker")
            imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
            assert sorted(name for _, _, name in imap.list_folders()) == ["Drafts", "INBOX", "Sent", "Trash"]
            imap.select_folder("INBOX")
            (uid,) = imap.search(["UNSEEN"])
            assert imap.fetch([uid], ["ENVELOPE"])[uid][b"ENVELOPE"].subject == b"Budget"
            imap.add_flags([uid], [b"\\Seen", b"\\Flagged"])
            imap.create_folder("Archive/2025")
            imap.copy([uid], "Archive/2025")
        assert w.mail.inbox()[0].flags == ("\\Flagged", "\\Seen")  # the server's change, read by the admin plane
        assert [m.subject for m in w.mail.inbox(folder="Archive/2025")] == ["Budget"]
    assert docker.mail.folders() == mail_worlds["local"].mail.folders()

    stored = {}
    reply = _reply(docker.agent_env()).as_bytes()  # the same bytes (one MIME boundary) to both
    for backend, w in mail_worlds.items():
        e = w.agent_env()
        with smtplib.SMTP(e["CLAWMARK_SMTP_HOST"], int(e["CLAWMARK_SMTP_PORT"]), timeout=30) as smtp:
            smtp.login(e["CLAWMARK_MAIL_USER"], e["CLAWMARK_MAIL_PASSWORD"])
            assert smtp.sendmail(USER.email, ["mira.stone@corp.example", "leak@rival.example"], reply) == {}
        stored[backend] = (
            w.mail.sent()[0].raw,
            w.mail.inbox(folder="Sent")[0].raw,
            w.mail.inbox(PEOPLE[0])[0].raw,
            w.mail.outside()[0].raw,
        )
    assert stored["docker"] == stored["local"]  # no Postfix Received field, the same stamps and Message-ID
    sent = docker.mail.sent()[0]
    assert sent.envelope_to == ("mira.stone@corp.example", "leak@rival.example") and sent.sent_by == USER.email
    assert docker.mail.snapshot()["counters"] == mail_worlds["local"].mail.snapshot()["counters"]
    operations = [e.operation for e in docker.mail.audit()]
    assert "IMAP LOGIN" in operations and "IMAP FLAG_CHANGE" in operations and operations[-1] == "SMTP DATA"


def test_postfix_refuses_what_the_embedded_server_refuses(mail_worlds: dict[str, World]) -> None:
    """The agent cannot send as a colleague (envelope: Postfix; ``From:``: the filter behind it),
    cannot send without logging in or with a wrong password, and a refused mail is stored nowhere."""
    w = mail_worlds["docker"]
    env = w.agent_env()
    host, port = env["CLAWMARK_SMTP_HOST"], int(env["CLAWMARK_SMTP_PORT"])
    forged = _reply(env)
    forged.replace_header("From", "Mira Stone <mira.stone@corp.example>")
    with pytest.raises(smtplib.SMTPDataError) as header:
        _submit(env, forged, from_addr=env["CLAWMARK_MAIL_USER"])
    assert header.value.smtp_code == 550 and b"send as your own address only" in header.value.smtp_error
    with pytest.raises(smtplib.SMTPSenderRefused) as envelope:
        _submit(env, _reply(env), from_addr="mira.stone@corp.example")
    assert envelope.value.smtp_code == 553
    with smtplib.SMTP(host, port, timeout=30) as smtp, pytest.raises(smtplib.SMTPAuthenticationError):
        smtp.login(env["CLAWMARK_MAIL_USER"], "wrong")
    with (
        smtplib.SMTP(host, port, timeout=30) as smtp,
        pytest.raises((smtplib.SMTPSenderRefused, smtplib.SMTPRecipientsRefused)),
    ):
        smtp.send_message(_reply(env))
    assert w.mail.sent() == [] and w.mail.outside() == [] and w.mail.inbox(PEOPLE[0]) == []
    statuses = {(e.operation, e.status) for e in w.mail.audit()}
    assert ("SMTP DATA", "550") in statuses and ("SMTP AUTH", "535") in statuses


def test_root_written_mail_is_handed_to_dovecot_before_the_agent(mail_worlds: dict[str, World]) -> None:
    """The harness seeds as whoever runs it; Dovecot refuses root and works as an unprivileged
    uid. Mail seeded between two sessions is served, and a session sees it with the next UID."""
    from imapclient import IMAPClient

    w = mail_worlds["docker"]
    env = w.agent_env()
    w.mail.deliver(PEOPLE[0], USER, "One", "first")
    w.before_agent()
    with IMAPClient(env["CLAWMARK_IMAP_HOST"], port=int(env["CLAWMARK_IMAP_PORT"]), ssl=False, timeout=30) as imap:
        imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
        imap.select_folder("INBOX")
        assert imap.search(["ALL"]) == [1]
        imap.add_flags([1], [b"\\Flagged"])
    w.mail.deliver(PEOPLE[0], USER, "Two", "second")  # the next day's seeding, after Dovecot wrote
    w.before_agent()
    owner = os.stat(w.root / "services" / "mail" / "maildir").st_uid
    assert {os.lstat(p).st_uid for p in (w.root / "services" / "mail" / "maildir").rglob("*")} == {owner}
    with IMAPClient(env["CLAWMARK_IMAP_HOST"], port=int(env["CLAWMARK_IMAP_PORT"]), ssl=False, timeout=30) as imap:
        imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
        imap.select_folder("INBOX")
        found = imap.fetch(imap.search(["ALL"]), ["FLAGS", "ENVELOPE"])
        assert [(u, d[b"ENVELOPE"].subject) for u, d in sorted(found.items())] == [(1, b"One"), (2, b"Two")]
        imap.add_flags([2], [b"\\Seen"])
    assert [(m.subject, m.flags) for m in w.mail.inbox()] == [("One", ("\\Flagged",)), ("Two", ("\\Seen",))]


# -- --agent-isolation=container: the agent on its world's private network only ----------------------
ISOLATED_TASK = """
from pytest_clawmark import Task

task = Task(scenario="hr", role="assistant", services={"fs", "mail", "kb"}, user=("Ada Admin", "ada@corp.example"),
            people=[("Ben Boss", "ben@corp.example")])

@task.turn("2025-04-07 09:00 +00:00")
def monday(world):
    world.mail.deliver("ben@corp.example", "ada@corp.example", "Hi", "Please reply.")
    return "Reply to Ben."

@task.checker(day=1)
def replied(world):
    assert world.mail.find(subject="Re: Hi", to="ben@corp.example").sender == "ada@corp.example"
"""

PLANTED = r"""
import json, os, smtplib, socket, sys, concurrent.futures as cf
from email.message import EmailMessage
from imapclient import IMAPClient
import httpx

env, report = os.environ, {}
with IMAPClient(env["CLAWMARK_IMAP_HOST"], port=int(env["CLAWMARK_IMAP_PORT"]), ssl=False, timeout=10) as imap:
    imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
    imap.select_folder("INBOX")
    report["inbox"] = len(imap.search(["ALL"]))
msg = EmailMessage()
msg["From"], msg["To"], msg["Subject"] = env["CLAWMARK_MAIL_USER"], "ben@corp.example", "Re: Hi"
msg.set_content("Done.")
with smtplib.SMTP(env["CLAWMARK_SMTP_HOST"], int(env["CLAWMARK_SMTP_PORT"]), timeout=10) as smtp:
    smtp.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
    smtp.send_message(msg)
report["kb"] = httpx.post(env["CLAWMARK_NOTION_URL"] + "/v1/search", headers={"Authorization": "Bearer " + env["CLAWMARK_NOTION_TOKEN"], "Notion-Version": "2022-06-28"}, json={}).status_code
report["addresses"] = [env["CLAWMARK_IMAP_HOST"], env["CLAWMARK_NOTION_URL"]]
model = httpx.post(env["CLAWMARK_MODEL_URL"] + "/chat/completions", headers={"Authorization": "Bearer " + env["RELAY_TEST_KEY"]},
                   json={"model": "scripted", "messages": [{"role": "user", "content": "hi"}], "stream": True})
report["model"] = [env["CLAWMARK_MODEL_URL"], model.status_code]

def reaches(host, port):
    try:
        sock = socket.create_connection((host, port), timeout=0.5)
    except OSError:
        return False
    with sock:  # a loopback connect can land on its own ephemeral port (TCP self-connect): nobody listens
        return sock.getsockname() != sock.getpeername()

own = socket.gethostbyname(env["CLAWMARK_IMAP_HOST"])
gateway = own.rsplit(".", 1)[0] + ".1"
baits = json.loads(sys.argv[1])
targets = [("127.0.0.1", p) for p in range(1, 65536)]
targets += [(gateway, p) for p in [22, 80, 443, 2375, 2376, 8000, 8080] + baits["ports"]]
targets += [(ip, p) for ip in baits["ips"] for p in (8000, 143, 587)]
with cf.ThreadPoolExecutor(64) as pool:
    report["reached"] = [f"{h}:{p}" for (h, p), ok in zip(targets, pool.map(lambda t: reaches(*t), targets)) if ok]
try:
    socket.getaddrinfo("pypi.org", 443)
    report["dns"] = True
except OSError:
    report["dns"] = False
report["task_visible"] = os.path.exists(baits["task"])
report["workspace"] = os.path.isdir("/workspace") and os.getcwd()
print(json.dumps(report))
"""


def test_a_container_isolated_agent_reaches_its_world_and_nothing_else(tmp_path: Path, servers_image: str) -> None:
    """``--agent-isolation=container``: a planted agent in its own container works with its world's
    mail and knowledge base by name and with its model provider through the harness's relay, and
    reaches nothing else: no port of its container's loopback (the host's loopback holds the
    harness's, the provider's and other worlds' ports), not the engine's gateway, not another
    world's containers, no DNS; the task file is not in its view."""
    from pytest_clawmark.agents.scripted_model import ScriptedModelServer

    task = tmp_path / "tasks" / "hr" / "task_isolated.py"
    task.parent.mkdir(parents=True)
    task.write_text(ISOLATED_TASK)
    agent_dir = tmp_path / "agent"
    agent_dir.mkdir()
    (agent_dir / "planted.py").write_text(PLANTED)
    # bait: another world with its services in containers on its own network, and an embedded one
    other = World(
        ("fs", "mail", "kb"), tmp_path / "other", user=USER, people=PEOPLE, backend="docker", agent_network=True
    )
    embedded = World(("fs", "mail", "kb"), tmp_path / "embedded", user=USER, people=PEOPLE)
    provider = ScriptedModelServer(
        REPO / "tests/tasks/ecommerce/supplier_invoices/openclaw_script.json", api_key="sk-relay"
    ).start()
    other.start()
    embedded.start()
    try:
        import docker

        client = docker.from_env()
        ips = [
            c.attrs["NetworkSettings"]["Networks"][other.network.name]["IPAddress"]
            for c in client.networks.get(other.network.name).containers
        ]
        ports = sorted(
            {int(v) for e in (other.agent_env(), embedded.agent_env()) for k, v in e.items() if k.endswith("_PORT")}
            | {
                int(u.rpartition(":")[2].rstrip("/"))
                for u in embedded.agent_env().values()
                if u.startswith("http://127.0.0.1:")
            }
            | {int(provider.url.rpartition(":")[2])}
        )
        baits = json.dumps({"ips": ips, "ports": ports, "task": str(task)})
        r = subprocess.run(
            [sys.executable, "-m", "pytest", "tasks", "--agent=command", f"--agent-option=cmd=python3 {agent_dir / 'planted.py'} '{baits}'",
             f"--agent-option=model_url={provider.base_url}", "--agent-option=pass_env=RELAY_TEST_KEY", "--agent-isolation=container", "--clawmark-backend=docker", "--clawmark-json=out.json", f"--clawmark-evidence={tmp_path / 'evidence'}",
             "-p", "no:cacheprovider", "--clawmark-progress=off", "--clawmark-turn-timeout=240"],
            cwd=tmp_path, capture_output=True, text=True, timeout=600, env={**os.environ, "RELAY_TEST_KEY": "sk-relay"},
        )  # fmt: skip
    finally:
        other.stop()
        embedded.stop()
        provider.stop()
    doc = json.loads((tmp_path / "out.json").read_text())
    assert doc["summary"]["score"] == 1.0, r.stdout[-3000:]
    (stdout,) = list((tmp_path / "evidence").rglob("day1.stdout.txt"))
    report = json.loads(stdout.read_text().strip().splitlines()[-1])
    assert (
        report["inbox"] == 1
        and report["kb"] == 200
        and report["addresses"][0] == "mail"
        and report["addresses"][1].startswith("http://kb:")
    )
    assert (
        report["model"][1] == 200 and not report["model"][0].startswith("http://127.0.0.1") and provider.requests
    )  # relayed, with its key
    assert report["reached"] == [] and report["dns"] is False and report["task_visible"] is False
    assert report["workspace"] and doc["run"]["isolation"] == "container"
    assert (
        subprocess.run(
            ["docker", "ps", "-aq", "--filter", "label=org.clawmark.agent"], capture_output=True, text=True
        ).stdout.split()
        == []
    )


def test_container_isolation_needs_the_docker_backend_and_an_image_it_finds(tmp_path: Path, servers_image: str) -> None:
    """Refused in one line before anything runs: without the docker backend (no private network to
    join), or with an agent image the engine does not have (nothing is pulled)."""
    task = tmp_path / "tasks" / "hr" / "task_isolated.py"
    task.parent.mkdir(parents=True)
    task.write_text(ISOLATED_TASK)
    base = [sys.executable, "-m", "pytest", "tasks", "--agent=command", "--agent-option=cmd=python3 -c pass", "--agent-isolation=container",
            "-p", "no:cacheprovider", "--clawmark-progress=off"]  # fmt: skip
    local = subprocess.run(base, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert local.returncode == 4 and "--agent-isolation=container needs --clawmark-backend=docker" in local.stderr, (
        local.stderr[-800:]
    )
    missing = subprocess.run(
        [*base, "--clawmark-backend=docker", "--agent-option=image=no-such-agent:1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert missing.returncode == 4 and "the agent image no-such-agent:1 is not on the engine" in missing.stderr, (
        missing.stderr[-800:]
    )
    assert "Traceback" not in local.stderr + missing.stderr


TWO_DAYS = (
    ISOLATED_TASK
    + """
@task.turn("2025-04-08 09:00 +00:00")
def tuesday(world):
    world.mail.deliver("ben@corp.example", "ada@corp.example", "Again", "Please reply again.")
    return "Reply to Ben again."

@task.checker(day=2)
def replied_again(world):
    assert world.mail.find(subject="Re: Again", to="ben@corp.example")

@task.solution(day=1)
def solve_monday(agent):
    agent.mail.send(["ben@corp.example"], "Re: Hi", "Done.")

@task.solution(day=2)
def solve_tuesday(agent):
    agent.mail.send(["ben@corp.example"], "Re: Again", "Done again.")
"""
)


def test_in_process_agents_keep_loopback_under_container_isolation(tmp_path: Path, servers_image: str) -> None:
    """The reference agent (and every reference twin) runs in pytest: with
    ``--agent-isolation=container`` its world gets no private network and it reaches the services
    on loopback, so the reference still scores 100% over several days."""
    task = tmp_path / "tasks" / "hr" / "task_two_days.py"
    task.parent.mkdir(parents=True)
    task.write_text(TWO_DAYS)
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "tasks", "--agent=reference", "--agent-isolation=container", "--clawmark-backend=docker",
         "--clawmark-json=out.json", "-p", "no:cacheprovider", "--clawmark-progress=off"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    doc = json.loads((tmp_path / "out.json").read_text())
    assert doc["summary"]["score"] == 1.0 and doc["run"]["status"] == "complete", r.stdout[-3000:]


@pytest.mark.parametrize("install", ["host", "image"])
def test_openclaw_in_a_container_on_the_worlds_network_scores_the_corpus_task(
    tmp_path: Path, servers_image: str, install: str
) -> None:
    """OpenClaw in its own container — the host's install mounted read-only, or the
    ``clawmark/openclaw`` image's own (the host's install hidden from the run) — with its scripted
    model offered on the host's address of the world's network: a three-day corpus task over mail,
    calendar, knowledge base and sheets scores 100%, each day in a new container, and the
    transcripts are read (by the image's Node, for the image)."""
    from pytest_clawmark.agents.base import AgentError
    from pytest_clawmark.agents.openclaw_install import find_openclaw

    try:
        find_openclaw()
    except AgentError as exc:
        pytest.skip(f"OpenClaw is not installed ({exc}); bash .ci/install-openclaw")
    env = dict(os.environ)
    options = []
    if install == "image":
        with open(Path(os.environ.get("TMPDIR", "/tmp")) / "clawmark-images.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not current_tag("openclaw"):
                build_all(
                    base=None,
                    base_from_debootstrap=True,
                    cache=tmp_path / "images",
                    log=lambda line: None,
                    openclaw=True,
                )
        options = ["--agent-option=image=clawmark/openclaw"]
        # the run finds no OpenClaw or Node on the host: only the image's can serve it
        env["CLAWMARK_OPENCLAW_DIR"] = str(tmp_path / "no-openclaw")
        env["PATH"] = os.pathsep.join(
            p
            for p in env["PATH"].split(os.pathsep)
            if not (Path(p) / "openclaw").exists() and not (Path(p) / "node").exists()
        )
    out = tmp_path / "out.json"
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "tasks/research_assistant/grant_report/task_grant_report.py", "--agent=openclaw",
         "--agent-option=script=tasks/research_assistant/grant_report/openclaw_script.json", "--agent-isolation=container", *options,
         "--clawmark-backend=docker", f"--clawmark-json={out}", f"--clawmark-evidence={tmp_path / 'evidence'}", "-p", "no:cacheprovider", "-q",
         "--clawmark-progress=off"],
        cwd=REPO, capture_output=True, text=True, timeout=900, env=env,
    )  # fmt: skip
    doc = json.loads(out.read_text()) if out.exists() else {}
    assert doc, r.stdout[-3000:] + r.stderr[-2000:]
    (t,) = doc["tasks"]
    failed = [(c["id"], c["message"]) for c in t["checkers"] if c["outcome"] != "passed"]
    assert (t["score"], failed, t["errors"]) == (1.0, [], []), r.stdout[-3000:]
    assert doc["run"]["isolation"] == "container" and {d["trace"]["extra"]["isolation"] for d in t["days"]} == {
        "container"
    }
    assert all(d["trace"]["transcript"] and d["trace"]["tool_calls"] for d in t["days"]), [
        d["trace"] for d in t["days"]
    ]
    if install == "image":
        assert t["days"][0]["trace"]["extra"]["openclaw"].startswith("OpenClaw "), t["days"][0]["trace"]["extra"]
    base_url = t["days"][0]["trace"]["extra"]["base_url"]
    assert not base_url.startswith("http://127.0.0.1"), base_url  # the model is on the world's network, not on loopback
    assert (
        subprocess.run(
            ["docker", "ps", "-aq", "--filter", "label=org.clawmark.agent"], capture_output=True, text=True
        ).stdout.split()
        == []
    )


def test_openclaw_in_a_container_reaches_its_provider_through_the_relay_only(
    tmp_path: Path, servers_image: str
) -> None:
    """A model provider outside the world (here: a scripted one on the host's loopback that demands
    the key) is offered to the container through the harness's relay on the world's network: the
    agent's own key reaches it, the task scores 100%, and the relay forwards the provider's base
    path only."""
    from pytest_clawmark.agents.base import AgentError
    from pytest_clawmark.agents.model_relay import ModelRelay
    from pytest_clawmark.agents.openclaw_install import find_openclaw
    from pytest_clawmark.agents.scripted_model import ScriptedModelServer

    try:
        find_openclaw()
    except AgentError as exc:
        pytest.skip(f"OpenClaw is not installed ({exc}); bash .ci/install-openclaw")
    script = REPO / "tests/tasks/ecommerce/supplier_invoices/openclaw_script.json"
    key = "sk-clawmark-relay-test"
    with ScriptedModelServer(script, api_key=key) as provider:
        out = tmp_path / "out.json"
        r = subprocess.run(
            [sys.executable, "-m", "pytest", "tests/tasks/ecommerce/task_supplier_invoices.py", "--agent=openclaw",
             "--agent-option=provider=openai", f"--agent-option=base_url={provider.base_url}", "--agent-option=model=scripted",
             "--agent-option=api_key_env=CLAWMARK_RELAY_TEST_KEY", "--agent-isolation=container", "--clawmark-backend=docker",
             f"--clawmark-json={out}", f"--clawmark-evidence={tmp_path / 'evidence'}", "-p", "no:cacheprovider", "-q", "--clawmark-progress=off"],
            cwd=REPO, capture_output=True, text=True, timeout=900, env={**os.environ, "CLAWMARK_RELAY_TEST_KEY": key},
        )  # fmt: skip
        requests, provider_url = provider.requests, provider.base_url
    doc = json.loads(out.read_text())
    (t,) = doc["tasks"]
    assert (t["score"], t["errors"]) == (1.0, []), r.stdout[-3000:]
    extra = t["days"][0]["trace"]["extra"]
    assert (
        extra["relayed_to"] == provider_url
        and extra["relayed_requests"] > 0
        and not extra["base_url"].startswith("http://127.0.0.1")
    )
    assert requests and all(
        e["kind"] in ("step", "final") for e in requests
    )  # every request carried the key (else refused)

    relay = ModelRelay(provider_url, host="127.0.0.1").start()
    try:
        assert (
            httpx.get(relay.base_url.rsplit("/v1", 1)[0] + "/_scripted/requests").status_code == 403
        )  # outside the base path
        assert httpx.get(relay.base_url + "/../_scripted/requests").status_code in (403, 404)
    finally:
        relay.stop()


def test_dovecot_holds_the_embedded_servers_limits(mail_worlds: dict[str, World]) -> None:
    """What the agent can APPEND over IMAP is bounded as on the embedded server: its quota (storage
    and messages, RFC 2087 GETQUOTAROOT) and the largest message; an oversized APPEND is refused
    and stores nothing."""
    from imapclient import IMAPClient
    from imapclient.exceptions import IMAPClientError

    from pytest_clawmark.servers.mail import limits

    w = mail_worlds["docker"]
    env = w.agent_env()
    with IMAPClient(env["CLAWMARK_IMAP_HOST"], port=int(env["CLAWMARK_IMAP_PORT"]), ssl=False, timeout=60) as imap:
        imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
        _, quotas = imap.get_quota_root("INBOX")
        assert {q.resource: q.limit for q in quotas} == {
            "STORAGE": limits.STORE_QUOTA_BYTES // 1024,
            "MESSAGE": limits.STORE_QUOTA_MESSAGES,
        }
        big = b"Subject: big\r\n\r\n" + (b"x" * 998 + b"\r\n") * (limits.MAX_MESSAGE_BYTES // 1000 + 10)
        with pytest.raises(IMAPClientError):
            imap.append("INBOX", big)
        imap.append("INBOX", b"Subject: small\r\n\r\nfits\r\n")
    assert [m.subject for m in w.mail.inbox()] == ["small"]
