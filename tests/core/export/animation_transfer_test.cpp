// Animations of another file played on a rig or skeleton and exported to glTF (issue #23,
// `export --animation`): Roblox KeyframeSequences baked on a rig, Unigine animations copied onto
// the skeleton naming their bones; joint channels, key values equal to core/pose's sample, the
// unmatched-track warning, and the Khronos validator on the corpus R6 / R15 animations.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <numbers>

#include "export_test_util.h"
#include "gltf_validator_util.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_animation.h"
#include "meshscope/core/unigine_writer.h"
#include "support/rig_fixtures.h"
#include "support/test_support.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

// Torso at the origin, Arm 2 up, joined by a Motor6D (C0 up 1, C1 down 1); no animation.
Asset rig() {
    return twoPartRig({.model = "Character", .sizes = true});
}

// A separate file's KeyframeSequence: Arm turns a quarter about Z by 0.5 s and holds to 1 s;
// "Tail" names no part of the rig.
Asset sequence() {
    Asset a;
    a.format = "roblox-model";
    const int seq = a.addNode("Turn", "KeyframeSequence");
    for (float time : {0.0f, 0.5f, 1.0f}) {
        const int kf = a.addNode("Keyframe", "Keyframe", seq);
        a.addProperty(kf, prop("Time", "float", double(time)));
        const int arm = a.addNode("Arm", "Pose", kf);
        a.addProperty(arm,
                      prop("CFrame", "CFrame", time == 0 ? cframeAt({}) : quarterTurnZ({0, 0, 0})));
        a.addProperty(arm, prop("Weight", "float", 1.0));
        const int tail = a.addNode("Tail", "Pose", kf);
        a.addProperty(tail, prop("CFrame", "CFrame", cframeAt({time, 0, 0})));
        a.addProperty(tail, prop("Weight", "float", 1.0));
    }
    return a;
}

int jointNode(const tinygltf::Model& m, const std::string& name) {
    for (std::size_t i = 0; i < m.nodes.size(); ++i)
        if (m.nodes[i].name == name && m.nodes[i].mesh < 0) return int(i);
    return -1;
}

// The output values of the channel `path` on node `node` of animation 0.
template <class T>
std::vector<T> channelValues(const tinygltf::Model& m, int node, const std::string& path) {
    for (const auto& c : m.animations.at(0).channels)
        if (c.target_node == node && c.target_path == path)
            return accessorData<T>(m, m.animations[0].samplers[std::size_t(c.sampler)].output);
    return {};
}

std::vector<float> channelTimes(const tinygltf::Model& m) {
    return accessorData<float>(m, m.animations.at(0).samplers.at(0).input);
}

// Same rotation (q and -q alike).
float quaternionGap(const Vec4& a, const Vec4& b) {
    const float d = std::fabs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
    return 1 - std::min(d, 1.0f);
}

}  // namespace

TEST(AnimationTransfer, SequenceOfAnotherFileBakedOnTheRigAndExported) {
    Asset target = rig();
    ASSERT_EQ(addRobloxRigAndAnimations(target), 0);  // what decode does
    ASSERT_TRUE(target.animations.empty());
    const Asset source = sequence();
    const AnimationTransfer t = addAnimationsFrom(target, source);
    ASSERT_TRUE(t.ok()) << t.error;
    EXPECT_EQ(t.added, 1u);
    EXPECT_EQ(t.tracks, 2u);
    EXPECT_EQ(t.unmatchedTracks, 1u);  // Tail
    ASSERT_EQ(t.warnings.size(), 1u);
    EXPECT_NE(t.warnings[0].find("1 of 2"), std::string::npos) << t.warnings[0];
    // The rig skeleton decode added is reused, not added twice.
    EXPECT_EQ(target.skeletons.size(), 1u);
    ASSERT_EQ(target.animations.size(), 1u);
    EXPECT_EQ(target.animations[0].skeleton, 0);

    const GlbBytes glb = exportGlb(target);
    ASSERT_TRUE(glb.report.ok()) << glb.report.error.value_or("");
    EXPECT_EQ(glb.report.stats.animations, 1u);
    // Translation, rotation and scale on both joint nodes (Torso, Arm).
    EXPECT_EQ(glb.report.stats.animationChannels, 6u);
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(loadGlb(glb.bytes, m, err)) << err;
    ASSERT_EQ(m.animations.size(), 1u);
    EXPECT_EQ(m.animations[0].name, "Turn");
    for (const auto& s : m.animations[0].samplers) EXPECT_EQ(s.interpolation, "LINEAR");
    const auto times = channelTimes(m);
    ASSERT_EQ(times.size(), 31u);  // 0 .. 1 s at 30 fps
    for (std::size_t i = 1; i < times.size(); ++i) EXPECT_LT(times[i - 1], times[i]);
    const int arm = jointNode(m, "Arm");
    ASSERT_GE(arm, 0);
    const auto rotations = channelValues<Vec4>(m, arm, "rotation");
    ASSERT_EQ(rotations.size(), 31u);
    // At the key time 0.5 s (frame 15): a quarter turn about Z, by hand and by core/pose.
    const float h = float(std::numbers::sqrt2 / 2);
    EXPECT_LT(quaternionGap(rotations[15], {0, 0, h, h}), 1e-6f);
    const RobloxRig r = extractRobloxRig(target);
    const auto seqs = extractKeyframeSequences(source);
    const RigJoint& joint = r.joints.at(0);
    const Mat4 local =
        joint.c0 * sampleTrack(seqs.at(0).tracks.at(0), 0.5f) * inverseRigid(joint.c1);
    EXPECT_LT(quaternionGap(rotations[15], quaternionOf(local)), 1e-6f);
    EXPECT_LT(quaternionGap(rotations[0], {0, 0, 0, 1}), 1e-6f);
    // Halfway to the key (0.25 s, frame 7.5 between 7 and 8): turned, but less than a quarter.
    EXPECT_GT(quaternionGap(rotations[7], {0, 0, 0, 1}), 1e-4f);
    EXPECT_GT(quaternionGap(rotations[7], {0, 0, h, h}), 1e-4f);
}

TEST(AnimationTransfer, RefusedWithoutARigOrAnimation) {
    Asset noRig;
    noRig.format = "roblox-model";
    noRig.addNode("Lonely", "Part");
    const AnimationTransfer t = addAnimationsFrom(noRig, sequence());
    EXPECT_FALSE(t.ok());
    EXPECT_NE(t.error.find("no Roblox rig"), std::string::npos) << t.error;
    EXPECT_TRUE(noRig.animations.empty());

    Asset target = rig();
    const AnimationTransfer none = addAnimationsFrom(target, rig());
    EXPECT_FALSE(none.ok());
    EXPECT_NE(none.error.find("no animation"), std::string::npos) << none.error;
    EXPECT_TRUE(target.animations.empty());
}

TEST(AnimationTransfer, UnigineAnimationCopiedOntoTheSkeletonNamingItsBones) {
    // The source: a .sanim written by the project's writer from the cylinder's rig, every bone
    // moving up 0.1 a frame, plus a track for a bone the target lacks.
    const Asset animated = risingCylinder("unigine", 4);
    const UnigineWriteResult written = writeUnigineAnimation(animated);
    ASSERT_TRUE(written.ok()) << written.error.value_or("");
    DecodeOptions options;
    options.fileName = "rise.sanim";
    const DecodeResult source = decodeBytes(ByteSpan(written.bytes), options);
    ASSERT_TRUE(source.ok()) << source.error->toString();
    ASSERT_EQ(source.asset.animations.size(), 1u);

    Asset target = makeSkinnedCylinder(3, 3, 6);
    target.format = "unigine";
    // Keep only the first two bones' names in the target: the third track matches nothing.
    target.skeletons[0].bones[2].name = "Elsewhere";
    const AnimationTransfer t = addAnimationsFrom(target, source.asset);
    ASSERT_TRUE(t.ok()) << t.error;
    EXPECT_EQ(t.added, 1u);
    EXPECT_EQ(t.tracks, 3u);
    EXPECT_EQ(t.unmatchedTracks, 1u);
    ASSERT_EQ(target.animations.size(), 1u);
    EXPECT_EQ(target.animations[0].skeleton, 0);

    const GlbBytes glb = exportGlb(target);
    ASSERT_TRUE(glb.report.ok()) << glb.report.error.value_or("");
    EXPECT_EQ(glb.report.stats.animationChannels, 6u);  // 2 matched bones x 3 paths
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(loadGlb(glb.bytes, m, err)) << err;
    const auto times = channelTimes(m);
    ASSERT_EQ(times.size(), 4u);
    EXPECT_NEAR(times.back(), 3.0f / source.asset.animations[0].framesPerSecond, 1e-6f);
}

namespace {

struct CorpusRig {
    const char* rigFile;
    const char* animDir;
    std::vector<const char*> names;
};

// Every animation of the set exported on its rig: one channel triple per rig bone, every keyed
// track matched, the rotation at a key time on the 30 fps grid equal to core/pose's sample, and
// the Khronos validator quiet.
void exportCorpusAnimations(const std::filesystem::path& corpus, const CorpusRig& set,
                            const std::string& tag) {
    const DecodeResult rigFile = decodeFile((corpus / set.rigFile).string());
    ASSERT_TRUE(rigFile.ok()) << set.rigFile;
    const RobloxRig r = extractRobloxRig(rigFile.asset);
    ASSERT_FALSE(r.empty());
    const auto dir = tempDir("animation_transfer_" + tag);
    std::vector<std::filesystem::path> files;
    std::size_t keyChecks = 0;
    for (const char* name : set.names) {
        const std::string animPath = std::string(set.animDir) + name + ".rbxmx";
        const DecodeResult anim = decodeFile((corpus / animPath).string());
        ASSERT_TRUE(anim.ok()) << animPath;
        Asset target = rigFile.asset;
        const AnimationTransfer t = addAnimationsFrom(target, anim.asset);
        ASSERT_TRUE(t.ok()) << animPath << ": " << t.error;
        EXPECT_EQ(t.added, 1u) << animPath;
        EXPECT_EQ(t.unmatchedTracks, 0u) << animPath;
        const GlbBytes glb = exportGlb(target);
        ASSERT_TRUE(glb.report.ok()) << animPath;
        EXPECT_EQ(glb.report.stats.animations, 1u) << animPath;
        EXPECT_EQ(glb.report.stats.animationChannels, 3 * r.skeleton.bones.size()) << animPath;
        tinygltf::Model m;
        std::string err;
        ASSERT_TRUE(loadGlb(glb.bytes, m, err)) << animPath << ": " << err;
        const auto times = channelTimes(m);
        for (std::size_t i = 1; i < times.size(); ++i) ASSERT_LT(times[i - 1], times[i]);
        // Every keyed joint at the keyframe times that fall on a frame.
        const KeyframeSequence seq = extractKeyframeSequences(anim.asset).at(0);
        for (const PoseTrack& track : seq.tracks) {
            const int bone = r.skeleton.find(track.joint);
            if (track.keys.empty() || bone < 0) continue;
            const int j = r.jointOfBone[std::size_t(bone)];
            if (j < 0) continue;  // a root: nothing drives it
            const RigJoint& joint = r.joints[std::size_t(j)];
            const int node = jointNode(m, track.joint);
            ASSERT_GE(node, 0) << track.joint;
            const auto rotations = channelValues<Vec4>(m, node, "rotation");
            const auto translations = channelValues<Vec3>(m, node, "translation");
            ASSERT_EQ(rotations.size(), times.size());
            for (const PoseKey& key : track.keys) {
                const double frame = double(key.time) * 30;
                if (std::fabs(frame - std::round(frame)) > 1e-3) continue;
                const auto f = std::size_t(std::lround(frame));
                if (f >= times.size()) continue;
                const Mat4 local = joint.c0 * sampleTrack(track, key.time) * inverseRigid(joint.c1);
                EXPECT_LT(quaternionGap(rotations[f], quaternionOf(local)), 1e-5f)
                    << animPath << " " << track.joint << " at " << key.time;
                EXPECT_NEAR(translations[f].x, local.at(0, 3), 1e-4f);
                EXPECT_NEAR(translations[f].y, local.at(1, 3), 1e-4f);
                EXPECT_NEAR(translations[f].z, local.at(2, 3), 1e-4f);
                ++keyChecks;
            }
        }
        const auto path = dir / (std::string(name) + ".glb");
        ASSERT_TRUE(exportAsset(target, path.string(), ExportOptions{}).ok());
        files.push_back(path);
    }
    EXPECT_GT(keyChecks, 0u);
    std::cout << tag << ": " << keyChecks << " key rotations checked\n";
    const ValidatorRun run = runGltfValidator(files);
    if (!run.unavailable.empty()) GTEST_SKIP() << "SKIPPED: no glTF validator: " << run.unavailable;
    for (const auto& f : files) {
        const auto it = run.reports.find(f.string());
        ASSERT_NE(it, run.reports.end()) << run.output;
        EXPECT_EQ(it->second.errors, 0u) << f << it->second.json;
        EXPECT_EQ(it->second.warnings, 0u) << f << it->second.json;
    }
}

}  // namespace

TEST(AnimationTransferCorpus, R15AnimationsOnCharacterBase) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    exportCorpusAnimations(
        corpus,
        {"rbxm/MaximumADHD_Rbx2Source/Resources/AvatarData/R15/CharacterBase.rbxm",
         "rbxmx/MaximumADHD_Rbx2Source/Resources/AvatarData/R15/Animations/",
         {"Climb", "Dance", "Idle", "LookAround", "Sit", "Swim"}},
        "r15");
}

TEST(AnimationTransferCorpus, R6AnimationsOnCharacter) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    exportCorpusAnimations(corpus,
                           {"rbxm/AntiBoomz_BTRoblox/res/previewer/character.rbxm",
                            "rbxmx/MaximumADHD_Rbx2Source/Resources/AvatarData/R6/Animations/",
                            {"Climb", "Fall", "Idle", "Sit", "Walk", "WaveArms"}},
                           "r6");
}

namespace {

// `target` (a FACS head holding one face-only animation of `frames` frames) exported: one
// weights channel per node whose mesh has morph targets, frames × targets values; the Khronos
// validator quiet on the .glb.
void expectMorphWeightChannels(const Asset& target, std::size_t frames, const char* dirName) {
    const GlbBytes glb = exportGlb(target);
    ASSERT_TRUE(glb.report.ok()) << glb.report.error.value_or("");
    ASSERT_GT(glb.report.stats.morphTargets, 0u);
    EXPECT_EQ(glb.report.stats.animations, 1u);
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(loadGlb(glb.bytes, m, err)) << err;
    ASSERT_EQ(m.animations.size(), 1u);
    std::size_t weightChannels = 0, morphNodes = 0;
    for (const auto& n : m.nodes)
        if (n.mesh >= 0 && !m.meshes[std::size_t(n.mesh)].weights.empty()) ++morphNodes;
    for (const auto& c : m.animations[0].channels) {
        if (c.target_path != "weights") continue;
        ++weightChannels;
        const auto& node = m.nodes.at(std::size_t(c.target_node));
        const std::size_t targets = m.meshes.at(std::size_t(node.mesh)).weights.size();
        const auto values =
            accessorData<float>(m, m.animations[0].samplers[std::size_t(c.sampler)].output);
        EXPECT_EQ(values.size(), frames * targets);
    }
    EXPECT_EQ(weightChannels, morphNodes);

    const auto dir = tempDir(dirName);
    const auto path = dir / "head.glb";
    ASSERT_TRUE(exportAsset(target, path.string(), ExportOptions{}).ok());
    const ValidatorRun run = runGltfValidator({path});
    if (!run.unavailable.empty()) GTEST_SKIP() << "SKIPPED: no glTF validator: " << run.unavailable;
    const auto it = run.reports.find(path.string());
    ASSERT_NE(it, run.reports.end()) << run.output;
    EXPECT_EQ(it->second.errors, 0u) << it->second.json;
    EXPECT_EQ(it->second.warnings, 0u) << it->second.json;
}

}  // namespace

// FaceControls curves on a FACS head (no rig): a face-only animation whose JawDrop channel is a
// morph-target weights channel; Khronos validator quiet.
TEST(AnimationTransfer, FaceControlsBecomeMorphWeightChannels) {
    Asset source;
    source.format = "roblox-model";
    const int anim = source.addNode("Talk", "CurveAnimation");
    const int head = source.addNode("Head", "Folder", anim);
    const int face = source.addNode("FaceControls", "Folder", head);
    const int jaw = source.addNode("JawDrop", "FloatCurve", face);
    source.addProperty(
        jaw, prop("ValuesAndTimes", "BinaryString", linearFloatCurve({{0, 0}, {1, 2400}})));
    const int unknown = source.addNode("NotAControl", "FloatCurve", face);
    source.addProperty(
        unknown, prop("ValuesAndTimes", "BinaryString", linearFloatCurve({{1, 0}, {1, 2400}})));

    Asset target = makeFacsHead();
    const AnimationTransfer t = addAnimationsFrom(target, source);
    ASSERT_TRUE(t.ok()) << t.error;
    ASSERT_EQ(t.added, 1u);
    const Animation& baked = target.animations.back();
    EXPECT_TRUE(baked.tracks.empty());
    ASSERT_EQ(baked.facsChannels.size(), 2u);
    EXPECT_EQ(baked.facsChannels[0].control, "JawDrop");
    ASSERT_EQ(baked.facsChannels[0].weights.size(), 31u);
    EXPECT_NEAR(baked.facsChannels[0].weights[15], 0.5f, 1e-6f);

    expectMorphWeightChannels(target, 31, "animation_transfer_facs");
}

// FACS NumberPoses in a KeyframeSequence (Pose Head > Folder FaceControls > NumberPose JawDrop,
// 0 at 0 s and 1 at 1 s, Linear) on a FACS head: the same face-only weights channel.
TEST(AnimationTransfer, FaceNumberPosesBecomeMorphWeightChannels) {
    Asset source;
    source.format = "roblox-model";
    const int seq = source.addNode("Smile", "KeyframeSequence");
    for (double time : {1.0, 0.0}) {
        const int kf = source.addNode("Keyframe", "Keyframe", seq);
        source.addProperty(kf, prop("Time", "float", time));
        const int head = source.addNode("Head", "Pose", kf);
        source.addProperty(head, prop("Weight", "float", 0.0));
        const int face = source.addNode("FaceControls", "Folder", head);
        const int jaw = source.addNode("JawDrop", "NumberPose", face);
        source.addProperty(jaw, prop("Value", "float", time));
        source.addProperty(jaw, prop("Weight", "float", 1.0));
    }
    Asset target = makeFacsHead();
    const AnimationTransfer t = addAnimationsFrom(target, source);
    ASSERT_TRUE(t.ok()) << t.error;
    ASSERT_EQ(t.added, 1u);
    EXPECT_EQ(t.tracks, 1u);
    EXPECT_TRUE(t.warnings.empty()) << t.warnings.front();
    const Animation& baked = target.animations.back();
    EXPECT_EQ(baked.name, "Smile");
    EXPECT_TRUE(baked.tracks.empty());
    ASSERT_EQ(baked.facsChannels.size(), 1u);
    EXPECT_EQ(baked.facsChannels[0].control, "JawDrop");
    ASSERT_EQ(baked.facsChannels[0].weights.size(), 31u);
    EXPECT_NEAR(baked.facsChannels[0].weights[6], 0.2f, 1e-6f);  // 6/30 s of a linear 0 → 1
    EXPECT_NEAR(baked.facsChannels[0].weights[15], 0.5f, 1e-6f);
    EXPECT_FLOAT_EQ(baked.facsChannels[0].weights[30], 1.0f);
    expectMorphWeightChannels(target, 31, "animation_transfer_facs_numberpose");
}
