"""Regenerate the fulfilment-exceptions task's evidence deterministically (the outputs are committed).

    python tasks/ecommerce/fulfilment_exceptions/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the photo and the
video frames), ffmpeg (libx264 one thread and libmp3lame, bit-exact flags), espeak-ng (the
voicemail), reportlab (the carrier's settlement letter).

- day1/pod/SLF-7734120_POD_photo.jpg       the driver's proof-of-delivery slip photographed on the
  damaged pallet: the consignee's remark "6 CTNS CRUSHED" is only in the pixels
- day3/cctv/dock4_cam2_2025-05-29_1742.mp4  a 5 s clip of the trailer being sealed at Dock 4; for
  about two seconds it shows the seal tag with its number (only in the frames)
- day3/voicemail/halden_lund_2025-06-03_1612.mp3  spoken: where the replacement cartons go and
  the customer's purchase-order number
- day4/SLC-55821_settlement_offer.pdf       text PDF: the carrier's offer, at the old claim figure
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
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")
D = F.damage
W, H, FPS = 320, 240, 8


def font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSansMono.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return ImageFont.truetype(str(FONTS / name), size)


# -- the proof-of-delivery photo ------------------------------------------------------------------
def pod_photo(path: Path) -> None:
    """A phone photo: the POD slip on a clipboard lying on crushed cartons, skewed, noisy, JPEG."""
    rnd = random.Random(3107)
    img = Image.new("RGB", (720, 540), (150, 118, 80))
    d = ImageDraw.Draw(img)
    for k in range(9):  # cartons behind the clipboard
        x, y = (k % 3) * 240, (k // 3) * 180
        d.rectangle((x + 4, y + 4, x + 236, y + 176), fill=(176, 140, 96), outline=(110, 84, 52), width=3)
        d.line((x + 4, y + 90, x + 236, y + 90), fill=(196, 176, 130), width=10)  # tape
    for k in (0, 2, 5):  # dents
        x, y = (k % 3) * 240, (k // 3) * 180
        d.polygon([(x + 30, y + 20), (x + 120, y + 70), (x + 60, y + 150)], fill=(120, 92, 60))
    slip = Image.new("RGB", (470, 420), (246, 244, 236))
    s = ImageDraw.Draw(slip)
    s.text((18, 14), "SwiftLane Freight", font=font(24, bold=True), fill=(20, 60, 130))
    s.text((18, 46), "PROOF OF DELIVERY", font=font(18, bold=True), fill=(30, 30, 30))
    rows = [
        ("Consignment", D.consignment),
        ("Consignee", "Halden Hotels, York"),
        ("Pallets", "1"),
        ("Cartons", str(D.cartons)),
        ("Delivered", "30/05/2025 10:52"),
        ("Received by", "P. LUND"),
    ]
    y = 84
    for k, v in rows:
        s.text((18, y), k, font=font(15), fill=(60, 60, 60))
        s.text((170, y), v, font=font(16, mono=True), fill=(10, 10, 10))
        y += 30
    s.line((18, y + 4, 452, y + 4), fill=(90, 90, 90), width=1)
    s.text((18, y + 12), "Remarks:", font=font(15), fill=(60, 60, 60))
    s.text((120, y + 8), f"{D.crushed} CTNS CRUSHED", font=font(26, bold=True), fill=(25, 35, 140))
    s.text((120, y + 44), "signed under protest", font=font(18), fill=(25, 35, 140))
    s.text((18, y + 86), "Signature:", font=font(15), fill=(60, 60, 60))
    s.line((130, y + 104, 300, y + 92), fill=(25, 35, 140), width=3)
    slip = slip.rotate(4.5, resample=Image.BICUBIC, expand=True, fillcolor=(150, 118, 80))
    img.paste(slip, (120, 40))
    d = ImageDraw.Draw(img)
    for _ in range(2500):
        x, y = rnd.randrange(720), rnd.randrange(540)
        g = rnd.randrange(-40, 40)
        r, gg, b = img.getpixel((x, y))
        d.point((x, y), fill=(max(0, min(255, r + g)), max(0, min(255, gg + g)), max(0, min(255, b + g))))
    img = img.filter(ImageFilter.GaussianBlur(0.7))
    img.save(path, format="JPEG", quality=72, optimize=True)


# -- the Dock 4 CCTV clip ---------------------------------------------------------------------------
def dock_scene(shift: int) -> Image.Image:
    img = Image.new("RGB", (W, H), (58, 62, 66))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 170, W, H), fill=(88, 88, 84))  # dock floor
    d.rectangle((40 - shift, 40, 280 - shift, 200), fill=(196, 198, 202), outline=(40, 40, 40), width=3)  # trailer
    d.line((160 - shift, 40, 160 - shift, 200), fill=(40, 40, 40), width=3)
    d.text((60 - shift, 60), D.trailer, font=font(16, bold=True), fill=(30, 30, 30))
    return img


def seal_closeup(jitter: int) -> Image.Image:
    img = Image.new("RGB", (W, H), (176, 178, 182))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 60, H), fill=(120, 122, 126))  # door bar
    x0, y0 = 70 + jitter, 70 + jitter // 2
    d.rounded_rectangle((x0, y0, x0 + 200, y0 + 90), radius=10, fill=(214, 40, 40), outline=(120, 20, 20), width=3)
    d.text((x0 + 14, y0 + 10), "SWIFTLANE SEAL", font=font(15, bold=True), fill=(255, 255, 255))
    d.text((x0 + 14, y0 + 42), D.seal, font=font(28, mono=True), fill=(255, 255, 255))
    d.line((40, y0 + 45, x0, y0 + 45), fill=(200, 200, 200), width=4)
    return img


def overlay(img: Image.Image, second: int) -> Image.Image:
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 18), fill=(0, 0, 0))
    d.text((4, 2), f"DOCK4 CAM2  29/05/2025 17:42:{10 + second:02d}", font=font(11, mono=True), fill=(235, 235, 235))
    return img


def cctv(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(5 * FPS):
            if i < 2 * FPS:
                img = dock_scene(i * 2)
            elif i < 4 * FPS:
                img = seal_closeup((i % 3) * 2)
            else:
                img = dock_scene(40 + (i - 4 * FPS) * 3)
            overlay(img, i // FPS).save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


# -- the customer's voicemail -------------------------------------------------------------------------
VOICEMAIL = (
    "Hi Ines, it's Petra Lund, receiving manager at Halden Hotels, Tuesday afternoon, about the damaged "
    "towel delivery. For the six replacement cartons: please do not send them to York this time. Send "
    "them to our Leeds laundry hub instead, and put our purchase order number on the delivery note so the "
    "hub can book them in. It is H H, P O, two zero nine three one. Thanks, bye."
)


def voicemail(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "55", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


# -- the settlement letter ----------------------------------------------------------------------------
def settlement_offer(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"Settlement offer {D.carrier_ref}")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, "SwiftLane Freight Ltd - Claims Department")
    c.setFont("Helvetica", 9)
    c.drawString(60, 776, "Unit 9, Crick Logistics Park, Northampton NN6 7GX  -  claims@swiftlane-freight.example")
    y = 740
    c.setFont("Helvetica", 10.5)
    for line in [
        "Date: 5 June 2025",
        "To: Tolland & Reeve Ltd, Daventry distribution centre - fulfilment exceptions",
        "",
        f"Our claim reference: {D.carrier_ref}      Your reference: {D.exception}",
        f"Consignment: {D.consignment} (1 pallet, {D.cartons} cartons), delivered 30/05/2025",
        "",
        "Dear Sir or Madam,",
        "",
        "Following our review of the seal record and the proof of delivery, SwiftLane Freight accepts",
        f"liability for the {D.crushed} cartons noted as crushed on delivery. We offer to settle this claim",
        f"in full at GBP {D.offer} ({D.crushed} cartons at GBP {D.unit_value} per carton, as per the claim",
        "registered on 2 June 2025).",
        "",
        "To accept, reply to this message stating the amount you accept. Payment is made by BACS within",
        "14 days of acceptance. Acceptance closes the claim; it cannot be reopened.",
        "",
        "Yours faithfully,",
        "",
        "Gareth Pryce, Claims Handler, SwiftLane Freight Ltd",
    ]:
        c.drawString(60, y, line)
        y -= 15
    c.save()


def main() -> None:
    for sub in ("day1/pod", "day3/cctv", "day3/voicemail", "day4"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    pod_photo(HERE / "day1/pod" / f"{D.consignment}_POD_photo.jpg")
    cctv(HERE / "day3/cctv/dock4_cam2_2025-05-29_1742.mp4")
    voicemail(HERE / "day3/voicemail/halden_lund_2025-06-03_1612.mp3")
    settlement_offer(HERE / "day4" / f"{D.carrier_ref}_settlement_offer.pdf")


if __name__ == "__main__":
    main()
