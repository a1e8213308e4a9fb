"""Regenerate the timing-ECO task's evidence deterministically (the outputs are committed).

    python tasks/eda/timing_eco/make_evidence.py

Authoring-time tools only: reportlab (the STA reports, text PDFs), Pillow (the layout screenshot,
pixels only), espeak-ng + ffmpeg (the STA lead's voice note, 16 kHz mono MP3).

- day1/sta/LX-7_B1_sta_round2.pdf      text PDF: four violations, slacks, the tool's fix suggestions
- day1/layout/ddr_phy_spares.png       layout view: SPR_BUF_17 already wired (ECO-R1-07), 22 and 31 free
- day2/voice_notes/tomasz_2027-06-14_1840.mp3  Tomasz: in the lab all Wednesday morning
- day3/sta/LX-7_B1_sta_round3.pdf      text PDF: the approved ECOs applied, all met
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
E = F.ecos
FONTS = Path("/usr/share/fonts/truetype/dejavu")

VOICE = (
    "Hi Priya, Tomasz here, Monday evening. For the B1 sign-off review Hiro wants this week: I'm in the lab with the "
    "bring-up boards all Wednesday morning, so anything before lunch on Wednesday won't work for me. "
    "Wednesday afternoon is fine. Cheers."
)


def font(size: int, *, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSansMono.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return ImageFont.truetype(str(FONTS / name), size)


def _pdf(path: Path, title: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(title)
    c.setFont("Helvetica-Bold", 13)
    c.drawString(50, 800, title)
    y = 775
    for line in lines:
        bold = line.startswith("## ")
        c.setFont("Helvetica-Bold" if bold else "Courier", 10 if bold else 8.6)
        c.drawString(50, y, line.removeprefix("## "))
        y -= 13
    c.save()


def round2(path: Path) -> None:
    lines = [
        "Signoff STA, LX-7 B1 (metal-only respin), PrimeTime-style summary. Setup corner ss_0p72v_125c, hold ff_0p88v_m40c.",
        "",
    ]
    suggestions = {
        "ECO-B1-01": [
            f"  1. upsize {F.fixes.v1_upsize} NAND2X1 -> NAND2X4 ............ est. +45 ps (footprint change)",
            f"  2. reroute net {F.fixes.v1_net} on M7 (M6 via access) ...... est. +41 ps",
        ],
        "ECO-B1-02": ["  1. insert buffer on net n_20417 at (812, 233) from a spare buffer ... est. +19 ps"],
        "ECO-B1-03": [f"  1. insert delay from spare cell {F.spares.delay} on net n_3307 ..... est. +9 ps"],
        "ECO-B1-04": ["  1. reroute net n_15502 on M5 .......................... est. +4 ps"],
    }
    for eco, endpoint, slack, check in zip(E.ids, E.endpoints, E.slacks, E.checks):
        lines += [f"## {eco}  endpoint {endpoint}", f"  check {check:5}  slack {slack:+d} ps  (VIOLATED)", "  fix suggestions:",
                  *suggestions[eco], ""]  # fmt: skip
    lines += ["Total: 4 violating endpoints in blocks u_cpu, u_ddr, u_io, u_dsp (owner P. Raman)."]
    _pdf(path, "LX-7 B1 STA round 2 - T. Wrona, 2027-06-11", lines)


def round3(path: Path) -> None:
    lines = [
        "Signoff STA, LX-7 B1, with ECO-B1-01 (reroute n_8812 on M7), ECO-B1-02 (spare buffer SPR_BUF_31) and",
        "ECO-B1-03 (spare delay SPR_DLY_08) applied; ECO-B1-04 waived.",
        "",
        "## Endpoint                          check  slack",
        "u_cpu/u_alu/acc_reg_31_/D           setup  +3 ps   MET",
        "u_ddr/u_phy/dq_ff_5_/D              setup  +4 ps   MET",
        "u_io/u_sync/meta_ff_0_/D            hold   +2 ps   MET",
        "u_dsp/u_mac/prod_reg_12_/D          setup  -3 ps   WAIVED",
        "",
        "No new violations. Round 3 is clean for the B1 freeze.",
    ]
    _pdf(path, "LX-7 B1 STA round 3 - T. Wrona, 2027-06-15", lines)


def layout(path: Path) -> None:
    """A P&R layout view of the DDR PHY corner: rows, the target pin and the spare buffers."""
    w, h = 720, 480
    img = Image.new("RGB", (w, h), (18, 18, 26))
    d = ImageDraw.Draw(img)
    x_of = lambda x: int((x - 760) * 5.2)  # noqa: E731 - layout um -> pixels (window 760..890 um)
    y_of = lambda y: int(h - 40 - (y - 190) * 4.6)  # noqa: E731 - window 190..285 um
    for k in range(0, 12):
        y = 30 + k * 36
        d.rectangle((0, y, w, y + 18), fill=(30, 30, 44))
    for x in range(760, 891, 10):
        d.line((x_of(x), h - 36, x_of(x), h - 30), fill=(200, 200, 200))
        if x % 20 == 0:
            d.text((x_of(x) - 12, h - 26), f"{x}", font=font(11, mono=True), fill=(200, 200, 200))
    for k in range(30):  # ordinary std cells
        cx, cy = 10 + (k * 97) % 690, 36 + (k * 53) % 400
        d.rectangle((cx, cy, cx + 26, cy + 12), outline=(90, 90, 120), fill=(45, 45, 70))
    px, py = x_of(812), y_of(233)
    d.ellipse((px - 6, py - 6, px + 6, py + 6), fill=(250, 220, 40))
    d.text((px + 14, py - 6), "n_20417 (812, 233)", font=font(12, mono=True), fill=(250, 220, 40))
    cells = [("SPR_BUF_17", 810.0, 240.5, "USED ECO-R1-07", (220, 50, 50)), ("SPR_BUF_22", 835.2, 218.0, "FREE", (60, 200, 90)),
             ("SPR_BUF_31", 871.6, 262.4, "FREE", (60, 200, 90))]  # fmt: skip
    for name, x, y, state, colour in cells:
        cx, cy = x_of(x), y_of(y)
        d.rectangle((cx - 18, cy - 9, cx + 18, cy + 9), outline=colour, width=3)
        d.text((cx - 40, cy - 44), name, font=font(12, mono=True), fill=(230, 230, 230))
        d.text((cx - 40, cy - 29), state, font=font(11, bold=True), fill=colour)
    d.line((x_of(810.0) - 18, y_of(240.5), x_of(778), y_of(205)), fill=(220, 50, 50), width=2)  # its ECO wire
    d.text(
        (8, 6), "LX-7 B1  u_ddr/u_phy  spare cells  (layout view, um)", font=font(13, bold=True), fill=(220, 220, 240)
    )
    img.save(path, format="PNG", optimize=True)


def voice_note(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "v.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "165", "-p", "30", "-w", str(wav), VOICE], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/sta", "day1/layout", "day2/voice_notes", "day3/sta"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    round2(HERE / "day1/sta/LX-7_B1_sta_round2.pdf")
    layout(HERE / "day1/layout/ddr_phy_spares.png")
    voice_note(HERE / "day2/voice_notes/tomasz_2027-06-14_1840.mp3")
    round3(HERE / "day3/sta/LX-7_B1_sta_round3.pdf")


if __name__ == "__main__":
    main()
