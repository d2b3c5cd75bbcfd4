// Broken FileMesh input made from real files: prefixes (v1, v2, v3, v4, v5, v7; every one near a
// structure boundary and a deterministic sample of the rest) fail cleanly with an offset inside
// the prefix or decode partially; counts larger than the file, a face index
// out of range, flipped bytes inside a Draco stream. Never a crash or a hang.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "meshscope/core/decode.h"
#include "meshscope/core/error_codes.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> corpusFile(const fs::path& corpus, const char* rel) {
    auto bytes = test::readFile(corpus / "roblox-mesh" / rel);
    EXPECT_FALSE(bytes.empty()) << rel;
    return bytes;
}

// The prefix lengths tested for a file. Every prefix of a large file costs O(n²) decoding (a
// 174 KB v4.01 file took 13 s, and CI runs the suite under ASan), so the lengths are sampled
// deterministically, keeping every cut that lands in or next to a structure:
//   - every prefix of the first 512 bytes (version line, fixed header, first chunk headers);
//   - every prefix within ±64 bytes of the start and of the end of every range the decoder maps
//     for the whole file (each header field, chunk header, chunk, array, table, payload), so each
//     structure is cut just before, at, inside and just after its boundary;
//   - every 97th prefix in between (97 is prime, so the cuts fall at every phase of the 4-, 12-,
//     36-, 40- and 60-byte records);
//   - the whole file minus 1.
std::vector<std::size_t> prefixLengths(const std::vector<std::uint8_t>& bytes) {
    const DecodeResult whole = decodeBytes(bytes);
    std::vector<bool> take(bytes.size() + 1, false);
    auto window = [&](std::uint64_t at) {
        const std::uint64_t lo = at > 64 ? at - 64 : 0;
        for (std::uint64_t n = lo; n <= at + 64 && n < bytes.size(); ++n) take[n] = true;
    };
    for (std::size_t n = 0; n < bytes.size(); ++n)
        if (n < 512 || n % 97 == 0 || n + 1 == bytes.size()) take[n] = true;
    for (const ByteRange& r : whole.asset.byteMap.ranges()) {
        window(r.offset);
        window(r.end());
    }
    std::vector<std::size_t> out;
    for (std::size_t n = 0; n < bytes.size(); ++n)
        if (take[n]) out.push_back(n);
    return out;
}

void everyPrefix(const std::vector<std::uint8_t>& bytes) {
    ASSERT_TRUE(decodeBytes(bytes).ok()) << "the whole file decodes";
    const std::vector<std::size_t> lengths = prefixLengths(bytes);
    ASSERT_GE(lengths.size(), std::min<std::size_t>(bytes.size(), 512));
    std::size_t failures = 0;
    for (std::size_t n : lengths) {
        const DecodeResult r = decodeBytes(test::ExactPrefix(bytes, n));
        if (r.ok()) continue;  // a chunked file cut between chunks decodes partially
        ++failures;
        ASSERT_LE(r.error->offset, n) << "prefix " << n << ": " << r.error->toString();
        ASSERT_FALSE(r.error->message.empty());
    }
    EXPECT_GT(failures, lengths.size() / 2) << "most prefixes must be refused";
}

#define PREFIX_TEST(name, rel)                \
    TEST(FileMeshBrokenPrefix, name) {        \
        MESHSCOPE_REQUIRE_CORPUS(corpus);     \
        everyPrefix(corpusFile(corpus, rel)); \
    }

PREFIX_TEST(V100Text, "InterrobangInterrogated_2007L/content/fonts/sword.mesh")
PREFIX_TEST(V200, "krakow10_rbx_mesh/meshes/torso.mesh")
PREFIX_TEST(V300, "krakow10_rbx_mesh/meshes/5115672913")
PREFIX_TEST(V401, "krakow10_rbx_mesh/meshes/7665777615")
PREFIX_TEST(V500, "krakow10_rbx_mesh/meshes/15256456161")
PREFIX_TEST(V700Draco, "krakow10_rbx_mesh/meshes/mesh7_127279296594138.bin")

// The skinned v7 head (127 KB): a prefix past its COREMESH chunk decodes the whole Draco stream
// again (2.5 ms each), so every prefix of the whole file would take minutes. The sampled prefixes
// (prefixLengths) through the end of COREMESH are tested on the file itself (a cut COREMESH fails
// at its chunk header, before any Draco work); those of what follows are tested on the same file
// with the COREMESH chunk taken out (its real LODS, SKINNING and FACS chunks).
TEST(FileMeshBrokenPrefix, V700DracoSkinnedFacs) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto bytes = corpusFile(corpus, "krakow10_rbx_mesh/meshes/mesh7_100025761449828.bin");
    ASSERT_EQ(std::memcmp(&bytes[13], "COREMESH", 8), 0);
    std::uint32_t size = 0;
    std::memcpy(&size, &bytes[13 + 12], 4);
    const std::size_t coreEnd = 13 + 16 + std::size_t(size);
    ASSERT_LT(coreEnd, bytes.size());
    std::vector<std::size_t> lengths = prefixLengths(bytes);
    ASSERT_TRUE(std::find(lengths.begin(), lengths.end(), coreEnd) != lengths.end());
    for (std::size_t n : lengths) {
        if (n > coreEnd) break;
        const DecodeResult r = decodeBytes(test::ExactPrefix(bytes, n));
        // Only the bare version line and the cut between chunks decode (partially).
        if (n == 13 || n == coreEnd) {
            EXPECT_TRUE(r.ok()) << "prefix " << n;
            continue;
        }
        ASSERT_FALSE(r.ok()) << "prefix " << n;
        ASSERT_LE(r.error->offset, n) << "prefix " << n << ": " << r.error->toString();
    }
    std::vector<std::uint8_t> rest(bytes.begin(), bytes.begin() + 13);
    rest.insert(rest.end(), bytes.begin() + std::ptrdiff_t(coreEnd), bytes.end());
    const DecodeResult whole = decodeBytes(rest);
    ASSERT_TRUE(whole.ok()) << whole.error->toString();
    EXPECT_EQ(whole.asset.skeletons.at(0).bones.size(), 52u);
    EXPECT_EQ(whole.asset.facs.size(), 1u);
    everyPrefix(rest);
}

void putU32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
    std::memcpy(&b[at], &v, 4);
}

TEST(FileMeshBroken, CountsLargerThanTheFile) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    auto v4 = corpusFile(corpus, "krakow10_rbx_mesh/meshes/7665777615");
    putU32(v4, 13 + 4, 0xFFFFFFFFu);  // numVerts
    auto r = decodeBytes(v4);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kCountTooLarge);
    EXPECT_EQ(r.error->offset, 13u + 24u);  // the vertex block after the 24-byte header

    auto v5 = corpusFile(corpus, "krakow10_rbx_mesh/meshes/15256456161");
    putU32(v5, 13 + 28, 0x7FFFFFFFu);  // facsDataSize
    r = decodeBytes(v5);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kCountTooLarge);
    EXPECT_FALSE(r.asset.meshes.empty()) << "the mesh read before the failure is kept";

    // v7 SKINNING: numSkinnings at chunk payload start.
    auto v7 = corpusFile(corpus, "krakow10_rbx_mesh/meshes/mesh7_100025761449828.bin");
    const std::size_t skinning = 51622;  // SKINNING chunk header (struct script)
    ASSERT_EQ(std::memcmp(&v7[skinning], "SKINNING", 8), 0);
    putU32(v7, skinning + 16, 0x40000000u);
    r = decodeBytes(v7);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kCountTooLarge);
    EXPECT_EQ(r.error->offset, skinning + 20);
}

TEST(FileMeshBroken, FaceIndexOutOfRangeInARealFile) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    auto bytes = corpusFile(corpus, "krakow10_rbx_mesh/meshes/torso.mesh");
    // v2.00, 12-byte header, 42 vertices of 36 bytes, then the faces.
    const std::size_t faces = 13 + 12 + 42 * 36;
    putU32(bytes, faces + 12 * 5 + 4, 9123);  // faces[5].b
    const auto r = decodeBytes(bytes);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kIndexOutOfRange);
    EXPECT_EQ(r.error->offset, faces + 12 * 5 + 4);
    EXPECT_NE(r.error->message.find("face index 9123 >= vertex count 42"), std::string::npos)
        << r.error->message;
}

TEST(FileMeshBroken, FlippedBytesInsideTheDracoStream) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto good = corpusFile(corpus, "krakow10_rbx_mesh/meshes/mesh7_127279296594138.bin");
    // COREMESH v2 payload: chunk header at 13, u32 Draco length at 29, the stream from 33.
    std::uint32_t length = 0;
    std::memcpy(&length, &good[29], 4);
    ASSERT_EQ(std::memcmp(&good[33], "DRACO", 5), 0);
    // Every byte of the stream's first 512 (header, metadata, connectivity start) is flipped, then
    // every 7th byte (the whole stream took 8.6 s; CI runs the suite under ASan).
    std::size_t failures = 0;
    for (std::size_t i = 33; i < 33 + length; i += (i < 33 + 512 ? 1 : 7)) {
        for (std::uint8_t mask : {0xFF, 0x01}) {
            auto bytes = good;
            bytes[i] ^= mask;
            const DecodeResult r = decodeBytes(bytes);
            if (r.ok()) continue;  // some bytes only change values
            ++failures;
            ASSERT_LE(r.error->offset, bytes.size()) << r.error->toString();
        }
    }
    EXPECT_GT(failures, 0u);
    // The magic itself: refused with the payload's offset.
    auto bytes = good;
    bytes[33] = 'X';
    const auto r = decodeBytes(bytes);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kDraco);
    EXPECT_EQ(r.error->offset, 33u);
}

}  // namespace
}  // namespace meshscope
