// Animation sampling (pose.h): quaternion matrices, nlerp along the shorter arc, track transforms
// at fractional frames, and a skeleton posed by an animation.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "meshscope/core/pose.h"
#include "pose_test_util.h"

namespace meshscope {
namespace {

using test::expectNear;
using test::makeBone;

// Quaternion for `degrees` about a unit axis.
Vec4 axisAngle(Vec3 axis, float degrees) {
    const float h = degrees * std::numbers::pi_v<float> / 360.0f;
    const float s = std::sin(h);
    return {axis.x * s, axis.y * s, axis.z * s, std::cos(h)};
}

Vec3 apply(const Mat4& m, Vec3 p) {
    return {m.at(0, 0) * p.x + m.at(0, 1) * p.y + m.at(0, 2) * p.z + m.at(0, 3),
            m.at(1, 0) * p.x + m.at(1, 1) * p.y + m.at(1, 2) * p.z + m.at(1, 3),
            m.at(2, 0) * p.x + m.at(2, 1) * p.y + m.at(2, 2) * p.z + m.at(2, 3)};
}

TEST(Animation, QuaternionMatrixMatchesTheElementaryRotations) {
    expectNear(quaternionMatrix({0, 0, 0, 1}), Mat4::identity());
    expectNear(quaternionMatrix(axisAngle({0, 0, 1}, 90)), rotationZDegrees(90));
    expectNear(quaternionMatrix(axisAngle({1, 0, 0}, 30)), rotationXDegrees(30));
    expectNear(quaternionMatrix(axisAngle({0, 1, 0}, -120)), rotationYDegrees(-120));
    // Not unit: normalised first.
    const Vec4 q = axisAngle({0, 0, 1}, 90);
    expectNear(quaternionMatrix({q.x * 3, q.y * 3, q.z * 3, q.w * 3}), rotationZDegrees(90));
    // 90° about Z takes +X to +Y.
    expectNear(apply(quaternionMatrix(q), {1, 0, 0}), {0, 1, 0});
}

TEST(Animation, QuaternionMatrixOfZeroOrNonFiniteIsIdentity) {
    expectNear(quaternionMatrix({0, 0, 0, 0}), Mat4::identity());
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    expectNear(quaternionMatrix({nan, 0, 0, 1}), Mat4::identity());
    expectNear(quaternionMatrix({inf, 0, 0, 1}), Mat4::identity());
}

TEST(Animation, NlerpEndsAreTheKeysAndTheMidpointHalvesTheAngle) {
    const Vec4 a = axisAngle({0, 0, 1}, 0), b = axisAngle({0, 0, 1}, 80);
    expectNear(quaternionMatrix(nlerp(a, b, 0)), rotationZDegrees(0));
    expectNear(quaternionMatrix(nlerp(a, b, 1)), rotationZDegrees(80));
    // At t = 0.5 nlerp and slerp agree: half the angle.
    expectNear(quaternionMatrix(nlerp(a, b, 0.5f)), rotationZDegrees(40));
    const Vec4 m = nlerp(a, b, 0.3f);
    EXPECT_NEAR(m.x * m.x + m.y * m.y + m.z * m.z + m.w * m.w, 1.0f, 1e-6f);
}

TEST(Animation, NlerpTakesTheShorterArc) {
    // q and -q are the same rotation: halfway between 10° and the negated 50° is 30°, not a
    // turn through the long way round.
    const Vec4 a = axisAngle({0, 1, 0}, 10);
    const Vec4 b = axisAngle({0, 1, 0}, 50);
    expectNear(quaternionMatrix(nlerp(a, {-b.x, -b.y, -b.z, -b.w}, 0.5f)), rotationYDegrees(30));
    // Opposite signs of one rotation do not cancel out to zero.
    const Vec4 same = nlerp({0, 0, 0, 1}, {0, 0, 0, -1}, 0.5f);
    expectNear(quaternionMatrix(same), Mat4::identity());
    EXPECT_NEAR(std::fabs(same.w), 1.0f, 1e-6f);
}

TEST(Animation, EmptyTrackHasNoTransform) {
    EXPECT_FALSE(sampleTrack(BoneTrack{}, 0).has_value());
}

TEST(Animation, TrackInterpolatesAndClampsFrames) {
    BoneTrack t;
    t.positions = {{0, 0, 0}, {2, 4, 6}, {2, 4, 10}};
    const auto at = [&](double f) { return apply(*sampleTrack(t, f), {0, 0, 0}); };
    expectNear(at(0), {0, 0, 0});
    expectNear(at(0.25), {0.5f, 1, 1.5f});
    expectNear(at(1.5), {2, 4, 8});
    expectNear(at(2), {2, 4, 10});
    expectNear(at(7), {2, 4, 10});  // past the end: the last key
    expectNear(at(-3), {0, 0, 0});  // before the start: the first key
    expectNear(at(std::nan("")), {0, 0, 0});
}

TEST(Animation, TrackComposesTranslationRotationAndScale) {
    BoneTrack t;
    t.positions = {{1, 2, 3}};
    t.rotations = {axisAngle({0, 0, 1}, 90)};
    t.scales = {{2, 1, 1}};
    // Scale first (x doubled), then rotate (+X → +Y), then translate.
    expectNear(apply(*sampleTrack(t, 0), {1, 0, 0}), {1, 4, 3});
    expectNear(apply(*sampleTrack(t, 0), {0, 1, 0}), {0, 2, 3});
    // Channels of different lengths are each clamped to their own keys.
    t.rotations.push_back(axisAngle({0, 0, 1}, 180));
    expectNear(apply(*sampleTrack(t, 0.5), {1, 0, 0}),
               apply(translationMatrix({1, 2, 3}) * rotationZDegrees(135), {2, 0, 0}));
}

TEST(Animation, SkeletonPosedByAnimationPlacesBonesWhereTheTracksSay) {
    Skeleton s;
    s.bones.push_back(makeBone("Root", -1, translationMatrix({1, 0, 0})));
    s.bones.push_back(makeBone("Arm", 0, translationMatrix({1, 2, 0})));
    Animation anim;
    BoneTrack arm;
    arm.bone = "Arm";
    arm.positions = {{0, 2, 0}, {0, 4, 0}};  // parent-relative: bind, then 2 higher
    BoneTrack ghost;
    ghost.bone = "Tail";  // no such bone
    ghost.positions = {{9, 9, 9}};
    BoneTrack empty;
    empty.bone = "Root";
    anim.tracks = {arm, ghost, empty};

    Pose pose;
    EXPECT_EQ(sampleAnimation(anim, s, 0, pose), 1);
    ASSERT_EQ(pose.local.size(), 2u);
    expectNear(pose.local[0], Mat4::identity());
    expectNear(pose.local[1], Mat4::identity());  // the bind pose at frame 0

    EXPECT_EQ(sampleAnimation(anim, s, 0.5, pose), 1);
    expectNear(pose.local[1], translationMatrix({0, 1, 0}));
    const std::vector<Mat4> world = posedWorldTransforms(s, pose);
    expectNear(apply(world[1], {0, 0, 0}), {1, 3, 0});
    expectNear(apply(world[0], {0, 0, 0}), {1, 0, 0});
}

}  // namespace
}  // namespace meshscope
