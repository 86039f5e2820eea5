/* SPDX-License-Identifier: BSD-3-Clause */
/* wait_until and test in every form, signal_wait_until, and the deprecated waits. Every load is
 * an acquire of the local word; waits spin, yield, then sleep, as src/host/relax.h decides. */
#include "core/shmemi.h"
#include "host/relax.h"
#include "host/rma_internal.h"

/* The wait policy of src/host/relax.h, shared with the collectives' waits. */
void shmemi_wait_pause(unsigned *spins) {
    shmemi_progress();
    shmemi_relax(spins);
}

void shmemi_bad_cmp(const char *call, int cmp) {
    shmemi_fatal(call,
                 "invalid comparison operator %d (expected one of SHMEM_CMP_EQ, _NE, _GT, "
                 "_GE, _LT, _LE)",
                 cmp);
}

/* Fatal unless ivar (and, for arrays, nelems entries) is usable; the checks that are cheap run
 * always, the symmetric one under SHMEM_DEBUG only. */
static inline void check_ivars(const char *call, const void *ivars, size_t nelems, size_t size) {
    shmemi_check_init(call);
    /* Tests progress the network once, waits at every pause. */
    shmemi_progress();
    if (nelems > 0 && ivars == NULL)
        shmemi_fatal(call, "ivars is NULL");
    if (__builtin_expect(shmemi_state.debug, 0) && nelems > 0) {
        shmemi_check_symmetric(call, ivars, shmemi_nbytes(call, nelems, size, shmemi_state.my_pe),
                               shmemi_state.my_pe);
        shmemi_check_aligned(call, ivars, size, shmemi_state.my_pe);
    }
}

/* The acquire load of a word of any size of SHMEMI_P2P_SYNC_TYPES (host/wait_load.c). */
#define WAIT_LOAD(ivar)                                                                            \
    __extension__({                                                                                \
        __typeof__(*(ivar)) wait_v_;                                                               \
        if (sizeof(wait_v_) == 8) {                                                                \
            uint64_t w_ = shmemi_wait_load64(ivar);                                                \
            memcpy(&wait_v_, &w_, sizeof(wait_v_));                                                \
        } else if (sizeof(wait_v_) == 4) {                                                         \
            uint32_t w_ = shmemi_wait_load32(ivar);                                                \
            memcpy(&wait_v_, &w_, sizeof(wait_v_));                                                \
        } else {                                                                                   \
            _Static_assert(sizeof(wait_v_) >= 2, "no wait on a byte");                             \
            uint16_t w_ = shmemi_wait_load16(ivar);                                                \
            memcpy(&wait_v_, &w_, sizeof(wait_v_));                                                \
        }                                                                                          \
        wait_v_;                                                                                   \
    })

/* The acquire load of a wait or test: a load of ivar when the host can reach it (on_host: not
 * shmemi_local_on_device), else a read through the heap's transport (the heap in GPU memory). */
#define LOAD(call, on_host, ivar)                                                                  \
    __extension__({                                                                                \
        __typeof__(*(ivar)) load_v_;                                                               \
        if (__builtin_expect((on_host), 1))                                                        \
            load_v_ = WAIT_LOAD(ivar);                                                             \
        else                                                                                       \
            shmemi_local_read((call), &load_v_, (ivar), sizeof(load_v_));                          \
        load_v_;                                                                                   \
    })

/* Where the next _any scan of this thread starts (fairness among the entries). */
static __thread size_t any_next;

#define SHMEMI_DEF_WAIT(TYPE, NAME)                                                                \
    SHMEMI_API void shmem_##NAME##_wait_until(TYPE *ivar, int cmp, TYPE cmp_value) {               \
        static const char call[] = "shmem_" #NAME "_wait_until";                                   \
        check_ivars(call, ivar, 1, sizeof(TYPE));                                                  \
        int on_host = !shmemi_local_on_device(ivar);                                               \
        unsigned spins = 0;                                                                        \
        while (!SHMEMI_CMP(call, cmp, LOAD(call, on_host, ivar), cmp_value))                       \
            shmemi_wait_pause(&spins);                                                             \
    }                                                                                              \
    SHMEMI_API int shmem_##NAME##_test(TYPE *ivar, int cmp, TYPE cmp_value) {                      \
        static const char call[] = "shmem_" #NAME "_test";                                         \
        check_ivars(call, ivar, 1, sizeof(TYPE));                                                  \
        int on_host = !shmemi_local_on_device(ivar);                                               \
        return SHMEMI_CMP(call, cmp, LOAD(call, on_host, ivar), cmp_value);                        \
    }
SHMEMI_P2P_SYNC_TYPES(SHMEMI_DEF_WAIT)
#undef SHMEMI_DEF_WAIT

/* The multi-variable forms share one scan per type: entry i counts when status is NULL or
 * status[i] == 0; VALUE(i) is the comparison value of entry i. Each scan returns how many
 * counted entries satisfy the condition and records up to max_found of their indices. */
#define SHMEMI_DEF_WAIT_MULTI(TYPE, NAME)                                                          \
    static size_t NAME##_scan(const char *call, TYPE *ivars, size_t nelems, const int *status,     \
                              int cmp, const TYPE *values, TYPE value, size_t *indices,            \
                              size_t max_found, size_t *active_p) {                                \
        size_t found = 0, active = 0;                                                              \
        int on_host = !shmemi_local_on_device(ivars);                                              \
        /* _any forms start where the last one stopped, so every entry gets its turn. */           \
        size_t start = max_found == 1 && nelems > 0 ? any_next % nelems : 0;                       \
        for (size_t k = 0; k < nelems; k++) {                                                      \
            size_t i = start + k < nelems ? start + k : start + k - nelems;                        \
            if (status != NULL && status[i] != 0)                                                  \
                continue;                                                                          \
            active++;                                                                              \
            if (SHMEMI_CMP(call, cmp, LOAD(call, on_host, &ivars[i]),                              \
                           values ? values[i] : value)) {                                          \
                if (found < max_found && indices != NULL)                                          \
                    indices[found] = i;                                                            \
                if (found == 0 && max_found == 1)                                                  \
                    any_next = i + 1;                                                              \
                found++;                                                                           \
            }                                                                                      \
        }                                                                                          \
        *active_p = active;                                                                        \
        return found;                                                                              \
    }                                                                                              \
    /* Waits until all (want_all) or at least one counted entry satisfies the condition. */        \
    static size_t NAME##_wait(const char *call, TYPE *ivars, size_t nelems, const int *status,     \
                              int cmp, const TYPE *values, TYPE value, size_t *indices,            \
                              size_t max_found, int want_all) {                                    \
        check_ivars(call, ivars, nelems, sizeof(TYPE));                                            \
        unsigned spins = 0;                                                                        \
        for (;;) {                                                                                 \
            size_t active;                                                                         \
            size_t found = NAME##_scan(call, ivars, nelems, status, cmp, values, value, indices,   \
                                       max_found, &active);                                        \
            if (active == 0 || (want_all ? found == active : found > 0))                           \
                return active == 0 ? 0 : found;                                                    \
            shmemi_wait_pause(&spins);                                                             \
        }                                                                                          \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_wait_until_all(TYPE *ivars, size_t nelems, const int *status,   \
                                                  int cmp, TYPE cmp_value) {                       \
        NAME##_wait("shmem_" #NAME "_wait_until_all", ivars, nelems, status, cmp, NULL, cmp_value, \
                    NULL, 0, 1);                                                                   \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_wait_until_all_vector(                                          \
        TYPE *ivars, size_t nelems, const int *status, int cmp, const TYPE *cmp_values) {          \
        NAME##_wait("shmem_" #NAME "_wait_until_all_vector", ivars, nelems, status, cmp,           \
                    cmp_values, 0, NULL, 0, 1);                                                    \
    }                                                                                              \
    SHMEMI_API size_t shmem_##NAME##_wait_until_any(TYPE *ivars, size_t nelems, const int *status, \
                                                    int cmp, TYPE cmp_value) {                     \
        size_t index = SIZE_MAX;                                                                   \
        NAME##_wait("shmem_" #NAME "_wait_until_any", ivars, nelems, status, cmp, NULL, cmp_value, \
                    &index, 1, 0);                                                                 \
        return index;                                                                              \
    }                                                                                              \
    SHMEMI_API size_t shmem_##NAME##_wait_until_any_vector(                                        \
        TYPE *ivars, size_t nelems, const int *status, int cmp, const TYPE *cmp_values) {          \
        size_t index = SIZE_MAX;                                                                   \
        NAME##_wait("shmem_" #NAME "_wait_until_any_vector", ivars, nelems, status, cmp,           \
                    cmp_values, 0, &index, 1, 0);                                                  \
        return index;                                                                              \
    }                                                                                              \
    SHMEMI_API size_t shmem_##NAME##_wait_until_some(TYPE *ivars, size_t nelems, size_t *indices,  \
                                                     const int *status, int cmp, TYPE cmp_value) { \
        return NAME##_wait("shmem_" #NAME "_wait_until_some", ivars, nelems, status, cmp, NULL,    \
                           cmp_value, indices, nelems, 0);                                         \
    }                                                                                              \
    SHMEMI_API size_t shmem_##NAME##_wait_until_some_vector(TYPE *ivars, size_t nelems,            \
                                                            size_t *indices, const int *status,    \
                                                            int cmp, const TYPE *cmp_values) {     \
        return NAME##_wait("shmem_" #NAME "_wait_until_some_vector", ivars, nelems, status, cmp,   \
                           cmp_values, 0, indices, nelems, 0);                                     \
    }                                                                                              \
    static int NAME##_test_all(const char *call, TYPE *ivars, size_t nelems, const int *status,    \
                               int cmp, const TYPE *values, TYPE value) {                          \
        check_ivars(call, ivars, nelems, sizeof(TYPE));                                            \
        size_t active;                                                                             \
        size_t found =                                                                             \
            NAME##_scan(call, ivars, nelems, status, cmp, values, value, NULL, 0, &active);        \
        return found == active;                                                                    \
    }                                                                                              \
    static size_t NAME##_test_any(const char *call, TYPE *ivars, size_t nelems, const int *status, \
                                  int cmp, const TYPE *values, TYPE value) {                       \
        check_ivars(call, ivars, nelems, sizeof(TYPE));                                            \
        size_t active, index = SIZE_MAX;                                                           \
        NAME##_scan(call, ivars, nelems, status, cmp, values, value, &index, 1, &active);          \
        return index;                                                                              \
    }                                                                                              \
    static size_t NAME##_test_some(const char *call, TYPE *ivars, size_t nelems, size_t *indices,  \
                                   const int *status, int cmp, const TYPE *values, TYPE value) {   \
        check_ivars(call, ivars, nelems, sizeof(TYPE));                                            \
        size_t active;                                                                             \
        return NAME##_scan(call, ivars, nelems, status, cmp, values, value, indices, nelems,       \
                           &active);                                                               \
    }                                                                                              \
    SHMEMI_API int shmem_##NAME##_test_all(TYPE *ivars, size_t nelems, const int *status, int cmp, \
                                           TYPE cmp_value) {                                       \
        return NAME##_test_all("shmem_" #NAME "_test_all", ivars, nelems, status, cmp, NULL,       \
                               cmp_value);                                                         \
    }                                                                                              \
    SHMEMI_API int shmem_##NAME##_test_all_vector(TYPE *ivars, size_t nelems, const int *status,   \
                                                  int cmp, const TYPE *cmp_values) {               \
        return NAME##_test_all("shmem_" #NAME "_test_all_vector", ivars, nelems, status, cmp,      \
                               cmp_values, 0);                                                     \
    }                                                                                              \
    SHMEMI_API size_t shmem_##NAME##_test_any(TYPE *ivars, size_t nelems, const int *status,       \
                                              int cmp, TYPE cmp_value) {                           \
        return NAME##_test_any("shmem_" #NAME "_test_any", ivars, nelems, status, cmp, NULL,       \
                               cmp_value);                                                         \
    }                                                                                              \
    SHMEMI_API size_t shmem_##NAME##_test_any_vector(                                              \
        TYPE *ivars, size_t nelems, const int *status, int cmp, const TYPE *cmp_values) {          \
        return NAME##_test_any("shmem_" #NAME "_test_any_vector", ivars, nelems, status, cmp,      \
                               cmp_values, 0);                                                     \
    }                                                                                              \
    SHMEMI_API size_t shmem_##NAME##_test_some(TYPE *ivars, size_t nelems, size_t *indices,        \
                                               const int *status, int cmp, TYPE cmp_value) {       \
        return NAME##_test_some("shmem_" #NAME "_test_some", ivars, nelems, indices, status, cmp,  \
                                NULL, cmp_value);                                                  \
    }                                                                                              \
    SHMEMI_API size_t shmem_##NAME##_test_some_vector(TYPE *ivars, size_t nelems, size_t *indices, \
                                                      const int *status, int cmp,                  \
                                                      const TYPE *cmp_values) {                    \
        return NAME##_test_some("shmem_" #NAME "_test_some_vector", ivars, nelems, indices,        \
                                status, cmp, cmp_values, 0);                                       \
    }
SHMEMI_P2P_SYNC_TYPES(SHMEMI_DEF_WAIT_MULTI)
#undef SHMEMI_DEF_WAIT_MULTI

static uint64_t signal_wait(const char *call, uint64_t *sig_addr, int cmp, uint64_t cmp_value) {
    check_ivars(call, sig_addr, 1, sizeof(uint64_t));
    int on_host = !shmemi_local_on_device(sig_addr);
    unsigned spins = 0;
    for (;;) {
        uint64_t v = LOAD(call, on_host, sig_addr);
        if (SHMEMI_CMP(call, cmp, v, cmp_value))
            return v;
        shmemi_wait_pause(&spins);
    }
}

SHMEMI_API uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value) {
    return signal_wait("shmem_signal_wait_until", sig_addr, cmp, cmp_value);
}

SHMEMI_API uint64_t shmemx_ctx_signal_wait_until(shmem_ctx_t ctx, uint64_t *sig_addr, int cmp,
                                                 uint64_t cmp_value) {
    shmemi_ctx_get("shmemx_ctx_signal_wait_until", ctx);
    return signal_wait("shmemx_ctx_signal_wait_until", sig_addr, cmp, cmp_value);
}

SHMEMI_API void(shmem_wait_until)(long *ivar, int cmp, long cmp_value) {
    shmem_long_wait_until(ivar, cmp, cmp_value);
}

SHMEMI_API void shmem_wait(long *ivar, long cmp_value) {
    shmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value);
}

SHMEMI_API void shmem_short_wait(short *ivar, short cmp_value) {
    shmem_short_wait_until(ivar, SHMEM_CMP_NE, cmp_value);
}

SHMEMI_API void shmem_int_wait(int *ivar, int cmp_value) {
    shmem_int_wait_until(ivar, SHMEM_CMP_NE, cmp_value);
}

SHMEMI_API void shmem_long_wait(long *ivar, long cmp_value) {
    shmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value);
}

SHMEMI_API void shmem_longlong_wait(long long *ivar, long long cmp_value) {
    shmem_longlong_wait_until(ivar, SHMEM_CMP_NE, cmp_value);
}
