"""Regenerate the reproducibility-audit task's evidence deterministically (the outputs are committed).

    python tasks/research_assistant/reproducibility_audit/make_evidence.py

Authoring-time tools only: reportlab (the paper, a text PDF), Pillow (Figure 3, PNG bar charts whose
values exist only as pixels), espeak-ng + ffmpeg (the Q&A call recording, 16 kHz mono MP3).

- day1/artifact/paper_JOH-2026-0417.pdf    text PDF: Table 2 (RMSE per model) and the data DOI
- day1/artifact/fig3_rmse.png               Figure 3 as submitted: XGB bar labelled 0.389 (a preliminary run)
- day1/artifact/data/predictions.csv        the predictions: recomputed RMSE = facts.toml [metrics] recomputed
- day1/artifact/ENVIRONMENT.md, requirements.lock   the notes say xgboost 2.0.3, the lock pins 1.7.6
- day3/revised/fig3_rmse_v2.png, ENVIRONMENT.md     the regenerated figure (RF 0.449) and the corrected notes
- day3/recordings/qa_call_2026-10-21.mp3    the call: the authors' erratum (Table 2 RF 0.447 -> 0.449)
"""

from __future__ import annotations

import math
import random
import shutil
import subprocess
import tempfile
from decimal import Decimal
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
M = F.metrics
FONTS = Path("/usr/share/fonts/truetype/dejavu")

CALL = [
    ("en-gb", "This is Freya Lindholm, reviewer for artifact A R T zero four one seven, with Daniel Ek and Lucia Ferreyra. "
              "Lucia, our recomputation gives zero point four four nine three for the random forest, and Table 2 prints zero point four four seven."),
    ("en-us", "Yes, we checked that. Table 2 was copied from an older run. The correct random forest value is zero point four four nine, "
              "and we will publish an erratum correcting Table 2 to zero point four four nine. The regenerated figure will show the same value. "
              "The random seed for all runs is forty two."),
    ("en-gb", "Thank you. And the environment notes? "),
    ("en-us", "We will correct ENVIRONMENT dot M D to match the lock file."),
]  # fmt: skip


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def predictions(path: Path) -> None:
    rng = random.Random(417)
    observed = [round(rng.gauss(0, 1), 4) for _ in range(M.basins)]
    lines = ["basin,model,observed,predicted"]
    for model, target in zip(M.models, M.recomputed):
        raw = [rng.gauss(0, 1) for _ in range(M.basins - 1)]
        scale = math.sqrt(0.95 * (M.basins - 1) * target**2 / sum(r * r for r in raw))
        res = [Decimal(f"{r * scale:.4f}") for r in raw]
        rest = Decimal(str(M.basins)) * Decimal(str(target)) ** 2 - sum(r * r for r in res)
        res.append(Decimal(f"{math.sqrt(rest):.4f}") * (1 if rng.random() < 0.5 else -1))
        for i, (obs, r) in enumerate(zip(observed, res), start=1):
            o = Decimal(f"{obs:.4f}")
            lines.append(f"B{i:02d},{model},{o},{o + r}")
        rmse = math.sqrt(float(sum(r * r for r in res)) / M.basins)
        assert round(rmse, 4) == target, (model, rmse, target)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def figure(path: Path, values: list[float], caption: str) -> None:
    w, h = 640, 420
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((20, 12), "Figure 3. Test RMSE by model (40 basins)", font=font(18, bold=True), fill=(20, 20, 20))
    x0, y0, y1 = 80, 360, 70
    d.line((x0, y0, w - 40, y0), fill=(0, 0, 0), width=2)
    d.line((x0, y0, x0, y1), fill=(0, 0, 0), width=2)
    top = 0.7
    for k in range(0, 8):
        v = k / 10
        y = y0 - (y0 - y1) * v / top
        d.line((x0 - 5, y, x0, y), fill=(0, 0, 0))
        d.text((x0 - 40, y - 8), f"{v:.1f}", font=font(13), fill=(40, 40, 40))
    colours = [(52, 101, 164), (115, 210, 22), (204, 0, 0)]
    for i, (model, v, c) in enumerate(zip(M.models, values, colours)):
        bx = x0 + 60 + i * 160
        by = y0 - (y0 - y1) * v / top
        d.rectangle((bx, by, bx + 90, y0 - 1), fill=c)
        d.text((bx + 14, by - 24), f"{v:.3f}", font=font(17, bold=True), fill=(20, 20, 20))
        d.text((bx + 20, y0 + 8), model, font=font(15), fill=(20, 20, 20))
    d.text((x0, h - 28), caption, font=font(12), fill=(90, 90, 90))
    img.save(path, format="PNG", optimize=True)


def paper(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"{F.names.manuscript} - Drought onset prediction with gradient boosting")
    c.setFont("Helvetica-Bold", 13)
    c.drawString(60, 790, "Drought onset prediction with gradient boosting")
    c.setFont("Helvetica", 10)
    lines = [
        "L. Ferreyra, T. Quispe, M. Halvorsen - Journal of Open Hydrology, manuscript " + F.names.manuscript,
        "",
        "Abstract. We predict the onset of agricultural drought in 40 Andean basins from satellite soil",
        "moisture and reanalysis features, comparing gradient boosting (XGB), random forests (RF) and a",
        "linear baseline. XGB gives the lowest test RMSE (Table 2, Figure 3).",
        "",
        "Data and code availability: archived at doi:10.5281/zenodo.7734117 (predictions, code, environment).",
        "",
        "Table 2. Test RMSE of the standardised drought index, 40 basins.",
    ]
    y = 770
    for line in lines:
        c.drawString(60, y, line)
        y -= 15
    c.setFont("Helvetica-Bold", 10)
    c.drawString(80, y, "Model")
    c.drawString(220, y, "RMSE")
    c.setFont("Helvetica", 10)
    for model, v in zip(M.models, M.paper):
        y -= 15
        c.drawString(80, y, model)
        c.drawString(220, y, f"{v:.3f}")
    y -= 30
    for line in [
        "Figure 3 shows the same comparison as a bar chart. All models were trained with the",
        "environment described in ENVIRONMENT.md of the archive.",
    ]:
        c.drawString(60, y, line)
        y -= 15
    c.save()


def call_recording(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        parts = []
        for i, (voice, text) in enumerate(CALL):
            wav = Path(tmp) / f"p{i}.wav"
            subprocess.run(["espeak-ng", "-v", voice, "-s", "165", "-w", str(wav), text], check=True)
            parts.append(wav)
        listing = Path(tmp) / "list.txt"
        listing.write_text("".join(f"file '{p}'\n" for p in parts))
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-f", "concat", "-safe", "0", "-i", str(listing), "-ar", "16000",
             "-ac", "1", "-c:a", "libmp3lame", "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact",
             "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/artifact", "day3/revised", "day3/recordings"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    (HERE / "day1/artifact/data").mkdir()
    paper(HERE / f"day1/artifact/paper_{F.names.manuscript}.pdf")
    figure(HERE / "day1/artifact/fig3_rmse.png", M.figure_v1, "Generated 2026-06-02 by plot_results.py")
    figure(HERE / "day3/revised/fig3_rmse_v2.png", M.figure_v2, "Generated 2026-10-21 by plot_results.py (final run)")
    predictions(HERE / "day1/artifact/data/predictions.csv")
    env = "# Environment\n\nPython 3.11.6\n\n| package | version |\n|---|---|\n| numpy | 1.26.4 |\n| pandas | 2.1.4 |\n| scikit-learn | 1.3.2 |\n| xgboost | {} |\n"
    (HERE / "day1/artifact/ENVIRONMENT.md").write_text(env.format(F.environment.notes_says), encoding="utf-8")
    (HERE / "day3/revised/ENVIRONMENT.md").write_text(env.format(F.environment.lock_says), encoding="utf-8")
    (HERE / "day1/artifact/requirements.lock").write_text(
        f"numpy==1.26.4\npandas==2.1.4\nscikit-learn==1.3.2\nxgboost=={F.environment.lock_says}\n", encoding="utf-8"
    )
    call_recording(HERE / "day3/recordings/qa_call_2026-10-21.mp3")


if __name__ == "__main__":
    main()
