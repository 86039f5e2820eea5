/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_init and shmem_finalize: bootstrap, the symmetric segments (heap and the executable's
 * data), the peers' mappings, then the modules of the layers above. */
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmemi.h"
#include "cpuset.h"
#include "env.h"
#include "internal.h"
#include "watch.h"

shmemi_state_t shmemi_state;

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int exiting;  /* global_exit in progress: no implicit finalize */
static pid_t pe_pid; /* the PE; a process it forks is not a PE */
/* Calls of shmem_init not yet matched by shmem_finalize; the last match finalizes. */
static int init_count;
/* The bootstrap outlives a finalize, so that the PE can be initialized again: shmemrun and PMIx
 * admit a process once. It is finalized when the process exits. */
static int bootstrap_up;
static int boot_pe, boot_n_pes;

/* What every PE tells the others about its segments: this header, then SHMEMI_MAX_SEGMENTS slots
 * of the blobs' used bytes (record_slot). Its length is the same on every PE of a job that runs
 * one build of the library on one platform, whatever its segments, so that PEs whose segments
 * differ meet in the exchange and are told so. */
typedef struct {
    uint64_t heap_base_align; /* the largest power of two that divides the heap's address */
    uint64_t n_segments;
    uint64_t size[SHMEMI_MAX_SEGMENTS];
} segment_header_t;

/* The bytes of a blob slot: the larger blob of the transports that may describe a segment (the
 * heap's, and shm for the program's data and the library's segment), rounded up to 8 so that
 * every PE's header in the exchange stays aligned. */
static size_t record_slot(void) {
    size_t heap = shmemi_transport_local->blob_size, shm = shmemi_transport_shm_ops.blob_size;
    return ((heap > shm ? heap : shm) + 7) & ~(size_t)7;
}

static unsigned char *record_blob(unsigned char *record, int s) {
    return record + sizeof(segment_header_t) + (size_t)s * record_slot();
}

/* ---- the executable's writable data ------------------------------------------------------- */

typedef struct {
    char *base[SHMEMI_MAX_SEGMENTS - 2];
    size_t size[SHMEMI_MAX_SEGMENTS - 2];
    int n;
} data_ranges_t;

/* The main program comes first. Its writable PT_LOADs (.data, .bss), page-aligned, minus the
 * part the loader makes read-only after relocation (PT_GNU_RELRO; the loader rounds its end
 * down to a page, so the page that holds its end stays writable and is ours). */
static int find_data_ranges(struct dl_phdr_info *info, size_t info_size, void *arg) {
    (void)info_size;
    data_ranges_t *ranges = arg;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t relro_start = 0, relro_end = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_GNU_RELRO) {
            relro_start = (info->dlpi_addr + ph->p_vaddr) & ~(page - 1);
            relro_end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(page - 1);
        }
    }
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || ph->p_memsz == 0)
            continue;
        uintptr_t start = (info->dlpi_addr + ph->p_vaddr) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + page - 1) & ~(page - 1);
        if (relro_end > start && relro_start <= start)
            start = relro_end;
        if (start >= end || ranges->n == SHMEMI_MAX_SEGMENTS - 2)
            continue;
        ranges->base[ranges->n] = (char *)start;
        ranges->size[ranges->n] = end - start;
        ranges->n++;
    }
    return 1; /* only the main program */
}

/* ---- set-up --------------------------------------------------------------------------------- */

static void print_banner(size_t heap_size) {
    if (shmemi_env_bool("SHMEM_VERSION") == 1 || shmemi_env_bool("SHMEM_INFO") == 1)
        printf("libshmem %s (OpenSHMEM %d.%d), platform %s\n", SHMEM_VERSION_STRING,
               SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION, SHMEM_PLATFORM_NAME);
    if (shmemi_env_bool("SHMEM_INFO") == 1) {
        printf("  PEs %d, bootstrap %s, heap transport %s, heap %zu bytes\n", shmemi_state.n_pes,
               shmemi_bootstrap->name, shmemi_transport_local->name, heap_size);
        printf("  nodes %d; peers on this node: %s; other nodes and AMOs: %s\n", shmemi_n_nodes,
               getenv("SHMEM_DISABLE_P2P") && shmemi_env_bool("SHMEM_DISABLE_P2P") == 1
                   ? "network (SHMEM_DISABLE_P2P)"
                   : "load/store",
               shmemi_transport_net ? shmemi_transport_net->name : "none needed");
        cpu_set_t mine;
        char cpus[256] = "";
        if (sched_getaffinity(0, sizeof(mine), &mine) == 0)
            shmemi_format_cpus(&mine, cpus, sizeof(cpus));
        else
            snprintf(cpus, sizeof(cpus), "(unknown)");
        const char *bind = getenv(SHMEMI_ENV_JOB_BIND);
        printf("  binding: %s; PE 0 may run on CPU %s\n",
               strcmp(shmemi_bootstrap->name, "shmemrun") == 0 && bind ? bind : "by the launcher",
               cpus);
        for (size_t i = 0; i < shmemi_env_n_vars; i++) {
            const char *value = getenv(shmemi_env_vars[i].name);
            /* The launcher's variables are consumed (and the secret erased) at shmem_init. */
            if (!value && strncmp(shmemi_env_vars[i].name, "SHMEM_JOB_", 10) == 0 &&
                strcmp(shmemi_bootstrap->name, "shmemrun") == 0)
                value = "(set by shmemrun, consumed by shmem_init)";
            printf("  %s=%s (default: %s)\n", shmemi_env_vars[i].name, value ? value : "",
                   shmemi_env_vars[i].default_value[0] ? shmemi_env_vars[i].default_value
                                                       : "unset");
        }
    }
    fflush(stdout);
}

/* Records this PE's segment s: where it lies, its size, the transport that maps it and its blob
 * (the first ops->blob_size bytes of blob). */
static void set_local_segment(unsigned char *mine, int s, const shmemi_transport_ops_t *ops,
                              void *base, size_t size,
                              const unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE]) {
    shmemi_state.segments[s].ops = ops;
    shmemi_state.segments[s].local_base = base;
    shmemi_state.segments[s].size = size;
    ((segment_header_t *)mine)->size[s] = size;
    memcpy(record_blob(mine, s), blob, ops->blob_size);
}

static void setup_segments(const char *call, size_t heap_size) {
    int me = shmemi_state.my_pe, n = shmemi_state.n_pes;
    size_t len = sizeof(segment_header_t) + SHMEMI_MAX_SEGMENTS * record_slot();
    unsigned char *mine = calloc(1, len), *all = calloc((size_t)n, len);
    if (!mine || !all)
        shmemi_fatal(call, "out of memory for %d PEs' segment descriptions", n);
    segment_header_t *my_header = (segment_header_t *)mine;
    unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE] = {0};

    const shmemi_transport_ops_t *heap_ops = shmemi_transport_local;
    void *heap_base;
    shmemi_status_t status = heap_ops->segment_create(heap_size, &heap_base, blob);
    if (status != SHMEMI_OK)
        shmemi_fatal(call,
                     "cannot create the symmetric heap of %zu bytes on transport %s "
                     "(status %d); see SHMEM_SYMMETRIC_SIZE",
                     heap_size, heap_ops->name, (int)status);
    set_local_segment(mine, 0, heap_ops, heap_base, heap_size, blob);
    my_header->heap_base_align = (uint64_t)1 << __builtin_ctzll((uint64_t)(uintptr_t)heap_base);

    data_ranges_t ranges = {0};
    dl_iterate_phdr(find_data_ranges, &ranges);
    for (int i = 0; i < ranges.n; i++) {
        int s = i + 1;
        /* Frozen, so that no thread's store falls between the copy and the remap. */
        status = shmemi_data_freeze(ranges.base[i], ranges.size[i]);
        if (status == SHMEMI_OK) {
            memset(blob, 0, sizeof(blob));
            status = shmemi_transport_shm_ops.segment_share(ranges.base[i], ranges.size[i], blob);
            shmemi_data_thaw(ranges.base[i], ranges.size[i]);
        }
        if (status != SHMEMI_OK)
            shmemi_fatal(call, "cannot share the program's data at %p (%zu bytes) (status %d)",
                         (void *)ranges.base[i], ranges.size[i], (int)status);
        set_local_segment(mine, s, &shmemi_transport_shm_ops, ranges.base[i], ranges.size[i], blob);
    }
    /* Last, the library's own symmetric memory, in host memory whatever holds the heap. */
    int internal = ranges.n + 1;
    void *internal_base;
    memset(blob, 0, sizeof(blob));
    status = shmemi_transport_shm_ops.segment_create(SHMEMI_INTERNAL_SIZE, &internal_base, blob);
    if (status != SHMEMI_OK)
        shmemi_fatal(call, "cannot create the library's internal segment (status %d)", (int)status);
    set_local_segment(mine, internal, &shmemi_transport_shm_ops, internal_base,
                      SHMEMI_INTERNAL_SIZE, blob);
    shmemi_internal_segment = internal;
    my_header->n_segments = (uint64_t)ranges.n + 2;

    shmemi_debug_log("segment records: %zu bytes per PE (%llu segments, blobs in slots of %zu)",
                     len, (unsigned long long)my_header->n_segments, record_slot());
    shmemi_bootstrap->allgather(mine, all, len);

    for (int pe = 0; pe < n; pe++) {
        const segment_header_t *theirs = (const segment_header_t *)(all + (size_t)pe * len);
        if (theirs->n_segments != my_header->n_segments ||
            memcmp(theirs->size, my_header->size, sizeof(my_header->size)) != 0)
            shmemi_fatal(
                call,
                "PE %d has different symmetric segments (heap %llu bytes, %llu "
                "segments; here: %llu bytes, %llu segments): every PE must run the "
                "same program with the same SHMEM_SYMMETRIC_SIZE",
                pe, (unsigned long long)theirs->size[0], (unsigned long long)theirs->n_segments,
                (unsigned long long)my_header->size[0], (unsigned long long)my_header->n_segments);
    }

    /* Alignments up to the least aligned base are symmetric: the same offset, aligned addresses
     * on every PE. */
    uint64_t align = my_header->heap_base_align;
    for (int pe = 0; pe < n; pe++) {
        uint64_t theirs = ((const segment_header_t *)(all + (size_t)pe * len))->heap_base_align;
        if (theirs < align)
            align = theirs;
    }
    shmemi_heap_max_align = (size_t)align;
    shmemi_state.n_segments = (int)my_header->n_segments;
    for (int s = 0; s < shmemi_state.n_segments; s++) {
        shmemi_segment_t *seg = &shmemi_state.segments[s];
        seg->peer_base = calloc((size_t)n, sizeof(char *));
        if (!seg->peer_base)
            shmemi_fatal(call, "out of memory");
        for (int pe = 0; pe < n; pe++) {
            if (pe == me) {
                seg->peer_base[pe] = seg->ops->host_loadable ? seg->local_base : NULL;
                continue;
            }
            if (!shmemi_routes[pe].mapped)
                continue;
            void *base;
            memset(blob, 0, sizeof(blob));
            memcpy(blob, record_blob(all + (size_t)pe * len, s), seg->ops->blob_size);
            status = seg->ops->segment_attach(pe, blob, seg->size, &base);
            if (status != SHMEMI_OK)
                shmemi_fatal(call, "cannot map segment %d of PE %d (status %d)", s, pe,
                             (int)status);
            seg->peer_base[pe] = base;
        }
    }
    free(mine);
    free(all);
}

static void teardown_segments(void) {
    for (int s = shmemi_state.n_segments - 1; s >= 0; s--) {
        shmemi_segment_t *seg = &shmemi_state.segments[s];
        for (int pe = 0; pe < shmemi_state.n_pes; pe++)
            if (pe != shmemi_state.my_pe && seg->peer_base[pe])
                seg->ops->segment_detach(seg->peer_base[pe], seg->size);
        seg->ops->segment_destroy(seg->local_base, seg->size);
        free(seg->peer_base);
        *seg = (shmemi_segment_t){0};
    }
    shmemi_state.n_segments = 0;
}

static void finalize_epoch(void);

/* A program that returns from main without shmem_finalize (start_pes programs do) finalizes
 * here, whatever number of shmem_init calls is unmatched; one that exits with an error status
 * leaves that to the launcher. The bootstrap, kept for a later shmem_init, says goodbye here. */
static void finalize_at_exit(int status, void *arg) {
    (void)arg;
    if (status != 0 || exiting || getpid() != pe_pid)
        return;
    shmemi_watch_call("shmem_finalize");
    pthread_mutex_lock(&init_lock);
    if (shmemi_state.initialized)
        finalize_epoch();
    if (bootstrap_up) {
        shmemi_bootstrap->finalize();
        bootstrap_up = 0;
    }
    pthread_mutex_unlock(&init_lock);
}

/* Every variable of the table that is set must have a valid value; a SHMEM_ variable the table
 * does not know is likely a misspelling: one warning each (on PE 0), naming the closest. */
static void check_environment(const char *call, int warn) {
    const char *why;
    int bad = shmemi_env_find_invalid(&why);
    if (bad >= 0)
        shmemi_fatal(call, "%s='%s' is %s", shmemi_env_vars[bad].name,
                     getenv(shmemi_env_vars[bad].name), why);
    if (!warn)
        return;
    extern char **environ;
    for (char **e = environ; *e; e++) {
        if (strncmp(*e, "SHMEM_", 6) != 0)
            continue;
        size_t len = strcspn(*e, "=");
        const char *closest = shmemi_env_closest(*e, len);
        if (closest)
            shmemi_warn(call,
                        "unknown variable %.*s ignored (the closest known one is %s; "
                        "docs/environment.md lists them)",
                        (int)len, *e, closest);
    }
}

/* A child that a PE forks (without exec) is not a PE: give it private copies of the global
 * variables instead of sharing its parent's, which a MAP_SHARED mapping would do. */
static void privatize_data(shmemi_segment_t *seg) {
    int fd = memfd_create("libshmem-child-data", MFD_CLOEXEC);
    size_t done = 0;
    while (fd >= 0 && done < seg->size) {
        long n = syscall(SYS_pwrite64, fd, seg->local_base + done, seg->size - done, (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    if (fd >= 0 && done == seg->size)
        mmap(seg->local_base, seg->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0);
    if (fd >= 0)
        close(fd);
}

/* Replaces a shared mapping by an inaccessible reservation of the same range. */
static void unmap_shared(void *base, size_t size) {
    mmap(base, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

/* Closes the descriptors of the job's memfds (the transport keeps them open for peers). */
static void close_segment_fds(void) {
    int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return;
    char buf[4096];
    long n;
    while ((n = syscall(SYS_getdents64, dir, buf, sizeof(buf))) > 0) {
        for (long at = 0; at < n;) {
            struct {
                uint64_t ino;
                int64_t off;
                unsigned short reclen;
                unsigned char type;
                char name[];
            } *entry = (void *)(buf + at);
            at += entry->reclen;
            char target[64];
            ssize_t len = readlinkat(dir, entry->name, target, sizeof(target) - 1);
            if (len <= 0)
                continue;
            target[len] = '\0';
            int fd = atoi(entry->name);
            if (fd != dir && strncmp(target, "/memfd:libshmem-", 16) == 0)
                close(fd);
        }
    }
    close(dir);
}

/* The child keeps nothing of the job: no peer's memory (it cannot write into a live PE) and no
 * segment of its parent (the job's memory is freed when its PEs end, whatever the child does).
 * The heap and the internal segment become inaccessible ranges in the child. */
static void leave_job_after_fork(void) {
    for (int s = 0; s < shmemi_state.n_segments; s++) {
        shmemi_segment_t *seg = &shmemi_state.segments[s];
        if (seg->ops == NULL || !seg->ops->host_loadable)
            continue;
        for (int pe = 0; pe < shmemi_state.n_pes; pe++)
            if (pe != shmemi_state.my_pe && seg->peer_base[pe])
                unmap_shared(seg->peer_base[pe], seg->size);
        if (s == 0 || s == shmemi_internal_segment)
            unmap_shared(seg->local_base, seg->size);
        else
            privatize_data(seg);
    }
    close_segment_fds();
}

int shmemi_init(const char *call, int requested) {
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
        shmemi_fatal(call, "unknown thread level %d", requested);
    shmemi_watch_call(call);
    pthread_mutex_lock(&init_lock);
    if (shmemi_state.initialized) {
        /* Counted: the matching shmem_finalize only uncounts this call. */
        init_count++;
        int level = shmemi_state.thread_level;
        pthread_mutex_unlock(&init_lock);
        return level;
    }

    static int environment_warned;
    /* Warnings once per process, by PE 0 (or each PE, where the launcher does not say which). */
    check_environment(call, !environment_warned && shmemi_my_pe_for_messages() <= 0);
    environment_warned = 1;
    shmemi_state.debug = shmemi_env_bool("SHMEM_DEBUG");
    size_t heap_size;
    if (shmemi_env_parse_size(shmemi_env_get("SHMEM_SYMMETRIC_SIZE"), &heap_size) != SHMEMI_OK)
        shmemi_fatal(call, "SHMEM_SYMMETRIC_SIZE has no valid default");
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    heap_size = (heap_size + page - 1) & ~(page - 1);

    /* A PE initialized again keeps its place in the job. */
    if (!bootstrap_up) {
        shmemi_bootstrap_init(&boot_pe, &boot_n_pes);
        bootstrap_up = 1;
    }
    int my_pe = boot_pe, n_pes = boot_n_pes;
    shmemi_state.my_pe = my_pe;
    shmemi_state.n_pes = n_pes;
    shmemi_state.finalized = 0;

    shmemi_route_nodes(call);
    shmemi_transport_local = shmemi_heap_transport();
    shmemi_transport_check(&shmemi_transport_shm_ops);
    shmemi_transport_check(shmemi_transport_local);
    if (shmemi_transport_shm_ops.init() != SHMEMI_OK)
        shmemi_fatal(call, "transport shm failed to initialize");
    if (shmemi_transport_local != &shmemi_transport_shm_ops &&
        shmemi_transport_local->init() != SHMEMI_OK)
        shmemi_fatal(call, "transport %s failed to initialize", shmemi_transport_local->name);

    setup_segments(call, heap_size);
    if (shmemi_heap_setup(heap_size, SHMEMI_INTERNAL_SIZE) != SHMEMI_OK)
        shmemi_fatal(call, "out of memory for the heap's bookkeeping");
    shmemi_route_network(call);
    /* Every PE has mapped every peer before anyone starts to use them. */
    shmemi_bootstrap->barrier();

    shmemi_state.thread_level = requested;
    shmemi_state.initialized = 1;
    init_count = 1;
    pe_pid = getpid();
    static int registered;
    if (!registered) {
        on_exit(finalize_at_exit, NULL);
        pthread_atfork(NULL, NULL, leave_job_after_fork);
        registered = 1;
    }
    if (my_pe == 0)
        print_banner(heap_size);
    shmemi_debug_log("initialized: %d PEs, bootstrap %s, heap %zu bytes on %s, %d data segments",
                     n_pes, shmemi_bootstrap->name, heap_size, shmemi_transport_local->name,
                     shmemi_state.n_segments - 2);
    shmemi_modules_init();
    pthread_mutex_unlock(&init_lock);
    return requested;
}

void shmemi_transports_quiet(void) {
    if (shmemi_transport_local)
        shmemi_transport_local->quiet(NULL);
    if (shmemi_transport_net)
        shmemi_transport_net->quiet(NULL);
}

void shmemi_barrier_internal(void) {
    shmemi_transports_quiet();
    shmemi_full_fence();
    shmemi_bootstrap->barrier();
}

/* Ends the epoch that shmem_init began: the modules, the segments, the transports. Under
 * init_lock. */
static void finalize_epoch(void) {
    shmemi_barrier_internal();
    shmemi_modules_finalize();
    /* No PE touches another's memory after this barrier; once this PE's network operations are
     * complete, peers that pass it first may close their endpoints. */
    shmemi_transports_quiet();
    shmemi_transport_plugins_closing();
    shmemi_full_fence();
    shmemi_bootstrap->barrier();
    shmemi_state.initialized = 0;
    shmemi_state.finalized = 1;
    shmemi_heap_teardown();
    shmemi_route_finalize();
    teardown_segments();
    if (shmemi_transport_local != &shmemi_transport_shm_ops)
        shmemi_transport_local->finalize();
    shmemi_transport_shm_ops.finalize();
    /* Every check of a PE now fails, with "called after shmem_finalize". */
    shmemi_state.n_pes = 0;
    init_count = 0;
}

void shmemi_finalize(void) {
    shmemi_watch_call("shmem_finalize");
    pthread_mutex_lock(&init_lock);
    if (shmemi_state.initialized && --init_count == 0)
        finalize_epoch();
    pthread_mutex_unlock(&init_lock);
}

int shmemi_initialized(void) {
    pthread_mutex_lock(&init_lock);
    int initialized = shmemi_state.initialized;
    pthread_mutex_unlock(&init_lock);
    return initialized;
}

void shmemi_global_exit(int status) {
    exiting = 1;
    fflush(NULL);
    if (shmemi_bootstrap)
        shmemi_bootstrap->global_exit(status);
    exit(status);
}
