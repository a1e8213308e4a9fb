"""Worst cases an agent may legally cause in the calendar (CalDAV): time and memory of each.

    python benchmarks/hostile_calendar.py [--json]

Part of ``benchmarks/hostile.py``. Each case is a request at a limit of
``pytest_clawmark.servers.calendar.limits`` (the largest resource, a quota-filled account, the
costliest query) or a harness read of such a state (snapshots and checker reads parse every
stored item). ``--json`` prints one JSON list of ``{"service", "case", "seconds",
"rss_growth_mb", "note"}``. Measurements, not assertions.
"""

from __future__ import annotations

import base64
import http.client
import json
import sys
import tempfile
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import benchmark_support as support

from pytest_clawmark.servers.calendar import limits
from pytest_clawmark.world import Person, World

USER = Person("Chen Fang", "chen.fang@hospital.internal")
HOME = f"/{USER.email}/"


def measure(case: str, fn: Callable[[], str], rows: list[dict[str, Any]]) -> None:
    support.measure("calendar", case, fn, rows)


class Agent:
    def __init__(self, world: World) -> None:
        env = world.agent_env()
        self.port = int(env["CLAWMARK_CALDAV_URL"].rstrip("/").rsplit(":", 1)[1])
        token = base64.b64encode(f"{USER.email}:{env['CLAWMARK_CALDAV_PASSWORD']}".encode()).decode()
        self.headers = {"Authorization": f"Basic {token}"}

    def send(self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        try:
            conn.request(method, path, body=body, headers={**self.headers, **(headers or {})})
            response = conn.getresponse()
            response.read()
            return response.status
        except (ConnectionError, OSError):
            return 0  # refused before the body was read (the status was sent, the socket closed)
        finally:
            conn.close()


def event(uid: str, extra: list[str] = (), start: str = "20250407T100000Z") -> bytes:  # type: ignore[assignment]
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//bench//EN",
        "BEGIN:VEVENT",
        f"UID:{uid}",
        "DTSTAMP:20250101T000000Z",
        f"DTSTART:{start}",
        "DURATION:PT1H",
        "SUMMARY:Benchmark",
        *extra,
        "END:VEVENT",
        "END:VCALENDAR",
    ]
    return ("\r\n".join(lines) + "\r\n").encode()


def largest_resource(uid: str) -> bytes:
    """A resource at both the line and the byte limit (many short lines: the costliest to parse)."""
    budget = limits.MAX_RESOURCE_LINES - 12
    width = (limits.MAX_RESOURCE_BYTES - 400) // budget - len("X-P0000:\r\n")
    return event(uid, [f"X-P{i:04d}:{'v' * width}" for i in range(budget)])


def new_world(root: Path) -> World:
    world = World({"calendar"}, root, user=USER, people=[])
    world.clock = datetime(2025, 4, 7, 9, tzinfo=timezone.utc)
    return world.start()


def run() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    tmp = Path(tempfile.mkdtemp(prefix="hostile-calendar-"))

    # -- an account filled with the largest resources (the most lines to parse) -----------------
    world = new_world(tmp / "lines")
    agent = Agent(world)
    big = largest_resource("big-0")
    measure(
        "PUT the largest allowed resource (256 KiB, 5,000 lines)",
        lambda: f"status {agent.send('PUT', HOME + 'calendar/big-0.ics', big)}, {len(big)} bytes",
        rows,
    )

    def fill_with_large() -> str:
        count = 1
        while agent.send("PUT", f"{HOME}calendar/big-{count}.ics", largest_resource(f"big-{count}")) == 201:
            count += 1
        return f"{count} resources stored before the {limits.MAX_ACCOUNT_BYTES // 2**20} MiB quota refused one"

    measure("fill the account to its byte quota with the largest resources", fill_with_large, rows)
    measure(
        "snapshot of that account (first: parses every item)",
        lambda: f"{len(json.dumps(world.calendar.snapshot())) / 2**20:.1f} MB of JSON",
        rows,
    )
    measure(
        "snapshot again (parsed items are cached by content)",
        lambda: f"{len(json.dumps(world.calendar.snapshot())) / 2**20:.1f} MB of JSON",
        rows,
    )
    world.stop()

    # -- an account filled with the most items ---------------------------------------------------
    world = new_world(tmp / "items")
    agent = Agent(world)
    agent.send("MKCALENDAR", HOME + "second/")
    agent.send("MKCALENDAR", HOME + "third/")

    def fill_with_items() -> str:
        """Through Radicale's storage API (validated and cached as a PUT would be): through CalDAV
        each PUT costs time linear in the calendar's size, and filling would take minutes."""
        store = world.calendar._store  # noqa: SLF001 - benchmark set-up
        stored = 0
        for cal in ("calendar", "second", "third"):
            for i in range(limits.MAX_RESOURCES_PER_CALENDAR):
                if stored == limits.MAX_RESOURCES_PER_ACCOUNT:
                    break
                store.put(USER.email, f"{HOME}{cal}/", f"e{i}.ics", event(f"{cal}-{i}").decode())
                stored += 1
        status = agent.send("PUT", f"{HOME}third/one-more.ics", event("one-more"))
        return f"{stored} items stored; one more PUT answered {status} (limit {limits.MAX_RESOURCES_PER_ACCOUNT})"

    measure("fill the account to its item limit", fill_with_items, rows)
    measure(
        f"PUT into a calendar of {limits.MAX_RESOURCES_PER_CALENDAR} items (Radicale's own cost)",
        lambda: f"status {agent.send('PUT', HOME + 'calendar/e0.ics', event('calendar-0', ['LOCATION:x']))}",
        rows,
    )
    measure(
        "snapshot of that account (first: parses every item)",
        lambda: f"{len(world.calendar.snapshot()['calendars'])} calendars",
        rows,
    )
    measure(
        "snapshot of that account again (both caches warm)",
        lambda: f"{len(json.dumps(world.calendar.snapshot())) / 2**20:.1f} MB of JSON",
        rows,
    )
    measure("checker read: events() of that account", lambda: f"{len(world.calendar.events())} events", rows)
    world.stop()

    # -- the costliest query: endless daily events from 1970 queried at the far end ----------------
    world = new_world(tmp / "recurring")
    agent = Agent(world)
    budget = limits.MAX_QUERY_OCCURRENCES // (366 * (limits.MAX_YEAR - 1970 + 1))  # endless daily events from 1970
    for i in range(budget):
        agent.send("PUT", f"{HOME}calendar/d{i}.ics", event(f"d{i}", ["RRULE:FREQ=DAILY"], start="19700101T100000Z"))
    query = (
        b'<?xml version="1.0"?><C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
        b'<D:prop><D:getetag/></D:prop><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">'
        b'<C:time-range start="20991201T000000Z" end="20991231T000000Z"/></C:comp-filter></C:comp-filter>'
        b"</C:filter></C:calendar-query>"
    )
    measure(
        f"REPORT at the occurrence budget ({budget} endless daily events from 1970, queried in 2099)",
        lambda: f"status {agent.send('REPORT', HOME + 'calendar/', query, {'Depth': '1'})}",
        rows,
    )
    agent.send("PUT", f"{HOME}calendar/over.ics", event("over", ["RRULE:FREQ=DAILY"], start="19700101T100000Z"))
    measure(
        "REPORT over the occurrence budget (refused before Radicale)",
        lambda: f"status {agent.send('REPORT', HOME + 'calendar/', query, {'Depth': '1'})}",
        rows,
    )
    never = event("never", ["RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"])
    measure(
        "refuse a rule that never occurs (dateutil would search to 9999)",
        lambda: f"status {agent.send('PUT', HOME + 'calendar/never.ics', never)}",
        rows,
    )

    # -- refusals ----------------------------------------------------------------------------------
    entities = '<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {name} "{f"&{previous};" * 10}">' for previous, name in zip("abcdefghi", "bcdefghij")
    )
    laughs = (
        f'<?xml version="1.0"?><!DOCTYPE l [{entities}]><D:propfind xmlns:D="DAV:"><D:prop>&j;</D:prop></D:propfind>'
    ).encode()
    measure("refuse a billion-laughs PROPFIND", lambda: f"status {agent.send('PROPFIND', HOME, laughs)}", rows)
    huge = b"x" * (16 * 2**20)
    measure("refuse a 16 MiB body", lambda: f"status {agent.send('PUT', HOME + 'calendar/huge.ics', huge)}", rows)
    world.stop()
    return rows


def main(argv: list[str] | None = None) -> int:
    return support.part_main(__doc__, run, argv)


if __name__ == "__main__":
    sys.exit(main())
