// InflateAhead: the chunks of a large binary model inflated on a worker thread. Each payload
// comes out whole and in order, however far ahead the worker may run, and every failure (corrupt
// data, a wrong size, the decompression budget) is raised by take() on the calling thread with
// the error InflateBuffer gives for the same payload.
#include <gtest/gtest.h>
#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <thread>
#include <vector>

#include "io/decompress.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/error_codes.h"

namespace meshscope {
namespace {

Bytes pattern(std::size_t size, std::uint32_t seed) {
    Bytes b(size);
    for (std::size_t i = 0; i < size; ++i) {
        seed = seed * 1664525u + 1013904223u;
        b[i] = std::uint8_t(i % 7 == 0 ? seed >> 24 : i / 64);  // compressible, not uniform
    }
    return b;
}

Bytes lz4(const Bytes& in) {
    Bytes out(std::size_t(LZ4_compressBound(int(in.size()))));
    const int n =
        LZ4_compress_default(reinterpret_cast<const char*>(in.data()),
                             reinterpret_cast<char*>(out.data()), int(in.size()), int(out.size()));
    out.resize(std::size_t(n));
    return out;
}

Bytes zstd(const Bytes& in) {
    Bytes out(ZSTD_compressBound(in.size()));
    out.resize(ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3));
    return out;
}

// Payloads laid end to end in one "file", as a model's chunks are.
struct Payloads {
    std::vector<Bytes> plain;
    Bytes file;
    std::vector<InflateAhead::Payload> list;
};

Payloads make(const std::vector<std::size_t>& sizes) {
    Payloads p;
    std::vector<Bytes> packed;
    std::vector<bool> isZstd;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        p.plain.push_back(pattern(sizes[i], std::uint32_t(i + 1)));
        isZstd.push_back(i % 3 == 2);
        packed.push_back(isZstd.back() ? zstd(p.plain.back()) : lz4(p.plain.back()));
    }
    std::vector<std::size_t> at;
    for (const Bytes& b : packed) {
        at.push_back(p.file.size());
        p.file.insert(p.file.end(), b.begin(), b.end());
    }
    for (std::size_t i = 0; i < packed.size(); ++i)
        p.list.push_back({ByteSpan(p.file.data() + at[i], packed[i].size()), p.plain[i].size(),
                          at[i], isZstd[i]});
    return p;
}

std::optional<DecodeError> failureOf(auto&& f) {
    try {
        f();
    } catch (const DecodeFailure& e) {
        return e.error;
    }
    return std::nullopt;
}

// The synchronous reference: what InflateBuffer gives payload i after payloads [0, i).
std::optional<DecodeError> referenceFailure(const Payloads& p, const DecodeOptions& opts,
                                            std::size_t i) {
    Asset asset;
    DecodeContext ctx(p.file, opts, asset);
    InflateBuffer buffer;
    return failureOf([&] {
        for (std::size_t k = 0; k <= i; ++k) {
            const auto& q = p.list[k];
            q.zstd ? buffer.zstd(ctx, q.input, q.expectedSize, q.offset)
                   : buffer.lz4Block(ctx, q.input, q.expectedSize, q.offset);
        }
    });
}

bool twoCores() {
    if (std::thread::hardware_concurrency() >= 2) return true;
    std::printf("[ NOTE     ] one core: InflateAhead inflates on the calling thread here\n");
    return false;
}

TEST(InflateAhead, GivesEveryPayloadWholeAndInOrder) {
    const Payloads p = make({1, 300'000, 17, 64 << 10, 200'000, 5, 1 << 20, 3, 70'000, 0});
    // Worker budgets from "one payload at a time" to "everything at once".
    for (const std::size_t ahead : {std::size_t(1), std::size_t(100'000), std::size_t(64 << 20)}) {
        Asset asset;
        DecodeOptions opts;
        DecodeContext ctx(p.file, opts, asset);
        const std::uint64_t before = ctx.decompressionAllowance();
        InflateAhead inflater(ctx, p.list, ahead);
        EXPECT_EQ(inflater.threaded(), twoCores());
        std::uint64_t total = 0;
        for (std::size_t i = 0; i < p.list.size(); ++i) {
            const ByteSpan out = inflater.take(ctx, i);
            ASSERT_EQ(out.size(), p.plain[i].size()) << "payload " << i << ", ahead " << ahead;
            EXPECT_TRUE(std::equal(out.begin(), out.end(), p.plain[i].begin()))
                << "payload " << i << ", ahead " << ahead;
            total += out.size();
        }
        // Every payload is charged to the file's budget, as InflateBuffer charges it.
        EXPECT_EQ(before - ctx.decompressionAllowance(), total);
    }
}

TEST(InflateAhead, ACorruptPayloadFailsInItsTurnWithInflateBuffersError) {
    for (const std::size_t bad : {std::size_t(3), std::size_t(5)}) {  // an LZ4 and a ZSTD one
        Payloads p = make({1000, 50'000, 2000, 80'000, 10, 90'000, 4000});
        ASSERT_EQ(p.list[bad].zstd, bad == 5);
        // Garbage in the payload (in a ZSTD frame's header, which ZSTD checks; the middle of
        // an LZ4 block); the sizes stay as they were.
        Bytes& file = p.file;
        const std::size_t at =
            std::size_t(p.list[bad].offset) + (p.list[bad].zstd ? 4 : p.list[bad].input.size() / 2);
        for (std::size_t k = 0; k < 32; ++k) file[at + k] = 0xff;
        DecodeOptions opts;
        const std::optional<DecodeError> expected = referenceFailure(p, opts, bad);
        ASSERT_TRUE(expected) << "the reference decoder accepts the corrupt payload " << bad;

        Asset asset;
        DecodeContext ctx(p.file, opts, asset);
        InflateAhead inflater(ctx, p.list, 1 << 20);
        for (std::size_t i = 0; i < bad; ++i) {
            const ByteSpan out = inflater.take(ctx, i);
            EXPECT_TRUE(std::equal(out.begin(), out.end(), p.plain[i].begin())) << i;
        }
        const std::optional<DecodeError> got = failureOf([&] { inflater.take(ctx, bad); });
        ASSERT_TRUE(got) << "payload " << bad << " was accepted";
        EXPECT_EQ(got->code, expected->code);
        EXPECT_EQ(got->offset, expected->offset);
        EXPECT_EQ(got->message, expected->message);
    }
}

TEST(InflateAhead, APayloadSizeThatDisagreesFailsLikeInflateBuffer) {
    Payloads p = make({1000, 5000, 3000});
    p.list[1].expectedSize += 1;  // the chunk header claims one byte more than the data holds
    DecodeOptions opts;
    const std::optional<DecodeError> expected = referenceFailure(p, opts, 1);
    ASSERT_TRUE(expected);
    Asset asset;
    DecodeContext ctx(p.file, opts, asset);
    InflateAhead inflater(ctx, p.list, 1 << 20);
    inflater.take(ctx, 0);
    const std::optional<DecodeError> got = failureOf([&] { inflater.take(ctx, 1); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, errc::kLz4);
    EXPECT_EQ(got->message, expected->message);
    EXPECT_EQ(got->offset, p.list[1].offset);
}

TEST(InflateAhead, ThePayloadThatWouldPassTheBudgetIsRefusedBeforeItIsInflated) {
    const Payloads p = make({40'000, 40'000, 40'000, 40'000});
    DecodeOptions opts;
    opts.limits.maxDecompressedTotal = 100'000;  // the third payload passes it
    const std::optional<DecodeError> expected = referenceFailure(p, opts, 2);
    ASSERT_TRUE(expected);
    EXPECT_EQ(expected->code, errc::kLimit);
    Asset asset;
    DecodeContext ctx(p.file, opts, asset);
    InflateAhead inflater(ctx, p.list, 1 << 20);
    inflater.take(ctx, 0);
    inflater.take(ctx, 1);
    const std::optional<DecodeError> got = failureOf([&] { inflater.take(ctx, 2); });
    ASSERT_TRUE(got);
    EXPECT_EQ(got->code, expected->code);
    EXPECT_EQ(got->offset, expected->offset);
    EXPECT_EQ(got->message, expected->message);
}

TEST(InflateAhead, LeavingEarlyStopsTheWorker) {
    const Payloads p = make({200'000, 200'000, 200'000, 200'000, 200'000, 200'000});
    for (const std::size_t taken : {std::size_t(0), std::size_t(1), std::size_t(4)}) {
        Asset asset;
        DecodeOptions opts;
        DecodeContext ctx(p.file, opts, asset);
        // One payload ahead at most: the worker is waiting for room when the reader leaves.
        InflateAhead inflater(ctx, p.list, 1);
        for (std::size_t i = 0; i < taken; ++i) EXPECT_EQ(inflater.take(ctx, i).size(), 200'000u);
    }  // the destructor returns: the worker was stopped and joined
    SUCCEED();
}

// Jobs run one at a time, in the order posted, after the worker's payloads: each payload still
// comes out whole, and finish() returns once every job has run (on either thread).
TEST(InflateAhead, JobsRunOneAtATimeInOrder) {
    const Payloads p = make({300'000, 200'000, 100'000, 50'000});
    Asset asset;
    DecodeOptions opts;
    DecodeContext ctx(p.file, opts, asset);
    InflateAhead inflater(ctx, p.list, 1 << 20);
    std::vector<int> order;  // written by the jobs alone: one at a time, or TSan says otherwise
    std::atomic<int> inside = 0, most = 0;
    for (int j = 0; j < 8; ++j) {
        inflater.post([&, j] {
            const int now = ++inside;
            most = std::max(most.load(), now);
            order.push_back(j);
            std::this_thread::sleep_for(std::chrono::milliseconds(j % 2));
            --inside;
        });
    }
    for (std::size_t i = 0; i < p.list.size(); ++i) {
        const ByteSpan out = inflater.take(ctx, i);
        ASSERT_TRUE(std::equal(out.begin(), out.end(), p.plain[i].begin())) << i;
    }
    inflater.post([&] { order.push_back(8); });
    inflater.finish();
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
    EXPECT_EQ(most.load(), 1);
}

// With no worker (nothing to inflate), finish() runs the jobs on the calling thread.
TEST(InflateAhead, WithoutAWorkerFinishRunsTheJobsHere) {
    const Payloads p = make({});
    Asset asset;
    DecodeOptions opts;
    DecodeContext ctx(p.file, opts, asset);
    InflateAhead inflater(ctx, p.list, 1 << 20);
    EXPECT_FALSE(inflater.threaded());
    std::vector<std::thread::id> ran;
    inflater.post([&] { ran.push_back(std::this_thread::get_id()); });
    inflater.post([&] { ran.push_back(std::this_thread::get_id()); });
    EXPECT_TRUE(ran.empty());
    inflater.finish();
    EXPECT_EQ(ran, (std::vector<std::thread::id>(2, std::this_thread::get_id())));
}

// discard() forgets the jobs not begun and returns once the one running has ended.
TEST(InflateAhead, DiscardDropsTheJobsNotBegunAndWaitsForTheRunningOne) {
    {
        const Payloads none = make({});
        Asset asset;
        DecodeOptions opts;
        DecodeContext ctx(none.file, opts, asset);
        InflateAhead inflater(ctx, none.list, 1 << 20);  // no worker: nothing runs until finish()
        int ran = 0;
        inflater.post([&] { ++ran; });
        inflater.discard();
        inflater.finish();
        EXPECT_EQ(ran, 0);
    }
    if (!twoCores()) GTEST_SKIP() << "the rest needs the worker thread";
    const Payloads p = make({1000});
    Asset asset;
    DecodeOptions opts;
    DecodeContext ctx(p.file, opts, asset);
    InflateAhead inflater(ctx, p.list, 1 << 20);
    std::atomic<bool> started = false, ended = false, secondRan = false;
    inflater.post([&] {
        started = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        ended = true;
    });
    inflater.post([&] { secondRan = true; });
    inflater.take(ctx, 0);
    while (!started) std::this_thread::yield();
    inflater.discard();
    EXPECT_TRUE(ended) << "discard() returned while a job was running";
    inflater.finish();
    EXPECT_FALSE(secondRan);
}

// Leaving with jobs posted: the one running sees stopping() and returns, the ones not begun are
// dropped, and the destructor returns.
TEST(InflateAhead, LeavingStopsTheRunningJobAndDropsTheRest) {
    if (!twoCores()) GTEST_SKIP() << "needs the worker thread";
    const Payloads p = make({1000});
    std::atomic<bool> started = false, sawStop = false, secondRan = false;
    {
        Asset asset;
        DecodeOptions opts;
        DecodeContext ctx(p.file, opts, asset);
        InflateAhead inflater(ctx, p.list, 1 << 20);
        inflater.post([&] {
            started = true;
            while (!inflater.stopping()) std::this_thread::yield();
            sawStop = true;
        });
        inflater.post([&] { secondRan = true; });
        inflater.take(ctx, 0);
        while (!started) std::this_thread::yield();  // the worker is in the first job
    }
    EXPECT_TRUE(sawStop);
    EXPECT_FALSE(secondRan);
}

}  // namespace
}  // namespace meshscope
