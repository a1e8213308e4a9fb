"""Regenerate the benefits-enrollment task's evidence deterministically (the outputs are committed).

    python tasks/hr/benefits_enrollment/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the certificate
scans: grey JPEGs, no text layer), espeak-ng + ffmpeg (the voicemail, 16 kHz mono MP3 with
bit-exact flags) and reportlab (the insurer's letter, a text PDF).

- day1/certificates/birth_certificate_EX-301.jpg     the child's date of birth (pixels only)
- day1/certificates/marriage_certificate_EX-302.jpg  the wedding date (pixels only)
- day1/voicemail/VM_2025-09-15_0812_Rosa_Delgado.mp3 spoken: the date the husband's coverage ended
  and the tier she asks for
- day3/Keystone_loss_of_coverage_Delgado.pdf         text PDF: the insurer confirms the end date
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")

VOICEMAIL = (
    "Hi Ifeoma, this is Rosa Delgado from packaging at the Dayton plant, employee number E 2 2 5 1. "
    "It's Monday morning, about ten past eight. I'm calling about my medical plan. My husband Luis was laid off, "
    "and his health coverage through his old employer ended on the thirty first of August. "
    "I'd like to add Luis and both of our kids, so the whole family, to my Silver H M O plan. "
    "His insurance company is mailing him a letter that confirms the date his coverage ended, "
    "and I'll send it to you as soon as we have it. E-mail is the best way to reach me. Thank you, bye."
)


def font(size: int, kind: str = "serif") -> ImageFont.FreeTypeFont:
    files = {"serif": "DejaVuSerif.ttf", "serifb": "DejaVuSerif-Bold.ttf", "sans": "DejaVuSans.ttf",
             "hand": "DejaVuSerif-Italic.ttf"}  # fmt: skip
    return ImageFont.truetype(str(FONTS / files[kind]), size)


def finish(page: Image.Image, seed: int) -> Image.Image:
    """Scanner artefacts: speckle, a slight skew and blur (seeded: the same bytes every run)."""
    d = ImageDraw.Draw(page)
    rnd = random.Random(seed)
    for _ in range(1600):
        d.point((rnd.randrange(page.width), rnd.randrange(page.height)), fill=rnd.randrange(110, 190))
    page = page.rotate(-0.9 if seed % 2 else 0.6, resample=Image.BICUBIC, expand=False, fillcolor=232)
    return page.filter(ImageFilter.GaussianBlur(0.55))


def certificate(path: Path, title: str, office: str, lines: list[tuple[str, str]], number: str, seed: int) -> None:
    w, h = 900, 700
    page = Image.new("L", (w, h), 244)
    d = ImageDraw.Draw(page)
    d.rectangle((18, 18, w - 18, h - 18), outline=90, width=6)
    d.rectangle((32, 32, w - 32, h - 32), outline=140, width=2)
    d.text((w // 2, 70), "STATE OF OHIO", font=font(30, "serifb"), fill=25, anchor="mm")
    d.text((w // 2, 112), title, font=font(26, "serifb"), fill=25, anchor="mm")
    d.text((w // 2, 146), office, font=font(17), fill=50, anchor="mm")
    y = 200
    for label, value in lines:
        d.text((80, y), label, font=font(18, "sans"), fill=55)
        d.text((360, y - 6), value, font=font(27, "hand"), fill=12)  # typed-in on the form, shown in italics
        d.line((355, y + 26, 820, y + 26), fill=150, width=1)
        y += 62
    d.text((80, h - 110), f"Certificate no. {number}", font=font(18, "sans"), fill=40)
    d.text((560, h - 120), "Deputy Registrar", font=font(17), fill=50)
    d.text((560, h - 90), "K. Albright", font=font(26, "hand"), fill=20)
    d.ellipse((700, 180, 830, 310), outline=120, width=4)
    d.text((765, 245), "SEAL", font=font(20, "serifb"), fill=120, anchor="mm")
    finish(page, seed).save(path, format="JPEG", quality=60, optimize=True)


def birth(path: Path) -> None:
    b = F.birth
    certificate(
        path,
        "CERTIFICATE OF LIVE BIRTH",
        "Department of Health - Office of Vital Statistics - Certified copy",
        [("Child's name", b.child), ("Date of birth", b.dob_printed), ("Place of birth", "Miami Valley Hospital, Dayton"),
         ("Mother", "Amaka Ellis"), ("Father", "Obinna Ellis"), ("Date filed", "September 2, 2025")],
        b.certificate,
        301,
    )  # fmt: skip


def marriage(path: Path) -> None:
    m = F.marriage
    certificate(
        path,
        "CERTIFICATE OF MARRIAGE",
        "Montgomery County Probate Court - Certified copy",
        [("Spouse 1", "Jonah Whitfield"), ("Spouse 2", m.spouse), ("Date of marriage", m.date_printed),
         ("Place", "Dayton, Montgomery County"), ("Officiant", "Hon. R. Castellano"), ("Recorded", "August 4, 2025")],
        m.certificate,
        302,
    )  # fmt: skip


def voicemail(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "160", "-p", "55", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def loss_letter(path: Path) -> None:
    t = F.letter
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)  # invariant: byte-identical output
    c.setTitle("Certificate of creditable coverage - Luis Delgado")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 730, t.insurer)
    c.setFont("Helvetica", 9)
    c.drawString(60, 716, "Member Services - 400 Market Street, Harrisburg, PA 17101")
    c.setFont("Helvetica", 10.5)
    y = 680
    for line in [
        "September 12, 2025",
        "",
        "Luis Delgado",
        "1187 Brown Street, Dayton, OH 45409",
        "",
        f"Re: Notice of termination of coverage - reference {t.reference}",
        "",
        "Dear Mr Delgado,",
        "",
        "This letter confirms that your group medical coverage under the plan of Corvell Industrial Supply",
        f"ended on {t.coverage_end_printed}, because your employment ended. The coverage included you",
        "and your dependent children Sofia and Mateo Delgado. No continuation (COBRA) election has been received.",
        "",
        "Please keep this letter: another group plan may ask for it as proof of your loss of coverage,",
        "which allows you to enrol in that plan outside its open enrollment period.",
        "",
        "Sincerely,",
        "",
        "Eligibility Department",
        t.insurer,
    ]:
        c.drawString(60, y, line)
        y -= 15
    c.save()


def main() -> None:
    for sub in ("day1", "day3"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day1/certificates", "day1/voicemail", "day3"):
        (HERE / sub).mkdir(parents=True)
    birth(HERE / "day1/certificates/birth_certificate_EX-301.jpg")
    marriage(HERE / "day1/certificates/marriage_certificate_EX-302.jpg")
    voicemail(HERE / "day1/voicemail/VM_2025-09-15_0812_Rosa_Delgado.mp3")
    loss_letter(HERE / "day3/Keystone_loss_of_coverage_Delgado.pdf")


if __name__ == "__main__":
    main()
