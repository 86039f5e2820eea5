#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs the command blocks of docs/quickstart.md against an installation, so the page stays true.

  check_quickstart.py cpu BUILD_DIR       installs BUILD_DIR in a temporary prefix first
  check_quickstart.py cuda|hip PREFIX     an installation of that platform (compile and link only)

The page marks its blocks with HTML comments, invisible when rendered: `<!-- file: NAME -->`
before a block that is a file to write, `<!-- run: MODES -->` before a block of shell commands
that this check runs in each of MODES (cpu, cuda, hip; `gpu`: needs a GPU, never run here). The
blocks run in order in one `sh -e`, in one folder holding every file, with PREFIX set.
Every program built must find PREFIX's libshmem.so by its run path.
Exit status: 0 every block of the mode ran and succeeded, 1 one failed, 77 no compiler for the
mode or (cuda, hip) no installation at PREFIX.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def blocks(path):
    """[(kind, arg, text)]: kind 'file' (arg: name) or 'run' (arg: set of modes)."""
    out, pending, lines, i = [], None, open(path).read().split("\n"), 0
    while i < len(lines):
        m = re.match(r"^<!-- (file|run): (.*?) -->$", lines[i])
        if m:
            pending = (m.group(1), m.group(2).strip())
        elif lines[i].startswith("```") and pending:
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            kind, arg = pending
            out.append((kind, arg if kind == "file" else set(arg.split()), "\n".join(lines[i + 1:j]) + "\n"))
            pending, i = None, j
        i += 1
    return out


def main():
    mode, where = sys.argv[1], os.path.abspath(sys.argv[2])
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([env.get("PATH", ""), "/usr/local/cuda/bin", "/opt/rocm/bin"])
    needs = {"cuda": "nvcc", "hip": "hipcc"}.get(mode)
    if needs and not shutil.which(needs, path=env["PATH"]):
        print("SKIP: %s not found" % needs)
        return 77
    work = tempfile.mkdtemp(prefix="quickstart.")
    try:
        if mode == "cpu":
            prefix = os.path.join(work, "prefix")
            subprocess.run(["cmake", "--install", where, "--prefix", prefix], check=True,
                           stdout=subprocess.DEVNULL)
        else:
            prefix = where
            if not os.path.exists(os.path.join(prefix, "include/shmem.h")):
                print("SKIP: no installation in %s (ctest's gpubuild_%s makes it)" % (prefix, mode))
                return 77
        env["PREFIX"] = prefix
        src = os.path.join(work, "src")
        os.makedirs(src)
        page = blocks(os.path.join(ROOT, "docs/quickstart.md"))
        for kind, arg, text in page:
            if kind == "file":
                os.makedirs(os.path.dirname(os.path.join(src, arg)), exist_ok=True)
                with open(os.path.join(src, arg), "w") as f:
                    f.write(text)
        # One shell for all the blocks, as a reader types them into one terminal: exports carry.
        script, ran = [], 0
        for kind, arg, text in page:
            if kind != "run" or mode not in arg:
                continue
            ran += 1
            script.append("cat <<'QUICKSTART_BLOCK'\n--- block %d:\n%sQUICKSTART_BLOCK" % (ran, text))
            script.append(text)
        if ran == 0:
            print("FAIL: docs/quickstart.md has no block for %s" % mode)
            return 1
        res = subprocess.run(["sh", "-e"], input="\n".join(script), cwd=src, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        print(res.stdout, end="")
        if res.returncode != 0:
            print("FAIL: the last block above exited with %d" % res.returncode)
            return 1
        # Every program built finds libshmem.so.0 by itself (a run path), without LD_LIBRARY_PATH.
        built = []
        for dirpath, _, files in os.walk(src):
            if "CMakeFiles" in dirpath:
                continue  # CMake's own probes
            for f in files:
                p = os.path.join(dirpath, f)
                if os.access(p, os.X_OK) and open(p, "rb").read(4) == b"\x7fELF":
                    built.append(p)
        for p in built:
            env_noldp = {k: v for k, v in env.items() if k != "LD_LIBRARY_PATH"}
            res = subprocess.run(["ldd", p], env=env_noldp, stdout=subprocess.PIPE, text=True)
            lib = [l for l in res.stdout.split("\n") if "libshmem.so" in l]
            if not lib or "not found" in lib[0] or not (prefix in lib[0] or
                                                         os.path.realpath(prefix) in lib[0]):
                print("FAIL: %s does not find libshmem.so of %s: %s" % (p, prefix, lib))
                return 1
        print("quickstart %s: %d blocks ran; %d programs built, each finds libshmem.so" % (
            mode, ran, len(built)))
        return 0
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    sys.exit(main())
