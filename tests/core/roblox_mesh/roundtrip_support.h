// Shared by the FileMesh writer, round-trip and prefix tests: the versions the writer knows, the
// generated fixtures, and comparisons of a decoded mesh with the mesh that was written.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"

namespace meshscope::test {

inline const std::vector<std::string>& writerVersions() {
    static const std::vector<std::string> v{"2.00", "3.00", "3.01", "4.00",
                                            "4.01", "5.00", "6.00", "7.00"};
    return v;
}

inline int majorOf(const std::string& version) {
    return version[0] - '0';
}

inline std::string safeName(std::string s) {
    for (char& c : s)
        if (c == '.') c = '_';
    return s;
}

// Writes `asset` and fails the test when the writer refuses.
inline Bytes writeOrFail(const Asset& asset, const FileMeshWriteOptions& options) {
    const FileMeshWriteResult w = writeFileMesh(asset, 0, options);
    EXPECT_TRUE(w.ok()) << options.version << ": " << w.error.value_or("");
    return w.bytes;
}

// The 4 tangent bytes the writer stores decode to b / 127 - 1: at most half a step away.
constexpr float kTangentTolerance = 0.5f / 127.0f + 1e-5f;
constexpr float kWeightTolerance = 1.0f / 255.0f + 1e-5f;

inline std::map<int, float> influenceMap(const VertexInfluences& v) {
    std::map<int, float> m;
    for (int k = 0; k < 4; ++k)
        if (v.weights[k] > 0.5f / 255.0f) m[v.joints[k]] += v.weights[k];  // stored as 0 below
    return m;
}

// Compares every face corner of `out` (decoded) with `in` (written), faces [first, first+count)
// of `in` against faces [0, count) of `out`. Vertices may have been reordered or duplicated by
// subset splitting, so attributes are compared through the corners.
inline void expectSameCorners(const Mesh& in, const Mesh& out, std::size_t first, std::size_t count,
                              bool skin, const std::string& what) {
    ASSERT_EQ(out.indices.size(), count * 3) << what;
    ASSERT_EQ(out.positions.size(), out.normals.size()) << what;
    ASSERT_EQ(out.positions.size(), out.uv0.size()) << what;
    ASSERT_EQ(out.positions.size(), out.tangents.size()) << what;
    ASSERT_EQ(out.positions.size(), out.colors.size()) << what;
    if (skin) {
        ASSERT_EQ(out.skin.size(), out.positions.size()) << what;
    }
    int failures = 0;
    for (std::size_t c = 0; c < count * 3 && failures < 5; ++c) {
        const std::uint32_t a = in.indices[first * 3 + c], b = out.indices[c];
        ASSERT_LT(b, out.positions.size()) << what;
        const auto where = what + " corner " + std::to_string(c);
        bool ok = true;
        ok &= in.positions[a] == out.positions[b];
        ok &= in.normals[a] == out.normals[b];
        ok &= in.uv0[a] == out.uv0[b];
        ok &= in.colors[a] == out.colors[b];
        const Vec4 &ti = in.tangents[a], &to = out.tangents[b];
        ok &= std::fabs(ti.x - to.x) <= kTangentTolerance &&
              std::fabs(ti.y - to.y) <= kTangentTolerance &&
              std::fabs(ti.z - to.z) <= kTangentTolerance && (ti.w < 0) == (to.w < 0);
        EXPECT_EQ(in.positions[a], out.positions[b]) << where;
        EXPECT_EQ(in.normals[a], out.normals[b]) << where;
        EXPECT_EQ(in.uv0[a], out.uv0[b]) << where;
        EXPECT_EQ(in.colors[a], out.colors[b]) << where;
        EXPECT_NEAR(ti.x, to.x, kTangentTolerance) << where;
        EXPECT_NEAR(ti.y, to.y, kTangentTolerance) << where;
        EXPECT_NEAR(ti.z, to.z, kTangentTolerance) << where;
        EXPECT_EQ(ti.w < 0, to.w < 0) << where;
        if (skin) {
            const auto mi = influenceMap(in.skin[a]), mo = influenceMap(out.skin[b]);
            bool same = mi.size() == mo.size();
            for (const auto& [joint, weight] : mi) {
                const auto it = mo.find(joint);
                same &= it != mo.end() && std::fabs(it->second - weight) <= kWeightTolerance;
            }
            EXPECT_TRUE(same) << where << ": skin differs";
            ok &= same;
        }
        failures += !ok;
    }
}

inline void expectSameSkeleton(const Skeleton& in, const Skeleton& out) {
    ASSERT_EQ(in.bones.size(), out.bones.size());
    for (std::size_t i = 0; i < in.bones.size(); ++i) {
        const Bone &a = in.bones[i], &b = out.bones[i];
        EXPECT_EQ(a.name, b.name) << "bone " << i;
        EXPECT_EQ(a.parent, b.parent) << "bone " << i;
        EXPECT_EQ(a.lodParent, b.lodParent) << "bone " << i;
        EXPECT_FLOAT_EQ(a.culling, b.culling) << "bone " << i;
        for (int k = 0; k < 16; ++k)
            EXPECT_NEAR(a.world.m[k], b.world.m[k], 1e-6f) << "bone " << i << " m[" << k << "]";
    }
}

// `quantized`: QuantizedMatrix version 2 (values within one step of (max - min) / 65535).
inline void expectSameFacs(const FacsRig& in, const FacsRig& out, bool quantized) {
    EXPECT_EQ(in.controlNames, out.controlNames);
    EXPECT_EQ(in.boneNames, out.boneNames);
    EXPECT_EQ(in.correctives, out.correctives);
    EXPECT_EQ(in.columnNames(), out.columnNames());
    ASSERT_EQ(in.rows, out.rows);
    ASSERT_EQ(in.cols, out.cols);
    for (int ch = 0; ch < 6; ++ch) {
        ASSERT_EQ(out.channels[ch].size(), std::size_t(in.rows) * in.cols) << "channel " << ch;
        float lo = in.channels[ch][0], hi = lo;
        for (float v : in.channels[ch]) lo = std::min(lo, v), hi = std::max(hi, v);
        const float tolerance = quantized ? (hi - lo) / 65535.0f + 1e-5f : 0.0f;
        for (std::uint32_t r = 0; r < in.rows; ++r)
            for (std::uint32_t c = 0; c < in.cols; ++c)
                EXPECT_NEAR(in.value(ch, r, c), out.value(ch, r, c), tolerance)
                    << "channel " << ch << " row " << r << " col " << c;
    }
}

}  // namespace meshscope::test
