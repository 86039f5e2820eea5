#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Charts and tables of the network benchmarks (bench/run-net-compare, bench/run-net-scale).

Usage: bench/plot_net.py [RESULT.json ...] [--outdir DIR] [--markdown]
Without files it takes the newest bench/results/*-net-compare.json (older runs: *-net-ucx-tcp.json)
and *-net-scale.json. For a comparison F.json it writes F.png: latency and bandwidth against size,
libshmem solid, the base revision (--libs base) dash-dotted, OSHMEM dashed, ucx_perftest dotted. For a scale file it writes F.png: shmem_init time, memory and bytes
per PE against the number of PEs. Needs matplotlib (Debian: python3-matplotlib); --markdown prints
the tables as Markdown instead and needs nothing.
"""

import argparse
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from plot import load_matplotlib  # noqa: E402

STYLE = {"ours": "-", "base": "-.", "oshmem": "--", "perftest": ":"}
NAME = {"ours": "libshmem", "base": "libshmem base", "oshmem": "OSHMEM", "perftest": "ucx_perftest"}


def newest(pattern):
    files = sorted(glob.glob(os.path.join(HERE, "results", pattern)))
    return files[-1:]


def value(e, lib):
    v = e.get(lib)
    return v["median"] if v else None


def compare_markdown(doc):
    print(f"`{doc['command']}`, {doc['date']}, commit `{doc['commit'][:10]}`, "
          f"{doc['machine']['cpu_model']} ({doc['machine']['nproc']} cores), load average "
          f"{' '.join(doc['loadavg_before'])} before and {' '.join(doc['loadavg_after'])} after.")
    print()
    print("| benchmark | op | mode | size (B) | unit | libshmem | ucx_perftest | OSHMEM | "
          "ours/perftest | ours/OSHMEM | goal |")
    print("|---|---|---|---:|---|---:|---:|---:|---:|---:|---|")
    for e in doc["results"]:
        unit = e.get("unit", "")
        cells = []
        for lib in ("ours", "perftest", "oshmem"):
            v = value(e, lib)
            cells.append("-" if v is None else f"{v:.2f}" if unit == "us" else f"{v:.4g}")
        r1 = "-" if e["ratio_perftest"] is None else f"{e['ratio_perftest']:.2f}"
        r2 = "-" if e["ratio_oshmem"] is None else f"{e['ratio_oshmem']:.2f}"
        verdict = ("n/a" if e["goal_met"] is None else "met" if e["goal_met"] else
                   "**missed**")
        print(f"| {e['bench']} | {e['op']} | {e['mode']} | {e['size']} | {unit} | "
              + " | ".join(cells) + f" | {r1} | {r2} | {e['goal']}: {verdict} |")


def scale_markdown(doc):
    print(f"`{doc['command']}`, {doc['date']}, commit `{doc['commit'][:10]}`, "
          f"{doc['machine']['nproc']} cores, load average "
          f"{' '.join(f'{x:.1f}' for x in doc['loadavg_before'])} before.")
    print()
    print("| mode | PEs | hosts x PEs | shmem_init ms (median / max) | RSS after init KiB | "
          "RSS after connecting KiB | malloc after init KiB | malloc after connecting KiB | "
          "connect all ms | shmem_malloc + free ms | library bytes on the wire | per PE |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for e in doc["results"]:
        print(f"| {e['mode']} | {e['npes']} | {e['hosts']}x{e['pes_per_host']} | "
              f"{e['init_ms']['median']:.0f} / {e['init_ms']['max']:.0f} | "
              f"{e['rss_init_kib']['median']:.0f} | {e['rss_connected_kib']['median']:.0f} | "
              f"{e['malloc_init_kib']['median']:.0f} | {e['malloc_connected_kib']['median']:.0f} "
              f"| {e['connect_all_ms']['median']:.0f} | {e['malloc_free_ms']['median']:.1f} | "
              f"{e.get('library_bytes', '-')} | "
              f"{e.get('library_bytes_per_pe', '-')} |")


def plot_compare(plt, doc, out):
    units = [u for u in ("us", "GB/s") if any(e.get("unit") == u for e in doc["results"])]
    fig, axes = plt.subplots(1, len(units), figsize=(7 * len(units), 5.5), squeeze=False)
    for ax, unit in zip(axes[0], units):
        keys = []
        for e in doc["results"]:
            k = (e["bench"], e["op"], e["mode"])
            if e.get("unit") == unit and k not in keys and len(
                    [x for x in doc["results"] if (x["bench"], x["op"], x["mode"]) == k]) > 1:
                keys.append(k)
        for i, k in enumerate(keys):
            rows = [e for e in doc["results"] if (e["bench"], e["op"], e["mode"]) == k]
            for lib in ("ours", "base", "oshmem", "perftest"):
                pts = [(e["size"], value(e, lib)) for e in rows if value(e, lib)]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], STYLE[lib], marker="o",
                            color=f"C{i}", label=f"{k[0]} {k[1]} {k[2]} ({NAME[lib]})")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("size (bytes)")
        ax.set_ylabel("latency (us)" if unit == "us" else "bandwidth (GB/s)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f"{doc['title']}\n{doc['date']}, commit {doc['commit'][:10]}, load "
                 f"{' '.join(doc['loadavg_before'])}", fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_scale(plt, doc, out):
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    modes = sorted({e["mode"] for e in doc["results"]})
    for i, mode in enumerate(modes):
        rows = [e for e in doc["results"] if e["mode"] == mode]
        n = [e["npes"] for e in rows]
        axes[0].plot(n, [e["init_ms"]["median"] for e in rows], "-o", color=f"C{i}", label=mode)
        axes[1].plot(n, [e["rss_connected_kib"]["median"] for e in rows], "-o", color=f"C{i}",
                     label=f"{mode} RSS")
        axes[1].plot(n, [e["malloc_connected_kib"]["median"] for e in rows], "--o",
                     color=f"C{i}", label=f"{mode} malloc")
        if mode == "net":
            axes[2].plot(n, [e["library_bytes_per_pe"] for e in rows], "-o", color=f"C{i}",
                         label="library bytes per PE")
    for ax, label in zip(axes, ("shmem_init (ms, median PE)", "KiB per PE (after connecting)",
                                "bytes on the wire per PE")):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("PEs")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"{doc['title']}\n{doc['date']}, commit {doc['commit'][:10]}", fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--outdir", default="")
    ap.add_argument("--markdown", action="store_true")
    opts = ap.parse_args()
    compare = newest("*-net-compare.json") or newest("*-net-ucx-tcp.json")
    files = opts.files or compare + newest("*-net-scale.json")
    if not files:
        sys.exit("plot_net.py: no result files")
    plt = None if opts.markdown else load_matplotlib()
    if not opts.markdown and plt is None:
        sys.exit("plot_net.py: needs matplotlib (apt-get install python3-matplotlib)")
    for path in files:
        with open(path) as f:
            doc = json.load(f)
        scale = "fits" in doc
        if opts.markdown:
            (scale_markdown if scale else compare_markdown)(doc)
            print()
            continue
        out = os.path.join(opts.outdir or os.path.dirname(path),
                           os.path.basename(path)[:-5] + ".png")
        (plot_scale if scale else plot_compare)(plt, doc, out)
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
