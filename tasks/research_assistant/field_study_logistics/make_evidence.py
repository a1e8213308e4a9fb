"""Regenerate the field-study-logistics task's evidence deterministically (the outputs are committed).

    python tasks/research_assistant/field_study_logistics/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs and the
wrapper of the scanned notice), Pillow (the scan, the sample-board photo and the video frames, all
rendered to pixels with no text layer), ffmpeg (libx264, one thread, bit-exact flags; 16 kHz mono
MP3) and espeak-ng (the PI's dictated voice note).

- day1/attachments/fenwick_field_plan_2026-06.pdf   text PDF: the PI's plan of visits V-201..V-205
- day1/attachments/FM-2026-031_permit.pdf           text PDF: the research permit and conditions C1-C8
- day2/permits/FM-2026-031_amendment_A1.pdf         image-only PDF: the Authority's amendment closing S4
  (the closure dates and the nest's grid reference are only in its pixels)
- day3/S2_access_recce.mp4                          6 s clip: the Gate B footbridge is closed, access via Gate C
- day4/V-201_sample_board.jpg                       photo: the sample board with the GPS camera stamp
- day5/voice_notes/birch_2026-06-05_0731.mp3        the PI's voice note: next week's changes
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
from datetime import date
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")
P = F.permit


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def long_date(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d:%A} {d.day} {d:%B %Y}"


def field_plan(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("Fenwick Marsh field plan 1-12 June 2026")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(50, 795, "Wetland Ecology Group - Fenwick Marsh field plan, 1-12 June 2026")
    c.setFont("Helvetica", 10)
    c.drawString(50, 778, f"Prof. Samuel Birch, PI  -  permit {P.number}  -  all visits 09:00-15:00 on site")
    y = 745
    heads = ((50, "Visit"), (95, "Date"), (205, "Site"), (300, "Purpose"), (430, "Driver"), (505, "Kit"))
    c.setFont("Helvetica-Bold", 9.5)
    for x, h in heads:
        c.drawString(x, y, h)
    for vid in sorted(F.visits):
        v = F.visits[vid]
        if vid == "V-206":
            continue  # added later by the voice note
        y -= 17
        c.setFont("Helvetica", 9.5)
        d = date.fromisoformat(v.date)
        site = F.sites[v.site]
        row = (vid, f"{d:%a} {d.day} {d:%b}", f"{v.site} {site.name}", v.purpose, v.driver, ", ".join(v.equipment))
        for (x, _), text in zip(heads, row):
            c.drawString(x, y, text)
        y -= 13
        c.setFont("Helvetica-Oblique", 9)
        c.drawString(95, y, "Team: " + "; ".join(v.team))
    y -= 30
    c.setFont("Helvetica", 10)
    for line in [
        "Notes:",
        "- Water chemistry needs the multiparameter sonde and the handheld GPS; Jonah holds the kit list.",
        "- Samples are labelled W-31xx; photograph the sample board with the GPS camera before leaving.",
        "- Ruth: please put these in the field log and the calendar, and check them against the permit.",
        "",
        "Samuel",
    ]:
        c.drawString(50, y, line)
        y -= 15
    c.save()


CONDITIONS = [
    ("C1", f"Sites covered: {', '.join(f'{s} {F.sites[s].name}' for s in P.covered)}. Any other site needs a variation of this permit."),
    ("C2", f"The permit is valid from {P.valid_from} to {P.valid_to}."),
    ("C3", "Fieldwork between 07:00 and 19:00 only; no night work."),
    ("C4", f"No more than {P.max_team} persons on site per visit."),
    ("C5", "Vehicles park at the numbered access gates only."),
    ("C6", f"Site S4 {F.sites.S4.name}: approach from Gate D along the boardwalk only."),
    ("C7", "Locations of Schedule 1 bird nests and survey positions are confidential to the permit holder's team and the Authority."),
    ("C8", "Each Friday by 12:00 the permit holder mails the Authority warden the next week's visits "
           "(CSV: visit_id, date, site, team_size; subject: permit number, 'visit notification week', ISO week number)."),
]  # fmt: skip


def permit(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"Research permit {P.number}")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(50, 795, P.authority.upper())
    c.setFont("Helvetica", 10)
    c.drawString(50, 778, "Fenwick Marsh National Nature Reserve  -  Research and survey permits")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(50, 745, f"Research permit {P.number}")
    c.setFont("Helvetica", 10)
    y = 725
    for line in [
        "Permit holder: Prof. Samuel Birch, Wetland Ecology Group, Harrowgate University",
        "Purpose: water chemistry, vegetation and invertebrate monitoring, breeding bird transects",
        "Issued: 24 March 2026 by Ian Drummond, Senior Warden",
        "",
        "Conditions",
    ]:
        c.drawString(50, y, line)
        y -= 15
    for cid, text in CONDITIONS:
        y -= 4
        c.setFont("Helvetica-Bold", 10)
        c.drawString(50, y, cid)
        c.setFont("Helvetica", 10)
        words, line = text.split(), ""
        for w in words:
            if len(line) + len(w) > 88:
                c.drawString(80, y, line)
                y -= 14
                line = ""
            line = f"{line} {w}".strip()
        c.drawString(80, y, line)
        y -= 14
    y -= 20
    c.drawString(50, y, "The Authority may amend these conditions at any time by written notice to the permit holder.")
    c.save()


def amendment_scan(path: Path) -> None:
    """The Authority's amendment notice, printed, signed and scanned: a grey raster page."""
    w, h = 850, 1100
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    d.text((60, 50), P.authority.upper(), font=font("DejaVuSans-Bold.ttf", 28), fill=20)
    d.text((60, 92), "Fenwick Marsh National Nature Reserve", font=font("DejaVuSans.ttf", 19), fill=40)
    d.line((60, 125, 790, 125), fill=60, width=2)
    body = font("DejaVuSerif.ttf", 20)
    bold = font("DejaVuSerif-Bold.ttf", 21)
    y = 150
    d.text((60, y), f"NOTICE OF AMENDMENT A1 to research permit {P.number}", font=bold, fill=10)
    y += 45
    closure_from, closure_to = long_date(P.closure_from), long_date(P.closure_to)
    for line in [
        "Date: 1 June 2026",
        "To: Prof. Samuel Birch, Harrowgate University (permit holder)",
        "",
        "Following the confirmation of a booming male bittern and an active",
        f"nest at grid reference {P.nest_gridref}, condition C6 is amended:",
        "",
        f"Site S4 ({F.sites.S4.name}) is CLOSED to all entry",
        f"from {closure_from}",
        f"to {closure_to} inclusive.",
        "",
        f"A {P.buffer_m} m buffer around the nest applies for the same period.",
        "No equipment may be serviced or retrieved inside the closed area.",
        "All other conditions of the permit are unchanged.",
    ]:
        d.text((60, y), line, font=bold if line.startswith(("Site S4", "from", "to ")) else body, fill=12)
        y += 34
    y += 40
    d.text((60, y), "I. Drummond", font=font("DejaVuSerif-Italic.ttf", 30), fill=30)
    d.text((60, y + 42), "Ian Drummond, Senior Warden", font=body, fill=25)
    d.ellipse((560, y - 30, 760, y + 90), outline=110, width=4)
    d.text((590, y + 15), "FCA  RECEIVED", font=font("DejaVuSans-Bold.ttf", 20), fill=110)
    rnd = random.Random(31)
    for _ in range(2200):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(110, 200))
    page = page.rotate(0.7, resample=Image.BICUBIC, expand=False, fillcolor=232)
    page = page.filter(ImageFilter.GaussianBlur(0.55))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=62, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("scan_0601")
    aw, ah = A4
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


def sample_board(path: Path) -> None:
    """A phone photo of the whiteboard held up at the site, with the GPS camera app's stamp."""
    w, h = 800, 600
    rnd = random.Random(3101)
    img = Image.new("RGB", (w, h), (96, 122, 70))
    d = ImageDraw.Draw(img)
    for _ in range(900):  # sedge and grass
        x, y = rnd.randrange(w), rnd.randrange(200, h)
        g = rnd.randrange(90, 160)
        d.line((x, y, x + rnd.randrange(-8, 9), y - rnd.randrange(10, 40)), fill=(g // 2, g, g // 3), width=2)
    d.rectangle((0, 0, w, 190), fill=(176, 196, 214))  # sky
    d.polygon([(170, 120), (640, 95), (660, 430), (150, 455)], fill=(236, 236, 230), outline=(60, 60, 60))
    pen = font("DejaVuSans-Bold.ttf", 26)
    hand = font("DejaVuSansMono-Bold.ttf", 25)
    d.text((200, 140), f"{F.samples.visit}  {F.visits[F.samples.visit].site}  03/06/26", font=pen, fill=(20, 40, 140))
    y = 205
    for sid, depth in zip(F.samples.ids, F.samples.depths_cm):
        d.text((205, y), f"{sid}   depth {depth} cm", font=hand, fill=(25, 25, 25))
        y += 55
    d.text((205, y + 10), "filtered + on ice  PS/TW", font=font("DejaVuSans.ttf", 20), fill=(140, 20, 20))
    d.rectangle((0, h - 62, w, h), fill=(0, 0, 0))
    stamp = font("DejaVuSansMono.ttf", 19)
    d.text((14, h - 56), f"GPS {F.samples.lat} N  {F.samples.lon} E   +/-4 m", font=stamp, fill=(255, 230, 80))
    d.text((14, h - 30), f"{F.samples.taken}   alt 2 m   GPS Map Camera", font=stamp, fill=(255, 230, 80))
    img = img.filter(ImageFilter.GaussianBlur(0.7))
    img.save(path, format="JPEG", quality=72, optimize=True)


FPS = 4


def recce_frames(folder: Path) -> None:
    """Jonah's walk to the Sedge Meadow footbridge at dusk: 6 s, a notice on the gate."""
    w, h = 320, 240
    sign = font("DejaVuSans-Bold.ttf", 15)
    small = font("DejaVuSans.ttf", 12)
    for i in range(6 * FPS):
        img = Image.new("RGB", (w, h), (150, 160, 175))
        d = ImageDraw.Draw(img)
        d.rectangle((0, 120, w, h), fill=(70, 92, 55))
        shift = i * 3
        d.rectangle((30 - shift // 2, 110, 300 - shift // 2, 125), fill=(110, 80, 50))  # footbridge
        d.line((0, 140, w, 150), fill=(90, 110, 130), width=12)  # flood water
        if i >= 8:  # the camera reaches the notice
            x = 50 - (i - 8)
            d.rectangle((x - 6, 40, x + 226, 150), fill=(250, 250, 240), outline=(200, 20, 20), width=3)
            d.text((x + 12, 50), "FOOTBRIDGE CLOSED", font=sign, fill=(200, 20, 20))
            d.text((x + 12, 74), "flood damage", font=small, fill=(30, 30, 30))
            d.text((x + 12, 96), "SEDGE MEADOW ACCESS", font=sign, fill=(20, 20, 20))
            d.text((x + 12, 118), f"VIA GATE {F.sites.S2.gate_now} ONLY", font=sign, fill=(20, 20, 20))
        d.text((6, 222), f"02/06/2026 19:{38 + i // FPS:02d}  GATE B", font=small, fill=(255, 255, 255))
        img.save(folder / f"f{i:03d}.png")


def encode(folder: Path, path: Path) -> None:
    subprocess.run(
        ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(folder / "f%03d.png"),
         "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
         "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
        check=True,
    )  # fmt: skip


def long_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return (
        f"{d:%A} the {d.day}{'th' if d.day not in (1, 2, 3, 21, 22, 23) else {1: 'st', 2: 'nd', 3: 'rd'}[d.day % 10]}"
    )


V4, V6 = F.visits["V-204"], F.visits["V-206"]
VOICE_NOTE = (
    "Hi Ruth, it's Samuel, Friday morning. Three things for next week. "
    f"One: please move the North Ditch water chemistry, V two oh four, from Monday to {long_day(V4.moved_to)}. "
    "Same team, same kit. "
    f"Two: add a new visit, V two oh six, at the Tern Scrape, site S six, on {long_day(V6.date)}: "
    "a breeding bird transect, just Priya and Tom, Priya drives. "
    "Three: the reedbed transect, V two oh five, stays on Tuesday as planned. "
    "And send Ian the weekly notification as usual. Thanks, bye."
)


def voice_note(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "note.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "35", "-w", str(wav), VOICE_NOTE], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day2", "day3", "day4", "day5"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day1/attachments", "day2/permits", "day3", "day4", "day5/voice_notes"):
        (HERE / sub).mkdir(parents=True)
    field_plan(HERE / "day1/attachments/fenwick_field_plan_2026-06.pdf")
    permit(HERE / "day1/attachments/FM-2026-031_permit.pdf")
    amendment_scan(HERE / "day2/permits/FM-2026-031_amendment_A1.pdf")
    with tempfile.TemporaryDirectory() as tmp:
        recce_frames(Path(tmp))
        encode(Path(tmp), HERE / "day3/S2_access_recce.mp4")
    sample_board(HERE / "day4/V-201_sample_board.jpg")
    voice_note(HERE / "day5/voice_notes/birch_2026-06-05_0731.mp3")


if __name__ == "__main__":
    main()
