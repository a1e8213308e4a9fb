"""Regenerate the release-readiness task's evidence deterministically (the outputs are committed).

    python tasks/pm/release_readiness/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the burndown chart
and the video frames), ffmpeg (libx264, one thread, bit-exact flags), reportlab (text PDF).

- day1/burndown/sprint_5-2-S3_burndown.png  the sprint burndown: the points left today are only
  written on the chart
- day1/recordings/LL-2291_export_crash.mp4  a 5 s screen recording of the CSV export crashing:
  the build and the error code appear only in its frames
- day3/qa/QA_signoff_5.2.0-rc4.pdf          text PDF: QA's signed sign-off of the fixed candidate
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
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")
ACTUAL = [38, 36, 33, 31, 27, 22, 18, 13, 9, F.burndown.remaining]  # points left, day 1..10 of the sprint
FPS = 5


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def burndown(path: Path) -> None:
    w, h, left, top, right, bottom = 640, 400, 60, 50, 610, 340
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((left, 14), "Sprint 5.2-S3 burndown (story points)", font=font(17, True), fill=(30, 30, 30))
    top_pts = 40
    for pts in range(0, top_pts + 1, 10):
        y = bottom - (bottom - top) * pts / top_pts
        d.line((left, y, right, y), fill=(225, 225, 225))
        d.text((left - 30, y - 8), str(pts), font=font(12), fill=(90, 90, 90))
    xs = [left + (right - left) * i / 11 for i in range(12)]
    d.line((xs[0], bottom - (bottom - top) * 38 / top_pts, xs[11], bottom), fill=(170, 170, 170), width=2)  # ideal
    pts = [(xs[i], bottom - (bottom - top) * v / top_pts) for i, v in enumerate(ACTUAL)]
    d.line(pts, fill=(30, 110, 200), width=3)
    for x, y in pts:
        d.ellipse((x - 4, y - 4, x + 4, y + 4), fill=(30, 110, 200))
    x, y = pts[-1]
    d.text((x - 20, y - 34), f"{F.burndown.remaining} pts", font=font(15, True), fill=(200, 60, 30))
    for i in range(12):
        d.text((xs[i] - 8, bottom + 8), f"D{i + 1}", font=font(11), fill=(90, 90, 90))
    d.text(
        (left, bottom + 30),
        "blue: remaining   grey: ideal   today = D10 (Mon 13 Oct)",
        font=font(12),
        fill=(90, 90, 90),
    )
    img.save(path, format="PNG", optimize=True)


def frame(step: int) -> Image.Image:
    """One frame of the screen recording: the Ledgerline export screen, then the crash dialog."""
    img = Image.new("RGB", (480, 300), (244, 246, 250))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 480, 28), fill=(32, 48, 80))
    d.text((10, 6), f"Ledgerline  {F.release.rc_broken}  (staging)", font=font(13, True), fill=(255, 255, 255))
    d.text((14, 40), "Invoices  >  Export CSV", font=font(14, True), fill=(40, 40, 40))
    d.text((14, 66), "Customer: Olsen Bakeries (ACC-10217)", font=font(12), fill=(60, 60, 60))
    d.text((14, 84), "Period: 2025-07-01 .. 2025-09-30", font=font(12), fill=(60, 60, 60))
    d.rectangle((14, 110, 300, 130), outline=(120, 120, 120))
    progress = min(step, 12) / 12
    d.rectangle((15, 111, 15 + int(284 * progress), 129), fill=(60, 150, 90))
    d.text((310, 112), f"{int(progress * 100)} %", font=font(12), fill=(60, 60, 60))
    d.ellipse((200 + 8 * (step % 5), 200, 212 + 8 * (step % 5), 212), fill=(20, 20, 20))  # the mouse pointer moving
    if step >= 14:
        d.rectangle((60, 140, 420, 270), fill=(255, 255, 255), outline=(190, 40, 40), width=3)
        d.text((76, 152), "Export failed", font=font(16, True), fill=(190, 40, 40))
        d.text((76, 184), f"Error {F.bug.error_code}: invalid byte sequence", font=font(13), fill=(40, 40, 40))
        d.text((76, 204), "in column customer_name (row 213)", font=font(13), fill=(40, 40, 40))
        d.text((76, 238), "[ OK ]", font=font(13, True), fill=(40, 40, 40))
    return img


def recording(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(25):
            frame(i).save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def qa_signoff(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"QA sign-off {F.release.rc_fixed}")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, f"Quarry Labs QA - release sign-off, Ledgerline {F.release.rc_fixed}")
    c.setFont("Helvetica", 10.5)
    y = 760
    for line in [
        "Date: 15 October 2025          Environment: staging-eu (production data shape)",
        "",
        f"Regression suite: {F.qa.passed} of {F.qa.total} tests passed (0 failed, 0 skipped).",
        f"{F.bug.key} (CSV export, non-ASCII names): fix verified on {F.release.rc_fixed}; export of 3 test tenants OK.",
        "LL-2288 (tooltip typo): open, minor, accepted for 5.2.1.",
        "Performance: invoice list p95 410 ms (budget 500 ms).",
        "",
        f"QA recommendation: GO for {F.release.version} with build {F.release.rc_fixed}.",
        "",
        "Signed: Mina Castell, QA lead",
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()


def main() -> None:
    for sub in ("day1/burndown", "day1/recordings", "day3/qa"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    burndown(HERE / "day1/burndown/sprint_5-2-S3_burndown.png")
    recording(HERE / f"day1/recordings/{F.bug.key}_export_crash.mp4")
    qa_signoff(HERE / f"day3/qa/QA_signoff_{F.release.rc_fixed}.pdf")


if __name__ == "__main__":
    main()
