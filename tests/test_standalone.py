"""A world service alone (the servers image's entry point) and the backend option, without an
engine: configuration errors are one clear line, the control plane wants the admin token."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from conftest import REPO

ENTRY = [sys.executable, "-m", "pytest_clawmark.servers.standalone"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def kb_alone(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    env = {
        **os.environ,
        "CLAWMARK_PORT": str(port),
        "CLAWMARK_AGENT_TOKEN": "agent-x",
        "CLAWMARK_ADMIN_TOKEN": "admin-x",
        "CLAWMARK_USER": '["Sam Rivera", "sam@corp.example"]',
    }
    proc = subprocess.Popen([*ENTRY, "kb"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(url + "/_clawmark/ready", headers={"Authorization": "Bearer admin-x"}).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read().decode() if proc.stdout else ""
        time.sleep(0.05)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_control_plane_keeps_the_clock_and_the_agents_requests(kb_alone: str) -> None:
    admin, agent = (
        {"Authorization": "Bearer admin-x"},
        {"Authorization": "Bearer agent-x", "Notion-Version": "2022-06-28"},
    )
    assert httpx.put(
        kb_alone + "/_clawmark/clock", headers=admin, json={"now": "2025-04-08T09:00:00+02:00"}
    ).json() == {"now": "2025-04-08T09:00:00+02:00"}
    assert httpx.post(kb_alone + "/v1/search", headers=agent, json={}).status_code == 200
    audit = httpx.get(kb_alone + "/_clawmark/audit?since=0", headers=admin).json()
    assert [e["args"][0] for e in audit["entries"]] == ["POST /v1/search"]
    assert httpx.get(kb_alone + "/_clawmark/audit?since=1", headers=admin).json()["entries"] == []
    # the agent's token opens nothing of the control plane; bad input is a clear 400
    assert httpx.get(kb_alone + "/_clawmark/audit?since=0", headers=agent).status_code == 401
    bad = httpx.put(kb_alone + "/_clawmark/clock", headers=admin, json={"now": "tomorrow"})
    assert bad.status_code == 400 and "ISO 8601" in bad.json()["error"]
    assert (
        httpx.put(kb_alone + "/_clawmark/clock", headers=admin, json={"now": "2025-04-08T09:00:00"}).status_code == 400
    )  # no offset
    assert httpx.get(kb_alone + "/_clawmark/audit?since=x", headers=admin).status_code == 400


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["smtp"], {}, "usage: python -m pytest_clawmark.servers.standalone calendar|kb|sheets|mail"),
        (["mail"], {"CLAWMARK_AGENT_TOKEN": "a", "CLAWMARK_ADMIN_TOKEN": "b"}, "clawmark mail: set CLAWMARK_PASSWORDS"),
        (
            ["mail"],
            {"CLAWMARK_AGENT_TOKEN": "a", "CLAWMARK_ADMIN_TOKEN": "b", "CLAWMARK_PASSWORDS": '{"a:b@x": "pw"}'},
            "cannot be a mail login",
        ),
        (["kb"], {}, "clawmark kb: set CLAWMARK_AGENT_TOKEN and CLAWMARK_ADMIN_TOKEN"),
        (
            ["kb"],
            {"CLAWMARK_AGENT_TOKEN": "a", "CLAWMARK_ADMIN_TOKEN": "b", "CLAWMARK_PORT": "http"},
            "CLAWMARK_PORT must be a port number",
        ),
        (
            ["kb"],
            {"CLAWMARK_AGENT_TOKEN": "a", "CLAWMARK_ADMIN_TOKEN": "b", "CLAWMARK_USER": "Sam"},
            "CLAWMARK_USER is not JSON",
        ),
        (
            ["calendar"],
            {"CLAWMARK_AGENT_TOKEN": "a", "CLAWMARK_ADMIN_TOKEN": "b", "CLAWMARK_PASSWORDS": "[1]"},
            "CLAWMARK_PASSWORDS must be a JSON object",
        ),
    ],
)
def test_a_container_started_without_what_it_needs_says_what_to_set(
    args: list[str], env: dict[str, str], message: str
) -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("CLAWMARK_")}
    r = subprocess.run([*ENTRY, *args], env={**clean, **env}, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_the_docker_backend_without_an_engine_says_how_to_fix_it(tmp_path: Path) -> None:
    task = tmp_path / "tasks" / "ecommerce" / "task_supplier_invoices.py"
    task.parent.mkdir(parents=True)
    task.write_text((REPO / "tests" / "tasks" / "ecommerce" / "task_supplier_invoices.py").read_text())
    env = {**os.environ, "DOCKER_HOST": f"unix://{tmp_path / 'no-engine.sock'}"}
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tasks",
            "--agent=reference",
            "--clawmark-backend=docker",
            "-p",
            "no:cacheprovider",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (
        r.returncode == 4
        and "--clawmark-backend=docker: no Docker engine answers" in r.stderr
        and "Traceback" not in r.stderr
    ), r.stdout + r.stderr
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tasks",
            "--agent=reference",
            "--clawmark-backend=kubernetes",
            "-p",
            "no:cacheprovider",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 4 and "invalid choice: 'kubernetes'" in r.stderr


def test_images_build_without_an_engine_says_so_in_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "DOCKER_HOST": f"unix://{tmp_path / 'no-engine.sock'}"}
    r = subprocess.run(
        [sys.executable, "-m", "pytest_clawmark.cli", "images", "build", "--cache", str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (
        r.returncode == 1
        and r.stderr.startswith("clawmark images: no Docker engine answers")
        and "Traceback" not in r.stderr
    ), r.stderr
