"""Regenerate the photo-desk task's evidence deterministically (the outputs are committed).

    python tasks/journalist/photo_desk/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the photos, drawn and
given fixed EXIF metadata), reportlab (text PDFs), espeak-ng + ffmpeg (the freelancer's voicemail,
16 kHz mono MP3, bit-exact flags).

- day1/incoming/IMG_0231.jpg   Kai Lindgren, 12 June 21:47; the street sign reads QUAY STREET (pixels only)
- day1/incoming/IMG_0232.jpg   Kai's second frame, re-saved in Photoshop the next morning (EXIF
  Software and ModifyDate): the flames were enlarged
- day1/incoming/reader_fire.jpg  a reader's "last night" picture: no EXIF, a camera date imprint
  11.07.2019 in the corner, and byte-identical to archive item ARC-2019-0711 (seed/archive.csv)
- day1/press/eastport_fire_press_release.pdf  text PDF: the fire service's statement and briefing time
- day2/staff/DSC_5120.jpg, DSC_5121.jpg  Ana Ruiz's take: the gutted warehouse at dawn; an injured
  firefighter, identifiable (name tape)
- day2/voicemail/kai_voicemail_0616.mp3  Kai's terms for IMG_0231 (fee, print and web, no
  syndication) and his admission about IMG_0232
- day4/invoice/KL-2025-031.pdf  Kai's invoice (text PDF), at a higher fee than agreed
- seed/archive.csv  the picture archive's index, with SHA-256 of each archived file
"""

from __future__ import annotations

import csv
import hashlib
import io
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
W, H = 640, 427


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def exif(artist: str, make: str, model: str, taken: str, software: str = "", modified: str = "") -> bytes:
    e = Image.Exif()
    e[0x010F], e[0x0110], e[0x013B] = make, model, artist
    e[0x8298] = f"(c) {artist}"
    e[0x0132] = modified or taken
    if software:
        e[0x0131] = software
    sub = e.get_ifd(0x8769)
    sub[0x9003] = taken
    sub[0x9004] = taken
    return e.tobytes()


def noisy(img: Image.Image, seed: int, amount: int = 18) -> Image.Image:
    rnd = random.Random(seed)
    px = img.load()
    for _ in range(6000):
        x, y = rnd.randrange(W), rnd.randrange(H)
        n = rnd.randrange(-amount, amount + 1)
        r, g, b = px[x, y]
        px[x, y] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    return img.filter(ImageFilter.GaussianBlur(0.6))


def flames(d: ImageDraw.ImageDraw, rnd: random.Random, x0: int, x1: int, base: int, height: int) -> None:
    for _ in range(60):
        x = rnd.randrange(x0, x1)
        h = rnd.randrange(height // 3, height)
        w = rnd.randrange(12, 30)
        d.polygon([(x - w, base), (x + w, base), (x + rnd.randrange(-8, 9), base - h)],
                  fill=(255, rnd.randrange(90, 200), rnd.randrange(0, 40)))  # fmt: skip


def fire_scene(seed: int, big_flames: bool = False, sign: bool = True, stamp: str = "") -> Image.Image:
    rnd = random.Random(seed)
    img = Image.new("RGB", (W, H), (14, 16, 32))
    d = ImageDraw.Draw(img)
    for y in range(0, 200, 4):  # orange glow in the sky
        d.rectangle((0, y, W, y + 4), fill=(min(255, 40 + y // 2), 24 + y // 8, 30))
    d.rectangle((120, 150, 520, 330), fill=(40, 36, 40))  # warehouse
    d.polygon([(120, 150), (320, 95), (520, 150)], fill=(34, 30, 36))
    for x in range(150, 500, 50):
        d.rectangle((x, 200, x + 25, 230), fill=(255, 160, 40))
    flames(d, rnd, 150, 500, 155, 120)
    if big_flames:  # the "boost": a copied block of flames pasted twice over the roof
        block = img.crop((200, 60, 330, 160))
        img.paste(block, (330, 40))
        img.paste(block, (90, 50))
        d = ImageDraw.Draw(img)
    d.rectangle((0, 330, W, H), fill=(30, 30, 34))  # street
    d.rectangle((40, 280, 200, 345), fill=(190, 20, 20))  # fire engine
    d.text((60, 295), "E-14", font=font("DejaVuSans-Bold.ttf", 22), fill=(240, 240, 240))
    if sign:
        d.rectangle((540, 250, 548, 340), fill=(120, 120, 120))
        d.rectangle((470, 222, 630, 256), fill=(20, 100, 50), outline=(240, 240, 240), width=2)
        d.text((482, 228), F.place.street.upper(), font=font("DejaVuSans-Bold.ttf", 17), fill=(250, 250, 250))
    if stamp:
        d.text((470, 392), stamp, font=font("DejaVuSansMono-Bold.ttf", 22), fill=(255, 140, 20))
    return noisy(img, seed)


def dawn_scene(seed: int) -> Image.Image:
    rnd = random.Random(seed)
    img = Image.new("RGB", (W, H), (150, 160, 180))
    d = ImageDraw.Draw(img)
    d.rectangle((120, 170, 520, 330), fill=(50, 46, 46))
    for x in range(130, 510, 22):  # burnt roof beams
        d.line((x, 170, x + rnd.randrange(-20, 21), 120), fill=(30, 28, 28), width=5)
    for _ in range(40):  # smoke
        x, y, r = rnd.randrange(150, 500), rnd.randrange(20, 160), rnd.randrange(20, 60)
        g = rnd.randrange(90, 140)
        d.ellipse((x - r, y - r, x + r, y + r), fill=(g, g, g + 5))
    d.rectangle((0, 330, W, H), fill=(70, 70, 74))
    return noisy(img, seed)


def injured_scene(seed: int) -> Image.Image:
    img = Image.new("RGB", (W, H), (60, 60, 70))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 300, W, H), fill=(45, 45, 50))
    d.rectangle((230, 160, 420, 330), fill=(30, 30, 30))  # jacket
    d.rectangle((230, 240, 420, 252), fill=(230, 220, 60))  # reflective band
    d.ellipse((285, 70, 365, 160), fill=(205, 160, 130))  # face
    d.rectangle((300, 120, 350, 150), fill=(220, 230, 240))  # oxygen mask
    d.rectangle((250, 190, 330, 212), fill=(235, 235, 235))
    d.text((255, 192), F.staff.firefighter.split()[-1].upper(), font=font("DejaVuSans-Bold.ttf", 14), fill=(10, 10, 10))
    d.rectangle((430, 150, 600, 320), fill=(230, 230, 235))  # paramedic
    d.text((455, 220), "PARAMEDIC", font=font("DejaVuSans-Bold.ttf", 16), fill=(20, 120, 40))
    return noisy(img, seed)


def save(img: Image.Image, path: Path, meta: bytes = b"") -> None:
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=70, optimize=True, **({"exif": meta} if meta else {}))
    path.write_bytes(buf.getvalue())


def text_pdf(path: Path, title: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(title)
    y = 790
    for line in lines:
        bold = line.startswith("# ")
        c.setFont("Helvetica-Bold" if bold else "Helvetica", 13 if bold else 10.5)
        c.drawString(60, y, line.removeprefix("# "))
        y -= 20 if bold else 15
    c.save()


def press_release(path: Path) -> None:
    text_pdf(path, "Eastport Fire and Rescue - statement", [
        "# EASTPORT FIRE AND RESCUE SERVICE - PRESS STATEMENT",
        "Issued 13 June 2025, 07:30",
        "",
        "At 21:31 on Thursday 12 June crews were called to a fire at a disused warehouse",
        "in the Eastport docks area. Six engines and an aerial platform attended.",
        "The fire was under control by 01:10. Two firefighters were treated at the scene",
        "for heat exhaustion; one was taken to Eastport General and has since been discharged.",
        "The cause is under investigation. No members of the public were hurt.",
        "",
        "Media briefing on the investigation: Thursday 19 June 2025 at 11:00,",
        f"{F.briefing.place}, Harbour Road. Photographers welcome; accreditation at the door.",
        "",
        "Press office: press@eastportfire.example",
    ])  # fmt: skip


def invoice(path: Path) -> None:
    text_pdf(path, f"Invoice {F.kai.invoice}", [
        "# KAI LINDGREN PHOTOGRAPHY",
        "12 Ropewalk, Eastport",
        "",
        f"Invoice no: {F.kai.invoice}          Date: 17 June 2025",
        "To: Picture desk, The Northgate Herald",
        "",
        f"Eastport warehouse fire, 12 June 2025 - image {F.kai.good}",
        "Licence: print and web, one-time use",
        f"Fee: EUR {F.kai.invoice_amount}.00",
        "",
        f"TOTAL DUE: EUR {F.kai.invoice_amount}.00      Payment within 30 days",
    ])  # fmt: skip


VOICEMAIL = (
    "Hi Femi, it's Kai Lindgren, Monday morning, about the warehouse fire pictures. Zero two three one is yours "
    "for print and online, one time use, and the fee is one hundred and eighty euros, as we said. Please don't "
    "pass it on to agencies or syndication, that's not included. And zero two three two, I'm sorry, I boosted "
    "the flames in Photoshop before I sent it. Don't use that one. I'll invoice you this week. Cheers."
)


def voicemail(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "158", "-p", "38", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def archive_index(path: Path, reader_photo: Path) -> None:
    rows = [
        ("ARC-2017-0342", "Tannery fire, Mill Lane", "2017-03-04", "Staff"),
        ("ARC-2018-0915", "Dock crane collapse", "2018-09-15", "Northlight Images"),
        (F.reader.archive_id, "Warehouse fire, Eastport docks", "2019-07-11", "Staff (P. Okoro)"),
        ("ARC-2021-0203", "Flooding, Quay Street", "2021-02-03", "Staff"),
        ("ARC-2023-0520", "Harbour festival fireworks", "2023-05-20", "Staff"),
        ("ARC-2024-1102", "Bonfire night, Eastport Green", "2024-11-02", "Reader submission"),
    ]
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["Archive ID", "Subject", "Taken", "Source", "SHA-256"])
        for aid, subject, taken, source in rows:
            digest = (hashlib.sha256(reader_photo.read_bytes()).hexdigest() if aid == F.reader.archive_id
                      else hashlib.sha256(f"archive:{aid}".encode()).hexdigest())  # fmt: skip
            w.writerow([aid, subject, taken, source, digest])


def main() -> None:
    for sub in ("day1/incoming", "day1/press", "day2/staff", "day2/voicemail", "day4/invoice"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    taken = F.kai.captured.replace("-", ":") + ":10"
    save(fire_scene(231), HERE / f"day1/incoming/{F.kai.good}.jpg",
         exif(F.kai.name, "FUJIFILM", "X-T5", taken))  # fmt: skip
    save(fire_scene(232, big_flames=True), HERE / f"day1/incoming/{F.kai.edited}.jpg",
         exif(F.kai.name, "FUJIFILM", "X-T5", "2025:06:12 21:49:02", F.kai.edited_software, F.kai.edited_modified))  # fmt: skip
    save(fire_scene(2019, sign=False, stamp=F.reader.stamp), HERE / f"day1/incoming/{F.reader.file}")
    press_release(HERE / "day1/press/eastport_fire_press_release.pdf")
    save(dawn_scene(5120), HERE / f"day2/staff/{F.staff.general}.jpg",
         exif("Ana Ruiz", "NIKON CORPORATION", "NIKON Z 6_2", "2025:06:13 05:12:40"))  # fmt: skip
    save(injured_scene(5121), HERE / f"day2/staff/{F.staff.injured}.jpg",
         exif("Ana Ruiz", "NIKON CORPORATION", "NIKON Z 6_2", "2025:06:12 23:05:18"))  # fmt: skip
    voicemail(HERE / "day2/voicemail/kai_voicemail_0616.mp3")
    invoice(HERE / f"day4/invoice/{F.kai.invoice}.pdf")
    archive_index(HERE / "seed/archive.csv", HERE / f"day1/incoming/{F.reader.file}")


if __name__ == "__main__":
    main()
