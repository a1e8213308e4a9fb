"""Regenerate the review-screening task's evidence deterministically (the outputs are committed).

    python tasks/research_assistant/review_screening/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (the text PDF),
Pillow (the poster photo: drawn, then warped, blurred and speckled like a phone photo, no text layer).

- day1/RV-07_topup_abstracts.pdf  text PDF: the six abstracts of the top-up search (R-049..R-054);
  R-052's conference abstract gives neither the trial's length nor its size
- day1/R-052_poster_photo.jpg      photo of the conference poster P-1187: its design table gives the
  duration (10 weeks) and the number randomised (64) that decide R-052's screening
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
A, P = F.abstracts, F.poster
FONTS = Path("/usr/share/fonts/truetype/dejavu")

ABSTRACTS = [
    (
        "R-049",
        "Lindqvist A, Baptiste R, Holm S, et al. Diabetes Care 2025; 48(6): 1021-1030.",
        "Ten-hour time-restricted eating versus standard dietary advice for glycaemic control in type 2 "
        "diabetes: a randomised controlled trial",
        f"Background: Limiting the daily eating window may improve glycaemia. Methods: In this two-centre trial, "
        f"{A.r049_n} adults (aged 35-70 years) with type 2 diabetes and HbA1c 7.0-10.0% were randomised 1:1 to "
        f"time-restricted eating within a 10-hour daily window or to standard dietary advice for "
        f"{A.r049_weeks} weeks. The primary outcome was the change in HbA1c. Results: HbA1c fell by 0.52 "
        "percentage points more with time-restricted eating (95% CI 0.21 to 0.83). Body weight fell by 2.1 kg "
        "more. Conclusions: A 10-hour eating window lowered HbA1c in adults with type 2 diabetes.",
    ),
    (
        "R-050",
        "Park S-H, Cho Y, Lee J, et al. Nutrients 2024; 16(22): 3874.",
        "A 12-hour eating window and glycaemic control in adults with type 2 diabetes: a randomised trial",
        f"Methods: 80 adults with type 2 diabetes were randomised to eat within a {A.r050_window_h}-hour daily "
        "window (08:00-20:00) or to continue usual care for 14 weeks. Outcomes were HbA1c, fasting glucose and "
        "weight. Results: HbA1c changed by -0.18 versus -0.05 percentage points (p = 0.21). Conclusions: A "
        "12-hour window, the most acceptable form of time-restricted eating, did not improve HbA1c.",
    ),
    (
        "R-051",
        "Adeyemi T, Brooks L, Osei K, et al. Prim Care Diabetes 2025; 19(2): 141-148.",
        "Eight-hour time-restricted eating in type 2 diabetes: a non-randomised controlled study in primary care",
        "Methods: Eight general practices offered an 8-hour eating window to adults with type 2 diabetes; patients "
        "of four neighbouring practices receiving usual care served as controls (allocation by practice, not "
        "randomised). 124 adults took part for 12 weeks. Results: HbA1c fell by 0.31 percentage points more in "
        "the time-restricted eating practices (95% CI 0.08 to 0.54).",
    ),
    (
        "R-052",
        f"Haugland E, Moreau P, Sandvik I. Diabetologia 2025; 68(Suppl 1): abstract {P.code}.",
        "Eight-hour time-restricted eating versus usual care in type 2 diabetes: the TIMELY-8 randomised "
        "controlled trial (EASD 2025 conference abstract)",
        "Background and aims: We tested whether an 8-hour daily eating window (10:00-18:00) improves glycaemic "
        "control in type 2 diabetes. Materials and methods: Adults with type 2 diabetes on metformin were "
        "randomised to time-restricted eating or usual care. Results: HbA1c decreased more with time-restricted "
        "eating than with usual care (-0.40 percentage points, p = 0.03); weight fell by 1.6 kg. Conclusion: "
        f"An 8-hour window improved HbA1c. Trial design, numbers and duration are given on poster {P.code}.",
    ),
    (
        "R-053",
        "Castillo M, Ferreira D, Ruiz A, et al. Clin Nutr 2024; 43(9): 2012-2020.",
        "Time-restricted eating and HbA1c in adults with prediabetes: a randomised controlled trial",
        "Methods: 110 adults with prediabetes (HbA1c 5.7-6.4%) were randomised to an 8-hour eating window or to "
        "usual care for 12 weeks. Results: HbA1c fell by 0.12 percentage points more with time-restricted eating "
        "(95% CI 0.03 to 0.21); fewer participants progressed to diabetes.",
    ),
    (
        "R-054",
        "Nakamura K, Tanaka H, Mori S, et al. J Diabetes Investig 2025; 16(4): 602-611.",
        "Nine-hour time-restricted eating in type 2 diabetes: a 24-week randomised trial",
        f"Methods: 72 adults with type 2 diabetes were randomised to a 9-hour eating window or to standard "
        f"dietary advice for {A.r054_weeks} weeks. Outcomes were body weight, fasting plasma glucose and "
        "quality of life. Results: Weight fell by 2.8 kg and fasting glucose by 0.6 mmol/L more with "
        "time-restricted eating; quality of life did not differ.",
    ),
]


def _wrap(c: canvas.Canvas, text: str, width: float, font: str, size: float) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if c.stringWidth(trial, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return [*lines, line] if line else lines


def abstracts_pdf(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle("RV-07 top-up search 2025-10-31: abstracts of new records")
    y = 790.0

    def header() -> float:
        c.setFont("Helvetica-Bold", 13)
        c.drawString(55, 800, "RV-07 top-up search (31 Oct 2025) - abstracts of the 6 new records")
        c.setFont("Helvetica", 8.5)
        c.drawString(55, 786, "Exported from EndNote by R. Okafor, information specialist. Duplicates already removed.")
        return 760.0

    y = header()
    for rid, cite, title, body in ABSTRACTS:
        need = (
            30 + 12 * len(_wrap(c, title, 480, "Helvetica-Bold", 10)) + 11.5 * len(_wrap(c, body, 480, "Helvetica", 9))
        )
        if y - need < 60:
            c.showPage()
            y = header()
        c.setFont("Helvetica-Bold", 10.5)
        c.drawString(55, y, f"Record {rid}")
        y -= 14
        c.setFont("Helvetica-Bold", 10)
        for line in _wrap(c, title, 480, "Helvetica-Bold", 10):
            c.drawString(55, y, line)
            y -= 12
        c.setFont("Helvetica-Oblique", 8.5)
        c.drawString(55, y, cite)
        y -= 13
        c.setFont("Helvetica", 9)
        for line in _wrap(c, body, 480, "Helvetica", 9):
            c.drawString(55, y, line)
            y -= 11.5
        y -= 16
    c.save()


def poster_photo(path: Path) -> None:
    """A phone photo of the poster's methods panel: warped, soft, speckled; the numbers only in pixels."""
    w, h = 1000, 720
    img = Image.new("RGB", (w, h), (236, 238, 232))
    d = ImageDraw.Draw(img)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 30)
    head = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 22)
    mid = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 21)
    small = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 15)
    d.rectangle((0, 0, w, 92), fill=(18, 60, 112))
    d.text((28, 14), f"{P.code}  TIMELY-8: 8-h time-restricted eating vs usual care", font=bold, fill=(255, 255, 255))
    d.text((28, 56), "Haugland E, Moreau P, Sandvik I  -  Bergen / Lyon", font=small, fill=(210, 225, 245))
    d.rectangle((28, 116, 600, 600), outline=(18, 60, 112), width=3)
    d.text((44, 128), "METHODS", font=head, fill=(18, 60, 112))
    rows = [
        ("Design", "parallel-group RCT, 2 centres"),
        ("Participants", "adults 30-70 y, type 2 diabetes"),
        ("", "on metformin, HbA1c 7.0-10.0 %"),
        ("Randomised", f"n = {P.n}  ({P.arm_n} TRE / {P.n - P.arm_n} usual care)"),
        ("Intervention", "eating window 10:00-18:00 daily"),
        ("Duration", f"{P.weeks} weeks"),
        ("Primary outcome", "change in HbA1c"),
        ("Analysis", "ANCOVA, intention to treat"),
    ]
    y = 178
    for key, value in rows:
        d.text((44, y), key, font=mid, fill=(40, 40, 40))
        d.text((250, y), value, font=mid, fill=(10, 10, 10))
        d.line((44, y + 34, 584, y + 34), fill=(190, 195, 190), width=1)
        y += 48
    d.rectangle((630, 116, 972, 600), outline=(18, 60, 112), width=3)
    d.text((646, 128), "RESULTS: HbA1c", font=head, fill=(18, 60, 112))
    d.line((680, 520, 940, 520), fill=(30, 30, 30), width=2)
    for x0, height, colour, label in ((700, 150, (200, 90, 40), "TRE"), (820, 55, (120, 120, 120), "UC")):
        d.rectangle((x0, 520 - height, x0 + 80, 520), fill=colour)
        d.text((x0 + 18, 530), label, font=mid, fill=(30, 30, 30))
    d.text((650, 180), "fall from baseline (%-points)", font=small, fill=(60, 60, 60))
    d.text((690, 330), "-0.55", font=mid, fill=(30, 30, 30))
    d.text((815, 430), "-0.15", font=mid, fill=(30, 30, 30))
    d.text(
        (28, 640),
        "Funded by the Western Norway Health Authority.  Contact: e.haugland@uib.example",
        font=small,
        fill=(70, 70, 70),
    )
    # the phone: a perspective tilt, a soft focus, sensor noise, then a JPEG (seeded: same bytes every run)
    img = img.transform(
        (w, h),
        Image.Transform.PERSPECTIVE,
        (1.03, 0.045, -22, -0.02, 1.04, 6, 0.00004, 0.00006),
        resample=Image.Resampling.BICUBIC,
        fillcolor=(92, 88, 80),
    )
    rnd = random.Random(1187)
    px = img.load()
    for _ in range(6000):
        x, yy = rnd.randrange(w), rnd.randrange(h)
        r, g, b = px[x, yy]
        n = rnd.randrange(-28, 28)
        px[x, yy] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    img = img.filter(ImageFilter.GaussianBlur(0.7)).resize((820, 590), Image.Resampling.LANCZOS)
    img.save(path, format="JPEG", quality=72, optimize=True)


def main() -> None:
    target = HERE / "day1"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    abstracts_pdf(target / "RV-07_topup_abstracts.pdf")
    poster_photo(target / "R-052_poster_photo.jpg")


if __name__ == "__main__":
    main()
