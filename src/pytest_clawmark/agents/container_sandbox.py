"""``--agent-isolation=container``: each day's agent command runs in its own container, on its
world's private network only.

Why, beside bubblewrap: bwrap hides the harness's files but shares the host's network (the world's
embedded services listen on its loopback), so an agent can reach any port of the machine. On the
docker backend the world's services are containers; the agent's container joins only the world's
*internal* network (:mod:`..backends.network`): it reaches ``mail``, ``calendar``, ``kb`` and
``sheets`` by name, and nothing else — not the host's loopback (in a container, loopback is the
container's own), not the harness, not another trial's containers, not the internet.

What the container sees: its workspace (at its host path and at ``/workspace``), its home, the
day's message/trace folder, read-only what the command line names (its script's folder); the
image's own root file system, read-only, with a private ``/tmp``. It runs as the harness's user,
with no capabilities, ``no-new-privileges``, and the run's process and memory limits as the
engine's (``--pids-limit``, ``--memory``). The turn's time limit kills the ``docker run`` client,
and the container is removed after every turn whatever happened (after the engine was asked
whether it, not the agent, failed: :func:`container_fault`), so nothing of the agent runs between
turns.

The image: ``--agent-option image=...`` (any image with the agent's interpreter), by default
``clawmark/harness`` (Python 3.11 with imapclient, caldav, httpx, notion-client, gspread).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from .limits import AgentLimits
from .sandbox import WORKSPACE_ALIAS, IsolationError

DEFAULT_IMAGE = "clawmark/harness:latest"
AGENT_LABEL = "org.clawmark.agent"
HOST_ONLY = frozenset({"PATH"})
"""Agent variables not passed into the container: its ``PATH`` is the image's own."""


def docker_cli() -> str:
    exe = shutil.which("docker")
    if exe is None:
        raise IsolationError("--agent-isolation=container needs the docker CLI (Debian: apt-get install docker.io)")
    return exe


def engine_problem() -> str:
    """'' when an engine answers (the agent's containers need one), else why not."""
    from ..backends.images import engine_problem as problem

    return problem()


def image_problem(image: str) -> str:
    """'' when ``image`` is present on the engine, else how to get it (nothing is pulled)."""
    r = subprocess.run(
        [docker_cli(), "image", "inspect", "--format", "{{.Id}}", image], capture_output=True, timeout=60, check=False
    )
    if r.returncode == 0:
        return ""
    if image == DEFAULT_IMAGE:
        return f"the agent image {image} is not built: run `clawmark images build` (or give --agent-option image=...)"
    return f"the agent image {image} is not on the engine (build or load it first; nothing is pulled)"


class ContainerSandbox:
    """The ``docker run`` command line of one agent session's days."""

    active = True

    def __init__(
        self,
        *,
        image: str,
        network: str,
        readonly: Iterable[Path],
        writable: Iterable[Path],
        workspace: Path,
        limits: AgentLimits,
    ) -> None:
        if not network:
            raise IsolationError(
                "--agent-isolation=container needs the world's private network: run with --clawmark-backend=docker"
            )
        self.image, self.network, self.limits = image, network, limits
        self.readonly = tuple(Path(p) for p in readonly)
        self.writable = tuple(Path(p) for p in writable)
        self.workspace = workspace

    def wrap(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str],
        name: str,
        writable: Iterable[Path] = (),
        keep_path: bool = False,
    ) -> list[str]:
        """``docker run`` of ``argv`` in a new container named ``name``, working in ``cwd``, with the
        agent variables ``env`` (passed by name: their values come from the client's environment).
        ``keep_path``: the agent's ``PATH`` too (OpenClaw's names its Node, mounted from the host)."""
        uid, gid = os.getuid(), os.getgid()
        args = [
            docker_cli(), "run", "--interactive", "--name", name,  # removed by the harness after the turn
            "--network", self.network, "--hostname", "clawmark-agent",
            "--user", f"{uid}:{gid}", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
            "--read-only", "--tmpfs", "/tmp:rw,nosuid,nodev", "--tmpfs", "/var/tmp:rw,nosuid,nodev",
            "--label", f"{AGENT_LABEL}={name}", "--label", f"org.clawmark.pid={os.getpid()}",
            "--workdir", str(cwd), "--entrypoint", argv[0],
        ]  # fmt: skip
        if self.limits.processes:
            args += ["--pids-limit", str(self.limits.processes)]
        if self.limits.memory:
            args += ["--memory", str(self.limits.memory), "--memory-swap", str(self.limits.memory)]
        mounts: dict[str, str] = {}
        for path in self.readonly:
            if path.exists():
                mounts[str(path)] = f"{path}:{path}:ro"
        for word in argv:  # a file named in the command line (the agent's script) is shown, alone
            if os.path.isabs(word) and os.path.isfile(word) and word not in mounts:
                mounts[word] = f"{word}:{word}:ro"
        for path in (*self.writable, *writable):
            mounts[str(path)] = f"{path}:{path}:rw"
        for _, spec in sorted(mounts.items(), key=lambda m: (m[0].count("/"), m[0])):
            args += ["--volume", spec]
        args += ["--volume", f"{self.workspace}:{WORKSPACE_ALIAS}:rw"]
        for key in sorted(env):
            if key not in HOST_ONLY or keep_path:
                args += ["--env", key]
        return [*args, self.image, *argv[1:]]

    def client_env(self, env: Mapping[str, str]) -> dict[str, str]:
        """The ``docker run`` client's own environment: the agent's variables (to pass by name)
        and what the client needs to reach the engine. The client finds ``docker`` by its full
        path, so the agent's ``PATH`` (meant for inside the container) can stay as it is."""
        own = {k: os.environ[k] for k in ("DOCKER_HOST", "DOCKER_CONFIG", "DOCKER_CONTEXT") if k in os.environ}
        return {**env, **own}

    def helper(self, image: str, argv: Sequence[str], *, readonly: Iterable[Path]) -> tuple[list[str], dict[str, str]]:
        """A harness-side program of ``image`` (the Node that reads an agent's session store),
        in a throw-away container with no network, seeing ``readonly`` only; and the client's env."""
        uid, gid = os.getuid(), os.getgid()
        args = [
            docker_cli(), "run", "--rm", "--network", "none", "--user", f"{uid}:{gid}", "--cap-drop", "ALL",
            "--security-opt", "no-new-privileges", "--read-only", "--tmpfs", "/tmp:rw,nosuid,nodev",
            "--label", f"{AGENT_LABEL}=helper", "--label", f"org.clawmark.pid={os.getpid()}", "--entrypoint", argv[0],
        ]  # fmt: skip
        if self.limits.memory:
            args += ["--memory", str(self.limits.memory)]
        for path in readonly:
            args += ["--volume", f"{path}:{path}:ro"]
        return [*args, image, *argv[1:]], self.client_env({})

    @staticmethod
    def remove(name: str) -> None:
        """Remove the day's container (killing whatever of the agent still runs in it)."""
        subprocess.run([docker_cli(), "rm", "--force", name], capture_output=True, timeout=60, check=False)


class DayContainer:
    """One day of an agent in a container: its ``docker run`` line, the engine's verdict when the
    run failed, and its removal (whatever happened) — the same three steps for every agent adapter."""

    def __init__(self, sandbox: ContainerSandbox) -> None:
        self.sandbox = sandbox
        self.name = f"clawmark-agent-{uuid.uuid4().hex[:16]}"

    def command(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str],
        writable: Iterable[Path] = (),
        keep_path: bool = False,
    ) -> tuple[list[str], dict[str, str]]:
        """The client's command line and its environment (see :meth:`ContainerSandbox.wrap`)."""
        return self.sandbox.wrap(
            argv, cwd=cwd, env=env, name=self.name, writable=writable, keep_path=keep_path
        ), self.sandbox.client_env(env)

    def fault(self, returncode: int | None, err_path: Path, *, timed_out: bool) -> str:
        """The engine's error when it, not the agent, failed the day (ask before :meth:`remove`)."""
        return "" if timed_out else container_fault(returncode or 0, self.name, err_path)

    def remove(self) -> None:
        """The client may be gone (the time limit), its container not: nothing of the day outlives it."""
        ContainerSandbox.remove(self.name)


def container_fault(returncode: int, name: str, err_path: Path) -> str:
    """The engine's error when it, not the agent, failed the turn; else ''.

    ``docker run`` exits 125 when the container cannot be created and 126/127 when its command
    cannot be run — but an agent can exit with those codes too, and print anything. So the engine
    is asked (before the container is removed): a container that does not exist was never created,
    and one whose state holds an error never ran its command; otherwise the exit is the agent's own.
    """
    if returncode not in (125, 126, 127):
        return ""
    r = subprocess.run(
        [docker_cli(), "container", "inspect", "--format", "{{json .State}}", name],
        capture_output=True,
        timeout=60,
        check=False,
    )
    if r.returncode != 0:
        return f"the engine could not create the agent's container: {_last_line(err_path)}"
    try:
        error = str(json.loads(r.stdout).get("Error") or "")
    except ValueError:
        return ""
    return f"the engine could not run the agent's command: {error[:300]}" if error else ""


def _last_line(path: Path) -> str:
    try:
        with open(path, "rb") as f:
            lines = f.read(64 * 1024).decode("utf-8", "replace").strip().splitlines()
    except OSError:
        return "(no output)"
    return lines[-1][:300] if lines else "(no output)"
