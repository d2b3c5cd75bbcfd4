// FACS: the control name table, corrective weights, composition of a generated rig against
// hand-computed bone transforms, the one Euler order, and binding face bones by name.
#include <limits>
#include <set>

#include "pose_test_util.h"

using namespace meshscope;
using meshscope::test::expectNear;
using meshscope::test::makeBone;

namespace {

// Three controls, one two-pose corrective (JD+LEC) and one three-pose corrective (JD+LEC+REC);
// two face bones. Columns: c_JD l_EC r_EC c_JD_l_EC c_JD_l_EC_r_EC.
FacsRig generatedRig() {
    FacsRig rig;
    rig.controlNames = {"c_JD", "l_EC", "r_EC"};
    rig.correctives = {{0, 1}, {0, 1, 2}};
    rig.boneNames = {"Jaw", "LeftEyeLid"};
    rig.rows = 2;
    rig.cols = 5;
    // Row-major rows × cols per channel.
    rig.channels[0] = {0, 0, 0.5f, 0, 0, /**/ 0, 0, 0, 0, 0};   // px
    rig.channels[1] = {-1, 0, 0, 0.2f, 0, /**/ 0, 0, 0, 0, 0};  // py
    rig.channels[2] = {0, 0, 0, 0, 1, /**/ 0, 0.1f, 0, 0, 0};   // pz
    rig.channels[3] = {20, 0, 0, -5, 0, /**/ 0, 0, 0, 0, 10};   // rx
    rig.channels[4] = {0, 0, 0, 0, 0, /**/ 0, 30, 0, 0, 0};     // ry
    rig.channels[5] = {0, 0, 0, 0, 10, /**/ 0, 0, 0, 0, 0};     // rz
    return rig;
}

}  // namespace

TEST(FacsEuler, OrderIsRobloxFromEulerAnglesXyz) {
    // The 2025 document: CFrame.fromEulerAnglesXYZ, R = Rx * Ry * Rz. By hand: Ry(90) takes
    // +X to -Z, then Rx(90) takes -Z to +Y. YXZ (RoAvatar-Renderer) or ZYX would give -Z.
    const Mat4 r = facsEulerToMatrix({90, 90, 0});
    expectNear(transformVector(r, {1, 0, 0}), {0, 1, 0});
    // Rz(90) takes +Y to -X; Ry(90) takes -X to +Z; Rx(90) takes +Z to -Y.
    expectNear(transformVector(facsEulerToMatrix({90, 90, 90}), {0, 1, 0}), {0, -1, 0});
    // And in general, against the product of the elementary rotations.
    for (const Vec3 e : {Vec3{30, 45, 60}, Vec3{-10, 170, 5}, Vec3{90, -45, 12.5f}}) {
        expectNear(facsEulerToMatrix(e),
                   rotationXDegrees(e.x) * rotationYDegrees(e.y) * rotationZDegrees(e.z));
        expectNear(eulerXyzDegrees(e),
                   rotationXDegrees(e.x) * rotationYDegrees(e.y) * rotationZDegrees(e.z));
    }
}

TEST(FacsEuler, ElementaryRotationsAreRightHanded) {
    expectNear(transformVector(rotationXDegrees(90), {0, 1, 0}), {0, 0, 1});
    expectNear(transformVector(rotationYDegrees(90), {0, 0, 1}), {1, 0, 0});
    expectNear(transformVector(rotationZDegrees(90), {1, 0, 0}), {0, 1, 0});
}

TEST(FacsNames, TableHoldsTheFiftyDocumentedControls) {
    const auto table = facsControlTable();
    ASSERT_EQ(table.size(), 50u);
    std::set<std::string_view> abbreviations, names;
    for (const auto& c : table) {
        abbreviations.insert(c.abbreviation);
        names.insert(c.name);
        // The prefix says the side: l_ → Left..., r_ → Right..., c_ → neither.
        if (c.abbreviation.starts_with("l_")) {
            EXPECT_TRUE(c.name.starts_with("Left")) << c.name;
        } else if (c.abbreviation.starts_with("r_")) {
            EXPECT_TRUE(c.name.starts_with("Right")) << c.name;
        } else {
            EXPECT_TRUE(c.abbreviation.starts_with("c_")) << c.abbreviation;
            EXPECT_FALSE(c.name.starts_with("Left") || c.name.starts_with("Right")) << c.name;
        }
        // Left and right controls come in pairs with the same name after the side.
        if (c.abbreviation.starts_with("l_")) {
            const std::string mirror = "r_" + std::string(c.abbreviation.substr(2));
            const FacsControlInfo* r = findFacsControl(mirror);
            ASSERT_NE(r, nullptr) << mirror;
            EXPECT_EQ(r->name.substr(5), c.name.substr(4));
            EXPECT_EQ(r->group, c.group);
        }
    }
    EXPECT_EQ(abbreviations.size(), 50u);
    EXPECT_EQ(names.size(), 50u);
}

TEST(FacsNames, LookupByAbbreviationOrFullName) {
    const FacsControlInfo* jd = findFacsControl("c_JD");
    ASSERT_NE(jd, nullptr);
    EXPECT_EQ(jd->name, "JawDrop");
    EXPECT_EQ(jd->group, FacsGroup::Jaw);
    EXPECT_EQ(findFacsControl("JawDrop"), jd);
    EXPECT_EQ(findFacsControl("jawdrop"), jd);  // case is forgiven
    const FacsControlInfo* lec = findFacsControl("LeftEyeClosed");
    ASSERT_NE(lec, nullptr);
    EXPECT_EQ(lec->abbreviation, "l_EC");
    EXPECT_EQ(facsGroupName(lec->group), "eyes");
    EXPECT_EQ(findFacsControl("c_CRUL")->name, "ChinRaiserUpperLip");
    EXPECT_EQ(findFacsControl("r_ULR")->name, "RightUpperLipRaiser");
    EXPECT_EQ(findFacsControl("c_TO")->group, FacsGroup::Tongue);
    EXPECT_EQ(findFacsControl("l_NW")->group, FacsGroup::Nose);
    EXPECT_EQ(findFacsControl("Smile"), nullptr);
    EXPECT_EQ(findFacsControl(""), nullptr);
    EXPECT_EQ(facsDisplayName("c_JD"), "JawDrop");
    EXPECT_EQ(facsDisplayName("x_custom"), "x_custom");
}

TEST(FacsNames, RigControlsFoundByEitherName) {
    const FacsRig rig = generatedRig();
    EXPECT_EQ(findRigControl(rig, "c_JD"), 0);
    EXPECT_EQ(findRigControl(rig, "LeftEyeClosed"), 1);
    EXPECT_EQ(findRigControl(rig, "r_EC"), 2);
    EXPECT_EQ(findRigControl(rig, "TongueOut"), -1);  // a real control, not in this rig
    EXPECT_EQ(findRigControl(rig, "Nonsense"), -1);
}

TEST(FacsCorrectives, WeightIsTheProductOfMembers) {
    const FacsRig rig = generatedRig();
    const std::vector<float> w{0.5f, 0.8f, 0.25f};
    const auto c = correctiveWeights(rig, w);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_FLOAT_EQ(c[0], 0.4f);  // 0.5 × 0.8
    EXPECT_FLOAT_EQ(c[1], 0.1f);  // 0.5 × 0.8 × 0.25
    // Missing weights count as 0; so does a member index that names no control.
    EXPECT_EQ(correctiveWeights(rig, std::vector<float>{1, 1}), (std::vector<float>{1, 0}));
    FacsRig bad = rig;
    bad.correctives = {{0, 17}};
    EXPECT_EQ(correctiveWeights(bad, w), std::vector<float>{0});
    std::vector<float> all;
    columnWeights(rig, w, all);
    ASSERT_EQ(all.size(), 5u);
    EXPECT_FLOAT_EQ(all[2], 0.25f);
    EXPECT_FLOAT_EQ(all[4], 0.1f);
}

TEST(FacsCompose, GeneratedRigMatchesHandComputedTransforms) {
    const FacsRig rig = generatedRig();
    const std::vector<float> w{0.5f, 0.8f, 0.25f};  // correctives: 0.4 and 0.1
    const FacsBonePose pose = composeFacs(rig, w);
    ASSERT_EQ(pose.bones.size(), 2u);
    // Jaw: 0.5·(0,-1,0) + 0.25·(0.5,0,0) + 0.4·(0,0.2,0) + 0.1·(0,0,1)
    expectNear(pose.bones[0].position, {0.125f, -0.42f, 0.1f});
    // Jaw: 0.5·(20,0,0) + 0.4·(-5,0,0) + 0.1·(0,0,10)
    expectNear(pose.bones[0].rotation, {8, 0, 1});
    // LeftEyeLid: 0.8·(0,0,0.1); rotation 0.8·(0,30,0) + 0.1·(10,0,0)
    expectNear(pose.bones[1].position, {0, 0, 0.08f});
    expectNear(pose.bones[1].rotation, {1, 24, 0});
    // Transform = T(position) · Rx · Ry · Rz.
    for (const auto& b : pose.bones)
        expectNear(b.transform, translationMatrix(b.position) * rotationXDegrees(b.rotation.x) *
                                    rotationYDegrees(b.rotation.y) *
                                    rotationZDegrees(b.rotation.z));
    EXPECT_EQ(pose.columnWeights.size(), 5u);
}

TEST(FacsCompose, TranslationInOriginalFrameThenRotation) {
    // One control: move 1 along X and turn 90° about Z. The 2025 document adds the position to
    // the rotation CFrame: (1,0,0) → Rz(1,0,0) + (1,0,0) = (1,1,0). The 2023 reading
    // (rotation · CFrame.new(position)) would give (0,2,0).
    FacsRig rig;
    rig.controlNames = {"c_JD"};
    rig.boneNames = {"Jaw"};
    rig.rows = 1;
    rig.cols = 1;
    rig.channels = {{{1}, {0}, {0}, {0}, {0}, {90}}};
    const auto pose = composeFacs(rig, std::vector<float>{1});
    expectNear(transformPoint(pose.bones[0].transform, {1, 0, 0}), {1, 1, 0});
}

TEST(FacsCompose, ZeroWeightsGiveIdentityAndShortChannelsAreSafe) {
    FacsRig rig = generatedRig();
    auto pose = composeFacs(rig, {});
    for (const auto& b : pose.bones) expectNear(b.transform, Mat4::identity());
    // A truncated channel contributes only what it holds (no out-of-bounds read).
    rig.channels[3].resize(3);
    rig.cols = 7;  // wider than the named columns: extra columns carry no weight
    pose = composeFacs(rig, std::vector<float>{1, 1, 1});
    ASSERT_EQ(pose.bones.size(), 2u);
    for (const auto& b : pose.bones) EXPECT_TRUE(meshscope::test::finite(b.transform));
}

TEST(FacsBinding, FaceBonesMatchedByNameOthersReported) {
    const FacsRig rig = generatedRig();
    Skeleton s;
    s.bones.push_back(makeBone("Head", -1, translationMatrix({0, 5, 0})));
    s.bones.push_back(makeBone("Jaw", 0, translationMatrix({0, 4, 1})));
    const FacsBinding b = bindFacs(rig, s);
    EXPECT_EQ(b.boneOfRow, (std::vector<int>{1, -1}));
    EXPECT_EQ(b.unmatched, std::vector<std::string>{"LeftEyeLid"});
}

TEST(FacsBinding, EvaluatorPosesAndSkinsTheMatchedBone) {
    // The jaw turns 90° about its own Z: a vertex one unit along the jaw's +X (bind (1,4,1))
    // ends one unit along +Y from the jaw: (0,5,1).
    FacsRig rig;
    rig.controlNames = {"c_JD"};
    rig.boneNames = {"Jaw", "NotInSkeleton"};
    rig.rows = 2;
    rig.cols = 1;
    rig.channels = {{{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {90, 45}}};
    Skeleton s;
    s.bones.push_back(makeBone("Head", -1, translationMatrix({0, 5, 0})));
    s.bones.push_back(makeBone("Jaw", 0, translationMatrix({0, 4, 1})));
    Mesh mesh;
    mesh.positions = {{1, 4, 1}, {0, 6, 0}};
    VertexInfluences onJaw, onHead;
    onJaw.weights = {1, 0, 0, 0};
    onJaw.joints = {1, 0, 0, 0};
    onHead.weights = {1, 0, 0, 0};
    mesh.skin = {onJaw, onHead};

    PoseEvaluator eval(s, &rig);
    EXPECT_EQ(eval.facsBinding().unmatched, std::vector<std::string>{"NotInSkeleton"});
    eval.update(Pose{}, std::vector<float>{1});
    std::vector<Vec3> p;
    eval.skin(mesh, p);
    expectNear(p[0], {0, 5, 1});
    expectNear(p[1], {0, 6, 0});
    // A user pose on the same bone comes first, FACS after it in the bone's frame.
    Pose user = Pose::bind(s);
    poseBone(user, 1, {0, 0, 0}, {0, 0, 2});
    eval.update(user, std::vector<float>{1});
    eval.skin(mesh, p);
    expectNear(p[0], {0, 5, 3});
    // Weight 0: bind pose again.
    eval.update(Pose{}, std::vector<float>{0});
    eval.skin(mesh, p);
    expectNear(p[0], {1, 4, 1});
}

TEST(FacsCompose, NonFiniteValueOfAnInactiveControlDoesNotPoison) {
    FacsRig rig = generatedRig();
    rig.channels[3][1] = std::numeric_limits<float>::infinity();  // Jaw, l_EC, rx
    const auto pose = composeFacs(rig, std::vector<float>{0.5f, 0, 0});
    expectNear(pose.bones[0].rotation, {10, 0, 0});
    EXPECT_TRUE(meshscope::test::finite(pose.bones[0].transform));
}
