// Camera framing that keeps the bulk of a scene in view (a place with a few far-away parts
// opened as a dot).
#include "meshscope/core/framing.h"

#include <gtest/gtest.h>

#include <vector>

using namespace meshscope;

namespace {
Bounds box(Vec3 c, float half = 1.0f) {
    Bounds b;
    b.add(Vec3{c.x - half, c.y - half, c.z - half});
    b.add(Vec3{c.x + half, c.y + half, c.z + half});
    return b;
}
}  // namespace

TEST(Framing, FarAwayFewPartsAreLeftOut) {
    std::vector<Bounds> items;
    for (int i = 0; i < 40; ++i) items.push_back(box({float(i % 8) * 4, 0, float(i / 8) * 4}));
    items.push_back(box({10000, 0, 0}));
    items.push_back(box({0, -5000, 8000}));
    const Bounds f = framingBounds(items);
    ASSERT_TRUE(f.valid());
    EXPECT_LE(f.max.x, 40.0f);
    EXPECT_GE(f.min.y, -2.0f);
    EXPECT_LE(f.max.z, 40.0f);
    EXPECT_LE(f.min.x, -1.0f);  // the bulk itself is whole
    EXPECT_GE(f.max.x, 29.0f);
}

TEST(Framing, AnEvenlySpreadSceneKeepsEverything) {
    std::vector<Bounds> items;
    for (int i = 0; i < 100; ++i) items.push_back(box({float(i) * 50, 0, 0}));
    const Bounds f = framingBounds(items);
    EXPECT_FLOAT_EQ(f.min.x, -1.0f);
    EXPECT_FLOAT_EQ(f.max.x, 99 * 50 + 1.0f);
}

TEST(Framing, FewItemsAndPilesKeepTheirNeighbours) {
    const std::vector<Bounds> two = {box({0, 0, 0}), box({1000, 0, 0})};
    EXPECT_FLOAT_EQ(framingBounds(two).max.x, 1001.0f);
    std::vector<Bounds> pile(20, box({0, 0, 0}, 2));
    pile.push_back(box({5, 0, 0}, 2));
    EXPECT_FLOAT_EQ(framingBounds(pile).max.x, 7.0f);
    std::vector<Bounds> none(3);  // invalid boxes
    EXPECT_FALSE(framingBounds(none).valid());
    EXPECT_FALSE(framingBounds({}).valid());
}

TEST(Framing, ItemsAreTheKeptBoxesWhoseUnionIsTheFramedBox) {
    std::vector<Bounds> items;
    for (int i = 0; i < 40; ++i) items.push_back(box({float(i % 8) * 4, 0, float(i / 8) * 4}));
    items.push_back(box({10000, 0, 0}));
    items.push_back(Bounds{});  // invalid: never kept
    const std::vector<Bounds> kept = framingItems(items);
    EXPECT_EQ(kept.size(), 40u);
    Bounds all;
    for (const Bounds& b : kept) {
        EXPECT_TRUE(b.valid());
        EXPECT_LT(b.max.x, 100.0f);
        all.add(b.min);
        all.add(b.max);
    }
    const Bounds f = framingBounds(items);
    EXPECT_FLOAT_EQ(all.min.x, f.min.x);
    EXPECT_FLOAT_EQ(all.max.x, f.max.x);
    EXPECT_FLOAT_EQ(all.max.z, f.max.z);
    EXPECT_TRUE(framingItems({}).empty());
}
