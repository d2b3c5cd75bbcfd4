// Generated inputs of every decoder family that reports progress and can be cancelled, at a
// chosen size: shared by the cancellation tests (tests/core/robustness/cancel_test.cpp, small
// inputs) and the latency benchmark (tests/bench/bench_cancel_latency.cpp, inputs that take
// seconds to decode).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/secondlife_writer.h"
#include "meshscope/core/unigine_writer.h"
#include "support/test_support.h"

namespace meshscope::test::cancel_inputs {

struct Input {
    Bytes bytes;       // empty when the writer failed (error says why)
    std::string what;  // "4194304 triangles"
    std::string error;
};

inline Input fileMesh(std::size_t triangles, const char* version) {
    FileMeshWriteOptions o;
    o.version = version;
    auto r = writeFileMesh(makeGridMesh(std::uint32_t(triangles)), 0, o);
    return {std::move(r.bytes), std::to_string(triangles) + " triangles", r.error.value_or("")};
}

inline Input binaryPlace(std::size_t parts) {
    auto r = writeRobloxModel(makeRobloxPlace(parts));
    return {std::move(r.bytes), std::to_string(parts) + " parts", r.error.value_or("")};
}

// An XML model of `items` Parts (about 370 bytes each).
inline Input xmlModel(std::size_t items) {
    const std::string doc = xmlPartsModel(items);
    return {Bytes(doc.begin(), doc.end()), std::to_string(items) + " items", ""};
}

// A Second Life mesh whose high LOD holds `triangles` (rounded up to 60 000) as one submesh per
// 60 000 triangles (u16 indices).
inline Input secondLifeMesh(std::size_t triangles) {
    Asset a;
    const Mesh m = makeGridMesh(60'000).meshes[0];
    Mesh high;
    high.name = "high_lod";
    for (std::size_t done = 0; done < triangles; done += 60'000) {
        const std::uint32_t base = std::uint32_t(high.positions.size());
        high.positions.insert(high.positions.end(), m.positions.begin(), m.positions.end());
        high.normals.insert(high.normals.end(), m.normals.begin(), m.normals.end());
        high.uv0.insert(high.uv0.end(), m.uv0.begin(), m.uv0.end());
        const std::uint32_t first = std::uint32_t(high.indices.size() / 3);
        for (std::uint32_t i : m.indices) high.indices.push_back(base + i);
        high.surfaces.push_back({"face", first, std::uint32_t(m.indices.size() / 3), base,
                                 std::uint32_t(m.positions.size())});
    }
    high.lods = {LodLevel{0, std::uint32_t(high.indices.size() / 3), "LOD0"}};
    a.meshes.push_back(std::move(high));
    SecondLifeWriteOptions o;
    o.compressionLevel = 1;
    auto r = writeSecondLifeMesh(a, o);
    return {std::move(r.bytes), std::to_string(triangles) + " triangles", r.error.value_or("")};
}

// A Unigine ms08 skinned mesh: a 20-bone cylinder of `rings` × 256 vertices.
inline Input unigineSkinnedMesh(std::size_t rings) {
    auto r = writeUnigineSkinnedMesh(makeSkinnedCylinder(20, int(rings), 256));
    return {std::move(r.bytes), std::to_string(rings * 256) + " vertices", r.error.value_or("")};
}

// A Unigine as08 animation of `frames` frames of 50 bones (decoded, a bone-frame takes 40 bytes).
inline Input unigineAnimation(std::size_t frames) {
    Asset a = makeSkinnedCylinder(50, 2, 3);
    Animation anim;
    anim.name = "long";
    anim.frameCount = std::uint32_t(frames);
    anim.skeleton = 0;
    for (const auto& bone : a.skeletons[0].bones) {
        BoneTrack t;
        t.bone = bone.name;
        for (std::size_t f = 0; f < frames; ++f) {
            const float x = float(f % 97) * 0.01f;
            t.positions.push_back({x, 0, -x});
            t.rotations.push_back({0, 0, 0, 1});
            t.scales.push_back({1, 1, 1});
        }
        anim.tracks.push_back(std::move(t));
    }
    a.animations.push_back(std::move(anim));
    auto r = writeUnigineAnimation(a, 0);
    return {std::move(r.bytes), std::to_string(frames) + " frames × 50 bones",
            r.error.value_or("")};
}

}  // namespace meshscope::test::cancel_inputs
