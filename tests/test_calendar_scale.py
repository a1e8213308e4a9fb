"""The calendar admin plane's read cache never serves stale reads.

After many admin and agent writes (add, move, cancel, delete, agent PUT/modify/DELETE, a second
calendar), every read through the cached store must equal a fresh re-read from disk: the same
reads made the way the store made them before it cached anything (Radicale's ``get_all`` and a
full parse), and the same snapshot from a store with an empty cache.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import caldav
import pytest
import radicale.storage
from radicale import pathutils

from pytest_clawmark.agentplane import Calendar as AgentCalendar
from pytest_clawmark.servers.calendar.events import Event, parse_events, sort_key
from pytest_clawmark.servers.calendar.store import CalendarStore
from pytest_clawmark.world import Person, World

CLOCK = datetime(2025, 4, 7, 9, 0, tzinfo=timezone.utc)
USER = Person("Chen Fang", "chen.fang@hospital.internal")
NURSE = Person("Li Na", "nurse3@hospital.internal")
UTC = timezone.utc
BASE = datetime(2025, 4, 7, 8, 0, tzinfo=UTC)


def at(i: int) -> datetime:
    return BASE + timedelta(days=i // 6, hours=i % 6)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = World({"calendar"}, tmp_path / "world", user=USER, people=[NURSE])
    w.clock = CLOCK
    w.start()
    yield w
    w.stop()


def fresh_calendars(world: World, owner: str) -> list[tuple[str, dict[str, str], list[tuple[str, str]]]]:
    """The owner's calendars read from disk the way the store read them before it had a cache."""
    storage = radicale.storage.load(world.calendar.configuration)
    out = []
    with storage.acquire_lock("r", owner):
        for col in storage.discover(f"/{owner}/", depth="1"):
            if not isinstance(col, radicale.storage.BaseCollection) or col.tag != "VCALENDAR":
                continue
            items = sorted(((item.href or "", item.serialize()) for item in col.get_all()), key=lambda p: p[0])
            out.append((pathutils.unstrip_path(col.path, True), dict(col.get_meta()), items))
    return sorted(out, key=lambda c: c[0])


def fresh_events(world: World, owner: str) -> list[Event]:
    events: list[Event] = []
    for path, _, items in fresh_calendars(world, owner):
        for href, ics in items:
            events.extend(parse_events(ics, calendar=path, owner=owner, href=href))
    return sorted(events, key=sort_key)


def fresh_snapshot(world: World) -> dict[str, Any]:
    """The snapshot taken with an empty cache on a newly loaded storage."""
    service = world.calendar
    cached = service._store
    service._store = CalendarStore(radicale.storage.load(service.configuration))
    try:
        return service.snapshot()
    finally:
        service._store = cached


def check(world: World) -> None:
    for owner in (USER.email, NURSE.email):
        assert world.calendar.events(owner) == fresh_events(world, owner)
        stored = [(c.path, dict(c.props), list(c.items)) for c in world.calendar._store.calendars(owner)]
        assert stored == fresh_calendars(world, owner)
    warm = world.calendar.snapshot()
    assert json.dumps(warm, sort_keys=True) == json.dumps(fresh_snapshot(world), sort_keys=True)


def test_cached_reads_equal_fresh_reads_after_many_writes(world: World) -> None:
    cal = world.calendar
    check(world)  # empty
    uids = []
    for i in range(40):
        uids.append(cal.add_event(f"Round {i}", at(i), at(i) + timedelta(minutes=45), attendees=[NURSE]).uid)
        if i % 7 == 0:
            check(world)
    cal.add_event("Night shift", at(3), at(4), calendar="oncall")
    cal.add_event("Nurse's own", at(5), at(6), owner=NURSE)
    check(world)
    for n, uid in enumerate(uids[:20]):
        if n % 4 == 0:
            moved = cal.move_event(uid, at(n + 50), at(n + 50) + timedelta(hours=1))
            assert moved == cal.event(uid=uid)
        elif n % 4 == 1:
            cal.cancel_event(uid)
            assert cal.event(uid=uid).cancelled
        elif n % 4 == 2:
            cal.cancel_event(uid, remove=True)
        else:
            cal.delete_event(uid)
        if n % 5 == 0:
            check(world)
    check(world)

    env = world.agent_env()
    with caldav.DAVClient(
        url=env["CLAWMARK_CALDAV_URL"], username=env["CLAWMARK_CALDAV_USER"], password=env["CLAWMARK_CALDAV_PASSWORD"]
    ) as client:
        (agent_cal,) = [c for c in client.principal().calendars() if str(c.url).endswith("/calendar/")]
        saved = agent_cal.save_event(dtstart=at(2), dtend=at(3), summary="Agent booking", uid="agent-1@agent")
        check(world)
        saved.icalendar_component["SUMMARY"] = "Agent booking (moved)"
        saved.icalendar_component["DTSTART"].dt = at(7)
        saved.icalendar_component["DTEND"].dt = at(8)
        saved.save()  # same href, new text: a read in between must not keep the old one
        assert cal.event(uid="agent-1@agent").summary == "Agent booking (moved)"
        check(world)
        href = cal.event(uid=uids[30]).href
        assert client.delete(str(agent_cal.url) + href).status in (200, 204)  # admin-written, agent-deleted
        assert all(e.uid != uids[30] for e in cal.events())
        check(world)
        client.principal().make_calendar(name="Agent's", cal_id="agents").save_event(
            dtstart=at(9), dtend=at(10), summary="In the new calendar"
        )
        check(world)

    cal.delete_calendar("oncall")
    check(world)
    snap = cal.snapshot()
    cal.restore(snap)
    check(world)
    assert json.dumps(cal.snapshot(), sort_keys=True) == json.dumps(snap, sort_keys=True)


def test_agent_plane_client_discovers_once_and_sees_every_change(world: World) -> None:
    agent = AgentCalendar(world.agent_env())
    assert agent.events(at(0), at(0) + timedelta(days=1)) == []
    url = agent._calendar_url
    assert url is not None and url.rstrip("/").endswith("/calendar")
    agent.book("a@agent", "Booked", at(1), at(2))
    world.calendar.add_event("Seeded", at(3), at(4))
    found = agent.events(at(0), at(0) + timedelta(days=1))
    assert [str(c["SUMMARY"]) for c in found] == ["Booked", "Seeded"]
    assert agent._calendar_url == url
    assert [e.summary for e in world.calendar.events()] == ["Booked", "Seeded"]
