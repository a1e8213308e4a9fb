"""Regenerate the leave-management task's evidence deterministically (the outputs are committed).

    python tasks/hr/leave_management/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the phone photo of
the fit note and the scanned MATB1, both pixels with no text layer), reportlab (the PDF wrapper of
the scan), espeak-ng + ffmpeg (the OH nurse's voicemail, 16 kHz mono MP3).

- day1/fit_note/IMG_0412_fit_note.jpg      photo of Tomasz's paper fit note: the condition, unfit until
  15/03, the phased return (4 h, then 6 h a day), no lifting over 10 kg
- day2/matb1/MATB1_Aisling_Byrne_scan.pdf   image-only PDF: the MATB1 with the expected week of
  childbirth (beginning 12/07/2026)
- day3/voicemail/OH_Gemma_Lund_2026-03-04.mp3  spoken: OH's more gradual plan (4, 5, 6 h; full duties
  from 6 April; no driving until the surgeon's review) and Gemma's availability on 16 March
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
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
T, A = F.tomasz, F.aisling
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, style: str = "") -> ImageFont.FreeTypeFont:
    name = {"": "DejaVuSans", "b": "DejaVuSans-Bold", "i": "DejaVuSans-Oblique", "s": "DejaVuSerif"}[style]
    return ImageFont.truetype(str(FONTS / f"{name}.ttf"), size)


def dmy(day: str) -> str:
    return date.fromisoformat(day).strftime("%d/%m/%Y")


# -- the fit note: a phone photo of a paper form on a desk ---------------------------------------
def fit_note(path: Path) -> None:
    w, h = 760, 1000
    paper = Image.new("RGB", (w, h), (246, 244, 236))
    d = ImageDraw.Draw(paper)
    ink, hand = (30, 30, 35), (22, 38, 120)
    d.rectangle((20, 20, w - 20, 88), fill=(0, 94, 184))
    d.text((40, 32), "Statement of Fitness for Work", font=font(30, "b"), fill=(255, 255, 255))
    d.text((w - 190, 42), "Fit note  Med 3", font=font(18), fill=(255, 255, 255))
    y = 110
    d.text((40, y), "Patient's name", font=font(16), fill=ink)
    d.text((230, y - 4), "Mr Tomasz Wierzbicki", font=font(22, "i"), fill=hand)
    y += 44
    d.text((40, y), "I assessed your case on:", font=font(16), fill=ink)
    d.text((300, y - 4), T.assessed, font=font(22, "i"), fill=hand)
    y += 44
    d.text((40, y), "and, because of the following condition(s):", font=font(16), fill=ink)
    y += 30
    d.text((60, y), T.condition, font=font(19, "i"), fill=hand)
    d.text((60, y + 28), f"(surgery {T.surgery})", font=font(19, "i"), fill=hand)
    y += 76
    d.text((40, y), "I advise you that:", font=font(16, "b"), fill=ink)
    y += 32
    for ticked, label in ((False, "you are not fit for work."),
                          (True, "you may be fit for work taking into account the following advice:")):  # fmt: skip
        d.rectangle((44, y + 2, 62, y + 20), outline=ink, width=2)
        if ticked:
            d.line((46, y + 10, 53, y + 19, 66, y - 4), fill=hand, width=4)
        d.text((74, y), label, font=font(16), fill=ink)
        y += 32
    y += 4
    d.text((40, y), "If available, and with your employer's agreement, you may benefit from:", font=font(15), fill=ink)
    y += 30
    for i, (ticked, label) in enumerate(((True, "a phased return to work"), (False, "altered hours"),
                                         (True, "amended duties"), (False, "workplace adaptations"))):  # fmt: skip
        x, yy = 60 + (i % 2) * 330, y + (i // 2) * 32
        d.rectangle((x, yy + 2, x + 18, yy + 20), outline=ink, width=2)
        if ticked:
            d.line((x + 2, yy + 10, x + 9, yy + 19, x + 22, yy - 4), fill=hand, width=4)
        d.text((x + 30, yy), label, font=font(16), fill=ink)
    y += 80
    d.text((40, y), "Comments, including functional effects of your condition(s):", font=font(15), fill=ink)
    y += 30
    (w1, h1), (w2, h2) = T.fit_note_plan
    comments = [
        f"Not fit for any work until {T.unfit_until}.",
        f"From {dmy(w1)} phased return: {h1} hours a day",
        f"in the first week, {h2} hours a day in the second",
        "week, then normal hours.",
        f"No lifting over {T.lifting_kg} kg and no ladder work until",
        "back on normal hours.",
    ]
    for line in comments:
        d.text((60, y), line, font=font(20, "i"), fill=hand)
        y += 32
    y += 14
    d.text((40, y), "This will be the case for", font=font(16), fill=ink)
    d.text((280, y - 4), f"from {T.note_from}  to {T.note_to}", font=font(20, "i"), fill=hand)
    y += 40
    d.text((40, y), "I will / will not need to assess your fitness for work again at the end of this period.", font=font(13), fill=ink)  # fmt: skip
    y += 44
    d.text((40, y), "Doctor's signature", font=font(16), fill=ink)
    d.text((230, y - 8), "R. Oduya", font=font(28, "i"), fill=hand)
    d.text((420, y), f"Date of statement  {T.assessed}", font=font(16), fill=ink)
    y += 44
    d.text((40, y), "Orchard Lane Surgery, 4 Orchard Lane, Falmouth TR11 2QE", font=font(15), fill=ink)

    # the photo: the sheet on a wooden desk, slightly rotated, soft and noisy (seeded)
    rnd = random.Random(412)
    desk = Image.new("RGB", (900, 1140), (122, 86, 56))
    dd = ImageDraw.Draw(desk)
    for i in range(0, 1140, 6):
        tone = 110 + rnd.randrange(-14, 15)
        dd.line((0, i, 900, i + rnd.randrange(-3, 4)), fill=(tone, int(tone * 0.72), int(tone * 0.48)), width=4)
    sheet = paper.rotate(2.3, resample=Image.BICUBIC, expand=True, fillcolor=(0, 0, 0))
    mask = Image.new("L", paper.size, 255).rotate(2.3, resample=Image.BICUBIC, expand=True, fillcolor=0)
    desk.paste(sheet, (50, 52), mask)
    shade = Image.new("L", desk.size, 0)
    ImageDraw.Draw(shade).ellipse((-300, -200, 1200, 1500), fill=70)
    desk = Image.composite(desk, Image.new("RGB", desk.size, (40, 32, 26)), shade.filter(ImageFilter.GaussianBlur(120)).point(lambda v: 185 + v))  # fmt: skip
    px = desk.load()
    for _ in range(9000):
        x, yy = rnd.randrange(desk.width), rnd.randrange(desk.height)
        r, g, b = px[x, yy]
        n = rnd.randrange(-22, 23)
        px[x, yy] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    desk = desk.filter(ImageFilter.GaussianBlur(0.7))
    desk.save(path, format="JPEG", quality=62, optimize=True)


# -- the MATB1: a scanned grey page inside a PDF ----------------------------------------------------
def matb1(path: Path) -> None:
    w, h = 850, 1100
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    d.text((60, 50), "MATERNITY CERTIFICATE", font=font(30, "b"), fill=15)
    d.text((600, 56), "Form MAT B1", font=font(22, "b"), fill=15)
    d.line((60, 100, 790, 100), fill=40, width=3)
    d.text((60, 118), "Please fill in this form in ink", font=font(15), fill=40)
    y = 160
    d.text((60, y), "Name of patient", font=font(18), fill=20)
    d.text((300, y - 4), "Aisling Byrne", font=font(24, "i"), fill=10)
    y += 50
    d.text((60, y), "Fill in this part if you are giving the certificate before the", font=font(18, "b"), fill=20)
    d.text((60, y + 26), "confinement. Do not fill this in more than 20 weeks before", font=font(18, "b"), fill=20)
    d.text((60, y + 52), "the week the baby is expected.", font=font(18, "b"), fill=20)
    y += 100
    d.text((60, y), "I certify that I examined you on the date given below.", font=font(18), fill=20)
    y += 34
    d.text((60, y), "In my opinion you can expect to have your baby in the", font=font(18), fill=20)
    y += 28
    d.text((60, y), "week that begins on:", font=font(18), fill=20)
    d.text((300, y - 6), A.ewc_printed, font=font(28, "i"), fill=5)
    y += 56
    d.text((60, y), "Date of examination", font=font(18), fill=20)
    d.text((300, y - 4), A.matb1_examined, font=font(24, "i"), fill=10)
    y += 50
    d.text((60, y), "Date of signing", font=font(18), fill=20)
    d.text((300, y - 4), A.matb1_examined, font=font(24, "i"), fill=10)
    y += 60
    d.text((60, y), "Signature", font=font(18), fill=20)
    d.text((300, y - 10), "J. Penrose", font=font(32, "i"), fill=8)
    y += 60
    d.text((60, y), "Registered midwife  NMC number  21C4471E", font=font(18), fill=20)
    y += 40
    d.text((60, y), "Royal Cornwall Hospital, Community Midwifery Team", font=font(18), fill=20)
    y += 80
    d.line((60, y, 790, y), fill=90, width=1)
    y += 16
    d.text(
        (60, y), "Fill in this part if you are giving the certificate after the confinement.", font=font(16), fill=60
    )
    d.text((60, y + 30), "I certify that I attended you in connection with the birth which took place on", font=font(15), fill=70)  # fmt: skip
    d.text(
        (60, y + 56), "________________  when you were delivered of a child [ ] children [ ]", font=font(15), fill=70
    )
    d.text((60, 1040), "MAT B1  -  Rev 2024", font=font(14), fill=70)
    rnd = random.Random(419)
    for _ in range(2200):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(110, 200))
    page = page.rotate(0.7, resample=Image.BICUBIC, expand=False, fillcolor=232).filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=62, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle("scan0419")
    aw, ah = A4
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


# -- Gemma's voicemail ----------------------------------------------------------------------------
def spoken_day(day: str) -> str:
    d = date.fromisoformat(day)
    nth = {2: "second", 6: "sixth", 16: "sixteenth", 23: "twenty third", 30: "thirtieth"}[d.day]
    return f"the {nth} of {d.strftime('%B')}"


def voicemail(path: Path) -> None:
    (w1, h1), (w2, h2), (w3, h3) = T.oh_plan
    words = {4: "four", 5: "five", 6: "six"}
    text = (
        "Hi Halima, it's Gemma Lund from occupational health, Wednesday morning, about Tomasz Wierzbicki. "
        "I did his pre-return assessment by phone this morning. His knee is healing well, but I'd like his phased "
        "return to be more gradual than the GP suggested. "
        f"Week one, from {spoken_day(w1)}, {words[h1]} hours a day. Week two, {words[h2]} hours a day. "
        f"Week three, from {spoken_day(w3)}, {words[h3]} hours a day. Then normal hours from Monday "
        f"{spoken_day(T.full_duties)}. The ten kilo lifting limit stays for the whole phased return. And please add one "
        f"more restriction: no driving company vehicles until after his surgeon's review on {spoken_day('2026-04-02')}. "
        f"About the return to work meeting on {spoken_day(w1)}: I'm at the Truro site that morning, so I can "
        "only do it from one o'clock in the afternoon onwards. Thanks, bye."
    )
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "55", "-w", str(wav), text], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1",
             "-c:a", "libmp3lame", "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact",
             "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/fit_note", "day2/matb1", "day3/voicemail"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    fit_note(HERE / "day1/fit_note/IMG_0412_fit_note.jpg")
    matb1(HERE / "day2/matb1/MATB1_Aisling_Byrne_scan.pdf")
    voicemail(HERE / "day3/voicemail/OH_Gemma_Lund_2026-03-04.mp3")


if __name__ == "__main__":
    main()
