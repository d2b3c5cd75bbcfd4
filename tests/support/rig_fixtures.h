// Hand-made rigs and animations shared by the posing, animation-transfer, export and CLI tests:
// one copy of each fixture, so that a change to what a rig holds is made once.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/pose.h"
#include "support/test_support.h"

namespace meshscope::test {

// An unrotated CFrame at p.
inline CFrame cframeAt(Vec3 p) {
    CFrame cf;
    cf.position = p;
    return cf;
}

// A quarter turn about Z (row-major), placed at p.
inline CFrame quarterTurnZ(Vec3 p) {
    CFrame cf;
    cf.position = p;
    cf.rotation = {0, -1, 0, 1, 0, 0, 0, 0, 1};
    return cf;
}

struct TwoPartRigOptions {
    std::string model = "Model";  // the name of the Model node (node 0)
    bool sizes = false;           // give the parts a Size (Torso 2×2×1, Arm 1×2×1)
};

// The smallest Motor6D rig: Model (node 0) > Torso at the origin, Arm 2 up, joined by the Motor6D
// "Shoulder" under Torso (Part0 Torso, Part1 Arm, C0 up 1, C1 down 1). No animation.
inline Asset twoPartRig(const TwoPartRigOptions& options = {}) {
    Asset a;
    a.format = "roblox-model";
    const int model = a.addNode(options.model, "Model");
    const int torso = a.addNode("Torso", "Part", model);
    a.addProperty(torso, prop("CFrame", "CFrame", cframeAt({0, 0, 0})));
    if (options.sizes) a.addProperty(torso, prop("Size", "Vector3", Vec3{2, 2, 1}));
    const int arm = a.addNode("Arm", "Part", model);
    a.addProperty(arm, prop("CFrame", "CFrame", cframeAt({0, 2, 0})));
    if (options.sizes) a.addProperty(arm, prop("Size", "Vector3", Vec3{1, 2, 1}));
    const int motor = a.addNode("Shoulder", "Motor6D", torso);
    a.addProperty(motor, prop("Part0", "Ref", NodeRef{torso}));
    a.addProperty(motor, prop("Part1", "Ref", NodeRef{arm}));
    a.addProperty(motor, prop("C0", "CFrame", cframeAt({0, 1, 0})));
    a.addProperty(motor, prop("C1", "CFrame", cframeAt({0, -1, 0})));
    return a;
}

// A FloatCurve's ValuesAndTimes BinaryString with Linear keys and no tangents: (value, ticks at
// 2400 a second) per key.
inline Bytes linearFloatCurve(const std::vector<std::pair<float, std::uint32_t>>& keys) {
    Bytes b;
    auto u32 = [&](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) b.push_back(std::uint8_t(v >> (8 * i)));
    };
    u32(1);
    u32(std::uint32_t(keys.size()));
    for (const auto& [value, ticks] : keys) {
        b.push_back(1);  // Linear
        b.push_back(0);  // no tangents
        for (float f : {value, 0.0f, 0.0f}) u32(std::bit_cast<std::uint32_t>(f));
    }
    u32(1);
    u32(std::uint32_t(keys.size()));
    for (const auto& k : keys) u32(k.second);
    return b;
}

// makeSkinnedCylinder(3, 3, 6) with one animation ("rise", 25 fps, `frames` frames) that raises
// every bone 0.1 a frame, parent-relative, as Unigine .sanim tracks hold them; identity rotations
// when `rotations`, none otherwise.
inline Asset risingCylinder(const std::string& format, std::size_t frames, bool rotations = true) {
    Asset a = makeSkinnedCylinder(3, 3, 6);
    a.format = format;
    const Skeleton& s = a.skeletons.at(0);
    Animation anim;
    anim.name = "rise";
    anim.frameCount = std::uint32_t(frames);
    anim.framesPerSecond = 25;
    anim.skeleton = 0;
    for (const Bone& b : s.bones) {
        const Mat4 local =
            b.parent >= 0 ? inverse(s.bones[std::size_t(b.parent)].world) * b.world : b.world;
        BoneTrack t;
        t.bone = b.name;
        for (std::size_t f = 0; f < frames; ++f) {
            t.positions.push_back(
                {local.at(0, 3), local.at(1, 3) + 0.1f * float(f), local.at(2, 3)});
            if (rotations) t.rotations.push_back({0, 0, 0, 1});
            t.scales.push_back({1, 1, 1});
        }
        anim.tracks.push_back(t);
    }
    a.animations.push_back(anim);
    return a;
}

// makeSkinnedCylinder(2) with bind frames that are translations only (no inverse binds stored),
// and one animation `name` of `frames` frames (30 fps) turning Bone1 about Z by `radiansPerFrame`
// a frame (Bone0 still).
inline Asset bendingTube(int frames, const std::string& name, float radiansPerFrame) {
    Asset a = makeSkinnedCylinder(2);
    Skeleton& s = a.skeletons[0];
    for (Bone& b : s.bones) {
        const Vec3 t{b.world.at(0, 3), b.world.at(1, 3), b.world.at(2, 3)};
        b.world = translationMatrix(t);
        b.inverseBind.reset();
    }
    Animation anim;
    anim.name = name;
    anim.frameCount = std::uint32_t(frames);
    anim.skeleton = 0;
    for (int b = 0; b < 2; ++b) {
        BoneTrack t;
        t.bone = s.bones[std::size_t(b)].name;
        const Mat4 rel = b == 0 ? s.bones[0].world : inverse(s.bones[0].world) * s.bones[1].world;
        const Vec3 p{rel.at(0, 3), rel.at(1, 3), rel.at(2, 3)};
        for (int f = 0; f < frames; ++f) {
            const float angle = b == 1 ? radiansPerFrame * float(f) : 0.0f;
            t.positions.push_back(p);
            t.rotations.push_back(Vec4{0, 0, std::sin(angle), std::cos(angle)});
            t.scales.push_back(Vec3{1, 1, 1});
        }
        anim.tracks.push_back(t);
    }
    a.animations.push_back(anim);
    return a;
}

}  // namespace meshscope::test
