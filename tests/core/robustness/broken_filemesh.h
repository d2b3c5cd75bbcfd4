// Broken Roblox FileMesh files (versions 2.00-7.00 and gzip-wrapped), made by writeFileMesh and
// byte surgery. Offsets come from the layout in shared/specs/roblox-filemesh-2023.txt, read back
// from the written header: "version X.YY\n" (13 bytes), then
//   v2 12-byte header {u16 size, u8 vertexSize, u8 faceSize, u32 numVerts, u32 numFaces}
//   v3 16 bytes {u16, u8, u8, u16 lodSize, u16 numLods, u32 numVerts, u32 numFaces}
//   v4 24 bytes {u16 size, u16 lodType, u32 numVerts, u32 numFaces, u16 numLods, u16 numBones,
//               u32 nameTableSize, u16 numSubsets, u8 numHighQualityLODs, u8 unused}
//   v5 32 bytes: v4 + {u32 facsFormat, u32 facsSize}
// followed by vertices (40 bytes), [envelopes (8 bytes each) when there are bones], faces (12),
// LOD offsets (4), bones (60), the name table, subsets (72) and the FACS blob; v6/v7 are chunks
// {char[8] name, u32 version, u32 size, payload}.
#pragma once

#include <limits>

#include "broken_case.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"

namespace meshscope::test::broken {

namespace filemesh {

constexpr std::size_t kDataStart = 13;  // "version X.YY\n"
constexpr std::size_t kVertexSize = 40, kFaceSize = 12, kBoneSize = 60, kSubsetSize = 72;

inline Bytes write(const Asset& asset, const char* version) {
    FileMeshWriteOptions o;
    o.version = version;
    auto r = writeFileMesh(asset, 0, o);
    if (!r.ok())
        throw std::runtime_error("writeFileMesh " + std::string(version) + ": " + *r.error);
    return r.bytes;
}

// Where everything of a v2-v5 file is, from its header fields.
struct Layout {
    std::size_t headerSize = 0, numVerts = 0, numFaces = 0, numLods = 0, numBones = 0, nameSize = 0,
                numSubsets = 0, facsSize = 0;
    std::size_t verts = 0, envelopes = 0, faces = 0, lods = 0, bones = 0, names = 0, subsets = 0,
                facs = 0, end = 0;
};

inline Layout layoutOf(const Bytes& b, int major) {
    Layout l;
    const std::size_t h = kDataStart;
    l.headerSize = getLe<std::uint16_t>(b, h);
    if (major == 2) {
        l.numVerts = getLe<std::uint32_t>(b, h + 4);
        l.numFaces = getLe<std::uint32_t>(b, h + 8);
    } else if (major == 3) {
        l.numLods = getLe<std::uint16_t>(b, h + 6);
        l.numVerts = getLe<std::uint32_t>(b, h + 8);
        l.numFaces = getLe<std::uint32_t>(b, h + 12);
    } else {
        l.numVerts = getLe<std::uint32_t>(b, h + 4);
        l.numFaces = getLe<std::uint32_t>(b, h + 8);
        l.numLods = getLe<std::uint16_t>(b, h + 12);
        l.numBones = getLe<std::uint16_t>(b, h + 14);
        l.nameSize = getLe<std::uint32_t>(b, h + 16);
        l.numSubsets = getLe<std::uint16_t>(b, h + 20);
        if (major == 5) l.facsSize = getLe<std::uint32_t>(b, h + 28);
    }
    l.verts = h + l.headerSize;
    l.envelopes = l.verts + l.numVerts * kVertexSize;
    l.faces = l.envelopes + (l.numBones ? l.numVerts * 8 : 0);
    l.lods = l.faces + l.numFaces * kFaceSize;
    l.bones = l.lods + l.numLods * 4;
    l.names = l.bones + l.numBones * kBoneSize;
    l.subsets = l.names + l.nameSize;
    l.facs = l.subsets + l.numSubsets * kSubsetSize;
    l.end = l.facs + l.facsSize;
    if (l.end != b.size()) throw std::runtime_error("FileMesh layout does not add up to the file");
    return l;
}

// A v6/v7 chunk: where its 16-byte header starts and its payload size.
struct Chunk {
    std::string name;
    std::size_t at = 0, size = 0;
    std::size_t payload() const { return at + 16; }
};

inline std::vector<Chunk> chunksOf(const Bytes& b) {
    std::vector<Chunk> out;
    for (std::size_t at = kDataStart; at < b.size();) {
        Chunk c;
        c.at = at;
        c.name = std::string(reinterpret_cast<const char*>(b.data() + at), 8);
        c.name = c.name.substr(0, c.name.find('\0'));
        c.size = getLe<std::uint32_t>(b, at + 12);
        out.push_back(c);
        at += 16 + c.size;
    }
    return out;
}

inline Chunk chunk(const Bytes& b, const std::string& name) {
    for (const Chunk& c : chunksOf(b))
        if (c.name == name) return c;
    throw std::runtime_error("no chunk " + name);
}

inline float nan() {
    return std::numeric_limits<float>::quiet_NaN();
}
inline float inf() {
    return std::numeric_limits<float>::infinity();
}

}  // namespace filemesh

inline void addFileMeshCases(std::vector<BrokenCase>& out) {
    using namespace filemesh;
    const Asset sphere = makeUvSphere(4, 6);
    const Asset skinned = makeSkinnedCylinder(3, 3, 5);
    const Asset lodSphere = makeLodSphere(3, 8, 12);
    const std::size_t V = sphere.meshes[0].positions.size();
    const std::size_t F = sphere.meshes[0].indices.size() / 3;
    auto add = [&](std::string name, CaseBytes bytes, std::optional<Expect> error,
                   std::optional<Expect> warning = {},
                   std::function<void(const DecodeResult&)> keeps = {}) {
        out.push_back({"roblox_mesh", std::move(name), ".mesh", std::move(bytes), std::move(error),
                       std::move(warning), std::move(keeps)});
    };
    auto keepsVertices = [](std::size_t n) {
        return [n](const DecodeResult& r) {
            ASSERT_EQ(r.asset.meshes.size(), 1u);
            EXPECT_EQ(r.asset.meshes[0].positions.size(), n);
        };
    };

    // --- 2.00: truncated inside the header and inside the vertex array.
    {
        const Bytes v2 = write(sphere, "2.00");
        const Layout l = layoutOf(v2, 2);
        // numVerts is the u32 at header + 4 = 17; cut two bytes into it.
        add("v2_truncated_in_header", cut(v2, kDataStart + 6),
            diag("truncated", kDataStart + 4, "numVerts needs 4 bytes, 2 remain"));
        // Two whole vertices and 5 bytes of the third: the count check at the array start fails.
        add("v2_truncated_in_vertices", cut(v2, l.verts + 2 * kVertexSize + 5),
            diag("count-too-large", l.verts,
                 "vertices: " + std::to_string(V) + " × 40 bytes needs " + std::to_string(V * 40) +
                     " but only 85 remain"));
    }
    // --- 3.00: cut inside the LOD offsets (after vertices and faces: both kept).
    {
        const Bytes v3 = write(sphere, "3.00");
        const Layout l = layoutOf(v3, 3);
        add("v3_truncated_in_lod_offsets", cut(v3, l.lods + 2),
            diag("count-too-large", l.lods,
                 "LOD offsets: " + std::to_string(l.numLods) + " × 4 bytes needs " +
                     std::to_string(l.numLods * 4) + " but only 2 remain"),
            {}, [V, F](const DecodeResult& r) {
                ASSERT_EQ(r.asset.meshes.size(), 1u);
                EXPECT_EQ(r.asset.meshes[0].positions.size(), V);
                EXPECT_EQ(r.asset.meshes[0].indices.size(), F * 3);
            });
    }
    // --- 4.00 (skinned): one cut at each structure boundary after the header.
    {
        const Bytes v4 = write(skinned, "4.00");
        const Layout l = layoutOf(v4, 4);
        const std::size_t sv = l.numVerts;
        add("v4_truncated_at_vertices", cut(v4, l.verts),
            diag("count-too-large", l.verts, "but only 0 remain"));
        add("v4_truncated_at_envelopes", cut(v4, l.envelopes),
            diag("count-too-large", l.envelopes,
                 "skin envelopes: " + std::to_string(sv) + " × 8 bytes"),
            {}, keepsVertices(sv));
        add("v4_truncated_at_faces", cut(v4, l.faces),
            diag("count-too-large", l.faces,
                 "faces: " + std::to_string(l.numFaces) + " × 12 bytes"),
            {}, keepsVertices(sv));
        add("v4_truncated_at_lod_offsets", cut(v4, l.lods),
            diag("count-too-large", l.lods, "LOD offsets"), {}, keepsVertices(sv));
        add("v4_truncated_in_bones", cut(v4, l.bones + kBoneSize + 30),
            diag("count-too-large", l.bones,
                 "bones: " + std::to_string(l.numBones) + " × 60 bytes needs " +
                     std::to_string(l.numBones * 60) + " but only 90 remain"),
            {}, keepsVertices(sv));
        add("v4_truncated_in_bone_names", cut(v4, l.names + 1),
            diag("count-too-large", l.names, "bone names: " + std::to_string(l.nameSize) + " × 1"),
            {}, keepsVertices(sv));
        add("v4_truncated_in_subsets", cut(v4, l.subsets + 10),
            diag("count-too-large", l.subsets,
                 "subsets: " + std::to_string(l.numSubsets) + " × 72"),
            {}, keepsVertices(sv));

        // Counts past the end: numVerts (header + 4), numFaces (header + 8).
        add("v4_vertex_count_past_end", putLe<std::uint32_t>(v4, kDataStart + 4, 0x10000000),
            diag("count-too-large", l.verts, "vertices: 268435456 × 40 bytes"));
        add("v4_face_count_past_end", putLe<std::uint32_t>(v4, kDataStart + 8, 0xffffffff),
            diag("count-too-large", l.faces, "faces: 4294967295 × 12 bytes"), {},
            keepsVertices(sv));

        // Bone 1's parent (u16 at record + 4) past the bone count.
        add("v4_bone_parent_out_of_range",
            putLe<std::uint16_t>(v4, l.bones + kBoneSize + 4, std::uint16_t(l.numBones + 5)), {},
            diag("bad-parent", l.bones + kBoneSize + 4,
                 "bones[1]: parent index " + std::to_string(l.numBones + 5) + " >= bone count " +
                     std::to_string(l.numBones)),
            [](const DecodeResult& r) {
                ASSERT_EQ(r.asset.skeletons.size(), 1u);
                EXPECT_EQ(r.asset.skeletons[0].bones[1].parent, -1);
            });
        // Bone 0 (a root) made a child of bone 1, whose parent is bone 0: walking up from bone 0
        // meets bone 0 again at bone 1's parent link, which is cut.
        add("v4_bone_parent_cycle", putLe<std::uint16_t>(v4, l.bones + 4, 1), {},
            diag("bone-parent-cycle", l.bones + kBoneSize + 4,
                 "bones[1]: parent index 0 closes a cycle of parents"),
            [](const DecodeResult& r) {
                ASSERT_EQ(r.asset.skeletons.size(), 1u);
                EXPECT_EQ(r.asset.skeletons[0].bones[0].parent, 1);
                EXPECT_EQ(r.asset.skeletons[0].bones[1].parent, -1);
            });
        // Bone 0's name index (u32 at record + 0) past the name table.
        add("v4_bone_name_index_out_of_range",
            putLe<std::uint32_t>(v4, l.bones, std::uint32_t(l.nameSize + 10)), {},
            diag("bad-name-index", l.bones,
                 "bones[0]: name index " + std::to_string(l.nameSize + 10) + " is outside the " +
                     std::to_string(l.nameSize) + "-byte name table"));
        // Subset 0's vertsLength (u32 at record + 12) past the vertices.
        add("v4_subset_past_vertices",
            putLe<std::uint32_t>(v4, l.subsets + 12, std::uint32_t(sv + 1000)), {},
            diag("subset-range", l.subsets,
                 "subset 0 reaches past the " + std::to_string(l.numFaces) + " faces / " +
                     std::to_string(sv) + " vertices; clamped"));
        // Subset 0's numBoneIndices (u32 at record + 16) above the 26 slots.
        add("v4_subset_bone_count_over_26", putLe<std::uint32_t>(v4, l.subsets + 16, 200), {},
            diag("bad-subset", l.subsets + 16, "subsets[0]: numBoneIndices 200 > 26"));
        // Vertex 0's first envelope bone byte past the subset's bone table (weight stays).
        {
            Bytes b = v4;
            b[l.envelopes] = 250;
            b[l.envelopes + 4] = 255;
            add("v4_envelope_bone_out_of_range", b, {},
                diag("skin-unresolved", l.envelopes, "first: vertex 0"));
        }
    }
    // --- 4.00 (plain sphere): indices out of range, NaN / Inf positions, LOD offsets.
    {
        const Bytes v4 = write(sphere, "4.00");
        const Layout l = layoutOf(v4, 4);
        // Face 3, corner 1: faces + 3 × 12 + 4.
        add("v4_face_index_out_of_range",
            putLe<std::uint32_t>(v4, l.faces + 3 * kFaceSize + 4, std::uint32_t(V)),
            diag("index-out-of-range", l.faces + 3 * kFaceSize + 4,
                 "faces[3]: face index " + std::to_string(V) + " >= vertex count " +
                     std::to_string(V)),
            {}, [V](const DecodeResult& r) {
                ASSERT_EQ(r.asset.meshes.size(), 1u);
                EXPECT_EQ(r.asset.meshes[0].positions.size(), V);
                for (std::uint32_t i : r.asset.meshes[0].indices) EXPECT_LT(i, V);
            });
        // Vertex 1's x (vertex + 0) is NaN.
        add("v4_nan_position", putLe<float>(v4, l.verts + kVertexSize, nan()), {},
            diag("non-finite-vertices", l.verts,
                 "1 of " + std::to_string(V) +
                     " vertices have non-finite positions (first: vertex 1)"),
            [V](const DecodeResult& r) {
                ASSERT_EQ(r.asset.meshes.size(), 1u);
                EXPECT_EQ(r.asset.meshes[0].positions.size(), V);
                EXPECT_TRUE(r.asset.meshes[0].bounds.min.finite());
                EXPECT_TRUE(r.asset.meshes[0].bounds.max.finite());
            });
        // Vertex 2's y (+4) is +Inf and vertex 5's z (+8) is -Inf.
        add("v4_inf_position",
            putLe<float>(putLe<float>(v4, l.verts + 2 * kVertexSize + 4, inf()),
                         l.verts + 5 * kVertexSize + 8, -inf()),
            {},
            diag("non-finite-vertices", l.verts,
                 "2 of " + std::to_string(V) +
                     " vertices have non-finite positions (first: vertex 2)"));
    }
    {
        const Bytes v4 = write(lodSphere, "4.00");
        const Layout l = layoutOf(v4, 4);
        // Offset 2 of the 4 (u32 at lods + 8) past the faces: LOD1 = [offset1, F + 100).
        const std::uint32_t o1 = getLe<std::uint32_t>(v4, l.lods + 4);
        add("v4_lod_offset_past_faces",
            putLe<std::uint32_t>(v4, l.lods + 8, std::uint32_t(l.numFaces + 100)), {},
            diag("lod-range", l.lods + 8,
                 "LOD1 faces [" + std::to_string(o1) + ", " + std::to_string(l.numFaces + 100) +
                     ") do not fit the " + std::to_string(l.numFaces) + " faces; clamped"));
    }
    // --- 5.00: a FACS size (u32 at header + 28) past the end of the file.
    {
        const Bytes v5 = write(makeFacsHead(), "5.00");
        const Layout l = layoutOf(v5, 5);
        add("v5_facs_size_past_end", putLe<std::uint32_t>(v5, kDataStart + 28, 0x7fffffff),
            diag("count-too-large", l.facs, "FACS data: 2147483647 × 1 bytes"), {},
            keepsVertices(l.numVerts));
        add("v5_truncated_in_facs", cut(v5, l.facs + l.facsSize / 2),
            diag("count-too-large", l.facs, "FACS data: " + std::to_string(l.facsSize) + " × 1"),
            {}, keepsVertices(l.numVerts));
    }
    // --- 6.00: chunk headers and payloads.
    {
        const Bytes v6 = write(sphere, "6.00");
        const Chunk core = chunk(v6, "COREMESH");
        const Chunk lods = chunk(v6, "LODS");
        // Cut in the chunk version (u32 at chunk + 8).
        add("v6_truncated_in_chunk_header", cut(v6, core.at + 10),
            diag("truncated", core.at + 8, "chunk version needs 4 bytes, 2 remain"));
        // Chunk size (u32 at chunk + 12) past the end.
        add("v6_chunk_size_past_end", putLe<std::uint32_t>(v6, core.at + 12, 0x7fffffff),
            diag("truncated", core.payload(), "chunk payload needs 2147483647 bytes"));
        // COREMESH v1 payload: u32 numVerts, vertices, u32 numFaces, faces.
        const std::size_t facesAt = core.payload() + 4 + V * kVertexSize + 4;
        add("v6_face_index_out_of_range",
            putLe<std::uint32_t>(v6, facesAt + 2 * kFaceSize + 8, std::uint32_t(V + 7)),
            diag("index-out-of-range", facesAt + 2 * kFaceSize + 8,
                 "faces[2]: face index " + std::to_string(V + 7) + " >= vertex count " +
                     std::to_string(V)),
            {}, keepsVertices(V));
        add("v6_vertex_count_past_end", putLe<std::uint32_t>(v6, core.payload(), 0x01000000),
            diag("count-too-large", core.payload() + 4, "vertices: 16777216 × 40 bytes"));
        // A zero-length COREMESH: its header with size 0, then the LODS chunk as before.
        {
            Bytes b = cut(v6, core.at + 16);
            b = putLe<std::uint32_t>(b, core.at + 12, 0);
            b.insert(b.end(), v6.begin() + std::ptrdiff_t(lods.at), v6.end());
            add("v6_zero_length_coremesh", b,
                diag("truncated", core.payload(), "numVerts needs 4 bytes, 0 remain"));
        }
        // A zero-length chunk of an unknown name before LODS: kept with a warning.
        {
            Bytes empty = text(std::string("EMPTY\0\0\0", 8));
            empty = concat(empty, Bytes{1, 0, 0, 0, 0, 0, 0, 0});
            add("v6_zero_length_unknown_chunk", insertAt(v6, lods.at, empty), {},
                diag("unknown-chunk", lods.at, "unknown chunk EMPTY v1 (0 bytes)"),
                keepsVertices(V));
        }
    }
    // --- 7.00: Draco payload length (u32 at COREMESH payload) zero or past the chunk.
    {
        const Bytes v7 = write(sphere, "7.00");
        const Chunk core = chunk(v7, "COREMESH");
        add("v7_zero_length_draco", putLe<std::uint32_t>(v7, core.payload(), 0),
            diag("draco", core.payload() + 4, "the Draco payload is empty"));
        add("v7_draco_length_past_chunk", putLe<std::uint32_t>(v7, core.payload(), 0x7fffffff),
            diag("count-too-large", core.payload() + 4, "Draco payload: 2147483647 × 1 bytes"));
    }
    // --- gzip-wrapped: a compression bomb, and a stream cut in half.
    {
        add("gzip_bomb", CaseBytes::lazy([] { return deflateBytes(bombPayload(), true); }),
            diag("limit", 0, "would exceed the decompression budget"));
        const Bytes gz = deflateBytes(write(sphere, "4.00"), true);
        add("gzip_truncated", cut(gz, gz.size() / 2),
            diag("truncated", 0, "stream ends before its end marker"));
    }
}

}  // namespace meshscope::test::broken
