"""Regenerate the crisis-comms task's evidence deterministically (the outputs are committed).

    python tasks/content_operation/crisis_comms/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the screenshot and
the video frames), reportlab (the recall notice, a text PDF), espeak-ng + ffmpeg (the CEO's video
statement: libx264 + AAC, one thread, bit-exact flags), csv (the complaints export).

- day1/recall/ceo_statement_kettlepro.mp4       8 s statement; the recall helpline is shown only in
  its lower third (pixels), never spoken or written elsewhere correctly
- day1/recall/recall_notice_BW-R-2025-03.pdf     text PDF: affected batches, hazard, remedy
- day1/social/viral_post_screenshot.png         the viral post: its id and the batch on the kettle's
  base exist only as pixels
- day2/care/complaints_export_2025-10-07.csv    customer care's export: customers' personal data
"""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
R, P = F.recall, F.post
FONTS = Path("/usr/share/fonts/truetype/dejavu")
FPS, SECONDS = 10, 8

SPEECH = (
    "I'm Elaine Brooks, chief executive of Bramblewood. We are recalling some KettlePro kettles "
    "because the base can overheat. Your safety comes first. If your kettle is affected, please stop "
    "using it today and call our recall helpline, shown on screen, for a full refund. I'm sorry."
)


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def frame(i: int) -> Image.Image:
    """A talking-head frame: backdrop, a figure, and a lower third that changes half-way."""
    w, h = 320, 180
    img = Image.new("RGB", (w, h), (58, 74, 92))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, 120), fill=(70, 88, 108))
    d.rectangle((200, 20, 300, 110), fill=(90, 110, 130))  # a window
    sway = (i % 10) - 5 if (i // 10) % 2 == 0 else 5 - (i % 10)
    d.ellipse((130 + sway // 2, 30, 190 + sway // 2, 95), fill=(222, 184, 150))  # head
    d.rectangle((110, 95, 210, 180), fill=(40, 40, 48))  # shoulders
    mouth = 3 if i % 4 < 2 else 7
    d.ellipse((152 + sway // 2, 72, 168 + sway // 2, 72 + mouth), fill=(120, 50, 50))
    d.rectangle((0, 140, w, 180), fill=(250, 250, 250))
    d.rectangle((0, 140, 8, 180), fill=(196, 32, 48))
    if i < FPS * SECONDS // 2:
        d.text((16, 144), "Elaine Brooks", font=font("DejaVuSans-Bold.ttf", 15), fill=(20, 20, 20))
        d.text((16, 162), "Chief Executive, Bramblewood", font=font("DejaVuSans.ttf", 11), fill=(60, 60, 60))
    else:
        d.text((16, 143), "Recall helpline", font=font("DejaVuSans.ttf", 11), fill=(60, 60, 60))
        d.text((16, 157), R.helpline, font=font("DejaVuSans-Bold.ttf", 17), fill=(196, 32, 48))
    return img


def video(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(FPS * SECONDS):
            frame(i).save(Path(tmp) / f"f{i:03d}.png")
        wav = Path(tmp) / "speech.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "175", "-p", "55", "-w", str(wav), SPEECH], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-i", str(wav), "-t", str(SECONDS), "-c:v", "libx264", "-preset", "medium", "-crf", "30",
             "-pix_fmt", "yuv420p", "-threads", "1", "-c:a", "aac", "-ar", "16000", "-ac", "1", "-b:a", "24k",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1",
             str(path)],
            check=True,
        )  # fmt: skip


def recall_notice(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle(f"Product recall notice {R.ref}")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, f"PRODUCT RECALL NOTICE - {R.ref}")
    c.setFont("Helvetica", 10.5)
    y = 760
    for line in [
        "Bramblewood Home Appliances Ltd, Unit 4 Canal Park, Leeds LS11 5QR",
        "Notified to the Office for Product Safety and Standards on 6 October 2025",
        "",
        f"Product: {R.product} electric kettle, model BW-KP17, colours white and sage",
        f"Affected batches: {R.first_batch} to {R.last_batch} inclusive (printed on the underside of the base)",
        "Manufactured: January to March 2025. Sold: February to September 2025, UK only.",
        "",
        "Hazard: the power base can overheat during boiling, with a risk of fire and burns.",
        "Units from other batches are not affected by this fault.",
        "",
        "Remedy: consumers should stop using the product immediately and contact Bramblewood",
        "for a full refund; a courier collects the kettle and base free of charge.",
        "",
        "Consumer contact: the recall helpline announced in the company's statement, and",
        "bramblewood.example/recall",
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()


def screenshot(path: Path) -> None:
    """A phone screenshot of the post: handle, text, the batch on a photo of the base, counts, id."""
    w, h = 400, 420
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, 28), fill=(245, 245, 245))
    d.text((12, 7), "09:41", font=font("DejaVuSans-Bold.ttf", 12), fill=(0, 0, 0))
    d.ellipse((14, 40, 54, 80), fill=(240, 170, 120))
    d.text((64, 42), "Katie B.", font=font("DejaVuSans-Bold.ttf", 14), fill=(15, 15, 15))
    d.text((64, 62), P.handle, font=font("DejaVuSans.ttf", 12), fill=(100, 110, 120))
    body = [
        "my @Bramblewood KettlePro just MELTED on",
        "the worktop this morning!! check the base.",
        "they KNEW about this",
    ]
    for n, line in enumerate(body):
        d.text((14, 92 + n * 18), line, font=font("DejaVuSans.ttf", 13), fill=(15, 15, 15))
    d.rectangle((14, 152, 386, 322), fill=(60, 60, 64))  # the photo: underside of the base
    d.ellipse((104, 170, 296, 306), fill=(150, 150, 155))
    d.ellipse((150, 200, 250, 276), fill=(92, 62, 40))  # scorch
    d.rectangle((118, 286, 282, 314), fill=(235, 235, 225))  # rating label
    d.text((124, 290), f"BW-KP17  BATCH {P.batch}", font=font("DejaVuSansMono.ttf", 12), fill=(20, 20, 20))
    d.text((14, 334), "7:12 AM · 6 Oct 2025 · 1.2M Views", font=font("DejaVuSans.ttf", 12), fill=(100, 110, 120))
    d.text((14, 356), "8.4K Reposts   2,107 Quotes   31K Likes", font=font("DejaVuSans.ttf", 12), fill=(40, 40, 40))
    d.text((14, 388), f"post/{P.id}", font=font("DejaVuSansMono.ttf", 11), fill=(120, 130, 140))
    img.save(path, format="PNG", optimize=True)


def complaints(path: Path) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["name", "email", "phone", "order", "batch", "report"])
    w.writerows(F.complaints.customers)
    path.write_text(buf.getvalue(), encoding="utf-8")


def main() -> None:
    for sub in ("day1/recall", "day1/social", "day2/care"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    video(HERE / "day1/recall" / F.names.video)
    recall_notice(HERE / "day1/recall" / F.names.notice)
    screenshot(HERE / "day1/social" / F.names.screenshot)
    complaints(HERE / "day2/care" / F.names.complaints)


if __name__ == "__main__":
    main()
