// The real Second Life asset in corpus/secondlife (benthic-mmo/metaverse_client's
// crates/messages/tests/data/mesh_data.txt, a raw asset stored with a .txt name), decoded by the
// library and through `meshscope-cli info --json`, and written back.
//
// How the expected numbers were checked, independently of this decoder:
// - Header: read by hand from `xxd`: the LLSD map ends at 0x131 = 305; high_lod is
//   {offset 0x2ef9 = 12025, size 0x6a59 = 27225}, medium_lod {4353, 7672}, low_lod {2107, 2246},
//   lowest_lod {802, 1305}, physics_convex {598, 204}, skin {0, 598}; no version/creator/date.
//   305 + 12025 + 27225 = 39555, so the 39,577-byte file ends with 22 stray bytes
//   ("LLWearable version 22\n"), as FORMAT-NOTES says.
// - Blocks: inflated with Python's zlib and parsed by a separate 30-line Python LLSD reader.
//   Inflated sizes 35553 / 10096 / 3107 / 1869 / 219 / 3843 bytes (also in MANIFEST.md).
//   Each LOD has one submesh; Position bytes / 6 = vertices and TriangleList bytes / 6 =
//   triangles: high 6216/11232 → 1036 / 1872, medium 1782/2808 → 297 / 468, low 528/696 → 88 /
//   116, lowest 306/348 → 51 / 58. physics_convex: BoundingVerts 108 bytes → 18 points, Min/Max
//   present, no HullList. skin: 22 joint_names (listed below), 22 inverse_bind_matrix,
//   bind_shape_matrix[0] = 0.3440878391265869, [12..14] = (-0.10265499, 0.51780075, 1.15332043);
//   inverse_bind_matrix[0] = identity with [12..14] = (0.15492600, -0.51727110, -1.27073705).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "meshscope/core/error_codes.h"
#include "meshscope/core/secondlife_writer.h"
#include "sl_test_helpers.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

using namespace sltest;

const char* kRelative =
    "secondlife/benthic-mmo_metaverse_client/crates/messages/tests/data/mesh_data.txt";

const std::vector<std::string> kJoints = {
    "mPelvis",     "mTorso",        "mChest",      "mNeck",      "mHead",        "mSkull",
    "mCollarLeft", "mShoulderLeft", "mElbowLeft",  "mWristLeft", "mCollarRight", "mShoulderRight",
    "mElbowRight", "mWristRight",   "mHipLeft",    "mKneeLeft",  "mAnkleLeft",   "mFootLeft",
    "mHipRight",   "mKneeRight",    "mAnkleRight", "mFootRight"};

struct LodExpectation {
    const char* name;
    std::uint64_t offset, size, inflated;
    std::size_t vertices, triangles;
};
const LodExpectation kLods[] = {{"high_lod", 12025, 27225, 35553, 1036, 1872},
                                {"medium_lod", 4353, 7672, 10096, 297, 468},
                                {"low_lod", 2107, 2246, 3107, 88, 116},
                                {"lowest_lod", 802, 1305, 1869, 51, 58}};

TEST(SecondLifeCorpus, RealAssetDecodes) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const DecodeResult r = decodeFile((corpus / kRelative).string());
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Asset& a = r.asset;
    EXPECT_EQ(a.format, "secondlife-mesh");
    EXPECT_EQ(a.fileSize, 39577u);
    for (const auto& e : kLods) {
        SCOPED_TRACE(e.name);
        const Mesh* m = findMesh(a, e.name);
        ASSERT_NE(m, nullptr);
        EXPECT_EQ(m->vertexCount(), e.vertices);
        EXPECT_EQ(m->triangleCount(), e.triangles);
        EXPECT_EQ(m->surfaces.size(), 1u);
        EXPECT_TRUE(m->skinned());
        ASSERT_EQ(m->normals.size(), e.vertices);
        ASSERT_EQ(m->uv0.size(), e.vertices);
        const int n = findNode(a, e.name, "LOD");
        ASSERT_GE(n, 0);
        EXPECT_EQ(a.nodes[std::size_t(n)].offset, 305 + e.offset);
        EXPECT_EQ(a.nodes[std::size_t(n)].length, e.size);
        EXPECT_EQ(std::get<std::int64_t>(a.ownProperty(n, "inflatedSize")->value),
                  std::int64_t(e.inflated));
        // Every position inside its PositionDomain, which lies within ±0.5 in this file.
        EXPECT_TRUE(m->bounds.valid());
        EXPECT_GE(m->bounds.min.x, -0.5001f);
        EXPECT_LE(m->bounds.max.z, 0.5001f);
        // Every vertex is weighted to joints of the skin.
        for (const auto& inf : m->skin) {
            EXPECT_GT(inf.weights[0], 0.0f);
            for (auto j : inf.joints) EXPECT_LT(j, 22);
        }
    }
    ASSERT_EQ(a.skeletons.size(), 1u);
    std::vector<std::string> names;
    for (const auto& b : a.skeletons[0].bones) names.push_back(b.name);
    EXPECT_EQ(names, kJoints);
    // Parents from the default avatar skeleton.
    const Skeleton& sk = a.skeletons[0];
    EXPECT_EQ(sk.bones[sk.find("mKneeLeft")].parent, sk.find("mHipLeft"));
    EXPECT_EQ(sk.bones[sk.find("mTorso")].parent, sk.find("mPelvis"));
    EXPECT_EQ(sk.bones[sk.find("mCollarRight")].parent, sk.find("mChest"));
    EXPECT_EQ(sk.bones[0].parent, -1);

    const int skin = findNode(a, "skin", "skin");
    ASSERT_GE(skin, 0);
    const auto& bsm =
        std::get<std::vector<double>>(a.ownProperty(skin, "bind_shape_matrix")->value);
    EXPECT_NEAR(bsm[0], 0.3440878391265869, 1e-6);
    EXPECT_NEAR(bsm[12], -0.10265499353408813, 1e-6);
    EXPECT_NEAR(bsm[14], 1.1533204317092896, 1e-6);
    const int pelvis = findNode(a, "mPelvis", "bone");
    ASSERT_GE(pelvis, 0);
    const auto& ibm =
        std::get<std::vector<double>>(a.ownProperty(pelvis, "inverse_bind_matrix")->value);
    EXPECT_NEAR(ibm[12], 0.15492600202560425, 1e-6);
    EXPECT_NEAR(ibm[14], -1.2707370519638062, 1e-6);
    // Bone::inverseBind folds the bind shape in: IB · BSM, so world · inverseBind = identity.
    const Bone& b0 = sk.bones[0];
    const Mat4 product = b0.world * *b0.inverseBind;
    for (int i = 0; i < 16; ++i) EXPECT_NEAR(product.m[i], Mat4{}.m[i], 1e-4) << i;

    const Mesh* convex = findMesh(a, "physics_convex");
    ASSERT_NE(convex, nullptr);
    EXPECT_EQ(convex->vertexCount(), 18u);
    EXPECT_EQ(convex->primitive, Primitive::Lines);
    EXPECT_GE(convex->indices.size() / 2, 3u * 18 / 2);  // a closed hull has >= 3V/2 edges

    // The 22 stray bytes: a warning and a Padding range.
    EXPECT_TRUE(hasDiagnostic(a, errc::kTrailingBytes));
    bool padding = false;
    for (const auto& rg : a.byteMap.ranges())
        if (rg.kind == RangeKind::Padding && rg.offset == 39555 && rg.length == 22) padding = true;
    EXPECT_TRUE(padding);
}

TEST(SecondLifeCorpus, RealAssetWritesBack) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const DecodeResult r = decodeFile((corpus / kRelative).string());
    ASSERT_TRUE(r.ok());
    SecondLifeWriteOptions o;
    o.version.reset();
    const auto w = writeSecondLifeMesh(r.asset, o);
    ASSERT_TRUE(w.ok()) << *w.error;
    const DecodeResult again = decode(w.bytes);
    ASSERT_TRUE(again.ok()) << again.error->toString();
    EXPECT_EQ(again.asset.warningCount(), 0u);  // no stray bytes written
    for (const auto& e : kLods) {
        const Mesh* a = findMesh(r.asset, e.name);
        const Mesh* b = findMesh(again.asset, e.name);
        ASSERT_NE(b, nullptr);
        EXPECT_EQ(b->indices, a->indices);
        ASSERT_EQ(b->positions.size(), a->positions.size());
        for (std::size_t i = 0; i < a->positions.size(); ++i) {
            EXPECT_NEAR(b->positions[i].x, a->positions[i].x, 2e-5);
            EXPECT_NEAR(b->uv0[i].y, a->uv0[i].y, 2e-5);
        }
        // The file holds some influences of weight 0; the writer leaves zero weights out, so
        // joints are compared where the weight is not 0.
        for (std::size_t i = 0; i < a->skin.size(); ++i)
            for (int k = 0; k < 4; ++k) {
                EXPECT_NEAR(b->skin[i].weights[k], a->skin[i].weights[k], 1e-6);
                if (a->skin[i].weights[k] > 0) {
                    EXPECT_EQ(b->skin[i].joints[k], a->skin[i].joints[k]);
                }
            }
    }
    ASSERT_EQ(again.asset.skeletons.size(), 1u);
    for (std::size_t i = 0; i < 22; ++i) {
        const Mat4& x = *r.asset.skeletons[0].bones[i].inverseBind;
        const Mat4& y = *again.asset.skeletons[0].bones[i].inverseBind;
        for (int k = 0; k < 16; ++k) EXPECT_NEAR(x.m[k], y.m[k], 1e-4);
    }
}

TEST(SecondLifeCorpus, CliInfoJson) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const std::filesystem::path exe =
        std::filesystem::path(MESHSCOPE_BINARY_DIR) / "app" / "cli" / "meshscope-cli";
    if (!std::filesystem::exists(exe))
        GTEST_SKIP() << "SKIPPED: build the meshscope-cli target to run this test (" << exe << ")";
    const std::string cmd = exe.string() + " info --json '" + (corpus / kRelative).string() + "'";
    FILE* pipe = popen(cmd.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string out;
    char buf[4096];
    while (std::size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
    ASSERT_EQ(pclose(pipe), 0) << out;
    const auto j = nlohmann::json::parse(out);
    EXPECT_EQ(j["format"], "secondlife-mesh");
    // One mesh entry per LOD, named exactly as the blocks, triangles summed over submeshes.
    for (const auto& e : kLods) {
        bool found = false;
        for (const auto& m : j["meshes"]) {
            if (m["name"] != e.name) continue;
            found = true;
            EXPECT_EQ(m["triangles"], e.triangles) << e.name;
            EXPECT_EQ(m["vertices"], e.vertices) << e.name;
            EXPECT_EQ(m["skinned"], true);
        }
        EXPECT_TRUE(found) << e.name;
    }
    std::vector<std::string> bones = j["bones"];
    EXPECT_EQ(bones, kJoints);
    ASSERT_FALSE(j["warnings"].empty());
    EXPECT_NE(j["warnings"][0].get<std::string>().find("22 stray bytes"), std::string::npos);
}

}  // namespace
}  // namespace meshscope
