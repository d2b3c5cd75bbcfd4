// Decals and Textures on a box part's faces: each written as its own quad on the face it names
// (Enum.NormalId), a little outside the box, with its image, Color3 tint and Transparency; a
// Texture's UVs repeat every StudsPerTileU/V studs. Decals on other shapes still stretch over the
// part (one counted warning). Fixture: a binary model written by the project's writer, decoded
// again; the image is test::tinyPng() in a temporary asset folder.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "blender_util.h"
#include "export/export_internal.h"
#include "export_test_util.h"
#include "gltf_validator_util.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_parts.h"
#include "support/test_support.h"

using namespace meshscope;
using test::countWarnings;
using test::prop;

namespace {

const Vec3 kSize{4, 6, 8};

// Per NormalId: the outward normal and the image's up direction (see decalQuad).
struct Face {
    const char* name;
    Vec3 normal, up, right;
};
const Face kFaces[6] = {
    {"Right", {1, 0, 0}, {0, 1, 0}, {0, 0, -1}},    {"Top", {0, 1, 0}, {0, 0, -1}, {1, 0, 0}},
    {"Back", {0, 0, 1}, {0, 1, 0}, {1, 0, 0}},      {"Left", {-1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
    {"Bottom", {0, -1, 0}, {0, 0, -1}, {-1, 0, 0}}, {"Front", {0, 0, -1}, {0, 1, 0}, {-1, 0, 0}},
};

float dot(Vec3 a, Vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
Vec3 sub(Vec3 a, Vec3 b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}

int addPart(Asset& a, int parent, const char* name, Vec3 pos, std::int64_t shape) {
    const int n = a.addNode(name, "Part", parent);
    a.addChild(parent, n);
    CFrame cf;
    cf.position = pos;
    a.addProperty(n, prop("Name", "string", std::string(name)));
    a.addProperty(n, prop("CFrame", "CFrame", cf));
    a.addProperty(n, prop("size", "Vector3", kSize));
    a.addProperty(n, prop("shape", "Enum", shape));
    return n;
}

int addDecal(Asset& a, int part, const char* cls, const std::string& name, int face) {
    const int d = a.addNode(name, cls, part);
    a.addChild(part, d);
    a.addProperty(d, prop("Name", "string", name));
    a.addProperty(d, prop("Texture", "Content", std::string("rbxassetid://3001")));
    a.addProperty(d, prop("Face", "Enum", std::int64_t(face)));
    return d;
}

struct Fixture {
    std::filesystem::path folder;
    Asset model;
};

// "Box": a Decal on each of its six faces and a tinted, half-transparent Texture on its Front;
// "Ball": a Decal that stays stretched over the ball.
Fixture makeFixture(const std::string& name) {
    Fixture f;
    f.folder = test::tempDir(name);
    test::writeFile(f.folder / "3001", test::tinyPng());
    Asset a;
    a.format = "roblox-model";
    const int ws = a.addNode("Workspace", "Workspace");
    const int box = addPart(a, ws, "Box", {0, 10, 0}, 1);
    for (int face = 0; face < 6; ++face)
        addDecal(a, box, "Decal", std::string("On") + kFaces[face].name, face);
    const int tex = addDecal(a, box, "Texture", "Tiles", 5);
    a.addProperty(tex, prop("StudsPerTileU", "float", 2.0));
    a.addProperty(tex, prop("StudsPerTileV", "float", 3.0));
    a.addProperty(tex, prop("OffsetStudsU", "float", 1.0));
    a.addProperty(tex, prop("OffsetStudsV", "float", 0.0));
    a.addProperty(tex, prop("Color3", "Color3", Vec3{1, 0, 0}));
    a.addProperty(tex, prop("Transparency", "float", 0.25));
    // ZIndex 0 (the Decals keep the default 1): the Texture is the lower layer on the Front
    // face although it comes after the Front Decal.
    a.addProperty(tex, prop("ZIndex", "int32", std::int64_t(0)));
    const int ball = addPart(a, ws, "Ball", {10, 10, 0}, 0);
    addDecal(a, ball, "Decal", "Stretched", 5);
    const RobloxModelWriteResult w = writeRobloxModel(a);
    EXPECT_TRUE(w.ok()) << *w.error;
    const DecodeResult d = decodeBytes(w.bytes);
    EXPECT_FALSE(d.error) << d.error->toString();
    f.model = d.asset;
    return f;
}

TEST(DecalExport, GltfPutsEachDecalOnItsFace) {
    const Fixture f = makeFixture("decal_glb");
    ExportOptions options;
    options.assetFolders = {f.folder.string()};
    const GlbBytes glb = exportGlb(f.model, options);
    ASSERT_TRUE(glb.report.ok()) << *glb.report.error;
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(test::loadGlb(glb.bytes, m, err)) << err;
    std::map<std::string, const tinygltf::Node*> nodes;
    for (const auto& n : m.nodes) nodes[n.name] = &n;
    ASSERT_TRUE(nodes.count("Box"));
    const auto& boxNode = *nodes.at("Box");
    // The node scales the unit box (and the quads) by Size.
    ASSERT_EQ(boxNode.scale.size(), 3u);
    const Vec3 s{float(boxNode.scale[0]), float(boxNode.scale[1]), float(boxNode.scale[2])};
    EXPECT_EQ(s, kSize);
    const auto& mesh = m.meshes.at(std::size_t(boxNode.mesh));
    ASSERT_EQ(mesh.primitives.size(), 1u + 6 + 1);  // the box, six Decals, the Texture
    EXPECT_LT(m.materials.at(std::size_t(mesh.primitives[0].material))
                  .pbrMetallicRoughness.baseColorTexture.index,
              0);
    for (std::size_t i = 1; i < mesh.primitives.size(); ++i) {
        const Face& face = kFaces[i <= 6 ? i - 1 : 5];
        SCOPED_TRACE(std::string(face.name) + (i == 7 ? " (Texture)" : ""));
        const auto& prim = mesh.primitives[i];
        const auto pos = test::accessorData<Vec3>(m, prim.attributes.at("POSITION"));
        const auto nor = test::accessorData<Vec3>(m, prim.attributes.at("NORMAL"));
        const auto uv = test::accessorData<Vec2>(m, prim.attributes.at("TEXCOORD_0"));
        const auto idx = test::accessorData<std::uint16_t>(m, prim.indices);
        ASSERT_EQ(pos.size(), 4u);
        ASSERT_EQ(idx.size(), 6u);
        const float halfDepth = 0.5f * std::abs(dot(face.normal, kSize));
        const float halfUp = 0.5f * std::abs(dot(face.up, kSize));
        const float halfRight = 0.5f * std::abs(dot(face.right, kSize));
        for (std::size_t k = 0; k < 4; ++k) {
            const Vec3 w{pos[k].x * s.x, pos[k].y * s.y, pos[k].z * s.z};  // in studs
            // Just outside the face (0.01 studs; the Front Decal, over the Texture's lower
            // ZIndex, 0.02), over its whole area.
            EXPECT_NEAR(dot(w, face.normal), halfDepth + (i == 6 ? 0.02f : 0.01f), 1e-4);
            EXPECT_NEAR(std::abs(dot(w, face.up)), halfUp, 1e-4);
            EXPECT_NEAR(std::abs(dot(w, face.right)), halfRight, 1e-4);
            EXPECT_EQ(nor[k], face.normal);
            // The image's top-left corner (uv 0,0 for a Decal) is at the top, left as seen
            // from outside.
            const bool top = dot(w, face.up) > 0, left = dot(w, face.right) < 0;
            if (i <= 6) {
                EXPECT_EQ(uv[k].x, left ? 0.0f : 1.0f);
                EXPECT_EQ(uv[k].y, top ? 0.0f : 1.0f);
            } else {
                // Texture: Front face is 4 studs wide (X), 6 high: U (studs - 1) / 2, V
                // studs / 3.
                EXPECT_FLOAT_EQ(uv[k].x, left ? -0.5f : 1.5f);
                EXPECT_FLOAT_EQ(uv[k].y, top ? 0.0f : 2.0f);
            }
        }
        // Both triangles face outward (counter-clockwise seen from outside).
        for (std::size_t t = 0; t < 2; ++t) {
            const Vec3 a = pos[idx[t * 3]], b = pos[idx[t * 3 + 1]], c = pos[idx[t * 3 + 2]];
            EXPECT_GT(dot(cross(sub(b, a), sub(c, a)), face.normal), 0.0f);
        }
        const auto& mat = m.materials.at(std::size_t(prim.material));
        EXPECT_EQ(mat.alphaMode, "BLEND");
        ASSERT_GE(mat.pbrMetallicRoughness.baseColorTexture.index, 0);
        const auto& factor = mat.pbrMetallicRoughness.baseColorFactor;
        if (i <= 6) {
            EXPECT_EQ(factor, (std::vector<double>{1, 1, 1, 1}));
        } else {
            EXPECT_EQ(factor[0], 1.0);
            EXPECT_EQ(factor[1], 0.0);
            EXPECT_NEAR(factor[3], 0.75, 1.0 / 255);
        }
    }
    // One image for all (the same file); the stats count the quads.
    EXPECT_EQ(m.images.size(), 1u);
    const std::size_t box = partShapeMesh(PartShape::Block).triangleCount();
    const std::size_t ball = partShapeMesh(PartShape::Ball).triangleCount();
    EXPECT_EQ(glb.report.stats.triangles, box + 7 * 2 + ball);
    // The ball's Decal stretches over it, said once.
    const auto& ballPrim = m.meshes.at(std::size_t(nodes.at("Ball")->mesh)).primitives;
    ASSERT_EQ(ballPrim.size(), 1u);
    EXPECT_GE(m.materials.at(std::size_t(ballPrim[0].material))
                  .pbrMetallicRoughness.baseColorTexture.index,
              0);
    EXPECT_EQ(countWarnings(glb.report, "1 Decal/Texture(s) on parts that are not boxes"), 1u);

    test::expectValidGlb(glb.bytes, "decal_glb_out", "decals.glb");
}

TEST(DecalExport, ObjWritesEachDecalAsItsOwnObject) {
    const Fixture f = makeFixture("decal_obj");
    const auto out = test::tempDir("decal_obj_out");
    ExportOptions options;
    options.format = ExportFormat::Obj;
    options.assetFolders = {f.folder.string()};
    const ExportResult r = exportAsset(f.model, (out / "d.obj").string(), options);
    ASSERT_TRUE(r.ok()) << *r.error;
    const test::ObjCounts c = test::objCounts(out / "d.obj");
    EXPECT_EQ(c.o, 2u + 7);  // Box, Ball and the seven quads
    std::ifstream in(out / "d.obj");
    std::stringstream obj;
    obj << in.rdbuf();
    EXPECT_NE(obj.str().find("o Workspace/Box/OnTop\n"), std::string::npos);
    EXPECT_NE(obj.str().find("o Workspace/Box/Tiles\n"), std::string::npos);
    std::ifstream min(out / "d.mtl");
    std::stringstream mtl;
    mtl << min.rdbuf();
    // The Texture's material: red tint, 75 % opaque, the image.
    EXPECT_NE(mtl.str().find("Kd 1 0 0\nd 0.75\nmap_Kd "), std::string::npos) << mtl.str();
}

// Blender 3.4 (where installed) shows the decals as blended image materials on the box.
TEST(DecalExport, BlenderShowsTheDecalsWhenInstalled) {
    const Fixture f = makeFixture("decal_blender");
    ExportOptions options;
    options.assetFolders = {f.folder.string()};
    const auto dir = test::tempDir("decal_blender_out");
    const auto file = dir / "decals.glb";
    ASSERT_TRUE(exportAsset(f.model, file.string(), options).ok());
    std::string text;
    const auto report = test::blenderMaterialReport({file}, dir, text);
    if (!report) GTEST_SKIP() << "SKIPPED: Blender cannot run the import here: " << text;
    // The box, one Decal material (all six share the image and look) and the tinted Texture.
    EXPECT_NE(report->find("MESHSCOPE-OBJ 3 Box\n"), std::string::npos) << *report;
    std::size_t blended = 0;
    std::istringstream lines(*report);
    std::string line;
    while (std::getline(lines, line))
        if (line.starts_with("MESHSCOPE-MAT BLEND ") &&
            line.find("->Principled BSDF.Alpha") != std::string::npos)
            ++blended;
    EXPECT_EQ(blended, 2u) << *report;
}

TEST(DecalExport, QuadOfAZeroSizedPartIsEmpty) {
    exporting::PartDecal d;
    EXPECT_TRUE(exporting::decalQuad(d, {0, 1, 1}).positions.empty());
    EXPECT_TRUE(exporting::decalQuad(d, {1, NAN, 1}).positions.empty());
    EXPECT_EQ(exporting::decalQuad(d, {1, 1, 1}).positions.size(), 4u);
}

}  // namespace
