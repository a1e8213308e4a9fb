"""Regenerate the newsletter-issue task's evidence deterministically (the outputs are committed).

    python tasks/content_operation/newsletter_issue/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the sponsor's
banners: the claim and the promo code exist only as pixels), reportlab (the spec sheet, a text
PDF), espeak-ng + ffmpeg (the contributor's voice memo, 16 kHz mono MP3).

- day1/sponsor/summitline_banner_142_v1.png     banner v1: the limit rating sold as "Rated to", code v1
- day1/sponsor/summitline_ridge_parka_spec.pdf  text PDF: comfort and limit ratings of the parka
- day1/memo/sam_whitaker_feature_142.mp3        spoken memo: the feature's title, word count, photo credit
- day3/sponsor/summitline_banner_142_v2.png     banner v2: the approved wording, and a new promo code
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
S, FEAT = F.sponsor, F.feature
FONTS = Path("/usr/share/fonts/truetype/dejavu")

MEMO = (
    f"Hi Nadia, it's Sam, for issue one forty two. The feature is called: {FEAT.title}. "
    f"It came in at nine hundred and forty words, after cuts. "
    f"The photo credit must read {FEAT.credit}, she took all three pictures. "
    "Proper copy follows tonight. Cheers."
)


def banner(path: Path, claim: str, promo: str, percent: int) -> None:
    """A 728 x 200 leaderboard banner: mountains, the product, the claim and the offer as pixels."""
    w, h = 728, 200
    img = Image.new("RGB", (w, h), (22, 48, 71))
    d = ImageDraw.Draw(img)
    for i in range(h):  # a dusk sky
        d.line((0, i, w, i), fill=(22 + i // 4, 48 + i // 6, 71 + i // 5))
    d.polygon([(0, 200), (120, 90), (210, 150), (330, 60), (470, 170), (560, 110), (728, 200)], fill=(38, 60, 58))
    d.polygon([(300, 85), (330, 60), (360, 88), (345, 84), (330, 95), (315, 84)], fill=(235, 240, 245))
    big = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 30)
    mid = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 22)
    small = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 15)
    d.text((24, 18), "SUMMITLINE", font=big, fill=(250, 200, 70))
    d.text((24, 56), f"The {S.product}", font=mid, fill=(255, 255, 255))
    d.text((24, 92), claim, font=mid, fill=(255, 255, 255))
    d.rounded_rectangle((470, 120, 712, 182), radius=10, fill=(250, 200, 70))
    d.text((486, 126), f"{percent}% off with code", font=small, fill=(22, 48, 71))
    d.text((486, 148), promo, font=mid, fill=(22, 48, 71))
    d.text((24, 176), "summitline.example/ridge", font=small, fill=(200, 210, 220))
    img.save(path, format="PNG", optimize=True)


def spec_sheet(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle(f"{S.product} - technical specification")
    c.setFont("Helvetica-Bold", 16)
    c.drawString(60, 785, f"{S.company} - {S.product}")
    c.setFont("Helvetica", 10)
    c.drawString(60, 768, "Technical specification, season 2025/26 (for retail and media partners)")
    y = 730
    rows = [
        ("Shell", "40D recycled nylon ripstop, PFC-free DWR"),
        ("Insulation", "650 fill-power responsibly sourced down, 210 g"),
        ("Weight", "690 g (size M)"),
        ("Temperature, comfort rating", f"{S.comfort} °C (EN 13537 method, static wear)"),
        ("Temperature, limit rating", f"{S.limit} °C (survival threshold, not for marketing use)"),
        ("Hood", "helmet-compatible, 3-way adjustable"),
        ("Sizes", "XS - XXL"),
    ]
    for k, v in rows:
        c.setFont("Helvetica-Bold", 10.5)
        c.drawString(60, y, k)
        c.setFont("Helvetica", 10.5)
        c.drawString(260, y, v)
        y -= 20
    y -= 10
    c.setFont("Helvetica", 9.5)
    for line in [
        "Ratings tested by an independent lab, report SL-T-0925. Marketing copy quoting a temperature",
        "must quote the comfort rating. Contact partnerships@summitline.example for imagery.",
    ]:
        c.drawString(60, y, line)
        y -= 14
    c.save()


def voice_memo(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "45", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1",
             "-c:a", "libmp3lame", "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact",
             "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/sponsor", "day1/memo", "day3/sponsor"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    banner(HERE / "day1/sponsor" / F.names.banner_v1, S.claim_v1, S.promo_v1, 15)
    spec_sheet(HERE / "day1/sponsor" / F.names.spec_sheet)
    voice_memo(HERE / "day1/memo" / F.names.memo)
    banner(HERE / "day3/sponsor" / F.names.banner_v2, S.approved_claim, S.promo_v2, 20)


if __name__ == "__main__":
    main()
