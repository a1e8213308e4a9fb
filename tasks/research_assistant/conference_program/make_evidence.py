"""Regenerate the conference-program task's evidence deterministically (the outputs are committed).

    python tasks/research_assistant/conference_program/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): espeak-ng + ffmpeg (two
reviewers' voice notes, 16 kHz mono MP3), reportlab (the venue's booking confirmation, a text PDF),
Pillow + ffmpeg (the venue's planning screen filmed for six seconds: libx264, one thread, bit-exact
flags) and Pillow (the whiteboard photo of the PC meeting, no text layer).

- day2/haddadi_scores.mp3   PC-05's scores and confidences for four papers
- day2/brandt_scores.mp3    PC-03's scores for three papers, and his conflict with NS-07 (a former student)
- day3/Palais_booking_confirmation_2026-01-20.pdf  the January booking: Session 2 in Salle Turing
- day3/room_plan_screen_2026-03-11.mp4  the planning screen for 15 June, three pages: Session 2 now in
  Salle Lovelace
- day4/whiteboard_2026-03-12.jpg  the PC meeting's outcome for the three discussed papers and the sessions
"""

from __future__ import annotations

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
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
P = F.program
FONTS = Path("/usr/share/fonts/truetype/dejavu")
FPS = 8

SAY = {-3: "minus three", -2: "minus two", -1: "minus one", 0: "zero", 1: "plus one", 2: "plus two", 3: "plus three"}
CONF = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def spoken_paper(pid: str) -> str:
    digits = {
        "0": "zero",
        "1": "one",
        "2": "two",
        "3": "three",
        "4": "four",
        "5": "five",
        "6": "six",
        "7": "seven",
        "8": "eight",
    }
    return "N S " + " ".join(digits[c] for c in pid.split("-")[1])


def spoken_scores(pc: str) -> str:
    rows = [r for r in F.scores.voice if r[0].endswith(pc)]
    return " ".join(f"Paper {spoken_paper(r[0].split('/')[0])}: {SAY[r[1]]}, confidence {CONF[r[2]]}." for r in rows)


MEMOS = {
    "haddadi_scores.mp3": (
        "en-gb",
        "Hi Mireille, it's Leila Haddadi, from the airport. My NeurSym scores, with my confidence. "
        + spoken_scores("PC-05")
        + " That's all four. The review texts follow when I'm home. Thanks!",
    ),
    "brandt_scores.mp3": (
        "en-us",
        "Hello Mireille, this is Tobias Brandt. Here are my scores. "
        + spoken_scores("PC-03")
        + f" And one more thing: I have to declare a conflict on paper {spoken_paper(F.coi.day2[0])}. "
        "Ana Lima, the first author, was my PhD student until last summer, so please take me off that "
        "paper. I have not read it. Thanks, bye.",
    ),
}

BOARD = [  # the planning screen's three pages for 15 June
    [
        ("08:00-18:00", "Registration and badges", "Hall Nord"),
        (f"{P.s1_start}-{P.s1_end}", f"{F.workshop} - Session 1", P.s1_room),
        ("09:00-12:30", "EuroLogic tutorial", "Salle Hopper"),
    ],
    [
        (f"{P.s2_start}-{P.s2_end}", f"{F.workshop} - Session 2", P.s2_room),
        (f"{P.s2_start}-{P.s2_end}", "LogicAI tutorial (moved)", P.s2_room_old),
        ("12:30-14:00", "Lunch", "Foyer Ouest"),
    ],
    [
        ("14:00-15:30", "Posters, all workshops", "Foyer Ouest"),
        ("15:30-17:00", "EuroLogic business meeting", "Amphi Curie"),
        ("17:30-19:00", "Welcome reception", "Terrasse"),
    ],
]


def font(size: int, bold: bool = False, mono: bool = False, oblique: bool = False) -> ImageFont.FreeTypeFont:
    if mono:
        name = "DejaVuSansMono-Bold.ttf" if bold else "DejaVuSansMono.ttf"
    elif oblique:
        name = "DejaVuSans-BoldOblique.ttf" if bold else "DejaVuSans-Oblique.ttf"
    else:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def voice_note(path: Path, voice: str, text: str) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "note.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", "155", "-p", "45", "-w", str(wav), text], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def booking_pdf(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle("Palais des Congres de Lorient - booking confirmation BK-26-0117")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, "Palais des Congres de Lorient - Events office")
    c.setFont("Helvetica", 10.5)
    y = 760
    for line in [
        "Booking confirmation BK-26-0117                         Lorient, 20 January 2026",
        "",
        f"Client: {F.workshop} (Prof. S. Hoffmann, general chair; Dr M. Dubois, PC chair)",
        "Date of the event: Monday 15 June 2026",
        "",
        "Rooms confirmed:",
        f"  {P.s1_start}-{P.s1_end}   {F.workshop} Session 1      {P.s1_room} (120 seats, projector, 2 microphones)",
        f"  {P.s2_start}-{P.s2_end}   {F.workshop} Session 2      {P.s2_room_old} (60 seats, projector)",
        "  12:30-14:00   Lunch (shared)               Foyer Ouest",
        "  14:00-15:30   Posters (shared)             Foyer Ouest, 12 boards",
        "",
        "Room allocations may change up to 10 days before the event; the planning screen at the",
        "reception always shows the current plan. Catering orders are due on 1 June 2026.",
        "",
        "Claire Martin, events office - claire.martin@palais-lorient.example",
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()


def board_page(page: int, shift: int) -> Image.Image:
    """One page of the planning screen, filmed from a slight angle (the camera drifts by ``shift``)."""
    img = Image.new("RGB", (640, 360), (20, 22, 28))
    d = ImageDraw.Draw(img)
    x0, y0 = 40 + shift, 30
    d.rectangle((x0, y0, x0 + 560, y0 + 300), fill=(12, 32, 74), outline=(90, 90, 100), width=6)
    d.text((x0 + 20, y0 + 14), "PALAIS DES CONGRES - PLAN DES SALLES", font=font(17, bold=True), fill=(255, 210, 60))
    d.text((x0 + 20, y0 + 40), f"Monday 15 June 2026    page {page + 1}/3", font=font(14), fill=(200, 210, 230))
    y = y0 + 80
    for when, what, room in BOARD[page]:
        d.text((x0 + 20, y), when, font=font(15, mono=True), fill=(255, 255, 255))
        d.text((x0 + 150, y), what, font=font(15), fill=(235, 240, 250))
        d.text((x0 + 150, y + 24), room, font=font(16, bold=True), fill=(120, 220, 140))
        y += 66
    return img.filter(ImageFilter.GaussianBlur(0.5))


def board_video(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        n = 0
        for page in range(3):
            for _ in range(2 * FPS):
                board_page(page, (n % 6) - 3).save(Path(tmp) / f"f{n:03d}.png")
                n += 1
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def whiteboard(path: Path) -> None:
    w, h = 960, 640
    img = Image.new("RGB", (w, h), (236, 238, 240))
    d = ImageDraw.Draw(img)
    blue, red, green, black = (30, 60, 170), (190, 30, 30), (20, 120, 50), (30, 30, 30)
    d.text((40, 30), "PC meeting 12/3 - discussed papers", font=font(30, bold=True, oblique=True), fill=black)
    y = 100
    for pid, decision in sorted(F.decisions.whiteboard.items()):
        colour = green if decision == "accept" else red
        mark = "ACCEPT" if decision == "accept" else "reject"
        d.text((70, y), f"{pid}  ->  {mark}", font=font(34, oblique=True), fill=colour)
        y += 62
    d.line((40, y + 10, 900, y + 10), fill=(150, 150, 160), width=3)
    d.text((40, y + 30), "Sessions (15 June):", font=font(30, bold=True, oblique=True), fill=blue)
    d.text((70, y + 84), f"S1:  {', '.join(P.s1_papers)}", font=font(32, oblique=True), fill=blue)
    d.text((70, y + 140), f"S2:  {', '.join(P.s2_papers)}", font=font(32, oblique=True), fill=blue)
    d.text((560, y + 200), "- Stefan", font=font(24, oblique=True), fill=black)
    rnd = random.Random(1203)
    img = img.rotate(2.2, resample=Image.Resampling.BICUBIC, fillcolor=(120, 115, 105))
    glare = Image.new("L", (w, h), 0)
    ImageDraw.Draw(glare).ellipse((620, -80, 1060, 260), fill=70)
    img = Image.composite(Image.new("RGB", (w, h), (255, 255, 255)), img, glare.filter(ImageFilter.GaussianBlur(60)))
    px = img.load()
    for _ in range(5000):
        x, yy = rnd.randrange(w), rnd.randrange(h)
        r, g, b = px[x, yy]
        k = rnd.randrange(-25, 25)
        px[x, yy] = (max(0, min(255, r + k)), max(0, min(255, g + k)), max(0, min(255, b + k)))
    img = img.filter(ImageFilter.GaussianBlur(0.9)).resize((768, 512), Image.Resampling.LANCZOS)
    img.save(path, format="JPEG", quality=70, optimize=True)


def main() -> None:
    for sub in ("day2", "day3", "day4"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
        (HERE / sub).mkdir()
    for name, (voice, text) in MEMOS.items():
        voice_note(HERE / "day2" / name, voice, text)
    booking_pdf(HERE / "day3/Palais_booking_confirmation_2026-01-20.pdf")
    board_video(HERE / "day3/room_plan_screen_2026-03-11.mp4")
    whiteboard(HERE / "day4/whiteboard_2026-03-12.jpg")


if __name__ == "__main__":
    main()
