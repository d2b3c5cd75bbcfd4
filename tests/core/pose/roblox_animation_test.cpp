// Roblox rigs and KeyframeSequences (issue #23): easing against hand-computed values, a
// hand-built Motor6D rig posed by hand-computed transforms, a hand-built KeyframeSequence, and
// the real R6/R15 characters and animations of the corpus.
#include "meshscope/core/roblox_animation.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_parts.h"
#include "pose_test_util.h"
#include "support/rig_fixtures.h"
#include "support/test_support.h"

using namespace meshscope;
using meshscope::test::cframeAt;
using meshscope::test::expectNear;
using meshscope::test::prop;
using meshscope::test::twoPartRig;

namespace {

using S = PoseEasingStyle;
using D = PoseEasingDirection;

TEST(PoseEasing, LinearAndConstant) {
    EXPECT_FLOAT_EQ(poseEase(S::Linear, D::In, 0.3f), 0.3f);
    EXPECT_FLOAT_EQ(poseEase(S::Linear, D::Out, 0.3f), 0.3f);
    EXPECT_FLOAT_EQ(poseEase(S::Constant, D::In, 0.99f), 0.0f);
    EXPECT_FLOAT_EQ(poseEase(S::Constant, D::Out, 1.0f), 1.0f);
    EXPECT_FLOAT_EQ(poseEase(S::Linear, D::In, -1.0f), 0.0f);
    EXPECT_FLOAT_EQ(poseEase(S::Linear, D::In, 2.0f), 1.0f);
    EXPECT_FLOAT_EQ(poseEase(S::Linear, D::In, std::nanf("")), 0.0f);
}

TEST(PoseEasing, CubicV2FollowsPoseDirections) {
    // Pose Out = forward t³; Pose In = 1 - (1 - t)³; InOut = halves back to back.
    EXPECT_FLOAT_EQ(poseEase(S::CubicV2, D::Out, 0.5f), 0.125f);
    EXPECT_FLOAT_EQ(poseEase(S::CubicV2, D::In, 0.5f), 0.875f);
    EXPECT_FLOAT_EQ(poseEase(S::CubicV2, D::InOut, 0.25f), 0.0625f);
    EXPECT_FLOAT_EQ(poseEase(S::CubicV2, D::InOut, 0.75f), 0.9375f);
    EXPECT_FLOAT_EQ(poseEase(S::CubicV2, D::InOut, 0.5f), 0.5f);
}

TEST(PoseEasing, LegacyCubicSwapsInAndOut) {
    EXPECT_FLOAT_EQ(poseEase(S::Cubic, D::In, 0.5f), 0.125f);
    EXPECT_FLOAT_EQ(poseEase(S::Cubic, D::Out, 0.5f), 0.875f);
    EXPECT_FLOAT_EQ(poseEase(S::Cubic, D::InOut, 0.25f), 0.0625f);
}

TEST(PoseEasing, Bounce) {
    // bounceOut(0.5) = 7.5625 (0.5 - 1.5/2.75)² + 0.75 = 0.765625.
    EXPECT_NEAR(poseEase(S::Bounce, D::In, 0.5f), 0.765625f, 1e-6f);
    EXPECT_NEAR(poseEase(S::Bounce, D::Out, 0.5f), 0.234375f, 1e-6f);
    // bounceOut(0.2) = 7.5625 · 0.04 = 0.3025.
    EXPECT_NEAR(poseEase(S::Bounce, D::In, 0.2f), 0.3025f, 1e-6f);
}

TEST(PoseEasing, Elastic) {
    // f(0.5) = -2^-5 · sin(-0.575 · 2π / 0.3) = -(1/32) · sin(π/6 - 4π) = -0.015625.
    EXPECT_NEAR(poseEase(S::Elastic, D::Out, 0.5f), -0.015625f, 1e-5f);
    EXPECT_NEAR(poseEase(S::Elastic, D::In, 0.5f), 1.015625f, 1e-5f);
    EXPECT_FLOAT_EQ(poseEase(S::Elastic, D::In, 1.0f), 1.0f);
}

TEST(RobloxCFrame, QuaternionRoundTripAndSlerp) {
    const Mat4 r = eulerXyzDegrees({30, -45, 60});
    expectNear(quaternionMatrix(quaternionOf(r)), r);
    // Halfway between identity and 90° about Z is 45° about Z.
    const Mat4 half = lerpRigid(Mat4::identity(), rotationZDegrees(90), 0.5f);
    expectNear(half, rotationZDegrees(45));
    Mat4 a = translationMatrix({0, 2, 0}), b = translationMatrix({4, 0, 0});
    expectNear(transformPoint(lerpRigid(a, b, 0.25f), {}), {1, 1.5f, 0});
    expectNear(inverseRigid(r * translationMatrix({1, 2, 3})) * r * translationMatrix({1, 2, 3}),
               Mat4::identity());
}

TEST(RobloxRig, Motor6DJointsMakeASkeleton) {
    const Asset a = twoPartRig();
    const RobloxRig rig = extractRobloxRig(a);
    ASSERT_EQ(rig.skeleton.bones.size(), 2u);
    EXPECT_FALSE(rig.fromAttachments);
    EXPECT_EQ(rig.skeleton.bones[0].name, "Torso");
    EXPECT_EQ(rig.skeleton.bones[0].parent, -1);
    EXPECT_EQ(rig.skeleton.bones[1].name, "Arm");
    EXPECT_EQ(rig.skeleton.bones[1].parent, 0);
    ASSERT_EQ(rig.joints.size(), 1u);
    EXPECT_EQ(rig.joints[0].name, "Shoulder");
    // Bind: C0 · C1⁻¹ = up 1, then up 1 again.
    expectNear(transformPoint(rig.skeleton.bones[1].world, {}), {0, 2, 0});

    // Transform 90° about Z: Arm origin = C0 · R · C1⁻¹ · 0 = (0,1,0) + R(0,1,0) = (-1, 1, 0).
    const Mat4 t = rotationZDegrees(90);
    Bounds bounds;
    const auto world = posedRigWorld(rig, {t}, &bounds);
    expectNear(transformPoint(world[1], {}), {-1, 1, 0});
    EXPECT_TRUE(bounds.valid());
    // The same through the generic skeleton maths with local = C1 · T · C1⁻¹.
    Pose pose = Pose::bind(rig.skeleton);
    pose.local[1] = jointLocalFromTransform(rig.joints[0], t);
    const auto generic = posedWorldTransforms(rig.skeleton, pose);
    expectNear(generic[1], world[1]);
}

TEST(RobloxRig, BrokenJointsAreWarnedNotFollowed) {
    Asset a = twoPartRig();
    // A second motor driving Arm, and one driving Torso from Arm (a loop).
    const int torso = 1, arm = 2;
    const int m2 = a.addNode("Again", "Motor6D", torso);
    a.addProperty(m2, prop("Part0", "Ref", NodeRef{torso}));
    a.addProperty(m2, prop("Part1", "Ref", NodeRef{arm}));
    const int m3 = a.addNode("Loop", "Motor6D", arm);
    a.addProperty(m3, prop("Part0", "Ref", NodeRef{arm}));
    a.addProperty(m3, prop("Part1", "Ref", NodeRef{torso}));
    const int m4 = a.addNode("Dangling", "Motor6D", arm);
    a.addProperty(m4, prop("Part0", "Ref", NodeRef{arm}));
    a.addProperty(m4, prop("Part1", "Ref", NodeRef{999}));
    const RobloxRig rig = extractRobloxRig(a);
    EXPECT_EQ(rig.skeleton.bones.size(), 2u);
    EXPECT_EQ(rig.joints.size(), 1u);
    EXPECT_EQ(rig.warnings.size(), 3u);
}

// A KeyframeSequence: Torso > Arm poses at t = 0 and 1, the second keyframe listed first.
Asset twoKeySequence(S style, D direction, Asset a = {}) {
    a.format = "roblox-model";
    const int seq = a.addNode("Wave", "KeyframeSequence");
    a.addProperty(seq, prop("Loop", "bool", true));
    a.addProperty(seq, prop("Priority", "token", std::int64_t(2)));
    for (float time : {1.0f, 0.0f}) {
        const int kf = a.addNode("Keyframe", "Keyframe", seq);
        a.addProperty(kf, prop("Time", "float", double(time)));
        const int root = a.addNode("Torso", "Pose", kf);
        a.addProperty(root, prop("Weight", "float", 0.0));
        const int arm = a.addNode("Arm", "Pose", root);
        CFrame cf = cframeAt({time * 2, 0, 0});
        a.addProperty(arm, prop("CFrame", "CFrame", cf));
        a.addProperty(arm, prop("Weight", "float", 1.0));
        a.addProperty(arm, prop("EasingStyle", "token", std::int64_t(style)));
        a.addProperty(arm, prop("EasingDirection", "token", std::int64_t(direction)));
    }
    return a;
}

TEST(KeyframeSequence, ReadsTracksAndSamples) {
    const auto seqs = extractKeyframeSequences(twoKeySequence(S::CubicV2, D::Out));
    ASSERT_EQ(seqs.size(), 1u);
    const KeyframeSequence& s = seqs[0];
    EXPECT_TRUE(s.loop);
    EXPECT_EQ(s.priority, 2);
    EXPECT_FLOAT_EQ(s.length, 1.0f);
    ASSERT_EQ(s.tracks.size(), 2u);
    const int arm = s.findTrack("Arm");
    ASSERT_GE(arm, 0);
    EXPECT_EQ(s.tracks[std::size_t(arm)].parent, "Torso");
    ASSERT_EQ(s.tracks[std::size_t(arm)].keys.size(), 2u);
    EXPECT_FLOAT_EQ(s.tracks[std::size_t(arm)].keys[0].time, 0.0f);
    EXPECT_TRUE(s.tracks[std::size_t(s.findTrack("Torso"))].keys.empty());  // Weight 0
    // CubicV2 Out at half time: 0.125 of the way from x = 0 to x = 2.
    const Mat4 m = sampleTrack(s.tracks[std::size_t(arm)], 0.5f);
    expectNear(transformPoint(m, {}), {0.25f, 0, 0});
    // Looping: 1.5 s wraps to 0.5 s; -0.25 wraps to 0.75.
    EXPECT_FLOAT_EQ(sequenceTime(s, 1.5f), 0.5f);
    EXPECT_FLOAT_EQ(sequenceTime(s, -0.25f), 0.75f);
    EXPECT_FLOAT_EQ(sequenceTime(s, std::nanf("")), 0.0f);
}

TEST(KeyframeSequence, ConstantHoldsThenSnaps) {
    const auto seqs = extractKeyframeSequences(twoKeySequence(S::Constant, D::In));
    const PoseTrack& t = seqs.at(0).tracks.at(std::size_t(seqs[0].findTrack("Arm")));
    expectNear(transformPoint(sampleTrack(t, 0.9f), {}), {0, 0, 0});
    expectNear(transformPoint(sampleTrack(t, 1.0f), {}), {2, 0, 0});
}

TEST(KeyframeSequence, OnRigMatchesJointsByPartName) {
    Asset a = twoPartRig();
    const auto seqs = extractKeyframeSequences(twoKeySequence(S::Linear, D::In));
    const RobloxRig rig = extractRobloxRig(a);
    RigSample sample;
    sampleOnRig(seqs.at(0), rig, 0.5f, sample);
    EXPECT_TRUE(sample.unmatchedTracks.empty());
    EXPECT_TRUE(sample.unanimatedJoints.empty());
    ASSERT_EQ(sample.jointTransforms.size(), 1u);
    expectNear(transformPoint(sample.jointTransforms[0], {}), {1, 0, 0});
    // Arm origin = C0 · T · C1⁻¹ · 0 = (0,1,0) + (1,0,0) + (0,1,0).
    const auto world = posedRigWorld(rig, sample.jointTransforms);
    expectNear(transformPoint(world[1], {}), {1, 2, 0});
}

TEST(KeyframeSequence, BakedIntoTheAssetWithTheRig) {
    // The rig and the sequence in one model, as a character holding its animation.
    Asset a = twoPartRig();
    const Asset seqAsset = twoKeySequence(S::Linear, D::In);
    const auto seqs = extractKeyframeSequences(seqAsset);
    const RobloxRig rig = extractRobloxRig(a);
    const Animation anim = bakeKeyframeSequence(seqs.at(0), rig, 0, 30);
    EXPECT_EQ(anim.frameCount, 31u);  // 0 .. 1 s at 30 fps, both ends
    // The keyframes' times, for the timeline's ticks, and the sequence's Loop.
    EXPECT_EQ(anim.keyTimes, seqs.at(0).keyframeTimes);
    EXPECT_EQ(anim.keyTimes.size(), 2u);
    EXPECT_EQ(anim.loop, seqs.at(0).loop);
    ASSERT_EQ(anim.tracks.size(), 2u);
    EXPECT_EQ(anim.tracks[1].bone, "Arm");
    ASSERT_EQ(anim.tracks[1].positions.size(), 31u);
    // Frame 15 (0.5 s): Arm relative to Torso = C0 · T · C1⁻¹ = (0,1,0) + (1,0,0) + (0,1,0).
    expectNear(anim.tracks[1].positions[15], {1, 2, 0});
    expectNear(anim.tracks[1].positions[30], {2, 2, 0});
    EXPECT_FLOAT_EQ(anim.tracks[1].rotations[15].w, 1.0f);

    // Through the decode hook: skeleton, links from the part and Motor6D nodes.
    const int skeleton = addRobloxRigAndAnimations(a);
    ASSERT_EQ(skeleton, 0);
    ASSERT_EQ(a.skeletons.size(), 1u);
    EXPECT_TRUE(a.animations.empty());  // this model holds no KeyframeSequence
    EXPECT_EQ(a.links(2).skeleton, 0);  // Arm
    EXPECT_EQ(a.links(2).bone, 1);
    EXPECT_EQ(a.links(3).bone, 1);  // the Motor6D shows Arm's bone
    // A character holding its animation: the sequence is baked and linked from its node.
    Asset both = twoKeySequence(S::Linear, D::In, twoPartRig());
    ASSERT_EQ(addRobloxRigAndAnimations(both), 0);
    ASSERT_EQ(both.animations.size(), 1u);
    EXPECT_EQ(both.animations[0].frameCount, 31u);
    EXPECT_EQ(both.animations[0].skeleton, 0);
    expectNear(both.animations[0].tracks[1].positions[15], {1, 2, 0});
    const auto bothSeqs = extractKeyframeSequences(both);
    ASSERT_EQ(bothSeqs.size(), 1u);
    EXPECT_EQ(both.links(bothSeqs[0].node).animation, 0);
    // A model with no joints gets nothing.
    Asset plain;
    plain.format = "roblox-model";
    plain.addNode("Part", "Part");
    EXPECT_EQ(addRobloxRigAndAnimations(plain), -1);
    EXPECT_TRUE(plain.skeletons.empty());
}

// Face animation as the Animation Editor saves it: Keyframe > Pose HumanoidRootPart (Weight 0) >
// Pose Head > Folder FaceControls > NumberPose per control. Keyframes listed out of order.
//   JawDrop:  0 (CubicV2 Out) at 0 s, 1 (Linear) at 1 s, 0.5 at 2 s
//   Funneler: 0 (Linear) at 0 s, a Weight-0 placeholder at 1 s, 1.5 at 2 s (clamped to 1)
Asset faceSequence(Asset a = {}, double jawAtOne = 1) {
    a.format = "roblox-model";
    const int seq = a.addNode("Talk", "KeyframeSequence");
    struct Np {
        const char* control;
        double value, weight;
        S style;
    };
    const auto keyframe = [&](double time, std::vector<Np> poses) {
        const int kf = a.addNode("Keyframe", "Keyframe", seq);
        a.addProperty(kf, prop("Time", "float", time));
        const int root = a.addNode("HumanoidRootPart", "Pose", kf);
        a.addProperty(root, prop("Weight", "float", 0.0));
        const int head = a.addNode("Head", "Pose", root);
        a.addProperty(head, prop("Weight", "float", 0.0));
        const int face = a.addNode("FaceControls", "Folder", head);
        for (const Np& n : poses) {
            const int np = a.addNode(n.control, "NumberPose", face);
            a.addProperty(np, prop("Value", "float", n.value));
            a.addProperty(np, prop("Weight", "float", n.weight));
            a.addProperty(np, prop("EasingStyle", "token", std::int64_t(n.style)));
            a.addProperty(np, prop("EasingDirection", "token", std::int64_t(D::Out)));
        }
    };
    keyframe(2.0, {{"JawDrop", 0.5, 1, S::Linear}, {"Funneler", 1.5, 1, S::Linear}});
    keyframe(0.0, {{"JawDrop", 0, 1, S::CubicV2}, {"Funneler", 0, 1, S::Linear}});
    keyframe(1.0, {{"JawDrop", jawAtOne, 1, S::Linear}, {"Funneler", 9, 0, S::Linear}});
    return a;
}

TEST(KeyframeSequence, FaceControlsNumberPoses) {
    const auto seqs = extractKeyframeSequences(faceSequence());
    ASSERT_EQ(seqs.size(), 1u);
    const KeyframeSequence& s = seqs[0];
    EXPECT_TRUE(s.warnings.empty()) << s.warnings.front();
    EXPECT_FLOAT_EQ(s.length, 2.0f);
    ASSERT_EQ(s.faceControls.size(), 2u);
    const NumberPoseTrack& jaw = s.faceControls[0];
    const NumberPoseTrack& fun = s.faceControls[1];
    EXPECT_EQ(jaw.name, "JawDrop");
    EXPECT_EQ(jaw.parent, "Head");
    ASSERT_EQ(jaw.keys.size(), 3u);
    EXPECT_FLOAT_EQ(jaw.keys[0].time, 0.0f);
    EXPECT_EQ(jaw.keys[0].style, S::CubicV2);
    EXPECT_EQ(fun.keys.size(), 2u);  // the Weight-0 NumberPose is a placeholder
    // No joint track is keyed (the Poses are Weight 0), so the face is all there is.
    for (const PoseTrack& t : s.tracks) EXPECT_TRUE(t.keys.empty()) << t.joint;
    // JawDrop at 0.5 s: CubicV2 Out is the forward curve t³ → 0.125; at 1.5 s Linear 1 → 0.5:
    // 0.75. Funneler at 1 s: 0 → 1.5 linear over 2 s = 0.75; at 2 s 1.5, clamped to 1.
    EXPECT_NEAR(sampleNumberPoseTrack(jaw, 0.5f), 0.125f, 1e-6f);
    EXPECT_NEAR(sampleNumberPoseTrack(jaw, 1.5f), 0.75f, 1e-6f);
    EXPECT_NEAR(sampleNumberPoseTrack(fun, 1.0f), 0.75f, 1e-6f);
    EXPECT_NEAR(sampleNumberPoseTrack(fun, 2.0f), 1.5f, 1e-6f);
    const auto w = sampleFaceControls(s, 2.0f);
    ASSERT_EQ(w.size(), 2u);
    EXPECT_EQ(w[0].first, "JawDrop");
    EXPECT_FLOAT_EQ(w[0].second, 0.5f);
    EXPECT_FLOAT_EQ(w[1].second, 1.0f);

    // Baked (no rig: a face-only animation): one FACS channel per control, 30 fps frames.
    const Animation face = bakeKeyframeSequence(s, RobloxRig{}, -1, 30);
    EXPECT_TRUE(face.tracks.empty());
    EXPECT_EQ(face.frameCount, 61u);
    ASSERT_EQ(face.facsChannels.size(), 2u);
    EXPECT_EQ(face.facsChannels[0].control, "JawDrop");
    ASSERT_EQ(face.facsChannels[0].weights.size(), 61u);
    EXPECT_NEAR(face.facsChannels[0].weights[15], 0.125f, 1e-6f);
    EXPECT_NEAR(face.facsChannels[0].weights[45], 0.75f, 1e-6f);
    EXPECT_NEAR(face.facsChannels[1].weights[30], 0.75f, 1e-6f);
    EXPECT_FLOAT_EQ(face.facsChannels[1].weights[60], 1.0f);

    // On a rig the channels come along with the bone tracks.
    const Animation onRig = bakeKeyframeSequence(s, extractRobloxRig(twoPartRig()), 0, 30);
    EXPECT_EQ(onRig.tracks.size(), 2u);
    ASSERT_EQ(onRig.facsChannels.size(), 2u);
    EXPECT_NEAR(onRig.facsChannels[0].weights[15], 0.125f, 1e-6f);

    // A non-finite Value is skipped with a warning naming it.
    const auto badSeqs = extractKeyframeSequences(faceSequence({}, std::nan("")));
    ASSERT_FALSE(badSeqs.at(0).warnings.empty());
    EXPECT_NE(badSeqs[0].warnings[0].find("Head/FaceControls/JawDrop"), std::string::npos)
        << badSeqs[0].warnings[0];
    EXPECT_EQ(badSeqs[0].faceControls.at(0).keys.size(), 2u);
}

// ------------------------------------------------------------------------------------------
// Real files

const char* const kR15Animations[] = {"Climb", "Dance", "Idle", "LookAround", "Sit", "Swim"};
const char* const kR6Animations[] = {"Climb", "Fall", "Idle", "Sit", "Walk", "WaveArms"};

void checkAnimationsOnRig(const std::filesystem::path& corpus, const std::string& rigFile,
                          const std::string& animDir, const char* const* names, std::size_t n,
                          std::size_t expectedJoints) {
    const DecodeResult rigResult = decodeFile((corpus / rigFile).string());
    ASSERT_TRUE(rigResult.ok()) << rigFile;
    const RobloxRig rig = extractRobloxRig(rigResult.asset);
    EXPECT_EQ(rig.joints.size(), expectedJoints) << rigFile;
    EXPECT_TRUE(rig.warnings.empty()) << rigFile;
    for (std::size_t i = 0; i < n; ++i) {
        const std::string file = animDir + names[i] + ".rbxmx";
        const DecodeResult r = decodeFile((corpus / file).string());
        ASSERT_TRUE(r.ok()) << file;
        const auto seqs = extractKeyframeSequences(r.asset);
        ASSERT_EQ(seqs.size(), 1u) << file;
        const KeyframeSequence& s = seqs[0];
        EXPECT_GT(s.keyframeTimes.size(), 0u) << file;
        EXPECT_TRUE(s.warnings.empty()) << file;
        RigSample sample;
        for (float t : {0.0f, s.length * 0.37f, s.length * 0.5f, s.length}) {
            sampleOnRig(s, rig, t, sample);
            EXPECT_TRUE(sample.unmatchedTracks.empty())
                << file << ": " << sample.unmatchedTracks.front();
            Bounds bounds;
            const auto world = posedRigWorld(rig, sample.jointTransforms, &bounds);
            for (const Mat4& w : world) EXPECT_TRUE(test::finite(w)) << file;
            EXPECT_TRUE(bounds.valid()) << file;
        }
    }
}

TEST(RobloxAnimationCorpus, R15AnimationsOnBTRobloxR15Character) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    checkAnimationsOnRig(corpus, "rbxm/AntiBoomz_BTRoblox/res/previewer/characterR15.rbxm",
                         "rbxmx/MaximumADHD_Rbx2Source/Resources/AvatarData/R15/Animations/",
                         kR15Animations, std::size(kR15Animations), 15);
}

TEST(RobloxAnimationCorpus, R6AnimationsOnBTRobloxR6Character) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    checkAnimationsOnRig(corpus, "rbxm/AntiBoomz_BTRoblox/res/previewer/character.rbxm",
                         "rbxmx/MaximumADHD_Rbx2Source/Resources/AvatarData/R6/Animations/",
                         kR6Animations, std::size(kR6Animations), 6);
}

TEST(RobloxAnimationCorpus, DecodedCharacterHasItsRigSkeleton) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const DecodeResult r =
        decodeFile((corpus / "rbxm/AntiBoomz_BTRoblox/res/previewer/character.rbxm").string());
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.asset.skeletons.size(), 1u);
    EXPECT_EQ(r.asset.skeletons[0].bones.size(), 7u);  // HumanoidRootPart, Torso, 4 limbs, Head
    int linked = 0;
    for (std::size_t n = 0; n < r.asset.nodes.size(); ++n)
        linked += r.asset.links(int(n)).skeleton == 0;
    EXPECT_EQ(linked, 7 + 6);  // the parts and the Motor6Ds
    // An animation alone has no rig: nothing is added.
    const DecodeResult idle = decodeFile(
        (corpus / "rbxmx/MaximumADHD_Rbx2Source/Resources/AvatarData/R6/Animations/Idle.rbxmx")
            .string());
    ASSERT_TRUE(idle.ok());
    EXPECT_TRUE(idle.asset.skeletons.empty());
    EXPECT_TRUE(idle.asset.animations.empty());
}

TEST(RobloxAnimationCorpus, R15CharacterBaseRigFromAttachments) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const DecodeResult r = decodeFile(
        (corpus / "rbxm/MaximumADHD_Rbx2Source/Resources/AvatarData/R15/CharacterBase.rbxm")
            .string());
    ASSERT_TRUE(r.ok());
    const RobloxRig rig = extractRobloxRig(r.asset);
    EXPECT_TRUE(rig.fromAttachments);
    ASSERT_EQ(rig.skeleton.bones.size(), 15u);  // 14 MeshParts and the Head
    EXPECT_EQ(rig.skeleton.bones[0].name, "LowerTorso");
    EXPECT_EQ(rig.joints.size(), 14u);
    EXPECT_TRUE(boneOrder(rig.skeleton).clean());
    // The attachments put every part where the file has it (within a hundredth of a stud).
    const auto parts = extractRobloxParts(r.asset);
    for (std::size_t b = 0; b < rig.skeleton.bones.size(); ++b)
        for (const RobloxPart& p : parts)
            if (p.node == rig.partNodeOfBone[b])
                expectNear(transformPoint(rig.skeleton.bones[b].world, {}), p.cframe.position,
                           0.01f);
    // Idle on it: every keyed track but the root's (LowerTorso: no HumanoidRootPart here, so no
    // Root joint) drives a joint.
    const DecodeResult idle = decodeFile(
        (corpus / "rbxmx/MaximumADHD_Rbx2Source/Resources/AvatarData/R15/Animations/Idle.rbxmx")
            .string());
    ASSERT_TRUE(idle.ok());
    const auto seqs = extractKeyframeSequences(idle.asset);
    ASSERT_EQ(seqs.size(), 1u);
    EXPECT_TRUE(seqs[0].loop);
    RigSample sample;
    sampleOnRig(seqs[0], rig, 0.0f, sample);
    EXPECT_TRUE(sample.unmatchedTracks.empty());
    ASSERT_EQ(sample.rootTracks.size(), 1u);
    EXPECT_EQ(sample.rootTracks[0], "LowerTorso");
    EXPECT_TRUE(sample.unanimatedJoints.empty());
}

}  // namespace

namespace {

// The figure: sampling and posing one frame of the largest R15 animation (LookAround) on
// a 15-joint rig. Printed, not asserted (timings depend on the machine); the pose is checked.
TEST(RobloxAnimationCorpus, SampleTimingLargestR15Animation) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const DecodeResult rigFile =
        decodeFile((corpus / "rbxm/AntiBoomz_BTRoblox/res/previewer/characterR15.rbxm").string());
    const DecodeResult anim = decodeFile(
        (corpus /
         "rbxmx/MaximumADHD_Rbx2Source/Resources/AvatarData/R15/Animations/LookAround.rbxmx")
            .string());
    ASSERT_TRUE(rigFile.ok() && anim.ok());
    const RobloxRig rig = extractRobloxRig(rigFile.asset);
    const auto seqs = extractKeyframeSequences(anim.asset);
    ASSERT_EQ(seqs.size(), 1u);
    RigSample sample;
    Bounds bounds;
    constexpr int kFrames = 2000;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kFrames; ++i) {
        sampleOnRig(seqs[0], rig, seqs[0].length * float(i) / kFrames, sample);
        const auto world = posedRigWorld(rig, sample.jointTransforms, &bounds);
        ASSERT_EQ(world.size(), rig.skeleton.bones.size());
    }
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count() /
        kFrames;
    std::printf("LookAround (%zu keyframes, %zu tracks) on a %zu-joint rig: %.1f us a frame\n",
                seqs[0].keyframeTimes.size(), seqs[0].tracks.size(), rig.joints.size(), us);
    EXPECT_TRUE(bounds.valid());
}

}  // namespace

// The UnitTest place holds one NumberPose (outside any KeyframeSequence): its real properties
// (Value a double, Weight a float, EasingStyle / EasingDirection tokens, in both encodings)
// copied onto a NumberPose in a Head Pose's FaceControls folder read as a face key.
TEST(RobloxAnimationCorpus, UnitTestNumberPosePropertiesReadAsAFaceKey) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    for (const char* file : {"rbxm/MaximumADHD_Roblox-File-Format/UnitTest/Files/Binary.rbxl",
                             "rbxmx/MaximumADHD_Roblox-File-Format/UnitTest/Files/Xml.rbxlx"}) {
        const DecodeResult r = decodeFile((corpus / file).string());
        ASSERT_TRUE(r.ok()) << file;
        int real = -1;
        for (std::size_t n = 0; n < r.asset.nodes.size() && real < 0; ++n)
            if (r.asset.kind(int(n)) == "NumberPose") real = int(n);
        ASSERT_GE(real, 0) << file;
        Asset a;
        a.format = "roblox-model";
        const int seq = a.addNode("Face", "KeyframeSequence");
        const int kf = a.addNode("Keyframe", "Keyframe", seq);
        a.addProperty(kf, prop("Time", "float", 0.5));
        const int head = a.addNode("Head", "Pose", kf);
        const int face = a.addNode("FaceControls", "Folder", head);
        const int np = a.addNode("JawDrop", "NumberPose", face);
        for (const char* name : {"Value", "Weight", "EasingStyle", "EasingDirection"}) {
            const auto p = r.asset.property(real, name);
            ASSERT_TRUE(p.has_value()) << file << " " << name;
            // Numbers as the reader takes them (double or int64), not strings.
            EXPECT_TRUE(std::holds_alternative<double>(p->value) ||
                        std::holds_alternative<std::int64_t>(p->value))
                << file << " " << name;
            a.addProperty(np, *p);
        }
        const auto seqs = extractKeyframeSequences(a);
        ASSERT_EQ(seqs.size(), 1u);
        EXPECT_TRUE(seqs[0].warnings.empty()) << file;
        ASSERT_EQ(seqs[0].faceControls.size(), 1u) << file;
        const NumberPoseTrack& t = seqs[0].faceControls[0];
        ASSERT_EQ(t.keys.size(), 1u) << file;  // Weight 1: a key
        EXPECT_FLOAT_EQ(t.keys[0].time, 0.5f);
        EXPECT_FLOAT_EQ(t.keys[0].value, 0.0f);
        EXPECT_FLOAT_EQ(t.keys[0].weight, 1.0f);
        EXPECT_EQ(t.keys[0].style, S::Linear);
        EXPECT_EQ(t.keys[0].direction, D::In);
    }
}
