#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A worker address or memory key that does not parse, arriving from PE 1 (damaged on the way by the
# test-only shim corrupt_blob.c): a PE must end the job naming PE 1 in a libshmem message, with a
# non-zero status, within LIMIT seconds, and no PE may be left running. Every PE receives the
# damaged blob, PE 1 too (it parses its own address like the others'), so the first to check it
# reports, and the launcher ends the job before the others print.
#   hosts   across two test hosts of one PE each (scripts/netns-hosts, netns-mpirun)
#   quick   on this host through shmemrun, every PE through the network (SHMEM_DISABLE_P2P=1)
# Usage: corrupt_blob.sh hosts|quick address|rkey flip|truncate SHIM SHMEMRUN PROGRAM
# Exits 77 where the hosts cannot be made.
set -u
here=$(cd "$(dirname "$0")" && pwd)
scripts=$(cd "$here/../../scripts" && pwd)
mode=${1:?mode} what=${2:?what} how=${3:?how} shim=${4:?shim} shmemrun=${5:?shmemrun}
program=${6:?program}
limit=15
if [ "$mode" = hosts ] && [ "${NETNS_PREFIX:-}" = "" ]; then
    exec "$scripts/netns-hosts" run 2 --timeout 90 -- "$0" "$@"
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s.%N)
case "$mode" in
hosts)
    "$scripts/netns-mpirun" 2 1 -x LD_PRELOAD="$shim" -x NET_CORRUPT_BLOB="$what:$how:1" \
        --timeout 60 -- "$program" >"$out" 2>&1
    ;;
quick)
    LD_PRELOAD="$shim" NET_CORRUPT_BLOB="$what:$how:1" SHMEM_DISABLE_P2P=1 UCX_NET_DEVICES=lo \
        timeout 60 "$shmemrun" -n 2 "$program" >"$out" 2>&1
    ;;
*)
    echo "corrupt_blob.sh: unknown mode $mode"
    exit 2
    ;;
esac
status=$?
took=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { printf "%.1f", a - b }')
cat "$out"
echo "corrupt_blob.sh: $mode $what $how: job status $status, ended after $took s"
grep -q "corrupt_blob: PE 1: $what damaged" "$out" || {
    echo "corrupt_blob.sh: the shim damaged nothing"
    exit 1
}
[ "$status" -ne 0 ] || {
    echo "corrupt_blob.sh: the job succeeded"
    exit 1
}
awk -v t="$took" -v l="$limit" 'BEGIN { exit !(t < l) }' || {
    echo "corrupt_blob.sh: took longer than $limit s"
    exit 1
}
case "$what" in
address) expect="libshmem: PE [01]: shmem_init[a-z_]*: the network address from PE 1 does not parse" ;;
rkey) expect="libshmem: PE [01]: shmem_init[a-z_]*: the memory key of segment 0 from PE 1 does not parse" ;;
esac
grep -qE "$expect" "$out" || {
    echo "corrupt_blob.sh: no message '$expect'"
    exit 1
}
exe=$(readlink -f "$program")
left=$(for p in /proc/[0-9]*; do
    [ "$(readlink "$p/exe" 2>/dev/null)" = "$exe" ] && echo "${p#/proc/}"
done)
[ -z "$left" ] || {
    echo "corrupt_blob.sh: PEs left running: $left"
    exit 1
}
exit 0
