"""Where mail goes: the world's people get it in their INBOX, everyone else in the catch-all.

Why a catch-all instead of "550 user unknown": an agent that mails an outside party (a
supplier, a regulator, a leak) must leave evidence a checker can read, so nothing sent is lost.
What the user submits over SMTP is also kept in a *sent ledger* with its SMTP envelope (the only
place Bcc recipients exist) and filed in the user's ``Sent`` folder, where a mail client
expects it.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from email.utils import format_datetime
from pathlib import Path

from .message import AUTHENTICATED_AS, ENVELOPE_FROM, ENVELOPE_TO
from .screening import Screened
from .store import MailStore, _home_dir

__all__ = ["OUTSIDE", "SENT_LEDGER", "SENT_FOLDER", "Directory", "Postmaster", "sent_on_disk"]

OUTSIDE = "~outside"
"""The catch-all account: mail to anyone who is not a person of the world."""
SENT_LEDGER = "~sent"
"""The sent ledger account: every message accepted over SMTP, with its envelope."""
SENT_FOLDER = "Sent"


def sent_on_disk(maildir: Path) -> int:
    """How many messages the sent ledger holds in the maildir tree at ``maildir``.

    Why from the files: on the docker backend another process (the container's submission
    filter, or the harness's admin plane) may have written the ledger since this process last
    counted, and :attr:`Postmaster.submissions` names default Message-IDs after that count.
    """
    ledger = maildir / _home_dir(SENT_LEDGER)
    return sum(len(os.listdir(ledger / sub)) for sub in ("cur", "new") if (ledger / sub).is_dir())


@dataclass(frozen=True)
class Directory:
    """Addresses that have a mailbox in this world (matched case-insensitively)."""

    logins: Mapping[str, str]  # lower-cased address -> login

    @classmethod
    def of(cls, addresses: Iterable[str]) -> Directory:
        return cls({a.lower(): a for a in addresses})

    def login_of(self, address: str) -> str | None:
        return self.logins.get(address.strip().lower())


def _trace(name: str, value: str) -> bytes:
    return f"{name}: {value}\r\n".encode()


class Postmaster:
    """Files messages into the store; the one place that decides where a copy goes."""

    def __init__(self, store: MailStore, directory: Directory) -> None:
        self.store = store
        self.directory = directory
        self.submissions = 0  # SMTP messages accepted so far (names default Message-IDs)

    def copies(self, recipients: Iterable[str], login: str) -> int:
        """How many copies :meth:`submit` stores: the ledger's, the sender's ``Sent`` folder's
        (for people of the world) and one per distinct recipient."""
        distinct = {r.strip().lower() for r in recipients if r.strip()}
        return 1 + (1 if self.directory.login_of(login) else 0) + len(distinct)

    async def deliver(
        self, raw: bytes, recipients: Iterable[str], *, when: datetime, return_path: str = ""
    ) -> list[tuple[str, str, int]]:
        """One copy per distinct recipient, each with its ``Delivered-To`` trace header.

        Returns ``(account, folder, uid)`` for every copy, in recipient order.
        """
        copies: list[tuple[str, str, int]] = []
        for account, folder, stored in self.routed(raw, recipients, return_path=return_path):
            copies.append((account, folder, await self.store.append(account, folder, stored, when=when)))
        return copies

    def routed(self, raw: bytes, recipients: Iterable[str], *, return_path: str = "") -> list[tuple[str, str, bytes]]:
        """Where :meth:`deliver` files ``raw``: ``(account, folder, stored bytes)`` per distinct
        recipient, in recipient order (for callers that append many messages in one go)."""
        routed: list[tuple[str, str, bytes]] = []
        done: set[str] = set()
        for rcpt in recipients:
            key = rcpt.strip().lower()
            if not key or key in done:
                continue
            done.add(key)
            account = self.directory.login_of(key) or OUTSIDE
            trace = (_trace("Return-Path", f"<{return_path}>") if return_path else b"") + _trace(
                "Delivered-To", rcpt.strip()
            )
            routed.append((account, "INBOX", trace + raw))
        return routed

    async def file_sent(self, sender_login: str, raw: bytes, *, when: datetime) -> int:
        """A read copy in the sender's ``Sent`` folder."""
        login, folder, stored, flags = self.sent_copy(sender_login, raw)
        return await self.store.append(login, folder, stored, when=when, flags=flags)

    @staticmethod
    def sent_copy(sender_login: str, raw: bytes) -> tuple[str, str, bytes, tuple[str, ...]]:
        """Where :meth:`file_sent` files its copy: ``(login, folder, bytes, flags)``."""
        return sender_login, SENT_FOLDER, raw, ("\\Seen",)

    async def submit(
        self,
        raw: bytes,
        screened: Screened,
        *,
        mail_from: str,
        rcpt_tos: list[str],
        login: str,
        when: datetime,
        domain: str,
    ) -> tuple[str, bytes]:
        """Accept a message the agent submitted over SMTP; returns ``(message_id, stored bytes)``.

        ``screened`` is what :func:`.screening.screen` found in ``raw``. Like a submission server
        (RFC 6409 §8), adds ``Date`` and ``Message-ID`` when missing — from the in-universe clock
        and a counter, so reruns produce the same bytes — and ``From`` (the authenticated
        address), so that every delivered message names its author.
        """
        self.submissions += 1
        added = b""
        if not screened.has_from:
            added += _trace("From", login)
        if not screened.has_date:
            added += _trace("Date", format_datetime(when))
        message_id = screened.message_id
        if not message_id:
            digest = hashlib.sha256(raw).hexdigest()[:12]
            message_id = f"<sent-{self.submissions}.{digest}@{domain}>"
            added += _trace("Message-ID", message_id)
        stored = added + raw
        ledger = (
            _trace(ENVELOPE_FROM, f"<{mail_from}>")
            + _trace(ENVELOPE_TO, ", ".join(rcpt_tos))
            + _trace(AUTHENTICATED_AS, login)
        )
        await self.store.append(SENT_LEDGER, "INBOX", ledger + stored, when=when, flags=("\\Seen",))
        if self.directory.login_of(login):
            await self.file_sent(self.directory.login_of(login) or login, stored, when=when)
        await self.deliver(stored, rcpt_tos, when=when, return_path=mail_from)
        return message_id, stored
