/* SPDX-License-Identifier: BSD-3-Clause */
// The heap allocator on offsets (src/core/allocator.c): first fit, alignment, merging, resize,
// and determinism (the same calls give the same offsets).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

extern "C" {
#include "core/allocator.h"
}

namespace {

constexpr size_t kGrain = SHMEMI_ALLOCATOR_GRAIN;

struct Heap {
    explicit Heap(size_t size) : a(shmemi_allocator_create(size)) {}
    ~Heap() { shmemi_allocator_destroy(a); }
    size_t alloc(size_t size, size_t align = 0) {
        size_t offset = SIZE_MAX;
        EXPECT_EQ(shmemi_allocator_alloc(a, size, align, &offset), SHMEMI_OK);
        return offset;
    }
    shmemi_allocator_t *a;
};

TEST(Allocator, FirstFitInOrder) {
    Heap h(1 << 20);
    EXPECT_EQ(h.alloc(1), 0u);
    EXPECT_EQ(h.alloc(100), kGrain);
    EXPECT_EQ(h.alloc(kGrain), 3 * kGrain);
    EXPECT_EQ(shmemi_allocator_block_size(h.a, kGrain), 2 * kGrain);
}

TEST(Allocator, ZeroSizeAndBadAlignment) {
    Heap h(1 << 20);
    size_t offset;
    EXPECT_EQ(shmemi_allocator_alloc(h.a, 0, 0, &offset), SHMEMI_ERR_INVALID);
    EXPECT_EQ(shmemi_allocator_alloc(h.a, 8, 3, &offset), SHMEMI_ERR_INVALID);
    EXPECT_EQ(shmemi_allocator_alloc(h.a, SIZE_MAX, 0, &offset), SHMEMI_ERR_NOMEM);
}

TEST(Allocator, Alignment) {
    Heap h(1 << 20);
    h.alloc(8);
    size_t offset = h.alloc(8, 4096);
    EXPECT_EQ(offset % 4096, 0u);
    EXPECT_EQ(offset, 4096u);
    // The gap before the aligned block is still usable.
    EXPECT_EQ(h.alloc(8), kGrain);
}

TEST(Allocator, FreeMergesNeighbours) {
    Heap h(1 << 20);
    size_t total = shmemi_allocator_free_bytes(h.a);
    size_t a = h.alloc(100), b = h.alloc(200), c = h.alloc(300);
    EXPECT_EQ(shmemi_allocator_free(h.a, b), SHMEMI_OK);
    EXPECT_EQ(shmemi_allocator_free(h.a, a), SHMEMI_OK);
    EXPECT_EQ(shmemi_allocator_free(h.a, c), SHMEMI_OK);
    EXPECT_EQ(shmemi_allocator_free_bytes(h.a), total);
    EXPECT_EQ(shmemi_allocator_largest_free(h.a), total);
}

TEST(Allocator, FreeOfUnknownOffsetFails) {
    Heap h(1 << 20);
    size_t a = h.alloc(100);
    EXPECT_EQ(shmemi_allocator_free(h.a, a + kGrain), SHMEMI_ERR_INVALID);
    EXPECT_EQ(shmemi_allocator_free(h.a, a), SHMEMI_OK);
    EXPECT_EQ(shmemi_allocator_free(h.a, a), SHMEMI_ERR_INVALID);
}

TEST(Allocator, ExhaustionLeavesHeapUsable) {
    Heap h(64 * kGrain);
    size_t offset;
    EXPECT_EQ(shmemi_allocator_alloc(h.a, 65 * kGrain, 0, &offset), SHMEMI_ERR_NOMEM);
    std::vector<size_t> blocks;
    while (shmemi_allocator_alloc(h.a, 8 * kGrain, 0, &offset) == SHMEMI_OK)
        blocks.push_back(offset);
    EXPECT_EQ(blocks.size(), 8u);
    EXPECT_EQ(shmemi_allocator_free_bytes(h.a), 0u);
    for (size_t b : blocks)
        EXPECT_EQ(shmemi_allocator_free(h.a, b), SHMEMI_OK);
    EXPECT_EQ(h.alloc(64 * kGrain), 0u);
}

TEST(Allocator, ResizeInPlace) {
    Heap h(1 << 20);
    size_t a = h.alloc(kGrain);
    size_t b = h.alloc(kGrain);
    // a cannot grow: b follows.
    EXPECT_EQ(shmemi_allocator_resize(h.a, a, 2 * kGrain), SHMEMI_ERR_NOMEM);
    // b grows into the free space after it, then shrinks back.
    EXPECT_EQ(shmemi_allocator_resize(h.a, b, 10 * kGrain), SHMEMI_OK);
    EXPECT_EQ(shmemi_allocator_block_size(h.a, b), 10 * kGrain);
    EXPECT_EQ(shmemi_allocator_resize(h.a, b, kGrain), SHMEMI_OK);
    EXPECT_EQ(h.alloc(kGrain), 2 * kGrain);
    // Shrinking a block with a used neighbour leaves a free hole that is reused.
    EXPECT_EQ(shmemi_allocator_free(h.a, a), SHMEMI_OK);
    size_t c = h.alloc(4 * kGrain);
    size_t d = h.alloc(kGrain);
    EXPECT_EQ(shmemi_allocator_resize(h.a, c, kGrain), SHMEMI_OK);
    EXPECT_EQ(h.alloc(3 * kGrain), c + kGrain);
    (void)d;
}

// Two allocators fed the same random sequence of calls agree on every offset.
TEST(Allocator, Deterministic) {
    Heap x(1 << 24), y(1 << 24);
    std::mt19937 rng(42);
    std::vector<size_t> live;
    for (int i = 0; i < 5000; i++) {
        if (!live.empty() && rng() % 3 == 0) {
            size_t k = rng() % live.size();
            ASSERT_EQ(shmemi_allocator_free(x.a, live[k]), SHMEMI_OK);
            ASSERT_EQ(shmemi_allocator_free(y.a, live[k]), SHMEMI_OK);
            live.erase(live.begin() + static_cast<long>(k));
            continue;
        }
        size_t size = 1 + rng() % 20000, align = size_t(1) << (rng() % 13);
        size_t ox = 0, oy = 1;
        shmemi_status_t sx = shmemi_allocator_alloc(x.a, size, align, &ox);
        shmemi_status_t sy = shmemi_allocator_alloc(y.a, size, align, &oy);
        ASSERT_EQ(sx, sy);
        if (sx == SHMEMI_OK) {
            ASSERT_EQ(ox, oy);
            ASSERT_EQ(ox % align, 0u);
            ASSERT_GE(shmemi_allocator_block_size(x.a, ox), size);
            live.push_back(ox);
        }
    }
    for (size_t o : live)
        ASSERT_EQ(shmemi_allocator_free(x.a, o), SHMEMI_OK);
    EXPECT_EQ(shmemi_allocator_free_bytes(x.a), size_t(1) << 24);
}

// Blocks never overlap.
TEST(Allocator, NoOverlap) {
    Heap h(1 << 20);
    std::vector<std::pair<size_t, size_t>> blocks;
    std::mt19937 rng(7);
    size_t offset;
    for (int i = 0; i < 500; i++) {
        size_t size = 1 + rng() % 3000;
        if (shmemi_allocator_alloc(h.a, size, 0, &offset) == SHMEMI_OK)
            blocks.emplace_back(offset, size);
    }
    std::sort(blocks.begin(), blocks.end());
    for (size_t i = 1; i < blocks.size(); i++)
        EXPECT_LE(blocks[i - 1].first + blocks[i - 1].second, blocks[i].first);
}

} // namespace
