"""Regenerate the support-escalations task's evidence deterministically (the outputs are committed).

    python tasks/ecommerce/support_escalations/make_evidence.py

Authoring-time tools only: Pillow (the video frames and the tracking screenshot), ffmpeg (libx264,
one thread, bit-exact flags; the voicemail as 16 kHz mono MP3), espeak-ng (the voicemail), reportlab
(the approval form, a text PDF).

- day1/recordings/T-4102_checkout_recording.mp4   the customer's screen recording: the error code only in pixels
- day1/screens/claire_tracking.png                the carrier's tracking page: the new delivery date only in pixels
- day2/voicemail/support_line_2026-04-13_2214.mp3 a customer's voicemail: order number and callback time spoken
- day3/approvals/goodwill_approval_GW-2026-031.pdf the Head of CX's signed approval (the approved amount)
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")
W, H, FPS = 480, 270, 5


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def checkout_frame(i: int) -> Image.Image:
    """The checkout page: cart, card form, the Pay button pressed, a spinner, then the error banner."""
    img = Image.new("RGB", (W, H), (248, 248, 246))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 30), fill=(38, 70, 52))
    d.text((10, 7), "FERNHILL OUTDOOR  -  Checkout", font=font(13, bold=True), fill=(255, 255, 255))
    d.text((20, 45), "Trailhead GTX hiking boots, size 39", font=font(12), fill=(30, 30, 30))
    d.text((370, 45), "EUR 149.90", font=font(12), fill=(30, 30, 30))
    d.text((20, 65), "Delivery: standard", font=font(12), fill=(90, 90, 90))
    d.line((20, 88, 460, 88), fill=(200, 200, 200))
    d.text((20, 98), "Card number", font=font(11), fill=(80, 80, 80))
    d.rectangle((20, 114, 300, 136), outline=(160, 160, 160), fill=(255, 255, 255))
    typed = "•••• •••• •••• 4417"[: max(0, min(19, i * 2))]
    d.text((26, 118), typed, font=font(12), fill=(20, 20, 20))
    pressed = i >= 12
    d.rounded_rectangle((320, 110, 460, 140), radius=6, fill=(30, 110, 70) if not pressed else (20, 80, 50))
    d.text((390, 125), "Pay EUR 149.90", font=font(12, bold=True), fill=(255, 255, 255), anchor="mm")
    if 12 <= i < 18:
        cx, cy = 240, 190
        for k in range(8):
            shade = 60 + ((k + i) % 8) * 22
            dx, dy = [(0, -18), (13, -13), (18, 0), (13, 13), (0, 18), (-13, 13), (-18, 0), (-13, -13)][k]
            d.ellipse((cx + dx - 4, cy + dy - 4, cx + dx + 4, cy + dy + 4), fill=(shade, shade, shade))
    if i >= 18:
        d.rectangle((20, 160, 460, 230), fill=(253, 228, 228), outline=(190, 40, 40), width=2)
        d.text((32, 170), "Payment could not be completed.", font=font(13, bold=True), fill=(150, 20, 20))
        d.text(
            (32, 192),
            f"Error {F.rosa.error_code}: session expired. Please try again.",
            font=font(12),
            fill=(120, 20, 20),
        )
    d.ellipse((W - 24, H - 24, W - 12, H - 12), fill=(220, 40, 40))  # the recorder's dot
    d.text((10, H - 20), f"rec 00:{i // FPS:02d}", font=font(10), fill=(120, 120, 120))
    return img


def recording(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(6 * FPS):
            checkout_frame(i).save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def tracking_screenshot(path: Path) -> None:
    img = Image.new("RGB", (420, 300), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 420, 40), fill=(250, 190, 0))
    d.text((12, 10), "ParcelNord  Track & Trace", font=font(16, bold=True), fill=(20, 20, 20))
    d.text((12, 52), f"Shipment for order {F.claire.order}", font=font(13), fill=(40, 40, 40))
    rows = [
        ("06 Apr 18:20", "Shipment received at depot Lyon"),
        ("08 Apr 07:10", "Out for delivery"),
        ("09 Apr 13:45", "Delivery attempt failed - address not found"),
        ("10 Apr 09:00", "Returned to depot, rerouted"),
    ]
    y = 82
    for when, what in rows:
        d.text((12, y), when, font=font(11), fill=(90, 90, 90))
        d.text((110, y), what, font=font(11), fill=(30, 30, 30))
        y += 24
    d.rectangle((12, 190, 408, 240), fill=(235, 244, 255), outline=(90, 130, 200))
    d.text((24, 198), "New expected delivery", font=font(12), fill=(40, 60, 120))
    d.text((24, 216), F.claire.new_eta, font=font(14, bold=True), fill=(20, 40, 110))
    d.text((12, 270), "parcelnord.example/track", font=font(10), fill=(150, 150, 150))
    img.save(path, format="PNG", optimize=True)


VOICEMAIL = (
    "Hello, this is Henrik Lund, about ticket T 4 1 1 7. My order, number F H 8 8 2 1 3, the Fjell tent, "
    "arrived with a cracked tent pole. I am leaving on a hiking trip this Saturday, so I really need a "
    "replacement pole before then. Could someone please call me back on Wednesday at half past eleven in "
    "the morning? Again, order F H 8 8 2 1 3, Wednesday, eleven thirty. Thank you."
)


def voicemail(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "155", "-p", "45", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def approval(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"Goodwill approval {F.claire.approval_ref}")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, "Fernhill Outdoor - Goodwill credit approval")
    c.setFont("Helvetica", 11)
    y = 755
    for line in [
        f"Approval reference: {F.claire.approval_ref}",
        f"Ticket: {F.claire.ticket}        Order: {F.claire.order}",
        "Requested by: Maya Okonkwo, Support Team Lead",
        f"Amount requested by the customer: EUR {F.claire.asked}.00",
        f"Amount approved: EUR {F.claire.approved}.00 (voucher, replaces the EUR {F.claire.credit} already offered)",
        "Reason: parcel lost in rerouting; customer bought a replacement for a weekend trip.",
        "",
        "Approved by: Jonas Berg, Head of Customer Experience",
        "Date: 15/04/2026        Signature: J. Berg",
    ]:
        c.drawString(60, y, line)
        y -= 18
    c.save()


def main() -> None:
    for sub in ("day1/recordings", "day1/screens", "day2/voicemail", "day3/approvals"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    recording(HERE / f"day1/recordings/{F.rosa.ticket}_checkout_recording.mp4")
    tracking_screenshot(HERE / "day1/screens/claire_tracking.png")
    voicemail(HERE / "day2/voicemail/support_line_2026-04-13_2214.mp3")
    approval(HERE / f"day3/approvals/goodwill_approval_{F.claire.approval_ref}.pdf")


if __name__ == "__main__":
    main()
