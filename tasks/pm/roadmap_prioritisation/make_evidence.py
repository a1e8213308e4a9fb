"""Regenerate this task's evidence files deterministically (run once; the outputs are committed).

    python tasks/pm/roadmap_prioritisation/make_evidence.py

Needs openpyxl and Pillow (authoring time only; running the benchmark does not).

- ``day1/feature_requests_q3.xlsx``: the analyst's feature-request export (reach, impact, confidence,
  effort per feature); F-104's reach is blank and points at the usage dashboard.
- ``day1/usage_dashboard_90d.png``: a dashboard screenshot; its tile "Accounts exporting manually"
  (1,240) is F-104's reach and exists nowhere else. A neighbouring tile (export clicks) is a decoy.

The xlsx is re-zipped with fixed timestamps and fixed document properties so a re-run gives the same bytes.
"""

from __future__ import annotations

import re
import zipfile
from datetime import datetime
from io import BytesIO
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font
from PIL import Image, ImageDraw, ImageFont

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
FONTS = Path("/usr/share/fonts/truetype/dejavu")
SANS = str(FONTS / "DejaVuSans.ttf")
SANS_BOLD = str(FONTS / "DejaVuSans-Bold.ttf")

F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
NAMES = [
    # key, feature, note (reach, impact, confidence and effort come from facts.toml [inputs])
    ("F-101", "Custom alert thresholds", ""),
    ("F-102", "Dashboard dark mode", ""),
    ("F-103", "Embedded analytics SDK", ""),
    ("F-104", "Scheduled exports", "Reach = accounts exporting manually in the last 90 days (see usage dashboard)"),
    ("F-105", "SSO audit log", "Enterprise ask; interviews pending"),
    ("F-106", "Mobile app (beta)", ""),
]
DASHBOARD_ONLY = "F-104"  # its reach is blank in the export: only the dashboard tile shows it
FEATURES = [
    # key, feature, reach (accounts/quarter) or None, impact, confidence, effort (person-months), note
    (key, name, None if key == DASHBOARD_ONLY else F.inputs[key][0], *F.inputs[key][1:], note)
    for key, name, note in NAMES
]
FIXED = datetime(2025, 5, 30, 17, 0, 0)


def xlsx(path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Requests"
    ws.append(
        ["Key", "Feature", "Reach (accounts/qtr)", "Impact (0.25-3)", "Confidence", "Effort (person-months)", "Notes"]
    )
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for key, name, reach, impact, conf, effort, note in FEATURES:
        ws.append([key, name, reach, impact, conf, effort, note])
    for row in ws.iter_rows(min_row=2, min_col=5, max_col=5):
        row[0].number_format = "0%"
    for col, width in zip("ABCDEFG", (8, 28, 20, 15, 12, 22, 60)):
        ws.column_dimensions[col].width = width
    meta = wb.create_sheet("Export info")
    meta.append(["Exported", "2025-05-30 17:00"])
    meta.append(["Source", "Productboard - Q3 candidates"])
    meta.append(["Scale", "Impact: 3 massive, 2 high, 1 medium, 0.5 low, 0.25 minimal"])
    wb.properties.creator = "Nadia Haddad"
    wb.properties.created = FIXED
    wb.properties.modified = FIXED
    buf = BytesIO()
    wb.save(buf)
    _rezip(buf.getvalue(), path)


def _rezip(data: bytes, path: Path) -> None:
    """Rewrite a zip with fixed entry timestamps (zip members otherwise carry the wall clock)."""
    src = zipfile.ZipFile(BytesIO(data))
    out = BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":  # openpyxl stamps 'modified' with the save time
                body = re.sub(rb"<dcterms:modified([^>]*)>[^<]*<", rb"<dcterms:modified\1>2025-05-30T17:00:00Z<", body)
            fixed = zipfile.ZipInfo(info.filename, date_time=(2025, 5, 30, 17, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(fixed, body)
    path.write_bytes(out.getvalue())


def dashboard(path: Path) -> None:
    W, H = 960, 600
    img = Image.new("RGB", (W, H), (244, 246, 250))
    d = ImageDraw.Draw(img)
    f = lambda size, bold=False: ImageFont.truetype(SANS_BOLD if bold else SANS, size)  # noqa: E731
    d.rectangle([0, 0, W, 56], fill=(28, 39, 64))
    d.text((24, 16), "Tidewater Analytics  ·  Usage overview", fill=(255, 255, 255), font=f(20, True))
    d.text((690, 20), "Last 90 days (Mar 3 - May 31)", fill=(180, 190, 210), font=f(14))
    tiles = [
        ("Active accounts", "3,912", "+4.1% vs previous 90 days"),
        ("Accounts exporting manually", f"{F.inputs[DASHBOARD_ONLY][0]:,}", "CSV/XLSX download, 1+ per month"),
        ("Export clicks", f"{F.dashboard.export_clicks:,}", "all accounts"),
        ("Avg. session length", "14.2 min", "-0.6 min vs previous 90 days"),
    ]
    x = 24
    for title, value, sub in tiles:
        d.rounded_rectangle([x, 76, x + 216, 196], radius=8, fill=(255, 255, 255), outline=(214, 220, 230))
        d.text((x + 14, 88), title, fill=(90, 100, 120), font=f(13))
        d.text((x + 14, 112), value, fill=(20, 30, 50), font=f(34, True))
        d.text((x + 14, 164), sub, fill=(130, 140, 155), font=f(11))
        x += 230
    # weekly active users chart
    d.rounded_rectangle([24, 216, 936, 576], radius=8, fill=(255, 255, 255), outline=(214, 220, 230))
    d.text((40, 228), "Weekly active users", fill=(40, 50, 70), font=f(15, True))
    left, top, right, bottom = 80, 270, 910, 540
    for i in range(5):
        y = bottom - i * (bottom - top) // 4
        d.line([(left, y), (right, y)], fill=(232, 235, 240))
        d.text((34, y - 8), f"{6000 + i * 1000:,}", fill=(140, 145, 160), font=f(11))
    weeks = [6820, 7010, 6950, 7200, 7420, 7380, 7610, 7790, 7700, 8020, 8150, 8090, 8310]
    pts = [
        (left + i * (right - left) // (len(weeks) - 1), bottom - (v - 6000) * (bottom - top) // 4000)
        for i, v in enumerate(weeks)
    ]
    d.line(pts, fill=(52, 120, 246), width=3)
    for i, (px, py) in enumerate(pts):
        d.ellipse([px - 4, py - 4, px + 4, py + 4], fill=(52, 120, 246))
        if i % 2 == 0:
            d.text((px - 12, bottom + 10), f"W{10 + i}", fill=(140, 145, 160), font=f(11))
    img.save(path, format="PNG", optimize=True)


def main() -> None:
    day1 = HERE / "day1"
    day1.mkdir(parents=True, exist_ok=True)
    xlsx(day1 / "feature_requests_q3.xlsx")
    dashboard(day1 / "usage_dashboard_90d.png")


if __name__ == "__main__":
    main()
