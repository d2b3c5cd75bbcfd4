// Animation sampling: quaternions, nlerp, track transforms and whole-skeleton poses (see pose.h).
#include <algorithm>
#include <cmath>

#include "meshscope/core/pose.h"

namespace meshscope {

namespace {

Vec3 lerp(const Vec3& a, const Vec3& b, float t) {
    return {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t};
}

float dot(const Vec4& a, const Vec4& b) {
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

// Keys a and b around fractional `frame` of a channel of `n` keys, and the weight of b.
struct Span {
    std::size_t a = 0, b = 0;
    float t = 0;
};
Span spanAt(std::size_t n, double frame) {
    // NaN clamps to the first key.
    const double f = frame > 0 ? std::min(frame, double(n - 1)) : 0.0;
    Span s;
    s.a = std::size_t(std::floor(f));
    s.b = std::min(s.a + 1, n - 1);
    s.t = float(f - double(s.a));
    return s;
}

}  // namespace

Mat4 quaternionMatrix(const Vec4& q) {
    const float len = std::sqrt(dot(q, q));
    if (!(len > 0.0f) || !std::isfinite(len)) return Mat4::identity();
    const float x = q.x / len, y = q.y / len, z = q.z / len, w = q.w / len;
    Mat4 m;
    m.at(0, 0) = 1 - 2 * (y * y + z * z);
    m.at(0, 1) = 2 * (x * y - z * w);
    m.at(0, 2) = 2 * (x * z + y * w);
    m.at(1, 0) = 2 * (x * y + z * w);
    m.at(1, 1) = 1 - 2 * (x * x + z * z);
    m.at(1, 2) = 2 * (y * z - x * w);
    m.at(2, 0) = 2 * (x * z - y * w);
    m.at(2, 1) = 2 * (y * z + x * w);
    m.at(2, 2) = 1 - 2 * (x * x + y * y);
    return m;
}

Vec4 nlerp(const Vec4& a, const Vec4& b, float t) {
    const Vec4 c = dot(a, b) < 0 ? Vec4{-b.x, -b.y, -b.z, -b.w} : b;
    const Vec4 r{a.x + (c.x - a.x) * t, a.y + (c.y - a.y) * t, a.z + (c.z - a.z) * t,
                 a.w + (c.w - a.w) * t};
    const float len = std::sqrt(dot(r, r));
    if (!(len > 0.0f) || !std::isfinite(len)) return a;
    return {r.x / len, r.y / len, r.z / len, r.w / len};
}

std::optional<Mat4> sampleTrack(const BoneTrack& track, double frame) {
    if (track.positions.empty() && track.rotations.empty() && track.scales.empty()) return {};
    Mat4 m;
    if (!track.rotations.empty()) {
        const Span s = spanAt(track.rotations.size(), frame);
        m = quaternionMatrix(nlerp(track.rotations[s.a], track.rotations[s.b], s.t));
    }
    if (!track.scales.empty()) {
        const Span s = spanAt(track.scales.size(), frame);
        const Vec3 k = lerp(track.scales[s.a], track.scales[s.b], s.t);
        for (int r = 0; r < 3; ++r) {
            m.at(r, 0) *= k.x;
            m.at(r, 1) *= k.y;
            m.at(r, 2) *= k.z;
        }
    }
    if (!track.positions.empty()) {
        const Span s = spanAt(track.positions.size(), frame);
        const Vec3 p = lerp(track.positions[s.a], track.positions[s.b], s.t);
        m.at(0, 3) = p.x, m.at(1, 3) = p.y, m.at(2, 3) = p.z;
    }
    return m;
}

int sampleAnimation(const Animation& animation, const Skeleton& skeleton, double frame,
                    Pose& pose) {
    const std::size_t n = skeleton.bones.size();
    pose.reset(n);
    int applied = 0;
    for (const BoneTrack& track : animation.tracks) {
        const int b = skeleton.find(track.bone);
        if (b < 0) continue;
        const auto local = sampleTrack(track, frame);
        if (!local) continue;
        // Tracks hold parent-relative transforms; a pose is relative to the bind one.
        const Bone& bone = skeleton.bones[std::size_t(b)];
        const Mat4 bindRelative =
            bone.parent >= 0 && std::size_t(bone.parent) < n
                ? inverse(skeleton.bones[std::size_t(bone.parent)].world) * bone.world
                : bone.world;
        pose.local[std::size_t(b)] = inverse(bindRelative) * *local;
        ++applied;
    }
    return applied;
}

}  // namespace meshscope
