/* SPDX-License-Identifier: BSD-3-Clause */
// libshmem's defaults for UCX (src/transport/ucx/ucx_config.c): over TCP, UCX's send and receive
// segments become 128 KiB where the environment does not set them, a user's value wins, and
// nothing is applied where UCX_TLS keeps TCP out. The effect is read back from UCX itself: a
// worker on TCP alone takes active-message headers up to about its send segment.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

extern "C" {
#include "transport/ucx/ucx_config.h"
}

namespace {

// Every variable a test sets, cleared before and after each test.
class UcxConfig : public ::testing::Test {
  protected:
    void SetUp() override { Clear(); }
    void TearDown() override { Clear(); }
    static void Clear() {
        unsetenv("UCX_TLS");
        unsetenv("UCX_TCP_TX_SEG_SIZE");
        unsetenv("UCX_TCP_RX_SEG_SIZE");
    }

    // Reads UCX's configuration, applies the defaults (their count in *applied) and returns the
    // largest active-message header of a worker on TCP over loopback: about the send segment.
    static size_t MaxAmHeader(int *applied) {
        setenv("UCX_NET_DEVICES", "lo", 1);
        ucp_config_t *config;
        EXPECT_EQ(ucp_config_read(nullptr, nullptr, &config), UCS_OK);
        const ucx_config_default_t *failed = nullptr;
        *applied = ucx_config_apply_defaults(config, &failed);
        EXPECT_EQ(failed, nullptr);
        ucp_params_t params = {};
        params.field_mask = UCP_PARAM_FIELD_FEATURES;
        params.features = UCP_FEATURE_RMA | UCP_FEATURE_AM;
        ucp_context_h context;
        ucs_status_t st = ucp_init(&params, config, &context);
        ucp_config_release(config);
        EXPECT_EQ(st, UCS_OK);
        if (st != UCS_OK)
            return 0;
        ucp_worker_params_t wparams = {};
        ucp_worker_h worker;
        EXPECT_EQ(ucp_worker_create(context, &wparams, &worker), UCS_OK);
        ucp_worker_attr_t attr = {};
        attr.field_mask = UCP_WORKER_ATTR_FIELD_MAX_AM_HEADER;
        EXPECT_EQ(ucp_worker_query(worker, &attr), UCS_OK);
        ucp_worker_destroy(worker);
        ucp_cleanup(context);
        return attr.max_am_header;
    }
};

TEST_F(UcxConfig, TcpAllowedFollowsTheTransportList) {
    EXPECT_TRUE(ucx_config_tcp_allowed(nullptr));
    EXPECT_TRUE(ucx_config_tcp_allowed(""));
    EXPECT_TRUE(ucx_config_tcp_allowed("tcp"));
    EXPECT_TRUE(ucx_config_tcp_allowed("rc,ud,tcp"));
    EXPECT_TRUE(ucx_config_tcp_allowed("all"));
    EXPECT_TRUE(ucx_config_tcp_allowed("^rc,ud"));
    EXPECT_FALSE(ucx_config_tcp_allowed("^tcp"));
    EXPECT_FALSE(ucx_config_tcp_allowed("^rc,tcp"));
    EXPECT_FALSE(ucx_config_tcp_allowed("posix,self"));
    EXPECT_FALSE(ucx_config_tcp_allowed("tcpx,sm"));
}

TEST_F(UcxConfig, DefaultsApplyWhereUnset) {
    setenv("UCX_TLS", "tcp", 1);
    int applied = 0;
    size_t header = MaxAmHeader(&applied);
    EXPECT_EQ(applied, ucx_config_n_defaults);
    // UCX's own 8 KiB send segment gives about 8 KiB; libshmem's 128 KiB about 128 KiB.
    EXPECT_GT(header, 100u * 1024);
    EXPECT_LE(header, 128u * 1024);
}

TEST_F(UcxConfig, UserValueWins) {
    setenv("UCX_TLS", "tcp", 1);
    setenv("UCX_TCP_TX_SEG_SIZE", "32K", 1);
    int applied = 0;
    size_t header = MaxAmHeader(&applied);
    EXPECT_EQ(applied, ucx_config_n_defaults - 1);
    EXPECT_GT(header, 16u * 1024);
    EXPECT_LE(header, 32u * 1024);
}

TEST_F(UcxConfig, NothingWithoutTcp) {
    setenv("UCX_TLS", "^tcp", 1);
    ucp_config_t *config;
    ASSERT_EQ(ucp_config_read(nullptr, nullptr, &config), UCS_OK);
    const ucx_config_default_t *failed = nullptr;
    EXPECT_EQ(ucx_config_apply_defaults(config, &failed), 0);
    ucp_config_release(config);
}

TEST_F(UcxConfig, EveryDefaultNamesATcpVariable) {
    for (int i = 0; i < ucx_config_n_defaults; i++) {
        std::string env = ucx_config_defaults[i].env, key = ucx_config_defaults[i].key;
        EXPECT_EQ(env, "UCX_TCP_" + key);
    }
}

} // namespace
