// Broken Unigine input: every prefix of each generated file, counts larger than the file,
// negative counts, indices out of range, bad names, unknown versions. Each fails cleanly with
// an offset inside the data, or decodes with a warning.
#include <gtest/gtest.h>

#include "meshscope/core/decode.h"
#include "meshscope/core/error_codes.h"
#include "meshscope/core/unigine_writer.h"
#include "unigine_test_helpers.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

Asset sample() {
    Asset a;
    a.meshes.push_back(makeGrid("one", 2, 1, 0));
    a.meshes.push_back(makeGrid("two", 1, 1, 1));
    Skeleton s;
    s.bones.push_back({"root", -1});
    s.bones.push_back({"tip", 0});
    s.bones[1].world.at(1, 3) = 2;
    a.skeletons.push_back(s);
    for (auto& m : a.meshes)
        m.skin.assign(m.positions.size(), VertexInfluences{{0, 1, 0, 0}, {0.5f, 0.5f, 0, 0}});
    Animation anim;
    anim.frameCount = 3;
    anim.skeleton = 0;
    for (const auto& b : s.bones) {
        BoneTrack t;
        t.bone = b.name;
        for (int f = 0; f < 3; ++f) {
            t.positions.push_back({float(f), 0, 0});
            t.rotations.push_back({0, 0, 0, 1});
            t.scales.push_back({1, 1, 1});
        }
        anim.tracks.push_back(t);
    }
    a.animations.push_back(anim);
    return a;
}

void expectEveryPrefixFailsCleanly(const std::vector<std::uint8_t>& file) {
    ASSERT_TRUE(decode(file).ok());
    for (std::size_t n = 0; n < file.size(); ++n) {
        const std::vector<std::uint8_t> prefix(file.begin(), file.begin() + n);
        const DecodeResult r = decode(prefix);
        ASSERT_FALSE(r.ok()) << "prefix of " << n << " bytes decoded";
        EXPECT_LE(r.error->offset, n) << r.error->toString();
        if (n >= 4) {
            EXPECT_EQ(r.asset.format, "unigine") << "prefix " << n;
            EXPECT_TRUE(r.error->code == errc::kTruncated || r.error->code == errc::kCountTooLarge)
                << "prefix " << n << ": " << r.error->toString();
        }
    }
}

}  // namespace

TEST(UnigineBroken, EveryPrefixOfMeshFailsCleanly) {
    expectEveryPrefixFailsCleanly(writeUnigineMesh(sample()).bytes);
}

TEST(UnigineBroken, EveryPrefixOfSkinnedMeshFailsCleanly) {
    expectEveryPrefixFailsCleanly(writeUnigineSkinnedMesh(sample()).bytes);
}

TEST(UnigineBroken, EveryPrefixOfAnimationFailsCleanly) {
    expectEveryPrefixFailsCleanly(writeUnigineAnimation(sample()).bytes);
}

TEST(UnigineBroken, PrefixKeepsTheSurfacesDecodedBeforeIt) {
    const auto file = writeUnigineMesh(sample()).bytes;
    const std::vector<std::uint8_t> prefix(file.begin(), file.end() - 1);
    const DecodeResult r = decode(prefix);
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.asset.meshes.size(), 1u);  // the first surface is complete
    EXPECT_EQ(r.asset.meshes[0].name, "one");
}

namespace {
// Writes `value` as an int at `offset` of a copy of `file`.
std::vector<std::uint8_t> patched(std::vector<std::uint8_t> file, std::size_t offset,
                                  std::int32_t value) {
    std::memcpy(file.data() + offset, &value, 4);
    return file;
}
}  // namespace

TEST(UnigineBroken, CountsLargerThanTheFile) {
    const auto mesh = writeUnigineMesh(sample()).bytes;
    // Surface count at 44 (after signature and 40 bytes of bounds).
    for (const std::int32_t count : {0x7fffffff, 1000}) {
        const DecodeResult r = decode(patched(mesh, 44, count));
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error->code, errc::kCountTooLarge) << r.error->toString();
        EXPECT_EQ(r.error->offset, 48u);
    }
    // First vertex count: after the two surface headers (4 + 4 + 40 each).
    const std::size_t vertexCountAt = 48 + 2 * (4 + 4 + 40);
    DecodeResult r = decode(patched(mesh, vertexCountAt, 0x10000000));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kCountTooLarge) << r.error->toString();
    EXPECT_LE(r.error->offset, vertexCountAt + 4);
    // Negative counts are refused at the count.
    r = decode(patched(mesh, vertexCountAt, -5));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kBadCount);
    EXPECT_EQ(r.error->offset, vertexCountAt);
    // A name length past the 1024 the document allows.
    r = decode(patched(mesh, 48, 5000));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kBadLength);
    EXPECT_EQ(r.error->offset, 48u);

    const auto smesh = writeUnigineSkinnedMesh(sample()).bytes;
    r = decode(patched(smesh, 4, 0x7fffffff));  // bone count
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kCountTooLarge);
    // Frame count after the bone table: 4 + 4 + ("root" 4 + 5 + 4) + ("tip" 4 + 4 + 4).
    r = decode(patched(smesh, 33, 0x7fffffff));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kCountTooLarge) << r.error->toString();

    const auto sanim = writeUnigineAnimation(sample()).bytes;
    r = decode(patched(sanim, 33 + 32, 0x7fffffff));  // frame count after the bounds
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kCountTooLarge) << r.error->toString();
}

TEST(UnigineBroken, IndicesOutOfRangeAreDroppedWithAWarning) {
    for (const bool wide : {false, true}) {
        Asset a;
        Mesh m;
        m.name = "m";
        const std::size_t vertices = wide ? 70000 : 3;
        m.positions.assign(vertices, Vec3{});
        m.normals.assign(vertices, Vec3{0, 0, 1});
        m.indices = {0, 1, 2, 0, 2, std::uint32_t(vertices + 4), 2, 1, 0};
        a.meshes.push_back(m);
        const DecodeResult r = decode(writeUnigineMesh(a).bytes);
        ASSERT_TRUE(r.ok()) << r.error->toString();
        EXPECT_EQ(r.asset.meshes[0].indices, (std::vector<std::uint32_t>{0, 1, 2, 2, 1, 0}));
        const Diagnostic* d = findWarning(r.asset, "index-out-of-range");
        ASSERT_NE(d, nullptr);
        // The warning points at the second triangle: the index array starts after the count.
        const std::size_t indexBytes = wide ? 4 : 2;
        const std::size_t arrayAt = r.asset.fileSize - 9 * indexBytes;
        EXPECT_EQ(d->offset, arrayAt + 3 * indexBytes);
    }
    // A negative 32-bit index is out of range too.
    Asset a;
    Mesh m;
    m.name = "n";
    m.positions.assign(70000, Vec3{});
    m.indices = {0, 1, 0xffffffffu};
    a.meshes.push_back(m);
    const DecodeResult r = decode(writeUnigineMesh(a).bytes);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r.asset.meshes[0].indices.empty());
    EXPECT_TRUE(hasWarning(r.asset, errc::kIndexOutOfRange));
}

TEST(UnigineBroken, TextureCoordinateCountMismatchAndTrailingBytes) {
    Builder b;
    b.tag("mi08").floats({0, 0, 0, 0, 0, 0, 0, 0, 0, 0}).i32(1);
    b.name("s").floats({0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    b.i32(1).floats({1, 2, 3}).u16(0).u16(0).u16(0);
    b.i32(2).floats({0, 0, 1, 1});  // 2 texture coordinates for 1 vertex
    b.i32(0).i32(0);
    b.u8(0xAA).u8(0xBB);
    const DecodeResult r = decode(b.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_TRUE(hasWarning(r.asset, errc::kUvCountMismatch));
    EXPECT_TRUE(r.asset.meshes[0].uv0.empty());
    const Diagnostic* d = findWarning(r.asset, "trailing-bytes");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->offset, b.size() - 2);
}

TEST(UnigineBroken, OtherVersionsAreRefusedByName) {
    for (const char* v : {"ms09", "ms12", "ms13", "mi07", "an11", "an13", "mr01", "sk11", "sn11"}) {
        std::vector<std::uint8_t> bytes(v, v + 4);
        bytes.resize(64, 0);
        const DecodeResult r = decode(bytes, "x.mesh");
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error->code, errc::kUnsupportedVersion);
        EXPECT_EQ(r.error->offset, 0u);
        EXPECT_NE(r.error->message.find(std::string("version ") + v + " is not supported"),
                  std::string::npos)
            << r.error->message;
        EXPECT_EQ(r.asset.version, v);
    }
}

TEST(UnigineBroken, ForcedDecoderOnForeignBytesFailsCleanly) {
    for (const std::string text : {"", "ms", "version 4.00\n", "\x01\x02\x03\x04\x05"}) {
        const std::vector<std::uint8_t> bytes(text.begin(), text.end());
        const DecodeResult r = decodeAs("unigine", bytes);
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_EQ(r.error->code, errc::kBadSignature) << r.error->toString();
        EXPECT_EQ(r.error->offset, 0u);
    }
}

// --- UNIGINE 2 (ms10 / ms11 / ms14 / an10), from the UNIGINE 2 writers.

TEST(Unigine2Broken, EveryPrefixFailsCleanly) {
    const Asset skinned = unigine2SkinnedAsset(3);
    std::vector<Bytes> files = {writeUnigine2Mesh(unigine2StaticAsset(), "ms10").bytes,
                                writeUnigine2Mesh(skinned, "ms11").bytes,
                                writeUnigine2Mesh(unigine2StaticAsset(), "ms14").bytes,
                                writeUnigine2Mesh(unigine2StaticAsset(), "ms15").bytes,
                                writeUnigine2Mesh(skinned, "sk10").bytes,
                                writeUnigine2Skeleton(skinned, 0).bytes,
                                writeUnigine2AnimationAn12(skinned, 0).bytes,
                                writeUnigine2Animation(skinned, 0).bytes};
    for (const Bytes& b : files) {
        ASSERT_TRUE(decode(b).ok());
        for (std::size_t n = 4; n < b.size(); ++n) {
            const DecodeResult r = decode(Bytes(b.begin(), b.begin() + n));
            ASSERT_FALSE(r.ok()) << std::string(b.begin(), b.begin() + 4) << " cut at " << n;
            EXPECT_LE(r.error->offset, n);
        }
    }
}

TEST(Unigine2Broken, CountsPastTheEndAreRefusedBeforeAllocating) {
    // ms11 plane-like file: signature, bounds (40), bones 0, animations 0, surfaces 1 at 46.
    Bytes b = writeUnigine2Mesh(unigine2StaticAsset(), "ms11").bytes;
    ASSERT_EQ(b[46], 2);
    // A 5-byte compact count of 2^31 - 1 surfaces in place of the 1-byte one.
    Bytes huge(b.begin(), b.begin() + 46);
    for (std::uint8_t x : {0xbf, 0xff, 0xff, 0xff, 0x0f}) huge.push_back(x);
    huge.insert(huge.end(), b.begin() + 47, b.end());
    const DecodeResult r = decode(huge);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, "count-too-large");
    EXPECT_EQ(r.error->offset, 51u);
    // A compact int longer than 5 bytes.
    Bytes endless(b.begin(), b.begin() + 46);
    endless.insert(endless.end(), 8, 0xff);
    const DecodeResult e = decode(endless);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error->code, "bad-int");
    EXPECT_EQ(e.error->offset, 46u);
}

TEST(Unigine2Broken, CorruptLz4BlockFailsAtItsOffset) {
    Asset in;
    in.meshes.push_back(makeGrid("g", 8, 8, 0));  // compressible: stored as LZ4
    Bytes b = writeUnigine2Mesh(in, "ms14").bytes;
    // The geometry block follows the second signature.
    std::size_t at = 4;
    while (std::string(b.begin() + at, b.begin() + at + 4) != "ms14") ++at;
    const std::size_t block = at + 4;
    std::uint64_t usize, csize;
    std::memcpy(&usize, b.data() + block, 8);
    std::memcpy(&csize, b.data() + block + 8, 8);
    ASSERT_LT(csize, usize);
    // A match offset pointing before the start of the output.
    Bytes bad = b;
    bad[block + 16] = 0x0f;  // token: no literals, a match
    bad[block + 17] = 0xff;
    bad[block + 18] = 0xff;
    const DecodeResult r = decode(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->offset, block + 16);
    // The compressed size running past the end of the file.
    Bytes past = b;
    const std::uint64_t big = 1u << 30;
    std::memcpy(past.data() + block + 8, &big, 8);
    const DecodeResult p = decode(past);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error->code, "truncated");
    EXPECT_EQ(p.error->offset, block + 8);
}
