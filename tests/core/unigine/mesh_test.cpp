// mi08 .mesh: a file built by hand from the format document, writer round trips (two surfaces,
// two UV sets, compressed normals, 16- and 32-bit indices) and the byte map.
#include <gtest/gtest.h>

#include "meshscope/core/decode.h"
#include "meshscope/core/unigine_writer.h"
#include "unigine_test_helpers.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

void putBounds(Builder& b, float lo, float hi) {
    b.floats({lo, lo, 0, hi, hi, 0, (lo + hi) / 2, (lo + hi) / 2, 0, 0.75f});
}

// Two surfaces of one triangle each; surface 0 has only texCoords0, surface 1 only texCoords1.
std::vector<std::uint8_t> handMadeMesh() {
    Builder b;
    b.tag("mi08");
    putBounds(b, 0, 2);
    b.i32(2);
    b.name("top");
    putBounds(b, 0, 1);
    b.name("b");
    putBounds(b, 1, 2);
    // surface 0 data (offset 142)
    b.i32(3);
    b.floats({0, 0, 0}).u16(32767).u16(32767).u16(65535);
    b.floats({1, 0, 0}).u16(0).u16(65535).u16(32767);
    b.floats({0, 1, 0}).u16(65535).u16(0).u16(32767);
    b.i32(3).floats({0, 0, 1, 0, 0, 1});
    b.i32(0);
    b.i32(1).u16(0).u16(1).u16(2);
    // surface 1 data
    b.i32(3);
    b.floats({1, 1, 0}).u16(0).u16(0).u16(0);
    b.floats({2, 1, 0}).u16(0).u16(0).u16(0);
    b.floats({2, 2, 0}).u16(0).u16(0).u16(0);
    b.i32(0);
    b.i32(3).floats({0.25f, 0.5f, 0.75f, 1, 2, 3});
    b.i32(1).u16(2).u16(1).u16(0);
    return b.bytes;
}

const FormatDecoder& unigineDecoder() {
    for (const auto& d : decoders())
        if (std::string(d.id) == "unigine") return d;
    throw std::runtime_error("no unigine decoder");
}

}  // namespace

TEST(UnigineMesh, DecodesHandMadeFileFromTheDocument) {
    const auto bytes = handMadeMesh();
    const DecodeResult r = decode(bytes, "model.mesh");
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Asset& a = r.asset;
    EXPECT_EQ(a.format, "unigine");
    EXPECT_EQ(a.formatName, "Unigine mesh");
    EXPECT_EQ(a.version, "mi08");
    ASSERT_EQ(a.meshes.size(), 2u);
    EXPECT_EQ(a.meshes[0].name, "top");
    EXPECT_EQ(a.meshes[1].name, "b");

    const Mesh& m0 = a.meshes[0];
    ASSERT_EQ(m0.positions.size(), 3u);
    EXPECT_EQ(m0.positions[1], (Vec3{1, 0, 0}));
    // n = u / 65535 * 2 - 1: 65535 → 1, 0 → -1, 32767 → -1/65535.
    EXPECT_FLOAT_EQ(m0.normals[0].z, 1.0f);
    EXPECT_FLOAT_EQ(m0.normals[1].x, -1.0f);
    EXPECT_NEAR(m0.normals[0].x, 0.0f, 1.0f / 65535.0f + 1e-7f);
    ASSERT_EQ(m0.uv0.size(), 3u);
    EXPECT_EQ(m0.uv0[2], (Vec2{0, 1}));
    EXPECT_TRUE(m0.uv1.empty());
    EXPECT_EQ(m0.indices, (std::vector<std::uint32_t>{0, 1, 2}));
    ASSERT_EQ(m0.lods.size(), 1u);
    EXPECT_EQ(m0.lods[0].triangleCount, 1u);

    const Mesh& m1 = a.meshes[1];
    EXPECT_TRUE(m1.uv0.empty());
    ASSERT_EQ(m1.uv1.size(), 3u);
    EXPECT_EQ(m1.uv1[1], (Vec2{0.75f, 1}));
    EXPECT_EQ(m1.indices, (std::vector<std::uint32_t>{2, 1, 0}));

    // Nodes: file root, header with bounds, one node per surface showing its mesh.
    ASSERT_FALSE(a.nodes.empty());
    EXPECT_EQ(a.kind(0), "file");
    EXPECT_EQ(a.name(0), "model.mesh");
    const Node& surface0 = a.nodes[m0.node];
    EXPECT_EQ(a.kind(m0.node), "surface");
    EXPECT_EQ(a.links(m0.node).mesh, 0);
    // 4 signature + 40 bounds + 4 count + ("top": 4 + 4 + 40) + ("b": 4 + 2 + 40) = 142.
    EXPECT_EQ(surface0.offset, 142u);
    EXPECT_EQ(surface0.length, 4u + 3 * 18 + 4 + 3 * 8 + 4 + 4 + 6);
    ASSERT_NE(a.ownProperty(m0.node, "sphereRadius"), nullptr);
    EXPECT_EQ(std::get<double>(a.ownProperty(m0.node, "sphereRadius")->value), 0.75);
    EXPECT_EQ(std::get<std::int64_t>(a.ownProperty(m0.node, "indexSize")->value), 16);
    int bounds = -1;
    for (std::size_t i = 0; i < a.nodes.size(); ++i)
        if (a.kind(int(i)) == "bounds") bounds = int(i);
    ASSERT_GE(bounds, 0);
    EXPECT_EQ(std::get<Vec3>(a.ownProperty(bounds, "boundMax")->value), (Vec3{2, 2, 0}));
    EXPECT_EQ(a.nodes[bounds].offset, 4u);

    expectFullyMapped(a);
    bool sawHeader = false;
    for (const auto& range : a.byteMap.ranges()) {
        if (range.offset == 48 && range.kind == RangeKind::Header) {
            sawHeader = true;
            EXPECT_NE(range.path.find("surfaces[0]"), std::string::npos) << range.path;
        }
    }
    EXPECT_TRUE(sawHeader);
}

TEST(UnigineMesh, ProbeGoesBySignatureNotExtension) {
    const auto& d = unigineDecoder();
    const auto mesh = handMadeMesh();
    EXPECT_EQ(d.probe(mesh), 100);
    const std::string roblox = "version 4.00\n";
    EXPECT_EQ(
        d.probe(ByteSpan(reinterpret_cast<const std::uint8_t*>(roblox.data()), roblox.size())), 0);
    const std::vector<std::uint8_t> shortFile{'m', 'i', '0'};
    EXPECT_EQ(d.probe(shortFile), 0);
    // A Unigine signature under a .mesh name goes to the Unigine decoder, whatever the name.
    EXPECT_EQ(std::string(sniff(mesh, "x.mesh").decoder->id), "unigine");
    EXPECT_EQ(std::string(sniff(mesh, "x.bin").decoder->id), "unigine");
}

TEST(UnigineMesh, NormalCompressionMatchesTheDocument) {
    // The document's formula, its inverse in the decoder, error below one quantization step.
    Asset asset;
    Mesh m = makeGrid("g", 1, 1, 0);
    const std::vector<Vec3> normals{
        {1, 0, 0}, {-1, 0, 0}, {0, 0.6f, -0.8f}, {0.2f, -0.3f, 0.9327379f}};
    m.normals = normals;
    asset.meshes.push_back(m);
    const auto w = writeUnigineMesh(asset);
    ASSERT_TRUE(w.ok());
    // The first vertex starts after 4 + 40 + 4 + (4 + 2 + 40) + 4 bytes; its normal after 12.
    std::uint16_t stored[3];
    std::memcpy(stored, w.bytes.data() + 98 + 12, 6);
    EXPECT_EQ(stored[0], documentCompress(1));
    EXPECT_EQ(stored[1], documentCompress(0));
    EXPECT_EQ(stored[2], documentCompress(0));
    const DecodeResult r = decode(w.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    for (std::size_t i = 0; i < normals.size(); ++i) {
        EXPECT_NEAR(r.asset.meshes[0].normals[i].x, normals[i].x, 2.0 / 65535);
        EXPECT_NEAR(r.asset.meshes[0].normals[i].y, normals[i].y, 2.0 / 65535);
        EXPECT_NEAR(r.asset.meshes[0].normals[i].z, normals[i].z, 2.0 / 65535);
    }
}

TEST(UnigineMesh, RoundTripTwoSurfacesTwoUvSets) {
    Asset asset;
    asset.meshes.push_back(makeGrid("floor", 3, 2, 0));
    asset.meshes.push_back(makeGrid("roof", 2, 2, 5));
    asset.meshes[1].uv1.clear();  // a surface with only the first UV set
    const auto w = writeUnigineMesh(asset);
    ASSERT_TRUE(w.ok());
    EXPECT_TRUE(w.warnings.empty());
    const DecodeResult r = decode(w.bytes, "roundtrip.mesh");
    ASSERT_TRUE(r.ok()) << r.error->toString();
    ASSERT_EQ(r.asset.meshes.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        const Mesh& in = asset.meshes[i];
        const Mesh& out = r.asset.meshes[i];
        EXPECT_EQ(out.name, in.name);
        EXPECT_EQ(out.positions, in.positions);
        EXPECT_EQ(out.uv0, in.uv0);
        EXPECT_EQ(out.uv1, in.uv1);
        EXPECT_EQ(out.indices, in.indices);
        ASSERT_EQ(out.normals.size(), in.normals.size());
        for (std::size_t v = 0; v < in.normals.size(); ++v)
            EXPECT_NEAR(out.normals[v].z, in.normals[v].z, 2.0 / 65535);
        ASSERT_EQ(out.surfaces.size(), 1u);
        EXPECT_EQ(out.surfaces[0].triangleCount, in.indices.size() / 3);
    }
    EXPECT_TRUE(r.asset.meshes[1].uv1.empty());
    // Stored bounds: the writer's box over both surfaces.
    int header = -1;
    for (std::size_t i = 0; i < r.asset.nodes.size(); ++i)
        if (r.asset.kind(int(i)) == "bounds") header = int(i);
    ASSERT_GE(header, 0);
    EXPECT_EQ(std::get<Vec3>(r.asset.ownProperty(header, "boundMin")->value), (Vec3{0, 0, 0}));
    EXPECT_EQ(std::get<Vec3>(r.asset.ownProperty(header, "boundMax")->value), (Vec3{3, 2, 5}));
    expectFullyMapped(r.asset);
}

namespace {
// Size of an mi08 file with one surface, computed from the document.
std::size_t documentSize(const Mesh& m, std::size_t indexBytes) {
    const std::size_t v = m.positions.size();
    return 4 + 40 + 4 + (4 + m.name.size() + 1 + 40) + 4 + v * 18 + 4 + m.uv0.size() * 8 + 4 +
           m.uv1.size() * 8 + 4 + m.indices.size() * indexBytes;
}
}  // namespace

TEST(UnigineMesh, IndexWidthFollowsVertexCount) {
    for (const std::size_t vertices : {65535u, 65536u}) {
        Asset asset;
        Mesh m;
        m.name = "wide";
        for (std::size_t i = 0; i < vertices; ++i) m.positions.push_back({float(i), 0, 0});
        m.normals.assign(vertices, Vec3{0, 1, 0});
        m.indices = {0, std::uint32_t(vertices - 1), std::uint32_t(vertices / 2)};
        asset.meshes.push_back(m);
        const auto w = writeUnigineMesh(asset);
        ASSERT_TRUE(w.ok());
        const std::size_t indexBytes = vertices < 65536 ? 2 : 4;
        EXPECT_EQ(w.bytes.size(), documentSize(m, indexBytes));
        const DecodeResult r = decode(w.bytes);
        ASSERT_TRUE(r.ok()) << r.error->toString();
        EXPECT_EQ(r.asset.meshes[0].indices, m.indices);
        const int n = r.asset.meshes[0].node;
        EXPECT_EQ(std::get<std::int64_t>(r.asset.ownProperty(n, "indexSize")->value),
                  indexBytes * 8);
    }
}

TEST(UnigineMesh, LargeGridRoundTripWith32BitIndices) {
    Asset asset;
    asset.meshes.push_back(makeGrid("big", 300, 220, 1));  // 301 × 221 = 66521 vertices
    const auto w = writeUnigineMesh(asset);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w.bytes.size(), documentSize(asset.meshes[0], 4));
    const DecodeResult r = decode(w.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_EQ(r.asset.meshes[0].indices, asset.meshes[0].indices);
    EXPECT_EQ(r.asset.meshes[0].uv1, asset.meshes[0].uv1);
}
