// Second Life mesh assets: writer → decoder round trips of every feature, hand-built broken
// inputs, every prefix of a generated asset, and the probe.
#include "formats/secondlife/mesh_asset.h"

#include <gtest/gtest.h>

#include <cmath>

#include "meshscope/core/error_codes.h"
#include "meshscope/core/secondlife_writer.h"
#include "sl_test_helpers.h"

namespace meshscope {
namespace {

using namespace sltest;

Mat4 translation(float x, float y, float z) {
    Mat4 m;
    m.at(0, 3) = x;
    m.at(1, 3) = y;
    m.at(2, 3) = z;
    return m;
}

Mat4 scaleTranslate(float sx, float sy, float sz, float x, float y, float z) {
    Mat4 m = translation(x, y, z);
    m.at(0, 0) = sx;
    m.at(1, 1) = sy;
    m.at(2, 2) = sz;
    return m;
}

// The feature-complete sample: high_lod with two faces (normals, UVs, weights with 1 to 4
// influences), medium_lod with a NoGeometry face, a 3-joint skeleton, and physics_convex with
// BoundingVerts, a 4-point hull and a 256-point hull (stored as HullList count 0).
struct Sample {
    Asset asset;
    SecondLifeWriteOptions options;
    Mat4 bindShape = scaleTranslate(0.5f, 2.0f, 1.0f, 0.1f, 0.2f, 1.0f);
    std::vector<Mat4> fileInverseBind = {translation(0, 0, -1.0f), translation(0, 0, -1.2f),
                                         translation(0.1f, 0, -1.4f)};
};

Sample makeSample() {
    Sample s;
    Asset& a = s.asset;
    Skeleton sk;
    sk.name = "skin";
    for (int i = 0; i < 3; ++i) {
        Bone b;
        b.name = std::array{"mPelvis", "mTorso", "mChest"}[i];
        b.inverseBind = s.fileInverseBind[i] * s.bindShape;  // the decoder's convention
        b.world = inverse(*b.inverseBind);
        sk.bones.push_back(b);
    }
    a.skeletons.push_back(sk);

    Mesh high;
    high.name = "high_lod";
    high.positions = {{-0.5f, -0.5f, 0}, {0.5f, -0.5f, 0}, {0.5f, 0.5f, 0.25f}, {-0.5f, 0.5f, 0.1f},
                      {0, 0, 0.5f},      {0.3f, 0, 0.5f},  {0, 0.3f, -0.5f}};
    high.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0.6f, 0.8f}, {0, 0, 1},
                    {1, 0, 0}, {0, 1, 0}, {0, 0, -1}};
    high.uv0 = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0.25f, 0.5f}, {0.75f, 0.5f}, {0.5f, 0.9f}};
    high.indices = {0, 1, 2, 0, 2, 3, 4, 5, 6};
    high.surfaces = {{"face 0", 0, 2, 0, 4}, {"face 1", 2, 1, 4, 3}};
    high.lods = {{0, 3, "high_lod"}};
    high.skin.resize(7);
    high.skin[0] = {{0, 0, 0, 0}, {1, 0, 0, 0}};
    high.skin[1] = {{0, 1, 0, 0}, {0.5f, 0.5f, 0, 0}};
    high.skin[2] = {{0, 1, 2, 0}, {0.25f, 0.25f, 0.5f, 0}};
    high.skin[3] = {{2, 1, 0, 1}, {0.4f, 0.3f, 0.2f, 0.1f}};  // four: no terminator
    high.skin[4] = {{1, 2, 0, 1}, {0.1f, 0.2f, 0.3f, 0.4f}};
    high.skin[5] = {{2, 0, 0, 0}, {1, 0, 0, 0}};
    high.skin[6] = {{1, 0, 0, 0}, {0.75f, 0, 0, 0}};
    high.skeleton = 0;
    a.meshes.push_back(high);

    Mesh medium;
    medium.name = "medium_lod";
    medium.positions = {{-0.5f, -0.5f, 0}, {0.5f, -0.5f, 0}, {0.5f, 0.5f, 0.25f}};
    medium.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    medium.uv0 = {{0, 0}, {1, 0}, {1, 1}};
    medium.indices = {0, 1, 2};
    medium.surfaces = {{"face 0", 0, 1, 0, 3}, {"face 1", 1, 0, 3, 0}};  // face 1: NoGeometry
    medium.skin = {
        {{0, 0, 0, 0}, {1, 0, 0, 0}}, {{1, 0, 0, 0}, {1, 0, 0, 0}}, {{2, 0, 0, 0}, {1, 0, 0, 0}}};
    medium.skeleton = 0;
    a.meshes.push_back(medium);

    Mesh convex;
    convex.name = "physics_convex";
    convex.primitive = Primitive::Lines;
    for (int i = 0; i < 8; ++i)  // BoundingVerts: a cube
        convex.positions.push_back(
            {i & 1 ? 0.5f : -0.5f, i & 2 ? 0.5f : -0.5f, i & 4 ? 0.5f : -0.5f});
    convex.positions.insert(convex.positions.end(),
                            {{0, 0, 0}, {0.4f, 0, 0}, {0, 0.4f, 0}, {0, 0, 0.4f}});  // tetrahedron
    for (int i = 0; i < 256; ++i) {  // points on a circle in z = 0.2
        const float t = float(i) / 256 * 6.2831853f;
        convex.positions.push_back({0.3f * std::cos(t), 0.3f * std::sin(t), 0.2f});
    }
    convex.surfaces = {
        {"BoundingVerts", 0, 0, 0, 8}, {"hull 0", 0, 0, 8, 4}, {"hull 1", 0, 0, 12, 256}};
    a.meshes.push_back(convex);

    SecondLifeWriteOptions& o = s.options;
    o.version = 1;
    o.creator =
        std::array<std::uint8_t, 16>{0x12, 0x34, 0x56, 0x78, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    o.date = 1300000000.0;  // 2011-03-13T07:06:40Z
    o.bindShapeMatrix = s.bindShape;
    o.altInverseBindMatrices = std::vector<Mat4>{translation(0, 0, -0.9f), translation(0, 0, -1.1f),
                                                 translation(0, 0, -1.3f)};
    o.pelvisOffset = 0.125;
    o.lockScaleIfJointPosition = true;
    return s;
}

Bytes sampleBytes(SecondLifeWriteOptions overrides = {}, bool useOverrides = false) {
    Sample s = makeSample();
    const auto r = writeSecondLifeMesh(s.asset, useOverrides ? overrides : s.options);
    EXPECT_TRUE(r.ok()) << *r.error;
    return r.bytes;
}

void expectNear(const Vec3& a, const Vec3& b, float tol) {
    EXPECT_NEAR(a.x, b.x, tol);
    EXPECT_NEAR(a.y, b.y, tol);
    EXPECT_NEAR(a.z, b.z, tol);
}

void expectMatNear(const Mat4& a, const Mat4& b, float tol) {
    for (int i = 0; i < 16; ++i) EXPECT_NEAR(a.m[i], b.m[i], tol) << "element " << i;
}

// One quantization step of a domain of width 1 is 1/65535; the writer's domains are at most
// 1 wide here, so half a step plus float noise.
constexpr float kTol = 1.0f / 65535 + 1e-6f;

TEST(SecondLifeMesh, RoundTripKeepsGeometryPerLodAndFace) {
    const Sample s = makeSample();
    const auto w = writeSecondLifeMesh(s.asset, s.options);
    ASSERT_TRUE(w.ok()) << *w.error;
    EXPECT_TRUE(w.warnings.empty());
    const DecodeResult r = decode(w.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Asset& a = r.asset;
    EXPECT_EQ(a.format, "secondlife-mesh");
    EXPECT_EQ(a.formatName, "Second Life mesh asset");
    EXPECT_EQ(a.version, "1");

    const Mesh* high = findMesh(a, "high_lod");
    ASSERT_NE(high, nullptr);
    const Mesh& in = s.asset.meshes[0];
    ASSERT_EQ(high->positions.size(), in.positions.size());
    EXPECT_EQ(high->indices, in.indices);  // faces concatenated, indices offset per face
    ASSERT_EQ(high->surfaces.size(), 2u);
    EXPECT_EQ(high->surfaces[1].firstVertex, 4u);
    EXPECT_EQ(high->surfaces[1].firstTriangle, 2u);
    EXPECT_EQ(high->surfaces[1].triangleCount, 1u);
    ASSERT_EQ(high->lods.size(), 1u);
    EXPECT_EQ(high->lods[0].triangleCount, 3u);
    EXPECT_EQ(high->lods[0].name, "high_lod");
    for (std::size_t i = 0; i < in.positions.size(); ++i) {
        expectNear(high->positions[i], in.positions[i], kTol);
        expectNear(high->normals[i], in.normals[i], 2 * kTol);
        EXPECT_NEAR(high->uv0[i].x, in.uv0[i].x, kTol);
        EXPECT_NEAR(high->uv0[i].y, in.uv0[i].y, kTol);  // V-down kept through SL's V-up
    }
    // Weights: joints as written, values within one u16 step, 4-influence vertices intact.
    ASSERT_EQ(high->skin.size(), 7u);
    EXPECT_EQ(high->skeleton, 0);
    for (std::size_t v = 0; v < 7; ++v) {
        for (int k = 0; k < 4; ++k) {
            EXPECT_NEAR(high->skin[v].weights[k], in.skin[v].weights[k], kTol) << v << "/" << k;
            if (in.skin[v].weights[k] > 0) {
                EXPECT_EQ(high->skin[v].joints[k], in.skin[v].joints[k]);
            }
        }
    }

    const Mesh* medium = findMesh(a, "medium_lod");
    ASSERT_NE(medium, nullptr);
    ASSERT_EQ(medium->surfaces.size(), 2u);
    EXPECT_EQ(medium->surfaces[1].triangleCount, 0u);
    EXPECT_EQ(medium->surfaces[1].vertexCount, 0u);
    EXPECT_EQ(medium->triangleCount(), 1u);
    EXPECT_TRUE(hasDiagnostic(a, errc::kNoGeometry));  // the placeholder face, reported as info
    EXPECT_EQ(a.warningCount(), 0u);
}

TEST(SecondLifeMesh, RoundTripKeepsSkinMatricesAndExtras) {
    const Sample s = makeSample();
    const DecodeResult r = decode(sampleBytes());
    ASSERT_TRUE(r.ok()) << r.error->toString();
    ASSERT_EQ(r.asset.skeletons.size(), 1u);
    const Skeleton& sk = r.asset.skeletons[0];
    ASSERT_EQ(sk.bones.size(), 3u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(sk.bones[i].name, s.asset.skeletons[0].bones[i].name);
        ASSERT_TRUE(sk.bones[i].inverseBind);
        expectMatNear(*sk.bones[i].inverseBind, *s.asset.skeletons[0].bones[i].inverseBind, 1e-5f);
        // Bind pose: world · inverseBind = identity.
        expectMatNear(sk.bones[i].world * *sk.bones[i].inverseBind, Mat4{}, 1e-5f);
    }
    // Parents from the default avatar skeleton: mTorso's parent is mPelvis through the absent
    // Bento joints mSpine2/mSpine1; mChest's through mSpine4/mSpine3 is mTorso.
    EXPECT_EQ(sk.bones[0].parent, -1);
    EXPECT_EQ(sk.bones[1].parent, 0);
    EXPECT_EQ(sk.bones[2].parent, 1);

    const int skin = findNode(r.asset, "skin", "skin");
    ASSERT_GE(skin, 0);
    EXPECT_EQ(r.asset.links(skin).skeleton, 0);
    const auto* bsm =
        std::get_if<std::vector<double>>(&r.asset.ownProperty(skin, "bind_shape_matrix")->value);
    ASSERT_NE(bsm, nullptr);
    ASSERT_EQ(bsm->size(), 16u);
    // Row-vector layout on disk: translation in elements 12..14, equal to Mat4::m's column 3.
    EXPECT_NEAR((*bsm)[12], 0.1, 1e-6);
    EXPECT_NEAR((*bsm)[13], 0.2, 1e-6);
    EXPECT_NEAR((*bsm)[0], 0.5, 1e-6);
    const auto* alt = std::get_if<std::vector<double>>(
        &r.asset.ownProperty(skin, "alt_inverse_bind_matrix")->value);
    ASSERT_NE(alt, nullptr);
    ASSERT_EQ(alt->size(), 48u);
    EXPECT_NEAR((*alt)[16 + 14], -1.1, 1e-6);
    EXPECT_EQ(std::get<double>(r.asset.ownProperty(skin, "pelvis_offset")->value), 0.125);
    EXPECT_EQ(std::get<bool>(r.asset.ownProperty(skin, "lock_scale_if_joint_position")->value),
              true);
    // The file's own inverse_bind_matrix is kept on the bone node.
    const int torso = findNode(r.asset, "mTorso", "bone");
    ASSERT_GE(torso, 0);
    EXPECT_EQ(r.asset.links(torso).bone, 1);
    const auto* ibm =
        std::get_if<std::vector<double>>(&r.asset.ownProperty(torso, "inverse_bind_matrix")->value);
    ASSERT_NE(ibm, nullptr);
    EXPECT_NEAR((*ibm)[14], -1.2, 1e-6);
}

TEST(SecondLifeMesh, RoundTripKeepsHeaderFields) {
    const DecodeResult r = decode(sampleBytes());
    ASSERT_TRUE(r.ok());
    const int header = findNode(r.asset, "header", "header");
    ASSERT_GE(header, 0);
    EXPECT_EQ(std::get<std::int64_t>(r.asset.ownProperty(header, "version")->value), 1);
    EXPECT_EQ(std::get<std::string>(r.asset.ownProperty(header, "creator")->value),
              "12345678-0102-0304-0506-0708090a0b0c");
    EXPECT_EQ(std::get<double>(r.asset.ownProperty(header, "date")->value), 1300000000.0);
    EXPECT_EQ(std::get<std::string>(r.asset.ownProperty(header, "date (UTC)")->value),
              "2011-03-13T07:06:40Z");
    ASSERT_NE(r.asset.ownProperty(header, "high_lod.offset"), nullptr);
    // The header is mapped and each block is a chunk with its zlib payload.
    const auto& ranges = r.asset.byteMap.ranges();
    auto has = [&](const std::string& path, RangeKind kind) {
        return std::any_of(ranges.begin(), ranges.end(),
                           [&](const ByteRange& b) { return b.path == path && b.kind == kind; });
    };
    EXPECT_TRUE(has("header", RangeKind::Header));
    for (const char* b : {"high_lod", "medium_lod", "skin", "physics_convex"}) {
        EXPECT_TRUE(has(b, RangeKind::Chunk)) << b;
        EXPECT_TRUE(has(std::string(b) + kPathSeparator + "zlib", RangeKind::Payload)) << b;
    }
    const int hl = findNode(r.asset, "high_lod", "LOD");
    ASSERT_GE(hl, 0);
    EXPECT_EQ(r.asset.links(hl).mesh, 0);
    EXPECT_EQ(r.asset.children(hl).size(), 2u);  // one per face
    // The chunk starts at header end + offset.
    const auto offset = std::get<std::int64_t>(r.asset.ownProperty(hl, "offset")->value);
    const auto headerSize =
        std::get<std::int64_t>(r.asset.ownProperty(header, "headerSize")->value);
    const std::uint64_t at = r.asset.nodes[std::size_t(hl)].offset;
    EXPECT_EQ(at, std::uint64_t(headerSize + offset));
    const Bytes bytes = sampleBytes();
    EXPECT_EQ(bytes[at], 0x78);  // zlib header where the chunk begins
    EXPECT_EQ(bytes[at + 1], 0xda);
}

TEST(SecondLifeMesh, RoundTripKeepsPhysicsHulls) {
    const Sample s = makeSample();
    const DecodeResult r = decode(sampleBytes());
    ASSERT_TRUE(r.ok());
    const Mesh* c = findMesh(r.asset, "physics_convex");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->primitive, Primitive::Lines);
    ASSERT_EQ(c->surfaces.size(), 3u);
    EXPECT_EQ(c->surfaces[0].name, "BoundingVerts");
    EXPECT_EQ(c->surfaces[0].vertexCount, 8u);
    EXPECT_EQ(c->surfaces[1].vertexCount, 4u);
    EXPECT_EQ(c->surfaces[2].vertexCount, 256u);  // HullList 0 = 256 points
    // A cube's hull triangulated: 12 triangles, 18 edges; a tetrahedron: 6. The flat circle's
    // polygon has at most 256 edges (quantization may make a few points collinear).
    EXPECT_EQ(c->surfaces[0].triangleCount, 18u);
    EXPECT_EQ(c->surfaces[1].triangleCount, 6u);
    EXPECT_GE(c->surfaces[2].triangleCount, 200u);
    EXPECT_LE(c->surfaces[2].triangleCount, 256u);
    for (std::size_t i = 0; i < c->indices.size(); i += 2) {
        // Each edge joins two points of the same hull.
        const auto hullOf = [&](std::uint32_t v) { return v < 8 ? 0 : (v < 12 ? 1 : 2); };
        EXPECT_EQ(hullOf(c->indices[i]), hullOf(c->indices[i + 1]));
    }
    // Points within one quantization step of the domain (Min/Max = the points' bounds, 1 wide).
    for (std::size_t i = 0; i < c->positions.size(); ++i)
        expectNear(c->positions[i], s.asset.meshes[2].positions[i], kTol);
    const int block = findNode(r.asset, "physics_convex", "physics");
    ASSERT_GE(block, 0);
    EXPECT_EQ(std::get<std::int64_t>(r.asset.ownProperty(block, "hulls")->value), 2);
}

TEST(SecondLifeMesh, LlsdHeaderInsideBlocksAndTrailingBytes) {
    Sample s = makeSample();
    s.options.llsdHeader = true;
    s.options.trailingBytes = {'L', 'L', 'W', 'e', 'a', 'r', 'a', 'b', 'l', 'e', '\n'};
    const DecodeResult r = decode(writeSecondLifeMesh(s.asset, s.options).bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    ASSERT_NE(findMesh(r.asset, "high_lod"), nullptr);
    EXPECT_EQ(findMesh(r.asset, "high_lod")->triangleCount(), 3u);
    EXPECT_TRUE(hasDiagnostic(r.asset, errc::kTrailingBytes));
    const auto& ranges = r.asset.byteMap.ranges();
    EXPECT_TRUE(std::any_of(ranges.begin(), ranges.end(), [](const ByteRange& b) {
        return b.kind == RangeKind::Padding && b.length == 11;
    }));
}

TEST(SecondLifeMesh, DefaultDomainsAndDequantization) {
    // Position u16 0 / 65535 / 32768 without PositionDomain map to -0.5 / +0.5 / ~0 (±0.5
    // default); normals u16/65535·2−1; TexCoord0 into its domain with V flipped to V-down;
    // physics Min/Max default to ±0.5.
    Llsd face = triangleFace(u16s({0, 65535, 32768, 65535, 0, 0, 0, 0, 65535}), u16s({0, 1, 2}));
    face.set("Normal", Llsd::binary(u16s({0, 65535, 32768, 65535, 65535, 65535, 0, 0, 0})));
    face.set("TexCoord0", Llsd::binary(u16s({0, 0, 65535, 65535, 32768, 16384})));
    Llsd dom = Llsd::map();
    dom.set("Min", Llsd::reals({0.0, 0.5}));
    dom.set("Max", Llsd::reals({2.0, 1.5}));
    face.set("TexCoord0Domain", dom);
    Llsd convex = Llsd::map();
    convex.set("BoundingVerts", Llsd::binary(u16s({0, 0, 0, 65535, 65535, 65535})));
    const DecodeResult r =
        decode(buildAsset({{"high_lod", faces({face})}, {"physics_convex", convex}}));
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& m = *findMesh(r.asset, "high_lod");
    expectNear(m.positions[0], {-0.5f, 0.5f, 32768 / 65535.f - 0.5f}, 1e-6f);
    expectNear(m.positions[1], {0.5f, -0.5f, -0.5f}, 1e-6f);
    expectNear(m.normals[0], {-1, 1, 32768 / 65535.f * 2 - 1}, 1e-6f);
    expectNear(m.normals[2], {-1, -1, -1}, 1e-6f);
    EXPECT_NEAR(m.uv0[0].x, 0, 1e-6);
    EXPECT_NEAR(m.uv0[0].y, 1 - 0.5, 1e-6);  // SL v = 0.5 → V-down 0.5
    EXPECT_NEAR(m.uv0[1].x, 2, 1e-6);
    EXPECT_NEAR(m.uv0[1].y, 1 - 1.5, 1e-6);
    EXPECT_NEAR(m.uv0[2].y, 1 - (0.5 + 16384 / 65535.0), 1e-6);
    const Mesh& c = *findMesh(r.asset, "physics_convex");
    expectNear(c.positions[0], {-0.5f, -0.5f, -0.5f}, 1e-6f);
    expectNear(c.positions[1], {0.5f, 0.5f, 0.5f}, 1e-6f);
    EXPECT_EQ(c.indices.size(), 2u);  // two points: one segment
}

TEST(SecondLifeMesh, HandWrittenWeightsWithTerminatorsAndImplicitEnd) {
    // Vertex 0: joint 2 w=0x8000, joint 1 w=0xffff, 0xFF. Vertex 1: four influences, no
    // terminator. Vertex 2: 0xFF at once (no influences).
    Bytes w = {0x02, 0x00, 0x80, 0x01, 0xff, 0xff, 0xff, 0x00, 0x01, 0x00,
               0x01, 0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x04, 0x00, 0xff};
    Llsd face = triangleFace(u16s({0, 0, 0, 65535, 0, 0, 0, 65535, 0}), u16s({0, 1, 2}));
    face.set("Weights", Llsd::binary(w));
    Llsd skin = Llsd::map();
    Llsd names = Llsd::array(), ibm = Llsd::array();
    for (const char* n : {"mPelvis", "mTorso", "mChest"}) {
        names.push(Llsd::string(n));
        ibm.push(Llsd::reals({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
    }
    skin.set("joint_names", names);
    skin.set("inverse_bind_matrix", ibm);
    skin.set("bind_shape_matrix", Llsd::reals({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
    const DecodeResult r = decode(buildAsset({{"skin", skin}, {"high_lod", faces({face})}}));
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& m = *findMesh(r.asset, "high_lod");
    ASSERT_EQ(m.skin.size(), 3u);
    EXPECT_EQ(m.skin[0].joints[0], 2);
    EXPECT_FLOAT_EQ(m.skin[0].weights[0], 32768 / 65535.f);
    EXPECT_EQ(m.skin[0].joints[1], 1);
    EXPECT_FLOAT_EQ(m.skin[0].weights[1], 1.0f);
    EXPECT_EQ(m.skin[0].weights[2], 0);
    EXPECT_EQ(m.skin[1].joints, (std::array<std::uint16_t, 4>{0, 1, 2, 0}));
    EXPECT_FLOAT_EQ(m.skin[1].weights[0], 1 / 65535.f);
    EXPECT_FLOAT_EQ(m.skin[1].weights[3], 4 / 65535.f);
    EXPECT_EQ(m.skin[2].weights, (std::array<float, 4>{0, 0, 0, 0}));
    EXPECT_EQ(r.asset.warningCount(), 0u);
}

// ----------------------------------------------------------------------------------------------
// Broken input

TEST(SecondLifeMeshBroken, WeightsNamingMissingJointsAreDroppedWithAWarning) {
    Llsd face = triangleFace(u16s({0, 0, 0, 65535, 0, 0, 0, 65535, 0}), u16s({0, 1, 2}));
    // Joint 7 does not exist (one joint); joint 0 does.
    face.set("Weights", Llsd::binary({0x07, 0xff, 0xff, 0x00, 0x00, 0x80, 0xff, 0x00, 0xff, 0xff,
                                      0xff, 0xff}));
    Llsd skin = Llsd::map();
    Llsd names = Llsd::array(), ibm = Llsd::array();
    names.push(Llsd::string("mPelvis"));
    ibm.push(Llsd::reals({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
    skin.set("joint_names", names);
    skin.set("inverse_bind_matrix", ibm);
    skin.set("bind_shape_matrix", Llsd::reals({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
    const DecodeResult r = decode(buildAsset({{"skin", skin}, {"high_lod", faces({face})}}));
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_TRUE(hasDiagnostic(r.asset, errc::kUnknownJoint));
    const Mesh& m = *findMesh(r.asset, "high_lod");
    EXPECT_EQ(m.skin[0].joints[0], 0);
    EXPECT_FLOAT_EQ(m.skin[0].weights[0], 32768 / 65535.f);  // the valid influence moved up
    EXPECT_EQ(m.skin[0].weights[1], 0);
    EXPECT_EQ(m.skin[1].weights[0], 1.0f);
    EXPECT_EQ(m.skin[2].weights[0], 0);
}

TEST(SecondLifeMeshBroken, JointCountMismatchDropsAllBindings) {
    Llsd face = triangleFace(u16s({0, 0, 0, 65535, 0, 0, 0, 65535, 0}), u16s({0, 1, 2}));
    face.set("Weights", Llsd::binary({0x00, 0xff, 0xff, 0xff, 0x01, 0xff, 0xff, 0xff, 0xff}));
    Llsd skin = Llsd::map();
    Llsd names = Llsd::array(), ibm = Llsd::array();
    names.push(Llsd::string("mPelvis"));
    names.push(Llsd::string("mTorso"));
    ibm.push(Llsd::reals({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
    skin.set("joint_names", names);
    skin.set("inverse_bind_matrix", ibm);
    const DecodeResult r = decode(buildAsset({{"skin", skin}, {"high_lod", faces({face})}}));
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_TRUE(hasDiagnostic(r.asset, errc::kSkinJointCountMismatch));
    EXPECT_TRUE(r.asset.skeletons.empty());
    EXPECT_FALSE(findMesh(r.asset, "high_lod")->skinned());
    EXPECT_EQ(findMesh(r.asset, "high_lod")->triangleCount(), 1u);
}

TEST(SecondLifeMeshBroken, IncompleteTrailingTriangleAndBadIndicesAreDropped) {
    // 8 indices: two whole triangles and two stray indices; the second triangle names vertex 9.
    Llsd face =
        triangleFace(u16s({0, 0, 0, 65535, 0, 0, 0, 65535, 0}), u16s({0, 1, 2, 0, 1, 9, 2, 1}));
    const DecodeResult r = decode(buildAsset({{"high_lod", faces({face})}}));
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& m = *findMesh(r.asset, "high_lod");
    EXPECT_EQ(m.indices, (std::vector<std::uint32_t>{0, 1, 2}));
    EXPECT_TRUE(hasDiagnostic(r.asset, errc::kIncompleteTriangle));
    EXPECT_TRUE(hasDiagnostic(r.asset, errc::kIndexOutOfRange));
}

TEST(SecondLifeMeshBroken, VersionThousandIsRefused) {
    SecondLifeWriteOptions o = makeSample().options;
    o.version = 1000;
    const DecodeResult r = decode(sampleBytes(o, true));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kUnsupportedVersion);
    EXPECT_NE(r.error->message.find("1000"), std::string::npos) << r.error->message;
    EXPECT_TRUE(r.asset.meshes.empty());
    o.version = 999;
    EXPECT_TRUE(decode(sampleBytes(o, true)).ok());
}

TEST(SecondLifeMeshBroken, TruncatedBlockKeepsTheBlocksBeforeIt) {
    // The writer lays high_lod out last: cutting into it loses only high_lod.
    const Bytes full = sampleBytes();
    const Bytes cut(full.begin(), full.end() - 20);
    const DecodeResult r = decode(cut);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kTruncated);
    EXPECT_NE(r.error->message.find("high_lod"), std::string::npos);
    EXPECT_EQ(findMesh(r.asset, "high_lod"), nullptr);
    ASSERT_NE(findMesh(r.asset, "medium_lod"), nullptr);
    EXPECT_EQ(r.asset.skeletons.size(), 1u);
}

TEST(SecondLifeMeshBroken, BadZlibFailsThatBlockOnly) {
    Bytes b = sampleBytes();
    const DecodeResult ok = decode(b);
    const int hl = findNode(ok.asset, "high_lod", "LOD");
    ASSERT_GE(hl, 0);
    const Node& lod = ok.asset.nodes[std::size_t(hl)];
    // Corrupt the deflate data in the middle of high_lod.
    for (std::uint64_t i = lod.offset + 4; i < lod.offset + lod.length - 6; ++i) b[i] ^= 0x5a;
    const DecodeResult r = decode(b);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.error->code == errc::kZlib || r.error->code == errc::kTruncated)
        << r.error->toString();
    EXPECT_EQ(findMesh(r.asset, "high_lod"), nullptr);
    EXPECT_NE(findMesh(r.asset, "medium_lod"), nullptr);
    // A block that is not zlib at all.
    Bytes b2 = sampleBytes();
    b2[lod.offset] = 0x00;
    const DecodeResult r2 = decode(b2);
    ASSERT_FALSE(r2.ok());
    EXPECT_EQ(r2.error->code, errc::kZlib);
    EXPECT_EQ(r2.error->offset, lod.offset);
}

TEST(SecondLifeMeshBroken, OffsetsPastTheEnd) {
    Llsd extras = Llsd::map();
    Llsd far = Llsd::map();
    far.set("offset", Llsd::integer(1'000'000));
    far.set("size", Llsd::integer(100));
    extras.set("medium_lod", far);
    Llsd face = triangleFace(u16s({0, 0, 0, 65535, 0, 0, 0, 65535, 0}), u16s({0, 1, 2}));
    const DecodeResult r = decode(buildAsset({{"high_lod", faces({face})}}, extras));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kBlockOutOfRange);
    EXPECT_NE(r.error->message.find("medium_lod"), std::string::npos);
    ASSERT_NE(findMesh(r.asset, "high_lod"), nullptr);  // the good block still decodes
}

Bytes deepHeader(std::size_t depth) {
    // {"high_lod": {offset 0, size N}, "deep": [[[ ... ]]]} followed by a one-triangle high_lod.
    const Bytes block = zlibCompress(llsdBytes(
        faces({triangleFace(u16s({0, 0, 0, 65535, 0, 0, 0, 65535, 0}), u16s({0, 1, 2}))})));
    Bytes b = {'{', 0, 0, 0, 2, 'k', 0, 0, 0, 8};
    for (char c : std::string("high_lod")) b.push_back(static_cast<std::uint8_t>(c));
    Llsd e = Llsd::map();
    e.set("offset", Llsd::integer(0));
    e.set("size", Llsd::integer(static_cast<std::int32_t>(block.size())));
    appendBinaryLlsd(b, e);
    b.insert(b.end(), {'k', 0, 0, 0, 4, 'd', 'e', 'e', 'p'});
    for (std::size_t i = 0; i < depth; ++i) b.insert(b.end(), {'[', 0, 0, 0, 1});
    b.push_back('!');
    b.insert(b.end(), depth, ']');
    b.push_back('}');
    b.insert(b.end(), block.begin(), block.end());
    return b;
}

TEST(SecondLifeMeshBroken, NestingTenThousandDeepIsRefused) {
    const DecodeResult r = decode(deepHeader(10000));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kLimit);
    EXPECT_NE(r.error->message.find("Limits::maxDepth"), std::string::npos);
    // The same nesting inside a compressed block.
    Bytes deep;
    for (int i = 0; i < 10000; ++i) deep.insert(deep.end(), {'[', 0, 0, 0, 1});
    deep.push_back('!');
    deep.insert(deep.end(), 10000, ']');
    Llsd header = Llsd::map();
    const Bytes z = zlibCompress(deep);
    Llsd e = Llsd::map();
    e.set("offset", Llsd::integer(0));
    e.set("size", Llsd::integer(static_cast<std::int32_t>(z.size())));
    header.set("high_lod", e);
    Bytes file = llsdBytes(header);
    file.insert(file.end(), z.begin(), z.end());
    const DecodeResult r2 = decode(file);
    ASSERT_FALSE(r2.ok());
    EXPECT_EQ(r2.error->code, errc::kLimit);
}

TEST(SecondLifeMeshBroken, TenThousandLevelsDecodeIterativelyWhenTheCapAllowsThem) {
    Limits limits;
    limits.maxDepth = 20000;
    const DecodeResult r = decode(deepHeader(10000), limits);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    ASSERT_EQ(r.asset.meshes.size(), 1u);
    EXPECT_EQ(r.asset.meshes[0].triangleCount(), 1u);
    EXPECT_NE(r.asset.ownProperty(findNode(r.asset, "header", "header"), "deep"), nullptr);
}

TEST(SecondLifeMeshBroken, EveryPrefixFailsCleanlyOrDecodesPartially) {
    const Bytes full = sampleBytes();
    ASSERT_TRUE(decode(full).ok());
    std::size_t partial = 0;
    for (std::size_t n = 0; n < full.size(); ++n) {
        const DecodeResult r = decode(Bytes(full.begin(), full.begin() + n));
        // The last block ends at the end of the file, so no strict prefix is whole.
        ASSERT_FALSE(r.ok()) << "prefix " << n;
        EXPECT_FALSE(r.error->code.empty());
        if (!r.asset.meshes.empty()) ++partial;
    }
    EXPECT_GT(partial, 0u);  // prefixes that keep whole early blocks show them
}

TEST(SecondLifeMeshBroken, CorruptedBytesNeverCrash) {
    // Every byte of the header and the first block flipped in turn: any outcome but a crash.
    const Bytes full = sampleBytes();
    for (std::size_t i = 0; i < std::min<std::size_t>(full.size(), 1200); ++i) {
        Bytes b = full;
        b[i] ^= 0xff;
        const DecodeResult r = decode(b);
        if (!r.ok()) {
            EXPECT_FALSE(r.error->code.empty());
        }
    }
}

// ----------------------------------------------------------------------------------------------

TEST(SecondLifeMesh, ProbeIsCheapAndSpecific) {
    const Bytes b = sampleBytes();
    EXPECT_GE(secondlife::probe(b), 90);
    EXPECT_EQ(sniff(b).decoder->id, std::string("secondlife-mesh"));
    EXPECT_EQ(secondlife::probe(Bytes{}), 0);
    EXPECT_EQ(secondlife::probe(Bytes{'{', 0, 0, 0}), 0);
    // A binary LLSD map with unrelated keys is not a mesh asset.
    Llsd other = Llsd::map();
    other.set("name", Llsd::string("x"));
    EXPECT_EQ(secondlife::probe(llsdBytes(other)), 0);
    // Huge key length: refused without reading past the end.
    EXPECT_EQ(secondlife::probe(Bytes{'{', 0, 0, 0, 1, 'k', 0xff, 0xff, 0xff, 0xff, 'a'}), 0);
}

TEST(SecondLifeMesh, WriterRefusesWhatItCannotWrite) {
    Asset empty;
    EXPECT_FALSE(writeSecondLifeMesh(empty).ok());
    // A mesh with another name is written as high_lod, with a warning.
    Asset a;
    Mesh m;
    m.name = "Body";
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    m.indices = {0, 1, 2};
    a.meshes.push_back(m);
    const auto w = writeSecondLifeMesh(a);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w.warnings.size(), 1u);
    const DecodeResult r = decode(w.bytes);
    ASSERT_TRUE(r.ok());
    ASSERT_NE(findMesh(r.asset, "high_lod"), nullptr);
    expectNear(findMesh(r.asset, "high_lod")->positions[1], {1, 0, 0}, 1e-6f);
}

}  // namespace
}  // namespace meshscope
