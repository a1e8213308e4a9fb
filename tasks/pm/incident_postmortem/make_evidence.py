"""Regenerate the incident-postmortem task's evidence deterministically (the outputs are committed).

    python tasks/pm/incident_postmortem/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (the text PDF),
Pillow (the dashboard screenshot and the frames of the screen recording), espeak-ng + ffmpeg (the
on-call engineer's voice note, 16 kHz mono MP3; the recording, libx264 with bit-exact flags).

- day1/pager/INC-5183_pager_log.pdf             text PDF: first page and SEV-1 declaration times
- day1/dashboards/checkout_5xx_2026-03-06.png   image: the 5xx graph, its peak and the return to baseline
- day1/voice/owen_2026-03-06_1740.mp3           spoken: the root-cause change id and the rollback decision
- day1/recordings/deploy_console_rollback.mp4   video: the rollback job and the time it completed
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
I = F.incident  # noqa: E741 - the incident's facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, *, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSansMono.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return ImageFont.truetype(str(FONTS / name), size)


def minutes(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


# -- the pager log (text PDF) ---------------------------------------------------------------------
PAGES = [
    (f"{I.detected}:31", "TRIGGERED", "checkout-api HTTP 5xx rate > 5% (prod fleet) - paged primary on-call"),
    ("14:09:02", "ACKNOWLEDGED", "Owen Achebe (SRE primary)"),
    (f"{I.declared}:40", "DECLARED", f"{I.id} SEV-1 'Checkout API 5xx' declared by Owen Achebe"),
    ("14:15:05", "BRIDGE", "incident bridge opened, Ravi Menon joined 14:19"),
    ("14:41:10", "STATUSPAGE", "public status page: 'Investigating elevated checkout errors'"),
    ("15:29:55", "RESOLVED", "alert auto-resolved (5xx rate below 5% for 15 minutes)"),
]


def pager_log(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"{I.id} pager log")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, f"Fernhill on-call - incident log export - {I.id}")
    c.setFont("Helvetica", 9.5)
    c.drawString(
        60, 774, "Service: checkout-api (prod)   Date: Friday 6 March 2026   Times: UTC   Exported by O. Achebe"
    )
    y = 740
    c.setFont("Helvetica-Bold", 10)
    for x, head in ((60, "Time (UTC)"), (140, "Event"), (240, "Detail")):
        c.drawString(x, y, head)
    c.setFont("Helvetica", 9.5)
    for when, what, detail in PAGES:
        y -= 18
        c.drawString(60, y, when)
        c.drawString(140, y, what)
        c.drawString(240, y, detail)
    y -= 36
    for line in [
        "Notes",
        "- Only the prod fleet alarm paged. The canary pool has its own alarm (threshold 10% 5xx), which did not fire.",
        "- Rollback details: see the deploy console (job log) and the on-call engineer's notes.",
        "- This export lists paging events only; it is not the incident timeline.",
    ]:
        c.drawString(60, y, line)
        y -= 15
    c.save()


# -- the dashboard screenshot (an image, no text layer) -------------------------------------------
T0, T1 = minutes("13:30"), minutes("16:00")


def error_rate(t: int) -> float:
    """The prod fleet's 5xx rate (percent) at minute ``t``: the shape the screenshot shows."""
    start, peak_at, rb, done, end = (
        minutes("13:59"),
        minutes("14:41"),
        minutes(I.rollback_started),
        minutes(I.rollback_done),
        minutes(I.end),
    )
    peak = float(I.peak)
    if t < start:
        return 0.3
    if t <= peak_at:
        return 0.3 + (peak - 0.3) * ((t - start) / (peak_at - start)) ** 1.4
    if t <= rb:
        return peak - 6.0 * (t - peak_at) / (rb - peak_at) - (1.5 if t % 4 == 0 else 0.0)
    if t <= done:
        return (peak - 6.0) - (peak - 9.0) * (t - rb) / (done - rb)
    if t <= end:
        return 3.0 - 2.7 * (t - done) / (end - done)
    return 0.3


def screenshot(path: Path) -> None:
    w, h = 900, 460
    img = Image.new("RGB", (w, h), (24, 27, 33))
    d = ImageDraw.Draw(img)
    d.text(
        (20, 14),
        "checkout-api  ·  HTTP 5xx rate  ·  prod fleet (canary excluded)",
        font=font(17, bold=True),
        fill=(220, 224, 230),
    )
    d.text((20, 40), "Fri 6 Mar 2026  13:30 - 16:00 UTC   ·   1-minute resolution", font=font(13), fill=(150, 156, 168))
    left, right, top, bottom = 70, 870, 80, 400
    d.rectangle((left, top, right, bottom), outline=(60, 64, 72))

    def x(t: float) -> float:
        return left + (right - left) * (t - T0) / (T1 - T0)

    def y(v: float) -> float:
        return bottom - (bottom - top) * v / 40.0

    for v in range(0, 41, 10):
        d.line((left, y(v), right, y(v)), fill=(45, 49, 56))
        d.text((28, y(v) - 8), f"{v}%", font=font(12), fill=(150, 156, 168))
    for t in range(T0, T1 + 1, 30):
        d.line((x(t), bottom, x(t), bottom + 5), fill=(150, 156, 168))
        d.text((x(t) - 18, bottom + 8), f"{t // 60:02d}:{t % 60:02d}", font=font(12), fill=(150, 156, 168))
    d.line((left, y(5), right, y(5)), fill=(200, 90, 60), width=1)
    d.text((right - 110, y(5) - 18), "alert 5%", font=font(12), fill=(200, 90, 60))
    points = [(x(t), y(error_rate(t))) for t in range(T0, T1 + 1)]
    d.line(points, fill=(110, 190, 255), width=2)
    pk = minutes("14:41")
    d.ellipse((x(pk) - 5, y(float(I.peak)) - 5, x(pk) + 5, y(float(I.peak)) + 5), outline=(255, 210, 80), width=2)
    d.text(
        (x(pk) + 12, y(float(I.peak)) - 20), f"max {I.peak}%  (14:41)", font=font(13, bold=True), fill=(255, 210, 80)
    )
    e = minutes(I.end)
    for yy in range(top, bottom, 8):
        d.line((x(e), yy, x(e), yy + 4), fill=(120, 220, 140))
    d.text((x(e) + 6, top + 60), f"back at baseline {I.end}", font=font(13, bold=True), fill=(120, 220, 140))
    d.text((20, 430), "Grafana · payments-prod · panel 7 of 12", font=font(11), fill=(110, 116, 128))
    img = img.quantize(colors=32, dither=Image.Dither.NONE)
    img.save(path, format="PNG", optimize=True)


# -- the voice note (audio) -----------------------------------------------------------------------
CHANGE_SPOKEN = " ".join(I.change.replace("-", ""))  # "C H G 2 2 9 1"
NOTE = (
    f"Hi Nadia, it's Owen, Friday evening, on the way home, about the checkout incident. "
    f"For the postmortem: the trigger was config change {CHANGE_SPOKEN}, "
    "the push that lowered the payments database connection pool. "
    "I made the call to roll back at fifteen oh two, that's when I started the rollback from the deploy console. "
    "The recording of the console is in the folder, it has the job number and when it finished. "
    "The dashboard screenshot has the peak. Ravi will write up the details on Monday. Cheers."
)


def voice_note(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "note.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "45", "-w", str(wav), NOTE], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


# -- the screen recording (video) -----------------------------------------------------------------
CONSOLE = [
    "$ deployctl rollback checkout-api --env prod --to release 2026.03.06-2",
    f"[{I.rollback_started}:14 UTC] rollback {I.rollback_job} created",
    f"[{I.rollback_started}:20 UTC] draining canary pool ... ok",
    "[15:04:51 UTC] wave 1/3  (34 pods) ... ok",
    "[15:07:33 UTC] wave 2/3  (34 pods) ... ok",
    f"[{I.rollback_done}:37 UTC] wave 3/3  (33 pods) ... ok",
    f"[{I.rollback_done}:37 UTC] {I.rollback_job} COMPLETED - 101/101 pods on 2026.03.06-2",
]
FPS = 2


def console_frame(lines: int) -> Image.Image:
    img = Image.new("RGB", (640, 360), (12, 14, 18))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 640, 26), fill=(40, 44, 52))
    d.text((10, 5), "deploy-console  —  payments-prod", font=font(13), fill=(200, 204, 210))
    for i, line in enumerate(CONSOLE[:lines]):
        colour = (120, 220, 140) if "COMPLETED" in line else (210, 214, 220)
        d.text((12, 44 + i * 26), line, font=font(12, mono=True), fill=colour)
    return img


def recording(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(8 * FPS):
            console_frame(min(len(CONSOLE), 1 + i // 2)).save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/pager", "day1/dashboards", "day1/voice", "day1/recordings"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    pager_log(HERE / "day1/pager/INC-5183_pager_log.pdf")
    screenshot(HERE / "day1/dashboards/checkout_5xx_2026-03-06.png")
    voice_note(HERE / "day1/voice/owen_2026-03-06_1740.mp3")
    recording(HERE / "day1/recordings/deploy_console_rollback.mp4")


if __name__ == "__main__":
    main()
