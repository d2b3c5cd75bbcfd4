// Broken Unigine files: mi08 .mesh, ms08 .smesh and as08 .sanim made by the Unigine writers plus
// byte surgery, and mr02 .mesh (no writer: the 2005 layout has no writer) assembled from its
// layout. Offsets follow shared/specs/unigine-mesh-smesh-sanim.txt, walked over the written bytes:
//   mi08: "mi08", bounds (40), int surfaceCount, per surface {name, bounds (40)}, then per surface
//         {int V, V × 18 (float[3] + ushort[3]), int n0, n0 × 8, int n1, n1 × 8, int T,
//          T × 3 indices (2 bytes below 65536 vertices)}
//   ms08: "ms08", int B, B × {name, int parent}, int frames, frames × B × 32, int surfaceCount,
//         names, per surface {int V, per vertex 19 + 3 × weights bytes, texture coordinates,
//         triangles}
//   as08: "as08", the same bone table, bounds (32), int frames, per frame and bone a flag byte and
//         2 bytes per set bit
//   mr02: "mr02", int surfaceCount, per surface char[128] name, int V, V × 32
// Names are an int length (the characters and the NUL) and the characters.
#pragma once

#include <bit>
#include <limits>

#include "broken_case.h"
#include "meshscope/core/error_codes.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/unigine_writer.h"

namespace meshscope::test::broken {

namespace unigine {

inline std::size_t nameEnd(const Bytes& b, std::size_t at) {
    return at + 4 + std::size_t(getLe<std::int32_t>(b, at));
}

struct MiSurface {
    std::size_t header = 0, data = 0, V = 0, vertices = 0, tris = 0, T = 0, end = 0;
};

// Surfaces of an mi08 file.
inline std::vector<MiSurface> miSurfaces(const Bytes& b) {
    const std::size_t count = std::size_t(getLe<std::int32_t>(b, 44));
    std::vector<MiSurface> s(count);
    std::size_t pos = 48;
    for (auto& x : s) {
        x.header = pos;
        pos = nameEnd(b, pos) + 40;
    }
    for (auto& x : s) {
        x.data = pos;
        x.V = std::size_t(getLe<std::int32_t>(b, pos));
        x.vertices = pos + 4;
        pos = x.vertices + 18 * x.V;
        for (int set = 0; set < 2; ++set) pos += 4 + 8 * std::size_t(getLe<std::int32_t>(b, pos));
        x.tris = pos;
        x.T = std::size_t(getLe<std::int32_t>(b, pos));
        pos += 4 + x.T * 3 * (x.V >= 65536 ? 4 : 2);
        x.end = pos;
    }
    if (pos != b.size()) throw std::runtime_error("mi08 layout does not add up to the file");
    return s;
}

struct BoneTable {
    std::vector<std::size_t> records, parents;  // record start, parent int
    std::size_t end = 0;
};

inline BoneTable bonesAt(const Bytes& b, std::size_t at) {
    BoneTable t;
    const std::size_t n = std::size_t(getLe<std::int32_t>(b, at));
    std::size_t pos = at + 4;
    for (std::size_t i = 0; i < n; ++i) {
        t.records.push_back(pos);
        pos = nameEnd(b, pos);
        t.parents.push_back(pos);
        pos += 4;
    }
    t.end = pos;
    return t;
}

// ms08: bone table at 4, frames after it, surfaces after the frames.
struct MsLayout {
    BoneTable bones;
    std::size_t frames = 0, surfaceCount = 0, firstSurfaceData = 0;
};

inline MsLayout msLayout(const Bytes& b) {
    MsLayout l;
    l.bones = bonesAt(b, 4);
    l.frames = l.bones.end;
    const std::size_t frameCount = std::size_t(getLe<std::int32_t>(b, l.frames));
    l.surfaceCount = l.frames + 4 + frameCount * l.bones.records.size() * 32;
    std::size_t pos = l.surfaceCount + 4;
    for (std::int32_t i = 0; i < getLe<std::int32_t>(b, l.surfaceCount); ++i) pos = nameEnd(b, pos);
    l.firstSurfaceData = pos;
    return l;
}

inline Asset twoSurfaces() {
    Asset a;
    a.meshes.push_back(makeUvSphere(2, 3).meshes[0]);
    a.meshes.push_back(makeUvSphere(3, 4).meshes[0]);
    // A long first name: the decoder checks up front that 60 bytes per surface remain, so a cut
    // inside the second surface's header must come after 48 + 2 × 60 bytes.
    a.meshes[0].name = std::string(100, 'n');
    a.meshes[1].name = "second";
    return a;
}

inline Asset skinnedWithAnimation() {
    Asset a = makeSkinnedCylinder(3, 3, 5);
    Animation anim;
    anim.name = "bend";
    anim.frameCount = 3;
    anim.skeleton = 0;
    for (const auto& bone : a.skeletons.at(0).bones) {
        BoneTrack t;
        t.bone = bone.name;
        for (int f = 0; f < 3; ++f) {
            t.positions.push_back({0, 0.25f * float(f), 0});
            t.rotations.push_back({0, 0, 0, 1});
            t.scales.push_back({1, 1, 1});
        }
        anim.tracks.push_back(t);
    }
    a.animations.push_back(anim);
    return a;
}

template <typename R>
Bytes checked(const R& r) {
    if (!r.ok()) throw std::runtime_error("Unigine writer: " + *r.error);
    return r.bytes;
}

// mr02 from its layout: `surfaces` copies of one surface of `vertices` (x, y, z, nx, ny, nz,
// u, v) records.
inline Bytes mr02(const std::vector<std::array<float, 8>>& vertices, int surfaces = 1) {
    Bytes b = text("mr02");
    b = concat(b, Bytes(4, 0));
    b = putLe<std::int32_t>(b, 4, surfaces);
    for (int s = 0; s < surfaces; ++s) {
        Bytes name(128, 0);
        std::memcpy(name.data(), "plane", 5);
        b = concat(b, name);
        Bytes count(4, 0);
        b = concat(b, putLe<std::int32_t>(count, 0, std::int32_t(vertices.size())));
        for (const auto& v : vertices) {
            Bytes rec(32);
            std::memcpy(rec.data(), v.data(), 32);
            b = concat(b, rec);
        }
    }
    return b;
}

}  // namespace unigine

// --- UNIGINE 2 (ms10 / ms11 / ms14 .mesh, an10 .anim; layouts in core/formats/unigine/format.md)
//   ms11: "ms11", bounds (40), int bones, bones {name, short parent}, int animations, names,
//         int surfaces, per surface {name, bounds (40), int targets, target names}, "ms11",
//         bind pose (40 per bone), animation blocks, per surface {int V, V × 12, int T, T × 8,
//         int W, W × {u8 k, k × 4}, int n0, n0 × 8, int n1, n1 × 8, int C, C × 4, int I,
//         I indices, int I, I indices}, "ms11"
//   ms14: "ms14", int, bounds, int bones, int surfaces, per surface {name, 2 chars, int I, int I,
//         bounds, int targets, per target {name, int V}}, long, "ms14", per surface {u64 size,
//         u64 packed size, LZ4 block}, "ms14", spatial tree blocks the same way, "ms14",
//         per surface a u64 block offset, "ms14"
// "int" is the compact signed integer: bit 7 more, bit 6 sign, 6 then 7 bits per byte.
inline Bytes compactInt(std::int64_t value) {
    Bytes out;
    std::uint64_t v = value < 0 ? std::uint64_t(-value) : std::uint64_t(value);
    std::uint8_t b = std::uint8_t((v & 0x3f) | (value < 0 ? 0x40 : 0));
    v >>= 6;
    if (v) b |= 0x80;
    out.push_back(b);
    while (v) {
        b = std::uint8_t(v & 0x7f);
        v >>= 7;
        if (v) b |= 0x80;
        out.push_back(b);
    }
    return out;
}

inline std::int64_t readCompact(const Bytes& b, std::size_t& pos) {
    std::uint8_t x = b.at(pos++);
    const bool negative = x & 0x40;
    std::int64_t v = x & 0x3f;
    int shift = 6;
    while (x & 0x80) {
        x = b.at(pos++);
        v |= std::int64_t(x & 0x7f) << shift;
        shift += 7;
    }
    return negative ? -v : v;
}

// `b` with the compact int at `at` replaced by `value`.
inline Bytes replaceCompact(const Bytes& b, std::size_t at, std::int64_t value) {
    std::size_t end = at;
    readCompact(b, end);
    Bytes out(b.begin(), b.begin() + std::ptrdiff_t(at));
    const Bytes v = compactInt(value);
    out.insert(out.end(), v.begin(), v.end());
    out.insert(out.end(), b.begin() + std::ptrdiff_t(end), b.end());
    return out;
}

inline std::size_t compactNameEnd(const Bytes& b, std::size_t pos) {
    const std::int64_t n = readCompact(b, pos);
    return pos + std::size_t(n);
}

struct Ms11Layout {
    std::size_t bones = 0, surfaceCount = 0, firstData = 0;
    std::vector<std::size_t> parents;  // each bone's short parent
};

// ms10 / ms11 without animations: where the bone table, the surface count and surface 0's data
// are.
inline Ms11Layout ms11Layout(const Bytes& b) {
    Ms11Layout l;
    std::size_t pos = 44;
    l.bones = pos;
    const std::int64_t bones = readCompact(b, pos);
    for (std::int64_t i = 0; i < bones; ++i) {
        pos = compactNameEnd(b, pos);
        l.parents.push_back(pos);
        pos += 2;
    }
    if (readCompact(b, pos) != 0) throw std::runtime_error("ms11 layout: animations");
    l.surfaceCount = pos;
    const std::int64_t surfaces = readCompact(b, pos);
    for (std::int64_t i = 0; i < surfaces; ++i) {
        pos = compactNameEnd(b, pos) + 40;
        const std::int64_t targets = readCompact(b, pos);
        for (std::int64_t t = 0; t < targets; ++t) pos = compactNameEnd(b, pos);
    }
    l.firstData = pos + 4 + 40 * std::size_t(bones);
    return l;
}

// ms14: the first geometry block (its size fields) and the block offset table.
inline std::pair<std::size_t, std::size_t> ms14Blocks(const Bytes& b, std::size_t surfaces) {
    std::size_t sig = 4;
    while (std::string(b.begin() + std::ptrdiff_t(sig), b.begin() + std::ptrdiff_t(sig) + 4) !=
           "ms14")
        ++sig;
    return {sig + 4, b.size() - 4 - 8 * surfaces};
}

inline void addUnigineCases(std::vector<BrokenCase>& out) {
    using namespace unigine;
    auto add = [&](std::string name, const char* ext, Bytes bytes, std::optional<Expect> error,
                   std::optional<Expect> warning = {},
                   std::function<void(const DecodeResult&)> keeps = {}) {
        out.push_back({"unigine", std::move(name), ext, std::move(bytes), std::move(error),
                       std::move(warning), std::move(keeps)});
    };
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();

    // --- UNIGINE 2
    {
        const Asset asset = twoSurfaces();
        const Bytes ms = checked(writeUnigine2Mesh(asset, "ms11"));
        const Ms11Layout l = ms11Layout(ms);
        add("ms11_truncated_in_bounds", ".mesh", cut(ms, 20),
            diag("truncated", 20, "bounds needs 4 bytes, 0 remain"));
        add("ms11_surface_count_past_end", ".mesh", replaceCompact(ms, l.surfaceCount, 0x7fffffff),
            diag("count-too-large", l.surfaceCount + 5, "surfaces: 2147483647 × 2 bytes"));
        add("ms11_negative_surface_count", ".mesh", replaceCompact(ms, l.surfaceCount, -1),
            diag("bad-count", l.surfaceCount, "surface count is negative (-1)"));
        Bytes endless = cut(ms, l.surfaceCount);
        endless.insert(endless.end(), 6, 0xff);
        add("ms11_compact_int_too_long", ".mesh", endless,
            diag("bad-int", l.surfaceCount, "compact int longer than 5 bytes"));
        const Bytes bigV = replaceCompact(ms, l.firstData, 0x01000000);
        add("ms11_vertex_count_past_end", ".mesh", bigV,
            diag("count-too-large", l.firstData + 4, "vertices: 16777216 × 12 bytes"));
        add("ms11_vertex_count_over_cap", ".mesh", replaceCompact(ms, l.firstData, 0x7fffffff),
            diag("limit", l.firstData, "vertex count exceeds maxVertices"));
        add("ms11_truncated_in_first_surface", ".mesh", cut(ms, l.firstData + 30),
            diag("count-too-large", l.firstData + 1, "vertices:"));

        Asset skinned = skinnedWithAnimation();
        skinned.animations.clear();
        const Bytes sk = checked(writeUnigine2Mesh(skinned, "ms11"));
        const Ms11Layout k = ms11Layout(sk);
        // Surface 0: V, V × 12, T, T × 8, W, then the first weight record {u8 k, short bone ...}.
        std::size_t pos = k.firstData;
        const std::size_t V = std::size_t(readCompact(sk, pos));
        pos += 12 * V;
        const std::size_t T = std::size_t(readCompact(sk, pos));
        pos += 8 * T;
        readCompact(sk, pos);
        const std::size_t firstBone = pos + 1;
        add("ms11_weight_bone_out_of_range", ".mesh", putLe<std::int16_t>(sk, firstBone, 999), {},
            diag("bad-bone-index", firstBone, "vertex weights name a bone past the"),
            [V](const DecodeResult& r) {
                ASSERT_EQ(r.asset.meshes.size(), 1u);
                EXPECT_EQ(r.asset.meshes[0].skin.size(), r.asset.meshes[0].positions.size());
                EXPECT_GE(r.asset.meshes[0].positions.size(), V);
            });
        // Bone 0's parent made the last bone: walking up from bone 0 meets it again through bone
        // 1, whose link is cut.
        add("ms11_bone_parent_cycle", ".mesh",
            putLe<std::int16_t>(sk, k.parents[0], std::int16_t(k.parents.size() - 1)), {},
            diag("bone-parent-cycle", k.parents[1],
                 "bone 1 (\"Bone1\") has parent 0, which closes a cycle of parents"),
            [](const DecodeResult& r) { EXPECT_EQ(r.asset.skeletons.size(), 1u); });
        add("ms11_bone_parent_out_of_range", ".mesh", putLe<std::int16_t>(sk, k.parents[1], 500),
            {}, diag("bad-parent", k.parents[1], "has parent 500"));

        // Morph targets (blend shapes): surface 0 with one target after its geometry. Its block
        // starts after the base's V, V positions, T, T tangents.
        Asset morph = twoSurfaces();
        morph.meshes[0].morphTargets = {MorphTarget{
            "raise", std::vector<Vec3>(morph.meshes[0].positions.size(), Vec3{0, 0, 0.5f}), {}}};
        const Bytes mt = checked(writeUnigine2Mesh(morph, "ms11"));
        const Ms11Layout ml = ms11Layout(mt);
        std::size_t target = ml.firstData;
        const std::size_t baseV = std::size_t(readCompact(mt, target));
        target += 12 * baseV;
        const std::size_t baseT = std::size_t(readCompact(mt, target));
        target += 8 * baseT;
        std::size_t targetPositions = target;
        readCompact(mt, targetPositions);
        // The target holds one vertex fewer than the base: it is dropped with a warning, the
        // surface is kept.
        Bytes shorter = replaceCompact(mt, target, std::int64_t(baseV) - 1);
        if (shorter.size() != mt.size()) throw std::runtime_error("morph fixture: compact length");
        shorter.erase(shorter.begin() + std::ptrdiff_t(targetPositions),
                      shorter.begin() + std::ptrdiff_t(targetPositions + 12));
        add("ms11_morph_target_vertex_count_mismatch", ".mesh", shorter, {},
            diag("count-mismatch", ml.firstData, "morph target \"raise\" of surface"),
            [baseV](const DecodeResult& r) {
                ASSERT_EQ(r.asset.meshes.size(), 2u);
                EXPECT_TRUE(r.asset.meshes[0].morphTargets.empty());
                EXPECT_FALSE(r.asset.meshes[0].positions.empty());
                EXPECT_GE(r.asset.meshes[0].positions.size(), baseV);
            });
        // Cut inside the target's positions: refused before allocating, with the offset.
        add("ms11_truncated_in_morph_target", ".mesh", cut(mt, targetPositions + 30),
            diag("count-too-large", targetPositions, "vertices:"));

        const Bytes m14 = checked(writeUnigine2Mesh(asset, "ms14"));
        const auto [block, table] = ms14Blocks(m14, 2);
        if (getLe<std::uint64_t>(m14, block + 8) >= getLe<std::uint64_t>(m14, block))
            throw std::runtime_error("ms14 fixture block is not compressed");
        Bytes corrupt = m14;
        corrupt[block + 16] = 0x0f;  // a match before any literal
        corrupt[block + 17] = 0xff;
        corrupt[block + 18] = 0xff;
        add("ms14_corrupt_lz4_block", ".mesh", corrupt, diag("lz4", block + 16, "LZ4 data"));
        add("ms14_packed_size_past_end", ".mesh", putLe<std::uint64_t>(m14, block + 8, 1ull << 40),
            diag("truncated", block + 8, "runs past the end of the file"));
        add("ms14_wrong_block_offset", ".mesh", putLe<std::uint64_t>(m14, table, 7), {},
            diag("bad-block-offset", table, "does not point at its block"),
            [](const DecodeResult& r) { EXPECT_EQ(r.asset.meshes.size(), 2u); });
        // The signature after the last geometry block (surface 1's, at its table offset).
        const std::size_t last = std::size_t(getLe<std::uint64_t>(m14, table + 8));
        const std::size_t sigAt = last + 16 + std::size_t(getLe<std::uint64_t>(m14, last + 8));
        add("ms14_bad_signature_after_geometry", ".mesh", putLe<std::uint8_t>(m14, sigAt, 'x'),
            diag("bad-signature", sigAt, "signature after the geometry"), {},
            [](const DecodeResult& r) { EXPECT_EQ(r.asset.meshes.size(), 2u); });

        // ms15 (documented layout, written by our writer): the header's signature damaged, and
        // a block offset that does not point at its block.
        const Bytes m15 = checked(writeUnigine2Mesh(asset, "ms15"));
        std::size_t sig15 = 4;
        while (std::string(m15.begin() + std::ptrdiff_t(sig15),
                           m15.begin() + std::ptrdiff_t(sig15) + 4) != "ms15")
            ++sig15;
        add("ms15_bad_signature_after_headers", ".mesh", putLe<std::uint8_t>(m15, sig15, 'x'),
            diag("bad-signature", sig15, "signature after the headers"));
        const std::size_t table15 = m15.size() - 4 - 8 * 2;
        add("ms15_wrong_block_offset", ".mesh", putLe<std::uint64_t>(m15, table15 + 8, 9), {},
            diag("bad-block-offset", table15 + 8, "does not point at its block"),
            [](const DecodeResult& r) { EXPECT_EQ(r.asset.meshes.size(), 2u); });

        // sk10 / sn10 / an12 (documented layouts, written by our writers): int32 counts that
        // claim more records than the file holds are refused before allocating.
        const Bytes sk10 = checked(writeUnigine2Mesh(skinnedWithAnimation(), "sk10"));
        // "sk10", compact spatial-tree count (1 byte), bounds (40): the int32 joint count at 45.
        add("sk10_joint_count_past_end", ".mesh_skinned", putLe<std::int32_t>(sk10, 45, 0x7fffffff),
            diag("count-too-large", 49, "bones"));  // reported after the count
        const Bytes sn10 = checked(writeUnigine2Skeleton(skinnedWithAnimation(), 0));
        add("sn10_joint_count_negative", ".skeleton", putLe<std::int32_t>(sn10, 4, -3),
            diag("bad-count", 4, "negative joint count"));
        const Bytes an12 = checked(writeUnigine2AnimationAn12(skinnedWithAnimation(), 0));
        add("an12_truncated_in_frames", ".anim", cut(an12, an12.size() - 6),
            diag("truncated", an12.size() - 8, ""));  // the last float, 2 of its 4 bytes left

        const Bytes an = checked(writeUnigine2Animation(skinnedWithAnimation(), 0));
        add("an10_truncated_in_frames", ".anim", cut(an, an.size() - 10),
            diag("truncated", an.size() - 10, "change mask needs 1 bytes, 0 remain"));
        add("ms12_refused_by_name", ".mesh", concat(text("ms12"), Bytes(60, 0)),
            diag("unsupported-version", 0, "Unigine mesh version ms12 is not supported"));
    }

    // --- mi08
    {
        const Asset asset = twoSurfaces();
        const Bytes mi = checked(writeUnigineMesh(asset));
        const auto s = miSurfaces(mi);
        const std::size_t V0 = s[0].V, T0 = s[0].T;
        // Bounds: min at 4, max at 16, centre at 28, radius at 40.
        add("mi08_truncated_in_bounds", ".mesh", cut(mi, 24),
            diag(errc::kTruncated, 16, "bounding box maximum needs 12 bytes, 8 remain"));
        // Two characters into surface 1's name ("second" and its NUL: 7 bytes).
        add("mi08_truncated_in_surface_name", ".mesh", cut(mi, s[1].header + 4 + 2),
            diag(errc::kTruncated, s[1].header + 4, "surface name needs 7 bytes, 2 remain"));
        // Fewer bytes than 60 per surface after the count: refused before reading any.
        add("mi08_truncated_in_surface_headers", ".mesh", cut(mi, 48 + 100),
            diag(errc::kCountTooLarge, 48, "surfaces: 2 × 60 bytes needs 120 but only 100 remain"));
        add("mi08_truncated_at_surface_data", ".mesh", cut(mi, s[0].data),
            diag(errc::kTruncated, s[0].data, "vertex count needs 4 bytes, 0 remain"));
        // Three bytes into surface 1's indices: surface 0 is complete and kept.
        add("mi08_truncated_in_second_surface_triangles", ".mesh", cut(mi, s[1].tris + 4 + 3),
            diag(errc::kCountTooLarge, s[1].tris + 4,
                 "triangle indices: " + std::to_string(s[1].T * 3) + " × 2 bytes needs " +
                     std::to_string(s[1].T * 6) + " but only 3 remain"),
            {}, [V0, T0](const DecodeResult& r) {
                ASSERT_EQ(r.asset.meshes.size(), 1u);
                EXPECT_EQ(r.asset.meshes[0].name, std::string(100, 'n'));
                EXPECT_EQ(r.asset.meshes[0].positions.size(), V0);
                EXPECT_EQ(r.asset.meshes[0].indices.size(), T0 * 3);
            });
        add("mi08_surface_count_past_end", ".mesh", putLe<std::int32_t>(mi, 44, 0x7fffffff),
            diag(errc::kCountTooLarge, 48, "surfaces: 2147483647 × 60 bytes"));
        add("mi08_vertex_count_past_end", ".mesh", putLe<std::int32_t>(mi, s[0].data, 0x01000000),
            diag(errc::kCountTooLarge, s[0].data + 4, "vertices: 16777216 × 18 bytes"));
        add("mi08_vertex_count_over_cap", ".mesh", putLe<std::int32_t>(mi, s[0].data, 0x7fffffff),
            diag(errc::kLimit, s[0].data, "vertex count 2147483647 exceeds maxVertices"));
        add("mi08_negative_triangle_count", ".mesh", putLe<std::int32_t>(mi, s[0].tris, -1),
            diag(errc::kBadCount, s[0].tris, "triangle count is negative (-1)"));
        add("mi08_name_length_over_1024", ".mesh", putLe<std::int32_t>(mi, s[0].header, 5000),
            diag(errc::kBadLength, s[0].header, "surface name length 5000 is outside 0..1024"));
        // Surface 0, triangle 1, corner 0 (ushort at tris + 4 + 1 × 6) = the vertex count.
        add("mi08_index_out_of_range", ".mesh",
            putLe<std::uint16_t>(mi, s[0].tris + 4 + 6, std::uint16_t(V0)), {},
            diag(errc::kIndexOutOfRange, s[0].tris + 4 + 6,
                 "1 of " + std::to_string(T0) + " triangles index past the " + std::to_string(V0) +
                     " vertices and were dropped (first: triangle 1 = " + std::to_string(V0)),
            [T0](const DecodeResult& r) {
                ASSERT_EQ(r.asset.meshes.size(), 2u);
                EXPECT_EQ(r.asset.meshes[0].indices.size(), (T0 - 1) * 3);
            });
        // Surface 0, vertex 2's x (record + 0) NaN; surface 1, vertex 0's z (+8) +Inf.
        add("mi08_nan_position", ".mesh", putLe<float>(mi, s[0].vertices + 2 * 18, nan), {},
            diag(errc::kNonFiniteVertices, s[0].vertices,
                 "1 of " + std::to_string(V0) +
                     " vertices have non-finite positions (first: vertex 2)"),
            [](const DecodeResult& r) {
                ASSERT_EQ(r.asset.meshes.size(), 2u);
                EXPECT_TRUE(r.asset.meshes[0].bounds.valid());
                EXPECT_TRUE(r.asset.meshes[0].bounds.min.finite());
            });
        add("mi08_inf_position", ".mesh", putLe<float>(mi, s[1].vertices + 8, inf), {},
            diag(errc::kNonFiniteVertices, s[1].vertices,
                 "1 of " + std::to_string(s[1].V) +
                     " vertices have non-finite positions (first: vertex 0)"));
        // No surfaces: everything after the count is left over.
        add("mi08_zero_surfaces", ".mesh", putLe<std::int32_t>(mi, 44, 0), {},
            diag(errc::kTrailingBytes, 48,
                 std::to_string(mi.size() - 48) + " bytes follow the last surface"),
            [](const DecodeResult& r) { EXPECT_TRUE(r.asset.meshes.empty()); });
    }

    // --- ms08
    {
        const Bytes ms = checked(writeUnigineSkinnedMesh(skinnedWithAnimation()));
        const MsLayout l = msLayout(ms);
        const std::size_t B = l.bones.records.size();
        // Two bytes into bone 2's name length (8 bytes a bone are checked up front: the cut
        // leaves more).
        add("ms08_truncated_in_bone_table", ".smesh", cut(ms, l.bones.records[2] + 2),
            diag(errc::kTruncated, l.bones.records[2], "bone name needs 4 bytes, 2 remain"));
        add("ms08_truncated_in_bone_count_check", ".smesh", cut(ms, 8 + 8 * B - 1),
            diag(errc::kCountTooLarge, 8, "bones: " + std::to_string(B) + " × 8 bytes"));
        add("ms08_bone_count_past_end", ".smesh", putLe<std::int32_t>(ms, 4, 0x7fffffff),
            diag(errc::kCountTooLarge, 8, "bones: 2147483647 × 8 bytes"));
        add("ms08_frame_count_past_end", ".smesh", putLe<std::int32_t>(ms, l.frames, 0x7fffffff),
            diag(
                "count-too-large", l.frames + 4,
                "frame records: " + std::to_string(std::uint64_t(0x7fffffff) * B) + " × 32 bytes"));
        // Cut in the middle of frame 1: the frame array is checked as a whole.
        add("ms08_truncated_in_frames", ".smesh", cut(ms, l.frames + 4 + B * 32 + 16),
            diag(errc::kCountTooLarge, l.frames + 4,
                 "but only " + std::to_string(B * 32 + 16) + " remain"));
        add("ms08_bone_parent_out_of_range", ".smesh",
            putLe<std::int32_t>(ms, l.bones.parents[2], 9), {},
            diag(errc::kBadParent, l.bones.parents[2],
                 "bone 2 (\"Bone2\") has parent 9, outside -1..2"),
            [](const DecodeResult& r) {
                ASSERT_FALSE(r.asset.skeletons.empty());
                EXPECT_EQ(r.asset.skeletons[0].bones[2].parent, -1);
            });
        // Bone 0 (a root) made a child of bone 2: 0 → 2 → 1 → 0. Walking up from bone 0, bone 1's
        // parent link closes the cycle and is cut.
        add("ms08_bone_parent_cycle", ".smesh", putLe<std::int32_t>(ms, l.bones.parents[0], 2), {},
            diag(errc::kBoneParentCycle, l.bones.parents[1],
                 "bone 1 (\"Bone1\") has parent 0, which closes a cycle of parents"),
            [](const DecodeResult& r) {
                ASSERT_FALSE(r.asset.skeletons.empty());
                EXPECT_EQ(r.asset.skeletons[0].bones[1].parent, -1);
                EXPECT_EQ(r.asset.skeletons[0].bones[0].parent, 2);
            });
        // Surface 0, vertex 0: {float[3], ushort[3], byte weightCount} then 3 bytes a weight
        // {ushort bone, byte weight}: the first weight's bone becomes 700.
        const std::size_t vertex0 = l.firstSurfaceData + 4;
        add("ms08_weight_bone_out_of_range", ".smesh", putLe<std::uint16_t>(ms, vertex0 + 19, 700),
            {},
            diag(errc::kBadBoneIndex, vertex0 + 19,
                 "1 vertex weights name a bone past the " + std::to_string(B) + " bones"));
        add("ms08_nan_position", ".smesh", putLe<float>(ms, vertex0 + 4, nan), {},
            diag(errc::kNonFiniteVertices, vertex0, "(first: vertex 0)"));
        add("ms08_vertex_count_past_end", ".smesh",
            putLe<std::int32_t>(ms, l.firstSurfaceData, 0x01000000),
            diag(errc::kCountTooLarge, vertex0, "vertices: 16777216 × 19 bytes"), {},
            [B](const DecodeResult& r) {
                ASSERT_EQ(r.asset.skeletons.size(), 1u);
                EXPECT_EQ(r.asset.skeletons[0].bones.size(), B);
            });
    }

    // --- as08
    {
        const Bytes as = checked(writeUnigineAnimation(skinnedWithAnimation(), 0));
        const BoneTable bones = bonesAt(as, 4);
        const std::size_t B = bones.records.size();
        const std::size_t frames = bones.end + 32;  // after the 32 bytes of bounds
        add("as08_frame_count_past_end", ".sanim", putLe<std::int32_t>(as, frames, 0x7fffffff),
            diag(errc::kCountTooLarge, frames + 4,
                 "frame records: " + std::to_string(std::uint64_t(0x7fffffff) * B) + " × 1 bytes"));
        add("as08_truncated_in_bounds", ".sanim", cut(as, bones.end + 20),
            diag(errc::kTruncated, bones.end + 16, "bounds size needs 16 bytes, 4 remain"));
        // Frame 0 stores every component of every bone (flag 0xff, 16 bytes): frame 1 starts at
        // frames + 4 + B × 17; cut right after frame 1's first flag byte.
        const std::size_t frame1 = frames + 4 + B * 17;
        const int stored = std::popcount(unsigned(as.at(frame1)));
        add("as08_truncated_in_frame_1", ".sanim", cut(as, frame1 + 1),
            stored ? diag(errc::kTruncated, frame1 + 1,
                          "changed components needs " + std::to_string(stored * 2) +
                              " bytes, 0 remain")
                   : diag(errc::kTruncated, frame1 + 1, "change flags needs 1 bytes, 0 remain"));
        add("as08_bone_parent_cycle", ".sanim", putLe<std::int32_t>(as, bones.parents[0], 2), {},
            diag(errc::kBoneParentCycle, bones.parents[1],
                 "bone 1 (\"Bone1\") has parent 0, which closes a cycle of parents"));
        // No bones and a frame count near 2^31: nothing to read per frame, nothing looped over.
        {
            Bytes b = text("as08");
            b = concat(b, Bytes(4, 0));                    // bone count 0
            b = concat(b, Bytes(32, 0));                   // bounds
            b = concat(b, Bytes{0xff, 0xff, 0xff, 0x7f});  // 2147483647 frames
            add("as08_zero_bones_huge_frame_count", ".sanim", b, {}, {}, [](const DecodeResult& r) {
                ASSERT_EQ(r.asset.animations.size(), 1u);
                EXPECT_TRUE(r.asset.animations[0].tracks.empty());
            });
        }
    }

    // --- mr02 (from the layout: "mr02", count at 4, name at 8..136, vertex count at 136).
    {
        std::vector<std::array<float, 8>> tri = {
            {0, 0, 0, 0, 0, 1, 0, 0}, {1, 0, 0, 0, 0, 1, 1, 0}, {0, 1, 0, 0, 0, 1, 0, 1}};
        const Bytes mr = mr02(tri);
        // 132 bytes a surface are checked up front: a cut in the first surface's name fails
        // that check; one in the second surface's name (at 8 + 132 + 3 × 32) leaves enough.
        add("mr02_truncated_in_first_name", ".mesh", cut(mr, 8 + 50),
            diag(errc::kCountTooLarge, 8, "surfaces: 1 × 132 bytes needs 132 but only 50 remain"));
        const std::size_t second = 8 + 132 + 3 * 32;
        add("mr02_truncated_in_second_name", ".mesh", cut(mr02(tri, 2), second + 50),
            diag(errc::kTruncated, second, "surface name needs 128 bytes, 50 remain"), {},
            [](const DecodeResult& r) { EXPECT_EQ(r.asset.meshes.size(), 1u); });
        add("mr02_vertex_count_past_end", ".mesh", putLe<std::int32_t>(mr, 136, 0x01000000),
            diag(errc::kCountTooLarge, 140, "vertices: 16777216 × 32 bytes"));
        auto four = tri;
        four.push_back({1, 1, 0, 0, 0, 1, 1, 1});
        add("mr02_partial_triangle", ".mesh", mr02(four), {},
            diag(errc::kPartialTriangle, 136, "vertex count 4 is not a multiple of 3"),
            [](const DecodeResult& r) {
                ASSERT_EQ(r.asset.meshes.size(), 1u);
                EXPECT_EQ(r.asset.meshes[0].indices.size(), 3u);
            });
        auto bad = tri;
        bad[1][1] = nan;
        add("mr02_nan_position", ".mesh", mr02(bad), {},
            diag(errc::kNonFiniteVertices, 140,
                 "1 of 3 vertices have non-finite positions (first: vertex 1)"));
    }
}

}  // namespace meshscope::test::broken
