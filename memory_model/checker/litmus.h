/* SPDX-License-Identifier: BSD-3-Clause */
/* The parsed form of a LISA litmus test, as read by litmus_parse.c. This header is the interface
 * for every subcommand of shmem-litmus: `check` evaluates the model on it, `run` turns it into a
 * program. */
#ifndef SHMEM_LITMUS_H
#define SHMEM_LITMUS_H

#include <stdint.h>

#define LITMUS_MAX_THREADS 8
#define LITMUS_MAX_INSTRS 16
#define LITMUS_MAX_ANNOTS 6
#define LITMUS_MAX_LOCS 16
#define LITMUS_MAX_REGS 32
#define LITMUS_MAX_SCOPE_NODES 64
#define LITMUS_MAX_SCOPE_PROCS 8
#define LITMUS_MAX_COND_NODES 64
#define LITMUS_NAME_LEN 64

/* An error found in a test or model file: where it is and what is wrong. */
typedef struct litmus_error {
    char file[256];
    int line;
    int col;
    char msg[256];
} litmus_error_t;

typedef struct litmus_pos {
    int line;
    int col;
} litmus_pos_t;

typedef enum litmus_op {
    LITMUS_OP_READ,  /* r[annots] REG LOC */
    LITMUS_OP_WRITE, /* w[annots] LOC VALUE */
    LITMUS_OP_RMW,   /* rmw[annots] REG (add REG VALUE) LOC, or rmw[annots] REG VALUE LOC */
    LITMUS_OP_FENCE  /* f[annots] */
} litmus_op_t;

typedef struct litmus_instr {
    litmus_op_t op;
    int nannots;
    char annots[LITMUS_MAX_ANNOTS][LITMUS_NAME_LEN];
    int reg;        /* register number for reads and rmw, else -1 */
    int loc;        /* index into litmus_test_t.locs, -1 for fences */
    int64_t value;  /* written value, swap value, or the addend of a fetch-add */
    int rmw_is_add; /* rmw: 1 for fetch-add, 0 for swap */
    litmus_pos_t pos;
} litmus_instr_t;

typedef struct litmus_thread {
    int ninstrs;
    litmus_instr_t instrs[LITMUS_MAX_INSTRS];
} litmus_thread_t;

/* One node of the `scopes:` tree: a level tag, the threads directly in it, its sub-trees. */
typedef struct litmus_scope_node {
    char tag[LITMUS_NAME_LEN];
    int nprocs;
    int procs[LITMUS_MAX_SCOPE_PROCS];
    int nchildren;
    int children[LITMUS_MAX_SCOPE_NODES];
    litmus_pos_t pos;
} litmus_scope_node_t;

typedef enum litmus_cond_kind {
    LITMUS_COND_EXISTS,
    LITMUS_COND_NOT_EXISTS,
    LITMUS_COND_FORALL
} litmus_cond_kind_t;

typedef enum litmus_prop_op {
    LITMUS_PROP_REG, /* proc:reg = value */
    LITMUS_PROP_LOC, /* loc = value */
    LITMUS_PROP_AND,
    LITMUS_PROP_OR,
    LITMUS_PROP_NOT,
    LITMUS_PROP_TRUE,
    LITMUS_PROP_FALSE
} litmus_prop_op_t;

/* A node of the final condition; AND and OR hold their operands in a[0..nargs). */
typedef struct litmus_prop {
    litmus_prop_op_t op;
    int proc;
    int reg;
    int loc;
    int64_t value;
    int nargs;
    int args[LITMUS_MAX_COND_NODES];
} litmus_prop_t;

typedef struct litmus_test {
    char file[256];
    char name[128];
    char doc[256];
    int nlocs;
    char locs[LITMUS_MAX_LOCS][LITMUS_NAME_LEN];
    int64_t init[LITMUS_MAX_LOCS];
    litmus_pos_t loc_pos[LITMUS_MAX_LOCS];         /* where each location first appears */
    char region[LITMUS_MAX_LOCS][LITMUS_NAME_LEN]; /* "" when regions: does not name it */
    litmus_pos_t region_pos[LITMUS_MAX_LOCS];
    int has_regions;
    int nthreads;
    litmus_thread_t threads[LITMUS_MAX_THREADS];
    int nscope_nodes; /* 0: no scopes: line */
    int scope_root;   /* index of the top node; its tag is "" when the line lists several trees */
    litmus_scope_node_t scope_nodes[LITMUS_MAX_SCOPE_NODES];
    litmus_cond_kind_t cond_kind;
    int nprops;
    int prop_root;
    litmus_prop_t props[LITMUS_MAX_COND_NODES];
} litmus_test_t;

/* The value that a REG or LOC node of the condition compares, in one final state. */
typedef int64_t (*litmus_leaf_fn)(const litmus_prop_t *leaf, const void *state);

/* Whether condition node `i` of `t` holds in the final state whose values `leaf` reads. */
int litmus_prop_holds(const litmus_test_t *t, int i, litmus_leaf_fn leaf, const void *state);

/* Parses `text` (the contents of `file`) into *test. Returns 0, or -1 with *err filled in. */
int litmus_parse(const char *file, const char *text, litmus_test_t *test, litmus_error_t *err);

/* Reads and parses the file at `path`. Returns 0, or -1 with *err filled in. */
int litmus_parse_file(const char *path, litmus_test_t *test, litmus_error_t *err);

/* Reads a whole file into a NUL-terminated heap buffer; NULL with *err filled in on failure. */
char *litmus_read_file(const char *path, litmus_error_t *err);

/* Sets *err and returns -1: the common error exit of the parsers. */
int litmus_fail(litmus_error_t *err, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Placement, for the subcommands that run tests. The levels are libshmem's, narrowest first. */
enum {
    LITMUS_LEVEL_THREAD,
    LITMUS_LEVEL_WARP,
    LITMUS_LEVEL_BLOCK,
    LITMUS_LEVEL_DEVICE,
    LITMUS_LEVEL_PE,
    LITMUS_LEVEL_WORLD,
    LITMUS_NLEVELS
};

/* The nodes from scope node `at` down to the one that lists `thread`, stored in path[depth..];
 * returns the path's end (depth + its length), or 0 if the thread is not below `at`. */
int litmus_scope_path(const litmus_test_t *t, int at, int thread, int *path, int depth);

/* The level index of a scope tag ("block" -> LITMUS_LEVEL_BLOCK), or -1. */
int litmus_level_of(const char *tag);

/* An id of the scope instance of `level` that holds `thread`: two threads share the instance iff
 * the ids are equal. Levels missing from the tree are filled in as herd7 does (a thread alone in a
 * `pe` gets its own device, block and warp). -1 if the tree names an unknown level. */
int litmus_scope_instance(const litmus_test_t *t, int thread, int level);

/* PEs are numbered 0, 1, ... in the order their instances first appear in the scopes: tree (an
 * empty `(pe)` is a PE too). Returns the number of PEs and fills pe_of[thread]; -1 on an unknown
 * level. */
int litmus_place_pes(const litmus_test_t *t, int pe_of[LITMUS_MAX_THREADS]);

/* The home PE of location `loc`: N for `regions: x:peN`, -1 when it has none. */
int litmus_loc_home(const litmus_test_t *t, int loc);

#endif
