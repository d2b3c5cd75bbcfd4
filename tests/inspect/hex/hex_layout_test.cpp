// HexLayout arithmetic: offsets ↔ rows/columns, column geometry and hit testing, visible rows,
// centring, scroll bar scaling for row counts past int, selection → row spans.
#include "meshscope/inspect/hex_layout.h"

#include <gtest/gtest.h>

#include <limits>

using meshscope::inspect::HexLayout;

namespace {

HexLayout makeLayout(std::uint64_t size, int bytesPerRow = 16) {
    HexLayout layout;
    layout.setBytesPerRow(bytesPerRow);
    layout.setDataSize(size);
    layout.setCharMetrics(10, 20);
    layout.setHeaderHeight(24);
    return layout;
}

}  // namespace

TEST(HexLayout, RowsAndColumns) {
    const HexLayout layout = makeLayout(100);
    EXPECT_EQ(layout.rowCount(), 7u);  // 6 full rows of 16 + 4 bytes
    EXPECT_EQ(layout.rowOf(0), 0u);
    EXPECT_EQ(layout.rowOf(15), 0u);
    EXPECT_EQ(layout.rowOf(16), 1u);
    EXPECT_EQ(layout.columnOf(0x23), 3);
    EXPECT_EQ(layout.offsetAt(2, 3), 0x23u);
    EXPECT_EQ(layout.bytesInRow(0), 16);
    EXPECT_EQ(layout.bytesInRow(6), 4);
    EXPECT_EQ(layout.bytesInRow(7), 0);
    EXPECT_EQ(layout.lastOffset(), 99u);
    EXPECT_EQ(makeLayout(0).rowCount(), 1u);
    EXPECT_EQ(makeLayout(32).rowCount(), 2u);
}

TEST(HexLayout, ConfigurableBytesPerRow) {
    HexLayout layout = makeLayout(100, 8);
    EXPECT_EQ(layout.rowCount(), 13u);
    EXPECT_EQ(layout.rowOf(99), 12u);
    EXPECT_EQ(layout.columnOf(99), 3);
    layout.setBytesPerRow(0);
    EXPECT_EQ(layout.bytesPerRow(), 1);  // clamped
    layout.setBytesPerRow(10000);
    EXPECT_EQ(layout.bytesPerRow(), 256);
}

TEST(HexLayout, OffsetsBeyond32Bits) {
    const std::uint64_t size = 0x1'2345'6789ull;  // ~4.5 GiB
    const HexLayout layout = makeLayout(size);
    EXPECT_EQ(layout.rowOf(size - 1), (size - 1) / 16);
    EXPECT_EQ(layout.columnOf(size - 1), int((size - 1) % 16));
    EXPECT_EQ(layout.offsetAt(layout.rowOf(size - 1), layout.columnOf(size - 1)), size - 1);
    EXPECT_EQ(layout.offsetDigits(), 9);  // 0x123456788
    EXPECT_EQ(makeLayout(1000).offsetDigits(), 8);
}

TEST(HexLayout, ColumnGeometryIsOrderedAndTiles) {
    const HexLayout layout = makeLayout(256);
    const int cw = layout.charWidth();
    // Offset, hex and ASCII columns in order, separated by blank characters.
    EXPECT_LT(layout.offsetColumn().end(), layout.hexColumn().x);
    EXPECT_LT(layout.hexColumn().end(), layout.asciiColumn().x);
    EXPECT_EQ(layout.offsetColumn().width, 8 * cw);
    // 16 bytes: 16 × 2 digits + 15 single spaces + one extra group gap after byte 7.
    EXPECT_EQ(layout.hexColumn().width, (16 * 3 - 1 + 1) * cw);
    EXPECT_EQ(layout.asciiColumn().width, 16 * cw);
    EXPECT_EQ(layout.hexCell(0).x, layout.hexColumn().x);
    EXPECT_EQ(layout.hexCell(1).x - layout.hexCell(0).x, 3 * cw);
    EXPECT_EQ(layout.hexCell(8).x - layout.hexCell(7).x, 4 * cw);  // group gap
    EXPECT_EQ(layout.hexCell(15).end(), layout.hexColumn().end());
    // Hit boxes tile the hex column without holes or overlaps.
    EXPECT_EQ(layout.hexHitBox(0).x, layout.hexColumn().x);
    for (int c = 1; c < 16; ++c)
        EXPECT_EQ(layout.hexHitBox(c).x, layout.hexHitBox(c - 1).end()) << c;
    EXPECT_EQ(layout.hexHitBox(15).end(), layout.hexColumn().end());
    EXPECT_GT(layout.totalWidth(), layout.asciiColumn().end());
}

TEST(HexLayout, ColumnAtEveryPixel) {
    const HexLayout layout = makeLayout(256);
    for (int c = 0; c < 16; ++c) {
        const auto cell = layout.hexCell(c);
        EXPECT_EQ(layout.hexColumnAt(cell.x), c);
        EXPECT_EQ(layout.hexColumnAt(cell.end() - 1), c);
        const auto ascii = layout.asciiCell(c);
        EXPECT_EQ(layout.asciiColumnAt(ascii.x), c);
        EXPECT_EQ(layout.asciiColumnAt(ascii.end() - 1), c);
    }
    // Every pixel of the hex column maps to the byte whose hit box holds it.
    for (int x = layout.hexColumn().x; x < layout.hexColumn().end(); ++x) {
        const int c = layout.hexColumnAt(x);
        ASSERT_GE(c, 0);
        EXPECT_TRUE(layout.hexHitBox(c).contains(x)) << x;
    }
    EXPECT_EQ(layout.hexColumnAt(layout.hexColumn().x - 1), -1);
    EXPECT_EQ(layout.asciiColumnAt(layout.asciiColumn().end()), -1);
}

TEST(HexLayout, HitTest) {
    const HexLayout layout = makeLayout(100);
    const int lh = layout.lineHeight();
    const std::uint64_t top = 2;
    // Byte 0x35 = row 3, column 5; with top row 2 it is on the second visible line.
    const int y = int(layout.rowY(3, top)) + lh / 2;
    EXPECT_EQ(y, 24 + lh + lh / 2);
    auto hit = layout.hitTest(layout.hexCell(5).x + 3, y, top);
    EXPECT_EQ(hit.offset, 0x35u);
    EXPECT_EQ(hit.area, HexLayout::Area::Hex);
    hit = layout.hitTest(layout.asciiCell(5).x + 1, y, top);
    EXPECT_EQ(hit.offset, 0x35u);
    EXPECT_EQ(hit.area, HexLayout::Area::Ascii);
    // Left of the hex column: first byte of the row; right of ASCII: last.
    EXPECT_EQ(layout.hitTest(0, y, top).offset, 0x30u);
    EXPECT_EQ(layout.hitTest(layout.totalWidth() + 50, y, top).offset, 0x3fu);
    // Header: no hit. Below the data: the last byte.
    EXPECT_EQ(layout.hitTest(layout.hexCell(0).x, 5, top).area, HexLayout::Area::None);
    EXPECT_EQ(layout.hitTest(layout.hexCell(0).x, 5000, top).offset, 99u);
    // Short last row: a column past its end lands on the last byte.
    EXPECT_EQ(layout.hitTest(layout.hexCell(10).x, int(layout.rowY(6, 0)) + 1, 0).offset, 99u);
    EXPECT_EQ(makeLayout(0).hitTest(100, 100, 0).area, HexLayout::Area::None);
}

TEST(HexLayout, VisibleRows) {
    const HexLayout layout = makeLayout(16 * 1000);
    // 24 px header + 10 rows of 20 px + 5 px of an 11th row.
    auto rows = layout.visibleRows(100, 24 + 205);
    EXPECT_EQ(rows.first, 100u);
    EXPECT_EQ(rows.last, 110u);
    EXPECT_EQ(rows.count, 11u);
    EXPECT_EQ(layout.fullyVisibleRows(24 + 205), 10u);
    EXPECT_EQ(layout.maxTopRow(24 + 205), 990u);
    // Near the end the range stops at the last row.
    rows = layout.visibleRows(995, 24 + 205);
    EXPECT_EQ(rows.last, 999u);
    EXPECT_EQ(rows.count, 5u);
    EXPECT_EQ(layout.visibleRows(0, 10).count, 0u);  // only the header shows
    EXPECT_EQ(makeLayout(10).maxTopRow(1000), 0u);
}

TEST(HexLayout, CentringAndKeepingVisible) {
    const HexLayout layout = makeLayout(16 * 1000);
    const int h = 24 + 10 * 20;  // 10 full rows
    // A 2-row range at row 500 → 4 rows above it.
    EXPECT_EQ(layout.centredTopRow(500 * 16, 32, h), 496u);
    // Ranges near the ends clamp.
    EXPECT_EQ(layout.centredTopRow(16, 4, h), 0u);
    EXPECT_EQ(layout.centredTopRow(999 * 16, 4, h), 990u);
    // Taller than the viewport: start one row below the top.
    EXPECT_EQ(layout.centredTopRow(300 * 16, 16 * 50, h), 299u);
    // Keep visible: no move when shown, minimal move otherwise.
    EXPECT_EQ(layout.topRowKeepingVisible(105 * 16, 100, h), 100u);
    EXPECT_EQ(layout.topRowKeepingVisible(110 * 16, 100, h), 101u);
    EXPECT_EQ(layout.topRowKeepingVisible(50 * 16, 100, h), 50u);
}

TEST(HexLayout, ScrollBarUnscaledForSmallData) {
    const HexLayout layout = makeLayout(16 * 1000);
    EXPECT_EQ(layout.scrollBarMaximum(990), 990);
    EXPECT_EQ(layout.scrollValueForTopRow(123, 990), 123);
    EXPECT_EQ(layout.topRowForScrollValue(123, 990), 123u);
}

TEST(HexLayout, ScrollBarScalesPastIntRange) {
    // 64 GiB at 16 bytes a row: 2^32 rows, more than a QScrollBar's int holds.
    HexLayout layout = makeLayout(std::uint64_t(64) << 30);
    const std::uint64_t maxTop = layout.maxTopRow(24 + 200);
    ASSERT_GT(maxTop, std::uint64_t(std::numeric_limits<int>::max()));
    const int maximum = layout.scrollBarMaximum(maxTop);
    EXPECT_EQ(maximum, layout.scrollRange());
    EXPECT_EQ(layout.scrollValueForTopRow(0, maxTop), 0);
    EXPECT_EQ(layout.scrollValueForTopRow(maxTop, maxTop), maximum);
    EXPECT_EQ(layout.topRowForScrollValue(maximum, maxTop), maxTop);
    EXPECT_EQ(layout.topRowForScrollValue(0, maxTop), 0u);
    // Halfway maps to halfway; a round trip loses less than one bar step of rows.
    const std::uint64_t half = maxTop / 2;
    EXPECT_NEAR(double(layout.scrollValueForTopRow(half, maxTop)), maximum / 2.0, 1.0);
    const std::uint64_t rowsPerStep = maxTop / std::uint64_t(maximum) + 1;
    for (std::uint64_t row : {std::uint64_t(1), half, maxTop - 7, std::uint64_t(987654321)}) {
        const std::uint64_t back =
            layout.topRowForScrollValue(layout.scrollValueForTopRow(row, maxTop), maxTop);
        EXPECT_LE(back > row ? back - row : row - back, rowsPerStep) << row;
    }
    // A small explicit range scales the same way.
    layout.setScrollRange(1000);
    EXPECT_EQ(layout.scrollBarMaximum(maxTop), 1000);
    EXPECT_EQ(layout.topRowForScrollValue(500, maxTop), (maxTop + 1) / 2);
}

TEST(HexLayout, RowSpansOfARange) {
    const HexLayout layout = makeLayout(100);
    // [0x0e, 0x0e + 0x14) → row 0 cols 14..15, row 1 cols 0..15, row 2 cols 0..1.
    auto spans = layout.rowSpans(0x0e, 0x14, 0, 100);
    ASSERT_EQ(spans.size(), 3u);
    EXPECT_EQ(spans[0], (HexLayout::RowSpan{0, 14, 15}));
    EXPECT_EQ(spans[1], (HexLayout::RowSpan{1, 0, 15}));
    EXPECT_EQ(spans[2], (HexLayout::RowSpan{2, 0, 1}));
    // Restricted to the visible rows.
    spans = layout.rowSpans(0x0e, 0x14, 1, 1);
    ASSERT_EQ(spans.size(), 1u);
    EXPECT_EQ(spans[0], (HexLayout::RowSpan{1, 0, 15}));
    // Clipped to the data; empty and out-of-range ranges give nothing.
    spans = layout.rowSpans(96, 1000, 0, 100);
    ASSERT_EQ(spans.size(), 1u);
    EXPECT_EQ(spans[0], (HexLayout::RowSpan{6, 0, 3}));
    EXPECT_TRUE(layout.rowSpans(10, 0, 0, 100).empty());
    EXPECT_TRUE(layout.rowSpans(100, 5, 0, 100).empty());
    EXPECT_TRUE(layout.rowSpans(0, 16, 3, 5).empty());
    // A huge length does not overflow.
    EXPECT_EQ(layout.rowSpans(5, std::numeric_limits<std::uint64_t>::max(), 0, 100).size(), 7u);
}
