"""Regenerate the book-production task's evidence deterministically (the outputs are committed).

    python tasks/content_operation/book_production/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the marked-up proof
pages and the photo: pixels only), reportlab (wraps the scanned pages in a PDF without a text
layer), espeak-ng + ffmpeg (the printer's voicemail, 16 kHz mono MP3).

- day1/proofs/Salt_Roads_2nd_proofs_marked_MW.pdf     four proof pages the author marked by hand:
  struck words, a caret and a margin note "<new> AA|PE" (facts.toml [corrections])
- day1/figures/fig_4-3_marston_brine_shaft.jpg        "the author's photo" carries a stock-library
  watermark (facts.toml [watermark])
- day3/voicemail/fernhill_dev_mistry_2026-02-04_0832.mp3  files due a day earlier; paper options
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
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
N = F.names
FONTS = Path("/usr/share/fonts/truetype/dejavu")

FILLER = [
    "brine was drawn from shallow pits and boiled in lead pans over wood fires",
    "the packhorse trains carried salt along hollow ways worn deep into the clay",
    "tolls were taken at every bridge and the salters paid them in kind",
    "the town's wiches were guarded by ancient customs written down by the monks",
    "by the seventeenth century coal had replaced wood beneath the pans",
    "the roads themselves survive as lanes, field boundaries and parish names",
    "merchants from the Midlands came north each autumn before the roads failed",
    "an inventory lists eleven pans, two store houses and a brine cistern",
]
SPECIAL = {
    47: "In {} the town's salt rights were confirmed",
    112: "Fig. 6.1 Droitwich brine pit, {}, looking north",
    203: "and at the end of the road stood {} salters' chapel",
    231: "the works at {} closed only in 1986",
}
MEMO = (
    "Hi Hannah, it's Dev Mistry at Fernhill Print, Wednesday morning, about The Salt Roads. Two things. "
    "Our press schedule has changed: your slot is now Friday morning, so we need the final print files "
    "by Thursday at twelve noon, not Friday. Second, the Munken Premium Cream eighty gram we quoted is out "
    "of stock. We can do Munken Premium ninety gram at three hundred and ten pounds extra, or Holmen Book "
    "eighty gram at no extra cost. Let me know which by Thursday morning. Thanks, bye."
)


def font(size: int, kind: str = "serif") -> ImageFont.FreeTypeFont:
    name = {"serif": "DejaVuSerif.ttf", "hand": "DejaVuSans-Oblique.ttf", "small": "DejaVuSans.ttf"}[kind]
    return ImageFont.truetype(str(FONTS / name), size)


def proof_page(page: int, line_no: int, was: str, now: str, kind: str, seed: int) -> Image.Image:
    w, h = 620, 640
    img = Image.new("L", (w, h), 246)
    d = ImageDraw.Draw(img)
    d.text((90, 30), f"{F.book.title.upper()}  -  second proofs", font=font(11, "small"), fill=80)
    rnd = random.Random(seed)
    y0, step = 70, 23
    for n in range(1, 23):
        y = y0 + (n - 1) * step
        d.text((48, y + 3), str(n), font=font(9, "small"), fill=120)  # proof line numbers
        if n == line_no:
            text = SPECIAL[page].format(was)
            d.text((90, y), text, font=font(14), fill=20)
            start = d.textlength(SPECIAL[page].split("{}")[0], font=font(14))
            width = d.textlength(was, font=font(14))
            x0 = 90 + start
            d.line((x0 - 2, y + 9, x0 + width + 2, y + 9), fill=0, width=2)  # struck through
            d.line((x0 + width / 2, y + 18, x0 + width / 2 - 5, y + 26), fill=0, width=2)  # caret
            d.line((x0 + width / 2, y + 18, x0 + width / 2 + 5, y + 26), fill=0, width=2)
            d.text((545, y - 4), now, font=font(15, "hand"), fill=0)
            d.text((545, y + 13), kind, font=font(13, "hand"), fill=0)
        else:
            words = FILLER[rnd.randrange(len(FILLER))].split()[: rnd.randrange(7, 12)]
            while d.textlength(" ".join(words), font=font(14)) > 430:
                words = words[:-1]
            d.text((90, y), " ".join(words), font=font(14), fill=20)
    d.text((300, 610), str(page), font=font(12), fill=40)
    d.text((420, 590), "MW 31/1", font=font(14, "hand"), fill=10)
    for _ in range(250):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(130, 200))
    return img.rotate(-0.6, resample=Image.BICUBIC, fillcolor=232).filter(ImageFilter.GaussianBlur(0.45))


def proofs(path: Path) -> None:
    """The scanned pages, one grey JPEG each, in a PDF without a text layer."""
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("scan")
    aw, ah = A4
    for i, (page, line_no, was, now, kind) in enumerate(F.corrections.rows):
        buf = io.BytesIO()
        proof_page(page, line_no, was, now, kind, 4700 + i).save(buf, format="JPEG", quality=35, optimize=True)
        c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
        c.showPage()
    c.save()


def photo(path: Path) -> None:
    """A brine-shaft headframe at dusk, with a stock library's tiled watermark."""
    w, h = 480, 320
    img = Image.new("RGB", (w, h), (120, 140, 170))
    d = ImageDraw.Draw(img)
    for y in range(h):
        d.line((0, y, w, y), fill=(110 + y // 6, 130 + y // 8, 170 - y // 5))
    d.rectangle((0, 240, w, h), fill=(70, 60, 50))
    d.polygon([(200, 240), (240, 60), (280, 240)], outline=(30, 30, 30), width=5)
    d.line((215, 170, 265, 170), fill=(30, 30, 30), width=4)
    d.ellipse((228, 48, 252, 72), outline=(30, 30, 30), width=4)
    d.rectangle((300, 200, 420, 240), fill=(90, 70, 60))
    wm = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    dw = ImageDraw.Draw(wm)
    for y in range(20, h, 90):
        for x in range(-40, w, 190):
            dw.text((x, y), f"© {F.watermark.holder}", font=font(20, "small"), fill=(255, 255, 255, 110))
    dw.text(
        (300, 296), f"{F.watermark.holder} ref. {F.watermark.ref}", font=font(12, "small"), fill=(255, 255, 255, 200)
    )
    img = Image.alpha_composite(img.convert("RGBA"), wm).convert("RGB")
    img.save(path, format="JPEG", quality=70, optimize=True)


def voicemail(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "165", "-p", "30", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for rel in (N.proofs, N.figure, N.voicemail):
        target = (HERE / rel).parent
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    proofs(HERE / N.proofs)
    photo(HERE / N.figure)
    voicemail(HERE / N.voicemail)


if __name__ == "__main__":
    main()
