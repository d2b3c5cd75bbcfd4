// Every CSG union blob in corpus/csg decodes: format, version, mesh and triangle counts, sane
// bounds, indices in range, a byte map without unparsed bytes. Values checked against rbx_mesh's
// snapshots (an independent decoder): the first vertex of a CSGMDL 2 blob and the first
// attributes of a CSGMDL 5 blob. Physics hulls are closed convex polyhedra, so each must satisfy
// Euler's formula for a triangulated sphere (F = 2V − 4): a check on the Edgebreaker decoder that
// no hard-coded count gives.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_csg.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

namespace fs = std::filesystem;

struct Expected {
    const char* file;
    const char* version;
    std::size_t meshes;
    std::size_t vertices0;  // mesh 0
    std::size_t triangles0;
};

// Counts as our decoder reports them; the graphics counts agree with rbx_mesh's snapshots
// (vertex records and index lists listed there).
const Expected kFiles[] = {
    {"13626979828.meshdata5", "CSGMDL5", 1, 981, 1342},
    {"14846974687_5.meshdata", "CSGMDL5", 1, 103, 68},
    {"385416572.meshdata", "CSGMDL2", 1, 64, 48},
    {"4500696697_4.meshdata", "CSGMDL4", 1, 468, 384},
    {"5692112940_2.meshdata", "CSGMDL2", 1, 58, 36},
    {"CSGK.data", "CSGK", 0, 0, 0},
    {"CSGPHS_3.data", "CSGPHS3", 14, 8, 12},
    {"CSGPHS_5.data", "CSGPHS5", 13, 11, 18},
    {"CSGPHS_8_00.data", "CSGPHS8", 42, 27, 50},
    {"CSGPHS_8_01.data", "CSGPHS8", 62, 11, 18},
    {"CSGPHS_8_02.data", "CSGPHS8", 61, 8, 12},
    {"CSGPHS_8_raw_hulls_206.data", "CSGPHS8", 47, 4, 4},
};

fs::path csgDir(const fs::path& corpus) {
    return corpus / "csg" / "krakow10_rbx_mesh" / "meshes";
}

TEST(CsgCorpus, EveryBlobDecodesWithItsCounts) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    std::size_t seen = 0;
    for (const auto& e : kFiles) {
        SCOPED_TRACE(e.file);
        const fs::path path = csgDir(corpus) / e.file;
        ASSERT_TRUE(fs::exists(path)) << path;
        const DecodeResult r = decodeFile(path.string());
        ASSERT_TRUE(r.ok()) << r.error->toString();
        ++seen;
        EXPECT_EQ(r.asset.format, "roblox-csg");
        EXPECT_EQ(r.asset.version, e.version);
        ASSERT_EQ(r.asset.meshes.size(), e.meshes);
        EXPECT_EQ(r.asset.warningCount(), 0u);
        for (const auto& range : r.asset.byteMap.ranges())
            EXPECT_NE(range.kind, RangeKind::Unparsed) << range.path << " @" << range.offset;
        if (!e.meshes) continue;
        EXPECT_EQ(r.asset.meshes[0].vertexCount(), e.vertices0);
        EXPECT_EQ(r.asset.meshes[0].triangleCount(), e.triangles0);
        for (const Mesh& m : r.asset.meshes) {
            ASSERT_GT(m.triangleCount(), 0u) << m.name;
            for (std::uint32_t i : m.indices) ASSERT_LT(i, m.vertexCount()) << m.name;
            ASSERT_TRUE(m.bounds.valid()) << m.name;
            for (float v : {m.bounds.min.x, m.bounds.min.y, m.bounds.min.z, m.bounds.max.x,
                            m.bounds.max.y, m.bounds.max.z}) {
                EXPECT_TRUE(std::isfinite(v)) << m.name;
                EXPECT_LT(std::fabs(v), 1e4f) << m.name;
            }
        }
    }
    EXPECT_EQ(seen, std::size(kFiles));
}

TEST(CsgCorpus, PhysicsHullsAreClosedPolyhedra) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    std::size_t hulls = 0;
    for (const auto& e : kFiles) {
        if (std::string(e.version).rfind("CSGPHS", 0) != 0) continue;
        const DecodeResult r = decodeFile((csgDir(corpus) / e.file).string());
        ASSERT_TRUE(r.ok());
        for (const Mesh& m : r.asset.meshes) {
            SCOPED_TRACE(std::string(e.file) + " " + m.name);
            // Raw (not Edgebreaker) v8 hulls may be flat: raw hull 0 of raw_hulls_206 is a
            // two-sided quad (4 vertices, 4 triangles). Only their indices are checked (above).
            const auto enc = r.asset.property(m.node, "encoding");
            if (enc && std::get<std::string>(enc->value) == "raw") {
                ++hulls;
                continue;
            }
            // Every vertex used, every edge shared by exactly two triangles, F = 2V − 4.
            std::vector<int> used(m.vertexCount(), 0);
            std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
            for (std::size_t t = 0; t < m.indices.size(); t += 3)
                for (int k = 0; k < 3; ++k) {
                    const std::uint32_t a = m.indices[t + k], b = m.indices[t + (k + 1) % 3];
                    ++used[a];
                    ++edges[{std::min(a, b), std::max(a, b)}];
                }
            for (int u : used) EXPECT_GT(u, 0);
            for (const auto& [edge, n] : edges) EXPECT_EQ(n, 2);
            EXPECT_EQ(m.triangleCount(), 2 * m.vertexCount() - 4);
            ++hulls;
        }
    }
    EXPECT_EQ(hulls, 14u + 13u + 42u + 62u + 61u + 47u);
}

// Values from rbx_mesh's snapshots of the same blobs.
TEST(CsgCorpus, ValuesAgreeWithAnIndependentDecoder) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    {
        const DecodeResult r = decodeFile((csgDir(corpus) / "385416572.meshdata").string());
        ASSERT_TRUE(r.ok());
        const Mesh& m = r.asset.meshes.at(0);
        EXPECT_FLOAT_EQ(m.positions[0].x, 5.5f);
        EXPECT_FLOAT_EQ(m.positions[0].y, 1.5000008f);
        EXPECT_FLOAT_EQ(m.positions[0].z, -5.5f);
        const auto hash = r.asset.property(0, "hash");
        ASSERT_TRUE(hash);
        EXPECT_EQ(std::get<std::string>(hash->value), "784f216c8b49e5f6");
    }
    {
        const DecodeResult r = decodeFile((csgDir(corpus) / "14846974687_5.meshdata").string());
        ASSERT_TRUE(r.ok());
        const Mesh& m = r.asset.meshes.at(0);
        EXPECT_FLOAT_EQ(m.positions[0].x, -11.883789f);
        EXPECT_FLOAT_EQ(m.positions[0].y, -46.875f);
        EXPECT_FLOAT_EQ(m.positions[0].z, -6.916748f);
        ASSERT_EQ(m.normals.size(), m.positions.size());
        EXPECT_NEAR(m.normals[0].y, -1.0f, 1e-4f);
        EXPECT_NEAR(m.normals[0].x, 0.0f, 1e-4f);
        ASSERT_EQ(m.tangents.size(), m.positions.size());
        EXPECT_NEAR(m.tangents[0].x, 1.0f, 1e-4f);
        ASSERT_EQ(m.colors.size(), m.positions.size());
        EXPECT_EQ(m.colors[0], (Rgba8{124, 92, 70, 255}));
        const std::vector<std::uint32_t> first(m.indices.begin(), m.indices.begin() + 7);
        EXPECT_EQ(first, (std::vector<std::uint32_t>{0, 1, 2, 1, 3, 2, 4}));
    }
}

std::vector<std::uint8_t> hexBytes(const std::string& hex) {
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
        out.push_back(std::uint8_t(std::stoi(hex.substr(i, 2), nullptr, 16)));
    return out;
}

// Decode → write gives the blob back byte for byte (normal ids recomputed from the normals,
// the padding written as zeros, the hash and version 4's list carried over).
TEST(CsgCorpus, GraphicsV2V4RoundTripExactly) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    int checked = 0;
    for (const auto& e : kFiles) {
        const std::string v = e.version;
        if (v != "CSGMDL2" && v != "CSGMDL4") continue;
        SCOPED_TRACE(e.file);
        const auto bytes = test::readFile(csgDir(corpus) / e.file);
        const DecodeResult r = decodeBytes(bytes);
        ASSERT_TRUE(r.ok());
        CsgGraphicsWriteOptions o;
        o.version = v == "CSGMDL4" ? 4 : 2;
        o.hash = std::get<std::string>(r.asset.property(0, "hash")->value);
        o.hashExtra = hexBytes(std::get<std::string>(r.asset.property(0, "hashExtra")->value));
        for (std::size_t n = 0; n < r.asset.nodes.size(); ++n)
            if (auto values = r.asset.property(int(n), "values"))
                for (double d : std::get<std::vector<double>>(values->value))
                    o.extra.push_back(std::uint32_t(d));
        const auto ids = r.asset.property(r.asset.meshes.at(0).node, "normalIds");
        ASSERT_TRUE(ids);
        o.normalIds = std::get<Bytes>(ids->value);
        const Bytes written = writeCsgGraphics(r.asset.meshes.at(0), o);
        ASSERT_EQ(written.size(), bytes.size());
        EXPECT_TRUE(written == bytes);
        ++checked;
    }
    EXPECT_EQ(checked, 3);
}

TEST(CsgCorpus, ModelHelperGivesAMeshOrSaysWhy) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto mdl = test::readFile(csgDir(corpus) / "4500696697_4.meshdata");
    const CsgMeshResult a = decodeCsgMesh(mdl);
    ASSERT_TRUE(a.mesh) << a.why;
    EXPECT_EQ(a.format, "CSGMDL4");
    EXPECT_EQ(a.mesh->triangleCount(), 384u);
    const CsgMeshResult k = decodeCsgMesh(test::readFile(csgDir(corpus) / "CSGK.data"));
    EXPECT_FALSE(k.mesh);
    EXPECT_TRUE(k.reference);
    EXPECT_EQ(k.key, "039c79a787bce5e0a0576d6a374a0d1f");
    const CsgMeshResult p = decodeCsgMesh(test::readFile(csgDir(corpus) / "CSGPHS_3.data"));
    ASSERT_TRUE(p.mesh);
    const DecodeResult hulls = decodeFile((csgDir(corpus) / "CSGPHS_3.data").string());
    std::size_t tris = 0;
    for (const Mesh& m : hulls.asset.meshes) tris += m.triangleCount();
    EXPECT_EQ(p.mesh->triangleCount(), tris);
}

}  // namespace
}  // namespace meshscope
