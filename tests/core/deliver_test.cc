/* SPDX-License-Identifier: BSD-3-Clause */
// Delivery (src/core/deliver.c): a peer's operation on this PE's host segment is applied in place;
// on a segment host code cannot load (a GPU heap) it goes to the segment's own mapping transport
// with this PE as the target; a range outside the segment or a misaligned AMO is refused. A put
// started on GPU memory runs until the segment's transport says it is done, from a pinned buffer
// of delivery's own.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>

extern "C" {
#include "core/shmemi.h"

shmemi_state_t shmemi_state;
shmemi_route_t *shmemi_routes;

void shmemi_fatal(const char *call, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", call);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

void *shmemi_host_shared_alloc(size_t size) {
    return calloc(1, size);
}

void shmemi_host_shared_free(void *ptr) {
    free(ptr);
}
}

namespace {

constexpr int kMe = 1;
alignas(64) unsigned char host_seg[256];
alignas(64) unsigned char device_seg[256]; // stands in for GPU memory: reached only through ops
char *host_peers[2];
char *device_peers[2];

struct Call {
    const char *what;
    int segment;
    size_t offset;
    size_t len;
    int pe;
    shmemi_amo_op_t op;
} last;

shmemi_status_t dev_put(shmemi_transport_ctx_t *, int s, size_t off, const void *src, size_t len,
                        int pe) {
    last = {"put", s, off, len, pe, SHMEMI_AMO_FETCH};
    memcpy(device_seg + off, src, len);
    return SHMEMI_OK;
}

shmemi_status_t dev_get(shmemi_transport_ctx_t *, void *dest, int s, size_t off, size_t len,
                        int pe) {
    last = {"get", s, off, len, pe, SHMEMI_AMO_FETCH};
    memcpy(dest, device_seg + off, len);
    return SHMEMI_OK;
}

shmemi_status_t dev_amo(shmemi_transport_ctx_t *, shmemi_amo_op_t op, int s, size_t off,
                        uint64_t *fetch_p, uint64_t operand, uint64_t, size_t size, int pe) {
    last = {"amo", s, off, size, pe, op};
    uint64_t old = 0;
    memcpy(&old, device_seg + off, size);
    uint64_t now = op == SHMEMI_AMO_ADD ? old + operand : operand;
    memcpy(device_seg + off, &now, size);
    if (fetch_p)
        *fetch_p = old;
    return SHMEMI_OK;
}

// A started put: copied only once the test lets it finish (running_copy done).
struct {
    unsigned char *dest;
    const void *src;
    size_t len;
} running_copy;

shmemi_status_t dev_put_nbi(shmemi_transport_ctx_t *, int s, size_t off, const void *src,
                            size_t len, int pe) {
    last = {"put_nbi", s, off, len, pe, SHMEMI_AMO_FETCH};
    running_copy = {device_seg + off, src, len};
    return SHMEMI_OK;
}

int dev_test(shmemi_transport_ctx_t *) {
    return running_copy.dest == nullptr;
}

void finish_running_copy() {
    memcpy(running_copy.dest, running_copy.src, running_copy.len);
    running_copy = {};
}

shmemi_transport_ops_t device_ops() {
    shmemi_transport_ops_t ops;
    memset(&ops, 0, sizeof(ops));
    ops.name = "device";
    ops.put = dev_put;
    ops.put_nbi = dev_put_nbi;
    ops.test = dev_test;
    ops.get = dev_get;
    ops.amo = dev_amo;
    return ops;
}
const shmemi_transport_ops_t dev_ops = device_ops();

class Deliver : public ::testing::Test {
  protected:
    void SetUp() override {
        memset(host_seg, 0, sizeof(host_seg));
        memset(device_seg, 0, sizeof(device_seg));
        last = {};
        running_copy = {};
        shmemi_state.my_pe = kMe;
        shmemi_state.n_pes = 2;
        shmemi_state.n_segments = 2;
        host_peers[kMe] = reinterpret_cast<char *>(host_seg);
        device_peers[kMe] = nullptr;
        shmemi_state.segments[0] = {reinterpret_cast<char *>(device_seg), sizeof(device_seg),
                                    device_peers, &dev_ops};
        shmemi_state.segments[1] = {reinterpret_cast<char *>(host_seg), sizeof(host_seg),
                                    host_peers, &dev_ops};
    }
};

TEST_F(Deliver, HostSegmentInPlace) {
    const char data[] = "delivered";
    ASSERT_EQ(shmemi_deliver_put(1, 16, data, sizeof(data)), SHMEMI_OK);
    EXPECT_STREQ(reinterpret_cast<char *>(host_seg + 16), data);
    char back[sizeof(data)] = {};
    ASSERT_EQ(shmemi_deliver_get(1, 16, back, sizeof(back)), SHMEMI_OK);
    EXPECT_STREQ(back, data);
    uint64_t old = 99;
    ASSERT_EQ(shmemi_deliver_amo(1, 64, SHMEMI_AMO_ADD, 5, 0, 8, &old), SHMEMI_OK);
    ASSERT_EQ(shmemi_deliver_amo(1, 64, SHMEMI_AMO_ADD, 7, 0, 8, &old), SHMEMI_OK);
    EXPECT_EQ(old, 5u);
    uint64_t word;
    memcpy(&word, host_seg + 64, 8);
    EXPECT_EQ(word, 12u);
    ASSERT_EQ(shmemi_deliver_amo(1, 72, SHMEMI_AMO_CSWAP, 3, 0, 4, &old), SHMEMI_OK);
    uint32_t w32;
    memcpy(&w32, host_seg + 72, 4);
    EXPECT_EQ(w32, 3u);
    EXPECT_EQ(last.what, nullptr); // the segment's transport was not involved
}

TEST_F(Deliver, DeviceSegmentThroughItsTransportToThisPe) {
    const uint64_t v = 0x1122334455667788ull;
    ASSERT_EQ(shmemi_deliver_put(0, 8, &v, 8), SHMEMI_OK);
    EXPECT_STREQ(last.what, "put");
    EXPECT_EQ(last.pe, kMe);
    EXPECT_EQ(last.segment, 0);
    EXPECT_EQ(last.offset, 8u);
    uint64_t back = 0;
    ASSERT_EQ(shmemi_deliver_get(0, 8, &back, 8), SHMEMI_OK);
    EXPECT_STREQ(last.what, "get");
    EXPECT_EQ(back, v);
    uint64_t old = 0;
    ASSERT_EQ(shmemi_deliver_amo(0, 8, SHMEMI_AMO_ADD, 1, 0, 8, &old), SHMEMI_OK);
    EXPECT_STREQ(last.what, "amo");
    EXPECT_EQ(last.pe, kMe);
    EXPECT_EQ(last.op, SHMEMI_AMO_ADD);
    EXPECT_EQ(old, v);
}

TEST_F(Deliver, RefusesWhatIsNotInTheSegment) {
    char buf[16] = {};
    EXPECT_EQ(shmemi_deliver_put(1, 250, buf, 16), SHMEMI_ERR_INVALID);
    EXPECT_EQ(shmemi_deliver_get(0, 256, buf, 1), SHMEMI_ERR_INVALID);
    EXPECT_EQ(shmemi_deliver_put(2, 0, buf, 1), SHMEMI_ERR_INVALID);
    EXPECT_EQ(shmemi_deliver_put(-1, 0, buf, 1), SHMEMI_ERR_INVALID);
    EXPECT_EQ(shmemi_deliver_put(1, SIZE_MAX, buf, 2), SHMEMI_ERR_INVALID);
    EXPECT_EQ(shmemi_deliver_amo(1, 4, SHMEMI_AMO_ADD, 1, 0, 8, nullptr), SHMEMI_ERR_INVALID);
    EXPECT_EQ(shmemi_deliver_amo(1, 0, SHMEMI_AMO_ADD, 1, 0, 2, nullptr), SHMEMI_ERR_UNSUPPORTED);
    EXPECT_EQ(last.what, nullptr);
}

TEST_F(Deliver, WhichSegmentsAreDelivered) {
    shmemi_net_delivered[0] = 1;
    EXPECT_TRUE(shmemi_deliver_segment_delivered(0));
    EXPECT_FALSE(shmemi_deliver_segment_delivered(1));
    EXPECT_FALSE(shmemi_deliver_segment_delivered(-1));
    EXPECT_FALSE(shmemi_deliver_segment_delivered(SHMEMI_MAX_SEGMENTS));
    shmemi_net_delivered[0] = 0;
}

TEST_F(Deliver, StartedPutOnDeviceSegmentRunsFromAPinnedBuffer) {
    EXPECT_EQ(shmemi_deliver_buffer(0, 16), nullptr); // nothing delivered yet: no buffers
    shmemi_net_delivered[0] = 1;
    shmemi_net_delivered[1] = 1;
    shmemi_deliver_init();
    EXPECT_EQ(shmemi_deliver_test(), 1);              // nothing started
    EXPECT_EQ(shmemi_deliver_buffer(1, 16), nullptr); // host memory: the plug-in's own will do
    EXPECT_EQ(shmemi_deliver_buffer(0, sizeof(device_seg) + 1), nullptr);
    auto *b = static_cast<char *>(shmemi_deliver_buffer(0, 16));
    ASSERT_NE(b, nullptr);
    memcpy(b, "started put 0123", 16);
    ASSERT_EQ(shmemi_deliver_put_start(0, 32, b, 16), SHMEMI_OK);
    EXPECT_STREQ(last.what, "put_nbi");
    EXPECT_EQ(last.pe, kMe);
    EXPECT_EQ(last.offset, 32u);
    EXPECT_EQ(shmemi_deliver_test(), 0);
    finish_running_copy();
    EXPECT_EQ(shmemi_deliver_test(), 1);
    EXPECT_EQ(memcmp(device_seg + 32, "started put 0123", 16), 0);
    shmemi_deliver_buffer_free(b);
    // On a host segment it is applied at once.
    last = {};
    ASSERT_EQ(shmemi_deliver_put_start(1, 0, "host", 5), SHMEMI_OK);
    EXPECT_STREQ(reinterpret_cast<char *>(host_seg), "host");
    EXPECT_EQ(last.what, nullptr);
    EXPECT_EQ(shmemi_deliver_put_start(0, 250, b, 16), SHMEMI_ERR_INVALID);
    shmemi_deliver_finalize();
    shmemi_net_delivered[0] = shmemi_net_delivered[1] = 0;
}

TEST_F(Deliver, BuffersRunOutAndComeBack) {
    shmemi_net_delivered[0] = 1;
    shmemi_deliver_init();
    std::vector<void *> taken;
    for (void *b; (b = shmemi_deliver_buffer(0, 64)) != nullptr && taken.size() < 1000;)
        taken.push_back(b);
    EXPECT_GE(taken.size(), 8u);
    EXPECT_LT(taken.size(), 1000u);
    std::sort(taken.begin(), taken.end());
    EXPECT_EQ(std::adjacent_find(taken.begin(), taken.end()), taken.end()); // each lent once
    shmemi_deliver_buffer_free(taken.back());
    EXPECT_EQ(shmemi_deliver_buffer(0, 64), taken.back());
    for (void *b : taken)
        shmemi_deliver_buffer_free(b);
    shmemi_deliver_finalize();
    EXPECT_EQ(shmemi_deliver_buffer(0, 64), nullptr);
    shmemi_net_delivered[0] = 0;
}

} // namespace
