"""Regenerate the leak-verification task's evidence deterministically (the outputs are committed).

    python tasks/journalist/leak_verification/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (the retyped PDF,
with fixed document properties), Pillow (the phone photo of the printed original: pixels only, no
text layer), espeak-ng + ffmpeg (the recorded call with the corroborating source, 16 kHz mono MP3).

- day1/leak/VW_QA-0417_memo.pdf    text PDF the source retyped in Word: says 9 schools; its document
  properties (created 16 March 2025, Microsoft Word) show it is not the company's own export
- day1/leak/IMG_4471.jpg           photo of the printed original: 11 schools, and the copy mark
  "COPY 07 OF 12" that would identify whose copy it was
- day2/calls/call_LARK_2025-04-08.mp3  recorded call: the former lab employee gives the sampling
  date (18 February) and confirms eleven schools and the deferral until after the 28 March hearing
"""

from __future__ import annotations

import io
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
M = F.memo
FONTS = Path("/usr/share/fonts/truetype/dejavu")
INVARIANT_DATE = b"D:20000101000000+00'00'"  # what reportlab writes with invariant=1


def body_lines(schools: int) -> list[str]:
    return [
        "Lead sampling at primary schools in the Eastmoor supply zone (February round)",
        f"found {schools} schools above the {M.action_level} ug/L action level for lead at the tap.",
        "",
        "Parent and school notification letters are to be held until after the",
        "regulator's rate hearing on 28 March. Site managers must not discuss the results",
        "with school staff before then. Flushing advice continues as normal.",
        "",
        "Remediation (pipe replacement) to be scheduled for the summer holidays.",
    ]


def retyped_pdf(path: Path) -> None:
    """The source's retyped copy: a text PDF made in Word (its properties say so) with 9 schools."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1)
    c.setTitle(f"{M.ref} memo")
    c.setAuthor("owner")
    c.setCreator(F.pdf.creator)
    c.setProducer(F.pdf.producer)
    c.setFont("Helvetica-Bold", 13)
    c.drawString(60, 790, "VANTOR WATER - INTERNAL")
    c.setFont("Helvetica", 10.5)
    y = 760
    for line in [
        f"Ref: {M.ref}",
        "Date: 3 March 2025",
        f"From: {M.author}",
        "To: Site managers, Eastmoor zone",
        "Subject: School lead sampling - handling of results",
        "",
        *body_lines(M.schools_retyped),
        "",
        "R. Aldana",
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()
    data = buf.getvalue()
    raw = F.pdf.created_raw.encode()
    assert len(raw) == len(INVARIANT_DATE) and data.count(INVARIANT_DATE) == 2
    path.write_bytes(data.replace(INVARIANT_DATE, raw))  # same length: the xref offsets stay valid


def photo(path: Path) -> None:
    """A phone photo of the printed original on a desk: skewed page, shadow, noise; JPEG."""
    w, h = 900, 1000
    rnd = random.Random(417)
    desk = Image.new("RGB", (w, h), (118, 86, 58))
    dd = ImageDraw.Draw(desk)
    for _ in range(260):  # wood grain
        y = rnd.randrange(h)
        dd.line(
            (0, y, w, y + rnd.randrange(-8, 9)), fill=(100 + rnd.randrange(30), 70 + rnd.randrange(20), 45), width=2
        )
    page = Image.new("RGB", (700, 900), (246, 244, 236))
    d = ImageDraw.Draw(page)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSerif-Bold.ttf"), 24)
    reg = ImageFont.truetype(str(FONTS / "DejaVuSerif.ttf"), 17)
    small = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 14)
    d.text((40, 40), "VANTOR WATER", font=bold, fill=(20, 40, 90))
    d.text((40, 74), "INTERNAL - NOT FOR CIRCULATION", font=small, fill=(120, 20, 20))
    d.rectangle((470, 34, 665, 72), outline=(170, 30, 30), width=3)
    d.text((482, 43), M.copy_mark, font=ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 18), fill=(170, 30, 30))
    y = 120
    for k, v in (("Ref", M.ref), ("Date", "3 March 2025"), ("From", M.author), ("To", "Site managers, Eastmoor zone")):
        d.text((40, y), f"{k}:", font=reg, fill=(30, 30, 30))
        d.text((120, y), v, font=reg, fill=(20, 20, 20))
        y += 28
    d.line((40, y + 6, 660, y + 6), fill=(60, 60, 60), width=1)
    y += 24
    for line in body_lines(M.schools):
        d.text((40, y), line.replace("ug/L", "µg/L"), font=small, fill=(25, 25, 25))
        y += 24
    y += 20
    d.text((40, y), "Schools affected: see annex (restricted).", font=small, fill=(25, 25, 25))
    d.text(
        (40, y + 60), "R. Aldana", font=ImageFont.truetype(str(FONTS / "DejaVuSerif-Italic.ttf"), 22), fill=(20, 30, 80)
    )
    page = page.rotate(4.5, resample=Image.BICUBIC, expand=True, fillcolor=(0, 0, 0))
    mask = Image.new("L", (700, 900), 255).rotate(4.5, resample=Image.BICUBIC, expand=True, fillcolor=0)
    shadow = Image.new("RGB", page.size, (60, 42, 28))
    desk.paste(shadow, (110, 70), mask)
    desk.paste(page, (90, 50), mask)
    light = Image.new("L", (w, h), 0)
    ImageDraw.Draw(light).ellipse((-300, -200, 700, 800), fill=40)  # lamp glare, top left
    desk = Image.composite(Image.new("RGB", (w, h), (255, 250, 235)), desk, light.filter(ImageFilter.GaussianBlur(80)))
    px = desk.load()
    for _ in range(9000):  # sensor noise
        x, yy = rnd.randrange(w), rnd.randrange(h)
        r, g, b = px[x, yy]
        n = rnd.randrange(-25, 26)
        px[x, yy] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    desk = desk.filter(ImageFilter.GaussianBlur(0.5))
    desk.save(path, format="JPEG", quality=72, optimize=True)


CALL = [
    ("en-gb", 160, 50, "This is Dana Whitlock, recording with consent, Tuesday the eighth of April. You worked in the "
                       "Vantor laboratory until last month. Do you recognise memo Q A zero four one seven?"),
    ("en-us", 150, 35, "Yes. I ran those samples myself. We took the school samples on the eighteenth of February, "
                       "all in one day. Eleven schools came back over the action level, not nine, eleven. I remember "
                       "because we re-ran two of them and they were still high."),
    ("en-gb", 160, 50, "And the letters to parents?"),
    ("en-us", 150, 35, "They were held back on purpose, until after the rate hearing on the twenty eighth of March. "
                       "That came from the quality director's office. You can describe me as a former lab employee, "
                       "nothing more specific."),
]  # fmt: skip


def recorded_call(path: Path) -> None:
    """Two fixed espeak-ng voices, joined and resampled to 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        parts = []
        for i, (voice, speed, pitch, text) in enumerate(CALL):
            wav = Path(tmp) / f"part{i}.wav"
            subprocess.run(
                ["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", str(wav), text], check=True
            )
            parts.append(wav)
        inputs = [arg for p in parts for arg in ("-i", str(p))]
        mix = "".join(f"[{i}:a]" for i in range(len(parts))) + f"concat=n={len(parts)}:v=0:a=1[a]"
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", *inputs, "-filter_complex", mix, "-map", "[a]", "-ar", "16000",
             "-ac", "1", "-c:a", "libmp3lame", "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact",
             "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/leak", "day2/calls"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    retyped_pdf(HERE / f"day1/leak/VW_{M.ref}_memo.pdf")
    photo(HERE / "day1/leak/IMG_4471.jpg")
    recorded_call(HERE / "day2/calls/call_LARK_2025-04-08.mp3")


if __name__ == "__main__":
    main()
