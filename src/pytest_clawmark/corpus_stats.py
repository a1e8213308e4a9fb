"""``clawmark corpus-stats``: the corpus at a glance, as the ClawMark paper's Table 2, in Markdown.

Generated from the task declarations and their evidence folders, so `docs/corpus.md` is
reproducible byte for byte (``--check`` fails when it is stale). With ``--baselines DIR`` it also
shows the shortcut baselines' measured scores (agents/baselines/) from the results JSON files in
DIR (one run per baseline: ``pytest tasks --agent=baseline:NAME --clawmark-json=DIR/NAME.json``);
the baselines are deterministic, so that table is reproducible too.
"""

from __future__ import annotations

import base64
import inspect
import json
import re
import zlib
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .authoring import SCENARIOS, Task
from .identity import task_assets, task_id
from .loading import TaskLoadError, import_task, task_files
from .upstream.format import UpstreamFormatError, load
from .upstream.format import task_files as upstream_task_files
from .upstream.task import to_task

MODALITY_BY_SUFFIX = {
    ".png": "image", ".jpg": "image", ".jpeg": "image", ".gif": "image", ".webp": "image",
    ".wav": "audio", ".mp3": "audio", ".ogg": "audio", ".m4a": "audio", ".flac": "audio",
    ".mp4": "video", ".webm": "video", ".mov": "video", ".mkv": "video",
    ".xlsx": "xlsx", ".csv": "csv", ".docx": "docx", ".eml": "email", ".json": "json",
}  # fmt: skip
NOT_EVIDENCE = {"make_evidence.py", "openclaw_script.json", "facts.toml"}
"""Files beside the evidence that an agent never sees: its generator, scripted-model scripts, facts."""
AUTHORING_FOLDERS = {"seed", "mail", "messages"}
"""A task folder's sources the turns load into the services (``taskfiles``): not raw evidence."""


PAPER_TASKS = {
    "clinical": 4, "content_operation": 12, "ecommerce": 9, "eda": 1, "executive_assistant": 7, "hr": 11,
    "insurance": 7, "investment": 6, "journalist": 8, "legal": 6, "pm": 8, "real_estate": 6, "research_assistant": 15,
}  # fmt: skip
"""Tasks per scenario in the ClawMark paper (Table 2; 100 in all)."""
PAPER_REDLINES = {
    "clinical": 15, "insurance": 14, "research_assistant": 11, "pm": 6, "content_operation": 3, "hr": 3,
    "real_estate": 2, "journalist": 1,
}  # fmt: skip
"""Red-line checkers per scenario in the paper (§6.2: 55 in all, none in the other five scenarios)."""
PAPER_TOTALS = {"tasks": 100, "roles": 87, "checkers": 1537, "redlines": 55, "days": "2-6", "checkers per task": "6-29"}
"""The paper's corpus-wide figures (§3.2, §3.3, Table 2)."""


@dataclass
class TaskStats:
    path: Path
    task: Task
    summary: str
    modalities: tuple[str, ...]

    @property
    def loud(self) -> int:
        return sum(len(t.loud) for t in self.task.turns)

    @property
    def silent(self) -> int:
        return sum(len(t.silent) for t in self.task.turns)

    @property
    def redlines(self) -> int:
        return sum(1 for c in self.task.checkers if c.redline)


_STREAM = re.compile(rb"stream\r?\n(.*?)\s*endstream", re.S)
_BEGIN_TEXT = re.compile(rb"(?:^|\s)BT\s")
_SET_FONT = re.compile(rb"/[\w+.-]+\s+[\d.]+\s+Tf\b")
_SHOW = re.compile(rb"\)\s*Tj|\]\s*TJ|\)\s*'")


def _shows_text(data: bytes) -> bool:
    """A text object begins (BT), a font is set (Tf) after it and a string shown after that —
    the font is text state that lasts across text objects. Three forward searches: linear in
    the stream (one nested lazy pattern took minutes on a 290 kB PDF of the upstream corpus)."""
    begin = _BEGIN_TEXT.search(data)
    font = _SET_FONT.search(data, begin.end()) if begin else None
    return bool(font and _SHOW.search(data, font.end()))


def pdf_modality(path: Path) -> str:
    """A PDF whose content streams show text (BT ... Tj/TJ) has a text layer; one that only
    paints images is a scan. Font resources alone say nothing: ReportLab declares one on every page."""
    for raw in _STREAM.findall(path.read_bytes()):
        # page content streams are ASCII operators; image data is binary and may contain "BT" by chance
        if any(data.isascii() and _shows_text(data) for data in _decodings(raw)):
            return "pdf (text)"
    return "pdf (scanned)"


def _decodings(raw: bytes) -> list[bytes]:
    """The stream as stored, inflated, and ASCII85-then-inflated (ReportLab's default filters)."""
    out = [raw]
    candidates = [raw]
    try:
        candidates.append(
            base64.a85decode(raw.strip(), adobe=raw.strip().endswith(b"~>") and raw.strip().startswith(b"<~"))
        )
    except ValueError:
        try:
            candidates.append(base64.a85decode(raw.strip().removesuffix(b"~>")))
        except ValueError:
            pass
    for c in candidates[1:]:
        out.append(c)
    for c in candidates:
        try:
            out.append(zlib.decompress(c))
        except zlib.error:
            pass
    return out


def evidence_modalities(folder: Path) -> tuple[str, ...]:
    found: set[str] = set()
    if folder.is_dir():
        for f in sorted(folder.rglob("*")):
            if (
                not f.is_file()
                or f.name in NOT_EVIDENCE
                or f.suffix == ".py"
                or AUTHORING_FOLDERS.intersection(f.relative_to(folder).parts[:1])
            ):
                continue
            if f.suffix.lower() == ".pdf":
                found.add(pdf_modality(f))
            elif f.suffix.lower() in MODALITY_BY_SUFFIX:
                found.add(MODALITY_BY_SUFFIX[f.suffix.lower()])
    return tuple(sorted(found))


def collect(paths: list[str]) -> list[TaskStats]:
    """Our task modules and upstream-format task folders (``<category>/<task>/task.py``) under
    ``paths``; an upstream checkout gives the same table for the published corpus."""
    stats = []
    for f in task_files(paths):
        module, task = import_task(f)
        doc = inspect.cleandoc(module.__doc__ or "").strip()
        summary = " ".join(doc.split())
        evidence = task_assets(f)
        stats.append(TaskStats(f, task, summary, evidence_modalities(evidence)))
    for f in sorted(set(upstream_task_files(paths))):
        try:
            upstream = load(f)
            task = to_task(upstream)
        except UpstreamFormatError as exc:
            raise TaskLoadError(str(exc)) from None
        meta = upstream.metadata
        summary = f"{meta.get('name', '')} (upstream format; difficulty {meta.get('difficulty', '?')}, {meta.get('mm_level', '?')})"
        stats.append(TaskStats(f, task, summary, evidence_modalities(f.parent)))
    return stats


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "–"


@dataclass(frozen=True)
class BaselineScore:
    """One baseline's measured trial of one task."""

    score: float | None  # None: the trial errored or is incomplete (no score)
    success: bool
    redlines_crossed: int
    redlines: int


Baselines = Mapping[str, Mapping[str, BaselineScore]]
"""Agent name -> task id -> its measured trial."""


class BaselineResultsError(Exception):
    """A results folder that cannot give the baselines' table."""


def load_baselines(folder: Path) -> dict[str, dict[str, BaselineScore]]:
    """The ``baseline:*`` runs among the results JSON files of ``folder`` (first trial of each task)."""
    from .agents.baselines import BASELINES

    found: dict[str, dict[str, BaselineScore]] = {}
    files = sorted(Path(folder).glob("*.json"))
    if not files:
        raise BaselineResultsError(f"{folder}: no results JSON files")
    for f in files:
        try:
            doc = json.loads(f.read_text(encoding="utf-8"))
            agent = doc["run"]["agent"]
            tasks = doc["tasks"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise BaselineResultsError(f"{f}: not a clawmark results file ({exc})") from None
        if agent not in BASELINES:
            continue
        if agent in found:
            raise BaselineResultsError(f"{folder}: two runs of {agent}")
        mine = found[agent] = {}
        for t in tasks:
            if t.get("trial", 1) != 1 or t["id"] in mine:
                continue
            complete = t.get("status") == "complete" and not t.get("errored") and t.get("score") is not None
            mine[t["id"]] = BaselineScore(
                t["score"] if complete else None,
                bool(t.get("success")),
                int(t.get("redline_failed") or 0),
                int(t.get("redline_evaluated") or 0),
            )
    if not found:
        raise BaselineResultsError(f"{folder}: no run of a baseline agent ({', '.join(BASELINES)})")
    return {name: found[name] for name in BASELINES if name in found}


def _score(value: float | None) -> str:
    return "error" if value is None else f"{100 * value:.1f}%"


def render_baselines(baselines: Baselines, task_ids: list[str]) -> list[str]:
    """The "Shortcut baselines" section: a summary per baseline, then each task's scores."""
    lines = [
        "## Shortcut baselines",
        "",
        "Built-in agents that use the work systems blindly, without understanding the task "
        "([agents.md](agents.md#shortcut-baselines)): the corpus gate requires each to score at most 10% on every "
        "task (and `noop` at most 5%). Measured with `pytest tasks --agent=baseline:NAME --clawmark-json=DIR/NAME.json`; "
        "this section is generated by `clawmark corpus-stats tasks --baselines DIR`.",
        "",
        "| baseline | tasks | mean score | max score (task) | Task Success | red-lines crossed |",
        "|---|---:|---:|---|---:|---:|",
    ]
    for name, runs in baselines.items():
        scored = {t: r.score for t, r in runs.items() if r.score is not None}
        mean = sum(scored.values()) / len(scored) if scored else None
        top = max(scored.values(), default=None)
        at = sorted(t for t, v in scored.items() if v == top) if top else []
        where = f" ({at[0]}{f' +{len(at) - 1}' if len(at) > 1 else ''})" if at else ""
        crossed = sum(r.redlines_crossed for r in runs.values())
        evaluated = sum(r.redlines for r in runs.values())
        success = sum(1 for r in runs.values() if r.success)
        lines.append(
            f"| `{name}` | {len(runs)} | {_score(mean)} | {_score(top)}{where} | {success} | {crossed}/{evaluated} |"
        )
    short = [name.removeprefix("baseline:") for name in baselines]
    lines += ["", "| task | " + " | ".join(short) + " |", "|---|" + "---:|" * len(short)]
    for tid in task_ids:
        cells = [_score(runs[tid].score) if tid in runs else "–" for runs in baselines.values()]
        lines.append(f"| {tid} | " + " | ".join(cells) + " |")
    return lines


def render_paper(stats: list[TaskStats], by_scenario: Mapping[str, list[TaskStats]]) -> list[str]:
    """The "Compared with the paper" section: this corpus beside the ClawMark paper's Table 2
    (the figures the paper publishes: tasks and red-lines per scenario, corpus-wide totals)."""
    classes: dict[str, int] = defaultdict(int)
    for st in stats:
        for c in st.task.checkers:
            if c.redline:
                classes[c.redline] += 1
    days = sorted(st.task.days for st in stats)
    sizes = sorted(len(st.task.checkers) for st in stats)
    ours = {
        "tasks": len(stats),
        "roles": len({st.task.role for st in stats}),
        "checkers": sum(sizes),
        "redlines": sum(st.redlines for st in stats),
        "days": f"{days[0]}-{days[-1]}" if days else "-",
        "checkers per task": f"{sizes[0]}-{sizes[-1]}" if sizes else "-",
    }
    lines = [
        "## Compared with the ClawMark paper",
        "",
        "The paper's Table 2 and §6.2 beside this corpus (the paper publishes tasks and red-lines per scenario; "
        "its per-scenario roles, turns and checkers are not reproduced here).",
        "",
        "| scenario | tasks (ours) | tasks (paper) | red-lines (ours) | red-lines (paper) | red-line classes (ours) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for scenario in [s for s in SCENARIOS if s in by_scenario or s in PAPER_TASKS]:
        group = by_scenario.get(scenario, [])
        kinds = {c.redline for st in group for c in st.task.checkers if c.redline}
        lines.append(
            f"| {scenario} | {len(group)} | {PAPER_TASKS.get(scenario, 0)} | {sum(st.redlines for st in group)} "
            f"| {PAPER_REDLINES.get(scenario, 0)} | {len(kinds)} of 4 |"
        )
    lines += ["", "| corpus | ours | paper |", "|---|---:|---:|"]
    for key, paper in PAPER_TOTALS.items():
        lines.append(f"| {key} | {ours[key]} | {paper} |")
    lines.append(
        "| red-lines by class | "
        + ", ".join(f"{k} {v}" for k, v in sorted(classes.items()))
        + " | all four classes, in 8 scenarios |"
    )
    return lines


def task_id_of(s: TaskStats) -> str:
    """The id results give the task (``clinical/medication_audit``): see :func:`.identity.task_id`."""
    return task_id(getattr(s.task, "id", None), s.task.scenario, s.path)


def render(stats: list[TaskStats], root: Path, baselines: Baselines | None = None) -> str:
    by_scenario: dict[str, list[TaskStats]] = defaultdict(list)
    for s in stats:
        by_scenario[s.task.scenario].append(s)
    lines = [
        "# Task corpus",
        "",
        "Generated by `clawmark corpus-stats tasks --baselines DIR > docs/corpus.md` (DIR: one results JSON per "
        "shortcut baseline, see below); do not edit by hand (CI checks it is current).",
        "",
        "| scenario | tasks | roles | mean turns | mean checkers | red-lines | silent % | loud % | modalities |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    total = stats
    for scenario in [s for s in SCENARIOS if s in by_scenario] + sorted(set(by_scenario) - set(SCENARIOS)):
        lines.append(_row(scenario, by_scenario[scenario]))
    lines.append(_row("**all**", total))
    lines += ["", *render_paper(stats, by_scenario)]
    if baselines:
        lines += ["", *render_baselines(baselines, sorted({task_id_of(s) for s in stats}))]
    lines += ["", "## Tasks", ""]
    for s in sorted(
        stats,
        key=lambda s: (
            SCENARIOS.index(s.task.scenario) if s.task.scenario in SCENARIOS else 99,
            s.path.name,
            _natural(str(s.path)),
        ),
    ):
        rel = (
            s.path.resolve().relative_to(root.resolve()).as_posix()
            if s.path.resolve().is_relative_to(root.resolve())
            else s.path.as_posix()
        )
        t = s.task
        services = ", ".join(sorted(t.services))  # type: ignore[arg-type]
        red = sorted({c.redline for c in t.checkers if c.redline})  # type: ignore[type-var]
        lines += [
            f"### {t.scenario}: `{rel}`",
            "",
            f"*{t.role}* — {t.days} days, {len(t.checkers)} checkers ({s.redlines} red-lines{': ' + ', '.join(red) if red else ''}), "  # type: ignore[arg-type]
            f"services: {services}; {s.loud} loud / {s.silent} silent changes; evidence: {', '.join(s.modalities) or 'none'}.",
            "",
            s.summary or "(no module docstring)",
            "",
        ]
    return "\n".join(lines)


def _natural(text: str) -> list[object]:
    """``task2`` before ``task10``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def _row(name: str, group: list[TaskStats]) -> str:
    n = len(group)
    roles = len({s.task.role for s in group})
    turns = sum(s.task.days for s in group) / n
    checkers = sum(len(s.task.checkers) for s in group) / n
    red = sum(s.redlines for s in group)
    loud = sum(s.loud for s in group)
    silent = sum(s.silent for s in group)
    modalities = sorted({m for s in group for m in s.modalities})
    return f"| {name} | {n} | {roles} | {turns:.1f} | {checkers:.1f} | {red} | {_pct(silent, loud + silent)} | {_pct(loud, loud + silent)} | {', '.join(modalities)} |"
