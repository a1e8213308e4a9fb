"""How do the services behave with a realistically full world (10 … 10,000 items)?

    python benchmarks/world_scale.py [--sizes 10 100 1000] [--big] [--repeat 5]

For each service and size N a fresh world is seeded through the admin plane (inside
``world.batched()``, as the harness runs a turn's setup), then measured:

* seed: N admin writes, total seconds — calendar: ``add_event`` (one-hour events, eight a day);
  mail: ``deliver`` (one mail each from a colleague); kb: ``create_database`` with N rows; sheets:
  ``create_spreadsheet`` with N rows of 6 columns;
* agent query: one typical agent request through the client agents use, median ms — calendar:
  one day's events over CalDAV (``agentplane.Calendar.events``); mail: imaplib LOGIN, SELECT,
  ``UID SEARCH SUBJECT``, ``UID FETCH BODY.PEEK[]`` of the hit, LOGOUT (a fresh connection), and
  the SELECT+SEARCH+FETCH alone on a logged-in connection;
  kb: notion-client ``data_sources.query`` with a title filter; sheets: gspread ``get_values`` of
  one row's range;
* checker reads, median ms: one item (calendar ``event(uid=)``, mail ``find(subject=)``, kb
  ``row()``, sheets ``value()``) and the whole collection (``events()``, ``inbox()``, ``rows()``);
* snapshot: the service's ``snapshot()``, median ms;
* RSS: this process's resident set after seeding (MiB).

``--big`` adds N = 10,000. Targets (issue "the world at realistic size", at 10,000 items):
seeding <= 5 s, agent query <= 30 ms, checker read <= 30 ms, snapshot <= 200 ms, growth at most
linear (each table is followed by the factor of every measure between consecutive sizes). Prints
markdown; no assertions.
"""

from __future__ import annotations

import argparse
import gc
import imaplib
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from benchmark_support import rss_mb

from pytest_clawmark.agentplane import Calendar as AgentCalendar
from pytest_clawmark.world import Person, World

USER = Person("Bench User", "bench.user@clawmark.example")
PEOPLE = [Person(f"Colleague {i}", f"colleague{i}@clawmark.example") for i in range(3)]
CLOCK = datetime(2025, 4, 7, 9, 0, tzinfo=timezone.utc)
UTC = timezone.utc


def timed(fn: Callable[[], Any], repeat: int) -> float:
    """Median wall time of ``fn`` over ``repeat`` runs, in ms."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


def make(root: Path, services: set[str]) -> World:
    world = World(services, root, user=USER, people=PEOPLE)
    world.clock = CLOCK
    return world.start()


def calendar(n: int, root: Path, repeat: int) -> dict[str, Any]:
    """N one-hour events spread over the year around the clock, eight a day."""
    world = make(root, {"calendar"})
    try:
        base = datetime(2025, 1, 6, 8, 0, tzinfo=UTC)
        t0 = time.perf_counter()
        uid = ""
        for i in range(n):
            start = base + timedelta(days=i // 8, hours=i % 8)
            ev = world.calendar.add_event(
                f"Meeting {i}", start, start + timedelta(hours=1), attendees=[PEOPLE[i % len(PEOPLE)]]
            )
            if i == n // 2:
                uid = ev.uid
        seed = time.perf_counter() - t0
        gc.collect()
        rss = rss_mb()
        agent = AgentCalendar(world.agent_env())
        day = base + timedelta(days=(n // 2) // 8)
        day = day.replace(hour=0)
        found = agent.events(day, day + timedelta(days=1))
        assert found, "the agent query found nothing"
        query = timed(lambda: agent.events(day, day + timedelta(days=1)), repeat)
        read_all = timed(world.calendar.events, repeat)
        read_one = timed(lambda: world.calendar.event(uid=uid), repeat)
        snap = timed(world.calendar.snapshot, repeat)
    finally:
        world.stop()
        world.discard()
    return {
        "seed (s)": f"{seed:.2f}",
        "agent query (ms)": f"{query:.1f}",
        "events() (ms)": f"{read_all:.1f}",
        "event(uid) (ms)": f"{read_one:.1f}",
        "snapshot (ms)": f"{snap:.1f}",
        "RSS (MiB)": f"{rss:.0f}",
    }


def mail(n: int, root: Path, repeat: int) -> dict[str, Any]:
    """N mails from colleagues in the user's INBOX; the agent looks one up by subject."""
    world = make(root, {"mail"})
    try:
        t0 = time.perf_counter()
        with world.batched():  # as the harness runs a turn's setup
            for i in range(n):
                world.mail.deliver(
                    PEOPLE[i % len(PEOPLE)], USER, f"Report {i}", f"Figures for week {i}: {i * 7} units.\n"
                )
        seed = time.perf_counter() - t0
        gc.collect()
        rss = rss_mb()
        env = world.agent_env()
        wanted = f"Report {n // 2}"

        def agent_query() -> None:
            with imaplib.IMAP4(env["CLAWMARK_IMAP_HOST"], int(env["CLAWMARK_IMAP_PORT"])) as imap:
                imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])
                imap.select("INBOX", readonly=True)
                _, data = imap.uid("SEARCH", None, "SUBJECT", f'"{wanted}"')
                uids = data[0].split()
                assert uids, "the agent query found nothing"
                imap.uid("FETCH", b",".join(uids), "(BODY.PEEK[])")

        agent_query()
        query = timed(agent_query, repeat)
        # the same commands on a connection already logged in (what an agent's session repeats)
        imap = imaplib.IMAP4(env["CLAWMARK_IMAP_HOST"], int(env["CLAWMARK_IMAP_PORT"]))
        imap.login(env["CLAWMARK_MAIL_USER"], env["CLAWMARK_MAIL_PASSWORD"])

        def select_search_fetch() -> None:
            imap.select("INBOX", readonly=True)
            _, data = imap.uid("SEARCH", None, "SUBJECT", f'"{wanted}"')
            imap.uid("FETCH", b",".join(data[0].split()), "(BODY.PEEK[])")

        select_search_fetch()
        in_session = timed(select_search_fetch, repeat)
        imap.logout()
        read_all = timed(world.mail.inbox, repeat)
        read_one = timed(lambda: world.mail.find(mailbox=USER, subject=wanted), repeat)
        snap = timed(world.mail.snapshot, repeat)
    finally:
        world.stop()
        world.discard()
    return {
        "seed (s)": f"{seed:.2f}",
        "agent query (ms)": f"{query:.1f}",
        "select+search+fetch (ms)": f"{in_session:.1f}",
        "inbox() (ms)": f"{read_all:.1f}",
        "find() (ms)": f"{read_one:.1f}",
        "snapshot (ms)": f"{snap:.1f}",
        "RSS (MiB)": f"{rss:.0f}",
    }


ORDER_SCHEMA = {"Order": "title", "Customer": "rich_text", "Amount": "number", "Status": {"select": ["open", "paid"]}}


def kb(n: int, root: Path, repeat: int) -> dict[str, Any]:
    """A database of N orders; the agent queries one by title with notion-client."""
    import notion_client

    world = make(root, {"kb"})
    try:
        rows = [
            {"Order": f"ORD-{i:05d}", "Customer": f"Customer {i % 97}", "Amount": i * 3, "Status": "open"}
            for i in range(n)
        ]
        t0 = time.perf_counter()
        with world.batched():
            world.kb.create_database("Orders", ORDER_SCHEMA, rows)
        seed = time.perf_counter() - t0
        gc.collect()
        rss = rss_mb()
        env = world.agent_env()
        notion = notion_client.Client(auth=env["CLAWMARK_NOTION_TOKEN"], base_url=env["CLAWMARK_NOTION_URL"])
        wanted = f"ORD-{n // 2:05d}"
        source = world.kb.database("Orders").data_source_id

        def agent_query() -> None:  # the current API: a database's rows live in its data source
            found = notion.data_sources.query(source, filter={"property": "Order", "title": {"equals": wanted}})[
                "results"
            ]
            assert len(found) == 1, found

        agent_query()
        query = timed(agent_query, repeat)
        read_one = timed(lambda: world.kb.row("Orders", wanted), repeat)
        read_all = timed(lambda: world.kb.rows("Orders"), repeat)
        snap = timed(world.kb.snapshot, repeat)
        notion.close()
    finally:
        world.stop()
        world.discard()
    return {
        "seed (s)": f"{seed:.2f}",
        "agent query (ms)": f"{query:.1f}",
        "row() (ms)": f"{read_one:.1f}",
        "rows() (ms)": f"{read_all:.1f}",
        "snapshot (ms)": f"{snap:.1f}",
        "RSS (MiB)": f"{rss:.0f}",
    }


def sheets(n: int, root: Path, repeat: int) -> dict[str, Any]:
    """A sheet of N order rows (6 columns); the agent reads one row's range with gspread."""
    from pytest_clawmark.servers.sheets.clients import gspread_client

    world = make(root, {"sheets"})
    try:
        grid = [["Order", "Customer", "Amount", "Status", "Due", "Note"]]
        grid += [[f"ORD-{i:05d}", f"Customer {i % 97}", i * 3, "open", "2025-05-01", ""] for i in range(n)]
        t0 = time.perf_counter()
        with world.batched():
            world.sheets.create_spreadsheet("Orders", {"Orders": grid})
        seed = time.perf_counter() - t0
        gc.collect()
        rss = rss_mb()
        env = world.agent_env()
        sheet = (
            gspread_client(env["CLAWMARK_SHEETS_URL"], env["CLAWMARK_SHEETS_TOKEN"]).open("Orders").worksheet("Orders")
        )
        row = n // 2 + 2

        def agent_query() -> None:
            got = sheet.get_values(f"A{row}:F{row}")
            assert got[0][0] == f"ORD-{n // 2:05d}", got

        agent_query()
        query = timed(agent_query, repeat)
        read_one = timed(lambda: world.sheets.value("Orders", f"Orders!C{row}"), repeat)
        read_all = timed(lambda: world.sheets.rows("Orders", "Orders"), repeat)
        snap = timed(world.sheets.snapshot, repeat)
    finally:
        world.stop()
        world.discard()
    return {
        "seed (s)": f"{seed:.2f}",
        "agent query (ms)": f"{query:.1f}",
        "value() (ms)": f"{read_one:.1f}",
        "rows() (ms)": f"{read_all:.1f}",
        "snapshot (ms)": f"{snap:.1f}",
        "RSS (MiB)": f"{rss:.0f}",
    }


SERVICES: dict[str, Callable[[int, Path, int], dict[str, Any]]] = {
    "calendar": calendar,
    "mail": mail,
    "kb": kb,
    "sheets": sheets,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=int, default=[10, 100, 1000])
    ap.add_argument("--big", action="store_true", help="also N = 10,000")
    ap.add_argument("--repeat", type=int, default=5, help="runs per read measure (median)")
    ap.add_argument("--services", nargs="+", default=list(SERVICES), choices=list(SERVICES))
    args = ap.parse_args()
    sizes = list(args.sizes) + ([10_000] if args.big and 10_000 not in args.sizes else [])
    base = Path(tempfile.mkdtemp(prefix="clawmark-scale-"))
    make(base / "warm", set(SERVICES)).discard()  # imports, first-use caches
    for service in args.services:
        rows = []
        for n in sizes:
            row = SERVICES[service](n, base / f"{service}-{n}", args.repeat)
            rows.append({"N": f"{n:,}", **row})
            print(f"  {service} N={n:,} done", flush=True, file=__import__("sys").stderr)
        cols = list(rows[0])
        print(f"\n### {service}\n")
        print("| " + " | ".join(cols) + " |")
        print("|" + "|".join("---:" for _ in cols) + "|")
        for row in rows:
            print("| " + " | ".join(str(row[c]) for c in cols) + " |")
        for before, after in zip(rows, rows[1:]):
            print(growth(service, before, after, cols))


def growth(service: str, before: dict[str, str], after: dict[str, str], cols: list[str]) -> str:
    """The curve between two sizes: each measure's factor for the factor in N (linear: equal)."""
    n0, n1 = (int(r["N"].replace(",", "")) for r in (before, after))
    parts = []
    for c in cols[1:]:
        if c.startswith("RSS"):
            continue
        a, b = float(before[c]), float(after[c])
        parts.append(f"{c.split(' (')[0]} ×{b / a:.1f}" if a > 0 else f"{c.split(' (')[0]} (from 0)")
    return f"\n{service}: N ×{n1 / n0:.0f} ({n0:,} → {n1:,}): " + ", ".join(parts)


if __name__ == "__main__":
    main()
