// Model and place export: one glTF node per visible part carrying its CFrame (translation,
// rotation) and size (scale), grouped under the instances that contain them; the primitive
// meshes (block, ball, cylinder, wedge, corner wedge) face outwards; OBJ bakes the parts into
// world space.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "export/export_internal.h"
#include "export_test_util.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "meshscope/core/roblox_model_writer.h"
#include "support/test_support.h"

using namespace meshscope;
using namespace meshscope::test;

namespace {

void add(Asset& a, int n, const char* name, const char* type, Value v) {
    a.addProperty(n, Property{name, type, std::move(v), 0, 0});
}

struct Expect {
    std::string name;
    std::string mesh;  // primitive mesh name
    Vec3 position;
    Vec3 scale;
};

// Workspace → Model "Shapes" → one part per shape and class, plus instances that must not show.
Asset shapesModel(std::vector<Expect>& expected) {
    Asset a;
    a.format = "roblox-model";
    const int ws = a.addNode("Workspace", "Workspace");
    const int model = a.addNode("Shapes", "Model", ws);
    auto part = [&](const char* name, const char* cls, int shape, Vec3 pos, Vec3 size,
                    const char* mesh, Vec3 scale, int parent = -1, float yaw = 0) {
        const int n = a.addNode(name, cls, parent < 0 ? model : parent);
        add(a, n, "Name", "string", std::string(name));
        add(a, n, "CFrame", "CFrame", yawedCFrame(pos, yaw));
        add(a, n, "size", "Vector3", size);
        if (shape >= 0) add(a, n, "shape", "Enum", std::int64_t(shape));
        add(a, n, "Color", "Color3uint8", Vec3{1.0f, 0.0f, 0.0f});
        if (mesh) expected.push_back({name, mesh, pos, scale});
        return n;
    };
    part("Ball", "Part", 0, {1, 2, 3}, {2, 3, 4}, "Ball", {2, 2, 2});
    const int block = part("Block", "Part", 1, {-4, 5, 6}, {4, 1, 2}, "Block", {4, 1, 2}, -1, 90);
    part("Cylinder", "Part", 2, {0, 10, 0}, {3, 2, 1.5f}, "Cylinder", {3, 1.5f, 1.5f});
    part("WedgeShape", "Part", 3, {7, 0, -7}, {1, 2, 3}, "Wedge", {1, 2, 3});
    part("CornerShape", "Part", 4, {-7, 0, 7}, {2, 2, 2}, "CornerWedge", {2, 2, 2});
    part("Wedge", "WedgePart", -1, {0, -3, 0}, {2, 1, 2}, "Wedge", {2, 1, 2});
    part("Corner", "CornerWedgePart", -1, {0, 0, -9}, {1, 1, 1}, "CornerWedge", {1, 1, 1});
    part("Mesh", "MeshPart", -1, {5, 5, 5}, {1, 2, 1}, "Block", {1, 2, 1});
    part("Nested", "Part", 1, {-4, 7, 6}, {1, 1, 1}, "Block", {1, 1, 1}, block);
    const int ghost = part("Ghost", "Part", 1, {9, 9, 9}, {1, 1, 1}, nullptr, {});
    add(a, ghost, "Transparency", "float", 1.0);
    a.addNode("Empty", "Folder", ws);
    a.addNode("Terrain", "Terrain", ws);
    return a;
}

Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
float dot(Vec3 a, Vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

}  // namespace

TEST(PartsExport, EveryShapeIsANodeWithItsCFrameAndSize) {
    std::vector<Expect> expected;
    const Asset a = shapesModel(expected);
    const GlbBytes glb = exportGlb(a);
    ASSERT_TRUE(glb.report.ok()) << glb.report.error.value_or("");
    EXPECT_EQ(glb.report.stats.parts, expected.size());
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(loadGlb(glb.bytes, m, err)) << err;
    // Parts plus the two instances that contain them (Workspace, Shapes); no Folder, Terrain or
    // transparent part.
    EXPECT_EQ(m.nodes.size(), expected.size() + 2);
    std::map<std::string, int> byName;
    for (std::size_t i = 0; i < m.nodes.size(); ++i) byName[m.nodes[i].name] = int(i);
    EXPECT_FALSE(byName.contains("Ghost"));
    EXPECT_FALSE(byName.contains("Empty"));
    ASSERT_TRUE(byName.contains("Shapes"));
    const auto& shapes = m.nodes[std::size_t(byName["Shapes"])];
    for (const Expect& e : expected) {
        ASSERT_TRUE(byName.contains(e.name)) << e.name;
        const int index = byName[e.name];
        const auto& n = m.nodes[std::size_t(index)];
        ASSERT_GE(n.mesh, 0) << e.name;
        EXPECT_EQ(m.meshes[std::size_t(n.mesh)].name, e.mesh) << e.name;
        ASSERT_EQ(n.translation.size(), 3u) << e.name;
        EXPECT_FLOAT_EQ(float(n.translation[0]), e.position.x) << e.name;
        EXPECT_FLOAT_EQ(float(n.translation[1]), e.position.y) << e.name;
        EXPECT_FLOAT_EQ(float(n.translation[2]), e.position.z) << e.name;
        ASSERT_EQ(n.scale.size(), 3u);
        EXPECT_FLOAT_EQ(float(n.scale[0]), e.scale.x) << e.name;
        EXPECT_FLOAT_EQ(float(n.scale[1]), e.scale.y) << e.name;
        EXPECT_FLOAT_EQ(float(n.scale[2]), e.scale.z) << e.name;
        // Every part hangs under Shapes, also the one nested in the Block part.
        EXPECT_NE(std::find(shapes.children.begin(), shapes.children.end(), index),
                  shapes.children.end())
            << e.name;
    }
    // The Block is turned 90 degrees about Y: quaternion (0, sin 45, 0, cos 45).
    const auto& block = m.nodes[std::size_t(byName["Block"])];
    ASSERT_EQ(block.rotation.size(), 4u);
    EXPECT_NEAR(block.rotation[0], 0.0, 1e-6);
    EXPECT_NEAR(block.rotation[1], std::sqrt(0.5), 1e-6);
    EXPECT_NEAR(block.rotation[2], 0.0, 1e-6);
    EXPECT_NEAR(block.rotation[3], std::sqrt(0.5), 1e-6);
    EXPECT_TRUE(m.nodes[std::size_t(byName["Ball"])].rotation.empty());
    // Red parts: sRGB 255 → linear 1.
    const auto& mat =
        m.materials[std::size_t(m.meshes[std::size_t(block.mesh)].primitives[0].material)];
    EXPECT_DOUBLE_EQ(mat.pbrMetallicRoughness.baseColorFactor[0], 1.0);
    EXPECT_DOUBLE_EQ(mat.pbrMetallicRoughness.baseColorFactor[1], 0.0);
    // What was left out is said.
    auto warned = [&](const char* s) {
        for (const auto& w : glb.report.warnings)
            if (w.find(s) != std::string::npos) return true;
        return false;
    };
    EXPECT_TRUE(warned("1 fully transparent part(s)"));
    EXPECT_TRUE(warned("1 MeshPart(s) written as boxes"));
}

TEST(PartsExport, PrimitivesAreClosedOutwardFacingUnitShapes) {
    for (PartShape s : {PartShape::Block, PartShape::Ball, PartShape::Cylinder, PartShape::Wedge,
                        PartShape::CornerWedge}) {
        const Mesh m = partShapeMesh(s);
        SCOPED_TRACE(partShapeName(s));
        ASSERT_EQ(m.indices.size() % 3, 0u);
        ASSERT_EQ(m.normals.size(), m.positions.size());
        ASSERT_EQ(m.uv0.size(), m.positions.size());
        EXPECT_NEAR(m.bounds.min.x, -0.5f, 1e-6f);
        EXPECT_NEAR(m.bounds.max.y, 0.5f, 1e-6f);
        EXPECT_NEAR(m.bounds.max.z, 0.5f, 1e-6f);
        // An interior point: the mean of the distinct corners.
        Vec3 inside{};
        for (const Vec3& p : m.positions) inside = inside + p;
        inside = inside * (1.0f / float(m.positions.size()));
        for (std::size_t t = 0; t < m.indices.size(); t += 3) {
            const Vec3 a = m.positions[m.indices[t]], b = m.positions[m.indices[t + 1]],
                       c = m.positions[m.indices[t + 2]];
            const Vec3 n = cross(b - a, c - a);
            if (dot(n, n) < 1e-12f) continue;  // degenerate (none expected; poles are skipped)
            EXPECT_GT(dot(n, (a + b + c) * (1.0f / 3) - inside), 0) << "triangle " << t / 3;
            // Stored normals agree with the winding.
            EXPECT_GT(dot(n, m.normals[m.indices[t]]), 0) << "triangle " << t / 3;
        }
    }
    // The wedge is tall at the back only; the corner wedge's single top corner is (+X, -Z).
    for (const Vec3& p : partShapeMesh(PartShape::Wedge).positions) {
        if (p.y > 0) {
            EXPECT_FLOAT_EQ(p.z, 0.5f);
        }
    }
    for (const Vec3& p : partShapeMesh(PartShape::CornerWedge).positions) {
        if (p.y > 0) {
            EXPECT_EQ(p, (Vec3{0.5f, 0.5f, -0.5f}));
        }
    }
}

TEST(PartsExport, DecodedPlaceGivesOneNodePerPartAtItsPosition) {
    const Asset place = makeRobloxPlace(250);
    const auto written = writeRobloxModel(place);
    ASSERT_TRUE(written.ok());
    const DecodeResult decoded = decodeBytes(written.bytes);
    ASSERT_TRUE(decoded.ok()) << decoded.error->toString();
    const GlbBytes glb = exportGlb(decoded.asset);
    ASSERT_TRUE(glb.report.ok()) << glb.report.error.value_or("");
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(loadGlb(glb.bytes, m, err)) << err;
    std::map<std::string, const tinygltf::Node*> byName;
    for (const auto& n : m.nodes) byName[n.name] = &n;
    std::size_t parts = 0;
    for (std::size_t i = 0; i < place.nodes.size(); ++i) {
        if (place.kind(int(i)) != "Part") continue;
        const std::string name(place.name(int(i)));
        ++parts;
        ASSERT_TRUE(byName.contains(name)) << name;
        const auto cf = std::get<CFrame>(place.property(int(i), "CFrame")->value);
        const auto& t = byName[name]->translation;
        ASSERT_EQ(t.size(), 3u);
        EXPECT_FLOAT_EQ(float(t[0]), cf.position.x);
        EXPECT_FLOAT_EQ(float(t[1]), cf.position.y);
        EXPECT_FLOAT_EQ(float(t[2]), cf.position.z);
    }
    EXPECT_EQ(parts, 250u);
    EXPECT_EQ(glb.report.stats.parts, 250u);
    // Workspace + 3 groups of up to 100 + parts; Lighting holds no part.
    EXPECT_EQ(m.nodes.size(), 250u + 1 + 3);
}

TEST(PartsExport, ObjBakesPartsIntoWorldSpace) {
    std::vector<Expect> expected;
    const Asset a = shapesModel(expected);
    const auto dir = tempDir("export_parts_obj");
    ExportOptions o;
    o.format = ExportFormat::Obj;
    const auto path = dir / "shapes.obj";
    const ExportResult r = exportAsset(a, path.string(), o);
    ASSERT_TRUE(r.ok()) << r.error.value_or("");
    const ObjCounts c = objCounts(path);
    EXPECT_EQ(c.o, expected.size());
    // The Block (4 x 1 x 2, turned 90 degrees about Y, at (-4, 5, 6)) spans x -5..-3, z 4..8.
    std::ifstream in(path);
    std::string line;
    bool inBlock = false;
    std::size_t vertices = 0;
    while (std::getline(in, line)) {
        if (line.starts_with("o ")) inBlock = line == "o Workspace/Shapes/Block";
        if (!inBlock || !line.starts_with("v ")) continue;
        float x, y, z;
        ASSERT_EQ(std::sscanf(line.c_str(), "v %f %f %f", &x, &y, &z), 3);
        EXPECT_NEAR(std::fabs(x + 4), 1.0f, 1e-5f);
        EXPECT_NEAR(std::fabs(y - 5), 0.5f, 1e-5f);
        EXPECT_NEAR(std::fabs(z - 6), 2.0f, 1e-5f);
        ++vertices;
    }
    EXPECT_EQ(vertices, 24u);
}

TEST(PartsExport, MaterialsFollowRobloxMaterialReflectanceAndTransparency) {
    Asset a;
    a.format = "roblox-model";
    const int ws = a.addNode("Workspace", "Workspace");
    auto part = [&](const char* name, std::int64_t material, double reflectance,
                    double transparency) {
        const int n = a.addNode(name, "Part", ws);
        add(a, n, "CFrame", "CFrame", yawedCFrame({0, 0, 0}, 0));
        add(a, n, "size", "Vector3", Vec3{1, 1, 1});
        add(a, n, "Color", "Color3uint8", Vec3{1.0f, 0.5f, 0.0f});
        add(a, n, "Material", "Enum", material);
        add(a, n, "Reflectance", "float", reflectance);
        add(a, n, "Transparency", "float", transparency);
    };
    part("Plastic", 256, 0, 0);
    part("Metal", 1088, 0, 0);
    part("Shiny", 256, 0.5, 0);
    part("Neon", 288, 0, 0);
    part("Glass", 1568, 0, 0.5);
    part("Plastic2", 256, 0, 0);  // shares Plastic's material
    const GlbBytes glb = exportGlb(a);
    ASSERT_TRUE(glb.report.ok()) << glb.report.error.value_or("");
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(loadGlb(glb.bytes, m, err)) << err;
    std::map<std::string, const tinygltf::Material*> byPart;
    for (const auto& n : m.nodes)
        if (n.mesh >= 0)
            byPart[n.name] =
                &m.materials[std::size_t(m.meshes[std::size_t(n.mesh)].primitives[0].material)];
    ASSERT_EQ(byPart.size(), 6u);
    EXPECT_EQ(m.materials.size(), 5u);
    EXPECT_EQ(byPart["Plastic"], byPart["Plastic2"]);
    const auto& plastic = byPart["Plastic"]->pbrMetallicRoughness;
    const auto& metal = byPart["Metal"]->pbrMetallicRoughness;
    const auto& shiny = byPart["Shiny"]->pbrMetallicRoughness;
    EXPECT_EQ(plastic.metallicFactor, 0.0);
    EXPECT_EQ(metal.metallicFactor, 1.0);
    EXPECT_LT(metal.roughnessFactor, plastic.roughnessFactor);
    // Reflectance 0.5: half as rough, half metallic.
    EXPECT_NEAR(shiny.roughnessFactor, plastic.roughnessFactor * 0.5, 1e-6);
    EXPECT_NEAR(shiny.metallicFactor, 0.5, 1e-6);
    EXPECT_TRUE(byPart["Plastic"]->name.starts_with("Plastic"));
    EXPECT_TRUE(byPart["Metal"]->name.starts_with("Metal"));
    // Neon glows in its (linear) colour; Glass with Transparency 0.5 blends.
    ASSERT_EQ(byPart["Neon"]->emissiveFactor.size(), 3u);
    EXPECT_NEAR(byPart["Neon"]->emissiveFactor[0], 1.0, 1e-6);
    EXPECT_NEAR(byPart["Neon"]->emissiveFactor[1], std::pow((128 / 255.0 + 0.055) / 1.055, 2.4),
                1e-6);
    EXPECT_EQ(byPart["Plastic"]->emissiveFactor, (std::vector<double>{0, 0, 0}));
    EXPECT_EQ(byPart["Glass"]->alphaMode, "BLEND");
    EXPECT_NEAR(byPart["Glass"]->pbrMetallicRoughness.baseColorFactor[3], 0.5, 0.01);
    EXPECT_LT(byPart["Glass"]->pbrMetallicRoughness.roughnessFactor, 0.1);
}

TEST(PartsExport, ObjObjectNamesAreUniqueInstancePaths) {
    // A place whose parts share names ("Part" in Models of 100): every object keeps its own
    // name, so that importers do not merge them into one mesh.
    Asset place = makeRobloxPlace(1000);
    for (std::size_t i = 0; i < place.nodes.size(); ++i) {
        if (place.kind(int(i)) == "Part") place.setName(int(i), "Part");
        if (place.kind(int(i)) == "Model") place.setName(int(i), "Model");
    }
    const auto dir = tempDir("export_parts_obj_names");
    ExportOptions o;
    o.format = ExportFormat::Obj;
    const auto path = dir / "place.obj";
    const ExportResult r = exportAsset(place, path.string(), o);
    ASSERT_TRUE(r.ok()) << r.error.value_or("");
    ASSERT_EQ(r.stats.parts, 1000u);
    std::ifstream in(path);
    std::string line;
    std::set<std::string> objects, groups;
    std::size_t oLines = 0, gLines = 0;
    while (std::getline(in, line)) {
        if (line.starts_with("o ")) {
            ++oLines;
            objects.insert(line.substr(2));
            EXPECT_EQ(line.find(' ', 2), std::string::npos) << line;
        }
        if (line.starts_with("g ")) {
            ++gLines;
            groups.insert(line.substr(2));
        }
    }
    EXPECT_EQ(oLines, 1000u);
    EXPECT_EQ(objects.size(), oLines);
    EXPECT_EQ(groups.size(), gLines);
    EXPECT_EQ(gLines, oLines);
    // Names are instance paths, numbered where they repeat.
    EXPECT_TRUE(objects.contains("Workspace/Model/Part")) << *objects.begin();
    EXPECT_TRUE(objects.contains("Workspace/Model/Part_1000")) << *objects.rbegin();
    // The MTL holds each material once, with PBR roughness and metalness.
    std::ifstream mtl(dir / "place.mtl");
    std::set<std::string> materials;
    std::size_t newmtl = 0, pr = 0;
    while (std::getline(mtl, line)) {
        if (line.starts_with("newmtl ")) {
            ++newmtl;
            materials.insert(line.substr(7));
        }
        if (line.starts_with("Pr ")) ++pr;
    }
    EXPECT_EQ(materials.size(), newmtl);
    EXPECT_EQ(pr, newmtl);
    EXPECT_GE(newmtl, 2u);  // Plastic and Wood parts
}
