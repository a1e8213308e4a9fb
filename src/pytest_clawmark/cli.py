"""The ``clawmark`` command: work with results files and worlds outside a pytest run.

clawmark report RESULTS.json|RUN_DIR       the summary table of a run (or of its journal)
clawmark compare BASE.json NEW.json        deltas over BASE's tasks; exit 1 on a regression or if not comparable
clawmark merge OUT.json A.json B.json...   one results file from several (sharded CI runs)
clawmark serve [--services ...] [--task PATH [--day N] [--solve]]   a live world to explore by hand
clawmark api-docs [--check F]                    the admin-plane reference (docs/admin-api.md)
clawmark check --task PATH [--day N] [--solve]   the same; type `check` to evaluate day N's checkers
clawmark lint [PATHS]                      authoring invariants of task modules
clawmark corpus-stats [PATHS] [--baselines DIR] [--check F]  the corpus table (docs/corpus.md)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .comparison import Gates, compare, render
from .merging import merge_documents, merge_problems
from .report.terminal import failed_lines, summary_lines, task_lines
from .results import ResultsError, load, write_atomic


def cmd_report(args: argparse.Namespace) -> int:
    if Path(args.results).is_dir():  # a run folder: what its journal holds (e.g. after kill -9)
        from . import journal

        try:
            found = journal.document(Path(args.results))
        except journal.JournalError as exc:
            raise ResultsError(str(exc)) from None
        if found is None:
            raise ResultsError(f"{args.results}: the run's journal holds no task trial yet")
        doc = found
    else:
        doc = load(args.results)
    if args.html:
        return _write_html(args, doc)
    print(f"clawmark results {args.results} (agent {doc['run'].get('agent', '?')})")
    if args.task is not None and not any(t["id"] == args.task for t in doc["tasks"]):
        known = ", ".join(sorted({t["id"] for t in doc["tasks"]})[:20])
        raise ResultsError(f"no task {args.task!r} in {args.results} (tasks: {known})")
    if args.failed:
        lines = failed_lines(doc, args.task)
        print("\n".join(lines) if lines else "every checker passed")
    elif args.task is not None:
        print("\n".join(task_lines(doc, args.task)))
    else:
        for line in summary_lines(doc):
            print(line)
    return 0


def _write_html(args: argparse.Namespace, doc: dict) -> int:
    from .report.html import render_html

    runs = [(Path(args.results).name, doc)] + [(Path(p).name, load(p)) for p in args.compare]
    out = Path(args.html)
    out.write_text(render_html(runs, evidence_root=Path(args.evidence) if args.evidence else None), encoding="utf-8")
    print(f"clawmark report: wrote {out} ({out.stat().st_size // 1024} KiB)")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """Exit 0: no regression; 1: a gate failed or the runs are not comparable; 2: bad input."""
    try:
        gates = Gates(
            args.max_drop, args.max_success_drop, args.max_redline_rise, args.allow_agent_change, args.allow_task_change
        )
    except ValueError as exc:
        raise ResultsError(str(exc)) from None
    base, new = load(args.base), load(args.new)
    print(
        f"clawmark compare: BASE {args.base} (agent {base['run'].get('agent', '?')}) vs NEW {args.new} (agent {new['run'].get('agent', '?')})"
    )
    result = compare(base, new, gates)
    print("\n".join(render(result)))
    return 0 if result.ok else 1


def cmd_merge(args: argparse.Namespace) -> int:
    """Exit 2 with one line per reason when the inputs are not shards of one measurement."""
    inputs = [(str(p), load(p)) for p in args.inputs]
    problems = merge_problems(inputs)
    if problems:
        for line in problems:
            print(f"clawmark merge: {line}", file=sys.stderr)
        return 2
    document = merge_documents(inputs)
    write_atomic(Path(args.out), document)
    run = document["run"]
    print(
        f"clawmark merge: {len(document['tasks'])} task trials ({run['status']}, {len(run['not_started'])} never started) -> {args.out}"
    )
    return 0


def cmd_lint(args: argparse.Namespace) -> int:
    from .lint import lint_paths
    from .loading import TaskLoadError

    try:
        findings, n = lint_paths(args.paths)
    except TaskLoadError as exc:
        print(f"clawmark lint: {exc}", file=sys.stderr)
        return 2
    for f in findings:
        print(f)
    print(f"clawmark lint: {n} task module(s), {len(findings)} problem(s)")
    return 1 if findings else 0


def cmd_recheck(args: argparse.Namespace) -> int:
    from .loading import TaskLoadError
    from .recheck import RecheckError, recheck
    from .results import ResultsError, write_atomic

    source = Path(args.results)
    out = Path(args.out) if args.out else source.with_name(source.stem + ".rechecked.json")
    try:
        done = recheck(source, search=args.tasks or None, evidence_dir=Path(args.evidence) if args.evidence else None)
    except (RecheckError, ResultsError, TaskLoadError) as exc:
        print(f"clawmark recheck: {exc}", file=sys.stderr)
        return 2
    before = {(t["id"], t["trial"]): t.get("score") for t in json.loads(source.read_text(encoding="utf-8"))["tasks"]}
    for t in done.document["tasks"]:
        old, new = before.get((t["id"], t["trial"])), t.get("score")
        mark = "" if old == new else "  (changed)"
        print(f"{t['id']} trial {t['trial']}: {_pct(old)} -> {_pct(new)}{mark}")
    for task_id, trial, checker, was, now in done.changed:
        print(f"  {task_id} trial {trial} {checker}: {was} -> {now}")
    for line in done.kept:
        print(f"  not rechecked: {line}")
    write_atomic(out, done.document)
    summary = done.document.get("summary", {})
    print(
        f"clawmark recheck: {len(done.changed)} verdict(s) changed; score {_pct(summary.get('score'))}; written to {out}"
    )
    return 0


def _pct(value: Any) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def cmd_new_task(args: argparse.Namespace) -> int:
    from .scaffold import ScaffoldError, new_task

    try:
        written = new_task(args.task, Path(args.dir))
    except ScaffoldError as exc:
        print(f"clawmark new-task: {exc}", file=sys.stderr)
        return 2
    folder = written[0].parent
    for path in written:
        print(path)
    print(f"clawmark new-task: a two-day task in {folder}; try it: pytest {folder} --agent=reference", file=sys.stderr)
    return 0


def cmd_api_docs(args: argparse.Namespace) -> int:
    from .apidocs import render as render_api

    return _print_or_check(render_api(), args.check, "clawmark api-docs", "clawmark api-docs")


def _print_or_check(text: str, check: str | None, label: str, command: str) -> int:
    """Print a generated document, or with ``--check FILE`` say whether FILE holds it exactly
    (exit 1 when stale, with the command that regenerates it)."""
    if not check:
        sys.stdout.write(text)
        return 0
    current = Path(check).read_text(encoding="utf-8") if Path(check).exists() else ""
    if current != text:
        print(f"{label}: {check} is stale; regenerate it with `{command} > {check}`", file=sys.stderr)
        return 1
    print(f"{label}: {check} is current")
    return 0


def cmd_corpus_stats(args: argparse.Namespace) -> int:
    from .corpus_stats import BaselineResultsError, collect, load_baselines, render
    from .loading import TaskLoadError

    try:
        baselines = load_baselines(Path(args.baselines)) if args.baselines else None
        text = render(collect(args.paths), Path.cwd(), baselines) + "\n"
    except (TaskLoadError, BaselineResultsError) as exc:
        print(f"clawmark corpus-stats: {exc}", file=sys.stderr)
        return 2
    command = f"clawmark corpus-stats {' '.join(args.paths)}" + (" --baselines DIR" if args.baselines else "")
    return _print_or_check(text, args.check, "clawmark corpus-stats", command)


def cmd_serve(args: argparse.Namespace) -> int:
    from .serve import serve

    backend = args.backend or os.environ.get("CLAWMARK_BACKEND") or "local"
    if backend == "docker":
        from .backends.images import backend_problem

        problem = backend_problem()
        if problem:
            print(f"clawmark {args.command}: --backend docker: {problem}", file=sys.stderr)
            return 2
    return serve(
        services=args.services,
        task_path=args.task,
        day=args.day,
        solve=args.solve,
        check=args.fn is cmd_check,
        backend=backend,
    )


def cmd_check(args: argparse.Namespace) -> int:
    return cmd_serve(args)


def cmd_scripted_model(args: argparse.Namespace) -> int:
    from .agents.scripted_model import serve_forever

    return serve_forever(args.script, port=args.port, record=args.record, api_key=args.api_key)


def cmd_images(args: argparse.Namespace) -> int:
    from .backends.images import ImageError, build_all

    def log(line: str) -> None:
        print(f"clawmark images: {line}", file=sys.stderr, flush=True)

    cache = Path(args.cache or os.environ.get("CLAWMARK_IMAGE_CACHE") or Path.home() / ".cache" / "clawmark" / "images")
    try:
        built = build_all(
            base=args.base,
            base_from_debootstrap=args.base_from_debootstrap,
            cache=cache,
            log=log,
            openclaw=args.openclaw,
        )
    except ImageError as exc:
        print(f"clawmark images: {exc}", file=sys.stderr)
        return 1
    for b in built:
        print(f"{b.tag}\t{'cached' if b.cached else 'built'}\t{b.seconds:.1f}s")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="clawmark", description="pytest-clawmark: results, comparisons and worlds")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("report", help="print the summary table of a results file, or of a run folder's journal")
    r.add_argument("results")
    r.add_argument(
        "--failed",
        action="store_true",
        help="only the checkers that did not pass, by task trial and day, with their messages",
    )
    r.add_argument(
        "--task",
        metavar="ID",
        help="one task: its trials, days and every checker's verdict (with --failed: its failures)",
    )
    r.add_argument(
        "--html",
        metavar="OUT",
        help="write the run viewer: one self-contained HTML file (charts, checker tables, traces, day-by-day world changes)",
    )
    r.add_argument(
        "--compare",
        nargs="+",
        default=[],
        metavar="RESULTS",
        help="with --html: more results files shown side by side (scores, flipped checkers)",
    )
    r.add_argument(
        "--evidence",
        metavar="DIR",
        help="with --html: the run's evidence folder, if it moved (default: the one the results name)",
    )
    r.set_defaults(fn=cmd_report)
    c = sub.add_parser(
        "compare",
        help="compare two results files; exit 1 on a regression or when they are not comparable",
        description="Compare NEW against BASE over BASE's tasks (docs/compare.md). Exit 0: no regression; "
        "1: a gate failed or the runs are not comparable (incomplete, something of BASE missing in NEW, "
        "another agent or task version); 2: unreadable input or bad flags.",
    )
    c.add_argument("base")
    c.add_argument("new")
    c.add_argument(
        "--max-drop",
        type=float,
        default=0.0,
        metavar="PTS",
        help="allowed score drop in points (0-100), overall and per scenario (default 0)",
    )
    c.add_argument(
        "--max-success-drop",
        type=float,
        default=0.0,
        metavar="PTS",
        help="allowed Task Success drop in points, overall and per scenario (default 0)",
    )
    c.add_argument(
        "--max-redline-rise",
        type=float,
        default=0.0,
        metavar="PTS",
        help="allowed red-line fail rate rise in points, overall and per scenario (default 0)",
    )
    c.add_argument(
        "--allow-agent-change", action="store_true", help="compare runs of different agents or agent options"
    )
    c.add_argument("--allow-task-change", action="store_true", help="compare tasks whose content (task_hash) changed")
    c.set_defaults(fn=cmd_compare)
    m = sub.add_parser(
        "merge",
        help="merge results files of disjoint shards of one run",
        description="Merge shards of one measurement (same agent, options, trials, clawmark version and task versions; "
        "no task trial twice) into OUT. Exit 2 with one line per reason otherwise.",
    )
    m.add_argument("out")
    m.add_argument("inputs", nargs="+")
    m.set_defaults(fn=cmd_merge)
    lt = sub.add_parser("lint", help="check authoring invariants of task modules (file:line messages)")
    lt.add_argument("paths", nargs="*", default=["tasks"])
    lt.set_defaults(fn=cmd_lint)
    rc = sub.add_parser(
        "recheck", help="re-score a run's saved day states with the current checkers (the agent is not run again)"
    )
    rc.add_argument("results", metavar="RESULTS.json")
    rc.add_argument(
        "--out", default=None, help="where to write the rechecked results (default: RESULTS.rechecked.json)"
    )
    rc.add_argument(
        "--tasks",
        nargs="*",
        default=None,
        metavar="PATH",
        help="where to find task modules that moved since the run (default: tasks)",
    )
    rc.add_argument(
        "--evidence",
        default=None,
        metavar="DIR",
        help="the run's evidence folder, when it is not where the results say",
    )
    rc.set_defaults(fn=cmd_recheck)
    nt = sub.add_parser("new-task", help="scaffold a complete, runnable two-day task folder (docs/writing-tasks.md)")
    nt.add_argument("task", metavar="SCENARIO/NAME", help="e.g. hr/onboarding_week")
    nt.add_argument("--dir", default="tasks", help="the tasks folder (default: tasks)")
    nt.set_defaults(fn=cmd_new_task)
    ad = sub.add_parser(
        "api-docs", help="the admin-plane reference for task authors (docs/admin-api.md), from the code"
    )
    ad.add_argument(
        "--check", metavar="FILE", default=None, help="exit 1 unless FILE already holds exactly this output"
    )
    ad.set_defaults(fn=cmd_api_docs)
    cs = sub.add_parser("corpus-stats", help="Table-2-style corpus statistics and task summaries (Markdown)")
    cs.add_argument("paths", nargs="*", default=["tasks"])
    cs.add_argument(
        "--baselines",
        metavar="DIR",
        default=None,
        help="add the shortcut baselines' scores from the results JSON files in DIR (one run per baseline:* agent)",
    )
    cs.add_argument(
        "--check", metavar="FILE", default=None, help="exit 1 unless FILE already holds exactly this output"
    )
    cs.set_defaults(fn=cmd_corpus_stats)
    for name, fn, what in (
        ("serve", cmd_serve, "start a world and print its agent-plane endpoints as JSON"),
        (
            "check",
            cmd_check,
            "serve a task's world like serve; type `check` on stdin to evaluate day N's checkers (JSON lines)",
        ),
    ):
        w = sub.add_parser(name, help=what)
        w.add_argument(
            "--services",
            nargs="+",
            default=None,
            metavar="NAME",
            help="services to start (default: all, or the task's)",
        )
        w.add_argument(
            "--task",
            required=name == "check",
            default=None,
            metavar="PATH",
            help="a task module whose turns seed the world",
        )
        w.add_argument(
            "--day",
            type=int,
            default=None,
            metavar="N",
            help="run the task's turn setups up to day N, the day checked (default: 1)",
        )
        w.add_argument(
            "--solve",
            action="store_true",
            help="also run the task's reference solutions of days 1..N (agent plane only)",
        )
        w.add_argument(
            "--backend",
            choices=("local", "docker"),
            default=None,
            help="where the services run (default: local, or $CLAWMARK_BACKEND; docs/containers.md)",
        )
        w.set_defaults(fn=fn)
    im = sub.add_parser(
        "images", help="the container backend's images: build them locally, cached by content (docs/containers.md)"
    )
    ims = im.add_subparsers(dest="images_command", required=True)
    ib = ims.add_parser("build", help="build every image of containers/ (an unchanged one is found, not rebuilt)")
    ib.add_argument(
        "--base-from-debootstrap",
        action="store_true",
        help="make the base image from Debian packages (debootstrap, as root): no registry needed",
    )
    ib.add_argument(
        "--base",
        default=None,
        metavar="IMAGE",
        help="a local or pullable base image (default: python:3.11-slim-bookworm)",
    )
    ib.add_argument(
        "--openclaw",
        action="store_true",
        help="also clawmark/openclaw: the host's OpenClaw and Node 24 (from npm) in an image, for agents on remote engines",
    )
    ib.add_argument(
        "--cache",
        default=None,
        metavar="DIR",
        help="where the wheelhouse is built (default: ~/.cache/clawmark/images, or $CLAWMARK_IMAGE_CACHE)",
    )
    ib.set_defaults(fn=cmd_images)
    sm = sub.add_parser(
        "scripted-model", help="serve an OpenAI/Anthropic-compatible model that replays a script; print its URL as JSON"
    )
    sm.add_argument("--script", required=True, metavar="FILE", help="the script (JSON; see docs/agents.md)")
    sm.add_argument("--port", type=int, default=0, metavar="N", help="loopback port (default: an ephemeral one)")
    sm.add_argument(
        "--record", default=None, metavar="FILE", help="append every request and its answer to this JSONL file"
    )
    sm.add_argument(
        "--api-key", default=None, metavar="KEY", help="refuse requests without this key (default: accept any)"
    )
    sm.set_defaults(fn=cmd_scripted_model)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.fn(args))
    except ResultsError as exc:
        print(f"clawmark: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
