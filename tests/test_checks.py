"""Checker helpers: failures are AssertionErrors (the agent's), with expected and found."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from pytest_clawmark.checks import attached_json, check_meeting, squash
from pytest_clawmark.world import Person, World

TZ = timezone(timedelta(hours=2))
START = datetime(2025, 6, 3, 10, tzinfo=TZ)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = World({"calendar", "mail"}, tmp_path / "w", user=Person("Sam", "sam@x.example"), people=[Person("Mei", "mei@x.example")])
    w.clock = START - timedelta(days=1)
    w.start()
    yield w
    w.stop()


def test_squash() -> None:
    assert squash("Release 4.2 — Blocker Triage!") == "release42blockertriage"


def test_check_meeting(world: World) -> None:
    world.calendar.add_event("Release 4.2: blocker triage", START, START + timedelta(minutes=30), attendees=["mei@x.example"])
    check_meeting(world, "blocker triage", START, 30, ["mei@x.example"])
    with pytest.raises(AssertionError, match=r"expected 'blocker triage' 2025-06-03T10:00:00\+02:00-2025-06-03T11:00:00\+02:00"):
        check_meeting(world, "blocker triage", START, 60, ["mei@x.example"])
    with pytest.raises(AssertionError, match=r"lacks attendee\(s\) \['ravi@x.example'\]"):
        check_meeting(world, "blocker triage", START, 30, ["mei@x.example", "ravi@x.example"])
    world.calendar.add_event("Blocker-Triage (2)", START, START + timedelta(minutes=30))
    with pytest.raises(AssertionError, match="expected one event titled like 'blocker triage', found"):
        check_meeting(world, "blocker triage", START, 30, [])


def test_attached_json(world: World) -> None:
    world.mail.deliver("mei@x.example", "sam@x.example", "files", "x", attachments=[("ok.json", b'{"a": 1}'), ("bad.json", b"{nope")])
    ok, bad = world.mail.inbox()[0].attachments
    assert attached_json(ok) == {"a": 1}
    with pytest.raises(AssertionError, match="attachment bad.json is not valid JSON"):
        attached_json(bad)
