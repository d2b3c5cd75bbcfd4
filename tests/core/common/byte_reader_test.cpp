// Byte reader, byte map and registry basics.
#include "io/byte_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>

#include "io/decompress.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/error_codes.h"

using namespace meshscope;

TEST(ByteReader, ReadsLittleEndianAndFailsWithOffsetAndPath) {
    const std::vector<std::uint8_t> data{0x01, 0x02, 0x03, 0x04, 0x05};
    Asset asset;
    DecodeOptions opts;
    DecodeContext ctx(data, opts, asset);
    auto scope = ctx.scope("header");
    ByteReader r(ctx, data, 0x100);
    EXPECT_EQ(r.u16(), 0x0201);
    EXPECT_EQ(r.offset(), 0x102u);
    try {
        r.u32("numVerts");
        FAIL() << "expected a failure";
    } catch (const DecodeFailure& f) {
        EXPECT_EQ(f.error.code, errc::kTruncated);
        EXPECT_EQ(f.error.offset, 0x102u);
        EXPECT_EQ(f.error.context, "header");
        EXPECT_NE(f.error.message.find("numVerts"), std::string::npos);
    }
}

// The path is kept between reads (DecodeContext::path caches it): it must follow every push and
// pop, including a pop and a push back to the same depth and a segment put together by a
// function, and the byte map's ranges get the path of their moment.
TEST(DecodeContext, PathFollowsEveryPushAndPop) {
    const std::vector<std::uint8_t> data(64, 0);
    Asset asset;
    DecodeOptions opts;
    DecodeContext ctx(data, opts, asset);
    EXPECT_EQ(ctx.path(), "");
    auto outer = ctx.scope("PROP");
    ctx.mapRange(0, 4, RangeKind::Chunk);
    ctx.mapRange(0, 2, RangeKind::Field, "a");
    EXPECT_EQ(ctx.path(), "PROP");
    {
        auto inner = ctx.scope("first");
        ctx.mapRange(2, 2, RangeKind::Field, "b");
        EXPECT_EQ(ctx.path(), std::string("PROP") + kPathSeparator + "first");
    }
    EXPECT_EQ(ctx.path(), "PROP");
    {
        auto empty = ctx.scope("");  // adds nothing
        EXPECT_EQ(ctx.path(), "PROP");
    }
    {
        static const std::string text = "Part.Size";
        auto fn = ctx.scopeWith(
            [](std::string& out, const void* arg) { out += *static_cast<const std::string*>(arg); },
            &text);
        ctx.mapRange(4, 2, RangeKind::Field, "c");
        EXPECT_EQ(ctx.path(), std::string("PROP") + kPathSeparator + "Part.Size");
    }
    {
        auto second = ctx.scope("second");  // the same depth as "first" had
        ctx.warn(8, "w", "message");
        EXPECT_EQ(ctx.path(), std::string("PROP") + kPathSeparator + "second");
    }
    ctx.mapRange(6, 2, RangeKind::Field);
    const auto& ranges = asset.byteMap.ranges();
    ASSERT_EQ(ranges.size(), 5u);
    const std::string sep = kPathSeparator;
    EXPECT_EQ(ranges[0].path, "PROP");
    EXPECT_EQ(ranges[1].path, "PROP" + sep + "a");
    EXPECT_EQ(ranges[2].path, "PROP" + sep + "first" + sep + "b");
    EXPECT_EQ(ranges[3].path, "PROP" + sep + "Part.Size" + sep + "c");
    EXPECT_EQ(ranges[4].path, "PROP");
    ASSERT_EQ(asset.diagnostics.size(), 1u);
    EXPECT_EQ(asset.diagnostics[0].context, "PROP" + sep + "second");
}

TEST(ByteReader, CountCheckedBeforeAllocation) {
    const std::vector<std::uint8_t> data(16, 0);
    Asset asset;
    DecodeOptions opts;
    DecodeContext ctx(data, opts, asset);
    ByteReader r(ctx, data);
    std::vector<std::uint32_t> out;
    EXPECT_THROW(r.readArray(out, 0xFFFFFFFFu, "faces"), DecodeFailure);
    EXPECT_TRUE(out.empty());
    r.readArray(out, 4, "faces");
    EXPECT_EQ(out.size(), 4u);
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, UnmappedReaderReportsBlockOffset) {
    const std::vector<std::uint8_t> data(3, 0);
    Asset asset;
    DecodeOptions opts;
    DecodeContext ctx(data, opts, asset);
    ByteReader r(ctx, data, 0x40, /*mapped=*/false);
    r.u16();
    try {
        r.u16();
        FAIL();
    } catch (const DecodeFailure& f) {
        EXPECT_EQ(f.error.offset, 0x40u);
        EXPECT_NE(f.error.message.find("+0x2"), std::string::npos);
    }
}

TEST(ByteMap, FinalizeFillsGapsAndFindsInnermost) {
    ByteMap map;
    map.add(4, 8, "chunk", RangeKind::Chunk);
    map.add(6, 2, "chunk › field", RangeKind::Field);
    map.finalize(16);
    ASSERT_EQ(map.size(), 4u);  // [0,4) unparsed, chunk, field, [12,16) unparsed
    EXPECT_EQ(map.ranges()[0].kind, RangeKind::Unparsed);
    EXPECT_EQ(map.ranges()[map.innermostAt(7)].path, "chunk › field");
    EXPECT_EQ(map.ranges()[map.innermostAt(9)].path, "chunk");
    EXPECT_EQ(map.stackAt(7).size(), 2u);
    EXPECT_EQ(map.ranges()[map.innermostAt(13)].kind, RangeKind::Unparsed);
}

// Gaps are merged in as a stable sort of the ranges and the gaps together would place them
// (decoder ranges before a gap at the same offset and length), on random maps.
TEST(ByteMap, FinalizeMergesGapsAsAStableSortWould) {
    std::mt19937 rng(28);
    for (int round = 0; round < 200; ++round) {
        const std::uint64_t fileSize = 1 + rng() % 400;
        ByteMap map;
        std::vector<ByteRange> want;
        const int n = int(rng() % 30);
        for (int i = 0; i < n; ++i) {
            const std::uint64_t offset = rng() % (fileSize + 20), length = rng() % 60;
            const std::string path = "r" + std::to_string(i);
            map.add(offset, length, path, RangeKind::Field);
            if (length && offset < fileSize)
                want.push_back(
                    {offset, std::min(length, fileSize - offset), {}, RangeKind::Field, i});
        }
        const auto before = [](const ByteRange& a, const ByteRange& b) {
            return a.offset != b.offset ? a.offset < b.offset : a.length > b.length;
        };
        std::stable_sort(want.begin(), want.end(), before);
        std::vector<ByteRange> gaps;
        std::uint64_t covered = 0;
        for (const ByteRange& r : want) {
            if (r.offset > covered)
                gaps.push_back({covered, r.offset - covered, {}, RangeKind::Unparsed, -1});
            covered = std::max(covered, r.end());
        }
        if (covered < fileSize)
            gaps.push_back({covered, fileSize - covered, {}, RangeKind::Unparsed, -1});
        want.insert(want.end(), gaps.begin(), gaps.end());
        std::stable_sort(want.begin(), want.end(), before);

        map.finalize(fileSize);
        ASSERT_EQ(map.size(), want.size()) << "round " << round;
        for (std::size_t k = 0; k < want.size(); ++k) {
            const ByteRange& got = map.ranges()[k];
            EXPECT_EQ(got.offset, want[k].offset) << round << ": " << k;
            EXPECT_EQ(got.length, want[k].length) << round << ": " << k;
            EXPECT_EQ(got.kind, want[k].kind) << round << ": " << k;
            if (want[k].kind == RangeKind::Field)
                EXPECT_EQ(got.path, "r" + std::to_string(want[k].node)) << round << ": " << k;
        }
    }
}

// Paths live in the map's own text blocks: they outlive the strings they were made from, a
// copy of the map has its own (valid after the original is gone), and a moved-from map is empty
// and can be filled again.
TEST(ByteMap, PathsAreTheMapsOwnAcrossCopiesAndMoves) {
    auto map = std::make_unique<ByteMap>();
    {
        std::string parent = "PROP Part.Size";
        map->add(0, 4, parent, "values", RangeKind::Array);
        map->add(4, 4, parent, {}, RangeKind::Field);
        map->add(8, 4, {}, "chunk header", RangeKind::Header);
        // Enough ranges with long paths to fill several text blocks.
        for (int i = 0; i < 3000; ++i)
            map->add(12 + std::uint64_t(i), 1, std::string(60, char('a' + i % 26)),
                     std::to_string(i), RangeKind::Field);
        parent.assign(parent.size(), '#');  // the map kept no view of it
    }
    EXPECT_EQ(map->ranges()[0].path, "PROP Part.Size › values");
    EXPECT_EQ(map->ranges()[1].path, "PROP Part.Size");
    EXPECT_EQ(map->ranges()[2].path, "chunk header");
    EXPECT_EQ(map->ranges()[2999 + 3].path, std::string(60, char('a' + 2999 % 26)) + " › 2999");

    ByteMap copy = *map;
    ByteMap assigned;
    assigned.add(0, 1, "old", RangeKind::Field);
    assigned = copy;
    map.reset();
    for (const ByteMap* m : {&copy, &assigned}) {
        ASSERT_EQ(m->size(), 3003u);
        EXPECT_EQ(m->ranges()[0].path, "PROP Part.Size › values");
        EXPECT_EQ(m->ranges()[1500 + 3].path, std::string(60, char('a' + 1500 % 26)) + " › 1500");
    }

    ByteMap moved = std::move(copy);
    EXPECT_EQ(moved.ranges()[2].path, "chunk header");
    EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is defined empty
    copy.add(0, 2, "again", "x", RangeKind::Field);
    EXPECT_EQ(copy.ranges()[0].path, "again › x");
    EXPECT_EQ(moved.ranges()[0].path, "PROP Part.Size › values");
}

TEST(Decompress, ZlibBombIsCappedByBudget) {
    // 64 MiB of zeros compresses to ~64 KiB; a 100-byte "file" has an 8 MiB budget.
    std::vector<std::uint8_t> file(100, 0);
    Asset asset;
    DecodeOptions opts;
    DecodeContext ctx(file, opts, asset);
    // Build a zlib stream of many zeros with zlib itself via the gzip-free path.
    std::vector<std::uint8_t> zeros(64 << 20, 0);
    extern std::vector<std::uint8_t> testCompressZlib(const std::vector<std::uint8_t>&);
    auto z = testCompressZlib(zeros);
    try {
        inflateZlib(ctx, z, 10);
        FAIL() << "expected the budget to refuse";
    } catch (const DecodeFailure& f) {
        EXPECT_EQ(f.error.code, errc::kLimit);
        EXPECT_EQ(f.error.offset, 10u);
    }
}

TEST(Registry, UnknownContentAndLfsPointerAreNamed) {
    const std::string lfs = "version https://git-lfs.github.com/spec/v1\noid sha256:abc\n";
    auto r = decodeBytes({reinterpret_cast<const std::uint8_t*>(lfs.data()), lfs.size()});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error->message.find("Git LFS pointer"), std::string::npos);
    auto e = decodeBytes({});
    ASSERT_FALSE(e.ok());
    EXPECT_NE(e.error->message.find("empty"), std::string::npos);
}

TEST(Registry, UnknownContentSaysWhichFormatsWereTried) {
    const std::uint8_t junk[] = {0xa3, 0x1c, 0x06, 0xbd, 0x00, 0x11, 0x22, 0x33};
    auto r = decodeBytes(junk);
    ASSERT_FALSE(r.ok());
    const std::string& m = r.error->message;
    EXPECT_NE(m.find("first bytes a3 1c 06 bd"), std::string::npos) << m;
    // Every registered format is named, so that a new decoder shows up without editing this.
    for (const auto& d : decoders()) EXPECT_NE(m.find(d.name), std::string::npos) << d.name;
}
