// Resolving, decoding and placing the meshes of a model's parts (part_meshes.h): meshes found in
// the asset folders, placed like their parts; references not drawn become one Warning each, at
// the bytes of the MeshId property.
#include "meshscope/core/part_meshes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/pose.h"
#include "meshscope/core/roblox_model_writer.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

using test::prop;

int addPart(Asset& a, const std::string& cls, const std::string& name, Vec3 pos, Vec3 size,
            int parent) {
    const int n = a.addNode(name, cls, parent);
    CFrame cf;
    cf.position = pos;
    a.propertyList(n) = {prop("Name", "string", name), prop("CFrame", "CFrame", cf),
                         prop("size", "Vector3", size)};
    return n;
}

// A model with: a MeshPart naming a mesh in the folder (111), a Part whose SpecialMesh names the
// same file by URL, two MeshParts naming a missing mesh (222), a MeshPart naming a file that is
// no mesh (333), an invisible MeshPart naming another missing mesh (444) and a plain Part.
Asset meshModel() {
    Asset a;
    a.format = "roblox-model";
    const int model = a.addNode("Model", "Model");
    const int found = addPart(a, "MeshPart", "Found", {10, 0, 0}, {2, 4, 2}, model);
    a.addProperty(found, prop("MeshId", "Content", std::string("rbxassetid://111")));
    const int special = addPart(a, "Part", "Special", {-10, 0, 0}, {1, 1, 1}, model);
    const int sm = a.addNode("Mesh", "SpecialMesh", special);
    a.propertyList(sm) = {
        prop("Name", "string", std::string("Mesh")), prop("MeshType", "Enum", std::int64_t(5)),
        prop("MeshId", "Content", std::string("http://www.roblox.com/asset/?id=111")),
        prop("Scale", "Vector3", Vec3{2, 2, 2})};
    for (const char* name : {"MissingA", "MissingB"}) {
        const int n = addPart(a, "MeshPart", name, {0, 10, 0}, {1, 1, 1}, model);
        a.addProperty(n, prop("MeshId", "Content", std::string("rbxassetid://222")));
    }
    const int junk = addPart(a, "MeshPart", "Junk", {0, 20, 0}, {1, 1, 1}, model);
    a.addProperty(junk, prop("MeshId", "Content", std::string("rbxassetid://333")));
    const int hidden = addPart(a, "MeshPart", "Hidden", {0, 30, 0}, {1, 1, 1}, model);
    a.addProperty(hidden, prop("MeshId", "Content", std::string("rbxassetid://444")));
    a.addProperty(hidden, prop("Transparency", "float", 1.0));
    addPart(a, "Part", "Plain", {0, 0, 0}, {1, 1, 1}, model);
    return a;
}

std::filesystem::path folderWithMeshes(const std::string& name) {
    const auto mesh = test::writeFileMeshFixture(name, "111.mesh", makeUvSphere());
    test::writeFile(mesh.parent_path() / "333", {'n', 'o', 't', ' ', 'a', ' ', 'm', 'e', 's', 'h'});
    return mesh.parent_path();
}

const Diagnostic* findCode(const PartMeshes& r, const char* code) {
    const auto it = std::find_if(r.diagnostics.begin(), r.diagnostics.end(),
                                 [&](const Diagnostic& d) { return d.code == code; });
    return it == r.diagnostics.end() ? nullptr : &*it;
}

TEST(PartMeshes, ResolvedMeshesArePlacedAndTheRestReported) {
    const Asset asset = meshModel();
    PartMeshOptions options;
    options.folders = {folderWithMeshes("part_meshes_resolve")};
    const PartMeshes r = resolvePartMeshes(asset, options);

    ASSERT_EQ(r.parts.size(), 7u);
    EXPECT_EQ(r.references, 5u);  // the invisible part is not resolved
    ASSERT_EQ(r.meshes.size(), 2u);
    // Found (part 0): the sphere fitted to the part's 2 x 4 x 2 studs around x = 10.
    EXPECT_EQ(r.meshes[0].part, 0u);
    const Bounds found = boundsOf(r.meshes[0].mesh.positions);
    EXPECT_NEAR(found.max.x - found.min.x, 2.0f, 1e-3f);
    EXPECT_NEAR(found.max.y - found.min.y, 4.0f, 1e-3f);
    EXPECT_NEAR((found.max.x + found.min.x) / 2, 10.0f, 1e-3f);
    // Special (part 1): the same file, scaled by the SpecialMesh's Scale around x = -10.
    EXPECT_EQ(r.meshes[1].part, 1u);
    const Bounds special = boundsOf(r.meshes[1].mesh.positions);
    EXPECT_NEAR((special.max.x + special.min.x) / 2, -10.0f, 1e-3f);
    EXPECT_EQ(r.meshes[1].skeleton, -1);

    // One warning per reference not drawn: 222 (two parts), 333 (no mesh); none for 444.
    ASSERT_EQ(r.diagnostics.size(), 2u);
    for (const Diagnostic& d : r.diagnostics) EXPECT_EQ(d.severity, Severity::Warning);
    const Diagnostic* missing = findCode(r, kMeshUnresolved);
    ASSERT_NE(missing, nullptr);
    EXPECT_NE(missing->message.find("MissingA"), std::string::npos) << missing->message;
    EXPECT_NE(missing->message.find("2 parts"), std::string::npos) << missing->message;
    EXPECT_EQ(missing->context, joinPath("MissingA", "MeshId"));
    const Diagnostic* empty = findCode(r, kMeshEmpty);
    ASSERT_NE(empty, nullptr);
    EXPECT_NE(empty->message.find("Junk"), std::string::npos) << empty->message;
}

TEST(PartMeshes, WithoutFoldersEveryVisibleReferenceIsAWarning) {
    const PartMeshes r = resolvePartMeshes(meshModel());
    EXPECT_TRUE(r.meshes.empty());
    // 111 (by id and by URL: two references), 222, 333.
    EXPECT_EQ(r.diagnostics.size(), 4u);
    for (const Diagnostic& d : r.diagnostics) EXPECT_EQ(d.code, kMeshUnresolved);
    // The SpecialMesh's reference names the part and the mesh node that holds it.
    EXPECT_TRUE(std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [](const Diagnostic& d) {
        return d.context == joinPath(joinPath("Special", "Mesh"), "MeshId");
    }));
}

TEST(PartMeshes, NotARobloxModelGivesNothing) {
    const PartMeshes r = resolvePartMeshes(makeUvSphere());
    EXPECT_TRUE(r.parts.empty());
    EXPECT_TRUE(r.diagnostics.empty());
}

TEST(PartMeshes, CancelStopsBeforeTheFiles) {
    std::atomic<bool> cancel{true};
    PartMeshOptions options;
    options.folders = {folderWithMeshes("part_meshes_cancel")};
    options.cancel = &cancel;
    const PartMeshes r = resolvePartMeshes(meshModel(), options);
    EXPECT_TRUE(r.cancelled);
    EXPECT_TRUE(r.meshes.empty());
}

// Through the binary decoder (chunks stored uncompressed): the warning's offset is where the
// MeshId values are, and those bytes hold the reference.
TEST(PartMeshes, WarningPointsAtTheMeshIdBytesOfADecodedModel) {
    RobloxModelWriteOptions write;
    write.compression = RobloxChunkCompression::None;
    const RobloxModelWriteResult written = writeRobloxModel(meshModel(), write);
    ASSERT_TRUE(written.ok()) << *written.error;
    const DecodeResult decoded = decodeBytes(written.bytes, {});
    ASSERT_TRUE(decoded.ok()) << decoded.error->toString();
    const PartMeshes r = resolvePartMeshes(decoded.asset);
    const Diagnostic* missing = nullptr;
    for (const Diagnostic& d : r.diagnostics)
        if (d.message.find("222") != std::string::npos) missing = &d;
    ASSERT_NE(missing, nullptr);
    const auto part = std::find_if(r.parts.begin(), r.parts.end(), [](const RobloxPart& p) {
        return p.meshId == "rbxassetid://222";
    });
    ASSERT_NE(part, r.parts.end());
    EXPECT_EQ(missing->offset, part->meshIdOffset);
    ASSERT_GT(part->meshIdLength, 0u);
    ASSERT_LE(part->meshIdOffset + part->meshIdLength, written.bytes.size());
    const std::string bytes(
        written.bytes.begin() + std::ptrdiff_t(part->meshIdOffset),
        written.bytes.begin() + std::ptrdiff_t(part->meshIdOffset + part->meshIdLength));
    EXPECT_NE(bytes.find("rbxassetid://222"), std::string::npos);
}

}  // namespace
}  // namespace meshscope
