"""The run viewer (``clawmark report --html``): a self-contained page from real runs, checked by
parsing it and by loading it in a real headless browser (Debian's chromium)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import ADDER, BASIC_TASK, make_task

CLI = [sys.executable, "-m", "pytest_clawmark.cli"]


class Page(HTMLParser):
    """Ids, classes and text of an HTML page (enough to check what is on it)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.classes: list[str] = []
        self.tags: list[str] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        for k, v in attrs:
            if k == "id" and v:
                self.ids.add(v)
            if k == "class" and v:
                self.classes += v.split()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture
def two_runs(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    make_task(pytester, "task_basic", BASIC_TASK)
    pytester.makeconftest(ADDER)
    pytester.runpytest("--agent=adder", "--clawmark-json=good.json", "--clawmark-evidence=ev-good")
    monkeypatch.setenv("ADDER_SLIPS", "hr/basic")
    pytester.runpytest("--agent=adder", "--clawmark-json=bad.json", "--clawmark-evidence=ev-bad")
    return pytester.path / "good.json", pytester.path / "bad.json"


def render(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "report", *args], capture_output=True, text=True, timeout=120)


def test_the_viewer_shows_summary_charts_checkers_day_changes_and_a_comparison(
    two_runs: tuple[Path, Path], tmp_path: Path
) -> None:
    good, bad = two_runs
    out = tmp_path / "report.html"
    r = render(str(bad), "--html", str(out), "--compare", str(good))
    assert r.returncode == 0 and "wrote" in r.stdout, r.stderr
    html = out.read_text()
    page = Page(html)
    assert {
        "summary-table",
        "overall-score",
        "chart-scenarios",
        "chart-days",
        "comparison-table",
        "flips",
        "run-status",
    } <= page.ids
    assert page.tags.count("svg") >= 2 and "<script" not in html  # charts inline, no JavaScript
    text = " ".join(page.text)
    assert (
        "hr/basic" in text and "answer_day2" in text and "expected 100, found '99'" in text
    )  # the checker's own message
    # the world's changes per day come from the evidence: day 1's state, then day 2's change of the answer
    assert "the state after day 1" in text and "changed that day" in text
    assert '<span class="del">-42</span>' in html and '<span class="add">+99</span>' in html  # out/answer.txt on day 2
    assert "write" in text and "out/answer.txt" in text  # the agent's trace
    # two renders of the same files are the same bytes (charts included)
    again = tmp_path / "again.html"
    render(str(bad), "--html", str(again), "--compare", str(good))
    assert again.read_bytes() == out.read_bytes()


def test_the_viewer_marks_a_crossed_red_line(
    pytester: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_task(pytester, "task_basic", BASIC_TASK)
    pytester.makeconftest(ADDER)
    monkeypatch.setenv("ADDER_TAMPERS", "1")
    pytester.runpytest("--agent=adder", "--clawmark-json=tampered.json")
    out = tmp_path / "tampered.html"
    assert render(str(pytester.path / "tampered.json"), "--html", str(out)).returncode == 0
    html = out.read_text()
    assert (
        Page(html).classes.count("crossed") == 1
        and "Red-lines crossed: <b>inbox_untouched</b> (irreversible-write)" in html
    )


@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Debian's chromium: bash .ci/install-browser")
def test_the_viewer_loads_in_a_headless_browser_without_errors(two_runs: tuple[Path, Path], tmp_path: Path) -> None:
    good, bad = two_runs
    out = tmp_path / "report.html"
    assert render(str(bad), "--html", str(out), "--compare", str(good)).returncode == 0
    shot = tmp_path / "shot.png"
    base = [
        "chromium",
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--enable-logging=stderr",
        "--v=0",
    ]
    done = subprocess.run([*base, "--dump-dom", out.as_uri()], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert console == [], console
    dom = Page(done.stdout)
    assert {"summary-table", "chart-scenarios", "chart-days", "comparison-table", "flips"} <= dom.ids
    done = subprocess.run(
        [*base, "--window-size=1280,1800", f"--screenshot={shot}", out.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and shot.stat().st_size > 20_000, done.stderr[-2000:]
