"""Caches in front of pymap's maildir backend: what never changes is read and parsed once.

Why: pymap 0.36's maildir backend re-reads and re-parses a mailbox's ``dovecot-uidlist`` for every
message it looks up (``MailboxData.get`` → ``UidList.with_read``), rewrites it on every mailbox open,
and parses a message's MIME structure on every load — an IMAP ``SEARCH SUBJECT`` over a folder of
N messages read the uid list N times and parsed N messages, and did it again for the next search.
Measured before this module: 45 ms for LOGIN+SELECT+SEARCH+FETCH at 10 messages, 4.7 s at 1,000.

What :func:`install` adds (pymap's behaviour and on-disk format are unchanged):

* **uid lists** are cached per file, keyed by the file's identity (inode, size, mtime), and a
  list written here is cached as the new file's version at once (no read-back): pymap
  replaces the file by ``rename`` on every change, so a change is a new inode — also when another
  process (the mail container's server, the harness's admin plane) wrote it. Readers (``with_read``)
  share the cached object; writers (``with_write``/``with_init``) still read their own copy;
* **opening a mailbox** (``MailboxData.reset``) writes the uid list only when the maildir holds
  a message the list does not know (pymap read it for writing every time);
* **parsed messages** (pymap's :class:`MessageContent`) are cached by the maildir file's key: a
  maildir file's bytes never change (flags live in its name), so a key names one content for life.
  The cache is bounded in bytes (LRU), so a world of large messages cannot grow it without limit;
* **a message's file** is looked up in the maildir's table of contents without an ``exists``
  check per lookup (the table is refreshed whenever a session opens the mailbox; a file renamed
  or removed since is found again by one refresh, as before), and its arrival date (the file's
  mtime, which flag renames keep) is read once per key;
* **envelope searches** (``SEARCH SUBJECT/FROM/TO/CC/BCC``) parse only the header they name:
  pymap built the whole envelope (every address header through the stdlib's slow
  ``headerregistry``, ~2 ms a message) to compare one field;
* **listing a maildir** (``Maildir._refresh``, on every mailbox open) reads file types from the
  directory entries instead of one ``stat`` per file, as the stdlib does;
* **a mailbox's message list** (``MailboxData.messages``, which every IMAP command runs to report
  new and expunged mail, and ``get``): the message objects of a folder are kept per file name —
  UID, flags, subdirectory and date are all in it or fixed — and rebuilt only for files that
  changed (pymap built ~10k objects per command on a 10,000-message folder);
* **appending many messages** (:func:`append_all`, the admin plane's seeding) writes the uid list
  once for all of them (pymap's ``append`` rewrote the whole list per message: N²/2 records);
* **SASL mechanisms**: pysasl looks them up in the installed packages' entry points on every
  connection (a third of a 10-message session's time); they are looked up once per process.
"""

from __future__ import annotations

import os
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from mailbox import MaildirMessage
from typing import Any

from pymap.backend.maildir import mailbox as _maildir
from pymap.backend.maildir.uidlist import Record, UidList
from pymap.mime import MessageContent
from pymap.parsing.message import AppendMessage
from pymap.parsing.specials import ObjectId
from pymap.search import EnvelopeSearchCriteria
from pysasl import SASLAuth

__all__ = ["CONTENT_CACHE_BYTES", "ContentCache", "append_all", "install", "relist", "sasl_mechanisms"]

CONTENT_CACHE_BYTES = 64 << 20
"""Raw bytes of parsed messages kept per process (a parsed message costs ~3× its size)."""
UIDLIST_CACHE_FILES = 1024
"""Uid lists kept per process (one per mailbox recently read; a world has a few dozen)."""


class ContentCache:
    """Parsed messages by maildir key, least recently used first out, bounded in raw bytes."""

    def __init__(self, max_bytes: int = CONTENT_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: OrderedDict[str, tuple[int, MessageContent]] = OrderedDict()

    def get(self, key: str) -> MessageContent | None:
        """The parse of ``key``'s file if cached."""
        hit = self._items.get(key)
        if hit is None:
            return None
        self._items.move_to_end(key)
        return hit[1]

    def put(self, key: str, size: int, content: MessageContent) -> None:
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= old[0]
        if size > self.max_bytes // 8:  # a huge message would evict everything else
            return
        self._items[key] = (size, content)
        self.bytes += size
        while self.bytes > self.max_bytes:
            _, (dropped, _) = self._items.popitem(last=False)
            self.bytes -= dropped

    def clear(self) -> None:
        self._items.clear()
        self.bytes = 0


CONTENTS = ContentCache()
_uidlists: OrderedDict[str, tuple[tuple[int, int, int], UidList, frozenset[str] | None]] = OrderedDict()


def _identity(file: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(file)
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def cached_uidlist(path: str) -> UidList:
    """The mailbox's uid list, parsed once per version of the file. Read only: do not change it."""
    file = UidList.get_file(path)
    ident = _identity(file)
    if ident is None:
        return UidList.file_read(path)  # pymap's default for a missing file (not cached)
    hit = _uidlists.get(file)
    if hit is not None and hit[0] == ident:
        _uidlists.move_to_end(file)
        return hit[1]
    # stat before read: if the file is replaced in between, the next stat differs and re-reads
    uidl = UidList.file_read(path)
    _uidlists[file] = (ident, uidl, None)
    while len(_uidlists) > UIDLIST_CACHE_FILES:
        _uidlists.popitem(last=False)
    return uidl


_original_file_write = UidList.file_write


def _file_write(self: UidList) -> None:
    """pymap's write (a new file renamed over the list), then the written list is the cached
    version of the new file: the next open reads no file (a delivery to a big inbox read its whole
    list back right after writing it). The writer is done with the object (its ``with_write``
    ends with this call), and a list parsed from the file would be the same records in the same
    order."""
    _original_file_write(self)
    file = UidList.get_file(self.path)
    ident = _identity(file)
    if ident is not None:
        _uidlists[file] = (ident, self, None)
        _uidlists.move_to_end(file)
        while len(_uidlists) > UIDLIST_CACHE_FILES:
            _uidlists.popitem(last=False)


def _uidlist_keys(path: str) -> tuple[UidList, frozenset[str]]:
    """The cached uid list and the set of maildir keys it names."""
    uidl = cached_uidlist(path)
    file = UidList.get_file(path)
    hit = _uidlists.get(file)
    if hit is None or hit[1] is not uidl:
        return uidl, frozenset(rec.key for rec in uidl.records)
    if hit[2] is None:
        keys = frozenset(rec.key for rec in uidl.records)
        _uidlists[file] = (hit[0], uidl, keys)
        return uidl, keys
    return uidl, hit[2]


@asynccontextmanager
async def _with_read(cls: type[UidList], path: str) -> AsyncIterator[UidList]:
    async with cls.read_lock(path):
        uidl = cached_uidlist(path)
    yield uidl


_original_reset = _maildir.MailboxData.reset


async def _reset(self: Any) -> Any:
    """pymap's ``reset`` (register maildir files the uid list does not know yet), reading the
    cached list and writing only when there is something to register."""
    keys = await self._get_keys()
    uidl, known = _uidlist_keys(self._path)
    if any(key not in known for key in keys):
        await _original_reset(self)
        uidl = cached_uidlist(self._path)
    self._clawmark_uidl = uidl
    self._uid_validity = uidl.uid_validity
    self._next_uid = uidl.next_uid
    return self


async def _get_maildir_msg(self: Any, uid: int) -> tuple[Record, MaildirMessage]:
    """pymap's record lookup, from the uid list read when the mailbox was opened: a UID names
    one message for the life of the list (a new message gets a new UID, so an unknown UID is
    looked up in the file again; a removed one fails below, as pymap's own lookup did)."""
    uidl = getattr(self, "_clawmark_uidl", None)
    record = uidl._records.get(uid) if uidl is not None else None
    if record is None:
        async with UidList.with_read(self._path) as fresh:
            record = fresh.get(uid)
    async with self.messages_lock.read_lock():
        maildir_msg = self._maildir.get_message_metadata(record.key)
    return record, maildir_msg


async def load_cached(key: str | None, read: Callable[[], bytes | None], parse: Any) -> MessageContent | None:
    """The cached parse of the maildir file ``key``, else ``await parse(read())`` (None when the
    file is gone). A key names one file content for life: maildir writers never rewrite a key."""
    if key is None:
        raw = read()
        return None if raw is None else await parse(raw)
    content = CONTENTS.get(key)
    if content is None:
        raw = read()
        if raw is None:
            return None
        content = await parse(raw)
        CONTENTS.put(key, len(raw), content)
    return content


_envelopes: weakref.WeakKeyDictionary[MessageContent, Any] = weakref.WeakKeyDictionary()
_original_envelope = _maildir.LoadedMessage._get_envelope_structure


def _envelope(cls: Any, msg: MessageContent) -> Any:
    """pymap's envelope of a parsed message, built once per parse (SEARCH builds it per message)."""
    found = _envelopes.get(msg)
    if found is None:
        found = _envelopes[msg] = _original_envelope.__func__(cls, msg)
    return found


_mtimes: OrderedDict[str, float] = OrderedDict()


def _refresh(self: Any) -> None:
    """The stdlib's ``Maildir._refresh`` (same rules, same table), listing with ``scandir``: the
    entry's type comes with the listing, where the stdlib stats every file to skip folders."""
    if time.time() - self._last_read > 2 + self._skewfactor:
        refresh = False
        for subdir in self._toc_mtimes:
            mtime = os.path.getmtime(self._paths[subdir])
            if mtime > self._toc_mtimes[subdir]:
                refresh = True
            self._toc_mtimes[subdir] = mtime
        if not refresh:
            return
    toc = {}
    for subdir in self._toc_mtimes:
        with os.scandir(self._paths[subdir]) as entries:
            for entry in entries:
                if entry.is_dir():
                    continue
                toc[entry.name.split(self.colon)[0]] = os.path.join(subdir, entry.name)
    self._toc = toc
    self._last_read = time.time()


def relist(maildir: Any) -> None:
    """List ``maildir`` again now, for a file renamed, moved or added since its last listing (the
    stdlib re-lists in full only within 2 s of its last read: that is what setting it forces)."""
    maildir._last_read = time.time()
    maildir._refresh()


def _lookup(self: Any, key: str) -> str:
    """The file of ``key`` from the table of contents; refreshed once when unknown."""
    try:
        return self._toc[key]
    except KeyError:
        self._refresh()
        return self._toc[key]  # KeyError: no such message (pymap's contract)


def _arrival(self: Any, key: str, subpath: str) -> float:
    when = _mtimes.get(key)
    if when is None:
        when = os.path.getmtime(self._join(subpath))
        _mtimes[key] = when
        while len(_mtimes) > 1 << 17:
            _mtimes.popitem(last=False)
    return when


def _metadata(maildir: Any, key: str, subpath: str) -> MaildirMessage:
    """A message's maildir metadata: subdirectory and flags from its file name, its arrival date
    (FileNotFoundError if the file is not at ``subpath``)."""
    when = _arrival(maildir, key, subpath)
    msg = MaildirMessage()
    subdir, name = maildir._split(subpath)
    msg.set_subdir(subdir)
    if maildir.colon in name:
        msg.set_info(name.rsplit(maildir.colon, 1)[-1])
    msg.set_date(when)
    return msg


def _get_message_metadata(self: Any, key: str) -> MaildirMessage:
    """pymap's metadata read (subdirectory, flags from the file name, date) without touching the
    file once its date is known; a file gone since the last refresh is looked up again once."""
    try:
        return _metadata(self, key, self._lookup(key))
    except FileNotFoundError:
        relist(self)
        return _metadata(self, key, self._toc[key])


_ENVELOPE_FIELDS = {b"BCC": "bcc", b"CC": "cc", b"FROM": "from_", b"SUBJECT": "subject", b"TO": "to"}
_original_matches = EnvelopeSearchCriteria.matches


def _envelope_matches(self: Any, msg_seq: int, msg: Any, loaded_msg: Any) -> bool:
    """pymap's envelope criterion, reading the one header field the criterion compares."""
    field = _ENVELOPE_FIELDS.get(self.key)
    content = getattr(loaded_msg, "_content", None)
    if field is None or content is None:
        return _original_matches(self, msg_seq, msg, loaded_msg)
    value = getattr(content.header.parsed, field)
    if not value:
        return False
    if field == "subject":
        return self._in(self.value, str(value))
    return any(self._in(self.value, str(one)) for one in value)


async def append_all(mbx: Any, messages: Sequence[AppendMessage], *, recent: bool) -> list[tuple[int, str]]:
    """Append ``messages`` to the maildir mailbox ``mbx`` in order; returns their UIDs and keys.

    pymap's ``append`` rewrites the whole uid list once per message (seeding N messages wrote
    N²/2 records); this writes every file, then the list once. Same files, same list format.
    """
    maildir = mbx._maildir
    names = []
    async with mbx.messages_lock.write_lock():
        for message in messages:
            maildir_msg = _maildir.Message.to_maildir(message, recent, mbx.maildir_flags)
            key = maildir.add(maildir_msg)
            names.append(key + ":" + maildir_msg.get_info())
    added = []
    async with UidList.with_write(mbx._path) as uidl:
        for name in names:
            fields = {"E": str(ObjectId.random_email_id()), "T": str(ObjectId.random_thread_id())}
            uidl.set(Record(uidl.next_uid, fields, name))
            added.append((uidl.next_uid, name.split(":", 1)[0]))
            uidl.next_uid += 1
    return added


def stored_file(maildir: Any, key: str, *, read: bool = True) -> tuple[str, bytes | None, float] | None:
    """``(file name, bytes, arrival time)`` of ``key``'s file in ``maildir`` (listed by the
    caller just before), or None when no such file exists; a file renamed since the listing (a
    flag change) is found by one re-listing. ``read=False``: bytes None, the file is not opened
    once its arrival time is known."""
    for attempt in range(2):
        subpath = maildir._toc.get(key)
        if subpath is not None:
            try:
                raw = None
                if read:
                    with open(maildir._join(subpath), "rb") as f:
                        raw = f.read()
                return os.path.basename(subpath), raw, _arrival(maildir, key, subpath)
            except FileNotFoundError:
                pass
        if attempt == 0:
            relist(maildir)
    return None


_folders: OrderedDict[str, tuple[frozenset[Any], dict[tuple[int, str], Any]]] = OrderedDict()
"""Per mailbox folder: its keywords (what flag letters mean) and its messages by (UID, file)."""


def _known(self: Any) -> dict[tuple[int, str], Any]:
    """This folder's cache of message objects (reset when its keyword letters change meaning)."""
    keywords = self.maildir_flags.permanent_flags
    hit = _folders.get(self._path)
    if hit is None or hit[0] != keywords:
        hit = (keywords, {})
        _folders[self._path] = hit
        while len(_folders) > UIDLIST_CACHE_FILES:
            _folders.popitem(last=False)
    else:
        _folders.move_to_end(self._path)
    return hit[1]


def _message(self: Any, known: dict[tuple[int, str], Any], record: Record, subpath: str) -> Any:
    """The message object of ``record`` stored at ``subpath`` (cached; built as pymap does)."""
    msg = known.get((record.uid, subpath))
    if msg is None:
        maildir = self._maildir
        info = _metadata(maildir, record.key, subpath)
        email_id = self._get_object_id(record, "E")
        thread_id = self._get_object_id(record, "T")
        msg = _maildir.Message.from_maildir(
            record.uid, info, maildir, record.key, email_id, thread_id, self.maildir_flags
        )
        known[(record.uid, subpath)] = msg
    return msg


async def _messages(self: Any) -> AsyncIterator[Any]:
    """pymap's ``messages``: every message of the uid list whose file exists, in list order."""
    async with UidList.with_read(self._path) as uidl:
        records = list(uidl.records)
    known = _known(self)
    current: dict[tuple[int, str], Any] = {}
    out = []
    async with self.messages_lock.read_lock():
        maildir = self._maildir
        relisted = False
        for record in records:
            msg = None
            for _ in range(2):
                subpath = maildir._toc.get(record.key)
                if subpath is not None:
                    try:
                        msg = _message(self, known, record, subpath)
                        break
                    except FileNotFoundError:
                        pass
                if relisted:  # not there in this call's own listing either: expunged
                    break
                # added or moved since the listing (a flag change; new/ to cur/ on SELECT): list
                # the folder again, once per call
                relist(maildir)
                relisted = True
            if msg is None:
                continue
            current[(record.uid, subpath)] = msg
            out.append(msg)
    known.clear()
    known.update(current)  # drop the objects of files that changed or left
    for msg in out:
        yield msg


_original_get = _maildir.MailboxData.get


async def _get(self: Any, uid: int, cached_msg: Any) -> Any:
    """pymap's ``get``, from the folder's message objects when the file is the listed one."""
    uidl = getattr(self, "_clawmark_uidl", None)
    record = uidl._records.get(uid) if uidl is not None else None
    subpath = self._maildir._toc.get(record.key) if record is not None else None
    if subpath is not None:
        msg = _known(self).get((uid, subpath))
        if msg is not None:
            return msg
    return await _original_get(self, uid, cached_msg)


_sasl: SASLAuth | None = None


def sasl_mechanisms() -> SASLAuth:
    """pysasl's default mechanisms, looked up once per process."""
    global _sasl
    if _sasl is None:
        _sasl = SASLAuth.defaults()
    return _sasl


def install() -> None:
    """Patch pymap's maildir backend as described in the module docstring (idempotent)."""
    UidList.with_read = classmethod(_with_read)  # type: ignore[method-assign,assignment]
    UidList.file_write = _file_write  # type: ignore[method-assign]
    _maildir.MailboxData.reset = _reset  # type: ignore[method-assign]
    _maildir.MailboxData.messages = _messages  # type: ignore[method-assign,assignment]
    _maildir.MailboxData.get = _get  # type: ignore[method-assign]
    _maildir.MailboxData._get_maildir_msg = _get_maildir_msg  # type: ignore[method-assign]
    _maildir.LoadedMessage._get_envelope_structure = classmethod(_envelope)  # type: ignore[method-assign,assignment]
    EnvelopeSearchCriteria.matches = _envelope_matches  # type: ignore[method-assign]
    _maildir.Maildir._refresh = _refresh  # type: ignore[method-assign]
    _maildir.Maildir._lookup = _lookup  # type: ignore[method-assign]
    _maildir.Maildir.get_message_metadata = _get_message_metadata  # type: ignore[method-assign]
