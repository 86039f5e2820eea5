/* SPDX-License-Identifier: BSD-3-Clause */
/* The shm transport: symmetric segments in memfds, mapped by every PE of the node.
 *
 * Peers map a segment by opening /proc/<pid>/fd/<fd> of its owner, so a segment's blob is just
 * (pid, fd). We chose this over passing descriptors with SCM_RIGHTS through the launcher because
 * it keeps the bootstrap a plain byte allgather: the same blobs travel over shmemrun, PMIx or MPI,
 * and the GPU's ipc transport uses the same seam with its own handles in the blob. It needs what
 * every intra-node transport needs anyway: the PEs run as the same user and are not marked
 * non-dumpable. Nothing is created in /dev/shm or elsewhere on disk; the memory goes away with
 * the last mapping. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/shmemi.h"

typedef struct {
    int32_t pid;
    int32_t fd;
    uint64_t size;
} shm_blob_t;

_Static_assert(sizeof(shm_blob_t) <= SHMEMI_SEGMENT_BLOB_SIZE, "blob too large");

/* This PE's own segments: created (heap) or shared (data segments of the executable, which stay
 * mapped after finalize because they hold the program's variables). */
typedef struct {
    void *base;
    size_t size;
    int fd;
    int created;
} shm_segment_t;

static shm_segment_t own[SHMEMI_MAX_SEGMENTS];

static shm_segment_t *own_slot(void *base) {
    for (int i = 0; i < SHMEMI_MAX_SEGMENTS; i++)
        if (own[i].base == base)
            return &own[i];
    return NULL;
}

static void blob_fill(unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE], int fd, size_t size) {
    shm_blob_t b = {.pid = (int32_t)getpid(), .fd = fd, .size = size};
    memset(blob, 0, SHMEMI_SEGMENT_BLOB_SIZE);
    memcpy(blob, &b, sizeof(b));
}

static shmemi_status_t shm_init(void) {
    return SHMEMI_OK;
}
static shmemi_status_t shm_finalize(void) {
    return SHMEMI_OK;
}

static int memfd_sized(const char *name, size_t size) {
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    if (ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* The heap's base is aligned to a power of two at least its size (up to 1 GiB), so that an
 * alignment the allocator gives an offset is also the alignment of the address on every PE.
 * Sparse: pages cost memory only when touched. */
static void *map_aligned(int fd, size_t size) {
    size_t align = (size_t)1 << 30;
    while (align / 2 >= size && align > 4096)
        align /= 2;
    char *reserved =
        mmap(NULL, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reserved == MAP_FAILED)
        return NULL;
    char *base = (char *)(((uintptr_t)reserved + align - 1) & ~(uintptr_t)(align - 1));
    if (mmap(base, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED, fd, 0) !=
        base) {
        munmap(reserved, size + align);
        return NULL;
    }
    if (base > reserved)
        munmap(reserved, (size_t)(base - reserved));
    size_t tail = (size_t)(reserved + size + align - (base + size));
    if (tail)
        munmap(base + size, tail);
    return base;
}

static shmemi_status_t shm_segment_create(size_t size, void **base_p,
                                          unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE]) {
    shm_segment_t *slot = own_slot(NULL);
    if (!slot)
        return SHMEMI_ERR_NOMEM;
    int fd = memfd_sized("libshmem-heap", size);
    if (fd < 0)
        return SHMEMI_ERR_NOMEM;
    void *base = map_aligned(fd, size);
    if (!base) {
        close(fd);
        return SHMEMI_ERR_NOMEM;
    }
    *slot = (shm_segment_t){.base = base, .size = size, .fd = fd, .created = 1};
    blob_fill(blob, fd, size);
    *base_p = base;
    return SHMEMI_OK;
}

static shmemi_status_t shm_segment_share(void *base, size_t size,
                                         unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE]) {
    shm_segment_t *slot = own_slot(NULL);
    if (!slot)
        return SHMEMI_ERR_NOMEM;
    int fd = memfd_sized("libshmem-data", size);
    if (fd < 0)
        return SHMEMI_ERR_NOMEM;
    /* The raw system call copies without the sanitizers' interceptors, which would flag the
     * redzones between global variables. */
    size_t done = 0;
    while (done < size) {
        long n = syscall(SYS_pwrite64, fd, (const char *)base + done, size - done, (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return SHMEMI_ERR_IO;
        }
        done += (size_t)n;
    }
    /* Same contents, now in memory that peers can map. The raw system call too: ThreadSanitizer's
     * mmap takes the remap for a write of the whole range, racing with every thread that goes on
     * using its globals, although no byte changes. */
    void *mapped = (void *)syscall(SYS_mmap, base, size, PROT_READ | PROT_WRITE,
                                   MAP_SHARED | MAP_FIXED, fd, (off_t)0);
    if (mapped != base) {
        close(fd);
        return SHMEMI_ERR_IO;
    }
    *slot = (shm_segment_t){.base = base, .size = size, .fd = fd, .created = 0};
    blob_fill(blob, fd, size);
    return SHMEMI_OK;
}

static shmemi_status_t shm_segment_attach(int pe,
                                          const unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE],
                                          size_t size, void **base_p) {
    shm_blob_t b;
    memcpy(&b, blob, sizeof(b));
    if (b.size != size)
        return SHMEMI_ERR_INVALID;
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)b.pid, (int)b.fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        shmemi_warn("shmem_init", "cannot open PE %d's segment %s: %s", pe, path, strerror(errno));
        return SHMEMI_ERR_PEER;
    }
    void *base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    int saved = errno;
    close(fd);
    if (base == MAP_FAILED) {
        shmemi_warn("shmem_init", "cannot map PE %d's segment (%zu bytes): %s", pe, size,
                    strerror(saved));
        return SHMEMI_ERR_NOMEM;
    }
    *base_p = base;
    return SHMEMI_OK;
}

static shmemi_status_t shm_segment_detach(void *base, size_t size) {
    return munmap(base, size) == 0 ? SHMEMI_OK : SHMEMI_ERR_INVALID;
}

static shmemi_status_t shm_segment_destroy(void *base, size_t size) {
    shm_segment_t *slot = own_slot(base);
    if (!slot || !base)
        return SHMEMI_ERR_INVALID;
    if (slot->created)
        munmap(base, size);
    close(slot->fd);
    *slot = (shm_segment_t){0};
    return SHMEMI_OK;
}

static shmemi_status_t shm_local_fill(void *dest, int value, size_t len) {
    memset(dest, value, len);
    return SHMEMI_OK;
}

static shmemi_status_t shm_local_copy(void *dest, const void *source, size_t len) {
    memcpy(dest, source, len);
    return SHMEMI_OK;
}

/* Peers are mapped, so every access is a load or store: nothing to complete. */
static shmemi_status_t shm_quiet(shmemi_transport_ctx_t *tctx) {
    (void)tctx;
    shmemi_full_fence();
    return SHMEMI_OK;
}

const shmemi_transport_ops_t shmemi_transport_shm_ops = {
    .name = "shm",
    .flags = SHMEMI_TRANSPORT_MAPPING,
    .host_loadable = 1,
    .blob_size = sizeof(shm_blob_t),
    .init = shm_init,
    .finalize = shm_finalize,
    .segment_create = shm_segment_create,
    .segment_share = shm_segment_share,
    .segment_attach = shm_segment_attach,
    .segment_detach = shm_segment_detach,
    .segment_destroy = shm_segment_destroy,
    .local_fill = shm_local_fill,
    .local_copy = shm_local_copy,
    .can_reach = shmemi_transport_unsupported_can_reach,
    .address_get = shmemi_transport_unsupported_address_get,
    .peers_set = shmemi_transport_unsupported_peers_set,
    .mem_register = shmemi_transport_unsupported_mem_register,
    .mem_peer = shmemi_transport_unsupported_mem_peer,
    .mem_deregister = shmemi_transport_unsupported_mem_deregister,
    .ctx_create = shmemi_transport_no_ctx_create,
    .ctx_destroy = shmemi_transport_no_ctx_destroy,
    .put = shmemi_transport_unsupported_put,
    .put_nbi = shmemi_transport_unsupported_put,
    .put_start = shmemi_transport_unsupported_put_start,
    .get = shmemi_transport_unsupported_get,
    .get_nbi = shmemi_transport_unsupported_get,
    .amo = shmemi_transport_unsupported_amo,
    .put_signal = shmemi_transport_unsupported_put_signal,
    .put_signal_oneway = shmemi_transport_unsupported_put_signal_oneway,
    .fence = shmemi_transport_unsupported_fence,
    .quiet = shm_quiet,
    .pe_quiet = shmemi_transport_unsupported_pe_quiet,
    .test = shmemi_transport_unsupported_test,
    .progress = shmemi_transport_no_progress,
    .wait = shmemi_transport_sleep_wait,
};
