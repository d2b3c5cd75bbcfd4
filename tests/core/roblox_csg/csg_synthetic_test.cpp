// CSG blobs made by the writers (CSGMDL 2/4, CSGPHS 3/5) and by the version 5 assembler in
// tests/support decode to what was written; broken variants fail at the offset the layout says.
#include <gtest/gtest.h>

#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_csg.h"
#include "support/csg_fixtures.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

using test::csg::fixtureMesh;

void expectSameGeometry(const Mesh& a, const Mesh& b, float tol = 0.0f) {
    ASSERT_EQ(a.positions.size(), b.positions.size());
    ASSERT_EQ(a.indices, b.indices);
    for (std::size_t i = 0; i < a.positions.size(); ++i) {
        EXPECT_NEAR(a.positions[i].x, b.positions[i].x, tol);
        EXPECT_NEAR(a.positions[i].y, b.positions[i].y, tol);
        EXPECT_NEAR(a.positions[i].z, b.positions[i].z, tol);
    }
}

TEST(CsgWriter, GraphicsV2AndV4DecodeToWhatWasWritten) {
    const Mesh m = fixtureMesh();
    ASSERT_GT(m.triangleCount(), 10u);
    for (int version : {2, 4}) {
        SCOPED_TRACE(version);
        CsgGraphicsWriteOptions o;
        o.version = version;
        o.extra = {7, 8, 9};
        const Bytes bytes = writeCsgGraphics(m, o);
        ASSERT_EQ(bytes.size(), 10 + 32 + 8 + 84 * m.vertexCount() + 4 + 4 * m.indices.size() +
                                    (version == 4 ? 16 : 0));
        // Obfuscated on disk: the plain magic is not there.
        EXPECT_NE(bytes[0], 'C');
        const DecodeResult r = decodeBytes(bytes);
        ASSERT_TRUE(r.ok()) << r.error->toString();
        EXPECT_EQ(r.asset.format, "roblox-csg");
        EXPECT_EQ(r.asset.version, "CSGMDL" + std::to_string(version));
        ASSERT_EQ(r.asset.meshes.size(), 1u);
        const Mesh& d = r.asset.meshes[0];
        expectSameGeometry(m, d);
        EXPECT_EQ(d.normals, m.normals);
        EXPECT_EQ(d.uv0, m.uv0);
        EXPECT_EQ(d.colors, m.colors);
        EXPECT_EQ(r.asset.warningCount(), 0u);
        // Write again from the decoded mesh: same bytes.
        EXPECT_TRUE(writeCsgGraphics(d, o) == bytes);
    }
    EXPECT_TRUE(writeCsgGraphics(m, {.version = 3}).empty());
}

TEST(CsgWriter, PhysicsV3AndV5HullsRoundTrip) {
    std::vector<Mesh> hulls;
    for (int i = 0; i < 3; ++i) {
        Mesh h = fixtureMesh();
        for (Vec3& p : h.positions) p.x += float(i) * 4;
        hulls.push_back(h);
    }
    for (int version : {3, 5}) {
        const Bytes bytes = writeCsgPhysics(hulls, version);
        const DecodeResult r = decodeBytes(bytes);
        ASSERT_TRUE(r.ok()) << r.error->toString();
        EXPECT_EQ(r.asset.version, "CSGPHS" + std::to_string(version));
        ASSERT_EQ(r.asset.meshes.size(), hulls.size());
        for (std::size_t i = 0; i < hulls.size(); ++i)
            expectSameGeometry(hulls[i], r.asset.meshes[i]);
        EXPECT_EQ(r.asset.warningCount(), 0u);
    }
}

TEST(CsgWriter, GraphicsV5AssembledFromTheLayoutDecodes) {
    const Mesh m = fixtureMesh();
    const Bytes bytes = test::csg::writeMdl5(m);
    const DecodeResult r = decodeBytes(bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_EQ(r.asset.version, "CSGMDL5");
    const Mesh& d = r.asset.meshes.at(0);
    expectSameGeometry(m, d);
    ASSERT_EQ(d.normals.size(), m.normals.size());
    for (std::size_t i = 0; i < d.normals.size(); ++i)
        EXPECT_NEAR(d.normals[i].y, m.normals[i].y, 1.0f / 32767 + 1e-6f);
    EXPECT_EQ(r.asset.warningCount(), 0u);
}

TEST(CsgWriter, V5LargeDeltasAndExtraRanges) {
    // Jumps over 63 take the 3-byte form; a second range after the first is not the mesh.
    Mesh m;
    for (int i = 0; i < 300; ++i) m.positions.push_back({float(i), float(i % 7), 0});
    m.indices = {0, 299, 150, 1, 2, 200, 5, 4, 3};
    const Bytes bytes = test::csg::writeMdl5(m, {0, 6, 9});
    const DecodeResult r = decodeBytes(bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_EQ(r.asset.meshes.at(0).indices, (std::vector<std::uint32_t>{0, 299, 150, 1, 2, 200}));
}

TEST(CsgBroken, IndexPastVerticesFailsAtTheIndex) {
    Mesh m = fixtureMesh();
    m.indices[4] = 100000;
    const Bytes bytes = writeCsgGraphics(m);
    const DecodeResult r = decodeBytes(bytes);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, "index-out-of-range");
    const std::size_t indicesAt = 10 + 32 + 8 + 84 * m.vertexCount() + 4;
    EXPECT_EQ(r.error->offset, indicesAt + 4 * 4);
}

TEST(CsgBroken, TruncatedAnywhereNeverCrashesAndSaysWhere) {
    const Mesh m = fixtureMesh();
    for (const Bytes& full :
         {writeCsgGraphics(m), writeCsgGraphics(m, {.version = 4, .extra = {1, 2}}),
          test::csg::writeMdl5(m), writeCsgPhysics({m, m}, 3)}) {
        for (std::size_t n = 0; n < full.size(); n += 7) {
            const Bytes cut(full.begin(), full.begin() + std::ptrdiff_t(n));
            const DecodeResult r = decodeAs("roblox-csg", cut);
            if (r.ok()) continue;  // a physics blob cut between hulls is whole hulls
            EXPECT_LE(r.error->offset, n) << r.error->toString();
            for (const Mesh& x : r.asset.meshes)
                for (std::uint32_t i : x.indices) ASSERT_LT(i, x.vertexCount());
        }
    }
}

}  // namespace
}  // namespace meshscope
