#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Draws latency-vs-size and bandwidth-vs-size charts (PNG) from a comparison result file.

Usage: bench/plot.py [RESULT.json ...] [--outdir DIR] [--markdown]
Without files it takes the newest bench/results/*-cpu-p2p.json. For each file F.json it writes
F-latency.png and F-bandwidth.png next to it (or into --outdir): ours as solid lines, the other
library dashed, one colour per benchmark. Needs matplotlib (Debian: apt-get install
python3-matplotlib). --markdown prints each file's table (ours, OSHMEM, ratio, goal) as Markdown
instead, and needs nothing.
"""

import argparse
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SYSTEM_PYTHON = "/usr/bin/python3"


def load_matplotlib():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        return plt
    except ImportError:
        pass
    # An interpreter from a virtual environment may lack the distribution's matplotlib.
    if (os.path.exists(SYSTEM_PYTHON) and os.path.realpath(sys.executable) !=
            os.path.realpath(SYSTEM_PYTHON) and not os.environ.get("BENCH_PLOT_REEXEC")):
        os.environ["BENCH_PLOT_REEXEC"] = "1"
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
    return None


def series(doc, unit):
    """{(bench, op, mode): {lib: [(size, median, min, max)]}} for rows in the given unit."""
    out = {}
    for e in doc["results"]:
        if e.get("unit") != unit:
            continue
        key = (e["bench"], e["op"], e["mode"])
        for lib in ("ours", "oshmem"):
            if e.get(lib):
                v = e[lib]
                out.setdefault(key, {}).setdefault(lib, []).append(
                    (e["size"], v["median"], v["min"], v["max"]))
    return out


def label(key):
    bench, op, mode = key
    name = bench if op in bench else f"{bench} {op}"
    return name if mode in ("all", "oneway") and "latency" not in bench else f"{name} ({mode})"


def draw_lines(plt, ax, data, keys, names):
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, key in enumerate(keys):
        colour = cycle[i % len(cycle)]
        for lib, style in (("ours", "-"), ("oshmem", "--")):
            pts = sorted(data[key].get(lib, []))
            if not pts:
                continue
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", markersize=3,
                    color=colour, label=f"{label(key)}, {names[lib]}")


def subtitle(doc):
    m = doc.get("machine", {})
    return (f"{doc.get('date', '')[:10]}  commit {doc.get('commit', '')[:10]}  "
            f"{m.get('cpu_model', '')}, {m.get('nproc', '?')} cores, 2 PEs, "
            f"median of {doc.get('rounds', '?')} interleaved runs")


def plot_file(plt, path, outdir):
    with open(path) as f:
        doc = json.load(f)
    libs = doc.get("libraries", {})
    names = {"ours": libs.get("ours", {}).get("name", "ours"),
             "oshmem": libs.get("oshmem", {}).get("name", "OSHMEM")}
    stem = os.path.join(outdir or os.path.dirname(path),
                        os.path.splitext(os.path.basename(path))[0])
    written = []

    lat = series(doc, "us")
    if lat:
        multi = [k for k in lat if len({p[0] for v in lat[k].values() for p in v}) > 1]
        single = [k for k in lat if k not in multi]
        fig, axes = plt.subplots(1, 2, figsize=(14, 5.5),
                                 gridspec_kw={"width_ratios": [1, 1.2]})
        ax = axes[0]
        if multi:
            draw_lines(plt, ax, lat, multi, names)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.legend(fontsize=7)
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel("latency (us), lower is better")
        ax.set_title("latency vs size")
        ax.grid(True, which="both", alpha=0.3)
        ax = axes[1]
        if single:
            xs = range(len(single))
            width = 0.4
            for i, (lib, hatch) in enumerate((("ours", ""), ("oshmem", "//"))):
                if not any(lat[k].get(lib) for k in single):
                    continue
                vals = [lat[k][lib][0][1] if lat[k].get(lib) else 0 for k in single]
                bars = ax.bar([x + (i - 0.5) * width for x in xs], vals, width, hatch=hatch,
                              label=names[lib], alpha=0.8)
                ax.bar_label(bars, fmt="%.3f", fontsize=7)
            ax.set_xticks(list(xs))
            ax.set_xticklabels([label(k) for k in single], rotation=25, ha="right", fontsize=8)
            ax.legend(fontsize=8)
        ax.set_ylabel("latency (us), lower is better")
        ax.set_title("8-byte operations and barrier_all")
        ax.grid(True, axis="y", alpha=0.3)
        fig.suptitle(f"{doc.get('title', '')}\n{subtitle(doc)}", fontsize=9)
        fig.tight_layout()
        fig.savefig(stem + "-latency.png", dpi=110)
        plt.close(fig)
        written.append(stem + "-latency.png")

    bw = series(doc, "GB/s")
    if bw:
        fig, ax = plt.subplots(figsize=(10, 5.5))
        draw_lines(plt, ax, bw, list(bw), names)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel("bandwidth (GB/s = 1e9 B/s), higher is better")
        ax.set_title(f"bandwidth vs size\n{subtitle(doc)}", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(stem + "-bandwidth.png", dpi=110)
        plt.close(fig)
        written.append(stem + "-bandwidth.png")
    return written


def markdown(path):
    with open(path) as f:
        doc = json.load(f)
    print(f"`{doc.get('command', '')}`, {doc.get('date', '')}, commit `{doc.get('commit', '')[:10]}`, "
          f"{doc['machine'].get('cpu_model', '')} ({doc['machine'].get('nproc', '?')} cores), "
          f"load average {' '.join(doc.get('loadavg_before', []))} before the run.\n")
    print("| benchmark | op | mode | size (B) | unit | libshmem | OSHMEM | ratio | goal |")
    print("|---|---|---|---:|---|---:|---:|---:|---|")
    for e in doc["results"]:
        unit = e.get("unit", "")
        cells = []
        for lib in ("ours", "oshmem"):
            v = e.get(lib)
            cells.append("-" if not v else f"{v['median']:.4f}" if unit == "us" else
                         f"{v['median']:.2f}")
        ratio = "-" if e.get("ratio") is None else f"{e['ratio']:.3f}"
        met = {None: "n/a", True: "met", False: "**missed**"}[e.get("goal_met")]
        print(f"| {e['bench']} | {e['op']} | {e['mode']} | {e['size']} | {unit} | {cells[0]} | "
              f"{cells[1]} | {ratio} | {e['goal']}: {met} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="result files (default: the newest *-cpu-p2p.json)")
    ap.add_argument("--outdir", default="", help="folder for the PNG files (default: beside each)")
    ap.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    opts = ap.parse_args()
    files = opts.files
    if not files:
        found = sorted(glob.glob(os.path.join(HERE, "results", "*-cpu-p2p.json")))
        if not found:
            sys.exit("plot.py: no bench/results/*-cpu-p2p.json; run bench/run-cpu-compare first")
        files = found[-1:]
    if opts.markdown:
        for path in files:
            markdown(path)
        return 0
    plt = load_matplotlib()
    if plt is None:
        sys.exit("plot.py: matplotlib is not installed, no charts drawn "
                 "(Debian: apt-get install python3-matplotlib; or pip install matplotlib)")
    for path in files:
        for png in plot_file(plt, path, opts.outdir):
            print(f"plot.py: wrote {os.path.relpath(png)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
