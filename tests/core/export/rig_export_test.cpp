// glTF export of a Roblox rig and its baked animations (issue #23): the rig parts hang under their
// joint nodes so that the animation channels on the joints move them; the Khronos validator
// reports nothing.
#include <gtest/gtest.h>

#include <cmath>

#include "export_test_util.h"
#include "gltf_validator_util.h"
#include "meshscope/core/export.h"
#include "meshscope/core/roblox_animation.h"
#include "support/rig_fixtures.h"
#include "support/test_support.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

// Torso at the origin, Arm 2 up joined by a Motor6D (C0 up 1, C1 down 1), and a
// KeyframeSequence moving the joint from x = 0 to x = 2 over 1 s.
Asset rigWithSequence() {
    Asset a = twoPartRig({.model = "Character", .sizes = true});
    const int model = 0;
    const int seq = a.addNode("Swing", "KeyframeSequence", model);
    for (float time : {0.0f, 1.0f}) {
        const int kf = a.addNode("Keyframe", "Keyframe", seq);
        a.addProperty(kf, prop("Time", "float", double(time)));
        const int pose = a.addNode("Arm", "Pose", kf);
        a.addProperty(pose, prop("CFrame", "CFrame", cframeAt({2 * time, 0, 0})));
        a.addProperty(pose, prop("Weight", "float", 1.0));
    }
    return a;
}

}  // namespace

TEST(RigExport, PartsHangUnderTheirJointsAndAnimationsMoveThem) {
    Asset a = rigWithSequence();
    ASSERT_EQ(addRobloxRigAndAnimations(a), 0);
    ASSERT_EQ(a.animations.size(), 1u);
    const GlbBytes glb = exportGlb(a);
    ASSERT_TRUE(glb.report.ok()) << glb.report.error.value_or("");
    EXPECT_EQ(glb.report.stats.parts, 2u);
    EXPECT_EQ(glb.report.stats.rigParts, 2u);
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(loadGlb(glb.bytes, m, err)) << err;
    // Joint nodes (no mesh) and part nodes (a mesh) share the part names.
    int armJoint = -1, armPart = -1, torsoJoint = -1;
    for (std::size_t i = 0; i < m.nodes.size(); ++i) {
        const bool mesh = m.nodes[i].mesh >= 0;
        if (m.nodes[i].name == "Arm") (mesh ? armPart : armJoint) = int(i);
        if (m.nodes[i].name == "Torso" && !mesh) torsoJoint = int(i);
    }
    ASSERT_GE(armJoint, 0);
    ASSERT_GE(torsoJoint, 0);
    ASSERT_GE(armPart, 0);
    const auto& kids = m.nodes[std::size_t(armJoint)].children;
    EXPECT_NE(std::find(kids.begin(), kids.end(), armPart), kids.end());
    // The part sits at its bone (the bind places Arm exactly at its CFrame): no offset left.
    EXPECT_TRUE(m.nodes[std::size_t(armPart)].translation.empty());
    // The joint is 2 up from Torso in the bind, and the animation's channel targets it.
    ASSERT_EQ(m.nodes[std::size_t(armJoint)].translation.size(), 3u);
    EXPECT_NEAR(m.nodes[std::size_t(armJoint)].translation[1], 2.0, 1e-6);
    ASSERT_EQ(m.animations.size(), 1u);
    bool armTranslation = false;
    for (const auto& c : m.animations[0].channels)
        armTranslation =
            armTranslation || (c.target_node == armJoint && c.target_path == "translation");
    EXPECT_TRUE(armTranslation);
    // The last frame of that channel: (2, 2, 0) relative to Torso.
    for (const auto& c : m.animations[0].channels) {
        if (c.target_node != armJoint || c.target_path != "translation") continue;
        const auto values =
            accessorData<Vec3>(m, m.animations[0].samplers[std::size_t(c.sampler)].output);
        ASSERT_EQ(values.size(), 31u);  // 0 .. 1 s at 30 fps
        EXPECT_NEAR(values.back().x, 2.0f, 1e-5f);
        EXPECT_NEAR(values.back().y, 2.0f, 1e-5f);
        EXPECT_NEAR(values[15].x, 1.0f, 1e-5f);
    }

    // The Khronos validator reports no error or warning.
    const auto dir = tempDir("rig_export");
    const auto path = dir / "rig.glb";
    const ExportResult r = exportAsset(a, path.string(), ExportOptions{});
    ASSERT_TRUE(r.ok());
    const ValidatorRun run = runGltfValidator({path});
    if (!run.unavailable.empty()) GTEST_SKIP() << "SKIPPED: no glTF validator: " << run.unavailable;
    const auto it = run.reports.find(path.string());
    ASSERT_NE(it, run.reports.end()) << run.output;
    EXPECT_EQ(it->second.errors, 0u) << it->second.json;
    EXPECT_EQ(it->second.warnings, 0u) << it->second.json;
}
