"""Regenerate the commercial-acquisition task's evidence deterministically (the outputs are committed).

    python tasks/real_estate/commercial_acquisition/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the scanned estoppel
certificates and the video frames, no text layer), reportlab (the wrappers of the scans), ffmpeg
(libx264, one thread, bit-exact flags).

- day1/estoppels/Ridgeview_estoppels_batch1.pdf  image-only PDF, four signed estoppels: Brightpath's rent
  differs from the rent roll, Harbor Title claims a landlord default, Lumen has a termination option
- day2/ridgeview_walkthrough.mp4                  the engineer's 8 s walkthrough: Suite 300 (Northwind
  Travel on the rent roll) is dark and empty with a FOR LEASE sign
- day2/rtu_suite120.jpg                           the engineer's photo of the rooftop unit serving Suite 120,
  red-tagged out of service (what Harbor Title's estoppel claims)
- day3/estoppels/Cole_Maddox_estoppel.pdf        image-only PDF: a clean estoppel
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")
T = F.tenants
LEASE_END = {"100": "June 30, 2029", "120": "March 31, 2028", "200": "December 31, 2030", "310": "November 30, 2028", "400": "January 31, 2031"}  # fmt: skip
OPTION = {"200": "Tenant may terminate effective December 31, 2027 on nine months' written notice."}
DEFAULT = {"120": "HVAC unit serving the premises inoperable since 11/2025; Tenant claims an offset of $3,100.00."}


def estoppel_page(tenant: dict, seed: int) -> bytes:
    """One signed estoppel, printed, signed and scanned: a grey raster, JPEG bytes."""
    w, h = 640, 828
    page = Image.new("L", (w, h), 247)
    d = ImageDraw.Draw(page)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSerif-Bold.ttf"), 20)
    body = ImageFont.truetype(str(FONTS / "DejaVuSerif.ttf"), 14)
    hand = ImageFont.truetype(str(FONTS / "DejaVuSans-Oblique.ttf"), 16)
    d.text((150, 36), "TENANT ESTOPPEL CERTIFICATE", font=bold, fill=15)
    suite = tenant["suite"]
    lines = [
        f"Premises: Suite {suite}, {F.deal.property},",
        f"{F.deal.address}.",
        f"Tenant: {tenant['name']}.",
        "The undersigned Tenant certifies to Cedarline Capital Partners",
        "(Buyer) and its lender that:",
        "",
        "1. The Lease is in full force and effect and has not been",
        "   modified except as stated here.",
        "2. The current monthly base rent is:",
        "",
        f"3. The term of the Lease expires on {LEASE_END[suite]}.",
        "4. Tenant has no option to terminate the Lease early, except:",
        "",
        "",
        "5. To Tenant's knowledge Landlord is not in default and Tenant",
        "   claims no offset or defense, except:",
        "",
        "",
        "6. No rent has been paid more than one month in advance.",
    ]
    y = 90
    marks = {}
    for i, line in enumerate(lines):
        d.text((50, y), line, font=body, fill=20)
        marks[i] = y
        y += 26
    d.text((330, marks[8] + 22), f"${tenant['estoppel_rent']:,.2f}", font=hand, fill=10)
    d.text((70, marks[12]), OPTION.get(suite, "none"), font=hand, fill=10)
    d.text((70, marks[16]), DEFAULT.get(suite, "none"), font=hand, fill=10)
    d.text((50, 640), "TENANT: " + tenant["name"], font=body, fill=20)
    d.text((50, 676), "By: ______________________   Date: 05/08/2026", font=body, fill=20)
    d.text((90, 668), "J. " + tenant["name"].split()[0], font=hand, fill=10)
    rnd = random.Random(seed)
    for _ in range(300):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 200))
    page = page.rotate(0.6 if seed % 2 else -0.5, resample=Image.BICUBIC, expand=False, fillcolor=232)
    page = page.filter(ImageFilter.GaussianBlur(0.5))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=50, optimize=True)
    return buf.getvalue()


def scanned_pdf(path: Path, pages: list[bytes], title: str) -> None:
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    aw, ah = letter
    for data in pages:
        c.drawImage(ImageReader(io.BytesIO(data)), 0, 0, width=aw, height=ah)
        c.showPage()
    c.save()


def frame(scene: str, shift: int, rnd: random.Random) -> Image.Image:
    """One 320x240 frame of the corridor walk: a suite door, lit or dark."""
    img = Image.new("RGB", (320, 240), (196, 192, 184))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 190, 320, 240), fill=(120, 112, 100))  # carpet
    small = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 11)
    big = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 20)
    x = 70 - shift
    lit = scene != "300"
    inside = (235, 232, 210) if lit else (28, 28, 32)
    d.rectangle((x, 40, x + 180, 190), fill=inside, outline=(60, 60, 60), width=3)  # the glass front
    if lit:
        for k in range(3):  # desks and people-ish shapes
            d.rectangle((x + 15 + k * 55, 130, x + 55 + k * 55, 150), fill=(140, 100, 60))
            d.ellipse((x + 25 + k * 55, 105, x + 40 + k * 55, 120), fill=(90, 70, 60))
    else:
        d.rectangle((x + 40, 80, x + 140, 130), fill=(250, 250, 245))  # the paper sign
        d.text((x + 48, 84), "FOR", font=big, fill=(200, 20, 20))
        d.text((x + 48, 106), "LEASE", font=big, fill=(200, 20, 20))
    name = {"200": "LUMEN ANALYTICS", "300": "NORTHWIND TRAVEL", "310": "COLE & MADDOX CPAs"}[scene]
    d.rectangle((x + 190, 60, x + 300, 100), fill=(40, 50, 70))
    d.text((x + 196, 64), f"SUITE {scene}", font=small, fill=(230, 230, 230))
    d.text((x + 196, 80), name[:16], font=small, fill=(230, 230, 230))
    for _ in range(400):
        px, py = rnd.randrange(320), rnd.randrange(240)
        g = rnd.randrange(-20, 20)
        r, gg, b = img.getpixel((px, py))
        img.putpixel((px, py), (max(0, min(255, r + g)), max(0, min(255, gg + g)), max(0, min(255, b + g))))
    return img


def walkthrough(path: Path) -> None:
    rnd = random.Random(300)
    fps = 4
    with tempfile.TemporaryDirectory() as tmp:
        n = 0
        for scene in ("200", "300", "310"):
            for k in range(11):
                frame(scene, k * 6, rnd).save(Path(tmp) / f"f{n:03d}.png")
                n += 1
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(fps), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "30", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def rooftop_photo(path: Path) -> None:
    """A rooftop HVAC unit with the service company's red tag."""
    rnd = random.Random(120)
    img = Image.new("RGB", (480, 360), (150, 170, 200))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 250, 480, 360), fill=(110, 110, 105))  # the roof membrane
    d.rectangle((90, 110, 390, 270), fill=(178, 180, 176), outline=(90, 90, 90), width=3)  # the unit
    for x in range(110, 370, 14):
        d.line((x, 130, x, 200), fill=(120, 120, 118), width=3)  # the coil grille
    d.ellipse((250, 60, 350, 120), fill=(70, 70, 72))  # the fan
    d.rectangle((140, 205, 250, 262), fill=(200, 30, 30))  # the tag
    tag = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 13)
    d.text((146, 210), "OUT OF", font=tag, fill=(255, 255, 255))
    d.text((146, 226), "SERVICE", font=tag, fill=(255, 255, 255))
    d.text((146, 244), "11/18/25", font=tag, fill=(255, 255, 255))
    d.text((280, 240), "RTU-3  STE 120", font=tag, fill=(40, 40, 40))
    px = img.load()
    for _ in range(2500):
        x, y = rnd.randrange(480), rnd.randrange(360)
        r, g, b = px[x, y]
        k = rnd.randrange(-14, 14)
        px[x, y] = (max(0, min(255, r + k)), max(0, min(255, g + k)), max(0, min(255, b + k)))
    img.filter(ImageFilter.GaussianBlur(0.6)).save(path, format="JPEG", quality=68, optimize=True)


def main() -> None:
    for sub in ("day1/estoppels", "day2", "day3/estoppels"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    batch = [T.brightpath, T.harbor, T.lumen, T.verity]
    scanned_pdf(HERE / "day1/estoppels/Ridgeview_estoppels_batch1.pdf",
                [estoppel_page(t, 100 + i) for i, t in enumerate(batch)], "scan 0508")  # fmt: skip
    walkthrough(HERE / "day2/ridgeview_walkthrough.mp4")
    rooftop_photo(HERE / "day2/rtu_suite120.jpg")
    scanned_pdf(HERE / "day3/estoppels/Cole_Maddox_estoppel.pdf", [estoppel_page(T.cole, 310)], "scan 0512")


if __name__ == "__main__":
    main()
