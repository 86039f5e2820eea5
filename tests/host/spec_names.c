/* SPDX-License-Identifier: BSD-3-Clause */
/* Every routine and constant in the index of the OpenSHMEM 1.6 specification is declared by
 * shmem.h and, for routines, defined by libshmem: this program takes the address of each routine
 * (so a missing declaration fails to compile and a missing definition fails to link), evaluates
 * each constant, and checks in C11 that each generic name is defined. The lists below are the
 * specification's index (its \FuncDecl, \FuncRef, \LibConstRef and \LibHandleRef entries), with
 * TYPENAME expanded over the type table each routine names and SIZE over 8, 16, 32, 64 and 128;
 * the Fortran names of the index are left out. */
#include <shmem.h>

#include <stdio.h>

/* One entry per line, as the specification lists them; clang-format would join the lines. */
/* clang-format off */

/* The specification's type tables: X(prefix, TYPENAME, suffix) for each type. */
#define STD_RMA(X, P, S) \
    X(P, float, S) \
    X(P, double, S) \
    X(P, longdouble, S) \
    X(P, char, S) \
    X(P, schar, S) \
    X(P, short, S) \
    X(P, int, S) \
    X(P, long, S) \
    X(P, longlong, S) \
    X(P, uchar, S) \
    X(P, ushort, S) \
    X(P, uint, S) \
    X(P, ulong, S) \
    X(P, ulonglong, S) \
    X(P, int8, S) \
    X(P, int16, S) \
    X(P, int32, S) \
    X(P, int64, S) \
    X(P, uint8, S) \
    X(P, uint16, S) \
    X(P, uint32, S) \
    X(P, uint64, S) \
    X(P, size, S) \
    X(P, ptrdiff, S)
#define STD_AMO(X, P, S) \
    X(P, int, S) \
    X(P, long, S) \
    X(P, longlong, S) \
    X(P, uint, S) \
    X(P, ulong, S) \
    X(P, ulonglong, S) \
    X(P, int32, S) \
    X(P, int64, S) \
    X(P, uint32, S) \
    X(P, uint64, S) \
    X(P, size, S) \
    X(P, ptrdiff, S)
#define EXT_AMO(X, P, S) \
    X(P, float, S) \
    X(P, double, S) \
    X(P, int, S) \
    X(P, long, S) \
    X(P, longlong, S) \
    X(P, uint, S) \
    X(P, ulong, S) \
    X(P, ulonglong, S) \
    X(P, int32, S) \
    X(P, int64, S) \
    X(P, uint32, S) \
    X(P, uint64, S) \
    X(P, size, S) \
    X(P, ptrdiff, S)
#define BIT_AMO(X, P, S) \
    X(P, uint, S) \
    X(P, ulong, S) \
    X(P, ulonglong, S) \
    X(P, int32, S) \
    X(P, int64, S) \
    X(P, uint32, S) \
    X(P, uint64, S)
#define P2P_SYNC(X, P, S) \
    X(P, int, S) \
    X(P, long, S) \
    X(P, longlong, S) \
    X(P, uint, S) \
    X(P, ulong, S) \
    X(P, ulonglong, S) \
    X(P, int32, S) \
    X(P, int64, S) \
    X(P, uint32, S) \
    X(P, uint64, S) \
    X(P, size, S) \
    X(P, ptrdiff, S) \
    X(P, short, S) \
    X(P, ushort, S)
#define DEPR_WAIT(X, P, S) \
    X(P, short, S) \
    X(P, int, S) \
    X(P, long, S) \
    X(P, longlong, S)
#define DEPR_AMO(X, P, S) \
    X(P, int, S) \
    X(P, long, S) \
    X(P, longlong, S)
#define DEPR_EXT_AMO(X, P, S) \
    X(P, float, S) \
    X(P, double, S) \
    X(P, int, S) \
    X(P, long, S) \
    X(P, longlong, S)
#define TEAM_BITWISE(X, P, S) \
    X(P, uchar, S) \
    X(P, ushort, S) \
    X(P, uint, S) \
    X(P, ulong, S) \
    X(P, ulonglong, S) \
    X(P, int8, S) \
    X(P, int16, S) \
    X(P, int32, S) \
    X(P, int64, S) \
    X(P, uint8, S) \
    X(P, uint16, S) \
    X(P, uint32, S) \
    X(P, uint64, S) \
    X(P, size, S)
#define TEAM_MINMAX(X, P, S) \
    X(P, char, S) \
    X(P, schar, S) \
    X(P, short, S) \
    X(P, int, S) \
    X(P, long, S) \
    X(P, longlong, S) \
    X(P, ptrdiff, S) \
    X(P, uchar, S) \
    X(P, ushort, S) \
    X(P, uint, S) \
    X(P, ulong, S) \
    X(P, ulonglong, S) \
    X(P, int8, S) \
    X(P, int16, S) \
    X(P, int32, S) \
    X(P, int64, S) \
    X(P, uint8, S) \
    X(P, uint16, S) \
    X(P, uint32, S) \
    X(P, uint64, S) \
    X(P, size, S) \
    X(P, float, S) \
    X(P, double, S) \
    X(P, longdouble, S)
#define TEAM_ARITH(X, P, S) \
    X(P, char, S) \
    X(P, schar, S) \
    X(P, short, S) \
    X(P, int, S) \
    X(P, long, S) \
    X(P, longlong, S) \
    X(P, ptrdiff, S) \
    X(P, uchar, S) \
    X(P, ushort, S) \
    X(P, uint, S) \
    X(P, ulong, S) \
    X(P, ulonglong, S) \
    X(P, int8, S) \
    X(P, int16, S) \
    X(P, int32, S) \
    X(P, int64, S) \
    X(P, uint8, S) \
    X(P, uint16, S) \
    X(P, uint32, S) \
    X(P, uint64, S) \
    X(P, size, S) \
    X(P, float, S) \
    X(P, double, S) \
    X(P, longdouble, S) \
    X(P, complexd, S) \
    X(P, complexf, S)
#define ASET_BITWISE(X, P, S) \
    X(P, short, S) \
    X(P, int, S) \
    X(P, long, S) \
    X(P, longlong, S)
#define ASET_MINMAX(X, P, S) \
    X(P, short, S) \
    X(P, int, S) \
    X(P, long, S) \
    X(P, longlong, S) \
    X(P, float, S) \
    X(P, double, S) \
    X(P, longdouble, S)
#define ASET_ARITH(X, P, S) \
    X(P, short, S) \
    X(P, int, S) \
    X(P, long, S) \
    X(P, longlong, S) \
    X(P, float, S) \
    X(P, double, S) \
    X(P, longdouble, S) \
    X(P, complexd, S) \
    X(P, complexf, S)
#define SIZES(X, P, S) \
    X(P, 8, S) \
    X(P, 16, S) \
    X(P, 32, S) \
    X(P, 64, S) \
    X(P, 128, S)

#define REF(name) (void (*)(void))(name),
#define REF_PASTE(P, T, S) REF(P##T##S)

static void (*const routines[])(void) = {
    /* Typed routines: shmem[_ctx]_TYPENAME_<op>. */
    DEPR_AMO(REF_PASTE, shmem_, _add)
    STD_RMA(REF_PASTE, shmem_, _alltoall)
    STD_RMA(REF_PASTE, shmem_, _alltoalls)
    TEAM_BITWISE(REF_PASTE, shmem_, _and_reduce)
    ASET_BITWISE(REF_PASTE, shmem_, _and_to_all)
    STD_AMO(REF_PASTE, shmem_, _atomic_add)
    BIT_AMO(REF_PASTE, shmem_, _atomic_and)
    STD_AMO(REF_PASTE, shmem_, _atomic_compare_swap)
    STD_AMO(REF_PASTE, shmem_, _atomic_compare_swap_nbi)
    EXT_AMO(REF_PASTE, shmem_, _atomic_fetch)
    STD_AMO(REF_PASTE, shmem_, _atomic_fetch_add)
    STD_AMO(REF_PASTE, shmem_, _atomic_fetch_add_nbi)
    BIT_AMO(REF_PASTE, shmem_, _atomic_fetch_and)
    BIT_AMO(REF_PASTE, shmem_, _atomic_fetch_and_nbi)
    STD_AMO(REF_PASTE, shmem_, _atomic_fetch_inc)
    STD_AMO(REF_PASTE, shmem_, _atomic_fetch_inc_nbi)
    EXT_AMO(REF_PASTE, shmem_, _atomic_fetch_nbi)
    BIT_AMO(REF_PASTE, shmem_, _atomic_fetch_or)
    BIT_AMO(REF_PASTE, shmem_, _atomic_fetch_or_nbi)
    BIT_AMO(REF_PASTE, shmem_, _atomic_fetch_xor)
    BIT_AMO(REF_PASTE, shmem_, _atomic_fetch_xor_nbi)
    STD_AMO(REF_PASTE, shmem_, _atomic_inc)
    BIT_AMO(REF_PASTE, shmem_, _atomic_or)
    EXT_AMO(REF_PASTE, shmem_, _atomic_set)
    EXT_AMO(REF_PASTE, shmem_, _atomic_swap)
    EXT_AMO(REF_PASTE, shmem_, _atomic_swap_nbi)
    BIT_AMO(REF_PASTE, shmem_, _atomic_xor)
    STD_RMA(REF_PASTE, shmem_, _broadcast)
    STD_RMA(REF_PASTE, shmem_, _collect)
    DEPR_AMO(REF_PASTE, shmem_, _cswap)
    DEPR_AMO(REF_PASTE, shmem_, _fadd)
    STD_RMA(REF_PASTE, shmem_, _fcollect)
    DEPR_EXT_AMO(REF_PASTE, shmem_, _fetch)
    DEPR_AMO(REF_PASTE, shmem_, _finc)
    STD_RMA(REF_PASTE, shmem_, _g)
    STD_RMA(REF_PASTE, shmem_, _get)
    STD_RMA(REF_PASTE, shmem_, _get_nbi)
    STD_RMA(REF_PASTE, shmem_, _ibget)
    STD_RMA(REF_PASTE, shmem_, _ibput)
    STD_RMA(REF_PASTE, shmem_, _iget)
    DEPR_AMO(REF_PASTE, shmem_, _inc)
    STD_RMA(REF_PASTE, shmem_, _iput)
    TEAM_MINMAX(REF_PASTE, shmem_, _max_reduce)
    ASET_MINMAX(REF_PASTE, shmem_, _max_to_all)
    TEAM_MINMAX(REF_PASTE, shmem_, _min_reduce)
    ASET_MINMAX(REF_PASTE, shmem_, _min_to_all)
    TEAM_BITWISE(REF_PASTE, shmem_, _or_reduce)
    ASET_BITWISE(REF_PASTE, shmem_, _or_to_all)
    STD_RMA(REF_PASTE, shmem_, _p)
    TEAM_ARITH(REF_PASTE, shmem_, _prod_reduce)
    ASET_ARITH(REF_PASTE, shmem_, _prod_to_all)
    STD_RMA(REF_PASTE, shmem_, _put)
    STD_RMA(REF_PASTE, shmem_, _put_nbi)
    STD_RMA(REF_PASTE, shmem_, _put_signal)
    STD_RMA(REF_PASTE, shmem_, _put_signal_nbi)
    DEPR_EXT_AMO(REF_PASTE, shmem_, _set)
    TEAM_ARITH(REF_PASTE, shmem_, _sum_exscan)
    TEAM_ARITH(REF_PASTE, shmem_, _sum_inscan)
    TEAM_ARITH(REF_PASTE, shmem_, _sum_reduce)
    ASET_ARITH(REF_PASTE, shmem_, _sum_to_all)
    DEPR_EXT_AMO(REF_PASTE, shmem_, _swap)
    P2P_SYNC(REF_PASTE, shmem_, _test)
    STD_AMO(REF_PASTE, shmem_, _test_all)
    STD_AMO(REF_PASTE, shmem_, _test_all_vector)
    STD_AMO(REF_PASTE, shmem_, _test_any)
    STD_AMO(REF_PASTE, shmem_, _test_any_vector)
    STD_AMO(REF_PASTE, shmem_, _test_some)
    STD_AMO(REF_PASTE, shmem_, _test_some_vector)
    DEPR_WAIT(REF_PASTE, shmem_, _wait)
    P2P_SYNC(REF_PASTE, shmem_, _wait_until)
    STD_AMO(REF_PASTE, shmem_, _wait_until_all)
    STD_AMO(REF_PASTE, shmem_, _wait_until_all_vector)
    STD_AMO(REF_PASTE, shmem_, _wait_until_any)
    STD_AMO(REF_PASTE, shmem_, _wait_until_any_vector)
    STD_AMO(REF_PASTE, shmem_, _wait_until_some)
    STD_AMO(REF_PASTE, shmem_, _wait_until_some_vector)
    TEAM_BITWISE(REF_PASTE, shmem_, _xor_reduce)
    ASET_BITWISE(REF_PASTE, shmem_, _xor_to_all)
    STD_AMO(REF_PASTE, shmem_ctx_, _atomic_add)
    BIT_AMO(REF_PASTE, shmem_ctx_, _atomic_and)
    STD_AMO(REF_PASTE, shmem_ctx_, _atomic_compare_swap)
    STD_AMO(REF_PASTE, shmem_ctx_, _atomic_compare_swap_nbi)
    EXT_AMO(REF_PASTE, shmem_ctx_, _atomic_fetch)
    STD_AMO(REF_PASTE, shmem_ctx_, _atomic_fetch_add)
    STD_AMO(REF_PASTE, shmem_ctx_, _atomic_fetch_add_nbi)
    BIT_AMO(REF_PASTE, shmem_ctx_, _atomic_fetch_and)
    BIT_AMO(REF_PASTE, shmem_ctx_, _atomic_fetch_and_nbi)
    STD_AMO(REF_PASTE, shmem_ctx_, _atomic_fetch_inc)
    STD_AMO(REF_PASTE, shmem_ctx_, _atomic_fetch_inc_nbi)
    EXT_AMO(REF_PASTE, shmem_ctx_, _atomic_fetch_nbi)
    BIT_AMO(REF_PASTE, shmem_ctx_, _atomic_fetch_or)
    BIT_AMO(REF_PASTE, shmem_ctx_, _atomic_fetch_or_nbi)
    BIT_AMO(REF_PASTE, shmem_ctx_, _atomic_fetch_xor)
    BIT_AMO(REF_PASTE, shmem_ctx_, _atomic_fetch_xor_nbi)
    STD_AMO(REF_PASTE, shmem_ctx_, _atomic_inc)
    BIT_AMO(REF_PASTE, shmem_ctx_, _atomic_or)
    EXT_AMO(REF_PASTE, shmem_ctx_, _atomic_set)
    EXT_AMO(REF_PASTE, shmem_ctx_, _atomic_swap)
    EXT_AMO(REF_PASTE, shmem_ctx_, _atomic_swap_nbi)
    BIT_AMO(REF_PASTE, shmem_ctx_, _atomic_xor)
    STD_RMA(REF_PASTE, shmem_ctx_, _g)
    STD_RMA(REF_PASTE, shmem_ctx_, _get)
    STD_RMA(REF_PASTE, shmem_ctx_, _get_nbi)
    STD_RMA(REF_PASTE, shmem_ctx_, _ibget)
    STD_RMA(REF_PASTE, shmem_ctx_, _ibput)
    STD_RMA(REF_PASTE, shmem_ctx_, _iget)
    STD_RMA(REF_PASTE, shmem_ctx_, _iput)
    STD_RMA(REF_PASTE, shmem_ctx_, _p)
    STD_RMA(REF_PASTE, shmem_ctx_, _put)
    STD_RMA(REF_PASTE, shmem_ctx_, _put_nbi)
    STD_RMA(REF_PASTE, shmem_ctx_, _put_signal)
    STD_RMA(REF_PASTE, shmem_ctx_, _put_signal_nbi)
    /* Sized routines: shmem[_ctx]_<op>SIZE[_suffix]. */
    SIZES(REF_PASTE, shmem_ctx_get, )
    SIZES(REF_PASTE, shmem_ctx_get, _nbi)
    SIZES(REF_PASTE, shmem_ctx_ibget, )
    SIZES(REF_PASTE, shmem_ctx_ibput, )
    SIZES(REF_PASTE, shmem_ctx_iget, )
    SIZES(REF_PASTE, shmem_ctx_iput, )
    SIZES(REF_PASTE, shmem_ctx_put, )
    SIZES(REF_PASTE, shmem_ctx_put, _nbi)
    SIZES(REF_PASTE, shmem_ctx_put, _signal)
    SIZES(REF_PASTE, shmem_ctx_put, _signal_nbi)
    SIZES(REF_PASTE, shmem_get, )
    SIZES(REF_PASTE, shmem_get, _nbi)
    SIZES(REF_PASTE, shmem_ibget, )
    SIZES(REF_PASTE, shmem_ibput, )
    SIZES(REF_PASTE, shmem_iget, )
    SIZES(REF_PASTE, shmem_iput, )
    SIZES(REF_PASTE, shmem_put, )
    SIZES(REF_PASTE, shmem_put, _nbi)
    SIZES(REF_PASTE, shmem_put, _signal)
    SIZES(REF_PASTE, shmem_put, _signal_nbi)
    /* The other routines. */
    REF(_my_pe)
    REF(_num_pes)
    REF(shfree)
    REF(shmalloc)
    REF(shmem_addr_accessible)
    REF(shmem_align)
    REF(shmem_alltoall32)
    REF(shmem_alltoall64)
    REF(shmem_alltoallmem)
    REF(shmem_alltoalls32)
    REF(shmem_alltoalls64)
    REF(shmem_alltoallsmem)
    REF(shmem_barrier)
    REF(shmem_barrier_all)
    REF(shmem_broadcast32)
    REF(shmem_broadcast64)
    REF(shmem_broadcastmem)
    REF(shmem_calloc)
    REF(shmem_clear_cache_inv)
    REF(shmem_clear_cache_line_inv)
    REF(shmem_clear_lock)
    REF(shmem_collect32)
    REF(shmem_collect64)
    REF(shmem_collectmem)
    REF(shmem_ctx_create)
    REF(shmem_ctx_destroy)
    REF(shmem_ctx_fence)
    REF(shmem_ctx_get_team)
    REF(shmem_ctx_getmem)
    REF(shmem_ctx_getmem_nbi)
    REF(shmem_ctx_pe_quiet)
    REF(shmem_ctx_putmem)
    REF(shmem_ctx_putmem_nbi)
    REF(shmem_ctx_putmem_signal)
    REF(shmem_ctx_putmem_signal_nbi)
    REF(shmem_ctx_quiet)
    REF(shmem_ctx_session_start)
    REF(shmem_ctx_session_stop)
    REF(shmem_ctx_signal_add)
    REF(shmem_ctx_signal_set)
    REF(shmem_fcollect32)
    REF(shmem_fcollect64)
    REF(shmem_fcollectmem)
    REF(shmem_fence)
    REF(shmem_finalize)
    REF(shmem_free)
    REF(shmem_getmem)
    REF(shmem_getmem_nbi)
    REF(shmem_global_exit)
    REF(shmem_info_get_name)
    REF(shmem_info_get_version)
    REF(shmem_init)
    REF(shmem_init_thread)
    REF(shmem_malloc)
    REF(shmem_malloc_with_hints)
    REF(shmem_my_pe)
    REF(shmem_n_pes)
    REF(shmem_pcontrol)
    REF(shmem_pe_accessible)
    REF(shmem_pe_quiet)
    REF(shmem_ptr)
    REF(shmem_putmem)
    REF(shmem_putmem_nbi)
    REF(shmem_putmem_signal)
    REF(shmem_putmem_signal_nbi)
    REF(shmem_query_initialized)
    REF(shmem_query_thread)
    REF(shmem_quiet)
    REF(shmem_realloc)
    REF(shmem_set_cache_inv)
    REF(shmem_set_cache_line_inv)
    REF(shmem_set_lock)
    REF(shmem_short_test)
    REF(shmem_short_wait_until)
    REF(shmem_signal_add)
    REF(shmem_signal_fetch)
    REF(shmem_signal_set)
    REF(shmem_signal_wait_until)
    REF(shmem_sync)
    REF(shmem_sync_all)
    REF(shmem_team_create_ctx)
    REF(shmem_team_destroy)
    REF(shmem_team_get_config)
    REF(shmem_team_my_pe)
    REF(shmem_team_n_pes)
    REF(shmem_team_ptr)
    REF(shmem_team_split_2d)
    REF(shmem_team_split_strided)
    REF(shmem_team_sync)
    REF(shmem_team_translate_pe)
    REF(shmem_test_lock)
    REF(shmem_udcflush)
    REF(shmem_udcflush_line)
    REF(shmem_ushort_test)
    REF(shmem_ushort_wait_until)
    REF(shmemalign)
    REF(shrealloc)
    REF(start_pes)
    REF(shmem_wait)
};

/* clang-format on */

/* The generic names (C11 _Generic selections). */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#ifndef shmem_add
#error "shmem_add is not defined"
#endif
#ifndef shmem_alltoall
#error "shmem_alltoall is not defined"
#endif
#ifndef shmem_alltoalls
#error "shmem_alltoalls is not defined"
#endif
#ifndef shmem_and_reduce
#error "shmem_and_reduce is not defined"
#endif
#ifndef shmem_atomic_add
#error "shmem_atomic_add is not defined"
#endif
#ifndef shmem_atomic_and
#error "shmem_atomic_and is not defined"
#endif
#ifndef shmem_atomic_compare_swap
#error "shmem_atomic_compare_swap is not defined"
#endif
#ifndef shmem_atomic_compare_swap_nbi
#error "shmem_atomic_compare_swap_nbi is not defined"
#endif
#ifndef shmem_atomic_fetch
#error "shmem_atomic_fetch is not defined"
#endif
#ifndef shmem_atomic_fetch_add
#error "shmem_atomic_fetch_add is not defined"
#endif
#ifndef shmem_atomic_fetch_add_nbi
#error "shmem_atomic_fetch_add_nbi is not defined"
#endif
#ifndef shmem_atomic_fetch_and
#error "shmem_atomic_fetch_and is not defined"
#endif
#ifndef shmem_atomic_fetch_and_nbi
#error "shmem_atomic_fetch_and_nbi is not defined"
#endif
#ifndef shmem_atomic_fetch_inc
#error "shmem_atomic_fetch_inc is not defined"
#endif
#ifndef shmem_atomic_fetch_inc_nbi
#error "shmem_atomic_fetch_inc_nbi is not defined"
#endif
#ifndef shmem_atomic_fetch_nbi
#error "shmem_atomic_fetch_nbi is not defined"
#endif
#ifndef shmem_atomic_fetch_or
#error "shmem_atomic_fetch_or is not defined"
#endif
#ifndef shmem_atomic_fetch_or_nbi
#error "shmem_atomic_fetch_or_nbi is not defined"
#endif
#ifndef shmem_atomic_fetch_xor
#error "shmem_atomic_fetch_xor is not defined"
#endif
#ifndef shmem_atomic_fetch_xor_nbi
#error "shmem_atomic_fetch_xor_nbi is not defined"
#endif
#ifndef shmem_atomic_inc
#error "shmem_atomic_inc is not defined"
#endif
#ifndef shmem_atomic_or
#error "shmem_atomic_or is not defined"
#endif
#ifndef shmem_atomic_set
#error "shmem_atomic_set is not defined"
#endif
#ifndef shmem_atomic_swap
#error "shmem_atomic_swap is not defined"
#endif
#ifndef shmem_atomic_swap_nbi
#error "shmem_atomic_swap_nbi is not defined"
#endif
#ifndef shmem_atomic_xor
#error "shmem_atomic_xor is not defined"
#endif
#ifndef shmem_broadcast
#error "shmem_broadcast is not defined"
#endif
#ifndef shmem_collect
#error "shmem_collect is not defined"
#endif
#ifndef shmem_cswap
#error "shmem_cswap is not defined"
#endif
#ifndef shmem_fadd
#error "shmem_fadd is not defined"
#endif
#ifndef shmem_fcollect
#error "shmem_fcollect is not defined"
#endif
#ifndef shmem_fetch
#error "shmem_fetch is not defined"
#endif
#ifndef shmem_finc
#error "shmem_finc is not defined"
#endif
#ifndef shmem_g
#error "shmem_g is not defined"
#endif
#ifndef shmem_get
#error "shmem_get is not defined"
#endif
#ifndef shmem_get_nbi
#error "shmem_get_nbi is not defined"
#endif
#ifndef shmem_ibget
#error "shmem_ibget is not defined"
#endif
#ifndef shmem_ibput
#error "shmem_ibput is not defined"
#endif
#ifndef shmem_iget
#error "shmem_iget is not defined"
#endif
#ifndef shmem_inc
#error "shmem_inc is not defined"
#endif
#ifndef shmem_iput
#error "shmem_iput is not defined"
#endif
#ifndef shmem_max_reduce
#error "shmem_max_reduce is not defined"
#endif
#ifndef shmem_min_reduce
#error "shmem_min_reduce is not defined"
#endif
#ifndef shmem_or_reduce
#error "shmem_or_reduce is not defined"
#endif
#ifndef shmem_p
#error "shmem_p is not defined"
#endif
#ifndef shmem_prod_reduce
#error "shmem_prod_reduce is not defined"
#endif
#ifndef shmem_put
#error "shmem_put is not defined"
#endif
#ifndef shmem_put_nbi
#error "shmem_put_nbi is not defined"
#endif
#ifndef shmem_put_signal
#error "shmem_put_signal is not defined"
#endif
#ifndef shmem_put_signal_nbi
#error "shmem_put_signal_nbi is not defined"
#endif
#ifndef shmem_set
#error "shmem_set is not defined"
#endif
#ifndef shmem_sum_exscan
#error "shmem_sum_exscan is not defined"
#endif
#ifndef shmem_sum_inscan
#error "shmem_sum_inscan is not defined"
#endif
#ifndef shmem_sum_reduce
#error "shmem_sum_reduce is not defined"
#endif
#ifndef shmem_swap
#error "shmem_swap is not defined"
#endif
#ifndef shmem_test
#error "shmem_test is not defined"
#endif
#ifndef shmem_test_all
#error "shmem_test_all is not defined"
#endif
#ifndef shmem_test_all_vector
#error "shmem_test_all_vector is not defined"
#endif
#ifndef shmem_test_any
#error "shmem_test_any is not defined"
#endif
#ifndef shmem_test_any_vector
#error "shmem_test_any_vector is not defined"
#endif
#ifndef shmem_test_some
#error "shmem_test_some is not defined"
#endif
#ifndef shmem_test_some_vector
#error "shmem_test_some_vector is not defined"
#endif
#ifndef shmem_wait_until
#error "shmem_wait_until is not defined"
#endif
#ifndef shmem_wait_until_all
#error "shmem_wait_until_all is not defined"
#endif
#ifndef shmem_wait_until_all_vector
#error "shmem_wait_until_all_vector is not defined"
#endif
#ifndef shmem_wait_until_any
#error "shmem_wait_until_any is not defined"
#endif
#ifndef shmem_wait_until_any_vector
#error "shmem_wait_until_any_vector is not defined"
#endif
#ifndef shmem_wait_until_some
#error "shmem_wait_until_some is not defined"
#endif
#ifndef shmem_wait_until_some_vector
#error "shmem_wait_until_some_vector is not defined"
#endif
#ifndef shmem_xor_reduce
#error "shmem_xor_reduce is not defined"
#endif
#endif

int main(void) {
    size_t missing = 0;
    for (size_t i = 0; i < sizeof(routines) / sizeof(routines[0]); i++)
        missing += routines[i] == NULL;
    /* Constants and handles: each must be usable in an expression. */
    (void)(SHMEM_ALLTOALLS_SYNC_SIZE);
    (void)(SHMEM_ALLTOALL_SYNC_SIZE);
    (void)(SHMEM_BARRIER_SYNC_SIZE);
    (void)(SHMEM_BCAST_SYNC_SIZE);
    (void)(SHMEM_CMP_EQ);
    (void)(SHMEM_CMP_GE);
    (void)(SHMEM_CMP_GT);
    (void)(SHMEM_CMP_LE);
    (void)(SHMEM_CMP_LT);
    (void)(SHMEM_CMP_NE);
    (void)(SHMEM_COLLECT_SYNC_SIZE);
    (void)(SHMEM_CTX_DEFAULT);
    (void)(SHMEM_CTX_INVALID);
    (void)(SHMEM_CTX_NOSTORE);
    (void)(SHMEM_CTX_PRIVATE);
    (void)(SHMEM_CTX_SERIALIZED);
    (void)(SHMEM_CTX_SESSION_BATCH);
    (void)(SHMEM_CTX_SESSION_TOTAL_OPS);
    (void)(SHMEM_MAJOR_VERSION);
    (void)(SHMEM_MALLOC_ATOMICS_REMOTE);
    (void)(SHMEM_MALLOC_SIGNAL_REMOTE);
    (void)(SHMEM_MAX_NAME_LEN);
    (void)(SHMEM_MINOR_VERSION);
    (void)(SHMEM_REDUCE_MIN_WRKDATA_SIZE);
    (void)(SHMEM_REDUCE_SYNC_SIZE);
    (void)(SHMEM_SIGNAL_ADD);
    (void)(SHMEM_SIGNAL_SET);
    (void)(SHMEM_SYNC_SIZE);
    (void)(SHMEM_SYNC_VALUE);
    (void)(SHMEM_TEAM_INVALID);
    (void)(SHMEM_TEAM_NUM_CONTEXTS);
    (void)(SHMEM_TEAM_SHARED);
    (void)(SHMEM_TEAM_WORLD);
    (void)(SHMEM_THREAD_FUNNELED);
    (void)(SHMEM_THREAD_MULTIPLE);
    (void)(SHMEM_THREAD_SERIALIZED);
    (void)(SHMEM_THREAD_SINGLE);
    (void)(SHMEM_VENDOR_STRING);
    (void)(_SHMEM_BARRIER_SYNC_SIZE);
    (void)(_SHMEM_BCAST_SYNC_SIZE);
    (void)(_SHMEM_CMP_EQ);
    (void)(_SHMEM_CMP_GE);
    (void)(_SHMEM_CMP_GT);
    (void)(_SHMEM_CMP_LE);
    (void)(_SHMEM_CMP_LT);
    (void)(_SHMEM_CMP_NE);
    (void)(_SHMEM_COLLECT_SYNC_SIZE);
    (void)(_SHMEM_MAJOR_VERSION);
    (void)(_SHMEM_MAX_NAME_LEN);
    (void)(_SHMEM_MINOR_VERSION);
    (void)(_SHMEM_REDUCE_MIN_WRKDATA_SIZE);
    (void)(_SHMEM_REDUCE_SYNC_SIZE);
    (void)(_SHMEM_SYNC_VALUE);
    (void)(_SHMEM_VENDOR_STRING);
    printf("%zu routines of the OpenSHMEM 1.6 index, %zu missing\n",
           sizeof(routines) / sizeof(routines[0]), missing);
    return missing != 0;
}
