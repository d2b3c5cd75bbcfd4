// MeshParts and SpecialMesh FileMesh parts in glTF and OBJ exports: their meshes resolved through
// the asset folders (as the viewer resolves them) are written as their geometry, fitted and
// placed like the part; those not found stay boxes, one counted warning per kind. Fixtures are
// made by the project's writers: FileMeshes named by asset id in a temporary folder, and a
// binary model (.rbxm) that refers to them, decoded again before export.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "export_test_util.h"
#include "gltf_validator_util.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_model_writer.h"
#include "meshscope/core/roblox_parts.h"
#include "support/test_support.h"

using namespace meshscope;
using test::countWarnings;
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
    // Textures: PNGs (2001, 2003), a JPEG (2005), a file that is no image (2004); 2002 is
    // missing.
    test::writeFile(f.folder / "2001", test::tinyPng());
    test::writeFile(f.folder / "2003", test::tinyPng());
    test::writeFile(f.folder / "2004", {'h', 'e', 'l', 'l', 'o'});
    test::writeFile(f.folder / "2005", test::tinyJpeg());
    a.addProperty(rock, prop("TextureID", "Content", std::string("rbxassetid://2001")));
    a.addProperty(a.children(hat)[0],
                  prop("TextureId", "Content", std::string("rbxassetid://2002")));
    // A box standing in for a missing mesh is not textured (it has none of the mesh's UVs).
    a.addProperty(a.children(lostHat)[0],
                  prop("TextureId", "Content", std::string("rbxassetid://2003")));
    const int sign = part(a, ws, "Sign", "Part", {0, -9, 0}, {2, 2, 2});
    const int bad = a.addNode("Texture", "Texture", sign);
    a.addChild(sign, bad);
    a.addProperty(bad, prop("Texture", "Content", std::string("rbxassetid://2004")));
    const int crate = part(a, ws, "Crate", "Part", {0, -5, 0}, {2, 2, 2});
    const int decal = a.addNode("Decal", "Decal", crate);
    a.addChild(crate, decal);
    a.addProperty(decal, prop("Texture", "Content", std::string("rbxassetid://2005")));
    const int shiny = part(a, ws, "Shiny", "MeshPart", {-10, 0, 0}, {2, 2, 2});
    a.addProperty(shiny, prop("MeshId", "Content", std::string("rbxassetid://1002")));
    a.addProperty(shiny, prop("TextureID", "Content", std::string("rbxassetid://2002")));
    const int look = a.addNode("SurfaceAppearance", "SurfaceAppearance", shiny);
    a.addChild(shiny, look);
    a.addProperty(look, prop("ColorMap", "Content", std::string("rbxassetid://2001")));
    a.addProperty(look, prop("NormalMap", "Content", std::string("rbxassetid://2003")));
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
    // Counted in the stats: the three meshes plus five 12-triangle boxes (Crate, Sign: Parts)
    // and the two triangles of the Crate's Decal quad (on its face).
    const std::size_t box = partShapeMesh(PartShape::Block).triangleCount();
    EXPECT_EQ(glb.report.stats.triangles,
              lod0Triangles(f.lodSphere) + 2 * f.uvSphere.meshes[0].triangleCount() + 5 * box + 2);

    // Without the folder every mesh part is a box.
    const GlbBytes bare = exportGlb(f.model);
    ASSERT_TRUE(bare.report.ok());
    EXPECT_EQ(countWarnings(bare.report, "4 MeshPart(s) written as boxes"), 1u);
    EXPECT_EQ(countWarnings(bare.report, "2 SpecialMesh part(s) written as boxes"), 1u);
    EXPECT_EQ(bare.report.stats.triangles, 8 * box);

    // The Khronos validator finds nothing to report.
    test::expectValidGlb(glb.bytes, "part_mesh_glb_out", "parts.glb");
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
    // + the Crate's Decal: its own object, one quad.
    EXPECT_EQ(c.f,
              lod0Triangles(f.lodSphere) + 2 * f.uvSphere.meshes[0].triangleCount() + 5 * box + 2);
    EXPECT_EQ(c.o, 9u);
    EXPECT_EQ(c.vn, c.v);
    EXPECT_EQ(countWarnings(r, "2 MeshPart(s) written as boxes"), 1u);
}

TEST(PartMeshExport, GltfEmbedsTexturesFromTheAssetFolders) {
    const Fixture f = makeFixture("part_tex_glb");
    ExportOptions options;
    options.assetFolders = {f.folder.string()};
    const GlbBytes glb = exportGlb(f.model, options);
    ASSERT_TRUE(glb.report.ok()) << *glb.report.error;
    tinygltf::Model m;
    std::string err;
    ASSERT_TRUE(test::loadGlb(glb.bytes, m, err)) << err;
    // Three image files (2001, 2003 PNG; 2005 JPEG), each embedded once as stored, whatever
    // uses them.
    ASSERT_EQ(m.images.size(), 3u);
    ASSERT_EQ(m.textures.size(), 3u);
    for (const auto& image : m.images) {
        SCOPED_TRACE(image.name);
        const bool jpeg = image.name == "2005";
        const Bytes stored = jpeg ? test::tinyJpeg() : test::tinyPng();
        EXPECT_EQ(image.mimeType, jpeg ? "image/jpeg" : "image/png");
        ASSERT_GE(image.bufferView, 0);
        const auto& v = m.bufferViews.at(std::size_t(image.bufferView));
        ASSERT_EQ(v.byteLength, stored.size());
        const auto& data = m.buffers.at(std::size_t(v.buffer)).data;
        ASSERT_LE(v.byteOffset + v.byteLength, data.size());
        EXPECT_TRUE(
            std::equal(stored.begin(), stored.end(), data.begin() + std::ptrdiff_t(v.byteOffset)));
    }
    std::map<std::string, const tinygltf::Node*> nodes;
    for (const auto& n : m.nodes) nodes[n.name] = &n;
    auto primitive = [&](const char* name) -> const tinygltf::Primitive& {
        return m.meshes.at(std::size_t(nodes.at(name)->mesh)).primitives.at(0);
    };
    auto materialOf = [&](const char* name) -> const tinygltf::Material& {
        return m.materials.at(std::size_t(primitive(name).material));
    };
    auto imageFile = [&](int texture) {
        return m.images.at(std::size_t(m.textures.at(std::size_t(texture)).source)).name;
    };
    // MeshPart TextureID: colour map; the SurfaceAppearance wins over TextureID.
    for (const char* name : {"Rock", "Shiny"}) {
        SCOPED_TRACE(name);
        ASSERT_TRUE(nodes.count(name));
        const auto& mat = materialOf(name);
        ASSERT_GE(mat.pbrMetallicRoughness.baseColorTexture.index, 0);
        EXPECT_EQ(imageFile(mat.pbrMetallicRoughness.baseColorTexture.index), "2001");
        EXPECT_EQ(primitive(name).attributes.count("TEXCOORD_0"), 1u);
    }
    // The Crate (a box) keeps an untextured box; its Decal is a second primitive with the image.
    {
        const auto& crate = m.meshes.at(std::size_t(nodes.at("Crate")->mesh));
        ASSERT_EQ(crate.primitives.size(), 2u);
        EXPECT_LT(materialOf("Crate").pbrMetallicRoughness.baseColorTexture.index, 0);
        const auto& decal = m.materials.at(std::size_t(crate.primitives[1].material));
        ASSERT_GE(decal.pbrMetallicRoughness.baseColorTexture.index, 0);
        EXPECT_EQ(imageFile(decal.pbrMetallicRoughness.baseColorTexture.index), "2005");
    }
    ASSERT_GE(materialOf("Shiny").normalTexture.index, 0);
    EXPECT_EQ(imageFile(materialOf("Shiny").normalTexture.index), "2003");
    EXPECT_LT(materialOf("Rock").normalTexture.index, 0);
    // Hat (2002 missing) and Sign (2004 not an image): not textured, one counted warning; the
    // box of Lost hat (its mesh missing) not textured either.
    for (const char* name : {"Hat", "Sign", "Lost hat"})
        EXPECT_LT(materialOf(name).pbrMetallicRoughness.baseColorTexture.index, 0) << name;
    EXPECT_EQ(countWarnings(glb.report, "texture reference(s) not embedded"), 1u);
    EXPECT_EQ(countWarnings(glb.report, "2 texture reference(s) not embedded"), 1u);

    test::expectValidGlb(glb.bytes, "part_tex_glb_out", "textured.glb");
}

TEST(PartMeshExport, ObjCopiesTexturesBesideTheMtl) {
    const Fixture f = makeFixture("part_tex_obj");
    const auto out = test::tempDir("part_tex_obj_out");
    ExportOptions options;
    options.format = ExportFormat::Obj;
    options.assetFolders = {f.folder.string()};
    const ExportResult r = exportAsset(f.model, (out / "t.obj").string(), options);
    ASSERT_TRUE(r.ok()) << *r.error;
    std::ifstream in(out / "t.mtl");
    std::stringstream mtl;
    mtl << in.rdbuf();
    std::set<std::string> maps, normals;
    std::string line;
    while (std::getline(mtl, line)) {
        if (line.rfind("map_Kd ", 0) == 0) maps.insert(line.substr(7));
        if (line.rfind("norm ", 0) == 0) normals.insert(line.substr(5));
    }
    ASSERT_EQ(maps.size(), 2u) << mtl.str();  // the PNG and the Decal's JPEG
    ASSERT_EQ(normals.size(), 1u) << mtl.str();
    EXPECT_FALSE(maps.count(*normals.begin()));
    std::set<std::string> all = maps;
    all.insert(*normals.begin());
    for (const std::string& name : all) {
        const bool jpeg = name.ends_with(".jpg");
        EXPECT_EQ(test::readFile(out / name), jpeg ? test::tinyJpeg() : test::tinyPng()) << name;
        EXPECT_NE(std::find(r.files.begin(), r.files.end(), (out / name).string()), r.files.end());
    }
    EXPECT_EQ(countWarnings(r, "2 texture reference(s) not embedded"), 1u);
}

}  // namespace

namespace {

// `--lod N` reaches resolved part meshes: the Rock's file (1001) has three LODs; the UV sphere
// (1002, Hat and Shiny) has one, so it gives its last level and is named in one warning.
TEST(PartMeshExport, LodOptionPicksTheLevelOfResolvedMeshes) {
    const Fixture f = makeFixture("part_mesh_lod");
    const Mesh& lodMesh = f.lodSphere.meshes.at(0);
    ASSERT_EQ(lodMesh.lods.size(), 3u);
    ASSERT_NE(lodMesh.lods[0].triangleCount, lodMesh.lods[1].triangleCount);
    ASSERT_NE(lodMesh.lods[1].triangleCount, lodMesh.lods[2].triangleCount);
    auto rockTriangles = [&](const GlbBytes& glb) -> std::size_t {
        tinygltf::Model m;
        std::string err;
        EXPECT_TRUE(test::loadGlb(glb.bytes, m, err)) << err;
        for (const auto& n : m.nodes)
            if (n.name == "Rock") {
                const auto& prim = m.meshes.at(std::size_t(n.mesh)).primitives.at(0);
                return m.accessors.at(std::size_t(prim.indices)).count / 3;
            }
        ADD_FAILURE() << "no Rock node";
        return 0;
    };
    for (const int lod : {0, 1, 2, 7}) {
        SCOPED_TRACE(lod);
        ExportOptions options;
        options.assetFolders = {f.folder.string()};
        options.lod = lod;
        const GlbBytes glb = exportGlb(f.model, options);
        ASSERT_TRUE(glb.report.ok()) << *glb.report.error;
        const std::size_t level = std::size_t(std::min(lod, 2));
        EXPECT_EQ(rockTriangles(glb), lodMesh.lods[level].triangleCount);
        // The one-level sphere (Hat, Shiny) from LOD 1 on; the Rock too past LOD 2.
        const std::size_t shortOf = lod == 0 ? 0 : lod <= 2 ? 2 : 3;
        if (shortOf) {
            EXPECT_EQ(
                countWarnings(glb.report, std::to_string(shortOf) + " part mesh(es) have no LOD " +
                                              std::to_string(lod)),
                1u);
        } else {
            EXPECT_EQ(countWarnings(glb.report, "part mesh(es) have no LOD"), 0u);
        }
    }
    // OBJ: the same level.
    const auto out = test::tempDir("part_mesh_lod_obj");
    ExportOptions options;
    options.format = ExportFormat::Obj;
    options.assetFolders = {f.folder.string()};
    options.lod = 2;
    const ExportResult r = exportAsset(f.model, (out / "l.obj").string(), options);
    ASSERT_TRUE(r.ok()) << *r.error;
    const std::size_t box = partShapeMesh(PartShape::Block).triangleCount();
    EXPECT_EQ(
        test::objCounts(out / "l.obj").f,
        lodMesh.lods[2].triangleCount + 2 * f.uvSphere.meshes[0].triangleCount() + 5 * box + 2);
}

}  // namespace
