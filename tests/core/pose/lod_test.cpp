// LOD choice: the documented distance thresholds, pinning, empty levels and bad input.
#include <cmath>
#include <limits>

#include "pose_test_util.h"

using namespace meshscope;

namespace {
Mesh meshWithLods(std::vector<std::uint32_t> triangleCounts) {
    Mesh m;
    std::uint32_t first = 0;
    for (auto n : triangleCounts) {
        m.lods.push_back({first, n, "LOD" + std::to_string(m.lods.size())});
        first += n;
    }
    return m;
}
}  // namespace

TEST(Lod, DistanceInRadiiPicksTheDocumentedLevel) {
    const Mesh m = meshWithLods({100, 50, 25, 12});
    EXPECT_EQ(chooseLod(m, 0, 1), 0);
    EXPECT_EQ(chooseLod(m, 7.9f, 1), 0);
    EXPECT_EQ(chooseLod(m, 8, 1), 1);
    EXPECT_EQ(chooseLod(m, 15.9f, 1), 1);
    EXPECT_EQ(chooseLod(m, 16, 1), 2);
    EXPECT_EQ(chooseLod(m, 31, 1), 2);
    EXPECT_EQ(chooseLod(m, 32, 1), 3);
    EXPECT_EQ(chooseLod(m, 1e6f, 1), 3);  // clamped to the last level
    EXPECT_EQ(chooseLod(m, std::numeric_limits<float>::infinity(), 1), 3);
    // Only the ratio matters.
    EXPECT_EQ(chooseLod(m, 160, 10), 2);
    // Custom thresholds: LOD 1 from 2 radii, then ×3.
    EXPECT_EQ(chooseLod(m, 5.9f, 1, {2, 3, -1}), 1);
    EXPECT_EQ(chooseLod(m, 6, 1, {2, 3, -1}), 2);
}

TEST(Lod, PinnedLevelWins) {
    const Mesh m = meshWithLods({100, 50, 25});
    EXPECT_EQ(chooseLod(m, 0, 1, {.pinned = 2}), 2);
    EXPECT_EQ(chooseLod(m, 1e6f, 1, {.pinned = 0}), 0);
    EXPECT_EQ(chooseLod(m, 0, 1, {.pinned = 9}), 2);
}

TEST(Lod, EmptyLevelFallsBackToAFinerOne) {
    const Mesh m = meshWithLods({100, 50, 0});
    EXPECT_EQ(chooseLod(m, 100, 1), 1);
    EXPECT_EQ(chooseLod(m, 0, 1, {.pinned = 2}), 1);
}

TEST(Lod, BadInputGivesLodZero) {
    const Mesh m = meshWithLods({100, 50, 25});
    EXPECT_EQ(chooseLod(Mesh{}, 100, 1), 0);
    EXPECT_EQ(chooseLod(m, 100, 0), 0);
    EXPECT_EQ(chooseLod(m, 100, -1), 0);
    EXPECT_EQ(chooseLod(m, std::nanf(""), 1), 0);
    EXPECT_EQ(chooseLod(m, 100, std::numeric_limits<float>::infinity()), 0);
    EXPECT_EQ(chooseLod(m, -5, 1), 0);
}
