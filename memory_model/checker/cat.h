/* SPDX-License-Identifier: BSD-3-Clause */
/* The cat subset that shmem.cat uses, and the bell declarations of shmem.bell, as parsed by
 * cat_parse.c. memory_model/README.md lists the subset. */
#ifndef SHMEM_LITMUS_CAT_H
#define SHMEM_LITMUS_CAT_H

#include "litmus.h"

#define CAT_MAX_EXPRS 4096
#define CAT_MAX_STMTS 512
#define CAT_MAX_TAGS 64
#define CAT_MAX_ENUMS 16
#define CAT_MAX_GROUPS 64
#define CAT_MAX_LEVELS 16

typedef enum cat_op {
    CAT_VAR,       /* name; slot resolved after parsing */
    CAT_EMPTY,     /* 0 */
    CAT_UNIVERSE,  /* _ */
    CAT_TOID,      /* [e] */
    CAT_UNION,     /* a | b */
    CAT_INTER,     /* a & b */
    CAT_DIFF,      /* a \ b */
    CAT_SEQ,       /* a ; b */
    CAT_CARTESIAN, /* a * b */
    CAT_INVERSE,   /* a^-1 */
    CAT_PLUS,      /* a+ */
    CAT_STAR,      /* a* */
    CAT_OPT,       /* a? */
    CAT_DOMAIN,    /* domain(a) */
    CAT_RANGE,     /* range(a) */
    CAT_TAG2SCOPE  /* tag2scope('tag) */
} cat_op_t;

typedef struct cat_expr {
    cat_op_t op;
    int a;
    int b;
    int slot;                   /* CAT_VAR: environment slot; CAT_TAG2SCOPE: scope level */
    int type;                   /* CAT_TYPE_*, filled in by cat_check_types */
    char name[LITMUS_NAME_LEN]; /* CAT_VAR name, CAT_TAG2SCOPE tag */
    litmus_pos_t pos;
} cat_expr_t;

enum { CAT_TYPE_SET, CAT_TYPE_REL, CAT_TYPE_ANY };

typedef enum cat_stmt_kind { CAT_LET, CAT_ACYCLIC, CAT_IRREFLEXIVE, CAT_ISEMPTY } cat_stmt_kind_t;

typedef struct cat_stmt {
    cat_stmt_kind_t kind;
    char name[LITMUS_NAME_LEN]; /* bound name, or the axiom's `as` name */
    int expr;
    int slot; /* CAT_LET: the slot it binds */
    litmus_pos_t pos;
} cat_stmt_t;

/* One `instructions KIND[set, set, ...]` declaration: each position is a set of tag indices. */
typedef struct cat_group {
    char kind[8]; /* R, W, RMW, F */
    int nargs;
    uint64_t args[LITMUS_MAX_ANNOTS];
} cat_group_t;

typedef struct cat_enum {
    char name[LITMUS_NAME_LEN];
    uint64_t tags;
} cat_enum_t;

typedef struct cat_model {
    char cat_file[256];
    char bell_file[256];
    /* Bell: tags (annotation names), enums, instruction groups, scope levels, regions. */
    int ntags;
    char tags[CAT_MAX_TAGS][LITMUS_NAME_LEN];
    int nenums;
    cat_enum_t enums[CAT_MAX_ENUMS];
    int ngroups;
    cat_group_t groups[CAT_MAX_GROUPS];
    int nlevels;                /* scope levels, narrowest first */
    int levels[CAT_MAX_LEVELS]; /* tag indices */
    uint64_t region_tags;       /* tags of `enum regions` */
    /* Cat: statements in order; expression pool. */
    int enumerate_co; /* include "cos.cat" was seen */
    int nstmts;
    cat_stmt_t stmts[CAT_MAX_STMTS];
    int nexprs;
    cat_expr_t exprs[CAT_MAX_EXPRS];
    int nslots; /* predefined names + one per let */
} cat_model_t;

/* Predefined environment slots, in this order, followed by one set per bell tag (capitalized)
 * and one relation per scope level (the level's name). */
enum {
    CAT_SLOT_UNIVERSE,
    CAT_SLOT_R,
    CAT_SLOT_W,
    CAT_SLOT_M,
    CAT_SLOT_F,
    CAT_SLOT_IW,
    CAT_SLOT_ID,
    CAT_SLOT_PO,
    CAT_SLOT_PO_LOC,
    CAT_SLOT_LOC,
    CAT_SLOT_INT,
    CAT_SLOT_EXT,
    CAT_SLOT_RF,
    CAT_SLOT_RFE,
    CAT_SLOT_RFI,
    CAT_SLOT_CO,
    CAT_SLOT_COE,
    CAT_SLOT_COI,
    CAT_SLOT_FR,
    CAT_SLOT_FRE,
    CAT_SLOT_FRI,
    CAT_SLOT_RMW,
    CAT_SLOT_FIRST_TAG
};

/* Parses the bell file, then the cat file, into *m. Returns 0, or -1 with *err filled in. */
int cat_parse_model(const char *bell_path, const char *cat_path, cat_model_t *m,
                    litmus_error_t *err);

/* The same from strings (used by the unit tests and the fuzz driver). */
int cat_parse_model_text(const char *bell_file, const char *bell_text, const char *cat_file,
                         const char *cat_text, cat_model_t *m, litmus_error_t *err);

/* Infers set or relation for every term and reports the first mismatch (called by the parser). */
int cat_check_types(cat_model_t *m, litmus_error_t *err);

/* The environment slot of `name` after the whole model (its last let, a predefined name, a tag set
 * or a scope relation), or -1. */
int cat_resolve_name(const cat_model_t *m, const char *name);

/* The index of tag `name` in the bell, or -1. */
int cat_find_tag(const cat_model_t *m, const char *name);

#endif
