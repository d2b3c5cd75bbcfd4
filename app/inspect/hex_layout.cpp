// Layout arithmetic of the hex inspector: columns, rows, hit testing and scroll bar scaling.
#include "meshscope/inspect/hex_layout.h"

#include <algorithm>

namespace meshscope::inspect {

namespace {
// Blank characters: left padding, offset→hex gap, hex→ASCII gap, right padding.
constexpr int kPadLeftChars = 1;
constexpr int kOffsetGapChars = 2;
constexpr int kAsciiGapChars = 2;
constexpr int kPadRightChars = 1;
}  // namespace

HexLayout::HexLayout() = default;

void HexLayout::setBytesPerRow(int bytes) {
    bytesPerRow_ = std::clamp(bytes, 1, 256);
}
void HexLayout::setGroupSize(int bytes) {
    groupSize_ = std::max(0, bytes);
}
void HexLayout::setDataSize(std::uint64_t size) {
    dataSize_ = size;
}
void HexLayout::setCharMetrics(int charWidth, int lineHeight) {
    charWidth_ = std::max(1, charWidth);
    lineHeight_ = std::max(1, lineHeight);
}
void HexLayout::setHeaderHeight(int pixels) {
    headerHeight_ = std::max(0, pixels);
}
void HexLayout::setScrollRange(int range) {
    scrollRange_ = std::max(1, range);
}

std::uint64_t HexLayout::rowCount() const {
    if (dataSize_ == 0) return 1;
    const auto bpr = std::uint64_t(bytesPerRow_);
    return dataSize_ / bpr + (dataSize_ % bpr ? 1 : 0);
}

int HexLayout::bytesInRow(std::uint64_t row) const {
    const std::uint64_t start = offsetAt(row, 0);
    if (start >= dataSize_) return 0;
    return int(std::min<std::uint64_t>(std::uint64_t(bytesPerRow_), dataSize_ - start));
}

int HexLayout::offsetDigits() const {
    int digits = 0;
    for (std::uint64_t v = lastOffset(); v; v >>= 4) ++digits;
    return std::max(8, digits);
}

int HexLayout::gapsBefore(int column) const {
    return groupSize_ > 0 ? column / groupSize_ : 0;
}

HexLayout::Interval HexLayout::offsetColumn() const {
    return {kPadLeftChars * charWidth_, offsetDigits() * charWidth_};
}

HexLayout::Interval HexLayout::hexColumn() const {
    const int x = offsetColumn().end() + kOffsetGapChars * charWidth_;
    const int last = bytesPerRow_ - 1;
    const int chars = bytesPerRow_ * 3 - 1 + gapsBefore(last);
    return {x, chars * charWidth_};
}

HexLayout::Interval HexLayout::asciiColumn() const {
    return {hexColumn().end() + kAsciiGapChars * charWidth_, bytesPerRow_ * charWidth_};
}

HexLayout::Interval HexLayout::hexCell(int column) const {
    const int x = hexColumn().x + (column * 3 + gapsBefore(column)) * charWidth_;
    return {x, 2 * charWidth_};
}

HexLayout::Interval HexLayout::hexHitBox(int column) const {
    const Interval cell = hexCell(column);
    const int left = column == 0 ? cell.x : (hexCell(column - 1).end() + cell.x) / 2;
    const int right =
        column == bytesPerRow_ - 1 ? cell.end() : (cell.end() + hexCell(column + 1).x) / 2;
    return {left, right - left};
}

HexLayout::Interval HexLayout::asciiCell(int column) const {
    return {asciiColumn().x + column * charWidth_, charWidth_};
}

int HexLayout::hexColumnAt(int x) const {
    if (!hexColumn().contains(x)) return -1;
    // Estimate from the average pitch, then correct by the exact hit boxes.
    const int pitch = std::max(1, hexColumn().width / bytesPerRow_);
    int c = std::clamp((x - hexColumn().x) / pitch, 0, bytesPerRow_ - 1);
    while (c > 0 && x < hexHitBox(c).x) --c;
    while (c < bytesPerRow_ - 1 && x >= hexHitBox(c).end()) ++c;
    return c;
}

int HexLayout::asciiColumnAt(int x) const {
    if (!asciiColumn().contains(x)) return -1;
    return (x - asciiColumn().x) / charWidth_;
}

int HexLayout::totalWidth() const {
    return asciiColumn().end() + kPadRightChars * charWidth_;
}

std::int64_t HexLayout::rowY(std::uint64_t row, std::uint64_t topRow) const {
    return std::int64_t(headerHeight_) +
           (std::int64_t(row) - std::int64_t(topRow)) * std::int64_t(lineHeight_);
}

HexLayout::RowRange HexLayout::visibleRows(std::uint64_t topRow, int viewportHeight) const {
    const int area = viewportHeight - headerHeight_;
    const std::uint64_t rows = rowCount();
    if (area <= 0 || topRow >= rows) return {};
    const std::uint64_t shown = std::uint64_t((area + lineHeight_ - 1) / lineHeight_);
    const std::uint64_t last = std::min(rows - 1, topRow + shown - 1);
    return {topRow, last, last - topRow + 1};
}

std::uint64_t HexLayout::fullyVisibleRows(int viewportHeight) const {
    const int area = viewportHeight - headerHeight_;
    return std::uint64_t(std::max(1, area / lineHeight_));
}

std::uint64_t HexLayout::maxTopRow(int viewportHeight) const {
    const std::uint64_t rows = rowCount();
    const std::uint64_t full = fullyVisibleRows(viewportHeight);
    return rows > full ? rows - full : 0;
}

HexLayout::Hit HexLayout::hitTest(int x, int y, std::uint64_t topRow) const {
    if (dataSize_ == 0 || y < headerHeight_) return {};
    std::uint64_t row = topRow + std::uint64_t((y - headerHeight_) / lineHeight_);
    const std::uint64_t lastRow = rowOf(lastOffset());
    const Interval hex = hexColumn();
    const Interval ascii = asciiColumn();
    // The boundary between the two columns is the middle of the gap between them.
    const bool inAscii = x >= (hex.end() + ascii.x) / 2;
    int column = 0;
    if (inAscii) {
        column = x < ascii.x ? 0 : x >= ascii.end() ? bytesPerRow_ - 1 : asciiColumnAt(x);
    } else {
        column = x < hex.x ? 0 : x >= hex.end() ? bytesPerRow_ - 1 : hexColumnAt(x);
    }
    if (row > lastRow) {
        row = lastRow;
        column = bytesPerRow_ - 1;
    }
    const std::uint64_t offset = std::min(offsetAt(row, column), lastOffset());
    return {offset, inAscii ? Area::Ascii : Area::Hex};
}

std::uint64_t HexLayout::centredTopRow(std::uint64_t offset, std::uint64_t length,
                                       int viewportHeight) const {
    const std::uint64_t full = fullyVisibleRows(viewportHeight);
    const std::uint64_t start = std::min(offset, lastOffset());
    const std::uint64_t extra = std::min(length == 0 ? 0 : length - 1, lastOffset() - start);
    const std::uint64_t first = rowOf(start);
    const std::uint64_t last = rowOf(start + extra);
    const std::uint64_t span = last - first + 1;
    std::uint64_t top = 0;
    if (span <= full) {
        const std::uint64_t before = (full - span) / 2;
        top = first > before ? first - before : 0;
    } else {
        // Taller than the viewport: its first row near the top, one row of context above.
        const std::uint64_t context = full >= 4 ? 1 : 0;
        top = first > context ? first - context : 0;
    }
    return std::min(top, maxTopRow(viewportHeight));
}

std::uint64_t HexLayout::topRowKeepingVisible(std::uint64_t offset, std::uint64_t topRow,
                                              int viewportHeight) const {
    const std::uint64_t row = rowOf(std::min(offset, lastOffset()));
    const std::uint64_t full = fullyVisibleRows(viewportHeight);
    std::uint64_t top = topRow;
    if (row < top)
        top = row;
    else if (row >= top + full)
        top = row - full + 1;
    return std::min(top, maxTopRow(viewportHeight));
}

int HexLayout::scrollBarMaximum(std::uint64_t maxTop) const {
    return maxTop <= std::uint64_t(scrollRange_) ? int(maxTop) : scrollRange_;
}

int HexLayout::scrollValueForTopRow(std::uint64_t topRow, std::uint64_t maxTop) const {
    topRow = std::min(topRow, maxTop);
    if (maxTop <= std::uint64_t(scrollRange_)) return int(topRow);
    const unsigned __int128 scaled =
        (static_cast<unsigned __int128>(topRow) * unsigned(scrollRange_) + maxTop / 2) / maxTop;
    return int(scaled);
}

std::uint64_t HexLayout::topRowForScrollValue(int value, std::uint64_t maxTop) const {
    value = std::clamp(value, 0, scrollBarMaximum(maxTop));
    if (maxTop <= std::uint64_t(scrollRange_)) return std::uint64_t(value);
    const unsigned __int128 scaled =
        (static_cast<unsigned __int128>(unsigned(value)) * maxTop + unsigned(scrollRange_) / 2) /
        unsigned(scrollRange_);
    return std::min<std::uint64_t>(std::uint64_t(scaled), maxTop);
}

std::vector<HexLayout::RowSpan> HexLayout::rowSpans(std::uint64_t offset, std::uint64_t length,
                                                    std::uint64_t firstRow,
                                                    std::uint64_t lastRow) const {
    std::vector<RowSpan> spans;
    if (length == 0 || offset >= dataSize_ || firstRow > lastRow) return spans;
    const std::uint64_t end = length > dataSize_ - offset ? dataSize_ : offset + length;
    const std::uint64_t r0 = rowOf(offset);
    const std::uint64_t r1 = rowOf(end - 1);
    const std::uint64_t from = std::max(r0, firstRow);
    const std::uint64_t to = std::min(r1, lastRow);
    if (from > to) return spans;
    spans.reserve(std::size_t(to - from + 1));
    for (std::uint64_t row = from; row <= to; ++row) {
        spans.push_back({row, row == r0 ? columnOf(offset) : 0,
                         row == r1 ? columnOf(end - 1) : bytesPerRow_ - 1});
    }
    return spans;
}

}  // namespace meshscope::inspect
