"""Regenerate this task's evidence files deterministically (run once; the outputs are committed).

    python tasks/eda/tapeout_signoff/make_evidence.py

Needs Pillow (authoring time only). Produces, for the Orca-2 SoC tape-out week:

- regression_r118.csv, regression_r119.csv, regression_r120.csv: nightly regressions (120 tests).
- sta_summary_run42.csv, sta_summary_run43.csv, sta_summary_run44.csv: per corner/mode/check
  WNS, TNS and violating-endpoint counts (no path or endpoint names).
- sta_paths_run42.png, sta_paths_run43.png, sta_paths_run44.png: screenshots of the STA tool's
  path browser for the worst corner: a slack histogram and the worst paths with their endpoint
  names, which exist only in these images.
- pcie_link_retrain_wave.png: a waveform-viewer screenshot; the failing lane's signal name is
  visible only here.
"""

from __future__ import annotations

import csv
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = "/usr/share/fonts/truetype/dejavu/"
MONO = FONTS + "DejaVuSansMono.ttf"
MONO_B = FONTS + "DejaVuSansMono-Bold.ttf"
SANS = FONTS + "DejaVuSans.ttf"
SANS_B = FONTS + "DejaVuSans-Bold.ttf"

BLOCK_TESTS = {
    "cpu_ss": ["boot_rom", "l2_ecc", "irq_nest", "wfi_wake", "mmu_walk", "dbg_halt"],
    "dma": ["desc_chain_wrap", "desc_chain_wrap_long", "burst_4k", "sg_list", "prio_arb"],
    "pcie": ["link_up", "link_retrain", "msi_x", "dma_loopback"],
    "ddr_ctrl": ["init_train", "refresh", "ecc_scrub", "self_refresh"],
    "noc": ["credit_stress", "qos_mix", "deadlock_free", "bcast", "rtr_reset"],
}
SEEDS_PER_TEST = {"cpu_ss": 5, "dma": 5, "pcie": 5, "ddr_ctrl": 5, "noc": 5}  # 24 tests x 5 seeds = 120

SIG_DMA = F.signatures.dma
SIG_PCIE = F.signatures.pcie
SIG_NOC = F.signatures.noc

# (test, seed index) -> signature, per run
FAILS = {
    "r118": {
        ("dma_desc_chain_wrap", 1): SIG_DMA,
        ("dma_desc_chain_wrap_long", 3): SIG_DMA,
        ("pcie_link_retrain", 2): SIG_PCIE,
        ("noc_credit_stress", 4): SIG_NOC,
    },
    "r119": {("pcie_link_retrain", 2): SIG_PCIE, ("noc_credit_stress", 4): SIG_NOC},
    "r120": {},
}
RUN_DATES = {run: F.regression[run].night for run in ("r118", "r119", "r120")}

STA = {  # run -> rows (corner, mode, check, wns, tns, violating endpoints)
    "run42": [
        ("ss_0p72v_125c", "func", "setup", -0.087, -1.204, 23),
        ("ss_0p72v_m40c", "func", "setup", -0.031, -0.215, 9),
        ("tt_0p80v_25c", "func", "setup", 0.142, 0.0, 0),
        ("ss_0p72v_125c", "func", "hold", 0.035, 0.0, 0),
        ("ff_0p88v_m40c", "func", "hold", 0.012, 0.0, 0),
        ("ff_0p88v_m40c", "scan_shift", "hold", 0.008, 0.0, 0),
    ],
    "run43": [
        ("ss_0p72v_125c", "func", "setup", 0.004, 0.0, 0),
        ("ss_0p72v_m40c", "func", "setup", -0.012, -0.041, 5),
        ("tt_0p80v_25c", "func", "setup", 0.151, 0.0, 0),
        ("ss_0p72v_125c", "func", "hold", 0.031, 0.0, 0),
        ("ff_0p88v_m40c", "func", "hold", -0.004, -0.006, 2),
        ("ff_0p88v_m40c", "scan_shift", "hold", 0.006, 0.0, 0),
    ],
    "run44": [
        ("ss_0p72v_125c", "func", "setup", 0.011, 0.0, 0),
        ("ss_0p72v_m40c", "func", "setup", 0.006, 0.0, 0),
        ("tt_0p80v_25c", "func", "setup", 0.160, 0.0, 0),
        ("ss_0p72v_125c", "func", "hold", 0.030, 0.0, 0),
        ("ff_0p88v_m40c", "func", "hold", 0.003, 0.0, 0),
        ("ff_0p88v_m40c", "scan_shift", "hold", -0.021, -0.052, 3),
    ],
}

PATHS = {  # run -> (corner, mode, check, clock, [(slack, startpoint, endpoint)]) for the worst corner
    "run42": (
        "ss_0p72v_125c",
        "func",
        "setup",
        "clk_axi",
        [
            (-0.087, "u_dma/u_desc_fetch/rd_ptr_q_reg[5]/CK", F.timing.run42.worst_endpoint),
            (-0.081, "u_dma/u_desc_fetch/rd_ptr_q_reg[5]/CK", "u_dma/u_arb/grant_q_reg[1]/D"),
            (-0.074, "u_noc/u_rtr1/hdr_q_reg[3]/CK", "u_noc/u_rtr1/route_q_reg[0]/D"),
            (-0.069, "u_dma/u_desc_fetch/len_q_reg[11]/CK", "u_dma/u_arb/grant_q_reg[0]/D"),
            (-0.058, "u_dma/u_ch2/state_q_reg[1]/CK", "u_dma/u_arb/req_mask_q_reg[2]/D"),
            (-0.051, "u_noc/u_rtr1/hdr_q_reg[4]/CK", "u_noc/u_rtr1/route_q_reg[1]/D"),
            (-0.044, "u_dma/u_ch0/cnt_q_reg[7]/CK", "u_dma/u_ch0/done_q_reg/D"),
            (-0.037, "u_cpu_ss/u_l2/tag_q_reg[19]/CK", "u_cpu_ss/u_l2/hit_q_reg/D"),
        ],
    ),
    "run43": (
        "ss_0p72v_m40c",
        "func",
        "setup",
        "clk_noc",
        [
            (-0.012, "u_noc/u_rtr3/vc_sel_q_reg[1]/CK", F.timing.run43.worst_endpoint),
            (-0.010, "u_noc/u_rtr3/vc_sel_q_reg[1]/CK", "u_noc/u_rtr3/vc_buf_q_reg[6]/D"),
            (-0.008, "u_noc/u_rtr3/vc_sel_q_reg[0]/CK", "u_noc/u_rtr3/vc_buf_q_reg[5]/D"),
            (-0.006, "u_noc/u_rtr2/crd_q_reg[2]/CK", "u_noc/u_rtr2/crd_ok_q_reg/D"),
            (-0.005, "u_noc/u_rtr3/vc_sel_q_reg[0]/CK", "u_noc/u_rtr3/vc_buf_q_reg[4]/D"),
            (0.002, "u_dma/u_arb/grant_q_reg[2]/CK", "u_dma/u_ch2/start_q_reg/D"),
            (0.004, "u_cpu_ss/u_l2/tag_q_reg[19]/CK", "u_cpu_ss/u_l2/hit_q_reg/D"),
            (0.009, "u_ddr_ctrl/u_sched/bank_q_reg[2]/CK", "u_ddr_ctrl/u_sched/act_q_reg/D"),
        ],
    ),
    "run44": (
        "ff_0p88v_m40c",
        "scan_shift",
        "hold",
        "clk_scan",
        [
            (-0.021, "u_pcie/u_phy_if/scan_sh_q_reg[11]/CK", F.screenshots.run44_endpoints[0]),  # the worst endpoint
            (-0.019, "u_pcie/u_phy_if/scan_sh_q_reg[12]/CK", F.screenshots.run44_endpoints[1]),
            (-0.012, "u_pcie/u_phy_if/scan_sh_q_reg[3]/CK", F.screenshots.run44_endpoints[2]),
            (0.004, "u_ddr_ctrl/u_phy/scan_q_reg[0]/CK", "u_ddr_ctrl/u_phy/scan_q_reg[1]/D"),
            (0.006, "u_noc/u_rtr0/scan_q_reg[8]/CK", "u_noc/u_rtr0/scan_q_reg[9]/D"),
            (0.007, "u_cpu_ss/u_core0/scan_q_reg[31]/CK", "u_cpu_ss/u_core0/scan_q_reg[32]/D"),
            (0.011, "u_dma/u_ch1/scan_q_reg[2]/CK", "u_dma/u_ch1/scan_q_reg[3]/D"),
            (0.013, "u_pcie/u_ctrl/scan_q_reg[40]/CK", "u_pcie/u_ctrl/scan_q_reg[41]/D"),
        ],
    ),
}


# -- CSVs ------------------------------------------------------------------------------------------
def regression_csv(run: str, path: Path) -> None:
    fails = FAILS[run]
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["run", "test", "block", "seed", "status", "sim_time_s", "signature"])
        n = 0
        for block, names in BLOCK_TESTS.items():
            for name in names:
                test = f"{block}_{name}"
                for k in range(SEEDS_PER_TEST[block]):
                    n += 1
                    seed = (n * 7919 + k * 104729) % 90000 + 1000
                    sim = 40 + (n * 37 + len(run) * 11) % 900
                    sig = fails.get((test, k), "")
                    w.writerow([run, test, block, seed, "FAIL" if sig else "PASS", sim, sig])


def sta_csv(run: str, path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["run", "corner", "mode", "check", "wns_ns", "tns_ns", "violating_endpoints"])
        for corner, mode, check, wns, tns, n in STA[run]:
            w.writerow([run, corner, mode, check, f"{wns:.3f}", f"{tns:.3f}", n])


# -- screenshots -----------------------------------------------------------------------------------
def path_browser(run: str, path: Path) -> None:
    corner, mode, check, clock, paths = PATHS[run]
    W, H = 980, 620
    img = Image.new("RGB", (W, H), (236, 236, 236))
    d = ImageDraw.Draw(img)
    f_title, f_ui, f_mono, f_mono_b = (
        ImageFont.truetype(SANS_B, 13),
        ImageFont.truetype(SANS, 12),
        ImageFont.truetype(MONO, 12),
        ImageFont.truetype(MONO_B, 12),
    )
    # window chrome
    d.rectangle([0, 0, W, 26], fill=(52, 62, 80))
    d.text((10, 5), f"TimingLens 3.2  -  Path Browser  -  orca2_top  [{run}]", fill=(240, 240, 240), font=f_title)
    for i, col in enumerate([(220, 80, 70), (230, 180, 60), (90, 180, 90)]):
        d.ellipse([W - 70 + i * 20, 8, W - 58 + i * 20, 20], fill=col)
    d.rectangle([0, 26, W, 50], fill=(222, 222, 226))
    x = 10
    for label in ["File", "View", "Reports", "Paths", "Constraints", "Help"]:
        d.text((x, 31), label, fill=(30, 30, 30), font=f_ui)
        x += 82
    d.text(
        (540, 31), f"Corner: {corner}   Mode: {mode}   Check: {check}   Clock: {clock}", fill=(20, 20, 120), font=f_ui
    )
    # histogram panel
    d.rectangle([10, 60, W - 10, 280], fill=(255, 255, 255), outline=(160, 160, 160))
    d.text((20, 66), f"Endpoint slack histogram ({check}, ns)", fill=(0, 0, 0), font=f_ui)
    slacks = [p[0] for p in paths]
    bins = [(-0.10 + 0.01 * i) for i in range(21)]
    counts = []
    for i in range(20):
        lo, hi = bins[i], bins[i + 1]
        c = sum(1 for s in slacks if lo <= s < hi)
        c += (3 + (i * 7) % 11) if lo >= 0.0 else 0  # the many passing endpoints (not all listed)
        counts.append(c)
    top = max(counts) or 1
    x0, y0, bw, hmax = 50, 262, 42, 160
    for i, c in enumerate(counts):
        h = int(hmax * c / top)
        color = (210, 70, 60) if bins[i] < 0 else (80, 150, 90)
        d.rectangle([x0 + i * bw, y0 - h, x0 + i * bw + bw - 6, y0], fill=color)
    d.line([x0 - 4, y0, x0 + 20 * bw, y0], fill=(0, 0, 0))
    for i in range(0, 21, 5):
        d.text((x0 + i * bw - 14, y0 + 3), f"{bins[i]:+.2f}", fill=(0, 0, 0), font=f_ui)
    # path table
    d.rectangle([10, 292, W - 10, H - 34], fill=(255, 255, 255), outline=(160, 160, 160))
    cols = [(20, "#"), (50, "Slack"), (125, "Startpoint"), (525, "Endpoint")]
    d.rectangle([11, 293, W - 11, 313], fill=(214, 220, 232))
    for cx, label in cols:
        d.text((cx, 296), label, fill=(0, 0, 0), font=f_mono_b)
    y = 318
    for i, (slack, start, end) in enumerate(paths, 1):
        if i == 1:
            d.rectangle([11, y - 2, W - 11, y + 17], fill=(255, 236, 170))
        fill = (180, 20, 20) if slack < 0 else (20, 110, 40)
        d.text((20, y), str(i), fill=(0, 0, 0), font=f_mono)
        d.text((50, y), f"{slack:+.3f}", fill=fill, font=f_mono)
        d.text((125, y), start, fill=(0, 0, 0), font=f_mono)
        d.text((525, y), end, fill=(0, 0, 0), font=f_mono)
        y += 24
    d.rectangle([0, H - 26, W, H], fill=(222, 222, 226))
    violating = sum(r[5] for r in STA[run] if (r[0], r[1], r[2]) == (corner, mode, check))
    d.text(
        (10, H - 21),
        f"{violating} violating endpoints in this view; worst {len(paths)} paths shown, sorted by slack",
        fill=(40, 40, 40),
        font=f_ui,
    )
    img.save(path, format="PNG", optimize=True)


def waveform(path: Path) -> None:
    W, H = 980, 520
    img = Image.new("RGB", (W, H), (18, 20, 24))
    d = ImageDraw.Draw(img)
    f_ui, f_mono, f_small = ImageFont.truetype(SANS, 12), ImageFont.truetype(MONO, 12), ImageFont.truetype(MONO, 10)
    d.rectangle([0, 0, W, 24], fill=(45, 48, 56))
    d.text(
        (10, 5),
        "WaveScope  -  pcie_link_retrain  seed=79355  (r119)  -  tb_orca2.u_dut.u_pcie",
        fill=(230, 230, 230),
        font=f_ui,
    )
    circled = F.screenshots.waveform_signal  # pipe_rx_valid[3]: the failing lane
    names = [
        "clk_pipe",
        "ltssm_state[4:0]",
        "pipe_rx_valid[0]",
        "pipe_rx_valid[1]",
        "pipe_rx_valid[2]",
        circled,
        "rx_elec_idle[3]",
        "eq_done",
        "retrain_req",
    ]
    left, right, top, row_h = 200, W - 20, 70, 46
    d.rectangle([0, 24, left - 6, H], fill=(28, 30, 36))
    # time ruler: 1,204,600 .. 1,205,200 ns
    t0, t1 = 1_204_600, 1_205_200

    def tx(t: float) -> int:
        return int(left + (t - t0) / (t1 - t0) * (right - left))

    for t in range(t0, t1 + 1, 100):
        d.line([tx(t), 40, tx(t), H - 30], fill=(40, 44, 52))
        d.text((tx(t) - 30, 44), f"{t:,}", fill=(150, 150, 160), font=f_small)
    d.text((left, 28), "time (ns)", fill=(150, 150, 160), font=f_small)
    drop = 1_204_880
    for i, name in enumerate(names):
        y = top + i * row_h
        d.text((10, y + 8), name, fill=(200, 210, 120) if "[" in name else (200, 200, 200), font=f_mono)
        hi, lo = y + 6, y + 28
        green = (80, 220, 110)
        if name == "clk_pipe":
            step = 10
            for t in range(t0, t1, step * 2):
                d.line([tx(t), lo, tx(t), hi, tx(t + step), hi, tx(t + step), lo, tx(t + 2 * step), lo], fill=green)
        elif name == "ltssm_state[4:0]":
            segs = [
                (t0, 1_204_905, "L0 (0x11)"),
                (1_204_905, 1_204_960, "RCVRLOCK"),
                (1_204_960, t1, "RECOVERY.RCVRLOCK (0x0D) ..."),
            ]
            for a, b, label in segs:
                d.polygon(
                    [
                        (tx(a) + 4, hi),
                        (tx(b) - 4, hi),
                        (tx(b), (hi + lo) // 2),
                        (tx(b) - 4, lo),
                        (tx(a) + 4, lo),
                        (tx(a), (hi + lo) // 2),
                    ],
                    outline=(120, 200, 240),
                )
                d.text((tx(a) + 8, hi + 4), label, fill=(120, 200, 240), font=f_small)
        elif name.startswith("pipe_rx_valid"):
            if name == circled:
                d.line([tx(t0), hi, tx(drop), hi, tx(drop), lo, tx(t1), lo], fill=(240, 90, 80), width=2)
            else:
                d.line([tx(t0), hi, tx(t1), hi], fill=green)
        elif name == "rx_elec_idle[3]":
            d.line([tx(t0), lo, tx(1_204_930), lo, tx(1_204_930), hi, tx(t1), hi], fill=green)
        elif name == "eq_done":
            d.line([tx(t0), hi, tx(t1), hi], fill=green)
        elif name == "retrain_req":
            d.line(
                [tx(t0), lo, tx(1_205_020), lo, tx(1_205_020), hi, tx(1_205_060), hi, tx(1_205_060), lo, tx(t1), lo],
                fill=green,
            )
    # cursor and an annotation Ben left on the capture
    d.line([tx(drop), 40, tx(drop), H - 30], fill=(250, 220, 60), width=1)
    d.rectangle([tx(drop) + 4, H - 28, tx(drop) + 150, H - 12], fill=(250, 220, 60))
    d.text((tx(drop) + 8, H - 27), f"C1 {drop:,} ns", fill=(0, 0, 0), font=f_small)
    y3 = top + names.index(circled) * row_h
    d.ellipse([tx(drop) - 22, y3 - 2, tx(drop) + 22, y3 + 36], outline=(255, 60, 200), width=2)
    d.text((tx(drop) + 28, y3 - 14), "<- BO", fill=(255, 90, 210), font=f_ui)
    img.save(path, format="PNG", optimize=True)


def main() -> None:
    for run in FAILS:
        regression_csv(run, HERE / f"regression_{run}.csv")
    for run in STA:
        sta_csv(run, HERE / f"sta_summary_{run}.csv")
        path_browser(run, HERE / f"sta_paths_{run}.png")
    waveform(HERE / "pcie_link_retrain_wave.png")


if __name__ == "__main__":
    main()
