#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runs a job of hosts_probe and checks its lines (what a job across hosts must look like):
# every PE sees n_pes = HOSTS x PES_PER_HOST; PEs k*PES_PER_HOST .. (k+1)*PES_PER_HOST-1 share one
# host name and the HOSTS groups have different ones; shmem_ptr gives an address for every PE of
# the same host (itself included) and NULL for every PE of another host.
# Usage: check_hosts_probe.sh HOSTS PES_PER_HOST -- command that runs the job [args...]
# Exits with the job's status where that is not 0 (77: skipped), else 0 when the lines hold.
set -u
hosts=$1 per_host=$2
shift 3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$@" >"$out"
rc=$?
cat "$out"
if [ "$rc" -ne 0 ]; then
    echo "check_hosts_probe: the job failed with status $rc"
    exit "$rc"
fi
awk -v hosts="$hosts" -v per="$per_host" '
function fail(msg) { print "check_hosts_probe: FAIL: " msg; bad = 1 }
$1 == "hosts_probe:" {
    pe = $3; n[pe] = $5; host[pe] = $7; sub(/:$/, "", host[pe]); lines++
    if (pe in seen) fail("PE " pe " printed twice")
    seen[pe] = 1
    for (i = 9; i <= NF; i++) { split($i, kv, ":"); ptr[pe, kv[1]] = kv[2] }
}
END {
    np = hosts * per
    if (lines != np) fail(lines + 0 " PEs printed, expected " np)
    for (pe = 0; pe < np; pe++) {
        if (!(pe in seen)) { fail("PE " pe " printed nothing"); continue }
        if (n[pe] != np) fail("PE " pe " sees " n[pe] " PEs, expected " np)
        first = pe - pe % per
        if (host[pe] != host[first])
            fail("PE " pe " runs on " host[pe] " and PE " first " on " host[first] ": expected one host")
        if (pe % per == 0) {
            if (host[pe] in group) fail("hosts " group[host[pe]] " and " pe / per " have one name: " host[pe])
            group[host[pe]] = pe / per
        }
        for (q = 0; q < np; q++) {
            want = (host[q] == host[pe]) ? "map" : "null"
            if (ptr[pe, q] != want)
                fail("PE " pe " (" host[pe] "): shmem_ptr to PE " q " (" host[q] ") is " ptr[pe, q] ", expected " want)
        }
    }
    if (bad) exit 1
    print "check_hosts_probe: " np " PEs on " hosts " hosts: names differ across hosts, shmem_ptr maps exactly the PEs of the same host"
}' "$out"
