#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A job whose PE 1 sees another host name (in a UTS namespace of its own) and names it as its node
# (SHMEM_NODE_NAME overrides the launcher's host name), as if it ran on another node. Exits 77
# (skipped) where such namespaces cannot be created.
# Usage: pmix_two_hosts.sh MPIRUN [ARGS...] -np 2 pmix_two_hosts.sh PROGRAM
# As a PE (PMIX_RANK set), it runs PROGRAM, PE 1 under the other host name.
set -eu
if [ -z "${PMIX_RANK:-}" ]; then
    unshare --uts true 2>/dev/null || {
        echo "cannot create a UTS namespace here: skipped"
        exit 77
    }
    exec "$@"
fi
if [ "$PMIX_RANK" = 1 ]; then
    exec unshare --uts sh -c 'hostname libshmem-other-node && SHMEM_NODE_NAME=libshmem-other-node exec "$@"' sh "$@"
fi
exec "$@"
