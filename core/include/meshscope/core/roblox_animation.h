// Roblox rigs and KeyframeSequence animations (issue #23), pure functions over an Asset:
//  - a rig: parts joined by Motor6D (Part0, Part1, C0, C1, Transform), or, for a character with no
//    joints yet (Rbx2Source's R15 CharacterBase), the joints Humanoid:BuildRigFromAttachments
//    would make from matching "...RigAttachment" pairs; it becomes a Skeleton with one bone per
//    part (named after the part, as animations name their Poses);
//  - a KeyframeSequence: Keyframes (Time) holding Pose trees (CFrame, Weight, EasingStyle,
//    EasingDirection), gathered into one track per joint name;
//  - sampling at a time with the engine's easing styles, and the pose that puts on a rig.
// No Qt; nothing here throws.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "meshscope/core/asset.h"
#include "meshscope/core/pose.h"

namespace meshscope {

// ---------------------------------------------------------------------------------------------
// CFrame helpers

// The CFrame as a column-major matrix: rotation rows R00..R22, translation in the last column.
Mat4 cframeMatrix(const CFrame& cf);
// Inverse of a CFrame's matrix (rigid).
Mat4 inverseRigid(const Mat4& m);
// Unit quaternion (x, y, z, w) of a rotation matrix's 3x3 part, and back.
Vec4 quaternionOf(const Mat4& m);
Mat4 quaternionMatrix(const Vec4& q);
// Spherical interpolation along the shorter arc; alpha outside [0, 1] extrapolates (Elastic and
// Bounce overshoot). Normalised result.
Vec4 slerp(Vec4 a, Vec4 b, float alpha);
// Position lerp and rotation slerp of two rigid matrices (CFrame:Lerp).
Mat4 lerpRigid(const Mat4& a, const Mat4& b, float alpha);

// ---------------------------------------------------------------------------------------------
// Rigs

struct RigJoint {
    std::string name;     // the Motor6D's name, or the attachment name less "RigAttachment"
    int motorNode = -1;   // the Motor6D (or Motor) node; -1 when built from attachments
    int part0Node = -1;   // Asset node of Part0 (the parent side)
    int part1Node = -1;   // Asset node of Part1 (the driven part)
    int bone = -1;        // RobloxRig::skeleton bone of Part1
    int parentBone = -1;  // bone of Part0
    Mat4 c0, c1;          // C0, C1 (attachment CFrames when built from attachments)
    Mat4 transform;       // Motor6D.Transform when the file stores one, else identity
};

struct RobloxRig {
    // One bone per part in the rig, named after the part. Bone::world is the bind placement the
    // joints give: the root at its part's CFrame, then world[Part1] = world[Part0] * C0 * C1⁻¹
    // (Transform not applied), parents before children.
    Skeleton skeleton;
    std::vector<int> partNodeOfBone;   // Asset node per bone
    std::vector<int> jointOfBone;      // RigJoint index per bone, -1 for a root
    std::vector<Vec3> partSizeOfBone;  // Size of each bone's part (studs), for bounds
    std::vector<RigJoint> joints;
    bool fromAttachments = false;       // joints were built from RigAttachment pairs
    std::vector<std::string> warnings;  // a part driven twice, a joint whose part is missing ...

    bool empty() const { return skeleton.bones.empty(); }
};

// The rig of a Roblox model. Motor6D/Motor joints when there are any; else RigAttachment pairs
// walked from the root part (HumanoidRootPart, else the part with an unpaired
// RootRigAttachment, else Torso/LowerTorso). A part driven by a second joint keeps the first and
// is warned about; a joint that would close a loop is dropped with a warning. Roots are the rig
// parts no joint drives. Empty when the asset is no Roblox model or has no joints.
RobloxRig extractRobloxRig(const Asset& asset);

// The local bone pose (in the bone's bind frame, see pose.h) for a Motor6D Transform on joint
// `joint`: Part1 = Part0 * C0 * T * C1⁻¹ gives local = C1 * T * C1⁻¹.
Mat4 jointLocalFromTransform(const RigJoint& joint, const Mat4& transform);

// Posed world matrix of every bone for Motor6D transforms (one per joint; a joint past the end
// of `jointTransforms` keeps its stored Transform).
// The bounds of the posed parts' boxes (partSizeOfBone) are returned in `bounds` when given.
std::vector<Mat4> posedRigWorld(const RobloxRig& rig, const std::vector<Mat4>& jointTransforms,
                                Bounds* bounds = nullptr);

// ---------------------------------------------------------------------------------------------
// Easing (Enum.PoseEasingStyle / Enum.PoseEasingDirection values as stored)

enum class PoseEasingStyle : std::uint8_t {
    Linear = 0,
    Constant = 1,
    Elastic = 2,
    Cubic = 3,  // deprecated: its In and Out are the other way round from CubicV2
    Bounce = 4,
    CubicV2 = 5,
};
enum class PoseEasingDirection : std::uint8_t { In = 0, Out = 1, InOut = 2 };

const char* poseEasingStyleName(PoseEasingStyle style);
const char* poseEasingDirectionName(PoseEasingDirection direction);

// Eased alpha for linear progress `t` in [0, 1] (clamped). Pose directions are backwards from
// TweenService (Roblox documents this): Pose Out is TweenService In (the curve f applied
// forward), Pose In is TweenService Out (1 - f(1 - t)), InOut the two halves back to back.
// f: Cubic t³; Elastic 2^(10(t-1)) · -sin((t - 1 - p/4) · 2π/p), p = 0.3; Bounce 1 - bounceOut(1-t)
// with Penner's bounceOut. Constant gives 0 before t = 1 (the pose holds until the next
// keyframe). Legacy Cubic swaps In and Out relative to CubicV2.
float poseEase(PoseEasingStyle style, PoseEasingDirection direction, float t);

// ---------------------------------------------------------------------------------------------
// KeyframeSequence

struct PoseKey {
    float time = 0;
    Mat4 cframe;  // the Motor6D Transform at that time
    float weight = 1;
    PoseEasingStyle style = PoseEasingStyle::Linear;
    PoseEasingDirection direction = PoseEasingDirection::In;
    int node = -1;  // the Pose node
};

struct PoseTrack {
    std::string joint;          // Pose name = the name of the driven part (Part1)
    std::string parent;         // name of the enclosing Pose ("" at the top)
    std::vector<PoseKey> keys;  // by time; keys of Weight 0 are left out (placeholders)
};

// FACS in a KeyframeSequence (as the Animation Editor saves face animation): NumberPoses
// (Value, and PoseBase's Weight / EasingStyle / EasingDirection) in a Folder "FaceControls" that
// is a child of the Head Pose, named after the FACS control they drive (Roblox documents the
// place; values are clamped into [0, 1] when applied).
struct NumberPoseKey {
    float time = 0;
    float value = 0;
    float weight = 1;
    PoseEasingStyle style = PoseEasingStyle::Linear;
    PoseEasingDirection direction = PoseEasingDirection::In;
    int node = -1;  // the NumberPose node
};
struct NumberPoseTrack {
    std::string name;                 // the FACS control, as the NumberPose names it
    std::string parent;               // the Pose holding the FaceControls folder (Head)
    std::vector<NumberPoseKey> keys;  // by time; Weight-0 NumberPoses left out, as Poses
};

struct KeyframeSequence {
    std::string name;
    int node = -1;
    bool loop = false;
    int priority = 0;                  // Enum.AnimationPriority as stored
    float length = 0;                  // time of the last keyframe
    std::vector<float> keyframeTimes;  // sorted, one per Keyframe
    std::vector<PoseTrack> tracks;
    std::vector<NumberPoseTrack> faceControls;  // NumberPoses under FaceControls folders
    std::vector<std::string> warnings;          // non-finite times, too deep Pose nesting ...

    int findTrack(std::string_view joint) const;
};

// Every KeyframeSequence of the asset, in node order.
std::vector<KeyframeSequence> extractKeyframeSequences(const Asset& asset);

// The time `time` maps to: wrapped into [0, length) for a looping sequence, clamped into
// [0, length] otherwise (and 0 for a non-finite time or a zero length).
float sequenceTime(const KeyframeSequence& sequence, float time);

// A track's transform at `time` (already through sequenceTime): before the first key the first
// key's CFrame, after the last the last's; between keys a and b, lerpRigid(a, b,
// poseEase(a.style, a.direction, progress)). Identity for a track without keys.
Mat4 sampleTrack(const PoseTrack& track, float time);

// A NumberPose track at `time`, eased like sampleTrack (value lerp by poseEase of the earlier
// key's style and direction), unclamped. 0 for a track without keys.
float sampleNumberPoseTrack(const NumberPoseTrack& track, float time);
// Every FaceControls track at `time` (already through sequenceTime), clamped into [0, 1]:
// (control name as the NumberPose names it, weight), in track order.
std::vector<std::pair<std::string, float>> sampleFaceControls(const KeyframeSequence& sequence,
                                                              float time);

// The sequence put on a rig at `time`: one Motor6D transform per rig joint (identity for a joint
// no track drives), and which tracks matched no joint.
struct RigSample {
    std::vector<Mat4> jointTransforms;
    // Keyed tracks that name no rig part.
    std::vector<std::string> unmatchedTracks;
    // Keyed tracks on a root part (HumanoidRootPart): no joint drives a root, so they move
    // nothing, as in the engine.
    std::vector<std::string> rootTracks;
    std::vector<std::string> unanimatedJoints;  // rig joints (by Part1 name) no track drives
    float time = 0;                             // the sequence time sampled
};
// Track ↔ joint matching by the name of the joint's Part1 (exact).
void sampleOnRig(const KeyframeSequence& sequence, const RobloxRig& rig, float time,
                 RigSample& out);

// ---------------------------------------------------------------------------------------------
// CurveAnimation
//
// A CurveAnimation holds Folders named after the rig parts, nested like the Pose tree (root part
// outermost). A part's folder may hold a Vector3Curve "Position" and an EulerRotationCurve
// "Rotation", each with FloatCurve children X, Y, Z (or a RotationCurve "Rotation" holding
// quaternion keys itself); a Folder "FaceControls" holds
// one FloatCurve per FACS control; MarkerCurves hold named markers. Every curve stores its keys
// in the BinaryString ValuesAndTimes:
//   u32 header (1 in the corpus), u32 valueCount, values[valueCount],
//   u32 header (1), u32 timeCount (= valueCount), u32 times[timeCount] in ticks.
// A FloatCurve value is 14 bytes: u8 KeyInterpolationMode (0 Constant, 1 Linear, 2 Cubic),
// u8 flags (bit 0 LeftTangent set, bit 1 RightTangent set), f32 value, f32 left, f32 right.
// A MarkerCurve value is a NUL-terminated string. Current Studio writes value header 2 for
// FloatCurve / MarkerCurve (1 in the corpus's older files); both are read.
// A RotationCurve (value header 1) value is 25 bytes: u8 12 + KeyInterpolationMode, f32
// quaternion x, y, z, w (the key's CFrame rotation), f32 LeftTangent, f32 RightTangent (written
// as 0 when unset; no flags byte). Source: rbx-dom docs/binary-strings.md in pull request #657
// (open, 2026-07); no keyed RotationCurve from Studio was available to check it against.
// Times are signed (i32) ticks.

// Key times are stored in ticks of 1/2400 s. Public readers write it two ways: one divides by
// 2400; another reads the time count as three bytes (u16 + u8) — so its u32 times start one byte
// early and are 256 × larger — and divides by 65536 · 9.375 = 614400 = 2400 · 256: the same
// scale. The corpus curves (MaximumADHD UnitTest Binary.rbxl / Xml.rbxlx) hold no keys, so
// the choice rests on that agreement — and on rbx-dom's ValuesAndTimes notes (pull request #657:
// seconds × 2400, rounded, as i32); a test pins the 16-byte empty layout of the corpus.
inline constexpr double kCurveTicksPerSecond = 2400;

enum class KeyInterpolation : std::uint8_t { Constant = 0, Linear = 1, Cubic = 2 };
const char* keyInterpolationName(KeyInterpolation mode);

struct CurveKey {
    float time = 0;  // seconds
    float value = 0;
    KeyInterpolation interpolation = KeyInterpolation::Linear;
    bool hasLeftTangent = false, hasRightTangent = false;
    float leftTangent = 0, rightTangent = 0;  // slopes in value units per second
};

struct CurveMarker {
    float time = 0;
    std::string value;
};

// Parse one ValuesAndTimes blob. `marker` selects MarkerCurve values (strings). Never throws:
// a short or inconsistent blob keeps the keys read so far and adds warnings naming the byte
// offset inside the blob (plus `baseOffset`, the blob's offset in the file when known).
// Keys come back sorted by time. Counts are checked against the bytes left before allocating.
struct CurveParse {
    std::vector<CurveKey> keys;
    std::vector<CurveMarker> markers;
    std::vector<std::string> warnings;
};
CurveParse parseCurveValuesAndTimes(std::span<const std::uint8_t> bytes, bool marker,
                                    std::uint64_t baseOffset = 0);

struct RotationCurveKey {
    float time = 0;          // seconds
    Vec4 value{0, 0, 0, 1};  // unit quaternion (x, y, z, w)
    KeyInterpolation interpolation = KeyInterpolation::Linear;
    float leftTangent = 0, rightTangent = 0;
};
struct RotationCurveParse {
    std::vector<RotationCurveKey> keys;  // by time
    std::vector<std::string> warnings;
};
// Parse a RotationCurve's ValuesAndTimes, with the guarantees of parseCurveValuesAndTimes.
// Quaternions are normalised (a zero or non-finite one becomes identity with a warning).
RotationCurveParse parseRotationValuesAndTimes(std::span<const std::uint8_t> bytes,
                                               std::uint64_t baseOffset = 0);

// Progress through a key segment for its mode: Constant 0, Linear s, Cubic the Hermite spline
// from 0 to 1 with end slopes outTangent / inTangent (per second, scaled by `span`).
float curveSegmentAlpha(KeyInterpolation mode, float s, float span, float outTangent,
                        float inTangent);

// A RotationCurve at `time`: clamped outside the keys; Constant holds a; Linear slerps a → b
// (shorter arc); Cubic slerps by curveSegmentAlpha with a.rightTangent and b.leftTangent — how
// the engine uses scalar tangents on rotations is not documented, this reading (tangents as
// the slope of the slerp fraction per second, 0 → smoothstep) is our assumption. Identity for no
// keys.
Vec4 sampleRotationCurve(const std::vector<RotationCurveKey>& keys, float time);

// A FloatCurve at `time` (seconds): before the first key its value, after the last key the
// last value; between keys a and b by a's mode — Constant holds a, Linear lerps, Cubic is the
// Hermite spline through a and b with slopes a.rightTangent and b.leftTangent (0 when unset)
// scaled by the span b.time − a.time. 0 for a curve without keys.
float sampleFloatCurve(const std::vector<CurveKey>& keys, float time);

struct CurveJoint {
    std::string joint;   // the folder name = the driven part (Part1)
    std::string parent;  // the enclosing folder's name ("" at the top)
    int node = -1;       // the Folder node
    bool hasPosition = false, hasRotation = false;
    std::vector<CurveKey> position[3];  // X, Y, Z (studs)
    std::vector<CurveKey> rotation[3];  // X, Y, Z Euler angles (radians)
    int rotationOrder = 0;              // Enum.RotationOrder: XYZ XZY YZX YXZ ZXY ZYX
    // A RotationCurve "Rotation" (quaternion keys) instead of an EulerRotationCurve.
    bool quaternionRotation = false;
    std::vector<RotationCurveKey> rotationKeys;
};

struct CurveFloatTrack {
    std::string name;    // FACS control (FaceControls) or the curve's name
    std::string parent;  // enclosing part folder
    std::vector<CurveKey> keys;
};

struct CurveAnimation {
    std::string name;
    int node = -1;
    bool loop = false;
    int priority = 0;
    float length = 0;             // time of the last key over every curve
    std::vector<float> keyTimes;  // sorted union of every joint curve's key times
    std::vector<CurveJoint> joints;
    std::vector<CurveFloatTrack> faceControls;
    std::vector<CurveFloatTrack> floatCurves;  // other FloatCurves (not X/Y/Z, not FACS)
    std::vector<CurveMarker> markers;          // every MarkerCurve's markers, by time
    std::vector<std::string> warnings;

    int findJoint(std::string_view joint) const;
};

// Every CurveAnimation of the asset, in node order (folder walk iterative, depth cap 256).
std::vector<CurveAnimation> extractCurveAnimations(const Asset& asset);

// Loop wrap / clamp as sequenceTime.
float curveAnimationTime(const CurveAnimation& animation, float time);

// The Motor6D Transform a joint's curves give at `time`: translation (X, Y, Z) times the Euler
// rotation composed in RotationOrder (XYZ = Rx · Ry · Rz, as CFrame.fromEulerAngles), or the
// RotationCurve's quaternion (sampleRotationCurve).
Mat4 sampleCurveJoint(const CurveJoint& joint, float time);

// Every FaceControls curve at `time` (already through curveAnimationTime), clamped into [0, 1]:
// (control name as the curve names it, weight), in curve order.
std::vector<std::pair<std::string, float>> sampleFaceControls(const CurveAnimation& animation,
                                                              float time);

// As sampleOnRig for a CurveAnimation (joints matched by folder name = Part1 name).
void sampleCurvesOnRig(const CurveAnimation& animation, const RobloxRig& rig, float time,
                       RigSample& out);

// ---------------------------------------------------------------------------------------------
// Into the Asset

// Appends `rig`'s skeleton to asset.skeletons and links every rig part node and every Motor6D
// node to its bone (NodeLinks::skeleton / bone), so that tree views and the Skeleton dock list
// it. Returns the skeleton index, or -1 for an empty rig.
int addRigSkeleton(Asset& asset, const RobloxRig& rig);

// `sequence` sampled on `rig` at `framesPerSecond` (frames 0 .. ceil(length · fps), the last at
// the length) into an Animation: one BoneTrack per rig bone holding the bone's transform
// relative to its parent bone (C0 · T · C1⁻¹; a root its bind placement), as Unigine .sanim
// tracks hold them. Positions, rotations (quaternion xyzw) and unit scales every frame. Its
// FaceControls NumberPoses become Animation::facsChannels; an empty rig gives a face-only
// animation.
Animation bakeKeyframeSequence(const KeyframeSequence& sequence, const RobloxRig& rig,
                               int skeletonIndex, float framesPerSecond = 30);
// The same for a CurveAnimation; keyTimes = the union of its joint curves' key times. Its
// FaceControls curves become Animation::facsChannels (one weight per frame). An empty rig gives
// a face-only animation (no bone tracks).
Animation bakeCurveAnimation(const CurveAnimation& animation, const RobloxRig& rig,
                             int skeletonIndex, float framesPerSecond = 30);

// For a decoded Roblox model: its rig as a skeleton (addRigSkeleton) and every
// KeyframeSequence it holds baked on that rig (bakeKeyframeSequence, linked from the sequence
// node). Looks for Motor6D/Motor nodes or RigAttachments first and does nothing without them,
// so a place without characters costs one pass over its node kinds. Returns the skeleton index
// or -1.
int addRobloxRigAndAnimations(Asset& asset);

// Puts the animations of another file (`source`) on `target`, for export and posing:
//  - Roblox KeyframeSequences, then CurveAnimations, of `source` are baked (bakeKeyframeSequence /
//    bakeCurveAnimation, `framesPerSecond`) on the Roblox rig of `target` (its rig skeleton, the
//    one decode added, or a new one through addRigSkeleton); tracks match joints by part name;
//    Without a rig, CurveAnimations holding FaceControls curves and KeyframeSequences holding
//    FaceControls NumberPoses are baked face-only (FACS weight channels, no bone tracks) when
//    `target` has a FACS rig (a FACS head);
//  - otherwise `source`'s own Asset::animations (Unigine .sanim / .anim, .smesh frames) are copied
//    onto the skeleton of `target` whose bone names most of their tracks name.
// Tracks that name no joint are counted (one warning per animation). Never throws; nothing is
// added when `error` is set.
struct AnimationTransfer {
    std::size_t added = 0;            // animations appended to target.animations
    std::size_t firstAdded = 0;       // index of the first of them
    std::size_t tracks = 0;           // keyed tracks over every added animation
    std::size_t unmatchedTracks = 0;  // of those, naming no joint / bone of the target
    std::vector<std::string> warnings;
    std::string error;  // why nothing was added (no animation, no rig, no matching skeleton)
    bool ok() const { return error.empty(); }
};
AnimationTransfer addAnimationsFrom(Asset& target, const Asset& source, float framesPerSecond = 30);

}  // namespace meshscope
