/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target of the bootstrap wire protocol's parsing: every header check of
 * src/core/bootstrap_wire.h, on both sides, and the socket-name parser. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bootstrap_wire.h"
#include "fuzz_targets.h"

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "fuzz_wire: " __VA_ARGS__);                                                \
        fprintf(stderr, "\n");                                                                     \
        abort();                                                                                   \
    } while (0)

static const char job_secret[SHMEMI_WIRE_SECRET_LEN + 1] = "0123456789abcdef0123456789abcdef";

static int known_from_pe(uint32_t type) {
    return type == SHMEMI_WIRE_ALLGATHER || type == SHMEMI_WIRE_GLOBAL_EXIT ||
           type == SHMEMI_WIRE_BYE || type == SHMEMI_WIRE_WHERE;
}

static void check_header(const shmemi_wire_header_t *h, const uint8_t *payload, size_t avail,
                         int n_pes, int pe) {
    int magic = h->magic == SHMEMI_WIRE_MAGIC;

    int hello = shmemi_wire_hello_header_ok(h);
    if (hello != (magic && h->type == SHMEMI_WIRE_HELLO && h->len == SHMEMI_WIRE_SECRET_LEN))
        FAIL("hello_header_ok(type %u, len %llu) = %d", h->type, (unsigned long long)h->len, hello);

    /* The secret: the payload's bytes, or the job's own when the reserved word's low bit says. */
    char theirs[SHMEMI_WIRE_SECRET_LEN];
    memset(theirs, 'x', sizeof(theirs));
    if (h->reserved & 1)
        memcpy(theirs, job_secret, sizeof(theirs));
    else
        memcpy(theirs, payload, avail < sizeof(theirs) ? avail : sizeof(theirs));
    int same = memcmp(theirs, job_secret, sizeof(theirs)) == 0;
    int accepted = shmemi_wire_hello_accept(h, theirs, job_secret, n_pes);
    int want = same && h->arg >= 0 && h->arg < n_pes ? h->arg : -1;
    if (accepted != want)
        FAIL("hello_accept(arg %d, n_pes %d, secret %s) = %d, not %d", h->arg, n_pes,
             same ? "right" : "wrong", accepted, want);

    shmemi_wire_msg_check_t check = shmemi_wire_check_from_pe(h);
    uint64_t limit = h->type == SHMEMI_WIRE_WHERE ? SHMEMI_WIRE_CALL_MAX : SHMEMI_WIRE_MAX_PAYLOAD;
    shmemi_wire_msg_check_t want_check = !magic || h->len > limit ? SHMEMI_WIRE_MSG_MALFORMED
                                         : known_from_pe(h->type) ? SHMEMI_WIRE_MSG_OK
                                                                  : SHMEMI_WIRE_MSG_UNKNOWN;
    if (check != want_check)
        FAIL("check_from_pe(type %u, len %llu) = %d, not %d", h->type, (unsigned long long)h->len,
             (int)check, (int)want_check);

    int n = shmemi_wire_hello_reply_n_pes(h, pe);
    int want_n = magic && h->type == SHMEMI_WIRE_HELLO && h->arg > pe ? h->arg : -1;
    if (n != want_n || (n >= 0 && n <= pe))
        FAIL("hello_reply_n_pes(arg %d, pe %d) = %d", h->arg, pe, n);

    uint64_t expected = (h->reserved & 2) ? h->len : h->len + (h->reserved >> 2);
    int ok = shmemi_wire_allgather_reply_ok(h, expected);
    if (ok != (magic && h->type == SHMEMI_WIRE_ALLGATHER && h->len == expected))
        FAIL("allgather_reply_ok(type %u, len %llu, expected %llu) = %d", h->type,
             (unsigned long long)h->len, (unsigned long long)expected, ok);
}

/* The payload bytes, up to a NUL or 200 bytes, as a socket name ("@name": abstract). */
static void check_address(const uint8_t *payload, size_t avail) {
    char name[201];
    size_t len = 0;
    while (len < avail && len < sizeof(name) - 1 && payload[len] != 0) {
        name[len] = (char)payload[len];
        len++;
    }
    name[len] = '\0';
    struct sockaddr_un addr;
    socklen_t got = shmemi_wire_address(name, &addr);
    size_t path = sizeof(addr.sun_path);
    int valid = len >= 1 && name[0] == '@' && len <= path;
    if (!valid) {
        if (got != 0)
            FAIL("address('%s') = %u, not 0", name, (unsigned)got);
        return;
    }
    if (got != offsetof(struct sockaddr_un, sun_path) + len || addr.sun_family != AF_UNIX ||
        addr.sun_path[0] != '\0' || memcmp(addr.sun_path + 1, name + 1, len - 1) != 0)
        FAIL("address('%s') = %u, or the address differs from the name", name, (unsigned)got);
}

void fuzz_wire(const uint8_t *data, size_t size) {
    if (size < 2)
        return;
    int n_pes = 1 + data[0];
    int pe = (int)data[1] - 2;
    size_t at = 2;
    while (size - at >= sizeof(shmemi_wire_header_t)) {
        shmemi_wire_header_t h;
        memcpy(&h, data + at, sizeof(h));
        at += sizeof(h);
        size_t avail = size - at;
        check_header(&h, data + at, avail, n_pes, pe);
        check_address(data + at, avail);
        at += h.len < avail ? (size_t)h.len : avail;
    }
}
