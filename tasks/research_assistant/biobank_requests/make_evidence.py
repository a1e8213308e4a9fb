"""Regenerate the biobank task's evidence deterministically (the outputs are committed).

    python tasks/research_assistant/biobank_requests/make_evidence.py

Authoring-time tools only: reportlab (text PDFs), Pillow (the scanned consent form and the
freezer-log photo, no text layer), espeak-ng + ffmpeg (the technician's voice note, 16 kHz mono MP3).

- day1/requests/REQ-311_request_form.pdf, REQ-312_request_form.pdf  text PDFs: the requested samples
- day1/consents/D-2288_consent_form_scan.jpg   scan: commercial use NOT consented (box "No" ticked)
- day3/freezer/F3-rackB_log_photo.jpg          photo: S-40433's last aliquot went out on 02/03/27 (0 left)
- day3/voice_notes/aoife_2027-03-17_0815.mp3   the technician: retrieval today 15:00 or Friday 08:00, one hour
- day4/committee/BAC_minutes_2027-03-17.pdf    text PDF: the committee's decisions and reference
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

VOICE = (
    "Hi Yusuf, it's Aoife, Wednesday morning. About pulling the R E Q three one one samples from freezer three: "
    "I can do it either today at three in the afternoon, or on Friday at eight in the morning. It takes about an hour "
    "and I need you there to countersign the pick list. Let me know which. Thanks."
)

FREEZER_LOG = [
    # sample, date, out, left, initials, note
    ("S-40402", "11/01/27", "1", "3", "AB", "REQ-297"),
    ("S-40411", "11/01/27", "1", "2", "AB", "REQ-297"),
    ("S-40433", "11/01/27", "1", "1", "AB", "REQ-297"),
    ("S-40426", "08/02/27", "1", "2", "KM", "QC"),
    ("S-40433", "02/03/27", "1", "0", "AB", "REQ-298 (last)"),
    ("S-40412", "02/03/27", "1", "4", "AB", "REQ-298"),
]


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def hand(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / "DejaVuSerif-Italic.ttf"), size)


def _pdf(path: Path, title: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(title)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, title)
    y = 760
    for line in lines:
        bold = line.startswith("## ")
        c.setFont("Helvetica-Bold" if bold else "Helvetica", 11 if bold else 10.5)
        c.drawString(60, y, line.removeprefix("## "))
        y -= 16
    c.save()


def request_forms() -> None:
    _pdf(
        HERE / "day1/requests/REQ-311_request_form.pdf",
        "Corran Valley Biobank - Sample Request Form REQ-311",
        [
            "Requester: Dr Hannah Pryor, University of Westmarch (academic)",
            "Project: Plasma proteomic signatures of early heart failure (cardiovascular)",
            "Analyses: mass-spectrometry proteomics. No genetic analysis. No commercial use.",
            "Ethics: Westmarch REC 26/WM/118, approved 12/01/2027",
            "",
            "## Samples requested (1 aliquot of 250 uL plasma each)",
            *[f"  {s}" for s in F.req311.samples],
            "",
            "Signed: H. Pryor, 12/03/2027",
        ],
    )
    _pdf(
        HERE / "day1/requests/REQ-312_request_form.pdf",
        "Corran Valley Biobank - Sample Request Form REQ-312",
        [
            "Requester: Carl Jensen, Veltrix Therapeutics Ltd (commercial)",
            "Project: Genotyping of drug-response variants (pharmacogenomics panel)",
            "Analyses: SNP genotyping (genetic analysis). Commercial use of results.",
            "",
            "## Samples requested (1 aliquot of 50 uL DNA each)",
            *[f"  {s}" for s in F.req312.samples],
            "",
            "Signed: C. Jensen, 12/03/2027",
        ],
    )


def consent_scan(path: Path) -> None:
    w, h = 820, 620
    img = Image.new("L", (w, h), 244)
    d = ImageDraw.Draw(img)
    d.text((40, 30), "CORRAN VALLEY BIOBANK - DONOR CONSENT FORM (v2.4)", font=font(22, bold=True), fill=20)
    d.text((40, 70), f"Donor ID: {F.scan.donor}        Date: 14/06/2019", font=font(17), fill=30)
    items = [
        ("1. My samples may be stored and used for medical research.", True),
        ("2. My samples may be used for genetic analysis.", True),
        ("3. My samples may be used by commercial companies.", False),
        ("4. I may be contacted about future studies.", True),
    ]
    y = 130
    for text, yes in items:
        d.text((40, y), text, font=font(17), fill=25)
        for x, label in ((620, "Yes"), (720, "No")):
            d.rectangle((x, y, x + 22, y + 22), outline=30, width=2)
            d.text((x + 28, y), label, font=font(15), fill=40)
        tick_x = 620 if yes else 720
        d.line((tick_x + 3, y + 11, tick_x + 9, y + 19), fill=10, width=3)
        d.line((tick_x + 9, y + 19, tick_x + 22, y - 2), fill=10, width=3)
        y += 60
    d.text((40, 420), "Donor signature:", font=font(16), fill=30)
    d.text((200, 410), "M. Hartley", font=hand(30), fill=15)
    d.text((40, 480), "Witness: J. Carew (research nurse)", font=font(15), fill=40)
    rnd = random.Random(2288)
    for _ in range(1600):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(150, 215))
    img = img.rotate(0.9, resample=Image.BICUBIC, expand=False, fillcolor=228).filter(ImageFilter.GaussianBlur(0.6))
    img.save(path, format="JPEG", quality=70, optimize=True)


def freezer_log(path: Path) -> None:
    w, h = 860, 520
    img = Image.new("RGB", (w, h), (226, 232, 236))
    d = ImageDraw.Draw(img)
    d.rectangle((30, 20, w - 30, h - 20), fill=(250, 250, 244))
    d.text((50, 36), "FREEZER F3  -  RACK B  -  ALIQUOT LOG", font=font(22, bold=True), fill=(20, 20, 60))
    heads = [(50, "Sample"), (200, "Date"), (330, "Out"), (420, "Left"), (520, "Init."), (620, "For")]
    y = 86
    for x, t in heads:
        d.text((x, y), t, font=font(17, bold=True), fill=(30, 30, 30))
    d.line((50, y + 28, w - 50, y + 28), fill=(60, 60, 60), width=2)
    rnd = random.Random(40433)
    y += 40
    for row in FREEZER_LOG:
        for (x, _), text in zip(heads, row):
            d.text((x + rnd.randrange(-2, 3), y + rnd.randrange(-2, 3)), text, font=hand(21), fill=(20, 30, 120))
        d.line((50, y + 34, w - 50, y + 34), fill=(190, 190, 200), width=1)
        y += 48
    for _ in range(1200):
        g = rnd.randrange(160, 220)
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=(g, g, g))
    img = img.rotate(-1.3, resample=Image.BICUBIC, expand=False, fillcolor=(90, 95, 100)).filter(
        ImageFilter.GaussianBlur(0.6)
    )
    img.save(path, format="JPEG", quality=72, optimize=True)


def voice_note(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "v.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "55", "-w", str(wav), VOICE], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def minutes(path: Path) -> None:
    _pdf(
        path,
        "Biobank Access Committee - minutes of 17 March 2027",
        [
            f"Reference: {F.committee.ref}      Chair: Prof. Lena Vogt      Secretary: Y. Demir (coordinator)",
            "Present: L. Vogt, R. Osei, P. Lindahl, M. Nowak (consent office)",
            "",
            "## Item 1 - REQ-311 (Dr H. Pryor, University of Westmarch)",
            "Cardiovascular plasma proteomics; academic; ethics approval seen.",
            "Decision: APPROVED as submitted: " + ", ".join(F.req311.samples) + ".",
            "",
            "## Item 2 - REQ-312 (Veltrix Therapeutics Ltd)",
            "Pharmacogenomic genotyping; commercial.",
            "Decision: APPROVED for the samples the coordinator screened as eligible,",
            "subject to the Material Transfer Agreement being signed by both parties before any release.",
            "",
            "## Item 3 - Any other business",
            "Freezer F3 temperature excursion report noted; no samples affected.",
        ],
    )


def main() -> None:
    for sub in ("day1/requests", "day1/consents", "day3/freezer", "day3/voice_notes", "day4/committee"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    request_forms()
    consent_scan(HERE / "day1/consents/D-2288_consent_form_scan.jpg")
    freezer_log(HERE / "day3/freezer/F3-rackB_log_photo.jpg")
    voice_note(HERE / "day3/voice_notes/aoife_2027-03-17_0815.mp3")
    minutes(HERE / "day4/committee/BAC_minutes_2027-03-17.pdf")


if __name__ == "__main__":
    main()
