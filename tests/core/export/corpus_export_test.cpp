// Every real file in the shared corpus that decodes is exported to glTF and read back with
// tinygltf: the vertex, triangle, line, joint and weight counts are those of the decoded asset,
// FACS rigs give morph targets or a warning saying why not, and models give one node per visible
// part. `assimp info` must agree on every real FileMesh (skipped visibly without assimp).
#include <gtest/gtest.h>

#include <set>

#include "export_test_util.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "support/test_support.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

struct Decoded {
    std::filesystem::path path;
    Asset asset;
};

std::vector<Decoded> decodedCorpus(const std::filesystem::path& dir) {
    std::vector<Decoded> out;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        const auto ext = f.extension().string();
        if (ext == ".md" || ext == ".png" || ext == ".obj") continue;
        DecodeResult r = decodeFile(f.string());
        if (r.ok()) out.push_back({f, std::move(r.asset)});
    }
    return out;
}

// Visible parts, counted here without the exporter's helpers: the BasePart classes that draw,
// with a CFrame and a size, not fully transparent.
std::size_t visibleParts(const Asset& a) {
    static const std::set<std::string, std::less<>> classes = {
        "Part",     "WedgePart",      "CornerWedgePart",    "TrussPart",    "SpawnLocation",
        "Seat",     "VehicleSeat",    "SkateboardPlatform", "FlagStand",    "Platform",
        "MeshPart", "UnionOperation", "IntersectOperation", "PartOperation"};
    // NegateOperations are left out of exports (they only cut other parts).
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        if (!classes.contains(a.kind(int(i)))) continue;
        const auto cf = a.property(int(i), "CFrame");
        const auto size =
            a.property(int(i), "size") ? a.property(int(i), "size") : a.property(int(i), "Size");
        if (!cf || !size || !std::holds_alternative<CFrame>(cf->value) ||
            !std::holds_alternative<Vec3>(size->value))
            continue;
        if (!std::get<Vec3>(size->value).finite() || !std::get<CFrame>(cf->value).position.finite())
            continue;
        const auto t = a.property(int(i), "Transparency");
        if (t && std::holds_alternative<double>(t->value) && std::get<double>(t->value) >= 1.0)
            continue;
        ++n;
    }
    return n;
}

}  // namespace

TEST(CorpusExport, EveryDecodableFileRoundTripsThroughGltf) {
    MESHSCOPE_REQUIRE_CORPUS(dir);
    const auto corpus = decodedCorpus(dir);
    ASSERT_FALSE(corpus.empty());
    // Every level and physics shape, as expectedMeshCounts counts, and every part, as
    // visibleParts counts (a place's parts outside Workspace too).
    ExportOptions everything;
    everything.allLods = true;
    everything.physics = true;
    everything.allServices = true;
    std::size_t exported = 0, withMeshes = 0, withParts = 0, withTargets = 0;
    for (const auto& [path, asset] : corpus) {
        SCOPED_TRACE(path.string());
        const std::size_t parts = visibleParts(asset);
        const Counts expected = expectedMeshCounts(asset);
        bool bones = false;
        for (const auto& s : asset.skeletons) bones = bones || !s.bones.empty();
        if (expected.meshes == 0 && parts == 0 && !bones) continue;  // nothing to export
        const GlbBytes glb = exportGlb(asset, everything);
        ASSERT_TRUE(glb.report.ok()) << glb.report.error.value_or("");
        tinygltf::Model m;
        std::string err;
        ASSERT_TRUE(loadGlb(glb.bytes, m, err)) << err;
        ++exported;
        Counts got = gltfCounts(m);
        EXPECT_EQ(glb.report.stats.parts, parts);
        // Part meshes are shared primitives: compare the asset's own meshes only.
        std::size_t partMeshes = 0, partNodes = 0;
        for (const auto& n : m.nodes)
            if (n.mesh >= 0 && !n.scale.empty()) ++partNodes;
        std::set<int> partMeshSet;
        for (const auto& n : m.nodes)
            if (n.mesh >= 0 && !n.scale.empty()) partMeshSet.insert(n.mesh);
        for (int mi : partMeshSet) {
            const auto& p = m.meshes[std::size_t(mi)].primitives[0];
            got.vertices -= m.accessors[std::size_t(p.attributes.at("POSITION"))].count;
            got.triangles -= m.accessors[std::size_t(p.indices)].count / 3;
            ++partMeshes;
        }
        got.meshes -= partMeshes;
        EXPECT_EQ(partNodes, parts);
        Counts want = expected;
        want.morphTargets = got.morphTargets;
        EXPECT_EQ(got, want);
        if (expected.meshes) ++withMeshes;
        if (parts) ++withParts;
        // A face rig becomes morph targets, or the report says why not.
        for (std::size_t i = 0; i < asset.meshes.size(); ++i) {
            if (asset.meshes[i].facs < 0) continue;
            bool explained = false;
            for (const auto& w : glb.report.warnings)
                explained = explained || w.find("FACS rig not exported") != std::string::npos;
            EXPECT_TRUE(got.morphTargets > 0 || explained);
            if (got.morphTargets > 0) ++withTargets;
        }
    }
    // The corpus holds FileMeshes of every layout, Second Life meshes and models with parts.
    EXPECT_GE(withMeshes, 20u);
    EXPECT_GE(withParts, 5u);
    EXPECT_GE(withTargets, 1u);
    std::cout << "exported " << exported << " of " << corpus.size() << " decodable corpus files ("
              << withMeshes << " with meshes, " << withParts << " with parts, " << withTargets
              << " with FACS morph targets)\n";
}

TEST(CorpusExport, AssimpAgreesOnEveryRealFileMesh) {
    MESHSCOPE_REQUIRE_CORPUS(dir);
    if (!assimpAvailable())
        GTEST_SKIP() << "SKIPPED: assimp is not installed (Debian package assimp-utils)";
    const auto out = tempDir("export_corpus_assimp");
    std::size_t checked = 0;
    for (const auto& [path, asset] : decodedCorpus(dir / "roblox-mesh")) {
        SCOPED_TRACE(path.string());
        const auto glb = out / (std::to_string(checked) + ".glb");
        const ExportResult r = exportAsset(asset, glb.string());
        ASSERT_TRUE(r.ok()) << r.error.value_or("");
        const AssimpInfo info = assimpInfo(glb);
        ASSERT_TRUE(info.ok) << info.text;
        const Counts c = expectedMeshCounts(asset, 0);  // the default export: LOD 0
        EXPECT_EQ(info.meshes, c.meshes) << info.text;
        EXPECT_EQ(info.vertices, c.vertices) << info.text;
        EXPECT_EQ(info.faces, c.triangles) << info.text;
        EXPECT_EQ(info.bones, c.meshJoints) << info.text;
        ++checked;
    }
    EXPECT_GE(checked, 20u);
}
