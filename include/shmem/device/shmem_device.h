/* SPDX-License-Identifier: BSD-3-Clause */
/* The device API of libshmem: what a CUDA or HIP kernel may call. Included by shmem.h in every
 * CUDA/HIP translation unit (SHMEMI_DEVICE_TU); needs no relocatable device code.
 *
 * Contract, per family (docs/memory_model.md is the full statement; litmus tests named there):
 * - put, p, iput, putmem, put_nbi, putmem_nbi and the _warp/_block forms: return when the source
 *   may be reused; delivery ordered by fence/quiet on the same context; words arrive in no fixed
 *   order; relaxed, scope pe. Default context: plain stores; BYPASS: bypass stores.
 * - get, g, iget, getmem and _nbi: return with the data; read with bypass loads (never a stale
 *   cache line); not ordered by fence.
 * - Atomics: relaxed, system scope, atomic within one datatype on the GPUs of the node.
 * - put_signal(_nbi): the signal is written after the whole payload is delivered (one system-scope
 *   release); signal_add/set: relaxed atomics; signal_fetch: relaxed load.
 * - fence: orders delivery of earlier puts, AMOs and signals before later ones to the same PE on
 *   the same context (system-scope release). quiet, pe_quiet: completes all of the context's
 *   operations and makes them visible to all PEs, cumulatively (system-scope fence). Group forms
 *   synchronize the group first.
 * - wait_until, test (all forms), signal_wait_until: acquire at system scope in the default
 *   context. A wait on a BYPASS context acquires for everything but plain loads: later library
 *   operations, bypass loads and stores, and plain stores happen after it; later plain loads may
 *   return stale data until shmemx_acquire(SHMEMX_SCOPE_WORLD).
 * - barrier_all: quiet then synchronize all PEs (release/acquire); sync_all: synchronize only.
 *   One thread, warp or block per PE calls it; kernels that call it on several blocks are started
 *   with shmemx_collective_launch.
 * - Collectives (team_sync, alltoall, fcollect, broadcast, the reductions; typed and mem forms,
 *   _warp/_block): one thread, warp or block per member calls; they return when dest holds the
 *   result and source may be reused, and order no other operations (team_sync orders as
 *   sync_all). Every member's dest must be ready before the first member calls. Teams:
 *   SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED; a team made by shmem_team_split_* stops the kernel
 *   with a message. long double forms stop the kernel; collect and alltoalls are host only.
 * Errors: a PE that is not reachable or an address outside the symmetric heap stops the kernel
 * with a message naming PE, block, thread and call; SHMEM_DEVICE_CHECKS=1 (compile time) adds PE
 * range and heap-bounds checks to every call; SHMEM_DEVICE_TIMEOUT_MS=t stops a wait after t ms.
 */
#ifndef SHMEM_DEVICE_SHMEM_DEVICE_H
#define SHMEM_DEVICE_SHMEM_DEVICE_H

#include <shmem/types.h>

/* The family headers declare these as plain C functions in every translation unit; here they are
 * __host__ __device__ functions of the same names (shmem/device/impl/api__funcs.h), so the C
 * declarations are renamed while the family headers are read. */
#define shmem_my_pe shmemi_c_shmem_my_pe
#define shmem_n_pes shmemi_c_shmem_n_pes
#define shmem_ptr shmemi_c_shmem_ptr
#define shmem_barrier_all shmemi_c_shmem_barrier_all
#define shmem_sync_all shmemi_c_shmem_sync_all
/* Collectives (shmem/device/impl/coll__funcs.h): the untyped names are renamed like the ones
 * above; shmem_sync(team) of sync.h keeps calling the library's shmem_team_sync. */
#define shmem_team_my_pe shmemi_c_shmem_team_my_pe
#define shmem_team_n_pes shmemi_c_shmem_team_n_pes
#define shmem_team_sync shmemi_c_shmem_team_sync
#define shmem_alltoallmem shmemi_c_shmem_alltoallmem
#define shmem_fcollectmem shmemi_c_shmem_fcollectmem
#define shmem_broadcastmem shmemi_c_shmem_broadcastmem
#include <shmem/team.h>
extern "C" int shmem_team_sync(shmem_team_t team) __asm__("shmem_team_sync");
#include <shmem/setup.h>
#include <shmem/memory.h>
#include <shmem/ctx.h>
#include <shmem/rma.h>
#include <shmem/amo.h>
#include <shmem/signal.h>
#include <shmem/order.h>
#include <shmem/p2p.h>
#include <shmem/team.h>
#include <shmem/sync.h>
/* The typed team collectives of coll.h are not declared as C functions here: its type tables are
 * empty while it is read, and coll__funcs.h declares every one of them from the same tables. */
#include <shmem/impl/typelists.h>
#pragma push_macro("SHMEMI_RMA_TYPES")
#pragma push_macro("SHMEMI_REDUCE_BITWISE_TYPES")
#pragma push_macro("SHMEMI_REDUCE_MINMAX_TYPES")
#undef SHMEMI_RMA_TYPES
#undef SHMEMI_REDUCE_BITWISE_TYPES
#undef SHMEMI_REDUCE_MINMAX_TYPES
#define SHMEMI_RMA_TYPES(X)
#define SHMEMI_REDUCE_BITWISE_TYPES(X)
#define SHMEMI_REDUCE_MINMAX_TYPES(X)
#include <shmem/coll.h>
#pragma pop_macro("SHMEMI_RMA_TYPES")
#pragma pop_macro("SHMEMI_REDUCE_BITWISE_TYPES")
#pragma pop_macro("SHMEMI_REDUCE_MINMAX_TYPES")
#include <shmem/lock.h>
#include <shmem/bypass.h>
#undef shmem_my_pe
#undef shmem_n_pes
#undef shmem_ptr
#undef shmem_barrier_all
#undef shmem_sync_all
#undef shmem_team_my_pe
#undef shmem_team_n_pes
#undef shmem_team_sync
#undef shmem_alltoallmem
#undef shmem_fcollectmem
#undef shmem_broadcastmem

#include <shmem/device/impl/gpu_port.h>
#include <shmem/device/impl/api__funcs.h>
#include <shmem/device/impl/compat__funcs.h>
#include <shmem/device/impl/generic__funcs.h>
#include <shmem/device/impl/coll__funcs.h>
#include <shmem/device/launch.h>

#endif
