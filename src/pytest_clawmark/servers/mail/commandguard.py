"""Reading and vetting IMAP commands within :mod:`.limits`, before pymap parses or runs them.

Why: pymap 0.36 reads whatever a client sends and parses it recursively. A line longer than the
stream reader's 64 KiB limit, a non-synchronizing literal of any announced size (read into memory
before any check), or 3,000 nested parentheses (``RecursionError``) each ended the connection with
``BYE [SERVERBUG]``; thousands of search keys or fetch items each cost a pass over the folder on
the world's event loop. :class:`GuardedReading` (mixed into the connection) reads commands with a
byte budget and answers ``<tag> BAD [TOOBIG]`` / ``BAD [LIMIT]`` / ``BAD`` instead, keeping the
connection usable: everything an over-limit command sends is read to its end and dropped.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

from pymap.imap import IMAPConnection
from pymap.imap.state import ConnectionState
from pymap.parsing import Params
from pymap.parsing.command import Command
from pymap.parsing.command.select import FetchCommand, SearchCommand
from pymap.parsing.commands import InvalidCommand
from pymap.parsing.state import ExpectContinuation, ParsingInterrupt, ParsingState

from . import limits

__all__ = ["CommandTooBig", "GuardedReading", "RefusedCommand", "paren_depth", "search_key_count", "vet"]

_log = logging.getLogger(__name__)
_TAG = re.compile(rb"[!#$&'*,./0-9:;<=>?@A-Z^_`a-z|~\-]{1,64}")
_LITERAL_PLUS = re.compile(rb"~?\{(\d+)\+\}\r?\n\Z")
_SYNTAX = re.compile(rb'"(?:[^"\\\r\n]|\\.)*"|~?\{(\d+)\+?\}\r?\n|[()]')
_SECTION_ITEMS = frozenset(
    {b"BODY", b"BODY.PEEK", b"BINARY", b"BINARY.PEEK", b"RFC822", b"RFC822.TEXT", b"RFC822.HEADER"}
)


class CommandTooBig(Exception):
    """A command over the byte budget; everything it sent has been read and dropped."""


class RefusedCommand(InvalidCommand):
    """A command refused before pymap ran it; answered ``<tag> BAD [code] text``."""

    def __init__(self, tag: bytes, text: str, code: bytes | None = None) -> None:
        super().__init__(Params(tag=tag), None)
        self.text = text.encode("ascii", "replace")
        self.code = code

    @property
    def message(self) -> bytes:
        return self.text


def tag_of(first_line: bytes) -> bytes:
    """The tag a refusal answers to: the line's first word if it is a valid tag, else ``*``."""
    match = _TAG.match(first_line)
    return match.group(0) if match and first_line[match.end() : match.end() + 1] == b" " else b"*"


def paren_depth(data: bytes) -> int:
    """The deepest parenthesis nesting of a command, outside quoted strings and literals."""
    depth = deepest = pos = 0
    while (m := _SYNTAX.search(data, pos)) is not None:
        token = m.group(0)
        pos = m.end()
        if token == b"(":
            depth += 1
            deepest = max(deepest, depth)
        elif token == b")":
            depth = max(0, depth - 1)
        elif m.group(1) is not None:  # a literal: skip its content
            pos += int(m.group(1))
    return deepest


def search_key_count(keys: Any) -> int:
    """Search keys, counted through OR, NOT and parenthesised groups (without recursion)."""
    count = 0
    stack = list(keys)
    while stack:
        key = stack.pop()
        count += 1
        if key.key in (b"KEYSET", b"OR"):  # NOT is a flag on a key, not a key of its own
            stack.extend(key.filter)
    return count


def vet(cmd: Command) -> RefusedCommand | None:
    """Post-parse limits: search keys, fetch items."""
    if isinstance(cmd, SearchCommand):
        n = search_key_count(cmd.keys)
        if n > limits.MAX_SEARCH_KEYS:
            return RefusedCommand(
                cmd.tag, f"SEARCH has {n} keys; at most {limits.MAX_SEARCH_KEYS} are allowed.", b"LIMIT"
            )
    if isinstance(cmd, FetchCommand):
        items = list(cmd.attributes)
        if len(items) > limits.MAX_FETCH_ITEMS:
            return RefusedCommand(
                cmd.tag, f"FETCH asks for {len(items)} items; at most {limits.MAX_FETCH_ITEMS} are allowed.", b"LIMIT"
            )
        sections = sum(1 for a in items if a.value in _SECTION_ITEMS)
        if sections > limits.MAX_FETCH_SECTIONS:
            return RefusedCommand(
                cmd.tag,
                f"FETCH asks for {sections} body sections; at most {limits.MAX_FETCH_SECTIONS} are allowed.",
                b"LIMIT",
            )
    return None


class _Budget:
    """What one command may still send: bytes in lines and literals, and literals."""

    def __init__(self, first_line: bytes) -> None:
        self.tag = tag_of(first_line[:80])
        words = first_line.split(None, 2)
        is_append = len(words) > 1 and words[1].upper() == b"APPEND"
        self.allowed = limits.MAX_APPEND_COMMAND_BYTES if is_append else limits.MAX_COMMAND_BYTES
        self.used = 0
        self.literals = 0
        self.problem: str | None = None

    def refuse(self, problem: str) -> None:
        if self.problem is None:
            self.problem = problem

    def spend(self, length: int, *, literal: bool = False) -> None:
        """Account for a line or a literal; on excess, remember why (the caller drops the data)."""
        self.used += length
        if literal:
            self.literals += 1
            if self.literals > limits.MAX_LITERALS_PER_COMMAND:
                self.refuse(f"more than {limits.MAX_LITERALS_PER_COMMAND} literals in one command")
        if self.used > self.allowed:
            self.refuse(f"command larger than {self.allowed:,} bytes")


class GuardedReading(IMAPConnection):
    """pymap's connection with bounded command reading (a mixin for the connection class).

    The stream reader's limit must be :data:`limits.MAX_COMMAND_LINE_BYTES` (see ``start_imap``).
    """

    _budget: _Budget | None = None

    async def _read_line(self) -> tuple[bytes, bool]:
        """One line and whether it was too long (then it was read to its end and dropped)."""
        try:
            return await self.reader.readuntil(b"\n"), False
        except asyncio.IncompleteReadError as exc:
            return exc.partial, False  # EOF: pymap raises EOFError on a line without its newline
        except asyncio.LimitOverrunError as exc:
            head = await self.reader.readexactly(min(exc.consumed, 80))  # keeps the tag
            consumed = exc.consumed - len(head)
            while True:
                await self.reader.readexactly(consumed)
                try:
                    await self.reader.readuntil(b"\n")
                    return head.rstrip(b"\r\n") + b"\r\n", True
                except asyncio.LimitOverrunError as more:
                    consumed = more.consumed

    async def _drop(self, length: int) -> None:
        """Read and discard ``length`` bytes without holding them."""
        while length > 0:
            chunk = await self.reader.read(min(length, 1 << 16))
            if not chunk:
                raise EOFError()
            length -= len(chunk)

    async def readline(self) -> memoryview:
        """A line plus any non-synchronizing literals (LITERAL+) and their continuation lines."""
        line, too_long = await self._read_line()
        if self._budget is None:  # the first line of a command
            self._budget = _Budget(line[:200])
        budget = self._budget
        buf = bytearray()
        while True:
            budget.spend(len(line))
            if too_long:
                budget.refuse(f"command line longer than {limits.MAX_COMMAND_LINE_BYTES:,} bytes")
            buf += line
            if not buf.endswith(b"\n"):
                raise EOFError()
            lit_plus = _LITERAL_PLUS.search(buf[-32:]) if buf.endswith((b"+}\n", b"+}\r\n")) else None
            if not lit_plus:
                self._print("%s -->| %s", bytes(buf[:1024]))
                return memoryview(buf)
            length = int(lit_plus.group(1))
            budget.spend(length, literal=True)
            if budget.problem:
                await self._drop(length)  # keep reading (and dropping) to the command's end
                buf = bytearray()
            else:
                buf += await self.reader.readexactly(length)
            line, too_long = await self._read_line()

    async def _interrupt(
        self, state: ConnectionState, interrupt: ParsingInterrupt, continuations: list[memoryview]
    ) -> None:
        expected = interrupt.expected
        if self._budget is not None and isinstance(expected, ExpectContinuation):
            self._budget.spend(expected.literal_length, literal=True)
            if self._budget.problem:  # answer BAD instead of "+": the client sends nothing more
                raise CommandTooBig(self._budget.problem)
        await super()._interrupt(state, interrupt, continuations)  # type: ignore[misc]

    async def read_command(self, state: ConnectionState) -> Command:
        self._budget = None
        try:
            line = await self.readline()
            budget = self._budget
            assert budget is not None
            tag = budget.tag
            conts: list[memoryview] = []
            while True:
                if budget.problem:
                    return RefusedCommand(tag, f"Refused: {budget.problem}.", b"TOOBIG")
                text = bytes(line) + b"".join(bytes(c) for c in conts)
                if paren_depth(text) > limits.MAX_PAREN_DEPTH:
                    return RefusedCommand(tag, f"Parentheses nested more than {limits.MAX_PAREN_DEPTH} levels deep.")
                params = self.params.copy(ParsingState(continuations=conts))
                try:
                    cmd, _ = self.commands.parse(line, params)
                except ParsingInterrupt as interrupt:
                    try:
                        await self._interrupt(state, interrupt, conts)
                    except CommandTooBig as exc:
                        return RefusedCommand(tag, f"Refused: {exc}.", b"TOOBIG")
                    continue
                except RecursionError:  # a structure pymap's parser cannot descend
                    return RefusedCommand(tag, "Command nested too deeply.")
                except UnicodeError:  # pymap decodes search strings without catching errors
                    return RefusedCommand(tag, "A string is not valid in the command's charset.")
                except Exception:  # any other parser failure on hostile input is a bad command
                    _log.warning("pymap could not parse a command", exc_info=True)
                    return RefusedCommand(tag, "Command could not be parsed.")
                return vet(cmd) or cmd
        finally:
            self._budget = None
