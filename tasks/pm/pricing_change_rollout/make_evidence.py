"""Regenerate the pricing-rollout task's evidence deterministically (the outputs are committed).

    python tasks/pm/pricing_change_rollout/make_evidence.py

Authoring-time tools only: Pillow (the committee slide, exported as an image), reportlab (Legal's
text memo), espeak-ng + ffmpeg (the CFO's voicemail, 16 kHz mono MP3, bit-exact flags).

- day1/committee_slide_approved.png   image: the options the committee weighed and the one it approved
- day2/legal_review_notice.pdf        text PDF: what every customer notice must say, and when it may go
- day3/declan_voicemail_2026-06-17.mp3  spoken: one account's exception date
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
P = F.price
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def slide(path: Path) -> None:
    img = Image.new("RGB", (960, 540), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 960, 70), fill=(22, 58, 94))
    d.text(
        (30, 20),
        "Ledgerbird Team plan - pricing committee, 12 June 2026",
        font=font(24, bold=True),
        fill=(255, 255, 255),
    )
    d.text((40, 95), "Per seat / month, Team plan (today: EUR 29)", font=font(20), fill=(40, 40, 40))
    options = [
        (32, "keeps gap to Starter", False),
        (P.new, "recommended by Finance", True),
        (P.draft, "v2 deck proposal", False),
    ]
    y = 150
    for price, why, chosen in options:
        box = (40, y, 920, y + 80)
        d.rectangle(box, outline=(22, 58, 94) if chosen else (190, 190, 190), width=4 if chosen else 1,
                    fill=(232, 244, 236) if chosen else (250, 250, 250))  # fmt: skip
        d.text((70, y + 20), f"EUR {price}", font=font(30, bold=True), fill=(20, 20, 20))
        d.text((260, y + 28), why, font=font(18), fill=(80, 80, 80))
        d.text(
            (700, y + 24),
            "APPROVED" if chosen else "rejected",
            font=font(22, bold=chosen),
            fill=(20, 120, 60) if chosen else (160, 60, 60),
        )
        y += 100
    d.text(
        (40, 460),
        "Monthly customers from 1 Sept 2026; annual at renewal; grandfathering per rollout rules.",
        font=font(16),
        fill=(60, 60, 60),
    )
    d.text((40, 490), "Decision recorded by C. Walsh  -  slide 7 of 9", font=font(13), fill=(120, 120, 120))
    img = img.quantize(colors=32, dither=Image.Dither.NONE)
    img.save(path, format="PNG", optimize=True)


def legal_memo(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("Legal review - Team plan price notice")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "Legal review: Team plan price change - customer notice")
    c.setFont("Helvetica", 10.5)
    y = 760
    for line in [
        "From: Aisling Byrne, Legal Counsel    To: Maeve Connolly    Date: 16 June 2026",
        "",
        "Under our terms of service (clause 9.2) a price change binds a customer only if the notice states:",
        "  (a) the new price per seat per month;",
        "  (b) the date from which that price applies to the customer's own account;",
        "  (c) that the customer may cancel without penalty before that date.",
        "",
        "Each notice goes to the account's billing contact only. It must not mention other customers,",
        "internal revenue figures or the committee's deliberations.",
        "",
        "Timing: no notice may be sent before I have approved the final wording in writing.",
        "Exempt (nonprofit) accounts need no notice.",
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()


VOICEMAIL = (
    "Maeve, it's Declan, Wednesday morning. Before the notices go out: Northgate Clinics, account A 1 0 4 2. "
    "I agreed with their chief executive that they keep twenty nine euro until the first of January twenty twenty seven, "
    "and the new price applies from that date. Treat it as a C F O exception. Everything else as planned. Thanks."
)


def voicemail(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "158", "-p", "30", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day2", "day3"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    slide(HERE / "day1/committee_slide_approved.png")
    legal_memo(HERE / "day2/legal_review_notice.pdf")
    voicemail(HERE / "day3/declan_voicemail_2026-06-17.mp3")


if __name__ == "__main__":
    main()
