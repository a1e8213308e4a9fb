"""Regenerate the due-diligence task's data-room documents deterministically (the outputs are committed).

    python tasks/legal/ma_due_diligence/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs and the
wrapper of the scan), Pillow (the scanned Harbor Medical agreement and the photographed lease: pixels),
espeak-ng + ffmpeg (the partner's voice memo, 16 kHz mono MP3).

- day1/vdr/VDR-*.pdf                 contract excerpts (text PDFs); VDR-3.1.4 (Harbor Medical) is a scan,
  and VDR-3.3.8 (the office lease) a phone photo (.jpg) of the signed page
- day1/client/Norvale_Board_Memo_Project_Heron.pdf   text PDF: the client's bid and walk-away price
- day2/vdr/VDR-3.1.7_Kessler_Amendment_No_2.pdf      text PDF: the change-of-control consent deleted
- day2/silent/VDR-4.2.9_Orbis_Polymers.pdf           text PDF: uploaded silently; consent required
- day3/voice/Oliver_Grant_Heron_memo.mp3             spoken: threshold lowered to 350,000; the call
"""

from __future__ import annotations

import csv
import io
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
D = F.deal
FONTS = Path("/usr/share/fonts/truetype/dejavu")

CLAUSES = {
    "termination right": [
        "Either party may terminate this Agreement on thirty (30) days' written notice to the other party",
        "if the other party undergoes a Change of Control.",
    ],
    "consent required": [
        "Neither party may assign or transfer this Agreement, whether voluntarily, by operation of law, by",
        "merger or by a Change of Control, without the prior written consent of the other party.",
    ],
    "notice required": [
        "Customer shall give Provider written notice of any Change of Control of Customer within thirty (30)",
        "days after it occurs. No consent of Provider is required and this Agreement continues in force.",
    ],
    "none": [
        "Neither party may assign this Agreement without the other party's consent, provided that a Change",
        "of Control of either party shall not be deemed an assignment and requires no consent or notice.",
    ],
}
SPECIAL = {
    "VDR-3.3.2": [
        "The occurrence of a Change of Control shall constitute an Event of Default, upon which the Lender",
        "may terminate the Commitments and declare the Loans immediately due and payable.",
    ],
    "VDR-3.3.8": [
        "Any transfer of a controlling interest in Tenant, directly or indirectly, shall be deemed an",
        "assignment of this Lease requiring Landlord's prior written consent.",
    ],
    "VDR-3.4.1": [
        "This licence is personal to Licensee and terminates automatically upon a Change of Control of",
        "Licensee unless Licensor has given its prior written consent.",
    ],
}


def text_pdf(path: Path, title: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    y = 740
    for line in lines:
        if line.startswith("# "):
            c.setFont("Helvetica-Bold", 13)
            c.drawString(54, y, line[2:])
            y -= 22
            continue
        if line.startswith("## "):
            y -= 4
            c.setFont("Helvetica-Bold", 10.5)
            c.drawString(54, y, line[3:])
        else:
            c.setFont("Helvetica", 10)
            c.drawString(54, y, line)
        y -= 15
    c.save()


def contract_lines(doc: str, party: str, title: str, value: int, effect: str) -> list[str]:
    return [
        f"# {title}",
        f"Data room document {doc}        Parties: {D.target} and {party}",
        f"Contract value: approximately USD {value:,} per year (per the seller's index)",
        "",
        "## 1. Term",
        "Initial term of three (3) years, renewing automatically for successive one-year terms.",
        "",
        "## 14. Assignment; Change of Control",
        *SPECIAL.get(doc, CLAUSES[effect]),
        '"Change of Control" means the acquisition by any person of more than 50% of the voting',
        "securities of a party, or of all or substantially all of its assets.",
        "",
        "## 15. Governing law",
        "This Agreement is governed by the laws of the State of New York.",
    ]


def scanned(path: Path, lines: list[str], seed: int) -> None:
    """A signed paper contract, scanned: a grey raster page, no text layer."""
    w, h = 1100, 1420
    page = Image.new("L", (w, h), 246)
    d = ImageDraw.Draw(page)
    serif = ImageFont.truetype(str(FONTS / "DejaVuSerif.ttf"), 17)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSerif-Bold.ttf"), 22)
    y = 60
    for line in lines:
        if line.startswith("# "):
            d.text((60, y), line[2:], font=bold, fill=15)
            y += 44
        elif line.startswith("## "):
            d.text((60, y + 6), line[3:], font=ImageFont.truetype(str(FONTS / "DejaVuSerif-Bold.ttf"), 18), fill=20)
            y += 36
        else:
            d.text((60, y), line, font=serif, fill=25)
            y += 28
    d.text((60, y + 60), "Signed: ______________________        Signed: ______________________", font=serif, fill=30)
    d.text((60, y + 96), "For Tidewater Sensors Inc.            For Harbor Medical Group", font=serif, fill=30)
    rnd = random.Random(seed)
    for _ in range(2500):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(110, 200))
    page = page.rotate(-0.9, resample=Image.BICUBIC, fillcolor=232).filter(ImageFilter.GaussianBlur(0.7))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=55, optimize=True)
    c = canvas.Canvas(str(path), pagesize=LETTER, invariant=1)
    c.setTitle(f"scan{seed}")
    aw, ah = LETTER
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


def photographed(path: Path, lines: list[str], seed: int) -> None:
    """A page of the signed lease, photographed on a desk by the seller's office manager."""
    w, h = 1100, 900
    page = Image.new("RGB", (w, h), (250, 249, 243))
    d = ImageDraw.Draw(page)
    serif = ImageFont.truetype(str(FONTS / "DejaVuSerif.ttf"), 18)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSerif-Bold.ttf"), 22)
    y = 50
    for line in lines:
        if line.startswith("# "):
            d.text((50, y), line[2:], font=bold, fill=(20, 20, 20))
            y += 44
        elif line.startswith("## "):
            d.text((50, y + 6), line[3:], font=bold, fill=(25, 25, 25))
            y += 38
        else:
            d.text((50, y), line, font=serif, fill=(35, 35, 35))
            y += 30
    rnd = random.Random(seed)
    photo = Image.new("RGB", (1240, 1060), (96, 70, 48))
    photo.paste(page.rotate(2.4, resample=Image.BICUBIC, expand=True, fillcolor=(96, 70, 48)), (40, 50))
    px = photo.load()
    for _ in range(14000):
        x, yy = rnd.randrange(photo.width), rnd.randrange(photo.height)
        r, g, b = px[x, yy]
        n = rnd.randrange(-20, 21)
        px[x, yy] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    photo.filter(ImageFilter.GaussianBlur(0.8)).save(path, format="JPEG", quality=55, optimize=True)


def file_name(doc: str, party: str) -> str:
    return f"{doc}_{party.replace(' ', '_')}.pdf"


def memo(path: Path) -> None:
    text = (
        "Imani, it's Oliver, about Heron. Two things. First, Rachel called: the client wants a lower materiality "
        "threshold for the change of control review, three hundred and fifty thousand dollars a year instead of "
        "five hundred thousand. So please review the contracts between those two amounts as well and update the "
        "index and the schedule. Anything under three hundred and fifty thousand stays out. Second, please set up a "
        "forty five minute consent strategy call with Rachel and me on Thursday afternoon. She can do two or four "
        "o'clock. Thanks."
    )
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "162", "-p", "35", "-w", str(wav), text], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/vdr", "day1/client", "day2/vdr", "day2/silent", "day3/voice"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    index = {r["Doc ID"]: r for r in csv.DictReader((HERE / "seed/index.csv").open(encoding="utf-8"))}
    for doc, effect in [*F.contracts.material, *F.contracts.lowered, *F.contracts.below]:
        party, title, value = index[doc]["Counterparty"], index[doc]["Agreement"], int(index[doc]["Annual Value (USD)"])
        lines = contract_lines(doc, party, title, value, effect)
        target = HERE / "day1/vdr" / file_name(doc, party)
        if doc == "VDR-3.1.4":
            scanned(target, lines, 314)
        elif doc == "VDR-3.3.8":
            photographed(target.with_suffix(".jpg"), lines, 338)
        else:
            text_pdf(target, f"{doc} {title}", lines)
    a = F.contracts.added
    text_pdf(HERE / "day2/silent" / file_name(a.doc, a.counterparty), f"{a.doc} {a.agreement}",
             contract_lines(a.doc, a.counterparty, a.agreement, a.value, a.effect))  # fmt: skip
    text_pdf(HERE / "day2/vdr/VDR-3.1.7_Kessler_Amendment_No_2.pdf", "Amendment No. 2", [
        "# Amendment No. 2 to the Distribution Agreement",
        f"Between {D.target} and Kessler GmbH - data room document VDR-3.1.7 (amendment), dated 1 June 2026",
        "",
        "1. Section 14 (Assignment; Change of Control) is deleted and replaced by:",
        '"Neither party may assign this Agreement without the other party\'s consent, provided that a',
        'Change of Control of either party shall not be deemed an assignment and requires no consent or notice."',
        "2. All other terms of the Agreement remain in full force and effect.",
        "",
        "Signed for Tidewater Sensors Inc. and for Kessler GmbH.",
    ])  # fmt: skip
    text_pdf(HERE / "day1/client/Norvale_Board_Memo_Project_Heron.pdf", "Board memo - Project Heron", [
        "# Norvale Industries - Board memorandum (STRICTLY CONFIDENTIAL)",
        f"Project Heron: proposed acquisition of {D.target}",
        "",
        f"Approved opening bid: USD {D.bid} (enterprise value, cash-free debt-free).",
        f"Walk-away price: USD {D.walk_away}. Do not disclose to the seller or its advisers.",
        "Key risk: customer concentration (Harbor Medical Group, about 31% of revenue).",
    ])  # fmt: skip
    memo(HERE / "day3/voice/Oliver_Grant_Heron_memo.mp3")


if __name__ == "__main__":
    main()
