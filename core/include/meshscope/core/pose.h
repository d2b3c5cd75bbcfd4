// Posing maths, pure and testable: bone poses and posed world transforms, linear blend skinning,
// Roblox FACS composition (control table, corrective weights, face-bone transforms), LOD choice
// and posed bounds. The renderer only applies what these functions compute.
//
// Conventions (the whole core):
//  - Mat4 is column-major and maps column vectors: p' = M * p.
//  - Euler angles are in degrees and follow Roblox's CFrame.fromEulerAnglesXYZ (= CFrame.Angles):
//    R = Rx * Ry * Rz. The FACS order is chosen in exactly one place, facsEulerToMatrix().
//  - A bone's pose is a local transform in the bone's own bind frame, like Roblox Bone.Transform
//    / Motor6D.Transform: identity is the bind pose.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "meshscope/core/asset.h"
#include "meshscope/core/types.h"

namespace meshscope {

// ---------------------------------------------------------------------------------------------
// Elementary transforms

Mat4 translationMatrix(const Vec3& t);
Mat4 rotationXDegrees(float degrees);
Mat4 rotationYDegrees(float degrees);
Mat4 rotationZDegrees(float degrees);
// Roblox CFrame.fromEulerAnglesXYZ(rx, ry, rz) in degrees: Rx * Ry * Rz.
Mat4 eulerXyzDegrees(const Vec3& degrees);

// THE FACS Euler order. The 2025 FileMesh document converts the summed FACS rotation with
// CFrame.fromEulerAnglesXYZ, i.e. R = Rx * Ry * Rz. The 2023 revision says "ZYX order" and one
// web renderer (steinann/RoAvatar-Renderer) uses YXZ; the later document stands. Change the
// order here and nowhere else (tests/core/pose/facs_test.cpp pins it).
Mat4 facsEulerToMatrix(const Vec3& degrees);

// ---------------------------------------------------------------------------------------------
// Skeleton topology and bone poses

// Parents before children, computed without recursion. A bone whose parent index is out of range
// is reported and treated as a root. A parent chain that loops is reported (every bone on the
// loop) and broken by making the bone where the walk came back a root; nothing loops.
struct BoneOrder {
    std::vector<int> order;           // every bone once, parents before children
    std::vector<int> parent;          // effective parent per bone (-1: root)
    std::vector<int> cycleBones;      // bones whose parent chain loops back on itself
    std::vector<int> invalidParents;  // bones whose parent index is not a bone index
    bool clean() const { return cycleBones.empty() && invalidParents.empty(); }
};
BoneOrder boneOrder(const Skeleton& skeleton);

// Per-bone local transforms applied in each bone's bind frame; empty or identity = bind pose.
struct Pose {
    std::vector<Mat4> local;
    // A bind pose sized for `skeleton`.
    static Pose bind(const Skeleton& skeleton);
    void reset(std::size_t boneCount) { local.assign(boneCount, Mat4::identity()); }
};

// Sets bone `boneIndex` to: translate by `translation` (in the bone's original frame), then
// rotate by the Euler angles (degrees, eulerXyzDegrees). Grows `pose` with identities when it is
// smaller than the bone index. Returns false for a negative index.
bool poseBone(Pose& pose, int boneIndex, const Vec3& eulerDegrees, const Vec3& translation = {});

// Posed world (model-space) transform of every bone:
//   world[i] = world[parent] * inverse(bind[parent]) * bind[i] * local[i]
// so a bone with an identity pose keeps its bind transform relative to its parent.
// `out` is resized to the bone count; no allocation when it is already big enough.
void posedWorldTransforms(const Skeleton& skeleton, const BoneOrder& order, const Pose& pose,
                          std::vector<Mat4>& out);
std::vector<Mat4> posedWorldTransforms(const Skeleton& skeleton, const Pose& pose);

// Bind → posed matrices for skinning: posedWorld[i] * inverseBind[i], where inverseBind is
// Bone::inverseBind when the file stores one, else inverse(Bone::world).
void skinningMatrices(const Skeleton& skeleton, std::span<const Mat4> posedWorld,
                      std::vector<Mat4>& out);
std::vector<Mat4> skinningMatrices(const Skeleton& skeleton, const Pose& pose);

// ---------------------------------------------------------------------------------------------
// Linear blend skinning

// Skins `mesh` with one matrix per bone. Per vertex the matrices of its (up to four) influences
// are blended by weight, normalised by the weight sum; a vertex whose weights sum to zero (or
// that has no influence entry) keeps its bind position. An influence whose joint has no matrix
// is ignored. Normals use the blended matrix's linear part (exact for rotation and uniform
// scale) and are renormalised. The outputs are resized to the vertex count: reuse them across
// calls and nothing is allocated. Non-finite input vertices stay non-finite.
void skinVertices(const Mesh& mesh, std::span<const Mat4> matrices, std::vector<Vec3>& outPositions,
                  std::vector<Vec3>* outNormals = nullptr);

// Bounds of posed positions (non-finite points are ignored).
Bounds boundsOf(std::span<const Vec3> positions);
// Skins `mesh` into a temporary buffer (allocates) and returns the posed bounds; an unskinned
// mesh gives its bind bounds.
Bounds posedBounds(const Mesh& mesh, std::span<const Mat4> matrices);

// Bounds of a skinned mesh under many poses without skinning it each time (an animation's
// sweep, for framing it): per joint, the bind-pose box of the vertices it influences.
struct InfluenceBoxes {
    std::vector<Bounds> joints;  // by joint index; invalid for a joint that moves no vertex
    Bounds unmoved;              // vertices no joint moves (weight sum 0, or no influence entry)
    bool exact = false;          // a negative weight: influenceBounds skins the mesh instead
};
InfluenceBoxes influenceBoxes(const Mesh& mesh);
// Contains every position skinVertices(mesh, matrices) gives: each joint's box with its matrix
// applied (a vertex is blended from its joints' images of it, which lie in their images of the
// boxes), plus the unmoved box. Boxes of joints without a matrix are added as they are (such a
// vertex keeps its bind position when no other joint moves it). Looser than posedBounds, at the
// cost of 8 corners a joint.
Bounds influenceBounds(const InfluenceBoxes& boxes, const Mesh& mesh,
                       std::span<const Mat4> matrices);

// ---------------------------------------------------------------------------------------------
// FACS control names

enum class FacsGroup : std::uint8_t { Brows, Eyes, Cheeks, Lips, Jaw, Tongue, Nose, Other };
std::string_view facsGroupName(FacsGroup group);  // "brows", "eyes" ...

struct FacsControlInfo {
    std::string_view abbreviation;  // as stored in the FACS blob: "c_JD"
    std::string_view name;          // the FaceControls property: "JawDrop"
    FacsGroup group;
};

// The 50 standard controls, in the order of the 2025 document's table.
std::span<const FacsControlInfo> facsControlTable();
// Looks a control up by abbreviation or full name (exact first, then ignoring case).
const FacsControlInfo* findFacsControl(std::string_view abbreviationOrName);
// The full name of a rig control ("c_JD" → "JawDrop"), or the stored name when not in the table.
std::string_view facsDisplayName(std::string_view storedName);
// Index of a base control of `rig` named by abbreviation or full name, or -1.
int findRigControl(const FacsRig& rig, std::string_view abbreviationOrName);

// ---------------------------------------------------------------------------------------------
// FACS composition (2025 document, "Composing the Data into CFrames")

// One weight per corrective of `rig` (two-pose first, then three-pose, as stored): the product
// of its member controls' weights. `controlWeights` holds one weight per base control; missing
// entries are 0, as is a member index that names no control.
std::vector<float> correctiveWeights(const FacsRig& rig, std::span<const float> controlWeights);
// Weights of every matrix column: base controls, then correctives.
void columnWeights(const FacsRig& rig, std::span<const float> controlWeights,
                   std::vector<float>& out);

struct FacsBoneTransform {
    Vec3 position;   // Σ weight × (px, py, pz), in the bone's original frame
    Vec3 rotation;   // Σ weight × (rx, ry, rz), degrees
    Mat4 transform;  // translationMatrix(position) * facsEulerToMatrix(rotation)
};

// One entry per face bone (row) of the rig, in FacsRig::boneNames order.
struct FacsBonePose {
    std::vector<float> columnWeights;  // weight of every column used (controls, correctives)
    std::vector<FacsBoneTransform> bones;
};

// Sums each column's position and rotation scaled by its weight, per face bone, and converts the
// totals into a transform (the document: keep vectors until the end, never multiply CFrames).
// A rig whose channel arrays are smaller than rows × cols contributes only what is there.
void composeFacs(const FacsRig& rig, std::span<const float> controlWeights, FacsBonePose& out);
FacsBonePose composeFacs(const FacsRig& rig, std::span<const float> controlWeights);

// Face bones are matched to a skeleton by name. Face bones that the skeleton lacks are
// unmatched: normal for heads whose face bones live in the avatar's skeleton, not an error.
struct FacsBinding {
    std::vector<int> boneOfRow;          // skeleton bone per face-bone row; -1 when unmatched
    std::vector<std::string> unmatched;  // names of the unmatched face bones
};
FacsBinding bindFacs(const FacsRig& rig, const Skeleton& skeleton);

// Which face bones move vertices of `mesh` (skinned to `skeleton`), and so which controls change
// it: a head can carry a whole rig with every vertex weighted to Head (a real v5 head does), and
// then its sliders change nothing.
struct FacsWeightReport {
    // Per face-bone row: vertices with a weight on its skeleton bone; -1 when the skeleton has
    // no bone of that name (it lives in the avatar's skeleton).
    std::vector<std::int64_t> weightedVertices;
    std::size_t bonesInSkeleton = 0, bonesWithoutVertices = 0;  // of those in the skeleton
    // Base controls that move face bones (0.001 studs or 0.05 degrees: real rigs store noise
    // of 0.0004 on bones a control leaves alone), none of which moves a vertex. Only controls
    // whose bones are all in the skeleton count: the others may move the avatar's.
    std::vector<int> stillControls;
};
FacsWeightReport facsWeightReport(const FacsRig& rig, const Skeleton& skeleton, const Mesh& mesh);

// Applies composed face-bone transforms to a pose: local[bone] = local[bone] * facs transform
// (a user pose first, then FACS, both in the bone's frame). Grows `pose` when needed.
void applyFacs(const FacsBonePose& facs, const FacsBinding& binding, Pose& pose);

// ---------------------------------------------------------------------------------------------
// Animation sampling. A BoneTrack stores one key per frame for each channel it has; a fractional
// frame interpolates positions and scales linearly and rotations by nlerp (the shorter arc),
// frames clamped to the track's range.

// Rotation matrix of quaternion `q` (xyzw), normalised first; identity when `q` is zero or not
// finite.
Mat4 quaternionMatrix(const Vec4& q);
// Normalised linear interpolation from `a` (t = 0) to `b` (t = 1) along the shorter arc (`b`
// negated when a·b < 0). Unit result; `a` when both are zero.
Vec4 nlerp(const Vec4& a, const Vec4& b, float t);
// The parent-relative transform T(position) · R(rotation) · S(scale) of `track` at fractional
// `frame`; nullopt when the track stores no key.
std::optional<Mat4> sampleTrack(const BoneTrack& track, double frame);
// `pose` (reset to the skeleton's bone count) set to `animation` at fractional `frame`: each track
// names a bone (Skeleton::find) and gives its parent-relative transform; the pose holds it
// relative to the bind transform (so posedWorldTransforms places the bone where the track says).
// Returns the number of tracks applied (tracks of unknown bones and empty tracks are skipped).
int sampleAnimation(const Animation& animation, const Skeleton& skeleton, double frame, Pose& pose);

// ---------------------------------------------------------------------------------------------
// LOD choice

// Distance-based choice. With r = cameraDistance / meshRadius (distance in mesh radii):
//   r <  firstSwitch                     → LOD 0
//   r >= firstSwitch × factor^(k - 1)    → LOD k (k ≥ 1), clamped to the last level
// Defaults: LOD 1 from 8 radii, LOD 2 from 16, LOD 3 from 32 ... A level without triangles falls
// back to the nearest finer level that has some. `pinned` ≥ 0 forces that level (clamped).
// Invalid inputs (no levels, non-finite or non-positive radius, NaN distance) give LOD 0.
struct LodOptions {
    float firstSwitch = 8.0f;
    float factor = 2.0f;
    int pinned = -1;
};
int chooseLod(const Mesh& mesh, float cameraDistance, float meshRadius,
              const LodOptions& options = {});

// ---------------------------------------------------------------------------------------------
// One posed frame, reusable: caches the bone order, the FACS binding and every output buffer, so
// an update allocates nothing after the first. Holds references: the skeleton, rig and mesh must
// outlive it.

class PoseEvaluator {
public:
    // `facs` may be null (no face rig).
    PoseEvaluator(const Skeleton& skeleton, const FacsRig* facs = nullptr);

    const BoneOrder& order() const { return order_; }
    const FacsBinding& facsBinding() const { return binding_; }

    // `pose` (user bone poses) then FACS from `controlWeights` (one per base control of the rig)
    // → world and skinning matrices.
    void update(const Pose& pose, std::span<const float> controlWeights = {});
    // Skins `mesh` with the matrices of the last update.
    void skin(const Mesh& mesh, std::vector<Vec3>& outPositions,
              std::vector<Vec3>* outNormals = nullptr) const;

    const std::vector<Mat4>& world() const { return world_; }
    const std::vector<Mat4>& skinning() const { return skinning_; }
    const FacsBonePose& facs() const { return facsPose_; }

private:
    const Skeleton& skeleton_;
    const FacsRig* rig_;
    BoneOrder order_;
    FacsBinding binding_;
    std::vector<Mat4> bindRelative_;  // inverse(bind[parent]) * bind[i]
    std::vector<Mat4> inverseBind_;   // Bone::inverseBind or inverse(bind)
    Pose combined_;
    FacsBonePose facsPose_;
    std::vector<Mat4> world_;
    std::vector<Mat4> skinning_;
};

}  // namespace meshscope
