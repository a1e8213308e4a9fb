"""The ``clawmark`` command: work with results files and worlds outside a pytest run.

    clawmark report RESULTS.json               the summary table of a run
    clawmark compare BASE.json NEW.json        per-scenario deltas; exit 1 on a regression
    clawmark merge OUT.json A.json B.json...   one results file from several (sharded CI runs)
    clawmark serve [--services ...] [--task PATH [--day N]]   a live world to explore by hand
    clawmark lint [PATHS]                      authoring invariants of task modules
    clawmark corpus-stats [PATHS] [--check F]  the corpus table (docs/corpus.md)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .report.terminal import summary_lines
from .results import ResultsError, build_document, load, records_of, write_atomic


def _pts(x: float) -> str:
    return f"{100 * x:.1f}"


def cmd_report(args: argparse.Namespace) -> int:
    doc = load(args.results)
    print(f"clawmark results {args.results} (agent {doc['run'].get('agent', '?')})")
    for line in summary_lines(doc):
        print(line)
    return 0


def compare(base: dict[str, Any], new: dict[str, Any], max_drop: float) -> tuple[list[str], bool]:
    """Rows of a comparison and whether it is a regression (a drop of more than ``max_drop``
    points overall or in any scenario present in both)."""
    b, n = base["summary"], new["summary"]
    rows = [f"{'scenario':<22} {'base':>7} {'new':>7} {'delta':>7}"]
    regression = False
    names = sorted(set(b["by_scenario"]) | set(n["by_scenario"]))
    for name in names + ["overall"]:
        bs = b if name == "overall" else b["by_scenario"].get(name)
        ns = n if name == "overall" else n["by_scenario"].get(name)
        if bs is None or ns is None:
            rows.append(f"{name:<22} {_pts(bs['score']) if bs else '-':>7} {_pts(ns['score']) if ns else '-':>7} {'(only in ' + ('base' if bs else 'new') + ')':>7}")
            continue
        delta = 100 * (ns["score"] - bs["score"])
        flag = ""
        if -delta > max_drop + 1e-9:
            regression, flag = True, "  REGRESSION"
        rows.append(f"{name:<22} {_pts(bs['score']):>7} {_pts(ns['score']):>7} {delta:>+7.1f}{flag}")
    bsucc, nsucc = 100 * b["task_success"], 100 * n["task_success"]
    rows.append(f"task success: {bsucc:.1f} -> {nsucc:.1f}; red-line fails: {b['redline_failed']}/{b['redline_evaluated']} -> {n['redline_failed']}/{n['redline_evaluated']}")
    return rows, regression


def cmd_compare(args: argparse.Namespace) -> int:
    if args.max_drop < 0:
        raise ResultsError("--max-drop takes a non-negative number of points")
    rows, regression = compare(load(args.base), load(args.new), args.max_drop)
    print("\n".join(rows))
    if regression:
        print(f"clawmark compare: regression beyond the allowed drop of {args.max_drop:g} points")
        return 1
    print(f"clawmark compare: no regression beyond {args.max_drop:g} points")
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    docs = [load(p) for p in args.inputs]
    records = [r for d in docs for r in records_of(d)]
    seen: set[tuple[str, int]] = set()
    for r in records:
        if (r.id, r.trial) in seen:
            raise ResultsError(f"task {r.id} trial {r.trial} appears in more than one input")
        seen.add((r.id, r.trial))
    meta = dict(docs[0]["run"])
    meta["merged_from"] = [str(p) for p in args.inputs]
    write_atomic(Path(args.out), build_document(meta, records))
    print(f"clawmark merge: {len(records)} task trials -> {args.out}")
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


def cmd_corpus_stats(args: argparse.Namespace) -> int:
    from .corpus_stats import collect, render
    from .loading import TaskLoadError

    try:
        text = render(collect(args.paths), Path.cwd()) + "\n"
    except TaskLoadError as exc:
        print(f"clawmark corpus-stats: {exc}", file=sys.stderr)
        return 2
    if args.check:
        current = Path(args.check).read_text(encoding="utf-8") if Path(args.check).exists() else ""
        if current != text:
            print(f"clawmark corpus-stats: {args.check} is stale; regenerate it with `clawmark corpus-stats {' '.join(args.paths)} > {args.check}`", file=sys.stderr)
            return 1
        print(f"clawmark corpus-stats: {args.check} is current")
        return 0
    sys.stdout.write(text)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .serve import serve

    return serve(services=args.services, task_path=args.task, day=args.day)


def cmd_scripted_model(args: argparse.Namespace) -> int:
    from .agents.scripted_model import serve_forever

    return serve_forever(args.script, port=args.port, record=args.record, api_key=args.api_key)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="clawmark", description="pytest-clawmark: results, comparisons and worlds")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("report", help="print the summary table of a results file")
    r.add_argument("results")
    r.set_defaults(fn=cmd_report)
    c = sub.add_parser("compare", help="compare two results files; exit 1 on a regression")
    c.add_argument("base")
    c.add_argument("new")
    c.add_argument("--max-drop", type=float, default=0.0, metavar="PTS", help="allowed score drop in points (0-100), overall and per scenario (default 0)")
    c.set_defaults(fn=cmd_compare)
    m = sub.add_parser("merge", help="merge results files of disjoint runs")
    m.add_argument("out")
    m.add_argument("inputs", nargs="+")
    m.set_defaults(fn=cmd_merge)
    lt = sub.add_parser("lint", help="check authoring invariants of task modules (file:line messages)")
    lt.add_argument("paths", nargs="*", default=["tasks"])
    lt.set_defaults(fn=cmd_lint)
    cs = sub.add_parser("corpus-stats", help="Table-2-style corpus statistics and task summaries (Markdown)")
    cs.add_argument("paths", nargs="*", default=["tasks"])
    cs.add_argument("--check", metavar="FILE", default=None, help="exit 1 unless FILE already holds exactly this output")
    cs.set_defaults(fn=cmd_corpus_stats)
    s = sub.add_parser("serve", help="start a world and print its agent-plane endpoints as JSON")
    s.add_argument("--services", nargs="+", default=None, metavar="NAME", help="services to start (default: all, or the task's)")
    s.add_argument("--task", default=None, metavar="PATH", help="a task module whose turns seed the world")
    s.add_argument("--day", type=int, default=None, metavar="N", help="run the task's turn setups up to day N (default: 1)")
    s.set_defaults(fn=cmd_serve)
    sm = sub.add_parser("scripted-model", help="serve an OpenAI/Anthropic-compatible model that replays a script; print its URL as JSON")
    sm.add_argument("--script", required=True, metavar="FILE", help="the script (JSON; see docs/agents.md)")
    sm.add_argument("--port", type=int, default=0, metavar="N", help="loopback port (default: an ephemeral one)")
    sm.add_argument("--record", default=None, metavar="FILE", help="append every request and its answer to this JSONL file")
    sm.add_argument("--api-key", default=None, metavar="KEY", help="refuse requests without this key (default: accept any)")
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
