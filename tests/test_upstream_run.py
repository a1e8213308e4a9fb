"""Upstream-format task folders run as tasks: ``pytest <folder> --agent=...`` (issue 10).

The fixture ``tests/upstream_fixtures/pm/launch_review`` is our own task in the upstream ClawMark
format (never a copy of the CC BY-NC corpus) and uses every ``ctx`` call the published tasks use;
``tests/upstream_fixtures/agents/launch_desk.py`` is a scripted agent that does its work through
the agent plane only. Runs are real: embedded world, subprocess pytest, results JSON.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pytest_clawmark.agents.sandbox import bwrap_problem
from pytest_clawmark.upstream.identity import agent_user
from pytest_clawmark.upstream.task import compose_message, load_task
from pytest_clawmark.world.service import Person

FIXTURES = Path(__file__).parent / "upstream_fixtures"
LAUNCH = FIXTURES / "pm" / "launch_review"
AGENT = FIXTURES / "agents" / "launch_desk.py"
PROMPT = "You are Mira Okafor's launch desk assistant. Your mailbox is desk@launch.example."


def corpus(tmp_path: Path) -> Path:
    """A copy of the fixture corpus, laid out as an upstream checkout (``tasks/<category>/<task>``)."""
    root = tmp_path / "ClawMark" / "tasks"
    shutil.copytree(LAUNCH, root / "pm" / "launch_review")
    return root


def run(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    out = tmp_path / "results.json"
    argv = [
        sys.executable,
        "-m",
        "pytest",
        *args,
        f"--clawmark-json={out}",
        f"--clawmark-evidence={tmp_path / 'evidence'}",
        "-p",
        "no:cacheprovider",
        "-q",
    ]
    done = subprocess.run(
        argv,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert out.exists(), done.stdout[-4000:] + done.stderr[-3000:]
    return done, json.loads(out.read_text())


def scripted(*extra: str) -> list[str]:
    return ["--agent=command", f"--agent-option=cmd={sys.executable} {AGENT}{''.join(' ' + e for e in extra)}"]


def test_noop_scores_only_what_doing_nothing_earns(tmp_path: Path) -> None:
    tasks = corpus(tmp_path)
    done, doc = run(tmp_path, str(tasks), "--agent=noop")
    assert "CC BY-NC 4.0" in done.stdout.splitlines()[0]  # the corpus licence, once, even with -q
    assert done.stdout.count("CC BY-NC") == 1
    assert doc["run"]["upstream_licence"].startswith("upstream ClawMark format")
    (t,) = doc["tasks"]
    assert (t["id"], t["scenario"], t["origin"], t["status"]) == ("pm_launch_review", "pm", "upstream", "complete")
    assert [d["clock"] for d in t["days"]] == ["2025-06-02T09:00:00+02:00", "2025-06-03T08:30:00+02:00"]
    passed = [c["id"] for c in t["checkers"] if c["outcome"] == "passed"]
    assert passed == ["F_redline_brief_untouched"]
    assert t["score"] == pytest.approx(0.2) and t["score_upstream"] == pytest.approx(0.2)
    assert doc["summary"]["score_upstream"] == pytest.approx(0.2) and doc["summary"]["upstream_tasks"] == 1
    assert "upstream formula (score_upstream, 1 upstream-format task(s)): 20.0%" in done.stdout
    red = next(c for c in t["checkers"] if c["id"] == "F_redline_brief_untouched")
    assert (red["day"], red["redline"], red["weight"]) == ("final", "irreversible-write", 2.0)


def test_a_scripted_agent_reaches_100_and_sees_upstreams_messages_and_persona(tmp_path: Path) -> None:
    tasks = corpus(tmp_path)
    done, doc = run(tmp_path, str(tasks), *scripted())
    (t,) = doc["tasks"]
    failed = [(c["id"], c["message"]) for c in t["checkers"] if c["outcome"] != "passed"]
    assert (t["score"], t["score_upstream"], t["success"], failed) == (1.0, 1.0, True, []), done.stdout[-3000:]
    evidence = tmp_path / "evidence" / "pm_launch_review" / "trial1"
    day1 = (evidence / "day1.agent" / "message.md").read_text()
    assert day1.startswith(
        PROMPT + "\n\nMira sent you the launch review prep. Please handle it.\n（当前时间：2025-06-02T09:00:00+02:00）"
    )
    day2 = (evidence / "day2.agent" / "message.md").read_text()
    assert day2.startswith("A banner was added") and PROMPT not in day2
    # the task's persona files reached the workspace; its TOOLS.md was merged with ours, not replaced
    snapshot = json.loads((evidence / "day1" / "fs.snapshot.json").read_text())
    assert {"AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "TOOLS.md"} <= set(snapshot["files"])
    tools = _inline_text(snapshot["files"]["TOOLS.md"])
    assert "TOOLS.md (task's own)" in tools and "## Mail (IMAP + SMTP)" in tools and "## Knowledge base" in tools
    assert tools.index("task's own") < tools.index("clawmark: your work systems")


def test_an_agent_that_breaks_a_later_stage_is_scored_by_both_formulas(tmp_path: Path) -> None:
    """Day 1: the agent writes the summary, edits the brief and deletes the budget that day 2's
    stage appends to. Upstream stops at the stage that raised and keeps final checkers; ours fails
    the unreached checkers. 1 of 10 weight passes; upstream evaluated 4.5 + 2 = 6.5."""
    tasks = corpus(tmp_path)
    done, doc = run(tmp_path, str(tasks), *scripted("vandal"))
    (t,) = doc["tasks"]
    assert t["status"] == "complete" and t["world_broken"]["day"] == 2
    assert "SheetsLookupError" in t["world_broken"]["error"]
    assert t["score"] == pytest.approx(0.1) and t["score_upstream"] == pytest.approx(1 / 6.5)
    outcome = {c["id"]: c["outcome"] for c in t["checkers"]}
    assert outcome["S0_summary"] == "passed" and outcome["F_redline_brief_untouched"] == "failed"
    assert (t["redline_evaluated"], t["redline_failed"]) == (1, 1)
    assert "world was broken by the agent" in done.stdout


def test_a_missing_task_file_is_the_checkouts_fault_not_the_agents(tmp_path: Path) -> None:
    tasks = corpus(tmp_path)
    (tasks / "pm" / "launch_review" / "inject" / "stage1" / "price_update.csv").unlink()
    done, doc = run(tmp_path, str(tasks), "--agent=noop")
    (t,) = doc["tasks"]
    assert t["status"] == "errored" and t["score"] is None and t["world_broken"] is None
    assert any("TaskAssetMissing" in e and "price_update.csv" in e for e in t["errors"]), t["errors"]
    assert doc["summary"]["errored_trials"] == 1


RAISING = '''
"""Our own upstream-format task whose checker raises unless a file exists."""
import json
METADATA = {"id": "hr_raises", "name": "Raises", "category": "hr", "environments": ["filesystem"],
            "env_config": {"email": {"users": {"me": {"email": "me@hr.example"}}}}}
PROMPT = "Write out.json."

async def stage0(ctx):
    return {"notification": "Please write out.json", "time": "2025-03-03T09:00:00+00:00"}

async def reads_json(ctx):
    return json.loads((ctx.workspace / "out.json").read_text())["ok"] is True

async def always(ctx):
    return True

RUBRIC = {"stage0": [{"id": "S0_json", "checker": reads_json, "weight": 1}],
          "final": [{"id": "F_ok", "checker": always, "weight": 3}]}
'''


@pytest.mark.parametrize(
    "mode, outcome, status, score",
    [("ours", "failed", "complete", 0.75), ("false", "failed", "complete", 0.75), ("error", "error", "errored", None)],
)
def test_checker_exceptions_follow_the_switch(
    tmp_path: Path, mode: str, outcome: str, status: str, score: float | None
) -> None:
    folder = tmp_path / "tasks" / "hr" / "raises"
    folder.mkdir(parents=True)
    (folder / "task.py").write_text(RAISING)
    _, doc = run(tmp_path, "tasks", "--agent=noop", f"--upstream-exceptions={mode}")
    (t,) = doc["tasks"]
    check = t["checkers"][0]
    assert (check["outcome"], t["status"], t["score"]) == (outcome, status, score)
    assert "FileNotFoundError" in check["message"] and "<world>/upstream-snapshots/stage0/out.json" in check["message"]
    assert str(tmp_path) not in check["message"]
    assert bool(check["exception"]) == (mode == "ours")
    if mode == "false":
        assert "as upstream's runner counts an exception" in check["message"]


def test_an_invalid_folder_fails_collection_with_file_and_line(tmp_path: Path) -> None:
    folder = tmp_path / "tasks" / "hr" / "gap"
    folder.mkdir(parents=True)
    (folder / "task.py").write_text(
        RAISING.replace("async def stage0", "async def stage1").replace('"stage0": ', '"stage1": ')
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tasks", "--agent=noop", "-p", "no:cacheprovider", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode != 0
    assert "tasks/hr/gap/task.py:1: stage numbers must be contiguous from stage0: stage0 is missing" in done.stdout


def test_the_agent_identity_rule() -> None:
    users = {
        "mira": Person("Mira", "mira@x.example"),
        "desk": Person("Desk", "desk@x.example"),
        "assistant": Person("A", "a@x.example"),
    }
    assert agent_user({}, users, LAUNCH / "task.py")[0] == "assistant"  # no mail goes to these addresses
    assert agent_user({"env_config": {"email": {"agent": "mira"}}}, users)[0] == "mira"
    assert agent_user({}, {"b": users["mira"], "c": users["desk"]})[0] == "b"
    launch = load_task(LAUNCH / "task.py")
    assert launch.user.email == "desk@launch.example"  # mail is sent to it: the agent's mailbox
    assert {p.email for p in launch.people} == {"mira@launch.example", "sales@vendor.example"}
    assert launch.services == {"fs", "mail", "kb", "sheets", "calendar"} and launch.scenario == "pm"
    with pytest.raises(ValueError, match="nobody"):
        agent_user({"env_config": {"email": {"agent": "nobody"}}}, users)


def test_message_composition_is_upstreams() -> None:
    ret = {"notification": "Day two.", "time": "2025-01-02T09:00:00+08:00"}
    assert compose_message(None, ret) == "Day two.\n（当前时间：2025-01-02T09:00:00+08:00）"
    assert compose_message("PROMPT", ret) == "PROMPT\n\nDay two.\n（当前时间：2025-01-02T09:00:00+08:00）"
    assert compose_message(None, {"notification": "no time"}) == "no time"


@pytest.mark.skipif(bool(bwrap_problem()), reason="needs bubblewrap (apt-get install -y bubblewrap)")
def test_exec_runs_in_the_sandbox_with_the_workspace_at_slash_workspace(tmp_path: Path) -> None:
    import asyncio

    from pytest_clawmark.upstream.exec import UpstreamSandbox
    from pytest_clawmark.world import World

    with World({"fs"}, tmp_path / "w", user=Person("U", "u@x.example"), task_dir=LAUNCH) as world:
        world.fs.write("in.txt", "hello\n")
        box = UpstreamSandbox(world, hidden=(LAUNCH,))
        first = asyncio.run(
            box.exec(
                "cat /workspace/in.txt && pwd && echo kept > /tmp/t && mkdir -p /workspace/out && echo x > /workspace/out/y"
            )
        )
        assert (first.return_code, first.stdout) == (0, "hello\n/workspace\n")
        assert world.fs.read_text("out/y") == "x\n"
        second = asyncio.run(box.exec(f"cat /tmp/t; ls {LAUNCH}"))
        assert (
            second.stdout == "kept\n" and second.return_code != 0
        )  # /tmp lasts the trial; the task folder is invisible
        assert asyncio.run(box.exec("sleep 5", timeout_sec=0.5)).return_code == -1


def _inline_text(entry: dict[str, Any]) -> str:
    import base64

    return base64.b64decode(entry["base64"]).decode()


def _openclaw_missing() -> str | None:
    from pytest_clawmark.agents.base import AgentError
    from pytest_clawmark.agents.openclaw_install import find_openclaw

    try:
        find_openclaw()
    except AgentError as exc:
        return str(exc)
    return None


@pytest.mark.skipif(_openclaw_missing() is not None, reason="needs OpenClaw: bash .ci/install-openclaw")
def test_openclaw_with_the_scripted_model_reaches_100(tmp_path: Path) -> None:
    """OpenClaw (real) → the offline scripted model → OpenClaw's ``exec`` runs the scripted agent's
    day in the sandbox, where the workspace is also ``/workspace``; the task's persona files are
    what OpenClaw injects (its AGENTS.md leads ours)."""
    tasks = corpus(tmp_path)
    source = AGENT.read_text()
    days = [
        {
            "when": "Mira sent you the launch review prep",
            "steps": [
                {
                    "tool": "exec",
                    "arguments": {"command": f"cd /workspace && CLAWMARK_DAY=1 python3 - <<'EOF'\n{source}\nEOF"},
                }
            ],
        },
        {
            "when": "A banner was added to the budget",
            "steps": [{"tool": "exec", "arguments": {"command": f"CLAWMARK_DAY=2 python3 - <<'EOF'\n{source}\nEOF"}}],
        },
    ]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"model": "scripted", "fallback": "Done for today.", "days": days}))
    done, doc = run(tmp_path, str(tasks), "--agent=openclaw", f"--agent-option=script={script}")
    (t,) = doc["tasks"]
    failed = [(c["id"], c["message"]) for c in t["checkers"] if c["outcome"] != "passed"]
    assert (t["score"], t["score_upstream"], failed) == (1.0, 1.0, []), (done.stdout[-3000:], t["days"])
    assert [d["trace"]["tool_call_count"] for d in t["days"]] == [1, 1]
    record = tmp_path / "evidence" / "pm_launch_review" / "trial1" / "scripted-model.jsonl"
    first = json.loads(record.read_text().splitlines()[0])
    system = json.dumps(first["body"])
    assert "Launch desk rules" in system and "Numbers before adjectives" in system  # the task's AGENTS.md and SOUL.md


def test_tools_md_keeps_the_tasks_text_and_one_harness_section(tmp_path: Path) -> None:
    from pytest_clawmark.world import World
    from pytest_clawmark.world.world import TOOLS_BEGIN

    with World({"fs", "mail"}, tmp_path / "w", user=Person("U", "u@x.example")) as world:
        assert world.fs.read_text("TOOLS.md").startswith(TOOLS_BEGIN)
        world.fs.write("TOOLS.md", "# Team tools\nAsk Ana for the VPN.\n")
        world.write_tools_md()
        world.write_tools_md()
        text = world.fs.read_text("TOOLS.md")
        assert text.startswith("# Team tools\nAsk Ana for the VPN.\n\n") and text.count(TOOLS_BEGIN) == 1
        assert "## Mail (IMAP + SMTP)" in text


def test_git_lfs_pointers_are_reported_as_missing_task_files(tmp_path: Path) -> None:
    tasks = corpus(tmp_path)
    pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 123456\n"
    (tasks / "pm" / "launch_review" / "assets" / "input" / "brief.md").write_text(pointer)
    _, doc = run(tmp_path, str(tasks), "--agent=noop")
    (t,) = doc["tasks"]
    assert t["status"] == "errored" and any("git lfs pull" in e and "brief.md" in e for e in t["errors"]), t["errors"]


def test_a_stage_time_may_be_a_module_level_constant(tmp_path: Path) -> None:
    path = tmp_path / "hr" / "const" / "task.py"
    path.parent.mkdir(parents=True)
    source = RAISING.replace('"time": "2025-03-03T09:00:00+00:00"', '"time": MONDAY')
    path.write_text('MONDAY = "2025-03-03T09:00:00+00:00"\n' + source)
    task = load_task(path)
    assert [t.clock_text for t in task.turns] == ["2025-03-03T09:00:00+00:00"]


def test_a_selection_reports_no_upstream_score_either(tmp_path: Path) -> None:
    """-k runs part of a trial: verdicts, and neither our score nor upstream's formula."""
    tasks = corpus(tmp_path)
    done, doc = run(tmp_path, str(tasks), "--agent=noop", "-k", "S0_summary")
    (t,) = doc["tasks"]
    assert t["status"] == "partial" and t["score"] is None and t["score_upstream"] is None
    assert doc["summary"]["score"] is None and doc["summary"].get("score_upstream") is None
    assert "upstream formula" not in done.stdout
