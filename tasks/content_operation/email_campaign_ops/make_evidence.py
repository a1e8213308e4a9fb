"""Regenerate the email-campaign task's evidence deterministically (the outputs are committed).

    python tasks/content_operation/email_campaign_ops/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the email proofs:
pixels only), reportlab (the customer's erasure letter, a text PDF), espeak-ng + ffmpeg (the
director's voice note, 16 kHz mono MP3).

- day1/proofs/autumn_vip_preview_proof_v1.png   footer with the postal address but no unsubscribe link
- day2/proofs/autumn_vip_preview_proof_v2.png   footer with both
- day3/voice_notes/darius_approval_2025-10-08.mp3   approval with two conditions (facts.toml [voice_note])
- day3/dsr/erasure_request_C-10037.pdf          the customer's erasure request (facts.toml [erasure])
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
N = F.names
FONTS = Path("/usr/share/fonts/truetype/dejavu")

MEMO = (
    "Hi Elena, it's Darius. The Autumn VIP preview is approved, with two conditions. First, move the send to "
    "eleven o'clock on Thursday, not ten: the site deploy is at ten. Second, leave out anyone whose last order "
    "was on or after the twenty fifth of September; they've just bought, and we don't want to annoy them. "
    "Otherwise good to go. Thanks."
)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def proof(path: Path, with_unsubscribe: bool) -> None:
    w, h = 360, 600
    img = Image.new("RGB", (w, h), (250, 247, 242))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, 50), fill=(46, 64, 52))
    d.text((20, 15), "JUNIPER & ASH", font=font(18, True), fill=(240, 232, 214))
    d.rectangle((20, 70, 340, 250), fill=(196, 150, 96))
    d.text((36, 140), "Autumn VIP Preview", font=font(20, True), fill=(255, 255, 255))
    d.text((36, 172), "Early access from Thursday", font=font(13), fill=(255, 255, 255))
    d.text((20, 270), "As one of our VIPs you get first pick of the", font=font(12), fill=(50, 50, 50))
    d.text((20, 288), "new autumn range, 48 hours before anyone else.", font=font(12), fill=(50, 50, 50))
    d.rounded_rectangle((90, 330, 270, 370), radius=8, fill=(46, 64, 52))
    d.text((130, 341), "Shop the preview", font=font(13, True), fill=(255, 255, 255))
    d.line((20, 470, 340, 470), fill=(210, 200, 190))
    d.text((20, 484), "You're receiving this as a Juniper & Ash VIP customer.", font=font(10), fill=(110, 110, 110))
    d.text((20, 502), "Juniper & Ash Ltd, 14 Loom Street, Bristol BS2 0QT", font=font(10), fill=(110, 110, 110))
    if with_unsubscribe:
        d.text((20, 524), "Unsubscribe  |  Manage preferences", font=font(10, True), fill=(46, 64, 52))
    d.text((250, 576), "PROOF", font=font(12, True), fill=(200, 60, 60))
    img.quantize(colors=48, dither=Image.Dither.NONE).save(path, format="PNG", optimize=True)


def erasure_letter(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle("Erasure request")
    c.setFont("Helvetica", 10.5)
    y = 780
    for line in [
        F.erasure.name,
        "7 Kingsdown Parade, Bristol BS6 5UD",
        "",
        "To: Data Protection Officer, Juniper & Ash Ltd",
        "Date: 6 October 2025",
        "",
        "Request to erase my personal data (UK GDPR, Article 17)",
        "",
        f"I am a customer of Juniper & Ash (customer number {F.erasure.customer}, email {F.erasure.email}).",
        "I ask you to erase the personal data you hold about me and to stop sending me marketing email",
        "of any kind, with immediate effect. Please confirm when this has been done.",
        "",
        "Yours sincerely,",
        "",
        F.erasure.name,
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()


def voice_note(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "30", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for rel in (N.proof_v1, N.proof_v2, N.voice_note, N.erasure_letter):
        target = (HERE / rel).parent
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    proof(HERE / N.proof_v1, with_unsubscribe=False)
    proof(HERE / N.proof_v2, with_unsubscribe=True)
    voice_note(HERE / N.voice_note)
    erasure_letter(HERE / N.erasure_letter)


if __name__ == "__main__":
    main()
