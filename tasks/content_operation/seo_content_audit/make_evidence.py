"""Regenerate the SEO content audit's evidence deterministically (the outputs are committed).

    python tasks/content_operation/seo_content_audit/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the Search Console
screenshot: pixels only, no text layer), reportlab (the crawler's text PDF), espeak-ng + ffmpeg
(the editor-in-chief's voice note, 16 kHz mono MP3).

- day1/search-console/gsc_hiking_pages_q3.png          screenshot: clicks of the hiking pages, the
  only source for the three pages that lost their analytics tag (facts.toml [search_console])
- day3/voice_notes/tom_reyes_signoff_2025-10-08.mp3    spoken sign-off: one merge vetoed, one prune
  turned into a refresh (facts.toml [voice_note])
- day4/crawl/siteprobe_redirect_check_2025-10-09.pdf   crawl of the deployed redirects (facts.toml [crawl])
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
N = F.names
FONTS = Path("/usr/share/fonts/truetype/dejavu")

MEMO = (
    "Hi Hana, it's Tom. I'm stuck on a train outside Preston, so here is my sign-off for the hiking "
    "audit instead of the meeting. The merges are approved, with one exception: trekking pole basics "
    "stays as it is. Keep it. It is part of the Alpenstock partner campaign until March, so no redirect "
    "for that one. The prunes are fine too, except the Pembrokeshire Coast Path piece. The county "
    "tourism partnership renews in the spring, so don't prune it: mark it for a refresh instead. "
    "Everything else as you proposed. Lena can deploy the approved redirects tonight. Thanks."
)


def screenshot(path: Path) -> None:
    """A browser screenshot of Search Console's Performance report, filtered to /hiking/."""
    w, h = 1000, 640
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    reg = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 14)
    small = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 12)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 17)
    d.rectangle((0, 0, w, 48), fill=(241, 243, 244))
    d.text((20, 14), "Search Console   |   Performance on Search results", font=bold, fill=(60, 64, 67))
    d.text((20, 60), "Search type: Web    Date: Last 3 months    Page: URLs containing /hiking/", font=reg,
           fill=(95, 99, 104))  # fmt: skip
    total_clicks = sum(r[1] for r in F.search_console.rows)
    total_impr = sum(r[2] for r in F.search_console.rows)
    for i, (label, value, colour) in enumerate(
        [("Total clicks", f"{total_clicks:,}", (66, 133, 244)), ("Total impressions", f"{total_impr:,}", (94, 53, 177))]
    ):
        x = 20 + i * 230
        d.rectangle((x, 90, x + 215, 150), fill=colour)
        d.text((x + 12, 98), label, font=small, fill=(255, 255, 255))
        d.text((x + 12, 118), value, font=bold, fill=(255, 255, 255))
    # the click chart: a seeded wiggle, for looks only
    rnd = random.Random(2025)
    pts, y = [], 230.0
    for i in range(92):
        y = min(270, max(180, y + rnd.uniform(-9, 9)))
        pts.append((30 + i * 10, int(y)))
    d.line((30, 280, 940, 280), fill=(218, 220, 224), width=1)
    d.line(pts, fill=(66, 133, 244), width=2)
    d.text((30, 286), "Jul", font=small, fill=(128, 134, 139))
    d.text((330, 286), "Aug", font=small, fill=(128, 134, 139))
    d.text((640, 286), "Sep", font=small, fill=(128, 134, 139))
    top = 320
    d.text((20, top), "PAGES", font=bold, fill=(26, 115, 232))
    d.line((20, top + 26, 980, top + 26), fill=(26, 115, 232), width=2)
    cols = [(20, "Top pages"), (560, "Clicks"), (660, "Impressions"), (790, "CTR"), (880, "Position")]
    for x, head in cols:
        d.text((x, top + 36), head, font=small, fill=(95, 99, 104))
    yy = top + 60
    for slug, clicks, impr, ctr, pos in F.search_console.rows:
        d.line((20, yy - 4, 980, yy - 4), fill=(232, 234, 237))
        d.text((20, yy), f"https://www.wayfarerridge.example/hiking/{slug}/", font=reg, fill=(32, 33, 36))
        for x, text in ((560, f"{clicks:,}"), (660, f"{impr:,}"), (790, ctr), (880, pos)):
            d.text((x, yy), text, font=reg, fill=(32, 33, 36))
        yy += 30
    img = img.quantize(colors=32, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    img.save(path, format="PNG", optimize=True)


def crawl_report(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=landscape(A4), invariant=1)  # invariant: byte-identical output
    c.setTitle("SiteProbe redirect check")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(40, 550, "SiteProbe - Redirect check")
    c.setFont("Helvetica", 10)
    c.drawString(40, 532, "Site: www.wayfarerridge.example    Crawl started 2025-10-09 06:40 BST    List mode: 8 URLs")
    c.drawString(40, 518, "Requested by: Lena Vogt (web)    Follow redirects: yes    User agent: SiteProbe/4.2")
    rows = []
    for src, dst in F.crawl.ok:
        rows.append((f"/hiking/{src}", "301", "1", f"/hiking/{dst}", "200", "OK"))
    for src, dst in F.crawl.wrong_code:
        rows.append((f"/hiking/{src}", "302", "1", f"/hiking/{dst}", "200", "Temporary redirect"))
    for src, dst in F.crawl.chained:
        rows.append((f"/hiking/{src}", "301", "2", f"/hiking/{dst}", "200",
                     f"Chain: via /hiking/{F.chain.old_to} (302)"))  # fmt: skip
    rows += [
        ("/hiking/helvellyn-guide-2018", "301", "1", "/hiking/helvellyn-striding-edge-guide", "200", "OK"),
        ("/hiking/snowdon-routes-overview", "301", "1", "/hiking/snowdon-pyg-track", "200", "OK"),
        ("/camping/wild-campsites-2018", "301", "1", "/camping/wild-campsites", "200", "OK"),
        ("/cycling/canal-routes-2019", "301", "1", "/cycling/canal-routes", "200", "OK"),
    ]
    y = 486
    heads = [(40, "Source URL"), (265, "First status"), (345, "Hops"), (390, "Final URL"), (620, "Final status"),
             (700, "Remark")]  # fmt: skip
    c.setFont("Helvetica-Bold", 9.5)
    for x, head in heads:
        c.drawString(x, y, head)
    c.setFont("Helvetica", 9.5)
    for row in rows:
        y -= 18
        for (x, _), text in zip(heads, row):
            c.drawString(x, y, text)
    y -= 36
    c.setFont("Helvetica", 9)
    c.drawString(40, y, "Status 301 = permanent, 302 = temporary. Hops = redirects followed before the final URL.")
    c.drawString(40, y - 14, "Report generated by SiteProbe 4.2 - page 1 of 1")
    c.save()


def voice_note(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "35", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for rel in (N.screenshot, N.voice_note, N.crawl_report):
        target = (HERE / rel).parent
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    screenshot(HERE / N.screenshot)
    voice_note(HERE / N.voice_note)
    crawl_report(HERE / N.crawl_report)


if __name__ == "__main__":
    main()
