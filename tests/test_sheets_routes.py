"""The Sheets server's route tables: every row answers some request (none is shadowed).

Why: the tables are searched in order and the first match wins, so a row placed after a broader
one — a refusal of method ANY, a ``{name:path}`` placeholder — would silently never answer. What
each row answers is checked end to end by the client, bad-input and fuzz tests; this only checks
the table's order, without a world.
"""

from __future__ import annotations

import re

import pytest

from pytest_clawmark.servers.sheets.app import ADMIN_ROUTES, DRIVE_ROUTES, SHEETS_ROUTES
from pytest_clawmark.servers.sheets.routing import ANY, Route, compile_pattern, find

SAMPLES = {"": "x1", "segment": "x1", "path": "Data!A1", "verb": ":v"}
TABLES = {"sheets": SHEETS_ROUTES, "drive": DRIVE_ROUTES, "admin": ADMIN_ROUTES}
ROWS = [(name, i, route) for name, table in TABLES.items() for i, route in enumerate(table)]


def sample_path(pattern: str) -> str:
    """A raw path the pattern matches, each placeholder filled with a plain sample value."""
    body = pattern[:-2] if pattern.endswith("/?") else pattern
    return re.sub(r"\{(\w+)(?::(\w+))?\}", lambda m: SAMPLES[m.group(2) or ""], body)


@pytest.mark.parametrize("table, index, route", ROWS, ids=[f"{t}-{i}-{r.method}-{r.pattern}" for t, i, r in ROWS])
def test_every_row_answers_its_own_requests(table: str, index: int, route: Route[object]) -> None:
    path = sample_path(route.pattern)
    method = "TRACE" if route.method == ANY else route.method  # no row names TRACE
    found = find(TABLES[table], method, path)
    assert found is not None and found[0] is route, (
        f"{method} {path} is answered by {found and found[0]}, not by row {index}"
    )


def test_placeholders_match_the_raw_path() -> None:
    values = compile_pattern("/v4/spreadsheets/{id}/values/{range:path}")
    assert values.fullmatch("/v4/spreadsheets/abc/values/Q1%2FQ2!A1:B2")["range"] == "Q1%2FQ2!A1:B2"
    assert values.fullmatch("/v4/spreadsheets/abc/values/Q1/Q2!A1")["range"] == "Q1/Q2!A1"
    assert compile_pattern("/v4/spreadsheets/{id}").fullmatch("/v4/spreadsheets/abc:batchUpdate") is None
    assert compile_pattern("/drive/v3/files/{id:segment}/?").fullmatch("/drive/v3/files/a:b/")["id"] == "a:b"
    verb = compile_pattern("/v4/spreadsheets/{id}{verb:verb}")
    assert verb.fullmatch("/v4/spreadsheets/abc")["verb"] == ""
    assert verb.fullmatch("/v4/spreadsheets/abc:x:y")["verb"] == ":x:y"
