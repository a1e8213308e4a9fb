"""Upstream's ``ctx.calendar`` over a real world (Radicale through our admin plane), checked from
both sides: the dicts upstream checkers read, and what the agent's unmodified ``caldav`` client sees.

Time semantics under test (see upstream/calendar_adapter.py): naive datetimes are floating times,
stored without a zone and printed without an offset; whatever the agent stores prints as
``isoformat()`` of it (``+00:00`` for UTC, the zone's offset for a TZID); ranges overlap as RFC
4791 / Radicale (floating as UTC, zero-length events at the range start included), recurring
events expanded.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timezone
from pathlib import Path
from urllib.parse import unquote
from zoneinfo import ZoneInfo

import caldav
import pytest
from test_calendar_service import client  # noqa: F401 - the agent's unmodified caldav client, as in the service tests
from upstream_support import run, world_of

from pytest_clawmark.upstream.calendar_adapter import (
    UnknownCalendar,
    UnknownEvent,
    UpstreamCalendar,
)
from pytest_clawmark.world import Person, World
from pytest_clawmark.world.calendar import EventNotFound

USER = Person("Lin Dir", "lin.dir@company.example")
UTC = timezone.utc


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    yield from world_of(tmp_path, {"fs", "calendar"}, USER)


@pytest.fixture
def cal(world: World) -> UpstreamCalendar:
    return UpstreamCalendar(world)


def agent_calendar(client: caldav.DAVClient, name: str) -> caldav.Calendar:
    (found,) = [c for c in client.principal().calendars() if c.get_display_name() == name]
    return found


# -- calendars ------------------------------------------------------------------------------------
def test_create_and_list_calendars(world: World, cal: UpstreamCalendar, client: caldav.DAVClient) -> None:
    url = run(cal.create_calendar("Work Rota"))
    assert unquote(url) == f"{world.calendar.url}{USER.email}/Work-Rota/"
    assert run(cal.create_calendar("Work Rota")) == url  # idempotent: no same-named twin
    run(cal.create_calendar("zhang.eng"))
    assert run(cal.list_calendars()) == [
        {"name": name, "url": world.calendar.url.rstrip("/") + f"/{USER.email}/{cal_id}/"}
        for cal_id, name in (("Work-Rota", "Work Rota"), ("calendar", "calendar"), ("zhang.eng", "zhang.eng"))
    ]
    # the agent's client shows the task's names
    assert sorted(c.get_display_name() for c in client.principal().calendars()) == [
        "Work Rota",
        "calendar",
        "zhang.eng",
    ]
    assert world.calendar.calendar_names()[f"/{USER.email}/Work-Rota/"] == "Work Rota"


def test_names_that_make_the_same_id_get_distinct_calendars(world: World, cal: UpstreamCalendar) -> None:
    for name in ("张伟日程", "李娜日程", "Work", "work"):
        run(cal.create_calendar(name))
        run(cal.add_event(name, f"in {name}", datetime(2026, 3, 25, 9), datetime(2026, 3, 25, 10)))
    ids = [p.strip("/").split("/")[-1] for p in world.calendar.calendars()]
    assert len(ids) == 5 and len({i.lower() for i in ids}) == 5  # distinct even on a case-blind disk
    for name in ("张伟日程", "李娜日程", "Work", "work"):
        assert [e["summary"] for e in run(cal.get_events(name))] == [f"in {name}"]


def test_delete_calendar(world: World, cal: UpstreamCalendar) -> None:
    run(cal.create_calendar("tmp"))
    run(cal.add_event("tmp", "x", datetime(2026, 3, 25, 9), datetime(2026, 3, 25, 10)))
    run(cal.delete_calendar("tmp"))
    assert [c["name"] for c in run(cal.list_calendars())] == ["calendar"]
    with pytest.raises(UnknownCalendar, match="Calendar not found: tmp"):
        run(cal.get_events("tmp"))
    with pytest.raises(ValueError, match="default calendar"):
        run(cal.delete_calendar("calendar"))


# -- writing and reading events -------------------------------------------------------------------
def test_floating_times_are_stored_floating_and_read_in_upstreams_shape(world: World, cal: UpstreamCalendar) -> None:
    run(cal.create_calendar("CFO_Office"))
    uid = run(
        cal.add_event(
            "CFO_Office",
            "Board Meeting",
            datetime(2026, 3, 25, 9),
            datetime(2026, 3, 25, 10, 30),
            description="Q2 numbers",
            location="Room 4",
        )
    )
    run(cal.add_event("CFO_Office", "Offsite", date(2026, 3, 26), date(2026, 3, 28), uid="offsite-1"))
    run(cal.add_event("CFO_Office", "Deadline", datetime(2026, 3, 27, 17), datetime(2026, 3, 27, 17)))
    (stored,) = [e for e in world.calendar.events(calendar="CFO_Office") if e.uid == uid]
    assert "DTSTART:20260325T090000\r\n" in stored.ics and "DTEND:20260325T103000\r\n" in stored.ics  # no Z, no TZID
    assert "VTIMEZONE" not in stored.ics
    events = run(cal.get_events("CFO_Office"))
    assert events == [
        {
            "uid": uid,
            "summary": "Board Meeting",
            "dtstart": "2026-03-25T09:00:00",
            "dtend": "2026-03-25T10:30:00",
            "description": "Q2 numbers",
            "location": "Room 4",
        },
        {"uid": "offsite-1", "summary": "Offsite", "dtstart": "2026-03-26", "dtend": "2026-03-28"},
        {
            "uid": events[2]["uid"],
            "summary": "Deadline",
            "dtstart": "2026-03-27T17:00:00",
            "dtend": "2026-03-27T17:00:00",
        },
    ]
    # what checkers do with them
    assert datetime.fromisoformat(events[0]["dtstart"]).hour == 9 and "2026-03-26" in events[1]["dtstart"]


def test_get_events_in_a_range(cal: UpstreamCalendar) -> None:
    run(cal.create_calendar("interviews"))
    run(cal.add_event("interviews", "C01 Alice", datetime(2028, 4, 12, 14), datetime(2028, 4, 12, 15), uid="c01"))
    run(cal.add_event("interviews", "C02 Bob", datetime(2028, 4, 12, 16), datetime(2028, 4, 12, 17), uid="c02"))
    run(cal.add_event("interviews", "Cutoff", datetime(2028, 4, 12, 16), datetime(2028, 4, 12, 16), uid="cutoff"))
    run(cal.add_event("interviews", "Holiday", date(2028, 4, 13), date(2028, 4, 14), uid="holiday"))

    def uids(start, end) -> list[str]:
        return [e["uid"] for e in run(cal.get_events("interviews", start=start, end=end))]

    assert uids(datetime(2028, 4, 12, 14), datetime(2028, 4, 12, 16)) == ["c01"]  # [start, end): 16:00 is out
    assert uids(datetime(2028, 4, 12, 15), datetime(2028, 4, 12, 16, 30)) == [
        "c02",
        "cutoff",
    ]  # zero-length at 16:00 in
    assert uids(datetime(2028, 4, 12, 15), datetime(2028, 4, 12, 16)) == []
    assert uids(datetime(2028, 4, 13, 9), datetime(2028, 4, 13, 10)) == ["holiday"]
    assert uids(date(2028, 4, 12), date(2028, 4, 13)) == ["c01", "c02", "cutoff"]
    assert uids(datetime(2028, 4, 12, 12, tzinfo=UTC), datetime(2028, 4, 12, 15, tzinfo=UTC)) == ["c01"]
    # one bound alone is no range (upstream's client filters only with both)
    assert len(run(cal.get_events("interviews", start=datetime(2028, 4, 13)))) == 4


def test_find_events_is_a_case_blind_substring_match(cal: UpstreamCalendar) -> None:
    run(cal.create_calendar("lin.dir"))
    run(cal.add_event("lin.dir", "Interview C04 David (video)", datetime(2028, 4, 14, 10), datetime(2028, 4, 14, 11)))
    run(cal.add_event("lin.dir", "Budget review", datetime(2028, 4, 14, 12), datetime(2028, 4, 14, 13)))
    assert [e["summary"] for e in run(cal.find_events("lin.dir", "c04"))] == ["Interview C04 David (video)"]
    assert [e["summary"] for e in run(cal.find_events("lin.dir", "REVIEW"))] == ["Budget review"]
    assert run(cal.find_events("lin.dir", "Eve")) == []


def test_delete_event(world: World, cal: UpstreamCalendar) -> None:
    run(cal.create_calendar("RoomA"))
    run(cal.create_calendar("RoomB"))
    for room in ("RoomA", "RoomB"):  # one UID in two calendars: a delete touches only the one named
        run(cal.add_event(room, "Standup", datetime(2028, 4, 14, 9), datetime(2028, 4, 14, 10), uid="standup"))
    keep = run(cal.add_event("RoomA", "Keep", datetime(2028, 4, 14, 11), datetime(2028, 4, 14, 12)))
    for e in run(cal.get_events("RoomA")):
        if e["summary"] == "Standup":
            run(cal.delete_event("RoomA", e["uid"]))
    assert [e["uid"] for e in run(cal.get_events("RoomA"))] == [keep]
    assert [e["uid"] for e in run(cal.get_events("RoomB"))] == ["standup"]
    with pytest.raises(UnknownEvent, match="no event with uid 'standup' in calendar 'RoomA'"):
        run(cal.delete_event("RoomA", "standup"))
    with pytest.raises(EventNotFound):  # the admin method underneath
        world.calendar.delete_event("nope", calendar="RoomB")


# -- the agent's side -----------------------------------------------------------------------------
def test_agent_sees_floating_events_with_the_same_times(cal: UpstreamCalendar, client: caldav.DAVClient) -> None:
    run(cal.create_calendar("viewings"))
    run(cal.add_event("viewings", "Viewing L06", datetime(2026, 3, 20, 14), datetime(2026, 3, 20, 15)))
    run(cal.add_event("viewings", "Open house", date(2026, 3, 21), date(2026, 3, 22)))
    calendar = agent_calendar(client, "viewings")
    (found,) = calendar.search(
        start=datetime(2026, 3, 20, 13, tzinfo=UTC), end=datetime(2026, 3, 20, 16, tzinfo=UTC), event=True
    )
    comp = found.icalendar_component
    assert str(comp["SUMMARY"]) == "Viewing L06"
    assert comp["DTSTART"].dt == datetime(2026, 3, 20, 14) and comp["DTSTART"].dt.tzinfo is None  # floating
    assert comp["DTEND"].dt == datetime(2026, 3, 20, 15)
    (allday,) = calendar.search(
        start=datetime(2026, 3, 21, tzinfo=UTC), end=datetime(2026, 3, 22, tzinfo=UTC), event=True
    )
    assert allday.icalendar_component["DTSTART"].dt == date(2026, 3, 21)


def test_events_the_agent_creates_are_read_as_upstream_would(cal: UpstreamCalendar, client: caldav.DAVClient) -> None:
    run(cal.create_calendar("zhang.eng"))
    calendar = agent_calendar(client, "zhang.eng")
    calendar.save_event(
        dtstart=datetime(2028, 4, 12, 16, tzinfo=UTC),
        dtend=datetime(2028, 4, 12, 17, tzinfo=UTC),
        summary="Interview C01 Alice",
        uid="c01@agent",
    )
    shanghai = ZoneInfo("Asia/Shanghai")
    calendar.save_event(
        dtstart=datetime(2028, 4, 13, 9, tzinfo=shanghai),
        dtend=datetime(2028, 4, 13, 10, tzinfo=shanghai),
        summary="Interview C03 Charlie",
        uid="c03@agent",
        location="Zoom",
    )
    calendar.save_event(
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//agent//EN\nBEGIN:VEVENT\nUID:sync@agent\nDTSTAMP:20280401T000000Z\n"
        "SUMMARY:Weekly sync\nDTSTART:20280403T100000\nDURATION:PT30M\nRRULE:FREQ=WEEKLY;COUNT=3\n"
        "END:VEVENT\nEND:VCALENDAR\n"
    )
    events = {e["uid"]: e for e in run(cal.get_events("zhang.eng"))}
    assert events["c01@agent"] == {
        "uid": "c01@agent",
        "summary": "Interview C01 Alice",
        "dtstart": "2028-04-12T16:00:00+00:00",
        "dtend": "2028-04-12T17:00:00+00:00",
    }
    assert events["c03@agent"]["dtstart"] == "2028-04-13T09:00:00+08:00" and events["c03@agent"]["location"] == "Zoom"
    assert events["sync@agent"] == {"uid": "sync@agent", "summary": "Weekly sync", "dtstart": "2028-04-03T10:00:00"}
    # upstream's checker idiom: fromisoformat after dropping +00:00, then wall-clock hour and weekday
    (c03,) = run(cal.find_events("zhang.eng", "charlie"))
    start = datetime.fromisoformat(c03["dtstart"].replace("+00:00", ""))
    assert (start.weekday(), start.hour) == (3, 9)
    # a range expands the recurring event into its occurrences there (each with the same UID)
    week2 = run(cal.get_events("zhang.eng", start=datetime(2028, 4, 8), end=datetime(2028, 4, 14)))
    assert [(e["uid"], e["dtstart"]) for e in week2] == [  # sorted by instant
        ("sync@agent", "2028-04-10T10:00:00"),
        ("c01@agent", "2028-04-12T16:00:00+00:00"),
        ("c03@agent", "2028-04-13T09:00:00+08:00"),  # 01:00 UTC on the 13th
    ]
    assert [e["dtend"] for e in week2][0] == "2028-04-10T10:30:00"  # an occurrence carries its end


def test_calendars_the_agent_makes_are_listed_and_readable(cal: UpstreamCalendar, client: caldav.DAVClient) -> None:
    named = client.principal().make_calendar(name="Review meetings", cal_id="reviews")
    named.save_event(
        dtstart=datetime(2026, 3, 20, 14, tzinfo=UTC),
        dtend=datetime(2026, 3, 20, 15, tzinfo=UTC),
        summary="Design review",
        uid="review@agent",
    )
    client.principal().make_calendar(cal_id="scratch")
    names = [c["name"] for c in run(cal.list_calendars())]
    assert names == ["calendar", "Review meetings", "scratch"]  # a calendar without a display name lists by id
    # upstream's "search all calendars" idiom
    events = [e for c in run(cal.list_calendars()) for e in run(cal.get_events(c["name"]))]
    assert [(e["summary"], e["dtstart"]) for e in events] == [("Design review", "2026-03-20T14:00:00+00:00")]
    assert run(cal.get_events("scratch")) == []


# -- bad input ------------------------------------------------------------------------------------
def test_bad_input(world: World, cal: UpstreamCalendar) -> None:
    with pytest.raises(UnknownCalendar, match="Calendar not found: Nope .*'calendar'"):
        run(cal.add_event("Nope", "x", datetime(2026, 3, 25, 9), datetime(2026, 3, 25, 10)))
    assert isinstance(UnknownCalendar("x"), ValueError)  # what upstream raises for it
    with pytest.raises(UnknownCalendar):
        run(cal.find_events("Nope", "x"))
    with pytest.raises(UnknownCalendar):
        run(cal.delete_event("Nope", "x"))
    with pytest.raises(TypeError, match="dtstart must be a datetime or a date"):
        run(cal.add_event("calendar", "x", "2026-03-25T09:00", datetime(2026, 3, 25, 10)))
    with pytest.raises(TypeError, match="must both be datetimes or both dates"):
        run(cal.add_event("calendar", "x", date(2026, 3, 25), datetime(2026, 3, 25, 10)))
    with pytest.raises(ValueError, match="needs a name"):
        run(cal.create_calendar(" "))
    assert world.calendar.events() == []
    # an end before the start is stored as given (upstream's client and server accept it too)
    uid = run(cal.add_event("calendar", "Backwards", datetime(2026, 3, 25, 16), datetime(2026, 3, 25, 15)))
    (e,) = run(cal.get_events("calendar"))
    assert (e["uid"], e["dtstart"], e["dtend"]) == (uid, "2026-03-25T16:00:00", "2026-03-25T15:00:00")
    # ... and overlaps a range as Radicale decides (DTEND > start and DTSTART < end): never inside 15:00-16:00
    assert run(cal.get_events("calendar", datetime(2026, 3, 25, 15), datetime(2026, 3, 25, 17))) == []
    assert len(run(cal.get_events("calendar", datetime(2026, 3, 25), datetime(2026, 3, 26)))) == 1


# -- the admin methods added for the adapter ------------------------------------------------------
def test_admin_delete_calendar_and_names(world: World) -> None:
    world.calendar.create_calendar("oncall", display_name="On call")
    world.calendar.add_event("Night", datetime(2026, 3, 25, 20), datetime(2026, 3, 26, 8), calendar="oncall")
    assert world.calendar.calendar_names() == {
        f"/{USER.email}/calendar/": "calendar",
        f"/{USER.email}/oncall/": "On call",
    }
    world.calendar.delete_calendar("oncall")
    assert world.calendar.calendars() == [f"/{USER.email}/calendar/"] and world.calendar.events() == []
    with pytest.raises(KeyError, match="no calendar"):
        world.calendar.delete_calendar("oncall")
    with pytest.raises(KeyError, match="no calendar"):
        world.calendar.delete_calendar("/someone@else.example/calendar/")
    with pytest.raises(ValueError, match="cannot be deleted"):
        world.calendar.delete_calendar(f"/{USER.email}/calendar/")


def test_a_twin_the_agent_makes_does_not_hide_the_tasks_calendar(
    cal: UpstreamCalendar, client: caldav.DAVClient
) -> None:
    run(cal.create_calendar("viewings"))
    run(cal.add_event("viewings", "Seeded", datetime(2026, 3, 20, 9), datetime(2026, 3, 20, 10), uid="seeded"))
    client.principal().make_calendar(name="viewings", cal_id="aaa-twin")  # sorts before ours by path
    assert [e["uid"] for e in run(cal.get_events("viewings"))] == ["seeded"]
