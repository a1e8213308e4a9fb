"""IMAP IDLE with imapclient, and the one-write-per-response property that makes it work.

pymap's maildir backend notices new mail by polling about once a second while a client idles,
so these tests wait for responses with a generous timeout; they assert what arrives, never how
fast.
"""

from __future__ import annotations

import asyncio
import smtplib
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from imapclient import IMAPClient

from pytest_clawmark.world import Person, World

USER = Person("Chen Fang", "chen.fang@hospital.internal")
NURSE = Person("Li Na", "nurse3@hospital.internal")
WAIT = 20.0  # an upper bound for a failure, not a timing expectation


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = World({"mail"}, tmp_path / "world", user=USER, people=[NURSE])
    w.clock = datetime(2025, 4, 7, 9, 0, tzinfo=timezone.utc)
    w.start()
    yield w
    w.stop()


@pytest.fixture
def imap(world: World) -> Iterator[IMAPClient]:
    env = world.agent_env()
    client = IMAPClient("127.0.0.1", port=int(env["CLAWMARK_IMAP_PORT"]), ssl=False, timeout=WAIT)
    client.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
    client.select_folder("INBOX")
    yield client
    client.logout()


def wait_for_exists(client: IMAPClient, count: int) -> list[Any]:
    """idle_check() until an ``EXISTS`` of at least ``count`` arrives (or WAIT runs out)."""
    responses: list[Any] = []
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        responses += client.idle_check(timeout=max(0.1, deadline - time.monotonic()))
        if any(r[1:2] == (b"EXISTS",) and r[0] >= count for r in responses):
            return responses
    raise AssertionError(f"no EXISTS >= {count} during IDLE; got {responses}")


def test_idle_sees_admin_delivery(world: World, imap: IMAPClient) -> None:
    imap.idle()
    world.mail.deliver(NURSE, USER, "Urgent: INR 4.2", "Please review")
    try:
        wait_for_exists(imap, 1)
    finally:
        imap.idle_done()
    (uid,) = imap.search(["ALL"])
    assert imap.fetch([uid], ["ENVELOPE"])[uid][b"ENVELOPE"].subject == b"Urgent: INR 4.2"


def test_idle_sees_smtp_delivery(world: World, imap: IMAPClient) -> None:
    imap.idle()
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = NURSE.email, USER.email, "Re: rounds"
    msg.set_content("Done.")
    env = world.agent_env()
    with smtplib.SMTP("127.0.0.1", int(env["CLAWMARK_SMTP_PORT"]), timeout=WAIT) as smtp:
        smtp.login(NURSE.email, world.credentials.people_password)
        smtp.send_message(msg)
    try:
        wait_for_exists(imap, 1)
    finally:
        imap.idle_done()
    assert len(imap.search(["ALL"])) == 1


def test_repeated_idle_in_one_long_session(world: World, imap: IMAPClient) -> None:
    for n in (1, 2, 3):
        imap.idle()
        world.mail.deliver(NURSE, USER, f"Update {n}", "x")
        try:
            wait_for_exists(imap, n)
        finally:
            imap.idle_done()
        imap.noop()
    assert len(imap.search(["ALL"])) == 3


def test_each_imap_response_is_one_write(world: World, imap: IMAPClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Observe the server's writes: a multi-message FETCH and its tagged OK leave in one piece."""
    for n in range(3):
        world.mail.deliver(NURSE, USER, f"Message {n}", "body " * 50)
    imap.noop()
    port = int(world.agent_env()["CLAWMARK_IMAP_PORT"])
    chunks: list[bytes] = []
    original = asyncio.StreamWriter.write

    def spy(self: asyncio.StreamWriter, data: bytes) -> None:
        if self.get_extra_info("sockname")[1] == port:
            chunks.append(bytes(data))
        original(self, data)

    monkeypatch.setattr(asyncio.StreamWriter, "write", spy)
    result = imap.fetch(imap.search(["ALL"]), ["FLAGS", "ENVELOPE", "BODY.PEEK[]"])
    assert len(result) == 3
    assert all(c.endswith(b"\r\n") for c in chunks)
    (whole,) = [c for c in chunks if b" FETCH " in c]
    assert whole.count(b" FETCH (") == 3 and b"OK" in whole.rsplit(b"\r\n", 2)[-2]
