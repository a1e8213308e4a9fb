"""The Sheets server's worst cases an agent may legally cause, and what the harness pays to read them.

    python benchmarks/hostile_sheets.py [--json] [--only CASE ...]

Each case builds the largest input the limits allow (src/pytest_clawmark/servers/sheets/limits.py),
sends it through the agent plane (plain HTTP, as any client would) or fills a world to its storage
quota, and measures wall time and the peak resident-set growth of this process while it ran
(sampled every 10 ms). ``loop stall`` in the notes is the longest time the world's event loop did
not answer a 10 ms ticker while the case ran: what every other service of the world (and the admin
plane) waited. Formulas are compiled cold: each case uses formulas no earlier case compiled.

Part of ``benchmarks/hostile.py`` (which runs every server's part in its own interpreter).
"""

from __future__ import annotations

import argparse
import gc
import json
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import httpx
from benchmark_support import rss_mb

from pytest_clawmark.servers.sheets import limits
from pytest_clawmark.servers.sheets.calc import FORMULAS, warm_up
from pytest_clawmark.servers.sheets.complexity import formula_steps
from pytest_clawmark.world import Person, World

USER = Person("Bench User", "bench.user@clawmark.example")
CLOCK = datetime(2025, 4, 7, 9, 0, tzinfo=timezone.utc)
UE = {"valueInputOption": "USER_ENTERED"}


class Probe:
    """Peak RSS and the world loop's longest stall while a case runs."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.peak = self.base = rss_mb()
        self.stall = 0.0
        self._stop = threading.Event()

    def _sample(self) -> None:
        while not self._stop.wait(0.01):
            self.peak = max(self.peak, rss_mb())

    def _tick(self) -> None:
        loop = self.world._loop.loop  # type: ignore[union-attr]  # the world's own loop, on purpose
        while not self._stop.is_set():
            t0 = time.perf_counter()
            done = threading.Event()
            loop.call_soon_threadsafe(done.set)
            done.wait(60)
            self.stall = max(self.stall, time.perf_counter() - t0)
            time.sleep(0.01)

    @contextmanager
    def running(self) -> Iterator[None]:
        gc.collect()
        self.peak = self.base = rss_mb()
        threads = [threading.Thread(target=self._sample, daemon=True), threading.Thread(target=self._tick, daemon=True)]
        for t in threads:
            t.start()
        try:
            yield
        finally:
            self._stop.set()
            for t in threads:
                t.join(5)
            self.peak = max(self.peak, rss_mb())


class Bench:
    """One world (sheets only), an agent client, and the rows measured so far."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="clawmark-hostile-sheets-"))
        self.rows: list[dict[str, Any]] = []
        self.world = self.new_world()

    def new_world(self) -> World:
        world = World({"sheets"}, self.root / f"w{len(self.rows)}-{time.monotonic_ns()}", user=USER)
        world.clock = CLOCK
        world.start()
        env = world.agent_env()
        self.http = httpx.Client(base_url=env["CLAWMARK_SHEETS_URL"], trust_env=False, timeout=600,
                                 headers={"Authorization": f"Bearer {env['CLAWMARK_SHEETS_TOKEN']}"})  # fmt: skip
        return world

    def sheet(self, title: str, rows: int = 1000, cols: int = 26) -> str:
        body = {
            "properties": {"title": title},
            "sheets": [{"properties": {"title": "S", "gridProperties": {"rowCount": rows, "columnCount": cols}}}],
        }
        r = self.http.post("/v4/spreadsheets", json=body)
        r.raise_for_status()
        return r.json()["spreadsheetId"]

    def put(self, sid: str, rng: str, values: list[list[Any]], **params: str) -> httpx.Response:
        return self.http.put(f"/v4/spreadsheets/{sid}/values/{rng}", params={**UE, **params}, json={"values": values})

    def measure(self, case: str, fn: Callable[[], str]) -> None:
        probe = Probe(self.world)
        with probe.running():
            t0 = time.perf_counter()
            note = fn()
            seconds = time.perf_counter() - t0
        self.rows.append({
            "service": "sheets", "case": case, "seconds": round(seconds, 3),
            "rss_growth_mb": round(probe.peak - probe.base, 1), "note": f"{note}; loop stall {probe.stall * 1000:.0f} ms",
        })  # fmt: skip


def salt() -> int:
    return time.monotonic_ns() % 9973


# -- the cases ------------------------------------------------------------------------------------
def largest_formula(b: Bench) -> None:
    sid = b.sheet("largest formula")
    terms = (limits.MAX_FORMULA_TOKENS + 1) // 2
    formula = "=" + "+".join(f"A{i % 50 + 1}" for i in range(terms))

    def run() -> str:
        r = b.put(sid, "S!Z1", [[formula]], includeValuesInResponse="true")
        r.raise_for_status()
        return f"{terms} references, {len(formula)} chars; compiled and computed cold"

    b.measure("largest allowed formula", run)


def steps_budget(b: Bench) -> None:
    """Formulas at the complexity limit, written over several requests (one request may parse only
    so many), then recomputed all at once by a structure change: the step budget decides."""
    sid = b.sheet("steps budget")
    s = salt()
    largest = ["=" + "+".join(f"{s + i}" for _ in range((limits.MAX_FORMULA_TOKENS + 1) // 2)) for i in range(400)]
    n = limits.RECALC_STEPS // formula_steps(largest[0]) + 2
    rows = [[f] for f in largest[:n]]
    for start in range(0, n, 20):
        b.put(sid, f"S!A{start + 1}", rows[start : start + 20]).raise_for_status()
    insert = {"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 0, "endIndex": 1}}}

    FORMULAS.clear()  # the writes above compiled them: measure the recalculation cold

    def run() -> str:
        b.http.post(f"/v4/spreadsheets/{sid}:batchUpdate", json={"requests": [insert]}).raise_for_status()
        values = b.http.get(f"/v4/spreadsheets/{sid}/values/S!A1:A{n + 1}").json()["values"]
        limited = sum(1 for v in values if v and v[0] == "#ERROR!")
        return f"{n} formulas of {limits.MAX_FORMULA_TOKENS} tokens recomputed at once: {limited} hit the step budget"

    b.measure("recalculation at the step budget", run)


def running_balance(b: Bench) -> None:
    sid = b.sheet("running balance", rows=2001, cols=2)
    s = salt()
    rows = [[s, "=A1"]] + [[1, f"=B{r - 1}+A{r}"] for r in range(2, 2001)]

    def run() -> str:
        b.put(sid, "S!A1", rows).raise_for_status()
        return "2,000 formulas, each reading the one above (a legitimate sheet, for scale)"

    b.measure("2,000-row running balance", run)


def text_budget(b: Bench) -> None:
    sid = b.sheet("text budget")
    n = limits.RECALC_CHARS // limits.MAX_TEXT_RESULT_CHARS + 10

    def run() -> str:
        b.put(sid, "S!A1", [[f'=REPT("{i % 10}",{limits.MAX_TEXT_RESULT_CHARS})'] for i in range(n)]).raise_for_status()
        return f"{n} cells of REPT at {limits.MAX_TEXT_RESULT_CHARS} chars: {limits.RECALC_CHARS} chars, then #ERROR!"

    b.measure("text budget of one recalculation", run)


def cells_budget(b: Bench) -> None:
    sid = b.sheet("cells budget", rows=100_000, cols=3)
    b.http.post(
        f"/v4/spreadsheets/{sid}/values/S!A1:append", params=UE, json={"values": [[i, i] for i in range(50_000)]}
    ).raise_for_status()
    n = limits.RECALC_CELLS // 100_000 + 5

    def run() -> str:
        b.put(sid, "S!C1", [[f"=SUM(A1:B{50_000 + i})"] for i in range(n)]).raise_for_status()
        return f"{n} sums over 100,000 cells each ({limits.RECALC_CELLS} array cells per recalculation)"

    b.measure("array-cell budget of one recalculation", run)


def slowest_array_function(b: Bench) -> None:
    sid = b.sheet("slow function")

    def run() -> str:
        b.put(sid, "S!A1", [[f"=ROWS(WRAPCOLS(7,{limits.MAX_ARRAY_RESULT_CELLS}))"]]).raise_for_status()
        return f"WRAPCOLS building {limits.MAX_ARRAY_RESULT_CELLS} cells (about 10 µs a cell in the library)"

    b.measure("largest array a function may build", run)


def catastrophic_regex(b: Bench) -> None:
    sid = b.sheet("regex")

    def run() -> str:
        b.put(sid, "S!A1", [['=REGEXTEST(REPT("a",40)&"!","(a|aa)+$")']]).raise_for_status()
        return f"exponential backtracking, stopped by the {limits.REGEX_TIMEOUT_S:g} s match limit"

    b.measure("catastrophic regular expression", run)


def largest_body(b: Bench) -> None:
    sid = b.sheet("largest body", rows=300_000, cols=1)
    n = limits.MAX_BODY_BYTES // 7 - 100
    body = json.dumps({"values": [[1]] * n}).encode()

    def run() -> str:
        r = b.http.put(f"/v4/spreadsheets/{sid}/values/S!A1", params={"valueInputOption": "RAW"}, content=body)
        r.raise_for_status()
        return f"{len(body)} bytes, {n} cells written"

    b.measure("largest request body", run)


def request_work(b: Bench) -> None:
    sid = b.sheet("request work", rows=20_000, cols=2)
    b.http.post(
        f"/v4/spreadsheets/{sid}/values/S!A1:append", params=UE, json={"values": [[i, "x"] for i in range(10_000)]}
    ).raise_for_status()
    insert = {"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 0, "endIndex": 1}}}

    def run() -> str:
        r = b.http.post(f"/v4/spreadsheets/{sid}:batchUpdate", json={"requests": [insert] * limits.MAX_BATCH_REQUESTS})
        assert r.status_code == 400, r.text[:200]
        return f"{limits.MAX_BATCH_REQUESTS} row inserts over 20,000 cells, refused at {limits.MAX_REQUEST_WORK} work units"

    b.measure("one request at the work limit", run)


def full_world(b: Bench) -> None:
    """A world at its storage quota: every spreadsheet, every cell, every character it may hold."""
    world = b.world = b.new_world()
    per_sheet = limits.MAX_WORLD_CELLS // limits.MAX_SPREADSHEETS
    width = 10
    cell_chars = (limits.MAX_WORLD_CHARS - 2_000_000) // limits.MAX_WORLD_CELLS
    for k in range(limits.MAX_SPREADSHEETS):
        sid = b.sheet(f"full {k}", rows=per_sheet // width + 1, cols=width)
        text = f"{k:03d}" + "x" * (cell_chars - 3)
        rows = [[text] * width for _ in range(per_sheet // width)]
        if k < limits.MAX_SPREADSHEETS - 1:
            b.put(sid, "S!A1", rows, valueInputOption="RAW").raise_for_status()
        else:
            b.put(sid, "S!A1", rows[:-2], valueInputOption="RAW").raise_for_status()
    used = world.sheets.server.store.quota.total
    holder: dict[str, Any] = {}

    def snapshot() -> str:
        holder["snapshot"] = world.sheets.snapshot()
        size = len(json.dumps(holder["snapshot"]))
        return f"{used.cells} cells, {used.chars} chars in {limits.MAX_SPREADSHEETS} spreadsheets: {size / 1e6:.0f} MB of JSON"

    b.measure("snapshot of a world at its storage quota", snapshot)

    def restore() -> str:
        world.sheets.restore(holder.pop("snapshot"))
        return "the same world restored (every spreadsheet recomputed)"

    b.measure("restore of a world at its storage quota", restore)

    def read_all() -> str:
        n = 0
        for info in world.sheets.spreadsheets():
            n += len(world.sheets.values(info.title, "S"))
        return f"a checker reading every row of every spreadsheet ({n} rows)"

    b.measure("checker reads of a world at its storage quota", read_all)


def tall_sheet(b: Bench) -> None:
    world = b.world = b.new_world()
    body = {
        "properties": {"title": "tall"},
        "sheets": [{"properties": {"title": "S", "gridProperties": {"rowCount": limits.MAX_ROWS, "columnCount": 1}}}],
    }
    r = b.http.post("/v4/spreadsheets", json=body)
    r.raise_for_status()
    sid = r.json()["spreadsheetId"]
    b.put(sid, "S!A1", [["top"]]).raise_for_status()
    b.put(sid, f"S!A{limits.MAX_ROWS}", [["bottom"]]).raise_for_status()

    def run() -> str:
        rows = world.sheets.values("tall", "S!A:A")
        return f"two cells {limits.MAX_ROWS} rows apart: the answer has {len(rows)} rows (empty ones in between, as Google answers)"

    b.measure("checker read of a 10-million-row sheet", run)


CASES: dict[str, Callable[[Bench], None]] = {
    "largest_formula": largest_formula,
    "steps_budget": steps_budget,
    "running_balance": running_balance,
    "text_budget": text_budget,
    "cells_budget": cells_budget,
    "slowest_array_function": slowest_array_function,
    "catastrophic_regex": catastrophic_regex,
    "largest_body": largest_body,
    "request_work": request_work,
    "full_world": full_world,
    "tall_sheet": tall_sheet,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON list of rows (for benchmarks/hostile.py)")
    parser.add_argument("--only", nargs="+", choices=list(CASES), default=list(CASES))
    args = parser.parse_args(argv)
    warm_up()
    bench = Bench()
    for name in args.only:
        CASES[name](bench)
    if args.json:
        print(json.dumps(bench.rows))
    else:
        width = max(len(r["case"]) for r in bench.rows)
        for r in bench.rows:
            print(f"{r['case']:<{width}} {r['seconds']:>8.3f} s {r['rss_growth_mb']:>8.1f} MB  {r['note']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
