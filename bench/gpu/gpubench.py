# SPDX-License-Identifier: BSD-3-Clause
"""Shared parts of the GPU benchmark scripts (run-h200x2, run-scale): building libshmem and the
benchmark driver against both libraries, running a job of driver programs at some number of
PEs with a timeout, merging the rows of several rounds, and recording the machine."""

import glob
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
QUICK = ["-r", "3"]

ENV = {
    "NCCL_NVLS_ENABLE": "0",
    "NVSHMEM_DISABLE_NVLS": "1",
    "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
    "SHMEM_SYMMETRIC_SIZE": "3G",
    "SHMEM_DEVICE_TIMEOUT_MS": "20000",
    "NVSHMEM_SYMMETRIC_SIZE": "3G",
    "NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME": "lo",
    "NVSHMEM_REMOTE_TRANSPORT": "none",
}


def log(msg):
    print(msg, flush=True)


def sh(cmd, timeout, env=None, cwd=None):
    """Runs cmd (a list) in its own process group, all of which is killed at the timeout;
    returns (rc, stdout, stderr)."""
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=env, cwd=cwd, start_new_session=True)
    except OSError as e:
        return 127, "", str(e)
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return 124, out, err + f"\ntimed out after {timeout} s"


def nvshmem_home():
    if os.environ.get("NVSHMEM_HOME"):
        return os.environ["NVSHMEM_HOME"]
    r = sh([sys.executable, "-c",
            "import nvidia.nvshmem, os; print(os.path.dirname(nvidia.nvshmem.__file__))"], 60)
    home = r[1].strip() if r[0] == 0 else ""
    if home and os.path.exists(os.path.join(home, "include", "nvshmem.h")):
        return home
    candidates = [os.path.join(base, "nvidia", "nvshmem") for base in sys.path if base]
    for pattern in ("/opt/*/.venv/lib/python3*/site-packages/nvidia/nvshmem",
                    "/usr/local/lib/python3*/dist-packages/nvidia/nvshmem",
                    "/usr/lib/python3/dist-packages/nvidia/nvshmem"):
        candidates += glob.glob(pattern)
    for cand in candidates:
        if os.path.exists(os.path.join(cand, "include", "nvshmem.h")):
            return cand
    return ""


def build(out, env, shmem_src, logf, parts=("libshmem", "nvshmem", "copy", "nccl"),
          targets=("shmem", "shmemrun")):
    """Builds libshmem (its CMake targets), both drivers, the copy probe and NCCL's all-reduce
    (those of parts), in parallel where they are independent, all within 900 s."""
    lib_build = os.path.join(out, "build-libshmem")
    jobs = str(os.cpu_count() or 8)
    t0 = time.monotonic()
    home = nvshmem_home()
    env = dict(env, NVSHMEM_HOME=home, SHMEM_SRC=shmem_src, SHMEM_BUILD=lib_build, JOBS=jobs)
    gen = "-G Ninja" if shutil.which("ninja") and not os.path.exists(
        os.path.join(lib_build, "Makefile")) else ""
    commands = {
        "libshmem": ["bash", "-c",
                     f"cmake {gen} -S '{shmem_src}' -B '{lib_build}' -DSHMEM_GPU=cuda "
                     "-DCMAKE_BUILD_TYPE=Release "
                     f"-DSHMEM_BUILD_TESTS=OFF >/dev/null && cmake --build '{lib_build}' -j {jobs} "
                     f"--target {' '.join(targets)} && bash '{HERE}/build' libshmem '{out}'"],
    }
    for part in ("nvshmem", "copy", "nccl"):
        commands[part] = ["bash", os.path.join(HERE, "build"), part, out]
    procs = {name: subprocess.Popen(commands[name], stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, env=env,
                                    start_new_session=True)
             for name in parts}
    ok = {name: False for name in commands}
    deadline = time.monotonic() + 900
    for name, p in procs.items():
        try:
            text, _ = p.communicate(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            text = p.communicate()[0] + "\ntimed out after 900 s"
        logf.write(f"=== build {name} (rc {p.returncode})\n{text}\n")
        ok[name] = p.returncode == 0
        log(f"build {name}: {'ok' if ok[name] else 'FAILED'}" +
            ("" if ok[name] else "\n  " + "\n  ".join(text.strip().splitlines()[-15:])))
    log(f"builds took {time.monotonic() - t0:.0f} s (NVSHMEM_HOME={home})")
    return ok, lib_build, home


def parse_rows(text):
    rows = []
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return rows


def job_args(matrix, quick):
    args = []
    for i, cmd in enumerate(matrix):
        if i:
            args.append(":")
        args += cmd.split() + (QUICK if quick else [])
    return args


def run_lib(lib, out, lib_build, home, env, matrix, quick, logf, timeout, npes=2, deadline=None):
    """One job of the whole matrix on npes PEs; when a program fails or hangs, the job is started
    again with the programs after it (at most 3 times). NVSHMEM's job is retried once with its
    default bootstrap settings when it produced nothing. No attempt runs past deadline (a
    time.monotonic() value), when given."""
    have = available(os.path.join(out, f"gpubench-{lib}"))
    if have is not None:
        for m in matrix:
            if m.split()[0] not in have:
                log(f"  {lib}: no program {m.split()[0]} in this build; left out")
        matrix = [m for m in matrix if m.split()[0] in have]
    rows, start, attempts = [], 0, 0
    while start < len(matrix) and attempts < 4:
        attempts += 1
        limit = timeout if deadline is None else min(timeout, int(deadline - time.monotonic()))
        if limit < 10:
            log(f"  {lib}: no time left for '{matrix[start]}' and the programs after it")
            break
        got, done, rc = run_job(lib, out, lib_build, home, env, matrix[start:], quick, logf,
                                limit, npes)
        rows += got
        if rc == 0:
            break
        if lib == "nvshmem" and not got and attempts == 1:
            env = {k: v for k, v in env.items()
                   if k not in ("NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME", "NVSHMEM_REMOTE_TRANSPORT")}
            log("  retrying NVSHMEM with its default bootstrap and transport settings")
            continue
        if not got and done == 0 and start == 0:
            break  # the library did not start: nothing to resume
        failed = start + done
        log(f"  {lib}: '{matrix[failed] if failed < len(matrix) else '?'}' failed; "
            "going on with the next program")
        start = failed + 1
    return rows


def available(binary):
    """The programs a driver binary holds (its -h list): a build may leave one out (gemm_fused
    where the toolkit has no cuBLAS)."""
    rc, so, _ = sh([binary, "-h"], 60)
    if rc != 0:
        return None
    return {line.split()[0] for line in so.splitlines() if line.startswith("  ") and line.split()}


def run_job(lib, out, lib_build, home, env, matrix, quick, logf, timeout, npes=2):
    binary = os.path.join(out, f"gpubench-{lib}")
    args = job_args(matrix, quick)
    t0 = time.monotonic()
    if lib == "libshmem":
        rc, so, se = sh([os.path.join(lib_build, "tools", "shmemrun"), "-n", str(npes), binary] +
                        args, timeout, env=env)
    else:
        uid = os.path.join(out, f"nvshmem-uid-{os.getpid()}-{time.time_ns()}")
        lenv = dict(env, LD_LIBRARY_PATH=os.path.join(home, "lib") + ":" +
                    env.get("LD_LIBRARY_PATH", ""))
        procs = []
        for r in range(npes):
            penv = dict(lenv, BENCH_RANK=str(r), BENCH_NRANKS=str(npes), BENCH_UID_FILE=uid)
            procs.append(subprocess.Popen([binary] + args, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True, env=penv))
        so = se = ""
        rc = 0
        deadline = time.monotonic() + timeout
        for i, p in enumerate(procs):
            try:
                o, e = p.communicate(timeout=max(1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                for q in procs:
                    q.kill()
                o, e = p.communicate()
                e += f"\ntimed out after {timeout} s"
                rc = 124
            so += o
            se += e
            rc = rc or p.returncode
        if os.path.exists(uid):
            os.remove(uid)
    logf.write(f"=== run {lib} (rc {rc}, {time.monotonic() - t0:.1f} s)\n{so}\n{se}\n")
    logf.flush()
    rows = parse_rows(so)
    done = sum(1 for line in so.splitlines() if line.startswith("@@done"))
    log(f"run {lib:9s}: rc {rc}, {len(rows)} rows, {done} of {len(matrix)} programs, "
        f"{time.monotonic() - t0:.1f} s" +
        ("" if rc == 0 else "\n  " + "\n  ".join((so + se).strip().splitlines()[-12:])))
    return rows, done, rc


def merge(rows, key):
    """Rows of the same key (key(row)) and library from all rounds: median over every sample."""
    groups = {}
    for r in rows:
        groups.setdefault((r["lib"],) + key(r), []).append(r)
    merged = []
    for k, rs in groups.items():
        samples = [s for r in rs for s in r.get("samples", [r["median"]])]
        m = dict(rs[0])
        m["samples"] = samples
        m["round_medians"] = [r["median"] for r in rs]
        m["median"] = statistics.median(samples)
        m["min"] = min(samples)
        m["max"] = max(samples)
        if "algbw_GBps" in m:
            m["algbw_GBps"] = m["size"] / (m["median"] * 1e3)
        merged.append(m)
    return merged


def fmt_size(s):
    for unit, div in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if s >= div and s % div == 0:
            return f"{s // div}{unit}"
    return str(s)


def machine(env):
    info = {}
    q = sh(["nvidia-smi", "--query-gpu=index,name,driver_version,memory.total,clocks.sm,"
            "clocks.max.sm,clocks.mem", "--format=csv,noheader"], 60)
    info["gpus"] = q[1].strip().splitlines()
    info["driver"] = q[1].split(",")[2].strip() if q[0] == 0 and q[1] else ""
    info["topology"] = sh(["nvidia-smi", "topo", "-m"], 60)[1].strip()
    info["nvcc"] = sh(["/usr/local/cuda/bin/nvcc", "--version"], 60)[1].strip().splitlines()[-1:]
    info["hostname"] = os.uname().nodename
    info["nproc"] = os.cpu_count()
    return info


def git(*args):
    r = sh(["git", "-C", ROOT] + list(args), 30)
    return r[1].strip() if r[0] == 0 else ""


def tree_commit(src):
    """The commit of the measured tree: a COMMIT file at its root (a copied tree whose git
    metadata may be older), else git's HEAD."""
    try:
        with open(os.path.join(src, "COMMIT")) as f:
            return f.read().strip()
    except OSError:
        return git("rev-parse", "HEAD")
