// Linear blend skinning, bone posing and skeleton order on generated skeletons, against
// hand-computed positions.
#include <cmath>
#include <limits>

#include "pose_test_util.h"

using namespace meshscope;
using meshscope::test::expectNear;
using meshscope::test::makeBone;

namespace {

// Root at the origin, "Arm" one unit along +X; both with identity bind rotation.
Skeleton twoBones() {
    Skeleton s;
    s.bones.push_back(makeBone("Root", -1, Mat4::identity()));
    s.bones.push_back(makeBone("Arm", 0, translationMatrix({1, 0, 0})));
    return s;
}

VertexInfluences influences(std::uint16_t j0, float w0, std::uint16_t j1 = 0, float w1 = 0) {
    VertexInfluences v;
    v.joints = {j0, j1, 0, 0};
    v.weights = {w0, w1, 0, 0};
    return v;
}

Mesh twoBoneMesh() {
    Mesh m;
    m.positions = {{0.5f, 0, 0}, {2, 0, 0}, {2, 0, 0}, {2, 1, 0}, {2, 0, 0}, {3, 3, 3}, {4, 4, 4}};
    m.normals = {{1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 0}, {0, 0, 1}, {0, 0, 1}};
    m.skin = {
        influences(0, 1),              // on the root only
        influences(1, 1),              // on the arm only
        influences(0, 0.5f, 1, 0.5f),  // half and half
        influences(0, 0.75f, 1, 0.25f),
        influences(1, 0.5f),  // weights summing to 0.5: normalised
        influences(0, 0),     // no weight at all: stays put
        influences(7, 1),     // a joint with no matrix: ignored, stays put
    };
    return m;
}

}  // namespace

TEST(Skinning, TwoBoneMeshMatchesHandComputedVertices) {
    const Skeleton s = twoBones();
    Pose pose = Pose::bind(s);
    ASSERT_TRUE(poseBone(pose, 1, {0, 0, 90}));  // arm: 90° about Z
    const auto matrices = skinningMatrices(s, pose);
    ASSERT_EQ(matrices.size(), 2u);

    const Mesh mesh = twoBoneMesh();
    std::vector<Vec3> p, n;
    skinVertices(mesh, matrices, p, &n);
    ASSERT_EQ(p.size(), mesh.positions.size());
    ASSERT_EQ(n.size(), mesh.positions.size());
    // Arm-local (1,0,0) turned 90° about Z is (0,1,0), plus the arm's origin (1,0,0).
    expectNear(p[0], {0.5f, 0, 0});
    expectNear(p[1], {1, 1, 0});
    expectNear(p[2], {1.5f, 0.5f, 0});  // ½(2,0,0) + ½(1,1,0)
    expectNear(p[3], {1.5f, 1, 0});     // ¾(2,1,0) + ¼(0,1,0): arm-local (1,1,0) → (-1,1,0)
    expectNear(p[4], {1, 1, 0});
    expectNear(p[5], {3, 3, 3});
    expectNear(p[6], {4, 4, 4});
    // Normals: rotated, blended, renormalised.
    expectNear(n[0], {1, 0, 0});
    expectNear(n[1], {0, 1, 0});
    const float h = std::sqrt(0.5f);
    expectNear(n[2], {-h, h, 0});  // ½(0,1,0) + ½(-1,0,0), normalised
    expectNear(n[3], {0, 0, 1});
}

TEST(Skinning, BindPoseReproducesTheMesh) {
    const Skeleton s = twoBones();
    const auto matrices = skinningMatrices(s, Pose::bind(s));
    for (const Mat4& m : matrices) meshscope::test::expectNear(m, Mat4::identity());
    const Mesh mesh = twoBoneMesh();
    std::vector<Vec3> p;
    skinVertices(mesh, matrices, p);
    for (std::size_t i = 0; i < p.size(); ++i) expectNear(p[i], mesh.positions[i]);
}

TEST(Skinning, ReusedOutputsAreNotReallocated) {
    const Skeleton s = twoBones();
    const auto matrices = skinningMatrices(s, Pose::bind(s));
    const Mesh mesh = twoBoneMesh();
    std::vector<Vec3> p, n;
    skinVertices(mesh, matrices, p, &n);
    const Vec3* pData = p.data();
    const Vec3* nData = n.data();
    skinVertices(mesh, matrices, p, &n);
    EXPECT_EQ(p.data(), pData);
    EXPECT_EQ(n.data(), nData);
}

TEST(Skinning, MeshWithoutSkinOrNormalsIsCopied) {
    Mesh mesh;
    mesh.positions = {{1, 2, 3}};
    std::vector<Vec3> p, n{{9, 9, 9}};
    const Mat4 moved = translationMatrix({5, 5, 5});
    skinVertices(mesh, std::span(&moved, 1), p, &n);
    ASSERT_EQ(p.size(), 1u);
    expectNear(p[0], {1, 2, 3});
    EXPECT_TRUE(n.empty());  // no normal stream in → no normals out
}

TEST(Skinning, NonFiniteVerticesDoNotPoisonBounds) {
    const Skeleton s = twoBones();
    Pose pose = Pose::bind(s);
    poseBone(pose, 1, {0, 0, 90});
    Mesh mesh = twoBoneMesh();
    mesh.positions[5] = {std::numeric_limits<float>::quiet_NaN(), 0, 0};
    const Bounds b = posedBounds(mesh, skinningMatrices(s, pose));
    ASSERT_TRUE(b.valid());
    // Finite posed points: (0.5,0,0) (1,1,0) (1.5,0.5,0) (1.5,1,0) (1,1,0) (4,4,4).
    expectNear(b.min, {0.5f, 0, 0});
    expectNear(b.max, {4, 4, 4});
}

TEST(Skinning, StoredInverseBindIsUsed) {
    // Second Life stores inverse bind matrices; they need not equal inverse(world).
    Skeleton s;
    s.bones.push_back(makeBone("mPelvis", -1, translationMatrix({1, 0, 0})));
    s.bones[0].inverseBind = translationMatrix({-2, 0, 0});
    const auto m = skinningMatrices(s, Pose::bind(s));
    ASSERT_EQ(m.size(), 1u);
    expectNear(transformPoint(m[0], {0, 0, 0}), {-1, 0, 0});
}

TEST(BonePose, TranslationIsInTheBonesOriginalFrame) {
    // Bind: turned 90° about Y at (1,0,0). A pose translation along the bone's own +Z moves it
    // along world +X (Ry(90) maps (0,0,1) to (1,0,0)).
    Skeleton s;
    s.bones.push_back(makeBone("B", -1, translationMatrix({1, 0, 0}) * rotationYDegrees(90)));
    Pose pose = Pose::bind(s);
    poseBone(pose, 0, {0, 0, 0}, {0, 0, 1});
    const auto world = posedWorldTransforms(s, pose);
    expectNear(transformPoint(world[0], {0, 0, 0}), {2, 0, 0});
}

TEST(BonePose, ParentRotationCarriesChildren) {
    Skeleton s;
    s.bones.push_back(makeBone("A", -1, Mat4::identity()));
    s.bones.push_back(makeBone("B", 0, translationMatrix({1, 0, 0})));
    s.bones.push_back(makeBone("C", 1, translationMatrix({2, 0, 0})));
    Pose pose = Pose::bind(s);
    poseBone(pose, 0, {0, 0, 90});
    const auto world = posedWorldTransforms(s, pose);
    expectNear(transformPoint(world[1], {0, 0, 0}), {0, 1, 0});
    expectNear(transformPoint(world[2], {0, 0, 0}), {0, 2, 0});
    // C keeps its bind orientation relative to B: its +X now points along world +Y.
    expectNear(transformVector(world[2], {1, 0, 0}), {0, 1, 0});
}

TEST(BonePose, ChildListedBeforeItsParentIsStillPosedAfterIt) {
    Skeleton s;
    s.bones.push_back(makeBone("Child", 1, translationMatrix({1, 0, 0})));
    s.bones.push_back(makeBone("Parent", -1, Mat4::identity()));
    Pose pose = Pose::bind(s);
    poseBone(pose, 1, {0, 0, 90});
    const auto world = posedWorldTransforms(s, pose);
    expectNear(transformPoint(world[0], {0, 0, 0}), {0, 1, 0});
}

TEST(BonePose, PoseBoneRejectsNegativeIndexAndGrowsPose) {
    Pose pose;
    EXPECT_FALSE(poseBone(pose, -1, {1, 2, 3}));
    EXPECT_TRUE(poseBone(pose, 3, {0, 0, 0}, {1, 2, 3}));
    ASSERT_EQ(pose.local.size(), 4u);
    EXPECT_EQ(pose.local[0], Mat4::identity());
    expectNear(transformPoint(pose.local[3], {0, 0, 0}), {1, 2, 3});
}

TEST(BoneOrder, ParentCyclesAndBadParentsAreReportedNotLoopedOn) {
    Skeleton s;
    s.bones.push_back(makeBone("a", 1, Mat4::identity()));  // a ↔ b: a loop of two
    s.bones.push_back(makeBone("b", 0, Mat4::identity()));
    s.bones.push_back(makeBone("c", 99, Mat4::identity()));             // parent index out of range
    s.bones.push_back(makeBone("d", 3, Mat4::identity()));              // its own parent
    s.bones.push_back(makeBone("e", 0, translationMatrix({0, 1, 0})));  // hangs off the loop
    const BoneOrder o = boneOrder(s);
    EXPECT_FALSE(o.clean());
    std::vector<int> cycle = o.cycleBones;
    std::sort(cycle.begin(), cycle.end());
    EXPECT_EQ(cycle, (std::vector<int>{0, 1, 3}));
    EXPECT_EQ(o.invalidParents, std::vector<int>{2});
    // Every bone exactly once, each after its effective parent.
    ASSERT_EQ(o.order.size(), s.bones.size());
    std::vector<int> position(s.bones.size(), -1);
    for (std::size_t i = 0; i < o.order.size(); ++i) {
        ASSERT_EQ(position[std::size_t(o.order[i])], -1) << "bone listed twice";
        position[std::size_t(o.order[i])] = int(i);
    }
    for (std::size_t b = 0; b < s.bones.size(); ++b) {
        if (o.parent[b] >= 0) {
            EXPECT_LT(position[std::size_t(o.parent[b])], position[b]);
        }
    }
    EXPECT_EQ(o.parent[2], -1);
    EXPECT_EQ(o.parent[3], -1);
    EXPECT_TRUE(o.parent[0] == -1 || o.parent[1] == -1);  // the loop is broken once

    const auto world = posedWorldTransforms(s, Pose::bind(s));
    ASSERT_EQ(world.size(), s.bones.size());
    for (const Mat4& m : world) EXPECT_TRUE(meshscope::test::finite(m));
}

TEST(BoneOrder, CleanSkeletonHasNoReports) {
    const BoneOrder o = boneOrder(twoBones());
    EXPECT_TRUE(o.clean());
    EXPECT_EQ(o.order, (std::vector<int>{0, 1}));
}

TEST(Skinning, InfluenceBoundsContainEveryPosedVertex) {
    const Skeleton s = twoBones();
    const Mesh mesh = twoBoneMesh();
    const InfluenceBoxes boxes = influenceBoxes(mesh);
    EXPECT_FALSE(boxes.exact);
    ASSERT_EQ(boxes.joints.size(), 8u);  // joints 0, 1 and 7 (the one without a matrix)
    EXPECT_TRUE(boxes.unmoved.valid());  // the vertex with no weight
    for (int step = 0; step < 12; ++step) {
        Pose pose = Pose::bind(s);
        poseBone(pose, 0, {float(step * 17), float(step * 5), 0}, {0, float(step) * 0.25f, 0});
        poseBone(pose, 1, {0, float(step * 11), float(step * 30)});
        const std::vector<Mat4> m = skinningMatrices(s, pose);
        const Bounds loose = influenceBounds(boxes, mesh, m);
        const Bounds exact = posedBounds(mesh, m);
        ASSERT_TRUE(loose.valid());
        auto axis = [](const Vec3& v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; };
        for (int a = 0; a < 3; ++a) {
            EXPECT_LE(axis(loose.min, a), axis(exact.min, a) + 1e-4f) << step << " axis " << a;
            EXPECT_GE(axis(loose.max, a), axis(exact.max, a) - 1e-4f) << step << " axis " << a;
        }
        if (step == 0) {  // bind pose: the boxes are the vertices' own box
            expectNear(loose.min, exact.min);
            expectNear(loose.max, exact.max);
        }
    }
}

TEST(Skinning, InfluenceBoundsOfANegativeWeightSkinTheMesh) {
    const Skeleton s = twoBones();
    Mesh mesh = twoBoneMesh();
    mesh.skin[2] = influences(0, 1.5f, 1, -0.5f);  // outside the joints' hull
    const InfluenceBoxes boxes = influenceBoxes(mesh);
    EXPECT_TRUE(boxes.exact);
    Pose pose = Pose::bind(s);
    poseBone(pose, 1, {0, 0, 90});
    const std::vector<Mat4> m = skinningMatrices(s, pose);
    const Bounds b = influenceBounds(boxes, mesh, m);
    const Bounds exact = posedBounds(mesh, m);
    expectNear(b.min, exact.min);
    expectNear(b.max, exact.max);
}
