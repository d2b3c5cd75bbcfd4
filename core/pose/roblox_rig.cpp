// Roblox rigs (issue #23): Motor6D joints, or BuildRigFromAttachments-style joints from matching
// RigAttachment pairs, turned into a Skeleton with one bone per part; CFrame helpers.
#include <algorithm>
#include <cmath>
#include <deque>

#include "meshscope/core/roblox_animation.h"
#include "meshscope/core/roblox_parts.h"

namespace meshscope {

// ---------------------------------------------------------------------------------------------
// CFrame helpers

Mat4 cframeMatrix(const CFrame& cf) {
    Mat4 m;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) m.at(r, c) = cf.rotation[std::size_t(r * 3 + c)];
    m.at(0, 3) = cf.position.x, m.at(1, 3) = cf.position.y, m.at(2, 3) = cf.position.z;
    return m;
}

Mat4 inverseRigid(const Mat4& m) {
    Mat4 out;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) out.at(r, c) = m.at(c, r);
    for (int r = 0; r < 3; ++r)
        out.at(r, 3) =
            -(out.at(r, 0) * m.at(0, 3) + out.at(r, 1) * m.at(1, 3) + out.at(r, 2) * m.at(2, 3));
    return out;
}

Vec4 quaternionOf(const Mat4& m) {
    const float m00 = m.at(0, 0), m11 = m.at(1, 1), m22 = m.at(2, 2);
    const float trace = m00 + m11 + m22;
    Vec4 q;
    if (trace > 0) {
        const float s = std::sqrt(trace + 1.0f) * 2;
        q = {(m.at(2, 1) - m.at(1, 2)) / s, (m.at(0, 2) - m.at(2, 0)) / s,
             (m.at(1, 0) - m.at(0, 1)) / s, 0.25f * s};
    } else if (m00 > m11 && m00 > m22) {
        const float s = std::sqrt(std::max(0.0f, 1.0f + m00 - m11 - m22)) * 2;
        q = {0.25f * s, (m.at(0, 1) + m.at(1, 0)) / s, (m.at(0, 2) + m.at(2, 0)) / s,
             (m.at(2, 1) - m.at(1, 2)) / s};
    } else if (m11 > m22) {
        const float s = std::sqrt(std::max(0.0f, 1.0f + m11 - m00 - m22)) * 2;
        q = {(m.at(0, 1) + m.at(1, 0)) / s, 0.25f * s, (m.at(1, 2) + m.at(2, 1)) / s,
             (m.at(0, 2) - m.at(2, 0)) / s};
    } else {
        const float s = std::sqrt(std::max(0.0f, 1.0f + m22 - m00 - m11)) * 2;
        q = {(m.at(0, 2) + m.at(2, 0)) / s, (m.at(1, 2) + m.at(2, 1)) / s, 0.25f * s,
             (m.at(1, 0) - m.at(0, 1)) / s};
    }
    const float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(n > 0) || !std::isfinite(n)) return {0, 0, 0, 1};
    return {q.x / n, q.y / n, q.z / n, q.w / n};
}

// quaternionMatrix: core/pose/animation.cpp (declared in pose.h and roblox_animation.h).

Vec4 slerp(Vec4 a, Vec4 b, float alpha) {
    float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    if (d < 0) b = {-b.x, -b.y, -b.z, -b.w}, d = -d;
    d = std::min(d, 1.0f);
    Vec4 r;
    if (d > 0.9995f) {  // nearly the same rotation: lerp, then normalise
        r = {a.x + (b.x - a.x) * alpha, a.y + (b.y - a.y) * alpha, a.z + (b.z - a.z) * alpha,
             a.w + (b.w - a.w) * alpha};
    } else {
        const float theta = std::acos(d), s = std::sin(theta);
        const float wa = std::sin((1 - alpha) * theta) / s, wb = std::sin(alpha * theta) / s;
        r = {a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb};
    }
    const float n = std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
    if (!(n > 0) || !std::isfinite(n)) return a;
    return {r.x / n, r.y / n, r.z / n, r.w / n};
}

Mat4 lerpRigid(const Mat4& a, const Mat4& b, float alpha) {
    Mat4 m = quaternionMatrix(slerp(quaternionOf(a), quaternionOf(b), alpha));
    for (int r = 0; r < 3; ++r) m.at(r, 3) = a.at(r, 3) + (b.at(r, 3) - a.at(r, 3)) * alpha;
    return m;
}

// ---------------------------------------------------------------------------------------------
// Rigs

namespace {

std::optional<Mat4> cframeProperty(const Asset& asset, int node, std::string_view name) {
    const auto v = asset.propertyValue(node, name);
    if (!v) return std::nullopt;
    if (const auto* cf = std::get_if<CFrame>(&*v)) return cframeMatrix(*cf);
    return std::nullopt;
}

int refProperty(const Asset& asset, int node, std::string_view name) {
    const auto v = asset.propertyValue(node, name);
    if (!v) return -1;
    if (const auto* r = std::get_if<NodeRef>(&*v)) return r->node;
    return -1;
}

constexpr std::string_view kRigSuffix = "RigAttachment";

struct Candidate {
    std::string name;
    int motor = -1;
    int part0 = -1, part1 = -1;
    Mat4 c0, c1, transform;
};

// Joints from RigAttachment pairs, walked breadth first from `root` (a part index).
std::vector<Candidate> attachmentJoints(
    const Asset& asset, const std::vector<RobloxPart>& parts,
    std::vector<std::vector<std::pair<std::string, Mat4>>>& rigAttachments, int& root) {
    root = -1;
    for (std::size_t i = 0; i < parts.size(); ++i)
        if (asset.name(parts[i].node) == "HumanoidRootPart") root = int(i);
    auto hasAttachment = [&](std::size_t part, std::string_view name) {
        for (const auto& [n, m] : rigAttachments[part])
            if (n == name) return true;
        return false;
    };
    if (root < 0) {  // the part with a RootRigAttachment that no other part shares
        for (std::size_t i = 0; i < parts.size() && root < 0; ++i) {
            if (!hasAttachment(i, "RootRigAttachment")) continue;
            bool shared = false;
            for (std::size_t j = 0; j < parts.size(); ++j)
                if (j != i && hasAttachment(j, "RootRigAttachment")) shared = true;
            if (!shared) root = int(i);
        }
    }
    for (std::string_view name : {"LowerTorso", "Torso"})
        for (std::size_t i = 0; i < parts.size() && root < 0; ++i)
            if (asset.name(parts[i].node) == name && !rigAttachments[i].empty()) root = int(i);
    std::vector<Candidate> joints;
    if (root < 0) return joints;
    std::vector<bool> visited(parts.size(), false);
    std::deque<std::size_t> queue{std::size_t(root)};
    visited[std::size_t(root)] = true;
    while (!queue.empty()) {
        const std::size_t p = queue.front();
        queue.pop_front();
        for (const auto& [name, c0] : rigAttachments[p]) {
            for (std::size_t q = 0; q < parts.size(); ++q) {
                if (visited[q]) continue;
                for (const auto& [otherName, c1] : rigAttachments[q]) {
                    if (otherName != name) continue;
                    Candidate c;
                    c.name = name.substr(0, name.size() - kRigSuffix.size());
                    c.part0 = int(p), c.part1 = int(q), c.c0 = c0, c.c1 = c1;
                    joints.push_back(std::move(c));
                    visited[q] = true;
                    queue.push_back(q);
                    break;
                }
            }
        }
    }
    return joints;
}

}  // namespace

RobloxRig extractRobloxRig(const Asset& asset) {
    RobloxRig rig;
    if (!isRobloxModel(asset)) return rig;
    const std::vector<RobloxPart> parts = extractRobloxPartPlacements(asset, true);
    // The part index of each node (-1: not a part); the first part of a node wins.
    std::vector<int> partOfNode(asset.nodes.size(), -1);
    for (std::size_t i = parts.size(); i-- > 0;)
        if (parts[i].node >= 0 && std::size_t(parts[i].node) < partOfNode.size())
            partOfNode[std::size_t(parts[i].node)] = int(i);
    const auto partOf = [&](int node) {
        return node >= 0 && std::size_t(node) < partOfNode.size() ? partOfNode[std::size_t(node)]
                                                                  : -1;
    };

    // The motor classes, by kind id (0: no node of that class).
    const std::uint32_t motor6d = asset.kinds.find("Motor6D"), motor = asset.kinds.find("Motor");
    std::vector<Candidate> candidates;
    for (std::size_t n = 0; n < asset.nodes.size() && (motor6d || motor); ++n) {
        const std::uint32_t kind = asset.nodes[n].kindId;
        if (kind == 0 || (kind != motor6d && kind != motor)) continue;
        Candidate c;
        c.name = std::string(asset.name(int(n)));
        c.motor = int(n);
        const int n0 = refProperty(asset, int(n), "Part0");
        const int n1 = refProperty(asset, int(n), "Part1");
        const int p0 = partOf(n0), p1 = partOf(n1);
        if (p0 < 0 || p1 < 0 || n0 == n1) {
            rig.warnings.push_back(c.name + ": Part0/Part1 are not two parts; joint ignored");
            continue;
        }
        c.part0 = p0, c.part1 = p1;
        c.c0 = cframeProperty(asset, int(n), "C0").value_or(Mat4::identity());
        c.c1 = cframeProperty(asset, int(n), "C1").value_or(Mat4::identity());
        c.transform = cframeProperty(asset, int(n), "Transform").value_or(Mat4::identity());
        candidates.push_back(std::move(c));
    }
    int attachmentRoot = -1;
    if (candidates.empty()) {
        std::vector<std::vector<std::pair<std::string, Mat4>>> rigAttachments(parts.size());
        for (std::size_t i = 0; i < parts.size(); ++i)
            for (int child : asset.children(parts[i].node)) {
                if (asset.kind(child) != "Attachment") continue;
                const std::string_view name = asset.name(child);
                if (!name.ends_with(kRigSuffix) || name.size() == kRigSuffix.size()) continue;
                rigAttachments[i].emplace_back(
                    std::string(name),
                    cframeProperty(asset, child, "CFrame").value_or(Mat4::identity()));
            }
        candidates = attachmentJoints(asset, parts, rigAttachments, attachmentRoot);
        rig.fromAttachments = !candidates.empty();
    }
    if (candidates.empty()) return rig;

    // The first joint driving a part wins; a joint that would close a loop is dropped.
    std::vector<int> drivenBy(parts.size(), -1);
    std::vector<Candidate> kept;
    kept.reserve(candidates.size());
    for (auto& c : candidates) {
        const std::string partName(asset.name(parts[std::size_t(c.part1)].node));
        if (drivenBy[std::size_t(c.part1)] >= 0) {
            rig.warnings.push_back(c.name + ": " + partName +
                                   " is already driven by another joint; joint ignored");
            continue;
        }
        bool loops = false;
        for (int p = c.part0, steps = 0; p >= 0 && steps <= int(parts.size()); ++steps) {
            if (p == c.part1) {
                loops = true;
                break;
            }
            const int j = drivenBy[std::size_t(p)];
            p = j >= 0 ? kept[std::size_t(j)].part0 : -1;
        }
        if (loops) {
            rig.warnings.push_back(c.name + ": joint would close a loop; joint ignored");
            continue;
        }
        drivenBy[std::size_t(c.part1)] = int(kept.size());
        kept.push_back(std::move(c));
    }

    // Bones breadth first from the roots (rig parts no joint drives), in part order.
    std::vector<std::vector<int>> jointsFrom(parts.size());
    std::vector<bool> inRig(parts.size(), false);
    for (std::size_t j = 0; j < kept.size(); ++j) {
        jointsFrom[std::size_t(kept[j].part0)].push_back(int(j));
        inRig[std::size_t(kept[j].part0)] = inRig[std::size_t(kept[j].part1)] = true;
    }
    std::vector<int> boneOfPart(parts.size(), -1);
    std::deque<int> queue;
    for (std::size_t p = 0; p < parts.size(); ++p)
        if (inRig[p] && drivenBy[p] < 0) queue.push_back(int(p));
    while (!queue.empty()) {
        const int p = queue.front();
        queue.pop_front();
        const int j = drivenBy[std::size_t(p)];
        Bone bone;
        bone.name = std::string(asset.name(parts[std::size_t(p)].node));
        if (j < 0) {
            bone.world = cframeMatrix(parts[std::size_t(p)].cframe);
        } else {
            const Candidate& c = kept[std::size_t(j)];
            bone.parent = boneOfPart[std::size_t(c.part0)];
            bone.world =
                rig.skeleton.bones[std::size_t(bone.parent)].world * c.c0 * inverseRigid(c.c1);
            RigJoint joint;
            joint.name = c.name;
            joint.motorNode = c.motor;
            joint.part0Node = parts[std::size_t(c.part0)].node;
            joint.part1Node = parts[std::size_t(c.part1)].node;
            joint.bone = int(rig.skeleton.bones.size());
            joint.parentBone = bone.parent;
            joint.c0 = c.c0, joint.c1 = c.c1, joint.transform = c.transform;
            rig.joints.push_back(std::move(joint));
        }
        boneOfPart[std::size_t(p)] = int(rig.skeleton.bones.size());
        rig.jointOfBone.push_back(j < 0 ? -1 : int(rig.joints.size()) - 1);
        rig.partNodeOfBone.push_back(parts[std::size_t(p)].node);
        rig.partSizeOfBone.push_back(parts[std::size_t(p)].size);
        rig.skeleton.bones.push_back(std::move(bone));
        for (int next : jointsFrom[std::size_t(p)]) queue.push_back(kept[std::size_t(next)].part1);
    }
    rig.skeleton.name = rig.fromAttachments ? "rig (from attachments)" : "rig";
    return rig;
}

Mat4 jointLocalFromTransform(const RigJoint& joint, const Mat4& transform) {
    return joint.c1 * transform * inverseRigid(joint.c1);
}

std::vector<Mat4> posedRigWorld(const RobloxRig& rig, const std::vector<Mat4>& jointTransforms,
                                Bounds* bounds) {
    // Bones are stored parents first (extractRobloxRig builds them breadth first).
    std::vector<Mat4> world(rig.skeleton.bones.size());
    for (std::size_t b = 0; b < world.size(); ++b) {
        const int j = b < rig.jointOfBone.size() ? rig.jointOfBone[b] : -1;
        const Bone& bone = rig.skeleton.bones[b];
        if (j < 0 || bone.parent < 0 || std::size_t(bone.parent) >= b) {
            world[b] = bone.world;
            continue;
        }
        const RigJoint& joint = rig.joints[std::size_t(j)];
        const Mat4& t = std::size_t(j) < jointTransforms.size() ? jointTransforms[std::size_t(j)]
                                                                : joint.transform;
        world[b] = world[std::size_t(bone.parent)] * joint.c0 * t * inverseRigid(joint.c1);
    }
    if (bounds) {
        *bounds = Bounds{};
        for (std::size_t b = 0; b < world.size(); ++b) {
            const Vec3 h = b < rig.partSizeOfBone.size() ? rig.partSizeOfBone[b] * 0.5f : Vec3{};
            for (int corner = 0; corner < 8; ++corner)
                bounds->add(transformPoint(
                    world[b],
                    {corner & 1 ? h.x : -h.x, corner & 2 ? h.y : -h.y, corner & 4 ? h.z : -h.z}));
        }
    }
    return world;
}

}  // namespace meshscope
