"""The calendar service with the real ``caldav`` client against Radicale in a real World."""

from __future__ import annotations

import base64
import http.client
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime, timezone
from pathlib import Path
from urllib.parse import unquote

import caldav
import pytest
from caldav.lib import error as caldav_error

from pytest_clawmark.world import Person, World
from pytest_clawmark.world.calendar import AmbiguousEvent, EventNotFound

CLOCK = datetime(2025, 4, 7, 9, 0, tzinfo=timezone.utc)
USER = Person("Chen Fang", "chen.fang@hospital.internal")
NURSE = Person("Li Na", "nurse3@hospital.internal")
UTC = timezone.utc


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2025, 4, day, hour, minute, tzinfo=UTC)


def make_world(root: Path) -> World:
    world = World({"calendar"}, root, user=USER, people=[NURSE])
    world.clock = CLOCK
    return world.start()


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = make_world(tmp_path / "world")
    yield w
    w.stop()


@pytest.fixture
def client(world: World) -> Iterator[caldav.DAVClient]:
    env = world.agent_env()
    with caldav.DAVClient(
        url=env["CLAWMARK_CALDAV_URL"], username=env["CLAWMARK_CALDAV_USER"], password=env["CLAWMARK_CALDAV_PASSWORD"]
    ) as c:
        yield c


def default_calendar(client: caldav.DAVClient) -> caldav.Calendar:
    (cal,) = client.principal().calendars()
    return cal


def summaries(events: list[caldav.Event]) -> list[str]:
    return sorted(str(e.icalendar_component["SUMMARY"]) for e in events)


# -- agent plane ------------------------------------------------------------------------------
def test_principal_discovery_finds_the_seeded_calendar(world: World, client: caldav.DAVClient) -> None:
    principal = client.principal()
    assert unquote(str(principal.url)).endswith(f"/{USER.email}/")
    (cal,) = principal.calendars()
    assert unquote(str(cal.url)).endswith(f"/{USER.email}/calendar/")
    assert world.calendar.calendars() == [f"/{USER.email}/calendar/"]


def test_admin_events_are_visible_to_the_client(world: World, client: caldav.DAVClient) -> None:
    world.calendar.add_event("Ward round", at(7, 10), at(7, 11), attendees=[NURSE], location="Ward 5")
    world.calendar.add_event("Pharmacy committee", at(9, 14), at(9, 15))
    world.calendar.add_event("Leave", date(2025, 4, 10), date(2025, 4, 12))
    cal = default_calendar(client)
    monday = cal.search(start=at(7, 0), end=at(8, 0), event=True)
    assert summaries(monday) == ["Ward round"]
    component = monday[0].icalendar_component
    assert str(component["LOCATION"]) == "Ward 5"
    assert str(component["ATTENDEE"]) == f"mailto:{NURSE.email}"
    assert component["ATTENDEE"].params["CN"] == NURSE.name
    week = cal.search(start=at(7, 0), end=at(14, 0), event=True)
    assert summaries(week) == ["Leave", "Pharmacy committee", "Ward round"]
    with pytest.deprecated_call():  # caldav 3 still serves the 1.x spelling, with a warning
        assert summaries(cal.date_search(start=at(10, 0), end=at(11, 0))) == ["Leave"]


def test_client_create_modify_delete_visible_to_admin(world: World, client: caldav.DAVClient) -> None:
    cal = default_calendar(client)
    saved = cal.save_event(dtstart=at(8, 14), dtend=at(8, 15), summary="Review P-2189", uid="review-2189@agent")
    (ev,) = world.calendar.events()
    assert (ev.uid, ev.summary, ev.start, ev.end) == ("review-2189@agent", "Review P-2189", at(8, 14), at(8, 15))

    saved.icalendar_component["SUMMARY"] = "Review P-2189 (moved)"
    saved.icalendar_component["DTSTART"].dt = at(8, 16)
    saved.icalendar_component["DTEND"].dt = at(8, 17)
    saved.save()
    ev = world.calendar.event("Review P-2189 (moved)")
    assert ev.start == at(8, 16) and ev.uid == "review-2189@agent"

    cal.event_by_uid("review-2189@agent").delete()
    assert world.calendar.events() == []
    with pytest.raises(EventNotFound):
        world.calendar.event("Review P-2189 (moved)")


def test_client_can_create_a_calendar(world: World, client: caldav.DAVClient) -> None:
    principal = client.principal()
    new = principal.make_calendar(name="On call", cal_id="oncall")
    new.save_event(dtstart=at(12, 20), dtend=at(13, 8), summary="Night shift")
    assert world.calendar.calendars() == [f"/{USER.email}/calendar/", f"/{USER.email}/oncall/"]
    assert [e.summary for e in world.calendar.events(calendar="oncall")] == ["Night shift"]
    assert world.calendar.events(calendar="calendar") == []


def test_admin_move_and_cancel_are_seen_by_the_client(world: World, client: caldav.DAVClient) -> None:
    world.calendar.add_event("Family meeting", at(8, 9), at(8, 10), uid="family@seed")
    world.calendar.add_event("Drug review", at(8, 11), at(8, 12))
    moved = world.calendar.move_event("Family meeting", at(9, 9), at(9, 10), silent="meeting_moved")
    assert moved.start == at(9, 9) and moved.sequence == 1
    world.calendar.cancel_event("family@seed", silent="meeting_cancelled")
    world.calendar.cancel_event("Drug review", remove=True)
    cal = default_calendar(client)
    (ev,) = cal.search(start=at(9, 0), end=at(10, 0), event=True)
    assert str(ev.icalendar_component["STATUS"]) == "CANCELLED"
    assert cal.search(start=at(8, 0), end=at(9, 0), event=True) == []
    assert [m[0] for m in world.mutations.applied] == ["meeting_moved", "meeting_cancelled"]
    assert world.calendar.event(uid="family@seed").cancelled


def test_events_are_sorted_and_range_filtered(world: World) -> None:
    world.calendar.add_event("B", at(8, 10), at(8, 11), uid="b")
    world.calendar.add_event("A", at(8, 10), at(8, 11), uid="a")
    world.calendar.add_event("Early", at(7, 8), at(7, 9), uid="z")
    world.calendar.add_event("Nurse's own", at(7, 8), at(7, 9), owner=NURSE)
    assert [e.uid for e in world.calendar.events()] == ["z", "a", "b"]
    assert [e.uid for e in world.calendar.events(start=at(8, 0), end=at(9, 0))] == ["a", "b"]
    assert [e.uid for e in world.calendar.events(start=at(7, 9))] == ["a", "b"]  # [start, end) overlap
    assert [e.summary for e in world.calendar.events(NURSE)] == ["Nurse's own"]


def test_event_lookup_is_exact(world: World) -> None:
    world.calendar.add_event("Ward round", at(7, 10), at(7, 11))
    world.calendar.add_event("Ward round", at(8, 10), at(8, 11))
    world.calendar.add_event("Ward round (extra)", at(9, 10), at(9, 11))
    with pytest.raises(AmbiguousEvent):
        world.calendar.event("Ward round")
    assert world.calendar.event("Ward round", start=at(8, 0), end=at(9, 0)).start == at(8, 10)
    assert world.calendar.event("Ward  round (extra)").start == at(9, 10)  # whitespace-normalised
    with pytest.raises(EventNotFound):
        world.calendar.event("ward round (extra)")
    assert issubclass(EventNotFound, AssertionError)


def test_default_uids_are_deterministic(tmp_path: Path) -> None:
    uids = []
    for name in ("a", "b"):
        w = make_world(tmp_path / name)
        try:
            uids.append(w.calendar.add_event("Ward round", at(7, 10), at(7, 11)).uid)
        finally:
            w.stop()
    assert uids[0] == uids[1]


# -- auth ---------------------------------------------------------------------------------------
def test_auth_delay_is_zero(world: World) -> None:
    assert world.calendar.configuration.get("auth", "delay") == 0
    assert world.calendar.configuration.get("server", "delay_on_error") == 0


@pytest.mark.parametrize("username, password", [(USER.email, "wrong"), (NURSE.email, None), ("nobody@x", None)])
def test_wrong_credentials_get_401(world: World, username: str, password: str | None) -> None:
    env = world.agent_env()
    with caldav.DAVClient(
        url=env["CLAWMARK_CALDAV_URL"], username=username, password=password or env["CLAWMARK_CALDAV_PASSWORD"]
    ) as c:
        with pytest.raises(caldav_error.AuthorizationError):
            c.principal()
    statuses = [e.status for e in world.audit.entries("calendar")]
    assert statuses and set(statuses) == {"401"}


def test_a_person_cannot_read_another_persons_calendar(world: World) -> None:
    world.calendar.add_event("Private", at(7, 10), at(7, 11))
    port = world.calendar.url.rsplit(":", 1)[1].strip("/")
    token = base64.b64encode(f"{NURSE.email}:{world.credentials.people_password}".encode()).decode()
    conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=10)
    try:
        conn.request("PROPFIND", f"/{USER.email}/calendar/", headers={"Authorization": f"Basic {token}", "Depth": "1"})
        assert conn.getresponse().status == 403
    finally:
        conn.close()


# -- audit, tools, evidence ---------------------------------------------------------------------
def test_audit_records_agent_requests(world: World, client: caldav.DAVClient) -> None:
    cal = default_calendar(client)
    cal.save_event(dtstart=at(8, 14), dtend=at(8, 15), summary="Audited", uid="audited@agent")
    cal.search(start=at(8, 0), end=at(9, 0), event=True)
    entries = world.audit.entries("calendar")
    (put,) = [e for e in entries if e.operation == "PUT"]
    assert put.status == "201" and put.target == f"/{USER.email}/calendar/audited@agent.ics"
    assert "uid='audited@agent'" in put.summary and "summary='Audited'" in put.summary
    assert put.summary.startswith(f"as {USER.email}")
    assert any(e.operation == "REPORT" and "calendar-query" in e.summary for e in entries)
    assert all(world.credentials.agent_password not in e.summary for e in entries)
    n = len(entries)
    world.calendar.add_event("Admin", at(9, 9), at(9, 10))
    world.calendar.events()
    world.ping()
    assert len(world.audit.entries("calendar")) == n  # admin plane and health checks are not agent actions


def test_agent_env_and_tools(world: World) -> None:
    env = world.agent_env()
    assert env["CLAWMARK_CALDAV_URL"].startswith("http://127.0.0.1:") and env["CLAWMARK_CALDAV_URL"].endswith("/")
    assert env["CLAWMARK_CALDAV_USER"] == USER.email
    assert env["CLAWMARK_CALDAV_PASSWORD"] == world.credentials.agent_password
    tools = world.calendar.tools_markdown()
    for name in ("CLAWMARK_CALDAV_URL", "CLAWMARK_CALDAV_USER", "CLAWMARK_CALDAV_PASSWORD", "caldav"):
        assert name in tools
    assert world.credentials.agent_password not in tools


def seed(world: World) -> None:
    world.calendar.add_event("Ward round", at(7, 10), at(7, 11), attendees=[NURSE], description="Bring charts")
    world.calendar.add_event("Leave", date(2025, 4, 10), date(2025, 4, 12))
    world.calendar.add_event("Nurse shift", at(7, 7), at(7, 19), owner=NURSE)


def test_two_worlds_seeded_alike_have_identical_snapshots(tmp_path: Path) -> None:
    snaps = []
    for name in ("a", "b"):
        w = make_world(tmp_path / name)
        try:
            seed(w)
            snaps.append(json.dumps(w.calendar.snapshot(), sort_keys=True))
        finally:
            w.stop()
    assert snaps[0] == snaps[1]


def test_snapshot_restore_round_trip(world: World, client: caldav.DAVClient, tmp_path: Path) -> None:
    seed(world)
    default_calendar(client).save_event(dtstart=at(8, 14), dtend=at(8, 15), summary="Agent-made", uid="agent@x")
    client.principal().make_calendar(name="Extra", cal_id="extra")
    before = world.calendar.snapshot()
    assert json.loads(json.dumps(before)) == before
    assert list(before["calendars"]) == [
        f"/{USER.email}/calendar/",
        f"/{USER.email}/extra/",
        f"/{NURSE.email}/calendar/",
    ]

    other = make_world(tmp_path / "other")
    try:
        other.calendar.restore(before)
        assert other.calendar.snapshot() == before
    finally:
        other.stop()

    world.calendar.add_event("Later", at(11, 9), at(11, 10))
    world.calendar.restore(before)
    assert world.calendar.snapshot() == before
    assert summaries(default_calendar_named(client, "calendar").search(start=at(7, 0), end=at(14, 0), event=True)) == [
        "Agent-made",
        "Leave",
        "Ward round",
    ]


def default_calendar_named(client: caldav.DAVClient, cal_id: str) -> caldav.Calendar:
    return [c for c in client.principal().calendars() if str(c.url).rstrip("/").endswith(cal_id)][0]


def test_bad_ics_is_refused_and_state_kept(world: World, client: caldav.DAVClient) -> None:
    world.calendar.add_event("Keep me", at(7, 10), at(7, 11))
    before = world.calendar.snapshot()
    port = int(world.calendar.url.rsplit(":", 1)[1].strip("/"))
    token = base64.b64encode(f"{USER.email}:{world.credentials.agent_password}".encode()).decode()
    two_uids = (
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n"
        b"BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20250407T100000Z\r\nDTSTAMP:20250407T100000Z\r\nEND:VEVENT\r\n"
        b"BEGIN:VEVENT\r\nUID:b\r\nDTSTART:20250407T100000Z\r\nDTSTAMP:20250407T100000Z\r\nEND:VEVENT\r\n"
        b"END:VCALENDAR\r\n"
    )
    for body in (b"not an icalendar", two_uids, b"\xff\xfe\x00garbage"):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request(
                "PUT",
                f"/{USER.email}/calendar/bad.ics",
                body=body,
                headers={"Authorization": f"Basic {token}", "Content-Type": "text/calendar"},
            )
            assert conn.getresponse().status == 400
        finally:
            conn.close()
    assert world.calendar.snapshot() == before
    assert summaries(default_calendar(client).search(start=at(7, 0), end=at(8, 0), event=True)) == ["Keep me"]


def test_admin_and_agent_writes_interleave_safely(world: World) -> None:
    """Radicale's storage lock serialises the admin plane with concurrent agent PUTs."""
    env = world.agent_env()

    def agent_puts(k: int) -> None:
        with caldav.DAVClient(
            url=env["CLAWMARK_CALDAV_URL"],
            username=env["CLAWMARK_CALDAV_USER"],
            password=env["CLAWMARK_CALDAV_PASSWORD"],
        ) as c:
            cal = default_calendar(c)
            for i in range(5):
                cal.save_event(dtstart=at(8, 8 + i), dtend=at(8, 9 + i), summary=f"agent {k}-{i}", uid=f"agent-{k}-{i}")

    def admin_adds() -> None:
        for i in range(10):
            world.calendar.add_event(f"admin {i}", at(9, 8), at(9, 9), uid=f"admin-{i}")

    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = [pool.submit(agent_puts, 0), pool.submit(agent_puts, 1), pool.submit(admin_adds)]
        for f in futures:
            f.result()
    uids = {e.uid for e in world.calendar.events()}
    assert uids == {f"agent-{k}-{i}" for k in (0, 1) for i in range(5)} | {f"admin-{i}" for i in range(10)}


def test_bounds_may_be_iso_text_and_bad_ones_say_so(world: World) -> None:
    ev = world.calendar.add_event("Review", "2025-04-09T14:00:00+02:00", "2025-04-09T15:00:00+02:00")
    assert ev.start == datetime(2025, 4, 9, 12, tzinfo=timezone.utc)
    assert world.calendar.add_event("Offsite", "2025-04-10", "2025-04-11").all_day
    assert [e.summary for e in world.calendar.events(start="2025-04-09", end="2025-04-10")] == ["Review"]
    with pytest.raises(ValueError, match=r"start 'tomorrow' is not an ISO 8601 date or date-time"):
        world.calendar.add_event("Bad", "tomorrow", "2025-04-11")
    with pytest.raises(TypeError, match="new_end must be a datetime, a date or ISO 8601 text, not int"):
        world.calendar.move_event("Review", "2025-04-09T16:00:00+02:00", 17)
