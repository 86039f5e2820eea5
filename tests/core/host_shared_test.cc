/* SPDX-License-Identifier: BSD-3-Clause */
// The seam for host memory shared with kernels (src/core/host_shared.c): zeroed calloc memory by
// default, the installed allocator once a platform sets one, and no change after shmem_init.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

extern "C" {
#include "core/shmemi.h"

shmemi_state_t shmemi_state;

void shmemi_fatal(const char *call, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", call);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}
}

namespace {

int allocs, frees;
alignas(64) unsigned char arena[256];

void *counting_alloc(size_t size) {
    allocs++;
    return size <= sizeof(arena) ? arena : nullptr;
}

void counting_free(void *ptr) {
    EXPECT_EQ(ptr, static_cast<void *>(arena));
    frees++;
}

const shmemi_host_shared_ops_t counting_ops = {counting_alloc, counting_free};

TEST(HostShared, DefaultIsZeroedHostMemory) {
    auto *p = static_cast<unsigned char *>(shmemi_host_shared_alloc(4096));
    ASSERT_NE(p, nullptr);
    for (size_t i = 0; i < 4096; i++)
        ASSERT_EQ(p[i], 0u);
    shmemi_host_shared_free(p);
    shmemi_host_shared_free(nullptr);
}

TEST(HostShared, InstalledAllocatorIsUsed) {
    shmemi_host_shared_set(&counting_ops);
    EXPECT_EQ(shmemi_host_shared_alloc(128), static_cast<void *>(arena));
    EXPECT_EQ(shmemi_host_shared_alloc(1024), nullptr);
    shmemi_host_shared_free(arena);
    shmemi_host_shared_free(nullptr);
    EXPECT_EQ(allocs, 2);
    EXPECT_EQ(frees, 1);
}

TEST(HostSharedDeathTest, ChosenBeforeInit) {
    shmemi_state.initialized = 1;
    EXPECT_DEATH(shmemi_host_shared_set(&counting_ops), "chosen before shmem_init");
    shmemi_state.initialized = 0;
}

} // namespace
