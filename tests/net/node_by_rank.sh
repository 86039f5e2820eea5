#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runs a PE of a job started by mpirun as if its node were node<rank / PER_NODE>: PEs with the same
# name share a node (SHMEM_NODE_NAME), the others are reached through the network transport.
# Usage: mpirun -np N node_by_rank.sh PER_NODE PROGRAM [ARGS...]
set -eu
per_node=$1
shift
rank=${PMIX_RANK:-${OMPI_COMM_WORLD_RANK:-0}}
SHMEM_NODE_NAME="node$((rank / per_node))"
export SHMEM_NODE_NAME
exec "$@"
