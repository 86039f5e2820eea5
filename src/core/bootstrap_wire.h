/* The protocol between shmemrun (the hub) and the PEs it starts, over a Unix stream socket.
 * Every message is a header followed by len bytes. Shared by src/core and tools/shmemrun.c.
 *
 *   HELLO      PE -> hub   arg = PE number, payload = the job secret (hex)
 *              hub -> PE   arg = number of PEs (sent only when the secret and PE are right)
 *   ALLGATHER  PE -> hub   payload = this PE's contribution (len 0: a barrier)
 *              hub -> PE   payload = every PE's contribution in PE order
 *   GLOBAL_EXIT PE -> hub  arg = exit status; the hub ends every other PE, exits with it
 *   BYE        PE -> hub   shmem_finalize is done; the PE may exit without ending the job
 *
 * Collectives are matched by order: every PE calls them in the same sequence, so the hub holds
 * one pending contribution per PE and answers when all are there. Internal header. */
#ifndef SHMEMI_BOOTSTRAP_WIRE_H
#define SHMEMI_BOOTSTRAP_WIRE_H

#include <stdint.h>

#define SHMEMI_WIRE_MAGIC 0x4c534831u /* "LSH1" */
#define SHMEMI_WIRE_SECRET_LEN 32     /* hex characters */
#define SHMEMI_WIRE_MAX_PAYLOAD (64u << 20)

typedef enum {
    SHMEMI_WIRE_HELLO = 1,
    SHMEMI_WIRE_ALLGATHER = 2,
    SHMEMI_WIRE_GLOBAL_EXIT = 3,
    SHMEMI_WIRE_BYE = 4,
} shmemi_wire_type_t;

typedef struct {
    uint32_t magic;
    uint32_t type;
    uint64_t len;
    int32_t arg;
    uint32_t reserved;
} shmemi_wire_header_t;

#endif
