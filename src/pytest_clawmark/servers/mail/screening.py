"""Screening a message an agent submits (SMTP DATA, IMAP APPEND) against :mod:`.limits`.

Why before storing: whatever is stored is parsed again and again (IMAP FETCH and SEARCH, every
checker read, every snapshot), and every parser involved costs per line and per MIME level. A
message refused here costs one bounded parse; a message stored costs forever.

How: two C-speed counts (bytes, lines) bound the work, then the stdlib parser (``compat32``, the
fastest policy) builds the tree through a :class:`Message` subclass that counts as the parser goes
(``attach`` sees every nesting level, ``set_raw`` every header field), so a hostile structure is
refused at its first excess instead of after a full parse. CPU-heavy: callers run :func:`screen`
in a worker thread (:func:`screen_off_loop`), never on the world's event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.feedparser import BytesFeedParser
from email.message import Message
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.policy import default as default_policy
from email.utils import getaddresses
from typing import Any

from . import limits

__all__ = [
    "MessageRefused",
    "Screened",
    "cpu_executor",
    "header_section",
    "header_summary",
    "screen",
    "screen_off_loop",
]


class MessageRefused(Exception):
    """A message over a limit; ``too_big`` tells size-like limits (bytes, lines, header bytes)
    from structure limits (depth, parts, fields, line length): SMTP answers them differently."""

    def __init__(self, problem: str, *, too_big: bool = False) -> None:
        super().__init__(problem)
        self.problem = problem
        self.too_big = too_big


@dataclass(frozen=True)
class Screened:
    """What submission policy needs from a message that passed screening."""

    from_addresses: tuple[str, ...]
    has_from: bool
    sender_addresses: tuple[str, ...]
    has_sender: bool
    subject: str
    has_date: bool
    message_id: str


@dataclass
class _Budget:
    parts: int = 0


class _CountingMessage(Message):
    """A compat32 message that refuses, while being parsed, any structure over the limits."""

    def __init__(self, policy: Any = compat32, *, budget: _Budget) -> None:
        super().__init__(policy)
        self._budget = budget
        self._depth = 1
        self._fields = 0
        self._header_bytes = 0
        budget.parts += 1
        if budget.parts > limits.MAX_MIME_PARTS:
            raise MessageRefused(f"more than {limits.MAX_MIME_PARTS} MIME parts")

    def attach(self, payload: Any) -> None:  # called by the parser for every sub-part
        if isinstance(payload, _CountingMessage):
            payload._depth = self._depth + 1
            if payload._depth > limits.MAX_MIME_DEPTH:
                raise MessageRefused(f"MIME parts nested more than {limits.MAX_MIME_DEPTH} levels deep")
        super().attach(payload)

    def set_raw(self, name: str, value: str) -> None:  # called by the parser for every field
        self._fields += 1
        if self._fields > limits.MAX_HEADER_FIELDS:
            raise MessageRefused(f"more than {limits.MAX_HEADER_FIELDS} header fields in one header section")
        self._header_bytes += len(name) + len(value) + 4  # "name: value\r\n", approximately
        if self._header_bytes > limits.MAX_HEADER_SECTION_BYTES:
            raise MessageRefused(
                f"a header section larger than {limits.MAX_HEADER_SECTION_BYTES // 1024} KiB", too_big=True
            )
        lines = value.split("\n")
        first = len(name) + 1 + len(lines[0].rstrip("\r"))
        if max([first, *(len(line.rstrip("\r")) for line in lines[1:])]) > limits.MAX_HEADER_LINE_BYTES:
            raise MessageRefused(
                f"a header line longer than {limits.MAX_HEADER_LINE_BYTES} characters (RFC 5322 2.1.1)"
            )
        super().set_raw(name, value)


def _check_counts(raw: bytes) -> None:
    if len(raw) > limits.MAX_MESSAGE_BYTES:
        raise MessageRefused(f"larger than {limits.MAX_MESSAGE_BYTES // limits.MIB} MiB", too_big=True)
    lines = raw.count(b"\n") + 1
    if lines > limits.MAX_MESSAGE_LINES:
        raise MessageRefused(f"more than {limits.MAX_MESSAGE_LINES:,} lines", too_big=True)


def _addresses(values: Iterable[Any]) -> tuple[str, ...]:
    return tuple(addr for _, addr in getaddresses([str(v) for v in values]) if addr)


def header_section(raw: bytes) -> bytes:
    """The top-level header section of ``raw`` with its blank line (all of ``raw`` if none)."""
    ends = [i + len(sep) for sep in (b"\r\n\r\n", b"\n\n") if (i := raw.find(sep)) >= 0]
    return raw[: min(ends)] if ends else raw


def header_summary(raw: bytes) -> tuple[Message, str]:
    """The top-level header section, parsed as checkers parse it (``policy.default``), and the
    whitespace-normalised subject ("" if undecodable)."""
    headers = BytesHeaderParser(policy=default_policy).parsebytes(header_section(raw))
    try:
        subject = " ".join(str(headers.get("subject", "")).split())
    except Exception:  # an undecodable Subject: the audit can live without it
        subject = ""
    return headers, subject


def screen(raw: bytes) -> Screened:
    """Check ``raw`` against the message limits; raise :class:`MessageRefused` over any of them.

    Malformed MIME is *not* refused (mail servers store what they receive; the admin plane reads
    it leniently); only sizes and structures over the limits are.
    """
    _check_counts(raw)
    budget = _Budget()
    parser = BytesFeedParser(_factory=lambda policy=compat32: _CountingMessage(policy, budget=budget), policy=compat32)
    budget.parts = 0  # the parser made one message to probe the factory
    try:
        parser.feed(raw)
        parser.close()
    except RecursionError:  # cannot happen within MAX_MIME_DEPTH; a last line of defence
        raise MessageRefused(f"MIME parts nested more than {limits.MAX_MIME_DEPTH} levels deep") from None
    headers, subject = header_summary(raw)
    try:
        from_addresses = _addresses(headers.get_all("from", []))
    except Exception:
        from_addresses = ("(unparseable From: field)",)
    try:
        sender_addresses = _addresses(headers.get_all("sender", []))
    except Exception:
        sender_addresses = ("(unparseable Sender: field)",)
    try:
        message_id = str(headers.get("message-id") or "").strip()
    except Exception:
        message_id = ""
    return Screened(
        from_addresses=from_addresses,
        has_from="from" in headers,
        sender_addresses=sender_addresses,
        has_sender="sender" in headers,
        subject=subject,
        has_date="date" in headers,
        message_id=message_id,
    )


_executor: ThreadPoolExecutor | None = None


def cpu_executor() -> ThreadPoolExecutor:
    """Two worker threads shared by every world of the process for message parsing.

    Why not ``asyncio.to_thread``: the default executor has up to 32 threads, and several hostile
    parses at once would starve the event loop of the GIL; two keep the loop answering.
    """
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="clawmark-mail-parse")
    return _executor


async def screen_off_loop(raw: bytes) -> Screened:
    """:func:`screen` in a worker thread (the world's event loop keeps serving meanwhile)."""
    return await asyncio.get_running_loop().run_in_executor(cpu_executor(), screen, raw)
