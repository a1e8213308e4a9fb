"""The upstream ClawMark folder format is recognised and validated, every problem at file:line.

The tasks here are written for this project in upstream's *format* (tests/upstream_fixtures/); no
upstream task text, checker or asset is used (the published corpus is CC BY-NC).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pytest_clawmark.upstream.format import UpstreamFormatError, load, looks_like_upstream

FIXTURES = Path(__file__).parent / "upstream_fixtures"
WARD = FIXTURES / "clinical_assistant" / "ward_round" / "task.py"

HEADER = """
METADATA = {"id": "x_task1", "name": "X", "category": "hr", "environments": ["filesystem"]}
PROMPT = "You are an assistant."
"""


def write(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "hr" / "task1"
    folder.mkdir(parents=True)
    path = folder / "task.py"
    path.write_text(textwrap.dedent(HEADER) + textwrap.dedent(body))
    return path


def test_a_fixture_task_loads_with_its_stages_times_and_rubric() -> None:
    task = load(WARD)
    assert task.id == "clinical_assistant_ward_round" and task.category == "clinical_assistant"
    assert [(s.index, s.time_text) for s in task.stages] == [
        (0, "2025-05-05T08:00:00+01:00"),
        (1, "2025-05-06T08:00:00+01:00"),
    ]
    assert [(e.id, e.stage, e.weight, e.is_redline) for e in task.rubric] == [
        ("S0_bed", "stage0", 2.0, False),
        ("S1_pharmacy", "stage1", 1.0, False),
        ("redline_no_outside_mail", "final", 1.0, True),
    ]
    assert task.rubric[0].description == "The bed number was written."


def test_only_upstream_task_files_are_recognised(tmp_path: Path) -> None:
    assert looks_like_upstream(WARD)
    other = tmp_path / "task.py"
    other.write_text("from pytest_clawmark import Task\ntask = Task(scenario='hr', role='x')\n")
    assert not looks_like_upstream(other)
    assert not looks_like_upstream(tmp_path / "missing" / "task.py")


@pytest.mark.parametrize(
    "rid, expected",
    [
        ("S2_redline_no_leak", True),
        ("S0_Redline_External", True),
        ("S1_red_lines_held", True),
        ("redline_x", True),
        ("S1_credline_total", False),
        ("S0_bed", False),
        ("S3_redlined_doc_sent", False),
    ],
)
def test_red_lines_are_recognised_by_id(rid: str, expected: bool) -> None:
    from pytest_clawmark.upstream.format import RubricEntry, Where

    entry = RubricEntry(rid, "stage0", lambda ctx: True, 1.0, "", Where("x", 1))
    assert entry.is_redline is expected


def test_every_problem_is_reported_at_once_with_file_and_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        async def stage0(ctx):
            return {"notification": "hi", "time": "2025-05-05T08:00:00+01:00"}

        async def stage2(ctx):
            return {"notification": "later", "time": "2025-05-07T08:00:00+01:00"}

        def stage3(ctx):
            return {"notification": "sync", "time": "2025-05-08T08:00:00+01:00"}

        async def ok(ctx):
            return True

        def not_async(ctx):
            return True

        RUBRIC = {
            "stage0": [{"id": "a", "checker": ok, "weight": 1}, {"id": "b", "checker": not_async}],
            "stage9": [{"id": "c", "checker": ok}],
            "final": [{"id": "a", "checker": ok, "weight": -1}, {"checker": ok}],
        }
        """,
    )
    with pytest.raises(UpstreamFormatError) as info:
        load(path)
    text = str(info.value)
    assert "stage1 is missing" in text
    assert "stage3 must be `async def stage3(ctx)`" in text and f"{path}:" in text
    assert "(b): the checker must be an `async def" in text
    assert "RUBRIC key 'stage9' names no stage" in text
    assert "weight must be a positive number" in text
    assert "must be a dict with 'id' and 'checker'" in text
    lines = {w.line for w, _ in info.value.problems}
    assert len(lines) > 1  # located, not all at line 1


def test_a_stage_needs_a_literal_time_with_an_offset(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        async def stage0(ctx):
            t = "2025-05-05T08:00:00+01:00"  # a local name: unknown without running the stage
            return {"notification": "hi", "time": t}

        async def stage1(ctx):
            return {"notification": "hi", "time": "2025-05-06T08:00:00"}

        RUBRIC = {}
        """,
    )
    with pytest.raises(UpstreamFormatError) as info:
        load(path)
    text = str(info.value)
    assert 'stage0 must `return {"notification": ..., "time"' in text
    assert "needs a UTC offset" in text


def test_metadata_prompt_and_import_errors_are_clear(tmp_path: Path) -> None:
    folder = tmp_path / "hr" / "task2"
    folder.mkdir(parents=True)
    path = folder / "task.py"
    path.write_text(
        'METADATA = {"id": "x"}\nPROMPT = ""\nasync def stage0(ctx):\n    return {"notification": "", "time": "2025-05-05T08:00:00+01:00"}\nRUBRIC = {}\n'
    )
    with pytest.raises(UpstreamFormatError) as info:
        load(path)
    assert f"{path}:1: METADATA lacks name, category, environments" in str(info.value)
    assert f"{path}:2: PROMPT must be a non-empty string" in str(info.value)

    path.write_text("import nonexistent_module_for_clawmark\nRUBRIC = {}\nasync def stage0(ctx): ...\n")
    with pytest.raises(UpstreamFormatError, match=r"task\.py:1: importing the task failed: ModuleNotFoundError"):
        load(path)
