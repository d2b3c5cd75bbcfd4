// Key times of exported animations (issue #23): a KeyframeSequence or CurveAnimation whose length
// is off the 30 fps grid ends at its length in glTF, not at the next whole frame (Blender showed
// the R15 Dance, 1.0833 s, lasting 1.1 s: frames 0 .. 26.4 at 24 fps instead of 0 .. 26).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "export_test_util.h"
#include "meshscope/core/export.h"
#include "meshscope/core/roblox_animation.h"
#include "support/rig_fixtures.h"
#include "support/test_support.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

// test::twoPartRig (Torso and Arm joined by a Motor6D, C0 up 1, C1 down 1) with a
// KeyframeSequence moving the Arm from x = 0 to x = 3 by `length` seconds (Linear).
Asset rigWithSequence(float length) {
    Asset a = twoPartRig();
    const int seq = a.addNode("Move", "KeyframeSequence", 0);
    for (float time : {0.0f, length}) {
        const int kf = a.addNode("Keyframe", "Keyframe", seq);
        a.addProperty(kf, prop("Time", "float", double(time)));
        const int pose = a.addNode("Arm", "Pose", kf);
        a.addProperty(pose, prop("CFrame", "CFrame", cframeAt({time > 0 ? 3.0f : 0, 0, 0})));
        a.addProperty(pose, prop("Weight", "float", 1.0));
    }
    return a;
}

struct Exported {
    std::vector<float> times;
    std::vector<Vec3> armTranslations;
};

Exported exportRig(const Asset& a) {
    Exported out;
    const GlbBytes glb = exportGlb(a);
    EXPECT_TRUE(glb.report.ok()) << glb.report.error.value_or("");
    tinygltf::Model m;
    std::string err;
    EXPECT_TRUE(loadGlb(glb.bytes, m, err)) << err;
    if (m.animations.size() != 1) {
        ADD_FAILURE() << m.animations.size() << " animations";
        return out;
    }
    const auto& anim = m.animations[0];
    out.times = accessorData<float>(m, anim.samplers.at(0).input);
    for (const auto& c : anim.channels) {
        const auto& node = m.nodes.at(std::size_t(c.target_node));
        if (node.name == "Arm" && node.mesh < 0 && c.target_path == "translation")
            out.armTranslations =
                accessorData<Vec3>(m, anim.samplers.at(std::size_t(c.sampler)).output);
    }
    return out;
}

}  // namespace

TEST(AnimationTiming, LastBakedFrameIsAtTheSequenceLength) {
    // 1.05 s = 31.5 frames at 30 fps: frames 0 .. 32, the last at 1.05 s (not 32 / 30 = 1.0667).
    Asset a = rigWithSequence(1.05f);
    ASSERT_EQ(addRobloxRigAndAnimations(a), 0);
    ASSERT_EQ(a.animations.size(), 1u);
    EXPECT_EQ(a.animations[0].frameCount, 33u);
    EXPECT_FLOAT_EQ(a.animations[0].length, 1.05f);
    const Exported e = exportRig(a);
    ASSERT_EQ(e.times.size(), 33u);
    for (std::size_t f = 1; f < e.times.size(); ++f) EXPECT_LT(e.times[f - 1], e.times[f]) << f;
    EXPECT_FLOAT_EQ(e.times[31], 31.0f / 30);
    EXPECT_FLOAT_EQ(e.times.back(), 1.05f);
    // The last key is the sequence's end pose: the joint 3 along X from the shoulder.
    ASSERT_EQ(e.armTranslations.size(), 33u);
    EXPECT_NEAR(e.armTranslations.back().x, 3.0f, 1e-5f);
    EXPECT_NEAR(e.armTranslations.back().y, 2.0f, 1e-5f);
    // Every key on the linear motion: x = 3 · t / 1.05 at its own time.
    for (std::size_t f = 0; f < e.times.size(); ++f)
        EXPECT_NEAR(e.armTranslations[f].x, 3.0f * e.times[f] / 1.05f, 1e-4f) << f;
}

TEST(AnimationTiming, SequenceOnTheGridKeepsWholeFrames) {
    Asset a = rigWithSequence(1.0f);
    ASSERT_EQ(addRobloxRigAndAnimations(a), 0);
    const Exported e = exportRig(a);
    ASSERT_EQ(e.times.size(), 31u);
    for (std::size_t f = 0; f < e.times.size(); ++f)
        EXPECT_FLOAT_EQ(e.times[f], float(f) / 30) << f;
}

TEST(AnimationTiming, AnimationWithoutLengthUsesFrameTimes) {
    // A Unigine-style animation (no length): frame f at f / fps, as before.
    Asset a = rigWithSequence(1.05f);
    ASSERT_EQ(addRobloxRigAndAnimations(a), 0);
    a.animations[0].length = 0;
    const Exported e = exportRig(a);
    ASSERT_EQ(e.times.size(), 33u);
    EXPECT_FLOAT_EQ(e.times.back(), 32.0f / 30);
}
