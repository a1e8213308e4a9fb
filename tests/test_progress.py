"""Live progress lines (issue 12): a slow agent's days show as they start, run and end, with
and without xdist, in a pseudo-terminal and under ``-q``; finished trials show their scores."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import time
from pathlib import Path

from pytest_clawmark.report.progress import LiveProgress, day_label, trial_line

SLOW_TASK = """
from pytest_clawmark import Task

task = Task(scenario="hr", role="assistant", services={"fs"}, user=("Ada Admin", "ada@corp.example"))

@task.turn("2025-04-07 09:00 +00:00")
def monday(world):
    return "Write 42 to out/answer.txt"

@task.turn("2025-04-08 09:00 +00:00")
def tuesday(world):
    return "Nothing new today"

@task.checker(day=1)
def answered(world):
    assert world.fs.read_text("out/answer.txt").strip() == "42", "no answer"
"""

AGENT = (
    "import os, time; t = open(os.environ['CLAWMARK_TRACE_FILE'], 'a'); "
    '[t.write(\'{\\"type\\": \\"tool_call\\", \\"name\\": \\"fs.write\\"}\\n\') for _ in range(2)]; t.flush(); '
    "time.sleep(3.5); os.makedirs('out', exist_ok=True); open('out/answer.txt', 'w').write('42')"
)
"""Reports two tool calls in its trace, then works a while: the heartbeat shows the calls so far."""


def run_in_pty(args: list[str], cwd: Path, timeout: float = 300) -> str:
    """Run pytest with its output on a pseudo-terminal (as a user's terminal), return the text."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pytest", *args],
        cwd=cwd,
        stdout=slave,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "COLUMNS": "120"},
    )
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
        assert time.monotonic() < deadline, b"".join(chunks).decode(errors="replace")[-3000:]
    proc.wait(timeout=30)
    os.close(master)
    return b"".join(chunks).decode("utf-8", errors="replace").replace("\r\n", "\n")


def test_a_slow_agent_shows_live_progress_under_xdist(tmp_path: Path) -> None:
    task = tmp_path / "tasks" / "hr" / "task_slow.py"
    task.parent.mkdir(parents=True)
    task.write_text(SLOW_TASK)
    out = run_in_pty(
        [
            "tasks",
            "--agent=command",
            f'--agent-option=cmd={sys.executable} -c "{AGENT}"',
            "-n",
            "2",
            "--clawmark-trials",
            "2",
            "--clawmark-heartbeat",
            "1",
            "-q",
            "-p",
            "no:cacheprovider",
        ],
        tmp_path,
    )
    lines = out.splitlines()
    evidence = tmp_path / ".clawmark" / "runs"
    latest = evidence / "latest"
    assert latest.is_symlink() and (evidence / os.readlink(latest)).is_dir()
    assert lines.count(f"clawmark evidence: {latest.resolve()}") == 2, out  # named at the start and at the end
    for trial in (1, 2):
        for day in (1, 2):
            assert f"clawmark ▶ hr/task_slow trial{trial} day {day}: agent at work" in lines, out
            assert any(
                line.startswith(f"clawmark ■ hr/task_slow trial{trial} day {day}: ok in ")
                and line.endswith(", 2 tool calls")
                for line in lines
            ), out
        assert f"clawmark ✓ hr/slow trial{trial}: score 100.0%, success" in lines, out
    working = [line for line in lines if line.startswith("clawmark … working: hr/task_slow trial")]
    assert working and all("day " in w and ("s)" in w or "s, 2 tool calls)" in w) for w in working), out
    assert any(", 2 tool calls)" in w for w in working), out  # the calls so far, while the day runs
    assert (
        out.index("trial1 day 1: agent at work")
        < out.index("trial1 day 1: ok in")
        < out.index("clawmark ✓ hr/slow trial1")
    )


def test_progress_can_be_turned_off(tmp_path: Path) -> None:
    task = tmp_path / "tasks" / "hr" / "task_slow.py"
    task.parent.mkdir(parents=True)
    task.write_text(SLOW_TASK.replace("time.sleep(2.5)", ""))
    out = run_in_pty(["tasks", "--agent=noop", "--clawmark-progress=off", "-p", "no:cacheprovider"], tmp_path)
    assert "clawmark ▶" not in out and "clawmark ✓" not in out and "clawmark evidence:" in out


def test_labels_and_trial_lines() -> None:
    assert day_label("tasks/hr/task_leave.py::trial1::day2::turn") == "hr/task_leave trial1 day 2"
    assert day_label("ClawMark/tasks/hr/task3/task.py::trial2::day1::turn") == "hr/task3 trial2 day 1"
    record = {
        "id": "hr_task3",
        "trial": 1,
        "status": "complete",
        "score": 0.5,
        "score_upstream": 0.625,
        "success": False,
        "redline_evaluated": 2,
        "redline_failed": 1,
        "world_broken": {"day": 2},
    }
    assert (
        trial_line(record)
        == "hr_task3 trial1: score 50.0%, upstream formula 62.5%, not all checkers passed, red-lines crossed 1/2, world broken on day 2"
    )
    assert (
        trial_line({"id": "x", "trial": 1, "status": "errored", "errors": ["day 1 setup: boom"]})
        == "x trial1: errored: day 1 setup: boom"
    )


def test_journal_lines_are_read_once_and_only_whole(tmp_path: Path) -> None:
    seen: list[str] = []
    progress = LiveProgress(seen.append, tmp_path, heartbeat=0)
    journal = tmp_path / "journal.jsonl"
    whole = '{"journal": 1, "record": {"id": "a", "trial": 1, "status": "complete", "score": 1.0, "success": true}}\n'
    journal.write_text(whole + whole[:20])
    progress.poll_journal()
    progress.poll_journal()
    assert seen == ["clawmark ✓ a trial1: score 100.0%, success"]
    with journal.open("a") as fh:
        fh.write(whole[20:])
    progress.poll_journal()
    assert len(seen) == 2


CHATTY = "import os, sys, time\nfor i in range(3):\n    print(f'thinking {i}', flush=True); time.sleep(0.6)\nprint('oops', file=sys.stderr, flush=True)\nos.makedirs('out', exist_ok=True); open('out/answer.txt', 'w').write('42')\n"


def test_the_agents_output_streams_live_prefixed_by_task_and_day(tmp_path: Path) -> None:
    task = tmp_path / "tasks" / "hr" / "task_slow.py"
    task.parent.mkdir(parents=True)
    task.write_text(SLOW_TASK)
    agent = tmp_path / "chatty.py"
    agent.write_text(CHATTY)
    out = run_in_pty(
        [
            "tasks",
            "--agent=command",
            f"--agent-option=cmd={sys.executable} {agent}",
            "-n",
            "2",
            "--clawmark-stream",
            "--clawmark-heartbeat",
            "0",
            "-q",
            "-p",
            "no:cacheprovider",
        ],
        tmp_path,
    )
    lines = out.splitlines()
    for day in (1, 2):
        shown = [line for line in lines if line.startswith(f"  [hr/task_slow trial1 day {day} std")]
        assert shown == [f"  [hr/task_slow trial1 day {day} stdout] thinking {i}" for i in range(3)] + [
            f"  [hr/task_slow trial1 day {day} stderr] oops"
        ], out
    # live: the first line shows before the day ends
    assert out.index("[hr/task_slow trial1 day 1 stdout] thinking 0") < out.index(
        "clawmark ■ hr/task_slow trial1 day 1"
    )
