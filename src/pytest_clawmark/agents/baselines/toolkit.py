"""A blind, generic toolkit over a world's agent plane, shared by the shortcut baselines.

Why: each shortcut baseline imitates an agent that uses the work systems without understanding
the task. They all need the same moves — list every mail, every KB database and row, every
spreadsheet tab, every workspace file; write a property, a cell, a file; send a mail — with no
knowledge of any task's names. This module makes those moves from the ``CLAWMARK_*`` environment
only (SMTP/IMAP, the Notion REST API, the Sheets/Drive REST API, CalDAV, the workspace), exactly as
any agent would reach them. It never reads the task module, its facts or its solutions.

Two rules hold for every move:

- **Nothing aborts the turn.** :meth:`Toolkit.attempt` runs one action, records it as a
  :class:`~pytest_clawmark.agents.base.ToolCall` and swallows its error (a service the task does
  not have, a refused write, a malformed mail): the next action still runs.
- **Bounded and deterministic.** Every network call has a timeout, the turn has a deadline after
  which no new action starts, and everything is visited in a stable order (mail by UID, databases
  and spreadsheets by title then id, rows in query order, files sorted), so the same world gives
  the same actions.
"""

from __future__ import annotations

import email
import email.policy
import imaplib
import json
import mimetypes
import re
import smtplib
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from ...agentplane import column_letter
from ..base import ToolCall

NETWORK_TIMEOUT = 10.0
"""Seconds any one request may take."""
MAIL_WINDOW = 40
"""Mails a baseline works through: the newest 40 of the INBOX, as a hurried person skims. It
bounds a blind agent's time on a task that seeds hundreds of background mails (every baseline
acts on every mail it reads: forwarding each to everyone took ~90 s a task) and keeps the mails
that matter, which arrive last, within its reach."""
MAX_CELL = 20_000
"""Characters written into one cell or property (the servers' own limits are higher)."""
MAX_FILES = 500
"""Workspace files a baseline looks at."""
MAX_FILE_BYTES = 5 * 2**20
"""Workspace files larger than this are not copied."""
MAX_ATTACHMENT_BYTES = 8 * 2**20
"""A forwarded mail carries attachments up to this total."""
MAX_RECIPIENTS = 100
"""SMTP's per-mail recipient limit on the world's server."""

POSITIVE = (
    "pass", "passed", "done", "approved", "cleared", "sent", "complete", "completed", "verified", "resolved",
    "accepted", "signed", "settled", "confirmed", "scheduled", "published", "ready", "go", "ok", "yes", "closed",
    "final", "agreed", "granted", "paid",
)  # fmt: skip
"""Positive words, in the order a blind flip prefers them."""
STATUS_HEADER = re.compile(r"status|state|decision|approv|done|stage|result|verdict|ok\b|check|signed|cleared", re.I)
"""Sheet column headers a blind agent takes for status columns."""
DELIVERABLE = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w.-]+\.(?:csv|json|md|txt|xlsx|ics|html|yaml|yml))\b", re.I)
"""File names a wake-up message may mention as deliverables."""
WORD = re.compile(r"[A-Za-z0-9€$£][\w€$£%.,/:@+-]*[A-Za-z0-9%]|[A-Za-z0-9]")
"""A word or number as written (ids like P-2189, amounts like 1,204.50, times like 09:30)."""


@dataclass
class MailItem:
    """One mail of the user's INBOX, parsed."""

    uid: int
    message: EmailMessage

    @property
    def subject(self) -> str:
        return " ".join(str(self.message.get("Subject") or "").split())

    @property
    def message_id(self) -> str:
        return str(self.message.get("Message-ID") or "").strip()

    @property
    def sender(self) -> str:
        found = getaddresses([str(self.message.get("Reply-To") or self.message.get("From") or "")])
        return found[0][1].lower() if found and found[0][1] else ""

    @property
    def addresses(self) -> list[str]:
        """Every address in its From, Reply-To, To and Cc headers, lower-cased, in order."""
        values = [str(v) for h in ("From", "Reply-To", "To", "Cc") for v in self.message.get_all(h, [])]
        return _unique(a.lower() for _, a in getaddresses(values) if "@" in a)

    @property
    def text(self) -> str:
        part = self.message.get_body(preferencelist=("plain", "html"))
        try:
            return part.get_content() if part is not None else ""
        except (LookupError, ValueError):
            return ""

    @property
    def attachments(self) -> list[tuple[str, bytes, str]]:
        out = []
        for part in self.message.iter_attachments():
            name = part.get_filename()
            data = part.get_payload(decode=True)
            if name and isinstance(data, bytes):
                out.append((name, data, part.get_content_type()))
        return out


@dataclass
class Database:
    """A KB database: id, title and ``{property: type}``, with the options of its select/status properties."""

    id: str
    title: str
    types: dict[str, str]
    options: dict[str, list[str]] = field(default_factory=dict)


class Toolkit:
    """The agent plane of one trial, used blindly; every action goes through :meth:`attempt`."""

    def __init__(self, env: Mapping[str, str], workspace: Path, user_email: str, seconds: float) -> None:
        self.env = dict(env)
        self.workspace = workspace
        self.user = user_email.lower()
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.calls: list[ToolCall] = []
        self._notion: httpx.Client | None = None
        self._sheets: httpx.Client | None = None

    # -- bookkeeping -------------------------------------------------------------------------
    def start_turn(self) -> None:
        self.deadline = time.monotonic() + self.seconds
        self.calls = []

    @property
    def out_of_time(self) -> bool:
        return time.monotonic() >= self.deadline

    def attempt(self, name: str, fn: Callable[..., Any], *args: Any, summary: str = "", **kwargs: Any) -> Any:
        """Run one action; record it; return its result, or None when it failed or time is up."""
        if self.out_of_time:
            self.calls.append(ToolCall(name, summary[:200], "skipped: turn budget spent"))
            return None
        try:
            result = fn(*args, **kwargs)
        except Exception as exc:  # a blind agent meets refusals all the time: note it and go on
            self.calls.append(ToolCall(name, summary[:200], f"error: {type(exc).__name__}: {str(exc)[:160]}"))
            return None
        self.calls.append(ToolCall(name, summary[:200], "ok"))
        return result

    def has(self, service: str) -> bool:
        needs = {
            "mail": "CLAWMARK_SMTP_HOST",
            "kb": "CLAWMARK_NOTION_URL",
            "sheets": "CLAWMARK_SHEETS_URL",
            "calendar": "CLAWMARK_CALDAV_URL",
        }
        return needs[service] in self.env

    def close(self) -> None:
        for client in (self._notion, self._sheets):
            if client is not None:
                client.close()
        self._notion = self._sheets = None

    # -- mail ----------------------------------------------------------------------------------
    def inbox(self) -> list[MailItem]:
        """The newest :data:`MAIL_WINDOW` mails of the user's INBOX, by UID (read with BODY.PEEK:
        flags stay as they are)."""
        if not self.has("mail"):
            return []
        with imaplib.IMAP4(
            self.env["CLAWMARK_IMAP_HOST"], int(self.env["CLAWMARK_IMAP_PORT"]), timeout=NETWORK_TIMEOUT
        ) as imap:
            imap.login(self.env["CLAWMARK_MAIL_USER"], self.env["CLAWMARK_MAIL_PASSWORD"])
            imap.select("INBOX", readonly=True)
            _, data = imap.uid("SEARCH", None, "ALL")
            uids = data[0].split()[-MAIL_WINDOW:]
            if not uids:
                return []
            _, parts = imap.uid("FETCH", b",".join(uids), "(UID BODY.PEEK[])")
            out = []
            for part in parts:
                if not isinstance(part, tuple):
                    continue
                uid = re.search(rb"UID (\d+)", part[0])
                msg = email.message_from_bytes(part[1], policy=email.policy.default)
                out.append(MailItem(int(uid.group(1)) if uid else 0, msg))  # type: ignore[arg-type]
            return sorted(out, key=lambda m: m.uid)

    def send(
        self,
        to: Sequence[str],
        subject: str,
        body: str,
        *,
        in_reply_to: str = "",
        attachments: Iterable[tuple[str, bytes, str]] = (),
    ) -> None:
        """One mail as the user (at most :data:`MAX_RECIPIENTS` recipients; the caller splits)."""
        msg = EmailMessage()
        msg["From"] = self.env["CLAWMARK_MAIL_USER"]
        msg["To"] = ", ".join(to)
        msg["Subject"] = subject
        if in_reply_to:
            msg["In-Reply-To"] = in_reply_to
            msg["References"] = in_reply_to
        msg.set_content(body)
        for name, data, mime in attachments:
            maintype, _, subtype = (mime or mimetypes.guess_type(name)[0] or "application/octet-stream").partition("/")
            msg.add_attachment(data, maintype=maintype, subtype=subtype or "octet-stream", filename=name)
        with smtplib.SMTP(
            self.env["CLAWMARK_SMTP_HOST"], int(self.env["CLAWMARK_SMTP_PORT"]), timeout=NETWORK_TIMEOUT
        ) as smtp:
            smtp.login(self.env["CLAWMARK_MAIL_USER"], self.env["CLAWMARK_MAIL_PASSWORD"])
            smtp.send_message(msg)

    def addresses_seen(self, mails: Sequence[MailItem], *texts: str) -> list[str]:
        """Every address in the mails' headers and in ``texts`` (bodies, the message), but the user's."""
        found = [a for m in mails for a in m.addresses]
        for text in texts:
            found += [a.lower().rstrip(".") for a in re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", text)]
        return [a for a in _unique(found) if a != self.user]

    # -- knowledge base (Notion REST API, 2022-06-28) -----------------------------------------
    @property
    def notion(self) -> httpx.Client:
        if self._notion is None:
            self._notion = httpx.Client(
                base_url=self.env["CLAWMARK_NOTION_URL"],
                headers={
                    "Authorization": f"Bearer {self.env['CLAWMARK_NOTION_TOKEN']}",
                    "Notion-Version": "2022-06-28",
                },
                timeout=NETWORK_TIMEOUT,
            )
        return self._notion

    def _kb(self, method: str, path: str, body: Any = None) -> Any:
        r = self.notion.request(method, path, json=body)
        r.raise_for_status()
        return r.json()

    def _search(self, kind: str) -> list[dict[str, Any]]:
        found, cursor = [], None
        for _ in range(50):
            body: dict[str, Any] = {"filter": {"property": "object", "value": kind}, "page_size": 100}
            if cursor:
                body["start_cursor"] = cursor
            page = self._kb("POST", "/v1/search", body)
            found += page.get("results", [])
            if not page.get("has_more"):
                break
            cursor = page.get("next_cursor")
        return found

    def databases(self) -> list[Database]:
        """Every database, by title then id."""
        if not self.has("kb"):
            return []
        out = []
        for d in self._search("database"):
            props = d.get("properties") or {}
            types = {name: p.get("type", "") for name, p in props.items()}
            options = {
                name: [o.get("name", "") for o in (p.get(p.get("type"), {}) or {}).get("options", [])]
                for name, p in props.items()
                if p.get("type") in ("select", "status", "multi_select")
            }
            out.append(Database(d["id"], plain_text(d.get("title") or []), types, options))
        return sorted(out, key=lambda d: (d.title, d.id))

    def rows(self, db: Database) -> list[dict[str, Any]]:
        """Every row (page) of ``db``, in the database's order."""
        rows, cursor = [], None
        for _ in range(50):
            body: dict[str, Any] = {"page_size": 100}
            if cursor:
                body["start_cursor"] = cursor
            page = self._kb("POST", f"/v1/databases/{db.id}/query", body)
            rows += page.get("results", [])
            if not page.get("has_more"):
                break
            cursor = page.get("next_cursor")
        return rows

    def pages(self) -> list[dict[str, Any]]:
        """Every page that is not a database row, by id (titles may repeat)."""
        if not self.has("kb"):
            return []
        found = [
            p
            for p in self._search("page")
            if (p.get("parent") or {}).get("type") not in ("database_id", "data_source_id")
        ]
        return sorted(found, key=lambda p: p["id"])

    def update_page(self, page_id: str, properties: Mapping[str, Any]) -> Any:
        return self._kb("PATCH", f"/v1/pages/{page_id}", {"properties": dict(properties)})

    def create_row(self, db: Database, properties: Mapping[str, Any]) -> Any:
        return self._kb("POST", "/v1/pages", {"parent": {"database_id": db.id}, "properties": dict(properties)})

    def append_paragraph(self, page_id: str, text: str) -> Any:
        chunks = [text[i : i + 1900] for i in range(0, min(len(text), MAX_CELL), 1900)] or [""]
        children = [
            {"object": "block", "type": "paragraph", "paragraph": {"rich_text": rich_text(c)}} for c in chunks[:10]
        ]
        return self._kb("PATCH", f"/v1/blocks/{page_id}/children", {"children": children})

    # -- spreadsheets (Sheets v4 + Drive v3) ---------------------------------------------------
    @property
    def sheets_http(self) -> httpx.Client:
        if self._sheets is None:
            self._sheets = httpx.Client(
                base_url=self.env["CLAWMARK_SHEETS_URL"],
                headers={"Authorization": f"Bearer {self.env['CLAWMARK_SHEETS_TOKEN']}"},
                timeout=NETWORK_TIMEOUT,
            )
        return self._sheets

    def _sheets_json(self, r: httpx.Response) -> Any:
        r.raise_for_status()
        return r.json()

    def spreadsheets(self) -> list[tuple[str, str]]:
        """(id, name) of every spreadsheet not in the trash, by name then id."""
        if not self.has("sheets"):
            return []
        found, token = [], None
        for _ in range(50):
            params = {"q": "trashed = false", "pageSize": "1000"}
            if token:
                params["pageToken"] = token
            page = self._sheets_json(self.sheets_http.get("/drive/v3/files", params=params))
            found += [(f["id"], f.get("name", "")) for f in page.get("files", [])]
            token = page.get("nextPageToken")
            if not token:
                break
        return sorted(found, key=lambda f: (f[1], f[0]))

    def tabs(self, sid: str) -> list[str]:
        meta = self._sheets_json(self.sheets_http.get(f"/v4/spreadsheets/{sid}"))
        return [s["properties"]["title"] for s in meta.get("sheets", [])]

    def grid(self, sid: str, tab: str) -> list[list[Any]]:
        rng = quote(quoted_tab(tab), safe="")
        return self._sheets_json(self.sheets_http.get(f"/v4/spreadsheets/{sid}/values/{rng}")).get("values", [])

    def write_cells(self, sid: str, cells: Mapping[str, Any]) -> Any:
        """``{"'Tab'!B2": value}`` in one values.batchUpdate (USER_ENTERED, as a person types)."""
        body = {
            "valueInputOption": "USER_ENTERED",
            "data": [{"range": rng, "values": [[value]]} for rng, value in cells.items()],
        }
        return self._sheets_json(self.sheets_http.post(f"/v4/spreadsheets/{sid}/values:batchUpdate", json=body))

    def append_row(self, sid: str, tab: str, values: Sequence[Any]) -> Any:
        return self.append_rows(sid, tab, [values])

    def append_rows(self, sid: str, tab: str, rows: Sequence[Sequence[Any]]) -> Any:
        rng = quote(f"{quoted_tab(tab)}!A1", safe="")
        return self._sheets_json(
            self.sheets_http.post(
                f"/v4/spreadsheets/{sid}/values/{rng}:append",
                params={"valueInputOption": "USER_ENTERED"},
                json={"values": [list(r) for r in rows]},
            )
        )

    # -- calendar (CalDAV) ---------------------------------------------------------------------
    def book(
        self, uid: str, summary: str, start: datetime, minutes: int, attendees: Sequence[str], stamp: datetime
    ) -> None:
        from ...agentplane import Calendar

        Calendar(self.env).book(
            uid, summary, start, start + timedelta(minutes=minutes), attendees=attendees, stamp=stamp
        )

    # -- workspace -----------------------------------------------------------------------------
    def files(self) -> list[str]:
        """Workspace-relative paths of regular files (no links), sorted, at most :data:`MAX_FILES`."""
        out = []
        for p in sorted(self.workspace.rglob("*")):
            if len(out) >= MAX_FILES:
                break
            rel = p.relative_to(self.workspace)
            if rel.parts and rel.parts[0].startswith("."):
                continue
            if p.is_file() and not p.is_symlink():
                out.append(rel.as_posix())
        return out

    def folders(self) -> list[str]:
        """Workspace-relative folders holding files, the top ("") first, sorted."""
        return _unique(["", *sorted({str(Path(f).parent.as_posix()) for f in self.files() if "/" in f})])

    def write_file(self, rel: str, data: bytes) -> None:
        target = (self.workspace / rel).resolve()
        if not target.is_relative_to(self.workspace.resolve()):
            raise ValueError(f"{rel} is outside the workspace")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)

    def read_file(self, rel: str) -> bytes:
        p = self.workspace / rel
        if p.stat().st_size > MAX_FILE_BYTES:
            raise ValueError(f"{rel} is larger than {MAX_FILE_BYTES} bytes")
        return p.read_bytes()


# -- pure helpers ------------------------------------------------------------------------------
def plain_text(rich: Sequence[Mapping[str, Any]]) -> str:
    return "".join(str(t.get("plain_text") or (t.get("text") or {}).get("content") or "") for t in rich)


def rich_text(content: str) -> list[dict[str, Any]]:
    """Rich text of ``content`` in pieces of at most 2,000 characters (Notion's per-object limit)."""
    content = content[:MAX_CELL]
    return [{"type": "text", "text": {"content": content[i : i + 2000]}} for i in range(0, len(content), 2000)] or [
        {"type": "text", "text": {"content": ""}}
    ]


def quoted_tab(tab: str) -> str:
    return "'" + tab.replace("'", "''") + "'"


def cell(tab: str, col: int, row: int) -> str:
    """A1 name of a 0-based column and 1-based row of ``tab``."""
    return f"{quoted_tab(tab)}!{column_letter(col)}{row}"


def positive_choice(options: Sequence[str], preferred: Sequence[str] = POSITIVE) -> str | None:
    """The first of ``preferred`` that ``options`` offer (compared case-insensitively), as the option spells it."""
    lowered = {o.strip().lower(): o for o in options}
    for word in preferred:
        if word in lowered:
            return lowered[word]
    for word in preferred:  # "approved-by-gc", "Sent to vendor": a positive word at the start
        for low, original in lowered.items():
            if re.match(rf"{re.escape(word)}\b", low):
                return original
    return None


def words(*texts: str) -> list[str]:
    """Every distinct word or number of ``texts``, in order of first appearance."""
    return _unique(w.strip(".,:;") for text in texts for w in WORD.findall(text) if w.strip(".,:;"))


def deliverables(text: str) -> list[str]:
    """File names a message mentions (``handover/P-2189_handover.csv``, ``launch_plan.csv``), in order."""
    return _unique(m.strip("/.") for m in DELIVERABLE.findall(text) if not m.startswith(("http", "www.")))


def generic_stamp(clock: datetime) -> datetime:
    return clock.astimezone(timezone.utc)


def dumps(data: Any) -> bytes:
    return json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8")


def _unique(items: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return list(seen)
