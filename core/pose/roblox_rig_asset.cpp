// Roblox rigs and KeyframeSequences put into the Asset (issue #23): the rig as a skeleton linked
// from its part and joint nodes, and sequences baked into Asset::animations frames.
#include <algorithm>
#include <cmath>
#include <string_view>
#include <variant>
#include <vector>

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
    // Frame f is sampled at min(f / fps, length): the last one at the length, which export and
    // playback must know (Animation::length).
    if (std::isfinite(length) && length > 0) anim.length = length;
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

// FACS weights on bakeFrames' frames (times f / fps up to the length): one channel per control
// name, `sample(t)` giving (name, weight) pairs in channel order.
template <class Sample>
void bakeFacsChannels(Animation& anim, const std::vector<std::string>& controls, float length,
                      Sample&& sample) {
    const std::size_t frames = anim.frameCount;
    anim.facsChannels.resize(controls.size());
    for (std::size_t c = 0; c < controls.size(); ++c) {
        anim.facsChannels[c].control = controls[c];
        anim.facsChannels[c].weights.resize(frames);
    }
    for (std::size_t f = 0; f < frames && !controls.empty(); ++f) {
        const float t = std::min(float(double(f) / anim.framesPerSecond), length);
        const auto weights = sample(t);
        for (std::size_t c = 0; c < weights.size() && c < controls.size(); ++c)
            anim.facsChannels[c].weights[f] = weights[c].second;
    }
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
    Animation anim = bakeFrames(
        sequence.name, sequence.loop, sequence.length, sequence.keyframeTimes, rig, skeletonIndex,
        framesPerSecond, [&](float t, std::vector<Mat4>& transforms) {
            for (std::size_t k = 0; k < sequence.tracks.size(); ++k)
                if (jointOfTrack[k] >= 0)
                    transforms[std::size_t(jointOfTrack[k])] = sampleTrack(sequence.tracks[k], t);
        });
    std::vector<std::string> controls;
    for (const NumberPoseTrack& t : sequence.faceControls) controls.push_back(t.name);
    bakeFacsChannels(anim, controls, sequence.length,
                     [&](float t) { return sampleFaceControls(sequence, t); });
    return anim;
}

Animation bakeCurveAnimation(const CurveAnimation& animation, const RobloxRig& rig,
                             int skeletonIndex, float framesPerSecond) {
    std::vector<int> jointOfCurve(animation.joints.size(), -1);
    for (std::size_t k = 0; k < animation.joints.size(); ++k)
        jointOfCurve[k] = jointNamed(rig, animation.joints[k].joint);
    Animation anim =
        bakeFrames(animation.name, animation.loop, animation.length, animation.keyTimes, rig,
                   skeletonIndex, framesPerSecond, [&](float t, std::vector<Mat4>& transforms) {
                       for (std::size_t k = 0; k < animation.joints.size(); ++k)
                           if (jointOfCurve[k] >= 0)
                               transforms[std::size_t(jointOfCurve[k])] =
                                   sampleCurveJoint(animation.joints[k], t);
                   });
    std::vector<std::string> controls;
    for (const CurveFloatTrack& t : animation.faceControls) controls.push_back(t.name);
    bakeFacsChannels(anim, controls, animation.length,
                     [&](float t) { return sampleFaceControls(animation, t); });
    return anim;
}

int addRobloxRigAndAnimations(Asset& asset) {
    if (!isRobloxModel(asset)) return -1;
    // Kind ids of the classes that make a rig (0: no node of that class).
    const std::uint32_t motor6d = asset.kinds.find("Motor6D"), motor = asset.kinds.find("Motor"),
                        attachment = asset.kinds.find("Attachment");
    // A joint extractRobloxRig would keep: a motor whose Part0 and Part1 are two drawn parts
    // (the parts it extracts), or a RigAttachment. A place that has motors but no such joint (a
    // class catalogue of one instance each) is passed over without extracting its parts.
    std::vector<std::uint8_t> partKind;
    const auto isPartNode = [&](int node) {
        if (node < 0 || std::size_t(node) >= asset.nodes.size()) return false;
        const Node& n = asset.nodes[std::size_t(node)];
        if (n.embedded || n.kindId >= asset.kinds.size()) return false;
        if (partKind.empty()) {
            partKind.resize(asset.kinds.size());
            for (std::uint32_t k = 0; k < asset.kinds.size(); ++k)
                partKind[k] = isRenderablePartClass(asset.kinds[k]);
        }
        return partKind[n.kindId] != 0;
    };
    const auto partRef = [&](int node, std::string_view name) {
        const auto v = asset.propertyValue(node, name);
        const auto* r = v ? std::get_if<NodeRef>(&*v) : nullptr;
        return r ? r->node : -1;
    };
    bool candidate = false;
    for (std::size_t n = 0; n < asset.nodes.size() && !candidate; ++n) {
        const std::uint32_t k = asset.nodes[n].kindId;
        if (k == 0) continue;
        if (k == motor6d || k == motor) {
            const int p0 = partRef(int(n), "Part0"), p1 = partRef(int(n), "Part1");
            candidate = p0 != p1 && isPartNode(p0) && isPartNode(p1);
        } else if (k == attachment && asset.name(int(n)).ends_with("RigAttachment")) {
            candidate = true;
        }
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

namespace {

// The skeleton of `target` that already holds `rig` (decode links every rig part to it), else
// the rig added as a new skeleton.
int rigSkeletonOf(Asset& target, const RobloxRig& rig) {
    if (!rig.partNodeOfBone.empty()) {
        const int node = rig.partNodeOfBone[0];
        if (node >= 0 && std::size_t(node) < target.nodes.size()) {
            const int s = target.links(node).skeleton;
            if (s >= 0 && std::size_t(s) < target.skeletons.size()) {
                const Skeleton& sk = target.skeletons[std::size_t(s)];
                bool same = sk.bones.size() == rig.skeleton.bones.size();
                for (std::size_t b = 0; same && b < sk.bones.size(); ++b)
                    same = sk.bones[b].name == rig.skeleton.bones[b].name;
                if (same) return s;
            }
        }
    }
    return addRigSkeleton(target, rig);
}

std::string unmatchedWarning(const std::string& animation, std::size_t unmatched, std::size_t keyed,
                             const char* what) {
    return "animation \"" + animation + "\": " + std::to_string(unmatched) + " of " +
           std::to_string(keyed) + " animated track(s) name no " + what + " and are left out";
}

}  // namespace

AnimationTransfer addAnimationsFrom(Asset& target, const Asset& source, float framesPerSecond) {
    AnimationTransfer out;
    out.firstAdded = target.animations.size();
    const std::vector<KeyframeSequence> sequences = extractKeyframeSequences(source);
    const std::vector<CurveAnimation> curves = extractCurveAnimations(source);
    if (!sequences.empty() || !curves.empty()) {
        const RobloxRig rig = extractRobloxRig(target);
        // No rig, but a FACS face to move: the FaceControls curves / NumberPoses alone.
        bool faceCurves = false;
        for (const CurveAnimation& c : curves) faceCurves = faceCurves || !c.faceControls.empty();
        for (const KeyframeSequence& s : sequences)
            faceCurves = faceCurves || !s.faceControls.empty();
        if (rig.empty() && faceCurves && !target.facs.empty()) {
            for (const KeyframeSequence& seq : sequences) {
                if (seq.faceControls.empty()) continue;
                std::size_t keyed = 0;
                for (const PoseTrack& t : seq.tracks) keyed += t.keys.empty() ? 0 : 1;
                if (keyed)
                    out.warnings.push_back("animation \"" + seq.name +
                                           "\": " + std::to_string(keyed) +
                                           " joint track(s) left out: the file has no Roblox rig");
                out.tracks += seq.faceControls.size();
                target.animations.push_back(
                    bakeKeyframeSequence(seq, RobloxRig{}, -1, framesPerSecond));
            }
            for (const CurveAnimation& anim : curves) {
                if (anim.faceControls.empty()) continue;
                std::size_t keyed = 0;
                for (const CurveJoint& j : anim.joints) keyed += j.hasPosition || j.hasRotation;
                if (keyed)
                    out.warnings.push_back("animation \"" + anim.name +
                                           "\": " + std::to_string(keyed) +
                                           " joint curve(s) left out: the file has no Roblox rig");
                out.tracks += anim.faceControls.size();
                target.animations.push_back(
                    bakeCurveAnimation(anim, RobloxRig{}, -1, framesPerSecond));
            }
            out.added = target.animations.size() - out.firstAdded;
            return out;
        }
        if (rig.empty()) {
            out.error = "the animation is a Roblox " +
                        std::string(sequences.empty() ? "CurveAnimation" : "KeyframeSequence") +
                        ", but the file has no Roblox rig (parts joined by Motor6D or "
                        "RigAttachment pairs) to play it on";
            return out;
        }
        const int skeleton = rigSkeletonOf(target, rig);
        if (skeleton < 0) {
            out.error = "the rig could not be added as a skeleton";
            return out;
        }
        for (const KeyframeSequence& seq : sequences) {
            RigSample sample;
            sampleOnRig(seq, rig, 0, sample);
            std::size_t keyed = 0;
            for (const PoseTrack& t : seq.tracks) keyed += t.keys.empty() ? 0 : 1;
            out.tracks += keyed;
            out.unmatchedTracks += sample.unmatchedTracks.size();
            if (!sample.unmatchedTracks.empty())
                out.warnings.push_back(
                    unmatchedWarning(seq.name, sample.unmatchedTracks.size(), keyed, "rig part"));
            for (const std::string& w : seq.warnings)
                out.warnings.push_back("animation \"" + seq.name + "\": " + w);
            target.animations.push_back(bakeKeyframeSequence(seq, rig, skeleton, framesPerSecond));
        }
        for (const CurveAnimation& anim : curves) {
            RigSample sample;
            sampleCurvesOnRig(anim, rig, 0, sample);
            std::size_t keyed = 0;
            for (const CurveJoint& j : anim.joints) keyed += j.hasPosition || j.hasRotation;
            out.tracks += keyed;
            out.unmatchedTracks += sample.unmatchedTracks.size();
            if (!sample.unmatchedTracks.empty())
                out.warnings.push_back(
                    unmatchedWarning(anim.name, sample.unmatchedTracks.size(), keyed, "rig part"));
            for (const std::string& w : anim.warnings)
                out.warnings.push_back("animation \"" + anim.name + "\": " + w);
            target.animations.push_back(bakeCurveAnimation(anim, rig, skeleton, framesPerSecond));
        }
        out.added = target.animations.size() - out.firstAdded;
        return out;
    }
    if (source.animations.empty()) {
        out.error =
            "the file holds no animation (KeyframeSequence, CurveAnimation, Unigine "
            ".sanim / .anim or .smesh frames)";
        return out;
    }
    if (target.skeletons.empty()) {
        out.error = "the file has no skeleton to play the animation on";
        return out;
    }
    std::size_t skipped = 0;
    for (const Animation& anim : source.animations) {
        // The skeleton naming the most of its tracks (the first on a tie).
        int best = -1;
        std::size_t bestMatches = 0, keyed = 0;
        for (const BoneTrack& t : anim.tracks)
            keyed += !t.positions.empty() || !t.rotations.empty() || !t.scales.empty();
        for (std::size_t s = 0; s < target.skeletons.size(); ++s) {
            std::size_t matches = 0;
            for (const BoneTrack& t : anim.tracks)
                matches += target.skeletons[s].find(t.bone) >= 0 ? 1 : 0;
            if (matches > bestMatches) best = int(s), bestMatches = matches;
        }
        if (best < 0) {
            ++skipped;
            continue;
        }
        std::size_t unmatched = 0;
        for (const BoneTrack& t : anim.tracks)
            if ((!t.positions.empty() || !t.rotations.empty() || !t.scales.empty()) &&
                target.skeletons[std::size_t(best)].find(t.bone) < 0)
                ++unmatched;
        out.tracks += keyed;
        out.unmatchedTracks += unmatched;
        if (unmatched)
            out.warnings.push_back(unmatchedWarning(anim.name, unmatched, keyed, "bone"));
        target.animations.push_back(anim);
        target.animations.back().skeleton = best;
    }
    out.added = target.animations.size() - out.firstAdded;
    if (out.added == 0) {
        out.error = "no track of the animation names a bone of the file's skeleton";
        return out;
    }
    if (skipped)
        out.warnings.push_back(std::to_string(skipped) +
                               " animation(s) left out: no track names a bone of the file's "
                               "skeleton");
    return out;
}

}  // namespace meshscope
