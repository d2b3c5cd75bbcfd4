// What the KeyframeSequence and CurveAnimation readers share: numeric properties, the time an
// animation plays at, and putting per-joint transforms on a rig. Internal to core/pose.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "meshscope/core/asset.h"
#include "meshscope/core/roblox_animation.h"

namespace meshscope::pose_detail {

inline std::optional<double> numberProperty(const Asset& asset, int node, std::string_view name) {
    const auto v = asset.propertyValue(node, name);
    if (!v) return std::nullopt;
    if (const auto* d = std::get_if<double>(&*v)) return *d;
    if (const auto* i = std::get_if<std::int64_t>(&*v)) return double(*i);
    if (const auto* b = std::get_if<bool>(&*v)) return *b ? 1.0 : 0.0;
    return std::nullopt;
}

// `time` wrapped into [0, length) when looping, clamped into [0, length] otherwise; 0 for a
// non-finite time or a zero length.
inline float animationTime(float time, float length, bool loop) {
    if (!std::isfinite(time) || !(length > 0)) return 0;
    if (loop) {
        float t = std::fmod(time, length);
        if (t < 0) t += length;
        return t;
    }
    return std::clamp(time, 0.0f, length);
}

// Fills `out` (time already set) from `count` tracks: nameOf(i) the joint (Part1) a track names,
// keyed(i) whether it has keys (an unkeyed track on no joint is no warning), sample(i) its
// Motor6D transform. Tracks on no part are unmatched; tracks on a root part drive nothing.
template <class Name, class Keyed, class Sample>
void putTracksOnRig(std::size_t count, Name nameOf, Keyed keyed, Sample sample,
                    const RobloxRig& rig, RigSample& out) {
    out.jointTransforms.assign(rig.joints.size(), Mat4::identity());
    out.unmatchedTracks.clear();
    out.unanimatedJoints.clear();
    out.rootTracks.clear();
    std::vector<bool> driven(rig.joints.size(), false);
    for (std::size_t i = 0; i < count; ++i) {
        const std::string& name = nameOf(i);
        const int bone = rig.skeleton.find(name);
        const int joint = bone >= 0 ? rig.jointOfBone[std::size_t(bone)] : -1;
        if (joint < 0) {
            if (!keyed(i)) continue;
            (bone < 0 ? out.unmatchedTracks : out.rootTracks).push_back(name);
            continue;
        }
        out.jointTransforms[std::size_t(joint)] = sample(i);
        driven[std::size_t(joint)] = true;
    }
    for (std::size_t j = 0; j < rig.joints.size(); ++j)
        if (!driven[j])
            out.unanimatedJoints.push_back(
                rig.skeleton.bones[std::size_t(rig.joints[j].bone)].name);
}

}  // namespace meshscope::pose_detail
