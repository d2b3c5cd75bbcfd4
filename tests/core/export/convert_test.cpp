// FileMesh conversion to every target version from generated meshes: reading the result back
// keeps the geometry (face corners, within the tangent/weight quantization), and every feature the
// target version cannot hold is dropped with a warning that names it.
#include <gtest/gtest.h>

#include <cmath>

#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "meshscope/core/mesh_generators.h"

using namespace meshscope;

namespace {

const std::vector<std::string> kTargets = {"2.00", "3.00", "4.00", "5.00", "6.00", "7.00"};

bool hasWarning(const std::vector<std::string>& warnings, const std::string& needle) {
    for (const auto& w : warnings)
        if (w.find(needle) != std::string::npos) return true;
    return false;
}

// Every face corner of `out` against `in`'s faces [first, first + count).
void expectSameCorners(const Mesh& in, const Mesh& out, std::size_t first, std::size_t count,
                       const std::string& what) {
    ASSERT_EQ(out.indices.size(), count * 3) << what;
    for (std::size_t c = 0; c < count * 3; ++c) {
        const auto a = in.indices[first * 3 + c], b = out.indices[c];
        ASSERT_LT(b, out.positions.size()) << what;
        EXPECT_NEAR(out.positions[b].x, in.positions[a].x, 1e-5f) << what << " corner " << c;
        EXPECT_NEAR(out.positions[b].y, in.positions[a].y, 1e-5f) << what << " corner " << c;
        EXPECT_NEAR(out.positions[b].z, in.positions[a].z, 1e-5f) << what << " corner " << c;
        EXPECT_NEAR(out.normals[b].x, in.normals[a].x, 1e-5f) << what << " corner " << c;
        EXPECT_NEAR(out.uv0[b].x, in.uv0[a].x, 1e-5f) << what << " corner " << c;
        EXPECT_NEAR(out.uv0[b].y, in.uv0[a].y, 1e-5f) << what << " corner " << c;
        // Tangents are stored as bytes b / 127 - 1: at most half a step away.
        EXPECT_NEAR(out.tangents[b].x, in.tangents[a].x, 0.5f / 127 + 1e-5f) << what;
        EXPECT_EQ(out.colors[b], in.colors[a]) << what;
    }
}

DecodeResult convertAndRead(const Asset& src, const std::string& version,
                            std::vector<std::string>& warnings) {
    const FileMeshWriteResult w = convertToFileMesh(src, version);
    EXPECT_TRUE(w.ok()) << version << ": " << w.error.value_or("");
    warnings = w.warnings;
    DecodeResult r = decodeBytes(w.bytes);
    EXPECT_TRUE(r.ok()) << version << ": " << (r.error ? r.error->toString() : "");
    EXPECT_EQ(r.asset.format, "roblox-mesh");
    EXPECT_EQ(r.asset.version, version);
    return r;
}

}  // namespace

TEST(Convert, FacsHeadToEveryVersionKeepsGeometryAndWarnsWhatIsDropped) {
    const Asset src = makeFacsHead();
    const Mesh& in = src.meshes[0];
    for (const std::string& v : kTargets) {
        SCOPED_TRACE(v);
        std::vector<std::string> warnings;
        const DecodeResult r = convertAndRead(src, v, warnings);
        if (!r.ok()) continue;
        ASSERT_EQ(r.asset.meshes.size(), 1u);
        const Mesh& out = r.asset.meshes[0];
        expectSameCorners(in, out, 0, in.indices.size() / 3, v);
        const int major = v[0] - '0';
        EXPECT_EQ(hasWarning(warnings, "cannot hold bones or skin weights"), major < 4);
        EXPECT_EQ(hasWarning(warnings, "cannot hold a FACS rig"), major < 5);
        if (major >= 4) {
            ASSERT_GE(out.skeleton, 0);
            EXPECT_EQ(r.asset.skeletons[std::size_t(out.skeleton)].bones.size(),
                      src.skeletons[0].bones.size());
            EXPECT_EQ(out.skin.size(), out.positions.size());
        } else {
            EXPECT_TRUE(out.skin.empty());
        }
        if (major >= 5) {
            ASSERT_GE(out.facs, 0);
            EXPECT_EQ(r.asset.facs[std::size_t(out.facs)].controlNames, src.facs[0].controlNames);
            EXPECT_EQ(r.asset.facs[std::size_t(out.facs)].correctives.size(),
                      src.facs[0].correctives.size());
        } else {
            EXPECT_EQ(out.facs, -1);
        }
        // Nothing else is dropped from this head.
        for (const auto& w : warnings)
            EXPECT_TRUE(w.find("bones") != std::string::npos || w.find("FACS") != std::string::npos)
                << w;
    }
}

TEST(Convert, LodsSurviveFromThreeOnVersionTwoKeepsLodZero) {
    const Asset src = makeLodSphere(3);
    const Mesh& in = src.meshes[0];
    for (const std::string& v : kTargets) {
        SCOPED_TRACE(v);
        std::vector<std::string> warnings;
        const DecodeResult r = convertAndRead(src, v, warnings);
        if (!r.ok()) continue;
        const Mesh& out = r.asset.meshes[0];
        if (v == "2.00") {
            EXPECT_TRUE(hasWarning(warnings, "cannot hold LODs"));
            expectSameCorners(in, out, in.lods[0].firstTriangle, in.lods[0].triangleCount, v);
        } else {
            EXPECT_FALSE(hasWarning(warnings, "LOD"));
            ASSERT_EQ(out.lods.size(), in.lods.size());
            for (std::size_t l = 0; l < in.lods.size(); ++l)
                EXPECT_EQ(out.lods[l].triangleCount, in.lods[l].triangleCount);
            expectSameCorners(in, out, 0, in.indices.size() / 3, v);
        }
    }
}

TEST(Convert, WhatNoFileMeshHoldsIsWarnedForEveryVersion) {
    Asset src = makeUvSphere(4, 6);
    src.meshes[0].uv1 = src.meshes[0].uv0;               // a second UV set
    src.meshes.push_back(makeUvSphere(3, 4).meshes[0]);  // a second mesh
    Mesh lines;
    lines.primitive = Primitive::Lines;
    lines.positions = {{0, 0, 0}, {1, 0, 0}};
    lines.indices = {0, 1};
    src.meshes.push_back(lines);
    src.animations.push_back(Animation{});
    for (const std::string& v : kTargets) {
        SCOPED_TRACE(v);
        std::vector<std::string> warnings;
        const DecodeResult r = convertAndRead(src, v, warnings);
        EXPECT_TRUE(hasWarning(warnings, "second UV set"));
        EXPECT_TRUE(hasWarning(warnings, "1 other mesh(es) dropped"));
        EXPECT_TRUE(hasWarning(warnings, "1 line mesh(es) dropped"));
        EXPECT_TRUE(hasWarning(warnings, "no animations: 1 dropped"));
        if (r.ok()) {
            EXPECT_EQ(r.asset.meshes[0].indices, src.meshes[0].indices);
        }
    }
}

TEST(Convert, RefusesWhatCannotBeWritten) {
    EXPECT_FALSE(convertToFileMesh(makeUvSphere(), "1.00").ok());
    EXPECT_FALSE(convertToFileMesh(makeUvSphere(), "8.00").ok());
    EXPECT_FALSE(convertToFileMesh(Asset{}, "4.00").ok());
}
