// UNIGINE 2 writers (ms10 / ms11 / ms14 / ms15 .mesh, sk10, sn10, an10 / an12 .anim) round-tripped
// through the decoder (hostile variations of the written bytes are in broken_test.cpp).
#include <gtest/gtest.h>

#include <cmath>

#include "meshscope/core/unigine_writer.h"
#include "unigine_test_helpers.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

void expectSameGeometry(const Mesh& in, const Mesh& out) {
    EXPECT_EQ(out.name, in.name);
    ASSERT_EQ(out.positions.size(), in.positions.size());
    ASSERT_EQ(out.indices, in.indices);
    for (std::size_t v = 0; v < in.positions.size(); ++v) {
        EXPECT_EQ(out.positions[v], in.positions[v]);
        EXPECT_NEAR(out.normals[v].x, in.normals[v].x, 2e-4);
        EXPECT_NEAR(out.normals[v].y, in.normals[v].y, 2e-4);
        EXPECT_NEAR(out.normals[v].z, in.normals[v].z, 2e-4);
    }
    EXPECT_EQ(out.uv0, in.uv0);
    EXPECT_EQ(out.uv1, in.uv1);
    EXPECT_EQ(out.colors.size(), in.colors.size());
}

}  // namespace

TEST(Unigine2Writer, StaticRoundTripInEveryVersion) {
    const Asset in = unigine2StaticAsset();
    for (const char* v : {"ms10", "ms11", "ms14", "ms15"}) {
        SCOPED_TRACE(v);
        const auto w = writeUnigine2Mesh(in, v);
        ASSERT_TRUE(w.ok()) << *w.error;
        EXPECT_TRUE(w.warnings.empty());
        EXPECT_EQ(std::string(w.bytes.begin(), w.bytes.begin() + 4), v);
        const DecodeResult r = decode(w.bytes);
        ASSERT_TRUE(r.ok()) << r.error->toString();
        EXPECT_EQ(r.asset.version, v);
        EXPECT_EQ(r.asset.warningCount(), 0u);
        expectFullyMapped(r.asset);
        ASSERT_EQ(r.asset.meshes.size(), 2u);
        for (std::size_t i = 0; i < 2; ++i) expectSameGeometry(in.meshes[i], r.asset.meshes[i]);
        EXPECT_EQ(r.asset.meshes[0].colors[0], (Rgba8{10, 20, 30, 255}));
        const int header = 1;  // the "header" node follows the file root
        const auto agree = r.asset.ownProperty(header, "boundsAgree");
        ASSERT_NE(agree, nullptr);
        EXPECT_TRUE(std::get<bool>(agree->value));
    }
}

TEST(Unigine2Writer, HandednessSurvivesEveryVersion) {
    Asset in;
    Mesh m = makeGrid("g", 1, 1, 0);
    m.tangents.assign(m.positions.size(), Vec4{1, 0, 0, -1});
    m.tangents[1].w = 1;
    for (Vec3& n : m.normals) n = {0, 0, 1};
    in.meshes.push_back(m);
    for (const char* v : {"ms10", "ms11", "ms14", "ms15"}) {
        const DecodeResult r = decode(writeUnigine2Mesh(in, v).bytes);
        ASSERT_TRUE(r.ok()) << v;
        const Mesh& out = r.asset.meshes[0];
        ASSERT_EQ(out.tangents.size(), m.tangents.size());
        for (std::size_t i = 0; i < m.tangents.size(); ++i) {
            EXPECT_EQ(out.tangents[i].w, m.tangents[i].w) << v << " " << i;
            EXPECT_NEAR(out.tangents[i].x, 1, 1e-4) << v;
        }
    }
}

TEST(Unigine2Writer, LargeMeshUsesCompactIntIndices) {
    Asset in;
    in.meshes.push_back(makeGrid("big", 300, 220, 0));  // 66 521 vertices: indices past 65535
    ASSERT_GE(in.meshes[0].positions.size(), 65536u);
    for (const char* v : {"ms11", "ms14", "ms15"}) {
        const DecodeResult r = decode(writeUnigine2Mesh(in, v).bytes);
        ASSERT_TRUE(r.ok()) << r.error->toString();
        EXPECT_EQ(r.asset.meshes[0].indices, in.meshes[0].indices) << v;
    }
}

TEST(Unigine2Writer, SkinnedMeshWithAnimationRoundTrip) {
    const Asset in = unigine2SkinnedAsset(4);
    for (const char* v : {"ms10", "ms11", "sk10"}) {
        SCOPED_TRACE(v);
        const bool sk = std::string(v) == "sk10";
        const auto w = writeUnigine2Mesh(in, v);
        ASSERT_TRUE(w.ok()) << *w.error;
        // sk10 holds no animations: the writer says it drops them.
        EXPECT_EQ(w.warnings.size(), sk ? 1u : 0u);
        const DecodeResult r = decode(w.bytes, sk ? "x.mesh_skinned" : "x.mesh");
        ASSERT_TRUE(r.ok()) << r.error->toString();
        EXPECT_EQ(r.asset.warningCount(), 0u);
        expectFullyMapped(r.asset);
        ASSERT_EQ(r.asset.skeletons.size(), 1u);
        const Skeleton& s = r.asset.skeletons[0];
        ASSERT_EQ(s.bones.size(), 3u);
        for (std::size_t b = 0; b < 3; ++b) {
            EXPECT_EQ(s.bones[b].name, in.skeletons[0].bones[b].name);
            EXPECT_EQ(s.bones[b].parent, in.skeletons[0].bones[b].parent);
            for (int k = 0; k < 16; ++k)
                EXPECT_NEAR(s.bones[b].world.m[k], in.skeletons[0].bones[b].world.m[k], 1e-4);
        }
        const Mesh& m = r.asset.meshes[0];
        ASSERT_TRUE(m.skinned());
        EXPECT_EQ(m.skeleton, 0);
        for (std::size_t i = 0; i < m.skin.size(); ++i) {
            EXPECT_EQ(m.skin[i].joints[0], in.meshes[0].skin[i].joints[0]);
            EXPECT_NEAR(m.skin[i].weights[0], 0.6f, 1.0f / 65535);
            EXPECT_NEAR(m.skin[i].weights[1], 0.4f, 1.0f / 65535);
        }
        if (sk) {
            EXPECT_EQ(r.asset.formatName, "Unigine skinned mesh");
            EXPECT_TRUE(r.asset.animations.empty());
            const auto path = r.asset.ownProperty(1, "skeletonPath");
            ASSERT_NE(path, nullptr);
            EXPECT_EQ(std::get<std::string>(path->value), "skeleton.skeleton");
            const auto rest = r.asset.ownProperty(1, "restTransforms");
            ASSERT_NE(rest, nullptr);
            EXPECT_EQ(std::get<std::int64_t>(rest->value), 3);
            continue;
        }
        ASSERT_EQ(r.asset.animations.size(), 1u);
        const Animation& a = r.asset.animations[0];
        EXPECT_EQ(a.name, "wave");
        EXPECT_EQ(a.frameCount, 4u);
        ASSERT_EQ(a.tracks.size(), 3u);
        for (std::size_t t = 0; t < 3; ++t) {
            const BoneTrack& x = in.animations[0].tracks[t];
            const BoneTrack& y = a.tracks[t];
            EXPECT_EQ(y.bone, x.bone);
            for (std::size_t f = 0; f < 4; ++f) {
                // Positions over a range of 3 in 65535 steps; scale over 1.5.
                EXPECT_NEAR(y.positions[f].x, x.positions[f].x, 1e-4);
                EXPECT_NEAR(y.positions[f].z, x.positions[f].z, 1e-4);
                EXPECT_NEAR(y.rotations[f].x, x.rotations[f].x, 1e-4);
                EXPECT_NEAR(y.rotations[f].w, x.rotations[f].w, 1e-4);
                EXPECT_NEAR(y.scales[f].y, x.scales[f].y, 1e-4);
                EXPECT_NEAR(y.scales[f].x, 1, 1e-4);
            }
        }
    }
}

TEST(Unigine2Writer, Ms14AndMs15DropBonesWithAWarning) {
    for (const char* v : {"ms14", "ms15"}) {
        const auto w = writeUnigine2Mesh(unigine2SkinnedAsset(0), v);
        ASSERT_TRUE(w.ok());
        ASSERT_FALSE(w.warnings.empty());
        const DecodeResult r = decode(w.bytes);
        ASSERT_TRUE(r.ok()) << v << ": " << r.error->toString();
        EXPECT_FALSE(r.asset.meshes[0].skinned());
        expectFullyMapped(r.asset);
    }
}

// ms15 as documented: no bone table after the bounds and no morph target list in the surface
// headers (one vertex count), so the written file is smaller than the ms14 one by exactly those
// bytes, and the header properties say so.
TEST(Unigine2Writer, Ms15HeaderHasNoBonesAndOneVertexCount) {
    const Asset in = unigine2StaticAsset();
    const auto w14 = writeUnigine2Mesh(in, "ms14");
    const auto w15 = writeUnigine2Mesh(in, "ms15");
    ASSERT_TRUE(w14.ok() && w15.ok());
    // Per file: the bone count (1 byte); per surface: the morph count + empty name (2 bytes) in
    // the header and the weights count (1 byte) in the geometry block (stored or packed).
    EXPECT_LT(w15.bytes.size(), w14.bytes.size());
    const DecodeResult r = decode(w15.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_EQ(r.asset.ownProperty(1, "boneCount"), nullptr);
    const int surface = r.asset.meshes[0].node;
    const auto stored = r.asset.ownProperty(surface, "storedVertexCount");
    ASSERT_NE(stored, nullptr);
    EXPECT_EQ(std::get<std::int64_t>(stored->value), std::int64_t(in.meshes[0].positions.size()));
}

TEST(Unigine2Writer, AnimationRoundTrip) {
    const Asset in = unigine2SkinnedAsset(5);
    const auto w = writeUnigine2Animation(in, 0);
    ASSERT_TRUE(w.ok()) << *w.error;
    EXPECT_EQ(std::string(w.bytes.begin(), w.bytes.begin() + 4), "an10");
    const DecodeResult r = decode(w.bytes, "x.anim");
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_EQ(r.asset.warningCount(), 0u);
    expectFullyMapped(r.asset);
    ASSERT_EQ(r.asset.animations.size(), 1u);
    EXPECT_EQ(r.asset.animations[0].frameCount, 5u);
    EXPECT_EQ(r.asset.animations[0].tracks[2].bone, "head");
    EXPECT_NEAR(r.asset.animations[0].tracks[2].positions[4].x, 4, 1e-4);
    ASSERT_EQ(r.asset.skeletons.size(), 1u);
    EXPECT_NEAR(r.asset.skeletons[0].bones[2].world.at(1, 3),
                in.skeletons[0].bones[2].world.at(1, 3), 1e-4);
}

// an12 (documented layout, our writer only): float frames, default components left out, the
// frame rate and the shared skeleton's path kept; the skeleton shown is frame 0.
TEST(Unigine2Writer, An12RoundTrip) {
    Asset in = unigine2SkinnedAsset(5);
    in.animations[0].framesPerSecond = 24;
    const auto w = writeUnigine2AnimationAn12(in, 0);
    ASSERT_TRUE(w.ok()) << *w.error;
    EXPECT_TRUE(w.warnings.empty());
    EXPECT_EQ(std::string(w.bytes.begin(), w.bytes.begin() + 4), "an12");
    const DecodeResult r = decode(w.bytes, "x.anim");
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_EQ(r.asset.version, "an12");
    EXPECT_EQ(r.asset.warningCount(), 0u);
    expectFullyMapped(r.asset);
    ASSERT_EQ(r.asset.animations.size(), 1u);
    const Animation& a = r.asset.animations[0];
    const Animation& x = in.animations[0];
    EXPECT_EQ(a.framesPerSecond, 24.0f);
    EXPECT_EQ(a.frameCount, x.frameCount);
    ASSERT_EQ(a.tracks.size(), x.tracks.size());
    for (std::size_t t = 0; t < a.tracks.size(); ++t) {
        EXPECT_EQ(a.tracks[t].bone, x.tracks[t].bone);
        for (std::size_t f = 0; f < x.frameCount; ++f) {  // floats: exact
            EXPECT_EQ(a.tracks[t].positions[f], x.tracks[t].positions[f]);
            EXPECT_EQ(a.tracks[t].rotations[f], x.tracks[t].rotations[f]);
            EXPECT_EQ(a.tracks[t].scales[f], x.tracks[t].scales[f]);
        }
    }
    ASSERT_EQ(r.asset.skeletons.size(), 1u);
    EXPECT_EQ(a.skeleton, 0);
    EXPECT_EQ(r.asset.skeletons[0].bones.size(), in.skeletons[0].bones.size());
    const auto path = r.asset.ownProperty(1, "skeletonPath");
    ASSERT_NE(path, nullptr);
    EXPECT_EQ(std::get<std::string>(path->value), "skeleton.skeleton");
}

// sn10 (documented layout, our writer only): joints, parents and bind pose survive; the blend
// lists and retarget entries are read to the end signature and shown as nodes.
TEST(Unigine2Writer, Sn10RoundTrip) {
    const Asset in = unigine2SkinnedAsset(0);
    const auto w = writeUnigine2Skeleton(in, 0);
    ASSERT_TRUE(w.ok()) << *w.error;
    const DecodeResult r = decode(w.bytes, "x.skeleton");
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_EQ(r.asset.version, "sn10");
    EXPECT_EQ(r.asset.formatName, "Unigine skeleton");
    EXPECT_EQ(r.asset.warningCount(), 0u);
    expectFullyMapped(r.asset);
    ASSERT_EQ(r.asset.skeletons.size(), 1u);
    const Skeleton& s = r.asset.skeletons[0];
    ASSERT_EQ(s.bones.size(), in.skeletons[0].bones.size());
    for (std::size_t b = 0; b < s.bones.size(); ++b) {
        EXPECT_EQ(s.bones[b].name, in.skeletons[0].bones[b].name);
        EXPECT_EQ(s.bones[b].parent, in.skeletons[0].bones[b].parent);
        for (int k = 0; k < 16; ++k)
            EXPECT_NEAR(s.bones[b].world.m[k], in.skeletons[0].bones[b].world.m[k], 1e-4);
    }
    int lists = 0;
    for (int n = 0; n < int(r.asset.nodes.size()); ++n)
        if (r.asset.kind(n) == "blend-list") ++lists;
    EXPECT_EQ(lists, 3);
}

namespace {

// A grid with two blend shapes: "bulge" moves vertices along z and turns their normals to +z,
// "shift" moves them along x only (no normal change).
Asset morphAsset() {
    Asset a;
    Mesh m = makeGrid("face", 3, 2, 0.5f);
    MorphTarget bulge{"bulge", {}, {}};
    MorphTarget shift{"shift", {}, {}};
    for (std::size_t v = 0; v < m.positions.size(); ++v) {
        bulge.positionDeltas.push_back({0, 0, 0.25f * float(v % 4) + 0.125f});
        bulge.normalDeltas.push_back(Vec3{0, 0, 1} - m.normals[v]);
        shift.positionDeltas.push_back({-0.5f, 0, 0});
    }
    m.morphTargets = {bulge, shift};
    a.meshes.push_back(m);
    a.meshes.push_back(makeGrid("plain", 1, 1, -1));
    return a;
}

}  // namespace

TEST(Unigine2Writer, MorphTargetsRoundTrip) {
    const Asset in = morphAsset();
    for (const char* v : {"ms10", "ms11", "ms14", "sk10"}) {
        SCOPED_TRACE(v);
        const auto w = writeUnigine2Mesh(in, v);
        ASSERT_TRUE(w.ok()) << *w.error;
        EXPECT_TRUE(w.warnings.empty());
        const DecodeResult r =
            decode(w.bytes, std::string(v) == "sk10" ? "face.mesh_skinned" : "face.mesh");
        ASSERT_TRUE(r.ok()) << r.error->toString();
        EXPECT_EQ(r.asset.warningCount(), 0u);
        EXPECT_FALSE(hasWarning(r.asset, "morph-targets-ignored"));
        expectFullyMapped(r.asset);
        ASSERT_EQ(r.asset.meshes.size(), 2u);
        expectSameGeometry(in.meshes[0], r.asset.meshes[0]);
        EXPECT_TRUE(r.asset.meshes[1].morphTargets.empty());
        const Mesh& out = r.asset.meshes[0];
        ASSERT_EQ(out.morphTargets.size(), 2u);
        for (std::size_t t = 0; t < 2; ++t) {
            const MorphTarget& a = in.meshes[0].morphTargets[t];
            const MorphTarget& b = out.morphTargets[t];
            EXPECT_EQ(b.name, a.name);
            ASSERT_EQ(b.positionDeltas.size(), out.positions.size());
            ASSERT_EQ(b.normalDeltas.size(), out.positions.size());
            for (std::size_t i = 0; i < out.positions.size(); ++i) {
                EXPECT_NEAR(b.positionDeltas[i].x, a.positionDeltas[i].x, 1e-6);
                EXPECT_NEAR(b.positionDeltas[i].y, a.positionDeltas[i].y, 1e-6);
                EXPECT_NEAR(b.positionDeltas[i].z, a.positionDeltas[i].z, 1e-6);
                // Normals are quantized to 16 bits in both the base and the target.
                const Vec3 want = a.normalDeltas.empty() ? Vec3{} : a.normalDeltas[i];
                EXPECT_NEAR(b.normalDeltas[i].x, want.x, 5e-4);
                EXPECT_NEAR(b.normalDeltas[i].y, want.y, 5e-4);
                EXPECT_NEAR(b.normalDeltas[i].z, want.z, 5e-4);
            }
        }
        // Each target's block is a named node under its surface in the Structure tree.
        int named = 0;
        for (std::size_t n = 0; n < r.asset.nodes.size(); ++n)
            if (r.asset.kind(int(n)) == "morph-target" &&
                (r.asset.name(int(n)) == "bulge" || r.asset.name(int(n)) == "shift"))
                ++named;
        EXPECT_EQ(named, 2);
        // ms10/ms11 store the blocks in the file (ms14/sk10 inside LZ4 payloads): the byte map
        // has a record per blend shape, on its node, as long as the node says.
        if (std::string(v) == "ms10" || std::string(v) == "ms11") {
            int records = 0;
            for (const auto& range : r.asset.byteMap.ranges())
                if (range.kind == RangeKind::Record && range.node >= 0 &&
                    r.asset.kind(range.node) == "morph-target") {
                    ++records;
                    EXPECT_NE(range.path.find(std::string(r.asset.name(range.node))),
                              std::string::npos)
                        << range.path;
                    EXPECT_EQ(range.offset, r.asset.nodes[std::size_t(range.node)].offset);
                    EXPECT_EQ(range.length, r.asset.nodes[std::size_t(range.node)].length);
                    // V, V × 12 position bytes, T, T tangents (ms10: 7 bytes, ms11: 8).
                    const std::size_t nv = out.positions.size();
                    const std::size_t perTangent = std::string(v) == "ms10" ? 7 : 8;
                    EXPECT_EQ(range.length, 2 * (nv < 64 ? 1 : 2) + nv * (12 + perTangent));
                }
            EXPECT_EQ(records, 2);
        }
    }
}

TEST(Unigine2Writer, Ms15DropsMorphTargetsWithAWarning) {
    const auto w = writeUnigine2Mesh(morphAsset(), "ms15");
    ASSERT_TRUE(w.ok());
    ASSERT_EQ(w.warnings.size(), 1u);
    EXPECT_NE(w.warnings[0].find("morph targets"), std::string::npos);
    const DecodeResult r = decode(w.bytes);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r.asset.meshes[0].morphTargets.empty());
}
