// Shape mesh children (BlockMesh, CylinderMesh, SpecialMesh Brick/Wedge/Sphere): the part is drawn
// as that shape, scaled by the mesh's Scale and moved by its Offset; a CylinderMesh stands along Y.
#include <gtest/gtest.h>

#include "meshscope/core/roblox_parts.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

using test::prop;

Asset partWithChild(const char* childClass, Vec3 size, Vec3 scale, Vec3 offset,
                    std::int64_t meshType = -1) {
    Asset a;
    a.format = "roblox-model";
    const int p = a.addNode("P", "Part");
    CFrame cf;
    cf.position = {10, 0, 0};
    a.addProperty(p, prop("CFrame", "CFrame", cf));
    a.addProperty(p, prop("size", "Vector3", size));
    const int m = a.addNode("Mesh", childClass, p);
    a.addChild(p, m);
    a.addProperty(m, prop("Scale", "Vector3", scale));
    a.addProperty(m, prop("Offset", "Vector3", offset));
    if (meshType >= 0) a.addProperty(m, prop("MeshType", "Enum", meshType));
    return a;
}

Bounds drawnBounds(const Asset& a) {
    const auto parts = extractRobloxParts(a);
    EXPECT_EQ(parts.size(), 1u);
    const auto meshes = buildPartMeshes(parts);
    EXPECT_EQ(meshes.size(), 1u);
    return meshes.at(0).bounds;
}

void expectBounds(const Bounds& b, Vec3 lo, Vec3 hi) {
    EXPECT_NEAR(b.min.x, lo.x, 1e-4f);
    EXPECT_NEAR(b.min.y, lo.y, 1e-4f);
    EXPECT_NEAR(b.min.z, lo.z, 1e-4f);
    EXPECT_NEAR(b.max.x, hi.x, 1e-4f);
    EXPECT_NEAR(b.max.y, hi.y, 1e-4f);
    EXPECT_NEAR(b.max.z, hi.z, 1e-4f);
}

TEST(MeshChildren, BlockMeshScalesAndOffsetsTheBox) {
    const Asset a = partWithChild("BlockMesh", {4, 1, 2}, {0.5f, 2, 1}, {0, 1, 0});
    const RobloxPart p = extractRobloxParts(a).at(0);
    EXPECT_EQ(p.shape, PartShape::Block);
    expectBounds(drawnBounds(a), {9, 0, -1}, {11, 2, 1});
}

TEST(MeshChildren, CylinderMeshStandsAlongY) {
    // Height 4 along Y, diameter min(X, Z) = 2.
    const Asset a = partWithChild("CylinderMesh", {2, 4, 3}, {1, 1, 1}, {});
    const RobloxPart p = extractRobloxParts(a).at(0);
    EXPECT_EQ(p.shape, PartShape::Cylinder);
    expectBounds(drawnBounds(a), {9, -2, -1}, {11, 2, 1});
}

TEST(MeshChildren, SpecialMeshSphereAndBrickTakeTheScale) {
    {
        const Asset a = partWithChild("SpecialMesh", {2, 2, 2}, {2, 2, 2}, {0, 0, 3}, 3);
        EXPECT_EQ(extractRobloxParts(a).at(0).shape, PartShape::Ball);
        expectBounds(drawnBounds(a), {8, -2, 1}, {12, 2, 5});
    }
    {
        const Asset a = partWithChild("SpecialMesh", {4, 1, 2}, {1, 3, 1}, {}, 6);
        expectBounds(drawnBounds(a), {8, -1.5f, -1}, {12, 1.5f, 1});
    }
    {
        // A FileMesh keeps its Scale and Offset for the mesh (not baked into the part).
        Asset a = partWithChild("SpecialMesh", {4, 1, 2}, {2, 2, 2}, {1, 0, 0}, 5);
        a.addProperty(a.children(0)[0], prop("MeshId", "Content", std::string("rbxassetid://1")));
        const RobloxPart p = extractRobloxParts(a).at(0);
        EXPECT_TRUE(p.specialMesh);
        EXPECT_EQ(p.meshScale, (Vec3{2, 2, 2}));
        EXPECT_EQ(p.size, (Vec3{4, 1, 2}));
    }
}

TEST(MeshChildren, SpecialMeshCylinderLiesAlongXLikeACylinderPart) {
    // MeshType 4: "identical to a Part with Shape Cylinder" — along X, diameter min(Y, Z) × Scale.
    const Asset a = partWithChild("SpecialMesh", {4, 2, 3}, {1, 1, 2}, {0, 1, 0}, 4);
    EXPECT_EQ(extractRobloxParts(a).at(0).shape, PartShape::Cylinder);
    expectBounds(drawnBounds(a), {8, 0, -1}, {12, 2, 1});
}

TEST(MeshChildren, SpecialMeshHeadIsAnUprightCylinder) {
    // MeshType 0 (the character head): approximated by a capped cylinder standing along Y, sized
    // by Size × Scale (diameter min(X, Z), height Y), like a CylinderMesh.
    const Asset a = partWithChild("SpecialMesh", {2, 1, 1}, {1.25f, 1.25f, 1.25f}, {}, 0);
    EXPECT_EQ(extractRobloxParts(a).at(0).shape, PartShape::Cylinder);
    expectBounds(drawnBounds(a), {9.375f, -0.625f, -0.625f}, {10.625f, 0.625f, 0.625f});
}

}  // namespace
}  // namespace meshscope
