"""Regenerate the reorg-role-mapping task's evidence deterministically (the outputs are committed).

    python tasks/hr/reorg_role_mapping/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the org chart and the
scan) and reportlab (the wrapper of the scan, the text PDF of the draft notices).

- day1/reorg/CustOps_proposed_structure_v3.png   the proposed org chart (pixels only): each new
  role's ID, title, grade, number of posts and the current role it comes from
- day2/reorg/HR1_consultation_letter_signed.pdf  image-only PDF: the HR1 letter, dated 8 September,
  with the opening date of consultation handwritten by the HR Director
- day3/reorg/draft_notices_CustOps.pdf           text PDF: the line manager's draft termination notices
"""

from __future__ import annotations

import io
import random
import shutil
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


def font(size: int, kind: str = "sans") -> ImageFont.FreeTypeFont:
    files = {"sans": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "hand": "DejaVuSerif-Italic.ttf"}
    return ImageFont.truetype(str(FONTS / files[kind]), size)


# -- the org chart: boxes and lines, text only as pixels ------------------------------------------
def org_chart(path: Path) -> None:
    w, h = 1000, 560
    img = Image.new("RGB", (w, h), (250, 250, 247))
    d = ImageDraw.Draw(img)
    d.text((30, 20), "Customer Operations - proposed structure v3", font=font(24, "bold"), fill=(25, 40, 70))
    d.text((30, 54), "Signed off: G. Pryce, Director of Customer Operations", font=font(15), fill=(80, 80, 80))
    top = (380, 100, 620, 170)
    d.rounded_rectangle(top, radius=10, fill=(214, 226, 245), outline=(40, 60, 110), width=2)
    d.text((400, 112), "Head of Customer", font=font(17, "bold"), fill=(20, 30, 60))
    d.text((400, 136), "Operations (G7) - 1 post", font=font(15), fill=(20, 30, 60))
    boxes = sorted(F.chart)
    bw, gap, y0 = 176, 15, 260
    x = (w - len(boxes) * bw - (len(boxes) - 1) * gap) // 2
    d.line((500, 170, 500, 215), fill=(40, 60, 110), width=2)
    d.line((x + bw // 2, 215, x + (len(boxes) - 1) * (bw + gap) + bw // 2, 215), fill=(40, 60, 110), width=2)
    for role in boxes:
        r = F.chart[role]
        d.line((x + bw // 2, 215, x + bw // 2, y0), fill=(40, 60, 110), width=2)
        d.rounded_rectangle((x, y0, x + bw, y0 + 190), radius=10, fill=(236, 243, 230), outline=(50, 90, 50), width=2)
        d.text((x + 10, y0 + 10), role, font=font(15, "bold"), fill=(30, 60, 30))
        words, lines = r.title.split(), [""]
        for word in words:
            lines[-1] = f"{lines[-1]} {word}".strip() if len(lines[-1]) + len(word) < 16 else lines[-1]
            if lines[-1] and not lines[-1].endswith(word):
                lines.append(word)
        for i, line in enumerate(lines):
            d.text((x + 10, y0 + 36 + i * 22), line, font=font(16, "bold"), fill=(20, 20, 20))
        d.text((x + 10, y0 + 100), f"Grade {r.grade}", font=font(15), fill=(20, 20, 20))
        d.text((x + 10, y0 + 124), f"Posts: {r.posts}", font=font(15), fill=(20, 20, 20))
        d.text((x + 10, y0 + 150), f"from {r['from']}", font=font(15, "hand"), fill=(90, 50, 20))
        x += bw + gap
    d.text((30, 500), "Roles not shown on this chart are deleted. Posts = established FTE in the new structure.",
           font=font(14), fill=(90, 90, 90))  # fmt: skip
    img.save(path, format="PNG", optimize=True)


# -- the signed letter: an image-only scan --------------------------------------------------------
def letter(path: Path) -> None:
    c = F.consultation
    w, h = 850, 1100
    page = Image.new("L", (w, h), 249)
    d = ImageDraw.Draw(page)
    d.text((60, 50), "BRACKENFIELD FOODS LTD", font=font(26, "bold"), fill=20)
    d.text((60, 88), "Human Resources - Leeds", font=font(17), fill=40)
    d.text((560, 150), f"Dated: {c.letter_dated}", font=font(17), fill=25)
    d.text((60, 200), "To: the Employee Forum, Customer Operations", font=font(18), fill=20)
    d.text((60, 240), "Proposed restructure of Customer Operations: start of collective consultation",
           font=font(18, "bold"), fill=15)  # fmt: skip
    body = [
        "We propose to change the structure of Customer Operations as set out in",
        "the proposed structure (version 3). Some roles are proposed to be deleted",
        "or regraded and some employees may be at risk of redundancy.",
        "",
        "We will consult with you, and individually with every affected employee,",
        "for a period of not less than 30 days. No decision to dismiss anyone will",
        "be taken, and no notice will be given, before the consultation has ended.",
        "A copy of this letter goes with the HR1 form to the Redundancy Payments",
        "Service.",
    ]
    for i, line in enumerate(body):
        d.text((60, 290 + i * 28), line, font=font(17), fill=25)
    d.text((60, 580), "Consultation opens on:", font=font(19, "bold"), fill=20)
    d.rectangle((300, 566, 700, 620), outline=60, width=2)
    day = date.fromisoformat(c.start)
    opening = f"{day.day} {day:%B %Y}"
    d.text((320, 572), opening, font=font(34, "hand"), fill=10)  # handwritten by the HR Director
    d.text((60, 700), "Signed:", font=font(18), fill=30)
    d.text((160, 684), "O. Hughes", font=font(36, "hand"), fill=15)
    d.text((60, 750), "Olwen Hughes, HR Director", font=font(17), fill=30)
    rnd = random.Random(910)
    for _ in range(1800):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 200))
    page = page.rotate(-0.6, resample=Image.BICUBIC, expand=False, fillcolor=236).filter(ImageFilter.GaussianBlur(0.5))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=60, optimize=True)
    pdf = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    pdf.setTitle("scan_0908_1612")
    pw, ph = A4
    pdf.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=pw, height=ph)
    pdf.save()


# -- the draft notices: a text PDF ------------------------------------------------------------------
def draft_notices(path: Path) -> None:
    pdf = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    pdf.setTitle("Draft notices - Customer Operations")
    for role in ("Quality Analyst", "Quality Analyst", "Workforce Planner"):
        pdf.setFont("Helvetica-Bold", 14)
        pdf.drawString(60, 780, "Brackenfield Foods Ltd - Notice of termination of employment (DRAFT)")
        pdf.setFont("Helvetica", 11)
        y = 740
        for line in [
            "Dear [name],",
            "",
            f"Your role of {role} is redundant. This letter is your notice of termination.",
            f"Your employment will end on {F.draft.leaving_date}. Your final pay will follow in November.",
            "",
            "Yours sincerely,",
            "Gareth Pryce, Director of Customer Operations",
        ]:
            pdf.drawString(60, y, line)
            y -= 18
        pdf.showPage()
    pdf.save()


def main() -> None:
    for sub in ("day1", "day2", "day3"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
        (HERE / sub / "reorg").mkdir(parents=True)
    org_chart(HERE / "day1/reorg/CustOps_proposed_structure_v3.png")
    letter(HERE / "day2/reorg/HR1_consultation_letter_signed.pdf")
    draft_notices(HERE / "day3/reorg/draft_notices_CustOps.pdf")


if __name__ == "__main__":
    main()
