"""Small clients for a world's agent plane, built from the ``CLAWMARK_*`` environment.

Why: reference solutions (and Python agents) act only through what an agent can reach — SMTP/IMAP,
CalDAV, the Notion REST API and the Sheets/Drive REST API. Every task needs the same few moves
(send a mail with an attachment, read a mail's attachment, find a database by title, update a
sheet range, book an event); these clients make them one line each, with exact-title lookups that
refuse ambiguity. They use only agent credentials: nothing here can reach an admin plane.

    view.mail.send(["ravi@x.example"], "Subject", "Body", attachments=[("a.json", data)])
    view.kb.rows("Release Issues")["SUP-311"]
    view.sheets.update("Tracker", "Checklist!B2", [[3]])
    view.calendar.book("uid@x", "Triage", start, end, attendees=["mei@x.example"])
"""

from __future__ import annotations

import email
import email.policy
import imaplib
import mimetypes
import re
import smtplib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import getaddresses
from functools import cached_property
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from . import retrying
from .retrying import RetryingTransport, retry_transient, transient_mail_error
from .world.service import Person

__all__ = ["AgentPlaneError", "AgentView", "Calendar", "Mail", "Notion", "Sheets", "column_letter", "text_value"]

Attachment = tuple[str, bytes] | tuple[str, bytes, str]
"""(filename, data) or (filename, data, "type/subtype")."""


class AgentPlaneError(LookupError):
    """A lookup on the agent plane found nothing, or more than one thing, where one was needed."""


def _page_title(page: Mapping[str, Any]) -> str:
    """The text of a page's title property."""
    return next((_text(p["title"]) for p in page.get("properties", {}).values() if p.get("type") == "title"), "")


def _one(found: list[Any], what: str) -> Any:
    if len(found) != 1:
        raise AgentPlaneError(f"{what}: expected exactly one, found {len(found)}")
    return found[0]


def _ok(result: tuple[str, Any], command: str) -> Any:
    """The data of an IMAP command that succeeded; imaplib hands ``NO`` back as a value."""
    typ, data = result
    if typ != "OK":
        raise imaplib.IMAP4.error(f"{command} failed: {data!r}")
    return data


class Mail:
    """SMTP submission and IMAP reading as the user."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = env
        self.user = env["CLAWMARK_MAIL_USER"]

    def send(
        self,
        to: Sequence[str] | str,
        subject: str,
        body: str,
        *,
        cc: Sequence[str] = (),
        attachments: Iterable[Attachment] = (),
        in_reply_to: str | None = None,
    ) -> None:
        msg = EmailMessage()
        msg["From"] = self.user
        msg["To"] = ", ".join([to] if isinstance(to, str) else to)
        if cc:
            msg["Cc"] = ", ".join(cc)
        msg["Subject"] = subject
        if in_reply_to:
            msg["In-Reply-To"] = in_reply_to
        msg.set_content(body)
        for item in attachments:
            name, data = item[0], item[1]
            mime = item[2] if len(item) == 3 else (mimetypes.guess_type(name)[0] or "application/octet-stream")  # type: ignore[misc]
            maintype, _, subtype = mime.partition("/")
            msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)

        # Flattened here, not by smtplib.send_message: that one writes body lines starting with
        # "From " as ">From " (mbox escaping), which a mail's own text must never get.
        data = msg.as_bytes(policy=email.policy.SMTP)
        recipients = [a for _, a in getaddresses([str(v) for v in (*msg.get_all("To", []), *msg.get_all("Cc", []))])]

        def submit() -> None:
            with smtplib.SMTP(self.env["CLAWMARK_SMTP_HOST"], int(self.env["CLAWMARK_SMTP_PORT"])) as smtp:
                smtp.login(self.user, self.env["CLAWMARK_MAIL_PASSWORD"])
                smtp.sendmail(self.user, recipients, data)

        retry_transient(submit, transient=transient_mail_error)

    def messages(self, folder: str = "INBOX") -> list[EmailMessage]:
        """Every message of ``folder`` in arrival order (read with BODY.PEEK: flags stay as they are)."""
        return retry_transient(lambda: self._messages(folder), transient=transient_mail_error)

    def _messages(self, folder: str) -> list[EmailMessage]:
        with imaplib.IMAP4(self.env["CLAWMARK_IMAP_HOST"], int(self.env["CLAWMARK_IMAP_PORT"])) as imap:
            imap.login(self.user, self.env["CLAWMARK_MAIL_PASSWORD"])
            _ok(imap.select(folder, readonly=True), "SELECT")
            data = _ok(imap.uid("SEARCH", None, "ALL"), "SEARCH")
            uids = data[0].split()
            if not uids:
                return []
            parts = _ok(imap.uid("FETCH", b",".join(uids), "(BODY.PEEK[])"), "FETCH")  # one round trip for all
            raws = [p[1] for p in parts if isinstance(p, tuple)]
            return [email.message_from_bytes(raw, policy=email.policy.default) for raw in raws]  # type: ignore[misc]

    def find(self, subject: str, folder: str = "INBOX") -> EmailMessage:
        """The newest message whose subject contains ``subject``. The server narrows the folder
        first (``UID SEARCH SUBJECT``, case-insensitive), so only candidates are fetched: a busy
        inbox of hundreds costs one small fetch, not all of it."""
        found = [m for m in self._candidates(subject, folder) if subject in str(m["Subject"] or "")]
        if not found:
            raise AgentPlaneError(f"no mail in {folder} with {subject!r} in the subject")
        return found[-1]

    def _candidates(self, subject: str, folder: str) -> list[EmailMessage]:
        if not subject.isascii() or '"' in subject or "\\" in subject:
            return self.messages(folder)  # SEARCH would need a literal or a charset: read all
        return retry_transient(lambda: self._search(subject, folder), transient=transient_mail_error)

    def _search(self, subject: str, folder: str) -> list[EmailMessage]:
        with imaplib.IMAP4(self.env["CLAWMARK_IMAP_HOST"], int(self.env["CLAWMARK_IMAP_PORT"])) as imap:
            imap.login(self.user, self.env["CLAWMARK_MAIL_PASSWORD"])
            _ok(imap.select(folder, readonly=True), "SELECT")
            data = _ok(imap.uid("SEARCH", None, "SUBJECT", f'"{subject}"'), "SEARCH")
            uids = data[0].split()
            if not uids:
                return []
            parts = _ok(imap.uid("FETCH", b",".join(uids), "(BODY.PEEK[])"), "FETCH")
            raws = [p[1] for p in parts if isinstance(p, tuple)]
            return [email.message_from_bytes(raw, policy=email.policy.default) for raw in raws]  # type: ignore[misc]

    @staticmethod
    def attachments(msg: EmailMessage) -> dict[str, bytes]:
        return {
            part.get_filename(): part.get_payload(decode=True) for part in msg.iter_attachments() if part.get_filename()
        }  # type: ignore[misc]


class Notion:
    """The Notion REST API (2022-06-28 dialect) with the agent's token."""

    def __init__(self, env: Mapping[str, str], version: str = "2022-06-28") -> None:
        self.http = httpx.Client(
            base_url=env["CLAWMARK_NOTION_URL"],
            headers={"Authorization": f"Bearer {env['CLAWMARK_NOTION_TOKEN']}", "Notion-Version": version},
            transport=RetryingTransport(),
        )

    def request(self, method: str, path: str, body: Any = None) -> Any:
        r = self.http.request(method, path, json=body)
        r.raise_for_status()
        return r.json()

    def database_id(self, title: str) -> str:
        found = self.request(
            "POST", "/v1/search", {"query": title, "filter": {"property": "object", "value": "database"}}
        )["results"]
        return _one([d["id"] for d in found if _text(d.get("title", [])) == title], f"database titled {title!r}")

    def query(self, title: str, filter: Any = None, sorts: Any = None) -> list[dict[str, Any]]:
        """All rows (pages) of a database, following pagination."""
        db, rows, cursor = self.database_id(title), [], None
        while True:
            body: dict[str, Any] = {"page_size": 100}
            if filter:
                body["filter"] = filter
            if sorts:
                body["sorts"] = sorts
            if cursor:
                body["start_cursor"] = cursor
            page = self.request("POST", f"/v1/databases/{db}/query", body)
            rows += page["results"]
            if not page.get("has_more"):
                return rows
            cursor = page["next_cursor"]

    def rows(self, title: str) -> dict[str, dict[str, Any]]:
        """Rows keyed by the text of their title property (refuses duplicate keys)."""
        out: dict[str, dict[str, Any]] = {}
        for row in self.query(title):
            key = next(_text(p["title"]) for p in row["properties"].values() if p["type"] == "title")
            if key in out:
                raise AgentPlaneError(f"two rows titled {key!r} in {title!r}")
            out[key] = row
        return out

    def create_row(self, title: str, properties: Mapping[str, Any]) -> dict[str, Any]:
        return self.request(
            "POST", "/v1/pages", {"parent": {"database_id": self.database_id(title)}, "properties": dict(properties)}
        )

    def update_page(self, page_id: str, properties: Mapping[str, Any]) -> dict[str, Any]:
        return self.request("PATCH", f"/v1/pages/{page_id}", {"properties": dict(properties)})

    def page_text(self, title: str) -> str:
        """The text of the page titled exactly ``title``: its blocks' plain text, one line per
        block, in order (children of a block follow it), as a reader of the page sees it."""
        found = self.request("POST", "/v1/search", {"query": title, "filter": {"property": "object", "value": "page"}})
        ids = [p["id"] for p in found["results"] if _page_title(p) == title]
        lines: list[str] = []
        self._block_text(_one(ids, f"page titled {title!r}"), lines)
        return "\n".join(lines)

    def _block_text(self, block_id: str, lines: list[str]) -> None:
        cursor = None
        while True:
            path = f"/v1/blocks/{block_id}/children?page_size=100" + (f"&start_cursor={cursor}" if cursor else "")
            page = self.request("GET", path)
            for block in page["results"]:
                lines.append(_text(block.get(block["type"], {}).get("rich_text", [])))
                if block.get("has_children"):
                    self._block_text(block["id"], lines)
            if not page.get("has_more"):
                return
            cursor = page["next_cursor"]

    # -- schema-aware rows: what a reference solution says in domain terms ------------------------
    def schema(self, title: str) -> dict[str, str]:
        """Property name -> type (``title``, ``rich_text``, ``select``, ``number``...) of a database."""
        db = self.request("GET", f"/v1/databases/{self.database_id(title)}")
        return {name: prop["type"] for name, prop in db["properties"].items()}

    def properties(self, title: str, values: Mapping[str, Any]) -> dict[str, Any]:
        """Plain values (text, a select's name, a number, ``True``, an ISO date, a list of names
        for multi-select) as the property JSON of database ``title`` (its schema says how)."""
        schema = self.schema(title)
        out: dict[str, Any] = {}
        for name, value in values.items():
            kind = schema.get(name)
            if kind is None:
                raise AgentPlaneError(f"{title!r} has no property {name!r} (it has {', '.join(schema)})")
            out[name] = {kind: _property_value(kind, value)}
        return out

    def plain_rows(self, title: str) -> dict[str, dict[str, Any]]:
        """Rows keyed by their title, each as ``{property: plain value}`` plus ``"id"``."""
        return {
            key: {"id": row["id"], **{k: self.plain(v) for k, v in row["properties"].items()}}
            for key, row in self.rows(title).items()
        }

    def set_row(self, title: str, key: str, values: Mapping[str, Any]) -> dict[str, Any]:
        """Change some plain ``values`` of the row of ``title`` whose title is ``key``."""
        rows = self.rows(title)
        if key not in rows:
            raise AgentPlaneError(f"no row titled {key!r} in {title!r}")
        return self.update_page(rows[key]["id"], self.properties(title, values))

    def add_row(self, title: str, values: Mapping[str, Any]) -> dict[str, Any]:
        """A new row of ``title`` with plain ``values``."""
        return self.create_row(title, self.properties(title, values))

    @staticmethod
    def plain(prop: Mapping[str, Any]) -> Any:
        """A property value as plain Python (text, select name, number, date start, ...)."""
        t = prop["type"]
        v = prop.get(t)
        if t in ("title", "rich_text"):
            return _text(v or [])
        if t in ("select", "status"):
            return v["name"] if v else None
        if t == "multi_select":
            return [o["name"] for o in v or []]
        if t == "date":
            return v["start"] if v else None
        if t == "people":
            return [p.get("name") or p.get("id") for p in v or []]
        return v


def _property_value(kind: str, value: Any) -> Any:
    if kind in ("title", "rich_text"):
        return text_value(str(value))
    if kind in ("select", "status"):
        return {"name": str(value)} if value not in (None, "") else None
    if kind == "multi_select":
        return [{"name": str(v)} for v in value]
    if kind == "date":
        return {"start": str(value)} if value not in (None, "") else None
    return value  # number, checkbox, email, url, phone_number: the value itself


def column_letter(index: int) -> str:
    """The A1 letters of a 0-based column index: 0 -> A, 25 -> Z, 26 -> AA, 701 -> ZZ."""
    if index < 0:
        raise ValueError(f"a column index is 0 or more, got {index}")
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _text(rich: Sequence[Mapping[str, Any]]) -> str:
    return "".join(t.get("plain_text", "") for t in rich)


def text_value(content: str) -> list[dict[str, Any]]:
    """A rich-text value for ``title`` / ``rich_text`` properties."""
    return [{"type": "text", "text": {"content": content}}]


class Sheets:
    """The Sheets v4 and Drive v3 REST APIs with the agent's token; spreadsheets by exact title."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.http = httpx.Client(
            base_url=env["CLAWMARK_SHEETS_URL"],
            headers={"Authorization": f"Bearer {env['CLAWMARK_SHEETS_TOKEN']}"},
            transport=RetryingTransport(),
        )

    def _json(self, r: httpx.Response) -> Any:
        r.raise_for_status()
        return r.json()

    def spreadsheet_id(self, title: str) -> str:
        escaped = title.replace("\\", "\\\\").replace("'", "\\'")
        files = self._json(self.http.get("/drive/v3/files", params={"q": f"name = '{escaped}' and trashed = false"}))[
            "files"
        ]
        return _one([f["id"] for f in files if f["name"] == title], f"spreadsheet titled {title!r}")

    def values(self, title: str, range: str, render: str = "FORMATTED_VALUE") -> list[list[Any]]:
        sid = self.spreadsheet_id(title)
        return self._json(
            self.http.get(
                f"/v4/spreadsheets/{sid}/values/{quote(range, safe='')}", params={"valueRenderOption": render}
            )
        ).get("values", [])

    def update(self, title: str, range: str, rows: Sequence[Sequence[Any]], input: str = "USER_ENTERED") -> None:
        sid = self.spreadsheet_id(title)
        self._json(
            self.http.put(
                f"/v4/spreadsheets/{sid}/values/{quote(range, safe='')}",
                params={"valueInputOption": input},
                json={"values": [list(r) for r in rows]},
            )
        )

    def batch_update(
        self, title: str, data: Mapping[str, Sequence[Sequence[Any]]], input: str = "USER_ENTERED"
    ) -> None:
        sid = self.spreadsheet_id(title)
        body = {
            "valueInputOption": input,
            "data": [{"range": rng, "values": [list(r) for r in rows]} for rng, rows in data.items()],
        }
        self._json(self.http.post(f"/v4/spreadsheets/{sid}/values:batchUpdate", json=body))

    def append(self, title: str, range: str, rows: Sequence[Sequence[Any]], input: str = "USER_ENTERED") -> None:
        sid = self.spreadsheet_id(title)
        self._json(
            self.http.post(
                f"/v4/spreadsheets/{sid}/values/{quote(range, safe='')}:append",
                params={"valueInputOption": input},
                json={"values": [list(r) for r in rows]},
            )
        )

    def upsert(
        self, title: str, sheet: str, match: Mapping[str, Any], values: Mapping[str, Any], input: str = "USER_ENTERED"
    ) -> int:
        """Update the row of ``sheet`` whose columns ``match`` (by header name, compared as the
        cells read) with ``values`` — only those cells — or append one (``match`` and ``values``
        in header order, other cells empty). Returns the row's 1-based number (0 when appended)."""
        rows = self.values(title, sheet)
        if not rows:
            raise AgentPlaneError(f"{sheet!r} of {title!r} has no header row")
        header = [str(h) for h in rows[0]]
        unknown = [h for h in (*match, *values) if h not in header]
        if unknown:
            raise AgentPlaneError(f"{sheet!r} of {title!r} has no column(s) {unknown} (header: {header})")
        want = {header.index(h): str(v) for h, v in match.items()}
        at = next(
            (n for n, r in enumerate(rows[1:], start=2) if all(i < len(r) and str(r[i]) == v for i, v in want.items())),
            None,
        )
        if at is None:
            merged = {**match, **values}
            self.append(title, f"{_quoted(sheet)}!A1", [[merged.get(h, "") for h in header]], input)
            return 0
        self.batch_update(
            title, {f"{_quoted(sheet)}!{column_letter(header.index(h))}{at}": [[v]] for h, v in values.items()}, input
        )
        return at

    def records(self, title: str, sheet: str) -> list[dict[str, Any]]:
        """Rows of ``sheet`` as dicts keyed by its header row."""
        rows = self.values(title, sheet)
        if not rows:
            return []
        header = rows[0]
        return [{h: (r[i] if i < len(r) else "") for i, h in enumerate(header)} for r in rows[1:]]


def _quoted(sheet: str) -> str:
    """A sheet name as an A1 range prefix (quoted when it is not a plain word)."""
    return sheet if re.fullmatch(r"[A-Za-z0-9_]+", sheet) else "'" + sheet.replace("'", "''") + "'"


class Calendar:
    """CalDAV as the user: book and list events in the default calendar (times stored in UTC)."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = env
        self._calendar_url: str | None = None

    def _calendar(self, client: Any) -> Any:
        """The default calendar: discovered (principal, then its calendars) on this client's
        first call only; later calls address its URL directly (one request, not three)."""
        if self._calendar_url is None:
            found = client.principal().calendars()[0]
            self._calendar_url = str(found.url)
            return found
        return client.calendar(url=self._calendar_url)

    def dav(self) -> Any:
        """A caldav ``DAVClient`` as the user, careful like the rest of this module (it waits and
        asks again on 429/503 as ``Retry-After`` says): for what :meth:`book`, :meth:`delete` and
        :meth:`events` do not cover (``with view.calendar.dav() as client: ...``)."""
        return self._client()

    def _client(self) -> Any:
        import caldav

        # caldav's own rate-limit handling: on 429/503 it sleeps as Retry-After says and asks again
        return caldav.DAVClient(
            url=self.env["CLAWMARK_CALDAV_URL"],
            username=self.env["CLAWMARK_CALDAV_USER"],
            password=self.env["CLAWMARK_CALDAV_PASSWORD"],
            rate_limit_handle=retrying.ATTEMPTS > 1,
            rate_limit_default_sleep=1,
            rate_limit_max_sleep=30,
        )

    def book(
        self,
        uid: str,
        summary: str,
        start: datetime,
        end: datetime,
        *,
        attendees: Iterable[str] = (),
        location: str = "",
        description: str = "",
        stamp: datetime | None = None,
    ) -> None:
        from icalendar import Calendar as ICalendar
        from icalendar import Event, vCalAddress

        ev = Event()
        ev.add("uid", uid)
        ev.add("summary", summary)
        ev.add("dtstart", start.astimezone(timezone.utc))
        ev.add("dtend", end.astimezone(timezone.utc))
        ev.add("dtstamp", (stamp or start).astimezone(timezone.utc))
        if location:
            ev.add("location", location)
        if description:
            ev.add("description", description)
        for who in attendees:
            ev.add("attendee", vCalAddress(f"mailto:{who}"))
        cal = ICalendar()
        cal.add("prodid", "-//pytest-clawmark agent plane//EN")
        cal.add("version", "2.0")
        cal.add_component(ev)
        with self._client() as client:
            self._calendar(client).save_event(cal.to_ical().decode())

    def delete(self, uid: str) -> None:
        """Remove the event with this UID from the default calendar (a CalDAV ``DELETE``)."""
        with self._client() as client:
            self._calendar(client).event_by_uid(uid).delete()

    def events(self, start: datetime, end: datetime) -> list[Any]:
        """The VEVENT components overlapping [start, end), sorted by start then UID."""
        with self._client() as client:
            found = self._calendar(client).search(start=start, end=end, event=True)
            comps = [e.icalendar_component for e in found]
        return sorted(
            comps,
            key=lambda c: (
                c["DTSTART"].dt.astimezone(timezone.utc)
                if isinstance(c["DTSTART"].dt, datetime)
                else datetime.combine(c["DTSTART"].dt, datetime.min.time(), timezone.utc),
                str(c["UID"]),
            ),
        )


@dataclass
class AgentView:
    """What a reference solution can reach: exactly the agent plane (workspace + endpoints)."""

    workspace: Path
    env: Mapping[str, str]
    user: Person
    clock: datetime
    day: int
    message: str

    def path(self, rel: str) -> Path:
        return self.workspace / rel

    # the agent-plane clients of this module, built on first use from ``env``
    @cached_property
    def mail(self) -> Mail:
        return Mail(self.env)

    @cached_property
    def kb(self) -> Notion:
        return Notion(self.env)

    @cached_property
    def sheets(self) -> Sheets:
        return Sheets(self.env)

    @cached_property
    def calendar(self) -> Calendar:
        return Calendar(self.env)

    def read_text(self, rel: str) -> str:
        return self.path(rel).read_text(encoding="utf-8")

    def write_text(self, rel: str, text: str) -> None:
        p = self.path(rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
