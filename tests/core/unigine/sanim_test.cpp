// as08 .sanim: a file built by hand from the format document (bounds, change flags, 16-bit
// quantized components) and writer round trips that check the flags the writer chose.
#include <gtest/gtest.h>

#include <cmath>

#include "meshscope/core/decode.h"
#include "meshscope/core/error_codes.h"
#include "meshscope/core/unigine_writer.h"
#include "unigine_test_helpers.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

std::vector<std::uint8_t> handMadeSanim() {
    Builder b;
    b.tag("as08");
    b.i32(2).name("root").i32(-1).name("child").i32(0);
    // Bounds: x in [0, 10], y and z fixed at 1 and -1, scale in [1, 2].
    b.floats({0, 1, -1, 1}).floats({10, 0, 0, 1});
    b.i32(3);
    // frame 0: both bones store all 8 components.
    b.u8(0xff).u16(0).u16(0).u16(0).u16(0).u16(32768).u16(32768).u16(32768).u16(65535);
    b.u8(0xff).u16(65535).u16(0).u16(0).u16(0).u16(32768).u16(32768).u16(32768).u16(65535);
    // frame 1: root moves along x to 13107 / 65535 × 10 = 2; child unchanged.
    b.u8(0x01).u16(13107);
    b.u8(0x00);
    // frame 2: root scale to the top of the range (2); child rotation w to -1.
    b.u8(0x08).u16(65535);
    b.u8(0x80).u16(0);
    return b.bytes;
}

}  // namespace

TEST(UnigineSanim, DecodesHandMadeFileFromTheDocument) {
    const auto bytes = handMadeSanim();
    const DecodeResult r = decode(bytes, "walk.sanim");
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Asset& a = r.asset;
    EXPECT_EQ(a.formatName, "Unigine skinned animation");
    EXPECT_EQ(a.version, "as08");
    ASSERT_EQ(a.animations.size(), 1u);
    const Animation& anim = a.animations[0];
    EXPECT_EQ(anim.frameCount, 3u);
    ASSERT_EQ(anim.tracks.size(), 2u);
    const BoneTrack& root = anim.tracks[0];
    const BoneTrack& child = anim.tracks[1];
    EXPECT_EQ(root.bone, "root");
    EXPECT_EQ(child.bone, "child");
    EXPECT_FLOAT_EQ(root.positions[0].x, 0);
    EXPECT_FLOAT_EQ(root.positions[0].y, 1);
    EXPECT_FLOAT_EQ(root.positions[0].z, -1);
    EXPECT_FLOAT_EQ(root.positions[1].x, 2);
    EXPECT_FLOAT_EQ(root.positions[2].x, 2);  // not flagged: kept from frame 1
    EXPECT_FLOAT_EQ(root.scales[0].x, 1);
    EXPECT_FLOAT_EQ(root.scales[1].x, 1);
    EXPECT_FLOAT_EQ(root.scales[2].x, 2);
    EXPECT_FLOAT_EQ(child.positions[0].x, 10);
    EXPECT_FLOAT_EQ(child.rotations[0].w, 1);
    EXPECT_FLOAT_EQ(child.rotations[1].w, 1);
    EXPECT_FLOAT_EQ(child.rotations[2].w, -1);
    EXPECT_NEAR(child.rotations[2].x, 0, 2.0 / 65535);

    // Bones: a skeleton from frame 0, so the hierarchy shows; the animation refers to it.
    ASSERT_EQ(a.skeletons.size(), 1u);
    EXPECT_EQ(a.skeletons[0].bones[1].parent, 0);
    EXPECT_EQ(anim.skeleton, 0);
    // The stored rotations are identity only to within one step (32768 → 1/65535).
    EXPECT_NEAR(a.skeletons[0].bones[1].world.at(0, 3), 10, 1e-3);
    EXPECT_NEAR(a.skeletons[0].bones[1].world.at(1, 3), 2, 1e-3);  // y 1 + parent's 1

    int animation = -1, bounds = -1;
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        if (a.kind(int(i)) == "animation") animation = int(i);
        if (a.kind(int(i)) == "bounds") bounds = int(i);
    }
    ASSERT_GE(animation, 0);
    ASSERT_GE(bounds, 0);
    EXPECT_EQ(a.links(animation).animation, 0);
    // Frames: after 4 + 4 + (4 + 5 + 4) + (4 + 6 + 4) + 32 = 67, the count then the records.
    EXPECT_EQ(a.nodes[std::size_t(animation)].offset, 67u);
    EXPECT_EQ(a.nodes[std::size_t(animation)].length, bytes.size() - 67);
    EXPECT_EQ(std::get<double>(a.ownProperty(bounds, "scaleSpread")->value), 1.0);
    expectFullyMapped(a);
}

namespace {

Asset animationAsset() {
    Asset a;
    Skeleton s;
    s.bones.push_back({"pelvis", -1});
    s.bones.push_back({"leg", 0});
    s.bones.push_back({"foot", 1});
    a.skeletons.push_back(s);
    Animation anim;
    anim.name = "run";
    anim.frameCount = 4;
    anim.skeleton = 0;
    for (int b = 0; b < 3; ++b) {
        BoneTrack t;
        t.bone = s.bones[b].name;
        for (int f = 0; f < 4; ++f) {
            // pelvis moves along x only; leg rotates about z only; foot never changes.
            t.positions.push_back({b == 0 ? 0.5f * f : 1.0f, 2.0f - b, -3.0f});
            const float h = b == 1 ? 0.2f * f : 0.0f;
            t.rotations.push_back({0, 0, std::sin(h), std::cos(h)});
            t.scales.push_back({1, 1, 1});
        }
        anim.tracks.push_back(t);
    }
    a.animations.push_back(anim);
    return a;
}

}  // namespace

TEST(UnigineSanim, RoundTripWithChangeFlags) {
    const Asset in = animationAsset();
    const auto w = writeUnigineAnimation(in);
    ASSERT_TRUE(w.ok()) << *w.error;

    // Frame records start after the signature, the bone table, the bounds and the frame count.
    std::size_t at = 4 + 4;
    for (const auto& t : in.animations[0].tracks) at += 4 + t.bone.size() + 1 + 4;
    at += 32 + 4;
    // Frame 0 stores all eight components of each of the three bones.
    for (int b = 0; b < 3; ++b) {
        EXPECT_EQ(w.bytes[at], 0xff) << "bone " << b;
        at += 1 + 16;
    }
    // Frame 1: pelvis changed translation x (bit 0); leg changed rotation z and w (bits 6, 7);
    // foot changed nothing.
    EXPECT_EQ(w.bytes[at], 0x01);
    at += 1 + 2;
    EXPECT_EQ(w.bytes[at], 0xc0);
    at += 1 + 4;
    EXPECT_EQ(w.bytes[at], 0x00);

    const DecodeResult r = decode(w.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    ASSERT_EQ(r.asset.animations.size(), 1u);
    const Animation& out = r.asset.animations[0];
    EXPECT_EQ(out.frameCount, 4u);
    ASSERT_EQ(out.tracks.size(), 3u);
    // Position steps are (max - min) / 65535 = 1.5 / 65535; rotation steps 2 / 65535.
    for (int b = 0; b < 3; ++b) {
        const BoneTrack& ti = in.animations[0].tracks[b];
        const BoneTrack& to = out.tracks[b];
        EXPECT_EQ(to.bone, ti.bone);
        for (int f = 0; f < 4; ++f) {
            EXPECT_NEAR(to.positions[f].x, ti.positions[f].x, 1.5 / 65535);
            EXPECT_NEAR(to.positions[f].y, ti.positions[f].y, 2.0 / 65535);
            EXPECT_NEAR(to.positions[f].z, ti.positions[f].z, 1e-6);
            EXPECT_NEAR(to.rotations[f].z, ti.rotations[f].z, 1.0 / 65535 + 1e-6);
            EXPECT_NEAR(to.rotations[f].w, ti.rotations[f].w, 1.0 / 65535 + 1e-6);
            EXPECT_NEAR(to.scales[f].x, 1.0f, 1e-6);
        }
    }
    // Parents follow the skeleton.
    EXPECT_EQ(r.asset.skeletons[0].bones[2].parent, 1);
    expectFullyMapped(r.asset);
}

TEST(UnigineSanim, IncompleteFirstFrameWarns) {
    Builder b;
    b.tag("as08").i32(1).name("x").i32(-1);
    b.floats({0, 0, 0, 1}).floats({1, 1, 1, 0});
    b.i32(1).u8(0x07).u16(65535).u16(0).u16(65535);
    const DecodeResult r = decode(b.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    EXPECT_TRUE(hasWarning(r.asset, errc::kIncompleteFirstFrame));
    const BoneTrack& t = r.asset.animations[0].tracks[0];
    EXPECT_EQ(t.positions[0], (Vec3{1, 0, 1}));
    EXPECT_FLOAT_EQ(t.scales[0].x, 1);
    EXPECT_FLOAT_EQ(t.rotations[0].w, 1);
}
