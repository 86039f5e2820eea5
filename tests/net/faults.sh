#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Faults of a job across two test hosts (scripts/netns-hosts), each of which must end the job with a
# non-zero status and a libshmem message naming the peer, within LIMIT seconds of the fault:
#   link_down    host 1's link goes down mid-job (mpirun, whose own connections cross that link,
#                can end the job only once the link is back: it is brought up again once the
#                message is out)
#   kill         a PE on host 1 is killed (SIGKILL)
#   stop         a PE on host 1 stops (SIGSTOP): it no longer progresses
# Usage: faults.sh CASE FAULT_LOOP_PROGRAM; exits 77 where the hosts cannot be made.
set -u
here=$(cd "$(dirname "$0")" && pwd)
scripts=$(cd "$here/../../scripts" && pwd)
case=${1:?case} program=${2:?program}
limit=15
if [ "${NETNS_PREFIX:-}" = "" ]; then
    exec "$scripts/netns-hosts" run 2 --timeout 120 -- "$0" "$@"
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# A short network timeout: a stopped peer or a dead link is noticed in seconds.
SHMEM_NETWORK_TIMEOUT=4 "$scripts/netns-mpirun" 2 1 --timeout 90 -- "$program" 60 >"$out" 2>&1 &
job=$!
for _ in $(seq 1 600); do
    grep -q "fault_loop: running" "$out" && break
    kill -0 "$job" 2>/dev/null || break
    sleep 0.1
done
if ! grep -q "fault_loop: running" "$out"; then
    cat "$out"
    echo "faults.sh: $case: the job did not start"
    exit 1
fi
pe1=$(ip netns pids "$NETNS_PREFIX-h1" | while read -r p; do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$(basename "$program" | cut -c1-15)" ] && echo "$p"
done | head -1)
[ -n "$pe1" ] || {
    echo "faults.sh: no PE found on host 1"
    exit 1
}
start=$(date +%s.%N)
case "$case" in
link_down) ip -n "$NETNS_PREFIX-h1" link set eth0 down ;;
kill) kill -KILL "$pe1" ;;
stop) kill -STOP "$pe1" ;;
*)
    echo "faults.sh: unknown case $case"
    exit 2
    ;;
esac
if [ "$case" = link_down ]; then
    for _ in $(seq 1 $((limit * 10))); do
        grep -q "libshmem: PE 0: network: " "$out" && break
        sleep 0.1
    done
    took=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { printf "%.1f", a - b }')
    ip -n "$NETNS_PREFIX-h1" link set eth0 up
    wait "$job"
    status=$?
else
    wait "$job"
    status=$?
    took=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { printf "%.1f", a - b }')
fi
[ "$case" = stop ] && kill -CONT "$pe1" 2>/dev/null
cat "$out"
echo "faults.sh: $case: job status $status, ended $took s after the fault"
[ "$status" -ne 0 ] || {
    echo "faults.sh: $case: the job succeeded"
    exit 1
}
awk -v t="$took" -v l="$limit" 'BEGIN { exit !(t < l) }' || {
    echo "faults.sh: $case: took longer than $limit s"
    exit 1
}
case "$case" in
kill) grep -qE "libshmem: PE 0: .*PE 1|mpirun noticed that process rank 1" "$out" ;;
*) grep -qE "libshmem: PE 0: network: .*PE 1" "$out" ;;
esac || {
    echo "faults.sh: $case: no message naming the peer"
    exit 1
}
