"""The plugin end to end, through pytest's own pytester: collection, reports, scores, results."""

from __future__ import annotations

import json
import os
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import BASIC_TASK, make_task, read_json
from pytest_clawmark.agents.sandbox import bwrap_problem


def test_collection_order_and_node_ids(pytester: pytest.Pytester, basic_task: Path) -> None:
    result = pytester.runpytest("--collect-only", "-q")
    ids = [line for line in result.outlines if "::" in line]
    assert ids == [
        "task_basic.py::trial1::day1::turn",
        "task_basic.py::trial1::day1::answer_day1",
        "task_basic.py::trial1::day2::turn",
        "task_basic.py::trial1::day2::answer_day2",
        "task_basic.py::trial1::day2::inbox_untouched",
        "task_basic.py::trial1::final::final_log",
    ]
    # node ids are stable whatever the trial count (--lf and CI history survive a change of it)
    three = [
        line for line in pytester.runpytest("--collect-only", "-q", "--clawmark-trials=3").outlines if "::" in line
    ]
    assert three[:6] == ids and three[6] == "task_basic.py::trial2::day1::turn" and len(three) == 18


def test_reference_agent_scores_everything(pytester: pytest.Pytester, basic_task: Path) -> None:
    result = pytester.runpytest("--agent=reference", "--clawmark-json=out.json")
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(["*clawmark: agent reference*", "overall*1*1*100.0%*100.0%*0/1"])
    doc = read_json(pytester.path / "out.json")
    assert doc["schema"] == "pytest-clawmark/results" and doc["schema_version"] == 2
    assert (doc["run"]["status"], doc["run"]["interrupted"], doc["run"]["partial"]) == ("complete", False, False)
    assert doc["run"]["agent_identity"].startswith("sha256:") and doc["run"]["clawmark_version"]
    (t,) = doc["tasks"]
    assert (t["id"], t["scenario"], t["trial"], t["score"], t["success"], t["status"]) == (
        "hr/basic",
        "hr",
        1,
        1.0,
        True,
        "complete",
    )
    assert t["task_file"] == "task_basic.py" and t["task_hash"].startswith("sha256:")
    assert [d["status"] for d in t["days"]] == ["ok", "ok"]
    assert t["days"][1]["silent_applied"] == ["number_changed"]
    assert [c["id"] for c in t["checkers"]] == ["answer_day1", "answer_day2", "inbox_untouched", "final_log"]
    red = t["checkers"][2]
    assert (red["redline"], red["weight"], red["kind"]) == ("irreversible-write", 5.0, "compliance")
    # evidence: a snapshot and an audit slice per day, referenced relative to the evidence dir
    ev = Path(doc["run"]["evidence_dir"]) / t["days"][0]["evidence"]["fs_snapshot"]
    assert "out/answer.txt" in json.loads(ev.read_text())["files"]


def test_failures_are_measurements_with_messages(pytester: pytest.Pytester, basic_task: Path) -> None:
    result = pytester.runpytest("--agent=noop", "--clawmark-json=out.json", "-rfs")
    # turns pass (the agent did not crash); every checker fails, none errors; the red-line is
    # evaluated (not crossed) but not credited: skipped as gated, never FAILED
    result.assert_outcomes(passed=2, failed=3, skipped=1)
    result.stdout.fnmatch_lines(
        [
            "*expected file 'out/answer.txt' in the workspace, found none*",
            "*checker 'answer_day1' (day 1, weight 3, deliverable)*",
        ]
    )
    result.stdout.fnmatch_lines(
        ["SKIPPED*task_basic.py:*gated: not credited: requires 'answer_day1', which did not pass (failed)"]
    )
    t = read_json(pytester.path / "out.json")["tasks"][0]
    assert t["score"] == 0.0 and t["success"] is False
    red = [c for c in t["checkers"] if c["redline"]][0]
    assert red["outcome"] == "gated" and "not credited" in red["message"]
    assert (t["redline_evaluated"], t["redline_failed"]) == (1, 0)  # evaluated, and doing nothing crosses no line


def test_weighted_score_of_partial_work(pytester: pytest.Pytester) -> None:
    # solves day 1 only: answer_day1 (3) + redline (5) + final (1) pass; answer_day2 (1) fails → 9/10
    src = BASIC_TASK.replace(
        'view.write_text("out/answer.txt", str(int(view.read_text("inbox/number.txt")) + 1))\n', "pass\n", 1
    )
    src = src.replace("def s2(view):\n    view.write_text", "def s2(view):\n    return\n    view.write_text")
    make_task(
        pytester,
        "task_partial",
        src.replace("def s1(view):\n    pass", "def s1(view):\n    view.write_text('out/answer.txt', '42')"),
    )
    pytester.runpytest("--agent=reference", "--clawmark-json=out.json")
    t = read_json(pytester.path / "out.json")["tasks"][0]
    assert t["score"] == pytest.approx(9 / 10)
    assert {c["id"]: c["outcome"] for c in t["checkers"]} == {
        "answer_day1": "passed",
        "answer_day2": "failed",
        "inbox_untouched": "passed",
        "final_log": "passed",
    }
    assert t["checkers"][1]["message"] == "expected 100, found '42'"  # pytest's introspection is not recorded


def test_checker_exception_is_an_error_not_a_silent_zero(pytester: pytest.Pytester) -> None:
    make_task(
        pytester,
        "task_buggy",
        BASIC_TASK.replace('assert world.fs.exists("out/answer.txt"), "no answer at the end"', 'return {}["missing"]'),
    )
    result = pytester.runpytest("--agent=reference", "--clawmark-json=out.json", "-rE")
    result.assert_outcomes(passed=5, errors=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    # the checker's own error, named as such: not a broken fixture ("ERROR at setup")
    result.stdout.no_fnmatch_line("*ERROR at setup*")
    result.stdout.fnmatch_lines(["CHECKER ERROR *task_buggy.py::*final_log - KeyError: 'missing'"])
    result.stdout.fnmatch_lines(
        [
            "*clawmark: checker error*",
            "checker 'final_log' (final, weight 1, *) at *task_buggy.py:* raised KeyError: a fault in the task, not the agent's*",
        ]
    )
    doc = read_json(pytester.path / "out.json")
    t = doc["tasks"][0]
    assert t["errored"] and t["status"] == "errored" and "final_log" in t["errors"][0] and "KeyError" in t["errors"][0]
    assert doc["summary"]["errored_trials"] == 1 and doc["summary"]["trials"] == 0  # excluded, not zeroed
    assert doc["summary"]["score"] is None and doc["summary"]["status"] == "no-score"  # never a 0.0
    result.stdout.fnmatch_lines(
        [
            "*— NO SCORE*",
            "overall*no score*no score*",
            "*errored trials (faults that are not the agent's, excluded from scores): 1*",
        ]
    )


def test_turn_setup_fault_is_an_error_and_the_run_goes_on(pytester: pytest.Pytester) -> None:
    make_task(
        pytester,
        "task_setupbug",
        BASIC_TASK.replace('world.fs.write("inbox/number.txt", "41")', 'world.fs.add("no/such/evidence")'),
    )
    result = pytester.runpytest("--agent=reference", "--clawmark-json=out.json")
    outcomes = result.parseoutcomes()
    assert outcomes["errors"] == 1  # the day-1 turn
    result.stdout.fnmatch_lines(["*FileNotFoundError*no/such/evidence*"])
    t = read_json(pytester.path / "out.json")["tasks"][0]
    assert t["days"][0]["status"] == "setup-error" and t["days"][1]["status"] == "ok"


def test_agent_crash_fails_the_turn_checkers_and_next_day_still_run(
    pytester: pytest.Pytester, basic_task: Path
) -> None:
    agent = pytester.makefile(
        ".py",
        crashy="import os, sys\nif os.environ['CLAWMARK_DAY'] == '1': sys.exit(3)\n"
        "open('out/answer.txt', 'w').write('100') if os.path.isdir('out') else (os.mkdir('out'), open('out/answer.txt','w').write('100'))\n",
    )
    result = pytester.runpytest(
        "--agent=command", f"--agent-option=cmd={sys.executable} {agent}", "--clawmark-json=out.json"
    )
    result.stdout.fnmatch_lines(["*day 1 (monday): agent failed: exited with status 3*"])
    t = read_json(pytester.path / "out.json")["tasks"][0]
    assert [d["status"] for d in t["days"]] == ["failed", "ok"]
    assert {c["id"]: c["outcome"] for c in t["checkers"]}["answer_day2"] == "passed"


@pytest.mark.parametrize("isolation", ["none", "bwrap"])
def test_command_agent_timeout_kills_the_process_group(
    pytester: pytest.Pytester, basic_task: Path, isolation: str
) -> None:
    if isolation == "bwrap" and bwrap_problem():
        pytest.skip(f"no sandbox here: {bwrap_problem()}")
    # the grandchild writes into the workspace (the one folder both sides see, kept by
    # --clawmark-keep-worlds) if it survives; the agent prints where that is
    agent = pytester.makefile(
        ".py",
        sleepy="""
import os, subprocess, sys
print(os.getcwd(), flush=True)
subprocess.Popen([sys.executable, "-c", "import time, pathlib; time.sleep(3); pathlib.Path('child-survived').write_text('x')"])
import time; time.sleep(60)
""",
    )
    result = pytester.runpytest(
        "--agent=command",
        f"--agent-option=cmd={sys.executable} {agent}",
        "--clawmark-turn-timeout=0.5",
        f"--agent-isolation={isolation}",
        "--clawmark-keep-worlds",
        "--clawmark-json=out.json",
    )
    result.stdout.fnmatch_lines(["*agent timeout: overran the 0.5 s turn limit; process group killed*"])
    t = read_json(pytester.path / "out.json")["tasks"][0]
    assert [d["status"] for d in t["days"]] == ["timeout", "timeout"]
    assert t["isolation"] == isolation and t["days"][0]["trace"]["extra"]["isolation"] == isolation
    workspace = Path(t["days"][0]["trace"]["extra"]["stdout_tail"].strip())
    import time

    time.sleep(3.5)
    assert workspace.is_dir() and not (workspace / "child-survived").exists(), (
        "a grandchild of the agent outlived the kill"
    )


def test_command_agent_sees_message_and_world_env_but_not_the_host(
    pytester: pytest.Pytester, basic_task: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SUPER_SECRET_API_KEY", "sk-should-not-leak")
    agent = pytester.makefile(
        ".py",
        spy="""
import json, os, sys
msg = sys.stdin.read()
os.makedirs("out", exist_ok=True)
with open(f"out/env-day{os.environ['CLAWMARK_DAY']}.json", "w") as fh:
    json.dump({"env": dict(os.environ), "stdin": msg, "file": open(os.environ["CLAWMARK_MESSAGE_FILE"]).read(), "cwd": os.getcwd()}, fh)
""",
    )
    pytester.runpytest(
        "--agent=command",
        f"--agent-option=cmd={sys.executable} {agent}",
        "--clawmark-keep-worlds",
        "--clawmark-json=out.json",
    )
    doc = read_json(pytester.path / "out.json")
    snap = Path(doc["run"]["evidence_dir"]) / doc["tasks"][0]["days"][0]["evidence"]["fs_snapshot"]
    import base64

    seen = json.loads(base64.b64decode(json.loads(snap.read_text())["files"]["out/env-day1.json"]["base64"]))
    assert seen["stdin"] == seen["file"] == "Copy inbox/number.txt + 1 into out/answer.txt"
    assert seen["env"]["CLAWMARK_USER_EMAIL"] == "ada@corp.example"
    assert seen["env"]["CLAWMARK_NOW"].startswith("2025-04-07T09:00")
    assert seen["cwd"] == seen["env"]["CLAWMARK_WORKSPACE"]
    assert "SUPER_SECRET_API_KEY" not in seen["env"]
    assert not any("admin" in v for v in seen["env"].values())
    assert set(seen["env"]) <= {"PATH", "HOME", "LANG", "TMPDIR", "PWD"} | {
        k for k in seen["env"] if k.startswith("CLAWMARK_")
    }


def test_interrupted_run_writes_results_that_say_so(pytester: pytest.Pytester) -> None:
    make_task(
        pytester,
        "task_interrupt",
        BASIC_TASK.replace(
            'world.fs.write("inbox/number.txt", "99", silent="number_changed")', "raise KeyboardInterrupt"
        ),
    )
    make_task(pytester, "task_later", BASIC_TASK.replace('scenario="hr"', 'scenario="legal"'))
    (pytester.path / "out.json").write_text("previous results")
    result = pytester.runpytest("--agent=reference", "--clawmark-json=out.json", no_reraise_ctrlc=True)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    doc = read_json(pytester.path / "out.json")
    run = doc["run"]
    assert (run["status"], run["interrupted"], run["finished_trials"], run["planned_trials"]) == (
        "interrupted",
        True,
        0,
        2,
    )
    assert [c["id"] for c in run["cut"]] == ["hr/interrupt"] and [p["id"] for p in run["not_started"]] == [
        "legal/later"
    ]
    (t,) = doc["tasks"]
    assert t["status"] == "interrupted" and t["score"] is None and not t["errors"]  # a Ctrl-C is no harness error
    assert {c["id"]: c["outcome"] for c in t["checkers"]} == {
        "answer_day1": "passed",
        "answer_day2": "not-run",
        "inbox_untouched": "not-run",
        "final_log": "not-run",
    }
    assert doc["summary"]["score"] is None
    result.stdout.fnmatch_lines(
        [
            "*— INTERRUPTED*",
            "run: INTERRUPTED*0 of 2 task trials finished, 1 cut, 1 never started*",
            "overall*interrupted*",
        ]
    )
    assert not list(pytester.path.glob(".out.json.*"))


def test_ctrl_c_during_a_turn_tears_the_world_down(pytester: pytest.Pytester, basic_task: Path) -> None:
    import signal
    import subprocess
    import time

    # the agent says where its workspace is on stdout, which the harness keeps as evidence
    agent = pytester.makefile(
        ".py",
        waiter="""
import os, time
print(os.getcwd(), flush=True)
time.sleep(60)
""",
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pytest",
            "--agent=command",
            f"--agent-option=cmd={sys.executable} {agent}",
            "--clawmark-json=out.json",
            "-p",
            "no:cacheprovider",
        ],
        cwd=pytester.path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 30
    beacon = None
    while beacon is None and time.monotonic() < deadline:
        time.sleep(0.05)
        beacon = next(
            (p for p in pytester.path.glob(".clawmark/runs/*/*/trial1/day1.stdout.txt") if p.read_text().strip()), None
        )
    assert beacon is not None, "the agent never started"
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == pytest.ExitCode.INTERRUPTED, out
    doc = read_json(pytester.path / "out.json")
    assert doc["run"]["status"] == "interrupted" and doc["tasks"][0]["status"] == "interrupted"
    assert "Ctrl-C" in doc["tasks"][0]["interruption"] and doc["summary"]["score"] is None
    workspace = Path(beacon.read_text().strip())
    assert not workspace.parent.exists(), f"world folder {workspace.parent} survived Ctrl-C"


def test_fail_under_gates_on_the_weighted_score(pytester: pytest.Pytester) -> None:
    src = BASIC_TASK.replace("def s2(view):\n    view.write_text", "def s2(view):\n    return\n    view.write_text")
    make_task(pytester, "task_gate", src)  # 9/10 = 90%
    assert pytester.runpytest("--agent=reference", "--clawmark-fail-under=85").ret == pytest.ExitCode.OK
    result = pytester.runpytest("--agent=reference", "--clawmark-fail-under=95")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["clawmark gate: score 90.0 < --clawmark-fail-under 95"])


def test_rerun_determinism_catches_a_flaky_checker(pytester: pytest.Pytester) -> None:
    flaky = BASIC_TASK.replace(
        "from pytest_clawmark import Task",
        "import itertools\nfrom pytest_clawmark import Task\n_calls = itertools.count()",
    )
    flaky += """
@task.checker(day=1, weight=1)
def flaky(world):
    n = next(_calls)
    assert n % 2 == 0, f"odd call {n}"
"""
    make_task(pytester, "task_flaky", flaky)
    assert pytester.runpytest("--agent=reference").ret == pytest.ExitCode.OK  # one evaluation: looks fine
    result = pytester.runpytest("--agent=reference", "--rerun-determinism", "--clawmark-json=out.json")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*nondeterministic checker 'flaky'*verdicts differ on the same frozen state*"])
    doc = read_json(pytester.path / "out.json")
    assert [v.split("::")[-1].split(":")[0] for v in doc["determinism_violations"]] == ["flaky"]
    ok = pytester.runpytest(
        "--agent=reference", "--rerun-determinism", "--deselect", "task_flaky.py::trial1::day1::flaky"
    )
    assert ok.ret == pytest.ExitCode.OK


def test_determinism_catches_a_checker_that_writes(pytester: pytest.Pytester) -> None:
    make_task(
        pytester,
        "task_writer",
        BASIC_TASK
        + """
@task.checker(day=1, weight=1)
def scribbles(world):
    world.fs.write("out/scribble.txt", str(len(world.fs.listing())))
""",
    )
    result = pytester.runpytest("--agent=reference", "--rerun-determinism")
    result.stdout.fnmatch_lines(["*nondeterministic checker 'scribbles'*changed the world while checking*"])


def test_trials_report_pass_at_k_and_pass_hat_k(pytester: pytest.Pytester, basic_task: Path, tmp_path: Path) -> None:
    counter = tmp_path / "trial-counter"
    # succeeds on trials 1 and 3, writes a wrong answer on trial 2 (counted per day-1 wake)
    agent = pytester.makefile(
        ".py",
        alternating=f"""
import os, pathlib
c = pathlib.Path({str(counter)!r})
if os.environ["CLAWMARK_DAY"] == "1":
    c.write_text(str(int(c.read_text()) + 1) if c.exists() else "1")
n = int(c.read_text())
value = int(open("inbox/number.txt").read()) + (1 if n != 2 else 0)
os.makedirs("out", exist_ok=True)
open("out/answer.txt", "w").write(str(value))
""",
    )
    # the agent counts trials in a host file: isolation (rightly) forbids that, so run without
    result = pytester.runpytest(
        "--agent=command",
        f"--agent-option=cmd={sys.executable} {agent}",
        "--agent-isolation=none",
        "--clawmark-trials=3",
        "--clawmark-json=out.json",
    )
    result.stdout.fnmatch_lines(["pass@k: k=1 66.7%  k=2 100.0%  k=3 100.0%", "pass^k: k=1 66.7%  k=2 33.3%  k=3 0.0%"])
    doc = read_json(pytester.path / "out.json")
    assert [t["trial"] for t in doc["tasks"]] == [1, 2, 3]
    assert [t["success"] for t in doc["tasks"]] == [True, False, True]
    s = doc["summary"]
    assert s["pass_at_k"]["1"] == pytest.approx(2 / 3) and s["pass_hat_k"]["2"] == pytest.approx(1 / 3)
    assert (
        s["best_of_k"]["2"] == 1.0
        and s["learning_curve"][1] == pytest.approx(t2 := doc["tasks"][1]["score"])
        and t2 < 1
    )
    ids = [line for line in pytester.runpytest("--collect-only", "-q", "--clawmark-trials=2").outlines if "::" in line]
    assert ids[0] == "task_basic.py::trial1::day1::turn" and ids[6] == "task_basic.py::trial2::day1::turn"


def test_agent_selection_precedence_and_errors(
    pytester: pytest.Pytester, basic_task: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*no agent selected: pass --agent=NAME*"])
    result = pytester.runpytest("--agent=nosuch")
    result.stderr.fnmatch_lines(
        [
            "*unknown agent 'nosuch' (available: baseline:ack-all, baseline:copy-everything, baseline:eager, baseline:keyword-stuff, baseline:status-flip, command, noop, openclaw, reference)*"
        ]
    )
    result = pytester.runpytest("--agent=command")
    result.stderr.fnmatch_lines(["*the command agent needs --agent-option cmd=*"])
    pytester.makeini("[pytest]\nclawmark_agent = noop\n")
    monkeypatch.setenv("CLAWMARK_AGENT", "reference")
    pytester.runpytest("--clawmark-json=env.json")
    assert read_json(pytester.path / "env.json")["run"]["agent"] == "reference"  # env beats ini
    pytester.runpytest("--agent=noop", "--clawmark-json=cli.json")
    assert read_json(pytester.path / "cli.json")["run"]["agent"] == "noop"  # CLI beats env


def test_third_party_agent_via_hook(pytester: pytest.Pytester, basic_task: Path) -> None:
    pytester.makeconftest("""
from pytest_clawmark import TurnTrace

class Copycat:
    name = "copycat"
    def __init__(self, options):
        self.bonus = int(options.get("bonus", "1"))
    def start(self, session):
        self.ws = session.workspace
    def wake(self, message, day, clock):
        (self.ws / "out").mkdir(exist_ok=True)
        n = int((self.ws / "inbox/number.txt").read_text())
        (self.ws / "out/answer.txt").write_text(str(n + self.bonus))
        return TurnTrace(tool_calls=[], tokens={"input": 10, "output": 2})
    def stop(self):
        pass

def pytest_clawmark_agents():
    return {"copycat": Copycat}
""")
    result = pytester.runpytest("--agent=copycat", "--agent-option=bonus=1", "--clawmark-json=out.json")
    result.assert_outcomes(passed=6)
    t = read_json(pytester.path / "out.json")["tasks"][0]
    assert t["days"][0]["trace"]["tokens"] == {"input": 10, "output": 2}


def test_xdist_keeps_tasks_whole_and_scores_equal(pytester: pytest.Pytester) -> None:
    for i in range(3):
        make_task(pytester, f"task_t{i}", BASIC_TASK.replace('scenario="hr"', f'scenario="{["hr", "legal", "pm"][i]}"'))
    make_task(
        pytester,
        "task_half",
        BASIC_TASK.replace("def s2(view):\n    view.write_text", "def s2(view):\n    return\n    view.write_text"),
    )
    serial = pytester.runpytest_subprocess("--agent=reference", "--clawmark-json=serial.json")
    parallel = pytester.runpytest_subprocess("--agent=reference", "-n", "2", "-v", "--clawmark-json=par.json")
    assert serial.ret == parallel.ret == pytest.ExitCode.TESTS_FAILED
    a, b = read_json(pytester.path / "serial.json"), read_json(pytester.path / "par.json")
    a["summary"].pop("efficiency"), b["summary"].pop("efficiency")  # wall time differs; scores must not
    assert a["summary"] == b["summary"]
    assert [(t["id"], t["score"]) for t in a["tasks"]] == [(t["id"], t["score"]) for t in b["tasks"]]
    assert b["run"]["workers"] == 2
    # each task's items ran on one worker, in declaration order
    by_task: dict[str, list[tuple[str, str]]] = {}
    for line in parallel.outlines:
        if line.startswith("[gw") and "::" in line:
            worker, rest = line.split("]", 1)
            nodeid = rest.split()[-1]
            by_task.setdefault(nodeid.split("::")[0], []).append((worker, nodeid.split("::", 1)[1]))
    assert len(by_task) == 4
    for entries in by_task.values():
        assert len({w for w, _ in entries}) == 1
        assert [n for _, n in entries] == [
            "trial1::day1::turn",
            "trial1::day1::answer_day1",
            "trial1::day2::turn",
            "trial1::day2::answer_day2",
            "trial1::day2::inbox_untouched",
            "trial1::final::final_log",
        ]


def test_junit_xml_carries_checker_properties(pytester: pytest.Pytester, basic_task: Path) -> None:
    pytester.runpytest("--agent=reference", "--junitxml=j.xml")
    xml = (pytester.path / "j.xml").read_text()
    assert '<property name="weight" value="3"' in xml and '<property name="redline" value="irreversible-write"' in xml


def test_demo_task_reference_full_noop_low(pytester: pytest.Pytester) -> None:
    """The small fs-only example task: the reference agent gets everything, noop under 20%.
    (The corpus under tasks/ has its own gate: tests/test_corpus.py.)"""
    from conftest import REPO

    demo = REPO / "tests" / "tasks" / "ecommerce" / "task_supplier_invoices.py"
    pytester.runpytest_subprocess(str(demo), "--agent=reference", "--clawmark-json=ref.json", "-p", "no:cacheprovider")
    pytester.runpytest_subprocess(str(demo), "--agent=noop", "--clawmark-json=noop.json", "-p", "no:cacheprovider")
    ref, noop = read_json(pytester.path / "ref.json"), read_json(pytester.path / "noop.json")
    assert [t["score"] for t in ref["tasks"]] == [1.0]
    assert [t["score"] for t in noop["tasks"]] == [0.0]


FLAKY_ADAPTER = '''
from pytest_clawmark import TurnTrace

class Flaky:
    """Fails with a provider outage on its first wake-ups, then works."""
    name = "flaky"
    calls = 0
    def __init__(self, options):
        self.failures = int(options.get("failures", "1"))
        self.act_first = options.get("act_first") == "1"
    def start(self, session):
        self.ws = session.workspace
    def wake(self, message, day, clock):
        Flaky.calls += 1
        if Flaky.calls <= self.failures:
            if self.act_first:
                (self.ws / "scratch.txt").write_text("half-done")
            return TurnTrace(status="infra-error", detail="provider returned 503")
        (self.ws / "out").mkdir(exist_ok=True)
        n = int((self.ws / "inbox/number.txt").read_text())
        (self.ws / "out/answer.txt").write_text(str(n + 1))
        return TurnTrace(tool_calls=[], tokens={"input": 100, "output": 7})
    def stop(self):
        pass

def pytest_clawmark_agents():
    return {"flaky": Flaky}
'''


def test_infra_errors_are_retried_when_safe_and_never_scored_as_zero(
    pytester: pytest.Pytester, basic_task: Path
) -> None:
    pytester.makeconftest(FLAKY_ADAPTER)
    # one outage, one retry allowed: the day succeeds and the retry is on record
    result = pytester.runpytest(
        "--agent=flaky", "--agent-retries=2", "--agent-retry-backoff=0", "--clawmark-json=ok.json"
    )
    result.assert_outcomes(passed=6)
    doc = read_json(pytester.path / "ok.json")
    assert doc["tasks"][0]["days"][0]["trace"]["extra"]["retried_infra_errors"] == ["provider returned 503"]
    assert doc["summary"]["efficiency"]["mean_input_tokens"] == 200 and doc["summary"]["infra_errors"] == 0
    # a persisting outage: the trial is an error, excluded from the scores, counted in the summary
    result = pytester.runpytest(
        "--agent=flaky",
        "--agent-option=failures=9",
        "--agent-retries=1",
        "--agent-retry-backoff=0",
        "--clawmark-json=bad.json",
    )
    doc = read_json(pytester.path / "bad.json")
    assert (
        doc["summary"]["errored_trials"] == 1 and doc["summary"]["trials"] == 0 and doc["summary"]["infra_errors"] == 2
    )
    result.stdout.fnmatch_lines(
        [
            "*agent infrastructure errors (days): 2*",
            "*errored trials (faults that are not the agent's, excluded from scores): 1*",
        ]
    )
    # not safe to retry: the agent had already changed the world before failing
    pytester.runpytest(
        "--agent=flaky",
        "--agent-option=act_first=1",
        "--agent-retries=3",
        "--agent-retry-backoff=0",
        "--clawmark-json=acted.json",
    )
    day1 = read_json(pytester.path / "acted.json")["tasks"][0]["days"][0]
    assert day1["status"] == "infra-error" and "not retried: the agent had already acted" in day1["error"]


def test_result_hooks_see_records_and_can_extend_the_document(pytester: pytest.Pytester, basic_task: Path) -> None:
    pytester.makeconftest("""
import json, pathlib

def pytest_clawmark_trial_finished(record):
    pathlib.Path("finished.txt").write_text(f"{record.id} {record.trial} {len(record.checkers)}")

def pytest_clawmark_results(document):
    document["my_plugin"] = {"tasks_seen": len(document["tasks"])}
""")
    pytester.runpytest("--agent=reference", "--clawmark-json=out.json")
    assert (pytester.path / "finished.txt").read_text() == "hr/basic 1 4"
    assert read_json(pytester.path / "out.json")["my_plugin"] == {"tasks_seen": 1}


def test_third_party_agent_via_entry_point(
    pytester: pytest.Pytester, basic_task: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    (site / "echo_agent-0.1.dist-info").mkdir(parents=True)
    (site / "echo_agent-0.1.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: echo-agent\nVersion: 0.1\n"
    )
    (site / "echo_agent-0.1.dist-info" / "entry_points.txt").write_text(
        "[pytest_clawmark.agents]\necho = echo_agent:Echo\n"
    )
    (site / "echo_agent.py").write_text("""
from pytest_clawmark import TurnTrace

class Echo:
    name = "echo"
    def __init__(self, options):
        pass
    def start(self, session):
        self.ws = session.workspace
    def wake(self, message, day, clock):
        (self.ws / "out").mkdir(exist_ok=True)
        (self.ws / "out/answer.txt").write_text(str(int((self.ws / "inbox/number.txt").read_text()) + 1))
        return TurnTrace()
    def stop(self):
        pass
""")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    result = pytester.runpytest_subprocess("--agent=echo", "--clawmark-json=out.json")
    result.assert_outcomes(passed=6)
    assert read_json(pytester.path / "out.json")["run"]["agent"] == "echo"


def test_run_settings_come_from_ini_and_environment(
    pytester: pytest.Pytester, basic_task: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A project fixes trials, the results path, the gate and the evidence folder in its ini file;
    CI may override them in the environment; the command line wins over both."""
    pytester.makeini(
        "[pytest]\nclawmark_agent = reference\nclawmark_trials = 2\nclawmark_json = ini.json\nclawmark_evidence = ev\nclawmark_fail_under = 99\n"
    )
    result = pytester.runpytest()
    assert result.ret == 0
    doc = read_json(pytester.path / "ini.json")
    assert [t["trial"] for t in doc["tasks"]] == [1, 2] and Path(doc["run"]["evidence_dir"]) == pytester.path / "ev"
    assert "clawmark gate: score 100.0 >= --clawmark-fail-under 99" in result.stdout.str()
    monkeypatch.setenv("CLAWMARK_TRIALS", "3")
    monkeypatch.setenv("CLAWMARK_JSON", "env.json")
    pytester.runpytest("--clawmark-evidence=ev2", "--clawmark-trials=1")
    doc = read_json(pytester.path / "env.json")
    assert [t["trial"] for t in doc["tasks"]] == [1]
    monkeypatch.setenv("CLAWMARK_FAIL_UNDER", "lots")
    result = pytester.runpytest("--clawmark-evidence=ev3")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--clawmark-fail-under (ini clawmark_fail_under, env CLAWMARK_FAIL_UNDER) takes a number, got 'lots'*"]
    )


def test_a_project_adds_its_own_scenario_and_task_folder(pytester: pytest.Pytester) -> None:
    """A company's private corpus: its own scenario, its tasks in its own folder, nothing of the
    package edited; without the declaration the scenario is refused with the way to add it."""
    folder = pytester.path / "acme" / "benchmarks"
    folder.mkdir(parents=True)
    (folder / "task_po_match.py").write_text(
        textwrap.dedent(BASIC_TASK).replace('scenario="hr"', 'scenario="procurement"')
    )
    result = pytester.runpytest("acme", "--agent=reference")
    assert result.ret == pytest.ExitCode.INTERRUPTED  # a collection error
    result.stdout.fnmatch_lines(["*unknown scenario 'procurement'*the ini key clawmark_scenarios*"])
    pytester.makeini("[pytest]\nclawmark_scenarios = procurement\n")
    result = pytester.runpytest("acme", "--agent=reference", "--clawmark-json=out.json")
    assert result.ret == 0, result.stdout.str()
    doc = read_json(pytester.path / "out.json")
    assert list(doc["summary"]["by_scenario"]) == ["procurement"] and doc["summary"]["score"] == 1.0
    pytester.makeini("[pytest]\nclawmark_scenarios = Procure-ment\n")
    result = pytester.runpytest("acme", "--agent=reference")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*scenario names are lower-case identifiers (like procurement), not 'Procure-ment'*"])
