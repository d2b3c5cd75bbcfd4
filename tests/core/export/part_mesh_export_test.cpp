// MeshParts and SpecialMesh FileMesh parts in glTF and OBJ exports: their meshes resolved through
// the asset folders (as the viewer resolves them) are written as their geometry, fitted and
// placed like the part; those not found stay boxes, one counted warning per kind. Fixtures are
// made by the project's writers: FileMeshes named by asset id in a temporary folder, and a
// binary model (.rbxm) that refers to them, decoded again before export.
#include <gtest/gtest.h>

#include <map>

#include "export_test_util.h"
#include "gltf_validator_util.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_parts.h"
#include "support/test_support.h"

using namespace meshscope;
using test::prop;

namespace {

int part(Asset& a, int parent, const char* name, const char* cls, Vec3 pos, Vec3 size) {
    const int n = a.addNode(name, cls, parent);
    a.addChild(parent, n);
    CFrame cf;
    cf.position = pos;
    a.addProperty(n, prop("Name", "string", std::string(name)));
    a.addProperty(n, prop("CFrame", "CFrame", cf));
    a.addProperty(n, prop("size", "Vector3", size));
    return n;
}

void specialMesh(Asset& a, int parentPart, const std::string& meshId, Vec3 scale) {
    const int m = a.addNode("Mesh", "SpecialMesh", parentPart);
    a.addChild(parentPart, m);
    a.addProperty(m, prop("Name", "string", std::string("Mesh")));
    a.addProperty(m, prop("MeshType", "Enum", std::int64_t(5)));  // FileMesh
    a.addProperty(m, prop("MeshId", "Content", meshId));
    a.addProperty(m, prop("Scale", "Vector3", scale));
    a.addProperty(m, prop("Offset", "Vector3", Vec3{}));
}

// Two FileMeshes in a temporary asset folder (files "1001": a 3-level LOD sphere, "1002": a UV
// sphere) and a .rbxm with a MeshPart and a SpecialMesh part using them, plus one of each whose
// mesh is not there. Returns the decoded model.
struct Fixture {
    std::filesystem::path folder;
    Asset model;
    Asset lodSphere = makeLodSphere(3);
    Asset uvSphere = makeUvSphere(8, 12);
};

Fixture makeFixture(const std::string& name) {
    Fixture f;
    f.folder = test::tempDir(name);
    // tempDir empties its folder: each FileMesh is written in its own, then moved.
    std::filesystem::rename(test::writeFileMeshFixture(name + "_a", "a.mesh", f.lodSphere),
                            f.folder / "1001");
    std::filesystem::rename(test::writeFileMeshFixture(name + "_b", "b.mesh", f.uvSphere),
                            f.folder / "1002");
    Asset a;
    a.format = "roblox-model";
    const int ws = a.addNode("Workspace", "Workspace");
    const int rock = part(a, ws, "Rock", "MeshPart", {10, 0, 0}, {4, 6, 8});
    a.addProperty(rock, prop("MeshId", "Content", std::string("rbxassetid://1001")));
    const int hat = part(a, ws, "Hat", "Part", {0, 5, 0}, {1, 1, 1});
    specialMesh(a, hat, "rbxassetid://1002", {2, 2, 2});
    const int lost = part(a, ws, "Lost", "MeshPart", {0, 0, 9}, {1, 2, 3});
    a.addProperty(lost, prop("MeshId", "Content", std::string("rbxassetid://9999")));
    const int lost2 = part(a, ws, "Lost too", "MeshPart", {0, 0, 19}, {1, 2, 3});
    a.addProperty(lost2, prop("MeshId", "Content", std::string("rbxassetid://9999")));
    const int lostHat = part(a, ws, "Lost hat", "Part", {0, 9, 0}, {1, 1, 1});
    specialMesh(a, lostHat, "rbxassetid://9998", {1, 1, 1});
    const RobloxModelWriteResult w = writeRobloxModel(a);
    EXPECT_TRUE(w.ok()) << *w.error;
    const DecodeResult d = decodeBytes(w.bytes);
    EXPECT_FALSE(d.error) << d.error->toString();
    f.model = d.asset;
    return f;
}

std::size_t lod0Triangles(const Asset& a) {
    const Mesh& m = a.meshes.at(0);
    return m.lods.empty() ? m.triangleCount() : m.lods.at(0).triangleCount;
}

std::size_t countWarnings(const ExportResult& r, const std::string& piece) {
    std::size_t n = 0;
    for (const auto& w : r.warnings)
        if (w.find(piece) != std::string::npos) ++n;
    return n;
}

TEST(PartMeshExport, GltfWritesResolvedMeshesAndBoxesTheRest) {
    const Fixture f = makeFixture("part_mesh_glb");
    ASSERT_EQ(f.lodSphere.meshes.at(0).lods.size(), 3u);
    ExportOptions options;
    options.assetFolders = {f.folder.string()};
    const GlbBytes glb = exportGlb(f.model, options);
    ASSERT_TRUE(glb.report.ok()) << *glb.report.error;
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(test::loadGlb(glb.bytes, m, err)) << err;
    std::map<std::string, const tinygltf::Node*> nodes;
    for (const auto& n : m.nodes) nodes[n.name] = &n;
    auto triangles = [&](const tinygltf::Node& n) {
        std::size_t t = 0;
        for (const auto& p : m.meshes.at(std::size_t(n.mesh)).primitives)
            t += m.accessors.at(std::size_t(p.indices)).count / 3;
        return t;
    };
    auto bounds = [&](const tinygltf::Node& n) {
        const auto& p = m.meshes.at(std::size_t(n.mesh)).primitives.at(0);
        return m.accessors.at(std::size_t(p.attributes.at("POSITION")));
    };
    // The MeshPart: LOD 0 of the sphere only, fitted to Size 4 × 6 × 8, placed by its node.
    ASSERT_TRUE(nodes.count("Rock"));
    const tinygltf::Node& rock = *nodes["Rock"];
    EXPECT_EQ(triangles(rock), lod0Triangles(f.lodSphere));
    EXPECT_TRUE(rock.scale.empty()) << "the mesh is already fitted to Size";
    ASSERT_EQ(rock.translation.size(), 3u);
    EXPECT_DOUBLE_EQ(rock.translation[0], 10.0);
    const auto& rp = bounds(rock);
    ASSERT_EQ(rp.maxValues.size(), 3u);
    EXPECT_NEAR(rp.maxValues[0] - rp.minValues[0], 4.0, 1e-3);
    EXPECT_NEAR(rp.maxValues[1] - rp.minValues[1], 6.0, 1e-3);
    EXPECT_NEAR(rp.maxValues[2] - rp.minValues[2], 8.0, 1e-3);
    EXPECT_TRUE(
        m.meshes.at(std::size_t(rock.mesh)).primitives.at(0).attributes.count("TEXCOORD_0"));
    // The SpecialMesh part: the mesh in its own units times Scale 2 (a radius-1 sphere → 4 across).
    ASSERT_TRUE(nodes.count("Hat"));
    EXPECT_EQ(triangles(*nodes["Hat"]), f.uvSphere.meshes.at(0).triangleCount());
    const auto& hp = bounds(*nodes["Hat"]);
    EXPECT_NEAR(hp.maxValues[1] - hp.minValues[1], 4.0, 1e-3);
    // Missing meshes: boxes, one counted warning per kind.
    for (const char* name : {"Lost", "Lost too", "Lost hat"}) {
        ASSERT_TRUE(nodes.count(name)) << name;
        EXPECT_EQ(m.meshes.at(std::size_t(nodes[name]->mesh)).name, "Block") << name;
    }
    EXPECT_EQ(countWarnings(glb.report, "MeshPart(s) written as boxes"), 1u);
    EXPECT_EQ(countWarnings(glb.report, "2 MeshPart(s) written as boxes"), 1u);
    EXPECT_EQ(countWarnings(glb.report, "1 SpecialMesh part(s) written as boxes"), 1u);
    // Counted in the stats: the two meshes plus three 12-triangle boxes.
    const std::size_t box = partShapeMesh(PartShape::Block).triangleCount();
    EXPECT_EQ(glb.report.stats.triangles,
              lod0Triangles(f.lodSphere) + f.uvSphere.meshes[0].triangleCount() + 3 * box);

    // Without the folder every mesh part is a box.
    const GlbBytes bare = exportGlb(f.model);
    ASSERT_TRUE(bare.report.ok());
    EXPECT_EQ(countWarnings(bare.report, "3 MeshPart(s) written as boxes"), 1u);
    EXPECT_EQ(countWarnings(bare.report, "2 SpecialMesh part(s) written as boxes"), 1u);
    EXPECT_EQ(bare.report.stats.triangles, 5 * box);

    // The Khronos validator finds nothing to report.
    const auto file = test::tempDir("part_mesh_glb_out") / "parts.glb";
    test::writeFile(file, glb.bytes);
    const test::ValidatorRun run = test::runGltfValidator({file});
    if (!run.unavailable.empty()) GTEST_SKIP() << "glTF validator: " << run.unavailable;
    ASSERT_TRUE(run.reports.count(file.string())) << run.output;
    const test::ValidatorReport& r = run.reports.at(file.string());
    EXPECT_EQ(r.errors, 0u) << r.json;
    EXPECT_EQ(r.warnings, 0u) << r.json;
}

TEST(PartMeshExport, ObjWritesResolvedMeshesInWorldSpace) {
    const Fixture f = makeFixture("part_mesh_obj");
    const auto out = test::tempDir("part_mesh_obj_out");
    ExportOptions options;
    options.format = ExportFormat::Obj;
    options.assetFolders = {f.folder.string()};
    const ExportResult r = exportAsset(f.model, (out / "p.obj").string(), options);
    ASSERT_TRUE(r.ok()) << *r.error;
    const test::ObjCounts c = test::objCounts(out / "p.obj");
    const std::size_t box = partShapeMesh(PartShape::Block).triangleCount();
    EXPECT_EQ(c.f, lod0Triangles(f.lodSphere) + f.uvSphere.meshes[0].triangleCount() + 3 * box);
    EXPECT_EQ(c.o, 5u);
    EXPECT_EQ(c.vn, c.v);
    EXPECT_EQ(countWarnings(r, "2 MeshPart(s) written as boxes"), 1u);
}

}  // namespace
