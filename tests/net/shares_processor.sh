#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Where a job has more PEs on a node than the node has processors, the UCX plug-in's blocking
# waits yield the processor at once (docs/transports.md, "Progress"): with one PE more than the
# processors online on one host (every peer through UCX), every PE says so under SHMEM_DEBUG=1;
# with as many PEs as processors, none does. Exits 77 on more than 8 processors (too many PEs for
# a quick test).
# Usage: shares_processor.sh SHMEMRUN PROGRAM
set -u
shmemrun=$1
program=$2
cores=$(getconf _NPROCESSORS_ONLN)
if [ "$cores" -gt 8 ]; then
    echo "shares_processor: SKIP: $cores processors"
    exit 77
fi
line="blocking waits yield at once"
# expect PES SAID: a job of PES PEs, of which SAID print the line.
expect() {
    out=$(SHMEM_DEBUG=1 SHMEM_DISABLE_P2P=1 UCX_NET_DEVICES=lo timeout 120 "$shmemrun" -n "$1" \
        "$program" 2>&1) || { printf '%s\n' "$out"; exit 1; }
    said=$(printf '%s\n' "$out" | grep -c "$line")
    if [ "$said" -ne "$2" ]; then
        printf '%s\n' "$out"
        echo "shares_processor: $said of $1 PEs on $cores processors said '$line'"
        exit 1
    fi
}
expect $((cores + 1)) $((cores + 1))
[ "$cores" -ge 2 ] && expect "$cores" 0
echo "shares_processor: $((cores + 1)) PEs on $cores processors yield at once, $cores do not"
