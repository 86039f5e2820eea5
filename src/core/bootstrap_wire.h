/* SPDX-License-Identifier: BSD-3-Clause */
/* The protocol between shmemrun (the hub) and the PEs it starts, over a Unix stream socket.
 * Every message is a header followed by len bytes. Shared by src/core and tools/shmemrun.c.
 *
 *   HELLO      PE -> hub   arg = PE number, payload = the job secret (hex)
 *              hub -> PE   arg = number of PEs (sent only when the secret and PE are right)
 *   ALLGATHER  PE -> hub   payload = this PE's contribution (len 0: a barrier)
 *              hub -> PE   payload = every PE's contribution in PE order
 *   GLOBAL_EXIT PE -> hub  arg = exit status; the hub ends every other PE, exits with it
 *   BYE        PE -> hub   shmem_finalize is done; the PE may exit without ending the job
 *   WHERE      PE -> hub   where the PE waits, for the launcher's report: payload = the library
 *                          call, arg = the PE it waits for, or -1 when it is about to exchange
 *                          with every PE (an ALLGATHER follows); len 0: back in the program
 *
 * Collectives are matched by order: every PE calls them in the same sequence, so the hub holds
 * one pending contribution per PE and answers when all are there. Internal header. */
#ifndef SHMEMI_BOOTSTRAP_WIRE_H
#define SHMEMI_BOOTSTRAP_WIRE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#define SHMEMI_WIRE_MAGIC 0x4c534831u /* "LSH1" */
#define SHMEMI_WIRE_SECRET_LEN 32     /* hex characters */
#define SHMEMI_WIRE_MAX_PAYLOAD (64u << 20)

typedef enum {
    SHMEMI_WIRE_HELLO = 1,
    SHMEMI_WIRE_ALLGATHER = 2,
    SHMEMI_WIRE_GLOBAL_EXIT = 3,
    SHMEMI_WIRE_BYE = 4,
    SHMEMI_WIRE_WHERE = 5,
} shmemi_wire_type_t;

/* The longest library call name a WHERE message carries. */
#define SHMEMI_WIRE_CALL_MAX 64

typedef struct {
    uint32_t magic;
    uint32_t type;
    uint64_t len;
    int32_t arg;
    uint32_t reserved;
} shmemi_wire_header_t;

/* ---- parsing: what a received header means (pure functions, fuzzed by tests/fuzz) ---------- */

/* A PE's first message, as the hub reads it: the PE number it claims when h is a HELLO carrying
 * a secret of SHMEMI_WIRE_SECRET_LEN bytes; -1 otherwise. The PE number is checked separately
 * (shmemi_wire_hello_accept), after the secret has been read. */
static inline int shmemi_wire_hello_header_ok(const shmemi_wire_header_t *h) {
    return h->magic == SHMEMI_WIRE_MAGIC && h->type == SHMEMI_WIRE_HELLO &&
           h->len == SHMEMI_WIRE_SECRET_LEN;
}

/* The hub's decision on a HELLO: the PE number when their_secret equals secret (compared in
 * constant time: how much of it matched does not show) and 0 <= arg < n_pes; -1 otherwise. */
static inline int shmemi_wire_hello_accept(const shmemi_wire_header_t *h, const char *their_secret,
                                           const char *secret, int n_pes) {
    unsigned char diff = 0;
    for (int i = 0; i < SHMEMI_WIRE_SECRET_LEN; i++)
        diff |= (unsigned char)(their_secret[i] ^ secret[i]);
    if (diff != 0 || h->arg < 0 || h->arg >= n_pes)
        return -1;
    return h->arg;
}

typedef enum {
    SHMEMI_WIRE_MSG_OK,        /* a known type with a payload length within the limit */
    SHMEMI_WIRE_MSG_MALFORMED, /* wrong magic, or a payload over SHMEMI_WIRE_MAX_PAYLOAD
                                  (SHMEMI_WIRE_CALL_MAX for WHERE) */
    SHMEMI_WIRE_MSG_UNKNOWN,   /* well framed, but not ALLGATHER, GLOBAL_EXIT, BYE or WHERE */
} shmemi_wire_msg_check_t;

/* A later message of a PE, as the hub reads it. */
static inline shmemi_wire_msg_check_t shmemi_wire_check_from_pe(const shmemi_wire_header_t *h) {
    uint64_t limit = h->type == SHMEMI_WIRE_WHERE ? SHMEMI_WIRE_CALL_MAX : SHMEMI_WIRE_MAX_PAYLOAD;
    if (h->magic != SHMEMI_WIRE_MAGIC || h->len > limit)
        return SHMEMI_WIRE_MSG_MALFORMED;
    if (h->type != SHMEMI_WIRE_ALLGATHER && h->type != SHMEMI_WIRE_GLOBAL_EXIT &&
        h->type != SHMEMI_WIRE_BYE && h->type != SHMEMI_WIRE_WHERE)
        return SHMEMI_WIRE_MSG_UNKNOWN;
    return SHMEMI_WIRE_MSG_OK;
}

/* The hub's answer to PE pe's HELLO, as the PE reads it: the number of PEs of the job, which must
 * exceed pe; -1 when h is not such an answer. */
static inline int shmemi_wire_hello_reply_n_pes(const shmemi_wire_header_t *h, int pe) {
    if (h->magic != SHMEMI_WIRE_MAGIC || h->type != SHMEMI_WIRE_HELLO || h->arg <= pe)
        return -1;
    return h->arg;
}

/* The hub's answer to an ALLGATHER, as the PE reads it: 1 when it carries expected bytes. */
static inline int shmemi_wire_allgather_reply_ok(const shmemi_wire_header_t *h, uint64_t expected) {
    return h->magic == SHMEMI_WIRE_MAGIC && h->type == SHMEMI_WIRE_ALLGATHER && h->len == expected;
}

/* Send or receive exactly len bytes, retrying after signals; -1 when the peer is gone. */
static inline int shmemi_wire_send_all(int fd, const void *buf, size_t len) {
    const char *p = buf;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static inline int shmemi_wire_recv_all(int fd, void *buf, size_t len) {
    char *p = buf;
    while (len > 0) {
        ssize_t n = recv(fd, p, len, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Sends one message: the header, then len bytes of payload; -1 when the peer is gone. */
static inline int shmemi_wire_send_msg(int fd, uint32_t type, int32_t arg, const void *payload,
                                       size_t len) {
    shmemi_wire_header_t h = {.magic = SHMEMI_WIRE_MAGIC, .type = type, .len = len, .arg = arg};
    if (shmemi_wire_send_all(fd, &h, sizeof(h)) != 0)
        return -1;
    return len ? shmemi_wire_send_all(fd, payload, len) : 0;
}

/* Fills addr for "@name", a socket in the abstract namespace (nothing on disk); returns the
 * address length, 0 when name is not of that form or too long. */
static inline socklen_t shmemi_wire_address(const char *name, struct sockaddr_un *addr) {
    size_t name_len = strlen(name);
    if (name[0] != '@' || name_len > sizeof(addr->sun_path))
        return 0;
    memset(addr, 0, sizeof(*addr));
    addr->sun_family = AF_UNIX;
    memcpy(addr->sun_path + 1, name + 1, name_len - 1);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + name_len);
}

#endif
