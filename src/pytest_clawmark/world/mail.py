"""The ``mail`` service: real SMTP (aiosmtpd) and IMAP4rev1 (pymap, maildir) on loopback.

Agent plane: the agent logs in as the user (login = the user's address) over plain IMAP and
SMTP on loopback; any standard client works (imaplib, imapclient, smtplib, mail agents).
Admin plane: :class:`MailService` seeds mail (:meth:`~MailService.deliver`) and answers
checkers deterministically (:meth:`~MailService.inbox`, :meth:`~MailService.sent`,
:meth:`~MailService.outside`, :meth:`~MailService.find`), straight from the mail store, in
delivery order. Lookups raise :class:`MailNotFound` / :class:`AmbiguousMail`
(``AssertionError``\\ s: the world does not hold what the checker expects) instead of taking a
first match.

Every person of the world has a mailbox; mail to anyone else lands in the outside-world
catch-all (:meth:`~MailService.outside`), so nothing the agent sends is lost.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import socket
from collections.abc import Iterable, Iterator
from datetime import datetime
from email.utils import formataddr, parseaddr
from typing import Any

from ..servers.mail import limits
from ..servers.mail.delivery import OUTSIDE, SENT_LEDGER, Directory, Postmaster
from ..servers.mail.imap import ImapServer, start_imap
from ..servers.mail.message import Attachment, AttachmentSpec, Message, ParsedMessages, build_message
from ..servers.mail.smtp import SmtpServer, SubmissionHandler, start_smtp
from ..servers.mail.store import MailStore, StoredMessage
from .service import Person, Service

__all__ = ["AmbiguousMail", "Attachment", "MailNotFound", "MailService", "Message"]

"""Used for dates before the first turn sets the in-universe clock (seeding in fixtures)."""

USER_FOLDERS = ("Sent", "Drafts", "Trash")

Recipients = str | Person | Iterable[str | Person]


class MailNotFound(AssertionError):
    """No mail matches a checker's lookup."""


class AmbiguousMail(AssertionError):
    """More than one mail matches a lookup that expects exactly one (use ``find_all``)."""


def _person_or_text(who: object) -> str | Person:
    """A Person, ``"a@x"``, ``"Name <a@x>"`` or a ``(name, address)`` pair (as ``Task(user=...)``
    takes one); anything else is a clear TypeError, never a mangled header."""
    if isinstance(who, (str, Person)):
        return who
    if isinstance(who, (tuple, list)) and len(who) == 2 and all(isinstance(x, str) for x in who):
        return Person(who[0], who[1])
    raise TypeError(f"a mail address must be a Person, 'a@x', 'Name <a@x>' or a (name, address) pair, not {who!r}")


def _address(who: str | Person) -> str:
    """The bare address of a Person, ``"a@x"`` or ``"Name <a@x>"``."""
    who = _person_or_text(who)
    if isinstance(who, Person):
        return who.email
    return parseaddr(str(who))[1] or str(who).strip()


def _header_form(who: str | Person) -> str:
    """How to write a recipient in a header: as given (keeps ``Name <a@x>``), or the address."""
    who = _person_or_text(who)
    if isinstance(who, Person):
        return formataddr((who.name, who.email)) if who.name else who.email
    return str(who).strip()


def _recipients(who: Recipients) -> list[str | Person]:
    if isinstance(who, (str, Person)) or (
        isinstance(who, tuple)
        and len(who) == 2
        and all(isinstance(x, str) for x in who)
        and "@" in who[1]
        and "@" not in who[0]
    ):
        return [_person_or_text(who)]  # one recipient (a (name, address) pair is one person, not two addresses)
    return [_person_or_text(w) for w in who]


def _norm(text: str) -> str:
    return " ".join(text.split())


class MailService(Service):
    name = "mail"

    PENDING_LIMIT = 2_000
    """Queued deliveries stored in one go at most (bounds the queue's memory; see :meth:`_flush`)."""
    SNAPSHOT_INLINE_LIMIT = 256 * 1024
    """Messages up to this size are kept whole (base64) in snapshots; larger ones by hash only."""

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> None:
        ctx = self.ctx
        self._imap: ImapServer | None = None
        self._smtp: SmtpServer | None = None
        people = (ctx.user, *ctx.people)
        self._names = {p.email.lower(): p.name for p in people}
        passwords = {ctx.user.email: ctx.credentials.agent_password}
        passwords.update({p.email: ctx.credentials.people_password for p in ctx.people})
        accounts: dict[str, str | None] = {**passwords, OUTSIDE: None, SENT_LEDGER: None}
        self._store = MailStore(ctx.root / "maildir", accounts)
        self._postmaster = Postmaster(self._store, Directory.of(p.email for p in people))
        self._domain = ctx.user.email.rpartition("@")[2] or "clawmark.local"
        self._deliveries = 0  # admin deliveries so far: names default Message-IDs
        self._parsed = ParsedMessages()  # checker reads and snapshots parse each message once
        self._pending: list[tuple[str, str, bytes, datetime, tuple[str, ...]]] = []  # see _flush()
        self._batching = 0  # open batch() blocks

        async def setup() -> None:
            await self._store.setup()
            await self._store.create_folders(ctx.user.email, USER_FOLDERS)

        ctx.loop.call(setup)
        self._serve(passwords)

    def _serve(self, passwords: dict[str, str]) -> None:
        """Start the agent plane's servers on the store (here: pymap and aiosmtpd on the world's
        loop; on the docker backend: Dovecot and Postfix in a container)."""
        handler = SubmissionHandler(
            self._postmaster,
            passwords,
            clock=self._now,
            audit=self._record,
            domain=self._domain,
            faults=self.ctx.fault_gate("smtp"),
        )
        imap_faults = self.ctx.fault_gate("imap")

        async def start() -> None:
            self._imap = await start_imap(self._store, self._record, self._now, imap_faults)
            self._smtp = await start_smtp(handler)

        self.ctx.loop.call(start)

    def stop(self) -> None:
        try:
            self._flush()
        except RuntimeError:  # the loop is already gone
            pass
        imap, smtp = getattr(self, "_imap", None), getattr(self, "_smtp", None)
        self._imap = self._smtp = None

        async def stop() -> None:
            for server in (smtp, imap):
                if server is not None:
                    await server.close()

        if imap is not None or smtp is not None:
            try:
                self.ctx.loop.call(stop, timeout=5)
            except RuntimeError:  # the loop is already gone
                pass

    # -- agent plane ---------------------------------------------------------------------------
    @property
    def imap_port(self) -> int:
        self._flush()
        assert self._imap is not None, "mail service not started"
        return self._imap.port

    @property
    def smtp_port(self) -> int:
        self._flush()
        assert self._smtp is not None, "mail service not started"
        return self._smtp.port

    def agent_env(self) -> dict[str, str]:
        self._flush()
        return {
            "CLAWMARK_IMAP_URL": f"imap://127.0.0.1:{self.imap_port}",
            "CLAWMARK_IMAP_HOST": "127.0.0.1",
            "CLAWMARK_IMAP_PORT": str(self.imap_port),
            "CLAWMARK_SMTP_URL": f"smtp://127.0.0.1:{self.smtp_port}",
            "CLAWMARK_SMTP_HOST": "127.0.0.1",
            "CLAWMARK_SMTP_PORT": str(self.smtp_port),
            "CLAWMARK_MAIL_USER": self.ctx.user.email,
            "CLAWMARK_MAIL_PASSWORD": self.ctx.credentials.agent_password,
        }

    def tools_markdown(self) -> str:
        user = self.ctx.user.email
        return (
            "## Mail (IMAP + SMTP)\n"
            f"- IMAP4rev1: `127.0.0.1:{self.imap_port}` (`$CLAWMARK_IMAP_URL`, `$CLAWMARK_IMAP_HOST`, "
            "`$CLAWMARK_IMAP_PORT`), with IDLE; folders INBOX, Sent, Drafts, Trash.\n"
            f"- SMTP submission: `127.0.0.1:{self.smtp_port}` (`$CLAWMARK_SMTP_URL`, `$CLAWMARK_SMTP_HOST`, "
            "`$CLAWMARK_SMTP_PORT`); log in first (AUTH PLAIN/LOGIN), send as your own address "
            "(envelope sender, `From:` and `Sender:`); messages up to "
            f"{limits.MAX_MESSAGE_BYTES // limits.MIB} MiB, {limits.MAX_RECIPIENTS} recipients.\n"
            f"- Login `{user}` (`$CLAWMARK_MAIL_USER`), password in `$CLAWMARK_MAIL_PASSWORD`.\n"
            "- Plain connections, no TLS/STARTTLS (loopback only). Mail you send is filed in `Sent`.\n\n"
            "```python\n"
            "import os, smtplib\n"
            "from email.message import EmailMessage\n"
            "from imapclient import IMAPClient\n"
            "env = os.environ\n"
            "with IMAPClient(env['CLAWMARK_IMAP_HOST'], port=int(env['CLAWMARK_IMAP_PORT']), ssl=False) as imap:\n"
            "    imap.login(env['CLAWMARK_MAIL_USER'], env['CLAWMARK_MAIL_PASSWORD'])\n"
            "    imap.select_folder('INBOX')\n"
            "    for uid, data in imap.fetch(imap.search(['UNSEEN']), ['ENVELOPE', 'BODY[]']).items():\n"
            "        print(uid, data[b'ENVELOPE'].subject)\n"
            "msg = EmailMessage()\n"
            "msg['From'], msg['To'], msg['Subject'] = env['CLAWMARK_MAIL_USER'], 'someone@example.com', 'Hello'\n"
            "msg.set_content('Hi!')\n"
            "with smtplib.SMTP(env['CLAWMARK_SMTP_HOST'], int(env['CLAWMARK_SMTP_PORT'])) as smtp:\n"
            "    smtp.login(env['CLAWMARK_MAIL_USER'], env['CLAWMARK_MAIL_PASSWORD'])\n"
            "    smtp.send_message(msg)\n"
            "```\n"
        )

    def ping(self) -> None:
        for port, greeting in ((self.imap_port, b"* OK"), (self.smtp_port, b"220")):
            with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
                line = sock.makefile("rb").readline()
            if not line.startswith(greeting):
                raise ConnectionError(f"mail port {port} answered {line[:60]!r}")

    # -- admin plane: setup --------------------------------------------------------------------
    def deliver(
        self,
        sender: str | Person,
        to: Recipients,
        subject: str,
        body: str,
        *,
        cc: Recipients = (),
        attachments: Iterable[AttachmentSpec] = (),
        date: datetime | None = None,
        message_id: str | None = None,
        html: str | None = None,
        in_reply_to: str | None = None,
        silent: str | None = None,
    ) -> str:
        """Deliver a mail as if ``sender`` had sent it; returns its Message-ID.

        Addresses are :class:`Person` objects, ``"a@x"`` or ``"Name <a@x>"`` (people of the world
        get their name in the headers automatically).

        People of the world get it in their INBOX, other recipients in the catch-all; a mail
        "from" the user is also filed in the user's Sent folder. ``date`` defaults to the
        in-universe clock; ``message_id`` to one derived from the content and a counter.
        Attachment paths are relative to the task's folder.
        """
        from_addr = _address(sender)
        to_given, cc_given = _recipients(to), _recipients(cc)
        to_list, cc_list = [_address(w) for w in to_given], [_address(w) for w in cc_given]
        if not any(to_list + cc_list):
            raise ValueError("deliver() needs at least one recipient")
        when = date or self._now()
        self._deliveries += 1
        if message_id is None:
            digest = hashlib.sha256(
                "\0".join([from_addr, *to_list, *cc_list, subject, when.isoformat()]).encode()
            ).hexdigest()
            domain = from_addr.rpartition("@")[2] or self._domain
            message_id = f"<seed-{self._deliveries}.{digest[:12]}@{domain}>"
        raw = build_message(
            sender=_header_form(sender),
            to=[_header_form(w) for w in to_given],
            cc=[_header_form(w) for w in cc_given],
            subject=subject,
            body=body,
            date=when,
            message_id=message_id,
            attachments=list(attachments),
            names=self._names,
            base_dir=self.ctx.task_dir,
            html=html,
            in_reply_to=in_reply_to,
        )
        user = self.ctx.user.email
        for account, folder, stored in self._postmaster.routed(raw, [*to_list, *cc_list], return_path=from_addr):
            self._pending.append((account, folder, stored, when, ()))
        if from_addr.lower() == user.lower():
            login, folder, stored, flags = self._postmaster.sent_copy(user, raw)
            self._pending.append((login, folder, stored, when, flags))
        if not self._batching or len(self._pending) >= self.PENDING_LIMIT:
            self._flush()
        self.ctx.mutations.note(
            silent, self.name, f"delivered {subject!r} from {from_addr} to {', '.join(to_list + cc_list)}"
        )
        return message_id

    def deliver_file(self, path: str, *, date: datetime | None = None, silent: str | None = None, **values: Any) -> str:
        """:meth:`deliver` a mail file of the task's folder (a header block — ``From``, ``To``,
        ``Cc``, ``Subject``, ``Attachments``, ``In-Reply-To`` — a blank line, the body; see
        :func:`..taskfiles.read_mail`); ``{{ facts }}`` filled in from ``facts.toml`` and ``values``."""
        from ..taskfiles import TaskFolder

        mail = TaskFolder.at(self.ctx.task_dir).mail(path, **values)
        return self.deliver(
            mail.sender, mail.to, mail.subject, mail.body, date=date, silent=silent, **mail.deliver_kwargs()
        )

    def set_flags(
        self,
        person: str | Person,
        message_id: str,
        *,
        add: Iterable[str] = (),
        remove: Iterable[str] = (),
        folder: str = "INBOX",
        silent: str | None = None,
    ) -> None:
        """Add/remove IMAP flags (e.g. ``\\Seen``) on the one copy of ``message_id`` in a folder."""
        self._flush()
        owner = self._account(person)
        msg = self._one(self._read(owner, folder), message_id=message_id)
        add, remove = tuple(add), tuple(remove)
        self.ctx.loop.call(lambda: self._store.update_flags(owner, folder, msg.uid, add, remove))
        self.ctx.mutations.note(silent, self.name, f"flags of {message_id} in {owner}/{folder}: +{add} -{remove}")

    def remove(
        self, person: str | Person, message_id: str, *, folder: str = "INBOX", silent: str | None = None
    ) -> None:
        """Delete the copy of ``message_id`` from a person's folder (e.g. a recalled mail)."""
        self._flush()
        owner = self._account(person)
        msg = self._one(self._read(owner, folder), message_id=message_id)
        self.ctx.loop.call(lambda: self._store.delete(owner, folder, msg.uid))
        self.ctx.mutations.note(silent, self.name, f"removed {message_id} from {owner}/{folder}")

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Deliveries inside the block are stored together when it ends (see :meth:`_flush`);
        the harness runs every turn's setup in one. Nested blocks store at the outermost end."""
        self._batching += 1
        try:
            yield
        except BaseException:
            self._batching -= 1
            if not self._batching:
                with contextlib.suppress(Exception):  # as stored one by one; never hide the cause
                    self._flush()
            raise
        self._batching -= 1
        if not self._batching:
            self._flush()

    def _flush(self) -> None:
        """Store the mail :meth:`deliver` queued, in one visit to the world's loop.

        Why queued: a setup that seeds a realistic mailbox delivers hundreds or thousands of
        mails; one loop hand-off, one IMAP session and one uid-list write per folder for all of
        them keeps that linear and fast. Outside a :meth:`batch` a delivery is stored at once;
        inside one, every other method of this service (and the world before the agent's turn)
        flushes first, so no reader — checker, snapshot, client — ever sees the queue.
        """
        if getattr(self, "_pending", None):  # (None before start())
            pending, self._pending = self._pending, []
            self.ctx.loop.call(lambda: self._store.append_many(pending, seeded=True))

    def before_agent(self) -> None:
        self._flush()

    # -- admin plane: deterministic reads ------------------------------------------------------
    def _account(self, person: str | Person) -> str:
        address = _address(person)
        login = self._postmaster.directory.login_of(address)
        if login is None:
            raise ValueError(f"{address!r} has no mailbox in this world")
        return login

    def _read(self, account: str, folder: str) -> list[Message]:
        """A folder's messages, parsed in the caller's thread (never on the world's loop) and
        cached by maildir key (a second read of an unchanged folder parses nothing, and reads no
        file the cache holds)."""
        self._flush()
        skip = self._parsed.has
        return [m for _, m in self._parsed_copies(account, folder, self.ctx.loop.call(
            lambda: self._store.messages(account, folder, skip=skip)))]  # fmt: skip

    def _parsed_copies(self, account: str, folder: str, stored: list[StoredMessage]) -> list[tuple[str, Message]]:
        """``(maildir key, parsed copy)`` of each stored message. A message whose file the store
        skipped (cached here) but which left the cache meanwhile is read again, folder and all."""
        label = {OUTSIDE: "outside", SENT_LEDGER: "sent"}.get(account, account)
        try:
            return [
                (m.key, self._parsed.get(
                    m.key, m.raw, mailbox=label, folder=folder, uid=m.uid, flags=m.flags, internal_date=m.internal_date
                ))
                for m in stored
            ]  # fmt: skip
        except KeyError:
            fresh = self.ctx.loop.call(lambda: self._store.messages(account, folder))
            return self._parsed_copies(account, folder, fresh)

    def _json(self, account: str, folder: str, stored: list[StoredMessage]) -> list[dict[str, Any]]:
        """The snapshot JSON of a folder's messages (computed once per message copy)."""
        limit = self.SNAPSHOT_INLINE_LIMIT
        return [self._parsed.json(key, m, limit) for key, m in self._parsed_copies(account, folder, stored)]

    def folders(self, person: str | Person | None = None) -> list[str]:
        self._flush()
        account = self._account(person or self.ctx.user)
        return self.ctx.loop.call(lambda: self._store.folders(account))

    def inbox(self, person: str | Person | None = None, folder: str = "INBOX") -> list[Message]:
        """A person's folder (default: the user's INBOX), in delivery order."""
        return self._read(self._account(person or self.ctx.user), folder)

    def sent(self, by: str | Person | None = None) -> list[Message]:
        """Everything accepted over SMTP (the agent's sends), in order, with every envelope
        recipient (Bcc included) in ``envelope_to``; ``by`` filters on the login that sent it."""
        messages = self._read(SENT_LEDGER, "INBOX")
        if by is not None:
            who = _address(by).lower()
            messages = [m for m in messages if m.sent_by.lower() == who]
        return messages

    def outside(self, to: str | None = None) -> list[Message]:
        """The catch-all: one copy per outside recipient (``envelope_to``), in delivery order."""
        messages = self._read(OUTSIDE, "INBOX")
        if to is not None:
            messages = [m for m in messages if to.lower() in (a.lower() for a in m.envelope_to)]
        return messages

    def find_all(
        self,
        *,
        subject: str | None = None,
        to: str | Person | None = None,
        sender: str | Person | None = None,
        mailbox: str | Person = "sent",
        folder: str = "INBOX",
        exact: bool = True,
    ) -> list[Message]:
        """Mails matching every given criterion, in delivery order.

        ``mailbox`` is ``"sent"`` (the agent's SMTP sends), ``"outside"`` (the catch-all) or a
        person's address (their ``folder``). ``subject`` is compared whitespace-normalised, and
        exactly unless ``exact=False`` (then: case-insensitive substring). ``to`` matches To,
        Cc or any envelope recipient (Bcc).
        """
        if mailbox == "sent":
            pool = self.sent()
        elif mailbox == "outside":
            pool = self.outside()
        else:
            pool = self.inbox(mailbox, folder)
        found = []
        for m in pool:
            if subject is not None:
                if exact and _norm(m.subject) != _norm(subject):
                    continue
                if not exact and _norm(subject).casefold() not in _norm(m.subject).casefold():
                    continue
            if to is not None and _address(to).lower() not in m.recipients:
                continue
            if sender is not None and m.sender.lower() != _address(sender).lower():
                continue
            found.append(m)
        return found

    def find(self, **criteria: Any) -> Message:
        """The one mail matching :meth:`find_all`'s criteria; raises if none or several match."""
        found = self.find_all(**criteria)
        return self._one(found, **criteria)

    @staticmethod
    def _one(found: list[Message], message_id: str | None = None, **criteria: Any) -> Message:
        if message_id is not None:
            found = [m for m in found if m.message_id == message_id]
            criteria["message_id"] = message_id
        what = ", ".join(f"{k}={v!r}" for k, v in criteria.items())
        if not found:
            raise MailNotFound(f"no mail with {what}")
        if len(found) > 1:
            listed = "; ".join(f"{m.subject!r} to {list(m.recipients)}" for m in found[:5])
            raise AmbiguousMail(f"{len(found)} mails match {what}: {listed}")
        return found[0]

    # -- evidence ------------------------------------------------------------------------------
    def _accounts(self) -> list[str]:
        return sorted(self._postmaster.directory.logins.values(), key=str.lower)

    def snapshot(self) -> dict[str, Any]:
        """Every account's folders, the catch-all and the sent ledger, read in one visit to the
        world's loop (a consistent state, and one hand-off instead of one per folder)."""
        self._flush()
        people = self._accounts()
        skip = self._parsed.has

        async def read_all() -> dict[str, dict[str, list[StoredMessage]]]:
            out: dict[str, dict[str, list[StoredMessage]]] = {}
            for account in people:
                out[account] = {
                    folder: await self._store.messages(account, folder, skip=skip)
                    for folder in await self._store.folders(account)
                }
            for account in (OUTSIDE, SENT_LEDGER):
                out[account] = {"INBOX": await self._store.messages(account, "INBOX", skip=skip)}
            return out

        stored = self.ctx.loop.call(read_all)
        accounts = {
            account: {folder: self._json(account, folder, found) for folder, found in stored[account].items()}
            for account in people
        }
        return {
            "accounts": accounts,
            "outside": self._json(OUTSIDE, "INBOX", stored[OUTSIDE]["INBOX"]),
            "sent": self._json(SENT_LEDGER, "INBOX", stored[SENT_LEDGER]["INBOX"]),
            "counters": {"deliveries": self._deliveries, "submissions": self._postmaster.submissions},
        }

    def restore(self, data: dict[str, Any]) -> None:
        """Make the mail store hold exactly the snapshot's folders and messages (UIDs renumbered).

        Messages kept by hash only must still be somewhere in the store (large ones are not
        copied into snapshots); otherwise this is an error rather than silent data loss.
        """
        self._flush()
        by_hash: dict[str, bytes] = {}
        for account in [*self._accounts(), OUTSIDE, SENT_LEDGER]:
            folders = self.folders(account) if account not in (OUTSIDE, SENT_LEDGER) else ["INBOX"]
            for folder in folders:
                for stored in self.ctx.loop.call(lambda: self._store.messages(account, folder)):  # noqa: B023
                    if stored.raw is not None:  # (always: nothing skipped)
                        by_hash[hashlib.sha256(stored.raw).hexdigest()] = stored.raw

        def raw_of(entry: dict[str, Any]) -> bytes:
            if "raw_base64" in entry:
                return base64.b64decode(entry["raw_base64"])
            try:
                return by_hash[entry["raw_sha256"]]
            except KeyError:
                raise ValueError(
                    f"cannot restore mail {entry.get('subject')!r}: snapshot holds its hash only"
                ) from None

        plan: list[tuple[str, str, bytes, tuple[str, ...], datetime]] = []
        boxes: list[tuple[str, list[str]]] = []
        sections = [(a, f) for a, f in data.get("accounts", {}).items()]
        sections += [(OUTSIDE, {"INBOX": data.get("outside", [])}), (SENT_LEDGER, {"INBOX": data.get("sent", [])})]
        for account, folders in sections:
            if account not in (OUTSIDE, SENT_LEDGER):
                account = self._account(account)
            boxes.append((account, [f for f in folders if f != "INBOX"]))
            for folder, entries in folders.items():
                for entry in entries:
                    when = datetime.fromisoformat(entry["internal_date"]) if entry.get("internal_date") else self._now()
                    plan.append((account, folder, raw_of(entry), tuple(entry.get("flags", ())), when))

        async def go() -> None:
            self._store.wipe()
            for account, folders in boxes:
                await self._store.create_folders(account, folders)
            await self._store.create_folders(self.ctx.user.email, USER_FOLDERS)
            for account, folder, raw, flags, when in plan:
                await self._store.append(account, folder, raw, when=when, flags=flags)

        self.ctx.loop.call(go)
        self._parsed.clear()  # every message has a new maildir key now
        counters = data.get("counters", {})
        self._deliveries = int(counters.get("deliveries", 0))
        self._postmaster.submissions = int(counters.get("submissions", len(data.get("sent", []))))
