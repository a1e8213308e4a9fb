"""The run viewer's charts: SVG drawn by matplotlib, inlined in the HTML (self-contained, offline).

Why matplotlib: a well-kept plotting library whose SVG needs no JavaScript and no network; the
Agg backend works headless. ``svg.hashsalt`` and no metadata date keep the SVG stable for the same
input, so two renders of one results file are byte-identical.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams.update({"svg.hashsalt": "clawmark", "svg.fonttype": "none", "font.size": 9})

PALETTE = ("#2f6db5", "#d9822b", "#3a9d5d", "#b83b5e", "#6c5ba7", "#8c6d31")


def _svg(fig: plt.Figure) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    text = out.getvalue()
    return text[text.index("<svg") :]


def scenario_bars(runs: Sequence[tuple[str, Mapping[str, float | None]]]) -> str:
    """Score per scenario (percent), one bar per run; a scenario without a score gets no bar."""
    scenarios = sorted({s for _, scores in runs for s in scores})
    fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * len(scenarios) + 1.5), 2.8))
    width = 0.8 / max(1, len(runs))
    for i, (label, scores) in enumerate(runs):
        xs = [j + i * width for j, s in enumerate(scenarios) if scores.get(s) is not None]
        ys = [100 * float(scores[s]) for s in scenarios if scores.get(s) is not None]  # type: ignore[arg-type]
        ax.bar(xs, ys, width=width, label=label, color=PALETTE[i % len(PALETTE)])
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(scenarios))], scenarios, rotation=30, ha="right")
    ax.set_ylim(0, 100)
    ax.set_ylabel("score %")
    ax.grid(axis="y", alpha=0.3)
    if len(runs) > 1:
        ax.legend(fontsize=8)
    return _svg(fig)


def day_curves(runs: Sequence[tuple[str, Mapping[str, float | None]]]) -> str:
    """Score per in-universe day (the paper's drop after the first change shows here)."""
    days = sorted(
        {d for _, by_day in runs for d in by_day}, key=lambda d: (not d.isdigit(), int(d) if d.isdigit() else 0)
    )
    fig, ax = plt.subplots(figsize=(max(4.0, 0.8 * len(days) + 1.5), 2.8))
    for i, (label, by_day) in enumerate(runs):
        points = [(j, 100 * float(by_day[d])) for j, d in enumerate(days) if by_day.get(d) is not None]  # type: ignore[arg-type]
        if points:
            ax.plot(
                [p[0] for p in points], [p[1] for p in points], marker="o", label=label, color=PALETTE[i % len(PALETTE)]
            )
    ax.set_xticks(range(len(days)), [f"day {d}" if d.isdigit() else d for d in days])
    ax.set_ylim(0, 100)
    ax.set_ylabel("score %")
    ax.grid(alpha=0.3)
    if len(runs) > 1:
        ax.legend(fontsize=8)
    return _svg(fig)
