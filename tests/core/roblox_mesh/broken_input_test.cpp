// Broken FileMesh input made from real files: every prefix (v1, v2, v3, v4, v5, v7) fails cleanly
// with an offset inside the prefix or decodes partially; counts larger than the file, a face index
// out of range, flipped bytes inside a Draco stream. Never a crash or a hang.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "meshscope/core/decode.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> corpusFile(const fs::path& corpus, const char* rel) {
    auto bytes = test::readFile(corpus / "roblox-mesh" / rel);
    EXPECT_FALSE(bytes.empty()) << rel;
    return bytes;
}

void everyPrefix(const std::vector<std::uint8_t>& bytes) {
    ASSERT_TRUE(decodeBytes(bytes).ok()) << "the whole file decodes";
    std::size_t failures = 0;
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        const DecodeResult r = decodeBytes(ByteSpan(bytes.data(), n));
        if (r.ok()) continue;  // a chunked file cut between chunks decodes partially
        ++failures;
        ASSERT_LE(r.error->offset, n) << "prefix " << n << ": " << r.error->toString();
        ASSERT_FALSE(r.error->message.empty());
    }
    EXPECT_GT(failures, bytes.size() / 2) << "most prefixes must be refused";
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
// again (2.5 ms each), so every prefix of the whole file would take minutes. Every prefix through
// the end of COREMESH is tested on the file itself; every prefix of what follows is tested on the
// same file with the COREMESH chunk taken out (its real LODS, SKINNING and FACS chunks).
TEST(FileMeshBrokenPrefix, V700DracoSkinnedFacs) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto bytes = corpusFile(corpus, "krakow10_rbx_mesh/meshes/mesh7_100025761449828.bin");
    ASSERT_EQ(std::memcmp(&bytes[13], "COREMESH", 8), 0);
    std::uint32_t size = 0;
    std::memcpy(&size, &bytes[13 + 12], 4);
    const std::size_t coreEnd = 13 + 16 + std::size_t(size);
    ASSERT_LT(coreEnd, bytes.size());
    for (std::size_t n = 0; n <= coreEnd; ++n) {
        const DecodeResult r = decodeBytes(ByteSpan(bytes.data(), n));
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
    EXPECT_EQ(r.error->code, "count-too-large");
    EXPECT_EQ(r.error->offset, 13u + 24u);  // the vertex block after the 24-byte header

    auto v5 = corpusFile(corpus, "krakow10_rbx_mesh/meshes/15256456161");
    putU32(v5, 13 + 28, 0x7FFFFFFFu);  // facsDataSize
    r = decodeBytes(v5);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, "count-too-large");
    EXPECT_FALSE(r.asset.meshes.empty()) << "the mesh read before the failure is kept";

    // v7 SKINNING: numSkinnings at chunk payload start.
    auto v7 = corpusFile(corpus, "krakow10_rbx_mesh/meshes/mesh7_100025761449828.bin");
    const std::size_t skinning = 51622;  // SKINNING chunk header (struct script)
    ASSERT_EQ(std::memcmp(&v7[skinning], "SKINNING", 8), 0);
    putU32(v7, skinning + 16, 0x40000000u);
    r = decodeBytes(v7);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, "count-too-large");
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
    EXPECT_EQ(r.error->code, "index-out-of-range");
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
    std::size_t failures = 0;
    for (std::size_t i = 33; i < 33 + length; ++i) {
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
    EXPECT_EQ(r.error->code, "draco");
    EXPECT_EQ(r.error->offset, 33u);
}

}  // namespace
}  // namespace meshscope
