"""Fuzz suites for the mail servers (issue 9): generated hostile SMTP and IMAP input.

Each server gets at least 500 generated inputs (SMTP: 200 sequences of 1-5 commands, ~600
commands, and 300 DATA bodies; IMAP: 500 commands; ``fuzz_settings``, CI derandomised), generated over
the protocol grammar (SMTP commands; DATA bodies of hostile MIME and header structures; IMAP
search keys, fetch items, sequence sets, literals, mailbox names) plus a fixed corpus of the cases
observed in issue 9 (``@example``). For every input:

* the answer is the protocol's own (SMTP: a 2xx-5xx reply other than 421/451, i.e. no server
  trouble; IMAP: a tagged OK/NO/BAD, never ``BYE [SERVERBUG]``; pymap's own ``BYE`` after five
  BADs in a row is a protocol answer), within :data:`fuzzing.REQUEST_LIMIT_S`;
* the admin snapshot is unchanged unless the server accepted a write: an accepted SMTP message
  added exactly its copies (sent ledger, the user's Sent folder, one per recipient) and changed
  nothing else; an accepted IMAP write (OK) left a store the admin plane reads (then rolled back);
* the server answers a valid request afterwards (the same session if still open, else a new one).

Cheap by design: one world per module, raw sockets, sessions reused across examples.
"""

from __future__ import annotations

import base64
import re
import socket
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from fuzzing import REQUEST_LIMIT_S, fuzz_settings
from hypothesis import event, example, given
from hypothesis import strategies as st

from pytest_clawmark.servers.mail import limits
from pytest_clawmark.world import Person, World

USER = Person("Chen Fang", "chen.fang@hospital.internal")
NURSE = Person("Li Na", "nurse3@hospital.internal")
CLOCK = datetime(2025, 4, 7, 9, 0, tzinfo=timezone.utc)


class Baseline:
    """A module world, its baseline snapshot and the snapshot before the current example."""

    ROLLBACK_AT = 40
    """Messages in the ledger after which accepted submissions are rolled back (snapshots of a
    small store are fast)."""

    def __init__(self, root: Path) -> None:
        self.world = World({"mail"}, root, user=USER, people=[NURSE])
        self.world.clock = CLOCK
        self.world.start()
        mail = self.world.mail
        mail.deliver(NURSE, USER, "Baseline", "plain text")
        mail.deliver(
            NURSE, USER, "With attachment", "see file", attachments=[("rows.csv", b"a,b\n1,2\n")], html="<p>see</p>"
        )
        mail.deliver(USER, [NURSE, "auditor@regulator.example"], "Sent by the user", "hello")
        self.snapshot = mail.snapshot()
        self.before = self.snapshot

    def _rollback(self) -> None:
        self.world.mail.restore(self.snapshot)
        self.before = self.snapshot

    def check(self, accepted: bool) -> bool:
        """State is unchanged unless a write was accepted; an accepted write must leave a store
        the admin plane reads, and is rolled back (returns True: sessions should reconnect, the
        folders were renumbered)."""
        now = self.world.mail.snapshot()
        if now == self.before:
            return False
        assert accepted, "state changed although the server refused the input"
        for message in self.world.mail.sent():  # what checkers rely on: From: names the sender
            assert message.sender.lower() == message.sent_by.lower(), message.headers[:8]
        self._rollback()
        return True

    def check_submission(self, accepted: bool, recipients: int) -> None:
        """After one DATA: unchanged if refused; if accepted, exactly the copies a submission
        makes were added (ledger, the user's Sent folder, one per recipient) and nothing else
        changed; every stored message still reads, and names its sender in From:."""
        now = self.world.mail.snapshot()
        if not accepted:
            assert now == self.before, "state changed although the server refused the message"
            return
        added = 0
        sections = [
            (("accounts", a, f), now["accounts"][a][f], entries)
            for a, folders in self.before["accounts"].items()
            for f, entries in folders.items()
        ]
        sections += [
            (("outside",), now["outside"], self.before["outside"]),
            (("sent",), now["sent"], self.before["sent"]),
        ]
        assert {a: sorted(f) for a, f in now["accounts"].items()} == {
            a: sorted(f) for a, f in self.before["accounts"].items()
        }
        for where, after, before in sections:
            assert after[: len(before)] == before, f"{where}: existing mail changed"
            added += len(after) - len(before)
        assert len(now["sent"]) == len(self.before["sent"]) + 1
        assert len(now["accounts"][USER.email]["Sent"]) == len(self.before["accounts"][USER.email]["Sent"]) + 1
        assert added == 2 + recipients
        assert now["counters"]["submissions"] == self.before["counters"]["submissions"] + 1
        assert now["sent"][-1]["from"].lower() == USER.email  # checkers may trust From:
        self.before = now
        if len(now["sent"]) > self.ROLLBACK_AT:
            self._rollback()


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Baseline]:
    b = Baseline(tmp_path_factory.mktemp("mail-fuzz") / "world")
    yield b
    b.world.stop()


# == SMTP ===========================================================================================
class Smtp:
    """A raw SMTP session, reused across examples while it stays open."""

    def __init__(self, world: World) -> None:
        env = world.agent_env()
        self.sock = socket.create_connection(("127.0.0.1", int(env["CLAWMARK_SMTP_PORT"])), timeout=REQUEST_LIMIT_S)
        self.file = self.sock.makefile("rb")
        assert self.reply()[0] == 220
        assert self.command(b"EHLO fuzz")[0] == 250
        auth = base64.b64encode(
            b"\0" + env["CLAWMARK_MAIL_USER"].encode() + b"\0" + env["CLAWMARK_MAIL_PASSWORD"].encode()
        )
        assert self.command(b"AUTH PLAIN " + auth)[0] == 235

    def reply(self) -> tuple[int, bytes]:
        """One (possibly multi-line) reply: its code (0 if the server closed) and last line."""
        while True:
            line = self.file.readline()
            if not line:
                return 0, b""
            if line[3:4] != b"-":
                return int(line[:3]), line

    def command(self, line: bytes) -> tuple[int, bytes]:
        self.sock.sendall(line + b"\r\n")
        return self.reply()

    def data(self, body: bytes) -> tuple[int, bytes]:
        """DATA with RFC 5321 dot-stuffing; the reply after the final dot."""
        code, line = self.command(b"DATA")
        if code != 354:
            return code, line
        stuffed = re.sub(rb"(?m)^\.", b"..", body)
        if not stuffed.endswith(b"\r\n"):
            stuffed += b"\r\n"
        self.sock.sendall(stuffed + b".\r\n")
        return self.reply()

    def close(self) -> None:
        try:
            self.sock.sendall(b"QUIT\r\n")
        except OSError:
            pass
        self.file.close()
        self.sock.close()


@pytest.fixture(scope="module")
def smtp_session(base: Baseline) -> Iterator[list[Smtp]]:
    holder = [Smtp(base.world)]
    yield holder
    holder[0].close()


def smtp_alive(base: Baseline, holder: list[Smtp]) -> None:
    """The server still answers, authenticated: RSET and a MAIL probe on the session, else on a
    new session (a fuzzed EHLO or AUTH may have reset the old one)."""
    session = holder[0]
    try:
        if session.command(b"RSET")[0] == 250 and session.command(f"MAIL FROM:<{USER.email}>".encode())[0] == 250:
            assert session.command(b"RSET")[0] == 250
            return
    except OSError:
        pass
    session.close()
    holder[0] = Smtp(base.world)
    assert holder[0].command(b"NOOP")[0] == 250


ascii_text = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40)
any_text = st.text(max_size=40)
addresses = st.one_of(
    st.sampled_from(
        [USER.email, NURSE.email, "auditor@regulator.example", "", "<>", "a@b", "@", "x@[127.0.0.1]", '"q"@x.example']
    ),
    st.builds(lambda local, domain: f"{local}@{domain}", ascii_text, ascii_text),
    any_text,
)
smtp_params = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "SIZE=0",
                "SIZE=99999999999",
                f"SIZE={limits.MAX_MESSAGE_BYTES + 1}",
                "BODY=8BITMIME",
                "BODY=BINARYMIME",
                "SMTPUTF8",
                "AUTH=<>",
                "NOTIFY=NEVER",
                "RET=HDRS",
                "SIZE=-1",
                "X=" + "y" * 600,
            ]
        ),
        st.builds(lambda k, v: f"{k}={v}", ascii_text, ascii_text),
    ),
    max_size=3,
)
smtp_commands = st.one_of(
    st.builds(lambda a, p: f"MAIL FROM:<{a}> {' '.join(p)}", addresses, smtp_params),
    st.builds(lambda a, p: f"RCPT TO:<{a}> {' '.join(p)}", addresses, smtp_params),
    st.builds(lambda a: f"MAIL FROM:{a}", addresses),
    st.builds(lambda a: f"RCPT TO:{a}", addresses),
    st.sampled_from(
        [
            "DATA x",
            "RSET x",
            "NOOP",
            "HELP",
            "HELP MAIL",
            "VRFY root",
            "EXPN staff",
            "EHLO",
            "HELO",
            "EHLO again",
            "AUTH PLAIN",
            "AUTH LOGIN",
            "AUTH CRAM-MD5",
            "AUTH PLAIN =",
            "STARTTLS",
            "BDAT 10 LAST",
            "TURN",
            "ETRN x",
            "MAIL",
            "RCPT",
            "MAIL FROM:",
            "RCPT TO:",
            "X" * 600,
        ]
    ),
    st.builds(
        lambda verb, arg: f"{verb} {arg}",
        st.sampled_from(["MAIL", "RCPT", "EHLO", "HELO", "VRFY", "AUTH", "XCLIENT", "NOOP"]),
        any_text,
    ),
)


@fuzz_settings(200)
@given(st.lists(smtp_commands, min_size=1, max_size=5))
@example([" ".join(["MAIL FROM:<chen.fang@hospital.internal>"] + ["X"] * 200)])
@example(["RCPT TO:<a@b>"] * 3)
@example(["MAIL FROM:<chen.fang@hospital.internal> SIZE=99999999999"])
def test_smtp_command_grammar(base: Baseline, smtp_session: list[Smtp], commands: list[str]) -> None:
    session = smtp_session[0]
    for command in commands:
        started = time.monotonic()
        line_bytes = command.replace("\r", " ").replace("\n", " ").encode("utf-8", "surrogateescape")[:2000]
        try:
            code, line = session.command(line_bytes)
        except OSError as exc:
            pytest.fail(f"{command[:80]!r}: connection broke: {exc}")
        assert time.monotonic() - started < REQUEST_LIMIT_S
        assert 200 <= code < 600 and code not in (421, 451), (command[:80], line)
        if code == 221 or line.startswith(b"502 5.5.1 Too many unrecognized"):
            break  # the server ended the session with a reply (aiosmtpd's limit of 5 unknown verbs)
    smtp_alive(base, smtp_session)
    base.check_submission(accepted=False, recipients=0)  # commands alone never store anything


# -- DATA bodies: hostile MIME and header structures -------------------------------------------------
header_names = st.one_of(
    st.sampled_from(
        [
            "Subject",
            "To",
            "Cc",
            "Reply-To",
            "Date",
            "Message-ID",
            "Content-Type",
            "Content-Transfer-Encoding",
            "Content-Disposition",
            "MIME-Version",
            "X-Trace",
            "Received",
            "In-Reply-To",
            "References",
            "Resent-From",
        ]
    ),
    st.text(
        alphabet=st.characters(min_codepoint=33, max_codepoint=126, blacklist_characters=":"), min_size=1, max_size=20
    ),
)
header_values = st.one_of(
    ascii_text,
    any_text,
    st.sampled_from(
        [
            "=?utf-8?q?caf=C3=A9?=",
            "=?x-unknown?b?AAAA?=",
            "=?utf-8?b?!!!?=",
            'multipart/mixed; boundary="',
            "text/plain; charset=x-bogus",
            "message/rfc822",
            "base64",
            "quoted-printable",
            "attachment; filename*=utf-8''%FF%FE",
            "(((((((((((((comment",
            '"unterminated',
            "<<<>>>",
            "a" * 997,
            "a" * 1200,
            "x\r\n folded\r\n  again",
        ]
    ),
)
authors = st.one_of(
    st.sampled_from(
        [f"From: {USER.email}", f"From: Chen Fang <{USER.email}>", f"From: {USER.email.upper()}", ""]
    ),  # own: accepted
    st.sampled_from([f"From: {USER.email}", f"From: Chen Fang <{USER.email}>"]),
    st.sampled_from(
        [
            f"From: {NURSE.email}",
            "From: boss@elsewhere.example",
            f"From: {USER.email}\r\nSender: {NURSE.email}",
            f"From: {USER.email}, x@y.example",
            "From: undisclosed:;",
            "From: =?utf-8?q?x?=",
            "From: <<<>>>",
        ]
    ),
)


@st.composite
def mime_parts(draw: Any, depth: int = 0) -> bytes:
    """One entity: header fields and a body that is text, encoded garbage or nested entities."""
    fields = draw(st.lists(st.tuples(header_names, header_values), max_size=4))
    if draw(st.integers(0, 20)) == 0:  # now and then, a header flood
        fields += [("X-Flood", "v")] * draw(
            st.sampled_from([limits.MAX_HEADER_FIELDS - 5, limits.MAX_HEADER_FIELDS + 1, 400])
        )
    kinds = ["text", "text", "base64", "multipart", "rfc822", "bad-multipart"]
    kind = draw(st.sampled_from(kinds)) if depth <= limits.MAX_MIME_DEPTH else "text"
    head = b"".join(f"{n}: {v}".encode("utf-8", "surrogateescape") + b"\r\n" for n, v in fields)
    if kind == "text":
        body = draw(st.binary(max_size=200)).replace(b"\r", b"").replace(b"\n", b"\r\n")
        return head + b"\r\n" + body
    if kind == "base64":
        return (
            head
            + b"Content-Transfer-Encoding: base64\r\n\r\n"
            + draw(st.binary(max_size=120)).replace(b"\n", b"")
            + b"\r\n"
        )
    if kind == "rfc822":
        return head + b"Content-Type: message/rfc822\r\n\r\n" + draw(mime_parts(depth + 1))
    boundary = draw(st.sampled_from([b"B%d" % depth, b"", b"=", b" ", b"B" * 80, b"--"]))
    children = draw(st.lists(mime_parts(depth + 1), min_size=0, max_size=2 if depth < 2 else 1))
    declared = boundary if kind == "multipart" else b"other"
    out = head + b'Content-Type: multipart/mixed; boundary="' + declared + b'"\r\n\r\npreamble\r\n'
    for child in children:
        out += b"--" + boundary + b"\r\n" + child + b"\r\n"
    if draw(st.booleans()):
        out += b"--" + boundary + b"--\r\n"
    return out


def deep(depth: int) -> bytes:
    body = b"x\r\n"
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
    return body


OBSERVED = {  # issue 9's observations, as DATA bodies (after the author line)
    "300 nested multiparts": deep(300),
    "20,000 header fields": b"".join(b"X-H%d: v\r\n" % i for i in range(20_000)) + b"\r\nbody\r\n",
    "a 5,000-character header line": b"Subject: " + b"s" * 5000 + b"\r\n\r\nbody\r\n",
    "a folded 300 KiB header": b"X-Big: a" + b"\r\n a" * 150_000 + b"\r\n\r\nx\r\n",
}


@fuzz_settings(300)
@given(
    authors,
    mime_parts(),
    st.sampled_from([[USER.email], [NURSE.email], ["auditor@regulator.example"], [NURSE.email, "x@y.example"]]),
)
@example(f"From: {USER.email}", OBSERVED["300 nested multiparts"], ["auditor@regulator.example"])
@example(f"From: {USER.email}", OBSERVED["20,000 header fields"], ["auditor@regulator.example"])
@example(f"From: {USER.email}", OBSERVED["a 5,000-character header line"], [NURSE.email])
@example(f"From: {USER.email}", OBSERVED["a folded 300 KiB header"], [NURSE.email])
@example("From: Dr. Wang <wang@hospital.internal>", b"Subject: forged\r\n\r\nx\r\n", [NURSE.email])
def test_smtp_data_bodies(
    base: Baseline, smtp_session: list[Smtp], author: str, entity: bytes, rcpts: list[str]
) -> None:
    session = smtp_session[0]
    assert session.command(f"MAIL FROM:<{USER.email}>".encode())[0] == 250
    for rcpt in rcpts:
        assert session.command(f"RCPT TO:<{rcpt}>".encode())[0] == 250
    raw = (author.encode() + b"\r\n" if author else b"") + entity
    started = time.monotonic()
    code, line = session.data(raw)
    assert time.monotonic() - started < REQUEST_LIMIT_S
    assert code in (250, 500, 550, 552, 554), line  # accepted, or refused with the protocol's reason
    event(f"DATA answered {line[:9].decode(errors='replace').strip()}")
    if code == 550:
        assert line.startswith(b"550 5.7.60")
    smtp_alive(base, smtp_session)
    base.check_submission(accepted=code == 250, recipients=len(set(rcpts)))


# == IMAP ===========================================================================================
class Imap:
    """A raw IMAP session with INBOX selected, reused across examples while it stays open."""

    def __init__(self, world: World) -> None:
        env = world.agent_env()
        self.sock = socket.create_connection(("127.0.0.1", int(env["CLAWMARK_IMAP_PORT"])), timeout=REQUEST_LIMIT_S)
        self.file = self.sock.makefile("rb")
        assert self.file.readline().startswith(b"* OK")
        self.n = 0
        assert self.run([f'LOGIN "{env["CLAWMARK_MAIL_USER"]}" "{env["CLAWMARK_MAIL_PASSWORD"]}"'.encode()]).startswith(
            b"OK"
        )
        assert self.run([b"SELECT INBOX"]).startswith(b"OK")

    def run(self, segments: list[bytes]) -> bytes:
        """Send a command (segments split after each synchronizing literal's ``{n}``); the tagged
        answer without its tag (``BYE ...`` if the server ended the session)."""
        self.n += 1
        tag = b"F%d" % self.n
        for i, segment in enumerate(segments):
            self.sock.sendall((tag + b" " if i == 0 else b"") + segment + (b"\r\n" if i == len(segments) - 1 else b""))
            while True:
                line = self.file.readline()
                if not line:
                    return b"BYE (connection closed)"
                if line.startswith(b"* BYE"):
                    return line[2:]
                if line.startswith(tag + b" "):
                    return line[len(tag) + 1 :]
                if line.startswith(b"+") and i < len(segments) - 1:
                    break  # continuation: send the literal
                if line.rstrip().endswith(b"}"):  # a literal in the response: skip its bytes
                    size = int(line.rstrip()[line.rstrip().rindex(b"{") + 1 : -1])
                    self.file.read(size)
        return b"BYE (no answer)"  # pragma: no cover

    def close(self) -> None:
        self.file.close()
        self.sock.close()


@pytest.fixture(scope="module")
def imap_session(base: Baseline) -> Iterator[list[Imap]]:
    holder = [Imap(base.world)]
    yield holder
    holder[0].close()


def literal(data: bytes, draw: Any) -> list[bytes]:
    """``data`` as a quoted string, a non-synchronizing or a synchronizing literal (segments)."""
    form = draw(st.sampled_from(["quoted", "plus", "sync", "atom"]))
    if form == "atom" and re.fullmatch(rb"[A-Za-z0-9._-]+", data):
        return [data]
    if form == "quoted" and not re.search(rb'["\\\r\n\x00]', data):
        return [b'"' + data + b'"']
    if form == "sync":
        return [b"{%d}\r\n" % len(data), data]
    return [b"{%d+}\r\n" % len(data) + data]


def join(*pieces: list[bytes] | bytes) -> list[bytes]:
    """Concatenate command pieces; a synchronizing literal starts a new segment."""
    out = [b""]
    for piece in pieces:
        if isinstance(piece, bytes):
            out[-1] += piece
            continue
        out[-1] += piece[0]
        out.extend(piece[1:])
    return out


numbers = st.one_of(st.integers(0, 5), st.sampled_from([4294967295, 4294967296, 10**30]))
seq_elements = st.one_of(
    numbers.map(lambda n: b"%d" % n),
    st.just(b"*"),
    st.tuples(numbers, numbers).map(lambda t: b"%d:%d" % t),
    numbers.map(lambda n: b"%d:*" % n),
)
bad_seq_elements = st.sampled_from([b"", b":", b"1:", b"-1", b"1,,2", b"a", b"1:2:3", b"*:*:*"])
seq_sets = st.one_of(
    st.lists(seq_elements, min_size=1, max_size=30).map(b",".join),
    st.lists(seq_elements, min_size=1, max_size=3).map(b",".join),
    st.lists(st.one_of(seq_elements, bad_seq_elements), min_size=1, max_size=5).map(b",".join),
)
strings = st.one_of(st.binary(max_size=30), st.sampled_from([b"", b"zz", b"caf\xc3\xa9", b"Baseline", b"a" * 70_000]))


@st.composite
def search_keys(draw: Any, depth: int = 0) -> list[bytes]:
    simple = [
        b"ALL",
        b"ANSWERED",
        b"DELETED",
        b"FLAGGED",
        b"NEW",
        b"OLD",
        b"RECENT",
        b"SEEN",
        b"UNSEEN",
        b"DRAFT",
        b"UNDRAFT",
    ]
    kind = draw(
        st.sampled_from(
            ["simple", "string", "header", "number", "date", "seq", "not", "or", "list"] if depth < 20 else ["simple"]
        )
    )
    if kind == "simple":
        return [draw(st.sampled_from(simple))]
    if kind == "string":
        name = draw(st.sampled_from([b"FROM", b"TO", b"CC", b"BCC", b"SUBJECT", b"BODY", b"TEXT", b"KEYWORD"]))
        return join(name + b" ", literal(draw(strings), draw))
    if kind == "header":
        return join(b"HEADER ", literal(draw(st.binary(max_size=12)), draw), b" ", literal(draw(strings), draw))
    if kind == "number":
        return [draw(st.sampled_from([b"LARGER", b"SMALLER"])) + b" %d" % draw(numbers)]
    if kind == "date":
        date = draw(
            st.sampled_from([b"1-Feb-2024", b"31-Feb-2024", b"01-Xyz-2024", b"1-Jan-99999", b'"7-Apr-2025"', b""])
        )
        return [
            draw(st.sampled_from([b"BEFORE", b"ON", b"SINCE", b"SENTBEFORE", b"SENTON", b"SENTSINCE"])) + b" " + date
        ]
    if kind == "seq":
        return [draw(st.sampled_from([b"", b"UID "])) + draw(seq_sets)]
    if kind == "not":
        return join(b"NOT ", draw(search_keys(depth + 1)))
    if kind == "or":
        return join(b"OR ", draw(search_keys(depth + 1)), b" ", draw(search_keys(depth + 1)))
    items = draw(st.lists(search_keys(depth + 1), min_size=1, max_size=3))
    pieces: list[Any] = [b"("]
    for i, item in enumerate(items):
        pieces += ([b" "] if i else []) + [item]
    return join(*pieces, b")")


valid_fetch_items = st.sampled_from(
    [
        b"FLAGS",
        b"UID",
        b"INTERNALDATE",
        b"ENVELOPE",
        b"BODYSTRUCTURE",
        b"BODY",
        b"RFC822.SIZE",
        b"RFC822.HEADER",
        b"BINARY.SIZE[1]",
        b"BODY.PEEK[]",
        b"BODY.PEEK[HEADER]",
        b"BODY.PEEK[TEXT]",
        b"BODY.PEEK[1]",
        b"BODY.PEEK[1.MIME]",
        b"BODY.PEEK[2.1.1.1.1.1.1.1.1.1.1]",
        b"BODY.PEEK[HEADER.FIELDS (SUBJECT FROM)]",
        b"BODY.PEEK[HEADER.FIELDS.NOT (X-A)]",
        b"BINARY.PEEK[1]",
        b"BINARY.PEEK[2]",
        b"BODY.PEEK[]<0.10>",
        b"BODY.PEEK[]<4294967295.4294967295>",
        b"BODY[]",
        b"RFC822",
        b"EMAILID",
        b"THREADID",
        b"ALL",
        b"FAST",
        b"FULL",
    ]
)
fetch_items = st.one_of(
    valid_fetch_items,
    valid_fetch_items,
    valid_fetch_items,
    st.sampled_from(
        [b"BODY[", b"BODY.PEEK[0]", b"NOSUCH", b"X-GM-MSGID", b"BODY.PEEK[HEADER.FIELDS ()]", b"BINARY[1.TEXT]"]
    ),
    st.binary(max_size=12).filter(lambda b: b"\r" not in b and b"\n" not in b and b"{" not in b),
)
mailbox_names = st.one_of(
    st.sampled_from(
        [
            b"INBOX",
            b"inbox",
            b"Sent",
            b"Trash",
            b"Fuzz",
            b"Fuzz/Sub",
            b"",
            b"/",
            b"..",
            b"a.b",
            b"&",
            b"&-",
            b"&AOk-",
            b"&Jjo!",
            b"%",
            b"*",
            b"x" * 250,
            b"Fuzz/" * 40,
        ]
    ),
    st.text(max_size=20).map(lambda t: t.encode("utf-8")),
)


@st.composite
def imap_commands(draw: Any) -> list[bytes]:
    uid = draw(st.sampled_from([b"", b"UID "]))
    kind = draw(st.sampled_from(["search", "fetch", "store", "copy", "list", "status", "create", "append", "misc"]))
    if kind == "search":
        keys = draw(st.lists(search_keys(), min_size=1, max_size=4))
        charset = draw(st.sampled_from([b"", b"CHARSET UTF-8 ", b"CHARSET X-NONE "]))
        pieces: list[Any] = [uid + b"SEARCH " + charset]
        for i, key in enumerate(keys):
            pieces += ([b" "] if i else []) + [key]
        return join(*pieces)
    if kind == "fetch":
        items = draw(st.lists(fetch_items, min_size=1, max_size=draw(st.sampled_from([3, limits.MAX_FETCH_ITEMS + 2]))))
        listed = items[0] if len(items) == 1 and draw(st.booleans()) else b"(" + b" ".join(items) + b")"
        return [uid + b"FETCH " + draw(seq_sets) + b" " + listed]
    if kind == "store":
        flags = draw(
            st.lists(
                st.sampled_from(
                    [b"\\Seen", b"\\Flagged", b"\\Deleted", b"\\Recent", b"\\Bogus", b"kw", b"$Label1", b"(", b"\\"]
                ),
                max_size=4,
            )
        )
        mode = draw(st.sampled_from([b"FLAGS", b"+FLAGS", b"-FLAGS.SILENT", b"FLAGS.BOGUS"]))
        return [uid + b"STORE " + draw(seq_sets) + b" " + mode + b" (" + b" ".join(flags) + b")"]
    if kind == "copy":
        verb = draw(st.sampled_from([b"COPY ", b"MOVE "]))
        return join(uid + verb + draw(seq_sets) + b" ", literal(draw(mailbox_names), draw))
    if kind == "list":
        verb = draw(st.sampled_from([b"LIST ", b"LSUB "]))
        pattern = draw(
            st.one_of(st.sampled_from([b"*", b"%", b"*a*a*a*a*a*a*a*a*b", b"%/%/%", b"&"]), st.binary(max_size=20))
        )
        return join(verb, literal(draw(mailbox_names), draw), b" ", literal(pattern, draw))
    if kind == "status":
        items = draw(
            st.lists(
                st.sampled_from([b"MESSAGES", b"RECENT", b"UIDNEXT", b"UIDVALIDITY", b"UNSEEN", b"SIZE", b"BOGUS"]),
                max_size=4,
            )
        )
        return join(b"STATUS ", literal(draw(mailbox_names), draw), b" (" + b" ".join(items) + b")")
    if kind == "create":
        verb = draw(st.sampled_from([b"CREATE ", b"DELETE ", b"SUBSCRIBE ", b"UNSUBSCRIBE ", b"EXAMINE ", b"SELECT "]))
        return join(verb, literal(draw(mailbox_names), draw))
    if kind == "append":
        flags = draw(st.sampled_from([b"", b"(\\Seen) ", b"(\\Bogus) ", b"() "]))
        date = draw(st.sampled_from([b"", b'"07-Apr-2025 09:00:00 +0000" ', b'"99-Xyz-2025 99:99:99 +9999" ']))
        message = draw(st.one_of(mime_parts(), st.binary(max_size=100)))
        return join(b"APPEND ", literal(draw(mailbox_names), draw), b" " + flags + date, literal(message, draw))
    return [
        draw(
            st.sampled_from(
                [
                    b"NOOP",
                    b"CHECK",
                    b"EXPUNGE",
                    b"CAPABILITY",
                    b"ID NIL",
                    b"ID (" + b'"a" "b" ' * 40 + b")",
                    b"NAMESPACE",
                    b"ENABLE X",
                    b"UNSELECT",
                    b"CLOSE",
                    b"LOGIN a b",
                    b"AUTHENTICATE XOAUTH",
                    b"STARTTLS",
                    b"FROB",
                    b"",
                    b"\x00\xff",
                    b"SEARCH",
                    b"FETCH",
                    b"UID",
                    b"UID FROB 1",
                ]
            )
        )
    ]


def observed(command: bytes) -> list[bytes]:
    return [command]


def imap_alive(base: Baseline, holder: list[Imap], reply: bytes) -> None:
    session = holder[0]
    if not reply.startswith(b"BYE") and session.run([b"SELECT INBOX"]).startswith(b"OK"):
        return
    session.close()
    holder[0] = Imap(base.world)


@fuzz_settings(500)
@given(imap_commands())
@example(observed(b"SEARCH " + b"(" * 3000 + b"ALL" + b")" * 3000))
@example(observed(b"SEARCH " + b"OR " * 3000 + b"ALL " * 3001))
@example(observed(b"SEARCH " + b"x" * (limits.MAX_COMMAND_LINE_BYTES + 1)))
@example(observed(b"SEARCH TEXT {%d+}\r\n" % (limits.MAX_COMMAND_BYTES + 1) + b"x" * (limits.MAX_COMMAND_BYTES + 1)))
@example(observed(b'LIST "" "' + b"*a" * 30 + b'*b"'))
@example(observed(b"FETCH " + b",".join([b"1:*"] * 5000) + b" (FLAGS)"))
@example(observed(b'STATUS "&z" (MESSAGES)'))
@example(observed(b'DELETE ""'))
@example(observed(b"MOVE 1 INBOX"))
def test_imap_command_grammar(base: Baseline, imap_session: list[Imap], segments: list[bytes]) -> None:
    session = imap_session[0]
    started = time.monotonic()
    try:
        reply = session.run(segments)
    except OSError as exc:
        pytest.fail(f"{segments[0][:80]!r}: connection broke: {exc}")
    assert time.monotonic() - started < REQUEST_LIMIT_S
    bad_limit = reply.startswith(b"BYE") and b"Too many errors" in reply  # pymap's 5-BADs-in-a-row rule
    assert reply.startswith((b"OK", b"NO", b"BAD")) or bad_limit, (segments[0][:80], reply)
    words = segments[0].split(b" ", 2)
    verb = b" ".join(words[:2] if words[0] == b"UID" else words[:1]).decode(errors="replace")[:16]
    code = re.match(rb"\w+ \[([A-Z-]+)", reply)
    event(
        f"{verb} answered {reply.split(b' ', 1)[0].decode(errors='replace')[:4]}{f' [{code.group(1).decode()}]' if code else ''}"
    )
    imap_alive(base, imap_session, reply)
    if base.check(accepted=reply.startswith(b"OK")):
        imap_session[0].close()  # the rollback renumbered the folders under the open session
        imap_session[0] = Imap(base.world)
