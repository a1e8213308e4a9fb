"""Regenerate the vendor-cutover task's evidence deterministically (the outputs are committed).

    python tasks/pm/vendor_cutover/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the status-page
screenshot and the video frames, rendered to pixels: no text layer), ffmpeg (libx264, one thread,
bit-exact flags), reportlab (the text PDFs of the reconciliation reports).

- day1/status/cirrusdesk_status_2026-03-09.png  the vendor's status page: the incident reference and
  the estimated resolution of the bulk-import incident exist only here
- day2/recordings/attachment_sync_trial_2026-03-10.mp4  a 7 s screen recording of the sync console:
  the job ID, the rejected count and customer records exist only here
- day3/reconciliation/reconciliation_run1_2026-03-11.pdf  text PDF: run 1 (attachments short)
- day4/reconciliation/reconciliation_run2_2026-03-12.pdf  text PDF: run 2 (every object matches)
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
N, INC, SYNC = F.names, F.incident, F.sync
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def status_page(path: Path) -> None:
    """A browser screenshot of status.cirrusdesk.example: components, then the incident card."""
    w, h = 900, 560
    img = Image.new("RGB", (w, h), (246, 247, 249))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, 34), fill=(222, 224, 228))
    d.rounded_rectangle((90, 7, 700, 27), radius=8, fill=(255, 255, 255))
    d.text((104, 10), "https://status.cirrusdesk.example", font=font("DejaVuSans.ttf", 12), fill=(80, 80, 80))
    d.text((40, 52), "Cirrusdesk Status", font=font("DejaVuSans-Bold.ttf", 24), fill=(30, 40, 60))
    d.rectangle((40, 96, 860, 132), fill=(255, 170, 40))
    d.text(
        (54, 104),
        "Partial outage: some systems are affected",
        font=font("DejaVuSans-Bold.ttf", 16),
        fill=(255, 255, 255),
    )
    comps = [
        ("Agent workspace (all regions)", "Operational", (40, 150, 80)),
        ("Email channel (all regions)", "Operational", (40, 150, 80)),
        ("Bulk Import API - EU-1", "Operational", (40, 150, 80)),
        (f"Bulk Import API - {INC.region}", "Major outage", (210, 60, 40)),
        ("Reporting", "Operational", (40, 150, 80)),
    ]
    y = 148
    for name, state, colour in comps:
        d.rectangle((40, y, 860, y + 30), fill=(255, 255, 255), outline=(225, 225, 230))
        d.text((54, y + 7), name, font=font("DejaVuSans.ttf", 14), fill=(40, 40, 40))
        d.text((700, y + 7), state, font=font("DejaVuSans-Bold.ttf", 14), fill=colour)
        y += 30
    y += 22
    d.rectangle((40, y, 860, y + 190), fill=(255, 255, 255), outline=(210, 60, 40), width=2)
    d.text(
        (56, y + 12),
        f"{INC.id}  Bulk imports paused in {INC.region}",
        font=font("DejaVuSans-Bold.ttf", 17),
        fill=(160, 30, 20),
    )
    lines = [
        "Identified - Mar 09, 2026 06:42 UTC",
        f"Bulk imports for tenants hosted in {INC.region} are paused while we replace a failed",
        "storage node. Agent workspaces and email are not affected. Queued imports are kept.",
        "",
        "Estimated resolution: Mar 10, 2026 15:00 UTC",
        "Next update: Mar 09, 2026 16:00 UTC",
    ]
    yy = y + 46
    for line in lines:
        bold = line.startswith("Estimated")
        d.text((56, yy), line, font=font("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", 14), fill=(40, 40, 40))
        yy += 22
    d.text(
        (40, h - 28),
        "Subscribe to updates  -  Powered by Cirrusdesk",
        font=font("DejaVuSans.ttf", 11),
        fill=(130, 130, 130),
    )
    img = img.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    img.save(path, format="PNG", optimize=True)


def console_frame(lines: list[tuple[str, tuple[int, int, int]]], progress: float) -> Image.Image:
    w, h = 640, 360
    img = Image.new("RGB", (w, h), (18, 20, 24))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, 22), fill=(48, 52, 60))
    d.text((8, 4), "TicketHub -> Cirrusdesk migration console", font=font("DejaVuSans.ttf", 11), fill=(210, 210, 210))
    mono = font("DejaVuSansMono.ttf", 13)
    y = 34
    for text, colour in lines:
        d.text((12, y), text, font=mono, fill=colour)
        y += 19
    d.rectangle((12, 318, 628, 336), outline=(120, 120, 120))
    d.rectangle((14, 320, 14 + int(612 * progress), 334), fill=(70, 160, 90) if progress < 1 else (200, 70, 60))
    return img


def sync_recording(path: Path) -> None:
    """Seven seconds at 2 frames/s: the sync runs, fails, and the rejected rows are listed."""
    grey, white, red, amber = (170, 170, 170), (230, 230, 230), (235, 90, 80), (230, 180, 70)
    head = [
        (f"$ migrate sync --object attachments --job {SYNC.job}", white),
        (f"[02:14:07] job {SYNC.job} started (attachments, {SYNC.total:,} records)", grey),
    ]
    mails = ["j.moreau@brightfield.example", "a.kowalczyk@northpier.example", "s.adeyemi@holloway.example"]
    fail = [
        (f"[02:51:40] job {SYNC.job} FAILED", red),
        (f"  {SYNC.rejected:,} of {SYNC.total:,} records rejected: {SYNC.error}", red),
        ("  first rejected rows:", amber),
        *[
            (f"    {c}  {m}  ref=fs-legacy/{i}", amber)
            for i, (c, m) in enumerate(zip(SYNC.customers, mails), start=2017)
        ],
        ("  see job log for the full list", grey),
    ]
    frames = []
    for step in range(6):
        done = int(SYNC.total * step / 8)
        frames.append(
            console_frame([*head, (f"[02:{20 + step * 5}:00] {done:,} / {SYNC.total:,} processed", grey)], step / 8)
        )
    frames += [console_frame([*head, *fail], 1.0)] * 8
    with tempfile.TemporaryDirectory() as tmp:
        for i, frame in enumerate(frames):
            frame.save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", "2", "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "24", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def reconciliation_report(path: Path, run: int, day: str, rows: list[list]) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle(f"Reconciliation report run {run}")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, f"MigrateKit reconciliation report - run {run}")
    c.setFont("Helvetica", 10)
    c.drawString(
        60, 772, f"Source: TicketHub 4 (Larkspur Logistics)   Target: Cirrusdesk tenant larkspur-{INC.region.lower()}"
    )
    c.drawString(60, 757, f"Generated {day} 06:05 UTC   Scope: all migrated objects")
    c.setFont("Helvetica-Bold", 10)
    y = 720
    for x, head in ((60, "Object"), (230, "Source records"), (350, "Target records"), (470, "Check")):
        c.drawString(x, y, head)
    c.setFont("Helvetica", 10)
    for obj, legacy, new in rows:
        y -= 18
        c.drawString(60, y, obj)
        c.drawRightString(320, y, f"{legacy:,}")
        c.drawRightString(440, y, f"{new:,}")
        c.drawString(470, y, "match" if legacy == new else "MISMATCH")
    y -= 40
    c.drawString(60, y, "Counts are records present and readable in each system at report time.")
    c.drawString(60, y - 15, "This report does not judge whether the cutover may proceed.")
    c.save()


def main() -> None:
    for sub in ("day1/status", "day2/recordings", "day3/reconciliation", "day4/reconciliation"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    status_page(HERE / "day1" / N.status_png)
    sync_recording(HERE / "day2" / N.recording)
    reconciliation_report(HERE / "day3" / N.recon_run1, 1, "2026-03-11", F.recon.run1)
    reconciliation_report(HERE / "day4" / N.recon_run2, 2, "2026-03-12", F.recon.run2)


if __name__ == "__main__":
    main()
