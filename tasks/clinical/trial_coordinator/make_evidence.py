"""Regenerate the trial-coordinator task's evidence deterministically (the outputs are committed).

    python tasks/clinical/trial_coordinator/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the scanned consent
signature pages, grey JPEGs with no text layer), reportlab (the ward's discharge summary, a text
PDF), espeak-ng + ffmpeg (the research nurse's AE dictation, 16 kHz mono MP3).

- day1/consent/104-023_ICF_signed_2025-09-03.jpg  the signature page: footer "Version 3.1", signed
  03/09/2025 — after version 4.0 was approved, so the consent is not valid
- day2/dictation/reyes_AE_104-017_2025-09-09.mp3  the AE: febrile neutropenia, onset 7 September,
  grade 3, admitted (serious: hospitalisation); it also says her name and hospital number
- day3/consent/104-023_ICF_signed_2025-09-10.jpg  the re-consent on version 4.0, signed 10/09/2025
- day3/ward/discharge_summary_RUH-448213.pdf  text PDF: discharged 10 September, resolved
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from datetime import date
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")
PERSON = {p["subject"]: p for p in F.people}


def font(size: int, bold: bool = False, oblique: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-BoldOblique.ttf" if oblique else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return ImageFont.truetype(str(FONTS / name), size)


def dmy(iso: str) -> str:
    return date.fromisoformat(iso).strftime("%d/%m/%Y")


# -- the consent signature pages ------------------------------------------------------------------
STATEMENTS = [
    "1. I confirm that I have read the information sheet for the above study. I have had",
    "   the opportunity to consider the information, ask questions and have had these",
    "   answered satisfactorily.",
    "2. I understand that my participation is voluntary and that I am free to withdraw",
    "   at any time without giving any reason, without my medical care being affected.",
    "3. I understand that relevant sections of my medical notes may be looked at by",
    "   individuals from the sponsor and regulatory authorities.",
    "4. I agree to take part in the above study.",
]


def signature(d: ImageDraw.ImageDraw, x: int, y: int, seed: int) -> None:
    """A scribbled signature: a seeded polyline."""
    rnd = random.Random(seed)
    points = [(x + k * 9, y + rnd.randrange(-14, 14)) for k in range(22)]
    d.line(points, fill=25, width=3)


def consent_page(path: Path, version: str, version_date: str, signed: str, seed: int) -> None:
    p = PERSON[F.consent.subject]
    w, h = 850, 1100
    page = Image.new("L", (w, h), 246)
    d = ImageDraw.Draw(page)
    d.text((60, 50), "RIVERSIDE UNIVERSITY HOSPITAL - Research & Innovation", font=font(18, bold=True), fill=30)
    d.text((60, 90), f"{F.names.study}: CONSENT FORM", font=font(26, bold=True), fill=15)
    d.text((60, 128), "A phase III randomised, double-blind study of HLX-17 versus placebo", font=font(16), fill=35)
    d.text((60, 170), f"Subject ID:  {F.consent.subject}", font=font(19, bold=True), fill=20)
    y = 220
    for line in STATEMENTS:
        d.text((60, y), line, font=font(14), fill=25)
        y += 27
    for k in range(4):  # the initialled boxes
        d.rectangle((700, 216 + k * 60, 760, 256 + k * 60), outline=40, width=2)
        d.text((708, 222 + k * 60), "ML", font=font(20, oblique=True), fill=30)
    y += 40
    for label, who, sign_seed in (
        ("Name of participant", p["name"], seed),
        ("Person taking consent", "Tom Reyes", seed + 1),
    ):
        d.text((60, y), label, font=font(15), fill=40)
        d.text((60, y + 24), who, font=font(21, oblique=True), fill=20)
        d.text((330, y), "Signature", font=font(15), fill=40)
        signature(d, 330, y + 38, sign_seed)
        d.text((600, y), "Date", font=font(15), fill=40)
        d.text((600, y + 24), dmy(signed), font=font(21, oblique=True), fill=20)
        d.line((60, y + 56, 790, y + 56), fill=90, width=1)
        y += 110
    d.line((60, 1010, 790, 1010), fill=80, width=1)
    d.text((60, 1020), f"{F.names.study} ICF  Version {version}, {version_date}", font=font(16, bold=True), fill=30)
    d.text((620, 1020), "Page 6 of 6", font=font(16), fill=30)
    rnd = random.Random(seed)
    for _ in range(1400):  # scanner speckle
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 200))
    page = page.rotate(-0.6, resample=Image.BICUBIC, expand=False, fillcolor=232).filter(ImageFilter.GaussianBlur(0.5))
    page.save(path, format="JPEG", quality=62, optimize=True)


# -- the AE dictation -----------------------------------------------------------------------------
def dictation_text() -> str:
    p, s = PERSON[F.sae.subject], F.sae
    mrn = " ".join(p["mrn"].replace("-", ""))
    return (
        f"This is Tom Reyes, research nurse, with an adverse event for study H L X 204, subject one zero four, zero one seven. "
        f"That's {p['name']}, hospital number {mrn}. On Sunday the seventh of September she developed febrile neutropenia, "
        f"grade {s.grade}. She was admitted to the oncology ward that evening and she is still in, on intravenous antibiotics, "
        "so it is serious: hospitalisation. The study drug is on hold on Doctor Oyelaran's instruction. "
        "Please log it and report it as the site guide says. Thanks."
    )


def dictation(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "ae.wav"
        subprocess.run(
            ["espeak-ng", "-v", "en-gb", "-s", "158", "-p", "50", "-w", str(wav), dictation_text()], check=True
        )
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


# -- the discharge summary ------------------------------------------------------------------------
def discharge_summary(path: Path) -> None:
    p, s = PERSON[F.sae.subject], F.sae
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle(f"Discharge summary {p['mrn']}")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "Riverside University Hospital - Oncology Ward 5")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(60, 765, "DISCHARGE SUMMARY")
    y = 735
    last, first = p["name"].split()[-1].upper(), p["name"].split()[0]
    for line in [
        f"Patient: {last}, {first}        MRN: {p['mrn']}        DOB: {dmy(p['dob'])}",
        "Consultant: Dr M Oyelaran (medical oncology)   Research: HLX-204 participant, site 104",
        "",
        f"Admitted: {dmy(s.onset)} 19:40 via the acute oncology unit",
        f"Discharged: {dmy(s.discharged)} 14:15, home",
        "",
        "Diagnosis: febrile neutropenia (temperature 38.6 C, neutrophils 0.4 x10^9/L)",
        "Treatment: IV piperacillin-tazobactam 48 h, then oral co-amoxiclav; cultures negative.",
        "Course: afebrile from day 2; neutrophils 1.9 x10^9/L on the day of discharge.",
        f"Outcome: {s.outcome} at discharge.",
        "",
        "Plan: oral antibiotics to complete 7 days. Trial medication on hold until review",
        "by Dr Oyelaran at the next study visit.",
        "",
        "Dr A Whitfield, FY2, for Dr M Oyelaran",
    ]:
        c.setFont("Helvetica", 10.5)
        c.drawString(60, y, line)
        y -= 16
    c.save()


def main() -> None:
    for sub in ("day1/consent", "day2/dictation", "day3/consent", "day3/ward"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    c = F.consent
    consent_page(HERE / c.scan_day1, c.old, "12 January 2024", c.old_signed, 903)
    consent_page(HERE / c.scan_day3, c.current, "20 August 2025", c.new_signed, 910)
    dictation(HERE / F.sae.audio)
    discharge_summary(HERE / F.sae.discharge_pdf)


if __name__ == "__main__":
    main()
