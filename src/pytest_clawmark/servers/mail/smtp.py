"""aiosmtpd's SMTP server as the world's mail submission service, on the world's event loop.

Policy (what a real submission server on port 587 does, minus TLS on loopback):

* ``AUTH PLAIN`` / ``AUTH LOGIN`` in the clear (loopback only); **unauthenticated submission is
  refused** with ``530 5.7.0``, so every message is attributable to an account;
* the envelope sender must be the authenticated address (``553 5.7.1`` otherwise): the agent
  cannot send as a colleague;
* so must every address in the ``From:`` field, and in ``Sender:`` if there is one
  (``550 5.7.60``, Exchange's "client does not have permissions to send as this sender"), so
  checkers may trust ``From:`` on everything delivered; a message without ``From:`` gets one;
* any syntactically valid recipient is accepted (people of the world get it in their INBOX,
  everyone else in the catch-all, see :mod:`.delivery`); at most 100 recipients;
* content is stored as received, even malformed MIME (mail servers do not police MIME), within
  the limits of :mod:`.limits`, checked by :mod:`.screening` in a worker thread (``552 5.3.4``
  for size, ``554 5.6.0`` for structure) and within the world's store quota (``552 5.3.1``);
  ``Date``/``Message-ID`` are added when missing.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from ...faults import FaultGate
from ..loop import bind_loopback
from . import limits
from .delivery import Postmaster
from .imap import AuditCallback
from .screening import MessageRefused, Screened, screen_off_loop
from .smtpdata import BoundedSMTP
from .store import Usage

__all__ = ["SubmissionHandler", "SmtpServer", "start_smtp", "sender_problem", "MAX_RECIPIENTS", "DATA_SIZE_LIMIT"]

MAX_RECIPIENTS = limits.MAX_RECIPIENTS
DATA_SIZE_LIMIT = limits.MAX_MESSAGE_BYTES
HOSTNAME = "clawmark.local"
TRACE_ALLOWANCE = b"X" * 500 + b"\n" * 6
"""What the trace and added headers of one stored copy may add (quota estimate)."""
SUBMISSION = "SMTP submission"
"""The operation injected SMTP faults are counted under: a later delivered mail recovers them."""
_DATA_FAULTS: weakref.WeakKeyDictionary[Envelope, int] = weakref.WeakKeyDictionary()
"""Submissions drawn a ``451`` at MAIL FROM, answered at their DATA (request number kept)."""


def sender_problem(screened: Screened, login: str) -> str | None:
    """Why the message's author fields do not name ``login``, or None (a missing ``From:`` is
    fine: the server adds one)."""
    own = login.lower()
    for field_name, present, addresses in (
        ("From", screened.has_from, screened.from_addresses),
        ("Sender", screened.has_sender, screened.sender_addresses),
    ):
        if not present:
            continue
        others = [a for a in addresses if a.lower() != own]
        if not addresses or others:
            shown = ", ".join(others) if others else "no address"
            return f"{field_name}: names {shown}, but you are authenticated as {login}; send as your own address only"
    return None


class _DropLoginDataDeprecation(logging.Filter):
    """aiosmtpd logs a deprecation warning on every successful AUTH (it sets its own legacy
    ``login_data`` attribute); it says nothing about our use, so keep it out of test output."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "login_data is deprecated" not in record.getMessage()


logging.getLogger("mail.log").addFilter(_DropLoginDataDeprecation())


class SubmissionHandler:
    """aiosmtpd handler: authentication, envelope policy, delivery and audit."""

    def __init__(
        self,
        postmaster: Postmaster,
        passwords: Mapping[str, str],
        *,
        clock: Callable[[], datetime],
        audit: AuditCallback,
        domain: str,
        faults: FaultGate | None = None,
    ) -> None:
        self.faults = faults
        """Injected faults (:mod:`pytest_clawmark.faults`): ``421`` at MAIL FROM, ``451`` at DATA,
        or a delay; a faulted submission is not delivered, a later delivered one recovers it."""
        self.postmaster = postmaster
        self.passwords = {login.lower(): (login, pw) for login, pw in passwords.items()}
        self.clock = clock
        self.audit = audit
        self.domain = domain

    # -- AUTH --------------------------------------------------------------------------------
    def authenticate(
        self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, auth_data: Any
    ) -> AuthResult:
        if not isinstance(auth_data, LoginPassword):
            return AuthResult(success=False, handled=False)
        login = auth_data.login.decode("utf-8", "replace")
        password = auth_data.password.decode("utf-8", "replace")
        account = self.passwords.get(login.lower())
        ok = account is not None and account[1] == password
        self.audit("SMTP AUTH", login, mechanism, "235" if ok else "535")
        if not ok:
            return AuthResult(success=False, handled=False)
        return AuthResult(success=True, handled=False, auth_data=account[0])  # type: ignore[index]

    # -- envelope ----------------------------------------------------------------------------
    async def handle_MAIL(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, mail_options: list[str]
    ) -> str:
        login = session.auth_data if session.authenticated else None
        if not login:
            self.audit("SMTP MAIL", address, "unauthenticated submission", "530")
            return "530 5.7.0 Authentication required"
        if address.lower() != str(login).lower():
            self.audit("SMTP MAIL", address, f"as {login}: sender not owned", "553")
            return f"553 5.7.1 <{address}>: Sender address not owned by user {login}"
        refused = await self._fault(envelope, address)
        if refused:
            if refused.startswith("421") and server.transport is not None:
                # 421 closes the channel: after the reply is written (it is, before the loop's next turn)
                asyncio.get_running_loop().call_soon(server.transport.close)
            return refused
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        if len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return "452 4.5.3 Too many recipients"
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 OK"

    async def handle_exception(self, error: Exception) -> str:
        """A bug of ours or aiosmtpd's: logged with its traceback, answered as a local error
        (aiosmtpd's default answer quotes the exception to the client)."""
        logging.getLogger(__name__).error("SMTP session error", exc_info=error)
        self.audit("SMTP ERROR", "", f"{type(error).__name__}: {error}"[:200], "451")
        return "451 4.3.0 Local error in processing"

    def refused_data(self, session: Session, envelope: Envelope, reply: str) -> None:
        """Audit a DATA phase :class:`.smtpdata.BoundedSMTP` refused before ``handle_DATA``."""
        self.audit(
            "SMTP DATA", ", ".join(envelope.rcpt_tos), f"as {session.auth_data}: refused: {reply[4:]}", reply[:3]
        )

    async def _fault(self, envelope: Envelope, target: str) -> str | None:
        """At MAIL FROM, one draw per submission: ``421`` now, ``451`` at its DATA (kept on the
        envelope), or a delay; None when the submission goes through."""
        if self.faults is None:
            return None
        kind, n = self.faults.decide()
        if kind == "latency":
            self.faults.injected(n, kind, SUBMISSION, target, "delayed")
            await asyncio.sleep(self.faults.profile.latency_ms / 1000)
        elif kind == "closing":
            self.faults.injected(n, kind, SUBMISSION, target, "421")
            return "421 4.3.2 Service not available, closing transmission channel"
        elif kind == "temporary":
            _DATA_FAULTS[envelope] = n
        return None

    def _data_fault(self, envelope: Envelope, target: str) -> str | None:
        n = _DATA_FAULTS.pop(envelope, None)
        if n is None or self.faults is None:
            return None
        self.faults.injected(n, "temporary", SUBMISSION, target, "451")
        return "451 4.3.0 Temporary local problem, try again later"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        login = str(session.auth_data)
        mail_from = envelope.mail_from or ""
        target = ", ".join(envelope.rcpt_tos)
        refused = self._data_fault(envelope, target)
        if refused:
            return refused
        try:
            screened = await screen_off_loop(raw)  # CPU-bound: never on the world's loop
        except MessageRefused as refused:
            if refused.too_big:
                reply = f"552 5.3.4 Message too big for system: {refused.problem}"
            else:
                reply = f"554 5.6.0 Message refused: {refused.problem}"
            self.audit(
                "SMTP DATA",
                target,
                f"as {login}: from {mail_from}; {len(raw)} bytes; refused: {refused.problem}",
                reply[:3],
            )
            return reply
        summary = f"as {login}: from {mail_from}; subject {screened.subject!r}; {len(raw)} bytes"
        forged = sender_problem(screened, login)
        if forged:
            self.audit("SMTP DATA", target, f"{summary}; refused: {forged}", "550")
            return f"550 5.7.60 {forged}"
        copies = self.postmaster.copies(envelope.rcpt_tos, login)
        over = self.postmaster.store.usage().refusal(Usage.of(raw + TRACE_ALLOWANCE, copies))
        if over:
            self.audit("SMTP DATA", target, f"{summary}; refused: {over}", "552")
            return f"552 5.3.1 Mail system full: {over}"
        try:
            message_id, _ = await self.postmaster.submit(
                raw,
                screened,
                mail_from=mail_from,
                rcpt_tos=list(envelope.rcpt_tos),
                login=login,
                when=self.clock(),
                domain=self.domain,
            )
        except Exception:
            logging.getLogger(__name__).exception("mail delivery failed")
            self.audit("SMTP DATA", target, summary, "451")
            return "451 4.3.0 Local error in processing"
        self.audit("SMTP DATA", target, f"{summary}; message-id {message_id}", "250")
        if self.faults is not None:
            self.faults.succeeded(SUBMISSION)
        return f"250 2.0.0 OK: queued as {message_id}"


@dataclass
class SmtpServer:
    server: asyncio.AbstractServer
    port: int
    protocols: weakref.WeakSet[SMTP] = field(default_factory=weakref.WeakSet)
    _closed: bool = False

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.server.close()
        for proto in list(self.protocols):
            if proto.transport is not None:
                proto.transport.close()
        await self.server.wait_closed()


class _TooManyConnections(asyncio.Protocol):
    """The answer to one connection too many: ``421`` as the greeting (RFC 5321 3.1), then close."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        text = f"421 4.7.0 {HOSTNAME} Too many connections (at most {limits.MAX_SMTP_CONNECTIONS} at once), try again later\r\n"
        transport.write(text.encode())  # type: ignore[attr-defined]
        transport.close()


async def start_smtp(handler: SubmissionHandler) -> SmtpServer:
    """Listen on an ephemeral loopback port; call on the world's loop."""
    loop = asyncio.get_running_loop()
    sock = bind_loopback()
    protocols: weakref.WeakSet[SMTP] = weakref.WeakSet()

    def factory() -> asyncio.Protocol:
        if sum(1 for p in protocols if p.transport is not None) >= limits.MAX_SMTP_CONNECTIONS:
            handler.audit("SMTP CONNECT", "", "refused: too many connections", "421")
            return _TooManyConnections()
        proto = BoundedSMTP(
            handler,
            hostname=HOSTNAME,  # the default calls socket.getfqdn() per connection
            ident="clawmark ESMTP",
            auth_require_tls=False,  # loopback only; documented in TOOLS.md
            authenticator=handler.authenticate,
            data_size_limit=DATA_SIZE_LIMIT,
            enable_SMTPUTF8=True,
            timeout=limits.SMTP_IDLE_TIMEOUT_S,
            loop=loop,
        )
        protocols.add(proto)
        return proto

    server = await loop.create_server(factory, sock=sock)
    return SmtpServer(server, sock.getsockname()[1], protocols)
