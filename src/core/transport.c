/* Transport selection and the stubs that fill unsupported slots of an ops table. */
#include "shmemi.h"

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
