// Roblox rigs and KeyframeSequences put into the Asset (issue #23): the rig as a skeleton linked
// from its part and joint nodes, and sequences baked into Asset::animations frames.
#include <algorithm>
#include <cmath>

#include "meshscope/core/roblox_animation.h"
#include "meshscope/core/roblox_parts.h"

namespace meshscope {

int addRigSkeleton(Asset& asset, const RobloxRig& rig) {
    if (rig.empty()) return -1;
    const int index = int(asset.skeletons.size());
    asset.skeletons.push_back(rig.skeleton);
    const auto inRange = [&](int node) {
        return node >= 0 && std::size_t(node) < asset.nodes.size();
    };
    for (std::size_t b = 0; b < rig.partNodeOfBone.size(); ++b) {
        if (!inRange(rig.partNodeOfBone[b])) continue;
        NodeLinks& l = asset.linksOf(rig.partNodeOfBone[b]);
        l.skeleton = index, l.bone = int(b);
    }
    for (const RigJoint& j : rig.joints) {
        if (!inRange(j.motorNode)) continue;
        NodeLinks& l = asset.linksOf(j.motorNode);
        l.skeleton = index, l.bone = j.bone;
    }
    return index;
}

namespace {

// Frames 0 .. ceil(length · fps) of a rig's joint transforms (`fill(t, transforms)` sets the
// transforms at time t) into an Animation of parent-relative bone transforms.
template <class Fill>
Animation bakeFrames(std::string name, bool loop, float length, const std::vector<float>& keyTimes,
                     const RobloxRig& rig, int skeletonIndex, float framesPerSecond, Fill&& fill) {
    Animation anim;
    anim.name = std::move(name);
    anim.skeleton = skeletonIndex;
    if (!(framesPerSecond > 0) || !std::isfinite(framesPerSecond)) framesPerSecond = 30;
    anim.framesPerSecond = framesPerSecond;
    // Frames to cover the length; a cap keeps a corrupt Time from asking for millions.
    constexpr double kMaxFrames = 100000;
    const double wanted = std::ceil(double(length) * framesPerSecond - 1e-4) + 1;
    const std::size_t bones = rig.skeleton.bones.size();
    // ... and one on frames × bones (a place full of rigs): at most 4 M samples (160 MB).
    const double maxFrames = std::max(1.0, 4e6 / double(std::max<std::size_t>(bones, 1)));
    const auto frames = std::size_t(std::clamp(wanted, 1.0, std::min(kMaxFrames, maxFrames)));
    anim.frameCount = std::uint32_t(frames);
    anim.loop = loop;
    for (float t : keyTimes)
        if (std::isfinite(t) && t >= 0 && anim.keyTimes.size() < kMaxFrames)
            anim.keyTimes.push_back(t);
    anim.tracks.resize(bones);
    for (std::size_t b = 0; b < bones; ++b) {
        anim.tracks[b].bone = rig.skeleton.bones[b].name;
        anim.tracks[b].positions.resize(frames);
        anim.tracks[b].rotations.resize(frames);
        anim.tracks[b].scales.assign(frames, {1, 1, 1});
    }
    std::vector<Mat4> transforms(rig.joints.size());
    for (std::size_t f = 0; f < frames; ++f) {
        // The timeline itself, no loop wrap: the last frame is the last key.
        const float t = std::min(float(double(f) / framesPerSecond), length);
        transforms.assign(rig.joints.size(), Mat4::identity());
        fill(t, transforms);
        for (std::size_t b = 0; b < bones; ++b) {
            const int j = rig.jointOfBone[b];
            const Mat4 local = j < 0 ? rig.skeleton.bones[b].world
                                     : rig.joints[std::size_t(j)].c0 * transforms[std::size_t(j)] *
                                           inverseRigid(rig.joints[std::size_t(j)].c1);
            anim.tracks[b].positions[f] = {local.at(0, 3), local.at(1, 3), local.at(2, 3)};
            anim.tracks[b].rotations[f] = quaternionOf(local);
        }
    }
    return anim;
}

// The rig joint a track named `joint` drives, or -1.
int jointNamed(const RobloxRig& rig, const std::string& joint) {
    const int bone = rig.skeleton.find(joint);
    return bone >= 0 ? rig.jointOfBone[std::size_t(bone)] : -1;
}

}  // namespace

Animation bakeKeyframeSequence(const KeyframeSequence& sequence, const RobloxRig& rig,
                               int skeletonIndex, float framesPerSecond) {
    std::vector<int> jointOfTrack(sequence.tracks.size(), -1);
    for (std::size_t k = 0; k < sequence.tracks.size(); ++k)
        jointOfTrack[k] = jointNamed(rig, sequence.tracks[k].joint);
    return bakeFrames(sequence.name, sequence.loop, sequence.length, sequence.keyframeTimes, rig,
                      skeletonIndex, framesPerSecond, [&](float t, std::vector<Mat4>& transforms) {
                          for (std::size_t k = 0; k < sequence.tracks.size(); ++k)
                              if (jointOfTrack[k] >= 0)
                                  transforms[std::size_t(jointOfTrack[k])] =
                                      sampleTrack(sequence.tracks[k], t);
                      });
}

Animation bakeCurveAnimation(const CurveAnimation& animation, const RobloxRig& rig,
                             int skeletonIndex, float framesPerSecond) {
    std::vector<int> jointOfCurve(animation.joints.size(), -1);
    for (std::size_t k = 0; k < animation.joints.size(); ++k)
        jointOfCurve[k] = jointNamed(rig, animation.joints[k].joint);
    return bakeFrames(animation.name, animation.loop, animation.length, animation.keyTimes, rig,
                      skeletonIndex, framesPerSecond, [&](float t, std::vector<Mat4>& transforms) {
                          for (std::size_t k = 0; k < animation.joints.size(); ++k)
                              if (jointOfCurve[k] >= 0)
                                  transforms[std::size_t(jointOfCurve[k])] =
                                      sampleCurveJoint(animation.joints[k], t);
                      });
}

int addRobloxRigAndAnimations(Asset& asset) {
    if (!isRobloxModel(asset)) return -1;
    // Kind ids of the classes that make a rig, without interning new strings.
    std::uint32_t motor6d = 0, motor = 0, attachment = 0;
    for (std::uint32_t k = 1; k < asset.kinds.size(); ++k) {
        const std::string_view kind = asset.kinds[k];
        if (kind == "Motor6D")
            motor6d = k;
        else if (kind == "Motor")
            motor = k;
        else if (kind == "Attachment")
            attachment = k;
    }
    bool candidate = false;
    for (std::size_t n = 0; n < asset.nodes.size() && !candidate; ++n) {
        const std::uint32_t k = asset.nodes[n].kindId;
        if (k == 0) continue;
        if (k == motor6d || k == motor)
            candidate = true;
        else if (k == attachment && asset.name(int(n)).ends_with("RigAttachment"))
            candidate = true;
    }
    if (!candidate) return -1;
    const RobloxRig rig = extractRobloxRig(asset);
    const int skeleton = addRigSkeleton(asset, rig);
    if (skeleton < 0) return -1;
    for (const KeyframeSequence& seq : extractKeyframeSequences(asset)) {
        asset.animations.push_back(bakeKeyframeSequence(seq, rig, skeleton));
        if (seq.node >= 0 && std::size_t(seq.node) < asset.nodes.size())
            asset.linksOf(seq.node).animation = int(asset.animations.size()) - 1;
    }
    for (const CurveAnimation& curves : extractCurveAnimations(asset)) {
        asset.animations.push_back(bakeCurveAnimation(curves, rig, skeleton));
        if (curves.node >= 0 && std::size_t(curves.node) < asset.nodes.size())
            asset.linksOf(curves.node).animation = int(asset.animations.size()) - 1;
    }
    return skeleton;
}

}  // namespace meshscope
