"""Mail at realistic size: batched seeding and the caches in front of pymap's maildir backend.

What must hold while it got fast (issue "the world at realistic size"): a batch stores exactly
what one-by-one delivery stores (same folders, same order, same UIDs); nobody sees the queue;
a change made through another writer of the same files (another process on the docker backend)
is seen at once; flag changes and expunges by another session are seen by a reused session.
"""

from __future__ import annotations

import asyncio
import imaplib
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from imapclient import IMAPClient

from pytest_clawmark.servers.mail import maildircache
from pytest_clawmark.servers.mail.store import MailStore
from pytest_clawmark.world import Person, World

CLOCK = datetime(2025, 4, 7, 9, 0, tzinfo=timezone.utc)
USER = Person("Chen Fang", "chen.fang@hospital.internal")
NURSE = Person("Li Na", "nurse3@hospital.internal")
OUTSIDER = "auditor@regulator.example"


def make_world(root: Path) -> World:
    world = World({"mail"}, root, user=USER, people=[NURSE])
    world.clock = CLOCK
    return world.start()


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = make_world(tmp_path / "world")
    yield w
    w.stop()


def client(world: World) -> IMAPClient:
    env = world.agent_env()
    imap = IMAPClient(env["CLAWMARK_IMAP_HOST"], port=int(env["CLAWMARK_IMAP_PORT"]), ssl=False, timeout=10)
    imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
    return imap


def seed(world: World) -> None:
    for i in range(5):
        world.mail.deliver(NURSE, [USER, OUTSIDER], f"Round {i}", f"Bed {i}")
    world.mail.deliver(USER, [NURSE], "From me", "Filed in Sent too")


def state(world: World) -> list[tuple[str, str, int, str, tuple[str, ...]]]:
    rows = []
    for who, folder in ((USER, "INBOX"), (USER, "Sent"), (NURSE, "INBOX")):
        rows += [(who.email, folder, m.uid, m.subject, m.flags) for m in world.mail.inbox(who, folder)]
    rows += [("outside", "INBOX", m.uid, m.subject, m.flags) for m in world.mail.outside()]
    return rows


def test_a_batch_stores_what_one_by_one_delivery_stores(tmp_path: Path) -> None:
    one, many = make_world(tmp_path / "one"), make_world(tmp_path / "many")
    try:
        seed(one)
        with many.batched():
            seed(many)
        assert state(one) == state(many)
        assert [m.subject for m in many.mail.outside()] == [f"Round {i}" for i in range(5)]
        assert [m.uid for m in many.mail.inbox()] == [1, 2, 3, 4, 5]
    finally:
        one.stop()
        many.stop()


def test_reads_inside_a_batch_see_the_queued_mail(world: World) -> None:
    with world.batched():
        world.mail.deliver(NURSE, USER, "Queued", "x")
        assert [m.subject for m in world.mail.inbox()] == ["Queued"]  # a read flushes
        world.mail.deliver(NURSE, USER, "Queued too", "y")
    assert [m.subject for m in world.mail.inbox()] == ["Queued", "Queued too"]


def test_outside_a_batch_a_connected_client_sees_a_delivery_at_once(world: World) -> None:
    imap = client(world)
    try:
        imap.select_folder("INBOX")
        world.mail.deliver(NURSE, USER, "Now", "x")
        imap.noop()
        assert len(imap.search("ALL")) == 1
    finally:
        imap.logout()


def test_the_agent_sees_a_batch_once_its_turn_starts(world: World) -> None:
    with world.batched():
        seed(world)
    world.before_agent()
    env = world.agent_env()
    with imaplib.IMAP4(env["CLAWMARK_IMAP_HOST"], int(env["CLAWMARK_IMAP_PORT"])) as imap:
        imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
        assert imap.select("INBOX", readonly=True) == ("OK", [b"5"])
        _, found = imap.uid("SEARCH", None, "SUBJECT", '"Round 3"')
        assert found == [b"4"]


def test_another_writer_of_the_same_files_is_seen_at_once(world: World, tmp_path: Path) -> None:
    """The docker backend's harness and container both write the maildir: the uid-list cache
    is keyed by the file's identity, so a list replaced by someone else is read again."""
    seed(world)
    imap = client(world)
    try:
        imap.select_folder("INBOX", readonly=True)
        assert len(imap.search("ALL")) == 5
        other = MailStore(world.mail.ctx.root / "maildir", {USER.email: "x"})  # a second writer
        asyncio.run(other.append(USER.email, "INBOX", b"Subject: Elsewhere\r\n\r\nhi\r\n", when=CLOCK))
        imap.noop()
        assert imap.search(["SUBJECT", "Elsewhere"]) == [6]
    finally:
        imap.logout()


def test_flags_and_expunges_of_another_session_reach_a_reused_session(world: World) -> None:
    seed(world)
    reader, writer = client(world), client(world)
    try:
        reader.select_folder("INBOX")
        assert reader.search(["SUBJECT", "Round 2"]) == [3]
        writer.select_folder("INBOX")
        writer.add_flags([3], [b"\\Flagged"])
        writer.add_flags([4], [b"\\Deleted"])
        writer.expunge()
        reader.noop()
        assert reader.search(["FLAGGED"]) == [3]
        assert reader.search(["SUBJECT", "Round 3"]) == []
        assert b"\\Flagged" in reader.get_flags([3])[3]
        fetched = reader.fetch([3], ["BODY.PEEK[]"])[3][b"BODY[]"]
        assert b"Round 2" in fetched
    finally:
        reader.logout()
        writer.logout()


def test_the_parse_cache_is_bounded_in_bytes() -> None:
    cache = maildircache.ContentCache(max_bytes=800)
    from pymap.mime import MessageContent

    parsed = MessageContent.parse(b"Subject: x\r\n\r\n" + b"y" * 80)
    for i in range(20):
        cache.put(f"k{i}", 94, parsed)
    assert cache.bytes <= 800
    assert cache.get("k19") is parsed and cache.get("k0") is None
    cache.put("huge", 10_000, parsed)  # larger than an eighth of the cache: not kept
    assert cache.get("huge") is None


def test_the_tasks_own_mail_does_not_use_the_agents_quota(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A task may seed a realistic mailbox of thousands; the quota bounds what the agent adds."""
    import smtplib
    from email.message import EmailMessage

    from pytest_clawmark.servers.mail import limits

    monkeypatch.setattr(limits, "STORE_QUOTA_MESSAGES", 6)  # a send to one colleague stores 3 copies
    with world.batched():
        for i in range(10):
            world.mail.deliver(NURSE, USER, f"Seeded {i}", "x")
    world.mail.deliver(NURSE, USER, "Seeded outside a batch", "x")
    env = world.agent_env()

    def send(subject: str) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = USER.email, NURSE.email, subject
        msg.set_content("hello")
        with smtplib.SMTP(env["CLAWMARK_SMTP_HOST"], int(env["CLAWMARK_SMTP_PORT"]), timeout=10) as smtp:
            smtp.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
            smtp.send_message(msg)

    send("First")  # 3 copies of the agent's: within 6
    send("Second")  # 6
    with pytest.raises(smtplib.SMTPDataError) as refused:
        send("Third")  # 9 > 6: the agent's own additions are bounded
    assert refused.value.smtp_code == 552
