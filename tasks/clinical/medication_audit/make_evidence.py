"""Regenerate the medication-audit task's evidence deterministically (the outputs are committed).

    python tasks/clinical/medication_audit/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDF, and
the wrapper of the scanned page), Pillow (the scanned lab report is rendered to a grey JPEG with
no text layer), espeak-ng + ffmpeg (the registrar's dictated voice memo, 16 kHz mono MP3).

- day1/admission/P-2189_gp_referral_letter.pdf  text PDF: the GP's referral with the home medicines
- day3/labs/P-2189_lab_report_2025-04-09.pdf     image-only PDF: this morning's bloods (digoxin level, ALT)
- day3/voice_memos/haddad_2025-04-09_0742.mp3    spoken memo: the registrar's decisions, some conditional
  on the lab values in the scan
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")

HOME_MEDICINES = [
    # drug, dose, frequency, indication
    ("Apixaban", "5 mg", "twice daily", "AF, stroke prevention"),
    ("Bisoprolol", "2.5 mg", "once daily", "AF rate, heart failure"),
    ("Furosemide", "40 mg", "once daily (morning)", "heart failure"),
    ("Digoxin", "125 micrograms", "once daily", "rate control"),
    ("Atorvastatin", "40 mg", "at night", "cholesterol"),
]

LABS = [
    # test, result, unit, reference range, flag
    ("Sodium", "138", "mmol/L", "133 - 146", ""),
    ("Potassium", "3.9", "mmol/L", "3.5 - 5.3", ""),
    ("Urea", "9.8", "mmol/L", "2.5 - 7.8", "H"),
    ("Creatinine", "139", "umol/L", "59 - 104", "H"),
    ("eGFR", "41", "mL/min/1.73m2", "> 60", "L"),
    ("ALT", F.labs.alt, "U/L", f"< {F.labs.alt_limit}", ""),
    ("Bilirubin", "14", "umol/L", "< 21", ""),
    ("Digoxin (trough)", F.labs.digoxin_level, "ug/L", "0.5 - 2.0", "H"),
]

MEMO = (
    "Hi Chen, it's Amir Haddad, Wednesday, quarter to eight, about Mr Whitcombe in bed twelve, "
    "P 2 1 8 9. First, apixaban: I agree with your recommendation, please reduce it to two point five "
    "milligrams twice daily. Second, digoxin: look at this morning's digoxin level on the lab report. "
    "If it is above two, hold the digoxin, and we recheck on Friday. If it is two or below, reduce it to "
    "sixty two point five micrograms once daily instead. Third, atorvastatin: if the A L T on the same "
    "report is within the normal range, restart atorvastatin forty milligrams at night. If it is raised, "
    "leave it off. That's all, thanks."
)


def gp_letter(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle("Referral letter - Harold Whitcombe")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "Alder Street Medical Practice")
    c.setFont("Helvetica", 9)
    c.drawString(60, 776, "12 Alder Street, Northbay NB4 7QT  -  Tel 01632 960 411")
    c.setFont("Helvetica", 10.5)
    y = 740
    for line in [
        "Date: 6 April 2025",
        "To: The Admitting Team, Cardiology, Northbay General Hospital",
        "",
        "Re: Mr Harold WHITCOMBE, born 14/02/1944 (81 years), hospital no. P-2189",
        "",
        "Dear colleague,",
        "",
        "Thank you for seeing Mr Whitcombe, who presents with palpitations, breathlessness on minimal",
        "exertion and ankle swelling over five days. He has permanent atrial fibrillation and heart failure",
        "with reduced ejection fraction (EF 35% in 2023). He lives with his daughter and manages his own",
        "medicines with a weekly pill organiser; adherence has been good.",
        "",
        "Weight at the surgery last month: 72 kg. Allergies: penicillin (rash).",
        "",
        "Current repeat medicines (all taken as prescribed until yesterday):",
    ]:
        c.drawString(60, y, line)
        y -= 15
    y -= 4
    c.setFont("Helvetica-Bold", 10)
    for x, head in ((70, "Medicine"), (190, "Dose"), (290, "When"), (410, "For")):
        c.drawString(x, y, head)
    c.setFont("Helvetica", 10)
    for drug, dose, freq, why in HOME_MEDICINES:
        y -= 16
        c.drawString(70, y, drug)
        c.drawString(190, y, dose)
        c.drawString(290, y, freq)
        c.drawString(410, y, why)
    y -= 30
    c.setFont("Helvetica", 10.5)
    for line in [
        "No over-the-counter or herbal products. He had no recent falls and no bleeding history.",
        "",
        "Recent bloods (21 March): creatinine 112 umol/L, potassium 4.4 mmol/L.",
        "",
        "Kind regards,",
        "",
        "Dr Ruth Adeyemi, General Practitioner",
    ]:
        c.drawString(60, y, line)
        y -= 15
    c.save()


def scanned_lab_report(path: Path) -> None:
    """A printed lab report, photocopied and scanned: a grey raster page, no text layer."""
    w, h = 850, 1100
    page = Image.new("L", (w, h), 250)
    d = ImageDraw.Draw(page)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 26)
    mid = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 19)
    mono = ImageFont.truetype(str(FONTS / "DejaVuSansMono.ttf"), 19)
    small = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 15)
    d.text((60, 50), "NORTHBAY GENERAL HOSPITAL - PATHOLOGY", font=bold, fill=20)
    d.text((60, 88), "Clinical Biochemistry  -  Cumulative report", font=mid, fill=40)
    d.line((60, 120, 790, 120), fill=60, width=2)
    rows = [
        ("Patient", "WHITCOMBE, Harold"),
        ("Hosp. no.", "P-2189      DOB 14/02/1944  (M)"),
        ("Location", "Ward 7B, bed 12    Requested by: Dr A Haddad"),
        ("Collected", "09/04/2025 06:10    Reported 09/04/2025 07:31"),
        ("Specimen", "Serum, lab no. 25-0409-0173"),
    ]
    y = 140
    for k, v in rows:
        d.text((60, y), k, font=mid, fill=30)
        d.text((220, y), v, font=mid, fill=10)
        y += 30
    y += 20
    d.text((60, y), "Test", font=bold, fill=20)
    d.text((330, y), "Result", font=bold, fill=20)
    d.text((470, y), "Units", font=bold, fill=20)
    d.text((640, y), "Ref. range", font=bold, fill=20)
    y += 40
    for test, result, unit, ref, flag in LABS:
        d.text((60, y), test, font=mid, fill=15)
        d.text((330, y), f"{result} {flag}".strip(), font=mono, fill=5)
        d.text((470, y), unit, font=small, fill=25)
        d.text((640, y), ref, font=small, fill=25)
        y += 38
    y += 20
    d.text((60, y), "Digoxin sampled 23 h after last dose (valid trough).", font=small, fill=30)
    d.text((60, y + 26), "Comment: result above therapeutic range - reviewed by duty biochemist.", font=small, fill=30)
    d.text((60, 1030), "Authorised: K. Mensah, Biomedical Scientist      Page 1 of 1", font=small, fill=40)
    # scanner artefacts: slight skew, speckle, a soft blur (seeded: the same bytes every run)
    rnd = random.Random(2189)
    for _ in range(1800):
        x, yy = rnd.randrange(w), rnd.randrange(h)
        d.point((x, yy), fill=rnd.randrange(120, 200))
    page = page.rotate(-0.8, resample=Image.BICUBIC, expand=False, fillcolor=235)
    page = page.filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=70, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("scan0173")
    aw, ah = A4
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


def voice_memo(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "165", "-p", "40", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            [
                "ffmpeg",
                "-y",
                "-loglevel",
                "error",
                "-i",
                str(wav),
                "-ar",
                "16000",
                "-ac",
                "1",
                "-c:a",
                "libmp3lame",
                "-b:a",
                "32k",
                "-fflags",
                "+bitexact",
                "-flags:a",
                "+bitexact",
                "-map_metadata",
                "-1",
                str(path),
            ],
            check=True,
        )


def main() -> None:
    for sub in ("day1/admission", "day3/labs", "day3/voice_memos"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    gp_letter(HERE / "day1/admission/P-2189_gp_referral_letter.pdf")
    scanned_lab_report(HERE / "day3/labs/P-2189_lab_report_2025-04-09.pdf")
    voice_memo(HERE / "day3/voice_memos/haddad_2025-04-09_0742.mp3")


if __name__ == "__main__":
    main()
