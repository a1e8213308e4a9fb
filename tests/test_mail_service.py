"""The mail service with real clients: smtplib, imaplib and imapclient against a real World."""

from __future__ import annotations

import imaplib
import json
import smtplib
from collections.abc import Iterator
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
from imapclient import IMAPClient

from pytest_clawmark.world import Person, World
from pytest_clawmark.world.mail import AmbiguousMail, MailNotFound

CLOCK = datetime(2025, 4, 7, 9, 0, tzinfo=timezone.utc)
USER = Person("Chen Fang", "chen.fang@hospital.internal")
NURSE = Person("Li Na", "nurse3@hospital.internal")
DOCTOR = Person("Dr. Wang", "wang@hospital.internal")
OUTSIDER = "auditor@regulator.example"


def make_world(root: Path) -> World:
    world = World({"mail"}, root, user=USER, people=[NURSE, DOCTOR])
    world.clock = CLOCK
    return world.start()


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = make_world(tmp_path / "world")
    yield w
    w.stop()


@pytest.fixture
def env(world: World) -> dict[str, str]:
    return world.agent_env()


def smtp_login(env: dict[str, str]) -> smtplib.SMTP:
    client = smtplib.SMTP(env["CLAWMARK_SMTP_HOST"], int(env["CLAWMARK_SMTP_PORT"]), timeout=10)
    client.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
    return client


def imap_client(env: dict[str, str]) -> IMAPClient:
    client = IMAPClient(env["CLAWMARK_IMAP_HOST"], port=int(env["CLAWMARK_IMAP_PORT"]), ssl=False, timeout=10)
    client.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
    return client


def outgoing(to: str, subject: str, body: str = "Hello", cc: str | None = None) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = f"{USER.name} <{USER.email}>"
    msg["To"] = to
    if cc:
        msg["Cc"] = cc
    msg["Subject"] = subject
    msg.set_content(body)
    return msg


# -- agent plane: SMTP --------------------------------------------------------------------------
def test_smtp_send_to_colleague_and_outside(world: World, env: dict[str, str]) -> None:
    with smtp_login(env) as smtp:
        refused = smtp.send_message(outgoing(f"{NURSE.name} <{NURSE.email}>", "Dose check", cc=OUTSIDER))
    assert refused == {}

    inbox = world.mail.inbox(NURSE)
    assert [m.subject for m in inbox] == ["Dose check"]
    assert inbox[0].sender == USER.email and inbox[0].envelope_to == (NURSE.email,)
    assert inbox[0].date == CLOCK  # added by the server from the in-universe clock

    outside = world.mail.outside()
    assert [(m.subject, m.envelope_to) for m in outside] == [("Dose check", (OUTSIDER,))]
    assert world.mail.outside(to=OUTSIDER) == outside

    (sent,) = world.mail.sent()
    assert sent.sent_by == USER.email
    assert set(sent.envelope_to) == {NURSE.email, OUTSIDER}
    assert sent.message_id and sent.message_id == inbox[0].message_id == outside[0].message_id
    # the user's own Sent folder has a read copy, as a mail client expects
    (copy,) = world.mail.inbox(USER, folder="Sent")
    assert copy.subject == "Dose check" and copy.seen


def test_bcc_recipients_are_delivered_and_recorded(world: World, env: dict[str, str]) -> None:
    msg = outgoing(NURSE.email, "Quiet note")
    with smtp_login(env) as smtp:
        smtp.send_message(msg, to_addrs=[NURSE.email, DOCTOR.email])  # doctor is Bcc
    assert world.mail.inbox(DOCTOR)[0].subject == "Quiet note"
    assert world.mail.find(subject="Quiet note", to=DOCTOR).envelope_to == (NURSE.email, DOCTOR.email)


def test_attachments_survive_smtp(world: World, env: dict[str, str]) -> None:
    msg = outgoing(DOCTOR.email, "Report attached")
    pdf = bytes(range(256)) * 40
    msg.add_attachment(pdf, maintype="application", subtype="pdf", filename="review.pdf")
    msg.add_attachment("a,b\n1,2\n", subtype="csv", filename="rows.csv")
    with smtp_login(env) as smtp:
        smtp.send_message(msg)
    sent = world.mail.find(subject="Report attached", to=DOCTOR.email)
    assert [(a.filename, a.content_type) for a in sent.attachments] == [
        ("review.pdf", "application/pdf"),
        ("rows.csv", "text/csv"),
    ]
    assert sent.attachment("review.pdf").data == pdf
    received = world.mail.find(subject="Report attached", mailbox=DOCTOR)
    assert received.attachment("review.pdf").sha256 == sent.attachment("review.pdf").sha256


def test_unauthenticated_submission_is_refused(world: World, env: dict[str, str]) -> None:
    with smtplib.SMTP(env["CLAWMARK_SMTP_HOST"], int(env["CLAWMARK_SMTP_PORT"]), timeout=10) as smtp:
        with pytest.raises(smtplib.SMTPSenderRefused) as err:
            smtp.send_message(outgoing(NURSE.email, "anonymous"))
    assert err.value.smtp_code == 530
    assert world.mail.inbox(NURSE) == [] and world.mail.sent() == []


def test_cannot_send_as_someone_else(world: World, env: dict[str, str]) -> None:
    msg = outgoing(DOCTOR.email, "Spoof")
    with smtp_login(env) as smtp:
        with pytest.raises(smtplib.SMTPSenderRefused) as err:
            smtp.send_message(msg, from_addr=NURSE.email)
    assert err.value.smtp_code == 553
    assert world.mail.inbox(DOCTOR) == []


@pytest.mark.parametrize("password", ["wrong", "", "x" * 200])
def test_smtp_wrong_password(env: dict[str, str], password: str) -> None:
    with smtplib.SMTP(env["CLAWMARK_SMTP_HOST"], int(env["CLAWMARK_SMTP_PORT"]), timeout=10) as smtp:
        with pytest.raises(smtplib.SMTPAuthenticationError):
            smtp.login(env["CLAWMARK_MAIL_USER"], password)


# -- agent plane: IMAP --------------------------------------------------------------------------
def test_imaplib_login_list_select_search_fetch_store(world: World, env: dict[str, str]) -> None:
    world.mail.deliver(NURSE, USER, "Lab results P-2189", "Creatinine 180 umol/L")
    world.mail.deliver(DOCTOR, USER, "Ward round", "See you at 10")
    imap = imaplib.IMAP4(env["CLAWMARK_IMAP_HOST"], int(env["CLAWMARK_IMAP_PORT"]), timeout=10)
    try:
        assert imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])[0] == "OK"
        status, folders = imap.list()
        names = sorted(line.decode().rsplit(" ", 1)[-1].strip('"') for line in folders)
        assert status == "OK" and names == ["Drafts", "INBOX", "Sent", "Trash"]
        assert imap.select("INBOX") == ("OK", [b"2"])
        status, data = imap.search(None, "SUBJECT", '"Lab results"')
        assert data == [b"1"]
        status, data = imap.fetch("1", "(BODY.PEEK[TEXT])")
        assert b"Creatinine 180" in data[0][1]
        assert not world.mail.find(subject="Lab results P-2189", mailbox=USER).seen  # PEEK
        imap.fetch("1", "(RFC822)")
        assert world.mail.find(subject="Lab results P-2189", mailbox=USER).seen
        assert imap.store("2", "+FLAGS", "(\\Flagged)")[0] == "OK"
        assert world.mail.find(subject="Ward round", mailbox=USER).flags == ("\\Flagged",)
    finally:
        imap.logout()


def test_imapclient_flags_copy_append_expunge(world: World, env: dict[str, str]) -> None:
    world.mail.deliver(NURSE, USER, "First", "1")
    world.mail.deliver(NURSE, USER, "Second", "2")
    with imap_client(env) as imap:
        imap.select_folder("INBOX")
        uids = imap.search(["ALL"])
        assert len(uids) == 2
        envelopes = imap.fetch(uids, ["ENVELOPE", "FLAGS"])
        assert [envelopes[u][b"ENVELOPE"].subject for u in uids] == [b"First", b"Second"]
        imap.add_flags(uids[0], [b"\\Seen"])
        imap.copy(uids[1], "Trash")
        imap.delete_messages(uids[1])
        imap.expunge()
        imap.append("Drafts", outgoing(DOCTOR.email, "Draft reply").as_bytes(), flags=[b"\\Draft"])
    assert [(m.subject, m.seen) for m in world.mail.inbox()] == [("First", True)]
    assert [m.subject for m in world.mail.inbox(folder="Trash")] == ["Second"]
    (draft,) = world.mail.inbox(folder="Drafts")
    assert draft.subject == "Draft reply" and "\\Draft" in draft.flags
    assert world.mail.sent() == []  # an APPEND is not a send


def test_long_lived_session_sees_new_mail(world: World, env: dict[str, str]) -> None:
    with imap_client(env) as imap:
        imap.select_folder("INBOX")
        assert imap.search(["ALL"]) == []
        world.mail.deliver(NURSE, USER, "Later today", "arrived after SELECT")
        imap.noop()
        assert len(imap.search(["ALL"])) == 1
        with smtp_login(env) as smtp:
            smtp.send_message(outgoing(USER.email, "Note to self"))
        imap.noop()
        uids = imap.search(["ALL"])
        subjects = [d[b"ENVELOPE"].subject for d in imap.fetch(uids, ["ENVELOPE"]).values()]
        assert sorted(subjects) == [b"Later today", b"Note to self"]


@pytest.mark.parametrize(
    "login, password_of",
    [
        (USER.email, "wrong"),
        (NURSE.email, "agent"),  # the agent's password does not open a colleague's mailbox
        ("nobody@hospital.internal", "agent"),
        ("~outside", "agent"),  # the catch-all has no login
        ("~sent", "agent"),
    ],
)
def test_imap_login_refused(world: World, env: dict[str, str], login: str, password_of: str) -> None:
    password = env["CLAWMARK_MAIL_PASSWORD"] if password_of == "agent" else password_of
    imap = imaplib.IMAP4(env["CLAWMARK_IMAP_HOST"], int(env["CLAWMARK_IMAP_PORT"]), timeout=10)
    try:
        with pytest.raises(imaplib.IMAP4.error):
            imap.login(login, password)
    finally:
        imap.shutdown()


def test_cannot_authorize_as_another_person(env: dict[str, str]) -> None:
    """SASL PLAIN with an authorization identity: the user's password, a colleague's mailbox."""
    imap = imaplib.IMAP4(env["CLAWMARK_IMAP_HOST"], int(env["CLAWMARK_IMAP_PORT"]), timeout=10)
    try:
        token = f"{NURSE.email}\0{USER.email}\0{env['CLAWMARK_MAIL_PASSWORD']}".encode()
        with pytest.raises(imaplib.IMAP4.error):
            imap.authenticate("PLAIN", lambda _: token)
    finally:
        imap.shutdown()


def test_people_can_log_in_to_their_own_mailbox(world: World, env: dict[str, str]) -> None:
    world.mail.deliver(USER, NURSE, "For the nurse", "hi")
    with IMAPClient("127.0.0.1", port=int(env["CLAWMARK_IMAP_PORT"]), ssl=False, timeout=10) as imap:
        imap.login(NURSE.email, world.credentials.people_password)
        assert imap.select_folder("INBOX")[b"EXISTS"] == 1


# -- admin plane ------------------------------------------------------------------------------
def test_deliver_builds_mime_with_attachments(world: World, tmp_path: Path) -> None:
    evidence = tmp_path / "labs.csv"
    evidence.write_text("patient,creatinine\nP-2189,180\n")
    mid = world.mail.deliver(
        NURSE,
        [USER, DOCTOR],
        "Labs",
        "See attached.",
        cc=[OUTSIDER],
        attachments=[evidence, ("scan.png", b"\x89PNG fake")],
        silent="labs_arrive",
    )
    (m,) = world.mail.inbox()
    assert m.message_id == mid and m.sender == NURSE.email and m.sender_name == NURSE.name
    assert m.to == (USER.email, DOCTOR.email) and m.cc == (OUTSIDER,)
    assert m.text.strip() == "See attached." and m.date == CLOCK and m.internal_date == CLOCK
    assert [(a.filename, a.content_type, a.size) for a in m.attachments] == [
        ("labs.csv", "text/csv", evidence.stat().st_size),
        ("scan.png", "image/png", 9),
    ]
    assert world.mail.inbox(DOCTOR)[0].message_id == mid
    assert world.mail.outside(to=OUTSIDER)[0].message_id == mid
    assert world.mutations.applied == [
        ("labs_arrive", "mail", f"delivered 'Labs' from {NURSE.email} to {USER.email}, {DOCTOR.email}, {OUTSIDER}")
    ]
    assert world.audit.entries("mail") == []  # admin actions are not agent actions


def test_deliver_accepts_named_addresses(world: World) -> None:
    world.mail.deliver("Vendor Sales <sales@vendor.example>", f"Chen <{USER.email}>", "Quote", "Attached.")
    (m,) = world.mail.inbox()
    assert (m.sender, m.sender_name, m.to) == ("sales@vendor.example", "Vendor Sales", (USER.email,))
    assert world.mail.find(subject="Quote", sender="sales@vendor.example", mailbox=USER) == m
    with pytest.raises(ValueError):
        world.mail.deliver(NURSE, [], "Nobody", "x")


def test_deliver_from_the_user_is_filed_in_sent(world: World) -> None:
    world.mail.deliver(
        USER, NURSE, "Earlier thread", "sent last week", date=datetime(2025, 3, 31, 8, tzinfo=timezone.utc)
    )
    (copy,) = world.mail.inbox(USER, folder="Sent")
    assert copy.subject == "Earlier thread" and copy.date == datetime(2025, 3, 31, 8, tzinfo=timezone.utc)
    assert world.mail.sent() == []  # seeded history is not something the agent sent


def test_find_is_exact_and_raises_on_absence_or_ambiguity(world: World) -> None:
    world.mail.deliver(NURSE, USER, "Dose check", "1")
    world.mail.deliver(NURSE, USER, "Dose check (urgent)", "2")
    assert world.mail.find(subject="Dose  check", mailbox=USER).text.strip() == "1"  # whitespace-normalised
    with pytest.raises(MailNotFound):
        world.mail.find(subject="dose check", mailbox=USER)
    with pytest.raises(AmbiguousMail):
        world.mail.find(subject="dose check", mailbox=USER, exact=False)
    assert isinstance(MailNotFound("x"), AssertionError) and isinstance(AmbiguousMail("x"), AssertionError)
    assert len(world.mail.find_all(subject="dose", mailbox=USER, exact=False)) == 2
    with pytest.raises(MailNotFound):
        world.mail.find(subject="Dose check")  # nothing was *sent* by the agent


def test_set_flags_and_remove(world: World) -> None:
    mid = world.mail.deliver(NURSE, USER, "Recalled", "oops")
    world.mail.set_flags(USER, mid, add=["\\Flagged"], silent="flag")
    assert world.mail.inbox()[0].flags == ("\\Flagged",)
    world.mail.remove(USER, mid, silent="recall")
    assert world.mail.inbox() == []
    assert [m[0] for m in world.mutations.applied] == ["flag", "recall"]


def test_audit_records_agent_actions(world: World, env: dict[str, str]) -> None:
    world.mail.deliver(NURSE, USER, "Audit me", "x")
    with imap_client(env) as imap:
        imap.select_folder("INBOX")
        imap.fetch([1], ["BODY.PEEK[]"])
        imap.add_flags([1], [b"\\Seen"])
    with smtp_login(env) as smtp:
        smtp.send_message(outgoing(NURSE.email, "Re: Audit me"))
    entries = world.audit.entries("mail")
    ops = [(e.operation, e.target, e.status) for e in entries]
    assert ("IMAP LOGIN", USER.email, "OK") in ops
    assert ("IMAP SELECT", "INBOX", "OK") in ops
    assert ("IMAP UID FETCH", "INBOX", "OK") in ops
    assert ("IMAP UID STORE", "INBOX", "OK") in ops
    assert ("SMTP AUTH", USER.email, "235") in ops
    (data,) = [e for e in entries if e.operation == "SMTP DATA"]
    assert data.target == NURSE.email and data.status == "250" and "'Re: Audit me'" in data.summary
    assert all(world.credentials.agent_password not in e.summary + e.target for e in entries)


def test_agent_env_tools_and_ping(world: World, env: dict[str, str]) -> None:
    assert env["CLAWMARK_IMAP_URL"] == f"imap://127.0.0.1:{env['CLAWMARK_IMAP_PORT']}"
    assert env["CLAWMARK_SMTP_URL"] == f"smtp://127.0.0.1:{env['CLAWMARK_SMTP_PORT']}"
    assert env["CLAWMARK_MAIL_USER"] == USER.email
    assert env["CLAWMARK_MAIL_PASSWORD"] == world.credentials.agent_password
    tools = world.mail.tools_markdown()
    for name in ("CLAWMARK_IMAP_URL", "CLAWMARK_SMTP_URL", "CLAWMARK_MAIL_USER", "CLAWMARK_MAIL_PASSWORD", "no TLS"):
        assert name in tools
    assert world.credentials.agent_password not in tools
    world.ping()
    assert world.audit.entries("mail") == []  # a health check is not an agent action
    world.mail.stop()
    with pytest.raises(OSError):
        with smtplib.SMTP("127.0.0.1", int(env["CLAWMARK_SMTP_PORT"]), timeout=2):
            pass


# -- evidence -----------------------------------------------------------------------------------
def seed(world: World) -> None:
    world.mail.deliver(NURSE, USER, "Admission P-2189", "Warfarin 5 mg", attachments=[("chart.txt", b"INR 3.1")])
    world.mail.deliver(DOCTOR, [USER, NURSE], "Ward round", "10:00", cc=[OUTSIDER])
    world.mail.deliver(USER, DOCTOR, "Earlier", "history")


def test_two_worlds_seeded_alike_have_identical_snapshots(tmp_path: Path) -> None:
    snapshots = []
    for name in ("a", "b"):
        world = make_world(tmp_path / name)
        try:
            _ = world.credentials  # distinct random secrets must not leak into snapshots
            seed(world)
            env = world.agent_env()
            with smtp_login(env) as smtp:
                smtp.send_message(outgoing(DOCTOR.email, "Agent reply", "done"))
            snapshots.append(json.dumps(world.mail.snapshot(), sort_keys=True))
        finally:
            world.stop()
    assert snapshots[0] == snapshots[1]


def test_snapshot_restore_round_trip(world: World, tmp_path: Path) -> None:
    seed(world)
    with smtp_login(world.agent_env()) as smtp:
        smtp.send_message(outgoing(OUTSIDER, "Leak?", "data"))
    world.mail.set_flags(USER, world.mail.inbox()[0].message_id, add=["\\Seen"])
    before = world.mail.snapshot()
    assert json.loads(json.dumps(before)) == before  # JSON-able

    other = make_world(tmp_path / "other")
    try:
        other.mail.restore(before)
        assert other.mail.snapshot() == before
        # the restored store still works: a new delivery lands after the restored ones
        other.mail.deliver(NURSE, USER, "After restore", "x")
        assert [m.subject for m in other.mail.inbox()][-1] == "After restore"
    finally:
        other.stop()

    world.mail.deliver(NURSE, USER, "Extra", "x")
    world.mail.restore(before)
    assert world.mail.snapshot() == before


def test_people_may_be_given_as_name_address_pairs_and_bad_ones_say_so(world: World) -> None:
    """``("Name", "a@x")`` is one person (as ``Task(user=...)`` takes it), in every address slot."""
    mid = world.mail.deliver(
        ("Li Na", NURSE.email), (USER.name, USER.email), "Pairs", "Body", cc=[("Ops", "ops@elsewhere.example")]
    )
    assert mid.endswith("@hospital.internal>")  # not a domain made of the tuple's text
    m = world.mail.find(mailbox=USER.email, subject="Pairs")
    assert (m.sender, m.sender_name, m.to, m.cc) == (NURSE.email, "Li Na", (USER.email,), ("ops@elsewhere.example",))
    assert [o.envelope_to for o in world.mail.outside()] == [("ops@elsewhere.example",)]
    with pytest.raises(
        TypeError, match=r"a mail address must be a Person, 'a@x', 'Name <a@x>' or a \(name, address\) pair, not 42"
    ):
        world.mail.deliver(42, [world.user], "x", "y")  # type: ignore[arg-type]
