// Pure layout arithmetic of the hex inspector (after Okteta's ByteArrayTableLayout): offset ↔
// (row, column), the x-ranges of the offset, hex and ASCII columns, the rows visible for a scroll
// position, selection ranges → row spans, and the scaling between 64-bit row numbers and
// a QScrollBar's int range. No painting, no widgets, no Qt: unit-tested without a window.
#pragma once

#include <cstdint>
#include <vector>

namespace meshscope::inspect {

class HexLayout {
public:
    // Which text column a point or a cursor is in.
    enum class Area { None, Offset, Hex, Ascii };

    // A horizontal pixel interval [x, x + width).
    struct Interval {
        int x = 0;
        int width = 0;
        int end() const { return x + width; }
        bool contains(int px) const { return px >= x && px < x + width; }
        bool operator==(const Interval&) const = default;
    };

    // Bytes [firstColumn, lastColumn] of one row (inclusive).
    struct RowSpan {
        std::uint64_t row = 0;
        int firstColumn = 0;
        int lastColumn = 0;
        bool operator==(const RowSpan&) const = default;
    };

    // Rows [first, last] of which at least one pixel is visible; `count` = 0 when none are.
    struct RowRange {
        std::uint64_t first = 0;
        std::uint64_t last = 0;
        std::uint64_t count = 0;
    };

    // A hit: the byte under a point (clamped to the nearest byte of the row).
    struct Hit {
        std::uint64_t offset = 0;
        Area area = Area::None;
    };

    HexLayout();

    // --- Shape -----------------------------------------------------------------------------
    void setBytesPerRow(int bytes);  // clamped to [1, 256]
    int bytesPerRow() const { return bytesPerRow_; }
    // An extra blank character is put between groups of this many bytes in the hex column
    // (0 = no grouping).
    void setGroupSize(int bytes);
    int groupSize() const { return groupSize_; }
    void setDataSize(std::uint64_t size);
    std::uint64_t dataSize() const { return dataSize_; }
    // Character cell width and line height in pixels (monospace font), and the header height
    // above the first row.
    void setCharMetrics(int charWidth, int lineHeight);
    int charWidth() const { return charWidth_; }
    int lineHeight() const { return lineHeight_; }
    void setHeaderHeight(int pixels);
    int headerHeight() const { return headerHeight_; }

    // --- Offsets, rows and columns ---------------------------------------------------------
    // Rows needed to show every byte; an empty buffer still has one (empty) row.
    std::uint64_t rowCount() const;
    std::uint64_t rowOf(std::uint64_t offset) const { return offset / std::uint64_t(bytesPerRow_); }
    int columnOf(std::uint64_t offset) const { return int(offset % std::uint64_t(bytesPerRow_)); }
    std::uint64_t offsetAt(std::uint64_t row, int column) const {
        return row * std::uint64_t(bytesPerRow_) + std::uint64_t(column);
    }
    std::uint64_t lastOffset() const { return dataSize_ == 0 ? 0 : dataSize_ - 1; }
    // Number of bytes actually present in `row` (the last row may be short; 0 past the end).
    int bytesInRow(std::uint64_t row) const;

    // --- Horizontal geometry (content coordinates: x = 0 at the left edge) --------------------
    // Hex digits the offset column prints: 8 up to 4 GiB, then as many as the largest offset needs.
    int offsetDigits() const;
    Interval offsetColumn() const;
    Interval hexColumn() const;
    Interval asciiColumn() const;
    // The two hex digits of byte `column`.
    Interval hexCell(int column) const;
    // The hit box of byte `column` in the hex column: the digits plus half of the gap on each
    // side, so adjacent boxes tile the column without holes.
    Interval hexHitBox(int column) const;
    Interval asciiCell(int column) const;
    // Byte column under x in the hex or ASCII column, or -1 outside it.
    int hexColumnAt(int x) const;
    int asciiColumnAt(int x) const;
    int totalWidth() const;

    // --- Vertical geometry ---------------------------------------------------------------
    // Top edge (viewport y) of `row` when `topRow` is the first row shown.
    std::int64_t rowY(std::uint64_t row, std::uint64_t topRow) const;
    // Rows of which some pixel shows in a viewport `viewportHeight` pixels high (header included).
    RowRange visibleRows(std::uint64_t topRow, int viewportHeight) const;
    // Rows that fit entirely (at least 1): the page step and the "keep visible" window.
    std::uint64_t fullyVisibleRows(int viewportHeight) const;
    // Largest top row that still fills the viewport.
    std::uint64_t maxTopRow(int viewportHeight) const;
    // The byte under a viewport point (x in content coordinates), clamped to the data: a point
    // in the gap left of the hex column or below the last row lands on the nearest byte.
    // Area::None when the point is above the rows (in the header) or the data is empty.
    Hit hitTest(int x, int y, std::uint64_t topRow) const;
    // Top row that shows [offset, offset + length) centred (or its start near the top when the
    // range is taller than the viewport), clamped to [0, maxTopRow].
    std::uint64_t centredTopRow(std::uint64_t offset, std::uint64_t length,
                                int viewportHeight) const;
    // Smallest change of `topRow` that keeps `offset` fully visible.
    std::uint64_t topRowKeepingVisible(std::uint64_t offset, std::uint64_t topRow,
                                       int viewportHeight) const;

    // --- Scroll bar scaling ----------------------------------------------------------------
    // A QScrollBar holds an int. Past `scrollRange()` top rows the bar is scaled: value v stands
    // for top row round(v * maxTop / scrollRange()). The view keeps the exact top row itself and
    // only maps to and from the bar.
    void setScrollRange(int range);  // default: 1 << 30
    int scrollRange() const { return scrollRange_; }
    int scrollBarMaximum(std::uint64_t maxTop) const;
    int scrollValueForTopRow(std::uint64_t topRow, std::uint64_t maxTop) const;
    std::uint64_t topRowForScrollValue(int value, std::uint64_t maxTop) const;

    // --- Ranges ---------------------------------------------------------------------------
    // The row spans of [offset, offset + length) restricted to rows [firstRow, lastRow] and to
    // the data. Empty when the range is empty or outside.
    std::vector<RowSpan> rowSpans(std::uint64_t offset, std::uint64_t length,
                                  std::uint64_t firstRow, std::uint64_t lastRow) const;

private:
    int gapsBefore(int column) const;  // group gaps left of `column`

    int bytesPerRow_ = 16;
    int groupSize_ = 8;
    std::uint64_t dataSize_ = 0;
    int charWidth_ = 8;
    int lineHeight_ = 16;
    int headerHeight_ = 0;
    int scrollRange_ = 1 << 30;
};

}  // namespace meshscope::inspect
