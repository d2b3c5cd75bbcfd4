// CurveAnimation (issue #23): ValuesAndTimes parsing of hand-built blobs (and every truncation of
// one), float curve sampling against hand-computed values, a hand-built CurveAnimation put on a
// Motor6D rig and baked, and the curves of the MaximumADHD UnitTest place in both encodings.
#include <cmath>
#include <cstring>
#include <numbers>

#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_animation.h"
#include "pose_test_util.h"
#include "support/rig_fixtures.h"
#include "support/test_support.h"

using namespace meshscope;
using meshscope::test::cframeAt;
using meshscope::test::expectNear;
using meshscope::test::prop;
using meshscope::test::twoPartRig;

namespace {

struct Key {
    std::uint8_t mode;
    std::uint8_t flags;
    float value, left, right;
    std::uint32_t ticks;
};

void putU32(Bytes& b, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(std::uint8_t(v >> (8 * i)));
}
void putF32(Bytes& b, float f) {
    std::uint32_t v;
    std::memcpy(&v, &f, 4);
    putU32(b, v);
}

Bytes floatCurve(const std::vector<Key>& keys) {
    Bytes b;
    putU32(b, 1);
    putU32(b, std::uint32_t(keys.size()));
    for (const Key& k : keys) {
        b.push_back(k.mode);
        b.push_back(k.flags);
        putF32(b, k.value);
        putF32(b, k.left);
        putF32(b, k.right);
    }
    putU32(b, 1);
    putU32(b, std::uint32_t(keys.size()));
    for (const Key& k : keys) putU32(b, k.ticks);
    return b;
}

TEST(CurveValuesAndTimes, EmptyCurveAsInTheCorpus) {
    // AQAAAAAAAAABAAAAAAAAAA== : header 1, no values, header 1, no times.
    const Bytes empty = {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    const CurveParse p = parseCurveValuesAndTimes(empty, false);
    EXPECT_TRUE(p.keys.empty());
    EXPECT_TRUE(p.warnings.empty());
    EXPECT_TRUE(parseCurveValuesAndTimes(empty, true).warnings.empty());
}

TEST(CurveValuesAndTimes, KeysAndTicks) {
    // Listed out of order; 3600 ticks = 1.5 s at 2400 ticks a second.
    const Bytes b = floatCurve({{1, 0, 5, 0, 0, 3600}, {2, 3, 1, -1, 2, 0}});
    const CurveParse p = parseCurveValuesAndTimes(b, false);
    EXPECT_TRUE(p.warnings.empty()) << p.warnings.front();
    ASSERT_EQ(p.keys.size(), 2u);
    EXPECT_FLOAT_EQ(p.keys[0].time, 0.0f);
    EXPECT_EQ(p.keys[0].interpolation, KeyInterpolation::Cubic);
    EXPECT_TRUE(p.keys[0].hasLeftTangent && p.keys[0].hasRightTangent);
    EXPECT_FLOAT_EQ(p.keys[0].leftTangent, -1.0f);
    EXPECT_FLOAT_EQ(p.keys[0].rightTangent, 2.0f);
    EXPECT_FLOAT_EQ(p.keys[1].time, 1.5f);
    EXPECT_FLOAT_EQ(p.keys[1].value, 5.0f);
    EXPECT_EQ(p.keys[1].interpolation, KeyInterpolation::Linear);
    // A tangent whose flag is clear reads as 0.
    const CurveParse q = parseCurveValuesAndTimes(floatCurve({{2, 1, 0, 7, 9, 0}}), false);
    ASSERT_EQ(q.keys.size(), 1u);
    EXPECT_FLOAT_EQ(q.keys[0].leftTangent, 7.0f);
    EXPECT_FLOAT_EQ(q.keys[0].rightTangent, 0.0f);
}

TEST(CurveValuesAndTimes, Markers) {
    Bytes b;
    putU32(b, 1);
    putU32(b, 2);
    for (const char* s : {"Step", "Jump"}) b.insert(b.end(), s, s + std::strlen(s) + 1);
    putU32(b, 1);
    putU32(b, 2);
    putU32(b, 4800);
    putU32(b, 1200);
    const CurveParse p = parseCurveValuesAndTimes(b, true);
    EXPECT_TRUE(p.warnings.empty());
    ASSERT_EQ(p.markers.size(), 2u);
    EXPECT_EQ(p.markers[0].value, "Jump");
    EXPECT_FLOAT_EQ(p.markers[0].time, 0.5f);
    EXPECT_EQ(p.markers[1].value, "Step");
    EXPECT_FLOAT_EQ(p.markers[1].time, 2.0f);
}

TEST(CurveValuesAndTimes, DamagedBlobsWarnWithOffsets) {
    const Bytes good = floatCurve({{1, 0, 0, 0, 0, 0}, {1, 0, 1, 0, 0, 2400}});
    // Every truncation: no crash, fewer keys, a warning naming a byte offset.
    for (std::size_t n = 1; n < good.size(); ++n) {
        const Bytes cut(good.begin(), good.begin() + std::ptrdiff_t(n));
        const CurveParse p = parseCurveValuesAndTimes(cut, false, 1000);
        EXPECT_FALSE(p.warnings.empty()) << n;
        EXPECT_LT(p.keys.size(), 2u) << n;
        if (!p.warnings.empty()) {
            EXPECT_NE(p.warnings.front().find("file offset 10"), std::string::npos)
                << p.warnings.front();
        }
    }
    // A huge count is refused before allocating.
    Bytes huge = good;
    huge[4] = huge[5] = huge[6] = huge[7] = 0xff;
    const CurveParse h = parseCurveValuesAndTimes(huge, false);
    EXPECT_FALSE(h.warnings.empty());
    EXPECT_LE(h.keys.size(), 2u);
    // Time count disagreeing with the values, and an unknown interpolation mode.
    Bytes odd = floatCurve({{7, 0, 0, 0, 0, 0}});
    odd[good.size() > 0 ? 4 + 14 + 4 : 0] = 2;  // time count 2 for 1 value
    const CurveParse o = parseCurveValuesAndTimes(odd, false);
    EXPECT_GE(o.warnings.size(), 2u);
    ASSERT_EQ(o.keys.size(), 1u);
    EXPECT_EQ(o.keys[0].interpolation, KeyInterpolation::Linear);
    // A marker without its NUL.
    Bytes m;
    putU32(m, 1);
    putU32(m, 1);
    m.push_back('A');
    m.push_back('B');
    m.push_back('C');
    m.push_back('D');
    m.push_back('E');
    EXPECT_FALSE(parseCurveValuesAndTimes(m, true).warnings.empty());
}

CurveKey key(float t, float v, KeyInterpolation mode, float left = 0, float right = 0) {
    CurveKey k;
    k.time = t, k.value = v, k.interpolation = mode;
    k.leftTangent = left, k.rightTangent = right;
    k.hasLeftTangent = k.hasRightTangent = true;
    return k;
}

TEST(FloatCurveSampling, ConstantLinearCubic) {
    using K = KeyInterpolation;
    EXPECT_FLOAT_EQ(sampleFloatCurve({}, 1.0f), 0.0f);
    const std::vector<CurveKey> lin = {key(0, 0, K::Linear), key(2, 4, K::Linear)};
    EXPECT_FLOAT_EQ(sampleFloatCurve(lin, 0.5f), 1.0f);
    EXPECT_FLOAT_EQ(sampleFloatCurve(lin, -1.0f), 0.0f);  // before the first key
    EXPECT_FLOAT_EQ(sampleFloatCurve(lin, 9.0f), 4.0f);   // after the last
    const std::vector<CurveKey> con = {key(0, 3, K::Constant), key(1, 5, K::Linear)};
    EXPECT_FLOAT_EQ(sampleFloatCurve(con, 0.99f), 3.0f);
    EXPECT_FLOAT_EQ(sampleFloatCurve(con, 1.0f), 5.0f);
    // Hermite over [0, 1], p0 = 0, p1 = 1, m0 = 2 (right of the first), m1 = 0 (left of the
    // second). s = 0.5: h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125 → 0.125·2 + 0.5 = 0.75.
    const std::vector<CurveKey> cub = {key(0, 0, K::Cubic, 99, 2), key(1, 1, K::Cubic, 0, 99)};
    EXPECT_NEAR(sampleFloatCurve(cub, 0.5f), 0.75f, 1e-6f);
    // Over [0, 2] the slopes are per second: s = 0.25 → h10 = 0.140625, h01 = 0.15625,
    // h00 = 0.84375; 0.140625 · 2 · 2 + 0.15625 = 0.71875.
    const std::vector<CurveKey> cub2 = {key(0, 0, K::Cubic, 0, 2), key(2, 1, K::Cubic, 0, 0)};
    EXPECT_NEAR(sampleFloatCurve(cub2, 0.5f), 0.71875f, 1e-6f);
    // Zero tangents: smoothstep, 0.5 at the middle.
    const std::vector<CurveKey> flat = {key(0, 0, K::Cubic), key(1, 1, K::Cubic)};
    EXPECT_NEAR(sampleFloatCurve(flat, 0.5f), 0.5f, 1e-6f);
    EXPECT_NEAR(sampleFloatCurve(flat, 0.25f), 0.15625f, 1e-6f);
}

// CurveAnimation > Torso > Arm: Position X 0 → 2 and Rotation Z 0 → π/2, both linear over 1 s;
// Torso > FaceControls > JawDrop; a MarkerCurve.
Asset curveAnimation(Asset a = {}, const char* armName = "Arm") {
    a.format = "roblox-model";
    const int anim = a.addNode("Swing", "CurveAnimation");
    a.addProperty(anim, prop("Loop", "bool", true));
    a.addProperty(anim, prop("Priority", "token", std::int64_t(2)));
    const int torso = a.addNode("Torso", "Folder", anim);
    const int arm = a.addNode(armName, "Folder", torso);
    const auto curve = [&](int parent, const char* name, Bytes bytes) {
        const int c = a.addNode(name, "FloatCurve", parent);
        a.addProperty(c, prop("ValuesAndTimes", "BinaryString", std::move(bytes)));
        return c;
    };
    const int pos = a.addNode("Position", "Vector3Curve", arm);
    curve(pos, "X", floatCurve({{1, 0, 0, 0, 0, 0}, {1, 0, 2, 0, 0, 2400}}));
    curve(pos, "Y", floatCurve({}));
    const int rot = a.addNode("Rotation", "EulerRotationCurve", arm);
    a.addProperty(rot, prop("RotationOrder", "token", std::int64_t(0)));
    curve(rot, "Z",
          floatCurve({{1, 0, 0, 0, 0, 0}, {1, 0, std::numbers::pi_v<float> / 2, 0, 0, 2400}}));
    const int face = a.addNode("FaceControls", "Folder", torso);
    curve(face, "JawDrop", floatCurve({{1, 0, 0, 0, 0, 0}, {1, 0, 1, 0, 0, 1200}}));
    const int marker = a.addNode("Events", "MarkerCurve", anim);
    Bytes mb;
    putU32(mb, 1);
    putU32(mb, 1);
    mb.insert(mb.end(), {'H', 'i', 0});
    putU32(mb, 1);
    putU32(mb, 1);
    putU32(mb, 600);
    a.addProperty(marker, prop("ValuesAndTimes", "BinaryString", mb));
    return a;
}

TEST(CurveAnimation, ReadsFoldersAndCurves) {
    const auto anims = extractCurveAnimations(curveAnimation());
    ASSERT_EQ(anims.size(), 1u);
    const CurveAnimation& c = anims[0];
    EXPECT_EQ(c.name, "Swing");
    EXPECT_TRUE(c.loop);
    EXPECT_EQ(c.priority, 2);
    EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
    ASSERT_EQ(c.joints.size(), 1u);  // Torso has no curves of its own
    EXPECT_EQ(c.joints[0].joint, "Arm");
    EXPECT_EQ(c.joints[0].parent, "Torso");
    EXPECT_TRUE(c.joints[0].hasPosition && c.joints[0].hasRotation);
    ASSERT_EQ(c.faceControls.size(), 1u);
    EXPECT_EQ(c.faceControls[0].name, "JawDrop");
    EXPECT_EQ(c.faceControls[0].parent, "Torso");
    ASSERT_EQ(c.markers.size(), 1u);
    EXPECT_EQ(c.markers[0].value, "Hi");
    EXPECT_FLOAT_EQ(c.markers[0].time, 0.25f);
    EXPECT_FLOAT_EQ(c.length, 1.0f);
    EXPECT_EQ(c.keyTimes, (std::vector<float>{0.0f, 0.5f, 1.0f}));  // union, JawDrop's 0.5 too
    EXPECT_FLOAT_EQ(curveAnimationTime(c, 1.25f), 0.25f);
    // At 0.5 s: translation (1, 0, 0), 45° about Z.
    const Mat4 t = sampleCurveJoint(c.joints[0], 0.5f);
    expectNear(t, translationMatrix({1, 0, 0}) * rotationZDegrees(45));
}

TEST(CurveAnimation, RotationOrders) {
    CurveJoint j;
    j.hasRotation = true;
    const float angles[3] = {0.3f, -0.7f, 1.1f};
    for (int a = 0; a < 3; ++a) j.rotation[a] = {key(0, angles[a], KeyInterpolation::Linear)};
    const float d = 180 / std::numbers::pi_v<float>;
    j.rotationOrder = 0;  // XYZ = CFrame.fromEulerAnglesXYZ
    expectNear(sampleCurveJoint(j, 0),
               eulerXyzDegrees({angles[0] * d, angles[1] * d, angles[2] * d}));
    j.rotationOrder = 3;  // YXZ = CFrame.fromOrientation's order: Ry · Rx · Rz
    expectNear(sampleCurveJoint(j, 0), rotationYDegrees(angles[1] * d) *
                                           rotationXDegrees(angles[0] * d) *
                                           rotationZDegrees(angles[2] * d));
}

TEST(CurveAnimation, OnRigAndBaked) {
    const Asset rigAsset = twoPartRig();
    const RobloxRig rig = extractRobloxRig(rigAsset);
    const auto anims = extractCurveAnimations(curveAnimation());
    RigSample sample;
    sampleCurvesOnRig(anims.at(0), rig, 0.5f, sample);
    EXPECT_TRUE(sample.unmatchedTracks.empty());
    EXPECT_TRUE(sample.unanimatedJoints.empty());
    // Arm origin = C0 · T · C1⁻¹ · 0 = (0,1,0) + (1,0,0) + Rz45 (0,1,0).
    const float h = std::sqrt(0.5f);
    const auto world = posedRigWorld(rig, sample.jointTransforms);
    expectNear(transformPoint(world[1], {}), {1 - h, 1 + h, 0});

    const Animation baked = bakeCurveAnimation(anims[0], rig, 0, 30);
    EXPECT_EQ(baked.frameCount, 31u);
    EXPECT_EQ(baked.keyTimes, anims[0].keyTimes);
    EXPECT_TRUE(baked.loop);
    ASSERT_EQ(baked.tracks.size(), 2u);
    expectNear(baked.tracks[1].positions[15], {1 - h, 1 + h, 0});
    expectNear(baked.tracks[1].positions[30], {1, 1, 0});  // 90°: (0,1,0) → (-1,0,0)

    // A model holding both: baked by the decode hook and linked from the CurveAnimation node.
    Asset both = curveAnimation(twoPartRig());
    ASSERT_EQ(addRobloxRigAndAnimations(both), 0);
    ASSERT_EQ(both.animations.size(), 1u);
    EXPECT_EQ(both.animations[0].name, "Swing");
    expectNear(both.animations[0].tracks[1].positions[15], {1 - h, 1 + h, 0});
    EXPECT_EQ(both.links(extractCurveAnimations(both).at(0).node).animation, 0);

    // A folder naming no part is reported.
    const Asset other = curveAnimation({}, "Leg");
    sampleCurvesOnRig(extractCurveAnimations(other).at(0), rig, 0.5f, sample);
    EXPECT_EQ(sample.unmatchedTracks, std::vector<std::string>{"Leg"});
}

// ------------------------------------------------------------------------------------------
// RotationCurve: 25-byte keys (u8 12 + mode, quaternion xyzw, left, right), then the times.

struct RotKey {
    std::uint8_t modeByte;  // 12 + KeyInterpolationMode as written
    Vec4 q;
    float left, right;
    std::uint32_t ticks;
};

Bytes rotationCurve(const std::vector<RotKey>& keys) {
    Bytes b;
    putU32(b, 1);
    putU32(b, std::uint32_t(keys.size()));
    for (const RotKey& k : keys) {
        b.push_back(k.modeByte);
        for (float f : {k.q.x, k.q.y, k.q.z, k.q.w, k.left, k.right}) putF32(b, f);
    }
    putU32(b, 1);
    putU32(b, std::uint32_t(keys.size()));
    for (const RotKey& k : keys) putU32(b, k.ticks);
    return b;
}

// A quarter turn about Z: (0, 0, sin 45°, cos 45°).
const float kS45 = std::sqrt(0.5f);

TEST(RotationCurveValuesAndTimes, KeysAndTicks) {
    // Out of order; the second quaternion is stored unnormalised (length 2).
    const Bytes b = rotationCurve(
        {{13, {0, 0, 2 * kS45, 2 * kS45}, 0, 0, 2400}, {14, {0, 0, 0, 1}, 0.5f, -3, 0}});
    EXPECT_EQ(b.size(), 8u + 2 * 25 + 8 + 2 * 4);
    const RotationCurveParse p = parseRotationValuesAndTimes(b);
    EXPECT_TRUE(p.warnings.empty()) << p.warnings.front();
    ASSERT_EQ(p.keys.size(), 2u);
    EXPECT_FLOAT_EQ(p.keys[0].time, 0.0f);
    EXPECT_EQ(p.keys[0].interpolation, KeyInterpolation::Cubic);
    EXPECT_FLOAT_EQ(p.keys[0].leftTangent, 0.5f);
    EXPECT_FLOAT_EQ(p.keys[0].rightTangent, -3.0f);
    EXPECT_FLOAT_EQ(p.keys[1].time, 1.0f);
    EXPECT_EQ(p.keys[1].interpolation, KeyInterpolation::Linear);
    EXPECT_NEAR(p.keys[1].value.z, kS45, 1e-6f);
    EXPECT_NEAR(p.keys[1].value.w, kS45, 1e-6f);
    // The empty blob of the corpus.
    const Bytes empty = {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    const RotationCurveParse e = parseRotationValuesAndTimes(empty);
    EXPECT_TRUE(e.keys.empty());
    EXPECT_TRUE(e.warnings.empty());
}

TEST(RotationCurveValuesAndTimes, DamagedBlobsWarnWithOffsets) {
    const Bytes good =
        rotationCurve({{13, {0, 0, 0, 1}, 0, 0, 0}, {13, {0, 0, kS45, kS45}, 0, 0, 2400}});
    for (std::size_t n = 1; n < good.size(); ++n) {
        const Bytes cut(good.begin(), good.begin() + std::ptrdiff_t(n));
        const RotationCurveParse p = parseRotationValuesAndTimes(cut, 500);
        EXPECT_FALSE(p.warnings.empty()) << n;
        EXPECT_LT(p.keys.size(), 2u) << n;
        if (!p.warnings.empty()) {
            EXPECT_NE(p.warnings.front().find("file offset 5"), std::string::npos)
                << p.warnings.front();
        }
    }
    Bytes huge = good;
    huge[4] = huge[5] = huge[6] = huge[7] = 0xff;
    const RotationCurveParse h = parseRotationValuesAndTimes(huge);
    EXPECT_FALSE(h.warnings.empty());
    EXPECT_NE(h.warnings.front().find("at byte 4 "), std::string::npos) << h.warnings.front();
    EXPECT_LE(h.keys.size(), 2u);
    // Unknown interpolation byte → Linear; a zero quaternion → identity; both warned at the key.
    const RotationCurveParse o = parseRotationValuesAndTimes(
        rotationCurve({{40, {0, 0, 0, 1}, 0, 0, 0}, {13, {0, 0, 0, 0}, 0, 0, 2400}}));
    ASSERT_EQ(o.keys.size(), 2u);
    EXPECT_EQ(o.keys[0].interpolation, KeyInterpolation::Linear);
    EXPECT_EQ(o.keys[1].value, (Vec4{0, 0, 0, 1}));
    ASSERT_EQ(o.warnings.size(), 2u);
    EXPECT_NE(o.warnings[0].find("at byte 8 "), std::string::npos) << o.warnings[0];
    EXPECT_NE(o.warnings[1].find("at byte 34 "), std::string::npos) << o.warnings[1];  // 8+25+1
}

TEST(RotationCurveValuesAndTimes, EveryByteDamagedStaysFiniteAndBounded) {
    const Bytes good =
        rotationCurve({{13, {0, 0, 0, 1}, 0, 0, 0}, {14, {0, 0, kS45, kS45}, 1, 2, 2400}});
    for (std::size_t i = 0; i < good.size(); ++i)
        for (std::uint8_t v : {std::uint8_t(0x00), std::uint8_t(0x7f), std::uint8_t(0xff)}) {
            Bytes bad = good;
            bad[i] = v;
            const RotationCurveParse p = parseRotationValuesAndTimes(bad);
            ASSERT_LE(p.keys.size(), 2u) << i;
            for (const RotationCurveKey& k : p.keys) {
                EXPECT_TRUE(std::isfinite(k.time)) << i;
                EXPECT_TRUE(std::isfinite(k.leftTangent) && std::isfinite(k.rightTangent)) << i;
                const float n = k.value.x * k.value.x + k.value.y * k.value.y +
                                k.value.z * k.value.z + k.value.w * k.value.w;
                EXPECT_NEAR(n, 1.0f, 1e-5f) << i;
            }
            const Vec4 q = sampleRotationCurve(p.keys, 0.5f);
            EXPECT_TRUE(std::isfinite(q.x) && std::isfinite(q.w)) << i;
        }
}

RotationCurveKey rkey(float t, float zDegrees, KeyInterpolation mode, float left = 0,
                      float right = 0) {
    RotationCurveKey k;
    const float h = zDegrees * std::numbers::pi_v<float> / 360;
    k.time = t, k.value = {0, 0, std::sin(h), std::cos(h)}, k.interpolation = mode;
    k.leftTangent = left, k.rightTangent = right;
    return k;
}

// The angle about Z of a quaternion (x = y = 0), in degrees.
float zDegreesOf(Vec4 q) {
    EXPECT_NEAR(q.x, 0, 1e-6f);
    EXPECT_NEAR(q.y, 0, 1e-6f);
    return 2 * std::atan2(q.z, q.w) * 180 / std::numbers::pi_v<float>;
}

TEST(RotationCurveSampling, ConstantLinearCubic) {
    using K = KeyInterpolation;
    EXPECT_EQ(sampleRotationCurve({}, 1.0f), (Vec4{0, 0, 0, 1}));
    const std::vector<RotationCurveKey> lin = {rkey(0, 0, K::Linear), rkey(1, 90, K::Linear)};
    EXPECT_NEAR(zDegreesOf(sampleRotationCurve(lin, 0.5f)), 45.0f, 1e-4f);   // slerp halfway
    EXPECT_NEAR(zDegreesOf(sampleRotationCurve(lin, 0.25f)), 22.5f, 1e-4f);  // constant speed
    EXPECT_NEAR(zDegreesOf(sampleRotationCurve(lin, -1.0f)), 0.0f, 1e-4f);
    EXPECT_NEAR(zDegreesOf(sampleRotationCurve(lin, 3.0f)), 90.0f, 1e-4f);
    const std::vector<RotationCurveKey> con = {rkey(0, 30, K::Constant), rkey(2, 90, K::Linear)};
    EXPECT_NEAR(zDegreesOf(sampleRotationCurve(con, 1.99f)), 30.0f, 1e-4f);
    EXPECT_NEAR(zDegreesOf(sampleRotationCurve(con, 2.0f)), 90.0f, 1e-4f);
    // Cubic, zero tangents: smoothstep fraction 3s² − 2s³; s = 0.25 → 0.15625 · 90° = 14.0625°.
    const std::vector<RotationCurveKey> flat = {rkey(0, 0, K::Cubic), rkey(1, 90, K::Cubic)};
    EXPECT_NEAR(zDegreesOf(sampleRotationCurve(flat, 0.25f)), 14.0625f, 1e-3f);
    // Out-tangent 2 over a 1 s span: s = 0.5 → 0.5 + 0.125 · 2 = 0.75 → 67.5°.
    const std::vector<RotationCurveKey> cub = {rkey(0, 0, K::Cubic, 0, 2), rkey(1, 90, K::Cubic)};
    EXPECT_NEAR(zDegreesOf(sampleRotationCurve(cub, 0.5f)), 67.5f, 1e-3f);
    // The shorter arc: 350° is −10°, so halfway from 0 is −5°.
    const std::vector<RotationCurveKey> wrap = {rkey(0, 0, K::Linear), rkey(1, 350, K::Linear)};
    EXPECT_NEAR(zDegreesOf(sampleRotationCurve(wrap, 0.5f)), -5.0f, 1e-3f);
}

TEST(CurveAnimation, RotationCurveDrivesTheJoint) {
    // As curveAnimation(), the Arm's rotation a RotationCurve 0 → 90° about Z (Linear, 1 s).
    Asset a = twoPartRig();
    const int anim = a.addNode("Turn", "CurveAnimation");
    const int torso = a.addNode("Torso", "Folder", anim);
    const int arm = a.addNode("Arm", "Folder", torso);
    const int pos = a.addNode("Position", "Vector3Curve", arm);
    const int x = a.addNode("X", "FloatCurve", pos);
    a.addProperty(x, prop("ValuesAndTimes", "BinaryString",
                          floatCurve({{1, 0, 0, 0, 0, 0}, {1, 0, 2, 0, 0, 2400}})));
    const int rot = a.addNode("Rotation", "RotationCurve", arm);
    a.addProperty(
        rot,
        prop("ValuesAndTimes", "BinaryString",
             rotationCurve({{13, {0, 0, 0, 1}, 0, 0, 0}, {13, {0, 0, kS45, kS45}, 0, 0, 2400}})));
    const auto anims = extractCurveAnimations(a);
    ASSERT_EQ(anims.size(), 1u);
    const CurveAnimation& c = anims[0];
    EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
    ASSERT_EQ(c.joints.size(), 1u);
    EXPECT_TRUE(c.joints[0].quaternionRotation);
    EXPECT_EQ(c.joints[0].rotationKeys.size(), 2u);
    EXPECT_EQ(c.keyTimes, (std::vector<float>{0.0f, 1.0f}));
    expectNear(sampleCurveJoint(c.joints[0], 0.5f),
               translationMatrix({1, 0, 0}) * rotationZDegrees(45));
    // On the rig: Arm origin = (0,1,0) + (1,0,0) + Rz45 (0,1,0), as with Euler curves.
    const RobloxRig rig = extractRobloxRig(a);
    RigSample sample;
    sampleCurvesOnRig(c, rig, 0.5f, sample);
    const float h = std::sqrt(0.5f);
    expectNear(transformPoint(posedRigWorld(rig, sample.jointTransforms)[1], {}),
               {1 - h, 1 + h, 0});
    // Baked by the decode hook: frame 30 is the quarter turn.
    ASSERT_EQ(addRobloxRigAndAnimations(a), 0);
    ASSERT_EQ(a.animations.size(), 1u);
    expectNear(a.animations[0].tracks[1].positions[30], {1, 1, 0});
    // A damaged blob is a warning with the curve's path, not a failure.
    Bytes cut = rotationCurve({{13, {0, 0, 0, 1}, 0, 0, 0}});
    cut.resize(20);
    Asset d;
    const int anim2 = d.addNode("Bad", "CurveAnimation");
    const int arm2 = d.addNode("Arm", "Folder", anim2);
    const int rot2 = d.addNode("Rotation", "RotationCurve", arm2);
    d.addProperty(rot2, prop("ValuesAndTimes", "BinaryString", cut));
    const auto bad = extractCurveAnimations(d);
    ASSERT_FALSE(bad.at(0).warnings.empty());
    EXPECT_NE(bad[0].warnings[0].find("Arm/Rotation: 1 rotation keys do not fit in the 12 bytes"),
              std::string::npos)
        << bad[0].warnings[0];
}

TEST(CurveValuesAndTimes, ValueHeaderTwoAsCurrentStudioWrites) {
    Bytes b = floatCurve({{1, 0, 4, 0, 0, 1200}});
    b[0] = 2;
    const CurveParse p = parseCurveValuesAndTimes(b, false);
    EXPECT_TRUE(p.warnings.empty()) << p.warnings.front();
    ASSERT_EQ(p.keys.size(), 1u);
    EXPECT_FLOAT_EQ(p.keys[0].time, 0.5f);
    b[0] = 3;
    EXPECT_EQ(parseCurveValuesAndTimes(b, false).warnings.size(), 1u);
}

// ------------------------------------------------------------------------------------------
// Real files: the UnitTest place holds a CurveAnimation and one of each curve class (no keys).

Bytes curveBytes(const Asset& a, int node) {
    const auto p = a.property(node, "ValuesAndTimes");
    if (!p) return {};
    if (const auto* b = std::get_if<Bytes>(&p->value)) return *b;
    if (const auto* s = std::get_if<std::string>(&p->value)) return Bytes(s->begin(), s->end());
    return {};
}

struct CurveCensus {
    std::vector<std::string> kinds;  // curve class per curve node, in node order
    std::vector<Bytes> blobs;
    std::size_t keys = 0, warnings = 0;
};

CurveCensus census(const Asset& a) {
    CurveCensus c;
    for (std::size_t n = 0; n < a.nodes.size(); ++n) {
        const std::string_view kind = a.kind(int(n));
        if (kind != "FloatCurve" && kind != "MarkerCurve" && kind != "RotationCurve") continue;
        c.kinds.emplace_back(kind);
        c.blobs.push_back(curveBytes(a, int(n)));
        if (kind == "RotationCurve") {
            const RotationCurveParse r = parseRotationValuesAndTimes(c.blobs.back());
            c.keys += r.keys.size();
            c.warnings += r.warnings.size();
            continue;
        }
        const CurveParse p = parseCurveValuesAndTimes(c.blobs.back(), kind == "MarkerCurve");
        c.keys += p.keys.size() + p.markers.size();
        c.warnings += p.warnings.size();
    }
    return c;
}

TEST(CurveAnimationCorpus, UnitTestPlaceBinaryAndXmlAgree) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const DecodeResult bin = decodeFile(
        (corpus / "rbxm/MaximumADHD_Roblox-File-Format/UnitTest/Files/Binary.rbxl").string());
    const DecodeResult xml = decodeFile(
        (corpus / "rbxmx/MaximumADHD_Roblox-File-Format/UnitTest/Files/Xml.rbxlx").string());
    ASSERT_TRUE(bin.ok());
    ASSERT_TRUE(xml.ok());
    const auto ab = extractCurveAnimations(bin.asset);
    const auto ax = extractCurveAnimations(xml.asset);
    ASSERT_EQ(ab.size(), 1u);
    ASSERT_EQ(ax.size(), 1u);
    for (const CurveAnimation* c : {&ab[0], &ax[0]}) {
        EXPECT_EQ(c->name, "Instance");
        EXPECT_TRUE(c->loop);
        EXPECT_EQ(c->priority, 2);
        EXPECT_TRUE(c->joints.empty());
        EXPECT_TRUE(c->warnings.empty());
        EXPECT_FLOAT_EQ(c->length, 0.0f);
    }
    const CurveCensus cb = census(bin.asset), cx = census(xml.asset);
    EXPECT_EQ(cb.kinds, (std::vector<std::string>{"FloatCurve", "MarkerCurve", "RotationCurve"}));
    EXPECT_EQ(cb.kinds, cx.kinds);
    EXPECT_EQ(cb.blobs, cx.blobs);  // the same bytes in both encodings
    const Bytes empty = {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    for (const Bytes& b : cb.blobs) EXPECT_EQ(b, empty);
    EXPECT_EQ(cb.keys, 0u);
    EXPECT_EQ(cb.warnings, 0u);
}

}  // namespace
