// ms08 .smesh: a file built by hand from the format document (bones, parents, frames, weighted
// vertices), writer round trips and bone parent problems.
#include <gtest/gtest.h>

#include <cmath>

#include "meshscope/core/decode.h"
#include "meshscope/core/error_codes.h"
#include "meshscope/core/unigine_writer.h"
#include "unigine_test_helpers.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

const float kHalfSqrt2 = std::sqrt(0.5f);

void putFrame(Builder& b, Vec3 p, float scale, Vec4 q) {
    b.floats({p.x, p.y, p.z, scale, q.x, q.y, q.z, q.w});
}

// Bones "root" (-1) and "arm" (0); 2 frames; one surface "body" of 3 vertices with 1, 2 and 5
// weights.
std::vector<std::uint8_t> handMadeSmesh() {
    Builder b;
    b.tag("ms08");
    b.i32(2).name("root").i32(-1).name("arm").i32(0);
    b.i32(2);
    // frame 0 (bind pose): root at (1,0,0) turned 90° about Z; arm 2 units up its parent's Y.
    putFrame(b, {1, 0, 0}, 1, {0, 0, kHalfSqrt2, kHalfSqrt2});
    putFrame(b, {0, 2, 0}, 1, {0, 0, 0, 1});
    // frame 1
    putFrame(b, {0, 0, 0}, 2, {0, 0, 0, 1});
    putFrame(b, {0, 3, 0}, 1, {0, 0, 0, 1});
    b.i32(1).name("body");
    b.i32(3);
    b.floats({0, 0, 0}).u16(32767).u16(65535).u16(32767).u8(1).u16(0).u8(255);
    b.floats({1, 0, 0}).u16(32767).u16(65535).u16(32767).u8(2).u16(0).u8(100).u16(1).u8(155);
    b.floats({0, 1, 0}).u16(32767).u16(65535).u16(32767).u8(5);
    b.u16(0).u8(10).u16(1).u8(200).u16(0).u8(20).u16(1).u8(5).u16(0).u8(20);
    b.i32(0).i32(0);
    b.i32(1).u16(0).u16(1).u16(2);
    return b.bytes;
}

}  // namespace

TEST(UnigineSmesh, DecodesHandMadeFileFromTheDocument) {
    const DecodeResult r = decode(handMadeSmesh(), "hero.smesh");
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Asset& a = r.asset;
    EXPECT_EQ(a.formatName, "Unigine skinned mesh");
    EXPECT_EQ(a.version, "ms08");

    ASSERT_EQ(a.skeletons.size(), 1u);
    const Skeleton& s = a.skeletons[0];
    ASSERT_EQ(s.bones.size(), 2u);
    EXPECT_EQ(s.bones[0].name, "root");
    EXPECT_EQ(s.bones[1].parent, 0);
    // World = parent world × local: (1,0,0) + Rz(90°)·(0,2,0) = (-1,0,0).
    EXPECT_NEAR(s.bones[0].world.at(0, 3), 1, 1e-6);
    EXPECT_NEAR(s.bones[1].world.at(0, 3), -1, 1e-6);
    EXPECT_NEAR(s.bones[1].world.at(1, 3), 0, 1e-6);
    // Rz(90°) maps x to y: column 0 of the rotation is (0,1,0) (column-major Mat4).
    EXPECT_NEAR(s.bones[1].world.at(1, 0), 1, 1e-6);
    EXPECT_NEAR(s.bones[1].world.at(0, 1), -1, 1e-6);

    // Frames after the bind pose are an animation.
    ASSERT_EQ(a.animations.size(), 1u);
    const Animation& anim = a.animations[0];
    EXPECT_EQ(anim.frameCount, 1u);
    EXPECT_EQ(anim.skeleton, 0);
    ASSERT_EQ(anim.tracks.size(), 2u);
    EXPECT_EQ(anim.tracks[0].bone, "root");
    EXPECT_EQ(anim.tracks[0].scales[0], (Vec3{2, 2, 2}));
    EXPECT_EQ(anim.tracks[1].positions[0], (Vec3{0, 3, 0}));
    EXPECT_EQ(anim.tracks[1].rotations[0], (Vec4{0, 0, 0, 1}));

    ASSERT_EQ(a.meshes.size(), 1u);
    const Mesh& m = a.meshes[0];
    EXPECT_EQ(m.name, "body");
    EXPECT_EQ(m.skeleton, 0);
    ASSERT_EQ(m.skin.size(), 3u);
    EXPECT_EQ(m.skin[0].joints[0], 0);
    EXPECT_FLOAT_EQ(m.skin[0].weights[0], 1.0f);
    EXPECT_EQ(m.skin[1].joints[1], 1);
    EXPECT_FLOAT_EQ(m.skin[1].weights[0], 100.0f / 255);
    EXPECT_FLOAT_EQ(m.skin[1].weights[1], 155.0f / 255);
    // Five weights: the four largest (200, 20, 20, 10 of 250) renormalized; 5 dropped.
    EXPECT_EQ(m.skin[2].joints[0], 1);
    EXPECT_FLOAT_EQ(m.skin[2].weights[0], 0.8f);
    float sum = 0;
    for (float w : m.skin[2].weights) sum += w;
    EXPECT_NEAR(sum, 1.0f, 1e-6);
    EXPECT_NEAR(m.skin[2].weights[3], 0.04f, 1e-6);
    const Diagnostic* d = findWarning(a, "too-many-influences");
    ASSERT_NE(d, nullptr);
    EXPECT_NE(d->message.find("1 vertices"), std::string::npos) << d->message;
    EXPECT_EQ(m.indices, (std::vector<std::uint32_t>{0, 1, 2}));

    // Nodes: skeleton with a child per bone, animation node, surface node.
    int skeletonNode = -1, animationNode = -1;
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        if (a.kind(int(i)) == "skeleton") skeletonNode = int(i);
        if (a.kind(int(i)) == "animation") animationNode = int(i);
    }
    ASSERT_GE(skeletonNode, 0);
    ASSERT_GE(animationNode, 0);
    ASSERT_EQ(a.children(skeletonNode).size(), 2u);
    const int arm = a.children(skeletonNode)[1];
    EXPECT_EQ(a.name(arm), "arm");
    EXPECT_EQ(a.links(arm).bone, 1);
    EXPECT_EQ(a.links(arm).skeleton, 0);
    EXPECT_EQ(a.links(animationNode).animation, 0);
    // Frames start after 4 + 4 + (4 + 5 + 4) + (4 + 2 + 4) + 4 = 37; frame 1 after the 2 × 32
    // bytes of the bind pose.
    EXPECT_EQ(a.nodes[animationNode].offset, 37u + 64);
    EXPECT_EQ(a.nodes[animationNode].length, 64u);
    EXPECT_EQ(a.links(m.node).mesh, 0);
    expectFullyMapped(a);
}

namespace {

Asset skinnedAsset(std::size_t frames) {
    Asset a;
    Skeleton s;
    s.name = "skeleton";
    const float c = std::cos(0.3f), sn = std::sin(0.3f);
    Mat4 root;  // rotation about X by 0.3 rad, scale 1.5, at (0.5, 1, -2)
    root.at(0, 0) = 1.5f;
    root.at(1, 1) = 1.5f * c, root.at(1, 2) = -1.5f * sn;
    root.at(2, 1) = 1.5f * sn, root.at(2, 2) = 1.5f * c;
    root.at(0, 3) = 0.5f, root.at(1, 3) = 1, root.at(2, 3) = -2;
    Mat4 local;
    local.at(0, 3) = 0.25f;
    local.at(1, 3) = 3;
    s.bones.push_back({"hips", -1, -1, root});
    s.bones.push_back({"spine", 0, -1, root * local});
    s.bones.push_back({"head", 1, -1, root * local * local});
    a.skeletons.push_back(s);

    Mesh m = makeGrid("skin", 2, 2, 0);
    m.skeleton = 0;
    m.skin.resize(m.positions.size());
    for (std::size_t i = 0; i < m.skin.size(); ++i) {
        m.skin[i].joints = {std::uint16_t(i % 3), std::uint16_t((i + 1) % 3), 0, 0};
        m.skin[i].weights = {0.6f, 0.4f, 0, 0};
    }
    a.meshes.push_back(m);
    Mesh second = makeGrid("cape", 1, 1, 2);
    second.skin.assign(second.positions.size(), VertexInfluences{{2, 0, 0, 0}, {1, 0, 0, 0}});
    a.meshes.push_back(second);

    if (frames) {
        Animation anim;
        anim.name = "wave";
        anim.frameCount = std::uint32_t(frames);
        anim.skeleton = 0;
        for (const auto& b : s.bones) {
            BoneTrack t;
            t.bone = b.name;
            for (std::size_t f = 0; f < frames; ++f) {
                t.positions.push_back({float(f), 0.5f, -float(f)});
                const float h = 0.1f * float(f);
                t.rotations.push_back({std::sin(h), 0, 0, std::cos(h)});
                t.scales.push_back({1 + 0.5f * float(f), 1 + 0.5f * float(f), 1 + 0.5f * float(f)});
            }
            anim.tracks.push_back(t);
        }
        a.animations.push_back(anim);
    }
    return a;
}

}  // namespace

TEST(UnigineSmesh, RoundTripBonesParentsFramesWeights) {
    const Asset in = skinnedAsset(3);
    const auto w = writeUnigineSkinnedMesh(in);
    ASSERT_TRUE(w.ok()) << *w.error;
    const DecodeResult r = decode(w.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Asset& out = r.asset;
    EXPECT_FALSE(hasWarning(out, errc::kTooManyInfluences));

    ASSERT_EQ(out.skeletons.size(), 1u);
    ASSERT_EQ(out.skeletons[0].bones.size(), 3u);
    for (std::size_t b = 0; b < 3; ++b) {
        EXPECT_EQ(out.skeletons[0].bones[b].name, in.skeletons[0].bones[b].name);
        EXPECT_EQ(out.skeletons[0].bones[b].parent, in.skeletons[0].bones[b].parent);
        for (int k = 0; k < 16; ++k)
            EXPECT_NEAR(out.skeletons[0].bones[b].world.m[k], in.skeletons[0].bones[b].world.m[k],
                        1e-5)
                << "bone " << b << " element " << k;
    }

    ASSERT_EQ(out.animations.size(), 1u);
    EXPECT_EQ(out.animations[0].frameCount, 3u);
    for (std::size_t b = 0; b < 3; ++b) {
        const BoneTrack& ti = in.animations[0].tracks[b];
        const BoneTrack& to = out.animations[0].tracks[b];
        EXPECT_EQ(to.bone, ti.bone);
        EXPECT_EQ(to.positions, ti.positions);
        EXPECT_EQ(to.rotations, ti.rotations);
        EXPECT_EQ(to.scales, ti.scales);
    }

    ASSERT_EQ(out.meshes.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        const Mesh& mi = in.meshes[i];
        const Mesh& mo = out.meshes[i];
        EXPECT_EQ(mo.name, mi.name);
        EXPECT_EQ(mo.positions, mi.positions);
        EXPECT_EQ(mo.uv0, mi.uv0);
        EXPECT_EQ(mo.uv1, mi.uv1);
        EXPECT_EQ(mo.indices, mi.indices);
        ASSERT_EQ(mo.skin.size(), mi.skin.size());
        for (std::size_t v = 0; v < mi.skin.size(); ++v) {
            for (int k = 0; k < 4; ++k) {
                EXPECT_NEAR(mo.skin[v].weights[k], mi.skin[v].weights[k], 0.5 / 255 + 1e-6);
                if (mi.skin[v].weights[k] > 0) {
                    EXPECT_EQ(mo.skin[v].joints[k], mi.skin[v].joints[k]);
                }
            }
        }
    }
    expectFullyMapped(out);
}

TEST(UnigineSmesh, SingleFrameIsBindPoseOnly) {
    const auto w = writeUnigineSkinnedMesh(skinnedAsset(0));
    ASSERT_TRUE(w.ok());
    const DecodeResult r = decode(w.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_TRUE(r.asset.animations.empty());
    EXPECT_EQ(r.asset.skeletons[0].bones.size(), 3u);
}

TEST(UnigineSmesh, ParentCyclesAndBadParentsAreReportedNotLoopedOn) {
    Builder b;
    b.tag("ms08");
    // 0 → 1 → 0 is a cycle, 2 is its own parent, 3 names a parent past the bone count.
    b.i32(4).name("a").i32(1).name("b").i32(0).name("c").i32(2).name("d").i32(7);
    b.i32(1);
    for (int i = 0; i < 4; ++i) putFrame(b, {1, 0, 0}, 1, {0, 0, 0, 1});
    b.i32(0);
    const DecodeResult r = decode(b.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    int cycles = 0;
    for (const auto& d : r.asset.diagnostics) cycles += d.code == errc::kBoneParentCycle;
    EXPECT_EQ(cycles, 2);
    EXPECT_TRUE(hasWarning(r.asset, errc::kBadParent));
    const Skeleton& s = r.asset.skeletons[0];
    // The result is a forest: walking up from every bone ends at a root within 4 steps.
    for (std::size_t i = 0; i < s.bones.size(); ++i) {
        int p = int(i), steps = 0;
        while (p >= 0 && steps <= 4) p = s.bones[p].parent, ++steps;
        EXPECT_LT(steps, 5) << "bone " << i;
    }
    EXPECT_EQ(s.bones[2].parent, -1);
    EXPECT_EQ(s.bones[3].parent, -1);
}

TEST(UnigineSmesh, WeightNamingMissingBoneIsDropped) {
    Builder b;
    b.tag("ms08").i32(1).name("only").i32(-1).i32(1);
    putFrame(b, {0, 0, 0}, 1, {0, 0, 0, 1});
    b.i32(1).name("s").i32(1);
    b.floats({0, 0, 0}).u16(0).u16(0).u16(0).u8(2).u16(0).u8(128).u16(9).u8(127);
    b.i32(0).i32(0).i32(0);
    const DecodeResult r = decode(b.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_TRUE(hasWarning(r.asset, errc::kBadBoneIndex));
    EXPECT_FLOAT_EQ(r.asset.meshes[0].skin[0].weights[0], 128.0f / 255);
    EXPECT_EQ(r.asset.meshes[0].skin[0].weights[1], 0.0f);
}
