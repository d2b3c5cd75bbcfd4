// FileMesh decoder on small inputs built byte by byte from the documents
// (specs/roblox-filemesh-2025.txt) and FORMAT-NOTES: every layout, the quirks, the resolution of
// skin bytes through subsets, FACS matrices, chunks, and the clear refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "formats/formats.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/error_codes.h"

namespace meshscope {
namespace {

// Little-endian byte builder for hand-made FileMesh inputs.
class ByteBuilder {
public:
    std::vector<std::uint8_t> data;
    ByteBuilder& text(std::string_view s) {
        data.insert(data.end(), s.begin(), s.end());
        return *this;
    }
    template <typename T>
    ByteBuilder& put(T v) {
        std::uint8_t b[sizeof(T)];
        std::memcpy(b, &v, sizeof(T));
        data.insert(data.end(), b, b + sizeof(T));
        return *this;
    }
    ByteBuilder& u8(std::uint8_t v) { return put(v); }
    ByteBuilder& u16(std::uint16_t v) { return put(v); }
    ByteBuilder& u32(std::uint32_t v) { return put(v); }
    ByteBuilder& u64(std::uint64_t v) { return put(v); }
    ByteBuilder& f32(float v) { return put(v); }
    ByteBuilder& bytes(const std::vector<std::uint8_t>& b) {
        data.insert(data.end(), b.begin(), b.end());
        return *this;
    }
    std::size_t size() const { return data.size(); }
};

// A 40-byte FileMeshVertex (36 without colour).
void vertex(ByteBuilder& b, Vec3 p, Vec3 n, Vec2 uv, std::array<std::uint8_t, 4> t,
            std::optional<Rgba8> c) {
    b.f32(p.x).f32(p.y).f32(p.z).f32(n.x).f32(n.y).f32(n.z).f32(uv.x).f32(uv.y);
    for (auto x : t) b.u8(x);
    if (c) b.u8(c->r).u8(c->g).u8(c->b).u8(c->a);
}

void face(ByteBuilder& b, std::uint32_t a, std::uint32_t c, std::uint32_t d) {
    b.u32(a).u32(c).u32(d);
}

// FileMeshBone: name index, parent, lodParent, culling, r00..r22, x y z.
void bone(ByteBuilder& b, std::uint32_t name, std::uint16_t parent, std::array<float, 9> r,
          Vec3 p) {
    b.u32(name).u16(parent).u16(parent).f32(2.5f);
    for (float f : r) b.f32(f);
    b.f32(p.x).f32(p.y).f32(p.z);
}

void subset(ByteBuilder& b, std::uint32_t fb, std::uint32_t fl, std::uint32_t vb, std::uint32_t vl,
            std::vector<std::uint16_t> bones) {
    b.u32(fb).u32(fl).u32(vb).u32(vl).u32(std::uint32_t(bones.size()));
    for (int i = 0; i < 26; ++i) b.u16(i < int(bones.size()) ? bones[i] : 0xFFFF);
}

DecodeResult decode(const std::vector<std::uint8_t>& bytes) {
    return decodeBytes(bytes);
}

bool hasDiagnostic(const Asset& a, const std::string& code) {
    for (const auto& d : a.diagnostics)
        if (d.code == code) return true;
    return false;
}

// The first node of that name, or -1.
int findNode(const Asset& a, const std::string& name) {
    for (std::size_t i = 0; i < a.nodes.size(); ++i)
        if (a.name(int(i)) == name) return int(i);
    return -1;
}

const std::array<std::uint8_t, 4> kTangentX{254, 127, 127, 254};  // (1, 0, 0), sign +1

// --- v1 text ----------------------------------------------------------------------------------

TEST(FileMeshV1, HalfScaleVFlipAndCrlf) {
    // One face; 1.00 positions are half scale and text V is flipped to the binary convention.
    const std::string text =
        "version 1.00\r\n1\r\n"
        "[2,4,-6][0,1,0][0.25,0.75,0][1,0,0][0,1,0][1,1,0][0,0,2][0,+1,0][0,0,0]";
    const auto r = decode({text.begin(), text.end()});
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& m = r.asset.meshes.at(0);
    EXPECT_EQ(r.asset.version, "1.00");
    ASSERT_EQ(m.vertexCount(), 3u);
    EXPECT_EQ(m.positions[0], (Vec3{1, 2, -3}));
    EXPECT_EQ(m.positions[2], (Vec3{0, 0, 1}));
    EXPECT_EQ(m.normals[2], (Vec3{0, 1, 0}));
    EXPECT_FLOAT_EQ(m.uv0[0].x, 0.25f);
    EXPECT_FLOAT_EQ(m.uv0[0].y, 0.25f);  // 1 - 0.75
    EXPECT_FLOAT_EQ(m.uv0[2].y, 1.0f);
    EXPECT_EQ(m.indices, (std::vector<std::uint32_t>{0, 1, 2}));
    ASSERT_EQ(m.lods.size(), 1u);
    EXPECT_TRUE(m.lodOffsets.empty());
    ASSERT_FALSE(r.asset.nodes.empty());
    EXPECT_EQ(r.asset.kind(0), "file");
    EXPECT_EQ(r.asset.name(0), "FileMesh 1.00");
}

TEST(FileMeshV1, Version101IsUnscaledAndMsvcNanIsKept) {
    const std::string text =
        "version 1.01\n1\n"
        "[2,4,-6][0,1,0][0,0,0][1.#IND00,-1.#QNAN,0][0,1,0][1,1,0][1e2,0,2][0,1,0][0,0,0]";
    const auto r = decode({text.begin(), text.end()});
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& m = r.asset.meshes.at(0);
    EXPECT_EQ(m.positions[0], (Vec3{2, 4, -6}));
    EXPECT_TRUE(std::isnan(m.positions[1].x));
    EXPECT_FLOAT_EQ(m.positions[2].x, 100.0f);
    EXPECT_TRUE(hasDiagnostic(r.asset, errc::kNonFiniteVertices));
    EXPECT_TRUE(m.bounds.valid());
    EXPECT_FLOAT_EQ(m.bounds.max.x, 100.0f);
}

TEST(FileMeshV1, SyntaxErrorNamesTheOffset) {
    const std::string text =
        "version 1.00\n1\n[1,2,3][0,1,0][0,0,0][1,2,3][0,1,0][0,0,0][1,2,x][0,1,0][0,0,0]";
    const auto r = decode({text.begin(), text.end()});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kSyntax);
    EXPECT_EQ(r.error->offset, text.find('x'));
}

TEST(FileMeshV1, FaceCountLargerThanTheTextIsRefusedBeforeAllocating) {
    const std::string text = "version 1.00\n4000000000\n[1,2,3]";
    const auto r = decode({text.begin(), text.end()});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kCountTooLarge);
}

// --- v2 / v3 -----------------------------------------------------------------------------------

std::vector<std::uint8_t> v2Mesh(std::uint8_t vertexSize, std::uint32_t faceIndex = 2) {
    ByteBuilder b;
    b.text("version 2.00\n").u16(12).u8(vertexSize).u8(12).u32(3).u32(1);
    const std::optional<Rgba8> c =
        vertexSize == 40 ? std::optional<Rgba8>(Rgba8{10, 20, 30, 40}) : std::nullopt;
    vertex(b, {0, 0, 0}, {0, 0, 1}, {0, 0}, {0, 0, 0, 0}, c);
    vertex(b, {1, 0, 0}, {0, 0, 1}, {1, 0}, {0, 0, 0, 0}, c);
    vertex(b, {0, 1, 0}, {0, 0, 1}, {0, 1}, {0, 0, 0, 0}, c);
    face(b, 0, 1, faceIndex);
    return b.data;
}

TEST(FileMeshV2, ThirtySixByteVerticesHaveNoColourAndGetTangents) {
    const auto r = decode(v2Mesh(36));
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& m = r.asset.meshes.at(0);
    EXPECT_EQ(m.vertexCount(), 3u);
    EXPECT_TRUE(m.colors.empty());  // 36-byte records: RGBA means 255s
    EXPECT_TRUE(hasDiagnostic(r.asset, errc::kNoTangents));
    ASSERT_EQ(m.tangents.size(), 3u);
    // U grows along +X in this triangle: the generated tangent is +X.
    EXPECT_NEAR(m.tangents[0].x, 1.0f, 1e-5);
    EXPECT_NEAR(m.tangents[0].y, 0.0f, 1e-5);
    int warnings = 0;
    for (const auto& d : r.asset.diagnostics) warnings += d.code == errc::kNoTangents;
    EXPECT_EQ(warnings, 1);  // warned once, not per vertex
}

TEST(FileMeshV2, FortyByteVerticesCarryColour) {
    const auto r = decode(v2Mesh(40));
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& m = r.asset.meshes.at(0);
    ASSERT_EQ(m.colors.size(), 3u);
    EXPECT_EQ(m.colors[1], (Rgba8{10, 20, 30, 40}));
}

TEST(FileMeshV2, FaceIndexOutOfRangeNamesIndexAndOffset) {
    const auto bytes = v2Mesh(36, 9123);
    const auto r = decode(bytes);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kIndexOutOfRange);
    EXPECT_NE(r.error->message.find("face index 9123 >= vertex count 3"), std::string::npos)
        << r.error->message;
    EXPECT_EQ(r.error->offset, bytes.size() - 4);  // the third index of the only face
}

TEST(FileMeshV2, VertexCountLargerThanTheFileIsRefused) {
    ByteBuilder b;
    b.text("version 2.00\n").u16(12).u8(40).u8(12).u32(0x7fffffff).u32(1);
    b.u32(0).u32(0).u32(0);
    const auto r = decode(b.data);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kCountTooLarge);
    EXPECT_EQ(r.error->offset, 25u);  // where the vertices would start
}

TEST(FileMeshV3, LodOffsetsResolveToFaceRanges) {
    ByteBuilder b;
    b.text("version 3.01\n").u16(16).u8(40).u8(12).u16(4).u16(4).u32(3).u32(6);
    for (int i = 0; i < 3; ++i) vertex(b, {float(i), 0, 0}, {0, 1, 0}, {0, 0}, kTangentX, Rgba8{});
    for (int i = 0; i < 6; ++i) face(b, 0, 1, 2);
    b.u32(0).u32(3).u32(5).u32(6);
    const auto r = decode(b.data);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& m = r.asset.meshes.at(0);
    EXPECT_EQ(m.lodOffsets, (std::vector<std::uint32_t>{0, 3, 5, 6}));
    ASSERT_EQ(m.lods.size(), 3u);
    EXPECT_EQ(m.lods[1].name, "LOD1");
    EXPECT_EQ(m.lods[1].firstTriangle, 3u);
    EXPECT_EQ(m.lods[1].triangleCount, 2u);
    EXPECT_EQ(m.lods[2].triangleCount, 1u);
    EXPECT_EQ(m.triangleCount(), 6u);  // every LOD's faces in one index buffer
    // Stored tangent bytes: t = b / 127 - 1.
    EXPECT_NEAR(m.tangents[0].x, 1.0f, 1e-6);
    EXPECT_NEAR(m.tangents[0].y, 0.0f, 1e-6);
    EXPECT_EQ(m.tangents[0].w, 1.0f);
    EXPECT_FALSE(hasDiagnostic(r.asset, errc::kNoTangents));
    const int lod1 = findNode(r.asset, "LOD1");
    ASSERT_GE(lod1, 0);
    EXPECT_EQ(r.asset.links(lod1).lod, 1);
    EXPECT_EQ(r.asset.links(lod1).mesh, 0);
}

// --- v4 / v5 -----------------------------------------------------------------------------------

// Four vertices in two subsets. Subset 0 (vertices 0-1) has boneIndices [2, 0], subset 1
// (vertices 2-3) has [1]. Skin bytes index those tables.
void skinnedBody(ByteBuilder& b) {
    for (int i = 0; i < 4; ++i)
        vertex(b, {float(i), float(i % 2), 0}, {0, 0, 1}, {float(i) / 4, 0}, kTangentX, Rgba8{});
    b.u8(0).u8(0).u8(0).u8(0).u8(255).u8(0).u8(0).u8(0);    // v0: local 0 → bone 2
    b.u8(1).u8(0).u8(0).u8(0).u8(128).u8(127).u8(0).u8(0);  // v1: local 1 → bone 0, local 0 → 2
    b.u8(0).u8(0).u8(0).u8(0).u8(255).u8(0).u8(0).u8(0);    // v2: local 0 → bone 1
    b.u8(0).u8(0).u8(0).u8(0).u8(200).u8(0).u8(0).u8(0);    // v3: local 0 → bone 1
}
void skinnedTail(ByteBuilder& b) {
    face(b, 0, 1, 2);
    face(b, 0, 2, 3);
    b.u32(0).u32(1).u32(2);  // LOD offsets
    bone(b, 0, 0xFFFF, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0});
    bone(b, 5, 0, {0, -1, 0, 1, 0, 0, 0, 0, 1}, {1, 2, 3});
    bone(b, 11, 0, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {4, 5, 6});
}
const std::string kNames("Root\0Child\0Other\0", 17);
void skinnedSubsets(ByteBuilder& b) {
    subset(b, 0, 1, 0, 2, {2, 0});
    subset(b, 1, 1, 2, 2, {1});
}

std::vector<std::uint8_t> v4Mesh(std::uint8_t padding) {
    ByteBuilder b;
    b.text("version 4.01\n")
        .u16(24)
        .u16(4)
        .u32(4)
        .u32(2)
        .u16(3)
        .u16(3)
        .u32(17)
        .u16(2)
        .u8(1)
        .u8(padding);
    skinnedBody(b);
    skinnedTail(b);
    b.text(kNames);
    skinnedSubsets(b);
    return b.data;
}

void expectSkinned(const DecodeResult& r) {
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Asset& a = r.asset;
    const Mesh& m = a.meshes.at(0);
    ASSERT_EQ(a.skeletons.size(), 1u);
    const Skeleton& s = a.skeletons[0];
    ASSERT_EQ(s.bones.size(), 3u);
    EXPECT_EQ(s.bones[0].name, "Root");
    EXPECT_EQ(s.bones[1].name, "Child");
    EXPECT_EQ(s.bones[2].name, "Other");
    EXPECT_EQ(s.bones[0].parent, -1);  // 0xFFFF
    EXPECT_EQ(s.bones[1].parent, 0);
    EXPECT_EQ(s.bones[1].lodParent, 0);
    EXPECT_FLOAT_EQ(s.bones[1].culling, 2.5f);
    // Rotation rows r00 r01 r02 / r10 ... into a column-major Mat4.
    EXPECT_EQ(s.bones[1].world.at(0, 1), -1.0f);
    EXPECT_EQ(s.bones[1].world.at(1, 0), 1.0f);
    EXPECT_EQ(s.bones[1].world.at(0, 3), 1.0f);
    EXPECT_EQ(s.bones[1].world.at(2, 3), 3.0f);
    EXPECT_EQ(m.skeleton, 0);
    ASSERT_EQ(m.skin.size(), 4u);
    EXPECT_EQ(m.skin[0].joints[0], 2);
    EXPECT_FLOAT_EQ(m.skin[0].weights[0], 1.0f);
    EXPECT_EQ(m.skin[1].joints[0], 0);
    EXPECT_EQ(m.skin[1].joints[1], 2);
    EXPECT_FLOAT_EQ(m.skin[1].weights[0], 128.0f / 255.0f);
    EXPECT_FLOAT_EQ(m.skin[1].weights[1], 127.0f / 255.0f);
    EXPECT_EQ(m.skin[2].joints[0], 1);
    EXPECT_FLOAT_EQ(m.skin[3].weights[0], 200.0f / 255.0f);
    ASSERT_EQ(m.surfaces.size(), 2u);
    EXPECT_EQ(m.surfaces[1].name, "subset 1");
    EXPECT_EQ(m.surfaces[1].firstVertex, 2u);
    ASSERT_EQ(m.lods.size(), 2u);  // three offsets: two levels
    EXPECT_FALSE(hasDiagnostic(a, errc::kSkinUnresolved));
    const int child = findNode(a, "Child");
    ASSERT_GE(child, 0);
    EXPECT_EQ(a.links(child).bone, 1);
    EXPECT_EQ(a.links(child).skeleton, 0);
}

TEST(FileMeshV4, SkinBytesIndexTheSubsetBoneTable) {
    expectSkinned(decode(v4Mesh(0)));
}

TEST(FileMeshV4, PaddingByteMayHoldAnyValue) {
    const auto r = decode(v4Mesh(0xA7));
    expectSkinned(r);
    const int header = findNode(r.asset, "header");
    ASSERT_GE(header, 0);
    const Property* p = r.asset.ownProperty(header, "lodType");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(std::get<std::int64_t>(p->value), 4);
}

TEST(FileMeshV4, ByteMapCoversHeaderFieldsAndArrays) {
    const auto r = decode(v4Mesh(0));
    ASSERT_TRUE(r.ok());
    bool numVerts = false, faces = false, boneName = false;
    for (const auto& range : r.asset.byteMap.ranges()) {
        if (range.path == "header › numVerts") numVerts = range.offset == 17 && range.length == 4;
        if (range.path == "faces") faces = range.kind == RangeKind::Array && range.length == 24;
        if (range.path.find("bones[1] › name") != std::string::npos) boneName = range.length == 6;
    }
    EXPECT_TRUE(numVerts);
    EXPECT_TRUE(faces);
    EXPECT_TRUE(boneName);
    for (const auto& range : r.asset.byteMap.ranges())
        EXPECT_NE(range.kind, RangeKind::Unparsed) << range.path;
}

// FACS blob: two face bones, two controls, one two-pose corrective: 2 rows × 3 columns.
std::vector<std::uint8_t> facsBlob() {
    const std::string bones("jaw\0Head\0", 9), controls("c_JD\0c_FN\0", 10);
    ByteBuilder q;
    q.u16(1).u32(2).u32(3);  // px raw floats
    for (int i = 0; i < 6; ++i) q.f32(float(i));
    for (int c = 1; c < 6; ++c) {
        q.u16(2).u32(2).u32(3).f32(-1).f32(1);  // quantized: -1 + q * 2 / 65535
        for (std::uint16_t v : {0, 65535, 32768, 0, 0, 65535}) q.u16(v);
    }
    ByteBuilder b;
    b.u32(std::uint32_t(bones.size()))
        .u32(std::uint32_t(controls.size()))
        .u64(q.size())
        .u32(4)
        .u32(0);
    b.text(bones).text(controls).bytes(q.data).u16(0).u16(1);
    return b.data;
}

void expectFacs(const DecodeResult& r) {
    ASSERT_TRUE(r.ok()) << r.error->toString();
    ASSERT_EQ(r.asset.facs.size(), 1u);
    const FacsRig& f = r.asset.facs[0];
    EXPECT_EQ(r.asset.meshes.at(0).facs, 0);
    EXPECT_EQ(f.boneNames, (std::vector<std::string>{"jaw", "Head"}));
    EXPECT_EQ(f.controlNames, (std::vector<std::string>{"c_JD", "c_FN"}));
    ASSERT_EQ(f.correctives.size(), 1u);
    EXPECT_EQ(f.columnNames().back(), "c_JD_c_FN");
    EXPECT_EQ(f.rows, 2u);
    EXPECT_EQ(f.cols, 3u);
    EXPECT_EQ(f.cols, f.columnCount());
    EXPECT_FLOAT_EQ(f.value(0, 1, 2), 5.0f);
    EXPECT_FLOAT_EQ(f.value(3, 0, 0), -1.0f);
    EXPECT_FLOAT_EQ(f.value(3, 0, 1), 1.0f);
    EXPECT_NEAR(f.value(5, 0, 2), -1.0f + 32768.0f * 2.0f / 65535.0f, 1e-6);
    EXPECT_FALSE(hasDiagnostic(r.asset, errc::kFacsShape));
    const int facs = findNode(r.asset, "FACS");
    ASSERT_GE(facs, 0);
    EXPECT_EQ(r.asset.links(facs).facs, 0);
}

TEST(FileMeshV5, FacsBlobFillsTheRig) {
    const auto facs = facsBlob();
    ByteBuilder b;
    b.text("version 5.00\n").u16(32).u16(3).u32(4).u32(2).u16(3).u16(3).u32(17).u16(2).u8(1).u8(0);
    b.u32(1).u32(std::uint32_t(facs.size()));
    skinnedBody(b);
    skinnedTail(b);
    b.text(kNames);
    skinnedSubsets(b);
    b.bytes(facs);
    const auto r = decode(b.data);
    expectSkinned(r);
    expectFacs(r);
}

// --- v6 / v7 chunks ----------------------------------------------------------------------------

ByteBuilder& chunk(ByteBuilder& b, std::string_view name, std::uint32_t version,
                   const std::vector<std::uint8_t>& payload) {
    std::string n(name);
    n.resize(8, '\0');
    return b.text(n).u32(version).u32(std::uint32_t(payload.size())).bytes(payload);
}

std::vector<std::uint8_t> coreMeshV1() {
    ByteBuilder c;
    c.u32(4);
    skinnedBody(c);  // vertices then the envelopes: keep the vertices only
    c.data.resize(4 + 4 * 40);
    c.u32(2);
    face(c, 0, 1, 2);
    face(c, 0, 2, 3);
    return c.data;
}

std::vector<std::uint8_t> skinningV1() {
    ByteBuilder full;
    skinnedBody(full);
    ByteBuilder s;
    s.u32(4);
    s.data.insert(s.data.end(), full.data.begin() + 160, full.data.end());  // the 4 envelopes
    ByteBuilder tail;
    skinnedTail(tail);
    s.u32(3);
    s.data.insert(s.data.end(), tail.data.end() - 180, tail.data.end());  // the 3 bones
    s.u32(17).text(kNames).u32(2);
    skinnedSubsets(s);
    return s.data;
}

TEST(FileMeshV6, ChunksUnknownChunkKeptAsRawBytes) {
    ByteBuilder lods;
    lods.u16(3).u8(1).u32(3).u32(0).u32(1).u32(2);
    ByteBuilder hsr;
    hsr.u32(2).u8(3);
    ByteBuilder b;
    b.text("version 6.00\n");
    chunk(b, "COREMESH", 1, coreMeshV1());
    chunk(b, "LODS", 1, lods.data);
    const std::size_t unknownAt = b.size();
    chunk(b, "FUTURE", 3, {1, 2, 3, 4, 5});
    chunk(b, "SKINNING", 1, skinningV1());
    chunk(b, "FACS", 1, [] {
        auto f = facsBlob();
        ByteBuilder x;
        x.u32(std::uint32_t(f.size())).bytes(f);
        return x.data;
    }());
    chunk(b, "HSRAVIS", 1, hsr.data);
    const auto r = decode(b.data);
    expectSkinned(r);
    expectFacs(r);
    EXPECT_EQ(r.asset.version, "6.00");
    EXPECT_TRUE(hasDiagnostic(r.asset, errc::kUnknownChunk));
    bool raw = false;
    for (const auto& range : r.asset.byteMap.ranges())
        if (range.kind == RangeKind::Payload && range.offset == unknownAt + 16 && range.length == 5)
            raw = true;
    EXPECT_TRUE(raw);
    for (const char* name :
         {"COREMESH v1", "LODS v1", "FUTURE v3", "SKINNING v1", "FACS v1", "HSRAVIS v1"})
        EXPECT_GE(findNode(r.asset, name), 0) << name;
}

TEST(FileMeshV7, PlainCoreMeshWithoutSkinning) {
    ByteBuilder lods;
    lods.u16(0).u8(1).u32(2).u32(0).u32(0);
    ByteBuilder b;
    b.text("version 7.00\n");
    chunk(b, "COREMESH", 1, coreMeshV1());
    chunk(b, "LODS", 1, lods.data);
    const auto r = decode(b.data);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& m = r.asset.meshes.at(0);
    EXPECT_EQ(m.vertexCount(), 4u);
    EXPECT_FALSE(m.skinned());
    EXPECT_EQ(m.lodOffsets, (std::vector<std::uint32_t>{0, 0}));
    ASSERT_EQ(m.lods.size(), 1u);  // [0, 0] means the whole mesh is LOD 0
    EXPECT_EQ(m.lods[0].triangleCount, 2u);
    EXPECT_TRUE(r.asset.skeletons.empty());
}

TEST(FileMeshV7, ChunkSizePastTheEndFails) {
    ByteBuilder b;
    b.text("version 7.00\n");
    chunk(b, "COREMESH", 1, coreMeshV1());
    b.data[13 + 12] = 0xff;  // size's low byte
    b.data[13 + 13] = 0xff;
    const auto r = decode(b.data);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kTruncated);
    EXPECT_LE(r.error->offset, b.size());
}

// --- refusals and the probe -------------------------------------------------------------------

TEST(FileMeshProbe, ScoresOnlyAValidVersionLineAsCertain) {
    const auto score = [](std::string_view s) {
        return robloxMeshFormat().probe(
            ByteSpan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()));
    };
    EXPECT_EQ(score("version 4.01\n\x18"), 100);
    EXPECT_EQ(score("version 1.00\r\n12"), 100);
    EXPECT_EQ(score("version https://git-lfs.github.com/spec/v1\n"), 0);
    EXPECT_LT(score("version 9.00\n"), 100);
    EXPECT_LT(score("version 4.01"), 100);
    EXPECT_EQ(score("versio"), 0);
    EXPECT_EQ(score("version 4x01\n"), 0);
}

TEST(FileMeshRefusal, GitLfsPointerSaysSo) {
    const std::string lfs =
        "version https://git-lfs.github.com/spec/v1\n"
        "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
        "size 46147\n";
    const auto r = decode({lfs.begin(), lfs.end()});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error->message.find("Git LFS"), std::string::npos) << r.error->message;
    EXPECT_TRUE(r.asset.meshes.empty());
}

TEST(FileMeshRefusal, UnknownVersionIsNamed) {
    const std::string text = "version 9.00\n\x10\x00";
    const auto r = decode({text.begin(), text.end()});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->code, errc::kUnsupportedVersion);
    EXPECT_NE(r.error->message.find("9.00"), std::string::npos);
}

}  // namespace
}  // namespace meshscope
