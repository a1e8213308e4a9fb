"""Every results schema version has a saved file here (tests/fixtures/results/v<N>.json) and a
step on load: the current version round-trips unchanged, older ones migrate or are refused with
the reason — never read as if they were current."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_clawmark.results import (
    MIGRATIONS,
    SCHEMA_VERSION,
    ResultsError,
    build_document,
    load,
    not_started_of,
    records_of,
)

FIXTURES = Path(__file__).parent / "fixtures" / "results"


def test_every_schema_version_has_a_saved_file_and_a_step() -> None:
    versions = sorted(int(p.stem.removeprefix("v")) for p in FIXTURES.glob("v*.json"))
    assert versions == list(range(1, SCHEMA_VERSION + 1)), (
        "save a results file of the new version (and keep the old ones)"
    )
    assert all(v in MIGRATIONS for v in range(1, SCHEMA_VERSION)), (
        "each older version needs a migration step or a refusal reason"
    )


def test_the_current_version_round_trips_unchanged() -> None:
    doc = load(FIXTURES / f"v{SCHEMA_VERSION}.json")
    again = build_document(doc["run"], records_of(doc), not_started_of(doc))
    assert (
        again["tasks"] == doc["tasks"]
        and again["summary"] == doc["summary"]
        and again["schema_version"] == SCHEMA_VERSION
    )


def test_an_older_version_is_migrated_or_refused_with_its_reason(tmp_path: Path) -> None:
    for version in range(1, SCHEMA_VERSION):
        step = MIGRATIONS[version]
        path = FIXTURES / f"v{version}.json"
        if callable(step):
            assert load(path)["schema_version"] == SCHEMA_VERSION
        else:
            with pytest.raises(
                ResultsError, match=rf"schema version {version} {step} \(version {SCHEMA_VERSION}\): re-run it"
            ):
                load(path)


def test_a_newer_or_nonsense_version_is_refused(tmp_path: Path) -> None:
    doc = json.loads((FIXTURES / f"v{SCHEMA_VERSION}.json").read_text())
    for version in (SCHEMA_VERSION + 1, "2"):
        (tmp_path / "r.json").write_text(json.dumps({**doc, "schema_version": version}))
        with pytest.raises(ResultsError, match="is newer than this clawmark"):
            load(tmp_path / "r.json")
