// Real heads from the corpus: every v5/v7 FileMesh posed with every FACS control at 1 stays
// finite, and the bind pose reproduces the stored vertices. MANIFEST.md lists which files carry
// FACS (facsFormat=1 or a FACS chunk); those must decode to a rig.
#include <cmath>
#include <filesystem>

#include "pose_test_util.h"
#include "support/test_support.h"

using namespace meshscope;

namespace {

// From corpus/MANIFEST.md: the v5.00 (facsFormat=1) and v7.00 (FACS chunk) heads.
const char* const kFacsHeads[] = {
    "roblox-mesh/krakow10_rbx_mesh/meshes/13674780763",
    "roblox-mesh/krakow10_rbx_mesh/meshes/15256456161",
    "roblox-mesh/krakow10_rbx_mesh/meshes/mesh7_100025761449828.bin",
};

bool isV5OrV7(const std::vector<std::uint8_t>& b) {
    static const std::string v5 = "version 5.", v7 = "version 7.";
    return b.size() > 10 && (std::equal(v5.begin(), v5.end(), b.begin()) ||
                             std::equal(v7.begin(), v7.end(), b.begin()));
}

void checkPosedFinite(const Asset& asset, const std::string& file) {
    for (const Mesh& mesh : asset.meshes) {
        static const Skeleton kNone;
        const Skeleton& skel =
            mesh.skeleton >= 0 ? asset.skeletons.at(std::size_t(mesh.skeleton)) : kNone;
        const FacsRig* rig = mesh.facs >= 0 ? &asset.facs.at(std::size_t(mesh.facs)) : nullptr;
        PoseEvaluator eval(skel, rig);
        EXPECT_TRUE(eval.order().clean()) << file;

        // Bind pose: skinning matrices are identities, vertices come back unchanged.
        eval.update(Pose{});
        std::vector<Vec3> p, n;
        eval.skin(mesh, p, &n);
        ASSERT_EQ(p.size(), mesh.positions.size());
        const float scale = std::max(1.0f, mesh.bounds.valid() ? mesh.bounds.size().x : 1.0f);
        for (std::size_t v = 0; v < p.size(); ++v) {
            if (!mesh.positions[v].finite()) continue;
            ASSERT_NEAR(p[v].x, mesh.positions[v].x, 1e-3f * scale) << file << " vertex " << v;
            ASSERT_NEAR(p[v].y, mesh.positions[v].y, 1e-3f * scale) << file << " vertex " << v;
            ASSERT_NEAR(p[v].z, mesh.positions[v].z, 1e-3f * scale) << file << " vertex " << v;
        }

        // Every control at 1 (so every corrective at 1 too).
        const std::vector<float> all(rig ? rig->controlNames.size() : 0, 1.0f);
        eval.update(Pose{}, all);
        if (rig) {
            EXPECT_EQ(rig->cols, rig->columnCount()) << file;
            ASSERT_EQ(eval.facs().bones.size(), rig->rows) << file;
            for (const auto& b : eval.facs().bones) {
                EXPECT_TRUE(b.position.finite() && b.rotation.finite()) << file;
                EXPECT_TRUE(test::finite(b.transform)) << file;
            }
        }
        for (const Mat4& m : eval.world()) EXPECT_TRUE(test::finite(m)) << file;
        for (const Mat4& m : eval.skinning()) EXPECT_TRUE(test::finite(m)) << file;
        eval.skin(mesh, p, &n);
        std::size_t bad = 0;
        for (std::size_t v = 0; v < p.size(); ++v)
            if (mesh.positions[v].finite() && !p[v].finite()) ++bad;
        for (std::size_t v = 0; v < n.size(); ++v)
            if (mesh.normals[v].finite() && !n[v].finite()) ++bad;
        EXPECT_EQ(bad, 0u) << file << ": non-finite posed vertices or normals";
        EXPECT_TRUE(boundsOf(p).valid() || mesh.positions.empty()) << file;
    }
}

}  // namespace

TEST(PoseCorpus, FacsHeadsWithEveryControlAtOneStayFinite) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    for (const char* rel : kFacsHeads) {
        const auto path = corpus / rel;
        ASSERT_TRUE(std::filesystem::exists(path)) << path;
        const DecodeResult r = decodeBytes(test::readFile(path));
        ASSERT_TRUE(r.ok()) << rel << ": " << r.error->toString();
        ASSERT_FALSE(r.asset.facs.empty()) << rel << " is listed with FACS in MANIFEST.md";
        bool meshHasRig = false;
        for (const Mesh& m : r.asset.meshes) meshHasRig |= m.facs >= 0;
        EXPECT_TRUE(meshHasRig) << rel;
        checkPosedFinite(r.asset, rel);
    }
}

TEST(PoseCorpus, EveryV5AndV7MeshPosesFinite) {
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    int checked = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(corpus / "roblox-mesh")) {
        if (!e.is_regular_file()) continue;
        const auto bytes = test::readFile(e.path());
        if (!isV5OrV7(bytes)) continue;
        const DecodeResult r = decodeBytes(bytes);
        ASSERT_TRUE(r.ok()) << e.path() << ": " << r.error->toString();
        checkPosedFinite(r.asset, e.path().string());
        ++checked;
    }
    // MANIFEST.md: two v5.00 files and three v7.00 files.
    EXPECT_EQ(checked, 5);
}

TEST(PoseCorpus, JawDropMovesTheJawDownward) {
    // A plausibility check of the composition conventions on a real head: in Roblox, +Y is up, so
    // dropping the jaw moves the bones hanging off it (the tongue root) down.
    MESHSCOPE_REQUIRE_CORPUS(corpus);
    const DecodeResult r = decodeBytes(test::readFile(corpus / kFacsHeads[0]));
    ASSERT_TRUE(r.ok()) << r.error->toString();
    const Mesh& mesh = r.asset.meshes.at(0);
    const Skeleton& skel = r.asset.skeletons.at(std::size_t(mesh.skeleton));
    const FacsRig& rig = r.asset.facs.at(std::size_t(mesh.facs));
    const int tongue = skel.find("TongueRoot");
    const int jd = findRigControl(rig, "JawDrop");
    ASSERT_GE(tongue, 0) << kFacsHeads[0] << " has no TongueRoot bone";
    ASSERT_GE(jd, 0) << kFacsHeads[0] << " has no JawDrop control";
    PoseEvaluator eval(skel, &rig);
    std::vector<float> w(rig.controlNames.size(), 0.0f);
    eval.update(Pose{}, w);
    const float before = eval.world()[std::size_t(tongue)].at(1, 3);
    w[std::size_t(jd)] = 1;
    eval.update(Pose{}, w);
    EXPECT_LT(eval.world()[std::size_t(tongue)].at(1, 3), before - 0.01f);
}
