"""Regenerate this task's evidence files deterministically (run once; the outputs are committed).

    python tasks/research_assistant/grant_report/make_evidence.py

Needs reportlab and Pillow (authoring time only; running the benchmark does not).

- ``day1/papers/*.pdf``: the lab's published paper (the only place giving 312 samples sequenced,
  journal, year and DOI) and its bioRxiv preprint (text PDFs, reportlab ``invariant=1``).
- ``day1/data/plot_biomass_2025.csv``: this season's 48 plots (4 sites × control/drought × 6).
  Plots D-DR-05 and D-DR-06 were flooded (announced on day 2): their biomass is an outlier.
- ``day1/figures/colonisation_by_site.png``: a lab-meeting bar chart; site C's value (41 %) exists
  only in this image.

Run it with ``--print`` to see the expected means.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")
SANS = str(FONTS / "DejaVuSans.ttf")
SANS_BOLD = str(FONTS / "DejaVuSans-Bold.ttf")

SITES = {"A": (52.0, 40.0), "B": (49.0, 38.0), "C": (47.0, 36.0), "D": (45.0, 34.0)}  # control, drought base (g)
OFFSETS = [-1.2, 0.4, 0.9, -0.3, 0.6, -0.4]  # per replicate; sums to zero
FLOODED = dict(zip(F.expected.flooded, (14.2, 12.9)))  # D-DR-05, D-DR-06: irrigation leak, not comparable
COLONISATION = {"A": 58, "B": 47, "C": F.expected.colonisation_c, "D": 36}


def plots() -> list[dict[str, str]]:
    rows = []
    for site, (control, drought) in SITES.items():
        for treatment, base, code in (("control", control, "CT"), ("drought", drought, "DR")):
            for i, off in enumerate(OFFSETS, start=1):
                pid = f"{site}-{code}-{i:02d}"
                value = FLOODED.get(pid, round(base + off, 1))
                rows.append(
                    {
                        "plot_id": pid,
                        "site": site,
                        "treatment": treatment,
                        "replicate": str(i),
                        "harvest_date": f"2025-08-{11 + 'ABCD'.index(site):02d}",
                        "biomass_g": f"{value:.1f}",
                    }
                )
    return rows


def means(rows: list[dict[str, str]], exclude: tuple[str, ...] = ()) -> tuple[float, float, float]:
    pick = lambda t: [float(r["biomass_g"]) for r in rows if r["treatment"] == t and r["plot_id"] not in exclude]  # noqa: E731
    control, drought = sum(pick("control")) / len(pick("control")), sum(pick("drought")) / len(pick("drought"))
    return round(control, 2), round(drought, 2), round((drought - control) / control * 100, 1)


def data_csv(path: Path) -> None:
    rows = plots()
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def paper(path: Path, title: list[str], authors: str, venue: str, doi: str, body: list[str], preprint: bool) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(" ".join(title))
    c.setAuthor(authors)
    y = 790
    c.setFont("Helvetica", 9)
    c.drawString(60, y, venue)
    y -= 14
    c.drawString(60, y, f"https://doi.org/{doi}")
    if preprint:
        c.drawString(330, y, "This article is a preprint and has not been certified by peer review.")
    y -= 40
    c.setFont("Helvetica-Bold", 16)
    for line in title:
        c.drawString(60, y, line)
        y -= 20
    y -= 6
    c.setFont("Helvetica", 11)
    c.drawString(60, y, authors)
    y -= 14
    c.setFont("Helvetica-Oblique", 9)
    c.drawString(60, y, "Department of Biology, Lund Agricultural Sciences Institute, Sweden")
    y -= 34
    c.setFont("Helvetica-Bold", 11)
    c.drawString(60, y, "Abstract")
    y -= 16
    c.setFont("Helvetica", 10)
    for line in body:
        c.drawString(60, y, line)
        y -= 14
    c.save()


def papers(folder: Path) -> None:
    paper(
        folder / "osei2025_soil_biology_biochemistry.pdf",
        ["Drought legacy reshapes rhizosphere communities", "of field-grown barley"],
        "Amara Osei, Karin Lindgren, Mateo Ruiz",
        f"{F.papers.p1_journal} 203 (2025) 109712",
        F.papers.p1_doi,
        [
            "Repeated drought leaves a legacy in agricultural soils, but how it shapes the rhizosphere",
            f"microbiome of cereal crops in the field is poorly resolved. We sequenced {F.expected.samples_sequenced} rhizosphere",
            "samples (16S rRNA gene and ITS amplicons) collected during the 2024 season at four field",
            "sites in southern Sweden, from 96 plots under rain-out shelters and ambient controls.",
            "Drought legacy explained 14% of bacterial and 9% of fungal community variation and enriched",
            "Actinobacteria and arbuscular mycorrhizal fungi. Plants on legacy soils lost less biomass",
            "in a second drought. The data are part of project NRC-4417 (Nordic Research Council).",
            "",
            "Keywords: drought legacy; rhizosphere; barley; amplicon sequencing; mycorrhiza",
            "Received 2 December 2024; accepted 28 February 2025; available online 14 March 2025",
        ],
        preprint=False,
    )
    paper(
        folder / "lindgren2025_biorxiv_preprint.pdf",
        ["Arbuscular mycorrhizal inoculation buffers barley", "biomass loss under drought"],
        "Karin Lindgren, Amara Osei",
        f"{F.papers.p2_preprint_server} preprint, posted 11 March 2025",
        F.papers.p2_preprint_doi,
        [
            "We tested whether inoculation with a native arbuscular mycorrhizal consortium reduces the",
            "biomass penalty of drought in spring barley. In a greenhouse experiment with 120 pots,",
            "inoculated plants lost 18% less shoot biomass than non-inoculated plants under a 40%",
            "water deficit. Field validation is under way at the four NRC-4417 sites.",
            "",
            "Keywords: mycorrhiza; inoculant; drought; barley",
        ],
        preprint=True,
    )


def chart(path: Path) -> None:
    W, H = 760, 520
    img = Image.new("RGB", (W, H), (255, 255, 255))
    d = ImageDraw.Draw(img)
    f = lambda size, bold=False: ImageFont.truetype(SANS_BOLD if bold else SANS, size)  # noqa: E731
    d.text((40, 20), "Root colonisation by AM fungi, 2025 season", fill=(20, 20, 20), font=f(20, True))
    d.text(
        (40, 50), "mean of 6 drought plots per site, % root length colonised (± s.e.)", fill=(90, 90, 90), font=f(13)
    )
    left, top, right, bottom = 90, 100, 720, 450
    for v in range(0, 71, 10):
        y = bottom - v * (bottom - top) // 70
        d.line([(left, y), (right, y)], fill=(230, 230, 230))
        d.text((left - 34, y - 8), f"{v}", fill=(110, 110, 110), font=f(12))
    d.line([(left, top), (left, bottom), (right, bottom)], fill=(60, 60, 60), width=2)
    colours = [(46, 110, 160), (80, 150, 110), (214, 140, 60), (160, 80, 120)]
    for i, (site, value) in enumerate(COLONISATION.items()):
        x0 = left + 40 + i * 150
        y = bottom - value * (bottom - top) // 70
        d.rectangle([x0, y, x0 + 90, bottom], fill=colours[i])
        d.line([(x0 + 45, y - 14), (x0 + 45, y + 14)], fill=(30, 30, 30), width=2)
        d.line([(x0 + 35, y - 14), (x0 + 55, y - 14)], fill=(30, 30, 30), width=2)
        d.text((x0 + 28, y - 40), f"{value}%", fill=(20, 20, 20), font=f(16, True))
        d.text((x0 + 22, bottom + 10), f"Site {site}", fill=(40, 40, 40), font=f(14))
    d.text((40, 490), "Lab meeting 2025-09-08 (M. Ruiz) - unpublished", fill=(130, 130, 130), font=f(11))
    img.save(path, format="PNG", optimize=True)


def main() -> None:
    day1 = HERE / "day1"
    for sub in ("papers", "data", "figures"):
        (day1 / sub).mkdir(parents=True, exist_ok=True)
    papers(day1 / "papers")
    data_csv(day1 / "data" / F.names.data_file)
    chart(day1 / "figures" / "colonisation_by_site.png")
    if "--print" in sys.argv:
        rows = plots()
        print("all plots:", means(rows), "without flooded:", means(rows, tuple(FLOODED)))


if __name__ == "__main__":
    main()
