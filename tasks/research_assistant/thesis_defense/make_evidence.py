"""Regenerate the thesis-defence task's evidence deterministically (the outputs are committed).

    python tasks/research_assistant/thesis_defense/make_evidence.py

Authoring-time tools only: reportlab (text PDFs and the wrapper of the sponsor's scanned letter),
Pillow (the scans: pixels only, no text layer), espeak-ng + ffmpeg (the supervisor's voice note).

- day1/Lang_PGR-2291_thesis.pdf               text PDF: the thesis (title pages; chapters 4-5 sponsor-confidential)
- day2/nomination_approval_PGR-2291.pdf       text PDF: the Graduate School approves the examiners
- day3/undertaking_Halvorsen.jpg              photo-scan: the external examiner's signed confidentiality undertaking
- day3/Corvane_embargo_request.pdf            image-only PDF: the sponsor's embargo request (period, date, chapters)
- day3/voice_notes/aziz_2026-05-06_0802.mp3   the supervisor on the external examiner's travel
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
from datetime import date
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")
C = F.candidate


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def text_pdf(path: Path, title: str, pages: list[list[tuple[str, int, str]]]) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(title)
    for page in pages:
        y = 790
        for face, size, text in page:
            c.setFont(face, size)
            c.drawString(60, y, text)
            y -= size + 8
        c.showPage()
    c.save()


def thesis(path: Path) -> None:
    text_pdf(path, f"{C.name} - PhD thesis", [
        [("Helvetica-Bold", 16, C.title[:52]), ("Helvetica-Bold", 16, C.title[52:]), ("Helvetica", 12, ""),
         ("Helvetica", 12, f"{C.name}  ({C.id})"), ("Helvetica", 12, "Thesis submitted for the degree of Doctor of Philosophy"),
         ("Helvetica", 12, "School of Chemistry, Ashcombe University, May 2026"), ("Helvetica", 12, ""),
         ("Helvetica-Bold", 11, f"CONFIDENTIAL: chapters 4 and 5 contain results owned by {C.sponsor} (patent pending)."),
         ("Helvetica", 11, "Not to be copied or circulated beyond the examiners without the sponsor's written consent.")],
        [("Helvetica-Bold", 13, "Contents"), ("Helvetica", 11, "1 Introduction .......... 1"),
         ("Helvetica", 11, "2 Methods .......... 23"), ("Helvetica", 11, "3 Zr-MOF synthesis at scale .......... 51"),
         ("Helvetica", 11, "4 Amine-grafted frameworks for humid flue gas (confidential) .......... 88"),
         ("Helvetica", 11, "5 Pilot column performance (confidential) .......... 131"),
         ("Helvetica", 11, "6 Conclusions and outlook .......... 170")],
    ])  # fmt: skip


def approval(path: Path) -> None:
    text_pdf(path, "Nomination approval", [[
        ("Helvetica-Bold", 14, "Ashcombe University - Graduate School"),
        ("Helvetica", 11, "5 May 2026"),
        ("Helvetica", 11, f"Examiners' nomination for {C.name} ({C.id}), School of Chemistry: APPROVED"),
        ("Helvetica", 11, "External examiner: Prof. Ingrid Halvorsen, Trondheim Institute of Technology"),
        ("Helvetica", 11, "Internal examiner: Dr Colm Byrne.  Independent chair: Dr Priya Menon."),
        ("Helvetica", 11, "The thesis may now be dispatched to the examiners and the oral examination arranged."),
        ("Helvetica", 11, "As the thesis is sponsor-confidential, the external examiner receives it only once a"),
        ("Helvetica", 11, "signed confidentiality undertaking is on file with the programme office."),
        ("Helvetica", 11, "Nadia Brooks, Graduate School Officer"),
    ]])  # fmt: skip


def scan_page(draw: callable, seed: int, w: int = 850, h: int = 1100) -> Image.Image:  # type: ignore[valid-type]
    page = Image.new("L", (w, h), 246)
    d = ImageDraw.Draw(page)
    draw(d)
    rnd = random.Random(seed)
    for _ in range(2000):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(110, 200))
    page = page.rotate(0.6, resample=Image.BICUBIC, expand=False, fillcolor=232)
    return page.filter(ImageFilter.GaussianBlur(0.5))


def undertaking(path: Path) -> None:
    u = date.fromisoformat(F.undertaking.signed)

    def draw(d: ImageDraw.ImageDraw) -> None:
        body, bold = font("DejaVuSans.ttf", 19), font("DejaVuSans-Bold.ttf", 23)
        d.text((60, 60), "ASHCOMBE UNIVERSITY - CONFIDENTIALITY UNDERTAKING", font=bold, fill=20)
        y = 130
        for line in [f"Thesis: {C.name} ({C.id})", f"Sponsor: {C.sponsor}", "",
                     "I undertake to keep the thesis and its confidential chapters",
                     "confidential, to use them only to examine the thesis, not to copy",
                     "or pass them to anyone else, and to destroy my copy after the",
                     "examination is completed."]:  # fmt: skip
            d.text((60, y), line, font=body, fill=20)
            y += 34
        y += 40
        d.text((60, y), "Name: Prof. Ingrid Halvorsen", font=body, fill=20)
        d.text((60, y + 50), "Signature:", font=body, fill=20)
        d.text((200, y + 40), "I. Halvorsen", font=font("DejaVuSerif-Italic.ttf", 34), fill=15)
        d.text((60, y + 110), f"Date: {u:%d/%m/%Y}", font=body, fill=20)

    scan_page(draw, 2291).resize((640, 828)).save(path, format="JPEG", quality=62, optimize=True)


def embargo_letter(path: Path) -> None:
    until = date.fromisoformat(F.embargo.until)

    def draw(d: ImageDraw.ImageDraw) -> None:
        body, bold = font("DejaVuSerif.ttf", 20), font("DejaVuSans-Bold.ttf", 26)
        d.text((60, 55), C.sponsor.upper(), font=bold, fill=20)
        d.text((60, 95), "Legal & IP department  -  Teesside Science Park", font=font("DejaVuSans.ttf", 16), fill=40)
        y = 170
        for line in ["4 May 2026", "", "To: Programme Office, School of Chemistry, Ashcombe University", "",
                     f"Re: PhD thesis of {C.name} ({C.id})", "",
                     "Under the studentship agreement we request that the library",
                     f"restricts access to {F.embargo.chapters} of the thesis for a period of",
                     f"{F.embargo.period}, i.e. until {until.day} {until:%B %Y}, while our patent",
                     "applications are examined. The remaining chapters may be",
                     "made available on award as usual.", "", "Yours faithfully,", "",
                     "Martin Kerr, IP Counsel"]:  # fmt: skip
            d.text((60, y), line, font=body, fill=15)
            y += 34

    buf = io.BytesIO()
    scan_page(draw, 4).save(buf, format="JPEG", quality=60, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("scan")
    aw, ah = A4
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


def voice_note(path: Path) -> None:
    t = F.travel
    arrive = date.fromisoformat(t.arrive)
    text = (
        "Marisol, Rania here. About Ingrid Halvorsen's trip for Tobias's viva: she'll come over on "
        f"Wednesday the {arrive.day}th of June, the day before, and needs one night only, at the {t.hotel}, "
        f"which is on our framework list. Her fee is the standard {t.fee_gbp} pounds. She asked whether her partner "
        "could share the room at our expense; the answer is no, we only cover the examiner. Thanks."
    )
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "note.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "45", "-w", str(wav), text], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day2", "day3"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day1", "day2", "day3/voice_notes"):
        (HERE / sub).mkdir(parents=True)
    thesis(HERE / "day1" / F.names.thesis_file)
    approval(HERE / "day2/nomination_approval_PGR-2291.pdf")
    undertaking(HERE / "day3/undertaking_Halvorsen.jpg")
    embargo_letter(HERE / "day3/Corvane_embargo_request.pdf")
    voice_note(HERE / "day3/voice_notes/aziz_2026-05-06_0802.mp3")


if __name__ == "__main__":
    main()
