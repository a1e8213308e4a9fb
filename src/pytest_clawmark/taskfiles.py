"""The files of a task folder: its facts, seed tables, pages and mails.

Why a folder of plain files beside the task module: a task mixes five kinds of content —
narrative (mails, rules), seed data (tables), figures, checker logic and reference solutions —
and only the last two are code. A domain expert edits a Markdown rules page, a CSV table or a mail
with a header block without reading Python; and every figure lives once, in ``facts.toml``, which
the turns, the checkers, the solutions and the evidence generator (``make_evidence.py``) all read,
so an edit cannot make them disagree.

The shape (``clawmark new-task`` writes it)::

    tasks/<scenario>/<name>/
        task_<name>.py        the story: Task, turns, checkers by day, solutions
        facts.toml            every figure the task states or checks
        seed/                 pages (.md) and tables (.csv) the turns load
        mail/                 mails the turns deliver: a header block, a blank line, the body
        day1/, day3/ ...      raw evidence (PDF, images, audio), made by make_evidence.py

Paths are relative to the task's folder (as every admin-plane path already is). Text files may
name facts as ``{{ dotted.name }}`` (two braces: prose and JSON never use them); an unknown name
is an error naming the file, never a silently empty figure.
"""

from __future__ import annotations

import csv
import email.parser
import email.policy
import io
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "Facts",
    "MailFile",
    "TaskFileError",
    "TaskFolder",
    "fill",
    "kb_rows",
    "read_mail",
    "read_table",
    "read_text",
]

PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][\w.]*)\s*\}\}")
MALFORMED = re.compile(r"\{\{\s*([A-Za-z_][^{}\s]*)\s*\}\}")
"""A placeholder whose name is not a dotted name of letters, digits and ``_`` (``{{ items.IT-1 }}``):
an error rather than text left in place (TOML keys with other characters cannot be named)."""
MAIL_HEADERS = ("from", "to", "cc", "subject", "attachments", "in-reply-to", "message-id", "date")


class TaskFileError(Exception):
    """A task file that is missing or malformed; the message names the file and what is wrong."""


class Facts(Mapping[str, Any]):
    """A read-only view of ``facts.toml``: ``F.patient.mrn`` or ``F["patient"]["mrn"]``.

    Why attribute access: checkers and solutions read figures inline (``F.apixaban.reduced_dose``),
    and a typo is an error naming the missing fact and where it was looked for. A table named like
    a mapping method (``items``, ``keys``, ``values``, ``get``) is read with ``F["items"]``
    (``{{ items.x }}`` in text files works as it is).
    """

    def __init__(self, data: Mapping[str, Any], where: str = "facts") -> None:
        self._data = dict(data)
        self._where = where

    def __getitem__(self, key: str) -> Any:
        try:
            value = self._data[key]
        except KeyError:
            raise KeyError(
                f"{self._where} has no {key!r} (it has: {', '.join(sorted(self._data)) or 'nothing'})"
            ) from None
        return Facts(value, f"{self._where}.{key}") if isinstance(value, Mapping) else value

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self[key]
        except KeyError as exc:
            raise AttributeError(str(exc.args[0])) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Facts({self._where}: {', '.join(self._data)})"

    def lookup(self, dotted: str) -> Any:
        """The fact at ``a.b.c`` (what ``{{ a.b.c }}`` in a text file names)."""
        value: Any = self
        for part in dotted.split("."):
            if not isinstance(value, Mapping):
                raise KeyError(f"{dotted!r}: {part!r} is looked up in a value that is not a table")
            value = value[part]
        return value


def fill(text: str, values: Mapping[str, Any] | None, where: str) -> str:
    """Replace every ``{{ dotted.name }}`` in ``text`` by its value in ``values``."""
    if "{{" not in text:
        return text
    facts = values if isinstance(values, Facts) else Facts(values or {}, "the values given")

    def one(m: re.Match[str]) -> str:
        try:
            value = facts.lookup(m.group(1))
        except KeyError as exc:
            raise TaskFileError(f"{where}: {{{{ {m.group(1)} }}}} names no fact ({exc.args[0]})") from None
        if isinstance(value, Mapping) or isinstance(value, list):
            raise TaskFileError(f"{where}: {{{{ {m.group(1)} }}}} is a table or a list, not a value to write in text")
        return str(value)

    filled = PLACEHOLDER.sub(one, text)
    bad = MALFORMED.search(filled)
    if bad:
        raise TaskFileError(
            f"{where}: {{{{ {bad.group(1)} }}}} is not a fact name (letters, digits, '_' and dots only: "
            "name the TOML key without '-' or spaces)"
        )
    return filled


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TaskFileError(f"{path}: no such task file") from None
    except UnicodeDecodeError as exc:
        raise TaskFileError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def read_text(path: Path, values: Mapping[str, Any] | None = None) -> str:
    """A text file (a rules page, a wake-up message) with its facts filled in; one trailing
    newline is dropped (editors add it; the text a turn wrote in code never had it)."""
    return fill(_read(path), values, str(path)).removesuffix("\n")


def read_table(path: Path, values: Mapping[str, Any] | None = None) -> tuple[list[str], list[list[str]]]:
    """A CSV file (comma-separated, a header row, UTF-8): its header and its rows, as text."""
    text = fill(_read(path), values, str(path))
    rows = [r for r in csv.reader(io.StringIO(text, newline=""))]
    if not rows:
        raise TaskFileError(f"{path}: an empty table (a header row is needed)")
    header = rows[0]
    if len(set(header)) != len(header) or any(not h.strip() for h in header):
        raise TaskFileError(f"{path}: the header row needs distinct, non-empty column names, found {header}")
    for n, row in enumerate(rows[1:], start=2):
        if len(row) > len(header):
            raise TaskFileError(f"{path}: line {n} has {len(row)} cells for {len(header)} columns")
    return header, [r + [""] * (len(header) - len(r)) for r in rows[1:]]


@dataclass(frozen=True)
class MailFile:
    """A mail a turn delivers, as written in its file (see :func:`read_mail`)."""

    sender: str
    to: list[str]
    subject: str
    body: str
    cc: list[str] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)
    in_reply_to: str | None = None
    message_id: str | None = None

    def deliver_kwargs(self) -> dict[str, Any]:
        """The arguments of ``world.mail.deliver``."""
        kwargs: dict[str, Any] = {"cc": self.cc, "attachments": self.attachments}
        if self.in_reply_to:
            kwargs["in_reply_to"] = self.in_reply_to
        if self.message_id:
            kwargs["message_id"] = self.message_id
        return kwargs


def read_mail(path: Path, values: Mapping[str, Any] | None = None) -> MailFile:
    """A mail file: a header block (``From``, ``To``, ``Cc``, ``Subject``, ``Attachments``,
    ``In-Reply-To``, ``Message-ID``), a blank line, then the body as it reads.

    Addresses are ``Name <a@x>`` or bare, comma-separated; attachments are paths relative to the
    task's folder, comma-separated. The body keeps every character but its trailing newlines.
    """
    text = fill(_read(path), values, str(path))
    head, sep, body = text.partition("\n\n")
    if not sep:
        raise TaskFileError(f"{path}: a mail file is a header block, a blank line, then the body (no blank line found)")
    headers = email.parser.HeaderParser(policy=email.policy.compat32).parsestr(head + "\n")
    unknown = sorted({k.lower() for k in headers.keys()} - set(MAIL_HEADERS))
    if unknown:
        raise TaskFileError(
            f"{path}: unknown header(s) {unknown}; a mail file knows {', '.join(h.title() for h in MAIL_HEADERS)}"
        )

    def one(name: str) -> str:
        values = [" ".join(str(v).split()) for v in headers.get_all(name) or []]
        if len(values) > 1:
            raise TaskFileError(f"{path}: {name.title()} is given {len(values)} times")
        return values[0] if values else ""

    def many(name: str) -> list[str]:
        return [a.strip() for a in one(name).split(",") if a.strip()]

    sender, to, subject = one("from"), many("to"), one("subject")
    missing = [n for n, v in (("From", sender), ("To", to), ("Subject", subject)) if not v]
    if missing:
        raise TaskFileError(f"{path}: the header block needs {', '.join(missing)}")
    if one("date"):
        raise TaskFileError(f"{path}: Date is the turn's in-universe clock; deliver it with date= to change it")
    return MailFile(
        sender=sender,
        to=to,
        subject=subject,
        body=body.rstrip("\n"),
        cc=many("cc"),
        attachments=many("attachments"),
        in_reply_to=one("in-reply-to") or None,
        message_id=one("message-id") or None,
    )


class TaskFolder:
    """The task's folder, for the files a task module reads at import (its facts) or a turn
    loads (``folder.text``, ``folder.table``, ``folder.mail``).

    ``TaskFolder(__file__)`` in the task module; ``make_evidence.py`` does the same, so both read
    one ``facts.toml``.
    """

    def __init__(self, module_file: str | Path) -> None:
        self.root = Path(module_file).resolve().parent
        self._facts: Facts | None = None

    @classmethod
    def at(cls, folder: str | Path) -> TaskFolder:
        """The folder itself (the admin plane knows the task's folder, not its module)."""
        return cls(Path(folder) / "task.py")

    def path(self, rel: str) -> Path:
        """``rel`` in the folder (a path outside it is refused: a task ships what it reads)."""
        full = (self.root / rel).resolve()
        if full != self.root and self.root not in full.parents:
            raise TaskFileError(f"{rel}: outside the task's folder {self.root}")
        return full

    @property
    def facts(self) -> Facts:
        """``facts.toml``, read once."""
        if self._facts is None:
            path = self.path("facts.toml")
            try:
                data = tomllib.loads(_read(path))
            except tomllib.TOMLDecodeError as exc:
                raise TaskFileError(f"{path}: not valid TOML ({exc})") from None
            self._facts = Facts(data, "facts.toml")
        return self._facts

    def text(self, rel: str, **values: Any) -> str:
        """A text file with ``{{ facts }}`` (and ``values``) filled in."""
        return read_text(self.path(rel), self._values(values))

    def table(self, rel: str, **values: Any) -> list[dict[str, str]]:
        """A CSV file's rows as dicts keyed by its header (text; empty cells are '')."""
        header, rows = read_table(self.path(rel), self._values(values))
        return [dict(zip(header, row)) for row in rows]

    def mail(self, rel: str, **values: Any) -> MailFile:
        return read_mail(self.path(rel), self._values(values))

    def _values(self, extra: Mapping[str, Any]) -> Facts:
        base = dict(self.facts) if self.path("facts.toml").is_file() else {}
        return Facts({**base, **extra}, "facts.toml")


def kb_rows(header: list[str], rows: list[list[str]], schema: Mapping[str, Any], where: str) -> list[dict[str, Any]]:
    """CSV rows as the KB admin plane's plain values, typed by the database's ``schema``.

    ``number``: int or float ("1,204" and "72" too); ``checkbox``: true/false, yes/no, 1/0;
    ``multi_select`` and ``people``: ``;``-separated; anything else: the text. An empty cell is
    left out (the property stays empty, as an empty cell in Notion's CSV import).
    """
    unknown = [h for h in header if h not in schema]
    if unknown:
        raise TaskFileError(f"{where}: column(s) {unknown} are not in the database's schema ({', '.join(schema)})")
    out = []
    for n, row in enumerate(rows, start=2):
        props: dict[str, Any] = {}
        for name, cell in zip(header, row):
            if cell == "":
                continue
            spec = schema[name]
            kind = spec if isinstance(spec, str) else next(iter(spec))
            try:
                props[name] = _kb_value(kind, cell)
            except ValueError as exc:
                raise TaskFileError(f"{where}: line {n}, column {name!r} ({kind}): {exc}") from None
        out.append(props)
    return out


def _kb_value(kind: str, cell: str) -> Any:
    if kind == "number":
        text = cell.replace(",", "").strip()
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                raise ValueError(f"{cell!r} is not a number") from None
    if kind == "checkbox":
        low = cell.strip().lower()
        if low in ("true", "yes", "1", "x"):
            return True
        if low in ("false", "no", "0", ""):
            return False
        raise ValueError(f"{cell!r} is not true/false")
    if kind in ("multi_select", "people", "relation"):
        return [part.strip() for part in cell.split(";") if part.strip()]
    return cell
