"""Tool calls so far (issue 12): the adapters' counters read the agent's own files while it works,
distrusting them — partial lines, floods, links and special files never break or fool a count."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

from pytest_clawmark.agents.live import SessionStoreCounter, TraceCounter, live_file, publishing, read_live

CALL = b'{"type": "tool_call", "name": "imap.fetch", "arguments": "INBOX"}\n'


def test_trace_counter_counts_whole_tool_call_lines_incrementally(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    count = TraceCounter(trace)
    assert count() == 0  # no file yet
    trace.write_bytes(CALL + b'{"type": "message", "text": "tool_call"}\n' + b"not json tool_call\n" + CALL[:20])
    assert count() == 1  # the message and the broken line are not calls; the half line waits
    with trace.open("ab") as fh:
        fh.write(CALL[20:] + b'{"type": "tool_call"}\n' + b'{"type": "tool_call", "name": ""}\n')
    assert count() == 2  # completed; a call needs a name


def test_trace_counter_ignores_links_and_special_files(tmp_path: Path) -> None:
    real = tmp_path / "elsewhere.jsonl"
    real.write_bytes(CALL * 5)
    link = tmp_path / "trace.jsonl"
    link.symlink_to(real)
    assert TraceCounter(link)() == 0
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    started = time.monotonic()
    assert TraceCounter(fifo)() == 0 and time.monotonic() - started < 5  # never blocks on a pipe


def test_trace_counter_reads_a_flood_in_bounded_steps(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    trace.write_bytes(CALL * 40_000)  # ~2.6 MB: more than one tick's read
    count = TraceCounter(trace)
    first = count()
    assert 0 < first < 40_000
    while count() < 40_000:
        pass
    assert count() == 40_000


def _store(path: Path, rows: list[tuple[str, int, str | None]]) -> None:
    path.parent.mkdir(parents=True)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE transcript_events (session_id TEXT, seq INTEGER, event_json TEXT, event_zstd BLOB)")
    db.executemany("INSERT INTO transcript_events (session_id, seq, event_json) VALUES (?, ?, ?)", rows)
    db.commit()
    db.close()


def _assistant(*blocks: str) -> str:
    return json.dumps({"type": "message", "message": {"role": "assistant", "content": [{"type": b} for b in blocks]}})


def test_session_store_counter_counts_this_sessions_tool_calls(tmp_path: Path) -> None:
    db = tmp_path / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    count = SessionStoreCounter(tmp_path, "s1")
    assert count() == 0  # no store yet
    _store(db, [
        ("s1", 0, json.dumps({"type": "session"})),
        ("s1", 1, _assistant("text", "toolCall", "toolCall")),
        ("s1", 2, json.dumps({"type": "message", "message": {"role": "toolResult", "content": [{"type": "toolCall"}]}})),
        ("s1", 3, "{broken toolCall"),
        ("s1", 4, None),  # stored compressed: not looked into
        ("other", 0, _assistant("toolCall")),
    ])  # fmt: skip
    assert count() == 2
    db_conn = sqlite3.connect(db)
    db_conn.execute(
        "INSERT INTO transcript_events (session_id, seq, event_json) VALUES ('s1', 5, ?)", (_assistant("toolCall"),)
    )
    db_conn.commit()
    db_conn.close()
    assert count() == 3  # only the new rows are read


def test_session_store_counter_survives_a_store_that_is_not_one(tmp_path: Path) -> None:
    db = tmp_path / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    db.parent.mkdir(parents=True)
    db.write_bytes(b"not a database" * 100)
    assert SessionStoreCounter(tmp_path, "s1")() == 0
    db.unlink()
    db.symlink_to(tmp_path / "elsewhere")
    assert SessionStoreCounter(tmp_path, "s1")() == 0


def test_publishing_writes_the_count_while_the_body_runs_and_at_its_end(tmp_path: Path) -> None:
    target = live_file(tmp_path, 2)
    values = iter([1, 1, 3])
    last = [0]

    def count() -> int:
        last[0] = next(values, last[0])
        return last[0]

    with publishing(target, count, tick=0.05):
        deadline = time.monotonic() + 10
        while read_live(target) != 3 and time.monotonic() < deadline:
            time.sleep(0.02)
    assert target.name == "day2.live.json" and read_live(target) == 3


def test_a_failing_counter_publishes_nothing_and_breaks_nothing(tmp_path: Path) -> None:
    target = live_file(tmp_path, 1)

    def count() -> int:
        raise RuntimeError("boom")

    with publishing(target, count, tick=0.01):
        time.sleep(0.05)
    assert not target.exists() and read_live(target) is None
    target.write_text('{"tool_calls": true}')
    assert read_live(target) is None
