"""Shared fixtures of the kb tests: a real World with the kb service and official clients.

Test modules import the fixtures they use (``from kb_support import world, notion``) — this is
a helper module, not a conftest, so it stays private to the kb tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import notion_client
import pytest

from pytest_clawmark.world import Person, World

CLOCK = datetime(2025, 4, 7, 9, 0, tzinfo=timezone(timedelta(hours=8)))
USER = Person("Chen Fang", "chen.fang@hospital.internal")
NURSE = Person("Li Na", "nurse3@hospital.internal")
DOCTOR = Person("Wang Wei", "wang@hospital.internal")

SCHEMA: dict[str, Any] = {
    "Patient": "title",
    "Notes": "rich_text",
    "Dose": "number",
    "Ward": {"select": ["Cardiology", "Oncology", "ICU"]},
    "Tags": {"multi_select": ["urgent", "review", "allergy"]},
    "Stage": {"status": ["Admitted", "Under review", "Discharged"]},
    "Due": "date",
    "Checked": "checkbox",
    "Contact": "email",
    "Chart": "url",
    "Phone": "phone_number",
    "Owner": "people",
    "Created": "created_time",
    "Edited": "last_edited_time",
}
ROWS: list[dict[str, Any]] = [
    {
        "Patient": "P-2189",
        "Notes": "warfarin 5 mg",
        "Dose": 5,
        "Ward": "Cardiology",
        "Tags": ["urgent", "review"],
        "Stage": "Admitted",
        "Due": "2025-04-07",
        "Checked": False,
        "Contact": "p2189@family.example",
        "Chart": "https://charts.example/2189",
        "Phone": "+86 10 5555 2189",
        "Owner": "Li Na",
    },
    {
        "Patient": "P-3301",
        "Notes": "post-op, no anticoagulant",
        "Dose": 12.5,
        "Ward": "Oncology",
        "Tags": ["allergy"],
        "Stage": "Under review",
        "Due": "2025-04-09",
        "Checked": True,
        "Owner": ["Wang Wei", "Li Na"],
    },
    {
        "Patient": "P-4410",
        "Notes": "",
        "Dose": None,
        "Ward": "ICU",
        "Tags": [],
        "Stage": "Discharged",
        "Due": "2025-03-30T15:00:00+08:00",
        "Checked": False,
    },
    {
        "Patient": "Q-0007",
        "Notes": "Warfarin review pending",
        "Dose": 0.5,
        "Tags": ["review"],
        "Due": "2025-04-14",
        "Checked": True,
        "Owner": "chen.fang@hospital.internal",
    },
]


def make_world(root: Path, *, clock: datetime | None = CLOCK) -> World:
    world = World({"kb"}, root, user=USER, people=[NURSE, DOCTOR])
    world.clock = clock
    return world.start()


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = make_world(tmp_path / "world")
    yield w
    w.stop()


@pytest.fixture
def seeded(world: World) -> World:
    """The world with the medication database of :data:`SCHEMA` / :data:`ROWS`."""
    world.kb.create_database("Medication records", SCHEMA, ROWS)
    return world


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One seeded world for a module's read-only tests (stopping a world costs ~0.2 s)."""
    w = make_world(tmp_path_factory.mktemp("kb"))
    w.kb.create_database("Medication records", SCHEMA, ROWS)
    yield w
    w.stop()


@pytest.fixture(scope="module")
def shared_notion(shared: World) -> Iterator[notion_client.Client]:
    c = client(shared)
    yield c
    c.close()


def client(world: World, version: str | None = None) -> notion_client.Client:
    """The official, unmodified notion-client pointed at the world's kb."""
    env = world.agent_env()
    options: dict[str, Any] = {"auth": env["CLAWMARK_NOTION_TOKEN"], "base_url": env["CLAWMARK_NOTION_URL"]}
    if version:
        options["notion_version"] = version
    return notion_client.Client(**options)


@pytest.fixture
def notion(world: World) -> Iterator[notion_client.Client]:
    """notion-client in its default dialect (3.x: 2025-09-03)."""
    c = client(world)
    yield c
    c.close()


@pytest.fixture
def legacy(world: World) -> Iterator[notion_client.Client]:
    """notion-client speaking 2022-06-28 (what older clients and many agents send)."""
    c = client(world, "2022-06-28")
    yield c
    c.close()


@pytest.fixture
def raw(world: World) -> Iterator[httpx.Client]:
    """A plain HTTP client with the agent's token, for requests official clients never send."""
    env = world.agent_env()
    c = httpx.Client(
        base_url=env["CLAWMARK_NOTION_URL"],
        trust_env=False,
        timeout=10,
        headers={"Authorization": f"Bearer {env['CLAWMARK_NOTION_TOKEN']}", "Notion-Version": "2022-06-28"},
    )
    yield c
    c.close()


def plain_title(page: dict[str, Any], prop: str = "Patient") -> str:
    return "".join(s["plain_text"] for s in page["properties"][prop]["title"])


def titles(results: list[dict[str, Any]], prop: str = "Patient") -> list[str]:
    return [plain_title(p, prop) for p in results]
