/* SPDX-License-Identifier: BSD-3-Clause */
/* Communication contexts: creation and destruction under one lock, everything else lock-free.
 * Context objects come from slabs that live until shmem_finalize, so a destroyed handle still
 * points at an object whose magic reports the misuse instead of reading freed memory.
 * A handle is its object's address tagged with the options kernels need (shmemi_ctx_handle);
 * kernels read the object itself for a team's PE translation and, under SHMEM_DEVICE_CHECKS, for
 * its magic, so the slabs are memory the GPU can reach too (shmemi_host_shared_alloc). Kernels
 * send the object's address in the commands of the proxy's ring; its consumer asks
 * shmemi_ctx_known whether an address is an object, and destruction waits for the consumer
 * (shmemi_proxy_drain, shmemi_proxy_ctx_retire).
 *
 * A destroyed handle must not come back as the handle of a later context, whose operations its
 * uses would then silently perform. So a slab's cell holds one object per generation: a cell's
 * next context is its next generation's object, at another address, while the destroyed one
 * keeps a magic that says how it was destroyed. Free cells are reused oldest first, so a stale
 * handle aliases a live context only after its cell has served SHMEMI_CTX_GENERATIONS more. */
#include <pthread.h>

#include "core/shmemi.h"
#include "host/ctx_internal.h"
#include "host/rma_internal.h"

#define SHMEMI_CTX_SLAB 64
#define SHMEMI_CTX_GENERATIONS 16
#define SHMEMI_CTX_KNOWN_OPTIONS                                                                   \
    (SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE | SHMEMX_CTX_BYPASS)

struct shmemi_ctx shmemi_ctx_default = {.magic = SHMEMI_CTX_MAGIC};

/* The tag bits live in the low bits of every object's address. */
_Static_assert(_Alignof(struct shmemi_ctx) > SHMEMI_CTX_TAG_MASK,
               "context objects leave no room for the handle's tag bits");

struct shmemi_ctx_cell {
    struct shmemi_ctx generation[SHMEMI_CTX_GENERATIONS];
    unsigned next_generation;
    struct shmemi_ctx_cell *next_free;
};

struct shmemi_ctx_slab {
    struct shmemi_ctx_slab *next;
    struct shmemi_ctx_cell cell[SHMEMI_CTX_SLAB];
};

static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shmemi_ctx_slab *ctx_slabs;
/* Free cells, oldest first. */
static struct shmemi_ctx_cell *free_head, **free_tail = &free_head;

/* Under ctx_lock, as every function here that touches the slabs or the free list. */
static void cell_put(struct shmemi_ctx_cell *cell) {
    cell->next_free = NULL;
    *free_tail = cell;
    free_tail = &cell->next_free;
}

static struct shmemi_ctx_cell *cell_take(void) {
    struct shmemi_ctx_cell *cell = free_head;
    free_head = cell->next_free;
    if (free_head == NULL)
        free_tail = &free_head;
    return cell;
}

/* The cell whose object c is, or NULL when c is no context object of a slab. */
static struct shmemi_ctx_cell *cell_of(const struct shmemi_ctx *c) {
    uintptr_t a = (uintptr_t)c;
    for (struct shmemi_ctx_slab *s = ctx_slabs; s != NULL; s = s->next) {
        uintptr_t first = (uintptr_t)s->cell;
        if (a < first || a >= first + sizeof(s->cell))
            continue;
        struct shmemi_ctx_cell *cell = &s->cell[(a - first) / sizeof(*cell)];
        uintptr_t at = a - (uintptr_t)cell->generation;
        return at < sizeof(cell->generation) && at % sizeof(struct shmemi_ctx) == 0 ? cell : NULL;
    }
    return NULL;
}

int shmemi_ctx_known(const struct shmemi_ctx *c) {
    pthread_mutex_lock(&ctx_lock);
    int known = cell_of(c) != NULL;
    pthread_mutex_unlock(&ctx_lock);
    return known;
}

/* Marks live object c destroyed (magic says how), drops its transport state once no proxy
 * consumer issues a command on it (src/core/proxy.c), and frees its cell. */
static void ctx_release(struct shmemi_ctx *c, uint32_t magic) {
    __atomic_store_n(&c->magic, magic, __ATOMIC_SEQ_CST);
    shmemi_proxy_ctx_retire(c);
    if (c->transport && shmemi_transport_net)
        shmemi_transport_net->ctx_destroy(c->transport);
    c->transport = NULL;
    cell_put(cell_of(c));
}

void shmemi_ctx_invalid(const char *call, shmem_ctx_t ctx) {
    shmemi_check_init(call);
    if (ctx == SHMEM_CTX_INVALID)
        shmemi_fatal(call, "invalid context SHMEM_CTX_INVALID (a failed shmem_ctx_create?)");
    const struct shmemi_ctx *c = SHMEMI_CTX_OBJECT(ctx);
    uint32_t magic = 0;
    pthread_mutex_lock(&ctx_lock);
    if (ctx != SHMEM_CTX_DEFAULT && cell_of(c) != NULL)
        magic = __atomic_load_n(&c->magic, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&ctx_lock);
    if (magic == SHMEMI_CTX_MAGIC_DESTROYED)
        shmemi_fatal(call, "context %p used after shmem_ctx_destroy", (void *)ctx);
    if (magic == SHMEMI_CTX_MAGIC_TEAM_DESTROYED)
        shmemi_fatal(call,
                     "context %p used after shmem_team_destroy, which destroyed it with its team",
                     (void *)ctx);
    shmemi_fatal(call, "invalid context %p: destroyed or never created", (void *)ctx);
}

void shmemi_ctx_bad_pe(const char *call, const struct shmemi_ctx *c, int pe) {
    shmemi_fatal(call, "PE %d is out of range: the context's team has %d PEs", pe, c->team_n_pes);
}

shmemi_status_t shmemi_ctx_create(const char *call, long options, struct shmemi_team *team,
                                  int start, int stride, int n_pes, shmem_ctx_t *ctx_p) {
    shmemi_check_init(call);
    if (ctx_p == NULL)
        shmemi_fatal(call, "ctx is NULL");
    if (options & ~SHMEMI_CTX_KNOWN_OPTIONS)
        shmemi_fatal(call, "unknown context options 0x%lx", options & ~SHMEMI_CTX_KNOWN_OPTIONS);
    pthread_mutex_lock(&ctx_lock);
    if (free_head == NULL) {
        struct shmemi_ctx_slab *slab = shmemi_host_shared_alloc(sizeof(*slab));
        if (slab == NULL) {
            pthread_mutex_unlock(&ctx_lock);
            *ctx_p = SHMEM_CTX_INVALID;
            return SHMEMI_ERR_NOMEM;
        }
        slab->next = ctx_slabs;
        ctx_slabs = slab;
        for (int i = 0; i < SHMEMI_CTX_SLAB; i++)
            cell_put(&slab->cell[i]);
    }
    struct shmemi_ctx_cell *cell = cell_take();
    struct shmemi_ctx *c = &cell->generation[cell->next_generation];
    cell->next_generation = (cell->next_generation + 1) % SHMEMI_CTX_GENERATIONS;
    c->options = options;
    c->bypass = (options & SHMEMX_CTX_BYPASS) != 0;
    c->team = team;
    c->team_start = team ? start : 0;
    c->team_stride = team ? stride : 1;
    c->team_n_pes = team ? n_pes : shmemi_state.n_pes;
    c->transport = NULL;
    if (shmemi_transport_net) {
        shmemi_transport_ctx_t *tctx;
        if (shmemi_transport_net->ctx_create(options, &tctx) != SHMEMI_OK) {
            cell_put(cell);
            pthread_mutex_unlock(&ctx_lock);
            *ctx_p = SHMEM_CTX_INVALID;
            return SHMEMI_ERR_NOMEM;
        }
        c->transport = tctx;
    }
    __atomic_store_n(&c->magic, SHMEMI_CTX_MAGIC, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&ctx_lock);
    *ctx_p = shmemi_ctx_handle(c);
    return SHMEMI_OK;
}

SHMEMI_API int shmem_ctx_create(long options, shmem_ctx_t *ctx) {
    return shmemi_ctx_create("shmem_ctx_create", options, NULL, 0, 1, 0, ctx) == SHMEMI_OK ? 0 : 1;
}

SHMEMI_API void shmem_ctx_destroy(shmem_ctx_t ctx) {
    static const char call[] = "shmem_ctx_destroy";
    if (ctx == SHMEM_CTX_INVALID)
        return;
    if (ctx == SHMEM_CTX_DEFAULT)
        shmemi_fatal(call, "SHMEM_CTX_DEFAULT cannot be destroyed");
    struct shmemi_ctx *c = shmemi_ctx_get(call, ctx);
    /* Commands kernels put in the proxy's ring before this call are issued, then completed. */
    shmemi_proxy_drain();
    shmem_ctx_quiet(ctx);
    pthread_mutex_lock(&ctx_lock);
    if (c->magic != SHMEMI_CTX_MAGIC) {
        pthread_mutex_unlock(&ctx_lock);
        shmemi_ctx_invalid(call, ctx);
    }
    ctx_release(c, SHMEMI_CTX_MAGIC_DESTROYED);
    pthread_mutex_unlock(&ctx_lock);
}

void shmemi_ctx_destroy_team(const char *call, struct shmemi_team *team) {
    shmemi_proxy_drain();
    pthread_mutex_lock(&ctx_lock);
    for (struct shmemi_ctx_slab *s = ctx_slabs; s != NULL; s = s->next)
        for (int i = 0; i < SHMEMI_CTX_SLAB; i++)
            for (int g = 0; g < SHMEMI_CTX_GENERATIONS; g++) {
                struct shmemi_ctx *c = &s->cell[i].generation[g];
                if (c->magic != SHMEMI_CTX_MAGIC || c->team != team ||
                    !(c->options & SHMEM_CTX_PRIVATE))
                    continue;
                pthread_mutex_unlock(&ctx_lock);
                shmemi_fatal(call,
                             "context %p was created on the team with SHMEM_CTX_PRIVATE and is "
                             "not destroyed; destroy private contexts of a team before the team",
                             (void *)shmemi_ctx_handle(c));
            }
    for (struct shmemi_ctx_slab *s = ctx_slabs; s != NULL; s = s->next)
        for (int i = 0; i < SHMEMI_CTX_SLAB; i++)
            for (int g = 0; g < SHMEMI_CTX_GENERATIONS; g++) {
                struct shmemi_ctx *c = &s->cell[i].generation[g];
                if (c->magic != SHMEMI_CTX_MAGIC || c->team != team)
                    continue;
                shmem_ctx_quiet(shmemi_ctx_handle(c));
                ctx_release(c, SHMEMI_CTX_MAGIC_TEAM_DESTROYED);
            }
    pthread_mutex_unlock(&ctx_lock);
}

SHMEMI_API void shmem_ctx_session_start(shmem_ctx_t ctx, long options,
                                        const shmem_ctx_session_config_t *config,
                                        long config_mask) {
    static const char call[] = "shmem_ctx_session_start";
    if (ctx == SHMEM_CTX_INVALID)
        return;
    shmemi_ctx_get(call, ctx);
    if (options & ~SHMEM_CTX_SESSION_BATCH)
        shmemi_fatal(call, "unknown session options 0x%lx", options & ~SHMEM_CTX_SESSION_BATCH);
    if ((config_mask & SHMEM_CTX_SESSION_TOTAL_OPS) && config == NULL)
        shmemi_fatal(call, "config_mask names total_ops but config is NULL");
}

SHMEMI_API void shmem_ctx_session_stop(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID)
        return;
    shmemi_ctx_get("shmem_ctx_session_stop", ctx);
}

static shmemi_status_t ctx_module_init(void) {
    shmemi_ctx_default.team_n_pes = shmemi_state.n_pes;
    return SHMEMI_OK;
}

static void ctx_module_finalize(void) {
    pthread_mutex_lock(&ctx_lock);
    for (struct shmemi_ctx_slab *s = ctx_slabs; s != NULL; s = s->next)
        for (int i = 0; i < SHMEMI_CTX_SLAB; i++)
            for (int g = 0; g < SHMEMI_CTX_GENERATIONS; g++) {
                struct shmemi_ctx *c = &s->cell[i].generation[g];
                if (c->transport && shmemi_transport_net)
                    shmemi_transport_net->ctx_destroy(c->transport);
                c->transport = NULL;
            }
    while (ctx_slabs != NULL) {
        struct shmemi_ctx_slab *next = ctx_slabs->next;
        shmemi_host_shared_free(ctx_slabs);
        ctx_slabs = next;
    }
    free_head = NULL;
    free_tail = &free_head;
    pthread_mutex_unlock(&ctx_lock);
}

static const shmemi_module_t ctx_module = {"contexts", 10, ctx_module_init, ctx_module_finalize};

__attribute__((constructor)) static void ctx_module_register(void) {
    shmemi_module_register(&ctx_module);
    shmemi_proxy_ctx_known_set(shmemi_ctx_known);
}
