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
