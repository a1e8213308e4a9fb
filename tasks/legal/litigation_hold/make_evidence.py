"""Regenerate the litigation-hold task's evidence deterministically (the outputs are committed).

    python tasks/legal/litigation_hold/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDF, and
the wrapper of the scanned page), Pillow (the signed hold notice rendered to a grey JPEG with no
text layer), espeak-ng + ffmpeg (the associate general counsel's dictated privilege calls, 16 kHz
mono MP3).

- day1/notice/LH-2025-07_hold_notice_signed.pdf  image-only PDF: the signed notice as issued; the
  only place that states the hold's effective date and the start of its preservation scope
- day1/acks/hana_ito_acknowledgement.jpg        a phone photo of Hana Ito's signed acknowledgement
  form: the only place naming the extra data source she declares (a USB stick)
- day1/exports/<hold>/<custodian>_mailbox.pst    collected mailbox exports (opaque seeded bytes)
- day3/review/review_batch_03.pdf                text PDF: the first-level review batch (control
  numbers, dates, authors, recipients)
- day3/memos/reyes_privilege_calls.mp3           spoken memo: which documents are withheld, on
  which basis, and which one is produced (privilege waived)
"""

from __future__ import annotations

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
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")

BATCH = [
    # control no, date, author, recipients, description
    ("CF-000411", "2024-02-12", "Lucia Ferro", "Kai Brennan", "Dispatch volumes, Harlow lanes, Q1"),
    (
        "CF-000412",
        "2024-03-05",
        "Kai Brennan",
        "Daniel Reyes",
        "Harlow contract termination - request for legal advice",
    ),
    ("CF-000413", "2024-03-06", "Sam Whitfield", "Harlow Logistics (J. Pike)", "Rate card for April"),
    (
        "CF-000415",
        "2024-03-07",
        "Daniel Reyes",
        "Kai Brennan; cc Tom Grady (Grady Brokerage)",
        "Draft termination notice",
    ),
    (
        "CF-000418",
        "2024-03-11",
        "Daniel Reyes",
        "Sam Whitfield",
        "Draft response to Harlow claim letter, prepared for litigation",
    ),
    ("CF-000420", "2024-03-14", "Hana Ito", "Kai Brennan", "Harlow invoices outstanding, aging report"),
]

MEMO = (
    "Marta, it's Daniel, with my privilege calls on review batch three. "
    "C F four one two, Kai's email asking me for advice on terminating the Harlow contract: withhold it, "
    "attorney client privilege. "
    "C F four one five, my draft termination notice: Kai copied it to Tom Grady at the brokerage, so the "
    "privilege is waived. Produce it, do not log it. "
    "C F four one eight, the draft response to Harlow's claim letter that I prepared for Sam: withhold it "
    "as work product. "
    "Everything else in the batch is produced. Thanks."
)


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def scanned_notice(path: Path) -> None:
    """The signed notice, printed, signed and scanned: a grey raster page, no text layer."""
    w, h = 850, 1100
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    bold, mid, small = font("DejaVuSerif-Bold.ttf", 24), font("DejaVuSerif.ttf", 17), font("DejaVuSans.ttf", 14)
    d.text((60, 50), "CORVELL FREIGHT INC.  -  LEGAL DEPARTMENT", font=bold, fill=20)
    d.text((60, 88), "PRIVILEGED & CONFIDENTIAL - ATTORNEY-CLIENT COMMUNICATION", font=small, fill=40)
    d.line((60, 115, 790, 115), fill=60, width=2)
    d.text((60, 135), f"LEGAL HOLD NOTICE  {F.hold.id}", font=bold, fill=10)
    lines = [
        f"Matter: Harlow Logistics LLC v. Corvell Freight Inc. ({F.hold.matter})",
        "To: the custodians listed in Schedule A",
        "",
        f"Effective date of this hold:  {F.hold.effective_words}",
        "",
        "Corvell Freight reasonably anticipates litigation with Harlow Logistics LLC",
        "concerning the 2022 dispatch services agreement and its termination.",
        "",
        "You must preserve every document and record, paper or electronic, created,",
        f"sent or received on or after {F.hold.scope_words}, that relates to Harlow",
        "Logistics, the dispatch services agreement, its pricing or its termination:",
        "e-mail, chat, files on laptops and shares, phone messages and notes.",
        "",
        "Do not delete, overwrite, wipe or discard any such record, and do not let",
        "automatic deletion run on it. This notice overrides every retention schedule",
        "until Legal releases the hold in writing.",
        "",
        "Acknowledge receipt by replying to Marta Sobczak, Legal, within two",
        "business days.",
    ]
    y = 185
    for line in lines:
        d.text((60, y), line, font=mid, fill=15)
        y += 29
    d.text((60, y + 30), "Signed:", font=mid, fill=20)
    d.line((150, y + 52, 420, y + 48), fill=30, width=2)  # the signature stroke
    d.arc((160, y + 20, 260, y + 60), 200, 340, fill=25, width=2)
    d.arc((240, y + 24, 330, y + 58), 190, 350, fill=25, width=2)
    d.text((150, y + 62), "Daniel Reyes, Associate General Counsel", font=small, fill=30)
    d.text((60, 1040), f"{F.hold.id}  -  page 1 of 1  -  Schedule A on file with Legal", font=small, fill=50)
    rnd = random.Random(2507)
    for _ in range(1600):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 200))
    page = page.rotate(0.7, resample=Image.BICUBIC, expand=False, fillcolor=232)
    page = page.filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=68, optimize=True)
    c = canvas.Canvas(str(path), pagesize=LETTER, invariant=1)
    c.setTitle("scan_0514")
    aw, ah = LETTER
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


def acknowledgement_photo(path: Path) -> None:
    """The printed form, filled in by hand, photographed on a desk: slight rotation, shading, grain."""
    form = Image.new("RGB", (620, 800), (252, 252, 248))
    d = ImageDraw.Draw(form)
    head, mid, small = font("DejaVuSans-Bold.ttf", 22), font("DejaVuSans.ttf", 16), font("DejaVuSans.ttf", 13)
    hand = font("DejaVuSans-Oblique.ttf", 21)
    ink = (28, 52, 150)
    d.text((40, 40), f"Legal hold {F.hold.id}", font=head, fill=(20, 20, 20))
    d.text((40, 72), "Custodian acknowledgement and data-source form", font=mid, fill=(40, 40, 40))
    d.line((40, 100, 580, 100), fill=(60, 60, 60), width=2)
    y = 125
    for line in [
        "I have read the legal hold notice and will preserve all",
        "records it covers until Legal releases the hold.",
        "",
        "Name:",
        "",
        "Where do you keep relevant records (besides e-mail)?",
        "",
        "",
        "",
        "Signature:                                   Date:",
    ]:
        d.text((40, y), line, font=mid, fill=(30, 30, 30))
        y += 34
    d.text((120, 125 + 3 * 34 - 4), "Hana Ito", font=hand, fill=ink)
    d.text((60, 125 + 6 * 34 - 2), "AR share (finance) + USB stick", font=hand, fill=ink)
    d.text((60, 125 + 7 * 34 + 2), f"labelled {F.hold.declared_source}, desk drawer", font=hand, fill=ink)
    d.line((150, 125 + 9 * 34 + 14, 300, 125 + 9 * 34 + 6), fill=ink, width=2)
    d.arc((160, 125 + 9 * 34 - 10, 230, 125 + 9 * 34 + 20), 180, 360, fill=ink, width=2)
    d.text((450, 125 + 9 * 34 - 2), "06/02/25", font=hand, fill=ink)
    d.text((40, 740), "Return to Marta Sobczak, Legal", font=small, fill=(90, 90, 90))
    photo = Image.new("RGB", (760, 900), (122, 96, 70))  # the desk
    form = form.rotate(-2.5, resample=Image.BICUBIC, expand=True, fillcolor=(122, 96, 70))
    photo.paste(form, (60, 40))
    shade = Image.linear_gradient("L").resize(photo.size).point(lambda v: 255 - v // 5)
    photo = Image.composite(photo, Image.new("RGB", photo.size, (40, 30, 20)), shade)
    rnd = random.Random(4411)
    g = ImageDraw.Draw(photo)
    for _ in range(3000):
        x, y = rnd.randrange(photo.width), rnd.randrange(photo.height)
        r, gr, b = photo.getpixel((x, y))
        v = rnd.randrange(-20, 20)
        g.point((x, y), fill=(max(0, min(255, r + v)), max(0, min(255, gr + v)), max(0, min(255, b + v))))
    photo.filter(ImageFilter.GaussianBlur(0.5)).save(path, format="JPEG", quality=72, optimize=True)


def review_batch(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER, invariant=1)
    c.setTitle("Review batch 03 - Harlow v Corvell")
    c.setFont("Helvetica-Bold", 13)
    c.drawString(50, 750, f"Harlow v. Corvell ({F.hold.matter}) - first-level review, batch 03")
    c.setFont("Helvetica", 9.5)
    c.drawString(50, 734, "Documents flagged 'potentially privileged' by the review team, for attorney decision.")
    y = 705
    c.setFont("Helvetica-Bold", 9)
    for x, head in ((50, "Control No"), (115, "Date"), (175, "Author"), (255, "Recipients"), (415, "Description")):
        c.drawString(x, y, head)
    c.setFont("Helvetica", 8.5)
    for control, date, author, recipients, description in BATCH:
        y -= 30
        c.drawString(50, y, control)
        c.drawString(115, y, date)
        c.drawString(175, y, author)
        for i, part in enumerate(recipients.split("; ")):
            c.drawString(255, y - 11 * i, part)
        words, line, row = description.split(), "", 0
        for word in words:
            if len(line) + len(word) > 34:
                c.drawString(415, y - 11 * row, line.strip())
                line, row = "", row + 1
            line += word + " "
        c.drawString(415, y - 11 * row, line.strip())
    c.setFont("Helvetica", 9)
    c.drawString(50, y - 50, "Reviewer: contract review team (Corvell Legal). Attorney calls pending: D. Reyes.")
    c.save()


def voice_memo(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "160", "-p", "35", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def exports(root: Path) -> None:
    """Mailbox exports: a PST-like header and seeded opaque bytes (the same every run)."""
    for n, rel in enumerate([*F.exports.held, *F.exports.released]):
        target = root / rel.removeprefix("exports/")
        target.parent.mkdir(parents=True, exist_ok=True)
        rnd = random.Random(7000 + n)
        target.write_bytes(b"!BDN" + rel.encode() + b"\0" + bytes(rnd.randrange(256) for _ in range(6000)))


def main() -> None:
    for sub in ("day1/notice", "day1/acks", "day1/exports", "day3/review", "day3/memos"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    scanned_notice(HERE / f"day1/notice/{F.hold.id}_hold_notice_signed.pdf")
    acknowledgement_photo(HERE / "day1/acks/hana_ito_acknowledgement.jpg")
    exports(HERE / "day1/exports")
    review_batch(HERE / "day3/review/review_batch_03.pdf")
    voice_memo(HERE / "day3/memos/reyes_privilege_calls.mp3")


if __name__ == "__main__":
    main()
