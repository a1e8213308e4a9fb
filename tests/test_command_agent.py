"""The command agent's trace lines and the example agent of docs/examples, end to end.

The example agent reads real mail over the world's real IMAP server (inside the sandbox when
bwrap works here) and files it into the workspace; the checkers and the results JSON show it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import REPO, make_task, read_json
from pytest_clawmark.agents.base import FAILED, INFRA_ERROR, OK, AgentError, AgentSession, TurnTrace
from pytest_clawmark.agents.command import CommandAgent
from pytest_clawmark.agents.openclaw import OpenClawAgent
from pytest_clawmark.agents.openclaw_install import install_hint
from pytest_clawmark.agents.sandbox import BWRAP, NONE, Isolation, Sandbox, bwrap_problem
from pytest_clawmark.agents.tracefile import MAX_REASONS, parse_trace, read_trace
from pytest_clawmark.world.service import Person

EXAMPLE = REPO / "docs" / "examples" / "imap_agent.py"

MAIL_TASK = """
import csv, io, json
from pytest_clawmark import Task

task = Task(scenario="executive_assistant", role="assistant", services={"fs", "mail"},
            user=("Ada Admin", "ada@corp.example"), people=[("Bo Boss", "bo@corp.example")])
RECEIPT = bytes(range(256)) * 4

@task.turn("2025-04-07 09:00 +00:00")
def monday(world):
    world.mail.deliver("bo@corp.example", "ada@corp.example", "Q2 budget", "Please review the Q2 budget.")
    world.mail.deliver("Vendor <billing@vendor.example>", "ada@corp.example", "Invoice 77", "Attached.",
                       attachments=[("invoice-77.bin", RECEIPT)])
    return "File today's mail into mail/inbox.csv."

@task.turn("2025-04-08 09:00 +00:00")
def tuesday(world):
    world.mail.deliver("bo@corp.example", "ada@corp.example", "Offsite agenda", "Agenda inside.")
    return "File today's new mail too."

def rows(world):
    return list(csv.DictReader(io.StringIO(world.fs.read_text("mail/inbox.csv"))))

@task.checker(day=1, weight=2)
def monday_filed(world):
    assert [r["subject"] for r in rows(world)] == ["Q2 budget", "Invoice 77"], rows(world)
    assert "bo@corp.example" in rows(world)[0]["from"]

@task.checker(day=1, weight=1)
def attachment_saved(world):
    (uid,) = [r["uid"] for r in rows(world) if r["attachments"]]
    assert world.fs.read_bytes(f"mail/attachments/{uid}/invoice-77.bin") == RECEIPT

@task.checker(day=1, weight=1)
def mail_left_unread(world):
    assert all("\\\\Seen" not in m.flags for m in world.mail.inbox()), [m.flags for m in world.mail.inbox()]

@task.checker(day=2, weight=2)
def tuesday_only_new_mail(world):
    assert [r["subject"] for r in rows(world)] == ["Q2 budget", "Invoice 77", "Offsite agenda"]
    day2 = world.fs.read_json("mail/day2.json")
    assert [m["subject"] for m in day2["messages"]] == ["Offsite agenda"]
    assert day2["instructions"] == "File today's new mail too."
"""


def test_example_imap_agent_files_the_mail_and_reports_its_trace(pytester: pytest.Pytester) -> None:
    make_task(pytester, "task_mailroom", MAIL_TASK)
    result = pytester.runpytest(
        "--agent=command", f"--agent-option=cmd={sys.executable} {EXAMPLE}", "--clawmark-json=out.json", "-rf"
    )
    result.assert_outcomes(passed=6)
    doc = read_json(pytester.path / "out.json")
    (t,) = doc["tasks"]
    assert t["score"] == 1.0 and t["success"] is True
    day1, day2 = (d["trace"] for d in t["days"])
    assert [c["name"] for c in day1["tool_calls"]] == [
        "imap.login",
        "imap.select",
        "imap.search",
        "imap.fetch",
        "imap.fetch",
        "imap.logout",
        "fs.write",
    ]
    assert all(c["status"] == "ok" for c in day1["tool_calls"]) and day1["tool_call_count"] == 7
    assert (
        day1["tool_calls"][-1]["arguments"] == '{"paths":["mail/inbox.csv","mail/day1.json"]}'
    )  # JSON arguments, compacted
    assert day1["messages"] == ["Filed 2 new message(s) into mail/inbox.csv."]
    assert day2["messages"] == ["Filed 1 new message(s) into mail/inbox.csv."]
    assert day1["extra"]["trace_lines"] == 8 and day1["extra"]["trace_malformed"] == 0
    assert Path(day1["transcript"]).name == "trace.jsonl" and Path(day1["transcript"]).is_file()  # kept as evidence
    assert day1["extra"]["isolation"] == t["isolation"] == doc["run"]["isolation"]
    assert [c["name"] for c in day2["tool_calls"]] == [
        "imap.login",
        "imap.select",
        "imap.search",
        "imap.fetch",
        "imap.logout",
        "fs.write",
    ]
    assert doc["summary"]["efficiency"]["mean_tool_calls"] == 7 + 6


def test_trace_lines_are_summed_and_bad_lines_counted_never_fatal(pytester: pytest.Pytester, basic_task: Path) -> None:
    agent = pytester.makefile(
        ".py",
        tracer=r"""
import json, os
os.makedirs("out", exist_ok=True)
open("out/answer.txt", "w").write(str(int(open("inbox/number.txt").read()) + 1))
with open(os.environ["CLAWMARK_TRACE_FILE"], "a") as fh:
    for line in [
        {"type": "tokens", "input": 100, "output": 7, "cache_read": 90},
        {"type": "tool_call", "name": "shell", "arguments": {"cmd": "cat inbox/number.txt"}, "status": "ok"},
        {"type": "tokens", "input": 50, "output": 3, "cache_write": 5},
        {"type": "message", "text": "done"},
        {"type": "thinking", "text": "an unknown type is ignored, not an error"},
        {"type": "tokens", "input": -1},
        {"type": "tool_call", "arguments": "no name"},
        ["not", "an", "object"],
    ]:
        fh.write(json.dumps(line) + "\n")
    fh.write("{not json\n\n")
""",
    )
    pytester.runpytest("--agent=command", f"--agent-option=cmd={sys.executable} {agent}", "--clawmark-json=out.json")
    t = read_json(pytester.path / "out.json")["tasks"][0]
    assert [d["status"] for d in t["days"]] == ["ok", "ok"] and t["score"] == 1.0
    trace = t["days"][0]["trace"]
    assert trace["tokens"] == {"input": 150, "output": 10, "cache_read": 90, "cache_write": 5}
    assert [(c["name"], c["arguments"], c["status"]) for c in trace["tool_calls"]] == [
        ("shell", '{"cmd":"cat inbox/number.txt"}', "ok")
    ]
    assert trace["messages"] == ["done"]
    extra = trace["extra"]
    assert (extra["trace_lines"], extra["trace_malformed"], extra["trace_ignored"]) == (9, 4, 1)
    assert extra["trace_errors"] == [
        "line 6: tokens.input is not a non-negative integer",
        "line 7: tool_call without a string name",
        "line 8: a JSON list, not an object",
        "line 9: not JSON",
    ]


def test_no_trace_file_means_no_trace_fields(pytester: pytest.Pytester, basic_task: Path) -> None:
    agent = pytester.makefile(".py", quiet="print('hello')\n")
    pytester.runpytest("--agent=command", f"--agent-option=cmd={sys.executable} {agent}", "--clawmark-json=out.json")
    trace = read_json(pytester.path / "out.json")["tasks"][0]["days"][0]["trace"]
    assert trace["tool_calls"] == [] and trace["tokens"] == {} and trace["transcript"] == ""
    assert "trace_lines" not in trace["extra"] and trace["extra"]["stdout_tail"] == "hello\n"


def test_trace_reader_distrusts_the_file(tmp_path: Path) -> None:
    secret = tmp_path / "secret.jsonl"
    secret.write_text(json.dumps({"type": "message", "text": "harness-only"}) + "\n")
    link = tmp_path / "trace.jsonl"
    link.symlink_to(secret)
    parsed = read_trace(link)  # an agent-planted symlink is not followed
    assert parsed is not None and parsed.messages == [] and parsed.malformed == 1
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    parsed = read_trace(fifo)  # would block a naive reader forever
    assert parsed is not None and parsed.reasons == ["trace file is not a regular file"]
    assert read_trace(tmp_path / "absent.jsonl") is None


def test_trace_parser_caps_what_it_keeps() -> None:
    many = b"\n".join([b"oops"] * 20 + [json.dumps({"type": "message", "text": "x" * 10_000}).encode()])
    parsed = parse_trace(many)
    assert parsed.malformed == 20 and len(parsed.reasons) == MAX_REASONS
    assert len(parsed.messages[0]) == 4001 and parsed.messages[0].endswith("…")


def test_pass_env_hands_over_named_host_variables_only(
    pytester: pytest.Pytester, basic_task: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_PROVIDER_KEY", "sk-wanted")
    monkeypatch.setenv("OTHER_SECRET", "sk-unwanted")
    agent = pytester.makefile(
        ".py", envdump="import os; print(os.environ.get('MY_PROVIDER_KEY'), os.environ.get('OTHER_SECRET'))\n"
    )
    pytester.runpytest(
        "--agent=command",
        f"--agent-option=cmd={sys.executable} {agent}",
        "--agent-option=pass_env=MY_PROVIDER_KEY:ABSENT",
        "--clawmark-json=out.json",
    )
    doc = read_json(pytester.path / "out.json")
    assert doc["tasks"][0]["days"][0]["trace"]["extra"]["stdout_tail"] == "sk-wanted None\n"
    assert "sk-wanted" not in json.dumps(doc["run"])


# -- an agent that cannot start is the harness's problem, found once, before the first turn ----------
needs_bwrap = pytest.mark.skipif(bool(bwrap_problem()), reason=f"no sandbox on this machine: {bwrap_problem()}")
CLOCK = datetime(2025, 4, 7, 9, 0, tzinfo=timezone.utc)


def executable(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def preflight_error(options: dict[str, str], mode: str = NONE) -> str:
    """The preflight's message ('' when it passes)."""
    try:
        CommandAgent(options).preflight(Isolation(mode))
    except AgentError as exc:
        return str(exc)
    return ""


def wake_once(tmp_path: Path, options: dict[str, str], mode: str = NONE) -> TurnTrace:
    """One real turn of a command agent in a real session (no world: the command needs none)."""
    session = AgentSession(
        task_id="task_start", role="assistant", persona="", user=Person("Ada Admin", "ada@corp.example"),
        workspace=tmp_path / "workspace", home=tmp_path / "home", env={}, time_limit=30, options=options,
        evidence_dir=tmp_path / "evidence", isolation=Isolation(mode),
    )  # fmt: skip
    session.workspace.mkdir(parents=True, exist_ok=True)
    agent = CommandAgent(options)
    agent.start(session)
    try:
        return agent.wake("Good morning.", 1, CLOCK)
    finally:
        agent.stop()


@pytest.fixture
def own_tempdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temp folder of the test's own, to show that probes leave nothing behind."""
    folder = tmp_path / "temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_preflight_reports_a_bare_command_missing_from_path(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    error = preflight_error({"cmd": "my-agent --fast", "path": f"{bin_dir}:/usr/bin:/bin"})
    assert (
        error
        == f"the agent command 'my-agent' was not found on PATH ({bin_dir}:/usr/bin:/bin); give an absolute path or --agent-option path=..."
    )
    executable(bin_dir / "my-agent", "#!/bin/sh\nexit 0\n")
    assert preflight_error({"cmd": "my-agent --fast", "path": f"{bin_dir}:/usr/bin:/bin"}) == ""
    assert preflight_error({"cmd": "my-agent --fast", "path": "/usr/bin:/bin"}).startswith(
        "the agent command 'my-agent' was not found on PATH (/usr/bin:/bin)"
    )
    broken = executable(tmp_path / "first" / "my-agent", f"#!{tmp_path}/gone/python\n")  # found first, cannot start
    assert preflight_error({"cmd": "my-agent", "path": f"{broken.parent}"}) == (
        f"the agent command 'my-agent' needs {tmp_path}/gone/python (its #! line), which does not exist or is not executable"
    )
    assert (
        preflight_error({"cmd": "my-agent", "path": f"{broken.parent}:{bin_dir}"}) == ""
    )  # execvp goes on to the next folder


def test_preflight_reports_a_missing_or_unusable_absolute_command(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "agent"
    assert preflight_error({"cmd": f"{missing} --day"}) == f"the agent command '{missing}' does not exist"
    plain = tmp_path / "agent.txt"
    plain.write_text("not a program")
    assert "is not executable" in preflight_error({"cmd": str(plain)})
    broken = executable(tmp_path / "broken-agent", f"#!{tmp_path}/venv/bin/python\nprint('hi')\n")
    assert preflight_error({"cmd": str(broken)}) == (
        f"the agent command '{broken}' needs {tmp_path}/venv/bin/python (its #! line), which does not exist or is not executable"
    )
    assert preflight_error({"cmd": sys.executable}) == ""


def test_preflight_reports_a_missing_absolute_script(tmp_path: Path) -> None:
    script = tmp_path / "agents" / "my_agent.py"
    assert (
        preflight_error({"cmd": f"{sys.executable} -u {script} --verbose"})
        == f"the agent script {script} does not exist"
    )
    assert (
        preflight_error({"cmd": f"/bin/sh {tmp_path / 'run.sh'}"})
        == f"the agent script {tmp_path / 'run.sh'} does not exist"
    )
    script.parent.mkdir()
    script.write_text("print('hi')\n")
    assert preflight_error({"cmd": f"{sys.executable} -u {script} --verbose"}) == ""
    assert (
        preflight_error({"cmd": f"{sys.executable} -c pass {tmp_path}/output.json"}) == ""
    )  # not a script: not checked


def test_relative_script_paths_are_taken_from_where_pytest_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command runs in the workspace: ``python my_agent.py`` (as the README shows) must still
    find the script next to the user, so it is made absolute when the agent is built."""
    project = tmp_path / "project"
    (project / "bin").mkdir(parents=True)
    (project / "my_agent.py").write_text(
        "import os\nos.makedirs('out', exist_ok=True)\nopen('out/ran.txt', 'w').write('yes')\n"
    )
    executable(project / "bin" / "agent", "#!/bin/sh\nexit 0\n")
    monkeypatch.chdir(project)
    agent = CommandAgent({"cmd": f"{sys.executable} my_agent.py --day 1"})
    assert agent.argv == [sys.executable, str(project / "my_agent.py"), "--day", "1"]
    assert CommandAgent({"cmd": "./bin/agent my_agent.py"}).argv == [
        str(project / "bin" / "agent"),
        "my_agent.py",
    ]  # not an interpreter
    assert CommandAgent({"cmd": "python3 -m my_agent"}).argv == [
        "python3",
        "-m",
        "my_agent",
    ]  # a module name, not a file
    assert CommandAgent({"cmd": "python3 -u missing.py"}).argv == ["python3", "-u", "missing.py"]
    assert CommandAgent({"cmd": "node --trace-warnings my_agent.py"}).argv[2] == str(project / "my_agent.py")
    assert CommandAgent({"cmd": "deno run --allow-net my_agent.py"}).argv[3] == str(project / "my_agent.py")
    assert preflight_error({"cmd": f"{sys.executable} missing.py"}) == (
        f"the agent script missing.py does not exist (relative paths are taken from the folder pytest was started in, {project})"
    )
    monkeypatch.chdir(tmp_path)  # the turn runs elsewhere (in its workspace): the script is still found
    trace = wake_once(tmp_path, {"cmd": " ".join(agent.argv)})
    assert trace.status == OK, trace.extra.get("stderr_tail")
    assert (tmp_path / "workspace" / "out" / "ran.txt").read_text() == "yes"


def test_a_command_that_cannot_be_executed_is_an_infra_error_not_a_failed_day(tmp_path: Path) -> None:
    trace = wake_once(tmp_path, {"cmd": f"{tmp_path}/nowhere/agent"})
    assert (
        trace.status == INFRA_ERROR
        and trace.detail == f"cannot run '{tmp_path}/nowhere/agent': No such file or directory"
    )
    trace = wake_once(tmp_path, {"cmd": "clawmark-no-such-agent", "path": "/usr/bin:/bin"})
    assert trace.status == INFRA_ERROR and "No such file or directory" in trace.detail


def test_an_agent_that_exits_1_is_its_own_failure_even_if_it_prints_like_bwrap(tmp_path: Path) -> None:
    liar = executable(
        tmp_path / "liar.sh", "#!/bin/sh\necho 'bwrap: execvp /opt/agent: No such file or directory' >&2\nexit 1\n"
    )
    trace = wake_once(tmp_path, {"cmd": f"/bin/sh {liar}"})
    assert (
        trace.status == FAILED
        and trace.detail == "exited with status 1 (bwrap: execvp /opt/agent: No such file or directory)"
    )


@needs_bwrap
def test_an_agent_that_prints_like_bwrap_inside_the_sandbox_still_failed_itself(tmp_path: Path) -> None:
    """A ``bwrap: ...`` line alone is no proof: the probe finds the command visible, so it is the agent's exit."""
    liar = executable(
        tmp_path / "liar.sh", "#!/bin/sh\necho 'bwrap: execvp /opt/agent: No such file or directory' >&2\nexit 1\n"
    )
    trace = wake_once(tmp_path, {"cmd": f"/bin/sh {liar}"}, BWRAP)
    assert trace.extra["isolation"] == BWRAP
    assert (
        trace.status == FAILED
        and trace.detail == "exited with status 1 (bwrap: execvp /opt/agent: No such file or directory)"
    )


@needs_bwrap
def test_preflight_reports_a_command_the_sandbox_does_not_show(tmp_path: Path, own_tempdir: Path) -> None:
    bin_dir = tmp_path / "bin"  # under the temp folder: the sandbox's /tmp is private and empty
    executable(bin_dir / "my-agent", "#!/bin/sh\nexit 0\n")
    options = {"cmd": "my-agent", "path": f"{bin_dir}:/usr/bin:/bin"}
    assert preflight_error(options) == ""  # without isolation it would run
    # found on PATH as the user's shell finds it: its folder is shown read-only (agents.visibility)
    assert preflight_error(options, BWRAP) == ""
    hidden_sh = tmp_path / "hidden" / "sh"  # an interpreter (#! line) the sandbox does not show
    hidden_sh.parent.mkdir()
    hidden_sh.symlink_to("/bin/sh")
    script = executable(tmp_path / "agent.sh", f"#!{hidden_sh}\nexit 0\n")
    assert preflight_error({"cmd": str(script)}) == ""
    assert preflight_error({"cmd": str(script)}, BWRAP) == (
        f"{hidden_sh} (its #! line) of the agent command '{script}' is not visible inside the sandbox (bwrap); "
        f"make it reachable under /usr, or add --agent-option sandbox_ro={hidden_sh.parent}"
    )
    assert preflight_error({"cmd": f"/bin/sh {script}"}, BWRAP) == ""  # files named in cmd are shown
    executable(tmp_path / "bin2" / "my-agent", "#!/bin/sh\nexit 0\n")  # execvp tries the next PATH folder
    assert (
        preflight_error(
            {"cmd": "my-agent", "path": f"{bin_dir}:{tmp_path / 'bin2'}", "sandbox_ro": str(tmp_path / "bin2")}, BWRAP
        )
        == ""
    )
    assert os.listdir(own_tempdir) == []  # the probe's folders are gone


@needs_bwrap
def test_a_command_bwrap_cannot_exec_is_an_infra_error(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    hidden_sh = tmp_path / "hidden" / "sh"  # its #! interpreter: neither named in cmd nor shown
    hidden_sh.parent.mkdir()
    hidden_sh.symlink_to("/bin/sh")
    executable(bin_dir / "my-agent", f"#!{hidden_sh}\necho worked\n")
    trace = wake_once(tmp_path, {"cmd": "my-agent", "path": f"{bin_dir}:/usr/bin:/bin"}, BWRAP)
    assert trace.status == INFRA_ERROR and trace.detail == "bwrap: execvp my-agent: No such file or directory", (
        trace.detail
    )
    trace = wake_once(
        tmp_path, {"cmd": "my-agent", "path": f"{bin_dir}:/usr/bin:/bin", "sandbox_ro": str(hidden_sh.parent)}, BWRAP
    )
    assert trace.status == OK and trace.extra["stdout_tail"] == "worked\n"


@needs_bwrap
def test_a_sandbox_that_cannot_be_set_up_is_an_infra_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_wrap = Sandbox.wrap

    def broken_wrap(self: Sandbox, argv: list[str], **kwargs: object) -> list[str]:  # a bind whose source is gone
        args = real_wrap(self, argv, **kwargs)  # type: ignore[arg-type]
        return [args[0], "--ro-bind", str(tmp_path / "gone"), "/opt/gone", *args[1:]]

    monkeypatch.setattr(Sandbox, "wrap", broken_wrap)
    trace = wake_once(tmp_path, {"cmd": "/bin/true"}, BWRAP)
    assert trace.status == INFRA_ERROR and trace.detail.startswith("bwrap: ") and "gone" in trace.detail, trace.detail


# -- the OpenClaw adapter's preflight, on a stand-in install (the real one is tests/test_openclaw.py's) --
def fake_openclaw(tmp_path: Path, node_interpreter: str = "/bin/sh") -> Path:
    executable(tmp_path / "oc" / "node", f"#!{node_interpreter}\necho v24.1.0\n")
    return executable(tmp_path / "oc" / "openclaw", "#!/bin/sh\necho 'OpenClaw 2026.1.1 (stand-in)'\n")


def openclaw_preflight_error(
    launcher: Path, mode: str, monkeypatch: pytest.MonkeyPatch, remove: Path | None = None
) -> str:
    monkeypatch.setenv("CLAWMARK_TEST_KEY", "sk-test")
    agent = OpenClawAgent({"openclaw_bin": str(launcher), "model": "m", "api_key_env": "CLAWMARK_TEST_KEY"})
    if remove is not None:
        remove.unlink()
    try:
        agent.preflight(Isolation(mode))
    except AgentError as exc:
        return str(exc)
    return ""


def test_openclaw_preflight_reports_a_vanished_install_with_the_install_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    launcher = fake_openclaw(tmp_path)
    assert openclaw_preflight_error(launcher, NONE, monkeypatch) == ""
    error = openclaw_preflight_error(launcher, NONE, monkeypatch, remove=tmp_path / "oc" / "node")
    assert error == f"Node 24 {tmp_path}/oc/node is missing or not executable. {install_hint()}"


@needs_bwrap
def test_openclaw_preflight_reports_a_node_the_sandbox_cannot_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_tempdir: Path
) -> None:
    launcher = fake_openclaw(tmp_path)
    assert openclaw_preflight_error(launcher, BWRAP, monkeypatch) == ""  # its install folder is shown
    hidden_sh = tmp_path / "hidden" / "sh"
    hidden_sh.parent.mkdir()
    hidden_sh.symlink_to("/bin/sh")
    launcher = fake_openclaw(tmp_path, node_interpreter=str(hidden_sh))
    assert openclaw_preflight_error(launcher, NONE, monkeypatch) == ""
    assert openclaw_preflight_error(launcher, BWRAP, monkeypatch) == (
        f"Node 24 {tmp_path}/oc/node cannot start inside the sandbox (bwrap): {hidden_sh} (its #! line) is not visible there. {install_hint()}"
    )
    assert os.listdir(own_tempdir) == []


PROJECT_TASK = """
from pytest_clawmark import Task

task = Task(scenario="hr", role="assistant", services={"fs"}, user=("Ada Admin", "ada@corp.example"))

@task.turn("2025-04-07 09:00 +00:00")
def monday(world):
    return "Write 42 to out/answer.txt"

@task.checker(day=1)
def answered(world):
    assert world.fs.read_text("out/answer.txt").strip() == "42", "no answer"
"""

PROJECT_AGENT = """
import os, sys
from helpers import answer  # a module beside the script
os.makedirs("out", exist_ok=True)
open("out/answer.txt", "w").write(answer())
print("prefix", sys.prefix)
try:
    open(os.environ["TASK_FILE"]).read()
    print("task visible")
except OSError:
    print("task hidden")
"""


@needs_bwrap
def test_python_my_agent_py_works_from_a_users_project_with_its_virtualenv_in_the_sandbox(tmp_path: Path) -> None:
    """``cmd="python agents/my_agent.py"`` from a project folder with its virtualenv first on PATH,
    as a user's shell has it: ``python`` is the virtualenv's, the script's helper module imports,
    and the task folder stays hidden (agents.visibility binds only what the command names)."""
    project = tmp_path / "project"
    (project / "tasks" / "hr").mkdir(parents=True)
    (project / "tasks" / "hr" / "task_answer.py").write_text(PROJECT_TASK)
    (project / "agents").mkdir()
    (project / "agents" / "my_agent.py").write_text(PROJECT_AGENT)
    (project / "agents" / "helpers.py").write_text("def answer():\n    return '42'\n")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(project / ".venv")], check=True, timeout=120)
    env = {
        **os.environ,
        "PATH": f"{project / '.venv' / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "VIRTUAL_ENV": str(project / ".venv"),
        "TASK_FILE": str(project / "tasks" / "hr" / "task_answer.py"),
    }
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "tasks", "--agent=command", "--agent-option=cmd=python agents/my_agent.py", "--agent-option=pass_env=TASK_FILE",
         "--agent-isolation=bwrap", "--clawmark-json=out.json", "-p", "no:cacheprovider", "-q"],
        cwd=project, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    t = json.loads((project / "out.json").read_text())["tasks"][0]
    assert t["score"] == 1.0
    stdout = next((project / ".clawmark" / "runs" / "latest").glob("*/trial1/day1.stdout.txt")).read_text()
    assert f"prefix {project / '.venv'}" in stdout and "task hidden" in stdout, stdout
