/* SPDX-License-Identifier: BSD-3-Clause */
// Parsing of sizes and switches from the environment (src/core/env.c).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

extern "C" {
#include "core/env.h"
}

namespace {

size_t parse(const char *text) {
    size_t size = 12345;
    EXPECT_EQ(shmemi_env_parse_size(text, &size), SHMEMI_OK) << text;
    return size;
}

bool rejected(const char *text) {
    size_t size = 12345;
    return shmemi_env_parse_size(text, &size) == SHMEMI_ERR_INVALID && size == 12345;
}

TEST(EnvSize, PlainBytes) {
    EXPECT_EQ(parse("0"), 0u);
    EXPECT_EQ(parse("1"), 1u);
    EXPECT_EQ(parse("1048576"), 1048576u);
}

TEST(EnvSize, Suffixes) {
    EXPECT_EQ(parse("1K"), 1024u);
    EXPECT_EQ(parse("1k"), 1024u);
    EXPECT_EQ(parse("512M"), 512u << 20);
    EXPECT_EQ(parse("1G"), size_t(1) << 30);
    EXPECT_EQ(parse("3g"), size_t(3) << 30);
    EXPECT_EQ(parse("2T"), size_t(2) << 40);
}

TEST(EnvSize, Junk) {
    EXPECT_TRUE(rejected(nullptr));
    EXPECT_TRUE(rejected(""));
    EXPECT_TRUE(rejected("G"));
    EXPECT_TRUE(rejected("-1"));
    EXPECT_TRUE(rejected(" 1"));
    EXPECT_TRUE(rejected("1 "));
    EXPECT_TRUE(rejected("1X"));
    EXPECT_TRUE(rejected("1GB"));
    EXPECT_TRUE(rejected("1.5G"));
    EXPECT_TRUE(rejected("0x10"));
}

TEST(EnvSize, Overflow) {
    EXPECT_TRUE(rejected("18446744073709551616"));
    EXPECT_TRUE(rejected("99999999999999999999999"));
    EXPECT_TRUE(rejected("17179869184G")); // 2^34 GiB = 2^64 bytes
    EXPECT_EQ(parse("16777215T"), size_t(16777215) << 40);
    EXPECT_TRUE(rejected("16777216T"));
}

TEST(EnvBool, Values) {
    setenv("SHMEM_TEST_SWITCH", "1", 1);
    EXPECT_EQ(shmemi_env_bool("SHMEM_TEST_SWITCH"), 1);
    setenv("SHMEM_TEST_SWITCH", "yes", 1);
    EXPECT_EQ(shmemi_env_bool("SHMEM_TEST_SWITCH"), 1);
    setenv("SHMEM_TEST_SWITCH", "0", 1);
    EXPECT_EQ(shmemi_env_bool("SHMEM_TEST_SWITCH"), 0);
    setenv("SHMEM_TEST_SWITCH", "maybe", 1);
    EXPECT_EQ(shmemi_env_bool("SHMEM_TEST_SWITCH"), -1);
    unsetenv("SHMEM_TEST_SWITCH");
    EXPECT_EQ(shmemi_env_bool("SHMEM_TEST_SWITCH"), 0);
}

TEST(EnvTable, DefaultsApply) {
    unsetenv("SHMEM_SYMMETRIC_SIZE");
    EXPECT_STREQ(shmemi_env_get("SHMEM_SYMMETRIC_SIZE"), "1G");
    setenv("SHMEM_SYMMETRIC_SIZE", "64M", 1);
    EXPECT_STREQ(shmemi_env_get("SHMEM_SYMMETRIC_SIZE"), "64M");
    unsetenv("SHMEM_SYMMETRIC_SIZE");
    for (size_t i = 0; i < shmemi_env_n_vars; i++) {
        EXPECT_EQ(std::string(shmemi_env_vars[i].name).rfind("SHMEM", 0), 0u);
        EXPECT_NE(std::string(shmemi_env_vars[i].description), "");
    }
}

TEST(EnvTable, ChoicesAndSizesWithDefaults) {
    unsetenv("SHMEM_REDUCE_ALGORITHM");
    EXPECT_EQ(shmemi_env_choice("SHMEM_REDUCE_ALGORITHM"), 0); // auto
    setenv("SHMEM_REDUCE_ALGORITHM", "rabenseifner", 1);
    EXPECT_EQ(shmemi_env_choice("SHMEM_REDUCE_ALGORITHM"), 3);
    unsetenv("SHMEM_REDUCE_ALGORITHM");
    unsetenv("SHMEM_SCAN_ALGORITHM");
    EXPECT_EQ(shmemi_env_choice("SHMEM_SCAN_ALGORITHM"), 1); // recursive_doubling
    unsetenv("SHMEM_BCAST_CHUNK_SIZE");
    EXPECT_EQ(shmemi_env_size("SHMEM_BCAST_CHUNK_SIZE"), size_t(64) << 10);
    setenv("SHMEM_BCAST_CHUNK_SIZE", "8K", 1);
    EXPECT_EQ(shmemi_env_size("SHMEM_BCAST_CHUNK_SIZE"), size_t(8) << 10);
    unsetenv("SHMEM_BCAST_CHUNK_SIZE");
}

TEST(EnvClosest, Misspellings) {
    const char *typo = "SHMEM_SYMETRIC_SIZE=1G";
    EXPECT_STREQ(shmemi_env_closest(typo, 19), "SHMEM_SYMMETRIC_SIZE");
    EXPECT_STREQ(shmemi_env_closest("SHMEM_DEBGU", 11), "SHMEM_DEBUG");
    EXPECT_STREQ(shmemi_env_closest("SHMEM_REDUCE_ALGO", 17), "SHMEM_REDUCE_ALGORITHM");
    EXPECT_EQ(shmemi_env_closest("SHMEM_DEBUG=1", 11), nullptr);
    EXPECT_EQ(shmemi_env_closest("SHMEM_INFO", 10), nullptr);
}

TEST(EnvInvalid, EveryKind) {
    const char *why = nullptr;
    for (size_t i = 0; i < shmemi_env_n_vars; i++)
        unsetenv(shmemi_env_vars[i].name);
    EXPECT_EQ(shmemi_env_find_invalid(&why), -1);
    struct Case {
        const char *name, *bad, *good;
    } cases[] = {
        {"SHMEM_INFO", "2", "yes"},
        {"SHMEM_VERSION", "maybe", "0"},
        {"SHMEM_SYMMETRIC_SIZE", "0", "4K"},
        {"SHMEM_REDUCE_LARGE_SIZE", "1Q", "1"},
        {"SHMEM_BCAST_ALGORITHM", "Binomial", "linear"},
        {"SHMEM_SCAN_ALGORITHM", "hillis", "linear"},
        {"SHMEM_LOCAL_RANK", "-1", "3"},
        {"SHMEM_DEVICE_TIMEOUT_MS", "10ms", "10"},
        {"SHMEM_PROGRESS_INTERVAL", "0", "1"},
        {"SHMEM_PROGRESS_INTERVAL", "1000001", "1000000"},
        {"SHMEM_TRANSPORTS", "ucz", "ucx"},
        {"SHMEM_TRANSPORTS", "ucx,", "none"},
        {"SHMEM_TRANSPORTS", "ucx,,ucx", "ucx,ucx"},
        {"SHMEM_TRANSPORTS", "UCX", "ucx"},
    };
    for (const Case &c : cases) {
        setenv(c.name, c.bad, 1);
        int bad = shmemi_env_find_invalid(&why);
        ASSERT_GE(bad, 0) << c.name << "=" << c.bad;
        EXPECT_STREQ(shmemi_env_vars[bad].name, c.name);
        setenv(c.name, c.good, 1);
        EXPECT_EQ(shmemi_env_find_invalid(&why), -1) << c.name << "=" << c.good;
        unsetenv(c.name);
    }
}

// docs/environment.md lists every variable of the table.
TEST(EnvTable, Documented) {
    std::ifstream in(DOCS_ENVIRONMENT);
    std::stringstream docs;
    docs << in.rdbuf();
    ASSERT_FALSE(docs.str().empty()) << DOCS_ENVIRONMENT;
    for (size_t i = 0; i < shmemi_env_n_vars; i++)
        EXPECT_NE(docs.str().find(std::string("`") + shmemi_env_vars[i].name + "`"),
                  std::string::npos)
            << shmemi_env_vars[i].name << " is missing from docs/environment.md";
}

} // namespace
