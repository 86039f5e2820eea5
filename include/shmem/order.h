/* SPDX-License-Identifier: BSD-3-Clause */
/* Memory ordering routines (OpenSHMEM 1.6 section 9.10): fence, quiet, pe_quiet, and their
 * shmem_ctx_ forms. */
#ifndef SHMEM_ORDER_H
#define SHMEM_ORDER_H

#include <shmem/types.h>
#include <shmem/ctx.h>

#if !SHMEMI_DEVICE_TU
SHMEMI_EXTERN_C_BEGIN

/* Orders delivery: puts, AMOs and put-with-signal issued on ctx before the fence reach each PE
 * before those issued after it (not gets); a release, scope world, per target PE. On a BYPASS
 * context it orders only SHMEM operations and bypass stores, not plain stores. Drains outstanding
 * non-temporal stores of the calling thread. shmem_ctx_fence(SHMEM_CTX_INVALID) does nothing.
 * Litmus: MP+fence+amo, MP+fence+amo+2pe, MP+fence+amo+ctx, MP+fence.c1+amo, CoWW+put+fence,
 * SB+fence, MP+st+fence+amo, MP+st+fence.ns+amo, ISA2+fence+waits, WRC+get+fence, LB+getnbi+fence,
 * MP+fence.bp+bp2. */
void shmem_fence(void);
void shmem_ctx_fence(shmem_ctx_t ctx);

/* Returns when every put, AMO, put-with-signal and nbi get issued on ctx is complete and visible
 * to all PEs, cumulatively; a full (sequentially consistent) fence, scope world. NOSTORE contexts
 * need not order plain stores; BYPASS contexts order only SHMEM operations and bypass stores.
 * shmem_ctx_quiet(SHMEM_CTX_INVALID) does nothing.
 * Litmus: MP+quiet+amo, MP+quiet+amo+2pe, MP+quiet+amo+ctx, SB+quiet,
 * ISA2+quiet+waits, WRC+get+quiet, LB+getnbi+quiet, CoWR+put+quiet, MP+st+quiet+amo,
 * MP+quiet.ns+amo, MP+st+quiet.ns+amo, MP+quiet.bp+amo+bypass, MP+st+quiet.bp+amo,
 * MP+stb+quiet.bp+amo, SB+quiet.bp+bypass, SB+quiet.bp+plain, WRC+get+quiet.bp,
 * MP+quiet.thread+2thr. */
void shmem_quiet(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);

/* As quiet, for the operations issued on ctx to the npes PEs of target_pes (team-relative on a
 * team context); npes == 0 or SHMEM_CTX_INVALID returns at once. Scope world. Litmus:
 * MP+quiet+amo+2pe. */
void shmem_pe_quiet(const int *target_pes, size_t npes);
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);

SHMEMI_EXTERN_C_END
#endif /* !SHMEMI_DEVICE_TU */

#endif
