"""Regenerate the FOIA-tracker task's evidence deterministically (the outputs are committed).

    python tasks/journalist/foia_tracker/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (the city's text
cover letter, and the wrapper of the scanned record), Pillow (the scan, pixels only) and espeak-ng +
ffmpeg (the agency's voicemail, 16 kHz mono MP3 with bit-exact flags).

- day1/records/CKB-2026-041_response_letter.pdf   text PDF: the city's partial denial (exemption, appeal route)
- day1/records/CKB-2026-041_record_1_redacted.pdf image-only PDF: the memo with names blacked out; its
  date line is not redacted
- day2/voicemail/DEP_Pryce_2026-04-06_1642.mp3   the state agency's voicemail: extension, new due date, fee
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
N = F.names
R = F.ckb_response
V = F.dep_voicemail
FONTS = Path("/usr/share/fonts/truetype/dejavu")
VOICEMAIL = (
    f"Hi, this is {V.officer} from the public records unit at the Department of Environmental Protection, "
    "calling for Tomasz Reid at the Chronicle about request D E P, 2026, 0 3 1 8, the lead solder test results. "
    "We need more time to review the lab files, so we are taking the ten business day extension. "
    f"The new due date is {V.new_due_words}. There is also a copying fee of {V.fee_words}. "
    f"Please confirm in writing to our public records inbox by {V.confirm_by_words} that you agree to pay, "
    "otherwise the request will be closed. Thanks, bye."
)


def font(size: int, kind: str = "serif") -> ImageFont.FreeTypeFont:
    files = {"serif": "DejaVuSerif.ttf", "bold": "DejaVuSerif-Bold.ttf", "mono": "DejaVuSansMono.ttf"}
    return ImageFont.truetype(str(FONTS / files[kind]), size)


def cover_letter(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)
    c.setTitle(f"Response to public records request {N.ckb}")
    c.setFont("Helvetica-Bold", 13)
    c.drawString(60, 735, "City of Kestrel Bay - Office of the City Clerk, Public Records")
    c.setFont("Helvetica", 10)
    lines = [
        R.letter_date_text,
        "",
        "Tomasz Reid, Kestrel Bay Chronicle",
        f"Re: Public records request {N.ckb} (Ardent Metering - internal memos on meter performance)",
        "",
        "The City has completed its search and located one responsive record (record 1, a two-page internal",
        f"memorandum). It is released in part. Portions are withheld under {R.exemption}",
        "of the Public Records Act as pre-decisional intra-agency communications, and names of staff under",
        "Section 4(c) (personal privacy).",
        "",
        "You may appeal this determination within 20 business days of the date of this letter to the",
        f"Records Appeals Officer, Gareth Obi, at {N.appeals_email}.",
        "",
        "Sincerely,",
        "Office of the City Clerk - Public Records",
    ]
    y = 705
    for line in lines:
        c.drawString(60, y, line)
        y -= 15
    c.save()


def redacted_memo(path: Path) -> None:
    w, h = 850, 1100
    page = Image.new("L", (w, h), 249)
    d = ImageDraw.Draw(page)
    d.text((70, 60), "CITY OF KESTREL BAY - UTILITIES DEPARTMENT", font=font(22, "bold"), fill=20)
    d.text((70, 100), "INTERNAL MEMORANDUM", font=font(20, "bold"), fill=25)
    rows = [
        ("TO:", ""),
        ("FROM:", ""),
        ("DATE:", R.memo_date_text),
        ("RE:", "AMR pilot - meter failure rates (Ardent Metering)"),
    ]
    y = 160
    for label, text in rows:
        d.text((70, y), label, font=font(18, "bold"), fill=20)
        d.text((180, y), text, font=font(18), fill=20)
        y += 38
    d.rectangle((180, 160, 330, 184), fill=0)  # the addressee's name before the title
    d.rectangle((180, 198, 560, 222), fill=0)  # FROM: redacted
    d.text((345, 160), ", Director of Utilities", font=font(18), fill=20)
    d.line((70, y + 4, 780, y + 4), fill=60, width=2)
    body = [
        f"The pilot data through February show a failure rate of {R.failure_rate} for the Ardent",
        "meters (units reporting no reads or estimated reads for 30+ days), against the 2%",
        "the contract specifies. Billing has issued estimated bills to the affected accounts.",
        "",
        "Now that the extension has passed council, we need a plan for the citywide rollout",
        "before the failure rate shows up in complaints.",
    ]
    y += 30
    for line in body:
        d.text((70, y), line, font=font(17), fill=25)
        y += 30
    d.rectangle((70, y + 10, 780, y + 130), fill=0)  # a withheld paragraph (Section 4(b))
    d.text((70, y + 140), "[Section 4(b)]", font=font(14, "mono"), fill=40)
    d.rectangle((70, y + 200, 300, y + 226), fill=0)  # signature block
    d.text((70, 1030), f"Released in part - {N.ckb} - record 1 of 1, page 1", font=font(13, "mono"), fill=50)
    rnd = random.Random(41)
    for _ in range(2000):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(110, 210))
    page = page.rotate(0.4, resample=Image.BICUBIC, expand=False, fillcolor=238).filter(ImageFilter.GaussianBlur(0.5))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=58, optimize=True)
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)
    c.setTitle("scan_0403_1517")
    pw, ph = letter
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=pw, height=ph)
    c.save()


def voicemail(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "158", "-p", "38", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day2"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day1/records", "day2/voicemail"):
        (HERE / sub).mkdir(parents=True)
    cover_letter(HERE / "day1" / N.cover_letter)
    redacted_memo(HERE / "day1" / N.memo_scan)
    voicemail(HERE / "day2" / N.voicemail)


if __name__ == "__main__":
    main()
