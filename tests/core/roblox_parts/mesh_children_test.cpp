// Shape mesh children (BlockMesh, CylinderMesh, SpecialMesh
// Brick/Wedge/Sphere/Head/Torso/Cylinder): the part is drawn as that shape, scaled by the mesh's
// Scale and moved by its Offset; a CylinderMesh stands along Y.
#include <gtest/gtest.h>

#include <cmath>

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

// SpecialMesh Head (0), Torso (1) and Cylinder (4): the legacy character shapes and the part
// cylinder, filling the part's Size × Scale.
TEST(MeshChildren, SpecialMeshHeadTorsoAndCylinder) {
    {
        const Asset a = partWithChild("SpecialMesh", {2, 1, 1}, {1.25f, 1.25f, 1.25f}, {}, 0);
        EXPECT_EQ(extractRobloxParts(a).at(0).shape, PartShape::Head);
        // The classic head: a 2 × 1 × 1 part, Scale 1.25: 1.25 across (min of X, Z), 1.25 tall.
        expectBounds(drawnBounds(a), {9.375f, -0.625f, -0.625f}, {10.625f, 0.625f, 0.625f});
    }
    {
        // Instanced drawing groups it as a head, not as the ball its enum value once wrapped to.
        const Asset a = partWithChild("SpecialMesh", {2, 1, 1}, {1, 1, 1}, {}, 0);
        const auto groups = groupShapeInstances(extractRobloxParts(a));
        ASSERT_EQ(groups.size(), 1u);
        EXPECT_EQ(groups[0].shape, PartShape::Head);
    }
    {
        const Asset a = partWithChild("SpecialMesh", {2, 2, 1}, {1, 1, 1}, {}, 1);
        EXPECT_EQ(extractRobloxParts(a).at(0).shape, PartShape::Torso);
        expectBounds(drawnBounds(a), {9, -1, -0.5f}, {11, 1, 0.5f});
    }
    {
        // Along X like a Cylinder part: diameter min(Y, Z).
        const Asset a = partWithChild("SpecialMesh", {4, 2, 3}, {1, 1, 1}, {}, 4);
        EXPECT_EQ(extractRobloxParts(a).at(0).shape, PartShape::Cylinder);
        expectBounds(drawnBounds(a), {8, -1, -1}, {12, 1, 1});
    }
}

// The unit shapes are closed, outward-facing and inside the unit box; the head is round
// (a circle in XZ) with rounded ends, the torso narrower at the bottom.
TEST(MeshChildren, HeadAndTorsoUnitShapes) {
    for (PartShape shape : {PartShape::Head, PartShape::Torso}) {
        const Mesh m = partShapeMesh(shape);
        ASSERT_FALSE(m.indices.empty());
        ASSERT_EQ(m.normals.size(), m.positions.size());
        Bounds b;
        for (const Vec3& p : m.positions) b.add(p);
        expectBounds(b, {-0.5f, -0.5f, -0.5f}, {0.5f, 0.5f, 0.5f});
        // Outward: every triangle's winding normal points away from the centre, and agrees
        // with the stored normals (signed volume positive: a closed, outward surface).
        double volume = 0;
        for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
            const Vec3 a = m.positions[m.indices[t]], b2 = m.positions[m.indices[t + 1]],
                       c = m.positions[m.indices[t + 2]];
            volume += (a.x * (b2.y * c.z - b2.z * c.y) - a.y * (b2.x * c.z - b2.z * c.x) +
                       a.z * (b2.x * c.y - b2.y * c.x)) /
                      6.0;
        }
        if (shape == PartShape::Head) {
            // Between the inscribed sphere (0.52) and the cylinder (0.785) it rounds off.
            EXPECT_GT(volume, 0.55);
            EXPECT_LT(volume, 0.785);
            for (const Vec3& p : m.positions)
                if (std::abs(p.y) <= 0.25f) {
                    EXPECT_NEAR(std::hypot(p.x, p.z), 0.5f, 1e-4f) << p.y;
                }
        } else {
            EXPECT_NEAR(volume, 0.9, 1e-3);  // mean width 0.9 × height 1 × depth 1
            float bottomWidth = 0;
            for (const Vec3& p : m.positions)
                if (p.y < -0.49f) bottomWidth = std::max(bottomWidth, 2 * std::abs(p.x));
            EXPECT_NEAR(bottomWidth, 0.8f, 1e-4f);
        }
        for (const Vec3& n : m.normals) EXPECT_NEAR(std::hypot(n.x, n.y, n.z), 1.0f, 1e-4f);
    }
}

}  // namespace
}  // namespace meshscope
