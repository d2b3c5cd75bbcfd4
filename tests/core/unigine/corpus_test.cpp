// Every real Unigine file in the corpus. They are other versions than the documented ones
// (MANIFEST: mr02, ms10, ms11, ms14 meshes, an10 animations). All are decoded (layouts from the
// files themselves, see format.md); a version we do not know must be recognised and refused
// with an error that names its version (broken_test.cpp), never crash or produce garbage.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "meshscope/core/decode.h"
#include "support/test_support.h"

using namespace meshscope;

TEST(UnigineCorpus, EveryRealFileDecodesOrIsRefusedNamingItsVersion) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto dir = corpus / "unigine";
    if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "SKIPPED: no corpus/unigine";
    std::set<std::string> versions, decoded;
    std::size_t files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        const auto ext = e.path().extension().string();
        if (ext != ".mesh" && ext != ".anim" && ext != ".smesh" && ext != ".sanim") continue;
        ++files;
        const auto bytes = test::readFile(e.path());
        ASSERT_GE(bytes.size(), 4u) << e.path();
        const std::string signature(bytes.begin(), bytes.begin() + 4);
        const DecodeResult r = decodeFile(e.path().string());
        SCOPED_TRACE(e.path().string());
        EXPECT_EQ(r.asset.format, "unigine");
        EXPECT_EQ(r.asset.version, signature);
        if (signature == "mi08" || signature == "ms08" || signature == "as08" ||
            signature == "mr02" || signature == "ms10" || signature == "ms11" ||
            signature == "ms14" || signature == "an10") {
            decoded.insert(signature);
            ASSERT_TRUE(r.ok()) << r.error->toString();
            EXPECT_EQ(r.asset.warningCount(), 0u);
            EXPECT_TRUE(!r.asset.meshes.empty() || !r.asset.animations.empty());
            for (const auto& range : r.asset.byteMap.ranges())
                EXPECT_NE(range.kind, RangeKind::Unparsed) << range.offset;
            continue;
        }
        versions.insert(signature);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error->code, "unsupported-version");
        EXPECT_EQ(r.error->offset, 0u);
        EXPECT_NE(r.error->message.find("version " + signature + " is not supported"),
                  std::string::npos)
            << r.error->message;
        EXPECT_TRUE(r.asset.meshes.empty());
    }
    // MANIFEST lists 19 Unigine files of these five versions.
    EXPECT_GE(files, 19u);
    EXPECT_TRUE(versions.empty());
    EXPECT_EQ(decoded, (std::set<std::string>{"an10", "mr02", "ms10", "ms11", "ms14"}));
}

namespace {
const std::filesystem::path kLegacy = "unigine/4DA_Unigine-legacy/data";
}

TEST(UnigineCorpus, Mr02BoxIsACube) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto path = corpus / kLegacy / "physic/meshes/box.mesh";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "SKIPPED: no " << path;
    const DecodeResult r = decodeFile(path.string());
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_EQ(r.asset.version, "mr02");
    ASSERT_EQ(r.asset.meshes.size(), 1u);
    const Mesh& m = r.asset.meshes[0];
    // The name is readable in the file's first bytes; a cube is 6 faces × 2 triangles.
    EXPECT_EQ(m.name, "pCubeShape1");
    EXPECT_EQ(m.vertexCount(), 36u);
    EXPECT_EQ(m.triangleCount(), 12u);
    // File size = 8 + 128 + 4 + 36 × 32 (MANIFEST: 1,292 bytes).
    EXPECT_EQ(r.asset.fileSize, 1292u);
    // 0x3e333333 = 0.175: a cube centred on the origin.
    EXPECT_FLOAT_EQ(m.bounds.min.x, -0.175f);
    EXPECT_FLOAT_EQ(m.bounds.max.y, 0.175f);
    EXPECT_FLOAT_EQ(m.bounds.max.z, 0.175f);
    ASSERT_EQ(m.uv0.size(), 36u);
    for (const Vec3& n : m.normals)
        EXPECT_NEAR(std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z), 1, 1e-5);
    // Each triangle of a cube face has one normal along an axis.
    EXPECT_NEAR(std::fabs(m.normals[0].x) + std::fabs(m.normals[0].y) + std::fabs(m.normals[0].z),
                1, 1e-5);
}

TEST(UnigineCorpus, Mr02LampSurfacesAndPrefixes) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto path = corpus / kLegacy / "physic/lamp/lamp.mesh";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "SKIPPED: no " << path;
    const auto bytes = test::readFile(path);
    const DecodeResult r = decodeBytes(bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    // Surface count 5 at offset 4; the names are readable in the file.
    std::vector<std::string> names;
    for (const auto& m : r.asset.meshes) names.push_back(m.name);
    EXPECT_EQ(names, (std::vector<std::string>{"start", "Bone02", "Bone03", "Bone04", "end"}));
    std::size_t vertices = 0;
    for (const auto& m : r.asset.meshes) vertices += m.vertexCount();
    EXPECT_EQ(8 + 5 * (128 + 4) + vertices * 32, bytes.size());
    // Every prefix fails cleanly, at or before its end.
    for (std::size_t n = 4; n < bytes.size(); n += 7) {
        const DecodeResult p = decodeBytes(ByteSpan(bytes.data(), n));
        ASSERT_FALSE(p.ok()) << n;
        EXPECT_LE(p.error->offset, n);
    }
}

TEST(UnigineCorpus, RobloxMeshesAreNotTakenForUnigine) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto dir = corpus / "roblox-mesh";
    if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "SKIPPED: no corpus/roblox-mesh";
    const FormatDecoder* unigine = nullptr;
    for (const auto& d : decoders())
        if (std::string(d.id) == "unigine") unigine = &d;
    ASSERT_NE(unigine, nullptr);
    std::size_t files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        ++files;
        EXPECT_EQ(unigine->probe(test::readFile(e.path())), 0) << e.path();
    }
    EXPECT_GT(files, 0u);
}
