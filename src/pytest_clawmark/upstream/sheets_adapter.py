"""``ctx.google_sheets`` of upstream tasks, over our Sheets service's admin plane (``world.sheets``).

Upstream's manager drives the real Google Sheets and Drive APIs with the task's own account and
keeps each run's spreadsheets in a fresh Drive folder; tasks hold spreadsheet *ids*. Ours is the
world's Sheets-v4-compatible server, reached by id through :meth:`SheetsService.by_id
<pytest_clawmark.world.sheets.SheetsService.by_id>`. Nothing a stage or checker does here is
audited as an agent action. Method by method:

* ``create_spreadsheet(title)`` — a blank spreadsheet with one 1000×26 tab ``Sheet1`` (what Google
  makes); returns ``{"sheet_id", "sheet_url"}``, the URL in Google's
  ``https://docs.google.com/spreadsheets/d/<id>`` shape (gspread's ``open_by_url`` reads the id
  from it; our clients send that host to the world's server too).
* ``update_values(sheet_id, range_, values)`` — ``values.update`` with ``valueInputOption=RAW``:
  strings stay strings (``"=1+1"`` is text, ``"0012"`` keeps its zeros), numbers and booleans stay
  typed, ``None`` leaves a cell as it is. A bounded range must hold the values, as Google's does.
* ``append_rows(sheet_id, range_, rows)`` — ``values.append`` with ``RAW`` and ``INSERT_ROWS``:
  after the table found in the range, moving what lies below down.
* ``read_values(sheet_id, range_)`` — ``values.get`` with Google's defaults: ``FORMATTED_VALUE``
  strings (``4210.0`` reads ``"4210"``, ``True`` reads ``"TRUE"``), trailing empty cells of a row
  and trailing empty rows dropped, empty rows inside the range ``[]``; ``[]`` for an empty range.
* ``find_row(sheet_id, sheet_name, col_index, value)`` — reads the whole tab (``sheet_name`` is
  sent as the range, unquoted, as upstream sends it), takes its first row as the header and
  returns the first later row whose ``col_index``-th *formatted* cell equals ``value`` as
  ``{header: cell}`` (a short row pairs only its cells); ``None`` without a match or without at
  least two rows. A number ``value`` therefore never matches: cells are strings.
* ``get_spreadsheet_id(name)`` — the id of the spreadsheet named exactly ``name`` (case and
  spaces count), or ``None``. Upstream asks Drive for untrashed spreadsheets of that name *in its
  run folder* and takes the first Drive lists. Our world is itself the run's isolation, so the
  search covers every spreadsheet in it, including ones the agent made (upstream would only see
  those if the agent put them in the folder). Trashed spreadsheets are never found, as upstream.
  Several live spreadsheets of that name: the *earliest created* wins — Drive's order is
  unspecified, and creation order makes the task's own spreadsheet win over a same-named copy the
  agent makes later; it is also the order the agent's own Drive listing shows.
* ``copy_template(template_url)`` — copies a spreadsheet of upstream's Google account, which no
  offline world has: raises :class:`TemplatesUnavailable` (no published task calls it).

Errors: an unknown sheet id or a tab the spreadsheet lacks raises
:class:`~pytest_clawmark.world.sheets.SpreadsheetMissing` / ``RowMissing`` on reads (assertion
failures: the agent's state) and :class:`~pytest_clawmark.world.sheets.SheetsLookupError` on
writes; a malformed range or values that do not fit raise
:class:`~pytest_clawmark.world.sheets.SheetsAdminError` with the server's message; values that are
not rows of strings, numbers, booleans or ``None`` raise :class:`TypeError`. Upstream's own runner
scores a checker that raises as failed, so a checker sees the same outcome it would upstream.

The calls run in a worker thread (``asyncio.to_thread``, as upstream's manager runs its blocking
Google client), so a stage coroutine never blocks the loop it runs on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

SHEET_URL = "https://docs.google.com/spreadsheets/d/{}"
"""The ``sheet_url`` shape upstream returns (Google's editor URL of the spreadsheet)."""


class UpstreamSheetsError(RuntimeError):
    """A ``ctx.google_sheets`` call that cannot be carried out in an offline world."""


class TemplatesUnavailable(UpstreamSheetsError):
    """``copy_template``: the task needs a spreadsheet of upstream's own Google account."""


class UpstreamSheets:
    """The methods upstream's ``GoogleSheetsStateManager`` offers tasks, with its return shapes."""

    def __init__(self, world: Any) -> None:
        self._world = world

    def _sheet(self, sheet_id: str) -> Any:
        return self._world.sheets.by_id(sheet_id)

    # -- stage helpers -------------------------------------------------------------------------
    async def create_spreadsheet(self, title: str) -> dict[str, str]:
        """A blank spreadsheet (one tab, ``Sheet1``): ``{"sheet_id": id, "sheet_url": url}``."""
        if not isinstance(title, str):
            raise TypeError(f"create_spreadsheet: the title must be a string, not {title!r}")
        sheet_id = await asyncio.to_thread(self._world.sheets.create_spreadsheet, title)
        return {"sheet_id": sheet_id, "sheet_url": SHEET_URL.format(sheet_id)}

    async def copy_template(self, template_url: str) -> dict[str, str]:
        raise TemplatesUnavailable(
            f"copy_template({template_url!r}): the template is a spreadsheet in upstream's Google account, "
            "which an offline world cannot reach; seed the spreadsheet with create_spreadsheet + update_values instead"
        )

    async def update_values(self, sheet_id: str, range_: str, values: Sequence[Sequence[Any]]) -> None:
        """Write ``values`` at ``range_`` as typed (``RAW``)."""
        await asyncio.to_thread(self._sheet(sheet_id).set_values, range_, values, input="RAW")

    async def append_rows(self, sheet_id: str, range_: str, rows: Sequence[Sequence[Any]]) -> None:
        """Insert ``rows`` (``RAW``) right after the table found in ``range_``."""
        await asyncio.to_thread(self._sheet(sheet_id).append, range_, rows, input="RAW", insert="INSERT_ROWS")

    async def get_spreadsheet_id(self, name: str) -> str | None:
        """The earliest-created untrashed spreadsheet named exactly ``name``, else ``None``."""
        found = await asyncio.to_thread(self._world.sheets.spreadsheets, name)
        live = [s for s in found if not s.trashed and s.title == name]
        return live[0].id if live else None

    # -- checker helpers -----------------------------------------------------------------------
    async def read_values(self, sheet_id: str, range_: str) -> list[list[str]]:
        """The formatted strings of ``range_``, trimmed as the Sheets API trims them."""
        return await asyncio.to_thread(self._sheet(sheet_id).values, range_, "FORMATTED_VALUE")

    async def find_row(self, sheet_id: str, sheet_name: str, col_index: int, value: str) -> dict[str, str] | None:
        """The first row below the header whose ``col_index`` cell reads ``value``, as ``{header: cell}``."""
        table = await self.read_values(sheet_id, sheet_name)
        if len(table) < 2:
            return None
        header, body = table[0], table[1:]
        for row in body:
            if -len(row) <= col_index < len(row) and row[col_index] == value:
                return {name: cell for name, cell in zip(header, row)}
        return None
