// The FileMesh writer's bytes checked against the 2025 document and the real-file layout facts
// (FORMAT-NOTES), without the decoder: header fields at their documented offsets, sizes that
// add up, subsets of at most 26 bones that keep to their vertex ranges and LOD ranges, the
// FACS blob's framing, chunk framing, and the Draco attributes real v7 files use.
#include <draco/compression/decode.h>
#include <draco/mesh/mesh.h>
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "roundtrip_support.h"

namespace meshscope::test {
namespace {

using namespace std::string_literals;

// Little-endian reads from the written bytes; the test fails rather than reading past the end.
struct Cursor {
    const Bytes& b;
    std::size_t pos = 0;
    template <typename T>
    T get() {
        EXPECT_LE(pos + sizeof(T), b.size()) << "read past the end at " << pos;
        T v{};
        if (pos + sizeof(T) <= b.size()) std::memcpy(&v, b.data() + pos, sizeof(T));
        pos += sizeof(T);
        return v;
    }
    std::string chars(std::size_t n) {
        std::string s(n, '\0');
        if (pos + n <= b.size()) std::memcpy(s.data(), b.data() + pos, n);
        pos += n;
        return s;
    }
};

FileMeshWriteResult writeVersion(const Asset& asset, const std::string& version) {
    FileMeshWriteOptions o;
    o.version = version;
    return writeFileMesh(asset, 0, o);
}

std::string head(const Bytes& b) {
    return std::string(b.begin(), b.begin() + 13);
}

TEST(FileMeshWriter, Version2HeaderAndSizesFollowTheDocument) {
    const Asset in = makeUvSphere(6, 8);
    const Mesh& m = in.meshes[0];
    for (bool colours : {true, false}) {
        FileMeshWriteOptions o;
        o.version = "2.00";
        o.vertexColors = colours;
        const FileMeshWriteResult w = writeFileMesh(in, 0, o);
        ASSERT_TRUE(w.ok());
        EXPECT_EQ(head(w.bytes), "version 2.00\n");
        Cursor c{w.bytes, 13};
        EXPECT_EQ(c.get<std::uint16_t>(), 12);  // sizeof_FileMeshHeaderV2
        const unsigned vsize = c.get<std::uint8_t>();
        EXPECT_EQ(vsize, colours ? 40u : 36u);
        EXPECT_EQ(c.get<std::uint8_t>(), 12);
        EXPECT_EQ(c.get<std::uint32_t>(), m.positions.size());
        EXPECT_EQ(c.get<std::uint32_t>(), m.triangleCount());
        EXPECT_EQ(w.bytes.size(), 13 + 12 + m.positions.size() * vsize + m.triangleCount() * 12);
        // First vertex: position, normal, UV as floats, then the tangent bytes b = (t + 1) * 127.
        EXPECT_EQ(c.get<float>(), m.positions[0].x);
        EXPECT_EQ(c.get<float>(), m.positions[0].y);
        EXPECT_EQ(c.get<float>(), m.positions[0].z);
        c.pos += 20;
        const Vec4 t = m.tangents[0];  // (-sin 0, 0, cos 0, +1) = (0, 0, 1, 1)
        EXPECT_EQ(t, (Vec4{-0.0f, 0, 1, 1}));
        EXPECT_EQ(c.get<std::uint8_t>(), 127);
        EXPECT_EQ(c.get<std::uint8_t>(), 127);
        EXPECT_EQ(c.get<std::uint8_t>(), 254);
        EXPECT_EQ(c.get<std::uint8_t>(), 254);
        // The faces end the file.
        std::uint32_t lastFace[3];
        std::memcpy(lastFace, w.bytes.data() + w.bytes.size() - 12, 12);
        EXPECT_EQ(lastFace[2], m.indices.back());
    }
}

TEST(FileMeshWriter, Version3StoresLodOffsetsAtTheEnd) {
    const Asset in = makeLodSphere(3);
    const Mesh& m = in.meshes[0];
    for (const char* v : {"3.00", "3.01"}) {
        const FileMeshWriteResult w = writeVersion(in, v);
        ASSERT_TRUE(w.ok());
        EXPECT_TRUE(w.warnings.empty());
        Cursor c{w.bytes, 13};
        EXPECT_EQ(c.get<std::uint16_t>(), 16);
        EXPECT_EQ(c.get<std::uint8_t>(), 40);
        EXPECT_EQ(c.get<std::uint8_t>(), 12);
        EXPECT_EQ(c.get<std::uint16_t>(), 4);  // sizeof_LodOffset
        EXPECT_EQ(c.get<std::uint16_t>(), 4);  // numLodOffsets: 3 levels
        EXPECT_EQ(c.get<std::uint32_t>(), m.positions.size());
        EXPECT_EQ(c.get<std::uint32_t>(), m.triangleCount());
        ASSERT_EQ(w.bytes.size(), 13 + 16 + m.positions.size() * 40 + m.triangleCount() * 12 + 16);
        Cursor tail{w.bytes, w.bytes.size() - 16};
        EXPECT_EQ(tail.get<std::uint32_t>(), 0u);
        EXPECT_EQ(tail.get<std::uint32_t>(), m.lods[1].firstTriangle);
        EXPECT_EQ(tail.get<std::uint32_t>(), m.lods[2].firstTriangle);
        EXPECT_EQ(tail.get<std::uint32_t>(), m.triangleCount());
    }
}

// The v4/v5 skinned layout: header, then the arrays in the document's order.
struct V4File {
    std::uint16_t lodType = 0, numLod = 0, numBones = 0, numSubsets = 0;
    std::uint32_t nv = 0, nf = 0, namesSize = 0, facsFormat = 0, facsSize = 0;
    std::size_t verts = 0, skin = 0, faces = 0, lods = 0, bones = 0, names = 0, subsets = 0,
                facs = 0, end = 0;
};

V4File parseV4(const Bytes& b) {
    V4File f;
    Cursor c{b, 13};
    const auto headerSize = c.get<std::uint16_t>();
    f.lodType = c.get<std::uint16_t>();
    f.nv = c.get<std::uint32_t>();
    f.nf = c.get<std::uint32_t>();
    f.numLod = c.get<std::uint16_t>();
    f.numBones = c.get<std::uint16_t>();
    f.namesSize = c.get<std::uint32_t>();
    f.numSubsets = c.get<std::uint16_t>();
    c.get<std::uint8_t>();
    c.get<std::uint8_t>();
    if (headerSize == 32) {
        f.facsFormat = c.get<std::uint32_t>();
        f.facsSize = c.get<std::uint32_t>();
    }
    f.verts = 13 + headerSize;
    f.skin = f.verts + std::size_t(f.nv) * 40;
    f.faces = f.skin + (f.numBones ? std::size_t(f.nv) * 8 : 0);
    f.lods = f.faces + std::size_t(f.nf) * 12;
    f.bones = f.lods + std::size_t(f.numLod) * 4;
    f.names = f.bones + std::size_t(f.numBones) * 60;
    f.subsets = f.names + f.namesSize;
    f.facs = f.subsets + std::size_t(f.numSubsets) * 72;
    f.end = f.facs + f.facsSize;
    return f;
}

TEST(FileMeshWriter, Version4SkinnedCylinderAddsUp) {
    const Asset in = makeSkinnedCylinder(3, 6, 8);
    const Mesh& m = in.meshes[0];
    const FileMeshWriteResult w = writeVersion(in, "4.00");
    ASSERT_TRUE(w.ok());
    EXPECT_TRUE(w.warnings.empty());
    const V4File f = parseV4(w.bytes);
    EXPECT_EQ(f.nv, m.positions.size());
    EXPECT_EQ(f.nf, m.triangleCount());
    EXPECT_EQ(f.numBones, 3);
    EXPECT_EQ(f.numSubsets, 1);
    EXPECT_EQ(f.numLod, 2);
    const std::string names = "Bone0\0Bone1\0Bone2\0"s;
    ASSERT_EQ(f.namesSize, names.size());
    EXPECT_EQ(f.end, w.bytes.size());
    EXPECT_EQ(std::string(w.bytes.begin() + f.names, w.bytes.begin() + f.subsets), names);
    // Bone 1: name index 6, parent 0, lodParent 0, culling, then the CFrame (rotation rows,
    // then the position): Ry(10°) at y = 2.
    Cursor b{w.bytes, f.bones + 60};
    EXPECT_EQ(b.get<std::uint32_t>(), 6u);
    EXPECT_EQ(b.get<std::uint16_t>(), 0);
    EXPECT_EQ(b.get<std::uint16_t>(), 0);
    b.get<float>();
    const float c10 = std::cos(10.0f * 3.14159265f / 180),
                s10 = std::sin(10.0f * 3.14159265f / 180);
    EXPECT_NEAR(b.get<float>(), c10, 1e-6);  // r00
    EXPECT_NEAR(b.get<float>(), 0, 1e-6);    // r01
    EXPECT_NEAR(b.get<float>(), s10, 1e-6);  // r02
    b.pos += 6 * 4;
    EXPECT_NEAR(b.get<float>(), 0, 1e-6);
    EXPECT_NEAR(b.get<float>(), 2.0f, 1e-6);
    EXPECT_NEAR(b.get<float>(), 0, 1e-6);
    // The bone 0 (root) has no parent: 0xFFFF.
    Cursor root{w.bytes, f.bones + 4};
    EXPECT_EQ(root.get<std::uint16_t>(), 0xFFFF);
    // Every envelope's weights sum to 255.
    for (std::uint32_t v = 0; v < f.nv; ++v) {
        int sum = 0;
        for (int k = 0; k < 4; ++k) sum += w.bytes[f.skin + v * 8 + 4 + k];
        EXPECT_EQ(sum, 255) << "vertex " << v;
    }
}

TEST(FileMeshWriter, SubsetsHoldAtMost26BonesAndKeepToTheirRanges) {
    const Asset in = makeSkinnedCylinder(40, 39, 6);
    const Mesh& m = in.meshes[0];
    const FileMeshWriteResult w = writeVersion(in, "4.01");
    ASSERT_TRUE(w.ok());
    const V4File f = parseV4(w.bytes);
    ASSERT_EQ(f.end, w.bytes.size());
    EXPECT_EQ(f.numBones, 40);
    EXPECT_GE(f.numSubsets, 2);
    EXPECT_EQ(f.nf, m.triangleCount());
    std::uint32_t nextFace = 0, nextVert = 0;
    for (std::uint16_t s = 0; s < f.numSubsets; ++s) {
        Cursor c{w.bytes, f.subsets + s * 72};
        const auto fb = c.get<std::uint32_t>(), fl = c.get<std::uint32_t>();
        const auto vb = c.get<std::uint32_t>(), vl = c.get<std::uint32_t>();
        const auto nb = c.get<std::uint32_t>();
        std::vector<std::uint16_t> table(26);
        for (auto& t : table) t = c.get<std::uint16_t>();
        EXPECT_EQ(fb, nextFace) << "subsets partition the faces in order";
        EXPECT_EQ(vb, nextVert) << "subsets partition the vertices in order";
        nextFace = fb + fl;
        nextVert = vb + vl;
        ASSERT_GE(nb, 1u);
        ASSERT_LE(nb, 26u);
        for (std::uint32_t i = nb; i < 26; ++i) EXPECT_EQ(table[i], 0xFFFF);
        for (std::uint32_t i = 0; i < nb; ++i) EXPECT_LT(table[i], 40);
        for (std::uint32_t face = fb; face < fb + fl; ++face) {
            for (int k = 0; k < 3; ++k) {
                std::uint32_t idx;
                std::memcpy(&idx, w.bytes.data() + f.faces + (face * 3 + k) * 4, 4);
                ASSERT_GE(idx, vb);
                ASSERT_LT(idx, vb + vl);
                // The vertex written there is the one the face had, with its skin resolved
                // through this subset's table.
                const std::uint32_t src = m.indices[face * 3 + k];
                float px;
                std::memcpy(&px, w.bytes.data() + f.verts + idx * 40, 4);
                EXPECT_EQ(px, m.positions[src].x);
                for (int slot = 0; slot < 4; ++slot) {
                    const std::uint8_t local = w.bytes[f.skin + idx * 8 + slot];
                    const std::uint8_t weight = w.bytes[f.skin + idx * 8 + 4 + slot];
                    if (!weight) continue;
                    ASSERT_LT(local, nb);
                    EXPECT_EQ(table[local], m.skin[src].joints[slot]);
                    EXPECT_NEAR(weight / 255.0f, m.skin[src].weights[slot], 1.0f / 255.0f);
                }
            }
        }
    }
    EXPECT_EQ(nextFace, f.nf);
    EXPECT_EQ(nextVert, f.nv);
}

TEST(FileMeshWriter, SubsetsDoNotCrossLodBoundaries) {
    Asset in = makeLodSphere(2);
    Mesh& m = in.meshes[0];
    Skeleton sk;
    sk.bones.resize(2);
    sk.bones[0].name = "A";
    sk.bones[1].name = "B";
    sk.bones[1].parent = 0;
    in.skeletons.push_back(sk);
    m.skeleton = 0;
    for (const Vec3& p : m.positions) {
        VertexInfluences inf;
        inf.joints = {0, 1, 0, 0};
        inf.weights = {p.y > 0 ? 1.0f : 0.25f, p.y > 0 ? 0.0f : 0.75f, 0, 0};
        m.skin.push_back(inf);
    }
    const FileMeshWriteResult w = writeVersion(in, "5.00");
    ASSERT_TRUE(w.ok());
    const V4File f = parseV4(w.bytes);
    ASSERT_EQ(f.end, w.bytes.size());
    ASSERT_EQ(f.numSubsets, 2);
    Cursor c{w.bytes, f.subsets};
    EXPECT_EQ(c.get<std::uint32_t>(), 0u);
    EXPECT_EQ(c.get<std::uint32_t>(), m.lods[0].triangleCount);
    Cursor d{w.bytes, f.subsets + 72};
    EXPECT_EQ(d.get<std::uint32_t>(), m.lods[1].firstTriangle);
    EXPECT_EQ(d.get<std::uint32_t>(), m.lods[1].triangleCount);
    // Each LOD has its own vertices, so nothing had to be duplicated.
    EXPECT_EQ(f.nv, m.positions.size());
}

TEST(FileMeshWriter, Version5FacsBlobFraming) {
    const Asset in = makeFacsHead();
    const FileMeshWriteResult w = writeVersion(in, "5.00");
    ASSERT_TRUE(w.ok());
    EXPECT_TRUE(w.warnings.empty());
    const V4File f = parseV4(w.bytes);
    EXPECT_EQ(f.facsFormat, 1u);
    ASSERT_EQ(f.end, w.bytes.size());
    Cursor c{w.bytes, f.facs};
    const auto boneNames = c.get<std::uint32_t>(), controlNames = c.get<std::uint32_t>();
    const auto transforms = c.get<std::uint64_t>();
    const auto two = c.get<std::uint32_t>(), three = c.get<std::uint32_t>();
    EXPECT_EQ(24 + boneNames + controlNames + transforms + two + three, f.facsSize);
    EXPECT_EQ(c.chars(boneNames), "Jaw\0LeftUpperEyelid\0LeftLowerEyelid\0"s);
    EXPECT_EQ(c.chars(controlNames), "c_JD\0l_EC\0"s);
    EXPECT_EQ(two, 4u);    // one two-pose corrective
    EXPECT_EQ(three, 6u);  // one three-pose corrective
    // Six QuantizedMatrix version 2: rows = face bones, cols = controls + correctives.
    for (int ch = 0; ch < 6; ++ch) {
        EXPECT_EQ(c.get<std::uint16_t>(), 2);
        EXPECT_EQ(c.get<std::uint32_t>(), 3u);
        EXPECT_EQ(c.get<std::uint32_t>(), 4u);
        const float lo = c.get<float>(), hi = c.get<float>();
        // Entry (row 1, col 2) decodes through value = min + q * (max - min) / 65535.
        c.pos += (1 * 4 + 2) * 2;
        const float q = c.get<std::uint16_t>();
        EXPECT_NEAR(lo + q * (hi - lo) / 65535.0f, facsHeadValue(ch, 1, 2), (hi - lo) / 65535.0f);
        c.pos += (12 - 7) * 2;
    }
    EXPECT_EQ(c.get<std::uint16_t>(), 0);  // two-pose (c_JD, l_EC)
    EXPECT_EQ(c.get<std::uint16_t>(), 1);
    EXPECT_EQ(c.get<std::uint16_t>(), 1);  // three-pose (l_EC, c_JD, l_EC)
    EXPECT_EQ(c.get<std::uint16_t>(), 0);
    EXPECT_EQ(c.get<std::uint16_t>(), 1);
    EXPECT_EQ(c.pos, w.bytes.size());
}

struct Chunk {
    std::string name;
    std::uint32_t version = 0;
    std::size_t data = 0, size = 0;
};

std::vector<Chunk> chunks(const Bytes& b) {
    std::vector<Chunk> out;
    Cursor c{b, 13};
    while (c.pos + 16 <= b.size()) {
        Chunk ch;
        ch.name = c.chars(8);
        ch.name = ch.name.c_str();
        ch.version = c.get<std::uint32_t>();
        ch.size = c.get<std::uint32_t>();
        ch.data = c.pos;
        c.pos += ch.size;
        out.push_back(ch);
    }
    EXPECT_EQ(c.pos, b.size()) << "chunks end exactly at the end of the file";
    return out;
}

TEST(FileMeshWriter, Version6ChunksAndSkinningEnvelopes) {
    const Asset in = makeFacsHead();
    const FileMeshWriteResult w = writeVersion(in, "6.00");
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(head(w.bytes), "version 6.00\n");
    const auto cs = chunks(w.bytes);
    ASSERT_EQ(cs.size(), 4u);
    EXPECT_EQ(cs[0].name, "COREMESH");
    EXPECT_EQ(cs[0].version, 1u);
    EXPECT_EQ(cs[1].name, "LODS");
    EXPECT_EQ(cs[2].name, "SKINNING");
    EXPECT_EQ(cs[3].name, "FACS");
    const std::size_t nv = in.meshes[0].positions.size(), nf = in.meshes[0].triangleCount();
    EXPECT_EQ(cs[0].size, 4 + nv * 40 + 4 + nf * 12);
    EXPECT_EQ(cs[1].size, 2 + 1 + 4 + 2 * 4u);
    Cursor s{w.bytes, cs[2].data};
    EXPECT_EQ(s.get<std::uint32_t>(), nv);  // numSkinnings, then that many 8-byte envelopes
    s.pos += nv * 8;
    EXPECT_EQ(s.get<std::uint32_t>(), 5u);  // numBones
    s.pos += 5 * 60;
    const auto namesSize = s.get<std::uint32_t>();
    EXPECT_EQ(s.chars(namesSize), "Root\0Head\0Jaw\0LeftUpperEyelid\0LeftLowerEyelid\0"s);
    EXPECT_EQ(s.get<std::uint32_t>(), 1u);  // numSubsets
    EXPECT_EQ(s.pos + 72, cs[2].data + cs[2].size);
    Cursor fc{w.bytes, cs[3].data};
    EXPECT_EQ(fc.get<std::uint32_t>() + 4, cs[3].size);
}

TEST(FileMeshWriter, Version7HoldsASequentialDracoMeshLikeRealFiles) {
    const Asset in = makeSkinnedCylinder(3, 6, 8);
    const Mesh& m = in.meshes[0];
    const FileMeshWriteResult w = writeVersion(in, "7.00");
    ASSERT_TRUE(w.ok());
    const auto cs = chunks(w.bytes);
    ASSERT_EQ(cs.size(), 3u);
    EXPECT_EQ(cs[0].name, "COREMESH");
    EXPECT_EQ(cs[0].version, 2u);
    Cursor c{w.bytes, cs[0].data};
    const auto length = c.get<std::uint32_t>();
    ASSERT_EQ(length + 4, cs[0].size);
    // "DRACO", version 2.2, mesh, sequential (as in mesh7_100025761449828.bin).
    EXPECT_EQ(c.chars(5), "DRACO");
    EXPECT_EQ(c.get<std::uint8_t>(), 2);
    EXPECT_EQ(c.get<std::uint8_t>(), 2);
    EXPECT_EQ(c.get<std::uint8_t>(), 1);
    EXPECT_EQ(c.get<std::uint8_t>(), 0);
    draco::DecoderBuffer buffer;
    buffer.Init(reinterpret_cast<const char*>(w.bytes.data() + cs[0].data + 4), length);
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
    ASSERT_TRUE(decoded.ok()) << decoded.status().error_msg_string();
    const draco::Mesh& dm = *decoded.value();
    EXPECT_EQ(dm.num_points(), m.positions.size());
    EXPECT_EQ(dm.num_faces(), m.triangleCount());
    using GA = draco::GeometryAttribute;
    const struct {
        std::uint32_t id;
        GA::Type type;
        draco::DataType dt;
        int components;
    } expected[] = {{0, GA::POSITION, draco::DT_FLOAT32, 3},
                    {1, GA::GENERIC, draco::DT_FLOAT32, 3},
                    {2, GA::TEX_COORD, draco::DT_FLOAT32, 2},
                    {3, GA::GENERIC, draco::DT_UINT8, 4},
                    {4, GA::COLOR, draco::DT_UINT8, 4}};
    for (const auto& e : expected) {
        const draco::PointAttribute* a = dm.GetAttributeByUniqueId(e.id);
        ASSERT_NE(a, nullptr) << "unique id " << e.id;
        EXPECT_EQ(a->attribute_type(), e.type) << e.id;
        EXPECT_EQ(a->data_type(), e.dt) << e.id;
        EXPECT_EQ(a->num_components(), e.components) << e.id;
    }
    // Point order = vertex order (sequential encoding): SKINNING envelopes line up.
    const draco::PointAttribute* pos = dm.GetAttributeByUniqueId(0);
    for (std::uint32_t i = 0; i < dm.num_points(); ++i) {
        float p[3];
        pos->GetMappedValue(draco::PointIndex(i), p);
        EXPECT_EQ((Vec3{p[0], p[1], p[2]}), m.positions[i]) << i;
    }
    Cursor s{w.bytes, cs[2].data};
    EXPECT_EQ(s.get<std::uint32_t>(), dm.num_points());
}

TEST(FileMeshWriter, EachDroppedFeatureWarnsOnce) {
    Asset in = makeFacsHead();
    in.meshes[0].uv1 = in.meshes[0].uv0;
    const std::map<std::string, std::size_t> expected{{"2.00", 3}, {"3.00", 3}, {"3.01", 3},
                                                      {"4.00", 2}, {"4.01", 2}, {"5.00", 1},
                                                      {"6.00", 1}, {"7.00", 1}};
    for (const auto& [version, count] : expected) {
        const FileMeshWriteResult w = writeVersion(in, version);
        ASSERT_TRUE(w.ok()) << version;
        EXPECT_EQ(w.warnings.size(), count) << version;
        std::set<std::string> unique(w.warnings.begin(), w.warnings.end());
        EXPECT_EQ(unique.size(), w.warnings.size()) << version;
    }
}

TEST(FileMeshWriter, RefusesWhatItCannotWrite) {
    Asset in = makeUvSphere(4, 4);
    EXPECT_FALSE(writeVersion(in, "1.00").ok());
    EXPECT_FALSE(writeVersion(in, "8.00").ok());
    EXPECT_FALSE(writeFileMesh(in, 1, {}).ok());
    Asset bad = in;
    bad.meshes[0].indices[5] = 100000;
    const FileMeshWriteResult w = writeVersion(bad, "4.00");
    ASSERT_FALSE(w.ok());
    EXPECT_NE(w.error->find("100000"), std::string::npos);
    EXPECT_TRUE(w.bytes.empty());
    Asset lines = in;
    lines.meshes[0].primitive = Primitive::Lines;
    EXPECT_FALSE(writeVersion(lines, "4.00").ok());
    Asset skinBad = makeSkinnedCylinder(3, 2, 4);
    skinBad.meshes[0].skin[0].joints[0] = 7;
    EXPECT_FALSE(writeVersion(skinBad, "4.00").ok());
}

TEST(FileMeshWriter, GeneratorsAreDeterministic) {
    EXPECT_EQ(writeVersion(makeFacsHead(), "7.00").bytes,
              writeVersion(makeFacsHead(), "7.00").bytes);
    const Asset grid = makeGridMesh(1001);
    EXPECT_EQ(grid.meshes[0].triangleCount(), 1001u);
    for (std::uint32_t i : grid.meshes[0].indices) ASSERT_LT(i, grid.meshes[0].positions.size());
}

}  // namespace
}  // namespace meshscope::test
