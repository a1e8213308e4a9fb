"""aiosmtpd's SMTP protocol with a DATA phase that holds at most one message within the limits.

Why: aiosmtpd 1.4 keeps every DATA line as its own ``bytearray`` until the final dot, then
joins them on the event loop. A 10 MiB message of empty lines (5 million lines, legal SMTP) grew
the process by ~860 MB and stalled the world's loop for 1.7 s before any handler could look at
it. :class:`BoundedSMTP` reads DATA the same way (line by line, dot-unstuffing, the same ``500`` /
``552`` replies after the final dot, RFC 5321 §4.2.5) into one buffer, and stops holding data at
the first excess of :data:`~.limits.MAX_MESSAGE_BYTES` or :data:`~.limits.MAX_MESSAGE_LINES`;
the rest of the message is read and dropped, and the session goes on.

A bare LF inside the data ends a line, as it does for Postfix (the docker backend's server).
"""

from __future__ import annotations

import asyncio
import enum
import logging
import re

from aiosmtpd.smtp import MISSING, SMTP, syntax

from . import limits

__all__ = ["BoundedSMTP"]

_log = logging.getLogger(__name__)

_BARE_LF = re.compile(rb"(?<!\r)\n")
"""A line end without its CR: stored as CRLF, as Postfix stores it (RFC 5321 2.3.8: lines end in
CRLF), so both backends keep the same bytes of a client that sends bare LFs."""

YIELD_EVERY_LINES = 512
"""Lines read between two turns of the event loop (each line costs ~1 µs)."""


class _Excess(enum.Enum):
    LINE_TOO_LONG = enum.auto()
    TOO_MUCH_DATA = enum.auto()
    TOO_MANY_LINES = enum.auto()

    def reply(self) -> str:
        if self is _Excess.LINE_TOO_LONG:
            return "500 Line too long (see RFC5321 4.5.3.1.6)"  # aiosmtpd's own wording
        if self is _Excess.TOO_MUCH_DATA:
            return f"552 5.3.4 Message too big for system: larger than {limits.MAX_MESSAGE_BYTES // limits.MIB} MiB"
        return f"552 5.3.4 Message too big for system: more than {limits.MAX_MESSAGE_LINES:,} lines"


class BoundedSMTP(SMTP):
    """aiosmtpd's :class:`~aiosmtpd.smtp.SMTP` with a bounded DATA phase (see module docstring).

    A refused DATA is reported to the handler's ``refused_data(session, envelope, reply)`` if it
    has one (the audit log), since ``handle_DATA`` never sees it.

    Also: an address the stdlib's address parser trips over (``MAIL FROM:<a@>`` raised
    ``IndexError`` inside it, other shapes ``AttributeError``; aiosmtpd answered
    ``500 Error: (IndexError) string index out of range``) is a malformed address:
    ``553 5.1.3``, as for any other.
    """

    command_size_limit = limits.SMTP_COMMAND_LINE_BYTES
    line_length_limit = limits.SMTP_TEXT_LINE_BYTES

    def _getaddr(self, arg: str) -> tuple[str | None, str | None]:
        try:
            return super()._getaddr(arg)
        except Exception:  # the parser's own bugs on hostile input: still just a bad address
            return None, None

    @syntax("DATA")
    async def smtp_DATA(self, arg: str) -> None:
        if await self.check_helo_needed():
            return
        if await self.check_auth_needed("DATA"):
            return
        assert self.envelope is not None
        if not self.envelope.rcpt_tos:
            await self.push("503 Error: need RCPT command")
            return
        if arg:
            await self.push("501 Syntax: DATA")
            return
        await self.push("354 End data with <CR><LF>.<CR><LF>")
        content = bytearray()
        size = lines = 0
        excess: _Excess | None = None
        fragments: list[bytes] = []
        while self.transport is not None:
            try:
                line = await self._reader.readuntil(b"\r\n")
            except asyncio.CancelledError:
                _log.info("Connection lost during DATA")
                self._writer.close()
                raise
            except asyncio.LimitOverrunError as exc:  # longer than the reader's limit
                excess = excess or _Excess.LINE_TOO_LONG
                content.clear()
                line = await self._reader.read(exc.consumed)
            if not fragments and line == b".\r\n":
                break
            size += len(line)
            if excess is None and size > limits.MAX_MESSAGE_BYTES:
                excess = _Excess.TOO_MUCH_DATA
                content.clear()
            fragments.append(line)
            if not line.endswith(b"\r\n"):
                continue
            lines += 1
            if lines % YIELD_EVERY_LINES == 0:
                await asyncio.sleep(0)  # a read from a full buffer does not yield to the loop
            if excess is None and lines > limits.MAX_MESSAGE_LINES:
                excess = _Excess.TOO_MANY_LINES
                content.clear()
            if excess is None:
                whole = line if len(fragments) == 1 else b"".join(fragments)
                if len(whole) > self.line_length_limit:
                    excess = _Excess.LINE_TOO_LONG
                    content.clear()
                else:
                    content += memoryview(whole)[1:] if whole.startswith(b".") else whole  # RFC 5321 4.5.2
            fragments.clear()
        if excess is not None:
            reply = excess.reply()
            report = getattr(self.event_handler, "refused_data", None)
            if report is not None:
                report(self.session, self.envelope, reply)
            await self.push(reply)
            self._set_post_data_state()
            return
        original = bytes(content)
        del content
        if original.count(b"\n") != original.count(b"\r\n"):  # bare LFs end lines, as in Postfix
            original = _BARE_LF.sub(b"\r\n", original)
        self.envelope.content = original
        self.envelope.original_content = original
        status = await self._call_handler_hook("DATA")
        self._set_post_data_state()
        await self.push("250 OK" if status is MISSING else status)
