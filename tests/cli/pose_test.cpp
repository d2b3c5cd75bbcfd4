// meshscope-cli pose: argument checking (exit 2 on unknown controls and malformed values), the
// report over a generated FACS head checked against core's transforms, and the command end to end
// on a FileMesh written by the project's own writer.
#include "meshscope/core/pose.h"

#include <gtest/gtest.h>

#include <bit>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_commands.h"
#include "export/tinygltf_config.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/unigine_writer.h"
#include "pose_command.h"
#include "support/rig_fixtures.h"
#include "support/test_support.h"

using namespace meshscope;
using Json = nlohmann::ordered_json;

namespace {
struct Output {
    int status;
    std::string out, err;
};
Output runCli(std::vector<std::string> args) {
    std::ostringstream out, err;
    const int status = cli::run(args, out, err);
    return {status, out.str(), err.str()};
}

const Json* findBone(const Json& report, const std::string& name) {
    for (const auto& b : report["bones"])
        if (b["name"] == name) return &b;
    return nullptr;
}

Json reportFor(const Asset& asset, const std::string& controls,
               const std::vector<std::string>& bones = {}) {
    cli::PoseRequest request;
    EXPECT_FALSE(cli::parseControls(controls, request));
    for (const auto& b : bones) EXPECT_FALSE(cli::parseBone(b, request));
    std::string error;
    auto j = cli::poseJson(asset, request, error);
    EXPECT_TRUE(j.has_value()) << error;
    return j ? *j : Json();
}
}  // namespace

TEST(CliPose, UnknownControlOrBadValuesExitTwo) {
    auto r = runCli({"pose", "--json", "--pose", "JawDrop=1,Smile=0.5", "head.mesh"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("Smile"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_EQ(runCli({"pose", "--pose", "JawDrop=2", "head.mesh"}).status, 2);    // above 1
    EXPECT_EQ(runCli({"pose", "--pose", "JawDrop=abc", "head.mesh"}).status, 2);  // not a number
    EXPECT_EQ(runCli({"pose", "--pose", "JawDrop", "head.mesh"}).status, 2);      // no weight
    EXPECT_EQ(runCli({"pose", "--bone", "Head=1,2", "head.mesh"}).status, 2);     // two angles
    EXPECT_EQ(runCli({"pose", "--bone", "=1,2,3", "head.mesh"}).status, 2);       // no name
    EXPECT_EQ(runCli({"pose", "--frobnicate", "head.mesh"}).status, 2);
    EXPECT_EQ(runCli({"pose"}).status, 2);            // no FILE
    EXPECT_EQ(runCli({"pose", "--pose"}).status, 2);  // no value
}

TEST(CliPose, ParsersAcceptBothNameForms) {
    cli::PoseRequest req;
    EXPECT_FALSE(cli::parseControls("c_JD=1, LeftEyeClosed=0.5,", req));
    ASSERT_EQ(req.controls.size(), 2u);
    EXPECT_EQ(req.controls[1].first, "LeftEyeClosed");
    EXPECT_FLOAT_EQ(req.controls[1].second, 0.5f);
    EXPECT_FALSE(cli::parseBone("Left Arm=10,-20.5,30", req));
    ASSERT_EQ(req.bones.size(), 1u);
    EXPECT_EQ(req.bones[0].first, "Left Arm");
    EXPECT_FLOAT_EQ(req.bones[0].second.y, -20.5f);
}

TEST(CliPose, MissingFileExitsOne) {
    auto dir = meshscope::test::tempDir("cli-pose-missing");
    EXPECT_EQ(runCli({"pose", "--json", (dir / "missing.mesh").string()}).status, 1);
}

TEST(CliPose, ReportOnGeneratedFacsHead) {
    const Asset head = makeFacsHead();
    const Skeleton& skel = head.skeletons[0];
    const Json j = reportFor(head, "JawDrop=1,l_EC=0.5");
    ASSERT_EQ(j["bones"].size(), skel.bones.size());
    EXPECT_EQ(j["facs"]["weights"]["JawDrop"], 1.0);
    EXPECT_EQ(j["facs"]["weights"]["LeftEyeClosed"], 0.5);
    // Correctives (generator: c_JD+l_EC, l_EC+c_JD+l_EC): products of member weights.
    EXPECT_EQ(j["facs"]["correctives"]["c_JD_l_EC"], 0.5);
    EXPECT_EQ(j["facs"]["correctives"]["l_EC_c_JD_l_EC"], 0.25);
    EXPECT_TRUE(j["facs"]["unmatched"].empty());  // every face bone is in this skeleton
    EXPECT_TRUE(j["facs"]["absent"].empty());

    // Jaw (row 0) world = bind · T(p) · Rx Ry Rz(r), p and r summed from the generator's values.
    Vec3 p, r;
    const float w[4] = {1, 0.5f, 0.5f, 0.25f};
    for (int c = 0; c < 4; ++c) {
        p = p + Vec3{facsHeadValue(0, 0, c), facsHeadValue(1, 0, c), facsHeadValue(2, 0, c)} * w[c];
        r = r + Vec3{facsHeadValue(3, 0, c), facsHeadValue(4, 0, c), facsHeadValue(5, 0, c)} * w[c];
    }
    const Mat4 expected = skel.bones[std::size_t(skel.find("Jaw"))].world * translationMatrix(p) *
                          rotationXDegrees(r.x) * rotationYDegrees(r.y) * rotationZDegrees(r.z);
    const Json* jaw = findBone(j, "Jaw");
    ASSERT_NE(jaw, nullptr);
    for (int i = 0; i < 16; ++i) EXPECT_NEAR((*jaw)["world"][i].get<double>(), expected.m[i], 1e-5);
    EXPECT_NEAR((*jaw)["position"][1].get<double>(), expected.at(1, 3), 1e-5);
    EXPECT_NEAR((*jaw)["rotation"][1].get<double>(), expected.at(0, 1), 1e-5);  // row-major
    // The root is not a face bone: untouched.
    const Json* root = findBone(j, "Root");
    ASSERT_NE(root, nullptr);
    for (int i = 0; i < 16; ++i)
        EXPECT_NEAR((*root)["world"][i].get<double>(), skel.bones[0].world.m[i], 1e-6);
}

TEST(CliPose, BindPoseBoundsAreTheMeshBoundsAndPosingMovesThem) {
    const Asset head = makeFacsHead();
    const Json bind = reportFor(head, "");
    const Bounds& b = head.meshes[0].bounds;
    const float Vec3::*axes[3] = {&Vec3::x, &Vec3::y, &Vec3::z};
    for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR(bind["bounds"]["min"][i].get<double>(), b.min.*axes[i], 1e-5);
        EXPECT_NEAR(bind["bounds"]["max"][i].get<double>(), b.max.*axes[i], 1e-5);
    }
    const Json posed = reportFor(head, "JawDrop=1");
    EXPECT_NE(posed["bounds"], bind["bounds"]);
}

TEST(CliPose, BoneRotationAndUnknownBone) {
    const Asset head = makeFacsHead();
    const Json j = reportFor(head, "", {"Head=0,0,90"});
    const Skeleton& skel = head.skeletons[0];
    const Mat4 expected = skel.bones[1].world * rotationZDegrees(90);
    const Json* h = findBone(j, "Head");
    ASSERT_NE(h, nullptr);
    for (int i = 0; i < 16; ++i) EXPECT_NEAR((*h)["world"][i].get<double>(), expected.m[i], 1e-5);

    cli::PoseRequest request;
    ASSERT_FALSE(cli::parseBone("Tail=0,0,1", request));
    std::string error;
    EXPECT_FALSE(cli::poseJson(head, request, error).has_value());
    EXPECT_NE(error.find("Tail"), std::string::npos);
}

TEST(CliPose, ControlAbsentFromTheRigIsListed) {
    const Json j = reportFor(makeFacsHead(), "TongueOut=1");
    EXPECT_EQ(j["facs"]["absent"], Json::array({"TongueOut"}));
}

TEST(CliPose, EndToEndOnAWrittenFileMesh) {
    const Asset head = makeFacsHead();
    FileMeshWriteOptions options;
    options.version = "5.00";
    const auto written = writeFileMesh(head, 0, options);
    ASSERT_TRUE(written.ok()) << *written.error;
    const auto file = meshscope::test::tempDir("cli-pose") / "head.mesh";
    meshscope::test::writeFile(file, written.bytes);
    const DecodeResult decoded = decodeFile(file.string());
    ASSERT_TRUE(decoded.ok()) << decoded.error->toString();

    auto r = runCli({"pose", "--json", "--pose", "c_JD=1", "--bone", "Head=0,10,0", file.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    const Json expected = reportFor(head, "c_JD=1", {"Head=0,10,0"});
    const Json* jaw = findBone(j, "Jaw");
    ASSERT_NE(jaw, nullptr);
    // FACS values are stored quantised (u16 between min and max): compare loosely.
    for (int i = 0; i < 16; ++i)
        EXPECT_NEAR((*jaw)["world"][i].get<double>(),
                    (*findBone(expected, "Jaw"))["world"][i].get<double>(), 1e-3);
    EXPECT_EQ(runCli({"pose", "--bone", "Tail=1,2,3", file.string()}).status, 2);
}

// ------------------------------------------------------------------------------------------
// Roblox rigs posed by KeyframeSequences (issue #23)

namespace {

// Torso at the origin, Arm joined below it by a Motor6D (C0 up 1, C1 down 1), and a looping
// KeyframeSequence moving Arm's joint from x = 0 (t = 0) to x = 2 (t = 1), linearly; plus a track
// for a part the rig lacks.
Asset rigWithAnimation() {
    Asset a = test::twoPartRig();
    const int model = 0;
    const int seq = a.addNode("Swing", "KeyframeSequence", model);
    a.addProperty(seq, test::prop("Loop", "bool", true));
    for (float time : {0.0f, 1.0f}) {
        const int kf = a.addNode("Keyframe", "Keyframe", seq);
        a.addProperty(kf, test::prop("Time", "float", double(time)));
        const int pose = a.addNode("Arm", "Pose", kf);
        a.addProperty(pose, test::prop("CFrame", "CFrame", test::cframeAt({2 * time, 0, 0})));
        a.addProperty(pose, test::prop("Weight", "float", 1.0));
        const int tail = a.addNode("Tail", "Pose", kf);
        a.addProperty(tail, test::prop("Weight", "float", 1.0));
    }
    return a;
}

}  // namespace

TEST(CliPoseRig, AnimationSampledOnMotor6DRig) {
    const Asset a = rigWithAnimation();
    std::string error;
    for (const auto& [time, x] : {std::pair{0.5f, 1.0f}, std::pair{1.25f, 0.5f}}) {
        const auto j = cli::rigPoseJson(a, nullptr, time, error);
        ASSERT_TRUE(j.has_value()) << error;
        const Json* arm = findBone(*j, "Arm");
        ASSERT_NE(arm, nullptr);
        // Arm origin = C0 · T · C1⁻¹ · 0 = (0,1,0) + (x,0,0) + (0,1,0); 1.25 s loops to 0.25 s.
        EXPECT_NEAR((*arm)["position"][0].get<double>(), x, 1e-5) << time;
        EXPECT_NEAR((*arm)["position"][1].get<double>(), 2.0, 1e-5);
        EXPECT_EQ((*arm)["joint"], "Shoulder");
        EXPECT_EQ((*j)["animation"]["unmatched"], Json::array({"Tail"}));
        EXPECT_EQ((*j)["rig"]["source"], "motor6d");
        ASSERT_FALSE((*j)["warnings"].empty());
    }
    Asset none;
    none.format = "roblox-model";
    EXPECT_FALSE(cli::rigPoseJson(none, nullptr, 0, error).has_value());
}

TEST(CliPoseRig, BadArgumentsExitTwo) {
    EXPECT_EQ(runCli({"pose", "--time", "abc", "rig.rbxm"}).status, 2);
    EXPECT_EQ(runCli({"pose", "--animation"}).status, 2);
}

TEST(CliPoseRig, R15IdleOnR15Character) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const std::string rig =
        (corpus / "rbxm/AntiBoomz_BTRoblox/res/previewer/characterR15.rbxm").string();
    const std::string idle =
        (corpus / "rbxmx/MaximumADHD_Rbx2Source/Resources/AvatarData/R15/Animations/Idle.rbxmx")
            .string();
    auto at = [&](const std::string& time) {
        auto r = runCli({"pose", "--json", "--animation", idle, "--time", time, rig});
        EXPECT_EQ(r.status, 0) << r.err;
        return Json::parse(r.out);
    };
    const Json j0 = at("0"), j1 = at("1.2");
    EXPECT_EQ(j0["bones"].size(), 16u);  // HumanoidRootPart and the 15 body parts
    EXPECT_EQ(j0["rig"]["joints"], 15);
    EXPECT_TRUE(j0["animation"]["unmatched"].empty());
    EXPECT_TRUE(j0["animation"]["unanimated"].empty());
    EXPECT_TRUE(j0["animation"]["loop"].get<bool>());
    ASSERT_FALSE(j0["bounds"].is_null());
    // Something moves between the two times, and every value is a number.
    bool moved = false;
    for (std::size_t i = 0; i < j0["bones"].size(); ++i)
        for (int k = 0; k < 3; ++k) {
            ASSERT_TRUE(j1["bones"][i]["position"][k].is_number());
            moved = moved || std::abs(j0["bones"][i]["position"][k].get<double>() -
                                      j1["bones"][i]["position"][k].get<double>()) > 1e-3;
        }
    EXPECT_TRUE(moved);
    // Looping: one length later is the same pose.
    const double length = j0["animation"]["length"].get<double>();
    const Json jl = at(std::to_string(1.2 + length));
    for (std::size_t i = 0; i < j1["bones"].size(); ++i)
        for (int k = 0; k < 3; ++k)
            EXPECT_NEAR(jl["bones"][i]["position"][k].get<double>(),
                        j1["bones"][i]["position"][k].get<double>(), 1e-3);
    // A file with no rig (the animation itself) cannot be posed: exit 1.
    EXPECT_EQ(runCli({"pose", "--animation", idle, idle}).status, 1);
}

namespace {

// A CurveAnimation moving Arm's joint from x = 0 to x = 2 over 1 s (Torso > Arm folders).
Asset curveAnimationModel() {
    Asset a;
    a.format = "roblox-model";
    const int anim = a.addNode("CurveSwing", "CurveAnimation");
    a.addProperty(anim, test::prop("Loop", "bool", false));
    const int torso = a.addNode("Torso", "Folder", anim);
    const int arm = a.addNode("Arm", "Folder", torso);
    const int pos = a.addNode("Position", "Vector3Curve", arm);
    const int x = a.addNode("X", "FloatCurve", pos);
    a.addProperty(x, test::prop("ValuesAndTimes", "BinaryString",
                                test::linearFloatCurve({{0, 0}, {2, 2400}})));
    return a;
}

}  // namespace

TEST(CliPoseRig, CurveAnimationOnMotor6DRig) {
    const Asset rig = rigWithAnimation();
    const Asset curves = curveAnimationModel();
    std::string error;
    const auto j = cli::rigPoseJson(rig, &curves, 0.25f, error);
    ASSERT_TRUE(j.has_value()) << error;
    EXPECT_EQ((*j)["animation"]["kind"], "CurveAnimation");
    EXPECT_EQ((*j)["animation"]["name"], "CurveSwing");
    EXPECT_EQ((*j)["animation"]["tracks"], 1);
    EXPECT_NEAR((*j)["animation"]["length"].get<double>(), 1.0, 1e-6);
    const Json* arm = findBone(*j, "Arm");
    ASSERT_NE(arm, nullptr);
    // Arm origin = (0,1,0) + (0.5,0,0) + (0,1,0) at 0.25 s.
    EXPECT_NEAR((*arm)["position"][0].get<double>(), 0.5, 1e-5);
    EXPECT_NEAR((*arm)["position"][1].get<double>(), 2.0, 1e-5);

    // End to end through files written by the project's writer.
    const auto dir = test::tempDir("cli-pose-curves");
    const auto rigBytes = writeRobloxModel(rig);
    const auto animBytes = writeRobloxModel(curves);
    ASSERT_TRUE(rigBytes.ok() && animBytes.ok());
    test::writeFile(dir / "rig.rbxm", rigBytes.bytes);
    test::writeFile(dir / "curves.rbxm", animBytes.bytes);
    const auto r = runCli({"pose", "--json", "--animation", (dir / "curves.rbxm").string(),
                           "--time", "2", (dir / "rig.rbxm").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const Json out = Json::parse(r.out);
    EXPECT_EQ(out["animation"]["kind"], "CurveAnimation");
    EXPECT_NEAR(out["animation"]["sampledTime"].get<double>(), 1.0, 1e-6);  // clamped, no loop
    const Json* arm2 = findBone(out, "Arm");
    ASSERT_NE(arm2, nullptr);
    EXPECT_NEAR((*arm2)["position"][0].get<double>(), 2.0, 1e-4);
}

// pose --animation with a Unigine .sanim on a .smesh (both written by the project's writers), and
// --time alone on a .smesh that holds frames: the root bone is raised 0.1 a frame.
TEST(CliPoseUnigine, SanimOnSmeshAndOwnFrames) {
    const auto dir = test::tempDir("cli-pose-unigine");
    const Asset cyl = test::risingCylinder("unigine", 5);
    UnigineSkinnedMeshWriteOptions bare;
    bare.animation = -1;
    const auto smesh = writeUnigineSkinnedMesh(cyl, bare);
    const auto framed = writeUnigineSkinnedMesh(cyl);
    const auto sanim = writeUnigineAnimation(cyl);
    ASSERT_TRUE(smesh.ok() && framed.ok() && sanim.ok());
    test::writeFile(dir / "cyl.smesh", smesh.bytes);
    test::writeFile(dir / "framed.smesh", framed.bytes);
    test::writeFile(dir / "rise.sanim", sanim.bytes);
    const DecodeResult bareDecoded = decodeFile((dir / "cyl.smesh").string());
    ASSERT_TRUE(bareDecoded.ok());
    ASSERT_TRUE(bareDecoded.asset.animations.empty());
    const DecodeResult animDecoded = decodeFile((dir / "rise.sanim").string());
    ASSERT_TRUE(animDecoded.ok());
    ASSERT_EQ(animDecoded.asset.animations.size(), 1u);
    const float fps = animDecoded.asset.animations[0].framesPerSecond;
    const std::string root = cyl.skeletons[0].bones[0].name;
    ASSERT_LT(cyl.skeletons[0].bones[0].parent, 0);
    const float bindY = cyl.skeletons[0].bones[0].world.at(1, 3);

    const std::string time = std::to_string(2.0 / fps);  // frame 2
    auto r = runCli({"pose", "--json", "--animation", (dir / "rise.sanim").string(), "--time", time,
                     (dir / "cyl.smesh").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    Json j = Json::parse(r.out);
    EXPECT_EQ(j["animation"]["kind"], "frames");
    EXPECT_EQ(j["animation"]["frames"], 5);
    EXPECT_EQ(j["animation"]["applied"], 3);
    EXPECT_NEAR(j["animation"]["frame"].get<double>(), 2.0, 1e-3);
    EXPECT_TRUE(j["animation"]["unmatched"].empty());
    const Json* bone = findBone(j, root);
    ASSERT_NE(bone, nullptr);
    EXPECT_NEAR((*bone)["position"][1].get<double>(), bindY + 0.2, 1e-3);
    // Past the end: clamped to the last frame (no loop).
    r = runCli({"pose", "--json", "--animation", (dir / "rise.sanim").string(), "--time", "100",
                (dir / "cyl.smesh").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    j = Json::parse(r.out);
    EXPECT_NEAR(j["animation"]["frame"].get<double>(), 4.0, 1e-3);
    EXPECT_NEAR((*findBone(j, root))["position"][1].get<double>(), bindY + 0.4, 1e-3);

    // The .smesh's own frames with --time alone (frame 0 of an ms08 frame list is the bind pose).
    const DecodeResult framedDecoded = decodeFile((dir / "framed.smesh").string());
    ASSERT_TRUE(framedDecoded.ok());
    ASSERT_FALSE(framedDecoded.asset.animations.empty());
    const Animation& own = framedDecoded.asset.animations[0];
    r = runCli({"pose", "--json", "--time", std::to_string(1.0 / own.framesPerSecond),
                (dir / "framed.smesh").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    j = Json::parse(r.out);
    EXPECT_EQ(j["animation"]["frames"], own.frameCount);
    const Json* ownRoot = findBone(j, root);
    ASSERT_NE(ownRoot, nullptr);
    const BoneTrack* rootTrack = nullptr;
    for (const BoneTrack& t : own.tracks)
        if (t.bone == root) rootTrack = &t;
    ASSERT_NE(rootTrack, nullptr);
    ASSERT_GE(rootTrack->positions.size(), 2u);
    // The pose puts the root (world = its track's transform) where the track's frame 1 says.
    EXPECT_NEAR((*ownRoot)["position"][1].get<double>(), rootTrack->positions[1].y, 1e-3);

    // Without --time or --animation the bind pose, and no animation key.
    r = runCli({"pose", "--json", (dir / "framed.smesh").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_FALSE(Json::parse(r.out).contains("animation"));
    // An animation file without animations: exit 1.
    r = runCli({"pose", "--json", "--animation", (dir / "cyl.smesh").string(),
                (dir / "cyl.smesh").string()});
    EXPECT_EQ(r.status, 1);
}

TEST(CliPoseUnigine, CorpusWalkOnAgent) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const auto base = corpus / "unigine/trinet-fasie_unigine-mockup/data/vr_sample/props/animation";
    const auto r =
        runCli({"pose", "--json", "--animation", (base / "animations/agent_walk.anim").string(),
                "--time", "0.5", (base / "meshes/agent.mesh").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_EQ(j["animation"]["applied"], j["animation"]["tracks"]);
    EXPECT_TRUE(j["animation"]["unmatched"].empty());
    const auto bind = runCli({"pose", "--json", (base / "meshes/agent.mesh").string()});
    ASSERT_EQ(bind.status, 0);
    const Json b = Json::parse(bind.out);
    // The walk moves the bounds away from the bind pose's.
    EXPECT_NE(j["bounds"]["min"].dump(), b["bounds"]["min"].dump());
    for (const auto& bone : j["bones"])
        for (const auto& v : bone["world"]) EXPECT_TRUE(v.is_number()) << bone["name"];
}

namespace {

// A CurveAnimation whose FaceControls folder (under Head) moves JawDrop from 0 to 1 over 1 s.
Asset faceCurves() {
    Asset a;
    a.format = "roblox-model";
    const int anim = a.addNode("Talk", "CurveAnimation");
    a.addProperty(anim, test::prop("Loop", "bool", false));
    const int head = a.addNode("Head", "Folder", anim);
    const int face = a.addNode("FaceControls", "Folder", head);
    const int jaw = a.addNode("JawDrop", "FloatCurve", face);
    a.addProperty(jaw, test::prop("ValuesAndTimes", "BinaryString",
                                  test::linearFloatCurve({{0, 0}, {1, 2400}})));
    return a;
}

}  // namespace

// FACS curves: pose --animation fills `facs` with the FaceControls values at that time, on a
// Roblox rig (no face rig: reported by control name) and on a FACS head (its control weights);
// export --animation writes them as a morph-target weights channel on the head.
TEST(CliPoseFacs, FaceControlsCurvesFillFacsAndExportAsWeights) {
    const Asset curves = faceCurves();
    std::string error;
    const auto j = cli::rigPoseJson(rigWithAnimation(), &curves, 0.25f, error);
    ASSERT_TRUE(j.has_value()) << error;
    ASSERT_FALSE((*j)["facs"].is_null());
    EXPECT_EQ((*j)["facs"]["source"], "FaceControls");
    EXPECT_NEAR((*j)["facs"]["weights"]["JawDrop"].get<double>(), 0.25, 1e-5);
    EXPECT_EQ((*j)["animation"]["faceControls"], 1);
    // A rig animation without FACS curves keeps facs null.
    const Asset noFace = curveAnimationModel();
    const auto k = cli::rigPoseJson(rigWithAnimation(), &noFace, 0.25f, error);
    ASSERT_TRUE(k.has_value());
    EXPECT_TRUE((*k)["facs"].is_null());

    const auto dir = test::tempDir("cli-pose-facs");
    FileMeshWriteOptions options;
    options.version = "5.00";
    const auto head = writeFileMesh(makeFacsHead(), 0, options);
    const auto anim = writeRobloxModel(curves);
    ASSERT_TRUE(head.ok() && anim.ok());
    test::writeFile(dir / "head.mesh", head.bytes);
    test::writeFile(dir / "talk.rbxm", anim.bytes);
    const auto r = runCli({"pose", "--json", "--animation", (dir / "talk.rbxm").string(), "--time",
                           "0.5", (dir / "head.mesh").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const Json out = Json::parse(r.out);
    ASSERT_FALSE(out["facs"].is_null());
    EXPECT_NEAR(out["facs"]["weights"]["JawDrop"].get<double>(), 0.5, 1e-5);
    for (const auto& [name, w] : out["facs"]["weights"].items())
        if (name != "JawDrop") {
            EXPECT_EQ(w.get<double>(), 0.0) << name;
        }
    // The bind pose's bounds differ from the jaw-dropped one's.
    const auto bind = runCli({"pose", "--json", (dir / "head.mesh").string()});
    ASSERT_EQ(bind.status, 0);
    EXPECT_NE(Json::parse(bind.out)["bounds"].dump(), out["bounds"].dump());

    const auto glb = dir / "head.glb";
    const auto e = runCli({"export", "--to", "glb", "--animation", (dir / "talk.rbxm").string(),
                           (dir / "head.mesh").string(), glb.string()});
    ASSERT_EQ(e.status, 0) << e.err;
    tinygltf::Model m;
    tinygltf::TinyGLTF loader;
    std::string err, warn;
    ASSERT_TRUE(loader.LoadBinaryFromFile(&m, &err, &warn, glb.string())) << err;
    ASSERT_EQ(m.animations.size(), 1u);
    const auto& ga = m.animations[0];
    int weights = -1;
    for (std::size_t c = 0; c < ga.channels.size(); ++c)
        if (ga.channels[c].target_path == "weights") weights = int(c);
    ASSERT_GE(weights, 0);
    const int node = ga.channels[std::size_t(weights)].target_node;
    const auto& mesh = m.meshes.at(std::size_t(m.nodes.at(std::size_t(node)).mesh));
    const auto& names = mesh.extras.Get("targetNames");
    int jaw = -1;
    for (int t = 0; t < int(names.ArrayLen()); ++t)
        if (names.Get(t).Get<std::string>() == "JawDrop") jaw = t;
    ASSERT_GE(jaw, 0);
    const auto& acc = m.accessors.at(
        std::size_t(ga.samplers.at(std::size_t(ga.channels[std::size_t(weights)].sampler)).output));
    const auto& view = m.bufferViews.at(std::size_t(acc.bufferView));
    const float* v = reinterpret_cast<const float*>(m.buffers.at(0).data.data() + view.byteOffset +
                                                    acc.byteOffset);
    const std::size_t targets = mesh.weights.size();
    ASSERT_EQ(acc.count, 31 * targets);                            // 0 .. 1 s at 30 fps
    EXPECT_NEAR(v[15 * targets + std::size_t(jaw)], 0.5f, 1e-5f);  // frame 15 = 0.5 s
    EXPECT_NEAR(v[30 * targets + std::size_t(jaw)], 1.0f, 1e-5f);
}

namespace {

// Face animation saved by the Animation Editor: a KeyframeSequence whose Head Pose holds a
// FaceControls folder of NumberPoses; JawDrop 0 at 0 s and 1 at 1 s (Linear).
Asset faceNumberPoses() {
    Asset a;
    a.format = "roblox-model";
    const int seq = a.addNode("Talk", "KeyframeSequence");
    a.addProperty(seq, test::prop("Loop", "bool", false));
    for (double time : {0.0, 1.0}) {
        const int kf = a.addNode("Keyframe", "Keyframe", seq);
        a.addProperty(kf, test::prop("Time", "float", time));
        const int head = a.addNode("Head", "Pose", kf);
        a.addProperty(head, test::prop("Weight", "float", 0.0));
        const int face = a.addNode("FaceControls", "Folder", head);
        const int jaw = a.addNode("JawDrop", "NumberPose", face);
        a.addProperty(jaw, test::prop("Value", "float", time));
        a.addProperty(jaw, test::prop("Weight", "float", 1.0));
    }
    return a;
}

}  // namespace

TEST(CliPoseFacs, KeyframeSequenceNumberPosesFillFacs) {
    const Asset face = faceNumberPoses();
    std::string error;
    const auto j = cli::rigPoseJson(rigWithAnimation(), &face, 0.25f, error);
    ASSERT_TRUE(j.has_value()) << error;
    EXPECT_EQ((*j)["animation"]["kind"], "KeyframeSequence");
    EXPECT_EQ((*j)["animation"]["faceControls"], 1);
    ASSERT_FALSE((*j)["facs"].is_null());
    EXPECT_EQ((*j)["facs"]["source"], "FaceControls");
    EXPECT_NEAR((*j)["facs"]["weights"]["JawDrop"].get<double>(), 0.25, 1e-5);
    // The rig's own sequence has no NumberPoses: facs stays null.
    const auto k = cli::rigPoseJson(rigWithAnimation(), nullptr, 0.25f, error);
    ASSERT_TRUE(k.has_value()) << error;
    EXPECT_TRUE((*k)["facs"].is_null());
    EXPECT_EQ((*k)["animation"]["faceControls"], 0);

    // End to end on a written FACS head: the weight at 0.75 s.
    const auto dir = test::tempDir("cli-pose-facs-numberpose");
    FileMeshWriteOptions options;
    options.version = "5.00";
    const auto head = writeFileMesh(makeFacsHead(), 0, options);
    const auto anim = writeRobloxModel(face);
    ASSERT_TRUE(head.ok() && anim.ok());
    test::writeFile(dir / "head.mesh", head.bytes);
    test::writeFile(dir / "talk.rbxm", anim.bytes);
    const auto r = runCli({"pose", "--json", "--animation", (dir / "talk.rbxm").string(), "--time",
                           "0.75", (dir / "head.mesh").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const Json out = Json::parse(r.out);
    ASSERT_FALSE(out["facs"].is_null());
    EXPECT_NEAR(out["facs"]["weights"]["JawDrop"].get<double>(), 0.75, 1e-5);
}
