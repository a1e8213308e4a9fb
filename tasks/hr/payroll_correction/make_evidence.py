"""Regenerate the payroll-correction task's evidence deterministically (the outputs are committed).

    python tasks/hr/payroll_correction/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (the text-PDF
register, and the wrapper of the scanned form), Pillow (scans and video frames) and ffmpeg
(libx264, one thread, bit-exact flags).

- day1/payroll/June-A_payroll_register.pdf       text PDF: the hours the regular June A run paid
- day1/timesheets/TS_<id>_<week>.jpg              scanned, signed paper timesheets (pixels only)
- day1/timeclock/VID_timeclock_E-1103.mp4         a 4 s phone clip of the time-clock terminal; for
  one second it shows Tomas Reyes's Saturday punches and hours
- day4/ADJ-0614-07_Reyes_signed.pdf               image-only PDF: the supervisor's signed adjustment
  form with the hours she signs off
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")
NAMES = {"E-1042": "Marcus Obi", "E-1077": "Hana Sato", "E-1103": "Tomas Reyes", "E-1120": "Dana Whitlock",
         "E-1135": "Felix Amsel"}  # fmt: skip
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]


def font(size: int, kind: str = "sans") -> ImageFont.FreeTypeFont:
    files = {"sans": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "mono": "DejaVuSansMono.ttf",
             "hand": "DejaVuSerif-Italic.ttf", "monob": "DejaVuSansMono-Bold.ttf"}  # fmt: skip
    return ImageFont.truetype(str(FONTS / files[kind]), size)


def scan_finish(page: Image.Image, seed: int) -> Image.Image:
    """Scanner artefacts: speckle, a slight skew and blur (seeded: the same bytes every run)."""
    d = ImageDraw.Draw(page)
    rnd = random.Random(seed)
    for _ in range(1500):
        d.point((rnd.randrange(page.width), rnd.randrange(page.height)), fill=rnd.randrange(120, 200))
    page = page.rotate(0.7 if seed % 2 else -0.6, resample=Image.BICUBIC, expand=False, fillcolor=236)
    return page.filter(ImageFilter.GaussianBlur(0.5))


# -- text PDF: the regular run's register -------------------------------------------------------
def register(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)  # invariant: byte-identical output
    c.setTitle("Payroll register June A 2025")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(50, 740, "Quillmarsh Logistics - Payroll register")
    c.setFont("Helvetica", 10)
    c.drawString(
        50, 722, "Run: June A 2025 (regular, biweekly)   Period: 02 Jun 2025 - 15 Jun 2025   Pay date: 20 Jun 2025"
    )
    c.drawString(50, 708, "Pay group: Hourly - Joliet DC     Hours as paid (REG = regular, OT = overtime at 1.5x)")
    y = 676
    c.setFont("Helvetica-Bold", 10)
    for x, head in ((50, "Emp ID"), (110, "Name"), (230, "Wk 1 (2-8 Jun) REG"), (340, "Wk 1 OT"),
                    (400, "Wk 2 (9-15 Jun) REG"), (515, "Wk 2 OT")):  # fmt: skip
        c.drawString(x, y, head)
    c.setFont("Helvetica", 10)
    for emp in sorted(F.register):
        w1, w2 = F.register[emp]["week1"], F.register[emp]["week2"]
        y -= 18
        for x, text in ((50, emp), (110, NAMES[emp]), (250, f"{w1[0]:.2f}"), (345, f"{w1[1]:.2f}"),
                        (425, f"{w2[0]:.2f}"), (520, f"{w2[1]:.2f}")):  # fmt: skip
            c.drawString(x, y, text)
    y -= 30
    for line in [
        "Hours are taken from the time-and-attendance export of 16 Jun 2025 06:00. Punches missing from",
        "the export (paper timesheets not yet keyed, unexported clock records) are not in this run and are",
        "paid through an off-cycle correction once signed off.",
        "",
        "Rates and gross amounts: see the pay statements. Prepared by Payroll, checked by Finance.",
    ]:
        c.drawString(50, y, line)
        y -= 14
    c.save()


# -- scans: paper timesheets --------------------------------------------------------------------
def timesheet(path: Path, emp: str, seed: int) -> None:
    sheet = F.timesheets[emp]
    w, h = 900, 640
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    d.text((40, 30), "QUILLMARSH LOGISTICS - WEEKLY TIMESHEET (hourly)", font=font(24, "bold"), fill=20)
    d.text((40, 72), f"Employee: {NAMES[emp]}     ID: {emp}     Site: Joliet DC", font=font(19), fill=25)
    d.text((40, 102), f"Week starting (Monday): {sheet['week']}", font=font(19), fill=25)
    x0, y0, cw = 40, 150, 120
    for i, day in enumerate([*DAYS, "TOTAL"]):
        d.rectangle((x0 + i * cw, y0, x0 + (i + 1) * cw, y0 + 44), outline=60, width=2)
        d.text((x0 + i * cw + 30, y0 + 10), day, font=font(20, "bold"), fill=30)
        d.rectangle((x0 + i * cw, y0 + 44, x0 + (i + 1) * cw, y0 + 120), outline=60, width=2)
    for i, hours in enumerate([*sheet["days"], sum(sheet["days"])]):
        text = "-" if hours == 0 else f"{hours:g}"
        d.text((x0 + i * cw + 28, y0 + 62), text, font=font(34, "hand"), fill=15)  # hand-written figures
    d.text((40, 320), "Hours worked incl. overtime; unpaid meal breaks excluded.", font=font(17), fill=40)
    d.text((40, 380), "Employee signature:", font=font(19), fill=30)
    d.text((260, 370), NAMES[emp], font=font(30, "hand"), fill=20)
    d.text((40, 450), "Supervisor signature:", font=font(19), fill=30)
    d.text((280, 440), "L. Ferreira", font=font(30, "hand"), fill=20)
    d.text((40, 520), "Signed 17 Jun 2025 - to Payroll for off-cycle correction", font=font(17), fill=40)
    page = scan_finish(page, seed)
    page.save(path, format="JPEG", quality=62, optimize=True)


# -- video: the time-clock terminal -------------------------------------------------------------
W, H, FPS = 480, 320, 10


def terminal(screen: list[str], jitter: int) -> Image.Image:
    img = Image.new("RGB", (W, H), (58, 62, 70))
    d = ImageDraw.Draw(img)
    x0, y0 = 40 + jitter, 30 + jitter // 2
    d.rounded_rectangle((x0 - 20, y0 - 14, x0 + 420, y0 + 250), radius=18, fill=(30, 32, 36))
    d.rectangle((x0, y0, x0 + 400, y0 + 220), fill=(12, 40, 24))
    for i, line in enumerate(screen):
        d.text((x0 + 14, y0 + 12 + i * 34), line, font=font(21, "monob" if i == 0 else "mono"), fill=(120, 255, 150))
    return img


def clock_clip(path: Path) -> None:
    k = F.clock
    idle = ["CHRONOTEK CT-400", "TUE 17-JUN-25  07:48", "PRESENT BADGE", "", "MENU > HISTORY"]
    search = ["HISTORY", "BADGE:  E-1103", "SEARCHING ...", "", ""]
    punches = [
        f"{k.employee} REYES, T",
        k.date,
        f"IN  {k.punch_in}   OUT {k.punch_out}",
        f"BREAK {k['break']}  (UNPAID)",
        f"WORKED  {k.hours} H",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(4 * FPS):
            screen = idle if i < 15 else search if i < 22 else punches if i < 32 else idle
            terminal(screen, (i % 3) * 2).save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


# -- image-only PDF: the signed adjustment form -------------------------------------------------
def adjustment_form(path: Path) -> None:
    a = F.adjustment
    w, h = 850, 1100
    page = Image.new("L", (w, h), 250)
    d = ImageDraw.Draw(page)
    d.text((60, 50), "QUILLMARSH LOGISTICS", font=font(26, "bold"), fill=20)
    d.text((60, 90), "Time adjustment form (missed or corrected punches)", font=font(20), fill=30)
    d.line((60, 125, 790, 125), fill=60, width=2)
    rows = [
        ("Form no.", a.form),
        ("Employee", "Tomas Reyes   ID E-1103   Dispatch"),
        ("Shift date", "Saturday 14 June 2025 (overtime shift)"),
        (
            "Clock record",
            f"in {F.clock.punch_in}  out {F.clock.punch_out}  break {F.clock['break']}  = {F.clock.hours} h",
        ),
    ]
    y = 150
    for label, value in rows:
        d.text((60, y), label, font=font(19), fill=35)
        d.text((250, y), value, font=font(19), fill=15)
        y += 40
    d.text((60, y + 20), "Correction:", font=font(19, "bold"), fill=20)
    d.text((250, y + 14), a.reason, font=font(22, "hand"), fill=15)
    d.text((60, y + 90), "Hours to be paid:", font=font(19, "bold"), fill=20)
    d.rectangle((250, y + 76, 420, y + 136), outline=40, width=3)
    d.text((280, y + 84), a.hours, font=font(40, "hand"), fill=10)  # the signed figure: handwritten
    d.text((440, y + 94), "hours (overtime)", font=font(19), fill=30)
    d.text((60, y + 200), "Supervisor:", font=font(19), fill=30)
    d.text((250, y + 188), "L. Ferreira", font=font(32, "hand"), fill=15)
    d.text((520, y + 200), "Date: 25 Jun 2025", font=font(19), fill=30)
    d.text((60, y + 270), "Employee:", font=font(19), fill=30)
    d.text((250, y + 258), "T. Reyes", font=font(32, "hand"), fill=15)
    d.text((60, 1030), "Payroll copy - retain 4 years", font=font(15), fill=50)
    page = scan_finish(page, 614)
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=60, optimize=True)
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)
    c.setTitle("scan_0625_0931")
    pw, ph = letter
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=pw, height=ph)
    c.save()


def main() -> None:
    for sub in ("day1", "day4"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day1/payroll", "day1/timesheets", "day1/timeclock", "day4"):
        (HERE / sub).mkdir(parents=True)
    register(HERE / "day1/payroll/June-A_payroll_register.pdf")
    for n, emp in enumerate(sorted(F.timesheets)):
        timesheet(HERE / f"day1/timesheets/TS_{emp}_{F.timesheets[emp]['week']}.jpg", emp, 1042 + n)
    clock_clip(HERE / "day1/timeclock/VID_timeclock_E-1103.mp4")
    adjustment_form(HERE / "day4/ADJ-0614-07_Reyes_signed.pdf")


if __name__ == "__main__":
    main()
