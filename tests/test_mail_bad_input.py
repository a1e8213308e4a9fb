"""Bad input to the mail servers: protocol errors come back, the servers keep running, and the
mail store is not corrupted."""

from __future__ import annotations

import base64
import json
import smtplib
import socket
from collections.abc import Iterator
from datetime import datetime, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_clawmark.world import Person, World

USER = Person("Chen Fang", "chen.fang@hospital.internal")
NURSE = Person("Li Na", "nurse3@hospital.internal")
TIMEOUT = 10.0


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    w = World({"mail"}, tmp_path_factory.mktemp("bad-input") / "world", user=USER, people=[NURSE])
    w.clock = datetime(2025, 4, 7, 9, 0, tzinfo=timezone.utc)
    w.start()
    w.mail.deliver(NURSE, USER, "Baseline", "must survive every bad input")
    yield w
    w.stop()


def state(world: World) -> str:
    """The whole store minus what the bad-input tests are allowed to add (catch-all, sends)."""
    snap = world.mail.snapshot()
    return json.dumps({k: snap[k] for k in ("accounts",)}, sort_keys=True)


class Line:
    """A raw line-oriented client: what a broken or hostile client can send."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.file = self.sock.makefile("rb")

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def line(self) -> bytes:
        return self.file.readline()

    def close(self) -> None:
        self.file.close()
        self.sock.close()


# -- SMTP -----------------------------------------------------------------------------------
def smtp_session(world: World) -> Line:
    port = int(world.agent_env()["CLAWMARK_SMTP_PORT"])
    c = Line(port)
    assert c.line().startswith(b"220")
    return c


def smtp_reply(c: Line) -> int:
    """Read a (possibly multi-line) reply; return its code."""
    while True:
        line = c.line()
        if not line:
            return 0
        if line[3:4] != b"-":
            return int(line[:3])


@pytest.mark.parametrize(
    "dialogue, expected",
    [
        ([b"FOO bar"], [500]),
        ([b"MAIL FROM:<x@y>"], [503]),  # before EHLO
        ([b"EHLO t", b"RCPT TO:<a@b>"], [250, 503]),
        ([b"EHLO t", b"DATA"], [250, 503]),
        ([b"EHLO t", b"AUTH PLAIN !!!notbase64"], [250, 501]),
        ([b"EHLO t", b"AUTH XOAUTH9 abc"], [250, 504]),
        ([b"EHLO t", b"AUTH PLAIN " + base64.b64encode(b"\0" + USER.email.encode() + b"\0wrong")], [250, 535]),
        ([b"EHLO t", b"MAIL FROM:<chen.fang@hospital.internal>"], [250, 530]),  # no AUTH
        ([b"EHLO t", b"MAIL FROM:<<<broken"], [250, 553]),
        ([b"EHLO t", b"X" * 600], [250, 500]),  # over the command length limit
        ([b"HELO"], [501]),
    ],
)
def test_smtp_protocol_errors(world: World, dialogue: list[bytes], expected: list[int]) -> None:
    before = state(world)
    c = smtp_session(world)
    try:
        codes = []
        for line in dialogue:
            c.send(line + b"\r\n")
            codes.append(smtp_reply(c))
        assert codes == expected
    finally:
        c.close()
    assert state(world) == before


def authed_smtp(world: World) -> smtplib.SMTP:
    env = world.agent_env()
    client = smtplib.SMTP("127.0.0.1", int(env["CLAWMARK_SMTP_PORT"]), timeout=TIMEOUT)
    client.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
    return client


MALFORMED = {
    "no headers at all": b"just a body line\r\n",
    "broken multipart": b"Subject: broken mp\r\nContent-Type: multipart/mixed; boundary=XYZ\r\n\r\n--XYZ\r\nContent-Type: text/plain\r\n\r\nhalf",
    "bad base64 part": b"Subject: bad b64\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!%%%\r\n",
    "8bit garbage": b"Subject: \xff\xfe latin-1 \xe9\r\n\r\n\x00\x01\x02\xff binary body\r\n",
    "header without colon": b"This is not a header\r\nSubject: after junk\r\n\r\nbody\r\n",
    "unknown charset": b"Subject: =?x-unknown?q?abc?=\r\nContent-Type: text/plain; charset=x-unknown\r\n\r\nabc\r\n",
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_mime_is_accepted_and_readable(world: World, name: str) -> None:
    before = len(world.mail.sent())
    with authed_smtp(world) as smtp:
        refused = smtp.sendmail(USER.email, ["stranger@elsewhere.example"], MALFORMED[name])
    assert refused == {}
    sent = world.mail.sent()
    assert len(sent) == before + 1
    assert sent[-1].envelope_to == ("stranger@elsewhere.example",)
    assert sent[-1].message_id and sent[-1].date is not None  # added by the server
    world.mail.snapshot()  # must not raise on any stored message


def test_unknown_recipients_go_to_the_catch_all(world: World) -> None:
    with authed_smtp(world) as smtp:
        smtp.sendmail(
            USER.email, ["ghost@hospital.internal", "Nurse3@Hospital.Internal"], b"Subject: who?\r\n\r\nhi\r\n"
        )
    assert world.mail.outside(to="ghost@hospital.internal")[-1].subject == "who?"
    assert world.mail.inbox(NURSE)[-1].subject == "who?"  # addresses match case-insensitively


def test_oversized_line_in_data_is_refused_and_nothing_stored(world: World) -> None:
    before = (state(world), len(world.mail.sent()))
    with authed_smtp(world) as smtp:
        with pytest.raises(smtplib.SMTPDataError) as err:
            smtp.sendmail(USER.email, [NURSE.email], b"Subject: long\r\n\r\n" + b"a" * 5000 + b"\r\n")
    assert err.value.smtp_code == 500
    assert (state(world), len(world.mail.sent())) == before


def test_too_many_recipients(world: World) -> None:
    with authed_smtp(world) as smtp:
        smtp.mail(USER.email)
        codes = [smtp.rcpt(f"r{i}@x.example")[0] for i in range(101)]
        smtp.rset()
    assert codes[:100] == [250] * 100 and codes[100] == 452


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(min_size=0, max_size=300).filter(lambda b: b"\n" not in b and b"\r" not in b))
def test_smtp_fuzz_lines(world: World, line: bytes) -> None:
    c = smtp_session(world)
    try:
        c.send(b"EHLO fuzz\r\n")
        assert smtp_reply(c) == 250
        c.send(line + b"\r\n")
        code = smtp_reply(c)
        assert code == 0 or 200 <= code < 600
    finally:
        c.close()
    smtp_session(world).close()  # still serving: a new session gets its greeting


# -- IMAP -----------------------------------------------------------------------------------
def imap_session(world: World, select: bool = True) -> Line:
    env = world.agent_env()
    c = Line(int(env["CLAWMARK_IMAP_PORT"]))
    assert c.line().startswith(b"* OK")
    if select:
        c.send(f'L LOGIN "{env["CLAWMARK_MAIL_USER"]}" "{env["CLAWMARK_MAIL_PASSWORD"]}"\r\n'.encode())
        assert imap_tagged(c, b"L").startswith(b"L OK")
        c.send(b"S SELECT INBOX\r\n")
        assert imap_tagged(c, b"S").startswith(b"S OK")
    return c


def imap_tagged(c: Line, tag: bytes) -> bytes:
    """Read until the tagged reply, a continuation request, a BYE or EOF; return that line."""
    while True:
        line = c.line()
        if not line or line.startswith(tag + b" ") or line.startswith(b"+") or line.startswith(b"* BYE"):
            return line


@pytest.mark.parametrize(
    "command, expected",
    [
        (b"A1 FROBNICATE", b"A1 BAD"),
        (b"A1 SELECT", b"A1 BAD"),
        (b"A1 SELECT NoSuchFolder", b"A1 NO"),
        (b"A1 FETCH abc (FLAGS)", b"A1 BAD"),
        (b"A1 FETCH 1 (NOSUCHATTR)", b"A1 BAD"),
        (b"A1 FETCH 99 (FLAGS)", b"A1 OK"),  # nothing there: empty result, not an error
        (b"A1 STORE 1 +FLAGS (\\Bogus\\)", b"A1 BAD"),
        (b"A1 UID COPY 1 Nope/../../etc", b"A1 NO"),
        (b"A1 SEARCH CHARSET X-NONE FOO", b"A1 BAD"),
        (b"A1 LOGIN again please", b"A1 BAD"),  # already authenticated
        (b"A1 DELETE INBOX", b"A1 NO"),
        (b"\x00\xff\xfe garbage", b"\x00"),  # no usable tag: still a BAD line back
    ],
)
def test_imap_protocol_errors(world: World, command: bytes, expected: bytes) -> None:
    before = state(world)
    c = imap_session(world)
    try:
        c.send(command + b"\r\n")
        tag = command.split(b" ", 1)[0]
        reply = imap_tagged(c, tag) if expected != b"\x00" else c.line()
        if expected == b"\x00":
            assert b"BAD" in reply
        else:
            assert reply.startswith(expected), reply
        c.send(b"N NOOP\r\n")
        assert imap_tagged(c, b"N").startswith(b"N OK")  # the session goes on
    finally:
        c.close()
    assert state(world) == before


@pytest.mark.parametrize(
    "command, expected",
    [
        (b'M CREATE "../../escape"', b"M NO [CANNOT]"),
        (b'M CREATE "/abs"', b"M NO [CANNOT]"),
        (b'M CREATE "Q1.2025"', b"M NO [CANNOT]"),
        (b'M CREATE "' + b"x" * 300 + b'"', b"M NO [CANNOT]"),
        (b"M CREATE Sent", b"M NO [ALREADYEXISTS]"),
        (b"M RENAME NoSuch Other", b"M NO [NONEXISTENT]"),
        (b"M RENAME Drafts Sent", b"M NO [ALREADYEXISTS]"),
        (b"M DELETE NoSuch", b"M NO [NONEXISTENT]"),
        (b'M DELETE ""', b"M NO [CANNOT]"),  # the account root in maildir++: would wipe every folder
        (b'M RENAME "" Elsewhere', b"M NO [CANNOT]"),
        (b'M SELECT "Sent.x"', b"M NO [CANNOT]"),  # '.' would alias a nested folder
        (b"M COPY 1 NoSuch", b"M NO [TRYCREATE]"),
        (b"M MOVE 1 INBOX", b"M NO [CANNOT]"),  # pymap deadlocks on its own mailbox lock
        (b"M CREATE {3+}\r\na\x00b", b"M NO [CANNOT]"),  # control characters in a name
        # '&' without '-': pymap's decoder would spin the whole world loop forever
        (b'M STATUS "&z" (MESSAGES)', b"M BAD"),
        (b'M SELECT "Drafts&"', b"M BAD"),
        (b'M LIST "" "&AOk"', b"M BAD"),
    ],
)
def test_imap_mailbox_management_errors(world: World, command: bytes, expected: bytes) -> None:
    """pymap's maildir backend would end these connections with BYE [SERVERBUG]; we answer NO."""
    before = state(world)
    c = imap_session(world)
    try:
        c.send(command + b"\r\n")
        assert imap_tagged(c, b"M").startswith(expected)
        c.send(b"N NOOP\r\n")
        assert imap_tagged(c, b"N").startswith(b"N OK")
    finally:
        c.close()
    assert state(world) == before
    assert not (world.root / "escape").exists()


def test_imap_nested_create_copy_keeps_content(world: World) -> None:
    c = imap_session(world)
    try:
        c.send(b"C CREATE Archive/2025/Q1\r\n")
        assert imap_tagged(c, b"C").startswith(b"C OK")
        c.send(b"P COPY 1 Archive/2025/Q1\r\n")
        assert imap_tagged(c, b"P").startswith(b"P OK [COPYUID")
    finally:
        c.close()
    assert {"Archive", "Archive/2025", "Archive/2025/Q1"} <= set(world.mail.folders())
    (copy,) = world.mail.inbox(USER, folder="Archive/2025/Q1")
    assert copy.raw == world.mail.find(subject="Baseline", mailbox=USER).raw


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([b"CREATE", b"RENAME Fuzzsrc", b"DELETE", b"SELECT", b"STATUS"]), st.text(max_size=80))
def test_imap_fuzz_mailbox_names(world: World, command: bytes, name: str) -> None:
    """Any name, sent as a literal: an answer (OK/NO/BAD), never a dropped connection."""
    data = name.encode("utf-8")
    c = imap_session(world)
    try:
        if command.startswith(b"RENAME"):
            c.send(b"S CREATE Fuzzsrc\r\n")
            assert imap_tagged(c, b"S").startswith((b"S OK", b"S NO"))
        c.send(
            b"Z "
            + command
            + b" {%d+}\r\n" % len(data)
            + data
            + (b" (MESSAGES)" if command == b"STATUS" else b"")
            + b"\r\n"
        )
        reply = imap_tagged(c, b"Z")
        assert reply.startswith((b"Z OK", b"Z NO", b"Z BAD")), reply
        c.send(b"N NOOP\r\n")
        assert imap_tagged(c, b"N").startswith(b"N OK")
    finally:
        c.close()


def test_imap_commands_before_login(world: World) -> None:
    c = imap_session(world, select=False)
    try:
        for cmd in (b"A SELECT INBOX", b"B FETCH 1 (FLAGS)", b'C LIST "" *'):
            c.send(cmd + b"\r\n")
            assert imap_tagged(c, cmd[:1]).startswith(cmd[:1] + b" BAD")
    finally:
        c.close()


def test_imap_too_many_bad_commands_disconnects_cleanly(world: World) -> None:
    c = imap_session(world)
    disconnected = False
    try:
        for i in range(10):
            try:
                c.send(b"X%d NONSENSE\r\n" % i)
                line = imap_tagged(c, b"X%d" % i)
            except ConnectionError:
                line = b""
            if line.startswith(b"* BYE") or not line:
                disconnected = True
                break
            assert line.startswith(b"X%d BAD" % i)
    finally:
        c.close()
    assert disconnected  # pymap's bad-command limit, answered with BYE, not a crash
    imap_session(world).close()  # a new session works


COMMANDS = st.sampled_from(
    [
        b"FETCH",
        b"UID FETCH",
        b"STORE",
        b"SEARCH",
        b"COPY",
        b"SELECT",
        b"LIST",
        b"STATUS",
        b"EXAMINE",
        b"CREATE",
        b"RENAME",
        b"XYZ",
        b"",
    ]
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    COMMANDS,
    st.binary(max_size=200).filter(lambda b: b"\n" not in b and b"\r" not in b and not b.rstrip().endswith(b"}")),
)
def test_imap_fuzz_lines(world: World, command: bytes, args: bytes) -> None:
    baseline = world.mail.find(subject="Baseline", mailbox=USER)
    c = imap_session(world)
    try:
        c.send(b"F " + command + b" " + args + b"\r\n")
        reply = imap_tagged(c, b"F")
        assert reply == b"" or reply.startswith((b"F ", b"+", b"* BYE"))
    finally:
        c.close()
    after = world.mail.find(subject="Baseline", mailbox=USER)
    assert after.raw == baseline.raw  # content never changes (flags may: a fuzzed STORE is legal)
