/* Transport selection and the stubs that fill unsupported slots of an ops table. */
#include <stddef.h>

#include "shmemi.h"
#include "internal.h"

const shmemi_transport_ops_t *shmemi_transport_local;
static const shmemi_transport_ops_t *heap_transport = &shmemi_transport_shm_ops;

void shmemi_heap_transport_set(const shmemi_transport_ops_t *ops) {
    if (shmemi_state.initialized)
        shmemi_fatal("shmemi_heap_transport_set", "the heap transport is chosen before shmem_init");
    heap_transport = ops;
}

const shmemi_transport_ops_t *shmemi_heap_transport(void) {
    return heap_transport;
}

/* No slot may be NULL: an unsupported operation points to a stub that says so. Checked once at
 * shmem_init, so that a transport that misses a slot fails there, by name, not later in a call. */
_Static_assert(sizeof(shmemi_transport_ops_t) - offsetof(shmemi_transport_ops_t, init) ==
                   13 * sizeof(void *),
               "a slot was added to shmemi_transport_ops_t: list it in shmemi_transport_check");

void shmemi_transport_check(const shmemi_transport_ops_t *ops) {
    const struct {
        const char *name;
        int present;
    } slots[] = {
        {"init", ops->init != NULL},
        {"finalize", ops->finalize != NULL},
        {"segment_create", ops->segment_create != NULL},
        {"segment_share", ops->segment_share != NULL},
        {"segment_attach", ops->segment_attach != NULL},
        {"segment_detach", ops->segment_detach != NULL},
        {"segment_destroy", ops->segment_destroy != NULL},
        {"local_fill", ops->local_fill != NULL},
        {"local_copy", ops->local_copy != NULL},
        {"put", ops->put != NULL},
        {"get", ops->get != NULL},
        {"amo", ops->amo != NULL},
        {"quiet", ops->quiet != NULL},
    };
    for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++)
        if (!slots[i].present)
            shmemi_fatal("shmem_init", "transport %s leaves operation %s empty (NULL)",
                         ops->name ? ops->name : "(unnamed)", slots[i].name);
}

shmemi_status_t shmemi_transport_unsupported_put(void *dest, const void *source, size_t len,
                                                 int pe) {
    (void)dest, (void)source, (void)len, (void)pe;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_unsupported_get(void *dest, const void *source, size_t len,
                                                 int pe) {
    (void)dest, (void)source, (void)len, (void)pe;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_unsupported_amo(shmemi_amo_op_t op, void *dest, void *fetch_p,
                                                 const void *operand, const void *compare,
                                                 size_t size, int pe) {
    (void)op, (void)dest, (void)fetch_p, (void)operand, (void)compare, (void)size, (void)pe;
    return SHMEMI_ERR_UNSUPPORTED;
}
