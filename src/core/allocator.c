/* SPDX-License-Identifier: BSD-3-Clause */
/* First-fit allocator over offsets. Blocks (free and used) form one list in address order that
 * covers the whole range; free neighbours are always merged, so freeing the last allocation
 * restores the list exactly as it was. Live blocks are also kept in a search tree by offset. */
#include <search.h>
#include <stdint.h>
#include <stdlib.h>

#include "allocator.h"

typedef struct block {
    size_t offset;
    size_t size;
    int used;
    struct block *prev, *next;
} block_t;

struct shmemi_allocator {
    size_t size;
    block_t *first;
    void *live; /* tsearch tree of used blocks, by offset */
};

static int block_compare(const void *a, const void *b) {
    size_t x = ((const block_t *)a)->offset, y = ((const block_t *)b)->offset;
    return x < y ? -1 : x > y;
}

static block_t *block_new(size_t offset, size_t size, int used) {
    block_t *b = calloc(1, sizeof(*b));
    if (b) {
        b->offset = offset;
        b->size = size;
        b->used = used;
    }
    return b;
}

/* Cuts the first size bytes of b into their own block; b keeps the rest. */
static block_t *block_split_front(shmemi_allocator_t *a, block_t *b, size_t size) {
    block_t *front = block_new(b->offset, size, b->used);
    if (!front)
        return NULL;
    front->prev = b->prev;
    front->next = b;
    if (b->prev)
        b->prev->next = front;
    else
        a->first = front;
    b->prev = front;
    b->offset += size;
    b->size -= size;
    return front;
}

/* Merges b->next into b. */
static void block_absorb_next(block_t *b) {
    block_t *n = b->next;
    b->size += n->size;
    b->next = n->next;
    if (n->next)
        n->next->prev = b;
    free(n);
}

static block_t *live_find(const shmemi_allocator_t *a, size_t offset) {
    block_t key = {.offset = offset};
    block_t **found = tfind(&key, &a->live, block_compare);
    return found ? *found : NULL;
}

static int round_up(size_t value, size_t align, size_t *out) {
    if (value > SIZE_MAX - (align - 1))
        return -1;
    *out = (value + align - 1) & ~(align - 1);
    return 0;
}

shmemi_allocator_t *shmemi_allocator_create(size_t size) {
    shmemi_allocator_t *a = calloc(1, sizeof(*a));
    if (!a)
        return NULL;
    a->size = size & ~(size_t)(SHMEMI_ALLOCATOR_GRAIN - 1);
    if (a->size) {
        a->first = block_new(0, a->size, 0);
        if (!a->first) {
            free(a);
            return NULL;
        }
    }
    return a;
}

static void no_free(void *node) {
    (void)node;
}

void shmemi_allocator_destroy(shmemi_allocator_t *a) {
    if (!a)
        return;
    tdestroy(a->live, no_free);
    for (block_t *b = a->first, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a);
}

shmemi_status_t shmemi_allocator_alloc(shmemi_allocator_t *a, size_t size, size_t align,
                                       size_t *offset_p) {
    if (size == 0 || (align & (align - 1)) != 0)
        return SHMEMI_ERR_INVALID;
    if (align < SHMEMI_ALLOCATOR_GRAIN)
        align = SHMEMI_ALLOCATOR_GRAIN;
    if (round_up(size, SHMEMI_ALLOCATOR_GRAIN, &size) != 0)
        return SHMEMI_ERR_NOMEM;
    for (block_t *b = a->first; b; b = b->next) {
        size_t start;
        if (b->used || round_up(b->offset, align, &start) != 0)
            continue;
        size_t end = b->offset + b->size;
        if (start > end || end - start < size)
            continue;
        if (start > b->offset && !block_split_front(a, b, start - b->offset))
            return SHMEMI_ERR_NOMEM;
        if (b->size > size) {
            b = block_split_front(a, b, size);
            if (!b)
                return SHMEMI_ERR_NOMEM;
        }
        b->used = 1;
        if (!tsearch(b, &a->live, block_compare)) {
            b->used = 0;
            return SHMEMI_ERR_NOMEM;
        }
        *offset_p = b->offset;
        return SHMEMI_OK;
    }
    return SHMEMI_ERR_NOMEM;
}

shmemi_status_t shmemi_allocator_free(shmemi_allocator_t *a, size_t offset) {
    block_t *b = live_find(a, offset);
    if (!b)
        return SHMEMI_ERR_INVALID;
    tdelete(b, &a->live, block_compare);
    b->used = 0;
    if (b->next && !b->next->used)
        block_absorb_next(b);
    if (b->prev && !b->prev->used)
        block_absorb_next(b->prev);
    return SHMEMI_OK;
}

shmemi_status_t shmemi_allocator_resize(shmemi_allocator_t *a, size_t offset, size_t size) {
    block_t *b = live_find(a, offset);
    if (!b || size == 0)
        return SHMEMI_ERR_INVALID;
    if (round_up(size, SHMEMI_ALLOCATOR_GRAIN, &size) != 0)
        return SHMEMI_ERR_NOMEM;
    if (size > b->size) {
        block_t *n = b->next;
        if (!n || n->used || n->size < size - b->size)
            return SHMEMI_ERR_NOMEM;
        size_t grow = size - b->size;
        if (n->size == grow) {
            block_absorb_next(b);
        } else {
            n->offset += grow;
            n->size -= grow;
            b->size += grow;
        }
    } else if (size < b->size) {
        size_t shrink = b->size - size;
        if (b->next && !b->next->used) {
            b->next->offset -= shrink;
            b->next->size += shrink;
        } else {
            block_t *tail = block_new(b->offset + size, shrink, 0);
            if (!tail)
                return SHMEMI_ERR_NOMEM;
            tail->prev = b;
            tail->next = b->next;
            if (b->next)
                b->next->prev = tail;
            b->next = tail;
        }
        b->size = size;
    }
    return SHMEMI_OK;
}

size_t shmemi_allocator_block_size(const shmemi_allocator_t *a, size_t offset) {
    const block_t *b = live_find(a, offset);
    return b ? b->size : 0;
}

size_t shmemi_allocator_free_bytes(const shmemi_allocator_t *a) {
    size_t total = 0;
    for (const block_t *b = a->first; b; b = b->next)
        if (!b->used)
            total += b->size;
    return total;
}

size_t shmemi_allocator_largest_free(const shmemi_allocator_t *a) {
    size_t largest = 0;
    for (const block_t *b = a->first; b; b = b->next)
        if (!b->used && b->size > largest)
            largest = b->size;
    return largest;
}
