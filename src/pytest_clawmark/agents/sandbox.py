"""The agent sandbox: the argv that runs an agent process in a private view of the filesystem.

Why: an agent process (the ``command`` agent, OpenClaw) runs on the same machine as the harness,
whose folders hold everything a benchmark must keep from it: the task modules with their checkers
and reference solutions, evidence of later days, other trials' worlds and the run's evidence.
The admin tokens live only in the pytest process's memory, so a process that cannot see the
pytest process (a new PID namespace with its own ``/proc``) cannot read them.

On Linux we use bubblewrap (``bwrap``, Debian package ``bubblewrap``): new user, mount, PID, IPC,
UTS and cgroup namespaces; a root made of read-only binds of what programs need (``/usr``,
pieces of ``/etc``, the Python running the harness, paths the user adds), the agent's workspace
and home read-write, a private ``/tmp``, a fresh ``/proc`` and a minimal ``/dev``; no
capabilities, no nested user namespaces, and everything dies with the sandbox.

What it does NOT do: the network namespace is the host's, because the world's services listen on
the host's loopback (inside the pytest process); so the agent can reach any TCP port on this
machine and, if the machine has it, the internet (a real model provider needs that). Abstract
Unix sockets are shared too. See docs/agents.md, "Isolation".

``--agent-isolation``: ``auto`` (bwrap when it works here; else a run of an agent that starts
processes is refused), ``bwrap`` (refuse to start without it), ``none`` (no isolation, asked for
by name: debugging only; reported as such), ``container`` (the docker backend: the agent in its own
container on its world's private network, :mod:`.container_sandbox`).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

AUTO, BWRAP, NONE, CONTAINER = "auto", "bwrap", "none", "container"
MODES = (AUTO, BWRAP, NONE, CONTAINER)
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install -y bubblewrap)"

WORKSPACE_ALIAS = "/workspace"
"""Where every sandboxed agent also sees its workspace (besides its own path): tasks in the
upstream ClawMark format, and agents used to containers, address the workspace as ``/workspace``."""

TOP_LEVEL = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""The program tree. On merged-/usr systems all but /usr are symlinks, recreated as symlinks."""

ETC = (
    "ssl",
    "ca-certificates",
    "ca-certificates.conf",
    "pki",
    "crypto-policies",  # TLS roots
    "alternatives",  # Debian's /usr/bin/* -> /etc/alternatives/* links (awk, editor, ...)
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",  # the dynamic linker finds libraries
    "hosts",
    "host.conf",
    "nsswitch.conf",
    "gai.conf",
    "resolv.conf",
    "protocols",
    "services",
    "passwd",
    "group",  # user-name lookups (getpwuid) of programs that insist on them
    "localtime",
    "timezone",
    "mime.types",
    "os-release",
    "python3",
    "python3.11",
    "python3.12",
    "python3.13",
)
"""The pieces of /etc programs need. Not: /etc/environment, npmrc, pip.conf, gitconfig, ssh,
shadow, machine-id — configuration and secrets of the host stay on the host."""


class IsolationError(Exception):
    """Isolation cannot be provided as asked (an unknown mode, bwrap missing or broken, a bind
    that would expose what must stay hidden)."""


@dataclass(frozen=True)
class Isolation:
    """The isolation choice of an agent session and the paths that must stay out of its view.

    ``hidden``: paths the sandbox must neither bind nor bind a folder above (the task's folder,
    the run's evidence root). The pytest process's working folder and the temp folder (where
    every world lives) are always protected from being bound whole.
    """

    mode: str = NONE
    hidden: tuple[Path, ...] = ()
    network: str = ""
    """``container`` mode: the world's private network the agent's container joins."""
    gateway: str = ""
    """``container`` mode: the host's address on that network (where a scripted model listens)."""


@dataclass(frozen=True)
class Resolved:
    """The outcome of ``--agent-isolation``: the mode in effect and, when ``auto`` found no
    working sandbox, why (``warning``, one line)."""

    requested: str
    mode: str
    warning: str = ""


def resolve_isolation(requested: str | None) -> Resolved:
    """Turn the ``--agent-isolation`` value into the mode in effect.

    ``auto`` resolves to ``none`` with the reason in ``warning`` when bwrap is missing or does not
    work here — and the run then refuses an agent that starts processes (plugin preflight: a
    scored run never runs an agent unconfined unless ``none`` was asked for by name); ``bwrap``
    raises :class:`IsolationError` (one line, how to fix) in the same case.
    """
    value = (requested or AUTO).strip().lower()
    if value not in MODES:
        raise IsolationError(f"--agent-isolation takes {', '.join(MODES)}, not {requested!r}")
    if value == NONE:
        return Resolved(value, NONE)
    if value == CONTAINER:  # agents/container_sandbox.py; the backend and the image are checked by the run
        from .container_sandbox import engine_problem

        problem = engine_problem()
        if problem:
            raise IsolationError(f"--agent-isolation=container, but {problem}")
        return Resolved(value, CONTAINER)
    problem = bwrap_problem()
    if not problem:
        return Resolved(value, BWRAP)
    if value == BWRAP:
        raise IsolationError(f"--agent-isolation=bwrap, but {problem}")
    return Resolved(value, NONE, problem)


def bwrap_executable() -> str | None:
    return shutil.which("bwrap")


@functools.cache
def bwrap_problem() -> str:
    """'' when bubblewrap works on this machine with our flags, else why not (one line).

    Cached per process: it costs one sandboxed ``true`` (a few milliseconds).
    """
    exe = bwrap_executable()
    if exe is None:
        return f"bwrap is not on PATH: {INSTALL_HINT}"
    true = shutil.which("true") or "/bin/true"
    try:
        view = Sandbox(Isolation(BWRAP), readonly=default_readonly(), writable=())
        argv = view.wrap([true], cwd=Path("/"))
    except IsolationError as exc:
        return str(exc)
    try:
        done = subprocess.run(argv, env={"PATH": "/usr/bin:/bin"}, capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap does not run here: {exc}"
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"bwrap does not work here (exit {done.returncode}: {why[-1] if why else 'no message'}); user namespaces may be disabled"
    return ""


def default_readonly() -> list[Path]:
    """What programs need, read-only: the program tree, pieces of /etc and the harness's Python.

    The harness's interpreter is bound by its prefixes (``sys.prefix``, ``sys.base_prefix``), never
    by the project checkout: an editable install only puts a path into the venv's ``.pth``, and that
    path simply does not exist inside the sandbox.
    """
    paths = [Path(p) for p in TOP_LEVEL]
    paths += [Path("/etc", name) for name in ETC]
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}:
        paths.append(Path(prefix))
    return paths


def parse_paths(text: str) -> list[Path]:
    """``"/a:/b"`` (the ``sandbox_ro`` agent option) -> absolute paths; a bad entry is an error."""
    paths = []
    for part in text.split(os.pathsep):
        part = part.strip()
        if not part:
            continue
        path = Path(os.path.expanduser(part))
        if not path.is_absolute():
            raise IsolationError(f"sandbox_ro paths must be absolute, got {part!r}")
        if not path.exists():
            raise IsolationError(f"sandbox_ro path {part!r} does not exist")
        paths.append(path)
    return paths


class Sandbox:
    """A private filesystem view for the processes of one agent session.

    Built once per session (checks its binds against what must stay hidden), then
    :meth:`wrap` turns each day's command line into a ``bwrap`` command line; with isolation
    ``none`` it returns the command unchanged.
    """

    def __init__(
        self,
        isolation: Isolation,
        *,
        readonly: Iterable[Path],
        writable: Iterable[Path],
        aliases: Mapping[str, Path] | None = None,
    ) -> None:
        self.isolation = isolation
        self.writable = tuple(Path(p) for p in writable)
        self.readonly = tuple(Path(p) for p in readonly)
        self.aliases = {str(dest): Path(src) for dest, src in (aliases or {}).items()}
        """Read-write binds at another place (``/workspace`` -> the workspace); each source must
        be one of ``writable``."""
        for dest, src in self.aliases.items():
            if src not in self.writable or not os.path.isabs(dest):
                raise IsolationError(
                    f"alias {dest!r} must be an absolute path for one of the writable folders, got {src}"
                )
        if isolation.mode not in (BWRAP, NONE):
            raise IsolationError(f"agent isolation must be resolved to bwrap or none, got {isolation.mode!r}")
        if isolation.mode == BWRAP:
            for path in self.readonly + self.writable:
                _check_exposure(path, isolation.hidden)

    @property
    def active(self) -> bool:
        return self.isolation.mode == BWRAP

    def wrap(
        self, argv: Sequence[str], *, cwd: Path, writable: Iterable[Path] = (), info_fd: int | None = None
    ) -> list[str]:
        """The command line that runs ``argv`` in this view, working in ``cwd``.

        ``writable``: harness-made folders for this call only (the day's message/trace folder).
        Absolute paths of existing files named in ``argv`` (the agent's script) are bound
        read-only, alone: naming a file in the command line is how a user shows it to the agent.
        ``info_fd``: bwrap writes the sandbox's PID 1 there (see :func:`wait_until_gone`); the
        agent never sees that descriptor.
        """
        argv = list(argv)
        if not self.active:
            return argv
        exe = bwrap_executable()
        if exe is None:
            raise IsolationError(f"bwrap disappeared from PATH: {INSTALL_HINT}")
        ro: dict[str, str] = {}
        for path in sorted(self.readonly, key=lambda p: len(p.parts)):
            if (path.is_symlink() and str(path) in TOP_LEVEL) or _covered(str(path), ro):
                continue  # recreated as a symlink below, or already visible through a parent
            ro[str(path)] = "--ro-bind-try"
        for word in argv:
            if os.path.isabs(word) and os.path.isfile(word) and not _covered(word, ro):
                ro[word] = "--ro-bind"
        rw = {str(p): "--bind" for p in (*self.writable, *writable)}
        binds = {**ro, **rw}
        args = [
            exe,
            "--unshare-user",
            "--disable-userns",  # no nested namespaces: no way to regain privileges
            "--unshare-pid",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--hostname",
            "clawmark-agent",
            "--die-with-parent",  # the harness dies -> the agent dies
            "--cap-drop",
            "ALL",
            "--proc",
            "/proc",  # a fresh /proc: only the sandbox's own processes
            "--dev",
            "/dev",
            "--tmpfs",
            "/tmp",
            "--tmpfs",
            "/var/tmp",
            "--tmpfs",
            "/run",
        ]
        if info_fd is not None:
            args += ["--info-fd", str(info_fd)]
        for path in TOP_LEVEL:
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
        # parents before children, so a bind inside another (or inside /tmp) lands on top of it
        mounts = [(binds[dest], dest, dest) for dest in binds]
        mounts += [("--bind", str(src), dest) for dest, src in self.aliases.items()]
        for flag, src, dest in sorted(mounts, key=lambda m: (m[2].count("/"), m[2])):
            args += [flag, src, dest]
        args += ["--chdir", str(cwd), "--"]
        return args + argv


def wait_until_gone(info: bytes, timeout: float = 5.0) -> bool:
    """Wait until the sandbox whose bwrap ``--info-fd`` output is ``info`` has no process left.

    Why: after a kill, bwrap's own process is reaped before the kernel has finished tearing down
    the PID namespace; the sandbox is gone for sure only when its PID 1 is. Returns False on
    timeout (or when ``info`` does not name a PID: the sandbox never started).
    """
    try:
        pid = int(json.loads(info or b"{}").get("child-pid", 0))
    except (ValueError, AttributeError):
        return False
    if pid <= 0:
        return False
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except (FileNotFoundError, ProcessLookupError):
            return True
        if fields and fields[0] in ("Z", "X"):  # dead, waiting to be reaped
            return True
        time.sleep(0.005)
    return False


def bindable(path: Path, isolation: Isolation) -> bool:
    """Whether the sandbox of ``isolation`` may show ``path`` (it exposes nothing hidden)."""
    try:
        _check_exposure(path, isolation.hidden)
    except IsolationError:
        return False
    return True


def _check_exposure(path: Path, hidden: Sequence[Path]) -> None:
    """Refuse a bind that would show a hidden path (or, for protected folders, everything in them)."""
    real = Path(os.path.realpath(path))
    strict = [Path(os.path.realpath(h)) for h in hidden]
    containers = strict + [Path(os.path.realpath(p)) for p in (os.getcwd(), tempfile.gettempdir())]
    for h in containers:
        if h == real or h.is_relative_to(real):
            raise IsolationError(f"the sandbox would expose {h} by binding {path}; bind something narrower")
    for h in strict:
        if real.is_relative_to(h):
            raise IsolationError(f"the sandbox must not bind {path}: it lies inside {h}, which the agent must not read")


def _covered(path: str, binds: Iterable[str]) -> bool:
    return any(path == b or path.startswith(b.rstrip("/") + "/") for b in binds)


# -- probes: can a program start in this view? ---------------------------------------------------
# Why: an agent command that cannot start at all (a typo, a program the sandbox does not show,
# a script whose #! interpreter lives in a hidden folder) must be reported once, before the first
# turn, as the harness's problem — not scored as an agent that failed every day. Adapters call
# these from their ``preflight`` (and the command agent to confirm a sandbox fault after a turn).

PROBE_TIMEOUT = 20.0
"""Seconds a probe may take (a sandboxed ``sh`` takes a few milliseconds)."""

BWRAP_PREFIX = "bwrap: "
"""How bubblewrap's own error messages start (on stderr; it then exits with status 1)."""


@dataclass(frozen=True)
class Need:
    """Something that must exist for a program to start: ``what`` is an absolute path, or a bare
    command name looked up on ``PATH``; ``why`` says where the need comes from."""

    what: str
    why: str = "the command"
    executable: bool = True


def exec_needs(program: str) -> list[Need]:
    """What the kernel must find to exec the file ``program`` (a path): the file, the interpreter
    of its ``#!`` line (and the program ``env`` runs there, looked up on ``PATH``), and the ELF
    interpreter (dynamic loader) of each binary — followed a few levels deep, as the kernel does."""
    needs = [Need(program)]
    todo, seen = [program], set()
    for _ in range(4):
        next_todo = []
        for path in todo:
            if not os.path.isfile(path) or path in seen:
                continue
            seen.add(path)
            for need in _interpreters(path):
                if need not in needs:
                    needs.append(need)
                    if "/" in need.what:
                        next_todo.append(need.what)
        todo = next_todo
    return needs


def exec_candidates(command: str, search_path: str) -> list[list[Need]]:
    """The ways ``execvp(command)`` with ``PATH=search_path`` may start it, as :func:`exec_needs`
    lists: one for a path, one per ``PATH`` folder holding an executable ``command`` for a bare
    name (``execvp`` goes on to the next folder when one fails). Empty: nothing to start."""
    if "/" in command:
        return [exec_needs(command)]
    found: list[list[Need]] = []
    for folder in search_path.split(os.pathsep):
        path = os.path.join(folder, command)
        if folder and os.path.isfile(path) and os.access(path, os.X_OK) and all(path != alt[0].what for alt in found):
            found.append(exec_needs(path))
    return found


def host_lookup(need: Need, search_path: str) -> str | None:
    """Where ``need`` is on the host, or None when it is missing (or not executable)."""
    if "/" not in need.what:
        return shutil.which(need.what, path=search_path)
    if not need.executable:
        return need.what if os.path.exists(need.what) else None
    return need.what if os.path.isfile(need.what) and os.access(need.what, os.X_OK) else None


def host_missing(candidates: Sequence[Sequence[Need]], search_path: str) -> Need | None:
    """None when one of ``candidates`` has everything on the host, else the first one's first gap."""
    gaps = [next((n for n in alt if host_lookup(n, search_path) is None), None) for alt in candidates]
    return None if any(g is None for g in gaps) else gaps[0]


def _interpreters(path: str) -> list[Need]:
    try:
        with open(path, "rb") as fh:
            head = fh.read(256)  # the kernel reads as much of a #! line (BINPRM_BUF_SIZE)
    except OSError:
        return []
    if head.startswith(b"#!"):
        words = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
        if not words or not os.path.isabs(words[0]):
            return []
        needs = [Need(words[0], "its #! line")]
        if os.path.basename(words[0]) == "env":  # #!/usr/bin/env [-S] [NAME=VALUE] program
            program = next((w for w in words[1:] if not w.startswith("-") and "=" not in w), None)
            if program:
                needs.append(Need(program, "its #! line, through env"))
        return needs
    loader = _elf_interpreter(path, head)
    return [Need(loader, "its ELF interpreter", executable=False)] if loader else []


def _elf_interpreter(path: str, head: bytes) -> str | None:
    """The PT_INTERP path of a dynamically linked ELF binary (None for anything else)."""
    if head[:4] != b"\x7fELF" or len(head) < 64 or head[4] not in (1, 2) or head[5] not in (1, 2):
        return None
    end = "<" if head[5] == 1 else ">"
    if head[4] == 2:  # 64-bit
        (phoff,), (phentsize, phnum) = (
            struct.unpack_from(end + "Q", head, 0x20),
            struct.unpack_from(end + "HH", head, 0x36),
        )
        entry = end + "I4xQ16xQ"  # Elf64_Phdr: p_type, p_offset, p_filesz
    else:
        (phoff,), (phentsize, phnum) = (
            struct.unpack_from(end + "I", head, 0x1C),
            struct.unpack_from(end + "HH", head, 0x2A),
        )
        entry = end + "II8xI"  # Elf32_Phdr: p_type, p_offset, p_filesz
    try:
        with open(path, "rb") as fh:
            for i in range(min(phnum, 256)):
                fh.seek(phoff + i * phentsize)
                raw = fh.read(struct.calcsize(entry))
                if len(raw) < struct.calcsize(entry):
                    return None
                p_type, p_offset, p_filesz = struct.unpack(entry, raw)
                if p_type == 3:  # PT_INTERP
                    fh.seek(p_offset)
                    name = fh.read(min(p_filesz, 4096)).split(b"\0", 1)[0].decode("utf-8", "replace")
                    return name if os.path.isabs(name) else None
    except (OSError, struct.error):
        return None
    return None


@dataclass(frozen=True)
class ProbeResult:
    """How a probe ended: ``returncode`` None when it overran :data:`PROBE_TIMEOUT`."""

    returncode: int | None
    stderr: str

    @property
    def bwrap_error(self) -> str:
        """bwrap's own error line (``bwrap: ...``), '' when there is none."""
        return bwrap_error_line(self.stderr)


def bwrap_error_line(stderr: str) -> str:
    """The last line of ``stderr`` when it is one of bwrap's own messages, else ''.

    bwrap prints one ``bwrap: ...`` line and exits 1 when it cannot set the sandbox up or cannot
    exec the command; an agent that ran prints what it likes (so callers must confirm — see
    :func:`first_missing`)."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    return lines[-1].strip()[:300] if lines and lines[-1].startswith(BWRAP_PREFIX) else ""


def run_probe(
    sandbox: Sandbox,
    argv: Sequence[str],
    *,
    cwd: Path,
    env: dict[str, str],
    writable: Iterable[Path] = (),
    timeout: float = PROBE_TIMEOUT,
) -> ProbeResult:
    """Run a short harness-made command in ``sandbox`` (as a turn would run the agent) and wait
    until every process of it is gone."""
    from .process import kill_group

    info_read, info_write = os.pipe() if sandbox.active else (-1, -1)
    try:
        wrapped = sandbox.wrap(argv, cwd=cwd, writable=writable, info_fd=info_write if info_write >= 0 else None)
        proc = subprocess.Popen(
            wrapped, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            start_new_session=True, pass_fds=(info_write,) if info_write >= 0 else (),
        )  # fmt: skip
    except (OSError, IsolationError) as exc:
        for fd in (info_read, info_write):
            if fd >= 0:
                os.close(fd)
        return ProbeResult(127, f"cannot run the probe: {exc}")
    if info_write >= 0:
        os.close(info_write)
    try:
        _, err = proc.communicate(timeout=timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        kill_group(proc)
        err, code = b"", None
    except BaseException:
        kill_group(proc)
        raise
    finally:
        if info_read >= 0:
            os.set_blocking(info_read, False)
            try:
                info = os.read(info_read, 65536)
            except BlockingIOError:
                info = b""
            os.close(info_read)
            wait_until_gone(info)
    return ProbeResult(code, (err or b"").decode("utf-8", "replace"))


# $0 is a label; then the candidates, each "|" and its needs (x:/path executable, e:/path exists,
# p:name on PATH); then "--" and words there only so that wrap() binds the same files the real
# command line gets bound. Exit 0: some candidate has all it needs; else 10 + the index (in the
# words) of the first candidate's first missing need.
_NEEDS_SCRIPT = r"""
i=9; first=0; seen=0; bad=
for c in "$@"; do
  i=$((i+1))
  [ "$c" = -- ] && break
  case $c in
    "|") if [ "$seen" = 1 ] && [ -z "$bad" ]; then exit 0; fi; seen=1; bad=; continue ;;
    x:*) f=${c#x:}; if [ -f "$f" ] && [ -x "$f" ]; then continue; fi ;;
    e:*) if [ -e "${c#e:}" ]; then continue; fi ;;
    p:*) n=${c#p:}; ok=; IFS=:
         for d in $PATH; do if [ -f "${d:-.}/$n" ] && [ -x "${d:-.}/$n" ]; then ok=1; break; fi; done
         unset IFS; if [ -n "$ok" ]; then continue; fi ;;
  esac
  bad=1; if [ "$first" = 0 ]; then first=$i; fi
done
if [ "$seen" = 1 ] && [ -z "$bad" ]; then exit 0; fi
exit $first
"""


def first_missing(
    sandbox: Sandbox,
    candidates: Sequence[Sequence[Need]],
    *,
    cwd: Path,
    env: dict[str, str],
    writable: Iterable[Path] = (),
    argv: Sequence[str] = (),
) -> tuple[Need | None, ProbeResult]:
    """Probe ``sandbox``: None when one of ``candidates`` (see :func:`exec_candidates`) has all it
    needs there — or when the probe itself failed (see the result's ``returncode`` and
    ``bwrap_error``) — else the first candidate's first need the sandbox does not show.
    ``argv``: the real command line, so the probe's view binds exactly the files the real one does."""
    needs: list[Need | None] = []
    for alt in candidates:
        needs += [None, *alt]
    needs = needs[:240]  # exit statuses stop at 255
    words = [
        "|" if n is None else ("p:" if "/" not in n.what else "x:" if n.executable else "e:") + n.what for n in needs
    ]
    result = run_probe(
        sandbox,
        ["/bin/sh", "-c", _NEEDS_SCRIPT, "clawmark-probe", *words, "--", *argv],
        cwd=cwd,
        env=env,
        writable=writable,
    )
    code = result.returncode
    if code is not None and 10 <= code < 10 + len(needs) and not result.bwrap_error:
        return needs[code - 10], result
    return None, result


@contextlib.contextmanager
def probe_folders(prefix: str = "clawmark-probe-") -> Iterator[tuple[Path, Path]]:
    """A throw-away workspace and home for a probe, removed afterwards (whatever happens)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as root:
        workspace, home = Path(root, "workspace"), Path(root, "home")
        workspace.mkdir()
        home.mkdir()
        yield workspace, home
