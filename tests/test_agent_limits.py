"""Hostile agents against the harness: resource limits, the after-turn sweep, hostile workspaces.

Each test runs a real hostile command agent (a small Python script) — a fork bomb, a stdout
flood, a memory hog, a CPU burner, a runaway file, a double-forked daemon, planted links and hard
links — or plants the hostile state a turn may leave, and shows the harness (the adapter, the
snapshot, the checkers' reads) stays bounded and the host untouched. Issue 9's observations, one
regression test each:

- 2,000 processes forked freely → :func:`test_a_fork_bomb_stops_at_the_process_limit_and_leaves_nothing`
- 1.5 GB on stdout read whole into memory and kept → :func:`test_a_stdout_flood_is_capped_on_disk_and_in_memory`
- a 500 MB workspace file read whole by the snapshot → :func:`test_a_huge_workspace_file_is_hashed_by_streaming_not_read_whole`
- links planted in ``dayN.agent/`` stay there → :func:`test_links_planted_in_the_evidence_folder_are_removed`
- a hard link makes the harness overwrite a host file → :func:`test_a_hard_link_to_a_host_file_is_never_written_through`
- a double-forked daemon keeps editing the world → :func:`test_a_double_forked_daemon_is_killed_with_its_turn`
"""

from __future__ import annotations

import os
import signal
import sys
import time
import tracemalloc
import uuid
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import read_json
from pytest_clawmark.agents import cgroups
from pytest_clawmark.agents.base import FAILED, OK, AgentSession, TurnTrace
from pytest_clawmark.agents.command import CommandAgent
from pytest_clawmark.agents.limits import AgentLimits, LimitsError, parse_limits
from pytest_clawmark.agents.process import RUN_MARKER
from pytest_clawmark.agents.sandbox import BWRAP, NONE, Isolation, bwrap_problem
from pytest_clawmark.world import Person, World
from pytest_clawmark.world.fs import DeliverableMissing, DeliverableTooLarge, WorkspaceTooLarge
from pytest_clawmark.world.fs_limits import WorkspaceLimits

MODES = [
    NONE,
    pytest.param(BWRAP, marks=pytest.mark.skipif(bool(bwrap_problem()), reason=f"no sandbox here: {bwrap_problem()}")),
]


def _cgroup_problem() -> str:
    """'' when this process may make pids and memory cgroups (root, or a delegated subtree)."""
    group, notes = cgroups.create("probe", processes=None, memory=None)
    if group is not None:
        group.remove()
    return "; ".join(notes) if group is None or notes else ""


CGROUP_PROBLEM = _cgroup_problem()
needs_cgroups = pytest.mark.skipif(
    bool(CGROUP_PROBLEM), reason=f"no usable cgroups here (the rlimit fallback is tested apart): {CGROUP_PROBLEM}"
)
CLOCK = datetime(2025, 4, 7, 9, 0, tzinfo=timezone.utc)
MIB = 1 << 20


class Agent:
    """A real command agent in a real session (no world: these agents need none), woken day by day."""

    def __init__(
        self,
        tmp_path: Path,
        script: str,
        mode: str,
        limits: AgentLimits | None = None,
        options: dict[str, str] | None = None,
    ) -> None:
        tmp_path.mkdir(parents=True, exist_ok=True)
        path = tmp_path / "agent.py"
        path.write_text(script)
        self.session = AgentSession(
            task_id=f"task_hostile_{uuid.uuid4().hex[:8]}", role="assistant", persona="", user=Person("Ada Admin", "ada@corp.example"),
            workspace=tmp_path / "workspace", home=tmp_path / "home", env={}, time_limit=30, options={},
            evidence_dir=tmp_path / "evidence", isolation=Isolation(mode), limits=limits or AgentLimits(),
        )  # fmt: skip
        self.session.workspace.mkdir(parents=True, exist_ok=True)
        self.agent = CommandAgent({"cmd": f"{sys.executable} {path}", **(options or {})})
        self.agent.start(self.session)
        self.workspace = self.session.workspace

    def wake(self, day: int = 1) -> TurnTrace:
        return self.agent.wake(f"Day {day}.", day, CLOCK)

    def stop(self) -> None:
        self.agent.stop()


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[list[Agent]]:
    made: list[Agent] = []
    yield made
    for agent in made:
        agent.stop()


def run_agent(made: list[Agent], tmp_path: Path, script: str, mode: str, **kw: object) -> Agent:
    agent = Agent(tmp_path, script, mode, **kw)  # type: ignore[arg-type]
    made.append(agent)
    return agent


# -- processes ------------------------------------------------------------------------------------
FORK_BOMB = r"""
import os, time
n = 0
for _ in range(int(os.environ.get("BOMB", "700"))):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(120)
        os._exit(0)
    n += 1
open("forked.txt", "w").write(str(n))
"""


@needs_cgroups
@pytest.mark.parametrize("mode", MODES)
def test_a_fork_bomb_stops_at_the_process_limit_and_leaves_nothing(
    tmp_path: Path, hostile: list[Agent], mode: str
) -> None:
    """The default limit (512 processes for the whole run) stops 700 forks; every child is gone
    after the turn, and the next day runs normally. (Before: all 700 forked, and lived on in
    ``none``.)"""
    agent = run_agent(hostile, tmp_path, FORK_BOMB, mode)
    trace = agent.wake(1)
    forked = int((agent.workspace / "forked.txt").read_text())
    assert trace.status == OK, trace.detail
    assert 0 < forked < 512, forked
    processes = trace.extra["limits"]["processes"]
    assert processes["limit"] == 512 and processes["by"] == "pids cgroup" and processes["refused"] >= 1
    assert not _marked_alive(agent.session.task_id)  # this run's (xdist may run another test's beside it)
    (agent.workspace / "forked.txt").unlink()
    assert (
        agent.wake(2).status == OK and (agent.workspace / "forked.txt").exists()
    )  # the limit hit, the next day is fine


def _marked_alive(task: str) -> list[int]:
    """Processes whose environment carries a run marker of ``task`` (the harness's runs)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as fh:
                env = fh.read().split(b"\0")
            with open(f"/proc/{name}/stat", "rb") as fh:
                state = fh.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if state != b"Z" and any(e.startswith(f"{RUN_MARKER}={task}-".encode()) for e in env):
            found.append(int(name))
    return found


DAEMON = r"""
import os, sys, time
scrub = os.environ.get("CLAWMARK_DAY") == "1"
if os.fork() == 0:
    os.setsid()                      # a session and process group of its own
    if os.fork() == 0:               # double fork: reparented away from the agent
        code = "import os, time\nopen('daemon.pid', 'w').write(str(os.getpid()))\nwhile True:\n    open('beat', 'a').write('.'); time.sleep(0.02)\n"
        env = {} if scrub else dict(os.environ)  # day 1: no marker left in its environment either
        os.execve(sys.executable, [sys.executable, "-c", code], env)
    os._exit(0)
while not os.path.exists("beat"):
    time.sleep(0.01)
"""


@needs_cgroups
@pytest.mark.parametrize("mode", MODES)
def test_a_double_forked_daemon_is_killed_with_its_turn(tmp_path: Path, hostile: list[Agent], mode: str) -> None:
    """A daemon that called setsid(), double-forked and (day 1) cleared its environment escapes
    the process group and the marker sweep; the run's cgroup still holds it, so it dies with its
    turn. (Before: in ``none`` it kept writing the workspace between turns.)"""
    agent = run_agent(hostile, tmp_path, DAEMON, mode)
    try:
        for day in (1, 2):
            trace = agent.wake(day)
            assert trace.status == OK, trace.detail
            beat = agent.workspace / "beat"
            size = beat.stat().st_size
            time.sleep(0.3)
            assert beat.stat().st_size == size, f"day {day}: the daemon still writes the workspace after its turn"
            if mode == NONE:
                assert trace.extra["leftover_processes_killed"] >= 1
                assert not _alive(int((agent.workspace / "daemon.pid").read_text()))
            beat.unlink()
    finally:
        pid_file = agent.workspace / "daemon.pid"
        if mode == NONE and pid_file.exists() and _alive(pid := int(pid_file.read_text())):
            os.kill(pid, signal.SIGKILL)  # do not leave the test's own daemon behind if it failed


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


# -- output ---------------------------------------------------------------------------------------
FLOOD = r"""
import os, sys
chunk = b"x" * (1 << 20)
for _ in range(256):
    os.write(1, chunk)
os.write(1, b"THE END\n")
sys.stderr.write("done\n")
"""


def test_a_stdout_flood_is_capped_on_disk_and_in_memory(tmp_path: Path, hostile: list[Agent]) -> None:
    """256 MiB on stdout: 16 MiB are kept (first and last 8 MiB around a marker), the drop is
    recorded, the harness holds no more than the tail in memory. (Before: the whole flood went
    to disk and the tail was read by reading the whole file.)"""
    agent = run_agent(hostile, tmp_path, FLOOD, NONE)
    tracemalloc.start()
    try:
        trace = agent.wake(1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert trace.status == OK, trace.detail
    kept = Path(trace.extra["stdout"]).stat().st_size
    assert 16 * MIB <= kept < 16 * MIB + 200, kept
    assert trace.extra["stdout_bytes"] == 256 * MIB + 8
    assert trace.extra["stdout_dropped_bytes"] == 256 * MIB + 8 - 16 * MIB
    assert trace.extra["stdout_tail"].endswith("xxTHE END\n") and trace.extra["stderr_tail"] == "done\n"
    assert b"bytes of output dropped here" in Path(trace.extra["stdout"]).read_bytes()[8 * MIB : 8 * MIB + 200]
    assert peak < 40 * MIB, f"the harness held {peak / MIB:.0f} MiB of the agent's output"


# -- memory, CPU, files ---------------------------------------------------------------------------
HOG = r"""
import os, sys
what = WHAT
if what == "memory":
    block = b"x" * (600 << 20)
    open("allocated", "w").write("600 MiB")
elif what == "cpu":
    while True:
        pass
elif what == "file_size":
    try:
        with open("big.bin", "wb") as fh:
            for _ in range(64):
                fh.write(b"\0" * (1 << 20))
    except OSError as exc:
        open("stopped", "w").write(f"errno {exc.errno}")
        sys.exit(5)
elif what == "open_files":
    fds = []
    try:
        for _ in range(5000):
            fds.append(os.open("/dev/null", os.O_RDONLY))
    except OSError:
        for fd in fds:
            os.close(fd)
        open("opened", "w").write(str(len(fds)))
        sys.exit(6)
"""


def hog(tmp_path: Path, hostile: list[Agent], what: str, limits: str, mode: str = NONE) -> tuple[Agent, TurnTrace]:
    agent = run_agent(hostile, tmp_path, f"WHAT = {what!r}\n{HOG}", mode, limits=parse_limits([limits]))
    return agent, agent.wake(1)


@needs_cgroups
@pytest.mark.parametrize("mode", MODES)
def test_memory_is_limited_for_the_whole_run(tmp_path: Path, hostile: list[Agent], mode: str) -> None:
    agent, trace = hog(tmp_path, hostile, "memory", "memory=128M", mode)
    assert trace.status == FAILED and not (agent.workspace / "allocated").exists()
    assert "the OOM killer, at the memory limit of 134217728 bytes" in trace.detail, trace.detail
    assert (
        trace.extra["limits"]["memory"]["by"] == "memory cgroup" and trace.extra["limits"]["memory"]["oom_kills"] >= 1
    )


def test_without_cgroups_rlimits_stand_in_and_say_so(tmp_path: Path, hostile: list[Agent]) -> None:
    agent, trace = hog(tmp_path, hostile, "memory", "memory=128M,cgroups=off")
    assert trace.status == FAILED and "MemoryError" in trace.detail and not (agent.workspace / "allocated").exists()
    limits = trace.extra["limits"]
    assert limits["memory"] == {"limit": 128 * MIB, "by": "RLIMIT_DATA (per process)"}
    if os.geteuid() == 0:
        assert limits["processes"]["by"] == "not enforced"
        assert "processes: not enforced: no pids cgroup, and RLIMIT_NPROC does not bind root" in limits["notes"]


@pytest.mark.parametrize("mode", MODES)
def test_cpu_time_is_limited_per_process(tmp_path: Path, hostile: list[Agent], mode: str) -> None:
    _, trace = hog(tmp_path, hostile, "cpu", "cpu=1", mode)
    assert trace.status == FAILED and "SIGXCPU: a process used up its CPU time limit of 1 s" in trace.detail, (
        trace.detail
    )
    assert trace.seconds < 10


def test_file_size_and_open_files_are_limited(tmp_path: Path, hostile: list[Agent]) -> None:
    agent, trace = hog(tmp_path, hostile, "file_size", "file_size=8M")
    assert trace.status == FAILED and (agent.workspace / "stopped").read_text() == "errno 27"  # EFBIG
    assert (agent.workspace / "big.bin").stat().st_size == 8 * MIB
    agent, trace = hog(tmp_path / "second", hostile, "open_files", "open_files=100")
    assert trace.status == FAILED and int((agent.workspace / "opened").read_text()) < 100


def test_the_limits_option_is_checked_and_parsed() -> None:
    limits = parse_limits(["processes=64, memory=2G", "cpu=off file_size=512M", "output=1M"])
    assert (limits.processes, limits.memory, limits.cpu, limits.file_size, limits.output) == (
        64,
        2 << 30,
        None,
        512 * MIB,
        MIB,
    )
    assert parse_limits([]) == AgentLimits() and AgentLimits().cpu_seconds(90.5) == 91
    for bad, why in (
        ("memory=1", "below the least"), ("processes=lots", "whole number"), ("output=off", "cannot be turned off"),
        ("colour=red", "KEY=VALUE with KEY one of"), ("memory", "KEY=VALUE"), ("cgroups=maybe", "auto or off"),
    ):  # fmt: skip
        with pytest.raises(LimitsError, match=why):
            parse_limits([bad])


# -- evidence folders ------------------------------------------------------------------------------
PLANTER = r"""
import os
day = os.environ["CLAWMARK_DAY"]
io = os.path.dirname(os.environ["CLAWMARK_MESSAGE_FILE"])
if day == "1":
    os.symlink("/etc/hostname", os.path.join(io, "loot"))                 # points out
    os.symlink("message.md", os.path.join(io, "again.md"))                # points in, still a link
    os.mkfifo(os.path.join(io, "pipe"))                                   # a reader would hang
    os.link(os.environ["CLAWMARK_MESSAGE_FILE"], os.path.join(io, "copy.md"))  # a hard link
    os.makedirs(os.path.join(io, "deep", "er"))
    os.symlink("/", os.path.join(io, "deep", "er", "root"))
    try:  # where tomorrow's stdout will be written (the folder above is the evidence's: none only)
        os.symlink(os.environ["PRECIOUS"], os.path.join(io, "..", "day2.stdout.txt"))
    except OSError:
        pass
print("overwritten")
"""


@pytest.mark.parametrize("mode", MODES)
def test_links_planted_in_the_evidence_folder_are_removed(
    tmp_path: Path, hostile: list[Agent], mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the turn the evidence folder holds plain files only (removals recorded); tomorrow's
    stdout is written to a new file, never through a planted link. (Before: the links stayed in
    the evidence, and in ``none`` the next day's stdout overwrote the host file.)"""
    precious = tmp_path / "precious.txt"
    precious.write_text("do not touch")
    monkeypatch.setenv("PRECIOUS", str(precious))
    agent = run_agent(hostile, tmp_path, PLANTER, mode, options={"pass_env": "PRECIOUS"})
    trace = agent.wake(1)
    assert trace.status == OK, trace.detail
    removed = trace.extra["removed_from_evidence"]
    assert {
        "day1.agent/loot",
        "day1.agent/again.md",
        "day1.agent/pipe",
        "day1.agent/copy.md",
        "day1.agent/message.md",
        "day1.agent/deep/er/root",
    } <= set(removed), removed
    if mode == NONE:
        assert "day2.stdout.txt" in removed
    for folder, _, files in os.walk(agent.session.evidence_dir):
        for name in files:
            st = os.lstat(os.path.join(folder, name))
            assert (
                os.path.isfile(os.path.join(folder, name))
                and not os.path.islink(os.path.join(folder, name))
                and st.st_nlink == 1
            ), name
    assert agent.wake(2).status == OK
    assert precious.read_text() == "do not touch"
    assert (agent.session.evidence_dir / "day2.stdout.txt").read_text() == "overwritten\n"


# -- the workspace, read by the harness -----------------------------------------------------------
@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = World(("fs",), tmp_path / "world", user=Person("Ada Admin", "ada@corp.example"))
    w.start()
    try:
        yield w
    finally:
        w.stop()


def _peak(fn: object) -> tuple[object, int]:
    tracemalloc.start()
    try:
        value = fn()  # type: ignore[operator]
        return value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_huge_workspace_file_is_hashed_by_streaming_not_read_whole(world: World, tmp_path: Path) -> None:
    """A 500 MB file (sparse: cheap to make) costs the snapshot two 64 KiB samples; one of 40 MB
    is hashed in 1 MiB chunks. (Before: both were read whole into memory.)"""
    with open(world.workspace / "huge.bin", "wb") as fh:
        fh.truncate(500 * MIB)
    with open(world.workspace / "big.bin", "wb") as fh:
        fh.truncate(40 * MIB)
    (world.workspace / "small.txt").write_text("hello")
    t0 = time.perf_counter()
    snap, peak = _peak(world.fs.snapshot)
    assert time.perf_counter() - t0 < 10
    files = snap["files"]  # type: ignore[index]
    assert (
        files["huge.bin"]["size"] == 500 * MIB
        and "sampled_sha256" in files["huge.bin"]
        and "base64" not in files["huge.bin"]
    )
    assert files["big.bin"]["size"] == 40 * MIB and "sha256" in files["big.bin"]
    assert files["small.txt"]["base64"] == "aGVsbG8="
    assert "truncated" not in snap  # type: ignore[operator]
    assert peak < 8 * MIB, f"the snapshot held {peak / MIB:.0f} MiB"
    with open(world.workspace / "huge.bin", "r+b") as fh:  # a change at the end shows in the sample
        fh.seek(500 * MIB - 1)
        fh.write(b"!")
    assert world.fs.snapshot()["files"]["huge.bin"]["sampled_sha256"] != files["huge.bin"]["sampled_sha256"]
    with pytest.raises(DeliverableTooLarge, match="more than the 67108864 bytes a checker reads"):
        world.fs.read_bytes("huge.bin")


def test_a_snapshot_of_a_hostile_workspace_is_bounded_and_says_what_it_cut(world: World, tmp_path: Path) -> None:
    world.fs.limits = WorkspaceLimits(max_files=50, inline_total=MIB, max_entries=2000, max_depth=8)
    (world.workspace / "TOOLS.md").unlink()
    for i in range(100):
        (world.workspace / f"f{i:03}.txt").write_bytes(b"x" * (64 << 10))
    deep = world.workspace
    for _ in range(20):
        deep = deep / "d"
    deep.mkdir(parents=True)
    (deep / "bottom.txt").write_text("too deep to see")
    snap = world.fs.snapshot()
    assert len(snap["files"]) == 50 and list(snap["files"])[0] == "f000.txt"
    assert snap["truncated"] == {"files": 50, "not_inlined": 50 - 16, "walk": {"too_deep": 1}}
    assert sum("base64" in e for e in snap["files"].values()) == 16
    assert snap == world.fs.snapshot()  # deterministic
    with pytest.raises(WorkspaceTooLarge, match="folders nested too deep"):
        world.fs.listing()
    for i in range(3000):
        (world.workspace / "many").mkdir(exist_ok=True)
        (world.workspace / "many" / f"{i}").touch()
    assert world.fs.snapshot()["truncated"]["walk"] == {"too_deep": 1, "entries": 1}


def test_links_fifos_and_devices_in_the_workspace_are_never_followed_or_opened(world: World, tmp_path: Path) -> None:
    """What an agent leaves before the after-turn sweep (the harness snapshots then to decide on a
    retry): a link to a big host file is not read, a FIFO not opened; a checker reading them
    fails (the agent's failure) instead of reading the host or hanging. (Before: the link was
    followed and the host file read whole.)"""
    host = tmp_path / "host-secret.bin"
    with open(host, "wb") as fh:
        fh.truncate(300 * MIB)
    ws = world.workspace
    (ws / "out").mkdir()
    os.symlink(host, ws / "out" / "answer.txt")
    os.symlink("/dev/zero", ws / "zero")
    os.mkfifo(ws / "pipe")
    (ws / "mine.txt").write_text("mine")
    os.symlink("mine.txt", ws / "alias.txt")  # inside: still read, as a file
    snap, peak = _peak(world.fs.snapshot)
    assert sorted(snap["files"]) == ["TOOLS.md", "alias.txt", "mine.txt"]  # type: ignore[index]
    assert peak < 4 * MIB
    for rel in ("out/answer.txt", "zero", "pipe"):
        with pytest.raises(DeliverableMissing, match="found something else"):
            world.fs.read_bytes(rel)
    assert world.fs.read_text("alias.txt") == "mine"
    assert world.fs.disarm() == ["out/answer.txt", "pipe", "zero"]
    assert world.fs.listing() == ["TOOLS.md", "alias.txt", "mine.txt"]


def test_harness_writes_replace_links_instead_of_writing_through(world: World, tmp_path: Path) -> None:
    """Turn setup and TOOLS.md never write through a name the agent left, even one the sweep
    keeps (a hard link between two workspace files); the record says where."""
    host = tmp_path / "host.txt"
    host.write_text("host")
    ws = world.workspace
    os.link(host, ws / "linked.txt")
    (ws / "a.txt").write_text("a")
    os.link(ws / "a.txt", ws / "b.txt")  # both names inside: the sweep keeps them
    os.symlink(host, ws / "TOOLS.md.tmp")
    assert world.fs.disarm() == ["TOOLS.md.tmp", "linked.txt"]
    os.link(host, ws / "linked.txt")  # planted again after the sweep
    os.remove(ws / "TOOLS.md")
    os.symlink(host, ws / "TOOLS.md")
    world.fs.write("linked.txt", "setup")
    world.fs.write("a.txt", "new a")
    world.write_tools_md()
    assert host.read_text() == "host" and (ws / "b.txt").read_text() == "a" and (ws / "a.txt").read_text() == "new a"
    assert world.evidence_notes()["harness_replaced_in_workspace"] == ["TOOLS.md", "a.txt", "linked.txt"]
    with pytest.raises(OSError, match="lies outside"):
        (ws / "up").symlink_to(tmp_path)
        world.fs.write("up/escape.txt", "x")
    assert not (tmp_path / "escape.txt").exists()


# -- end to end: the whole harness, through pytest -------------------------------------------------
def test_a_hard_link_to_a_host_file_is_never_written_through(
    pytester: pytest.Pytester, basic_task: Path, tmp_path: Path
) -> None:
    """With ``none`` (the agent runs as you), an agent replaces TOOLS.md and tomorrow's input by
    hard links to host files. The sweep removes them (recorded) and the next day's setup and
    TOOLS.md are written as new files: the host files stay untouched. (Before: the harness
    overwrote both host files on day 2.)"""
    precious = [tmp_path / "precious-1.txt", tmp_path / "precious-2.txt"]
    for p in precious:
        p.write_text("do not touch")
    agent = pytester.makefile(
        ".py",
        linker=f"""
import os
if os.environ["CLAWMARK_DAY"] == "1":
    os.remove("TOOLS.md"); os.link({str(precious[0])!r}, "TOOLS.md")                # rewritten by the harness every day
    os.remove("inbox/number.txt"); os.link({str(precious[1])!r}, "inbox/number.txt")  # day 2's setup writes it
    open("linked", "w").write("yes")
""",
    )
    result = pytester.runpytest(
        "--agent=command",
        f"--agent-option=cmd={sys.executable} {agent}",
        "--agent-isolation=none",
        "--agent-limits=processes=64",
        "--clawmark-json=out.json",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # no answers: checkers fail; nothing errors
    assert [p.read_text() for p in precious] == ["do not touch"] * 2
    doc = read_json(pytester.path / "out.json")
    t = doc["tasks"][0]
    assert not t["errored"], t["errors"]
    day1 = t["days"][0]["trace"]["extra"]
    assert day1["removed_from_workspace"] == ["TOOLS.md", "inbox/number.txt"]
    assert doc["run"]["agent_limits"]["processes"] == 64 and day1["limits"]["processes"]["limit"] == 64


@needs_cgroups
def test_a_world_that_hit_the_limits_goes_on_and_scores(pytester: pytest.Pytester, basic_task: Path) -> None:
    """Day 1 the agent forks to the limit, floods stdout and fills evidence; it still answers,
    and so does day 2: limits stop the harm, not the benchmark."""
    agent = pytester.makefile(
        ".py",
        worker=r"""
import os, time
day = os.environ["CLAWMARK_DAY"]
if day == "1":
    for _ in range(200):
        try:
            if os.fork() == 0:
                time.sleep(60); os._exit(0)
        except OSError:
            break
    os.write(1, b"y" * (3 << 20))
    os.makedirs("scratch", exist_ok=True)
    for i in range(40):
        open(f"scratch/{i:02}.bin", "wb").write(os.urandom(100_000))
os.makedirs("out", exist_ok=True)
open("out/answer.txt", "w").write(str(int(open("inbox/number.txt").read()) + 1))
""",
    )
    result = pytester.runpytest(
        "--agent=command",
        f"--agent-option=cmd={sys.executable} {agent}",
        "--agent-isolation=none",
        "--agent-limits",
        "processes=32,output=1M",
        "--agent-limits=evidence_total=1M",
        "--clawmark-json=out.json",
    )
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()[-2000:]
    t = read_json(pytester.path / "out.json")["tasks"][0]
    assert t["score"] == 1.0 and [d["status"] for d in t["days"]] == ["ok", "ok"]
    day1 = t["days"][0]["trace"]["extra"]
    assert day1["limits"]["processes"]["refused"] >= 1 and day1["stdout_dropped_bytes"] == (3 << 20) - (1 << 20)
    assert day1["workspace_snapshot_truncated"] == {"not_inlined": 30}
    assert "workspace_snapshot_truncated" in t["days"][1]["trace"]["extra"]


def test_bad_limits_stop_the_run_before_any_world(pytester: pytest.Pytester, basic_task: Path) -> None:
    result = pytester.runpytest("--agent=noop", "--agent-limits=memory=1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: clawmark: agent limit memory=1 is below the least an agent process can run with (64M)"]
    )
