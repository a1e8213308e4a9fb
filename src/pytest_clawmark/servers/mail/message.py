"""Mail messages for the admin plane: building them (turn setup) and reading them (checkers).

Why the stdlib ``email`` package both ways: hand-built MIME is where encodings, folding and
attachment names go wrong. Building is made deterministic (the same seed gives the same bytes:
multipart boundaries derived from the content, dates from the in-universe clock), so two worlds
seeded alike have identical mailboxes and snapshots.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import mimetypes
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from email import policy
from email.headerregistry import Address, BaseHeader, HeaderRegistry
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime, getaddresses, parsedate_to_datetime
from pathlib import Path
from typing import Any

__all__ = [
    "Attachment",
    "AttachmentSpec",
    "Message",
    "ParsedMessages",
    "address_list",
    "build_message",
    "parse_message",
    "ENVELOPE_FROM",
    "ENVELOPE_TO",
    "AUTHENTICATED_AS",
]

ENVELOPE_FROM = "X-Clawmark-Envelope-From"
ENVELOPE_TO = "X-Clawmark-Envelope-To"
AUTHENTICATED_AS = "X-Clawmark-Authenticated-As"
"""Trace headers on the copies kept in the sent ledger (the SMTP envelope, which Bcc lives in)."""

AttachmentSpec = str | Path | tuple[str, bytes] | tuple[str, bytes, str]
"""An attachment to build: a file path, ``(filename, data)`` or ``(filename, data, content_type)``."""


@dataclass(frozen=True)
class Attachment:
    """A non-inline MIME part with a filename."""

    filename: str
    content_type: str
    data: bytes = field(repr=False)

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def to_json(self) -> dict[str, Any]:
        return {"filename": self.filename, "content_type": self.content_type, "size": self.size, "sha256": self.sha256}


@dataclass(frozen=True)
class Message:
    """One stored copy of a mail, as checkers see it.

    ``mailbox`` is the owner's address (``"outside"`` for the catch-all, ``"sent"`` for the sent
    ledger), ``folder`` the IMAP folder, ``uid`` its UID there (delivery order).
    ``envelope_to`` is who the copy was delivered to (``Delivered-To``) or, in the sent ledger,
    every SMTP recipient including Bcc. ``flags`` are IMAP flags such as ``\\Seen``.
    """

    mailbox: str
    folder: str
    uid: int
    sender: str
    sender_name: str
    to: tuple[str, ...]
    cc: tuple[str, ...]
    subject: str
    date: datetime | None
    message_id: str
    in_reply_to: str
    text: str
    html: str
    attachments: tuple[Attachment, ...]
    flags: tuple[str, ...]
    envelope_to: tuple[str, ...]
    sent_by: str
    internal_date: datetime | None = None
    headers: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    raw: bytes = field(default=b"", repr=False)
    defects: tuple[str, ...] = ()

    @property
    def seen(self) -> bool:
        return "\\Seen" in self.flags

    @property
    def recipients(self) -> tuple[str, ...]:
        """Every address the mail went to: To, Cc and envelope recipients (Bcc), lower-cased."""
        seen: dict[str, None] = {}
        for a in (*self.to, *self.cc, *self.envelope_to):
            seen.setdefault(a.lower(), None)
        return tuple(seen)

    def attachment(self, filename: str) -> Attachment:
        """The attachment named exactly ``filename``; AssertionError if absent or ambiguous."""
        found = [a for a in self.attachments if a.filename == filename]
        if len(found) != 1:
            names = [a.filename for a in self.attachments]
            raise AssertionError(f"mail {self.subject!r} has {len(found)} attachments named {filename!r} (has {names})")
        return found[0]

    def to_json(self, *, inline_limit: int | None = None) -> dict[str, Any]:
        """Deterministic JSON (UIDs left out: they are a protocol detail that restore renumbers)."""
        data: dict[str, Any] = {
            "from": self.sender,
            "from_name": self.sender_name,
            "to": list(self.to),
            "cc": list(self.cc),
            "subject": self.subject,
            "date": self.date.isoformat() if self.date else None,
            "message_id": self.message_id,
            "in_reply_to": self.in_reply_to,
            "text": self.text,
            "html": self.html,
            "attachments": [a.to_json() for a in self.attachments],
            "flags": list(self.flags),
            "envelope_to": list(self.envelope_to),
            "sent_by": self.sent_by,
            "internal_date": self.internal_date.isoformat() if self.internal_date else None,
            "headers": [list(h) for h in self.headers],
            "raw_sha256": hashlib.sha256(self.raw).hexdigest(),
            "raw_size": len(self.raw),
        }
        if inline_limit is None or len(self.raw) <= inline_limit:
            data["raw_base64"] = base64.b64encode(self.raw).decode("ascii")
        return data


def address_list(values: Iterable[str]) -> tuple[str, ...]:
    """Bare addresses out of header values (``"A <a@x>, b@y"`` → ``("a@x", "b@y")``)."""
    return tuple(addr for _, addr in getaddresses([str(v) for v in values]) if addr)


def _header_text(msg: EmailMessage, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # a header the parser cannot decode: keep what we can
        return ""
    return "" if value is None else " ".join(str(value).split())


_HEADER_CLASSES: dict[str, type] = {}
_HEADERS: dict[tuple[str, str], BaseHeader] = {}
_HEADERS_MAX = 8192
_HEADER_VALUE_MAX = 998
"""Parsed header objects by (name, value), shared by every message of the process (see
_Registry): at most 8,192 of them, each of a value no longer than a header line may be (RFC 5322),
so the table stays small whatever mail an agent sends."""


class _Registry(HeaderRegistry):
    """The stdlib's header registry, building each header name's class once per process and
    parsing each distinct header line once.

    Why: ``HeaderRegistry.__getitem__`` creates a new class with ``type()`` on every header it
    makes (~45 µs each; a message has ~17): the largest part of building a small message. The
    classes are made alike every time, so one per name is the same behaviour. (No instance of this
    class gets ``map_to_type``: the stdlib's table of header types is the only one.)

    The parse itself (the stdlib's RFC 5322 parser, ~20-60 µs a header) was then most of building
    and reading a mail, and most header lines repeat across a world's mails (``From``, ``To``,
    ``Content-Type``, ``MIME-Version``...). Header objects are immutable strings whose parse
    depends only on their name and value, so the same object serves every message: a bounded
    table, emptied when full (a miss only costs the parse).
    """

    def __getitem__(self, name: str) -> type:
        key = name.lower()
        cls = _HEADER_CLASSES.get(key)
        if cls is None:
            cls = _HEADER_CLASSES[key] = super().__getitem__(name)
        return cls

    def __call__(self, name: str, value: Any) -> BaseHeader:
        if type(value) is not str or len(value) > _HEADER_VALUE_MAX:  # Address objects; huge lines
            return super().__call__(name, value)
        key = (name, value)
        header = _HEADERS.get(key)
        if header is None:
            header = super().__call__(name, value)
            if len(_HEADERS) >= _HEADERS_MAX:
                _HEADERS.clear()
            _HEADERS[key] = header
        return header


SMTP_POLICY = policy.SMTP.clone(header_factory=_Registry())
"""The policy messages are built with: ``policy.SMTP`` (CRLF line ends) with :class:`_Registry`."""


READING_POLICY = policy.default.clone(header_factory=_Registry())
"""The policy stored mail is read with: ``policy.default`` with :class:`_Registry`.

Besides the shared parses, this matters because with ``policy.default`` the stdlib parses a header
anew on every access, and the parser itself asks each part for its content type about ten times
(measured: 5,000 Content-Type parses for 500 parts, 80% of the time to read such a message)."""


def parse_message(
    raw: bytes,
    *,
    mailbox: str,
    folder: str,
    uid: int,
    flags: Sequence[str] = (),
    internal_date: datetime | None = None,
) -> Message:
    """Parse stored bytes leniently: malformed mail still yields a Message (with ``defects``)."""
    msg: EmailMessage = BytesParser(policy=READING_POLICY).parsebytes(raw)  # type: ignore[assignment]
    defects = [type(d).__name__ for d in msg.defects]
    try:
        from_pairs = getaddresses([str(v) for v in msg.get_all("from", [])])
    except Exception:
        from_pairs = []
    sender_name, sender = from_pairs[0] if from_pairs else ("", "")
    date: datetime | None = None
    try:
        date_value = msg.get("date")
        if date_value is not None:
            date = parsedate_to_datetime(str(date_value))
    except Exception:
        date = None
    text_parts: list[str] = []
    html_parts: list[str] = []
    attachments: list[Attachment] = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        try:
            filename = part.get_filename()
            disposition = part.get_content_disposition()
            ctype = part.get_content_type()
            if filename or disposition == "attachment":
                payload = part.get_payload(decode=True) or b""
                attachments.append(Attachment(filename or "", ctype, payload))
            elif ctype == "text/plain":
                text_parts.append(part.get_content())
            elif ctype == "text/html":
                html_parts.append(part.get_content())
        except Exception as exc:  # undecodable part: count it, keep going
            defects.append(f"{type(exc).__name__} in {part.get_content_type()}")
    headers: list[tuple[str, str]] = []
    for key, value in msg.raw_items():
        headers.append((key, " ".join(str(value).split())))

    def addresses(name: str) -> tuple[str, ...]:
        try:
            return address_list(msg.get_all(name, []))
        except Exception:
            return ()

    envelope = addresses(ENVELOPE_TO) or addresses("Delivered-To")
    return Message(
        mailbox=mailbox,
        folder=folder,
        uid=uid,
        sender=sender,
        sender_name=sender_name,
        to=addresses("to"),
        cc=addresses("cc"),
        subject=_header_text(msg, "subject"),
        date=date,
        message_id=_header_text(msg, "message-id"),
        in_reply_to=_header_text(msg, "in-reply-to"),
        text="\n".join(t.replace("\r\n", "\n") for t in text_parts),
        html="\n".join(html_parts),
        attachments=tuple(attachments),
        flags=tuple(sorted(flags)),
        envelope_to=envelope,
        sent_by=_header_text(msg, AUTHENTICATED_AS),
        internal_date=internal_date,
        headers=tuple(headers),
        raw=raw,
        defects=tuple(defects),
    )


class ParsedMessages:
    """Parsed stored messages by maildir key, so checker reads and snapshots parse each once.

    Why by key: the bytes under a maildir key never change (flags live in the file name), so a
    key names one parse for the message's life; the per-copy facts (mailbox, folder, UID, flags,
    internal date) are filled in at each read. An entry keeps the raw bytes too, so a read of a
    cached message needs no file read (:meth:`has` tells the store which files it may skip), and
    the snapshot JSON of each copy (:meth:`json`), so a snapshot costs time in what changed.
    Least recently used entries go first once the cached messages exceed ``max_bytes`` of raw
    mail (the parsed text and attachments cost about as much again). The default holds a store
    filled to its quota (``limits.STORE_QUOTA_BYTES``): a smaller cache read in delivery order
    would miss on every message (a sequential scan defeats LRU). Thread-safe: checkers may read
    from several threads.
    """

    def __init__(self, max_bytes: int = 128 * 1024 * 1024) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, Message] = OrderedDict()
        # per key: per copy's facts, the copy and its snapshot JSON by inline limit
        self._copies: dict[str, dict[tuple[Any, ...], tuple[Message, dict[int | None, dict[str, Any]]]]] = {}
        self._bytes = 0
        self._lock = threading.Lock()
        self.parses = 0  # how many parses the cache could not spare (tests, benchmarks)

    def has(self, key: str) -> bool:
        """Whether ``key``'s parse (and bytes) are cached: its file need not be read."""
        with self._lock:
            return bool(key) and key in self._entries

    def get(
        self,
        key: str,
        raw: bytes | None,
        *,
        mailbox: str,
        folder: str,
        uid: int,
        flags: Sequence[str] = (),
        internal_date: datetime | None = None,
    ) -> Message:
        """The parse of ``raw`` stored under ``key``, with this copy's facts. ``raw`` may be None
        for a key :meth:`has` reported cached; KeyError if it was evicted meanwhile."""
        facts = dict(mailbox=mailbox, folder=folder, uid=uid, flags=tuple(sorted(flags)), internal_date=internal_date)
        if not key:
            if raw is None:
                raise KeyError(key)
            return parse_message(raw, **facts)  # type: ignore[arg-type]
        fact_key = self._fact_key(mailbox, folder, uid, facts["flags"], internal_date)  # type: ignore[arg-type]
        with self._lock:
            parsed = self._entries.get(key)
            if parsed is not None:
                self._entries.move_to_end(key)
                hit = self._copies.get(key, {}).get(fact_key)
                if hit is not None:
                    return hit[0]
        if parsed is None:
            if raw is None:
                raise KeyError(key)
            parsed = dataclasses.replace(parse_message(raw, mailbox="", folder="", uid=0), raw=raw)
            with self._lock:
                self.parses += 1
                if key not in self._entries:
                    self._entries[key] = parsed
                    self._bytes += len(raw)
                while self._bytes > self.max_bytes and self._entries:
                    old_key, old = self._entries.popitem(last=False)
                    self._bytes -= len(old.raw)
                    self._copies.pop(old_key, None)
        copy = dataclasses.replace(parsed, **facts)  # type: ignore[arg-type]
        with self._lock:
            if key in self._entries:
                self._copies.setdefault(key, {})[fact_key] = (copy, {})
        return copy

    def json(self, key: str, message: Message, inline_limit: int | None) -> dict[str, Any]:
        """``message.to_json(inline_limit=...)`` of a copy :meth:`get` returned for ``key``,
        computed once per copy (read only: the dict is shared by every snapshot holding it)."""
        fact_key = self._fact_key(message.mailbox, message.folder, message.uid, message.flags, message.internal_date)
        with self._lock:
            hit = self._copies.get(key, {}).get(fact_key)
            if hit is not None and hit[0] is message and inline_limit in hit[1]:
                return hit[1][inline_limit]
        data = message.to_json(inline_limit=inline_limit)
        if hit is not None and hit[0] is message:
            with self._lock:
                hit[1][inline_limit] = data
        return data

    @staticmethod
    def _fact_key(
        mailbox: str, folder: str, uid: int, flags: tuple[str, ...], internal_date: datetime | None
    ) -> tuple[Any, ...]:
        """What tells one stored copy of a message from another (flags sorted)."""
        return (mailbox, folder, uid, flags, internal_date)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._copies.clear()
            self._bytes = 0


def _load_attachment(spec: AttachmentSpec, base_dir: Path) -> tuple[str, bytes, str]:
    if isinstance(spec, (str, Path)):
        path = Path(spec)
        if not path.is_absolute():
            path = base_dir / path
        data = path.read_bytes()
        name = path.name
        ctype = mimetypes.guess_type(name)[0] or "application/octet-stream"
        return name, data, ctype
    if len(spec) == 3:
        name, data, ctype = spec  # type: ignore[misc]
        return name, data, ctype
    name, data = spec  # type: ignore[misc]
    return name, data, mimetypes.guess_type(name)[0] or "application/octet-stream"


def _format_address(address: str, names: dict[str, str]) -> str:
    """``Name <addr>`` for people of the world, the address as given otherwise."""
    if "<" in address:
        return address
    name = names.get(address.lower())
    return str(Address(display_name=name, addr_spec=address)) if name else address


def build_message(
    *,
    sender: str,
    to: Sequence[str],
    cc: Sequence[str],
    subject: str,
    body: str,
    date: datetime,
    message_id: str,
    attachments: Sequence[AttachmentSpec] = (),
    names: dict[str, str] | None = None,
    base_dir: Path = Path("."),
    html: str | None = None,
    in_reply_to: str | None = None,
) -> bytes:
    """A complete RFC 5322 message (CRLF line ends), identical for identical arguments."""
    names = names or {}
    msg = EmailMessage(policy=SMTP_POLICY)
    msg["From"] = _format_address(sender, names)
    if to:
        msg["To"] = ", ".join(_format_address(a, names) for a in to)
    if cc:
        msg["Cc"] = ", ".join(_format_address(a, names) for a in cc)
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg["MIME-Version"] = "1.0"
    msg.set_content(body)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    for spec in attachments:
        name, data, ctype = _load_attachment(spec, base_dir)
        maintype, _, subtype = ctype.partition("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype or "octet-stream", filename=name)
    # Multipart boundaries are random by default; derive them from the content instead.
    seed = hashlib.sha256(message_id.encode("utf-8")).hexdigest()[:16]
    for i, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        part.set_boundary(f"=_clawmark_{seed}_{i}")
    return msg.as_bytes(policy=SMTP_POLICY)
