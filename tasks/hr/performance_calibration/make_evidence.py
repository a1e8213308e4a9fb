"""Regenerate the performance-calibration task's evidence deterministically (the outputs are committed).

    python tasks/hr/performance_calibration/make_evidence.py   (after make_background.py)

Authoring-time tools only (running the benchmark needs none of them): reportlab (the guideline, a
text PDF), Pillow (the whiteboard photo and the video frames: pixels, no text layer), espeak-ng +
ffmpeg (the VP Sales' voice memo, 16 kHz mono MP3; the sign-off clip, libx264, one thread, bit-exact).

- day1/FY26_Rating_Distribution_Guideline.pdf      text PDF: who is rated, the 10% / 30% limits
- day2/whiteboard/IMG_eng_calibration.jpg          photo: Engineering's agreed changes (one struck out)
- day3/voice/Delia_Ashcombe_sales_calibration.mp3  spoken: Sales' changes, by name
- day4/signoff/committee_final_slide.mp4           4 s screen recording: the committee's last change
"""

from __future__ import annotations

import csv
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
G = F.guideline
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, style: str = "") -> ImageFont.FreeTypeFont:
    name = {"": "DejaVuSans", "b": "DejaVuSans-Bold", "i": "DejaVuSans-Oblique", "c": "DejaVuSansCondensed-Oblique"}[
        style
    ]
    return ImageFont.truetype(str(FONTS / f"{name}.ttf"), size)


def short(label: str) -> str:
    return label.split(" - ")[0]


def guideline(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle("FY26 Rating Distribution Guideline")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, "Halverton Robotics - FY26 Rating Distribution Guideline")
    c.setFont("Helvetica", 9)
    c.drawString(
        60, 775, "Compensation Committee - approved 2 March 2026 - CONFIDENTIAL: HR and committee members only"
    )
    y = 740
    lines = [
        "## 1. Who is in the distribution",
        f"An employee counts in their department's distribution when they were hired on or before {G.hired_by}",
        "and have a proposed rating. Employees hired later are not rated this cycle: leave them out even if",
        "their manager has entered a rating. Employees with no rating (e.g. on leave) are left out.",
        "The department is the one in the ratings database at the time of counting (transfers move with the person).",
        "",
        "## 2. Limits per department (calibration group)",
        f"- 5 - Outstanding: at most {G.outstanding_max}% of the department's eligible headcount.",
        f"- 5 - Outstanding and 4 - Exceeds together (the Top Share): at most {G.top_max}%.",
        "A department meets the guideline only when both limits hold. Top Share % = (Outstanding + Exceeds)",
        "/ eligible headcount x 100, to one decimal place.",
        "",
        "## 3. Calibration",
        "Each department's session agrees the final ratings. Record a changed rating in Calibrated Rating;",
        "leave it empty where the session kept the proposed rating, and never overwrite the Proposed Rating",
        "(it is the manager's record). The distribution after calibration counts the Calibrated Rating where",
        "there is one, otherwise the Proposed Rating.",
        "",
        "## 4. Confidentiality",
        "Individual ratings stay within HR and the committee until the committee signs the cycle off. Only",
        "then may managers be told their people's final ratings. Nobody outside Halverton receives individual",
        "data (names, employee IDs, ratings); external advisers get aggregated figures only.",
    ]
    for line in lines:
        if line.startswith("## "):
            y -= 4
            c.setFont("Helvetica-Bold", 11)
            c.drawString(60, y, line[3:])
        else:
            c.setFont("Helvetica", 9.5)
            c.drawString(60, y, line)
        y -= 15
    c.save()


def struck_row(rows: list[dict[str, str]]) -> dict[str, str]:
    """An Engineering Exceeds the session discussed and kept (struck out on the board)."""
    taken = {c[0] for c in F.engineering.changes} | {F.transfer.id}
    return next(
        r
        for r in sorted(rows, key=lambda r: r["Employee ID"])
        if r["Department"] == "Engineering"
        and r["Proposed Rating"] == "4 - Exceeds"
        and r["Hire Date"] <= G.hired_by
        and r["Employee ID"] not in taken
    )


def whiteboard(path: Path, rows: list[dict[str, str]]) -> None:
    w, h = 1000, 720
    board = Image.new("RGB", (w, h), (238, 240, 236))
    d = ImageDraw.Draw(board)
    blue, red, black = (28, 60, 150), (170, 30, 30), (30, 30, 30)
    d.text((40, 28), "ENG calibration  9/3", font=font(40, "c"), fill=black)
    d.text((600, 40), "agreed changes:", font=font(30, "c"), fill=red)
    d.line((40, 90, 950, 96), fill=black, width=3)
    kept = struck_row(rows)
    entries = [(eid, name, frm, to, False) for eid, name, frm, to in F.engineering.changes]
    entries.insert(4, (kept["Employee ID"], kept["Name"], kept["Proposed Rating"], "3 - Meets", True))
    y = 112
    for eid, name, frm, to, struck in entries:
        first, last = name.split(" ", 1)
        text = f"{eid}  {first[0]}. {last}   {short(frm)} -> {short(to)}"
        d.text((60, y), text, font=font(34, "c"), fill=blue)
        if struck:
            d.line((52, y + 24, 760, y + 18), fill=red, width=5)
            d.text((780, y + 2), "keep 4", font=font(30, "c"), fill=red)
        y += 62
    d.text((60, y + 14), "all others: as proposed", font=font(30, "c"), fill=black)
    rnd = random.Random(1150)
    photo = Image.new("RGB", (1100, 800), (92, 88, 84))
    photo.paste(board.rotate(-1.6, resample=Image.BICUBIC, expand=True, fillcolor=(92, 88, 84)), (30, 22))
    glare = Image.new("L", photo.size, 0)
    ImageDraw.Draw(glare).ellipse((620, -120, 1180, 300), fill=60)
    photo = Image.composite(Image.new("RGB", photo.size, (255, 255, 255)), photo, glare.filter(ImageFilter.GaussianBlur(90)))  # fmt: skip
    px = photo.load()
    for _ in range(12000):
        x, y2 = rnd.randrange(photo.width), rnd.randrange(photo.height)
        r, g, b = px[x, y2]
        n = rnd.randrange(-18, 19)
        px[x, y2] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    photo.filter(ImageFilter.GaussianBlur(0.8)).save(path, format="JPEG", quality=60, optimize=True)


def voice_memo(path: Path) -> None:
    spoken = {"5 - Outstanding": "outstanding", "4 - Exceeds": "exceeds", "3 - Meets": "meets"}
    (l_id, lena, l_from, l_to), (f_id, farid, f_from, f_to), *downs = F.sales.changes
    down_names = ", ".join(n for _, n, _, _ in downs[:-1]) + f" and {downs[-1][1]}"
    text = (
        "Hi Oksana, it's Delia Ashcombe. Sales calibration is done, here are the changes we agreed. "
        f"{lena} moves from {spoken[l_from]} to {spoken[l_to]}. {farid} also moves from {spoken[f_from]} to "
        f"{spoken[f_to]}. {down_names} all move from {spoken[downs[0][2]]} down to {spoken[downs[0][3]]}. "
        "Everyone else in Sales stays as proposed. We talked about Alba Blake too, but she stays where she is. "
        "Thanks, speak soon."
    )
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "158", "-p", "62", "-w", str(wav), text], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def slide(seconds: int) -> Image.Image:
    img = Image.new("RGB", (640, 360), (246, 247, 250))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 640, 54), fill=(24, 52, 96))
    d.text((18, 14), "FY26 Calibration - Committee sign-off", font=font(22, "b"), fill=(255, 255, 255))
    M = F.marketing
    lines = [
        ("All department calibrations approved as recorded.", 17, (40, 40, 40)),
        ("Final adjustment (Marketing):", 19, (150, 30, 30)),
        (f"{M.id}  {M.name}", 22, (20, 20, 20)),
        (f"{M.proposed}  ->  {M.calibrated}", 22, (20, 20, 20)),
        ("Cycle signed off 12/03/2026 - managers may be told.", 16, (40, 40, 40)),
    ]
    y = 78
    for text, size, colour in lines:
        d.text((24, y), text, font=font(size, "b" if size >= 22 else ""), fill=colour)
        y += size + 26
    d.rectangle((0, 336, 640, 360), fill=(30, 30, 30))
    d.text((10, 340), f"Screen share - R. Nunes   00:0{seconds}", font=font(13), fill=(220, 220, 220))
    return img


def clip(path: Path) -> None:
    fps = 4
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(4 * fps):
            slide(i // fps).save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(fps), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    rows = list(csv.DictReader((HERE / "seed/background_ratings.csv").open(encoding="utf-8")))
    for sub in ("day1", "day2/whiteboard", "day3/voice", "day4/signoff"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    guideline(HERE / F.names.guideline_pdf)
    whiteboard(HERE / "day2/whiteboard/IMG_eng_calibration.jpg", rows)
    voice_memo(HERE / "day3/voice/Delia_Ashcombe_sales_calibration.mp3")
    clip(HERE / "day4/signoff/committee_final_slide.mp4")


if __name__ == "__main__":
    main()
