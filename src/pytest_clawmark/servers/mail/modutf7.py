"""A strict modified-UTF-7 decoder for IMAP mailbox names, installed into pymap's parser.

Why: pymap 0.36's ``modutf7_decode`` never returns when a name has ``&`` without a closing
``-`` (its inner scan finds no terminator and the outer loop makes no progress). One command
such as ``STATUS "&z" (MESSAGES)`` then spins the world's event loop forever and freezes
every service on it. This decoder answers with pymap's own ``NotParseable`` instead, which
pymap turns into a ``BAD`` response. The two pymap modules that decode client-sent names
(mailbox arguments, LIST patterns) get it by :func:`install`; nothing else in pymap changes.
"""

from __future__ import annotations

import pymap.parsing.command.auth as _auth_commands
import pymap.parsing.specials.mailbox as _mailbox_special
from pymap.parsing.exceptions import NotParseable

__all__ = ["install", "strict_modutf7_decode"]


def strict_modutf7_decode(data: bytes) -> str:
    """RFC 3501 §5.1.3 decoding; raises ``NotParseable`` on malformed input."""
    out: list[str] = []
    i = 0
    while i < len(data):
        if data[i] != 0x26:  # '&'
            out.append(chr(data[i]))
            i += 1
            continue
        end = data.find(b"-", i + 1)
        if end < 0:
            raise NotParseable(memoryview(data))
        if end == i + 1:
            out.append("&")  # "&-" is a literal ampersand
        else:
            chunk = data[i + 1 : end].replace(b",", b"/")
            try:
                out.append((b"+" + chunk + b"-").decode("utf-7"))
            except UnicodeDecodeError:
                raise NotParseable(memoryview(data)) from None
        i = end + 1
    return "".join(out)


def install() -> None:
    """Point pymap's name parsing at :func:`strict_modutf7_decode` (idempotent)."""
    _mailbox_special.modutf7_decode = strict_modutf7_decode  # type: ignore[attr-defined]
    _auth_commands.modutf7_decode = strict_modutf7_decode  # type: ignore[attr-defined]
