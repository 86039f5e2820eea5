#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Draws the GPU benchmarks' charts (PNG) from a bench/gpu/run-h200x2 result file.

Usage: bench/plot_gpu.py [RESULT.json ...] [--outdir DIR]
Without files it takes the newest bench/results/*-h200x2.json. For each file F.json it writes
F-bandwidth.png (put/get/p bandwidth vs size: libshmem solid, NVSHMEM dashed, the copy engine and
NVLink's 478 GB/s per direction as ceilings), F-latency.png (latencies vs size, same styles),
F-allreduce.png (all-reduce and all-gather time vs size: default and BYPASS contexts, NVSHMEM,
NCCL), F-ep.png (expert-parallel dispatch and combine time vs tokens) and F-gemm.png (GEMM with
the all-gather or reduce-scatter in its epilogue against GEMM, then the collective, and cuBLAS,
then the collective), F-coll.png and F-reduction.png (alltoall, fcollect, bcast and reduction
latency in a kernel vs size, per group: libshmem solid, NVSHMEM dashed). For a
bench/gpu/run-scale result F-scale.json it writes F-scale-pairs.png (each pair's put bandwidth
and each all-pairs pattern's bandwidth per PE, at the largest size, per PE count: libshmem and
NVSHMEM bars), and F-scale-allreduce.png, F-scale-ep.png and F-scale-coll.png (time vs size, one
line per PE count). For a bench/gpu/run-proxy result (F-h200-proxy*.json) it writes F-latency.png
and F-bandwidth.png: one colour per path (load/store, proxy, network, NVSHMEM), one line style per
benchmark and context (put_bw by several blocks at each block's message size, square markers),
ucx_perftest's floor in black. Needs matplotlib (Debian: apt-get install
python3-matplotlib).
"""

import argparse
import glob
import json
import os
import sys

from plot import load_matplotlib

HERE = os.path.dirname(os.path.abspath(__file__))
STYLE = {"libshmem": "-", "nvshmem": "--", "nccl": ":"}


def series(rows, pred):
    """{(bench, variant, ctx, blocks, bidir): {lib: [(size, median, min, max)]}}."""
    out = {}
    for r in rows:
        if not pred(r):
            continue
        k = (r["bench"], r.get("variant", ""), r.get("ctx", ""), r.get("blocks", 0),
             r.get("bidir", False))
        out.setdefault(k, {}).setdefault(r["lib"], []).append(
            (r["size"], r["median"], r["min"], r["max"]))
    for libs in out.values():
        for pts in libs.values():
            pts.sort()
    return out


def label(k, lib):
    bench, variant, ctx, blocks, bidir = k
    parts = [lib, bench, variant]
    if ctx not in ("default", "-", ""):
        parts.append(ctx)
    if blocks and bench.endswith("_bw"):
        parts.append(f"{blocks} blk")
    if bidir:
        parts.append("bidir")
    return " ".join(parts)


def draw(ax, data, colors):
    for i, (k, libs) in enumerate(sorted(data.items())):
        color = colors[i % len(colors)]
        for lib, pts in sorted(libs.items()):
            xs = [p[0] for p in pts]
            ax.plot(xs, [p[1] for p in pts], STYLE.get(lib, "-."), color=color, marker=".",
                    label=label(k, lib))
            ax.fill_between(xs, [p[2] for p in pts], [p[3] for p in pts], color=color, alpha=0.12)
    ax.set_xscale("log", base=2)
    ax.grid(True, which="both", alpha=0.3)


def save(plt, fig, ax, xlabel, ylabel, title, path, written):
    """Labels the chart, writes it to path and records the path in written."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    written.append(path)


def log_chart(plt, data, colors, xlabel, ylabel, title, path, written):
    """One chart of data on log-log axes, saved to path."""
    fig, ax = plt.subplots(figsize=(11, 7))
    draw(ax, data, colors)
    ax.set_yscale("log")
    save(plt, fig, ax, xlabel, ylabel, title, path, written)


def plot(path, outdir, plt):
    with open(path) as f:
        doc = json.load(f)
    rows = doc["rows"]
    base = os.path.join(outdir or os.path.dirname(path),
                        os.path.splitext(os.path.basename(path))[0])
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    written = []
    if "pes" in doc:
        plot_scale(doc, base, plt, colors, written)
        return written
    if "network_environment" in doc:
        plot_proxy(rows, base, plt, colors, written)
        return written

    bw = series(rows, lambda r: r["unit"] == "GB/s" and r["lib"] in ("libshmem", "nvshmem") and
                r["bench"] in ("put_bw", "get_bw", "p_bw", "put_on_stream_bw"))
    if bw:
        fig, ax = plt.subplots(figsize=(11, 7))
        draw(ax, bw, colors)
        ce = sorted((r["size"], r["median"]) for r in rows if r["lib"] == "copy-engine")
        if ce:
            ax.plot([c[0] for c in ce], [c[1] for c in ce], "-", color="black", linewidth=2,
                    label="copy engine (cudaMemcpyPeerAsync)")
        nvl = doc.get("ceilings", {}).get("nvlink_GBps_per_direction")
        if nvl:
            ax.axhline(nvl, color="gray", linestyle="-.", label=f"NVLink {nvl:g} GB/s per direction")
        save(plt, fig, ax, "message size (bytes)", "GB/s (1e9 B/s)",
             "GPU bandwidth, 2 x H200 over NVLink: libshmem (solid) vs NVSHMEM (dashed)",
             base + "-bandwidth.png", written)

    lat = series(rows, lambda r: r["unit"] == "us" and r["lib"] in ("libshmem", "nvshmem") and
                 r["bench"] in ("p_latency", "put_latency", "put_signal_ping_pong_latency",
                                "p_ping_pong_latency") and r["size"] > 0)
    if lat:
        log_chart(plt, lat, colors, "message size (bytes)",
                  "microseconds (one-way per iteration; ping-pong: half round trip)",
                  "GPU latency, 2 x H200: libshmem (solid) vs NVSHMEM (dashed)",
                  base + "-latency.png", written)

    ar = series(rows, lambda r: r["bench"] in ("allreduce", "allgather"))
    if ar:
        log_chart(plt, ar, colors, "bytes per PE (float32)", "microseconds per all-reduce",
                  "All-reduce and all-gather on put-with-signal, 2 x H200: libshmem (solid), "
                  "NVSHMEM (dashed), NCCL (dotted)", base + "-allreduce.png", written)

    ep = series(rows, lambda r: r["bench"] in ("ep_dispatch", "ep_combine"))
    if ep:
        log_chart(plt, ep, colors, "tokens per PE (hidden 7168 bf16, top-8 of 64 experts)",
                  "microseconds per kernel",
                  "Expert-parallel dispatch and combine, 2 x H200: libshmem (solid), NVSHMEM "
                  "(dashed)", base + "-ep.png", written)
    plot_gemm(rows, base, plt, colors, written)
    plot_coll(rows, base, plt, colors, written)
    return written


def plot_proxy(rows, base, plt, colors, written):
    """A run-proxy result: each path's medians (spread shaded) against size, the floor in black."""
    paths = ("loadstore", "proxy", "network", "nvshmem")
    charts = (("latency", "us", {"put_latency": "put + quiet",
                                 "put_signal_ping_pong_latency": "put_signal ping-pong"},
               {"floor:ucp_put_lat": "ucx_perftest put, half round trip"},
               "microseconds (put + quiet: a round trip; ping-pong: half a round trip)"),
              ("bandwidth", "GB/s", {"put_bw": "put_bw"}, {"floor:ucp_put_bw": "ucx_perftest put",
                                                  "floor:ucp_am_bw": "ucx_perftest active message"},
               "GB/s (1e9 B/s)"))
    for name, unit, benches, floors, ylabel in charts:
        fig, ax = plt.subplots(figsize=(11, 7))
        styles = {}
        for r in sorted(rows, key=lambda r: r["size"]):
            if r["unit"] != unit or r["bench"] not in benches or r.get("path") not in paths:
                continue
            # put_bw by B blocks (variant "blockxB") puts B messages of size / B: drawn at the
            # message size, one line per block count.
            variant = r.get("variant", "")
            blocks = int(variant.rsplit("x", 1)[1]) if "x" in variant else 1
            k = (r["path"], r["bench"], r.get("ctx", ""), blocks)
            styles.setdefault(k, []).append((r["size"] // blocks, r["median"], r["min"], r["max"]))
        for (path, bench, ctx, blocks), pts in sorted(styles.items()):
            color = colors[paths.index(path) % len(colors)]
            dash = ["-", "--", ":", "-."][(sorted(benches).index(bench) * 2 +
                                           (ctx == "bypass")) % 4]
            xs = [p[0] for p in pts]
            by = f" by {blocks} blocks" if blocks > 1 else ""
            ax.plot(xs, [p[1] for p in pts], dash, color=color, marker="." if blocks == 1 else "s",
                    label=f"{path}: {benches[bench]}{by}, {ctx}")
            ax.fill_between(xs, [p[2] for p in pts], [p[3] for p in pts], color=color, alpha=0.1)
        for bench, text in floors.items():
            pts = sorted((r["size"], r["median"]) for r in rows if r["bench"] == bench)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", color="black", marker="x",
                        linewidth=2, label=f"floor: {text}")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
        save(plt, fig, ax, "message size (bytes)", ylabel,
             f"GPU {name} through the proxy, 2 PEs on one H200", base + f"-{name}.png", written)


def plot_scale(doc, base, plt, colors, written):
    """The charts of a run-scale result: pairs and all-pairs bars, then time vs size per PE
    count for the all-reduce, EP and alltoall."""
    libs = ("libshmem", "nvshmem")
    summary = doc.get("summary", {})
    counts = sorted(set(summary.get("pairs", {})) | set(summary.get("all_pairs", {})), key=int)
    if counts:
        fig, axes = plt.subplots(len(counts), 1, figsize=(12, 3.5 * len(counts)), squeeze=False)
        for ax, n in zip(axes[:, 0], counts):
            names, values = [], {lib: [] for lib in libs}
            for pair, by_lib in sorted(summary.get("pairs", {}).get(n, {}).items()):
                names.append(pair)
                for lib in libs:
                    values[lib].append(by_lib.get(lib, 0))
            for pattern, by_lib in sorted(summary.get("all_pairs", {}).get(n, {}).items()):
                names.append(f"all: {pattern}")
                for lib in libs:
                    values[lib].append(by_lib[lib]["aggregate_GBps"] / int(n) if lib in by_lib
                                       else 0)
            for j, lib in enumerate(libs):
                ax.bar([i + 0.4 * j for i in range(len(names))], values[lib], 0.4,
                       color=colors[j], label=lib)
            ax.set_xticks([i + 0.2 for i in range(len(names))])
            ax.set_xticklabels(names, rotation=90, fontsize=7)
            ax.set_ylabel("GB/s per sender")
            ax.set_title(f"{n} PEs: put_bw of each pair, and per PE with all sending at once")
            ax.grid(True, axis="y", alpha=0.3)
            ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(base + "-pairs.png", dpi=90)
        plt.close(fig)
        written.append(base + "-pairs.png")

    def per_count(benches):
        """series() with one line per PE count: the count joins the variant."""
        return series([dict(r, variant=f"{r['variant']} {r['npes']} PEs", blocks=0, bidir=False)
                       for r in doc["rows"] if r["lib"] in libs and r["bench"] in benches],
                      lambda r: True)

    gpus = doc.get("gpus", "?")
    for benches, name, xlabel, ylabel in (
            (("allreduce", "allgather"), "allreduce", "bytes per PE (float32)",
             "microseconds per all-reduce"),
            (("ep_dispatch", "ep_combine"), "ep", "tokens per PE (hidden 7168 bf16, top-8)",
             "microseconds per kernel"),
            (("alltoall_latency",), "coll", "bytes of dest", "microseconds per alltoall")):
        data = per_count(benches)
        if data:
            log_chart(plt, data, colors, xlabel, ylabel,
                      f"{', '.join(benches)} on {gpus} GPUs, per PE count: libshmem (solid) vs "
                      "NVSHMEM (dashed)", f"{base}-{name}.png", written)


def plot_coll(rows, base, plt, colors, written):
    """F-coll.png (alltoall, fcollect, bcast) and F-reduction.png (sum for every group, every
    operator where the block form ran them all): latency in a kernel vs size."""
    libs = ("libshmem", "nvshmem")
    coll = series(rows, lambda r: r["lib"] in libs and
                  r["bench"] in ("alltoall_latency", "fcollect_latency", "bcast_latency"))
    red = series(rows, lambda r: r["lib"] in libs and r["bench"] == "reduction_latency" and
                 (r.get("op") == "sum" or r["variant"].endswith("-block")))
    for data, name, xlabel, title in (
            (coll, "coll", "bytes (alltoall, fcollect: dest; bcast: per PE)",
             "Collectives in a kernel, 2 x H200: libshmem (solid) vs NVSHMEM (dashed)"),
            (red, "reduction", "bytes per PE",
             "Reductions in a kernel, 2 x H200: libshmem (solid) vs NVSHMEM (dashed)")):
        if data:
            log_chart(plt, data, colors, xlabel, "microseconds per collective", title,
                      f"{base}-{name}.png", written)


def plot_gemm(rows, base, plt, colors, written):
    """F-gemm.png: the fused GEMM + all-gather and GEMM + reduce-scatter against the GEMM then
    the collective, one group of bars per form and size, time relative to the faster cuBLAS +
    collective of the group, with the microseconds on the bars; the GEMM alone beside the
    all-gather groups."""
    med = {(r["bench"], r["lib"], r["variant"], r["ctx"], r["size"]): r["median"] for r in rows
           if r["bench"] in ("gemm_ag", "gemm_rs", "gemm")}
    if not med:
        return
    bars = [("libshmem", "fused", "default", "libshmem fused"),
            ("libshmem", "fused", "bypass", "libshmem fused BYPASS"),
            ("nvshmem", "fused", "default", "NVSHMEM fused"),
            ("libshmem", "unfused", "default", "libshmem GEMM, then collective"),
            ("nvshmem", "unfused", "default", "NVSHMEM GEMM, then collective"),
            ("libshmem", "cublas", "default", "cuBLAS, then libshmem collective"),
            ("nvshmem", "cublas", "default", "cuBLAS, then NVSHMEM collective"),
            ("gemm", "ours", "default", "GEMM alone (ours)"),
            ("gemm", "cublas", "default", "GEMM alone (cuBLAS)")]
    groups = sorted({(k[0], k[4]) for k in med if k[0] != "gemm"}, key=lambda g: (g[0], g[1]))
    fig, ax = plt.subplots(figsize=(12, 7))
    width = 0.8 / len(bars)
    seen = set()
    for gi, (bench, size) in enumerate(groups):
        ref = min([v for k, v in med.items() if k[0] == bench and k[2] == "cublas" and
                   k[4] == size] or [0])
        if not ref:
            continue
        for i, (a, variant, ctx, name) in enumerate(bars):
            k = ("gemm", "libshmem", variant, ctx, size) if a == "gemm" else (bench, a, variant,
                                                                               ctx, size)
            if k not in med or (a == "gemm" and bench != "gemm_ag"):
                continue
            x = gi + (i - (len(bars) - 1) / 2) * width
            ax.bar([x], [med[k] / ref], width, color=colors[i % len(colors)],
                   label=None if name in seen else name)
            seen.add(name)
            ax.text(x, med[k] / ref, f"{med[k]:.0f}", ha="center", va="bottom", fontsize=6,
                    rotation=90)
    ax.axhline(1.0, color="gray", linestyle="--")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([("all-gather" if b == "gemm_ag" else "reduce-scatter") + f", {s}"
                        for b, s in groups])
    ax.grid(True, axis="y", alpha=0.3)
    save(plt, fig, ax, "fused collective, M = N = K (bf16; C split by rows over 2 PEs)",
         "time / (cuBLAS + collective); microseconds on the bars",
         "GEMM with the collective in its epilogue vs GEMM then the collective, 2 x H200",
         base + "-gemm.png", written)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--outdir", default="")
    args = ap.parse_args()
    files = args.files
    if not files:
        found = sorted(glob.glob(os.path.join(HERE, "results", "*-h200x2.json")))
        if not found:
            print("no bench/results/*-h200x2.json", file=sys.stderr)
            return 1
        files = [found[-1]]
    plt = load_matplotlib()
    if plt is None:
        print("matplotlib is missing (apt-get install python3-matplotlib)", file=sys.stderr)
        return 1
    for f in files:
        for w in plot(f, args.outdir, plt):
            print("wrote", w)
    return 0


if __name__ == "__main__":
    sys.exit(main())
