"""Regenerate the data-desk task's evidence deterministically (the outputs are committed).

    python tasks/journalist/data_desk_story/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): openpyxl (the statistics
release), reportlab (the embargo notice, a text PDF), Pillow (the rival outlet's chart: a PNG,
pixels only), espeak-ng + ffmpeg (the recorded source call, 16 kHz mono MP3).

- day1/release/NSO_housing_completions_Q3_2025.xlsx  the embargoed release: districts and series
- day1/release/NSO_embargo_notice_Q3_2025.pdf        the embargo terms and time (text PDF)
- day1/rival/coast_courier_2025-10-09.png            a rival's bar chart whose y-axis starts at 1,600
- day2/interviews/varga_call_2025-10-13.mp3          the source call: the pipeline figure and how
  she agreed to be described, spoken only
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import tempfile
import zipfile
from datetime import datetime
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font
from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")
PINNED = datetime(2025, 10, 13, 7, 0, 0)

CALL = (
    "Recording of my call with Leena Varga, Monday the thirteenth of October, about housing completions. "
    "Leena: The headline fall will get the attention, but the number I would point your readers to is the "
    "pipeline. By my count about three thousand one hundred homes across the six districts have planning "
    "approval but have not started on site. That is where the recovery will come from, if builders can get "
    "finance. Ines: And how would you like to be described? Leena: You can use my name. Please describe me "
    "as an independent housing economist. I am on leave from the university this year, so please do not name "
    "the university. Ines: Understood, thank you."
)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def pin_zip(data: bytes) -> bytes:
    """Rewrite an xlsx with fixed entry timestamps and a fixed 'modified' property."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    stamp = PINNED.strftime("%Y-%m-%dT%H:%M:%SZ")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                text = re.sub(
                    r"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)", rf"\g<1>{stamp}\g<2>", body.decode("utf-8")
                )
                body = text.encode("utf-8")
            zi = zipfile.ZipInfo(info.filename, date_time=PINNED.timetuple()[:6])
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            dst.writestr(zi, body)
    return out.getvalue()


def release(path: Path) -> None:
    wb = Workbook()
    cover = wb.active
    cover.title = "Cover"
    for row in [
        ["Northmoor Statistics Office"],
        ["Housing completions, third quarter 2025 (July to September)"],
        [f"EMBARGOED until {F.embargo.spoken}"],
        ["Not for publication or onward transmission before that time. See the embargo notice."],
        ["Contact: press office, Northmoor Statistics Office"],
    ]:
        cover.append(row)
    cover["A1"].font = Font(bold=True, size=14)
    cover["A3"].font = Font(bold=True, color="C00000")
    cover.column_dimensions["A"].width = 90

    t1 = wb.create_sheet("Table 1 Districts")
    t1.append(["Table 1: Dwellings completed, by district"])
    t1.append([])
    t1.append(["District", "Q3 2024", "Q3 2025", "of which affordable, Q3 2025"])
    for name, a, b, aff in F.release.districts:
        t1.append([name, a, b, aff])
    t1.append(["All districts", "=SUM(B4:B9)", "=SUM(C4:C9)", "=SUM(D4:D9)"])
    t1.append([])
    t1.append(["Source: Northmoor Statistics Office, building control returns. Q3 2025 figures provisional."])
    t1.column_dimensions["A"].width = 18
    t1.column_dimensions["D"].width = 28

    t2 = wb.create_sheet("Table 2 Series")
    t2.append(["Table 2: Dwellings completed, all districts, by quarter"])
    t2.append([])
    t2.append(["Quarter", "Completions", "Status"])
    for q, total in zip(F.series.quarters, F.series.totals):
        t2.append([q, total, "embargoed" if q == F.series.quarters[-1] else "published"])

    wb.properties.creator = "NSO Housing Statistics"
    wb.properties.lastModifiedBy = "NSO Housing Statistics"
    wb.properties.created = PINNED
    buf = io.BytesIO()
    wb.save(buf)
    path.write_bytes(pin_zip(buf.getvalue()))


def notice(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("Embargo notice - Housing completions Q3 2025")
    c.setAuthor("Northmoor Statistics Office")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "Northmoor Statistics Office - Embargo notice")
    c.setFont("Helvetica", 10.5)
    y = 750
    for line in [
        "Release: Housing completions, third quarter 2025",
        "Issued to accredited media under embargo on Monday 13 October 2025.",
        "",
        f"EMBARGO: not to be published, broadcast or posted online before {F.embargo.spoken}.",
        "",
        "Terms of pre-release access",
        "1. The figures may be used only to prepare reporting for publication after the embargo time.",
        "2. They must not be passed to anyone outside your newsroom before the embargo time,",
        "   including commentators, interviewees, freelancers and other organisations.",
        "3. You may seek comment on the subject in general, but not on the unpublished figures.",
        "4. A breach withdraws pre-release access for your organisation for twelve months.",
        "",
        "Questions: NSO press office.",
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()


def rival_chart(path: Path) -> None:
    """A news-site bar chart: Q1 vs Q2 2025 with a y-axis starting at axis_min (not zero)."""
    w, h = 640, 420
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, 44), fill=(20, 45, 90))
    d.text((16, 10), F.rival.outlet.upper(), font=font(20, bold=True), fill=(255, 255, 255))
    d.text((16, 54), F.rival.claim, font=font(24, bold=True), fill=(20, 20, 20))
    d.text((16, 86), "New homes completed per quarter, all districts", font=font(14), fill=(80, 80, 80))
    x0, x1, y_top, y_bot = 90, 600, 130, 370
    lo, hi, step = F.rival.axis_min, 2100, 100
    scale = (y_bot - y_top) / (hi - lo)
    for v in range(lo, hi + 1, step):
        yy = y_bot - (v - lo) * scale
        d.line((x0, yy, x1, yy), fill=(225, 225, 225), width=1)
        d.text((22, yy - 8), f"{v:,}", font=font(13), fill=(90, 90, 90))
    d.line((x0, y_top, x0, y_bot), fill=(60, 60, 60), width=2)
    d.line((x0, y_bot, x1, y_bot), fill=(60, 60, 60), width=2)
    values = dict(zip(F.series.quarters, F.series.totals))
    for i, q in enumerate(("Q1 2025", "Q2 2025")):
        bx = 170 + i * 220
        top = y_bot - (values[q] - lo) * scale
        d.rectangle((bx, top, bx + 130, y_bot), fill=(200, 40, 40) if i else (40, 90, 160))
        d.text((bx + 30, y_bot + 10), q, font=font(15, bold=True), fill=(30, 30, 30))
    d.text((16, 400), f"Graphic: {F.rival.outlet}, {F.rival.published}", font=font(11), fill=(120, 120, 120))
    img.save(path, format="PNG", optimize=True)


def call_recording(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "call.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "170", "-p", "45", "-w", str(wav), CALL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1",
             "-c:a", "libmp3lame", "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact",
             "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/release", "day1/rival", "day2/interviews"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    release(HERE / F.names.release_file)
    notice(HERE / F.names.notice_file)
    rival_chart(HERE / F.names.rival_chart)
    call_recording(HERE / F.names.interview)


if __name__ == "__main__":
    main()
