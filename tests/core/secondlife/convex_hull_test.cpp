// Convex hull edge sets used for physics_convex wireframes: known polyhedra, interior points,
// flat and collinear clouds, duplicates and non-finite points.
#include "formats/secondlife/convex_hull.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace meshscope {
namespace {

std::set<std::pair<std::uint32_t, std::uint32_t>> edgeSet(const std::vector<std::uint32_t>& e) {
    std::set<std::pair<std::uint32_t, std::uint32_t>> s;
    for (std::size_t i = 0; i + 1 < e.size(); i += 2) s.insert({e[i], e[i + 1]});
    return s;
}

std::vector<Vec3> cube() {
    std::vector<Vec3> p;
    for (int i = 0; i < 8; ++i)
        p.push_back({float(i & 1), float((i >> 1) & 1), float((i >> 2) & 1)});
    return p;
}

TEST(ConvexHull, TetrahedronHasSixEdges) {
    const std::vector<Vec3> p = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    EXPECT_EQ(edgeSet(convexHullEdges(p)).size(), 6u);
}

TEST(ConvexHull, CubeHasTwelveEdgesPlusSixFaceDiagonals) {
    // Triangulated: 12 faces, so 18 edges (Euler: V − E + F = 2 → 8 − 18 + 12).
    const auto e = edgeSet(convexHullEdges(cube()));
    EXPECT_EQ(e.size(), 18u);
    // Every cube edge (corners differing in one coordinate) is among them.
    for (std::uint32_t a = 0; a < 8; ++a)
        for (int bit = 0; bit < 3; ++bit) {
            const std::uint32_t b = a ^ (1u << bit);
            if (a < b) {
                EXPECT_TRUE(e.count({a, b})) << a << "-" << b;
            }
        }
    // No body diagonal (corners differing in all three).
    for (std::uint32_t a = 0; a < 4; ++a) EXPECT_FALSE(e.count({a, 7 - a}));
}

TEST(ConvexHull, InteriorAndDuplicatePointsGetNoEdges) {
    auto p = cube();
    p.push_back({0.5f, 0.5f, 0.5f});    // 8: inside
    p.push_back({0.25f, 0.5f, 0.75f});  // 9: inside
    p.push_back({1, 1, 1});             // 10: duplicate of 7
    p.push_back({NAN, 0, 0});           // 11: not finite
    const auto e = edgeSet(convexHullEdges(p));
    EXPECT_EQ(e.size(), 18u);
    for (const auto& [a, b] : e) {
        EXPECT_LT(a, 8u);
        EXPECT_LT(b, 8u);
    }
}

TEST(ConvexHull, OctahedronHasTwelveEdges) {
    const std::vector<Vec3> p = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                 {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    EXPECT_EQ(edgeSet(convexHullEdges(p)).size(), 12u);
}

TEST(ConvexHull, FlatCloudGetsItsPolygon) {
    // A square with a point in its middle, in the plane x + y + z = 1 (tilted on purpose).
    const std::vector<Vec3> p = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, -1}, {0.5f, 0.5f, 0}};
    const auto e = edgeSet(convexHullEdges(p));
    EXPECT_EQ(e.size(), 4u);  // the quadrilateral 0-1-3 ... no edge to the inner point 4
    for (const auto& [a, b] : e) EXPECT_NE(b, 4u);
}

TEST(ConvexHull, CollinearAndTinyClouds) {
    const std::vector<Vec3> line = {{0, 0, 0}, {2, 2, 2}, {1, 1, 1}, {0.5f, 0.5f, 0.5f}};
    EXPECT_EQ(convexHullEdges(line), (std::vector<std::uint32_t>{0, 1}));
    EXPECT_TRUE(convexHullEdges(std::vector<Vec3>{{1, 2, 3}}).empty());
    EXPECT_TRUE(convexHullEdges(std::vector<Vec3>{{1, 2, 3}, {1, 2, 3}}).empty());
    EXPECT_TRUE(convexHullEdges(std::vector<Vec3>{}).empty());
}

}  // namespace
}  // namespace meshscope
