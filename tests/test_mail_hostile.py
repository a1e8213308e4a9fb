"""Hostile input to the mail servers (issue 9): each observation of the issue is a regression test.

Limits live in src/pytest_clawmark/servers/mail/limits.py. Every test talks the real protocols
(smtplib, raw IMAP lines: the point is what a hostile client can send) to a real world, and checks
that the answer is the protocol's own error, that nothing was stored, and that the servers keep
answering.
"""

from __future__ import annotations

import json
import re
import smtplib
import socket
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from fuzzing import REQUEST_LIMIT_S
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_clawmark.servers.mail import limits, screening
from pytest_clawmark.servers.mail.listpattern import GlobPattern
from pytest_clawmark.world import Person, World

USER = Person("Chen Fang", "chen.fang@hospital.internal")
NURSE = Person("Li Na", "nurse3@hospital.internal")
OUTSIDER = "auditor@regulator.example"
CLOCK = datetime(2025, 4, 7, 9, 0, tzinfo=timezone.utc)


def make_world(root: Path) -> World:
    world = World({"mail"}, root, user=USER, people=[NURSE])
    world.clock = CLOCK
    world.start()
    world.mail.deliver(NURSE, USER, "Baseline", "must survive every hostile input")
    return world


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    w = make_world(tmp_path_factory.mktemp("hostile") / "world")
    yield w
    w.stop()


def state(world: World) -> str:
    return json.dumps(world.mail.snapshot(), sort_keys=True)


# -- clients ---------------------------------------------------------------------------------------
def smtp(world: World) -> smtplib.SMTP:
    env = world.agent_env()
    client = smtplib.SMTP("127.0.0.1", int(env["CLAWMARK_SMTP_PORT"]), timeout=REQUEST_LIMIT_S)
    client.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
    return client


def send(world: World, raw: bytes, to: tuple[str, ...] = (OUTSIDER,)) -> tuple[int, str]:
    """The SMTP answer to DATA (250 when accepted)."""
    with smtp(world) as client:
        try:
            client.sendmail(USER.email, list(to), raw)
        except smtplib.SMTPResponseException as exc:
            return exc.smtp_code, exc.smtp_error.decode("utf-8", "replace")
    return 250, ""


class Imap:
    """A raw IMAP session: what a hostile client can send, byte for byte."""

    def __init__(self, world: World, *, select: bool = True) -> None:
        env = world.agent_env()
        self.sock = socket.create_connection(("127.0.0.1", int(env["CLAWMARK_IMAP_PORT"])), timeout=REQUEST_LIMIT_S)
        self.file = self.sock.makefile("rb")
        assert self.file.readline().startswith(b"* OK")
        assert self.run(
            f'LOGIN "{env["CLAWMARK_MAIL_USER"]}" "{env["CLAWMARK_MAIL_PASSWORD"]}"'.encode(), b"L"
        ).startswith(b"L OK")
        if select:
            assert self.run(b"SELECT INBOX", b"S").startswith(b"S OK")

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def tagged(self, tag: bytes) -> bytes:
        """Lines up to the tagged answer (or a continuation request); returns that line."""
        while True:
            line = self.file.readline()
            if not line or line.startswith(tag + b" ") or line.startswith(b"+ ") or line.startswith(b"* BYE"):
                return line

    def untagged_and_tagged(self, tag: bytes) -> list[bytes]:
        out = []
        while True:
            line = self.file.readline()
            out.append(line)
            if not line or line.startswith(tag + b" ") or line.startswith(b"* BYE"):
                return out

    def run(self, command: bytes, tag: bytes = b"T") -> bytes:
        self.send(tag + b" " + command + b"\r\n")
        return self.tagged(tag)

    def still_usable(self) -> bool:
        return self.run(b"NOOP", b"N").startswith(b"N OK")

    def close(self) -> None:
        self.file.close()
        self.sock.close()


@pytest.fixture
def imap(world: World) -> Iterator[Imap]:
    client = Imap(world)
    yield client
    client.close()


# -- hostile messages ------------------------------------------------------------------------------
HEAD = f"From: {USER.email}\r\nTo: {OUTSIDER}\r\nSubject: hostile\r\n".encode()


def nested(depth: int) -> bytes:
    """``depth`` multipart levels below the top (the whole message is ``depth + 1`` deep)."""
    body = b"innermost\r\n"
    for level in range(depth, 0, -1):
        b = b"b%d" % level
        body = (
            b"Content-Type: multipart/mixed; boundary="
            + b
            + b"\r\n\r\n--"
            + b
            + b"\r\n"
            + body
            + b"\r\n--"
            + b
            + b"--\r\n"
        )
    return HEAD + body


def many_headers(n: int) -> bytes:
    return HEAD + b"".join(b"X-H%d: v\r\n" % i for i in range(n)) + b"\r\nbody\r\n"


def many_parts(n: int) -> bytes:
    parts = b"".join(b"--P\r\nContent-Type: text/plain\r\n\r\npart %d\r\n" % i for i in range(n))
    return HEAD + b"Content-Type: multipart/mixed; boundary=P\r\n\r\n" + parts + b"--P--\r\n"


# -- observation 1: structure limits at SMTP DATA, parsing off the loop and once -------------------
def test_300_nested_multiparts_are_refused_at_data(world: World) -> None:
    """Was: accepted by DATA, then ``451`` (RecursionError in pymap's maildir round trip); on other
    builds stored, and every checker read re-parsed it for seconds."""
    before = state(world)
    code, text = send(world, nested(300))
    assert code == 554 and text.startswith("5.6.0") and "nested more than" in text
    assert state(world) == before


def test_20000_header_fields_are_refused_at_data(world: World) -> None:
    """Was: accepted (250), blocking the loop during DATA and every later read for seconds."""
    before = state(world)
    code, text = send(world, many_headers(20_000))
    assert (code, text[:5]) == (554, "5.6.0") and "header fields" in text
    assert state(world) == before


@pytest.mark.parametrize(
    "raw, problem",
    [
        (nested(limits.MAX_MIME_DEPTH), "nested more than"),
        (many_parts(limits.MAX_MIME_PARTS), "MIME parts"),
        (many_headers(limits.MAX_HEADER_FIELDS), "header fields"),
        (
            HEAD + b"X-Big: " + b"a" * 900 + b"".join(b"\r\n " + b"a" * 900 for _ in range(300)) + b"\r\n\r\nbody\r\n",
            "header section",
        ),
    ],
    ids=["depth", "parts", "fields", "header-bytes"],
)
def test_one_over_each_structure_limit_is_refused(world: World, raw: bytes, problem: str) -> None:
    before = state(world)
    code, text = send(world, raw)
    assert code in (552, 554) and problem in text, text
    assert state(world) == before


def test_a_message_at_every_structure_limit_is_accepted_and_readable(world: World) -> None:
    depth = nested(limits.MAX_MIME_DEPTH - 1).replace(b"Subject: hostile", b"Subject: at the limits")
    assert send(world, depth)[0] == 250
    fields = many_headers(limits.MAX_HEADER_FIELDS - 5).replace(b"Subject: hostile", b"Subject: many fields")
    assert send(world, fields)[0] == 250
    assert world.mail.find(subject="at the limits").text == "innermost\n"
    assert len(world.mail.find(subject="many fields").headers) > limits.MAX_HEADER_FIELDS - 5


def test_too_many_lines_are_refused_while_reading_data(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """aiosmtpd kept every DATA line as its own object (10 MiB of empty lines: +860 MB); the
    bounded reader stops holding data at the first line over the limit."""
    monkeypatch.setattr(limits, "MAX_MESSAGE_LINES", 1_000)
    before = state(world)
    code, text = send(world, HEAD + b"\r\n" + b"\r\n" * 2_000)
    assert code == 552 and text.startswith("5.3.4") and "lines" in text
    assert state(world) == before
    assert world.mail.audit()[-1].status == "552"  # refused before handle_DATA, still audited


def test_screening_runs_in_a_worker_thread(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsing a submission must not run on the world's event loop (the admin plane shares it)."""
    threads: list[str] = []
    original = screening.screen

    def spy(raw: bytes) -> screening.Screened:
        threads.append(threading.current_thread().name)
        return original(raw)

    monkeypatch.setattr(screening, "screen", spy)
    assert send(world, HEAD + b"\r\nwatched\r\n")[0] == 250
    imap = Imap(world)
    try:
        message = HEAD + b"\r\nappended\r\n"
        imap.send(b"A APPEND INBOX {%d+}\r\n" % len(message) + message + b"\r\n")
        assert imap.tagged(b"A").startswith(b"A OK")
    finally:
        imap.close()
    assert len(threads) == 2 and all(name.startswith("clawmark-mail-parse") for name in threads), threads


def test_checker_reads_parse_each_message_once(world: World) -> None:
    """Every checker read and snapshot re-parsed every message (minutes for a full store)."""
    world.mail.outside()
    world.mail.snapshot()
    parses = world.mail._parsed.parses
    for _ in range(3):
        world.mail.outside()
        world.mail.sent()
        world.mail.snapshot()
    assert world.mail._parsed.parses == parses


def test_message_bytes_are_stored_verbatim(world: World, imap: Imap) -> None:
    """pymap's maildir round trip rewrote every message (CRLF to LF, refolded headers)."""
    message = b"From: x@y.example\r\nSubject: verbatim\r\nX-Odd:   spaced\r\n\tfolded\r\n\r\nline one\r\nline two\r\n"
    imap.send(b"A APPEND INBOX {%d+}\r\n" % len(message) + message + b"\r\n")
    uid = int(re.search(rb"APPENDUID \d+ (\d+)", imap.tagged(b"A")).group(1))  # type: ignore[union-attr]
    imap.send(b"F UID FETCH %d (BODY.PEEK[])\r\n" % uid)
    lines = imap.untagged_and_tagged(b"F")
    assert lines[-1].startswith(b"F OK")
    assert b"".join(lines[1:-1]).startswith(message)
    stored = world.mail.find(subject="verbatim", mailbox=USER)
    assert stored.raw == message


def test_appended_message_without_date_gets_the_in_universe_time(world: World, imap: Imap) -> None:
    message = b"Subject: undated\r\n\r\nx\r\n"
    imap.send(b"A APPEND INBOX {%d+}\r\n" % len(message) + message + b"\r\n")
    assert imap.tagged(b"A").startswith(b"A OK")
    assert world.mail.find(subject="undated", mailbox=USER).internal_date == world.now()


# -- observation 2: recursive IMAP grammar and command sizes ---------------------------------------
def test_search_with_3000_nested_parentheses_answers_bad(imap: Imap) -> None:
    """Was: ``* BYE [SERVERBUG]`` (RecursionError in pymap's parser) and a dropped connection."""
    reply = imap.run(b"SEARCH " + b"(" * 3000 + b"ALL" + b")" * 3000, b"Q")
    assert reply.startswith(b"Q BAD") and b"nested" in reply
    assert imap.still_usable()


def test_search_nesting_at_the_limit_is_answered(imap: Imap) -> None:
    depth = limits.MAX_PAREN_DEPTH
    assert imap.run(b"SEARCH " + b"(" * depth + b"ALL" + b")" * depth, b"Q").startswith(b"Q OK")


@pytest.mark.parametrize(
    "command",
    [
        b"SEARCH " + b"OR " * 3000 + b"ALL " * 3001,  # recursion without parentheses
        b"SEARCH " + b" ".join(b"SUBJECT s%d" % i for i in range(limits.MAX_SEARCH_KEYS + 1)),
        b"SEARCH "
        + b"OR " * limits.MAX_SEARCH_KEYS
        + b" ".join(b"LARGER %d" % i for i in range(limits.MAX_SEARCH_KEYS + 1)),
        b"FETCH 1 (" + b" ".join([b"FLAGS"] * (limits.MAX_FETCH_ITEMS + 1)) + b")",
        b"FETCH 1 (" + b" ".join(b"BODY.PEEK[%d]" % i for i in range(1, limits.MAX_FETCH_SECTIONS + 2)) + b")",
        b"FETCH 1 " + b"(" * 50 + b"FLAGS" + b")" * 50,
    ],
    ids=["or-chain", "keys", "or-keys", "fetch-items", "fetch-sections", "fetch-nesting"],
)
def test_recursive_or_costly_commands_answer_bad(imap: Imap, command: bytes) -> None:
    assert imap.run(command, b"Q").startswith(b"Q BAD")
    assert imap.still_usable()


def test_command_line_over_the_limit_is_read_to_its_end_and_refused(imap: Imap) -> None:
    """Was: ``BYE [SERVERBUG]`` (the stream reader's limit raised inside pymap)."""
    imap.send(b"Q SEARCH " + b"x" * (limits.MAX_COMMAND_LINE_BYTES + 10) + b"\r\n")
    assert imap.tagged(b"Q").startswith(b"Q BAD [TOOBIG]")
    assert imap.still_usable()


def test_non_synchronizing_literal_over_the_budget_is_dropped(imap: Imap) -> None:
    """Was: read into memory whatever its announced size, before any check."""
    size = limits.MAX_COMMAND_BYTES + 1
    imap.send(b"Q SEARCH TEXT {%d+}\r\n" % size + b"x" * size + b"\r\n")
    assert imap.tagged(b"Q").startswith(b"Q BAD [TOOBIG]")
    assert imap.still_usable()


def test_synchronizing_literal_over_the_limit_gets_bad_instead_of_a_continuation(imap: Imap) -> None:
    imap.send(b"Q APPEND INBOX {%d}\r\n" % (limits.MAX_MESSAGE_BYTES + 1))
    assert imap.tagged(b"Q").startswith(b"Q BAD [TOOBIG]")
    assert imap.still_usable()


def test_too_many_literals_in_one_command(imap: Imap) -> None:
    keys = b" ".join(b"OR SUBJECT {1+}\r\na SUBJECT {1+}\r\nb" for _ in range(limits.MAX_LITERALS_PER_COMMAND))
    imap.send(b"Q SEARCH " + keys + b"\r\n")
    assert imap.tagged(b"Q").startswith(b"Q BAD [TOOBIG]")
    assert imap.still_usable()


def test_overlapping_sequence_ranges_are_answered_once_each(imap: Imap) -> None:
    """pymap enumerated every listed range, overlaps included (5,000 times the folder here)."""
    imap.send(b"P FETCH 1:* (FLAGS)\r\n")
    once = imap.untagged_and_tagged(b"P")
    imap.send(b"Q FETCH " + b",".join([b"1:*"] * 5000) + b" (FLAGS)\r\n")
    repeated = imap.untagged_and_tagged(b"Q")
    assert repeated[-1].startswith(b"Q OK")
    assert repeated[:-1] == once[:-1]


def test_list_pattern_with_many_wildcards_is_answered_quickly(tmp_path: Path) -> None:
    """Was: pymap's backtracking regex (7.5 s for 4 wildcards against one 150-character name, the
    world's loop frozen meanwhile). Own world: the old code would hang it for good."""
    world = make_world(tmp_path / "world")
    client = Imap(world, select=False)
    try:
        assert client.run(b'CREATE "' + b"a" * 150 + b'"', b"C").startswith(b"C OK")
        started = time.monotonic()
        reply = client.run(b'LIST "" "' + b"*a" * 30 + b'*b"', b"Q")
        assert reply.startswith(b"Q OK") and time.monotonic() - started < REQUEST_LIMIT_S
        client.send(b'Q LIST "" "*a%"\r\n')
        listed = [
            line.rsplit(b" ", 1)[-1].strip().strip(b'"')
            for line in client.untagged_and_tagged(b"Q")
            if line.startswith(b"* LIST")
        ]
        assert sorted(listed) == [
            b"Drafts",
            b"Trash",
            b"a" * 150,
        ]  # "Sent" has no "a"; INBOX only matches case-insensitively
    finally:
        client.close()
        world.stop()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab/*%", max_size=8), st.text(alphabet="abAB/", max_size=8))
def test_list_patterns_match_as_pymap_defines_them(pattern: str, name: str) -> None:
    """Same answers as pymap's own (backtracking) matcher on inputs small enough for it."""
    regex, regex_i = _pymap_patterns(pattern)
    assert GlobPattern(pattern, "/").match(name) == bool(regex.match(name))
    assert GlobPattern(pattern, "/", ignore_case=True).match(name) == bool(regex_i.match(name))


def _pymap_patterns(pattern: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """pymap 0.36's own translation (``ListTree._get_pattern`` before we replaced it)."""
    parts = []
    for part in re.split(r"([*%])", pattern):
        parts.append(".*?" if part == "*" else "[^/]*?" if part == "%" else re.escape(part))
    text = "^" + "".join(parts) + "$"
    return re.compile(text), re.compile(text, re.IGNORECASE)


def test_append_over_the_size_limit_answers_toobig(world: World, imap: Imap) -> None:
    imap.send(b"C CAPABILITY\r\n")
    assert any(b"APPENDLIMIT=%d" % limits.MAX_MESSAGE_BYTES in line for line in imap.untagged_and_tagged(b"C"))
    before = state(world)
    size = limits.MAX_MESSAGE_BYTES + 1
    imap.send(b"A APPEND INBOX {%d+}\r\n" % size + b"x" * size + b"\r\n")
    assert imap.tagged(b"A").startswith(b"A BAD [TOOBIG]")
    assert imap.still_usable()
    assert state(world) == before


@pytest.mark.parametrize(
    "raw, problem",
    [
        (nested(300), b"nested"),
        (many_headers(20_000), b"header fields"),
        (HEAD + b"X-Long: " + b"x" * 1000 + b"\r\n\r\nx\r\n", b"header line"),
    ],
    ids=["depth", "fields", "line"],
)
def test_append_of_a_hostile_structure_answers_no_limit(world: World, imap: Imap, raw: bytes, problem: bytes) -> None:
    before = state(world)
    imap.send(b"A APPEND INBOX {%d+}\r\n" % len(raw) + raw + b"\r\n")
    reply = imap.tagged(b"A")
    assert reply.startswith(b"A NO [LIMIT]") and problem in reply
    assert imap.still_usable()
    assert state(world) == before


# -- quota ------------------------------------------------------------------------------------------
def test_smtp_over_the_store_quota_answers_552(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    used = world.mail._store.usage()
    monkeypatch.setattr(limits, "STORE_QUOTA_MESSAGES", used.messages + 2)  # a send stores 3 copies
    before = state(world)
    code, text = send(world, HEAD + b"\r\nover quota\r\n")
    assert code == 552 and text.startswith("5.3.1") and "quota" in text
    assert state(world) == before


@pytest.mark.parametrize("command", [b"APPEND INBOX {10+}\r\nSubject: q\r\n", b"COPY 1 Trash"], ids=["append", "copy"])
def test_imap_over_the_store_quota_answers_overquota(
    world: World, imap: Imap, monkeypatch: pytest.MonkeyPatch, command: bytes
) -> None:
    monkeypatch.setattr(limits, "STORE_QUOTA_BYTES", world.mail._store.usage().bytes)
    before = state(world)
    assert imap.run(command, b"Q").startswith(b"Q NO [OVERQUOTA]")
    assert state(world) == before


def test_create_beyond_the_folder_limit_answers_no_limit(
    world: World, imap: Imap, monkeypatch: pytest.MonkeyPatch
) -> None:
    folders = [f for f in world.mail.folders() if f != "INBOX"]
    monkeypatch.setattr(limits, "MAX_FOLDERS_PER_ACCOUNT", len(folders) + 1)
    assert imap.run(b"CREATE Deep/Er", b"Q").startswith(b"Q NO [LIMIT]")  # two new folders
    assert imap.run(b"CREATE One", b"Q").startswith(b"Q OK")
    assert imap.run(b"CREATE Two", b"Q").startswith(b"Q NO [LIMIT]")
    assert imap.run(b"RENAME One Two/Three", b"Q").startswith(b"Q NO [LIMIT]")  # "Two" would be new
    assert imap.run(b"DELETE One", b"Q").startswith(b"Q OK")


def test_connections_beyond_the_limit_get_a_greeting_that_says_so(tmp_path: Path) -> None:
    """Each open connection holds a coroutine and a file descriptor of the harness's process (and
    each IDLE one re-lists its folder every second): the next one is told, not left hanging."""
    world = make_world(tmp_path / "world")  # its own world: no connection of another test lingers
    env = world.agent_env()
    held: list[socket.socket] = []
    try:
        for _ in range(limits.MAX_IMAP_CONNECTIONS):
            sock = socket.create_connection(("127.0.0.1", int(env["CLAWMARK_IMAP_PORT"])), timeout=REQUEST_LIMIT_S)
            held.append(sock)
            assert sock.makefile("rb").readline().startswith(b"* OK")
        extra = socket.create_connection(("127.0.0.1", int(env["CLAWMARK_IMAP_PORT"])), timeout=REQUEST_LIMIT_S)
        assert extra.makefile("rb").readline().startswith(b"* BYE [UNAVAILABLE]")
        extra.close()
        for _ in range(limits.MAX_SMTP_CONNECTIONS):
            sock = socket.create_connection(("127.0.0.1", int(env["CLAWMARK_SMTP_PORT"])), timeout=REQUEST_LIMIT_S)
            held.append(sock)
            assert sock.makefile("rb").readline().startswith(b"220")
        extra = socket.create_connection(("127.0.0.1", int(env["CLAWMARK_SMTP_PORT"])), timeout=REQUEST_LIMIT_S)
        assert extra.makefile("rb").readline().startswith(b"421 4.7.0")
        extra.close()
        for sock in held:
            sock.close()
        deadline = time.monotonic() + REQUEST_LIMIT_S
        while True:  # the server notices the closed connections, then serves again
            client = socket.create_connection(("127.0.0.1", int(env["CLAWMARK_IMAP_PORT"])), timeout=REQUEST_LIMIT_S)
            greeting = client.makefile("rb").readline()
            client.close()
            if greeting.startswith(b"* OK") or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert greeting.startswith(b"* OK")
    finally:
        for sock in held:
            sock.close()
        world.stop()


# -- observation 3: the From: header names the authenticated user ----------------------------------
@pytest.mark.parametrize(
    "header",
    [
        b"From: Dr. Wang <wang@hospital.internal>",
        b"From: nurse3@hospital.internal",
        b"From: chen.fang@hospital.internal, boss@hospital.internal",
        b"From: undisclosed-recipients:;",
        b"From: chen.fang@hospital.internal\r\nFrom: nurse3@hospital.internal",
        b"From: chen.fang@hospital.internal\r\nSender: nurse3@hospital.internal",
        b'From: "chen.fang@hospital.internal" <boss@elsewhere.example>',
    ],
    ids=["other-person", "colleague", "second-address", "empty-group", "second-field", "sender", "name-spoof"],
)
def test_a_forged_author_is_refused(world: World, header: bytes) -> None:
    """Was: accepted (only the envelope sender was checked), so checkers could not trust From:."""
    before = state(world)
    code, text = send(world, header + b"\r\nSubject: forged\r\n\r\nx\r\n")
    assert code == 550 and text.startswith("5.7.60") and USER.email in text
    assert state(world) == before


@pytest.mark.parametrize(
    "header",
    [
        b"From: Chen Fang <chen.fang@hospital.internal>",
        b"From: CHEN.FANG@Hospital.Internal",
        b"From: =?utf-8?q?Chen_=E6=96=B9?= <chen.fang@hospital.internal>",
        b"From: chen.fang@hospital.internal\r\nSender: chen.fang@hospital.internal",
        b"",  # no From at all: the server adds one
    ],
    ids=["display-name", "case", "encoded-name", "sender-self", "missing"],
)
def test_own_address_in_any_form_is_accepted(world: World, header: bytes) -> None:
    subject = b"own %d" % abs(hash(header))
    code, _ = send(world, (header + b"\r\n" if header else b"") + b"Subject: " + subject + b"\r\n\r\nx\r\n")
    assert code == 250
    sent = world.mail.find(subject=subject.decode())
    assert sent.sender.lower() == USER.email
    assert world.mail.find(subject=subject.decode(), mailbox="outside").sender.lower() == USER.email


def test_checkers_may_trust_from_on_everything_delivered(world: World) -> None:
    """Whatever the other tests of this module sent or tried to send: every message the agent's
    SMTP account delivered names that account in From:."""
    sent = world.mail.sent()
    assert sent and all(m.sender.lower() == m.sent_by.lower() == USER.email for m in sent)
    assert all(m.sender.lower() == USER.email for m in world.mail.outside())
