"""Regenerate the closing-coordinator task's evidence deterministically (the outputs are committed).

    python tasks/real_estate/closing_coordinator/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs),
Pillow (the addendum photo and the video frames), espeak-ng + ffmpeg (the lender's voicemail, the
walk-through clip: libx264, one thread, bit-exact flags).

- day1/title/KT-25-0917_title_commitment.pdf      text PDF: Schedule B-I requirements T-1..T-3
- day1/addendum/Addendum2_signed_photo.jpg        phone photo of the signed Addendum No. 2 (the seller
  credit is handwritten: pixels only)
- day1/voicemail/VM_Reilly_Bayview.mp3            the lender's voicemail: loan number and amount, the two
  funding conditions, the rate-lock expiry (audio only)
- day2/title/Tidewater_lien_release_recorded.pdf  text PDF: the recorded release of the mechanic's lien
- day2/title/Larkspur_Commons_HOA_estoppel.pdf    text PDF: the HOA's estoppel certificate
- day3/title/First_Coastal_payoff_statement.pdf   text PDF: the seller's payoff figure
- day3/walkthrough/VID_walkthrough_water_heater.mp4  a 4 s phone clip of the final walk-through; for
  about a second it shows the city's inspection sticker with the permit number (video only)
- day4/title/Coast_Mutual_insurance_binder.pdf    text PDF: the buyers' insurance binder
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
N = F.names
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, kind: str = "sans") -> ImageFont.FreeTypeFont:
    files = {"sans": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "serif": "DejaVuSerif.ttf",
             "hand": "DejaVuSerif-Italic.ttf", "mono": "DejaVuSansMono-Bold.ttf"}  # fmt: skip
    return ImageFont.truetype(str(FONTS / files[kind]), size)


def usd(amount: str) -> str:
    return f"${float(amount):,.2f}"


# -- text PDFs ----------------------------------------------------------------------------------
def lines_pdf(path: Path, title: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    y = 740
    for line in lines:
        bold = line.startswith("# ")
        c.setFont("Helvetica-Bold" if bold else "Helvetica", 13 if bold else 10)
        c.drawString(55, y, line[2:] if bold else line)
        y -= 22 if bold else 14
    c.save()


def commitment(path: Path) -> None:
    t = F.title
    lines_pdf(path, f"Title commitment {N.file_no}", [
        "# Keystone Title & Escrow - Commitment for Title Insurance",
        f"File no. {N.file_no}     Effective date: October 15, 2025 at 8:00 a.m.",
        f"Property: {N.property}      Proposed insured: {F.deal.buyers}; Bayview Home Lending",
        f"Vested owner: {F.deal.seller}        Policy amount: {usd(F.deal.price)}",
        "",
        "# Schedule B, Part I - Requirements",
        "The following requirements must be met before the policy issues (and before closing funds are released):",
        f"T-1  Payoff statement from {t.payoff_lender} for the deed of trust securing loan {t.payoff_loan},",
        "     and payment of it in full from the seller's proceeds at closing.",
        f"T-2  Recorded release of the mechanic's lien claimed by {t.lien_claimant},",
        f"     recorded April 3, 2025 as instrument {t.lien_instrument}, amount {usd(t.lien_amount)}.",
        f"T-3  Estoppel certificate from {t.hoa} showing assessments paid through the closing date.",
        "",
        "# Schedule B, Part II - Exceptions",
        "1. Taxes for the fiscal year 2025-2026, a lien not yet due.  2. Utility easement along the east line.",
        "",
        "Requirements are cleared only on the documents named above; the escrow officer releases funds only",
        "when every requirement and every lender condition is cleared.",
    ])  # fmt: skip


def lien_release(path: Path) -> None:
    t = F.title
    lines_pdf(path, "Release of mechanic's lien", [
        "# Port Ellis County Recorder - RECORDED",
        f"Instrument {F.evidence.lien_release_instrument}   recorded October 20, 2025  10:42",
        "",
        "# Release of Mechanic's Lien",
        f"{t.lien_claimant} releases in full the mechanic's lien recorded April 3, 2025 as instrument",
        f"{t.lien_instrument} against {N.property} (owner {F.deal.seller}), amount {usd(t.lien_amount)}.",
        "The claim has been paid.",
        "",
        "Signed: R. Castellano, member, Tidewater Roofing LLC    Notarized October 17, 2025",
    ])  # fmt: skip


def estoppel(path: Path) -> None:
    lines_pdf(path, "HOA estoppel certificate", [
        f"# {F.title.hoa} - Estoppel Certificate",
        f"Property: {N.property}     Owner: {F.deal.seller}     Escrow: Keystone Title, {N.file_no}",
        "Issued October 20, 2025; valid through November 20, 2025.",
        "",
        "Regular assessment: $185.00 per month, paid through October 31, 2025. No special assessments.",
        "No violations open. No amounts delinquent.",
        f"Transfer fee due from escrow at closing: {usd(F.evidence.estoppel_fee)}.",
        "",
        "M. Quist, community manager, for the Board",
    ])  # fmt: skip


def payoff(path: Path) -> None:
    t = F.title
    lines_pdf(path, "Payoff statement", [
        f"# {t.payoff_lender} - Payoff Statement",
        f"Loan {t.payoff_loan}    Borrower {F.deal.seller}    Property {N.property}",
        "Prepared October 22, 2025 for Keystone Title & Escrow",
        "",
        "Principal balance           $317,118.40",
        "Interest to 10/31/2025        $1,247.82",
        "Recording / reconveyance fee     $40.00",
        f"TOTAL PAYOFF good through October 31, 2025:   {usd(F.evidence.payoff_amount)}",
        "",
        "Wire to First Coastal Bank payoff department per the instructions on our portal only.",
    ])  # fmt: skip


def binder(path: Path) -> None:
    lines_pdf(path, "Insurance binder", [
        "# Coast Mutual Insurance - Evidence of Property Insurance (binder)",
        f"Binder / policy no. {F.evidence.binder_policy}     Effective October 28, 2025 to October 28, 2026",
        f"Insured: {F.deal.buyers}     Location: {N.property}",
        "Dwelling coverage $540,000; deductible $2,500; premium paid in full.",
        "Mortgagee: Bayview Home Lending, its successors and/or assigns (ISAOA/ATIMA),",
        f"loan no. {F.lender.loan_number}.",
        "",
        "Lena Park, agent, Coast Mutual Insurance",
    ])  # fmt: skip


# -- photo: the signed addendum on a desk --------------------------------------------------------
def addendum_photo(path: Path) -> None:
    a = F.addendum
    paper = Image.new("RGB", (760, 980), (250, 249, 244))
    d = ImageDraw.Draw(paper)
    ink = (30, 30, 35)
    d.text((50, 40), f"ADDENDUM NO. {a.number}", font=font(30, "bold"), fill=ink)
    d.text((50, 90), "to the Residential Purchase Agreement dated 09/19/2025", font=font(18), fill=ink)
    d.text((50, 120), f"Property: {N.property}", font=font(18), fill=ink)
    d.text((50, 150), f"Buyer: {F.deal.buyers}    Seller: {F.deal.seller}", font=font(18), fill=ink)
    d.text((50, 210), "1. Seller shall replace the 40-gallon water heater,", font=font(19, "serif"), fill=ink)
    d.text((72, 240), "with permit and final inspection, before closing.", font=font(19, "serif"), fill=ink)
    d.text((50, 300), "2. Seller credit to Buyer at closing toward", font=font(19, "serif"), fill=ink)
    d.text((72, 330), "roof repairs, in the amount of:", font=font(19, "serif"), fill=ink)
    d.line((72, 410, 420, 410), fill=ink, width=2)
    d.text((90, 360), f"${int(a.seller_credit):,}.00", font=font(38, "hand"), fill=(20, 40, 120))  # handwritten
    d.text((50, 470), "All other terms of the Agreement remain unchanged.", font=font(18, "serif"), fill=ink)
    for y, who, sig in ((580, "Buyer", "Nathan Brandt"), (660, "Buyer", "Elise Brandt"), (740, "Seller", "G. Pike")):
        d.line((170, y + 36, 480, y + 36), fill=ink, width=1)
        d.text((50, y + 12), who, font=font(18), fill=ink)
        d.text((185, y - 4), sig, font=font(34, "hand"), fill=(20, 40, 120))
        d.text((500, y + 12), "10/17/2025", font=font(20, "hand"), fill=(20, 40, 120))
    photo = Image.new("RGB", (900, 1100), (120, 86, 58))  # a wooden desk
    desk = ImageDraw.Draw(photo)
    rnd = random.Random(2750)
    for _ in range(220):
        y = rnd.randrange(1100)
        desk.line((0, y, 900, y + rnd.randrange(-8, 8)), fill=(rnd.randrange(100, 140), 78, 50), width=2)
    paper = paper.rotate(2.5, resample=Image.BICUBIC, expand=True, fillcolor=(120, 86, 58))
    photo.paste(paper, (50, 40))
    shade = Image.new("L", photo.size, 0)
    ImageDraw.Draw(shade).rectangle((600, 0, 900, 1100), fill=40)  # a shadow across the right side
    photo = Image.composite(Image.new("RGB", photo.size, (0, 0, 0)), photo, shade.filter(ImageFilter.GaussianBlur(60)))
    photo = photo.filter(ImageFilter.GaussianBlur(0.7))
    photo.save(path, format="JPEG", quality=58, optimize=True)


# -- audio: the lender's voicemail ----------------------------------------------------------------
VOICEMAIL = (
    "Hi Rosa, it's Tom Reilly at Bayview Home Lending, about the Brandt purchase on Larkspur Lane, your file "
    "K T 25 0 9 1 7. Our loan number is B V, 5 5 2 1 9 0, and the loan amount is four hundred ninety thousand "
    "dollars. We have issued the clear to close with two conditions before we fund. Condition one: the H O A "
    "estoppel certificate. Condition two: the homeowner's insurance binder naming Bayview as mortgagee. "
    "And a heads up, the rate lock expires on October thirtieth, so we have to fund by then. Thanks, bye."
)


def voicemail(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "158", "-p", "35", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


# -- video: the final walk-through ---------------------------------------------------------------
W, H, FPS = 480, 320, 10


def utility_room(zoom: float, shift: int) -> Image.Image:
    img = Image.new("RGB", (W, H), (196, 190, 176))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 240, W, H), fill=(120, 118, 112))  # floor
    cx, top = 240 + shift, int(40 - 30 * zoom)
    half = int(70 + 60 * zoom)
    d.rounded_rectangle((cx - half, top, cx + half, 250 + int(60 * zoom)), radius=30, fill=(232, 232, 228),
                        outline=(150, 150, 150), width=3)  # fmt: skip
    d.rectangle((cx - 10, top - 30, cx + 10, top), fill=(170, 110, 60))  # copper pipe
    return img


def sticker(img: Image.Image) -> Image.Image:
    d = ImageDraw.Draw(img)
    d.rectangle((110, 70, 370, 250), fill=(250, 236, 90), outline=(40, 40, 40), width=3)
    lines = ["CITY OF PORT ELLIS", "BUILDING DEPT", f"PERMIT {F.evidence.permit}", "WATER HEATER", "FINAL: APPROVED",
             "10/22/25  INSP. #14"]  # fmt: skip
    for i, line in enumerate(lines):
        d.text((124, 80 + i * 27), line, font=font(19, "mono"), fill=(20, 20, 20))
    return img


def walkthrough(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(4 * FPS):
            if i < 18:
                frame = utility_room(i / 18, (i % 4) - 2)
            elif i < 30:
                frame = sticker(utility_room(1.0, (i % 3) - 1))
            else:
                frame = utility_room(1 - (i - 30) / 10, 0)
            frame.save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day2", "day3", "day4"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day1/title", "day1/addendum", "day1/voicemail", "day2/title", "day3/title", "day3/walkthrough",
                "day4/title"):  # fmt: skip
        (HERE / sub).mkdir(parents=True)
    commitment(HERE / "day1" / N.commitment)
    addendum_photo(HERE / "day1" / N.addendum)
    voicemail(HERE / "day1" / N.voicemail)
    lien_release(HERE / "day2" / N.lien_release)
    estoppel(HERE / "day2" / N.estoppel)
    payoff(HERE / "day3" / N.payoff)
    walkthrough(HERE / "day3" / N.walkthrough)
    binder(HERE / "day4" / N.binder)


if __name__ == "__main__":
    main()
