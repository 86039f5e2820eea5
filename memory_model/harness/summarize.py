#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes a markdown summary of `shmem-litmus run --json` result files.

Usage: summarize.py OUT.md RESULT.json...

The first file is the run on the library; the others are runs on weakened test builds
(`"weakened"` names the primitive). The summary says whether every spread test (threads in
several blocks or PEs, so that placement can change the outcome) reached the iteration target,
which tests saw forbidden states and how often, which outcomes that BYPASS allows (and the
default context forbids) the machine produced, and lists every test.
"""
import json
import sys


def section(path, body):
    """The summary of one result file: body(file name, results), or a note that it has none."""
    file = path.rsplit("/", 1)[-1]
    try:
        with open(path) as f:
            r = json.load(f)
    except (OSError, ValueError) as e:
        return [f"## {file}", "", f"- no results: {e}", ""]
    return body(file, r)


def header(r):
    lines = [
        f"- machine: {r['machine']}",
        f"- commit: {r['commit']}",
        f"- date: {r['date']} (last result {r['updated']}){'' if r['complete'] else '; the run did not finish'}",
        f"- command: `{r['command']}`",
        f"- settings: platform {r['platform']}, target {r['iterations_target']} iterations per test "
        f"(spread tests at least {r['min_iterations']}), at most {r['max_seconds']} s for other "
        f"tests; {r['instances']} instances per round, stress {r['stress']}, "
        f"prime {r['prime']}%, seed {r['seed']}",
    ]
    if r.get("note"):
        lines.append(f"- note: {r['note']}")
    return lines


def table(tests):
    lines = ["| test | model | PEs | spread | iterations | condition seen | forbidden runs | verdict | allowed, never seen |",
             "|---|---|---|---|---|---|---|---|---|"]
    for t in tests:
        unseen = "; ".join(f"`{u}`" for u in t["unseen_allowed"]) or "-"
        verdict = t["verdict"] + (f" (stopped: {t['stopped']})" if t.get("stopped") else "")
        lines.append(f"| {t['test']} | {t['model']} | {t['pes']} | {'yes' if t['spread'] else 'no'} | "
                     f"{t['iterations']} | {t.get('condition_count', 0)} | "
                     f"{t.get('forbidden_count', 0)} | {verdict} | {unseen} |")
    return lines


def main_run(file, r):
    tests = r["tests"]
    target = r["min_iterations"]
    lines = [f"## The library: {file}", ""] + header(r)
    spread = [t for t in tests if t["spread"]]
    short = [t for t in spread if t["iterations"] < target and t["verdict"] != "no-result"]
    ran = [t for t in spread if t["verdict"] != "no-result"]
    its = [t["iterations"] for t in tests]
    lines.append(f"- {len(tests)} tests, {sum(its)} iterations in all (per test: min "
                 f"{min(its) if its else 0}, max {max(its) if its else 0})")
    lines.append(f"- spread tests: {len(spread)}, of which {len(ran) - len(short)} reached "
                 f"{target} iterations" + ("; short of it: " + ", ".join(
                     f"{t['test']} ({t['iterations']})" for t in short) if short else ""))
    bad = [t for t in tests if t["verdict"] == "FORBIDDEN-SEEN"]
    lines.append(f"- forbidden states seen: {len(bad)} tests" + (": " + ", ".join(
        f"{t['test']} ({t['forbidden_count']} runs)" for t in bad) if bad else ""))
    missing = [t for t in tests if t["verdict"] == "no-result"]
    if missing:
        lines.append("- no result: " + ", ".join(f"{t['test']} ({t['stopped']})" for t in missing))
    relaxed = [t for t in tests if t["bypass"] and t["model"] == "Allow" and t["verdict"] != "no-result"]
    if relaxed:
        lines += ["", "### Outcomes that BYPASS allows", "",
                  "Tests through BYPASS contexts or bypass accesses whose `exists` state the model allows "
                  "(most of them are forbidden on the default context, e.g. a plain load that reads stale "
                  "data after a BYPASS wait): did this machine produce the state?", "",
                  "| test | runs | runs in the state | produced |", "|---|---|---|---|"]
        for t in relaxed:
            lines.append(f"| {t['test']} | {t['iterations']} | {t['condition_count']} | "
                         f"{'yes' if t['condition_count'] else 'no'} |")
    lines += ["", "### Every test", ""] + table(tests) + [""]
    return lines


def weak_run(file, r):
    tests = r["tests"]
    prim = r.get("weakened") or "?"
    bad = [t for t in tests if t["verdict"] == "FORBIDDEN-SEEN"]
    lines = [f"## {prim} weakened (test build): {file}", ""] + header(r)
    lines.append(f"- {len(tests)} tests that use {prim}, {sum(t['iterations'] for t in tests)} "
                 f"iterations in all")
    lines.append(f"- FORBIDDEN-SEEN: {len(bad)} tests" + (": " + ", ".join(
        f"{t['test']} ({t['forbidden_count']} of {t['iterations']} runs)" for t in bad) if bad else
        " (the weakening did not show on this machine)"))
    lines += [""] + table(tests) + [""]
    return lines


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = ["# Litmus harness results", "",
           "Produced by `scripts/litmus-long`. A test is *spread* when its threads are in more than one",
           "block or PE, so that where they run can change the outcome. `condition seen` counts the runs",
           "whose final state satisfies the test's `exists` clause; `forbidden runs` those whose state the",
           "model forbids: 0 on the library, and what the weakened test builds are for. The last column",
           "lists final states the model allows that never showed (states in which a wait would have",
           "returned the initial value cannot happen and are left out).", ""]
    out += section(sys.argv[2], main_run)
    for p in sys.argv[3:]:
        out += section(p, weak_run)
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
