// KeyframeSequence → tracks per joint, the engine's pose easing, sampling, and a sample put on a
// rig (issue #23).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <unordered_map>

#include "meshscope/core/roblox_animation.h"
#include "pose/animation_common.h"

namespace meshscope {

// ---------------------------------------------------------------------------------------------
// Easing

const char* poseEasingStyleName(PoseEasingStyle style) {
    switch (style) {
        case PoseEasingStyle::Linear:
            return "Linear";
        case PoseEasingStyle::Constant:
            return "Constant";
        case PoseEasingStyle::Elastic:
            return "Elastic";
        case PoseEasingStyle::Cubic:
            return "Cubic";
        case PoseEasingStyle::Bounce:
            return "Bounce";
        case PoseEasingStyle::CubicV2:
            return "CubicV2";
    }
    return "Linear";
}

const char* poseEasingDirectionName(PoseEasingDirection direction) {
    switch (direction) {
        case PoseEasingDirection::In:
            return "In";
        case PoseEasingDirection::Out:
            return "Out";
        case PoseEasingDirection::InOut:
            return "InOut";
    }
    return "In";
}

namespace {

// Penner's bounce-out.
float bounceOut(float t) {
    constexpr float n = 7.5625f, d = 2.75f;
    if (t < 1 / d) return n * t * t;
    if (t < 2 / d) {
        t -= 1.5f / d;
        return n * t * t + 0.75f;
    }
    if (t < 2.5f / d) {
        t -= 2.25f / d;
        return n * t * t + 0.9375f;
    }
    t -= 2.625f / d;
    return n * t * t + 0.984375f;
}

// The forward curve f (TweenService "In" form): f(0) = 0, f(1) = 1.
float forwardCurve(PoseEasingStyle style, float t) {
    switch (style) {
        case PoseEasingStyle::Cubic:
        case PoseEasingStyle::CubicV2:
            return t * t * t;
        case PoseEasingStyle::Elastic: {
            if (t <= 0) return 0;
            if (t >= 1) return 1;
            constexpr float p = 0.3f;
            return -std::pow(2.0f, 10 * (t - 1)) *
                   std::sin((t - 1 - p / 4) * 2 * std::numbers::pi_v<float> / p);
        }
        case PoseEasingStyle::Bounce:
            return 1 - bounceOut(1 - t);
        default:
            return t;
    }
}

}  // namespace

float poseEase(PoseEasingStyle style, PoseEasingDirection direction, float t) {
    if (!(t > 0)) return 0;  // NaN too
    if (t >= 1) return 1;
    if (style == PoseEasingStyle::Linear) return t;
    if (style == PoseEasingStyle::Constant) return 0;
    // Pose directions are backwards from TweenService: Pose Out = forward curve. Legacy Cubic
    // swaps them once more.
    PoseEasingDirection d = direction;
    if (style == PoseEasingStyle::Cubic && d != PoseEasingDirection::InOut)
        d = d == PoseEasingDirection::In ? PoseEasingDirection::Out : PoseEasingDirection::In;
    switch (d) {
        case PoseEasingDirection::Out:
            return forwardCurve(style, t);
        case PoseEasingDirection::In:
            return 1 - forwardCurve(style, 1 - t);
        case PoseEasingDirection::InOut:
            return t < 0.5f ? forwardCurve(style, 2 * t) / 2
                            : 1 - forwardCurve(style, 2 - 2 * t) / 2;
    }
    return t;
}

// ---------------------------------------------------------------------------------------------
// KeyframeSequence

int KeyframeSequence::findTrack(std::string_view joint) const {
    for (std::size_t i = 0; i < tracks.size(); ++i)
        if (tracks[i].joint == joint) return int(i);
    return -1;
}

namespace {

constexpr int kMaxPoseDepth = 256;

KeyframeSequence readSequence(const Asset& asset, int node) {
    KeyframeSequence seq;
    seq.node = node;
    seq.name = std::string(asset.name(node));
    seq.loop = pose_detail::numberProperty(asset, node, "Loop").value_or(0) != 0;
    seq.priority = int(pose_detail::numberProperty(asset, node, "Priority").value_or(0));
    std::unordered_map<std::string, std::size_t> trackOf, faceTrackOf;
    const auto easing = [&](int n, PoseEasingStyle& style, PoseEasingDirection& direction) {
        const auto s = pose_detail::numberProperty(asset, n, "EasingStyle").value_or(0);
        const auto d = pose_detail::numberProperty(asset, n, "EasingDirection").value_or(0);
        style = s >= 0 && s <= 5 ? PoseEasingStyle(int(s)) : PoseEasingStyle::Linear;
        direction = d >= 0 && d <= 2 ? PoseEasingDirection(int(d)) : PoseEasingDirection::In;
    };
    // NumberPoses of a FaceControls folder under the Pose `pose` at `time`.
    const auto readFaceControls = [&](int folder, const std::string& pose, float time) {
        for (int np : asset.children(folder)) {
            if (asset.kind(np) != "NumberPose") continue;
            const std::string control(asset.name(np));
            NumberPoseKey key;
            key.time = time;
            key.node = np;
            key.value = float(pose_detail::numberProperty(asset, np, "Value").value_or(0));
            key.weight = float(pose_detail::numberProperty(asset, np, "Weight").value_or(1));
            easing(np, key.style, key.direction);
            if (!std::isfinite(key.value) || !std::isfinite(key.weight)) {
                seq.warnings.push_back(pose + "/FaceControls/" + control +
                                       ": a NumberPose Value is not finite; key skipped");
                continue;
            }
            auto [found, added] = faceTrackOf.emplace(control, seq.faceControls.size());
            if (added) seq.faceControls.push_back({control, pose, {}});
            if (key.weight > 0) seq.faceControls[found->second].keys.push_back(key);
        }
    };

    for (int keyframe : asset.children(node)) {
        if (asset.kind(keyframe) != "Keyframe") continue;
        const double time = pose_detail::numberProperty(asset, keyframe, "Time").value_or(0);
        if (!std::isfinite(time) || time < 0) {
            seq.warnings.push_back(std::string(asset.name(keyframe)) +
                                   ": Time is not a finite non-negative number; keyframe skipped");
            continue;
        }
        seq.keyframeTimes.push_back(float(time));
        // Pose trees, depth first without recursion: (pose node, parent pose name, depth).
        struct Item {
            int node;
            std::string parent;
            int depth;
        };
        std::vector<Item> stack;
        const auto top = asset.children(keyframe);
        for (auto it = top.rbegin(); it != top.rend(); ++it)
            if (asset.kind(*it) == "Pose") stack.push_back({*it, std::string(), 0});
        while (!stack.empty()) {
            Item item = std::move(stack.back());
            stack.pop_back();
            const std::string name(asset.name(item.node));
            auto [found, added] = trackOf.emplace(name, seq.tracks.size());
            if (added) seq.tracks.push_back({name, item.parent, {}});
            PoseTrack& track = seq.tracks[found->second];
            PoseKey key;
            key.time = float(time);
            key.node = item.node;
            key.weight = float(pose_detail::numberProperty(asset, item.node, "Weight").value_or(1));
            easing(item.node, key.style, key.direction);
            bool finite = true;
            if (const auto value = asset.propertyValue(item.node, "CFrame"))
                if (const auto* cf = std::get_if<CFrame>(&*value)) {
                    key.cframe = cframeMatrix(*cf);
                    for (float v : key.cframe.m) finite = finite && std::isfinite(v);
                }
            if (!finite)
                seq.warnings.push_back(name + ": a Pose CFrame is not finite; key skipped");
            else if (key.weight > 0)
                track.keys.push_back(key);
            const auto children = asset.children(item.node);
            for (int child : children)
                if (asset.kind(child) == "Folder" && asset.name(child) == "FaceControls")
                    readFaceControls(child, name, float(time));
            if (item.depth + 1 > kMaxPoseDepth) {
                if (!children.empty())
                    seq.warnings.push_back(name + ": Pose nesting deeper than 256; cut");
                continue;
            }
            for (auto it = children.rbegin(); it != children.rend(); ++it)
                if (asset.kind(*it) == "Pose") stack.push_back({*it, name, item.depth + 1});
        }
    }
    std::sort(seq.keyframeTimes.begin(), seq.keyframeTimes.end());
    seq.length = seq.keyframeTimes.empty() ? 0 : seq.keyframeTimes.back();
    for (auto& track : seq.tracks)
        std::stable_sort(track.keys.begin(), track.keys.end(),
                         [](const PoseKey& a, const PoseKey& b) { return a.time < b.time; });
    for (auto& track : seq.faceControls)
        std::stable_sort(
            track.keys.begin(), track.keys.end(),
            [](const NumberPoseKey& a, const NumberPoseKey& b) { return a.time < b.time; });
    return seq;
}

}  // namespace

std::vector<KeyframeSequence> extractKeyframeSequences(const Asset& asset) {
    std::vector<KeyframeSequence> out;
    for (std::size_t n = 0; n < asset.nodes.size(); ++n)
        if (asset.kind(int(n)) == "KeyframeSequence") out.push_back(readSequence(asset, int(n)));
    return out;
}

float sequenceTime(const KeyframeSequence& sequence, float time) {
    return pose_detail::animationTime(time, sequence.length, sequence.loop);
}

Mat4 sampleTrack(const PoseTrack& track, float time) {
    const auto& keys = track.keys;
    if (keys.empty()) return Mat4::identity();
    if (!(time > keys.front().time)) return keys.front().cframe;
    if (time >= keys.back().time) return keys.back().cframe;
    // First key after `time`.
    const auto next = std::upper_bound(keys.begin(), keys.end(), time,
                                       [](float t, const PoseKey& k) { return t < k.time; });
    const PoseKey& b = *next;
    const PoseKey& a = *(next - 1);
    const float span = b.time - a.time;
    if (!(span > 0)) return b.cframe;
    const float alpha = poseEase(a.style, a.direction, (time - a.time) / span);
    return lerpRigid(a.cframe, b.cframe, alpha);
}

float sampleNumberPoseTrack(const NumberPoseTrack& track, float time) {
    const auto& keys = track.keys;
    if (keys.empty()) return 0;
    if (!(time > keys.front().time)) return keys.front().value;
    if (time >= keys.back().time) return keys.back().value;
    const auto next = std::upper_bound(keys.begin(), keys.end(), time,
                                       [](float t, const NumberPoseKey& k) { return t < k.time; });
    const NumberPoseKey& b = *next;
    const NumberPoseKey& a = *(next - 1);
    const float span = b.time - a.time;
    if (!(span > 0)) return b.value;
    const float alpha = poseEase(a.style, a.direction, (time - a.time) / span);
    return a.value + (b.value - a.value) * alpha;
}

std::vector<std::pair<std::string, float>> sampleFaceControls(const KeyframeSequence& sequence,
                                                              float time) {
    std::vector<std::pair<std::string, float>> out;
    out.reserve(sequence.faceControls.size());
    for (const NumberPoseTrack& t : sequence.faceControls) {
        const float v = sampleNumberPoseTrack(t, time);
        out.emplace_back(t.name, std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 0.0f);
    }
    return out;
}

void sampleOnRig(const KeyframeSequence& sequence, const RobloxRig& rig, float time,
                 RigSample& out) {
    out.time = sequenceTime(sequence, time);
    // A track without keys (HumanoidRootPart placeholders of Weight 0) drives nothing and is no
    // warning; a keyed one on a root part has no joint to drive (Roblox ignores it too).
    pose_detail::putTracksOnRig(
        sequence.tracks.size(),
        [&](std::size_t i) -> const std::string& { return sequence.tracks[i].joint; },
        [&](std::size_t i) { return !sequence.tracks[i].keys.empty(); },
        [&](std::size_t i) { return sampleTrack(sequence.tracks[i], out.time); }, rig, out);
}

}  // namespace meshscope
