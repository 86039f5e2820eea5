/* SPDX-License-Identifier: BSD-3-Clause */
/* Bulk copies of device operations: by the group's threads, in the widest unit both addresses
 * allow, each load and store plain or cache-bypassing. Used by the load/store path
 * (shmem/device/impl/ops__funcs.h) and for the proxy's payloads (proxy__funcs.h). */
#ifndef SHMEM_DEVICE_IMPL_COPY__FUNCS_H
#define SHMEM_DEVICE_IMPL_COPY__FUNCS_H

#include <shmem/device/impl/state__funcs.h>

#if SHMEMI_DEVICE_PASS

/* One access of a bulk copy: Bypass selects the cache-bypassing instruction. */
template <int Bypass, typename T> SHMEMI_DI T shmemi_dload(const T *p) {
    return Bypass ? shmemi_ld_bypass(p) : *p;
}
template <int Bypass> SHMEMI_DI shmemi_vec16_t shmemi_dload(const shmemi_vec16_t *p) {
    return Bypass ? shmemi_ld_bypass_vec16(p) : *p;
}
template <int Bypass, typename T> SHMEMI_DI void shmemi_dstore(T *p, T v) {
    if (Bypass)
        shmemi_st_bypass_untracked(p, v);
    else
        *p = v;
}
template <int Bypass> SHMEMI_DI void shmemi_dstore(shmemi_vec16_t *p, shmemi_vec16_t v) {
    if (Bypass)
        shmemi_st_bypass_vec16(p, v);
    else
        *p = v;
}

/* Copies n bytes with the group's threads, in the widest unit both addresses allow. Words of
 * one copy are performed in no fixed order. Each thread issues SHMEMI_COPY_UNROLL loads before
 * their stores, so that several loads are in flight per thread (bandwidth of large puts: the
 * block-form put reaches NVSHMEM's bandwidth at 4). A build may set the depth with
 * -DSHMEMI_COPY_UNROLL=N to measure its effect on a workload. */
#ifndef SHMEMI_COPY_UNROLL
#define SHMEMI_COPY_UNROLL 4
#endif
template <int LoadBypass, int StoreBypass, int Group, typename U>
SHMEMI_DI void shmemi_dcopy_units(U *dst, const U *src, size_t n_units) {
    const size_t rank = (size_t)shmemi_group_rank<Group>();
    const size_t step = (size_t)shmemi_group_size<Group>();
    size_t i = rank;
    for (; i + (SHMEMI_COPY_UNROLL - 1) * step < n_units; i += SHMEMI_COPY_UNROLL * step) {
        U v[SHMEMI_COPY_UNROLL];
#pragma unroll
        for (int k = 0; k < SHMEMI_COPY_UNROLL; k++)
            v[k] = shmemi_dload<LoadBypass>(src + i + (size_t)k * step);
#pragma unroll
        for (int k = 0; k < SHMEMI_COPY_UNROLL; k++)
            shmemi_dstore<StoreBypass>(dst + i + (size_t)k * step, v[k]);
    }
    for (; i < n_units; i += step)
        shmemi_dstore<StoreBypass>(dst + i, shmemi_dload<LoadBypass>(src + i));
}
template <int LoadBypass, int StoreBypass, int Group>
SHMEMI_DI void shmemi_dcopy(void *dst, const void *src, size_t n) {
    const uintptr_t align = (uintptr_t)dst | (uintptr_t)src;
    char *d = (char *)dst;
    const char *s = (const char *)src;
    size_t done = 0;
    /* The bulk in the widest unit both addresses allow, then the tail in narrower units, so that
     * an 8-byte put is one store, not eight. */
    if ((align & 15) == 0) {
        shmemi_dcopy_units<LoadBypass, StoreBypass, Group>((shmemi_vec16_t *)d,
                                                           (const shmemi_vec16_t *)s, n / 16);
        done = n & ~(size_t)15;
    }
    if ((align & 7) == 0 && n - done >= 8) {
        shmemi_dcopy_units<LoadBypass, StoreBypass, Group>(
            (uint64_t *)(d + done), (const uint64_t *)(s + done), (n - done) / 8);
        done = n & ~(size_t)7;
    }
    if ((align & 3) == 0 && n - done >= 4) {
        shmemi_dcopy_units<LoadBypass, StoreBypass, Group>(
            (uint32_t *)(d + done), (const uint32_t *)(s + done), (n - done) / 4);
        done = n & ~(size_t)3;
    }
    shmemi_dcopy_units<LoadBypass, StoreBypass, Group>((uint8_t *)(d + done),
                                                       (const uint8_t *)(s + done), n - done);
}

/* Strided copy of n elements of T (iput/iget). */
template <int LoadBypass, int StoreBypass, int Group, typename T>
SHMEMI_DI void shmemi_dcopy_strided(T *dst, ptrdiff_t dst_stride, const T *src,
                                    ptrdiff_t src_stride, size_t n) {
    typedef typename shmemi_bits<sizeof(T)>::type B;
    const size_t rank = (size_t)shmemi_group_rank<Group>();
    const size_t step = (size_t)shmemi_group_size<Group>();
    for (size_t i = rank; i < n; i += step)
        shmemi_dstore<StoreBypass>(
            (B *)(dst + (ptrdiff_t)i * dst_stride),
            shmemi_dload<LoadBypass>((const B *)(src + (ptrdiff_t)i * src_stride)));
}

#endif

#endif
