/* SPDX-License-Identifier: BSD-3-Clause */
/* How many UCX operations a put-with-signal to registered memory costs the thread that calls it
 * (docs/transports.md, "Put-with-signal"): after no RMA to the PE since its last flush, one active
 * message and nothing else; after a put or a posted AMO not yet flushed, and above 64 KiB, a put,
 * a fence and the signal's AMO. The counts come from this test program itself: it
 * defines the UCX functions the plug-in calls (the executable exports them, so they come first in
 * the plug-in's symbol lookup), counts the calls of the thread that asked, and passes each call on
 * to libucp. Two PEs on one host with SHMEM_DISABLE_P2P=1, so that they reach each other through
 * UCX. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>

/* The plug-in's request messages (ucx_am.c: AM_REQUEST); its answers (18) are not counted. */
#define AM_REQUEST_ID 17

typedef struct {
    int am, put, amo, flush, fence;
} counts_t;

static __thread int counting;
static __thread counts_t counted;

/* libucp's own function name (the plug-in has loaded libucp by the time it calls one). Threads
 * may look one up at once: the pointers are kept with atomics. */
static void *real(const char *name) {
    void *ucp = dlopen("libucp.so.0", RTLD_LAZY | RTLD_NOLOAD);
    void *f = ucp ? dlsym(ucp, name) : NULL;
    if (!f) {
        fprintf(stderr, "putsig_count: cannot find %s in libucp\n", name);
        abort();
    }
    return f;
}

ucs_status_ptr_t ucp_am_send_nbx(ucp_ep_h ep, unsigned id, const void *header, size_t header_length,
                                 const void *buffer, size_t count,
                                 const ucp_request_param_t *param) {
    static ucs_status_ptr_t (*f)(ucp_ep_h, unsigned, const void *, size_t, const void *, size_t,
                                 const ucp_request_param_t *);
    if (!__atomic_load_n(&f, __ATOMIC_ACQUIRE))
        __atomic_store_n(&f, (__typeof__(f))real("ucp_am_send_nbx"), __ATOMIC_RELEASE);
    if (counting && id == AM_REQUEST_ID)
        counted.am++;
    return __atomic_load_n(&f, __ATOMIC_ACQUIRE)(ep, id, header, header_length, buffer, count,
                                                 param);
}

ucs_status_ptr_t ucp_put_nbx(ucp_ep_h ep, const void *buffer, size_t count, uint64_t remote_addr,
                             ucp_rkey_h rkey, const ucp_request_param_t *param) {
    static ucs_status_ptr_t (*f)(ucp_ep_h, const void *, size_t, uint64_t, ucp_rkey_h,
                                 const ucp_request_param_t *);
    if (!__atomic_load_n(&f, __ATOMIC_ACQUIRE))
        __atomic_store_n(&f, (__typeof__(f))real("ucp_put_nbx"), __ATOMIC_RELEASE);
    if (counting)
        counted.put++;
    return __atomic_load_n(&f, __ATOMIC_ACQUIRE)(ep, buffer, count, remote_addr, rkey, param);
}

ucs_status_ptr_t ucp_atomic_op_nbx(ucp_ep_h ep, ucp_atomic_op_t opcode, const void *buffer,
                                   size_t count, uint64_t remote_addr, ucp_rkey_h rkey,
                                   const ucp_request_param_t *param) {
    static ucs_status_ptr_t (*f)(ucp_ep_h, ucp_atomic_op_t, const void *, size_t, uint64_t,
                                 ucp_rkey_h, const ucp_request_param_t *);
    if (!__atomic_load_n(&f, __ATOMIC_ACQUIRE))
        __atomic_store_n(&f, (__typeof__(f))real("ucp_atomic_op_nbx"), __ATOMIC_RELEASE);
    if (counting)
        counted.amo++;
    return __atomic_load_n(&f, __ATOMIC_ACQUIRE)(ep, opcode, buffer, count, remote_addr, rkey,
                                                 param);
}

ucs_status_ptr_t ucp_ep_flush_nbx(ucp_ep_h ep, const ucp_request_param_t *param) {
    static ucs_status_ptr_t (*f)(ucp_ep_h, const ucp_request_param_t *);
    if (!__atomic_load_n(&f, __ATOMIC_ACQUIRE))
        __atomic_store_n(&f, (__typeof__(f))real("ucp_ep_flush_nbx"), __ATOMIC_RELEASE);
    if (counting)
        counted.flush++;
    return __atomic_load_n(&f, __ATOMIC_ACQUIRE)(ep, param);
}

ucs_status_t ucp_worker_fence(ucp_worker_h worker) {
    static ucs_status_t (*f)(ucp_worker_h);
    if (!__atomic_load_n(&f, __ATOMIC_ACQUIRE))
        __atomic_store_n(&f, (__typeof__(f))real("ucp_worker_fence"), __ATOMIC_RELEASE);
    if (counting)
        counted.fence++;
    return __atomic_load_n(&f, __ATOMIC_ACQUIRE)(worker);
}

static unsigned char src[1 << 20];
static unsigned char dst[1 << 20];
static uint64_t sig;
static uint64_t word;
static int failures;

static void start(void) {
    shmem_quiet();
    shmem_barrier_all();
    memset(&counted, 0, sizeof(counted));
    counting = 1;
}

/* On PE 0, which sends; PE 1 sends nothing. */
static void expect(const char *what, counts_t want) {
    counting = 0;
    if (shmem_my_pe() != 0)
        want = (counts_t){0};
    counts_t got = counted;
    if (memcmp(&got, &want, sizeof(got)) != 0) {
        fprintf(stderr,
                "putsig_count: %s: %d active messages, %d puts, %d AMOs, %d flushes, %d fences; "
                "expected %d, %d, %d, %d, %d\n",
                what, got.am, got.put, got.amo, got.flush, got.fence, want.am, want.put, want.amo,
                want.flush, want.fence);
        failures++;
    }
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() != 2 || shmem_ptr(&sig, 1 - me) != NULL) {
        if (me == 0)
            fprintf(stderr, "putsig_count: needs 2 PEs that reach each other through the network "
                            "(SHMEM_DISABLE_P2P=1)\n");
        shmem_global_exit(1);
    }
    for (size_t i = 0; i < sizeof(src); i++)
        src[i] = (unsigned char)(i * 7 + 1);
    /* The endpoint and rkeys are made on first use: not counted. */
    if (me == 0) {
        shmem_putmem(dst, src, 8, 1);
        shmem_uint64_atomic_add(&word, 1, 1);
    }

    start();
    if (me == 0)
        shmem_putmem_signal(dst, src, 8, &sig, 1, SHMEM_SIGNAL_ADD, 1);
    expect("8 bytes after a quiet", (counts_t){.am = 1});

    start();
    if (me == 0)
        for (int i = 0; i < 3; i++)
            shmem_putmem_signal_nbi(dst, src, 4096, &sig, 1, SHMEM_SIGNAL_ADD, 1);
    expect("3 x 4 KiB nbi after a quiet", (counts_t){.am = 3});

    start();
    if (me == 0)
        shmem_putmem_signal(dst, src, 65536, &sig, 1, SHMEM_SIGNAL_ADD, 1);
    expect("64 KiB after a quiet", (counts_t){.am = 1});

    start();
    if (me == 0) {
        shmem_putmem(dst, src, 64, 1);
        shmem_putmem_signal(dst + 64, src, 64, &sig, 1, SHMEM_SIGNAL_ADD, 1);
    }
    expect("a put, then 64 bytes", (counts_t){.put = 2, .amo = 1, .fence = 1});

    start();
    if (me == 0) {
        shmem_uint64_atomic_add(&word, 1, 1);
        shmem_putmem_signal(dst, src, 64, &sig, 1, SHMEM_SIGNAL_SET, 1);
    }
    expect("a posted AMO, then 64 bytes", (counts_t){.put = 1, .amo = 2, .fence = 1});

    /* A quiet completes the put: the next is one message again. */
    start();
    if (me == 0) {
        shmem_putmem(dst, src, 64, 1);
        shmem_quiet();
        shmem_putmem_signal(dst + 64, src, 64, &sig, 1, SHMEM_SIGNAL_ADD, 1);
    }
    expect("a put, a quiet, then 64 bytes", (counts_t){.am = 1, .put = 1, .flush = 1});

    start();
    if (me == 0)
        shmem_putmem_signal(dst, src, 65537, &sig, 1, SHMEM_SIGNAL_ADD, 1);
    expect("64 KiB + 1 after a quiet", (counts_t){.put = 1, .amo = 1, .fence = 1});

    start();
    if (me == 0)
        shmem_putmem_signal(dst, src, sizeof(src), &sig, 1, SHMEM_SIGNAL_ADD, 1);
    expect("1 MiB after a quiet", (counts_t){.put = 1, .amo = 1, .fence = 1});

    shmem_barrier_all();
    if (failures)
        shmem_global_exit(1);
    if (me == 0)
        printf("putsig_count: put-with-signal costs the operations expected\n");
    shmem_finalize();
    return 0;
}
