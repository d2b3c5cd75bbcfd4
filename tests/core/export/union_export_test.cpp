// CSG unions in glTF and OBJ exports: a union is written as its decoded geometry (fitted to its
// Size, placed by its node's CFrame), with the blob's vertex colours when UsePartColor is false;
// a NegateOperation is left out with a warning; a union without geometry stays a box, counted.
#include <gtest/gtest.h>

#include "export_test_util.h"
#include "meshscope/core/export.h"
#include "meshscope/core/roblox_csg.h"
#include "meshscope/core/roblox_parts.h"
#include "support/csg_fixtures.h"
#include "support/test_support.h"

using namespace meshscope;

namespace {

void add(Asset& a, int n, const char* name, const char* type, Value v) {
    a.addProperty(n, Property{name, type, std::move(v), 0, 0});
}

int unionNode(Asset& a, int parent, const char* name, const char* cls, Vec3 pos, const Bytes& blob,
              bool usePartColor) {
    const int n = a.addNode(name, cls, parent);
    a.addChild(parent, n);
    CFrame cf;
    cf.position = pos;
    add(a, n, "Name", "string", std::string(name));
    add(a, n, "CFrame", "CFrame", cf);
    add(a, n, "size", "Vector3", Vec3{4, 2, 6});
    add(a, n, "Color", "Color3uint8", Vec3{0, 1, 0});
    add(a, n, "UsePartColor", "bool", usePartColor);
    add(a, n, "MeshData", "BinaryString", std::string(blob.begin(), blob.end()));
    return n;
}

Asset model(const Mesh& local) {
    Asset a;
    a.format = "roblox-model";
    const int ws = a.addNode("Workspace", "Workspace");
    const Bytes blob = writeCsgGraphics(local);
    unionNode(a, ws, "Painted", "UnionOperation", {5, 1, 0}, blob, true);
    unionNode(a, ws, "Own colours", "UnionOperation", {-5, 1, 0}, blob, false);
    unionNode(a, ws, "Hole", "NegateOperation", {0, 1, 0}, blob, true);
    unionNode(a, ws, "Empty", "UnionOperation", {0, 5, 0}, {}, true);
    return a;
}

bool hasWarning(const ExportResult& r, const std::string& piece) {
    for (const auto& w : r.warnings)
        if (w.find(piece) != std::string::npos) return true;
    return false;
}

TEST(UnionExport, GltfWritesTheDecodedGeometry) {
    Mesh local = test::csg::fixtureMesh();
    local.colors.assign(local.positions.size(), Rgba8{200, 10, 10, 255});
    const GlbBytes glb = exportGlb(model(local));
    ASSERT_TRUE(glb.report.ok()) << *glb.report.error;
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(test::loadGlb(glb.bytes, m, err)) << err;
    std::map<std::string, const tinygltf::Node*> nodes;
    for (const auto& n : m.nodes) nodes[n.name] = &n;
    EXPECT_FALSE(nodes.count("Hole")) << "a NegateOperation is not drawn";
    EXPECT_TRUE(hasWarning(glb.report, "1 negated part(s)"));
    EXPECT_TRUE(hasWarning(glb.report, "1 union(s) written as boxes"));
    for (const char* name : {"Painted", "Own colours"}) {
        SCOPED_TRACE(name);
        ASSERT_TRUE(nodes.count(name));
        const tinygltf::Node& n = *nodes[name];
        EXPECT_TRUE(n.scale.empty()) << "the geometry is already fitted to Size";
        ASSERT_GE(n.mesh, 0);
        const auto& prim = m.meshes[std::size_t(n.mesh)].primitives.at(0);
        const auto& pos = m.accessors[std::size_t(prim.attributes.at("POSITION"))];
        EXPECT_EQ(pos.count, local.positions.size());
        // Fitted to Size 4 × 2 × 6 around the node's origin.
        ASSERT_EQ(pos.minValues.size(), 3u);
        EXPECT_NEAR(pos.minValues[0], -2, 1e-4);
        EXPECT_NEAR(pos.maxValues[1], 1, 1e-4);
        EXPECT_NEAR(pos.maxValues[2], 3, 1e-4);
        EXPECT_EQ(m.accessors[std::size_t(prim.indices)].count, local.indices.size());
        EXPECT_EQ(prim.attributes.count("COLOR_0"), std::string(name) == "Own colours" ? 1u : 0u);
    }
    // The union without geometry is still there, as a box.
    ASSERT_TRUE(nodes.count("Empty"));
    EXPECT_EQ(m.meshes[std::size_t(nodes["Empty"]->mesh)].name, "Block");
}

TEST(UnionExport, ObjBakesTheUnionsIntoWorldSpace) {
    const Mesh local = test::csg::fixtureMesh();
    const auto dir = test::tempDir("union_obj");
    const ExportResult r =
        exportAsset(model(local), (dir / "u.obj").string(), {.format = ExportFormat::Obj});
    ASSERT_TRUE(r.ok()) << *r.error;
    const test::ObjCounts c = test::objCounts(dir / "u.obj");
    // Two unions of the sphere, one box (24 vertices, 12 triangles).
    const Mesh box = partShapeMesh(PartShape::Block);
    EXPECT_EQ(c.v, 2 * local.positions.size() + box.positions.size());
    EXPECT_EQ(c.vt, c.v);
    EXPECT_EQ(c.vn, c.v);
    EXPECT_EQ(c.f, 2 * local.triangleCount() + box.triangleCount());
    EXPECT_EQ(c.o, 3u);
}

}  // namespace
