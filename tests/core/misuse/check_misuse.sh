#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Misuse that must fail at compile time, with a message that says what is wrong.
#   check_misuse.sh cpu-platform cuda|hip SRCDIR BUILD_INCLUDE_DIR
#       device_code.cu against the cpu headers of BUILD_INCLUDE_DIR: first of all, the #error naming
#       the platform.
#   check_misuse.sh host-call cuda|hip SRCDIR
#       group_on_host.cu against headers configured for that GPU platform: a __device__ function
#       called from a __host__ function.
# Exit status: 0 the compile failed with the expected message, 1 otherwise, 77 no such compiler.
set -eu
case=$1
gpu=$2
root=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case $gpu in
cuda)
    compiler=${CUDACXX:-}
    [ -z "$compiler" ] && [ -x /usr/local/cuda/bin/nvcc ] && compiler=/usr/local/cuda/bin/nvcc
    [ -z "$compiler" ] && compiler=$(command -v nvcc || true)
    platform=1
    compile() { "$compiler" -std=c++17 -arch=sm_90 "$@"; }
    ;;
hip)
    compiler=$(command -v hipcc || true)
    [ -z "$compiler" ] && [ -x /opt/rocm/bin/hipcc ] && compiler=/opt/rocm/bin/hipcc
    platform=2
    compile() { "$compiler" -std=c++17 -x hip --offload-arch=gfx90a "$@"; }
    ;;
esac
if [ -z "$compiler" ]; then
    echo "SKIP: no $gpu compiler"
    exit 77
fi
case $case in
cpu-platform)
    inc="-I$root/include -I$4"
    src=$here/device_code.cu
    expect='error.*built for the cpu platform.*-DSHMEM_GPU=cuda or -DSHMEM_GPU=hip'
    ;;
host-call)
    mkdir -p "$work/cfg/shmem"
    sed -e "s/@SHMEM_PLATFORM_ID@/$platform/" -e "s/@SHMEM_GPU_PLATFORM_NAME@/$gpu/" \
        -e 's/@PROJECT_VERSION@/0/' -e 's/@SHMEM_HAVE_PMIX@/0/' \
        "$root/include/shmem/config.h.in" >"$work/cfg/shmem/config.h"
    inc="-I$root/include -I$work/cfg"
    src=$here/group_on_host.cu
    if [ "$gpu" = cuda ]; then
        expect='calling a __device__ function\("shmemx_putmem_nbi_block.* from a __host__ function\("main"\) is not allowed'
    else
        expect="call to __device__ function from __host__ function"
    fi
    ;;
esac
# shellcheck disable=SC2086
if compile $inc -c "$src" -o "$work/out.o" >"$work/log" 2>&1; then
    echo "FAIL: $src compiled, but it must not"
    exit 1
fi
if ! grep -Eq "$expect" "$work/log"; then
    echo "FAIL: the compiler's messages do not match '$expect':"
    cat "$work/log"
    exit 1
fi
# The #error must be the first error the user reads (clang goes on after it, nvcc stops).
if [ "$case" = cpu-platform ] && ! grep -m 1 'error' "$work/log" | grep -Eq "$expect"; then
    echo "FAIL: the first error is not the #error:"
    cat "$work/log"
    exit 1
fi
echo "ok: $case $gpu fails to compile with:"
grep -E "$expect" "$work/log" | head -n 1
