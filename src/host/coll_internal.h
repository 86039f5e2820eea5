/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal contract of the team, synchronization and collective routines (src/host/team.c,
 * sync.c, lock.c, coll_*.c).
 *
 * Inside a node the algorithms pull: a member reads what it needs from its peers' copies
 * (shmemi_coll_get, shmemi_coll_read, a memcpy from the mapping) after a token says the data is
 * there. To a peer on another node, small broadcasts, reductions, alltoalls and collects push
 * (below); the rest pull there with gets on the network transport's default context, and tokens
 * are posted network adds. Teams that span nodes run
 * barriers, broadcasts and reductions per node and between node leaders (shmemi_coll_hier).
 *
 * Synchronization is by tokens: each PE holds, per channel, one 64-bit counter per PE of the job
 * in symmetric memory. Sending a token to PE p is a release store of "tokens sent to p so far"
 * into p's counter for the sender; waiting for a token from PE q is an acquire spin until q's
 * counter reaches "tokens consumed from q so far". Counters only grow, so nothing is ever reset,
 * and tokens between one pair of PEs form a FIFO: an algorithm is correct as long as each PE
 * consumes the tokens of one peer in the order that peer sent them. Each team has its own
 * channel (its slot), so collectives on different teams never mix; the deprecated active-set
 * routines share one extra channel. */
#ifndef SHMEMI_COLL_INTERNAL_H
#define SHMEMI_COLL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* First: it exports the public declarations (see shmemi.h). */
#include "core/shmemi.h"

/* Team slots; a team handle is its slot + 1. Slot 0 is SHMEM_TEAM_WORLD, 1 SHMEM_TEAM_SHARED. */
#define SHMEMI_TEAM_SLOTS 64
#define SHMEMI_TEAM_WORLD_SLOT 0
#define SHMEMI_TEAM_SHARED_SLOT 1
/* The token channel of the deprecated active-set routines. */
#define SHMEMI_CHANNEL_ACTIVE_SET SHMEMI_TEAM_SLOTS
#define SHMEMI_N_CHANNELS (SHMEMI_TEAM_SLOTS + 1)
/* 64-bit words of one small all-gathered descriptor (shmemi_coll_exchange). */
#define SHMEMI_EXCHANGE_WORDS 4

typedef struct {
    int in_use;
    int channel;
    /* Member i is world PE start + i * stride, or members[i] in a view (below). */
    int start;
    int stride;
    const int *members;
    int size;
    int my_index;
    long config_mask;
    shmem_team_config_t config;
    /* Exchange area: a symmetric double buffer of the team's slot, or the active set's pSync. */
    int64_t *exchange_area;
    unsigned exchange_count;
    long *psync;
} shmemi_team_state_t;

extern shmemi_team_state_t shmemi_teams[SHMEMI_TEAM_SLOTS];

/* The state of a valid team handle; fatal for SHMEM_TEAM_INVALID or a handle that names no team. */
shmemi_team_state_t *shmemi_team_get(const char *call, shmem_team_t team);

/* Describe the deprecated active set (PE_start, 2^logPE_stride, PE_size) as a team in *t; fatal
 * when the set is out of range or the caller is not in it. */
void shmemi_team_active_set(const char *call, int PE_start, int logPE_stride, int PE_size,
                            long *pSync, shmemi_team_state_t *t);

static inline int shmemi_team_world_pe(const shmemi_team_state_t *t, int index) {
    return t->members != NULL ? t->members[index] : t->start + index * t->stride;
}

/* Fatal unless 0 <= index < t->size. */
void shmemi_team_check_index(const char *call, const shmemi_team_state_t *t, int index,
                             const char *what);

/* The mapped address of symmetric object addr on team member index (load/store route); NULL when
 * the member is reached over the network (then use shmemi_coll_get or shmemi_coll_read). Fatal
 * when addr is not symmetric. */
void *shmemi_coll_peer(const char *call, const shmemi_team_state_t *t, const void *addr, int index);

/* Copies len bytes of member index's copy of symmetric addr into dest, by load/store or by a
 * blocking get on the network. */
void shmemi_coll_get(const char *call, const shmemi_team_state_t *t, void *dest, const void *addr,
                     size_t len, int index);

/* A buffer for network copies, grown on demand; free(buf) when done. */
typedef struct {
    void *buf;
    size_t size;
} shmemi_coll_scratch_t;

/* len bytes of member index's copy of symmetric addr, to read: its mapping, or a copy fetched
 * over the network into scratch (valid until scratch's next use). */
const void *shmemi_coll_read(const char *call, const shmemi_team_state_t *t, const void *addr,
                             size_t len, int index, shmemi_coll_scratch_t *scratch);

/* Fatal, naming call and addr, when addr is memory that host code cannot load or store (the heap
 * in GPU memory): the algorithms here move data with host loads and stores, so GPU memory reaches
 * them only through the staging area below. */
void shmemi_coll_check_host_memory(const char *call, const void *addr);

/* Host collectives on the GPU heap (coll_stage.c): where the heap is GPU memory, shmemi_coll_stage
 * is a symmetric staging area of SHMEMI_COLL_STAGE_BYTES in host memory (the internal segment),
 * and a collective whose dest or source is GPU heap memory runs on it in rounds, copying in and
 * out through the heap's transport. NULL on the cpu platform, so the test costs one load there. */
#define SHMEMI_COLL_STAGE_BYTES (2 * 1024 * 1024)
extern char *shmemi_coll_stage;

/* Nonzero when p is in the staging area: the collective is one round of a staged collective. */
static inline int shmemi_coll_in_stage(const void *p) {
    return shmemi_coll_stage != NULL &&
           (uintptr_t)p - (uintptr_t)shmemi_coll_stage < SHMEMI_COLL_STAGE_BYTES;
}

/* Whether this PE needs a staging area (stage_init), and whether a collective on dest and
 * source, outside the staging area, is staged: the decisions of host/coll_stage_when.c, alone in
 * their file so that tests/coll can link a copy that stages every collective in its place. */
int shmemi_coll_stage_needed(void);
int shmemi_coll_stage_chosen(const void *dest, const void *source);

/* Nonzero when a collective on dest and source runs on the staging area. */
static inline int shmemi_coll_staged(const void *dest, const void *source) {
    return __builtin_expect(shmemi_coll_stage != NULL, 0) && shmemi_coll_stage_chosen(dest, source);
}

/* Tokens on the team's channel, addressed by team member index. */
void shmemi_token_send(const shmemi_team_state_t *t, int index);
void shmemi_token_wait(const shmemi_team_state_t *t, int index);

/* dest[i] = dest[i] op in[i] for count elements. */
typedef void (*shmemi_reduce_func_t)(void *inout, const void *in, size_t count);
/* Pushes to a member on another node (network): the sender puts the data into the receiver's
 * inbox for the sender and a token after it (put-with-signal), so the data crosses the network
 * once, one way, where a pull costs the receiver a round trip. At most shmemi_coll_eager_limit(t)
 * bytes, sent as pieces of up to one inbox slot: flow control keeps the inbox free (eight slots
 * per sender; the receiver returns the slots it freed with its next token or push to the sender,
 * else four at a time), so a push never overruns a receiver that is still in an earlier
 * collective. shmemi_coll_push_eager sends;
 * shmemi_coll_eager_recv waits for the pieces, copies them into dest (or, with op, combines them
 * into dest, elem_size bytes per element) and frees their slots; both sides must give the same
 * len. Both sides of an edge choose alike: from shmemi_coll_net_member and the size. Larger data
 * is pulled (docs/collectives.md, "Pushes across nodes"). */
int shmemi_coll_net_member(const shmemi_team_state_t *t, int index);
/* Bytes an eager push on t's channel may carry; 0 where the channel has no inboxes (only the
 * world team's and the active sets' have). */
size_t shmemi_coll_eager_limit(const shmemi_team_state_t *t);
void shmemi_coll_push_eager(const char *call, const shmemi_team_state_t *t, int index,
                            const void *src, size_t len);
void shmemi_coll_eager_recv(const shmemi_team_state_t *t, int index, void *dest, size_t len,
                            shmemi_reduce_func_t op, size_t elem_size);

/* Nonzero when every member of t is on a node of its own (or nothing is mapped), so that every
 * pair of members talks over the network; the same on every member. */
int shmemi_coll_all_net(const shmemi_team_state_t *t);

/* One block between this PE and a member: the bytes at src (sending), len bytes, at offset at of
 * the receiver's dest. */
typedef struct {
    const char *src;
    size_t len;
    size_t at;
} shmemi_coll_block_t;

/* For a team where shmemi_coll_all_net holds and blocks of at most shmemi_coll_eager_limit(t)
 * bytes: pushes out[j] to every other member j and receives in[j] from each into dest (out[j].len
 * on this PE is in[me].len on j; blocks of no bytes are not sent). Returns when every block has
 * arrived and every sent block's source may be reused; nothing of this PE is read remotely. */
void shmemi_coll_push_all(const char *call, const shmemi_team_state_t *t, char *dest,
                          const shmemi_coll_block_t *out, const shmemi_coll_block_t *in);

/* Barrier over the team: the dissemination barrier (ceil(log2(size)) rounds of one token each
 * way), or, for a team whose members span nodes (shmemi_coll_hier), one among the node's members
 * by load/store, one among the nodes' leaders over the network, and the node's again. */
void shmemi_team_barrier(const shmemi_team_state_t *t);

/* Hierarchy of a team whose members span nodes: views (teams whose members are listed, on the
 * team's token channel) of the members of this PE's node, and of one leader per node: the
 * node's first member in team order, or the root on the root's node. The views' tokens and
 * buffers are the team's, so a collective runs a part of its work on each view in turn. */
typedef struct {
    int active;                  /* the team spans nodes and some node has several members */
    shmemi_team_state_t local;   /* this PE's node; local.my_index is this PE's */
    int local_leader;            /* the node leader's index in local */
    shmemi_team_state_t leaders; /* one member per node, in team order of first members */
    int is_leader;               /* this PE is its node's leader (leaders.my_index valid) */
    int root_leader;             /* the root's index in leaders (root >= 0), else -1 */
    int root_node;               /* this PE is on the root's node (root >= 0) */
    int *lists;                  /* storage of both member lists */
} shmemi_coll_hier_t;

/* Fills h for team t, with member root (-1 for none) as its node's leader. h->active is 0 (and
 * nothing to free) when every member is on one node, every node has one member, the team is a
 * view already, or SHMEM_COLL_HIERARCHY=off. Free with shmemi_coll_hier_free. */
void shmemi_coll_hier(const char *call, const shmemi_team_state_t *t, int root,
                      shmemi_coll_hier_t *h);
void shmemi_coll_hier_free(shmemi_coll_hier_t *h);

/* Starts copying len bytes of member index's copy of symmetric addr into dest: a memcpy from a
 * node peer (done at return), or a non-blocking get from a PE on another node, complete after
 * shmemi_coll_get_wait. */
void shmemi_coll_get_nbi(const char *call, const shmemi_team_state_t *t, void *dest,
                         const void *addr, size_t len, int index);
/* Completes this thread's earlier shmemi_coll_get_nbi (a quiet on the network's default context
 * when any went over the network). */
void shmemi_coll_get_wait(const char *call);

/* All-gather SHMEMI_EXCHANGE_WORDS words from every member: out receives size * words. Contains
 * one barrier (two for active sets, whose pSync is restored). */
void shmemi_coll_exchange(const char *call, shmemi_team_state_t *t,
                          const int64_t in[SHMEMI_EXCHANGE_WORDS], int64_t *out);

/* The block size of every member of a collect: len[i] receives member i's nbytes, through
 * shmemi_coll_exchange. */
void shmemi_coll_block_sizes(const char *call, shmemi_team_state_t *t, size_t nbytes, size_t *len);

/* Under SHMEM_DEBUG=1: all-gather (routine, count, root) and fail with a message naming the first
 * member whose arguments differ from member 0's. The routine is identified by the hash of call;
 * count < 0 skips the count comparison. Each collective calls it once with its whole arguments,
 * before it chooses the staged path. */
void shmemi_coll_check(const char *call, shmemi_team_state_t *t, int64_t count, int64_t root);

/* Under SHMEM_DEBUG=1: all-gather the routine (the hash of call) and three argument words, and
 * fail with a message naming the first member whose routine or arguments differ from member 0's;
 * a word whose name is NULL is not compared. shmemi_coll_check is this with (count, root). */
void shmemi_coll_agree(const char *call, shmemi_team_state_t *t, const int64_t args[3],
                       const char *const names[3]);

/* shmemi_coll_check for a collective that writes dest, except in the rounds of a staged
 * collective (dest in the staging area): its arguments were checked as a whole before its first
 * round, and the rounds of PEs that passed different sizes would not line up. */
static inline void shmemi_coll_check_args(const char *call, shmemi_team_state_t *t,
                                          const void *dest, int64_t count, int64_t root) {
    if (shmemi_coll_in_stage(dest))
        return;
    /* dest is written by the other members on some paths and sizes, so it must be symmetric on
     * all of them, also where this call happens not to need it. */
    if (count != 0)
        shmemi_check_symmetric(call, dest, 1, shmemi_state.my_pe);
    shmemi_coll_check(call, t, count, root);
}

/* Fatal when [a, a+alen) and [b, b+blen) overlap (and are not the same range when same_ok). */
void shmemi_coll_check_overlap(const char *call, const void *a, size_t alen, const void *b,
                               size_t blen, int same_ok);

/* Fatal, naming the argument what ("dest", "source"), unless addr is symmetric memory. */
void shmemi_coll_check_symmetric(const char *call, const void *addr, const char *what);

/* One step of a collective's wait (src/host/relax.h: spin, yield or sleep). */
void shmemi_coll_relax(unsigned *spins);

/* The quiet that barrier_all and clear_lock need on this platform: all earlier stores (plain
 * and non-temporal) of this PE are visible before any later store. */
void shmemi_coll_quiet(void);

/* Algorithms, chosen by environment variables at shmem_init (docs/collectives.md). */
typedef enum { SHMEMI_BCAST_BINOMIAL, SHMEMI_BCAST_LINEAR } shmemi_bcast_algorithm_t;
typedef enum {
    SHMEMI_COLLECT_AUTO,
    SHMEMI_COLLECT_LINEAR,
    SHMEMI_COLLECT_RING,
    SHMEMI_COLLECT_RECURSIVE_DOUBLING,
} shmemi_collect_algorithm_t;
typedef enum {
    SHMEMI_REDUCE_AUTO,
    SHMEMI_REDUCE_LINEAR,
    SHMEMI_REDUCE_RECURSIVE_DOUBLING,
    SHMEMI_REDUCE_RABENSEIFNER,
} shmemi_reduce_algorithm_t;

/* Read from SHMEM_SCAN_ALGORITHM at shmem_init (team.c), used by scan.c. */
typedef enum { SHMEMI_SCAN_LINEAR, SHMEMI_SCAN_RECURSIVE_DOUBLING } shmemi_scan_algorithm_t;
extern shmemi_scan_algorithm_t shmemi_scan_algorithm;

typedef struct {
    shmemi_bcast_algorithm_t bcast;
    shmemi_collect_algorithm_t collect;
    shmemi_reduce_algorithm_t reduce;
    size_t reduce_large_bytes;
    size_t bcast_chunk_bytes;
    int hierarchy; /* SHMEM_COLL_HIERARCHY: 1 auto, 0 off */
} shmemi_coll_config_t;

extern shmemi_coll_config_t shmemi_coll_config;

/* nelems * elem_size, fatal (naming call and the count as what) when the product overflows. */
static inline size_t shmemi_coll_nbytes(const char *call, const char *what, size_t nelems,
                                        size_t elem_size) {
    size_t nbytes;
    if (__builtin_mul_overflow(nelems, elem_size, &nbytes))
        shmemi_fatal(call, "%s %zu overflows", what, nelems);
    return nbytes;
}

/* The collectives, on byte buffers. Each returns when the local part is complete and no peer
 * will read the local buffers any more. */
void shmemi_coll_broadcast(const char *call, shmemi_team_state_t *t, void *dest, const void *source,
                           size_t nbytes, int root, int update_root);
/* Broadcast of nbytes > 0 of dest from member root's dest over team or view v, without checks:
 * the node part of a hierarchical collective. */
void shmemi_coll_bcast_view(const char *call, const shmemi_team_state_t *v, void *dest,
                            size_t nbytes, int root);
void shmemi_coll_collect(const char *call, shmemi_team_state_t *t, void *dest, const void *source,
                         size_t nbytes, int fixed);
void shmemi_coll_alltoalls(const char *call, shmemi_team_state_t *t, void *dest, const void *source,
                           ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t elem_size);

void shmemi_coll_reduce(const char *call, shmemi_team_state_t *t, void *dest, const void *source,
                        size_t count, size_t elem_size, shmemi_reduce_func_t op);

/* The same collectives through the staging area, called by the ones above where
 * shmemi_coll_staged(dest, source) holds, after their argument checks. */
void shmemi_coll_broadcast_staged(const char *call, shmemi_team_state_t *t, void *dest,
                                  const void *source, size_t nbytes, int root, int update_root);
void shmemi_coll_collect_staged(const char *call, shmemi_team_state_t *t, void *dest,
                                const void *source, size_t nbytes, int fixed);
void shmemi_coll_alltoalls_staged(const char *call, shmemi_team_state_t *t, void *dest,
                                  const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                                  size_t elem_size);
void shmemi_coll_reduce_staged(const char *call, shmemi_team_state_t *t, void *dest,
                               const void *source, size_t count, size_t elem_size,
                               shmemi_reduce_func_t op);

#endif
