/* SPDX-License-Identifier: BSD-3-Clause */
/* ISA probes: one kernel per device operation and path, each calling exactly the code the public
 * function runs for that path. scripts/check-isa compiles this file for sm_90 (PTX, and SASS on
 * a GPU machine), gfx90a and gfx940 and checks each kernel against tests/device/isa/expect.txt.
 * The rules are those of the load/store path: the probes compile without the proxy path, as a
 * kernel built with SHMEM_DEVICE_PROXY=0 does (the full build, with it, is checked for calls). */
#if defined(SHMEMI_ISA_PROBE)
#define SHMEM_DEVICE_PROXY 0
#endif
#include <shmem/device/shmem_device.h>

#define PROBE extern "C" __global__ void

PROBE probe_quiet_default() {
    shmemi_dquiet_group<0, SHMEMI_GROUP_THREAD>(0);
}
PROBE probe_quiet_bypass() {
    shmemi_dquiet_group<1, SHMEMI_GROUP_THREAD>(0);
}
PROBE probe_fence_default() {
    shmemi_dfence_group<0, SHMEMI_GROUP_THREAD>(0);
}
PROBE probe_fence_bypass() {
    shmemi_dfence_group<1, SHMEMI_GROUP_THREAD>(0);
}
PROBE probe_quiet_block_default() {
    shmemi_dquiet_group<0, SHMEMI_GROUP_BLOCK>(0);
}
PROBE probe_quiet_block_bypass() {
    shmemi_dquiet_group<1, SHMEMI_GROUP_BLOCK>(0);
}
PROBE probe_fence_warp_bypass() {
    shmemi_dfence_group<1, SHMEMI_GROUP_WARP>(0);
}
/* The public thread forms on a context handle: the BYPASS test is on the handle's tag bit, with
 * no load of the context object. */
PROBE probe_ctx_quiet(shmem_ctx_t ctx) {
    shmem_ctx_quiet(ctx);
}
PROBE probe_ctx_p(shmem_ctx_t ctx, long *dest, long v, int pe) {
    shmem_ctx_long_p(ctx, dest, v, pe);
}

PROBE probe_wait_default(uint64_t *ivar, uint64_t v) {
    shmemi_dwait_until<0>("probe", (const uint64_t *)ivar, SHMEM_CMP_GE, v);
}
PROBE probe_wait_bypass(uint64_t *ivar, uint64_t v) {
    shmemi_dwait_until<1>("probe", (const uint64_t *)ivar, SHMEM_CMP_GE, v);
}
PROBE probe_signal_wait_until(uint64_t *sig, uint64_t v) {
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, v);
}
PROBE probe_test_default(int *ivar, int v, int *out) {
    *out = shmemi_dtest<0>((const int *)ivar, SHMEM_CMP_EQ, v);
}

PROBE probe_put_default(uint4 *dest, const uint4 *src, size_t n, int pe) {
    shmemi_dput<0, SHMEMI_GROUP_THREAD>("probe", 0, dest, src, n * sizeof(uint4), pe);
}
PROBE probe_put_bypass(uint4 *dest, const uint4 *src, size_t n, int pe) {
    shmemi_dput<1, SHMEMI_GROUP_THREAD>("probe", 0, dest, src, n * sizeof(uint4), pe);
}
PROBE probe_get(uint4 *dest, const uint4 *src, size_t n, int pe) {
    shmemi_dget<0, SHMEMI_GROUP_THREAD>("probe", 0, dest, src, n * sizeof(uint4), pe);
}
PROBE probe_g(const long *src, int pe, long *out) {
    *out = shmem_long_g(src, pe);
}
PROBE probe_ld_bypass(const uint32_t *p, uint32_t *out) {
    *out = shmemi_ld_bypass(p);
}

PROBE probe_put_signal_default(uint4 *dest, const uint4 *src, uint64_t *sig, int pe) {
    shmemi_dput_signal<0, SHMEMI_GROUP_THREAD>("probe", 0, dest, src, 64, sig, 1, SHMEM_SIGNAL_SET,
                                               pe);
}
PROBE probe_put_signal_add_default(uint4 *dest, const uint4 *src, uint64_t *sig, int pe) {
    shmemi_dput_signal<0, SHMEMI_GROUP_THREAD>("probe", 0, dest, src, 64, sig, 1, SHMEM_SIGNAL_ADD,
                                               pe);
}
PROBE probe_put_signal_bypass(uint4 *dest, const uint4 *src, uint64_t *sig, int pe) {
    shmemi_dput_signal<1, SHMEMI_GROUP_THREAD>("probe", 0, dest, src, 64, sig, 1, SHMEM_SIGNAL_SET,
                                               pe);
}
PROBE probe_put_signal_add_bypass(uint4 *dest, const uint4 *src, uint64_t *sig, int pe) {
    shmemi_dput_signal<1, SHMEMI_GROUP_THREAD>("probe", 0, dest, src, 64, sig, 1, SHMEM_SIGNAL_ADD,
                                               pe);
}

PROBE probe_amo_fetch_add(uint64_t *dest, int pe, uint64_t *out) {
    *out = shmem_uint64_atomic_fetch_add(dest, 1, pe);
}
PROBE probe_amo_compare_swap(int *dest, int pe, int *out) {
    *out = shmem_int_atomic_compare_swap(dest, 0, 1, pe);
}
PROBE probe_amo_fetch(const long *src, int pe, long *out) {
    *out = shmem_long_atomic_fetch(src, pe);
}

PROBE probe_barrier_all() {
    shmem_barrier_all();
}
PROBE probe_sync_all() {
    shmem_sync_all();
}

PROBE probe_amo_add(uint64_t *dest, int pe) {
    shmem_uint64_atomic_add(dest, 1, pe);
}
PROBE probe_st_bypass(long *dest, long v) {
    shmemx_long_st_bypass(dest, v);
}
PROBE probe_acquire_world() {
    shmemx_acquire(SHMEMX_SCOPE_WORLD);
}
PROBE probe_acquire_block() {
    shmemx_acquire(SHMEMX_SCOPE_BLOCK);
}
