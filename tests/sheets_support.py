"""Shared fixtures of the sheets tests: a real World with the sheets service, and real clients.

Test modules import what they use (``from sheets_support import world, raw``) — this is a
helper module, not a conftest and not a test module (its name keeps pytest from collecting it),
so it stays private to the sheets tests. Clients are the official, unmodified ones; only their
transport is pointed at the world's server (see :mod:`pytest_clawmark.servers.sheets.clients`).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import pytest

from pytest_clawmark.servers.sheets.clients import google_service, gspread_client
from pytest_clawmark.world import Person, World

CLOCK = datetime(2025, 4, 7, 9, 0, tzinfo=timezone(timedelta(hours=8)))
USER = Person("Chen Fang", "chen.fang@hospital.internal")

BUDGET: dict[str, list[list[Any]]] = {
    "Data": [
        ["Item", "Cost", "Date", "Owner"],
        ["Coffee", 4.5, "2025-04-07", "Ana"],
        ["Tea", 3, "2025-04-08", "Ben"],
        ["Cake", 7.25, "2025-04-09", "Ana"],
    ],
    "Summary": [
        ["Total", "=SUM(Data!B2:B100)"],
        ["Average", "=AVERAGE(Data!B:B)"],
        ["Ana's count", '=COUNTIF(Data!D:D,"Ana")'],
        ["Tea cost", '=VLOOKUP("Tea",Data!A:B,2,FALSE)'],
        ["Big spender", '=IF(B1>10,"yes","no")'],
    ],
}


def make_world(root: Path, *, clock: datetime | None = CLOCK) -> World:
    world = World({"sheets"}, root, user=USER)
    world.clock = clock
    return world.start()


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = make_world(tmp_path / "world")
    yield w
    w.stop()


@pytest.fixture(scope="module")
def shared_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One world for a module whose tests each make their own spreadsheets (stopping a world
    costs ~0.2 s, mostly uvicorn's shutdown tick)."""
    w = make_world(tmp_path_factory.mktemp("sheets"))
    yield w
    w.stop()


CLIENT_TIMEOUT = 60
"""Seconds a test client waits for an answer: a transport guard, not a measurement. A 2,000-formula
chain takes ~4 s idle here and more than 10 s while the suite's subprocess runs load both cores."""


@pytest.fixture(scope="module")
def shared_raw(shared_world: World) -> Iterator[httpx.Client]:
    with agent_http(shared_world) as c:
        yield c


@pytest.fixture
def budget(world: World) -> str:
    """The world with a seeded "Budget" spreadsheet; returns its id."""
    return world.sheets.create_spreadsheet("Budget", BUDGET)


def agent(world: World) -> tuple[str, str]:
    env = world.agent_env()
    return env["CLAWMARK_SHEETS_URL"], env["CLAWMARK_SHEETS_TOKEN"]


def agent_http(world: World, timeout: float = CLIENT_TIMEOUT) -> httpx.Client:
    """Plain HTTP to the world's Sheets server with the agent's token (close it when done)."""
    url, token = agent(world)
    return httpx.Client(base_url=url, trust_env=False, timeout=timeout, headers={"Authorization": f"Bearer {token}"})


@pytest.fixture
def gc(world: World) -> Any:
    """gspread 6, unmodified, reaching the world through a host-rewriting AuthorizedSession."""
    return gspread_client(*agent(world))


@pytest.fixture
def sheets_api(world: World) -> Any:
    """google-api-python-client's Sheets v4 service (static discovery) on the world's server."""
    return google_service("sheets", "v4", *agent(world))


@pytest.fixture
def drive_api(world: World) -> Any:
    return google_service("drive", "v3", *agent(world))


@pytest.fixture
def raw(world: World) -> Iterator[httpx.Client]:
    """Plain HTTP with the agent's token, for requests official clients never send."""
    with agent_http(world) as c:
        yield c


def google_error(response: httpx.Response, code: int, status: str | None = None) -> dict[str, Any]:
    """Assert ``response`` is a Google-shaped error with ``code`` (and ``status``); return its body."""
    assert response.status_code == code, (response.status_code, response.text)
    body = response.json()
    error = body["error"]
    assert error["code"] == code
    assert isinstance(error["message"], str) and error["message"]
    if status is not None:
        assert error["status"] == status, error
    return error
