// Exported animations as Blender plays them (issue #23: "Blender's importer plays them"): each
// export is imported into Blender 3.4 in the background (blender_util.h, one run per test), the
// scene set to a frame, and Blender's world positions, pose bones and shape-key values compared
// with what core/pose samples at that time. Blender is Z-up: glTF (x, y, z) is Blender
// (x, -z, y). Skipped with a message only when Blender is missing or cannot import a trivial glTF.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "blender_util.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/pose.h"
#include "meshscope/core/roblox_animation.h"
#include "support/rig_fixtures.h"
#include "support/test_support.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

// Model > Torso at the origin (2×2×1), Arm 2 up (1×2×1), joined by the Motor6D "Shoulder" (C0 up
// 1, C1 down 1; test::twoPartRig); the KeyframeSequence "Swing" moves the Arm's joint by
// (2, 0, 1) and turns it a quarter about Z over 1 s (Linear), then back to the start by 1.5 s
// (CubicV2 InOut).
Asset swingingRig() {
    Asset a = twoPartRig({.sizes = true});
    const int seq = a.addNode("Swing", "KeyframeSequence", 0);
    const std::vector<std::pair<float, CFrame>> keys = {
        {0.0f, cframeAt({0, 0, 0})}, {1.0f, quarterTurnZ({2, 0, 1})}, {1.5f, cframeAt({0, 0, 0})}};
    for (const auto& [time, cframe] : keys) {
        const int kf = a.addNode("Keyframe", "Keyframe", seq);
        a.addProperty(kf, prop("Time", "float", double(time)));
        const int pose = a.addNode("Arm", "Pose", kf);
        a.addProperty(pose, prop("CFrame", "CFrame", cframe));
        a.addProperty(pose, prop("Weight", "float", 1.0));
        if (time == 1.0f) {
            a.addProperty(pose, prop("EasingStyle", "token", std::int64_t(5)));      // CubicV2
            a.addProperty(pose, prop("EasingDirection", "token", std::int64_t(2)));  // InOut
        }
    }
    return a;
}

// The CurveAnimation "Talk": JawDrop 0 → 0.8 at 0.5 s → 0.2 at 1 s (Linear).
Asset talkingCurves() {
    Asset source;
    source.format = "roblox-model";
    const int anim = source.addNode("Talk", "CurveAnimation");
    const int head = source.addNode("Head", "Folder", anim);
    const int face = source.addNode("FaceControls", "Folder", head);
    const int jaw = source.addNode("JawDrop", "FloatCurve", face);
    source.addProperty(jaw, prop("ValuesAndTimes", "BinaryString",
                                 linearFloatCurve({{0, 0}, {0.8f, 1200}, {0.2f, 2400}})));
    return source;
}

// Blender's view of each file: the scene's frame rate, every action's frame range and the bones
// its F-curves animate; then, at each time of `arg` (seconds, comma-separated; the scene set to
// time × fps, fraction as subframe), every object's world position, every pose bone's world head,
// every shape key's value and every mesh's world bounds as Blender deforms it (armature, keys).
constexpr const char* kAnimationBody = R"(def inspect(path, arg):
    scene = bpy.context.scene
    fps = scene.render.fps / scene.render.fps_base
    report("fps", fps, path)
    for a in bpy.data.actions:
        report("action", a.name, a.frame_range[0], a.frame_range[1], len(a.fcurves))
        bones = set()
        for c in a.fcurves:
            if c.data_path.startswith('pose.bones["'):
                bones.add((c.data_path.split('"')[1], c.data_path.rsplit(".", 1)[1]))
        for b, p in sorted(bones):
            report("channel", a.name, b, p)
    for o in bpy.data.objects:
        ad = o.animation_data
        report("object", o.name, o.type, ad.action.name if ad and ad.action else "")
        if o.type == "MESH" and o.data.shape_keys:
            kad = o.data.shape_keys.animation_data
            report("keys", o.name, kad.action.name if kad and kad.action else "")
    for t in [float(x) for x in arg.split(",") if x]:
        f = t * fps
        scene.frame_set(int(math.floor(f)), subframe=f - math.floor(f))
        for o in bpy.data.objects:
            p = o.matrix_world.translation
            report("at", t, "object", o.name, p.x, p.y, p.z)
            if o.type == "ARMATURE":
                for pb in o.pose.bones:
                    h = o.matrix_world @ pb.head
                    report("at", t, "bone", pb.name, h.x, h.y, h.z)
            if o.type == "MESH" and o.data.shape_keys:
                for kb in o.data.shape_keys.key_blocks:
                    report("at", t, "key", o.name, kb.name, kb.value)
        dg = bpy.context.evaluated_depsgraph_get()
        for o in bpy.data.objects:
            if o.type != "MESH":
                continue
            e = o.evaluated_get(dg)
            m = e.to_mesh()
            lo = [float("inf")] * 3
            hi = [float("-inf")] * 3
            for v in m.vertices:
                w = e.matrix_world @ v.co
                for k in range(3):
                    lo[k] = min(lo[k], w[k])
                    hi[k] = max(hi[k], w[k])
            e.to_mesh_clear()
            report("at", t, "bounds", o.name, *lo, *hi)
)";

// What one file's reports say.
struct BlenderView {
    float fps = 0;
    struct Action {
        float start = 0, end = 0;
        std::size_t fcurves = 0;
        std::set<std::string> bones;  // bones with a location channel
    };
    std::map<std::string, Action> actions;
    std::map<std::string, std::string> objectActions;  // object -> its action ("" none)
    std::map<std::string, std::string> objectTypes;    // object -> MESH, EMPTY, ARMATURE ...
    std::map<std::string, std::string> keyActions;     // mesh object -> its shape keys' action
    // At a time (as passed): world position of objects and pose-bone heads, shape key values.
    std::map<std::string, std::map<std::string, Vec3>> objects, bones;
    std::map<std::string, std::map<std::string, float>> keys;     // time -> "object/key" -> value
    std::map<std::string, std::map<std::string, Bounds>> bounds;  // time -> mesh object -> bounds
};

// Splits the reports of a run into one view per file: a file's reports start at its "fps" line.
std::map<std::string, BlenderView> blenderViews(const BlenderRun& run) {
    std::map<std::string, BlenderView> out;
    BlenderView* v = nullptr;
    auto num = [](const std::string& s) { return std::stof(s); };
    for (const auto& f : run.reports) {
        if (f.empty()) continue;
        if (f[0] == "fps" && f.size() == 3) {
            v = &out[f[2]];
            v->fps = num(f[1]);
        }
        if (!v) continue;
        if (f[0] == "action" && f.size() == 5)
            v->actions[f[1]] = {num(f[2]), num(f[3]), std::size_t(std::stoul(f[4])), {}};
        else if (f[0] == "channel" && f.size() == 4 && f[3] == "location")
            v->actions[f[1]].bones.insert(f[2]);
        else if (f[0] == "object" && f.size() == 4) {
            v->objectTypes[f[1]] = f[2];
            v->objectActions[f[1]] = f[3];
        } else if (f[0] == "keys" && f.size() == 3)
            v->keyActions[f[1]] = f[2];
        else if (f[0] == "at" && f.size() == 7 && f[2] == "object")
            v->objects[f[1]][f[3]] = {num(f[4]), num(f[5]), num(f[6])};
        else if (f[0] == "at" && f.size() == 7 && f[2] == "bone")
            v->bones[f[1]][f[3]] = {num(f[4]), num(f[5]), num(f[6])};
        else if (f[0] == "at" && f.size() == 6 && f[2] == "key")
            v->keys[f[1]][f[3] + "/" + f[4]] = num(f[5]);
        else if (f[0] == "at" && f.size() == 10 && f[2] == "bounds")
            v->bounds[f[1]][f[3]] = {{num(f[4]), num(f[5]), num(f[6])},
                                     {num(f[7]), num(f[8]), num(f[9])}};
    }
    return out;
}

// glTF (Y up) to Blender (Z up).
Vec3 blenderAxes(Vec3 p) {
    return {p.x, -p.z, p.y};
}

float gap(Vec3 a, Vec3 b) {
    return std::max({std::fabs(a.x - b.x), std::fabs(a.y - b.y), std::fabs(a.z - b.z)});
}

std::string str(const Vec3& v) {
    std::ostringstream os;
    os << "(" << v.x << ", " << v.y << ", " << v.z << ")";
    return os.str();
}

// The one action an armature plays, by the object that plays it.
const BlenderView::Action* armatureAction(const BlenderView& v, std::string* name = nullptr) {
    for (const auto& [object, action] : v.objectActions) {
        if (action.empty()) continue;
        const auto it = v.actions.find(action);
        if (it == v.actions.end() || it->second.bones.empty()) continue;
        if (name) *name = object;
        return &it->second;
    }
    return nullptr;
}

// The mesh object Blender made of the glTF node `name` (Blender renames a second object of the
// same name "name.001"): "" when there is none.
std::string meshObject(const BlenderView& v, const std::string& name) {
    for (const auto& [object, type] : v.objectTypes)
        if (type == "MESH" && (object == name || object.starts_with(name + "."))) return object;
    return "";
}

// Where a Roblox rig's bones are at sequence time `time`, by core/pose (Roblox/glTF axes).
std::map<std::string, Vec3> robloxBonePositions(const Asset& rigAsset, const KeyframeSequence& seq,
                                                float time) {
    const RobloxRig rig = extractRobloxRig(rigAsset);
    RigSample sample;
    sampleOnRig(seq, rig, time, sample);
    const std::vector<Mat4> world = posedRigWorld(rig, sample.jointTransforms);
    std::map<std::string, Vec3> out;
    for (std::size_t b = 0; b < rig.skeleton.bones.size(); ++b)
        out[rig.skeleton.bones[b].name] = {world[b].at(0, 3), world[b].at(1, 3), world[b].at(2, 3)};
    return out;
}

std::string timeKey(float t) {
    // As Python prints float(x) of the arg we pass: the shortest repr.
    std::ostringstream os;
    os << t;
    std::string s = os.str();
    if (s.find('.') == std::string::npos && s.find('e') == std::string::npos) s += ".0";
    return s;
}

std::string timesArg(const std::vector<float>& times) {
    std::string s;
    for (float t : times) s += (s.empty() ? "" : ",") + timeKey(t);
    return s;
}

}  // namespace

TEST(BlenderAnimation, RigSkinnedAndFacsAnimationsPlayInBlender) {
    const auto started = std::chrono::steady_clock::now();
    const auto dir = tempDir("blender_animation");

    // A Roblox Motor6D rig with its KeyframeSequence, baked by decode's step.
    Asset rig = swingingRig();
    ASSERT_EQ(addRobloxRigAndAnimations(rig), 0);
    ASSERT_EQ(rig.animations.size(), 1u);
    const auto rigGlb = dir / "rig.glb";
    ASSERT_TRUE(exportAsset(rig, rigGlb.string(), ExportOptions{}).ok());
    const KeyframeSequence swing = extractKeyframeSequences(rig).at(0);
    // On the baked 30 fps grid and between keys of both segments (Linear, then CubicV2 InOut).
    const std::vector<float> rigTimes = {0.0f, 0.5f, 0.8f, 1.2f, 1.5f};

    // A skinned Unigine cylinder (Z up) and its .sanim-style animation, 11 frames at 25 fps.
    const Asset cylinder = risingCylinder("unigine", 11);
    const auto cylinderGlb = dir / "cylinder.glb";
    ASSERT_TRUE(exportAsset(cylinder, cylinderGlb.string(), ExportOptions{}).ok());
    const std::vector<float> cylinderTimes = {0.0f, 0.2f, 0.4f};

    // A FACS head with a FaceControls curve animation put on it.
    Asset head = makeFacsHead();
    const Asset talk = talkingCurves();
    const AnimationTransfer t = addAnimationsFrom(head, talk);
    ASSERT_TRUE(t.ok()) << t.error;
    const auto headGlb = dir / "head.glb";
    ASSERT_TRUE(exportAsset(head, headGlb.string(), ExportOptions{}).ok());
    const CurveAnimation talkCurves = extractCurveAnimations(talk).at(0);
    const std::vector<float> headTimes = {0.25f, 0.5f, 0.75f};

    const BlenderRun run = runBlender(dir, kAnimationBody,
                                      {{rigGlb, timesArg(rigTimes)},
                                       {cylinderGlb, timesArg(cylinderTimes)},
                                       {headGlb, timesArg(headTimes)}});
    if (!run.unavailable.empty())
        GTEST_SKIP() << "SKIPPED: " << run.unavailable
                     << "; exported animations are checked with tinygltf and the validator only";
    EXPECT_EQ(run.output.find("MESHSCOPE-FAILED"), std::string::npos) << run.output;
    auto views = blenderViews(run);
    const std::string& text = run.output;

    // --- The Roblox rig.
    {
        const BlenderView& v = views[rigGlb.string()];
        ASSERT_GT(v.fps, 0) << text;
        // A rig without skinned meshes: Blender makes its joint nodes empties, and the joint
        // "Arm" plays the action (translation, rotation, scale: 10 F-curves).
        ASSERT_EQ(v.objectTypes.count("Arm"), 1u) << text;
        const std::string& armAction = v.objectActions.at("Arm");
        ASSERT_TRUE(v.actions.contains(armAction)) << "the Arm joint plays no action\n" << text;
        const BlenderView::Action& action = v.actions.at(armAction);
        EXPECT_EQ(action.fcurves, 10u) << text;
        // The sequence lasts 1.5 s: Blender's frames 0 .. 1.5 × fps.
        EXPECT_NEAR(action.start, 0, 1e-3) << text;
        EXPECT_NEAR(action.end, 1.5 * v.fps, 1e-3) << text;
        const std::string armPart = meshObject(v, "Arm"), torsoPart = meshObject(v, "Torso");
        ASSERT_FALSE(armPart.empty()) << text;
        ASSERT_FALSE(torsoPart.empty()) << text;
        for (float time : rigTimes) {
            const auto expected = robloxBonePositions(rig, swing, time);
            const std::string at = timeKey(time);
            ASSERT_TRUE(v.objects.contains(at)) << at << "\n" << text;
            const Vec3 want = blenderAxes(expected.at("Arm"));
            const Vec3 joint = v.objects.at(at).at("Arm");
            EXPECT_LT(gap(joint, want), 1e-3f) << "Arm joint at " << time << " s: Blender "
                                               << str(joint) << ", core " << str(want);
            // The Arm part hangs at its joint (its CFrame is the bind): its object follows.
            const Vec3 part = v.objects.at(at).at(armPart);
            EXPECT_LT(gap(part, want), 1e-3f)
                << "Arm part at " << time << " s: Blender " << str(part) << ", core " << str(want);
            const Vec3 torso = v.objects.at(at).at(torsoPart);
            EXPECT_LT(gap(torso, blenderAxes(expected.at("Torso"))), 1e-3f) << str(torso);
        }
        // The motion is real: at 1 s the arm is moved and turned (its centre 1 left of the
        // shoulder), by hand: C0 (0, 1, 0) · T (2, 0, 1, quarter turn) · C1⁻¹ (0, 1, 0).
        const Vec3 atKey = robloxBonePositions(rig, swing, 1.0f).at("Arm");
        EXPECT_LT(gap(atKey, {1, 1, 1}), 1e-4f) << str(atKey);
    }

    // --- The skinned Unigine cylinder: source Z up is Blender's Z up (the export turns it to
    // glTF's Y up, Blender turns it back), so Blender positions equal the source's.
    {
        const BlenderView& v = views[cylinderGlb.string()];
        ASSERT_GT(v.fps, 0) << text;
        const BlenderView::Action* action = armatureAction(v);
        ASSERT_NE(action, nullptr) << "no armature plays an action\n" << text;
        const Animation& anim = cylinder.animations[0];
        const float duration = float(anim.frameCount - 1) / anim.framesPerSecond;
        EXPECT_NEAR(action->start, 0, 1e-3) << text;
        EXPECT_NEAR(action->end, duration * v.fps, 1e-3) << text;
        const Skeleton& s = cylinder.skeletons[0];
        EXPECT_EQ(action->bones.size(), s.bones.size()) << text;
        for (float time : cylinderTimes) {
            Pose pose;
            ASSERT_EQ(sampleAnimation(anim, s, double(time) * anim.framesPerSecond, pose),
                      int(s.bones.size()));
            const std::vector<Mat4> world = posedWorldTransforms(s, pose);
            const std::string at = timeKey(time);
            ASSERT_TRUE(v.bones.contains(at)) << text;
            for (std::size_t b = 0; b < s.bones.size(); ++b) {
                const Vec3 want{world[b].at(0, 3), world[b].at(1, 3), world[b].at(2, 3)};
                ASSERT_TRUE(v.bones.at(at).contains(s.bones[b].name)) << text;
                const Vec3 got = v.bones.at(at).at(s.bones[b].name);
                EXPECT_LT(gap(got, want), 1e-3f)
                    << s.bones[b].name << " at " << time << " s: Blender " << str(got) << ", core "
                    << str(want);
                // By hand: bone b (depth b) has risen (b + 1) × 0.1 a frame along Y.
                const Vec3 bind{s.bones[b].world.at(0, 3), s.bones[b].world.at(1, 3),
                                s.bones[b].world.at(2, 3)};
                const float rise = float(b + 1) * 0.1f * time * anim.framesPerSecond;
                EXPECT_LT(gap(got, {bind.x, bind.y + rise, bind.z}), 1e-3f)
                    << s.bones[b].name << " at " << time << " s: " << str(got);
            }
            // The skinned mesh follows: Blender's deformed bounds equal core's skinned bounds.
            const Bounds want = posedBounds(cylinder.meshes[0], skinningMatrices(s, pose));
            if (time > 0) {  // the top rises with the bones
                EXPECT_GT(want.max.y, boundsOf(cylinder.meshes[0].positions).max.y + 0.5f);
            }
            const std::string mesh = meshObject(v, "SkinnedCylinder");
            ASSERT_TRUE(v.bounds.contains(at) && v.bounds.at(at).contains(mesh)) << text;
            const Bounds& got = v.bounds.at(at).at(mesh);
            EXPECT_LT(gap(got.min, want.min), 1e-3f)
                << "at " << time << " s: Blender " << str(got.min) << ", core " << str(want.min);
            EXPECT_LT(gap(got.max, want.max), 1e-3f)
                << "at " << time << " s: Blender " << str(got.max) << ", core " << str(want.max);
        }
    }

    // --- The FACS head: the JawDrop target's shape key follows the curve.
    {
        const BlenderView& v = views[headGlb.string()];
        ASSERT_GT(v.fps, 0) << text;
        std::string keyAction;
        for (const auto& [object, action] : v.keyActions)
            if (!action.empty()) keyAction = action;
        ASSERT_FALSE(keyAction.empty()) << "no shape keys play an action\n" << text;
        const auto& action = v.actions.at(keyAction);
        EXPECT_NEAR(action.start, 0, 1e-3) << text;
        EXPECT_NEAR(action.end, talkCurves.length * v.fps, 1e-3) << text;
        for (float time : headTimes) {
            float want = -1;
            for (const auto& [control, weight] : sampleFaceControls(talkCurves, time))
                if (control == "JawDrop") want = weight;
            const std::string at = timeKey(time);
            ASSERT_TRUE(v.keys.contains(at)) << text;
            std::size_t found = 0;
            for (const auto& [name, value] : v.keys.at(at)) {
                // The shape key of the JawDrop target (named by its control or abbreviation).
                const FacsControlInfo* c = findFacsControl(name.substr(name.find('/') + 1));
                if (!c || std::string_view(c->name) != "JawDrop") continue;
                ++found;
                EXPECT_NEAR(value, want, 1e-3) << name << " at " << time << " s";
            }
            EXPECT_GE(found, 1u) << "no JawDrop shape key\n" << text;
        }
        // By hand: half way up to 0.8, then half way down to 0.2.
        EXPECT_NEAR(sampleFaceControls(talkCurves, 0.25f).at(0).second, 0.4f, 1e-6f);
        EXPECT_NEAR(sampleFaceControls(talkCurves, 0.75f).at(0).second, 0.5f, 1e-6f);
    }

    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cout << "Blender animation check: " << seconds << " s\n";
}

namespace {

// The object Blender made of the joint node `name` (not a part's mesh): "" when none.
std::string jointObject(const BlenderView& v, const std::string& name) {
    for (const auto& [object, type] : v.objectTypes)
        if (type != "MESH" && (object == name || object.starts_with(name + "."))) return object;
    return "";
}

}  // namespace

// The real R15 rig with its Dance animation: every rig joint plays its channels over the whole
// sequence, and every joint's world position at two times equals core/pose's sample.
TEST(BlenderAnimationCorpus, R15DanceOnCharacterBase) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto started = std::chrono::steady_clock::now();
    const DecodeResult rigFile = decodeFile(
        (corpus / "rbxm/MaximumADHD_Rbx2Source/Resources/AvatarData/R15/CharacterBase.rbxm")
            .string());
    ASSERT_TRUE(rigFile.ok());
    const DecodeResult dance = decodeFile(
        (corpus / "rbxmx/MaximumADHD_Rbx2Source/Resources/AvatarData/R15/Animations/Dance.rbxmx")
            .string());
    ASSERT_TRUE(dance.ok());
    Asset target = rigFile.asset;
    const AnimationTransfer t = addAnimationsFrom(target, dance.asset);
    ASSERT_TRUE(t.ok()) << t.error;
    ASSERT_EQ(t.added, 1u);
    const KeyframeSequence seq = extractKeyframeSequences(dance.asset).at(0);
    ASSERT_GT(seq.length, 0.2f);
    const auto dir = tempDir("blender_animation_r15");
    const auto glb = dir / "dance.glb";
    ASSERT_TRUE(exportAsset(target, glb.string(), ExportOptions{}).ok());
    // Two times on the 30 fps grid (multiples of 0.1 s): about a third and two thirds in.
    const std::vector<float> times = {std::round(seq.length * 10 / 3) / 10,
                                      std::round(seq.length * 20 / 3) / 10};

    const BlenderRun run = runBlender(dir, kAnimationBody, {{glb, timesArg(times)}});
    if (!run.unavailable.empty())
        GTEST_SKIP() << "SKIPPED: " << run.unavailable
                     << "; exported animations are checked with tinygltf and the validator only";
    EXPECT_EQ(run.output.find("MESHSCOPE-FAILED"), std::string::npos) << run.output;
    auto views = blenderViews(run);
    const std::string& text = run.output;
    const BlenderView& v = views[glb.string()];
    ASSERT_GT(v.fps, 0) << text;

    // Every rig bone is a joint node with its translation, rotation and scale channels.
    const RobloxRig rig = extractRobloxRig(target);
    std::map<std::string, std::string> objectOf;  // rig bone -> Blender object or bone
    std::size_t animated = 0;
    for (const Bone& bone : rig.skeleton.bones) {
        const std::string object = jointObject(v, bone.name);
        std::string action;
        const BlenderView::Action* armature = armatureAction(v);
        if (armature && armature->bones.contains(bone.name)) {
            objectOf[bone.name] = bone.name;
            ++animated;
            continue;
        }
        ASSERT_FALSE(object.empty()) << "no Blender object for joint " << bone.name << "\n" << text;
        objectOf[bone.name] = object;
        action = v.objectActions.at(object);
        ASSERT_TRUE(v.actions.contains(action)) << bone.name << " plays no action\n" << text;
        const BlenderView::Action& a = v.actions.at(action);
        EXPECT_EQ(a.fcurves, 10u) << bone.name;
        EXPECT_NEAR(a.start, 0, 1e-3) << bone.name;
        EXPECT_NEAR(a.end, seq.length * v.fps, 1e-3) << bone.name;
        ++animated;
    }
    EXPECT_EQ(animated, rig.skeleton.bones.size());
    EXPECT_EQ(rig.skeleton.bones.size(), 15u);  // the 15 R15 body parts
    EXPECT_EQ(rig.joints.size(), 14u);

    std::size_t checked = 0;
    for (float time : times) {
        const auto expected = robloxBonePositions(target, seq, time);
        const std::string at = timeKey(time);
        ASSERT_TRUE(v.objects.contains(at)) << at << "\n" << text;
        for (const auto& [bone, object] : objectOf) {
            const auto& place = v.bones.contains(at) && v.bones.at(at).contains(object)
                                    ? v.bones.at(at)
                                    : v.objects.at(at);
            ASSERT_TRUE(place.contains(object)) << object;
            const Vec3 want = blenderAxes(expected.at(bone));
            EXPECT_LT(gap(place.at(object), want), 1e-3f)
                << bone << " at " << time << " s: Blender " << str(place.at(object)) << ", core "
                << str(want);
            ++checked;
        }
    }
    // A joint the dance moves: the right hand is elsewhere at the two times.
    const Vec3 a = robloxBonePositions(target, seq, times[0]).at("RightHand");
    const Vec3 b = robloxBonePositions(target, seq, times[1]).at("RightHand");
    EXPECT_GT(gap(a, b), 1e-2f) << str(a) << " " << str(b);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cout << "Blender R15 Dance check: " << checked << " joint positions, " << seconds
              << " s\n";
}
