// Roblox model writer round trips (every type id, each chunk compression, a generated place) and
// the value helpers checked against the document's worked examples.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_model_writer.h"
#include "model_compare.h"

namespace meshscope {
namespace {

Bytes hex(const char* s) {
    Bytes b;
    unsigned v;
    int n;
    while (std::sscanf(s, " %2x%n", &v, &n) == 1) {
        b.push_back(std::uint8_t(v));
        s += n;
    }
    return b;
}

// ---- value helpers against the document's examples -------------------------------------------

TEST(RobloxModelValues, RobloxFloatOfDocumentExample) {
    // "-0.15625 ... Roblox 7c 40 00 01" (big-endian)
    EXPECT_EQ(rbx::robloxFloat(0x7c400001u), -0.15625f);
    EXPECT_EQ(rbx::robloxFloatBits(-0.15625f), 0x7c400001u);
}

TEST(RobloxModelValues, ZigzagOfDocument) {
    EXPECT_EQ(rbx::zigzag32(1), 2u);
    EXPECT_EQ(rbx::zigzag32(-1), 1u);
    EXPECT_EQ(rbx::unzigzag32(3), -2);
    EXPECT_EQ(rbx::unzigzag64(0xffffffffffffffffull), INT64_MIN);
}

TEST(RobloxModelValues, InterleavedBrickColorsOfDocument) {
    // Really red (1004), Bright green (37), Really blue (1010): 00 00 00 00 00 00 03 00 03 EC 25 F2
    const Bytes in = hex("00 00 00 00 00 00 03 00 03 EC 25 F2");
    Bytes out(12);
    rbx::deinterleave(in.data(), 3, 4, out.data());
    EXPECT_EQ(rbx::loadBe32(out.data()), 1004u);
    EXPECT_EQ(rbx::loadBe32(out.data() + 4), 37u);
    EXPECT_EQ(rbx::loadBe32(out.data() + 8), 1010u);
    Bytes back(12);
    rbx::interleave(out.data(), 3, 4, back.data());
    EXPECT_EQ(back, in);
}

TEST(RobloxModelValues, SpecialRotationsMatchTheEulerTable) {
    // The document's table: id -> (x, y, z) degrees applied Y -> X -> Z, i.e. R = Ry·Rx·Rz.
    struct Row {
        std::uint8_t id;
        double x, y, z;
    };
    const Row rows[] = {
        {0x02, 0, 0, 0},     {0x03, 90, 0, 0},     {0x05, 0, 180, 180},  {0x06, -90, 0, 0},
        {0x07, 0, 180, 90},  {0x09, 0, 90, 90},    {0x0a, 0, 0, 90},     {0x0c, 0, -90, 90},
        {0x0d, -90, -90, 0}, {0x0e, 0, -90, 0},    {0x10, 90, -90, 0},   {0x11, 0, 90, 180},
        {0x14, 0, 180, 0},   {0x15, -90, -180, 0}, {0x17, 0, 0, 180},    {0x18, 90, 180, 0},
        {0x19, 0, 0, -90},   {0x1b, 0, -90, -90},  {0x1c, 0, -180, -90}, {0x1e, 0, 90, -90},
        {0x1f, 90, 90, 0},   {0x20, 0, 90, 0},     {0x22, -90, 90, 0},   {0x23, 0, -90, 180}};
    auto mul = [](const std::array<double, 9>& a, const std::array<double, 9>& b) {
        std::array<double, 9> r{};
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                for (int k = 0; k < 3; ++k) r[i * 3 + j] += a[i * 3 + k] * b[k * 3 + j];
        return r;
    };
    for (const Row& row : rows) {
        SCOPED_TRACE(int(row.id));
        const double d = 3.14159265358979323846 / 180;
        const double cx = std::cos(row.x * d), sx = std::sin(row.x * d);
        const double cy = std::cos(row.y * d), sy = std::sin(row.y * d);
        const double cz = std::cos(row.z * d), sz = std::sin(row.z * d);
        const std::array<double, 9> rx{1, 0, 0, 0, cx, -sx, 0, sx, cx};
        const std::array<double, 9> ry{cy, 0, sy, 0, 1, 0, -sy, 0, cy};
        const std::array<double, 9> rz{cz, -sz, 0, sz, cz, 0, 0, 0, 1};
        const auto expected = mul(mul(ry, rx), rz);
        const auto m = rbx::specialRotation(row.id);
        ASSERT_TRUE(m.has_value());
        for (int i = 0; i < 9; ++i) EXPECT_NEAR((*m)[i], expected[i], 1e-9) << "element " << i;
        EXPECT_EQ(rbx::specialRotationId(*m), row.id);
    }
    int valid = 0;
    for (int id = 0; id < 256; ++id) valid += rbx::specialRotation(std::uint8_t(id)).has_value();
    EXPECT_EQ(valid, 24);
}

// ---- writer round trips ----------------------------------------------------------------------

DecodeResult decode(const Bytes& b) {
    return decodeBytes(b, {.fileName = "generated.rbxm"});
}

void expectSame(const Asset& a, const Asset& b, double tolerance) {
    test::CompareOptions o;
    o.tolerance = tolerance;
    test::TreeComparer cmp(a, b, o);
    const auto diffs = cmp.run();
    EXPECT_TRUE(diffs.empty()) << test::joinDiffs(diffs);
    EXPECT_EQ(a.nodes.size(), b.nodes.size());
}

TEST(RobloxModelWriter, EveryTypeIdRoundTrips) {
    const Asset generated = makeRobloxTypesModel();
    std::set<std::string> types;
    for (std::size_t i = 0; i < generated.nodes.size(); ++i)
        for (const auto& p : generated.ownProperties(int(i))) types.insert(p.type);
    for (std::uint8_t id = 1; id <= rbx::kLastTypeId; ++id)
        EXPECT_TRUE(types.count(rbx::typeName(id))) << int(id);

    for (auto compression : {RobloxChunkCompression::Lz4, RobloxChunkCompression::Zstd,
                             RobloxChunkCompression::None}) {
        SCOPED_TRACE(int(compression));
        RobloxModelWriteOptions o;
        o.compression = compression;
        const auto w = writeRobloxModel(generated, o);
        ASSERT_TRUE(w.ok());
        EXPECT_TRUE(w.warnings.empty());
        const DecodeResult first = decode(w.bytes);
        ASSERT_TRUE(first.ok()) << first.error->toString();
        EXPECT_EQ(first.asset.warningCount(), 0u);
        expectSame(generated, first.asset, 1e-6);  // generated doubles pass through float32
        // decode -> encode -> decode gives exactly the same tree and values.
        const auto again = writeRobloxModel(first.asset, o);
        ASSERT_TRUE(again.ok());
        const DecodeResult second = decode(again.bytes);
        ASSERT_TRUE(second.ok());
        expectSame(first.asset, second.asset, 0.0);
        EXPECT_EQ(again.bytes, writeRobloxModel(second.asset, o).bytes);
    }
}

TEST(RobloxModelWriter, ServiceFlagAndNamesSurvive) {
    const auto w = writeRobloxModel(makeRobloxTypesModel());
    const DecodeResult r = decode(w.bytes);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.asset.roots().size(), 1u);
    const int ws = r.asset.roots()[0];
    EXPECT_EQ(r.asset.kind(ws), "Workspace");
    EXPECT_TRUE(r.asset.nodes[ws].service);
    ASSERT_EQ(r.asset.children(ws).size(), 1u);
    const int folder = r.asset.children(ws)[0];
    EXPECT_EQ(r.asset.name(folder), "AllTypes");
    EXPECT_FALSE(r.asset.nodes[folder].service);
    ASSERT_EQ(r.asset.children(folder).size(), 3u);
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(r.asset.name(r.asset.children(folder)[i]), "Holder" + std::to_string(i));
}

TEST(RobloxModelWriter, QuaternionCFramesUseType0x11) {
    RobloxModelWriteOptions o;
    o.compression = RobloxChunkCompression::None;
    o.quaternionCFrames = true;
    const Asset generated = makeRobloxTypesModel();
    const auto w = writeRobloxModel(generated, o);
    ASSERT_TRUE(w.ok());
    // Raw chunks: the PROP header "Pivot" is followed by its type byte.
    const std::string_view s(reinterpret_cast<const char*>(w.bytes.data()), w.bytes.size());
    const auto at = s.find("Pivot");
    ASSERT_NE(at, std::string_view::npos);
    EXPECT_EQ(std::uint8_t(s[at + 5]), 0x11);
    const DecodeResult r = decode(w.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    expectSame(generated, r.asset, 1e-6);
}

TEST(RobloxModelWriter, RawChunksMapPropertyBytes) {
    RobloxModelWriteOptions o;
    o.compression = RobloxChunkCompression::None;
    const auto w = writeRobloxModel(makeRobloxTypesModel(), o);
    const DecodeResult r = decode(w.bytes);
    ASSERT_TRUE(r.ok());
    // int32 "Count" of Holder0 is INT32_MIN: its 4 interleaved bytes lie in the property range.
    for (std::size_t i = 0; i < r.asset.nodes.size(); ++i) {
        if (r.asset.name(int(i)) != "Holder0") continue;
        const auto p = r.asset.property(int(i), "Count");
        ASSERT_TRUE(p.has_value());
        EXPECT_EQ(p->length, 12u);  // 3 instances × 4 bytes
        EXPECT_EQ(std::get<std::int64_t>(p->value), INT32_MIN);
    }
    int unparsed = 0;
    for (const auto& range : r.asset.byteMap.ranges())
        unparsed += range.kind == RangeKind::Unparsed;
    EXPECT_EQ(unparsed, 0);
}

// Each chunk's framing ranges are named by its chunk name, whether the path is put together
// (an unknown chunk) or static text (the known ones), and a copy of the map reads the same.
TEST(RobloxModelWriter, ChunkFramingRangesNameTheirChunk) {
    for (const auto compression : {RobloxChunkCompression::None, RobloxChunkCompression::Lz4,
                                   RobloxChunkCompression::Zstd}) {
        SCOPED_TRACE(int(compression));
        RobloxModelWriteOptions o;
        o.compression = compression;
        Bytes file = writeRobloxModel(makeRobloxTypesModel(), o).bytes;
        // An unknown raw chunk "XY\x01" (4 bytes of body) before the END chunk.
        const std::size_t end = file.size() - 16 - 9;  // END's header and its "</roblox>" body
        ASSERT_EQ(std::memcmp(file.data() + end, "END", 3), 0);
        const Bytes unknown = hex("58 59 01 00 00000000 04000000 00000000 01020304");
        file.insert(file.begin() + std::ptrdiff_t(end), unknown.begin(), unknown.end());
        const DecodeResult r = decode(file);
        ASSERT_TRUE(r.ok()) << r.error->toString();
        const std::string sep = kPathSeparator;
        const auto& ranges = r.asset.byteMap.ranges();
        int chunks = 0, payloads = 0;
        bool sawUnknown = false;
        for (std::size_t i = 0; i < ranges.size(); ++i) {
            if (ranges[i].kind != RangeKind::Chunk) continue;
            ++chunks;
            std::string name(reinterpret_cast<const char*>(file.data() + ranges[i].offset), 4);
            name.erase(name.find_last_not_of('\0') + 1);
            if (name == "XY\x01") {
                name = "XY\\x01";  // printable
                sawUnknown = true;
            }
            EXPECT_EQ(ranges[i].path, name);
            ASSERT_LT(i + 1, ranges.size());
            EXPECT_EQ(ranges[i + 1].path, name + sep + "chunk header");
            EXPECT_EQ(ranges[i + 1].offset, ranges[i].offset);
            std::uint32_t compressed;
            std::memcpy(&compressed, file.data() + ranges[i].offset + 4, 4);
            if (compressed == 0) continue;
            ++payloads;
            ASSERT_LT(i + 2, ranges.size());
            EXPECT_EQ(
                ranges[i + 2].path,
                name + sep +
                    (compression == RobloxChunkCompression::Zstd ? "ZSTD frame" : "LZ4 block"));
        }
        EXPECT_TRUE(sawUnknown);
        EXPECT_GE(chunks, 5);
        EXPECT_EQ(payloads > 0, compression != RobloxChunkCompression::None);
        const ByteMap copy = r.asset.byteMap;
        ASSERT_EQ(copy.size(), ranges.size());
        for (std::size_t i = 0; i < ranges.size(); ++i)
            EXPECT_EQ(copy.ranges()[i].path, ranges[i].path);
    }
}

TEST(RobloxModelWriter, GeneratedPlaceRoundTrips) {
    const Asset place = makeRobloxPlace(1000);
    const auto w = writeRobloxModel(place);
    ASSERT_TRUE(w.ok());
    const DecodeResult r = decode(w.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_EQ(r.asset.nodes.size(), 1000u + 10u + 2u);  // parts, groups of 100, 2 services
    std::size_t parts = 0;
    for (std::size_t i = 0; i < r.asset.nodes.size(); ++i) parts += r.asset.kind(int(i)) == "Part";
    EXPECT_EQ(parts, 1000u);
    expectSame(place, r.asset, 1e-6);
}

}  // namespace
}  // namespace meshscope
