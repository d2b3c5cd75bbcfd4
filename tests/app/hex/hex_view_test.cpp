// HexView widget behaviour: selectRange scrolls the range into view, clicks at the pixel of a
// byte (computed through HexLayout) move the cursor there, drag/shift-click selection, keyboard
// navigation, find, copy, tooltips from the byte map, and files far larger than a QScrollBar's
// int range of rows. Runs under xvfb-run, or offscreen when no display is set.
#include "hex/hex_view.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <QApplication>
#include <QClipboard>
#include <QElapsedTimer>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <cstring>

#include "meshscope/core/byte_map.h"

using namespace meshscope::shell;
using meshscope::ByteMap;
using meshscope::RangeKind;

namespace {

QByteArray patternBytes(int size) {
    QByteArray bytes(size, Qt::Uninitialized);
    for (int i = 0; i < size; ++i) bytes[i] = char((i * 7 + (i >> 8)) & 0xff);
    return bytes;
}

class HexViewTest : public ::testing::Test {
protected:
    void SetUp() override {
        view = std::make_unique<HexView>();
        view->resize(760, 420);
        view->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(view.get()));
    }
    // Centre of byte `offset` in the hex (or ASCII) column, in viewport coordinates.
    QPoint pixelOf(std::uint64_t offset, bool ascii = false) const {
        const HexLayout& layout = view->hexLayout();
        const auto cell = ascii ? layout.asciiCell(layout.columnOf(offset))
                                : layout.hexCell(layout.columnOf(offset));
        const int x = cell.x + cell.width / 2 - view->horizontalOffset();
        const int y =
            int(layout.rowY(layout.rowOf(offset), view->topRow())) + layout.lineHeight() / 2;
        return {x, y};
    }
    bool rowVisible(std::uint64_t offset) const {
        const HexLayout& layout = view->hexLayout();
        const std::uint64_t row = layout.rowOf(offset);
        return row >= view->topRow() &&
               row < view->topRow() + layout.fullyVisibleRows(view->viewport()->height());
    }
    std::unique_ptr<HexView> view;
};

}  // namespace

TEST_F(HexViewTest, SelectRangeScrollsItIntoViewCentred) {
    view->setData(patternBytes(1 << 20));
    QSignalSpy selection(view.get(), &HexView::selectionChanged);
    QSignalSpy cursor(view.get(), &HexView::cursorMoved);
    const std::uint64_t offset = 0x8'1234, length = 40;
    EXPECT_FALSE(rowVisible(offset));
    view->selectRange(offset, length);
    EXPECT_TRUE(rowVisible(offset));
    EXPECT_TRUE(rowVisible(offset + length - 1));
    EXPECT_EQ(view->selectionOffset(), offset);
    EXPECT_EQ(view->selectionLength(), length);
    EXPECT_EQ(view->cursorOffset(), offset);
    ASSERT_EQ(selection.count(), 1);
    EXPECT_EQ(selection.at(0).at(0).toULongLong(), offset);
    EXPECT_EQ(selection.at(0).at(1).toULongLong(), length);
    ASSERT_EQ(cursor.count(), 1);
    EXPECT_EQ(cursor.at(0).at(0).toULongLong(), offset);
    // Centred: the rows above and below the range differ by at most one.
    const HexLayout& layout = view->hexLayout();
    const std::uint64_t full = layout.fullyVisibleRows(view->viewport()->height());
    const std::uint64_t above = layout.rowOf(offset) - view->topRow();
    const std::uint64_t below = view->topRow() + full - 1 - layout.rowOf(offset + length - 1);
    EXPECT_LE(above > below ? above - below : below - above, 1u);
    // The scroll bar follows.
    EXPECT_EQ(std::uint64_t(view->verticalScrollBar()->value()), view->topRow());
}

TEST_F(HexViewTest, ClickAtAByteMovesTheCursorThere) {
    view->setData(patternBytes(4096));
    view->setTopRow(10);
    const std::uint64_t target = 16 * 14 + 9;  // row 14, column 9 (right of the group gap)
    QSignalSpy cursor(view.get(), &HexView::cursorMoved);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, pixelOf(target));
    EXPECT_EQ(view->cursorOffset(), target);
    EXPECT_EQ(view->selectionLength(), 0u);
    ASSERT_GE(cursor.count(), 1);
    EXPECT_EQ(cursor.last().at(0).toULongLong(), target);
    // The same byte in the ASCII column; then the edges of a row.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, pixelOf(target + 5, true));
    EXPECT_EQ(view->cursorOffset(), target + 5);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, pixelOf(16 * 12));
    EXPECT_EQ(view->cursorOffset(), 16u * 12);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, pixelOf(16 * 12 + 15));
    EXPECT_EQ(view->cursorOffset(), 16u * 12 + 15);
}

TEST_F(HexViewTest, ShiftClickAndDragSelect) {
    view->setData(patternBytes(4096));
    QSignalSpy selection(view.get(), &HexView::selectionChanged);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, pixelOf(0x23));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ShiftModifier, pixelOf(0x51));
    EXPECT_EQ(view->selectionOffset(), 0x23u);
    EXPECT_EQ(view->selectionLength(), 0x51u - 0x23u + 1);
    ASSERT_GE(selection.count(), 1);
    EXPECT_EQ(selection.last().at(1).toULongLong(), 0x51u - 0x23u + 1);

    // Drag backwards from 0x40 to 0x18: the selection covers both ends.
    QTest::mousePress(view->viewport(), Qt::LeftButton, {}, pixelOf(0x40));
    const QPoint to = pixelOf(0x18);
    QMouseEvent move(QEvent::MouseMove, to, view->viewport()->mapToGlobal(to), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view->viewport(), &move);
    QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, to);
    EXPECT_EQ(view->selectionOffset(), 0x18u);
    EXPECT_EQ(view->selectionLength(), 0x40u - 0x18u + 1);
    EXPECT_EQ(view->cursorOffset(), 0x18u);
}

TEST_F(HexViewTest, KeyboardNavigation) {
    view->setData(patternBytes(100000));
    view->setFocus();
    QTest::keyClick(view.get(), Qt::Key_Right);
    QTest::keyClick(view.get(), Qt::Key_Down);
    EXPECT_EQ(view->cursorOffset(), 17u);
    QTest::keyClick(view.get(), Qt::Key_End);
    EXPECT_EQ(view->cursorOffset(), 31u);
    QTest::keyClick(view.get(), Qt::Key_Home);
    EXPECT_EQ(view->cursorOffset(), 16u);
    const std::uint64_t page = view->hexLayout().fullyVisibleRows(view->viewport()->height()) * 16;
    QTest::keyClick(view.get(), Qt::Key_PageDown);
    EXPECT_EQ(view->cursorOffset(), 16u + page);
    EXPECT_TRUE(rowVisible(view->cursorOffset()));
    QTest::keyClick(view.get(), Qt::Key_End, Qt::ControlModifier);
    EXPECT_EQ(view->cursorOffset(), 99999u);
    EXPECT_TRUE(rowVisible(99999));
    QTest::keyClick(view.get(), Qt::Key_Left, Qt::ShiftModifier);
    QTest::keyClick(view.get(), Qt::Key_Left, Qt::ShiftModifier);
    EXPECT_EQ(view->selectionOffset(), 99997u);
    EXPECT_EQ(view->selectionLength(), 3u);
    QTest::keyClick(view.get(), Qt::Key_Home, Qt::ControlModifier);
    EXPECT_EQ(view->cursorOffset(), 0u);
    EXPECT_EQ(view->selectionLength(), 0u);
    EXPECT_EQ(view->topRow(), 0u);
}

TEST_F(HexViewTest, FindTextAndHexWithWrap) {
    QByteArray bytes(0x8000, '\0');
    std::memcpy(bytes.data() + 0x1234, "MESHSCOPE", 9);
    std::memcpy(bytes.data() + 0x5678, "MESHSCOPE", 9);
    view->setData(bytes);
    EXPECT_TRUE(view->find("MESHSCOPE"));
    EXPECT_EQ(view->selectionOffset(), 0x1234u);
    EXPECT_EQ(view->selectionLength(), 9u);
    EXPECT_TRUE(rowVisible(0x1234));
    EXPECT_TRUE(view->find("MESHSCOPE"));
    EXPECT_EQ(view->selectionOffset(), 0x5678u);
    EXPECT_TRUE(view->find("MESHSCOPE"));  // wraps
    EXPECT_EQ(view->selectionOffset(), 0x1234u);
    EXPECT_TRUE(view->find("MESHSCOPE", false));  // backward wraps to the last
    EXPECT_EQ(view->selectionOffset(), 0x5678u);
    view->findPrevious();
    EXPECT_EQ(view->selectionOffset(), 0x1234u);
    // Hex pattern: "SCOPE" = 53 43 4f 50 45.
    view->setCursorOffset(0x2000);
    EXPECT_TRUE(view->find(*parseHexPattern("53 43 4f 50 45")));
    EXPECT_EQ(view->selectionOffset(), 0x5678u + 4);
    EXPECT_FALSE(view->find("absent"));
}

TEST(HexViewHelpers, FindBytes) {
    const std::vector<std::uint8_t> data = {1, 2, 3, 1, 2, 3, 9, 1, 2};
    const std::vector<std::uint8_t> pat = {1, 2};
    EXPECT_EQ(findBytes(data, pat, 0, true), 0u);
    EXPECT_EQ(findBytes(data, pat, 1, true), 3u);
    EXPECT_EQ(findBytes(data, pat, 8, true), 0u);  // wraps
    EXPECT_EQ(findBytes(data, pat, 7, false), 3u);
    EXPECT_EQ(findBytes(data, pat, 0, false), 7u);  // wraps to the last
    EXPECT_EQ(findBytes(data, std::vector<std::uint8_t>{4}, 0, true), std::nullopt);
    EXPECT_EQ(findBytes(data, std::vector<std::uint8_t>{}, 0, true), std::nullopt);
}

TEST(HexViewHelpers, ParseHexPatternAndOffset) {
    EXPECT_EQ(parseHexPattern("de ad BE ef"), QByteArray::fromHex("deadbeef"));
    EXPECT_EQ(parseHexPattern("0xde,0xad"), QByteArray::fromHex("dead"));
    EXPECT_EQ(parseHexPattern("DEADBEEF"), QByteArray::fromHex("deadbeef"));
    EXPECT_EQ(parseHexPattern("dea"), std::nullopt);
    EXPECT_EQ(parseHexPattern("zz"), std::nullopt);
    EXPECT_EQ(parseHexPattern(""), std::nullopt);
    EXPECT_EQ(parseOffset("0x1a4", false), 0x1a4u);
    EXPECT_EQ(parseOffset("1A4h", false), 0x1a4u);
    EXPECT_EQ(parseOffset("420", false), 420u);
    EXPECT_EQ(parseOffset("420", true), 0x420u);
    EXPECT_EQ(parseOffset("1f", false), 0x1fu);  // a hex digit makes it hex
    EXPECT_EQ(parseOffset("  0x1_0000_0000 ", false), 0x100000000u);
    EXPECT_EQ(parseOffset("12g", false), std::nullopt);
    EXPECT_EQ(parseOffset("", true), std::nullopt);
    EXPECT_EQ(parseOffset("0x1ffffffffffffffff", true), std::nullopt);  // 65 bits
}

TEST(HexViewHelpers, FormatCopies) {
    const std::vector<std::uint8_t> three = {0xde, 0xad, 0xbe};
    EXPECT_EQ(formatHex(three), "DE AD BE");
    EXPECT_EQ(formatCArray(three),
              "const unsigned char data[3] = {\n"
              "    0xde, 0xad, 0xbe\n"
              "};\n");
    std::vector<std::uint8_t> thirteen(13);
    for (int i = 0; i < 13; ++i) thirteen[i] = std::uint8_t(i);
    EXPECT_EQ(formatCArray(thirteen, "v"),
              "const unsigned char v[13] = {\n"
              "    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,\n"
              "    0x0c\n"
              "};\n");
    EXPECT_EQ(formatText(std::vector<std::uint8_t>{'H', 'i', 0, 0x7f, '!'}), "Hi..!");
}

TEST_F(HexViewTest, CopyAsHexAndCArray) {
    view->setData(QByteArray::fromHex("00112233deadbeef4455"));
    view->selectRange(4, 4);
    view->copyCArray();
    EXPECT_EQ(QApplication::clipboard()->text(),
              "const unsigned char data[4] = {\n    0xde, 0xad, 0xbe, 0xef\n};\n");
    view->setFocus();
    QTest::keyClick(view.get(), Qt::Key_C, Qt::ControlModifier);  // Ctrl+C = hex
    EXPECT_EQ(QApplication::clipboard()->text(), "DE AD BE EF");
}

TEST_F(HexViewTest, ByteMapToolTipAndStructureClick) {
    QByteArray bytes(256, '\0');
    ByteMap map;
    map.add(0, 16, "HEADER", RangeKind::Header);
    map.add(16, 100, "SKINNING", RangeKind::Chunk);
    map.add(20, 96, "SKINNING › bones", RangeKind::Array);
    map.add(20 + 3 * 12, 12, "SKINNING › bones[3]", RangeKind::Record);
    map.add(20 + 3 * 12 + 4, 2, "SKINNING › bones[3] › parentIndex", RangeKind::Field);
    map.finalize(std::uint64_t(bytes.size()));
    const std::uint64_t field = 20 + 3 * 12 + 4;
    bytes[int(field)] = 7;  // parentIndex = 7 (u16 LE)
    view->setByteMap(&map);
    view->setData(bytes);
    ASSERT_GE(view->innermostRangeAt(field + 1), 0);
    EXPECT_EQ(map.ranges()[view->innermostRangeAt(field + 1)].path,
              "SKINNING › bones[3] › parentIndex");
    EXPECT_EQ(map.ranges()[view->innermostRangeAt(20 + 3 * 12)].path, "SKINNING › bones[3]");
    EXPECT_EQ(map.ranges()[view->innermostRangeAt(17)].path, "SKINNING");
    EXPECT_EQ(map.ranges()[view->innermostRangeAt(200)].kind, RangeKind::Unparsed);

    const QString tip = view->toolTipAt(field + 1);
    EXPECT_TRUE(tip.contains(QString::fromUtf8("SKINNING › bones[3] › parentIndex")))
        << tip.toStdString();
    EXPECT_TRUE(tip.contains("offset 0x3C (60)")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("2 byte(s)")) << tip.toStdString();
    // The field's u16 value, decoded from its first byte.
    EXPECT_TRUE(tip.contains("u16 LE&nbsp;&nbsp;</td><td><tt>7</tt>")) << tip.toStdString();

    // A click on a byte of bones[3] outlines that record as the structure.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, pixelOf(20 + 3 * 12 + 1));
    EXPECT_EQ(view->structureOffset(), 20u + 3 * 12);
    EXPECT_EQ(view->structureLength(), 12u);
    // A double click selects it.
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, pixelOf(field));
    EXPECT_EQ(view->selectionOffset(), field);
    EXPECT_EQ(view->selectionLength(), 2u);
}

// A file far beyond the QScrollBar's int range of rows: 64 GiB of zero pages, reserved but never
// committed. The view scrolls through it by the scaled bar and paints only visible rows.
TEST_F(HexViewTest, HugeFileScrollsWithScaledScrollBar) {
    const std::uint64_t size = std::uint64_t(64) << 30;
    void* memory =
        mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED) GTEST_SKIP() << "SKIPPED: cannot reserve 64 GiB of address space";
    view->setData(static_cast<const std::uint8_t*>(memory), size);
    const HexLayout& layout = view->hexLayout();
    const std::uint64_t maxTop = layout.maxTopRow(view->viewport()->height());
    ASSERT_GT(maxTop, std::uint64_t(std::numeric_limits<int>::max()));
    QScrollBar* bar = view->verticalScrollBar();
    EXPECT_EQ(bar->maximum(), layout.scrollRange());
    bar->setValue(bar->maximum());
    EXPECT_EQ(view->topRow(), maxTop);
    bar->setValue(bar->maximum() / 2);
    EXPECT_NEAR(double(view->topRow()), double(maxTop) / 2, double(maxTop) / bar->maximum() + 1);
    // Select near the end: the exact rows show, and the bar moves to its end.
    const std::uint64_t offset = size - 100;
    view->selectRange(offset, 10);
    EXPECT_TRUE(rowVisible(offset));
    EXPECT_GE(bar->value(), bar->maximum() - 1);
    // Paint cost does not depend on the size: time a few full repaints.
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < 10; ++i) {
        view->setTopRow(maxTop / 10 * std::uint64_t(i));
        view->viewport()->repaint();
    }
    const double msPerPaint = double(timer.nsecsElapsed()) / 1e6 / 10;
    std::printf("[ INFO     ] 64 GiB view: %.2f ms per full repaint\n", msPerPaint);
    view->setData(QByteArray());
    munmap(memory, size);
}
