"""The ``sheets`` service: a Google-Sheets-compatible server and the harness's admin client.

The agent reaches the server through real clients (gspread, google-api-python-client, curl) at
``$CLAWMARK_SHEETS_URL`` with ``$CLAWMARK_SHEETS_TOKEN``. Turn setup and checkers use this
class, which speaks the server's ``/_admin`` plane over HTTP — the same way for the embedded
server and for a containerised one — with one persistent ``httpx.Client``.

Lookups are exact and deterministic: spreadsheets by exact title, rows by exact key in a named
header column, in sheet order. What a *checker* fails to find is the agent's failure, so reads
raise :class:`SheetsAssertionError` subclasses (``AssertionError``); what *setup* fails to find
is an authoring error, so mutations raise :class:`SheetsLookupError`.

Callers that hold a spreadsheet *id* rather than a title (an id the agent reported, a loader for
task formats that address spreadsheets by id) use :meth:`SheetsService.by_id`: the same admin
plane, the same error rules, addressed by id.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote

from ..servers.asgi import AsgiServer, start_asgi, stop_asgi
from ..servers.faulting import FaultyAsgi, google_fault
from .service import Service

Render = Literal["FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"]
Input = Literal["RAW", "USER_ENTERED"]
Insert = Literal["INSERT_ROWS", "OVERWRITE"]

ADMIN_TIMEOUT_S = 120.0
"""How long an admin call may wait: a transport guard, not a measurement. An admin call waits at
most for one agent request still being computed (its recalculation has a 30 s backstop) and then
for its own work, which is bounded by the world's storage quota (docs/world.md, sheets limits)."""


class SheetsAdminError(RuntimeError):
    """The admin plane refused a call: a harness fault or a task-authoring error."""

    def __init__(self, message: str, code: int = 0, status: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.status = status


class SheetsLookupError(SheetsAdminError, LookupError):
    """Setup named a spreadsheet, sheet, column or row that is absent or ambiguous."""


class SheetsAssertionError(AssertionError):
    """A checker's read found nothing (or too much): the agent's failure, not the harness's."""


class SpreadsheetMissing(SheetsAssertionError):
    """No spreadsheet has exactly the title asked for."""


class RowMissing(SheetsAssertionError):
    """No row (or no sheet/column) matches the key asked for."""


class AmbiguousMatch(SheetsAssertionError):
    """More than one spreadsheet, row or header column matches where exactly one must."""


@dataclass(frozen=True)
class SpreadsheetInfo:
    """A spreadsheet as the admin plane lists it."""

    id: str
    title: str
    sheets: tuple[str, ...]
    trashed: bool = False


class SheetsService(Service):
    name = "sheets"

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        from ..servers.sheets import Owner, SheetsConfig, create_app
        from ..servers.sheets.errors import google_error_body

        creds = self.ctx.credentials
        config = SheetsConfig(
            agent_token=creds.agent_token,
            admin_token=creds.admin_token,
            audit=self._record,
            clock=self.ctx.clock,
            owner=Owner(self.ctx.user.name, self.ctx.user.email),
        )
        self.server = create_app(config)
        app: Any = self.server.app
        gate = self.ctx.fault_gate("sheets")
        if gate is not None:
            app = FaultyAsgi(app, gate, google_fault, admin_token=creds.admin_token)
        self.handle: AsgiServer | None = start_asgi(self.ctx.loop, app, error_body=google_error_body)
        self._http: Any = None

    def _record(self, **entry: str) -> None:
        self.ctx.audit.record(self.name, **entry)

    def stop(self) -> None:
        http, self._http = getattr(self, "_http", None), None
        if http is not None:
            http.close()
        handle, self.handle = getattr(self, "handle", None), None
        stop_asgi(self.ctx.loop, handle)
        server = getattr(self, "server", None)
        if server is not None:
            server.close()

    @property
    def url(self) -> str:
        """The base URL serving ``/v4/spreadsheets...`` and ``/drive/v3/files...``."""
        if self.handle is None:
            raise RuntimeError("the sheets service is not running")
        return self.handle.url

    @property
    def http(self) -> Any:
        """One persistent admin client (made on first use: creating it costs ~15 ms once)."""
        if self._http is None:
            import httpx

            self._http = httpx.Client(
                base_url=self.url,
                verify=False,
                trust_env=False,
                timeout=ADMIN_TIMEOUT_S,
                headers={"Authorization": f"Bearer {self.ctx.credentials.admin_token}"},
                transport=self.admin_transport(),
            )
        return self._http

    # -- agent plane -------------------------------------------------------------------------
    def agent_env(self) -> dict[str, str]:
        return {"CLAWMARK_SHEETS_URL": self.url, "CLAWMARK_SHEETS_TOKEN": self.ctx.credentials.agent_token}

    def tools_markdown(self) -> str:
        url, token = self.url, self.ctx.credentials.agent_token
        return f"""## Spreadsheets (Google Sheets API v4 + Drive v3 files)
Base URL `{url}` (`$CLAWMARK_SHEETS_URL`), token `{token}` (`$CLAWMARK_SHEETS_TOKEN`), sent as
`Authorization: Bearer <token>`. It speaks the Google Sheets API v4 (`/v4/spreadsheets/...`)
and the Drive v3 files endpoints (`/drive/v3/files`: list with `q`, create, get, rename/trash,
copy, delete, CSV export). Spreadsheets are found by name through Drive. Formatting requests are
accepted but not stored; values and formulas are.

```sh
curl -s -H "Authorization: Bearer $CLAWMARK_SHEETS_TOKEN" \\
  "$CLAWMARK_SHEETS_URL/drive/v3/files?q=mimeType%3D'application/vnd.google-apps.spreadsheet'"
curl -s -H "Authorization: Bearer $CLAWMARK_SHEETS_TOKEN" \\
  "$CLAWMARK_SHEETS_URL/v4/spreadsheets/<spreadsheetId>/values/Sheet1!A1:D20"
```

gspread (send Google's hosts to this server through the session gspread accepts):
```python
import os, gspread
from google.oauth2.credentials import Credentials
from google.auth.transport.requests import AuthorizedSession
URL, TOKEN = os.environ["CLAWMARK_SHEETS_URL"], os.environ["CLAWMARK_SHEETS_TOKEN"]
class Local(AuthorizedSession):
    def request(self, method, url, *a, **kw):
        for host in ("https://sheets.googleapis.com", "https://www.googleapis.com"):
            url = url.replace(host, URL, 1) if url.startswith(host) else url
        return super().request(method, url, *a, **kw)
creds = Credentials(token=TOKEN)
gc = gspread.Client(auth=creds, session=Local(creds))
print([sh.title for sh in gc.openall()])  # the spreadsheets you can open
# ws = gc.open("<title>").worksheet("<tab>"); ws.get_all_records()
# ws.append_row([...], value_input_option="USER_ENTERED")  # USER_ENTERED: typed like a person
```
(or `from pytest_clawmark.servers.sheets.clients import gspread_client; gc = gspread_client(URL, TOKEN)`)

google-api-python-client (the endpoint includes each API's service path):
```python
from googleapiclient.discovery import build
sheets = build("sheets", "v4", credentials=creds, static_discovery=True,
               client_options={{"api_endpoint": URL + "/"}})
drive = build("drive", "v3", credentials=creds, static_discovery=True,
              client_options={{"api_endpoint": URL + "/drive/v3/"}})
```
"""

    def ping(self) -> None:
        self._call("GET", "/_admin/ping")

    # -- transport ---------------------------------------------------------------------------
    def _call(self, method: str, path: str, *, json: Any = None, params: Mapping[str, Any] | None = None) -> Any:
        response = self.http.request(method, path, json=json, params=params)
        try:
            data = response.json() if response.content else {}
        except ValueError:
            data = {}
        if response.status_code >= 400:
            error = data.get("error", {}) if isinstance(data, dict) else {}
            message = error.get("message") or response.text[:300]
            raise SheetsAdminError(message, response.status_code, error.get("status", ""))
        return data

    def _id(self, title: str, *, reading: bool) -> str:
        """The id of the spreadsheet titled ``title``: a missing one is the agent's failure when
        a checker reads, and an authoring error when setup writes."""
        try:
            return self.spreadsheet(title).id
        except SheetsAssertionError as exc:
            if reading:
                raise
            raise SheetsLookupError(str(exc)) from None

    def _mutate(self, path: str, body: dict[str, Any]) -> Any:
        try:
            return self._call("POST", path, json=body)
        except SheetsAdminError as exc:
            if exc.code in (404, 409):
                raise SheetsLookupError(str(exc), exc.code, exc.status) from None
            raise

    def _read(self, method: str, path: str, **kw: Any) -> Any:
        try:
            return self._call(method, path, **kw)
        except SheetsAdminError as exc:
            if exc.code == 404:
                raise RowMissing(str(exc)) from None
            if exc.code == 409:
                raise AmbiguousMatch(str(exc)) from None
            raise

    @staticmethod
    def _path(spreadsheet_id: str, tail: str = "") -> str:
        return f"/_admin/spreadsheets/{quote(spreadsheet_id, safe='')}{tail}"

    # -- admin plane: setup ------------------------------------------------------------------
    def create_spreadsheet(
        self,
        title: str,
        sheets: Mapping[str, Sequence[Sequence[Any]]] | None = None,
        *,
        input: Input = "USER_ENTERED",
        silent: str | None = None,
    ) -> str:
        """Create a spreadsheet whose sheets (in the given order) hold the given rows; returns its id.

        Values are typed in as a person would (``input="USER_ENTERED"``: numbers, dates, ``=``
        formulas); each sheet's grid is at least 1000×26, like a new Google sheet.
        """
        body = {
            "title": title,
            "sheets": {k: [list(r) for r in v] for k, v in (sheets or {}).items()},
            "valueInputOption": input,
        }
        sid = self._call("POST", "/_admin/spreadsheets", json=body)["spreadsheetId"]
        self.ctx.mutations.note(silent, self.name, f"created spreadsheet {title!r}")
        return sid

    def spreadsheet_from_csv(
        self,
        title: str,
        sheets: Mapping[str, str],
        *,
        input: Input = "USER_ENTERED",
        silent: str | None = None,
        **values: Any,
    ) -> str:
        """:meth:`create_spreadsheet` whose sheets (name -> a CSV file of the task's folder, in
        order) hold the files' rows, header included, typed in as a person would (``input``);
        ``{{ facts }}`` are filled in from the folder's ``facts.toml`` and ``values``."""
        from ..taskfiles import TaskFolder, read_table

        folder = TaskFolder.at(self.ctx.task_dir)
        grids: dict[str, list[list[Any]]] = {}
        for name, path in sheets.items():
            header, rows = read_table(folder.path(path), folder._values(values))
            grids[name] = [header, *rows]
        return self.create_spreadsheet(title, grids, input=input, silent=silent)

    def set_values(
        self,
        spreadsheet: str,
        range: str,
        values: Sequence[Sequence[Any]],
        *,
        input: Input = "USER_ENTERED",
        silent: str | None = None,
    ) -> str:
        """Write ``values`` at an A1 ``range`` (a cell is an anchor); the grid grows as needed.

        ``None`` leaves a cell as it is; ``""`` clears it. Returns the updated range.
        """
        sid = self._id(spreadsheet, reading=False)
        body = {"range": range, "values": [list(r) for r in values], "valueInputOption": input}
        result = self._mutate(self._path(sid, "/values:update"), body)
        self.ctx.mutations.note(silent, self.name, f"set {spreadsheet!r} {range}")
        return str(result.get("updatedRange", range))

    def append_rows(
        self,
        spreadsheet: str,
        sheet: str,
        rows: Sequence[Sequence[Any]],
        *,
        input: Input = "USER_ENTERED",
        silent: str | None = None,
    ) -> str:
        """Insert ``rows`` right after the sheet's table (rows below move down); returns the range written."""
        sid = self._id(spreadsheet, reading=False)
        body = {"range": _quote_sheet(sheet), "values": [list(r) for r in rows], "valueInputOption": input}
        result = self._mutate(self._path(sid, "/values:append"), body)
        self.ctx.mutations.note(silent, self.name, f"appended {len(rows)} row(s) to {spreadsheet!r}/{sheet}")
        return str(result["updates"].get("updatedRange", ""))

    def update_row(
        self,
        spreadsheet: str,
        sheet: str,
        key_column: str,
        key: Any,
        changes: Mapping[str, Any],
        *,
        input: Input = "USER_ENTERED",
        silent: str | None = None,
    ) -> int:
        """Change cells of the one row whose ``key_column`` equals ``key`` exactly.

        ``changes`` maps header names to new values (``None`` clears the cell). Raises
        :class:`SheetsLookupError` when no row or several rows match. Returns the 1-based row.
        """
        sid = self._id(spreadsheet, reading=False)
        body = {"sheet": sheet, "keyColumn": key_column, "key": key, "values": dict(changes), "valueInputOption": input}
        row = int(self._mutate(self._path(sid, "/rows:update"), body)["row"])
        self.ctx.mutations.note(
            silent, self.name, f"updated {spreadsheet!r}/{sheet} row {key_column}={key!r}: {sorted(changes)}"
        )
        return row

    def delete_row(self, spreadsheet: str, sheet: str, key_column: str, key: Any, *, silent: str | None = None) -> int:
        """Delete the one row whose ``key_column`` equals ``key`` (rows below move up)."""
        sid = self._id(spreadsheet, reading=False)
        row = int(
            self._mutate(self._path(sid, "/rows:delete"), {"sheet": sheet, "keyColumn": key_column, "key": key})["row"]
        )
        self.ctx.mutations.note(silent, self.name, f"deleted {spreadsheet!r}/{sheet} row {key_column}={key!r}")
        return row

    def batch_update(
        self, spreadsheet: str, requests: Sequence[Mapping[str, Any]], *, silent: str | None = None
    ) -> list[dict[str, Any]]:
        """Apply Sheets ``batchUpdate`` requests (add a sheet, insert rows...) without auditing them."""
        sid = self._id(spreadsheet, reading=False)
        replies = self._mutate(self._path(sid, ":batchUpdate"), {"requests": [dict(r) for r in requests]})["replies"]
        self.ctx.mutations.note(
            silent, self.name, f"batchUpdate on {spreadsheet!r}: {[next(iter(r)) for r in requests]}"
        )
        return replies

    def delete_spreadsheet(self, spreadsheet: str, *, silent: str | None = None) -> None:
        """Delete a spreadsheet (title or id) outright, as Drive's ``files.delete`` does: not to the trash."""
        sid = self._id(spreadsheet, reading=False)
        self._call("DELETE", self._path(sid))
        self.ctx.mutations.note(silent, self.name, f"deleted spreadsheet {spreadsheet!r}")

    # -- admin plane: by id ------------------------------------------------------------------
    def by_id(self, spreadsheet_id: str) -> SpreadsheetHandle:
        """The spreadsheet with this id, for callers that hold ids rather than titles.

        Nothing is looked up until a method of the handle is called (the agent may delete the
        spreadsheet in between); an id that names no spreadsheet is reported then.
        """
        if not isinstance(spreadsheet_id, str) or not spreadsheet_id.strip():
            raise SheetsLookupError(f"a spreadsheet id must be a non-empty string, not {spreadsheet_id!r}")
        return SpreadsheetHandle(self, spreadsheet_id)

    # -- admin plane: deterministic reads ----------------------------------------------------
    def spreadsheets(self, title: str | None = None) -> list[SpreadsheetInfo]:
        """Every spreadsheet (or every one titled exactly ``title``), in creation order, trashed
        ones included and flagged."""
        params = None if title is None else {"title": title}
        found = self._call("GET", "/_admin/spreadsheets", params=params)["spreadsheets"]
        return [SpreadsheetInfo(s["spreadsheetId"], s["title"], tuple(s["sheets"]), s["trashed"]) for s in found]

    def spreadsheet(self, title: str) -> SpreadsheetInfo:
        """The spreadsheet titled exactly ``title``; raises when there is none or more than one."""
        found = self._call("GET", "/_admin/spreadsheets", params={"title": title})["spreadsheets"]
        if not found:
            titles = [s.title for s in self.spreadsheets()]
            raise SpreadsheetMissing(f"no spreadsheet titled exactly {title!r} (titles: {titles})")
        if len(found) > 1:
            raise AmbiguousMatch(f"{len(found)} spreadsheets are titled {title!r}")
        s = found[0]
        return SpreadsheetInfo(s["spreadsheetId"], s["title"], tuple(s["sheets"]), s["trashed"])

    def values(self, spreadsheet: str, range: str, render: Render = "UNFORMATTED_VALUE") -> list[list[Any]]:
        """The values of an A1 range, trimmed as the Sheets API trims them (empty cells: ``""``)."""
        sid = self._id(spreadsheet, reading=True)
        data = self._read("GET", self._path(sid, "/values"), params={"range": range, "valueRenderOption": render})
        return data.get("values", [])

    def value(self, spreadsheet: str, cell: str, render: Render = "UNFORMATTED_VALUE") -> Any:
        """One cell's value (``""`` when empty), e.g. ``value("Budget", "Summary!B3")``."""
        found = self.values(spreadsheet, cell, render)
        return found[0][0] if found and found[0] else ""

    def rows(self, spreadsheet: str, sheet: str, render: Render = "UNFORMATTED_VALUE") -> list[dict[str, Any]]:
        """Every non-empty row below the header, as ``{header: value}`` in sheet order.

        Columns with an empty header are left out; empty cells are ``""``; a duplicated header
        name raises :class:`AmbiguousMatch`.
        """
        sid = self._id(spreadsheet, reading=True)
        data = self._read("GET", self._path(sid, "/rows"), params={"sheet": sheet, "valueRenderOption": render})
        header = _checked_header(data["header"], sheet)
        return [{h: r["values"][i] for i, h in enumerate(header) if h} for r in data["rows"]]

    def row(
        self, spreadsheet: str, sheet: str, key_column: str, key: Any, render: Render = "UNFORMATTED_VALUE"
    ) -> dict[str, Any]:
        """The one row whose ``key_column`` equals ``key`` exactly; raises :class:`RowMissing` if none."""
        sid = self._id(spreadsheet, reading=True)
        body = {"sheet": sheet, "keyColumn": key_column, "key": key, "valueRenderOption": render}
        data = self._read("POST", self._path(sid, "/rows:find"), json=body)
        header = _checked_header(data["header"], sheet)
        return {h: data["values"][i] for i, h in enumerate(header) if h}

    # -- evidence ----------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return self._call("GET", "/_admin/snapshot")

    def restore(self, data: dict[str, Any]) -> None:
        self._call("PUT", "/_admin/snapshot", json=data)


class SpreadsheetHandle:
    """One spreadsheet addressed by id, on the admin plane (:meth:`SheetsService.by_id`).

    The rules are the title-keyed methods': nothing here is audited as an agent action; reads
    that find nothing raise :class:`SheetsAssertionError` subclasses (the agent's failure: a
    checker looked for what the agent should have left), writes that find nothing raise
    :class:`SheetsLookupError` (an authoring error); a malformed range or values array is a
    :class:`SheetsAdminError` carrying the server's message (code 400).
    """

    def __init__(self, service: SheetsService, spreadsheet_id: str) -> None:
        self._service = service
        self.id = spreadsheet_id

    def __repr__(self) -> str:
        return f"SpreadsheetHandle({self.id!r})"

    def exists(self) -> bool:
        """Whether a spreadsheet has this id (a trashed one still does)."""
        return any(s.id == self.id for s in self._service.spreadsheets())

    def info(self) -> SpreadsheetInfo:
        """Title, sheet names (in order) and trashed flag; :class:`SpreadsheetMissing` if absent."""
        for found in self._service.spreadsheets():
            if found.id == self.id:
                return found
        raise SpreadsheetMissing(self._no_such())

    def values(self, range: str, render: Render = "UNFORMATTED_VALUE") -> list[list[Any]]:
        """The values of an A1 range (``"Sheet1!A1:C9"``, ``"Sheet1"``, ``"A1"``, ``"'My Tab'!A:C"``;
        no sheet named means the first), trimmed as the Sheets API trims them: trailing empty
        cells and rows dropped, empty cells inside ``""``, empty rows inside ``[]``."""
        try:
            data = self._service._call(
                "GET", self._path("/values"), params={"range": range, "valueRenderOption": render}
            )
        except SheetsAdminError as exc:
            raise self._failed(exc, reading=True) from None
        return data.get("values", [])

    def set_values(
        self, range: str, values: Sequence[Sequence[Any]], *, input: Input = "USER_ENTERED", silent: str | None = None
    ) -> str:
        """``values.update`` at an A1 ``range`` (a cell or a sheet is an anchor; a bounded range
        must hold the values); the grid grows as needed. ``None`` leaves a cell as it is, ``""``
        clears it; ``input="RAW"`` stores strings as strings (``"=1+1"``, ``"0012"``). Returns
        the updated range."""
        body = {"range": range, "values": _rows(values), "valueInputOption": input}
        result = self._write("/values:update", body)
        self._service.ctx.mutations.note(silent, self._service.name, f"set spreadsheet {self.id} {range}")
        return str(result.get("updatedRange", range))

    def append(
        self,
        range: str,
        values: Sequence[Sequence[Any]],
        *,
        input: Input = "USER_ENTERED",
        insert: Insert = "INSERT_ROWS",
        silent: str | None = None,
    ) -> str:
        """``values.append``: write ``values`` right after the table found in ``range``;
        ``INSERT_ROWS`` moves what lies below down, ``OVERWRITE`` writes over it. Returns the
        range written (``""`` when ``values`` is empty)."""
        body = {"range": range, "values": _rows(values), "valueInputOption": input, "insertDataOption": insert}
        result = self._write("/values:append", body)
        self._service.ctx.mutations.note(
            silent, self._service.name, f"appended {len(body['values'])} row(s) to spreadsheet {self.id} {range}"
        )
        return str(result["updates"].get("updatedRange", ""))

    # -- private -----------------------------------------------------------------------------
    def _path(self, tail: str) -> str:
        return SheetsService._path(self.id, tail)

    def _no_such(self) -> str:
        return f"no spreadsheet has id {self.id!r}"

    def _write(self, tail: str, body: dict[str, Any]) -> Any:
        try:
            return self._service._call("POST", self._path(tail), json=body)
        except SheetsAdminError as exc:
            raise self._failed(exc, reading=False) from None

    def _failed(self, exc: SheetsAdminError, *, reading: bool) -> Exception:
        """The error to raise for a refused call: a 404 is a missing spreadsheet or sheet."""
        if exc.code != 404:
            return exc
        there = self.exists()  # else the range named a sheet the spreadsheet lacks
        message = str(exc) if there else self._no_such()
        if reading:
            return RowMissing(message) if there else SpreadsheetMissing(message)
        return SheetsLookupError(message, exc.code, exc.status)


def _rows(values: Any) -> list[list[Any]]:
    """``values`` as a JSON list of rows: a clear :class:`TypeError` for anything that is not a
    sequence of sequences of strings, numbers, booleans or ``None`` (JSON would refuse it less
    clearly, or — for a string row — spell it out one character per cell), a :class:`ValueError`
    for a NaN or infinity (which JSON cannot carry)."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Sequence):
        raise TypeError(f"values must be a list of rows (lists of cell values), not {type(values).__name__}")
    out: list[list[Any]] = []
    for i, row in enumerate(values):
        if isinstance(row, (str, bytes, Mapping)) or not isinstance(row, Sequence):
            raise TypeError(f"values[{i}] must be a list of cell values, not {type(row).__name__} {row!r:.60}")
        for j, cell in enumerate(row):
            if cell is not None and not isinstance(cell, (str, int, float, bool)):
                raise TypeError(
                    f"values[{i}][{j}] = {cell!r:.60} is a {type(cell).__name__}: use a string, number, boolean or None"
                )
            if isinstance(cell, float) and not math.isfinite(cell):
                raise ValueError(f"values[{i}][{j}] = {cell!r}: numbers must be finite")
        out.append(list(row))
    return out


def _quote_sheet(title: str) -> str:
    return "'" + title.replace("'", "''") + "'"


def _checked_header(header: list[str], sheet: str) -> list[str]:
    named = [h for h in header if h]
    if len(set(named)) != len(named):
        dupes = sorted({h for h in named if named.count(h) > 1})
        raise AmbiguousMatch(f"sheet {sheet!r} has duplicated header name(s) {dupes}")
    return header
