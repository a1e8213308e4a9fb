"""The mail server's worst cases an agent may legally cause, and what the harness pays to read them.

    python benchmarks/hostile_mail.py [--json]

Each case builds the largest input the limits allow (src/pytest_clawmark/servers/mail/limits.py),
sends it through the agent plane (smtplib, raw IMAP) or fills the store to a quota, and measures
wall time and this process's resident-set growth. "first read" is a checker's first read of the
folder (it parses every message); "again" is the next read (the parse cache by maildir key);
"snapshot" is the whole mail service's snapshot. ``loop stall`` in the notes is the longest time the
world's event loop did not answer a 10 ms ticker while the case ran (the other services' latency).

Part of ``benchmarks/hostile.py`` (which runs every server's part in its own interpreter).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import shutil
import smtplib
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from benchmark_support import rss_mb

from pytest_clawmark.servers.mail import limits
from pytest_clawmark.world import Person, World

USER = Person("Bench User", "bench.user@clawmark.example")
COLLEAGUE = Person("Colleague", "colleague@clawmark.example")
OUTSIDER = "someone@elsewhere.example"
CLOCK = datetime(2025, 4, 7, 9, 0, tzinfo=timezone.utc)
ROWS: list[dict[str, Any]] = []


# -- messages at the limits ------------------------------------------------------------------------
def lines(raw: bytes) -> int:
    return raw.count(b"\n") + 1


def head(subject: str) -> bytes:
    return f"From: {USER.email}\r\nTo: {OUTSIDER}\r\nSubject: {subject}\r\n".encode()


def largest_attachment(subject: str) -> bytes:
    """A base64 attachment filling MAX_MESSAGE_BYTES (76-character lines, as mail clients write)."""
    line = b"QUJD" * 19 + b"\r\n"
    n = (limits.MAX_MESSAGE_BYTES - 400) // len(line)
    return head(subject) + (
        b"Content-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n"
        b"--B\r\nContent-Type: application/pdf; name=a.pdf\r\nContent-Disposition: attachment; filename=a.pdf\r\n"
        b"Content-Transfer-Encoding: base64\r\n\r\n" + line * n + b"--B--\r\n"
    )


def deepest(subject: str, lines: int = limits.MAX_MESSAGE_LINES - 100) -> bytes:
    """MAX_MIME_DEPTH levels with (almost) MAX_MESSAGE_LINES empty lines at the bottom."""
    body = b"\r\n" * lines
    for level in range(limits.MAX_MIME_DEPTH - 1, 0, -1):
        b = b"L%d" % level
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
    return head(subject) + body


def most_parts(subject: str, parts: int = limits.MAX_MIME_PARTS - 1) -> bytes:
    body = b"".join(
        b"--P\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Disposition: attachment; filename=p%d.txt\r\n\r\npart %d\r\n"
        % (i, i)
        for i in range(parts)
    )
    return head(subject) + b"Content-Type: multipart/mixed; boundary=P\r\n\r\n" + body + b"--P--\r\n"


def most_headers(subject: str) -> bytes:
    fields = b"".join(b"X-Trace-%d: hop %d\r\n" % (i, i) for i in range(limits.MAX_HEADER_FIELDS - 10))
    return head(subject) + fields + b"\r\nbody\r\n"


def small(subject: str) -> bytes:
    return head(subject) + b"\r\nA short note, as most mail is.\r\n"


# -- measuring -------------------------------------------------------------------------------------
class LoopWatch:
    """The longest gap of a 10 ms ticker on the world's loop while a case runs."""

    def __init__(self, world: World) -> None:
        self.loop = world._loop.loop  # type: ignore[union-attr]
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.01)
            now = time.perf_counter()
            self.worst = max(self.worst, now - last - 0.01)
            last = now

    def __enter__(self) -> LoopWatch:
        self.worst = 0.0
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result()
        return self

    async def _start(self) -> None:
        self._task = asyncio.ensure_future(self._tick())

    def __exit__(self, *exc: object) -> None:
        async def stop() -> None:
            if self._task is not None:
                self._task.cancel()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result()


@contextmanager
def case(world: World, service: str, name: str, note: str = "") -> Iterator[dict[str, Any]]:
    gc.collect()
    before = rss_mb()
    row: dict[str, Any] = {"service": service, "case": name, "note": note}
    with LoopWatch(world) as watch:
        t0 = time.perf_counter()
        yield row
        row["seconds"] = round(time.perf_counter() - t0, 3)
    row["rss_growth_mb"] = round(rss_mb() - before, 1)
    row["note"] = "; ".join(p for p in (row["note"], f"loop stall {watch.worst * 1000:.0f} ms") if p)
    ROWS.append(row)
    print(f"{row['case']}: {row['seconds']} s, {row['rss_growth_mb']} MB, {row['note']}", file=sys.stderr, flush=True)


def new_world(base: Path, name: str) -> World:
    world = World({"mail"}, base / name, user=USER, people=[COLLEAGUE])
    world.clock = CLOCK
    return world.start()


def smtp_send(world: World, raw: bytes, to: list[str]) -> str:
    env = world.agent_env()
    with smtplib.SMTP("127.0.0.1", int(env["CLAWMARK_SMTP_PORT"]), timeout=600) as smtp:
        smtp.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
        try:
            smtp.sendmail(USER.email, to, raw)
            return "250"
        except smtplib.SMTPResponseException as exc:
            return f"{exc.smtp_code} {exc.smtp_error.decode(errors='replace')[:70]}"


class Imap:
    """A raw IMAP session (the point is the server's cost, not a client's)."""

    def __init__(self, world: World) -> None:
        env = world.agent_env()
        self.sock = socket.create_connection(("127.0.0.1", int(env["CLAWMARK_IMAP_PORT"])), timeout=900)
        self.file = self.sock.makefile("rb")
        self.file.readline()
        self.n = 0
        self.run(f'LOGIN "{env["CLAWMARK_MAIL_USER"]}" "{env["CLAWMARK_MAIL_PASSWORD"]}"'.encode())

    def run(self, command: bytes) -> bytes:
        self.n += 1
        tag = b"T%d" % self.n
        self.sock.sendall(tag + b" " + command + b"\r\n")
        while True:
            line = self.file.readline()
            if not line or line.startswith(tag + b" "):
                return line.strip()
            if line.rstrip().endswith(b"}"):  # a literal in a FETCH response
                size = int(line.rstrip()[line.rstrip().rindex(b"{") + 1 : -1])
                self.file.read(size)

    def append(self, raw: bytes, folder: bytes = b"INBOX") -> bytes:
        return self.run(b"APPEND " + folder + b" {%d+}\r\n" % len(raw) + raw)

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def read_cases(world: World, label: str, read: Callable[[], Any]) -> None:
    with case(world, "mail", f"{label}: first read"):
        read()
    with case(world, "mail", f"{label}: again (cached)"):
        read()
    with case(world, "mail", f"{label}: snapshot") as row:
        snap = world.mail.snapshot()
        row["note"] = f"{len(json.dumps(snap)) / 1e6:.1f} MB of JSON"


def fill(world: World, make: Callable[[int], bytes], folder: str = "INBOX") -> tuple[int, str]:
    """Append messages to the user's folder through the admin store until the quota refuses."""
    store = world.mail._store  # type: ignore[attr-defined]
    n = 0
    while True:
        raw = make(n)
        from pytest_clawmark.servers.mail.store import Usage

        problem = store.usage().refusal(Usage.of(raw))
        if problem:
            return n, problem
        world._loop.call(lambda: store.append(USER.email, folder, raw, when=CLOCK))  # type: ignore[union-attr]  # noqa: B023
        n += 1


# -- cases -----------------------------------------------------------------------------------------
def smtp_cases(base: Path) -> None:
    world = new_world(base, "smtp")
    try:
        raw = largest_attachment("largest")
        with case(
            world,
            "mail",
            "SMTP DATA: largest allowed message",
            f"{len(raw) / 1e6:.1f} MB, {lines(raw):,} lines, 1 outside recipient",
        ) as row:
            row["note"] += f"; answer {smtp_send(world, raw, [OUTSIDER])}"
        read_cases(world, "largest message: outside()", world.mail.outside)
        raw = deepest("deepest")
        with case(
            world, "mail", "SMTP DATA: deepest allowed message", f"depth {limits.MAX_MIME_DEPTH}, {lines(raw):,} lines"
        ) as row:
            row["note"] += f"; answer {smtp_send(world, raw, [OUTSIDER])}"
        with case(world, "mail", "checker read after it: outside()"):
            world.mail.outside()
        raw = b"From: " + USER.email.encode() + b"\r\n\r\n" + b"\r\n" * (limits.MAX_MESSAGE_BYTES // 2 - 100)
        with case(world, "mail", "SMTP DATA refused: 10 MiB of empty lines", f"{lines(raw):,} lines") as row:
            row["note"] += f"; answer {smtp_send(world, raw, [OUTSIDER])}"
        raw = head("old observation") + b"".join(b"X-H%d: v\r\n" % i for i in range(20_000)) + b"\r\nbody\r\n"
        with case(world, "mail", "SMTP DATA refused: 20,000 header fields") as row:
            row["note"] += f"answer {smtp_send(world, raw, [OUTSIDER])}"
    finally:
        world.discard()


def imap_cases(base: Path) -> None:
    world = new_world(base, "imap")
    imap = Imap(world)
    try:
        raw = deepest("deepest")
        with case(world, "mail", "IMAP APPEND: deepest allowed message") as row:
            row["note"] = imap.append(raw)[:40].decode()
        imap.run(b"SELECT INBOX")
        with case(world, "mail", "IMAP FETCH BODYSTRUCTURE of it (pymap parse, worker thread)"):
            imap.run(b"FETCH 1 (BODYSTRUCTURE)")
        raw = most_parts("parts")
        imap.append(raw)
        imap.append(most_headers("headers"))
        imap.append(largest_attachment("largest"))
        imap.run(b"NOOP")
        keys = b"OR " * (limits.MAX_SEARCH_KEYS // 2 - 1) + b" ".join(
            b"TEXT needle%d" % i for i in range(limits.MAX_SEARCH_KEYS // 2)
        )
        with case(
            world, "mail", f"IMAP SEARCH: {limits.MAX_SEARCH_KEYS // 2} TEXT keys OR'ed over 4 limit messages"
        ) as row:
            row["note"] = imap.run(b"SEARCH " + keys)[:30].decode()
        for n in range(limits.MAX_FOLDERS_PER_ACCOUNT - 3):
            imap.run(b'CREATE "' + (b"f%03d" % n) * 40 + b'"')
        with case(
            world, "mail", f"IMAP LIST: 40 wildcards over {limits.MAX_FOLDERS_PER_ACCOUNT} 160-character names"
        ) as row:
            row["note"] = imap.run(b'LIST "" "' + b"*f" * 40 + b'*x"')[:30].decode()
        with case(world, "mail", "IMAP FETCH: 5,000 overlapping ranges") as row:
            row["note"] = imap.run(b"FETCH " + b",".join([b"1:*"] * 5000) + b" (FLAGS)")[:30].decode()
        read_cases(world, "user's INBOX of limit messages: inbox()", world.mail.inbox)
    finally:
        imap.close()
        world.discard()


def quota_cases(base: Path) -> None:
    for label, make in (
        ("10 MiB attachments (the lines quota binds first)", lambda i: largest_attachment(f"big {i}")),
        ("message quota: small messages", lambda i: small(f"note {i}")),
        ("lines quota: deepest messages", lambda i: deepest(f"deep {i}")),
        ("delimiter quota: messages of many parts", lambda i: most_parts(f"parts {i}")),
        ("header-heavy messages", lambda i: most_headers(f"headers {i}")),
    ):
        world = new_world(base, "quota")
        try:
            with case(world, "mail", f"fill the store ({label})") as row:
                n, problem = fill(world, make)
                row["note"] = f"{n} messages until: {problem[:60]}"
            read_cases(world, f"store full ({label}): inbox()", world.mail.inbox)
        finally:
            world.discard()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON list of rows (for benchmarks/hostile.py)")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="clawmark-hostile-mail-"))
    try:
        warm = new_world(base, "warm")  # imports and first-use caches are not the cases' cost
        warm.mail.snapshot()
        warm.discard()
        smtp_cases(base)
        imap_cases(base)
        quota_cases(base)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    if args.json:
        print(json.dumps(ROWS))
    else:
        width = max(len(r["case"]) for r in ROWS)
        for r in ROWS:
            print(f"{r['case']:<{width}} {r['seconds']:>8.3f} s {r['rss_growth_mb']:>7.1f} MB  {r['note']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
