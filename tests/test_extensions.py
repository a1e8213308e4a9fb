"""Third-party services: an installed plugin's entry point (a real dist-info on sys.path) or
``register_service`` makes a service a task can declare, a world start and a checker read."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pytest_clawmark.world.service import register_service

SERVICE = '''
from pytest_clawmark.world.service import Service

class TicketsService(Service):
    """A toy ticket queue: the admin plane is the object, the agent plane a file in the workspace."""
    name = "tickets"

    def start(self):
        self.tickets = []

    def stop(self):
        pass

    def agent_env(self):
        return {"CLAWMARK_TICKETS": "workspace file tickets.txt"}

    def tools_markdown(self):
        return "## Tickets\\nOne per line in tickets.txt."

    def snapshot(self):
        return {"tickets": list(self.tickets)}

    def restore(self, data):
        self.tickets = list(data["tickets"])

    def open(self, title):
        self.tickets.append(title)
'''

TASK = """
from pytest_clawmark import Task

task = Task(scenario="pm", role="assistant", services={"fs", "tickets"}, user=("Ada", "ada@corp.example"))

@task.turn("2025-04-07 09:00 +00:00")
def monday(world):
    world.tickets.open("Printer on fire")
    return "Look at the tickets."

@task.checker(day=1)
def seeded(world):
    assert world.tickets.snapshot() == {"tickets": ["Printer on fire"]}, "the ticket queue is wrong"
"""


def _plugin(tmp_path: Path) -> Path:
    """A third-party package installed the way pip leaves it: its module and a dist-info with the entry point."""
    site = tmp_path / "site"
    (site / "acme_tickets").mkdir(parents=True)
    (site / "acme_tickets" / "__init__.py").write_text(SERVICE)
    info = site / "acme_tickets-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-tickets\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[pytest_clawmark.services]\ntickets = acme_tickets:TicketsService\n")
    return site


def test_an_installed_plugins_service_is_declared_started_and_checked(tmp_path: Path) -> None:
    site = _plugin(tmp_path)
    (tmp_path / "tasks" / "pm").mkdir(parents=True)
    (tmp_path / "tasks" / "pm" / "task_tickets.py").write_text(TASK)
    env = {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([sys.executable, "-m", "pytest", "tasks", "--agent=noop", "-p", "no:cacheprovider", "-q", "--clawmark-progress=off"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)  # fmt: skip
    assert r.returncode == 0 and "2 passed" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    # without the plugin the same task is refused at collection, naming the services it knows
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "tasks", "--agent=noop", "-p", "no:cacheprovider", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode != 0 and "unknown service 'tickets' (known: calendar, fs, kb, mail, sheets)" in r.stdout, (
        r.stdout[-2000:]
    )


def test_register_service_refuses_what_it_cannot_use() -> None:
    for name, dotted, message in [
        ("Tickets", "a:B", "lower-case identifier"),
        ("mail", "a:B", "built-in service"),
        ("tickets", "acme_tickets.TicketsService", "'package.module:ServiceClass'"),
    ]:
        with pytest.raises(ValueError, match=message):
            register_service(name, dotted)


def test_a_registered_service_that_does_not_load_says_why(tmp_path: Path) -> None:
    code = textwrap.dedent("""
        from pytest_clawmark.world.service import register_service, service_type
        register_service("ghost", "no_such_module:Ghost")
        register_service("notaservice", "json:JSONDecoder")
        for name in ("ghost", "notaservice"):
            try:
                service_type(name)
            except ValueError as exc:
                print(exc)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "service 'ghost' (no_such_module:Ghost) cannot be loaded: ModuleNotFoundError" in r.stdout, (
        r.stdout + r.stderr
    )
    assert "service 'notaservice' (json:JSONDecoder) is not a Service subclass" in r.stdout
