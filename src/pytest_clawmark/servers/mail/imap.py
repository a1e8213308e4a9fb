"""pymap's IMAP4rev1 server, hosted on a world's event loop, with additions of ours.

1. **One write per response.** pymap writes a response in pieces (every untagged line, every
   literal, the tagged line: one ``transport.write`` each). A client that reads with a
   non-blocking socket then sees half a line: imapclient's ``idle_check()`` reads until the
   socket would block and raises "unterminated line" on a partial one, so IDLE breaks
   (measured, docs/world.md). :class:`OneWriteConnection` renders each response (and each batch
   of IDLE updates) into a buffer and hands it to the transport in one write.
2. **Audit.** Every tagged response is reported to a callback with the command name, the
   mailbox it acted on, a short secret-free summary and the status (``OK``/``NO``/``BAD``).

3. **Mailbox commands that answer instead of crashing.** pymap 0.36's maildir backend has
   gaps that end the connection with ``BYE [SERVERBUG]`` or hang it: COPY stores an empty
   message (it copies metadata read with ``get_message_metadata``), CREATE of an existing
   folder or of ``a/b`` without ``a`` raises, RENAME of a missing folder raises, MOVE into the
   selected folder deadlocks on its own lock (answered ``NO [CANNOT]``). :class:`ClawmarkConnectionState`
   answers these the RFC 3501 way (COPY as fetch-then-append through pymap's session API,
   keeping content, flags and internal date; ``NO [ALREADYEXISTS]``/``[NONEXISTENT]``;
   missing parents created), and refuses names the maildir++ layout cannot store faithfully
   (the empty name is the account's root: ``DELETE ""`` would wipe the whole account; a ``.``
   inside a level is the on-disk level separator and aliases another folder).

4. **Names that cannot hang the loop.** See :mod:`.modutf7` (installed on import).

5. **Limits** (:mod:`.limits`): commands are read within a byte budget and vetted before pymap
   parses or runs them (:mod:`.commandguard`: ``BAD [TOOBIG]``/``BAD [LIMIT]``/``BAD``); APPENDed
   messages are screened like SMTP submissions (:mod:`.screening`, ``NO [LIMIT]``); APPEND and COPY
   respect the world's store quota (``NO [OVERQUOTA]``), CREATE the folder count (``NO [LIMIT]``).
   LIST patterns and sequence sets are evaluated without super-linear work (:mod:`.listpattern`,
   :mod:`.seqsets`); message parsing happens once per load, off the loop when large
   (:mod:`.rawmaildir`). Responses are written in one piece up to 1 MiB, then streamed.

Everything else (parsing, state machine, maildir storage, MOVE, IDLE) is pymap's own.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from collections.abc import Callable, Iterable
from contextlib import AsyncExitStack, closing
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from proxyprotocol.reader import ProxyProtocolReader
from proxyprotocol.sock import SocketInfo
from pymap.context import connection_exit, current_command
from pymap.imap import IMAPServer
from pymap.imap.state import ConnectionState
from pymap.parsing.command import Command
from pymap.parsing.command.auth import AppendCommand, CreateCommand, RenameCommand
from pymap.parsing.command.select import CopyCommand, MoveCommand
from pymap.parsing.commands import InvalidCommand
from pymap.parsing.message import AppendMessage
from pymap.parsing.response import (
    CommandResponse,
    Response,
    ResponseBad,
    ResponseBye,
    ResponseCode,
    ResponseNo,
    ResponseOk,
    UntaggedResponse,
)
from pymap.parsing.response.code import CopyUid
from pymap.parsing.specials import FetchRequirement

from ...faults import FaultGate
from ..loop import bind_loopback
from . import limits, listpattern, modutf7, seqsets
from .commandguard import GuardedReading, RefusedCommand
from .rawmaildir import stored_bytes
from .screening import MessageRefused, header_summary, screen_off_loop
from .store import MailStore, Usage

modutf7.install()
listpattern.install()
seqsets.install()

__all__ = ["AuditCallback", "ClawmarkConnectionState", "ImapServer", "OneWriteConnection", "start_imap"]

AuditCallback = Callable[[str, str, str, str], None]
"""``(operation, target, summary, status)`` — what the mail service records per agent action."""

_log = logging.getLogger(__name__)


MAX_MAILBOX_NAME = limits.MAX_MAILBOX_NAME_BYTES
RESPONSE_CHUNK_BYTES = 1024 * 1024
"""Responses up to this size leave in one write (what IDLE clients need); larger ones (a FETCH of
many bodies) are streamed in pieces of about this size, so memory stays bounded."""


def invalid_mailbox_name(name: str) -> str | None:
    """Why the maildir++ layout cannot store ``name`` faithfully, or None."""
    if name == "INBOX":
        return None
    parts = name.split("/")
    if any(not p for p in parts):
        return "Mailbox name has an empty level."
    if any("." in p for p in parts):
        return "Mailbox names may not contain '.' (use '/' for levels)."
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in name):
        return "Mailbox names may not contain control characters."
    if len(name.encode("utf-8")) > MAX_MAILBOX_NAME:  # all levels share one directory name
        return f"Mailbox name longer than {MAX_MAILBOX_NAME} bytes."
    return None


def mailbox_arguments(cmd: Command) -> list[str]:
    """The mailbox names a command acts on (LIST patterns are not names)."""
    if isinstance(cmd, RenameCommand):
        return [cmd.from_mailbox, cmd.to_mailbox]
    if hasattr(cmd, "mailbox_obj"):
        return [cmd.mailbox]  # type: ignore[attr-defined]
    return []


UNFAULTED = frozenset({"CAPABILITY", "LOGOUT"})
"""Commands injected faults leave alone: the capability handshake every client sends on connect
(imaplib gives up on a refused one as "not IMAP4 compliant", which no real outage looks like) and
LOGOUT (there is nothing left to fail)."""


class ClawmarkConnectionState(ConnectionState):
    """pymap's connection state with the mailbox fixes and limits listed in the module docstring.

    ``store`` answers quota questions; ``clock`` dates APPENDed messages that carry no date (the
    in-universe time, never the wall clock).
    """

    def __init__(
        self,
        login: Any,
        config: Any,
        *,
        store: MailStore,
        clock: Callable[[], datetime],
        faults: FaultGate | None = None,
        drop: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(login, config)
        self.store = store
        self.clock = clock
        self.faults = faults
        self.drop = drop  # closes this connection without a word (the ``drop`` fault)
        self.faulted_tag: bytes | None = None  # the command a fault answered (audited as the fault)

    async def do_command(self, cmd: Command) -> CommandResponse:
        if self.faults is None or _text(cmd.command) in UNFAULTED:
            return await self._do_command(cmd)
        operation = f"IMAP {_text(cmd.command)}"
        kind, n = self.faults.decide()
        if kind == "latency":
            self.faults.injected(n, kind, operation, "", "delayed")
            await asyncio.sleep(self.faults.profile.latency_ms / 1000)
        elif kind is not None:
            return self._fault(cmd, operation, kind, n)
        response = await self._do_command(cmd)
        if response.condition == ResponseOk.condition:
            self.faults.succeeded(operation)
        return response

    def _fault(self, cmd: Command, operation: str, kind: str, n: int) -> CommandResponse:
        """An injected failure instead of the command (which is not run: nothing is applied)."""
        assert self.faults is not None
        self.faulted_tag = cmd.tag
        text = b"Server temporarily unavailable, try again."
        if kind == "drop" and self.drop is not None:
            self.faults.injected(n, kind, operation, "", "dropped")
            self.drop()
            raise ConnectionResetError("connection dropped (injected fault)")
        response = ResponseNo(cmd.tag, text, ResponseCode.of(b"UNAVAILABLE"))
        if kind in ("bye", "drop"):
            response.add_untagged(
                ResponseBye(b"Server shutting down, reconnect later.", ResponseCode.of(b"UNAVAILABLE"))
            )
            self.faults.injected(n, "bye", operation, "", "BYE")
        else:
            self.faults.injected(n, kind, operation, "", "NO")
        return response

    async def _do_command(self, cmd: Command) -> CommandResponse:
        if isinstance(cmd, RefusedCommand):
            return ResponseBad(cmd.tag, cmd.text, ResponseCode.of(cmd.code) if cmd.code else None)
        if isinstance(cmd, InvalidCommand) and cmd.parse_exc is not None and cmd.parse_exc.code is not None:
            return ResponseBad(cmd.tag, cmd.message, cmd.parse_exc.code)  # e.g. [TOOBIG] for a literal
        # The maildir++ layout maps a name to a directory ``.`` + levels joined by ``.``: the
        # empty name is the account's root (DELETE "" would wipe every folder) and a ``.``
        # inside a level aliases another folder. Refuse such names before pymap sees them.
        if self._session is not None:
            for name in mailbox_arguments(cmd):
                problem = invalid_mailbox_name(name)
                if problem:
                    return ResponseNo(cmd.tag, problem.encode(), ResponseCode.of(b"CANNOT"))
        return await super().do_command(cmd)

    def _over_quota(self, tag: bytes, messages: list[bytes]) -> ResponseNo | None:
        more = Usage()
        for raw in messages:
            more = more + Usage.of(raw)
        problem = self.store.usage().refusal(more)
        if problem is None:
            return None
        return ResponseNo(tag, f"Over quota: {problem}.".encode(), ResponseCode.of(b"OVERQUOTA"))

    async def do_append(self, cmd: AppendCommand) -> Any:
        if cmd.cancelled or cmd.error:
            return await super().do_append(cmd)
        for message in cmd.messages:
            try:
                await screen_off_loop(bytes(message.literal))
            except MessageRefused as refused:
                text = f"Message refused: {refused.problem}."
                return ResponseNo(cmd.tag, text.encode("ascii", "replace"), ResponseCode.of(b"LIMIT")), None
        over = self._over_quota(cmd.tag, [bytes(m.literal) for m in cmd.messages])
        if over is not None:
            return over, None
        now = self.clock()
        cmd.messages = [m if m.when is not None else dataclasses.replace(m, when=now) for m in cmd.messages]
        return await super().do_append(cmd)

    async def _folders(self) -> set[str]:
        """Folders that exist (LIST also shows implied parents as ``\\Noselect``)."""
        tree = await self.session.mailbox_set.list_mailboxes()  # type: ignore[attr-defined]
        return {entry.name for entry in tree.list() if entry.exists}

    async def do_create(self, cmd: CreateCommand) -> Any:
        name = cmd.mailbox
        folders = await self._folders()
        if name in folders:
            return ResponseNo(cmd.tag, b"Mailbox already exists.", ResponseCode.of(b"ALREADYEXISTS")), None
        parts = name.split("/")
        too_many = self._too_many_folders(cmd.tag, folders, name)
        if too_many is not None:
            return too_many, None
        for i in range(1, len(parts)):  # RFC 3501 6.3.3: create superior names as needed
            parent = "/".join(parts[:i])
            if parent not in folders:
                await self.session.mailbox_set.add_mailbox(parent)  # type: ignore[attr-defined]
        return await super().do_create(cmd)

    async def do_rename(self, cmd: RenameCommand) -> Any:
        folders = await self._folders()
        if cmd.from_mailbox not in folders:
            return ResponseNo(cmd.tag, b"Mailbox does not exist.", ResponseCode.of(b"NONEXISTENT")), None
        if cmd.to_mailbox in folders:
            return ResponseNo(cmd.tag, b"Mailbox already exists.", ResponseCode.of(b"ALREADYEXISTS")), None
        too_many = self._too_many_folders(cmd.tag, folders - {cmd.from_mailbox}, cmd.to_mailbox)
        if too_many is not None:
            return too_many, None
        return await super().do_rename(cmd)

    @staticmethod
    def _too_many_folders(tag: bytes, folders: set[str], name: str) -> ResponseNo | None:
        """``NO [LIMIT]`` if creating ``name`` and its missing parents would exceed the limit."""
        parts = name.split("/")
        new = {"/".join(parts[:i]) for i in range(1, len(parts) + 1)} - folders - {"INBOX"}
        if len(folders - {"INBOX"}) + len(new) <= limits.MAX_FOLDERS_PER_ACCOUNT:
            return None
        text = f"An account holds at most {limits.MAX_FOLDERS_PER_ACCOUNT} folders."
        return ResponseNo(tag, text.encode(), ResponseCode.of(b"LIMIT"))

    async def do_move(self, cmd: MoveCommand) -> Any:
        if cmd.mailbox == str(self.selected.lookup):
            return ResponseNo(
                cmd.tag, b"Source and destination are the same mailbox.", ResponseCode.of(b"CANNOT")
            ), None
        return await super().do_move(cmd)

    async def do_copy(self, cmd: CopyCommand) -> Any:
        selected = self.selected
        found, _ = await self.session.fetch_messages(selected, cmd.sequence_set, False)
        sources: list[int] = []
        appends: list[AppendMessage] = []
        for _, msg in found:
            if msg.expunged:
                continue
            raw = stored_bytes(msg)
            if raw is None:
                loaded = await msg.load_content(FetchRequirement.CONTENT)
                raw = bytes(loaded)
            sources.append(msg.uid)
            appends.append(AppendMessage(raw, msg.internal_date, frozenset(msg.permanent_flags)))
        if not appends:
            return ResponseOk(cmd.tag, cmd.command + b" completed."), None
        over = self._over_quota(cmd.tag, [bytes(a.literal) for a in appends])
        if over is not None:
            return over, None
        append_uid, updates = await self.session.append_messages(cmd.mailbox, appends, selected=selected)
        copy_uid = CopyUid(append_uid.validity, zip(sources, sorted(append_uid.uids)))
        return ResponseOk(cmd.tag, cmd.command + b" completed.", copy_uid), updates


class OneWriteConnection(GuardedReading):
    """pymap's ``IMAPConnection`` that reads commands within the limits
    (:class:`~.commandguard.GuardedReading`), sends every response in a single write (streamed
    above :data:`RESPONSE_CHUNK_BYTES`) and audits it."""

    def __init__(self, *args: Any, audit: AuditCallback, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._audit = audit
        self._state: ConnectionState | None = None

    async def run(self, state: ConnectionState) -> None:
        self._state = state
        await super().run(state)

    async def _send(self, responses: Iterable[Response]) -> bytes:
        buffer = io.BytesIO()
        sent = b""
        for resp in responses:
            await resp.async_write(buffer)  # runs FETCH's content-loading hooks, then renders
            if buffer.tell() > RESPONSE_CHUNK_BYTES:  # a huge FETCH: stream it
                self.writer.write(buffer.getvalue())
                await self.writer.drain()
                sent = sent or buffer.getvalue()[:1024]
                buffer = io.BytesIO()
        data = buffer.getvalue()
        if data:
            self.writer.write(data)
            await self.writer.drain()
        return sent + data if sent else data

    async def write_response(self, resp: Response) -> None:
        try:
            data = await self._send([resp])
        except ConnectionError:
            pass
        else:
            self._print("%s <--| %s", data)
        if isinstance(resp, CommandResponse) and resp.tag not in (b"*", b"+"):
            self._record(resp)

    async def write_updates(self, untagged: Iterable[UntaggedResponse]) -> None:
        """IDLE updates: one batch, one write (the stock version writes each separately)."""
        try:
            data = await self._send(list(untagged))
        except ConnectionError:
            pass
        else:
            self._print("%s <--| %s", data)

    def _record(self, resp: CommandResponse) -> None:
        cmd = current_command.get(None)
        if cmd is None or self._state is None:
            return
        if getattr(self._state, "faulted_tag", None) == resp.tag:
            self._state.faulted_tag = None  # type: ignore[attr-defined]
            return  # an injected fault: the fault's own audit entry says what the agent got
        try:
            operation, target, summary = describe(cmd, self._state)
            self._audit(operation, target, summary, resp.condition.decode("ascii", "replace"))
        except Exception:  # pragma: no cover - the audit must never break a connection
            _log.exception("could not audit an IMAP command")


def _text(value: Any) -> str:
    try:
        return bytes(value).decode("utf-8", "replace")
    except (TypeError, NotImplementedError):
        return str(value)


def _search_key(key: Any) -> str:
    """A search key as text: pymap cannot serialise keys, so name it and its simple filter."""
    text = ("NOT " if key.inverse else "") + _text(key.key)
    flt = key.filter
    if isinstance(flt, (str, int)):
        text += f" {flt!r}"
    elif isinstance(flt, tuple) and all(isinstance(x, str) for x in flt):
        text += " " + " ".join(repr(x) for x in flt)
    elif flt is not None and key.key in (b"SEQSET", b"UID"):
        text += " " + _text(flt)
    return text


AUDIT_HEADER_BYTES = 16 * 1024
"""How much of an APPENDed message the audit reads for its subject (the audit runs on the loop,
even for a refused message)."""


def describe(cmd: Command, state: ConnectionState) -> tuple[str, str, str]:
    """``(operation, target, summary)`` of a command, never including a password or a body."""
    name = _text(cmd.command)
    operation = f"IMAP {name}"
    try:
        user = state.session.owner
    except AttributeError:
        user = ""
    try:
        selected = str(state.selected.lookup)
    except AttributeError:
        selected = ""
    parts: list[str] = []
    target = selected
    if name == "LOGIN":
        target = _text(getattr(cmd, "userid", b""))
    elif name == "AUTHENTICATE":
        target = _text(getattr(cmd, "mech_name", b""))
    elif hasattr(cmd, "mailbox_obj") and name in ("COPY", "MOVE", "UID COPY", "UID MOVE"):
        target = f"{selected} -> {cmd.mailbox}"  # type: ignore[attr-defined]
    elif hasattr(cmd, "mailbox_obj"):
        target = str(cmd.mailbox)  # type: ignore[attr-defined]
    elif name == "RENAME":
        target = f"{cmd.from_mailbox} -> {cmd.to_mailbox}"  # type: ignore[attr-defined]
    elif name in ("LIST", "LSUB"):
        target = f"{_text(cmd.ref_name)}{_text(cmd.filter)}"  # type: ignore[attr-defined]
    if hasattr(cmd, "sequence_set"):
        parts.append(_text(cmd.sequence_set))  # type: ignore[attr-defined]
    if hasattr(cmd, "attributes"):
        parts.append("(" + " ".join(_text(a) for a in cmd.attributes) + ")")  # type: ignore[attr-defined]
    if hasattr(cmd, "flag_set") and hasattr(cmd, "mode"):
        flags = " ".join(sorted(_text(f) for f in cmd.flag_set))  # type: ignore[attr-defined]
        parts.append(f"{cmd.mode.name} ({flags})")  # type: ignore[attr-defined]
    if hasattr(cmd, "keys") and name.endswith("SEARCH"):
        parts.append(" ".join(sorted(_search_key(k) for k in cmd.keys)))  # type: ignore[attr-defined]
    if name == "APPEND":
        for message in getattr(cmd, "messages", ()):
            _, subject = header_summary(bytes(message.literal[:AUDIT_HEADER_BYTES]))
            parts.append(f"{len(message.literal)} bytes, subject {subject!r}")
    summary = " ".join(p for p in parts if p)
    if user:
        summary = f"as {user}" + (f": {summary}" if summary else "")
    return operation, target, summary


class AuditedImapServer(IMAPServer):
    """pymap's connection factory, making :class:`OneWriteConnection` and tracking connections
    so that :meth:`ImapServer.close` can end them."""

    def __init__(
        self, store: MailStore, audit: AuditCallback, clock: Callable[[], datetime], faults: FaultGate | None = None
    ) -> None:
        super().__init__(store.login, store.config)
        self.store = store
        self.audit = audit
        self.clock = clock
        self.faults = faults
        self.writers: set[asyncio.StreamWriter] = set()

    async def __call__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, sock_info: SocketInfo) -> None:
        if len(self.writers) >= limits.MAX_IMAP_CONNECTIONS:  # RFC 3501 7.1.5: BYE as the greeting
            text = f"* BYE [UNAVAILABLE] Too many connections (at most {limits.MAX_IMAP_CONNECTIONS} at once).\r\n"
            writer.write(text.encode())
            self.audit("IMAP CONNECT", "", "refused: too many connections", "BYE")
            try:
                await writer.drain()
            finally:
                writer.close()
            return
        conn = OneWriteConnection(self.commands, self._config, reader, writer, sock_info, audit=self.audit)
        state = ClawmarkConnectionState(
            self._login,
            self._config,
            store=self.store,
            clock=self.clock,
            faults=self.faults,
            drop=writer.transport.abort,
        )
        self.writers.add(writer)
        try:
            async with AsyncExitStack() as stack:
                connection_exit.set(stack)
                stack.enter_context(closing(conn))
                await conn.run(state)
        except Exception as exc:
            # pymap has already answered ``* BYE [SERVERBUG]`` and closed; keep the failure in
            # the audit log and our log instead of an unretrieved task exception.
            _log.warning("IMAP connection ended by a server error", exc_info=True)
            self.audit("IMAP SERVERBUG", "", f"{type(exc).__name__}: {exc}"[:200], "BYE")
        finally:
            self.writers.discard(writer)


@dataclass
class ImapServer:
    server: asyncio.AbstractServer
    handler: AuditedImapServer
    port: int
    _closed: bool = field(default=False)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.server.close()
        for writer in list(self.handler.writers):
            writer.close()
        await self.server.wait_closed()


async def start_imap(
    store: MailStore, audit: AuditCallback, clock: Callable[[], datetime], faults: FaultGate | None = None
) -> ImapServer:
    """Listen on an ephemeral loopback port; call on the world's loop. ``clock`` is the
    in-universe time (the date of APPENDed messages that name none); ``faults`` the agent plane's
    injected faults (:mod:`pytest_clawmark.faults`), if any."""
    sock = bind_loopback()
    handler = AuditedImapServer(store, audit, clock, faults)
    callback = ProxyProtocolReader(store.config.proxy_protocol).get_callback(handler)
    server = await asyncio.start_server(callback, sock=sock, limit=limits.MAX_COMMAND_LINE_BYTES)
    return ImapServer(server, handler, sock.getsockname()[1])
