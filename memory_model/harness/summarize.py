#!/usr/bin/env python3
"""Writes a markdown summary of `shmem-litmus run --json` result files.

Usage: summarize.py OUT.md RESULT.json...
"""
import json
import sys


def summarize(path):
    try:
        with open(path) as f:
            r = json.load(f)
    except (OSError, ValueError) as e:
        return [f"## {path.rsplit('/', 1)[-1]}", "", f"- no results: {e}", ""]
    tests = r["tests"]
    lines = [f"## {path.rsplit('/', 1)[-1]}", ""]
    lines.append(f"- platform: {r['platform']}; machine: {r['machine']}; {r['note']}")
    its = [t["iterations"] for t in tests]
    lines.append(
        f"- {len(tests)} tests, {sum(its)} iterations in all "
        f"(per test: min {min(its) if its else 0}, max {max(its) if its else 0}); "
        f"instances per round {r['instances']}, stress {r['stress']}, seed {r['seed']}"
    )
    bad = [t["test"] for t in tests if t["verdict"] != "ok"]
    lines.append(f"- forbidden states seen: {len(bad)} tests" + (": " + ", ".join(bad) if bad else ""))
    lines += ["", "| test | model | iterations | condition seen | verdict | allowed, never seen |",
              "|---|---|---|---|---|---|"]
    for t in tests:
        hits = sum(h["count"] for h in t["histogram"] if h["condition"])
        unseen = "; ".join(f"`{u}`" for u in t["unseen_allowed"]) or "-"
        lines.append(f"| {t['test']} | {t['model']} | {t['iterations']} | {hits} | "
                     f"{t['verdict']} | {unseen} |")
    lines.append("")
    return lines


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = ["# Litmus harness results", "",
           "Produced by `scripts/litmus-long`. `condition seen` counts the runs whose final state",
           "satisfies the test's `exists` clause; for a Forbid test it must be 0. The last column",
           "lists final states the model allows that the hardware never produced (states in which",
           "a wait would have returned the initial value cannot happen and are left out).", ""]
    for p in sys.argv[2:]:
        out += summarize(p)
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
