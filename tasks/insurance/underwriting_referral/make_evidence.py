"""Regenerate the underwriting-referral task's evidence deterministically (the outputs are committed).

    python tasks/insurance/underwriting_referral/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs),
Pillow (the surveyor's site photos, drawn as JPEGs with no text layer), espeak-ng + ffmpeg (the
broker's voice note, 16 kHz mono MP3).

- day1/survey/SV-25-0419_risk_survey_RQ-7731.pdf  text PDF: construction, protections, sums insured, EML;
  the rear finishing bay is "not inspected, see photographs"
- day1/survey/IMG_3310.jpg, IMG_3311.jpg, IMG_3312.jpg  site photos; IMG_3312 shows a spray booth and
  lacquer drums in the rear bay (the proposal form answers "spray finishing: No")
- day2/voice_notes/felix_grant_2025-05-13.mp3  the broker: stock sum insured up to 650,000
- day4/RQ-7731_signed_proposal.pdf  text PDF: the corrected, signed proposal form
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
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
R = F.risk
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def money(n: int) -> str:
    return f"GBP {n:,}"


def text_pdf(path: Path, title: str, heading: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, heading)
    c.setFont("Helvetica", 10.5)
    y = 760
    for line in lines:
        c.drawString(60, y, line)
        y -= 15
    c.save()


def survey(path: Path) -> None:
    total = R.buildings + R.machinery + R.stock_declared
    text_pdf(
        path,
        f"Risk survey {R.survey_ref}",
        f"Harbourline Risk Engineering - Survey {R.survey_ref}",
        [
            "Surveyor: Owen Lee        Date of visit: 9 May 2025",
            f"Proposer: {R.insured}    Submission: {R.ref}",
            f"Address: {R.address}",
            "",
            "Construction: steel portal frame, brick to 2 m, insulated steel cladding above; concrete floor.",
            "Floor area 1,850 m2, single storey. Built 2004. Roof in fair condition.",
            "Occupancy: bespoke joinery - machining, assembly and storage of hardwood and sheet material.",
            "",
            "Protections:",
            "  - Automatic fire detection (L2) to the office and machine shop, monitored by an ARC.",
            "  - Local exhaust ventilation to the saws and planers; cyclone outside the north wall.",
            "  - No sprinklers. Hydrant 60 m from the building.",
            "Housekeeping: reasonable; shavings cleared at the end of each shift.",
            "",
            "Rear finishing bay: locked at the time of the visit, not inspected - see photographs",
            "IMG_3310 to IMG_3312 (IMG_3312 taken through the open roller door of the rear bay).",
            "",
            "Sums insured (as proposed):",
            f"  Buildings {money(R.buildings)}   Machinery {money(R.machinery)}   Stock {money(R.stock_declared)}",
            f"  Total {money(total)}",
            f"Estimated maximum loss: {R.eml_percent}% of the total sum insured = {money(R.eml_amount)}.",
            "",
            "Recommendations: keep the cyclone clear of combustible storage; quarterly LEV inspection.",
        ],
    )


def signed_proposal(path: Path) -> None:
    text_pdf(
        path,
        f"Proposal {R.ref} (corrected)",
        f"Commercial Property Proposal - {R.ref} (corrected 15 May 2025)",
        [
            f"Proposer: {R.insured}",
            f"Address: {R.address}",
            "Broker: Grant & Pike Insurance Brokers (Felix Grant)",
            "",
            "Trade: bespoke joinery",
            "Q7 Is spray finishing carried out on the premises?  YES - water-extracted booth in the rear bay",
            "Q8 Is dust extraction fitted to all woodworking machines?  YES",
            "Q9 Any losses in the last five years?  NO",
            "",
            f"Sums insured: Buildings {money(R.buildings)}, Machinery {money(R.machinery)}, Stock {money(R.stock_revised)}",
            f"Cover required from {R.inception}.",
            "",
            "Declaration: the answers above are true and complete to the best of my knowledge.",
            "Signed: M. Calder, Director        Date: 15 May 2025",
        ],
    )


def photo(path: Path, seed: int, draw_scene) -> None:
    w, h = 640, 480
    img = Image.new("RGB", (w, h), (188, 184, 176))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 330, w, h), fill=(120, 116, 108))  # floor
    draw_scene(d)
    rnd = random.Random(seed)
    for _ in range(1500):
        x, y = rnd.randrange(w), rnd.randrange(h)
        v = rnd.randrange(90, 200)
        d.point((x, y), fill=(v, v, v))
    img = img.filter(ImageFilter.GaussianBlur(0.7))
    img.save(path, format="JPEG", quality=68, optimize=True)


def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def machine_shop(d: ImageDraw.ImageDraw) -> None:
    for x in (60, 260, 460):
        d.rectangle((x, 250, x + 130, 340), fill=(70, 96, 70))  # saw / planer bodies
        d.rectangle((x + 10, 230, x + 120, 250), fill=(150, 150, 150))
        d.line((x + 65, 230, x + 65, 60), fill=(160, 160, 165), width=8)  # extraction duct
    d.line((40, 60, 620, 60), fill=(160, 160, 165), width=12)


def timber_store(d: ImageDraw.ImageDraw) -> None:
    for n, y in enumerate(range(120, 330, 30)):
        d.rectangle((40, y, 600, y + 22), fill=(160 + (n * 7) % 40, 110, 60))
    d.rectangle((30, 100, 40, 340), fill=(40, 40, 120))
    d.rectangle((600, 100, 610, 340), fill=(40, 40, 120))


def rear_bay(d: ImageDraw.ImageDraw) -> None:
    d.rectangle((40, 80, 360, 340), fill=(222, 222, 214), outline=(60, 60, 60), width=4)  # booth
    d.rectangle((80, 120, 320, 300), fill=(205, 208, 200))
    d.rectangle((84, 20, 330, 70), fill=(250, 212, 0), outline=(0, 0, 0), width=3)
    d.text((108, 30), "SPRAY BOOTH 1", font=font(26), fill=(0, 0, 0))
    d.line((250, 200, 300, 170), fill=(30, 30, 30), width=6)  # spray gun on its hook
    d.rectangle((240, 196, 262, 232), fill=(40, 40, 40))
    for x in (400, 480, 560):
        d.rectangle((x, 220, x + 64, 340), fill=(176, 30, 30), outline=(80, 0, 0), width=2)  # drums
        d.polygon([(x + 32, 240), (x + 52, 262), (x + 32, 284), (x + 12, 262)], fill=(240, 90, 20), outline=(0, 0, 0))
        d.text((x + 4, 292), "LACQUER", font=font(11), fill=(255, 255, 255))
        d.text((x + 4, 308), "FLAMMABLE", font=font(10, bold=False), fill=(255, 255, 255))


def voice_note(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    speech = (
        "Hi Nadia, Felix Grant at Grant and Pike, Tuesday morning, about Calder Joinery, your reference "
        "R Q 7 7 3 1. One change before you finish the terms: they have just taken a large delivery of "
        "hardwood, so please increase the stock sum insured to six hundred and fifty thousand pounds. "
        "Buildings and machinery stay as proposed. Thanks, speak soon."
    )
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "note.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "45", "-w", str(wav), speech], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/survey", "day2/voice_notes", "day4"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    survey(HERE / f"day1/survey/{R.survey_ref}_risk_survey_{R.ref}.pdf")
    photo(HERE / "day1/survey/IMG_3310.jpg", 3310, machine_shop)
    photo(HERE / "day1/survey/IMG_3311.jpg", 3311, timber_store)
    photo(HERE / "day1/survey/IMG_3312.jpg", 3312, rear_bay)
    voice_note(HERE / "day2/voice_notes/felix_grant_2025-05-13.mp3")
    signed_proposal(HERE / f"day4/{R.ref}_signed_proposal.pdf")


if __name__ == "__main__":
    main()
