"""Regenerate this task's evidence files deterministically (run once; the outputs are committed).

    python tasks/journalist/factcheck_story/make_evidence.py

Needs Pillow, espeak-ng and ffmpeg (authoring time only; running the benchmark does not).

- ``day1/interview_source_A.wav``: a confidential source's spoken interview clip (espeak-ng, fixed
  voice/speed/pitch, resampled to 16 kHz mono by ffmpeg with bit-exact flags). It is the only place
  that says there were seven change orders and that the final payments came to "about 3.8 million".
- ``day1/foi_release_NG-2291.pdf``: a two-page scanned (image-only, no text layer) freedom-of-
  information release: the signed contract page (sum, scope in km, signature date) and a
  supplier-payments ledger page whose Kessler rows add up to EUR 3,845,200.00.
"""

from __future__ import annotations

import datetime
import random
import subprocess
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
CONTRACT_SUM = f"{int(F.expected.C1[1]):,}.00"  # 2,900,000.00
SCOPE_KM = F.expected.C6[1]  # 11.6
SIGNED = datetime.date.fromisoformat(F.expected.C3[1])
SIGNED_TEXT = f"{SIGNED.day} {SIGNED:%B %Y}"  # 14 March 2024
KESSLER = F.ledger.kessler  # the four payments to Kessler Asphalt, summing to C2's verified value
assert sum(Decimal(a.replace(",", "")) for a in KESSLER) == Decimal(F.expected.C2[1])
SCANNED = time.strptime("2025-03-07 16:30", "%Y-%m-%d %H:%M")  # fixed PDF dates (Pillow wants struct_time)
FONTS = Path("/usr/share/fonts/truetype/dejavu")
SERIF = str(FONTS / "DejaVuSerif.ttf")
SERIF_BOLD = str(FONTS / "DejaVuSerif-Bold.ttf")
MONO = str(FONTS / "DejaVuSansMono.ttf")

INTERVIEW = (
    "The contract was signed on the fourteenth of March, a week before the tender closed. "
    "In the end Kessler was paid about three point eight million. "
    "There were seven change orders, and none of them went to committee."
)

LEDGER = [
    # date, supplier, reference, amount (EUR)
    ("2024-05-31", "Kessler Asphalt GmbH", "NG-RD-2024-07 / 1", KESSLER[0]),
    ("2024-06-14", "Brightline Signs GmbH", "NG-SG-2024-02", "42,300.00"),
    ("2024-07-31", "Kessler Asphalt GmbH", "NG-RD-2024-07 / 2", KESSLER[1]),
    ("2024-09-13", "Norr Lighting AB", "NG-LT-2024-01", "118,900.00"),
    ("2024-09-30", "Kessler Asphalt GmbH", "NG-RD-2024-07 / 3", KESSLER[2]),
    ("2024-11-29", "Kessler Asphalt GmbH", "NG-RD-2024-07 / 4 final", KESSLER[3]),
]
PAGE_TOTAL = "4,006,400.00"  # all suppliers; Kessler alone: 3,845,200.00


def audio(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "40", "-w", str(raw), INTERVIEW], check=True)
        subprocess.run(
            [
                "ffmpeg",
                "-y",
                "-loglevel",
                "error",
                "-i",
                str(raw),
                "-ac",
                "1",
                "-ar",
                "16000",
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


def _paper(lines: list[tuple[int, int, str, str, int]], seed: int, angle: float) -> Image.Image:
    """A page rendered to pixels, slightly rotated, blurred and speckled like a photocopy scan."""
    page = Image.new("L", (800, 1130), 250)
    d = ImageDraw.Draw(page)
    for x, y, text, font, size in lines:
        d.text((x, y), text, fill=25, font=ImageFont.truetype(font, size))
    rng = random.Random(seed)
    px = page.load()
    for _ in range(2500):  # toner specks
        px[rng.randrange(800), rng.randrange(1130)] = rng.randrange(90, 200)
    page = page.rotate(angle, resample=Image.BICUBIC, expand=False, fillcolor=235)
    return page.filter(ImageFilter.GaussianBlur(0.6))


def contract_page() -> Image.Image:
    L: list[tuple[int, int, str, str, int]] = [
        (60, 50, "NORTHGATE CITY COUNCIL", SERIF_BOLD, 30),
        (60, 95, "Directorate of Infrastructure", SERIF, 18),
        (60, 160, "CONTRACT NG-RD-2024-07", SERIF_BOLD, 22),
        (60, 195, "Road resurfacing programme 2024", SERIF, 18),
        (60, 260, "Contractor:  Kessler Asphalt GmbH, Industriestr. 12, Northgate", SERIF, 15),
        (60, 300, f"Scope of works:  resurfacing of {SCOPE_KM} km of carriageway", SERIF, 15),
        (60, 325, "(Lindenweg, Hafenstrasse, Ostring), incl. kerbs and markings", SERIF, 15),
        (60, 375, f"Contract sum:  EUR {CONTRACT_SUM} (excluding VAT)", SERIF_BOLD, 16),
        (60, 415, "Variations only by written change order under clause 14.", SERIF, 15),
        (60, 500, "Signed for the Council", SERIF_BOLD, 15),
        (60, 580, "M. Vogel, Director of Infrastructure", SERIF, 15),
        (60, 610, f"Date:  {SIGNED_TEXT}", SERIF, 15),
        (430, 500, "Signed for the Contractor", SERIF_BOLD, 15),
        (430, 580, "R. Kessler, Managing Director", SERIF, 15),
        (430, 610, f"Date:  {SIGNED_TEXT}", SERIF, 15),
        (60, 1000, "RELEASED UNDER FOI REQUEST 2291 - PAGE 1 OF 2", MONO, 14),
    ]
    page = _paper(L, seed=1, angle=0.7)
    d = ImageDraw.Draw(page)  # pen signatures
    d.line([(70, 560), (110, 538), (140, 562), (180, 536), (230, 556)], fill=40, width=2)
    d.line([(440, 558), (470, 536), (520, 562), (560, 540)], fill=40, width=2)
    return page


def ledger_page() -> Image.Image:
    L: list[tuple[int, int, str, str, int]] = [
        (50, 50, "NORTHGATE CITY COUNCIL - ACCOUNTS PAYABLE", SERIF_BOLD, 22),
        (50, 90, "Supplier payments, cost centre 4410 (Roads), FY 2024 - extract", SERIF, 15),
        (50, 150, "Date        Supplier               Reference                 Amount EUR", MONO, 13),
    ]
    y = 185
    for date, supplier, ref, amount in LEDGER:
        L.append((50, y, f"{date}  {supplier:<22} {ref:<24} {amount:>13}", MONO, 13))
        y += 34
    L.append((50, y + 20, f"{'Page total':<61} {PAGE_TOTAL:>13}", MONO, 13))
    L.append((50, 1000, "RELEASED UNDER FOI REQUEST 2291 - PAGE 2 OF 2", MONO, 14))
    return _paper(L, seed=2, angle=-0.5)


def scan_pdf(pages: list[Image.Image], path: Path) -> None:
    """Wrap page images (JPEG q70) in a PDF with no text layer and no font resource, with fixed
    document dates so a re-run gives the same bytes (reportlab would add a default font object)."""
    pages[0].save(
        path,
        "PDF",
        save_all=True,
        append_images=pages[1:],
        resolution=96.0,
        quality=70,
        title=path.stem,
        creationDate=SCANNED,
        modDate=SCANNED,
    )


def main() -> None:
    day1 = HERE / "day1"
    day1.mkdir(parents=True, exist_ok=True)
    audio(day1 / "interview_source_A.wav")
    scan_pdf([contract_page(), ledger_page()], day1 / "foi_release_NG-2291.pdf")


if __name__ == "__main__":
    main()
