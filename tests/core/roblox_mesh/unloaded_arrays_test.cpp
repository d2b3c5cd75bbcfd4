// DecodeOptions::loadGeometry false (the CLI's `info`, `tree` and `map`): the FileMesh decoder
// checks and scans the plain vertex and face arrays where they lie instead of loading them. What
// it reports must be what a full decode reports — counts, bounds, LODs, surfaces, skin, nodes,
// every diagnostic, and the same error at the same offset — for real files, for every version the
// writer makes, and for broken copies (cut short, an index out of range, a NaN position).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "meshscope/core/decode.h"
#include "roundtrip_support.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

namespace fs = std::filesystem;

DecodeResult decodeLean(const Bytes& bytes) {
    DecodeOptions o;
    o.loadGeometry = false;
    return decodeBytes(bytes, o);
}

bool sameFloat(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool sameVec(const Vec3& a, const Vec3& b) {
    return sameFloat(a.x, b.x) && sameFloat(a.y, b.y) && sameFloat(a.z, b.z);
}

// `lean` decoded with loadGeometry false reports what `full` does; `what` names the case.
void expectSameReport(const DecodeResult& full, const DecodeResult& lean, const std::string& what) {
    SCOPED_TRACE(what);
    ASSERT_EQ(full.ok(), lean.ok())
        << (full.ok() ? lean.error->toString() : full.error->toString());
    if (!full.ok()) {
        EXPECT_EQ(full.error->code, lean.error->code);
        EXPECT_EQ(full.error->offset, lean.error->offset);
        EXPECT_EQ(full.error->toString(), lean.error->toString());
    }
    const Asset &a = full.asset, &b = lean.asset;
    ASSERT_EQ(a.diagnostics.size(), b.diagnostics.size());
    for (std::size_t i = 0; i < a.diagnostics.size(); ++i)
        EXPECT_EQ(a.diagnostics[i].toString(), b.diagnostics[i].toString()) << "diagnostic " << i;
    ASSERT_EQ(a.nodes.size(), b.nodes.size());
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        EXPECT_EQ(a.name(int(i)), b.name(int(i)));
        EXPECT_EQ(a.kind(int(i)), b.kind(int(i)));
        EXPECT_EQ(a.nodes[i].offset, b.nodes[i].offset);
        EXPECT_EQ(a.nodes[i].length, b.nodes[i].length);
        EXPECT_EQ(a.properties(int(i)).size(), b.properties(int(i)).size());
    }
    EXPECT_EQ(a.skeletons.size(), b.skeletons.size());
    EXPECT_EQ(a.facs.size(), b.facs.size());
    ASSERT_EQ(a.meshes.size(), b.meshes.size());
    for (std::size_t i = 0; i < a.meshes.size(); ++i) {
        const Mesh &m = a.meshes[i], &n = b.meshes[i];
        EXPECT_FALSE(m.unloaded.has_value()) << "a full decode loads";
        EXPECT_EQ(m.vertexCount(), n.vertexCount());
        EXPECT_EQ(m.triangleCount(), n.triangleCount());
        EXPECT_EQ(m.indexCount(), n.indexCount());
        EXPECT_EQ(m.lodOffsets, n.lodOffsets);
        ASSERT_EQ(m.lods.size(), n.lods.size());
        for (std::size_t l = 0; l < m.lods.size(); ++l) {
            EXPECT_EQ(m.lods[l].name, n.lods[l].name);
            EXPECT_EQ(m.lods[l].firstTriangle, n.lods[l].firstTriangle);
            EXPECT_EQ(m.lods[l].triangleCount, n.lods[l].triangleCount);
        }
        ASSERT_EQ(m.surfaces.size(), n.surfaces.size());
        for (std::size_t s = 0; s < m.surfaces.size(); ++s) {
            EXPECT_EQ(m.surfaces[s].firstTriangle, n.surfaces[s].firstTriangle);
            EXPECT_EQ(m.surfaces[s].triangleCount, n.surfaces[s].triangleCount);
            EXPECT_EQ(m.surfaces[s].firstVertex, n.surfaces[s].firstVertex);
            EXPECT_EQ(m.surfaces[s].vertexCount, n.surfaces[s].vertexCount);
        }
        EXPECT_EQ(m.bounds.valid(), n.bounds.valid());
        if (m.bounds.valid() && n.bounds.valid()) {
            EXPECT_TRUE(sameVec(m.bounds.min, n.bounds.min));
            EXPECT_TRUE(sameVec(m.bounds.max, n.bounds.max));
        }
        EXPECT_EQ(m.skinned(), n.skinned());
        ASSERT_EQ(m.skin.size(), n.skin.size());
        for (std::size_t v = 0; v < m.skin.size(); ++v)
            for (int k = 0; k < 4; ++k) {
                ASSERT_EQ(m.skin[v].joints[k], n.skin[v].joints[k]) << "vertex " << v;
                ASSERT_TRUE(sameFloat(m.skin[v].weights[k], n.skin[v].weights[k]));
            }
        EXPECT_EQ(m.skeleton, n.skeleton);
        EXPECT_EQ(m.facs, n.facs);
        if (n.unloaded) {
            EXPECT_TRUE(n.positions.empty() && n.normals.empty() && n.uv0.empty() &&
                        n.tangents.empty() && n.colors.empty() && n.indices.empty())
                << "an unloaded mesh holds no arrays";
        }
    }
}

TEST(FileMeshUnloaded, EveryRealFileReportsWhatAFullDecodeReports) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    std::size_t files = 0, unloaded = 0, bigVertices = 0;
    for (const auto& entry : fs::recursive_directory_iterator(corpus / "roblox-mesh")) {
        if (!entry.is_regular_file()) continue;
        const Bytes bytes = test::readFile(entry.path());
        const DecodeResult full = decodeBytes(bytes);
        const DecodeResult lean = decodeLean(bytes);
        expectSameReport(full, lean, entry.path().string());
        ++files;
        if (lean.asset.meshes.empty()) continue;
        const Mesh& m = lean.asset.meshes[0];
        const int major = lean.asset.version.empty() ? 0 : lean.asset.version[0] - '0';
        // v2 to v6 store plain arrays (left in the file); v1 text and v7 Draco are loaded.
        EXPECT_EQ(m.unloaded.has_value(), major >= 2 && major <= 6) << entry.path();
        unloaded += m.unloaded.has_value();
        if (m.unloaded) bigVertices = std::max(bigVertices, m.vertexCount());
    }
    EXPECT_GE(files, 22u);
    EXPECT_GE(unloaded, 13u) << "the v2 to v5 files";
    EXPECT_GT(bigVertices, 5000u);
}

TEST(FileMeshUnloaded, EveryWrittenVersionAndItsBrokenCopiesReportTheSame) {
    const Asset skinned = makeSkinnedCylinder(3, 10, 12);
    const Asset lods = makeLodSphere(3, 10, 14);
    for (const std::string& version : test::writerVersions()) {
        for (const Asset* source : {&skinned, &lods}) {
            FileMeshWriteOptions o;
            o.version = version;
            o.vertexColors = source == &lods;  // v2.00: 36-byte records for the cylinder
            const Bytes good = test::writeOrFail(*source, o);
            const std::string what = version + (source == &lods ? " LOD sphere" : " cylinder");
            const DecodeResult full = decodeBytes(good);
            ASSERT_TRUE(full.ok()) << what << ": " << full.error->toString();
            expectSameReport(full, decodeLean(good), what);

            // Cut short: every prefix near the start and a sample of the rest (each array is cut
            // mid-record at some of them).
            for (std::size_t n = 0; n < good.size(); n += n < 160 ? 1 : 13) {
                const Bytes cut(good.begin(), good.begin() + std::ptrdiff_t(n));
                expectSameReport(decodeBytes(cut), decodeLean(cut),
                                 what + " cut to " + std::to_string(n));
            }
            if (test::majorOf(version) == 7) continue;  // Draco: no plain arrays to break

            // The plain arrays, where the full decode mapped them.
            std::uint64_t vertices = 0, faces = 0;
            for (std::size_t i = 0; i < full.asset.nodes.size(); ++i) {
                if (full.asset.kind(int(i)) == "vertices") vertices = full.asset.nodes[i].offset;
                if (full.asset.kind(int(i)) == "faces") faces = full.asset.nodes[i].offset;
            }
            ASSERT_GT(vertices, 0u) << what;
            ASSERT_GT(faces, 0u) << what;
            const std::size_t stride = version == "2.00" && !o.vertexColors ? 36 : 40;

            Bytes badIndex = good;
            const std::uint32_t past = 1u << 20;
            std::memcpy(&badIndex[faces + 12 * 7 + 8], &past, 4);
            const DecodeResult badFull = decodeBytes(badIndex);
            ASSERT_FALSE(badFull.ok()) << what;
            EXPECT_EQ(badFull.error->offset, faces + 12 * 7 + 8) << what;
            expectSameReport(badFull, decodeLean(badIndex), what + ", index out of range");

            Bytes nan = good;
            const float q = std::numeric_limits<float>::quiet_NaN();
            std::memcpy(&nan[vertices + stride * 5 + 4], &q, 4);
            std::memcpy(&nan[vertices + stride * 9], &q, 4);
            const DecodeResult nanFull = decodeBytes(nan);
            ASSERT_TRUE(nanFull.ok()) << what;
            ASSERT_FALSE(nanFull.asset.diagnostics.empty()) << what << ": NaN warned";
            expectSameReport(nanFull, decodeLean(nan), what + ", NaN positions");

            Bytes noTangent = good;
            std::memset(&noTangent[vertices + stride * 2 + 32], 0, 4);
            expectSameReport(decodeBytes(noTangent), decodeLean(noTangent),
                             what + ", a vertex without a tangent");
        }
    }
}

TEST(FileMeshUnloaded, ARealFileWithABadIndexFailsAtTheSameByte) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    Bytes bytes = test::readFile(corpus / "roblox-mesh/krakow10_rbx_mesh/meshes/torso.mesh");
    ASSERT_FALSE(bytes.empty());
    // v2.00, 12-byte header, 42 vertices of 36 bytes, then the faces.
    const std::size_t faces = 13 + 12 + 42 * 36;
    const std::uint32_t bad = 9123;
    std::memcpy(&bytes[faces + 12 * 5 + 4], &bad, 4);
    const DecodeResult lean = decodeLean(bytes);
    ASSERT_FALSE(lean.ok());
    EXPECT_EQ(lean.error->offset, faces + 12 * 5 + 4);
    EXPECT_NE(lean.error->message.find("face index 9123 >= vertex count 42"), std::string::npos)
        << lean.error->message;
}

}  // namespace
}  // namespace meshscope
