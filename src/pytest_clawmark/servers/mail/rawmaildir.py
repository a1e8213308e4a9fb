"""Message bytes in and out of pymap's maildir backend verbatim, parsed off the event loop.

Why: pymap 0.36's maildir backend round-trips every message through the stdlib ``email``
package. APPEND parses the literal into a ``mailbox.MaildirMessage`` and writes it back with the
recursive ``email.generator`` (a message nesting ~300 parts raised ``RecursionError``, which
SMTP reported as ``451``, and bytes were rewritten: CRLF became LF, malformed headers were
refolded); every FETCH and every admin read parsed the file with the stdlib, regenerated it, and
then parsed it again with pymap's own MIME parser, all on the world's event loop (a 250 KB message
with 20,000 header fields blocked the loop for seconds per read).

What :func:`install` changes (nothing else in pymap):

* APPEND writes the literal's bytes to the maildir file as they are (flags, subdirectory and
  date still go in the file name and mtime, as before), without an ``fsync`` per file;
* loading a message reads the file's bytes and parses them once with pymap's parser, in a worker
  thread when the message has more than :data:`INLINE_PARSE_LINES` lines;
* :func:`stored_bytes` gives the admin plane a message's bytes without any parsing;
* a mailbox's key list (read by every session that opens the mailbox: each SELECT, APPEND,
  delivery) takes each message's flags from its file name, as the maildir format defines them,
  instead of building a ``MaildirMessage`` with two ``stat`` calls per message (57 ms per
  open at 1,000 messages, measured; linear in the folder).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from datetime import datetime
from mailbox import MaildirMessage
from typing import Any

from pymap.backend.maildir import mailbox as _maildir
from pymap.mime import MessageContent
from pymap.parsing.message import AppendMessage
from pymap.parsing.specials import FetchRequirement

from .maildircache import load_cached, relist
from .screening import cpu_executor

__all__ = ["INLINE_PARSE_LINES", "RawMaildirMessage", "install", "stored_bytes"]

INLINE_PARSE_LINES = 1_000
"""Messages with more lines are parsed in a worker thread (pymap costs ~1.4 µs a line per MIME
level: 1,000 lines stay under a few milliseconds on the loop; a thread hand-off costs ~0.1 ms)."""


class RawMaildirMessage(MaildirMessage):
    """Maildir metadata (subdirectory, flags, date) plus the message's bytes, never parsed."""

    def __init__(self, raw: bytes) -> None:
        super().__init__()
        self.raw = raw


def _to_maildir(cls: Any, append_msg: AppendMessage, recent: bool, maildir_flags: Any) -> MaildirMessage:
    maildir_msg = RawMaildirMessage(bytes(append_msg.literal))
    maildir_msg.set_flags(maildir_flags.to_maildir(append_msg.flag_set))
    maildir_msg.set_subdir("new" if recent else "cur")
    when = append_msg.when or datetime.now()  # pymap's own default; our servers always set it
    maildir_msg.set_date(when.timestamp())
    return maildir_msg


_original_dump = _maildir.Maildir._dump_message


def _dump_message(self: Any, message: Any, target: Any, mangle_from_: bool = False) -> None:
    if isinstance(message, RawMaildirMessage):
        target.write(message.raw)
        return
    _original_dump(self, message, target, mangle_from_)


_original_add = _maildir.Maildir.add


def _add(self: Any, message: Any) -> str:
    """The stdlib's ``Maildir.add`` for our verbatim messages, without its ``fsync`` per file: a
    world is thrown away after its trial, so syncing buys nothing, and it was two thirds of the
    time to store a seeded mailbox. Same files: a temporary file renamed into ``cur``/``new``
    with the flags in its name and the arrival time as its mtime."""
    if not isinstance(message, RawMaildirMessage):
        return _original_add(self, message)
    tmp_file = self._create_tmp()
    try:
        with tmp_file:
            tmp_file.write(message.raw)
        info = message.get_info()
        suffix = self.colon + info if info else ""
        uniq = os.path.basename(tmp_file.name).split(self.colon)[0]
        dest = os.path.join(self._path, message.get_subdir(), uniq + suffix)
        os.utime(tmp_file.name, (os.path.getatime(tmp_file.name), message.get_date()))
        os.link(tmp_file.name, dest)  # fails rather than replace (the stdlib's clash check)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(tmp_file.name)
    return uniq


def stored_bytes(msg: Any) -> bytes | None:
    """The stored bytes of a maildir :class:`pymap.backend.maildir.mailbox.Message`, or None if
    the file is gone (expunged meanwhile)."""
    maildir, key = msg._maildir, msg._key
    if maildir is None or key is None:
        return None
    for attempt in range(2):
        try:
            return maildir.get_bytes(key)
        except KeyError:
            return None
        except FileNotFoundError:  # renamed (a flag change) or removed since the last listing
            if attempt:
                return None
            relist(maildir)
    return None


async def parse_content(raw: bytes) -> MessageContent:
    """pymap's MIME parse of ``raw``: inline if small, else in the shared worker threads."""
    if raw.count(b"\n") <= INLINE_PARSE_LINES:
        return MessageContent.parse(raw)
    return await asyncio.get_running_loop().run_in_executor(cpu_executor(), MessageContent.parse, raw)


async def _load_content(self: Any, requirement: FetchRequirement) -> Any:
    if self._key is None or self._maildir is None or requirement.has_none(FetchRequirement.CONTENT):
        return _maildir.LoadedMessage(self, requirement, None)
    content = await load_cached(self._key, lambda: stored_bytes(self), parse_content)
    return _maildir.LoadedMessage(self, requirement, content)


async def _get_keys(self: Any) -> dict[str, str]:
    """``{key: info}`` of every message file (info: the flags after the colon, "" if none)."""
    maildir = self._maildir
    async with self.messages_lock.read_lock():
        maildir._refresh()  # re-lists cur/ and new/ if they changed
        keys: dict[str, str] = {}
        for key, subpath in maildir._toc.items():
            name = os.path.basename(subpath)
            keys[key] = name.rsplit(maildir.colon, 1)[-1] if maildir.colon in name else ""
    return keys


def install() -> None:
    """Patch pymap's maildir backend as described in the module docstring (idempotent)."""
    _maildir.Message.to_maildir = classmethod(_to_maildir)  # type: ignore[method-assign,assignment]
    _maildir.Message.load_content = _load_content  # type: ignore[method-assign]
    _maildir.Maildir._dump_message = _dump_message  # type: ignore[method-assign]
    _maildir.Maildir.add = _add  # type: ignore[method-assign]
    _maildir.MailboxData._get_keys = _get_keys  # type: ignore[method-assign]
