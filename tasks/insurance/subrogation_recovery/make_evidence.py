"""Regenerate the subrogation-recovery task's evidence deterministically (the outputs are committed).

    python tasks/insurance/subrogation_recovery/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (the text PDF
invoice and the wrapper of the scanned page), Pillow (the police report scan: a grey raster page
with no text layer; the dashcam frames), ffmpeg (libx264, one thread, bit-exact flags).

- day1/claim/police_report_RTC-25-03-1187.pdf  image-only PDF: the third party's vehicle, insurer and
  policy number; "no independent witnesses, accounts conflict"
- day1/claim/dashcam_HD21XKE_20250314_1742.mp4  6 s forward dashcam: our signal turns green, and two
  seconds later a white van crosses from the right (its signal was red)
- day1/claim/Halden_Bodyworks_invoice_HB-5521.pdf  text PDF: the repair invoice Northgate paid
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
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
C, TP = F.claim, F.third_party
FONTS = Path("/usr/share/fonts/truetype/dejavu")
FPS = 5


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def police_report(path: Path) -> None:
    """A typed police collision report, photocopied and scanned: no text layer."""
    w, h = 850, 1100
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    d.text((60, 50), "HALDEN CONSTABULARY", font=font(28, True), fill=20)
    d.text((60, 90), "Road Traffic Collision - Report to Insurers", font=font(20), fill=35)
    d.line((60, 124, 790, 124), fill=60, width=2)
    rows = [
        ("Report ref.", TP.police_ref),
        ("Date / time", "14/03/2025  approx. 17:42"),
        ("Location", "Mill Road / Station Street, Halden (signal-controlled junction)"),
        ("", ""),
        ("VEHICLE 1", ""),
        ("Registration", f"{C.our_reg}   Grey Skoda Octavia, travelling north, Mill Road"),
        ("Driver", f"{C.insured}"),
        ("Insurer", "Northgate Motor Insurance"),
        ("", ""),
        ("VEHICLE 2", ""),
        ("Registration", f"{TP.reg}   White Ford Transit van, travelling west, Station St"),
        ("Driver", "Mr P. Doyle (employed driver, Doyle Plumbing Ltd)"),
        ("Insurer", TP.insurer),
        ("Policy no.", TP.policy),
        ("", ""),
        ("Witnesses", "None traced at the scene."),
        ("Accounts", "V1 driver: own signal green. V2 driver: own signal amber."),
        ("Outcome", "No offences reported. Damage only; no injuries."),
    ]
    y = 150
    for k, v in rows:
        d.text((60, y), k, font=font(19, k.isupper() and bool(k)), fill=20)
        d.text((250, y), v, font=font(18), fill=10)
        y += 34
    d.text((60, 1020), "PC 4471 R. Mensah        Halden Roads Policing Unit        Page 1 of 1", font=font(15), fill=40)
    rnd = random.Random(1187)
    for _ in range(2000):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 200))
    page = page.rotate(0.7, resample=Image.BICUBIC, expand=False, fillcolor=236).filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=70, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("scan_1187")
    aw, ah = A4
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


def invoice(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("Invoice HB-5521")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "Halden Bodyworks Ltd - Invoice HB-5521")
    c.setFont("Helvetica", 10.5)
    y = 760
    for line in [
        "Date: 2 April 2025      To: Northgate Motor Insurance, claims",
        f"Your claim: {F.claim.number}      Vehicle: {C.our_reg} Skoda Octavia",
        "",
        "Front bumper, grille, bonnet and nearside wing: replace and paint",
        "Radiator and condenser: replace",
        "Parts 3,912.40   Labour and paint 2,930.10",
        f"Total paid by insurer (VAT recovered): GBP {F.payments.repair}",
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()


def frame(n: int) -> Image.Image:
    """One dashcam frame: the junction ahead, our signal on the left, a van crossing from the right."""
    t = n / FPS
    w, h = 320, 240
    img = Image.new("RGB", (w, h), (150, 170, 196))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 110, w, h), fill=(92, 92, 96))  # road
    d.rectangle((0, 118, w, 150), fill=(104, 104, 108))  # the cross street
    d.line((160, 150, 160, h), fill=(230, 230, 230), width=3)
    d.rectangle((20, 40, 44, 110), fill=(30, 30, 30))  # our signal head
    red = t < 2.4
    amber = 1.6 <= t < 2.4
    green = t >= 2.4
    d.ellipse((25, 44, 39, 58), fill=(230, 30, 30) if red else (60, 20, 20))
    d.ellipse((25, 64, 39, 78), fill=(240, 170, 0) if amber else (60, 45, 10))
    d.ellipse((25, 84, 39, 98), fill=(30, 220, 60) if green else (15, 50, 20))
    d.rectangle((30, 110, 34, 150), fill=(40, 40, 40))
    if 3.2 <= t <= 5.2:  # the van crosses right to left through the junction
        x = int(340 - (t - 3.2) * 200)
        d.rectangle((x, 96, x + 90, 146), fill=(240, 240, 240), outline=(80, 80, 80))
        d.rectangle((x, 104, x + 22, 124), fill=(120, 160, 190))
        d.ellipse((x + 10, 138, x + 26, 154), fill=(20, 20, 20))
        d.ellipse((x + 64, 138, x + 80, 154), fill=(20, 20, 20))
    d.rectangle((0, 222, w, h), fill=(0, 0, 0))
    sec = 8 + int(t)
    d.text(
        (6, 224),
        f"2025-03-14 17:42:{sec:02d}  {C.our_reg}  {0 if t < 2.6 else 12} km/h",
        font=font(11),
        fill=(255, 255, 255),
    )
    return img


def dashcam(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(6 * FPS):
            frame(n).save(Path(tmp) / f"f{n:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    target = HERE / "day1/claim"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    police_report(target / f"police_report_{TP.police_ref}.pdf")
    dashcam(target / "dashcam_HD21XKE_20250314_1742.mp4")
    invoice(target / "Halden_Bodyworks_invoice_HB-5521.pdf")


if __name__ == "__main__":
    main()
