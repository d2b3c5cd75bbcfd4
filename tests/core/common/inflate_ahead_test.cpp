// InflateAhead: the chunks of a large binary model inflated on a worker thread. Each payload
// comes out whole and in order, however far ahead the worker may run, and every failure (corrupt
// data, a wrong size, the decompression budget) is raised by take() on the calling thread with
// the error InflateBuffer gives for the same payload.
#include <gtest/gtest.h>
#include <lz4.h>
#include <zstd.h>

#include <cstdint>
#include <optional>
#include <thread>
#include <vector>

#include "io/decompress.h"
#include "meshscope/core/decode.h"

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
    EXPECT_EQ(got->code, "lz4");
    EXPECT_EQ(got->message, expected->message);
    EXPECT_EQ(got->offset, p.list[1].offset);
}

TEST(InflateAhead, ThePayloadThatWouldPassTheBudgetIsRefusedBeforeItIsInflated) {
    const Payloads p = make({40'000, 40'000, 40'000, 40'000});
    DecodeOptions opts;
    opts.limits.maxDecompressedTotal = 100'000;  // the third payload passes it
    const std::optional<DecodeError> expected = referenceFailure(p, opts, 2);
    ASSERT_TRUE(expected);
    EXPECT_EQ(expected->code, "limit");
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

}  // namespace
}  // namespace meshscope
