"""Regenerate the discharge-planning task's evidence deterministically (the outputs are committed).

    python tasks/clinical/discharge_planning/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs),
Pillow (the scanned pressure-area chart and the video frames, no text layer), ffmpeg (libx264,
one thread, bit-exact flags; 16 kHz mono MP3) and espeak-ng (the son's voicemail).

- day1/home_visit/SB-40718_OT_home_assessment.pdf  text PDF: the OT's home visit (care needs, commode, frame)
- day1/home_visit/SB-40718_pressure_area_chart.jpg  scan: the Waterlow chart (latest total 17)
- day1/home_visit/frontroom_doorway.mp4             4 s clip: a tape measure across the doorway (71 cm)
- day3/voicemail/robert_thornbury_2026-10-13_2147.mp3  the son's voicemail: key safe code, home from 13:00
- day4/pharmacy/SB-40718_TTO-88213.pdf              text PDF: the pharmacy's TTO, made from Monday's chart
"""

from __future__ import annotations

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
FONTS = Path("/usr/share/fonts/truetype/dejavu")
FPS = 8

WATERLOW = [
    # item, 05/10, 09/10, 12/10
    ("Build / BMI", 0, 0, 0),
    ("Continence", 3, 1, 1),
    ("Skin type", 2, 1, 0),
    ("Sex", 2, 2, 2),
    ("Age (81+)", 5, 5, 5),
    ("Appetite", 2, 1, 1),
    ("Mobility", 5, 3, 3),
    ("Special risk: ortho surgery", 5, 5, 5),
]

VOICEMAIL = (
    "Hello, this is Robert Thornbury, Agnes Thornbury's son. It's Tuesday evening, about a quarter to ten. "
    "Two things for Friday. The key safe by Mum's front door: the code is four, seven, one, nine. "
    "And I'm at work on Friday morning, so I can't be at Mum's house before one o'clock in the afternoon. "
    "Please don't let her arrive before somebody is there. Thanks very much. Bye."
)

TTO_ITEMS = [
    ("Edoxaban", F.tto.edoxaban_printed, "once daily", "14 tablets"),
    ("Amlodipine", "5 mg", "once daily", "14 tablets"),
    ("Paracetamol", "1 g", "four times daily", "112 tablets"),
    ("Alendronic acid", "70 mg", "once weekly", "4 tablets"),
    ("Colecalciferol", "800 units", "once daily", "28 capsules"),
    ("Lansoprazole", "15 mg", "once daily", "14 capsules"),
]


def font(size: int, *, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSansMono.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return ImageFont.truetype(str(FONTS / name), size)


def _lines(c: canvas.Canvas, y: float, lines: list[str], size: float = 10.5) -> float:
    for line in lines:
        if line.startswith("## "):
            y -= 6
            c.setFont("Helvetica-Bold", size + 1)
            c.drawString(60, y, line[3:])
        else:
            c.setFont("Helvetica", size)
            c.drawString(60, y, line)
        y -= 15
    return y


def ot_report(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("OT home assessment - SB-40718")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "St Brennan's Hospital - Occupational Therapy")
    c.setFont("Helvetica", 9)
    c.drawString(60, 776, "Home environment assessment (pre-discharge)")
    _lines(
        c,
        745,
        [
            f"Patient: Agnes THORNBURY   Hosp. no. {F.patient.mrn}   NHS {F.patient.nhs}   DOB {F.patient.dob}",
            "Visit: 09/10/2026, with the patient and her son.   Assessor: Layla Haddou, Occupational Therapist",
            "",
            "## Environment",
            "Two-storey terraced house, bedroom and only toilet/bathroom upstairs (14 steps, one rail).",
            "She cannot manage the stairs yet: bed to be set up in the downstairs front room.",
            "Front-room doorway: measured on the visit, see the clip frontroom_doorway.mp4.",
            "",
            "## Mobility and transfers",
            "Walks about 10 m with a zimmer frame and supervision. Not safe with a wheeled walking frame:",
            "she pushes it ahead of her. Recommend: zimmer frame for indoors.",
            "Transfers need the help of two in the morning (stiffness); one helper later in the day.",
            "",
            "## Toileting",
            "No downstairs toilet. Recommend a wheeled commode, moved to the bedside at night.",
            "",
            "## Pressure care",
            "Pressure-relieving mattress on the new bed, type as per the ward's latest Waterlow score.",
            "",
            "## Care needs on discharge",
            f"Reablement package: {F.ot.calls_per_day} calls a day (morning, lunch, tea, bed).",
            f"Morning call: {F.ot.morning_carers} carers (transfers, wash and dress). Other calls: 1 carer.",
            "Key safe at the front door (son to provide the code).",
            "",
            "Layla Haddou, OT   10/10/2026",
        ],
    )
    c.save()


def pressure_chart(path: Path) -> None:
    """A nurse's handwritten Waterlow chart, photographed: a raster image only."""
    assert sum(row[3] for row in WATERLOW) == F.ot.waterlow, "the latest total must be facts.toml [ot] waterlow"
    w, h = 760, 560
    img = Image.new("L", (w, h), 246)
    d = ImageDraw.Draw(img)
    d.text((30, 20), "LARCH WARD - PRESSURE AREA RISK (WATERLOW)", font=font(22, bold=True), fill=25)
    d.text((30, 56), "Patient: A. Thornbury   Bed 9   Hosp no SB-40718", font=font(17), fill=35)
    cols = [(360, "05/10"), (480, "09/10"), (600, "12/10")]
    y = 100
    for x, head in cols:
        d.text((x, y), head, font=font(18, bold=True), fill=30)
    d.line((30, y + 30, 720, y + 30), fill=80, width=2)
    y += 42
    rnd = random.Random(40718)
    for item, *scores in WATERLOW:
        d.text((30, y), item, font=font(17), fill=30)
        for (x, _), score in zip(cols, scores):
            d.text((x + 18 + rnd.randrange(-3, 4), y + rnd.randrange(-2, 3)), str(score), font=font(21), fill=15)
        y += 36
    d.line((30, y + 2, 720, y + 2), fill=60, width=2)
    d.text((30, y + 14), "TOTAL", font=font(20, bold=True), fill=20)
    for i, (x, _) in enumerate(cols):
        total = sum(row[i + 1] for row in WATERLOW)
        d.text((x + 12, y + 10), str(total), font=font(26, bold=True), fill=10)
    d.text((30, y + 60), "Signed: staff nurse J. Okafor", font=font(15), fill=50)
    for _ in range(1500):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(140, 210))
    img = img.rotate(1.2, resample=Image.BICUBIC, expand=False, fillcolor=230).filter(ImageFilter.GaussianBlur(0.5))
    img.save(path, format="JPEG", quality=72, optimize=True)


def doorway_frame(i: int) -> Image.Image:
    w, h = 320, 240
    pan = i * 2
    img = Image.new("RGB", (w, h), (198, 186, 160))
    d = ImageDraw.Draw(img)
    d.rectangle((30 - pan, 20, 290 - pan, 240), fill=(120, 84, 52))  # door frame
    d.rectangle((46 - pan, 30, 274 - pan, 240), fill=(60, 58, 66))  # opening (dark hallway)
    y = 128
    d.rectangle((40 - pan, y, 282 - pan, y + 26), fill=(235, 200, 40))  # the tape across the opening
    for k in range(0, 80):
        x = 46 - pan + k * 3
        if x > 280 - pan:
            break
        d.line((x, y, x, y + (10 if k % 10 == 0 else 5)), fill=(20, 20, 20))
    d.rectangle((214 - pan, y - 40, 296 - pan, y - 4), fill=(250, 250, 250))
    d.text((220 - pan, y - 38), f"{F.ot.doorway_cm}", font=font(28, bold=True), fill=(200, 20, 20))
    d.text((262 - pan, y - 26), "cm", font=font(14, bold=True), fill=(200, 20, 20))
    d.text((8, 6), f"09/10/2026 11:{20 + i // FPS:02d}", font=font(12, mono=True), fill=(255, 255, 255))
    return img


def doorway_clip(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(4 * FPS):
            doorway_frame(i).save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def voicemail(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "35", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def tto(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"TTO {F.tto.number}")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "St Brennan's Hospital Pharmacy - To Take Out (TTO)")
    y = _lines(
        c,
        760,
        [
            f"TTO number: {F.tto.number}      Prepared: 12/10/2026 16:40 from the inpatient chart",
            f"Patient: Agnes THORNBURY   Hosp. no. {F.patient.mrn}   Ward: Larch, bed 9",
            f"Prescriber: Dr O Pryce (orthogeriatrics)   Planned discharge: {F.patient.discharge_date}",
            "",
        ],
    )
    c.setFont("Helvetica-Bold", 10.5)
    for x, head in ((60, "Medicine"), (200, "Dose"), (290, "Frequency"), (420, "Supply")):
        c.drawString(x, y, head)
    c.setFont("Helvetica", 10.5)
    for drug, dose, freq, supply in TTO_ITEMS:
        y -= 16
        for x, text in ((60, drug), (200, dose), (290, freq), (420, supply)):
            c.drawString(x, y, text)
    _lines(c, y - 30, ["Checked by: ____________  (ward)      Dispensed by: ____________  (pharmacy)"])
    c.save()


def main() -> None:
    for sub in ("day1/home_visit", "day3/voicemail", "day4/pharmacy"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    ot_report(HERE / "day1/home_visit/SB-40718_OT_home_assessment.pdf")
    pressure_chart(HERE / "day1/home_visit/SB-40718_pressure_area_chart.jpg")
    doorway_clip(HERE / "day1/home_visit/frontroom_doorway.mp4")
    voicemail(HERE / "day3/voicemail/robert_thornbury_2026-10-13_2147.mp3")
    tto(HERE / f"day4/pharmacy/SB-40718_{F.tto.number}.pdf")


if __name__ == "__main__":
    main()
