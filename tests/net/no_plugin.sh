#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A job that needs the network transport where its plug-in cannot load: a copy of libshmem.so in a
# folder without libshmem-ucx.so, found first through LD_LIBRARY_PATH. shmem_init must end the job
# naming a PE on another node and the file that did not load.
# Usage: no_plugin.sh LIBSHMEM SHMEMRUN PROGRAM
set -eu
lib=$1 shmemrun=$2 program=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$lib" "$dir/$(basename "$lib")"
LD_LIBRARY_PATH=$dir SHMEM_DISABLE_P2P=1 "$shmemrun" -n 2 "$program" && exit 1
exit 0
