// Wedge and CornerWedge geometry checked against a public description of Roblox's shapes:
// nightcycle/luau-math (GitHub), src/Mesh/WedgePart.lua and src/Mesh/CornerWedgePart.lua at
// commit 04d46229c8b6ed17f7959f5640f6251e57a15b7e, which list each part's vertices in the part's
// own frame (module.getVertices, offsets of ±Size/2 passed through getWorldPosition, which
// multiplies them by (1, 1, -1) for the wedge and by (-1, 1, 1) for the corner wedge):
//   WedgePart:       the four bottom corners (±x, -y, ±z) and the top edge (±x, +y, +z);
//   CornerWedgePart: the four bottom corners (±x, -y, ±z) and one apex (+x, +y, -z).
// Expected points below are those lists with x = y = z = 0.5 (the unit shape), worked out by
// hand from the Lua, not taken from partShapeMesh.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "meshscope/core/roblox_parts.h"

namespace meshscope {
namespace {

bool near(Vec3 a, Vec3 b) {
    return std::fabs(a.x - b.x) < 1e-5f && std::fabs(a.y - b.y) < 1e-5f &&
           std::fabs(a.z - b.z) < 1e-5f;
}

// The distinct positions of `m` (faces repeat corners with their own flat normals).
std::vector<Vec3> distinctPositions(const Mesh& m) {
    std::vector<Vec3> out;
    for (const Vec3& p : m.positions)
        if (std::none_of(out.begin(), out.end(), [&](Vec3 q) { return near(p, q); }))
            out.push_back(p);
    return out;
}

void expectSamePoints(const std::vector<Vec3>& got, const std::vector<Vec3>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (const Vec3& w : want)
        EXPECT_TRUE(std::any_of(got.begin(), got.end(), [&](Vec3 g) { return near(g, w); }))
            << "missing (" << w.x << ", " << w.y << ", " << w.z << ")";
}

// Outward normal of the face whose three corners (and no others of the mesh) are `a`, `b`, `c`:
// the normal stored on the vertices of the triangle with exactly those corners.
Vec3 faceNormal(const Mesh& m, Vec3 a, Vec3 b, Vec3 c) {
    for (std::size_t i = 0; i + 2 < m.indices.size(); i += 3) {
        const Vec3 t[3] = {m.positions[m.indices[i]], m.positions[m.indices[i + 1]],
                           m.positions[m.indices[i + 2]]};
        int found = 0;
        for (Vec3 p : {a, b, c})
            found += std::any_of(std::begin(t), std::end(t), [&](Vec3 q) { return near(p, q); });
        if (found == 3) return m.normals[m.indices[i]];
    }
    ADD_FAILURE() << "no triangle with those corners";
    return {};
}

TEST(PartShapeSource, WedgeVerticesMatchLuauMathWedgePart) {
    const float h = 0.5f;
    expectSamePoints(distinctPositions(partShapeMesh(PartShape::Wedge)),
                     {{h, -h, -h}, {-h, -h, -h}, {h, -h, h}, {-h, -h, h}, {h, h, h}, {-h, h, h}});
}

TEST(PartShapeSource, CornerWedgeVerticesMatchLuauMathCornerWedgePart) {
    const float h = 0.5f;
    const Mesh m = partShapeMesh(PartShape::CornerWedge);
    expectSamePoints(distinctPositions(m),
                     {{h, -h, -h}, {-h, -h, -h}, {h, -h, h}, {-h, -h, h}, {h, h, -h}});
    // The apex stands straight above the (+x, -z) bottom corner, so the two faces that hold
    // that vertical edge are the part's Right (+X) and Front (-Z) faces, and the two others
    // slope up towards it: their normals point up and away (-X or +Z).
    const Vec3 apex{h, h, -h};
    const Vec3 right = faceNormal(m, {h, -h, -h}, {h, -h, h}, apex);
    const Vec3 front = faceNormal(m, {-h, -h, -h}, {h, -h, -h}, apex);
    EXPECT_TRUE(near(right, {1, 0, 0}));
    EXPECT_TRUE(near(front, {0, 0, -1}));
    const Vec3 left = faceNormal(m, {-h, -h, -h}, {-h, -h, h}, apex);
    const Vec3 back = faceNormal(m, {-h, -h, h}, {h, -h, h}, apex);
    // Unit box: the slopes rise 1 over a run of 1, so the normals are (±1, 1, 0)/√2 and so on.
    const float s = std::sqrt(0.5f);
    EXPECT_TRUE(near(left, {-s, s, 0})) << left.x << " " << left.y << " " << left.z;
    EXPECT_TRUE(near(back, {0, s, s})) << back.x << " " << back.y << " " << back.z;
}

}  // namespace
}  // namespace meshscope
