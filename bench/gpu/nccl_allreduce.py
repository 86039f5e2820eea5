#!/usr/bin/env python3
"""NCCL's all-reduce (float32 sum, 2 GPUs, one process each) through PyTorch, for comparison with
bench/gpu's allreduce: the same sizes, -n all-reduces per timed CUDA-graph replay (eager calls if
capture fails), median of -r replays. Checks every size's result against the sum of both inputs
first. Prints the JSON rows of the GPU benchmarks (lib "nccl") on rank 0.

Usage: nccl_allreduce.py [-b 8] [-e 256M] [-f 4] [-n 200] [-r 5] [-B 512M]
"""

import argparse
import json
import os
import queue
import statistics
import sys
import tempfile


def parse_size(s):
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    s = s.strip()
    if s[-1].lower() in mult:
        return int(float(s[:-1]) * mult[s[-1].lower()])
    return int(s)


def sizes(args):
    out, s = [], args.b
    while s <= args.e:
        out.append(s)
        s *= args.f
    if not out or out[-1] != args.e:
        out.append(args.e)
    return out


def worker(rank, args, init_file, q):
    import torch
    import torch.distributed as dist

    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method="file://" + init_file, rank=rank, world_size=2)
    rows = []
    for size in sizes(args):
        n = size // 4
        if n < 1:
            continue
        gens = [torch.Generator(device="cuda").manual_seed(7000 + r) for r in range(2)]
        inputs = [torch.rand(n, generator=g, device="cuda") + 1.0 for g in gens]
        t = inputs[rank].clone()
        dist.all_reduce(t)
        torch.cuda.synchronize()
        bad = int((t != inputs[0] + inputs[1]).sum().item())
        if bad:
            print(f"FAIL: nccl allreduce at {size} bytes: {bad} wrong words", file=sys.stderr)
            sys.exit(2)
        iters = max(3, min(args.n, args.B // size))
        mode = "nccl-graph"
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        try:
            with torch.cuda.stream(s):
                for _ in range(3):
                    dist.all_reduce(t)
            torch.cuda.current_stream().wait_stream(s)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                for _ in range(iters):
                    dist.all_reduce(t)
            run = graph.replay
        except Exception as e:  # capture unsupported: time eager calls
            print(f"rank {rank}: graph capture failed ({e}); eager calls", file=sys.stderr)
            mode = "nccl-eager"

            def run():
                for _ in range(iters):
                    dist.all_reduce(t)

        samples = []
        for r in range(args.r + 1):
            dist.barrier()
            a = torch.cuda.Event(enable_timing=True)
            b = torch.cuda.Event(enable_timing=True)
            a.record()
            run()
            b.record()
            b.synchronize()
            if r > 0:
                samples.append(a.elapsed_time(b) * 1e3 / iters)
        med = statistics.median(samples)
        rows.append({"bench": "allreduce", "lib": "nccl", "variant": mode, "ctx": "-",
                     "size": size, "unit": "us", "median": med, "min": min(samples),
                     "max": max(samples), "samples": samples, "iters": iters,
                     "validated": True, "algbw_GBps": size / (med * 1e3)})
    dist.destroy_process_group()
    if rank == 0:
        q.put(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-b", type=parse_size, default=8)
    ap.add_argument("-e", type=parse_size, default=256 << 20)
    ap.add_argument("-f", type=int, default=4)
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("-r", type=int, default=5)
    ap.add_argument("-B", type=parse_size, default=512 << 20)
    args = ap.parse_args()
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    import torch.multiprocessing as mp

    init_file = tempfile.mktemp(prefix="nccl-init-")
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=worker, args=(r, args, init_file, q)) for r in range(2)]
    for p in procs:
        p.start()
    rows = None
    while rows is None:
        try:
            rows = q.get(timeout=2)
        except queue.Empty:
            if any(p.exitcode not in (None, 0) for p in procs):
                for p in procs:
                    p.kill()
                print("nccl_allreduce: a rank failed", file=sys.stderr)
                return 1
    for p in procs:
        p.join()
    for row in rows:
        print(f"# allreduce {row['variant']:12s} {row['size']:11d}  {row['median']:10.2f} us")
        print(json.dumps(row))
    return max(p.exitcode for p in procs)


if __name__ == "__main__":
    sys.exit(main())
