#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The launcher of `shmem-litmus run --launcher` for the litmus harness across test hosts: starts
# the harness's job of NP PEs with one PE on each of the hosts 0..NP-1 of NETNS_PREFIX
# (scripts/netns-hosts run makes them), through scripts/netns-mpirun; every SHMEM_* variable is
# passed on. LITMUS_JOB_TIMEOUT (seconds, default 600) is netns-mpirun's limit on one job.
# Usage: litmus_launch.sh -n NP program [args...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" != -n ] || [ $# -lt 3 ]; then
    echo "usage: litmus_launch.sh -n NP program [args...]" >&2
    exit 2
fi
np=$2
shift 2
[ -n "${NETNS_PREFIX:-}" ] || {
    echo "litmus_launch.sh: no NETNS_PREFIX: run under scripts/netns-hosts run" >&2
    exit 2
}
exec "$here/../../scripts/netns-mpirun" "$np" 1 --timeout "${LITMUS_JOB_TIMEOUT:-600}" -- "$@"
