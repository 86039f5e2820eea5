/* SPDX-License-Identifier: BSD-3-Clause */
// The node structure of teams that span nodes (src/host/coll_hier.c): which members share the
// caller's node, one leader per node (the root on its node), and when the flat algorithms stay.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" {
#include "host/coll_internal.h"

// What coll_hier.c reads of the library, set by each case.
shmemi_route_t *shmemi_routes;
int shmemi_n_nodes;
int shmemi_route_p2p;
shmemi_state_t shmemi_state;
shmemi_coll_config_t shmemi_coll_config;

void shmemi_fatal(const char *call, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "%s: ", call);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::abort();
}
}

namespace {

// A job whose PE pe is on node nodes[pe], seen from PE me.
struct Job {
    std::vector<shmemi_route_t> routes;
    Job(const std::vector<int> &nodes, int me, int p2p = 1, int hierarchy = 1) {
        int n_nodes = 0;
        for (int node : nodes) {
            shmemi_route_t r = {};
            r.node = node;
            routes.push_back(r);
            n_nodes = node + 1 > n_nodes ? node + 1 : n_nodes;
        }
        shmemi_routes = routes.data();
        shmemi_n_nodes = n_nodes;
        shmemi_route_p2p = p2p;
        shmemi_state.my_pe = me;
        shmemi_state.n_pes = (int)nodes.size();
        shmemi_coll_config.hierarchy = hierarchy;
    }
};

shmemi_team_state_t team(int start, int stride, int size, int my_index) {
    shmemi_team_state_t t = {};
    t.in_use = 1;
    t.channel = 5;
    t.start = start;
    t.stride = stride;
    t.size = size;
    t.my_index = my_index;
    return t;
}

std::vector<int> members(const shmemi_team_state_t &v) {
    std::vector<int> pes;
    for (int i = 0; i < v.size; i++)
        pes.push_back(shmemi_team_world_pe(&v, i));
    return pes;
}

TEST(CollHier, TwoNodesOfTwo) {
    for (int me = 0; me < 4; me++) {
        Job job({0, 0, 1, 1}, me);
        shmemi_team_state_t t = team(0, 1, 4, me);
        shmemi_coll_hier_t h;
        shmemi_coll_hier("test", &t, -1, &h);
        ASSERT_TRUE(h.active) << me;
        EXPECT_EQ(members(h.leaders), (std::vector<int>{0, 2}));
        EXPECT_EQ(members(h.local), me < 2 ? (std::vector<int>{0, 1}) : (std::vector<int>{2, 3}));
        EXPECT_EQ(h.local.my_index, me % 2);
        EXPECT_EQ(h.local_leader, 0);
        EXPECT_EQ(h.is_leader, me % 2 == 0);
        if (h.is_leader) {
            EXPECT_EQ(h.leaders.my_index, me / 2);
        }
        // The views share the team's token channel.
        EXPECT_EQ(h.local.channel, 5);
        EXPECT_EQ(h.leaders.channel, 5);
        shmemi_coll_hier_free(&h);
    }
}

// A broadcast's root leads its node in place of the node's first member.
TEST(CollHier, RootLeadsItsNode) {
    for (int me = 0; me < 4; me++) {
        Job job({0, 0, 1, 1}, me);
        shmemi_team_state_t t = team(0, 1, 4, me);
        shmemi_coll_hier_t h;
        shmemi_coll_hier("test", &t, 3, &h);
        ASSERT_TRUE(h.active);
        EXPECT_EQ(members(h.leaders), (std::vector<int>{0, 3}));
        EXPECT_EQ(h.root_leader, 1);
        EXPECT_EQ(h.root_node, me >= 2);
        EXPECT_EQ(h.is_leader, me == 0 || me == 3);
        EXPECT_EQ(h.local_leader, me >= 2 ? 1 : 0);
        shmemi_coll_hier_free(&h);
    }
}

// PEs placed round-robin over 3 nodes of unequal size; a strided team of every second PE in
// reverse order: team members are world PEs 8, 6, 4, 2, 0 on nodes 2, 0, 1, 2, 0.
TEST(CollHier, StridedTeamOverUnevenNodes) {
    std::vector<int> nodes = {0, 1, 2, 0, 1, 2, 0, 1, 2};
    Job job(nodes, 2);
    shmemi_team_state_t t = team(8, -2, 5, 3);
    shmemi_coll_hier_t h;
    shmemi_coll_hier("test", &t, -1, &h);
    ASSERT_TRUE(h.active);
    EXPECT_EQ(members(h.leaders), (std::vector<int>{8, 6, 4}));
    EXPECT_EQ(members(h.local), (std::vector<int>{8, 2}));
    EXPECT_EQ(h.local.my_index, 1);
    EXPECT_FALSE(h.is_leader);
    EXPECT_EQ(h.local_leader, 0);
    shmemi_coll_hier_free(&h);
    // From PE 4, alone on its node in this team: its own leader, a local view of one.
    Job job4(nodes, 4);
    t.my_index = 2;
    shmemi_coll_hier("test", &t, -1, &h);
    ASSERT_TRUE(h.active);
    EXPECT_EQ(members(h.local), (std::vector<int>{4}));
    EXPECT_TRUE(h.is_leader);
    EXPECT_EQ(h.leaders.my_index, 2);
    shmemi_coll_hier_free(&h);
}

// The flat algorithms stay where a hierarchy gains nothing, or is not wanted.
TEST(CollHier, FlatWhereNothingToGain) {
    shmemi_coll_hier_t h;
    {
        Job job({0, 0, 0, 0}, 1); // one node
        shmemi_team_state_t t = team(0, 1, 4, 1);
        shmemi_coll_hier("test", &t, -1, &h);
        EXPECT_FALSE(h.active);
    }
    {
        Job job({0, 1, 2, 3}, 1); // one PE per node
        shmemi_team_state_t t = team(0, 1, 4, 1);
        shmemi_coll_hier("test", &t, -1, &h);
        EXPECT_FALSE(h.active);
    }
    {
        Job job({0, 0, 1, 1}, 2); // a team with one member per node
        shmemi_team_state_t t = team(1, 1, 2, 1);
        shmemi_coll_hier("test", &t, -1, &h);
        EXPECT_FALSE(h.active);
    }
    {
        Job job({0, 0, 1, 1}, 0, 0); // SHMEM_DISABLE_P2P=1: node peers do not map each other
        shmemi_team_state_t t = team(0, 1, 4, 0);
        shmemi_coll_hier("test", &t, -1, &h);
        EXPECT_FALSE(h.active);
    }
    {
        Job job({0, 0, 1, 1}, 0, 1, 0); // SHMEM_COLL_HIERARCHY=off
        shmemi_team_state_t t = team(0, 1, 4, 0);
        shmemi_coll_hier("test", &t, -1, &h);
        EXPECT_FALSE(h.active);
    }
    {
        Job job({0, 0, 1, 1}, 0); // a view is never split again
        shmemi_team_state_t t = team(0, 1, 4, 0);
        shmemi_coll_hier("test", &t, -1, &h);
        ASSERT_TRUE(h.active);
        shmemi_coll_hier_t inner;
        shmemi_coll_hier("test", &h.leaders, -1, &inner);
        EXPECT_FALSE(inner.active);
        shmemi_coll_hier_free(&h);
    }
}

} // namespace
