"""aiosmtpd's SMTP server as the world's mail submission service, on the world's event loop.

Policy (what a real submission server on port 587 does, minus TLS on loopback):

* ``AUTH PLAIN`` / ``AUTH LOGIN`` in the clear (loopback only); **unauthenticated submission is
  refused** with ``530 5.7.0``, so every message is attributable to an account;
* the envelope sender must be the authenticated address (``553 5.7.1`` otherwise): the agent
  cannot send as a colleague;
* any syntactically valid recipient is accepted (people of the world get it in their INBOX,
  everyone else in the catch-all, see :mod:`.delivery`); at most 100 recipients;
* content is stored as received, even malformed MIME (mail servers do not police MIME);
  ``Date``/``Message-ID`` are added when missing.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from email.parser import BytesHeaderParser
from email.policy import default as default_policy
from typing import Any

from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from ...world.loop import bind_loopback
from .delivery import Postmaster
from .imap import AuditCallback

__all__ = ["SubmissionHandler", "SmtpServer", "start_smtp", "MAX_RECIPIENTS", "DATA_SIZE_LIMIT"]

MAX_RECIPIENTS = 100
DATA_SIZE_LIMIT = 25 * 1024 * 1024
HOSTNAME = "clawmark.local"


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
    ) -> None:
        self.postmaster = postmaster
        self.passwords = {login.lower(): (login, pw) for login, pw in passwords.items()}
        self.clock = clock
        self.audit = audit
        self.domain = domain

    # -- AUTH --------------------------------------------------------------------------------
    def authenticate(self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, auth_data: Any) -> AuthResult:
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
    async def handle_MAIL(self, server: SMTP, session: Session, envelope: Envelope, address: str, mail_options: list[str]) -> str:
        login = session.auth_data if session.authenticated else None
        if not login:
            self.audit("SMTP MAIL", address, "unauthenticated submission", "530")
            return "530 5.7.0 Authentication required"
        if address.lower() != str(login).lower():
            self.audit("SMTP MAIL", address, f"as {login}: sender not owned", "553")
            return f"553 5.7.1 <{address}>: Sender address not owned by user {login}"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]) -> str:
        if len(envelope.rcpt_tos) >= MAX_RECIPIENTS:
            return "452 4.5.3 Too many recipients"
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        login = str(session.auth_data)
        mail_from = envelope.mail_from or ""
        try:
            subject = " ".join(str(BytesHeaderParser(policy=default_policy).parsebytes(raw).get("subject", "")).split())
        except Exception:
            subject = ""
        summary = f"as {login}: from {mail_from}; subject {subject!r}; {len(raw)} bytes"
        target = ", ".join(envelope.rcpt_tos)
        try:
            message_id, _ = await self.postmaster.submit(
                raw, mail_from=mail_from, rcpt_tos=list(envelope.rcpt_tos), login=login, when=self.clock(), domain=self.domain
            )
        except Exception:
            logging.getLogger(__name__).exception("mail delivery failed")
            self.audit("SMTP DATA", target, summary, "451")
            return "451 4.3.0 Local error in processing"
        self.audit("SMTP DATA", target, f"{summary}; message-id {message_id}", "250")
        return f"250 2.0.0 OK: queued as {message_id}"


@dataclass
class SmtpServer:
    server: asyncio.AbstractServer
    port: int
    protocols: "weakref.WeakSet[SMTP]" = field(default_factory=weakref.WeakSet)
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


async def start_smtp(handler: SubmissionHandler) -> SmtpServer:
    """Listen on an ephemeral loopback port; call on the world's loop."""
    loop = asyncio.get_running_loop()
    sock = bind_loopback()
    protocols: "weakref.WeakSet[SMTP]" = weakref.WeakSet()

    def factory() -> SMTP:
        proto = SMTP(
            handler,
            hostname=HOSTNAME,  # the default calls socket.getfqdn() per connection
            ident="clawmark ESMTP",
            auth_require_tls=False,  # loopback only; documented in TOOLS.md
            authenticator=handler.authenticate,
            data_size_limit=DATA_SIZE_LIMIT,
            enable_SMTPUTF8=True,
            timeout=300,
            loop=loop,
        )
        protocols.add(proto)
        return proto

    server = await loop.create_server(factory, sock=sock)
    return SmtpServer(server, sock.getsockname()[1], protocols)
