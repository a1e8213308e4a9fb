"""Regenerate the fellowship task's evidence deterministically (the outputs are committed).

    python tasks/research_assistant/fellowship_applications/make_evidence.py

Authoring-time tools only: Pillow (the photographed PhD certificate, no text layer), reportlab
(the referees' letters, text PDFs), espeak-ng + ffmpeg (the panel chair's voice memo, 16 kHz mono MP3).

- day1/certificate/AEF-27-0189_phd_certificate.jpg   photo: award date 14 March 2019 (issued 2 December 2019)
- day3/references/AEF-27-0088_reference_Berg.pdf      text PDF: Prof. Julia Berg for Aisha Mensah
- day3/references/AEF-27-0271_reference_Tetteh.pdf    text PDF: Dr Emmanuel Tetteh for Kwame Asante
- day3/memo/oyelaran_panel_2026-11-10.mp3             the chair's memo: the panel slot (Thursday 19, 14:00, 2 h)
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
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")

MEMO = (
    "Hi Elif, it's Martin, Tuesday evening. About the Life Sciences shortlisting panel: please book it for two hours. "
    "The two options we had were Thursday the nineteenth of November at two in the afternoon, or Friday the twentieth "
    "at ten in the morning. Ines has just told me she is at a conference on the twentieth, so please go for the "
    "Thursday. Invite Ines, Kofi and me. Thanks a lot."
)

LETTERS = {
    "AEF-27-0088_reference_Berg.pdf": (
        "Prof. Julia Berg, Department of Biosciences, University of Oslo",
        "Aisha Mensah (AEF-27-0088)",
        [
            "I have known Dr Mensah since 2022, when she joined my group as a visiting researcher.",
            "Her work on malaria transmission-blocking antibodies is careful, ambitious and original;",
            "she led two of our field collaborations and wrote the core of our 2024 paper.",
            "She is among the two or three strongest early-career scientists I have worked with.",
            "I support her application without reservation.",
        ],
    ),
    "AEF-27-0271_reference_Tetteh.pdf": (
        "Dr Emmanuel Tetteh, Department of Biochemistry, University of Ghana",
        "Kwame Asante (AEF-27-0271)",
        [
            "I co-supervised Dr Asante's doctoral work on cassava virus resistance.",
            "He combines strong wet-lab skills with a rare fluency in quantitative genetics,",
            "and his thesis results are already used by two national breeding programmes.",
            "I am confident he will make excellent use of the fellowship.",
        ],
    ),
}


def font(size: int, *, bold: bool = False, serif: bool = False) -> ImageFont.FreeTypeFont:
    name = (
        ("DejaVuSerif-Bold.ttf" if bold else "DejaVuSerif.ttf")
        if serif
        else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    )
    return ImageFont.truetype(str(FONTS / name), size)


def certificate(path: Path) -> None:
    awarded = date.fromisoformat(F.certificate.phd_date)
    w, h = 900, 640
    img = Image.new("RGB", (w, h), (236, 228, 205))
    d = ImageDraw.Draw(img)
    d.rectangle((24, 24, w - 24, h - 24), outline=(120, 90, 40), width=6)
    d.rectangle((40, 40, w - 40, h - 40), outline=(150, 120, 60), width=2)
    centre = [
        (70, "UNIVERSITÀ DEGLI STUDI DI PADOVA", font(30, bold=True, serif=True)),
        (130, "This is to certify that", font(20, serif=True)),
        (170, "SOFIA MARCHETTI", font(34, bold=True, serif=True)),
        (230, "having fulfilled the requirements of the Doctoral School in Biosciences", font(18, serif=True)),
        (262, "was awarded the degree of", font(18, serif=True)),
        (300, "Doctor of Philosophy (Dottore di Ricerca)", font(26, bold=True, serif=True)),
        (360, f"on {awarded.day} {awarded:%B %Y}", font(24, serif=True)),
    ]
    for y, text, f in centre:
        tw = d.textlength(text, font=f)
        d.text(((w - tw) / 2, y), text, font=f, fill=(40, 30, 20))
    d.text((80, 470), "Il Rettore", font=font(16, serif=True), fill=(50, 40, 30))
    d.line((80, 520, 300, 520), fill=(60, 50, 40), width=1)
    d.text((560, 470), "Date of issue: 2 December 2019", font=font(16, serif=True), fill=(50, 40, 30))
    d.text((560, 500), "Reg. no. PD/DR/2019/04417", font=font(14, serif=True), fill=(70, 60, 50))
    d.ellipse((380, 440, 520, 580), outline=(150, 40, 40), width=4)
    d.text((412, 498), "SIGILLO", font=font(18, bold=True), fill=(150, 40, 40))
    rnd = random.Random(189)
    for _ in range(2500):
        x, y = rnd.randrange(w), rnd.randrange(h)
        g = rnd.randrange(170, 225)
        d.point((x, y), fill=(g, g - 8, g - 30))
    img = img.rotate(-1.6, resample=Image.BICUBIC, expand=False, fillcolor=(90, 85, 80)).filter(
        ImageFilter.GaussianBlur(0.7)
    )
    img.save(path, format="JPEG", quality=70, optimize=True)


def letter(path: Path, author: str, about: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"Reference for {about}")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(60, 790, author)
    c.setFont("Helvetica", 10.5)
    y = 750
    for line in ["To the Aldwick Early Career Fellowship panel", "", f"Confidential reference for {about}", "", *lines]:
        c.drawString(60, y, line)
        y -= 16
    c.drawString(60, y - 20, author.split(",")[0])
    c.save()


def memo(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "45", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/certificate", "day3/references", "day3/memo"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    certificate(HERE / f"day1/certificate/{F.certificate.app}_phd_certificate.jpg")
    for name, (author, about, lines) in LETTERS.items():
        letter(HERE / "day3/references" / name, author, about, lines)
    memo(HERE / "day3/memo/oyelaran_panel_2026-11-10.mp3")


if __name__ == "__main__":
    main()
