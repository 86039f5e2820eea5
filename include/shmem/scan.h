/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenSHMEM 1.6 scans (host only). Apart from <shmem/coll.h> because CUDA and HIP translation
 * units include that header with the type lists of the device collectives emptied; the scans
 * have no device form, so every type is declared here in every translation unit. Include
 * <shmem.h>, not this header. */
#ifndef SHMEM_SCAN_H
#define SHMEM_SCAN_H

#include <shmem/coll.h>

SHMEMI_EXTERN_C_BEGIN

/* ---- scans (OpenSHMEM 1.6) ------------------------------------------------------------------ */

/* Collective over team; returns when dest holds, element-wise, the sum of the sources of team
 * members 0 to this one (inscan) or 0 to the one before this one (exscan, where member 0 gets
 * zeros), and source may be reused; dest may equal source but not overlap it otherwise. Every
 * member's sum is in team order for SHMEM_SCAN_ALGORITHM=linear. No other ordering. Returns 0.
 * Host only, on host memory. */
#define SHMEMI_DECL_SCAN(T, N)                                                                     \
    int shmem_##N##_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems);        \
    int shmem_##N##_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems);
SHMEMI_REDUCE_ARITH_TYPES(SHMEMI_DECL_SCAN)
#undef SHMEMI_DECL_SCAN

SHMEMI_EXTERN_C_END

#if defined(__cplusplus) && defined(__GNUC__)
/* Overloads for the GNU complex types, as <shmem/coll.h> has for the reductions. */
extern "C++" {
#define SHMEMI_GNU_COMPLEX_SCAN(N, KIND)                                                           \
    static inline int shmem_##N##_sum_##KIND(shmem_team_t team, shmemi_gnu_##N##_t *dest,          \
                                             const shmemi_gnu_##N##_t *source, size_t nelems) {    \
        return shmem_##N##_sum_##KIND(team, reinterpret_cast<shmemi_##N##_t *>(dest),              \
                                      reinterpret_cast<const shmemi_##N##_t *>(source), nelems);   \
    }
SHMEMI_GNU_COMPLEX_SCAN(complexf, inscan)
SHMEMI_GNU_COMPLEX_SCAN(complexf, exscan)
SHMEMI_GNU_COMPLEX_SCAN(complexd, inscan)
SHMEMI_GNU_COMPLEX_SCAN(complexd, exscan)
#undef SHMEMI_GNU_COMPLEX_SCAN
}
#endif

#endif
