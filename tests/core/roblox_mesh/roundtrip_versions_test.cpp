// Round trips through every FileMesh version the writer knows: generated mesh → writeFileMesh →
// decodeBytes → the same vertices (through the face corners), faces, LOD offsets, bones, skin
// and FACS rig, within the quantization each version applies; and one warning per feature the
// version cannot hold.
#include <gtest/gtest.h>

#include <algorithm>

#include "meshscope/core/error_codes.h"
#include "roundtrip_support.h"

namespace meshscope::test {
namespace {

class RoundTrip : public ::testing::TestWithParam<std::string> {
protected:
    std::string version() const { return GetParam(); }
    int major() const { return majorOf(GetParam()); }

    // Writes and decodes; the decode must succeed without an error.
    DecodeResult roundTrip(const Asset& asset, FileMeshWriteOptions options = {}) {
        options.version = version();
        const FileMeshWriteResult w = writeFileMesh(asset, 0, options);
        EXPECT_TRUE(w.ok()) << w.error.value_or("");
        lastWarnings = w.warnings;
        DecodeResult r = decodeBytes(w.bytes);
        EXPECT_TRUE(r.ok()) << (r.error ? r.error->toString() : "");
        if (r.ok()) {
            EXPECT_EQ(r.asset.format, "roblox-mesh");
            EXPECT_EQ(r.asset.version, version());
            EXPECT_EQ(r.asset.meshes.size(), 1u);
        }
        return r;
    }
    std::size_t warningsMentioning(const std::string& word) const {
        return std::count_if(lastWarnings.begin(), lastWarnings.end(), [&](const std::string& w) {
            return w.find(word) != std::string::npos;
        });
    }
    std::vector<std::string> lastWarnings;
};

TEST_P(RoundTrip, SphereKeepsEveryVertexInOrder) {
    const Asset in = makeUvSphere(8, 12);
    const DecodeResult r = roundTrip(in);
    ASSERT_TRUE(r.ok() && r.asset.meshes.size() == 1);
    EXPECT_TRUE(lastWarnings.empty());
    const Mesh &a = in.meshes[0], &b = r.asset.meshes[0];
    ASSERT_EQ(b.positions.size(), a.positions.size());
    EXPECT_EQ(b.positions, a.positions);
    EXPECT_EQ(b.indices, a.indices);
    expectSameCorners(a, b, 0, a.triangleCount(), false, version());
    EXPECT_FALSE(b.skinned());
    if (major() >= 3) {
        EXPECT_EQ(b.lodOffsets, a.lodOffsets);
    }
    ASSERT_EQ(b.lods.size(), 1u);
    EXPECT_EQ(b.lods[0].triangleCount, a.triangleCount());
}

TEST_P(RoundTrip, LodLevelsSurviveFromVersion3) {
    const Asset in = makeLodSphere(3);
    const Mesh& a = in.meshes[0];
    ASSERT_EQ(a.lodOffsets.size(), 4u);
    const DecodeResult r = roundTrip(in);
    ASSERT_TRUE(r.ok() && r.asset.meshes.size() == 1);
    const Mesh& b = r.asset.meshes[0];
    if (major() == 2) {
        // Only LOD0's faces are written, with one warning.
        EXPECT_EQ(lastWarnings.size(), 1u);
        EXPECT_EQ(warningsMentioning("LOD"), 1u);
        expectSameCorners(a, b, 0, a.lodOffsets[1], false, version());
        ASSERT_EQ(b.lods.size(), 1u);
        return;
    }
    EXPECT_TRUE(lastWarnings.empty());
    EXPECT_EQ(b.lodOffsets, a.lodOffsets);
    ASSERT_EQ(b.lods.size(), 3u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(b.lods[i].firstTriangle, a.lods[i].firstTriangle);
        EXPECT_EQ(b.lods[i].triangleCount, a.lods[i].triangleCount);
    }
    EXPECT_EQ(b.positions, a.positions);
    expectSameCorners(a, b, 0, a.triangleCount(), false, version());
}

TEST_P(RoundTrip, SkinnedCylinderKeepsBonesAndWeightsFromVersion4) {
    const Asset in = makeSkinnedCylinder(3, 6, 8);
    const Mesh& a = in.meshes[0];
    const DecodeResult r = roundTrip(in);
    ASSERT_TRUE(r.ok() && r.asset.meshes.size() == 1);
    const Mesh& b = r.asset.meshes[0];
    if (major() < 4) {
        EXPECT_EQ(lastWarnings.size(), 1u);
        EXPECT_EQ(warningsMentioning("bones"), 1u);
        EXPECT_FALSE(b.skinned());
        EXPECT_TRUE(r.asset.skeletons.empty() || r.asset.skeletons[0].bones.empty());
        expectSameCorners(a, b, 0, a.triangleCount(), false, version());
        return;
    }
    EXPECT_TRUE(lastWarnings.empty());
    // Three bones fit one subset: no vertex is shared between subsets, the order is kept.
    EXPECT_EQ(b.positions, a.positions);
    expectSameCorners(a, b, 0, a.triangleCount(), true, version());
    ASSERT_GE(b.skeleton, 0);
    ASSERT_LT(std::size_t(b.skeleton), r.asset.skeletons.size());
    expectSameSkeleton(in.skeletons[0], r.asset.skeletons[b.skeleton]);
}

TEST_P(RoundTrip, FortyBonesAreSplitIntoSubsetsAndResolveBack) {
    const Asset in = makeSkinnedCylinder(40, 39, 6);
    const Mesh& a = in.meshes[0];
    const DecodeResult r = roundTrip(in);
    ASSERT_TRUE(r.ok() && r.asset.meshes.size() == 1);
    const Mesh& b = r.asset.meshes[0];
    const bool skin = major() >= 4;
    expectSameCorners(a, b, 0, a.triangleCount(), skin, version());
    if (!skin) return;
    // The ring where two subsets meet is written once per subset.
    EXPECT_GT(b.positions.size(), a.positions.size());
    EXPECT_GE(b.surfaces.size(), 2u);
    expectSameSkeleton(in.skeletons[0], r.asset.skeletons.at(b.skeleton));
}

TEST_P(RoundTrip, FacsHeadKeepsTheRigFromVersion5) {
    const Asset in = makeFacsHead();
    const Mesh& a = in.meshes[0];
    const DecodeResult r = roundTrip(in);
    ASSERT_TRUE(r.ok() && r.asset.meshes.size() == 1);
    const Mesh& b = r.asset.meshes[0];
    const std::size_t expectedWarnings = (major() < 4) + (major() < 5);
    EXPECT_EQ(lastWarnings.size(), expectedWarnings);
    if (major() < 5) {
        EXPECT_EQ(warningsMentioning("FACS"), 1u);
        EXPECT_TRUE(r.asset.facs.empty());
        EXPECT_LT(b.facs, 0);
    }
    expectSameCorners(a, b, 0, a.triangleCount(), major() >= 4, version());
    if (major() < 5) return;
    ASSERT_GE(b.facs, 0);
    ASSERT_LT(std::size_t(b.facs), r.asset.facs.size());
    const FacsRig& rig = r.asset.facs[b.facs];
    expectSameFacs(in.facs[0], rig, true);
    // Independent of the generator's table: the names the document composes for correctives.
    EXPECT_EQ(rig.columnNames(),
              (std::vector<std::string>{"c_JD", "l_EC", "c_JD_l_EC", "l_EC_c_JD_l_EC"}));
}

TEST_P(RoundTrip, RawFacsMatricesAreExact) {
    if (major() < 5) GTEST_SKIP() << "version " << version() << " holds no FACS";
    FileMeshWriteOptions options;
    options.facsMatrixVersion = 1;
    const Asset in = makeFacsHead();
    const DecodeResult r = roundTrip(in, options);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.asset.facs.size(), 1u);
    expectSameFacs(in.facs[0], r.asset.facs[0], false);
}

std::string versionName(const ::testing::TestParamInfo<std::string>& info) {
    return "v" + safeName(info.param);
}

INSTANTIATE_TEST_SUITE_P(FileMesh, RoundTrip, ::testing::ValuesIn(writerVersions()), versionName);

TEST(RoundTripOptions, Version2WithoutColoursReadsWhite) {
    const Asset in = makeUvSphere(6, 8);
    FileMeshWriteOptions options;
    options.version = "2.00";
    options.vertexColors = false;
    const FileMeshWriteResult w = writeFileMesh(in, 0, options);
    ASSERT_TRUE(w.ok());
    ASSERT_EQ(w.warnings.size(), 1u);  // the sphere has coloured vertices
    EXPECT_NE(w.warnings[0].find("colour"), std::string::npos);
    const DecodeResult r = decodeBytes(w.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& b = r.asset.meshes.at(0);
    // 36-byte vertices hold no RGBA: the decoder may give no colour stream or 255s.
    if (!b.colors.empty()) {
        ASSERT_EQ(b.colors.size(), in.meshes[0].positions.size());
    }
    for (const Rgba8& c : b.colors) EXPECT_EQ(c, (Rgba8{255, 255, 255, 255}));
    EXPECT_EQ(b.positions, in.meshes[0].positions);
}

TEST(RoundTripOptions, Version7WithPlainCoreMesh) {
    const Asset in = makeFacsHead();
    FileMeshWriteOptions options;
    options.version = "7.00";
    options.plainCoreMeshInV7 = true;
    const FileMeshWriteResult w = writeFileMesh(in, 0, options);
    ASSERT_TRUE(w.ok());
    const DecodeResult r = decodeBytes(w.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& b = r.asset.meshes.at(0);
    EXPECT_EQ(b.positions, in.meshes[0].positions);
    expectSameCorners(in.meshes[0], b, 0, in.meshes[0].triangleCount(), true, "7.00 plain");
    ASSERT_EQ(r.asset.facs.size(), 1u);
    expectSameFacs(in.facs[0], r.asset.facs[0], true);
}

TEST(RoundTripOptions, Version7QuantizedDracoStaysWithinTheQuantizationStep) {
    const Asset in = makeSkinnedCylinder(4, 10, 12);
    const Mesh& a = in.meshes[0];
    FileMeshWriteOptions options;
    options.version = "7.00";
    options.dracoPositionBits = 14;
    options.dracoNormalBits = 10;
    options.dracoUvBits = 12;
    const FileMeshWriteResult w = writeFileMesh(in, 0, options);
    ASSERT_TRUE(w.ok());
    const DecodeResult r = decodeBytes(w.bytes);
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& b = r.asset.meshes.at(0);
    ASSERT_EQ(b.positions.size(), a.positions.size());
    ASSERT_EQ(b.indices, a.indices);
    // Draco quantizes over the attribute's largest extent: step = range / (2^bits - 1).
    const float posStep = 4.0f / float((1 << 14) - 1), nStep = 2.0f / float((1 << 10) - 1),
                uvStep = 1.0f / float((1 << 12) - 1);
    for (std::size_t i = 0; i < a.positions.size(); ++i) {
        EXPECT_NEAR(a.positions[i].x, b.positions[i].x, posStep) << i;
        EXPECT_NEAR(a.positions[i].y, b.positions[i].y, posStep) << i;
        EXPECT_NEAR(a.positions[i].z, b.positions[i].z, posStep) << i;
        EXPECT_NEAR(a.normals[i].x, b.normals[i].x, nStep) << i;
        EXPECT_NEAR(a.normals[i].z, b.normals[i].z, nStep) << i;
        EXPECT_NEAR(a.uv0[i].x, b.uv0[i].x, uvStep) << i;
        EXPECT_NEAR(a.uv0[i].y, b.uv0[i].y, uvStep) << i;
        EXPECT_EQ(a.colors[i], b.colors[i]) << i;
        ASSERT_EQ(b.skin.size(), a.positions.size());
        const auto mi = influenceMap(a.skin[i]), mo = influenceMap(b.skin[i]);
        ASSERT_EQ(mi.size(), mo.size()) << i;
        for (const auto& [j, wgt] : mi) EXPECT_NEAR(mo.at(j), wgt, kWeightTolerance) << i;
    }
}

// A head whose face bones carry no skin weight moves nothing when its controls do (a real v5
// head, krakow10 15256456161, weights every vertex to Head): each face bone says how many
// vertices follow it, and an Info names the controls that change nothing, in both decodes.
TEST(RoundTripOptions, FaceBonesWithoutWeightedVerticesAreNamed) {
    auto decodeV5 = [](const Asset& in, bool loadGeometry) {
        FileMeshWriteOptions options;
        options.version = "5.00";
        const FileMeshWriteResult w = writeFileMesh(in, 0, options);
        EXPECT_TRUE(w.ok());
        DecodeOptions decode;
        decode.loadGeometry = loadGeometry;
        return decodeBytes(w.bytes, decode);
    };
    auto unweightedNotes = [](const DecodeResult& r) {
        std::vector<std::string> out;
        for (const Diagnostic& d : r.asset.diagnostics)
            if (d.code == errc::kFacsUnweightedBones) out.push_back(d.message);
        return out;
    };
    auto weightedVertices = [](const DecodeResult& r) {
        std::map<std::string, std::int64_t> out;
        for (std::size_t n = 0; n < r.asset.nodes.size(); ++n)
            if (r.asset.kind(int(n)) == "faceBone")
                if (const auto p = r.asset.property(int(n), "weightedVertices"))
                    out[std::string(r.asset.name(int(n)))] = std::get<std::int64_t>(p->value);
        return out;
    };

    const DecodeResult whole = decodeV5(makeFacsHead(), true);
    ASSERT_TRUE(whole.ok());
    EXPECT_TRUE(unweightedNotes(whole).empty());
    const auto counts = weightedVertices(whole);
    ASSERT_EQ(counts.size(), 3u);
    for (const auto& [bone, n] : counts) EXPECT_GT(n, 0) << bone;

    // The jaw's weight given to Head, and JawDrop made to move the jaw alone.
    Asset still = makeFacsHead();
    Mesh& m = still.meshes[0];
    const int jaw = still.skeletons[0].find("Jaw"), head = still.skeletons[0].find("Head");
    for (VertexInfluences& v : m.skin)
        for (std::size_t k = 0; k < 4; ++k)
            if (v.joints[k] == jaw) v.joints[k] = std::uint16_t(head);
    FacsRig& rig = still.facs[0];
    for (auto& channel : rig.channels)
        for (std::uint32_t row = 1; row < rig.rows; ++row) channel[row * rig.cols + 0] = 0.0f;
    for (const bool load : {true, false}) {
        const DecodeResult r = decodeV5(still, load);
        ASSERT_TRUE(r.ok());
        const std::vector<std::string> notes = unweightedNotes(r);
        ASSERT_EQ(notes.size(), 1u) << "loadGeometry " << load;
        EXPECT_NE(notes[0].find("1 of the 3 face bones"), std::string::npos) << notes[0];
        EXPECT_NE(notes[0].find("1 of 2 controls"), std::string::npos) << notes[0];
        EXPECT_NE(notes[0].find("JawDrop"), std::string::npos) << notes[0];
        EXPECT_EQ(notes[0].find("EyeClosed"), std::string::npos) << notes[0];
        const auto c = weightedVertices(r);
        EXPECT_EQ(c.at("Jaw"), 0);
        EXPECT_GT(c.at("LeftUpperEyelid"), 0);
    }
}

}  // namespace
}  // namespace meshscope::test
