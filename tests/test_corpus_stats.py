"""corpus-stats classifies evidence the way a PDF library sees it."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from conftest import REPO
from pytest_clawmark.corpus_stats import evidence_modalities, pdf_modality

PDFS = sorted(p for p in (REPO / "tasks").rglob("*.pdf")) + sorted(p for p in (REPO / "tests").rglob("*.pdf"))


@pytest.mark.parametrize("pdf", PDFS, ids=[p.relative_to(REPO).as_posix() for p in PDFS])
def test_scanned_means_no_text_layer(pdf: Path) -> None:
    text = "".join(page.extract_text() or "" for page in pypdf.PdfReader(pdf).pages).strip()
    assert pdf_modality(pdf) == ("pdf (text)" if text else "pdf (scanned)")


def test_modalities_by_kind(tmp_path: Path) -> None:
    for name in ("a.wav", "b.mp4", "c.PNG", "d.xlsx", "e.csv", "make_evidence.py"):
        (tmp_path / name).write_bytes(b"x")
    assert evidence_modalities(tmp_path) == ("audio", "csv", "image", "video", "xlsx")


def test_baselines_table_from_results(tmp_path: Path) -> None:
    """`corpus-stats --baselines DIR`: a summary per baseline and each task's score, from results files."""
    import json

    from pytest_clawmark.corpus_stats import BaselineResultsError, load_baselines, render_baselines

    def results(agent: str, scores: dict[str, float]) -> str:
        tasks = [
            {"id": t, "trial": 1, "status": "complete", "errored": False, "score": v, "success": v == 1.0,
             "redline_failed": 1 if v else 0, "redline_evaluated": 2}
            for t, v in scores.items()
        ]  # fmt: skip
        return json.dumps({"run": {"agent": agent}, "tasks": tasks})

    (tmp_path / "a.json").write_text(results("baseline:ack-all", {"hr/x": 0.0, "pm/y": 0.05}))
    (tmp_path / "b.json").write_text(results("baseline:status-flip", {"hr/x": 0.0, "pm/y": 0.0}))
    (tmp_path / "c.json").write_text(results("noop", {"hr/x": 0.0, "pm/y": 0.0}))  # not a baseline: ignored
    found = load_baselines(tmp_path)
    assert list(found) == ["baseline:status-flip", "baseline:ack-all"]  # the registry's order
    lines = render_baselines(found, ["hr/x", "pm/y"])
    assert "| `baseline:ack-all` | 2 | 2.5% | 5.0% (pm/y) | 0 | 1/4 |" in lines
    assert "| `baseline:status-flip` | 2 | 0.0% | 0.0% | 0 | 0/4 |" in lines
    assert lines[-1] == "| pm/y | 0.0% | 5.0% |"
    with pytest.raises(BaselineResultsError, match="no results JSON"):
        load_baselines(tmp_path / "missing")
