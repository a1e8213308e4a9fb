"""Regenerate the regression-triage task's evidence deterministically (the outputs are committed).

    python tasks/eda/regression_triage/make_evidence.py

Authoring-time tools only: Pillow (the waveform viewer screenshot: PNG, no text layer — the first
anomalous signal and the cursor time exist only in pixels), reportlab (the coverage report, a text PDF).

- day1/waves/dma_sg_stress_48211_fail_window.png   waveform window: axi_bresp goes to SLVERR at the cursor
- day3/coverage/cov_dma_2026-05-19.pdf              merged DMA coverage: totals and the 0-hit bin
"""

from __future__ import annotations

import shutil
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")
BG, GRID, TRACE, BUS, RED = (12, 14, 20), (40, 44, 56), (80, 220, 120), (230, 200, 80), (240, 70, 70)


def mono(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / "DejaVuSansMono.ttf"), size)


def waveform(path: Path) -> None:
    """A waveform viewer: names on the left, 1,284,400-1,284,700 ns, the cursor on the first anomaly."""
    w, h, left = 900, 380, 190
    t0, t1 = 1284400, 1284700
    img = Image.new("RGB", (w, h), BG)
    d = ImageDraw.Draw(img)

    def x(t: float) -> int:
        return int(left + (t - t0) * (w - left - 10) / (t1 - t0))

    d.rectangle((0, 0, w, 26), fill=(30, 34, 46))
    d.text((8, 6), f"wave: {F.failure.test}  seed {F.failure.seed}   tb_top.u_dut", font=mono(12), fill=(200, 200, 210))
    for t in range(t0, t1 + 1, 50):
        d.line((x(t), 30, x(t), h - 30), fill=GRID)
        d.text((x(t) - 30, h - 24), f"{t:,}", font=mono(10), fill=(150, 150, 160))
    signals = ["clk", "dma_req", "dma_gnt", "axi_awvalid", "axi_bvalid", "axi_bresp[1:0]", "sb_err"]
    cursor = F.failure.first_fail_ns
    for i, name in enumerate(signals):
        y = 44 + i * 44
        d.text((8, y + 8), name, font=mono(13), fill=(210, 210, 220))
        lo, hi = y + 28, y + 6
        if name == "clk":
            pts = []
            for k in range(0, 60):
                ta, tb = t0 + k * 5, t0 + k * 5 + 5
                level = hi if k % 2 == 0 else lo
                pts += [(x(ta), level), (x(tb), level)]
            d.line(pts, fill=TRACE, width=1)
        elif name.startswith("axi_bresp"):
            edges = [(t0, "00"), (1284470, "00"), (cursor, "10"), (1284600, "00")]
            for (ta, val), (tb, _) in zip(edges, [*edges[1:], (t1, "")]):
                colour = RED if val == "10" else BUS
                d.polygon(
                    [
                        (x(ta) + 3, hi),
                        (x(tb) - 3, hi),
                        (x(tb), (hi + lo) // 2),
                        (x(tb) - 3, lo),
                        (x(ta) + 3, lo),
                        (x(ta), (hi + lo) // 2),
                    ],
                    outline=colour,
                )
                if x(tb) - x(ta) > 30:
                    d.text((x(ta) + 8, hi + 4), "10 SLVERR" if val == "10" else val, font=mono(12), fill=colour)
        else:
            toggles = {
                "dma_req": [(t0, 0), (1284425, 1), (1284575, 0)],
                "dma_gnt": [(t0, 0), (1284440, 1), (1284590, 0)],
                "axi_awvalid": [(t0, 0), (1284455, 1), (1284480, 0)],
                "axi_bvalid": [(t0, 0), (cursor, 1), (cursor + 10, 0)],
                "sb_err": [(t0, 0)],
            }[name]
            pts = []
            for (ta, v), (tb, _) in zip(toggles, [*toggles[1:], (t1, 0)]):
                level = hi if v else lo
                pts += [(x(ta), level), (x(tb), level)]
            d.line(pts, fill=TRACE, width=2)
    d.line((x(cursor), 30, x(cursor), h - 30), fill=(250, 250, 120), width=1)
    d.rectangle((x(cursor) + 4, 30, x(cursor) + 118, 48), fill=(250, 250, 120))
    d.text((x(cursor) + 8, 32), f"{F.failure.first_fail_text} ns", font=mono(12), fill=(10, 10, 10))
    img.save(path, format="PNG", optimize=True)


def coverage_report(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("KS-220 DMA merged coverage 2026-05-19")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, "KS-220 DMA block - merged coverage report")
    c.setFont("Helvetica", 10)
    c.drawString(60, 774, "Merged nightly databases up to 2026-05-19 (42 runs). Prepared by S. Russo.")
    y = 740
    c.setFont("Helvetica-Bold", 11)
    c.drawString(60, y, f"Functional coverage: {F.coverage.functional}%      Code coverage: {F.coverage.code}%")
    y -= 30
    c.setFont("Helvetica-Bold", 10)
    for xx, head in (
        (60, "Covergroup.coverpoint"),
        (280, "Bins"),
        (340, "Hit"),
        (390, "Coverage"),
        (460, "Zero-hit bins"),
    ):
        c.drawString(xx, y, head)
    c.setFont("Helvetica", 10)
    rows = [
        ("cg_dma_desc.cp_desc_type", "6", "6", "100.0%", "-"),
        ("cg_dma_desc.cp_addr_align", "4", "4", "100.0%", "-"),
        ("cg_dma_chain.cp_chain_len", "8", "7", "87.5%", F.coverage.hole.split(".")[2]),
        ("cg_dma_irq.cp_irq_cause", "5", "5", "100.0%", "-"),
        ("cg_dma_err.cp_err_kind", "6", "5", "83.3%", "(bin err_parity: 2 hits, below goal 5)"),
    ]
    for name, bins, hit, pct, zero in rows:
        y -= 16
        c.drawString(60, y, name)
        c.drawString(285, y, bins)
        c.drawString(345, y, hit)
        c.drawString(392, y, pct)
        c.drawString(460, y, zero)
    y -= 30
    c.drawString(60, y, f"Bins with zero hits, as covergroup.coverpoint.bin: {F.coverage.hole}")
    y -= 16
    c.drawString(60, y, f"Sign-off target: {F.coverage.target}% functional.")
    c.save()


def main() -> None:
    for sub in ("day1/waves", "day3/coverage"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    waveform(HERE / f"day1/waves/{F.failure.test}_{F.failure.seed}_fail_window.png")
    coverage_report(HERE / "day3/coverage/cov_dma_2026-05-19.pdf")


if __name__ == "__main__":
    main()
