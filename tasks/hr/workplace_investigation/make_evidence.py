"""Regenerate the workplace-investigation task's evidence deterministically (the outputs are committed).

    python tasks/hr/workplace_investigation/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (the complaint
form, a text PDF), Pillow (the chat screenshot, pixels only) and espeak-ng + ffmpeg (the recorded
witness interview: two voices, 16 kHz mono MP3 with bit-exact flags).

- day1/ER-2025-014_complaint_form.pdf            text PDF: the complainant's three allegations
- day1/ER-2025-014_chat_screenshot.png           the remark, its time and who saw it ("Seen by")
- day3/ER-2025-014_witness_Dev_Kumar_2025-10-08.mp3  spoken: the witness corroborates the remark and
  its repetition at the next morning's briefing
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import textwrap
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")

INTERVIEW = [
    ("en-gb+f3", "This is the witness interview for case E R 2025 0 14, with Dev Kumar, on Wednesday the eighth of "
     "October, at two p m. The interview is being recorded with Dev's consent. Dev, did you see the message Martin "
     "posted in the shift leads chat on the twenty third of September?"),
    ("en-us", "Yes, I saw it that evening, just after eight. It said Hannah should leave the planning to people who "
     f"can actually count. It was deleted maybe {F.recording.deleted_after} later."),
    ("en-gb+f3", "Hannah says Martin repeated the remark at the briefing the next morning. Were you there?"),
    ("en-us", f"I was. At the {F.recording.briefing}, on the twenty fourth, he said it again, that Hannah can't count, "
     "in front of about eight of us. A couple of people laughed and Hannah walked out."),
    ("en-gb+f3", "Has Hannah's number of shifts changed since then, as far as you know?"),
    ("en-us", "Not that I know of. She swapped a Thursday late for a Saturday early once, but I think she asked for that "
     "herself."),
    ("en-gb+f3", "Thank you, Dev. That's the end of the interview."),
]  # fmt: skip


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def complaint_form(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle("Formal complaint form - H. Kowalczyk")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "Pellworth Retail Group - Formal complaint (grievance) form")
    c.setFont("Helvetica", 10.5)
    y = 760
    for line in [
        "Name: Hannah Kowalczyk          Employee ID: E-5011          Store: Northgate",
        "Job title: Shift lead           Complaint about: Martin Greaves (duty manager)",
        "Date of this form: 5 October 2025",
        "",
        "What happened (please number each allegation):",
        "",
        "A1. On the evening of 23 September 2025 Martin posted a humiliating remark about me in the",
        "    Northgate shift leads' group chat, in front of the other shift leads. He deleted it soon after;",
        "    I took a screenshot first (attached to my e-mail).",
        "",
        "A2. Since I told him on 25 September that the remark was not acceptable, I believe he has been",
        "    cutting my shifts.",
        "",
        "A3. On the morning after the chat message he repeated the remark at the team briefing, in front",
        "    of the whole shift.",
        "",
        "What would you like to happen: a formal investigation; I do not want to work under Martin's",
        "direct supervision while it runs.",
        "",
        "I confirm the above is true to the best of my knowledge.      Signed: H. Kowalczyk",
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()


def chat_screenshot(path: Path) -> None:
    w, h = 720, 560
    img = Image.new("RGB", (w, h), (244, 245, 248))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, 64), fill=(72, 61, 139))
    d.text((20, 10), "Northgate Shift Leads", font=font(22, True), fill=(255, 255, 255))
    d.text((20, 38), "Martin Greaves, Hannah Kowalczyk, Dev Kumar, Olu Adebayo, Carla Benton", font=font(13),
           fill=(220, 220, 240))  # fmt: skip
    d.text((w // 2, 84), "Tuesday 23 September", font=font(13), fill=(120, 120, 130), anchor="mm")

    def bubble(y: int, who: str, when: str, lines: list[str], mine: bool) -> int:
        x0 = 300 if mine else 20
        height = 34 + 22 * len(lines)
        d.rounded_rectangle((x0, y, x0 + 400, y + height), radius=12, fill=(220, 248, 198) if mine else (255, 255, 255))
        d.text((x0 + 12, y + 6), who, font=font(13, True), fill=(72, 61, 139))
        d.text((x0 + 340, y + 6), when, font=font(12), fill=(130, 130, 130))
        for i, line in enumerate(lines):
            d.text((x0 + 12, y + 28 + i * 22), line, font=font(16), fill=(20, 20, 20))
        return y + height + 14

    y = bubble(104, "Olu Adebayo", "19:41", ["Delivery moved to 6am Saturday btw"], False)
    y = bubble(y, "Hannah Kowalczyk", "19:58", ["Rota for Saturday is up -", "I've covered the delivery slot."], True)
    y = bubble(
        y, "Martin Greaves", F.chat.time, ["Great, only took you all week.", *textwrap.wrap(F.chat.remark, 36)], False
    )
    d.text((40, y - 8), f"Seen by {', '.join(F.chat.seen_by)}", font=font(12), fill=(110, 110, 120))
    y = bubble(y + 16, "Dev Kumar", "20:06", ["..."], False)
    d.rectangle((0, h - 54, w, h), fill=(255, 255, 255))
    d.rounded_rectangle((16, h - 44, w - 80, h - 12), radius=14, outline=(200, 200, 205), width=2)
    d.text((32, h - 38), "Message", font=font(15), fill=(160, 160, 165))
    img.save(path, format="PNG", optimize=True)


def recording(path: Path) -> None:
    """Each turn spoken with a fixed voice, joined with short pauses, then 16 kHz mono MP3."""
    with tempfile.TemporaryDirectory() as tmp:
        parts = []
        for i, (voice, text) in enumerate(INTERVIEW):
            wav = Path(tmp) / f"t{i}.wav"
            subprocess.run(["espeak-ng", "-v", voice, "-s", "165", "-p", "45", "-w", str(wav), text], check=True)
            parts.append(wav)
        listing = Path(tmp) / "parts.txt"
        listing.write_text("".join(f"file '{p}'\n" for p in parts))
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-f", "concat", "-safe", "0", "-i", str(listing), "-ar", "16000",
             "-ac", "1", "-c:a", "libmp3lame", "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact",
             "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day3"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
        (HERE / sub).mkdir(parents=True)
    complaint_form(HERE / "day1/ER-2025-014_complaint_form.pdf")
    chat_screenshot(HERE / "day1/ER-2025-014_chat_screenshot.png")
    recording(HERE / "day3/ER-2025-014_witness_Dev_Kumar_2025-10-08.mp3")


if __name__ == "__main__":
    main()
