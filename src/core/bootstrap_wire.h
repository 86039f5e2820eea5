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
