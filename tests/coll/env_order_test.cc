/* SPDX-License-Identifier: BSD-3-Clause */
// The collective algorithms read from the environment (src/host/team.c) are the env table's
// choices taken by index (src/core/env.c): each enum must list its variable's choices in the
// table's order.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

extern "C" {
#include "core/env.h"
#include "host/coll_internal.h"
}

namespace {

struct Case {
    const char *var;
    const char *value;
    int expected;
};

const Case cases[] = {
    {"SHMEM_BCAST_ALGORITHM", "binomial", SHMEMI_BCAST_BINOMIAL},
    {"SHMEM_BCAST_ALGORITHM", "linear", SHMEMI_BCAST_LINEAR},
    {"SHMEM_COLLECT_ALGORITHM", "auto", SHMEMI_COLLECT_AUTO},
    {"SHMEM_COLLECT_ALGORITHM", "linear", SHMEMI_COLLECT_LINEAR},
    {"SHMEM_COLLECT_ALGORITHM", "ring", SHMEMI_COLLECT_RING},
    {"SHMEM_COLLECT_ALGORITHM", "recursive_doubling", SHMEMI_COLLECT_RECURSIVE_DOUBLING},
    {"SHMEM_REDUCE_ALGORITHM", "auto", SHMEMI_REDUCE_AUTO},
    {"SHMEM_REDUCE_ALGORITHM", "linear", SHMEMI_REDUCE_LINEAR},
    {"SHMEM_REDUCE_ALGORITHM", "recursive_doubling", SHMEMI_REDUCE_RECURSIVE_DOUBLING},
    {"SHMEM_REDUCE_ALGORITHM", "rabenseifner", SHMEMI_REDUCE_RABENSEIFNER},
    {"SHMEM_SCAN_ALGORITHM", "linear", SHMEMI_SCAN_LINEAR},
    {"SHMEM_SCAN_ALGORITHM", "recursive_doubling", SHMEMI_SCAN_RECURSIVE_DOUBLING},
};

TEST(CollEnv, ChoicesMatchTheEnums) {
    for (const Case &c : cases) {
        setenv(c.var, c.value, 1);
        EXPECT_EQ(shmemi_env_choice(c.var), c.expected) << c.var << "=" << c.value;
        unsetenv(c.var);
    }
}

// Every choice of these variables has a case above, so a choice added to the table needs one.
TEST(CollEnv, EveryChoiceCovered) {
    for (size_t i = 0; i < shmemi_env_n_vars; i++) {
        const shmemi_env_var_t &v = shmemi_env_vars[i];
        for (size_t k = 0; v.kind == SHMEMI_ENV_CHOICE && v.choices[k]; k++) {
            bool covered = false, relevant = false;
            for (const Case &c : cases) {
                relevant |= std::string(c.var) == v.name;
                covered |= std::string(c.var) == v.name && std::string(c.value) == v.choices[k];
            }
            EXPECT_TRUE(!relevant || covered) << v.name << "=" << v.choices[k];
        }
    }
}

} // namespace
