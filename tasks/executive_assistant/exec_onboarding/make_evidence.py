"""Regenerate the exec-onboarding task's evidence deterministically (the outputs are committed).

    python tasks/executive_assistant/exec_onboarding/make_evidence.py

Authoring-time tools only: reportlab (HR's text letter), Pillow (the IT portal screenshot, an
image), espeak-ng + ffmpeg (the CEO's dictated memo, 16 kHz mono MP3, bit-exact flags).

- day1/HR_onboarding_letter_E-20931.pdf   text PDF: start date, employee id, personal contact data
- day1/it_access_matrix.png               image: per role the systems, roles, approvers, preconditions
- day1/anders_memo_2026-08-31.mp3         spoken: the CEO's wishes for the first week
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
C = F.cfo
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def hr_letter(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"Onboarding letter {C.employee_id}")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "Halvorsen Maritime AS - People & Culture")
    c.setFont("Helvetica", 10.5)
    y = 755
    for line in [
        "Onboarding letter (internal - contains personal data)",
        "",
        f"Name: {C.name}",
        "Position: Chief Financial Officer, reporting to Anders Vik (CEO)",
        f"Employee ID: {C.employee_id}",
        f"Start date: Monday 7 September 2026 ({C.start})",
        f"Work e-mail: {C.work} (active from 31 August)",
        f"Personal e-mail: {C.personal}",
        f"Mobile: {C.mobile}",
        "Office: Strandkaien 4, 5th floor, room 5.02",
        "",
        "Contract signing: in person before the start date (to be arranged with HR).",
        "Equipment: laptop handover with IT on the first day at 11:00.",
        "Payroll: first salary 25 September 2026.",
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()


MATRIX = [
    ("Controller", "ERP", "Controller", "Tor Hauge", "-"),
    ("Controller", "BI", "Viewer", "Tor Hauge", "-"),
    ("Treasurer", "Banking portal", "Administrator", "Anders Vik", "In-person ID verification"),
    ("CFO", F.access.rows[0][0], F.access.rows[0][1], F.access.rows[0][2], "-"),
    ("CFO", F.access.banking[0], F.access.banking[1], F.access.banking[2], "In-person ID verification (IDV ref)"),
    ("CFO", F.access.rows[1][0], F.access.rows[1][1], F.access.rows[1][2], "-"),
    ("CFO", F.access.rows[2][0], F.access.rows[2][1], F.access.rows[2][2], "-"),
    ("Board member", "Board portal", "Member", "Sigrid Moe", "-"),
]


def matrix(path: Path) -> None:
    img = Image.new("RGB", (1000, 470), (250, 251, 253))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 1000, 48), fill=(36, 41, 56))
    d.text((20, 13), "IT Service Portal  >  Access matrix by role", font=font(18, bold=True), fill=(255, 255, 255))
    cols = [(20, "Job role"), (170, "System"), (340, "Role in system"), (520, "Approver(s)"), (740, "Precondition")]
    y = 70
    for x, head in cols:
        d.text((x, y), head, font=font(15, bold=True), fill=(30, 30, 30))
    d.line((15, y + 26, 985, y + 26), fill=(160, 160, 170), width=2)
    y += 38
    for row in MATRIX:
        if row[0] == "CFO":
            d.rectangle((15, y - 6, 985, y + 30), fill=(255, 248, 220))
        for (x, _), value in zip(cols, row):
            d.text((x, y), value, font=font(14), fill=(40, 40, 40))
        y += 42
    d.text(
        (20, 440),
        "Screenshot 31.08.2026 09:12 - requests go to the EA team's Access Requests database",
        font=font(12),
        fill=(120, 120, 130),
    )
    img = img.quantize(colors=32, dither=Image.Dither.NONE)
    img.save(path, format="PNG", optimize=True)


MEMO = (
    "Rosa, it's Anders. A few wishes for Ingrid's first week. "
    "On her first morning she should sit down with Mette Lund for a full hour, before anything else. "
    "She told me she doesn't do meetings before half past nine, so plan around that. "
    "Henrik Dahl, our audit committee chair, must see her in her first week. "
    "And the external auditors from Brightline: not in her first week, she needs time to settle in. Second week is fine. "
    "Thanks, Rosa."
)


def memo(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "40", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    target = HERE / "day1"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    hr_letter(target / "HR_onboarding_letter_E-20931.pdf")
    matrix(target / "it_access_matrix.png")
    memo(target / "anders_memo_2026-08-31.mp3")


if __name__ == "__main__":
    main()
