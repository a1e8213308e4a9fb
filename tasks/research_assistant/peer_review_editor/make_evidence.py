"""Regenerate the peer-review-editor task's evidence deterministically (the outputs are committed).

    python tasks/research_assistant/peer_review_editor/make_evidence.py

Authoring-time tools only: reportlab (text PDFs), Pillow (the scanned declaration: pixels only, no
text layer), espeak-ng + ffmpeg (the editor-in-chief's voice note, 16 kHz mono MP3).

- day1/ESL-2026-0417_manuscript.pdf      text PDF: the submission (title page with the original author list)
- day1/ESL-2026-0417_report_R1.pdf       text PDF: Ingrid Solberg's report (comments to authors / to the editor)
- day2/declaration_of_interests_Haddou.jpg  scan: her signed declaration, listing her co-authors of the last
  36 months (S. Benali, 2025) - only the pixels hold it
- day4/ESL-2026-0417_report_R4.pdf       text PDF: Sofia Marchetti's report
- day4/voice_notes/achebe_2026-02-24_0812.mp3  the editor-in-chief's decision
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
MS = F.ms


def wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for w in text.split():
        if len(line) + len(w) + 1 > width:
            lines.append(line)
            line = ""
        line = f"{line} {w}".strip()
    return [*lines, line] if line else lines


def text_pdf(path: Path, title: str, blocks: list[tuple[str, str]]) -> None:
    """blocks: (style, text) with style h1 / h2 / p / li."""
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(title)
    y = 800
    for style, text in blocks:
        size, face, width, indent = {"h1": (14, "Helvetica-Bold", 70, 0), "h2": (11, "Helvetica-Bold", 90, 0),
                                     "p": (10, "Helvetica", 100, 0), "li": (10, "Helvetica", 95, 14)}[style]  # fmt: skip
        c.setFont(face, size)
        for line in wrap(text, width) or [""]:
            if y < 60:
                c.showPage()
                c.setFont(face, size)
                y = 800
            c.drawString(50 + indent, y, line)
            y -= size + 4
        y -= 6
    c.save()


def manuscript(path: Path) -> None:
    text_pdf(path, MS.id, [
        ("p", f"{F.journal} - submission {MS.id} - confidential: for review only"),
        ("h1", MS.title),
        ("p", f"Authors: {MS.authors.replace(';', ',')} ({MS.institutions})"),
        ("p", f"Corresponding author: {MS.author}, {MS.author_email}"),
        ("h2", "Abstract"),
        ("p", "Managed realignment is widely used to restore salt marshes, but how quickly restored marshes recover "
              "their capacity to retain nitrogen is poorly known. We sampled sediment cores at twelve marshes restored "
              "between 1996 and 2019 and at four natural reference marshes, measured sediment nitrogen stocks, "
              "denitrification (acetylene block) and burial, and built a nitrogen budget for each age class. "
              "Retention increased with restoration age and reached reference values after about 20 years."),
        ("h2", "Table 3. Nitrogen budget by restoration age class (g N m-2 yr-1)"),
        ("p", "Age 0-5 y: input 14.2, burial 3.1, denitrification 6.8, export 2.0"),
        ("p", "Age 6-15 y: input 15.0, burial 4.4, denitrification 7.9, export 1.1"),
        ("p", "Age 16-25 y: input 15.6, burial 5.2, denitrification 8.6, export 0.9"),
        ("p", "Reference: input 16.1, burial 5.9, denitrification 8.8, export 0.8"),
    ])  # fmt: skip


def report(path: Path, key: str, number: str) -> None:
    r, who = F.reports[key], F.pool[key]
    blocks = [
        ("h1", f"{F.journal} - reviewer report"),
        ("p", f"Manuscript: {MS.id}  -  {MS.title}"),
        ("p", f"Reviewer {number}: {who.name}, {who.institution} ({who.email})"),
        ("p", f"Recommendation: {r.recommendation.capitalize()}"),
        ("h2", "Comments to the authors"),
        *(("li", f"{i}. {c}") for i, c in enumerate(r.to_authors, start=1)),
        ("h2", "Confidential comments to the editor (not to be shared with the authors)"),
        ("p", r.to_editor),
    ]
    text_pdf(path, f"Report {number} {MS.id}", blocks)


def declaration(path: Path) -> None:
    """The journal's declaration-of-interests form, filled in by hand, signed and scanned."""
    w, h = 850, 1100
    page = Image.new("L", (w, h), 247)
    d = ImageDraw.Draw(page)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 24)
    body = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 18)
    hand = ImageFont.truetype(str(FONTS / "DejaVuSerif-Italic.ttf"), 22)
    d.text((60, 50), F.journal.upper(), font=bold, fill=20)
    d.text((60, 88), "Reviewer declaration of interests", font=body, fill=30)
    d.line((60, 120, 790, 120), fill=60, width=2)
    y = 145
    for label, value in (
        ("Manuscript", MS.id),
        ("Reviewer", F.declaration.reviewer),
        ("Institution", F.pool.haddou.institution),
    ):
        d.text((60, y), label, font=body, fill=30)
        d.text((250, y), value, font=hand, fill=15)
        y += 40
    y += 15
    for line in [
        "1. List everyone you have co-authored a paper with in the",
        f"   last {F.policy.coauthor_months} months (name, year of the most recent paper):",
    ]:
        d.text((60, y), line, font=body, fill=25)
        y += 28
    y += 10
    for name, year in F.declaration.coauthors:
        d.text((110, y), f"{name}  ({year})", font=hand, fill=10)
        y += 38
    y += 20
    for line in ["2. Do you hold any financial or personal interest in the", "   outcome of this manuscript?"]:
        d.text((60, y), line, font=body, fill=25)
        y += 28
    d.text((110, y + 5), "No", font=hand, fill=10)
    y += 70
    d.text((60, y), "I confirm the above is complete and correct.", font=body, fill=25)
    y += 60
    d.text((60, y), "Signed:", font=body, fill=25)
    d.text((170, y - 6), "L. Haddou", font=ImageFont.truetype(str(FONTS / "DejaVuSerif-Italic.ttf"), 30), fill=20)
    d.text((470, y), f"Date: {F.declaration.signed}", font=body, fill=25)
    rnd = random.Random(417)
    for _ in range(2000):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 200))
    page = page.rotate(-0.6, resample=Image.BICUBIC, expand=False, fillcolor=230)
    page = page.filter(ImageFilter.GaussianBlur(0.5)).resize((680, 880))
    page.save(path, format="JPEG", quality=65, optimize=True)


VOICE = (
    "Hannah, it's Daniel, Tuesday morning. On oh four one seven, the salt marsh nitrogen paper: I've read both "
    "reports. My decision is major revision. Give the authors sixty days from today. Send them both reviewers' "
    "comments to the authors, and say clearly that the nitrogen budget in Table 3 must be fully balanced in the "
    "revision. Nothing from the confidential comments goes to them, of course. Thanks."
)


def voice_note(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "note.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "30", "-w", str(wav), VOICE], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day2", "day4"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day1", "day2", "day4/voice_notes"):
        (HERE / sub).mkdir(parents=True)
    manuscript(HERE / "day1" / F.names.manuscript_file)
    report(HERE / "day1/ESL-2026-0417_report_R1.pdf", "solberg", "1")
    declaration(HERE / "day2/declaration_of_interests_Haddou.jpg")
    report(HERE / "day4/ESL-2026-0417_report_R4.pdf", "marchetti", "4")
    voice_note(HERE / "day4/voice_notes/achebe_2026-02-24_0812.mp3")


if __name__ == "__main__":
    main()
