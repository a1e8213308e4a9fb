"""Regenerate the IRB-amendment task's evidence deterministically (the outputs are committed).

    python tasks/research_assistant/irb_amendment/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs),
Pillow (the scanned, stamped consent pages: pixels only), espeak-ng + ffmpeg (the PI's memo).

- day1/amendment/okafor_AM-03_memo.mp3              the PI's dictated memo: the three changes of AM-03,
  one of them (16- and 17-year-olds) not in the draft consent yet
- day1/amendment/SLEEP-WM_consent_v7.0_draft.pdf    text PDF: the draft consent (saliva, $85, still 18-30)
- day1/consent/SLEEP-WM_consent_v6.2_stamped.jpg    scan: page 1 of the consent in use, with the IRB's
  approval stamp (version, version date, approval and expiry dates)
- day3/amendment/AM-03_approval_letter.pdf          text PDF: the board's decision (minors not approved)
- day3/consent/SLEEP-WM_consent_v7.1_stamped.jpg    scan: page 1 of the consent the board modified, stamped
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from datetime import date
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
N = F.names
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, kind: str = "sans") -> ImageFont.FreeTypeFont:
    files = {"sans": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "serif": "DejaVuSerif.ttf",
             "mono": "DejaVuSansMono-Bold.ttf"}  # fmt: skip
    return ImageFont.truetype(str(FONTS / files[kind]), size)


def long_date(iso: str) -> str:
    return date.fromisoformat(iso).strftime("%d %b %Y").upper()


# -- audio: the PI's memo -----------------------------------------------------------------------
MEMO = (
    "Hi Tamsin, it's Ingrid, a memo on amendment three for the sleep study. There are three changes. "
    f"One. We add a saliva cortisol sample at visits {F.memo.saliva_visits}, about five minutes, passive drool. "
    f"Two. Compensation for completing all visits goes up from {F.memo.old_pay} to {F.memo.new_pay} dollars. "
    f"Three, and this one is not in the draft consent yet: we lower the minimum age from 18 to {F.memo.min_age}, "
    "so sixteen and seventeen year olds can take part, with a parent's permission. Priya is drafting the assent form. "
    "Please submit it for the earliest review we can still make and put the meeting in my calendar; I will present. Thanks."
)


def memo(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "160", "-p", "55", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


# -- text PDFs ----------------------------------------------------------------------------------
def lines_pdf(path: Path, title: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    y = 740
    for line in lines:
        bold = line.startswith("# ")
        c.setFont("Helvetica-Bold" if bold else "Helvetica", 13 if bold else 10)
        c.drawString(55, y, line[2:] if bold else line)
        y -= 22 if bold else 14
    c.save()


def draft_consent(path: Path) -> None:
    lines_pdf(path, f"{N.acronym} consent v{F.draft.version} DRAFT", [
        "# Halvorsen University - Consent to take part in a research study",
        f"Study: {F.study.title} ({N.acronym})      IRB no. {N.study}",
        f"Principal investigator: {F.study.pi}, Sleep and Cognition Lab",
        f"Consent version {F.draft.version}, version date {F.draft.version_date}   DRAFT - NOT FOR USE",
        "",
        "# Who can take part",
        "Adults aged 18 to 30 who sleep 7 to 9 hours a night and have no diagnosed sleep disorder.",
        "",
        "# What happens",
        "Four lab visits over three weeks. Two nights of restricted sleep (5 hours) at home, checked with a",
        "wrist actigraphy band. Working-memory tests on a laptop at each visit (about 40 minutes).",
        f"NEW: a saliva sample (passive drool, about five minutes) at visits {F.memo.saliva_visits}, for cortisol.",
        "",
        "# Payment",
        f"NEW: ${F.memo.new_pay} for completing all four visits (prorated if you stop early).",
        "",
        "# Risks",
        "Daytime sleepiness after restricted nights: do not drive on those days. No other known risks.",
        "",
        "# Contact",
        "Study line 555-0148. Halvorsen University IRB: irb@halvorsen.example.",
    ])  # fmt: skip


def approval_letter(path: Path) -> None:
    lines_pdf(path, f"{N.study} {N.amendment} decision", [
        "# Halvorsen University - Institutional Review Board",
        "Office of Research Integrity, 210 Alder Hall",
        "",
        f"To: {F.study.pi}, Sleep and Cognition Lab",
        f"Study: {N.study} - {F.study.title}",
        f"Amendment: {N.amendment}        Review: full board, meeting of {long_date(F.approved.approved).title()}",
        "",
        "# Decision: APPROVED WITH MODIFICATIONS",
        "1. Saliva cortisol sampling at visits 2 and 4: approved.",
        f"2. Compensation of ${F.memo.new_pay} for completing all visits: approved.",
        f"3. Extension of eligibility to participants aged 16 and 17: NOT approved. Eligibility stays {F.approved.min_age} to 30.",
        "   The assent and parental-permission procedures were not submitted; you may apply again.",
        "",
        "The board's modifications are incorporated in the consent document enclosed with this letter.",
        "Only the consent bearing the IRB approval stamp may be used. Its version, approval and expiry",
        "dates are those printed on the stamp.",
        "",
        "Participants already enrolled who have study visits after the approval date must be re-consented",
        "on the stamped document before the new procedure.",
        "",
        "Colm Brennan, IRB analyst, for the Chair",
    ])  # fmt: skip


# -- scans: page 1 of a consent, with the IRB's stamp --------------------------------------------
def stamped_page(path: Path, stamp: dict, seed: int, age_line: str, pay: int) -> None:
    w, h = 900, 1160
    page = Image.new("RGB", (w, h), (247, 246, 242))
    d = ImageDraw.Draw(page)
    ink = (25, 25, 25)
    d.text((60, 50), "HALVORSEN UNIVERSITY", font=font(28, "bold"), fill=ink)
    d.text((60, 92), "Consent to take part in a research study", font=font(22), fill=ink)
    d.text((60, 140), f"{F.study.title} ({N.acronym})", font=font(19, "bold"), fill=ink)
    d.text((60, 172), f"Principal investigator: {F.study.pi}", font=font(18), fill=ink)
    body = [
        "Why are we doing this study?",
        "We want to learn how short sleep changes working memory.",
        "",
        "Who can take part?",
        age_line,
        "",
        "What will happen?",
        "Four lab visits over three weeks; two nights of 5 hours",
        "of sleep at home; memory tests on a laptop.",
        "",
        "Payment",
        f"${pay} for completing all visits.",
    ]
    y = 240
    for line in body:
        d.text((60, y), line, font=font(18, "serif"), fill=ink)
        y += 30
    d.text((60, 1080), f"Page 1 of 6       {N.study}", font=font(15), fill=(70, 70, 70))
    # the IRB's rubber stamp, in purple ink, slightly rotated: the only place the version is printed
    layer = Image.new("RGBA", (430, 250), (0, 0, 0, 0))
    s = ImageDraw.Draw(layer)
    purple = (92, 38, 140, 230)
    s.rectangle((4, 4, 425, 245), outline=purple, width=5)
    s.text((22, 16), "HALVORSEN UNIVERSITY IRB", font=font(24, "mono"), fill=purple)
    s.text((22, 52), "APPROVED", font=font(34, "mono"), fill=purple)
    s.text((22, 100), f"CONSENT VERSION {stamp['version']}", font=font(21, "mono"), fill=purple)
    s.text((22, 130), f"VERSION DATE {long_date(stamp['version_date'])}", font=font(21, "mono"), fill=purple)
    s.text((22, 160), f"APPROVED  {long_date(stamp['approved'])}", font=font(21, "mono"), fill=purple)
    s.text((22, 190), f"EXPIRES   {long_date(stamp['expires'])}", font=font(21, "mono"), fill=purple)
    layer = layer.rotate(-4 if seed % 2 else 3, resample=Image.BICUBIC, expand=True)
    page.paste(layer, (420, 640), layer)
    rnd = random.Random(seed)
    for _ in range(1800):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=(rnd.randrange(120, 200),) * 3)
    page = page.rotate(0.6, resample=Image.BICUBIC, fillcolor=(236, 236, 232)).filter(ImageFilter.GaussianBlur(0.5))
    page.save(path, format="JPEG", quality=60, optimize=True)


def main() -> None:
    for sub in ("day1", "day3"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day1/amendment", "day1/consent", "day3/amendment", "day3/consent"):
        (HERE / sub).mkdir(parents=True)
    memo(HERE / "day1" / N.memo)
    draft_consent(HERE / "day1" / N.draft)
    stamped_page(HERE / "day1" / N.stamped_current, dict(F.current), 62, "Adults aged 18 to 30 who sleep well.",
                 F.memo.old_pay)  # fmt: skip
    approval_letter(HERE / "day3" / N.approval_letter)
    stamped_page(HERE / "day3" / N.stamped_new, dict(F.approved), 71, "Adults aged 18 to 30 who sleep well.",
                 F.memo.new_pay)  # fmt: skip


if __name__ == "__main__":
    main()
