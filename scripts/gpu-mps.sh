# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# A CUDA MPS control daemon for the GPU check scripts (sourced by gpu-check and gpu-net-check).
# mps_start DIR PERCENTAGE starts one whose pipes and logs are under DIR (only the jobs given
# mps_env are its clients) and sets mps_env to what such a job needs: a PE's kernels may then use
# PERCENTAGE of the GPU's threads, since MPS does not preempt and spinning blocks that fill the
# GPU would keep another PE's blocks from starting. Where the daemon does not start it fails and
# mps_env stays empty. mps_stop stops it (nothing where none runs) and empties mps_env.
mps_env=()
mps_dir=
mps_start() { # dir percentage
    mps_env=()
    mps_dir=$1
    mkdir -p "$mps_dir/mps-pipe" "$mps_dir/mps-log"
    CUDA_MPS_PIPE_DIRECTORY="$mps_dir/mps-pipe" CUDA_MPS_LOG_DIRECTORY="$mps_dir/mps-log" \
        nvidia-cuda-mps-control -d || return 1
    mps_env=(CUDA_MPS_PIPE_DIRECTORY="$mps_dir/mps-pipe" CUDA_MPS_LOG_DIRECTORY="$mps_dir/mps-log"
        CUDA_MPS_ACTIVE_THREAD_PERCENTAGE="$2")
}
mps_stop() {
    [ ${#mps_env[@]} -gt 0 ] || return 0
    echo quit | CUDA_MPS_PIPE_DIRECTORY="$mps_dir/mps-pipe" nvidia-cuda-mps-control
    rm -rf "$mps_dir/mps-pipe"
    mps_env=()
}
