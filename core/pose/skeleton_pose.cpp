// Bone poses: elementary rotations, the one FACS Euler order, the iterative bone order (with
// cycle and bad-parent detection), posed world transforms, skinning matrices and PoseEvaluator.
#include <cmath>
#include <numbers>

#include "meshscope/core/pose.h"

namespace meshscope {

namespace {

constexpr float kDegToRad = std::numbers::pi_v<float> / 180.0f;

// Rotation part (upper 3x3) of a column-major matrix from a row-major 3x3.
Mat4 fromRows(float r00, float r01, float r02, float r10, float r11, float r12, float r20,
              float r21, float r22) {
    Mat4 m;
    m.at(0, 0) = r00, m.at(0, 1) = r01, m.at(0, 2) = r02;
    m.at(1, 0) = r10, m.at(1, 1) = r11, m.at(1, 2) = r12;
    m.at(2, 0) = r20, m.at(2, 1) = r21, m.at(2, 2) = r22;
    return m;
}

const Mat4& localOf(const Pose& pose, std::size_t bone) {
    static const Mat4 kIdentity;
    return bone < pose.local.size() ? pose.local[bone] : kIdentity;
}

// world[i] = world[parent] * bindRelative(i) * local[i]; roots: bind[i] * local[i].
// `bindRelative` (inverse(bind[parent]) * bind[i]) is computed here when not cached.
void posedWorldImpl(const Skeleton& skeleton, const BoneOrder& order, const Pose& pose,
                    const std::vector<Mat4>* bindRelative, std::vector<Mat4>& out) {
    const auto& bones = skeleton.bones;
    out.resize(bones.size());
    for (int i : order.order) {
        const int p = order.parent[std::size_t(i)];
        const Mat4& local = localOf(pose, std::size_t(i));
        if (p < 0) {
            out[std::size_t(i)] = bones[std::size_t(i)].world * local;
        } else if (bindRelative) {
            out[std::size_t(i)] = out[std::size_t(p)] * (*bindRelative)[std::size_t(i)] * local;
        } else {
            const Mat4 rel = inverse(bones[std::size_t(p)].world) * bones[std::size_t(i)].world;
            out[std::size_t(i)] = out[std::size_t(p)] * rel * local;
        }
    }
}

Mat4 inverseBindOf(const Bone& bone) {
    return bone.inverseBind ? *bone.inverseBind : inverse(bone.world);
}

}  // namespace

Mat4 translationMatrix(const Vec3& t) {
    Mat4 m;
    m.at(0, 3) = t.x, m.at(1, 3) = t.y, m.at(2, 3) = t.z;
    return m;
}

Mat4 rotationXDegrees(float degrees) {
    const float c = std::cos(degrees * kDegToRad), s = std::sin(degrees * kDegToRad);
    return fromRows(1, 0, 0, 0, c, -s, 0, s, c);
}

Mat4 rotationYDegrees(float degrees) {
    const float c = std::cos(degrees * kDegToRad), s = std::sin(degrees * kDegToRad);
    return fromRows(c, 0, s, 0, 1, 0, -s, 0, c);
}

Mat4 rotationZDegrees(float degrees) {
    const float c = std::cos(degrees * kDegToRad), s = std::sin(degrees * kDegToRad);
    return fromRows(c, -s, 0, s, c, 0, 0, 0, 1);
}

Mat4 eulerXyzDegrees(const Vec3& d) {
    // Closed form of Rx * Ry * Rz (Roblox CFrame.fromEulerAnglesXYZ).
    const float cx = std::cos(d.x * kDegToRad), sx = std::sin(d.x * kDegToRad);
    const float cy = std::cos(d.y * kDegToRad), sy = std::sin(d.y * kDegToRad);
    const float cz = std::cos(d.z * kDegToRad), sz = std::sin(d.z * kDegToRad);
    return fromRows(cy * cz, -cy * sz, sy,                                     //
                    cx * sz + sx * sy * cz, cx * cz - sx * sy * sz, -sx * cy,  //
                    sx * sz - cx * sy * cz, sx * cz + cx * sy * sz, cx * cy);
}

Mat4 facsEulerToMatrix(const Vec3& degrees) {
    return eulerXyzDegrees(degrees);
}

BoneOrder boneOrder(const Skeleton& skeleton) {
    const std::size_t n = skeleton.bones.size();
    BoneOrder r;
    r.parent.resize(n);
    r.order.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const int p = skeleton.bones[i].parent;
        if (p >= 0 && std::size_t(p) >= n) r.invalidParents.push_back(int(i));
        r.parent[i] = (p >= 0 && std::size_t(p) < n) ? p : -1;
    }
    // 0 = not visited, 1 = on the chain being walked, 2 = placed in the order.
    std::vector<std::uint8_t> state(n, 0);
    std::vector<int> chain;
    for (std::size_t i = 0; i < n; ++i) {
        if (state[i] == 2) continue;
        for (;;) {
            chain.clear();
            int j = int(i);
            while (j >= 0 && state[std::size_t(j)] == 0) {
                state[std::size_t(j)] = 1;
                chain.push_back(j);
                j = r.parent[std::size_t(j)];
            }
            if (j >= 0 && state[std::size_t(j)] == 1) {
                // The chain came back to j: every bone from j to the chain's end is on the loop.
                // Report them, make j a root and walk again.
                std::size_t k = chain.size();
                while (k > 0 && chain[k - 1] != j) --k;
                for (std::size_t c = k - 1; c < chain.size(); ++c) r.cycleBones.push_back(chain[c]);
                r.parent[std::size_t(j)] = -1;
                for (int c : chain) state[std::size_t(c)] = 0;
                continue;
            }
            break;
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            state[std::size_t(*it)] = 2;
            r.order.push_back(*it);
        }
    }
    return r;
}

Pose Pose::bind(const Skeleton& skeleton) {
    Pose p;
    p.reset(skeleton.bones.size());
    return p;
}

bool poseBone(Pose& pose, int boneIndex, const Vec3& eulerDegrees, const Vec3& translation) {
    if (boneIndex < 0) return false;
    if (pose.local.size() <= std::size_t(boneIndex))
        pose.local.resize(std::size_t(boneIndex) + 1, Mat4::identity());
    Mat4 m = eulerXyzDegrees(eulerDegrees);
    m.at(0, 3) = translation.x, m.at(1, 3) = translation.y, m.at(2, 3) = translation.z;
    pose.local[std::size_t(boneIndex)] = m;
    return true;
}

void posedWorldTransforms(const Skeleton& skeleton, const BoneOrder& order, const Pose& pose,
                          std::vector<Mat4>& out) {
    posedWorldImpl(skeleton, order, pose, nullptr, out);
}

std::vector<Mat4> posedWorldTransforms(const Skeleton& skeleton, const Pose& pose) {
    std::vector<Mat4> out;
    posedWorldImpl(skeleton, boneOrder(skeleton), pose, nullptr, out);
    return out;
}

void skinningMatrices(const Skeleton& skeleton, std::span<const Mat4> posedWorld,
                      std::vector<Mat4>& out) {
    const std::size_t n = std::min(skeleton.bones.size(), posedWorld.size());
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = posedWorld[i] * inverseBindOf(skeleton.bones[i]);
}

std::vector<Mat4> skinningMatrices(const Skeleton& skeleton, const Pose& pose) {
    std::vector<Mat4> out;
    skinningMatrices(skeleton, posedWorldTransforms(skeleton, pose), out);
    return out;
}

// ---------------------------------------------------------------------------------------------

PoseEvaluator::PoseEvaluator(const Skeleton& skeleton, const FacsRig* facs)
    : skeleton_(skeleton), rig_(facs), order_(boneOrder(skeleton)) {
    const auto& bones = skeleton.bones;
    bindRelative_.resize(bones.size());
    inverseBind_.resize(bones.size());
    for (std::size_t i = 0; i < bones.size(); ++i) {
        const int p = order_.parent[i];
        if (p >= 0) bindRelative_[i] = inverse(bones[std::size_t(p)].world) * bones[i].world;
        inverseBind_[i] = inverseBindOf(bones[i]);
    }
    if (rig_) binding_ = bindFacs(*rig_, skeleton);
}

void PoseEvaluator::update(const Pose& pose, std::span<const float> controlWeights) {
    const std::size_t n = skeleton_.bones.size();
    combined_.local.assign(pose.local.begin(),
                           pose.local.begin() + std::ptrdiff_t(std::min(n, pose.local.size())));
    combined_.local.resize(n, Mat4::identity());
    if (rig_) {
        composeFacs(*rig_, controlWeights, facsPose_);
        applyFacs(facsPose_, binding_, combined_);
    }
    posedWorldImpl(skeleton_, order_, combined_, &bindRelative_, world_);
    skinning_.resize(n);
    for (std::size_t i = 0; i < n; ++i) skinning_[i] = world_[i] * inverseBind_[i];
}

void PoseEvaluator::skin(const Mesh& mesh, std::vector<Vec3>& outPositions,
                         std::vector<Vec3>* outNormals) const {
    skinVertices(mesh, skinning_, outPositions, outNormals);
}

}  // namespace meshscope
