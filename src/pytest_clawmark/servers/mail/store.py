"""The mailboxes of one world, kept by pymap's maildir backend.

Why pymap's own backend and session API: the IMAP server reads exactly these folders, so mail
appended here by SMTP delivery or by the admin plane is what an IMAP client sees, including a
session that is already open (pymap re-reads the maildir and its ``dovecot-uidlist`` on every
check). Everything here runs on the world's event loop, which serialises it with the IMAP and
SMTP servers on that loop: no admin write can interleave with an agent command.
"""

from __future__ import annotations

import os
import re
import shutil
import ssl
import tempfile
from argparse import Namespace
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from proxyprotocol.version import ProxyProtocolVersion
from pymap.backend.maildir import Config, Identity, Login
from pymap.backend.maildir.users import PasswordsFile, UsersFile
from pymap.concurrent import Subsystem
from pymap.exceptions import MailboxNotFound
from pymap.flags import FlagOp
from pymap.parsing.message import AppendMessage
from pymap.parsing.specials import SequenceSet
from pymap.parsing.specials.flag import Flag
from pysasl import SASLAuth
from pysasl.hashing import Cleartext

from . import limits, maildircache, rawmaildir

rawmaildir.install()
maildircache.install()

__all__ = ["MailStore", "StoredMessage", "SYSTEM_FLAGS", "Usage"]

SEEDED_KEYS = "seeded-keys"
"""File in the store's folder listing the maildir keys of the task's own (admin-delivered) mail."""

SYSTEM_FLAGS = ("\\Answered", "\\Deleted", "\\Draft", "\\Flagged", "\\Seen")
"""The permanent flags the maildir backend keeps (``\\Recent`` is per session, not stored)."""

_ssl_context: ssl.SSLContext | None = None


def _unused_ssl_context() -> ssl.SSLContext:
    """pymap's config wants an SSL context; building its default one loads the system CA store
    (tens of ms per world). TLS is off on loopback, so one bare context serves every world."""
    global _ssl_context
    if _ssl_context is None:
        _ssl_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    return _ssl_context


class ImapConfig(Config):
    """pymap's maildir config with a fixed greeting (the stock one calls ``socket.getfqdn()``,
    which can stall on a machine with slow reverse DNS) and SASL mechanisms looked up once per
    process (the stock properties scan every installed package's entry points per connection)."""

    @property
    def greeting(self) -> bytes:
        return b"Server ready clawmark.local"

    @property
    def initial_auth(self) -> SASLAuth:
        # TLS is off (loopback): every mechanism is offered before STARTTLS, as pymap does
        return maildircache.sasl_mechanisms()

    @property
    def tls_auth(self) -> SASLAuth:
        return maildircache.sasl_mechanisms()


@dataclass(frozen=True)
class StoredMessage:
    """One message as stored: its UID in the folder, permanent flags, arrival time, raw bytes.

    ``key`` is the maildir file's unique key: the bytes under one key never change (flags live in
    the file name), so readers may cache what they derive from ``raw`` by key.
    """

    uid: int
    flags: tuple[str, ...]
    internal_date: datetime  # aware, UTC
    raw: bytes | None  # None: not read (the reader said it has these bytes: see MailStore.messages)
    key: str = ""


@dataclass(frozen=True)
class Usage:
    """What mail occupies: RFC 9208's STORAGE (here in bytes) and MESSAGE resources, plus lines
    and MIME delimiter lines, which is what parsing it costs (see :mod:`.limits`)."""

    bytes: int = 0
    messages: int = 0
    lines: int = 0
    delimiters: int = 0

    @classmethod
    def of(cls, raw: bytes, copies: int = 1) -> Usage:
        """What ``copies`` stored copies of ``raw`` occupy."""
        delimiters = raw.count(b"\n--") + raw.startswith(b"--")
        return cls(len(raw) * copies, copies, (raw.count(b"\n") + 1) * copies, delimiters * copies)

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.bytes + other.bytes,
            self.messages + other.messages,
            self.lines + other.lines,
            self.delimiters + other.delimiters,
        )

    def refusal(self, more: Usage) -> str | None:
        """Why adding ``more`` to what the store holds (``self``) would exceed its quota, or None."""
        for used, needed, quota, what in (
            (self.bytes, more.bytes, limits.STORE_QUOTA_BYTES, "bytes"),
            (self.messages, more.messages, limits.STORE_QUOTA_MESSAGES, "messages"),
            (self.lines, more.lines, limits.STORE_QUOTA_LINES, "lines"),
            (self.delimiters, more.delimiters, limits.STORE_QUOTA_DELIMITERS, "MIME delimiter lines"),
        ):
            if used + needed > quota:
                return (
                    f"the world's mail quota of {quota:,} {what} is used up ({used:,} stored, {needed:,} more needed)"
                )
        return None


def _home_dir(login: str) -> str:
    return "users/" + re.sub(r"[^A-Za-z0-9@._+-]", "_", login)


class MailStore:
    """Accounts and folders of a world's mail, on disk under ``base_dir``.

    ``accounts`` maps a login (an email address, or a ``~system`` name) to its password; a
    password of ``None`` disables IMAP login (the outside catch-all and the sent ledger are such
    accounts: checkers read them, nobody logs in).
    """

    def __init__(self, base_dir: Path, accounts: Mapping[str, str | None]) -> None:
        self.base_dir = Path(base_dir)
        self.accounts = dict(accounts)
        args = Namespace(debug=False, passlib_cfg=None, proxy_protocol=None, inherited_sockets=None)
        self.config = ImapConfig(
            args,
            base_dir=str(self.base_dir),
            layout="++",
            colon=None,
            host="127.0.0.1",
            port=0,
            subsystem=Subsystem.for_asyncio(),
            cpu_subsystem=Subsystem.for_asyncio(),
            ssl_context=_unused_ssl_context(),
            tls_enabled=False,  # loopback only: no STARTTLS offered, LOGIN allowed in clear
            hash_context=Cleartext(),  # per-world random secrets in a private folder; hashing
            # with pbkdf2 (500k rounds) would cost ~0.3 s per account and per login
            invalid_user_sleep=0.0,
            max_append_len=limits.MAX_MESSAGE_BYTES,  # advertised as APPENDLIMIT
            reject_dnsbl=False,
            proxy_protocol=ProxyProtocolVersion.get(None),
        )
        self.login = Login(self.config)
        self._usage_by_key: dict[str, Usage] = {}  # maildir key -> what that file holds (see usage())
        self._seeded_cache: tuple[tuple[int, int, int] | None, frozenset[str]] = (None, frozenset())

    # -- accounts ----------------------------------------------------------------------------
    async def setup(self) -> None:
        """Write the account files (one write each)."""
        (self.base_dir / "users").mkdir(parents=True, exist_ok=True)
        # pymap writes its index files to the system temp folder, then renames them into place:
        # that fails (EXDEV) across filesystems. Say so plainly rather than fail on first write.
        if os.stat(self.base_dir).st_dev != os.stat(tempfile.gettempdir()).st_dev:
            raise RuntimeError(
                f"the mail store {self.base_dir} must be on the same filesystem as the temp folder "
                f"{tempfile.gettempdir()} (pymap renames files across them); set TMPDIR accordingly"
            )
        base = str(self.base_dir)
        async with UsersFile.with_write(base) as users, PasswordsFile.with_write(base) as passwords:
            for login, password in self.accounts.items():
                users.set(users.build_record(login, _home_dir(login)))
                passwords.set(passwords.build_record(login, password if password is not None else "*"))

    def _identity(self, login: str) -> Identity:
        if login not in self.accounts:
            raise KeyError(f"no mailbox for {login!r}")
        return Identity(self.config, self.login.tokens, login, None, frozenset())

    async def create_folders(self, login: str, folders: Iterable[str]) -> None:
        async with self._identity(login).new_session() as session:
            for name in folders:
                await self._ensure_folder(session, name)

    @staticmethod
    async def _ensure_folder(session: Any, name: str) -> None:
        """Create ``name`` and any missing ancestors (``a/b`` needs ``a`` on disk)."""
        if name == "INBOX":
            return
        tree = await session.mailbox_set.list_mailboxes()
        existing = {e.name for e in tree.list() if e.exists}
        parts = name.split("/")
        for i in range(1, len(parts) + 1):
            level = "/".join(parts[:i])
            if level not in existing:
                await session.mailbox_set.add_mailbox(level)

    async def folders(self, login: str) -> list[str]:
        """The account's folders, ``INBOX`` first, the others sorted, with every parent of a
        folder (``Archive`` of ``Archive/2025``): an IMAP server may or may not create parents on
        ``CREATE`` (pymap does, Dovecot's Maildir++ does not), and checkers must read the same
        folders whichever server the agent used."""
        async with self._identity(login).new_session() as session:
            tree = await session.mailbox_set.list_mailboxes()
            names = {e.name for e in tree.list() if e.exists}
        names |= {"/".join(n.split("/")[:i]) for n in names for i in range(1, n.count("/") + 1)}
        return ["INBOX"] + sorted(names - {"INBOX"})

    # -- messages ----------------------------------------------------------------------------
    async def append(self, login: str, folder: str, raw: bytes, *, when: datetime, flags: Iterable[str] = ()) -> int:
        """Append ``raw`` to ``folder`` (created if missing); returns its UID."""
        flag_set = frozenset(Flag(f) for f in flags)
        async with self._identity(login).new_session() as session:
            await self._ensure_folder(session, folder)
            append_uid, _ = await session.append_messages(folder, [AppendMessage(raw, when, flag_set)])
        return min(append_uid.uids)

    async def append_many(
        self, items: Sequence[tuple[str, str, bytes, datetime, tuple[str, ...]]], *, seeded: bool = False
    ) -> list[int]:
        """Append ``(login, folder, raw, when, flags)`` items, in order; returns their UIDs.

        One session and one uid-list write per folder (:func:`.maildircache.append_all`), so
        seeding thousands of messages is linear; each folder gets its items in the given order.
        ``seeded``: the task's own mail (admin-plane deliveries), which the agent's quota does
        not count (see :meth:`usage`).
        """
        uids = [0] * len(items)
        keys: list[str] = []
        groups: dict[tuple[str, str], list[int]] = {}
        for i, (login, folder, *_) in enumerate(items):
            groups.setdefault((login, folder), []).append(i)
        for (login, folder), indexes in groups.items():
            batch = [AppendMessage(items[i][2], items[i][3], frozenset(Flag(f) for f in items[i][4])) for i in indexes]
            async with self._identity(login).new_session() as session:
                await self._ensure_folder(session, folder)
                mbx = await session.mailbox_set.get_mailbox(folder)
                for i, (uid, key) in zip(indexes, await maildircache.append_all(mbx, batch, recent=True)):
                    uids[i] = uid
                    keys.append(key)
        if seeded and keys:
            with open(self.base_dir / SEEDED_KEYS, "a", encoding="ascii") as f:
                f.write("".join(k + "\n" for k in keys))
        return uids

    async def messages(
        self, login: str, folder: str = "INBOX", *, skip: Callable[[str], bool] | None = None
    ) -> list[StoredMessage]:
        """The folder's messages by UID (delivery order), read without changing any flag.

        An unknown folder reads as empty: "nothing arrived there" is a state, not an error.
        Linear in the folder and without pymap's per-message objects: the uid list (cached by
        :mod:`.maildircache`), the maildir's listing (flags are in the file names), one read of
        each file, no parsing. ``skip(key)`` true: the caller has that file's bytes already, so
        it is not read (``raw`` is None).
        """
        async with self._identity(login).new_session() as session:
            try:
                mbx = await session.mailbox_set.get_mailbox(folder)  # lists the maildir afresh
            except (KeyError, MailboxNotFound):
                return []
            maildir, flags_of = mbx._maildir, mbx.maildir_flags
            out = []
            for rec in sorted(maildircache.cached_uidlist(mbx._path).records, key=lambda r: r.uid):
                found = maildircache.stored_file(maildir, rec.key, read=not (skip and skip(rec.key)))
                if found is None:  # expunged meanwhile
                    continue
                name, raw, mtime = found
                info = name.rsplit(maildir.colon, 1)[-1] if maildir.colon in name else ""
                letters = info[2:] if info.startswith("2,") else ""
                flags = tuple(sorted(f.value.decode("ascii") for f in flags_of.from_maildir(letters)))
                when = datetime.fromtimestamp(mtime, timezone.utc).replace(microsecond=0)
                out.append(StoredMessage(rec.uid, flags, when, raw, rec.key))
        return out

    def _seeded(self) -> frozenset[str]:
        """The keys of the task's own mail (:meth:`append_many` ``seeded``), read from a file in
        the store (so the mail container's server, on the docker backend, sees the same)."""
        path = self.base_dir / SEEDED_KEYS
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return frozenset()
        ident = (st.st_ino, st.st_size, st.st_mtime_ns)
        if self._seeded_cache[0] != ident:
            self._seeded_cache = (ident, frozenset(path.read_text("ascii").split()))
        return self._seeded_cache[1]

    def usage(self) -> Usage:
        """What the agent's mail occupies: every account's folders, from the file system (so what
        IMAP clients appended, copied and expunged counts too), less the task's own seeded mail —
        a task may seed a realistic mailbox of thousands; the quota bounds what the agent adds.
        A few ms for thousands of messages: each file is read once in its life (its bytes never
        change; flags live in its name)."""
        total = Usage()
        seen: dict[str, Usage] = {}
        seeded = self._seeded()
        for dirpath, _, filenames in os.walk(self.base_dir / "users"):
            if os.path.basename(dirpath) not in ("cur", "new"):
                continue
            for name in filenames:
                key = name.split(":", 1)[0]
                if key in seeded:
                    continue
                one = self._usage_by_key.get(key)
                if one is None:
                    try:
                        with open(os.path.join(dirpath, name), "rb") as f:
                            one = Usage.of(f.read())
                    except FileNotFoundError:  # expunged or renamed meanwhile
                        continue
                seen[key] = one
                total = total + one
        self._usage_by_key = seen
        return total

    async def update_flags(self, login: str, folder: str, uid: int, add: Iterable[str], remove: Iterable[str]) -> None:
        async with self._identity(login).new_session() as session:
            _, selected = await session.select_mailbox(folder, readonly=False)
            seq = SequenceSet.build([uid], uid=True)
            if add:
                await session.update_flags(selected, seq, frozenset(Flag(f) for f in add), FlagOp.ADD)
            if remove:
                await session.update_flags(selected, seq, frozenset(Flag(f) for f in remove), FlagOp.DELETE)

    async def delete(self, login: str, folder: str, uid: int) -> None:
        """Remove one message for good (an admin-plane expunge)."""
        async with self._identity(login).new_session() as session:
            mbx = await session.mailbox_set.get_mailbox(folder)
            await mbx.delete([uid])
            await mbx.cleanup()

    def wipe(self) -> None:
        """Delete every account's folders (``restore`` re-creates them); the account files stay."""
        users = self.base_dir / "users"
        if users.exists():
            shutil.rmtree(users)
        (self.base_dir / SEEDED_KEYS).unlink(missing_ok=True)  # restored mail counts as the agent's
        os.makedirs(users, exist_ok=True)
