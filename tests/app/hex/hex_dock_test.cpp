// HexDock: data and byte map in, selection and cursor signals out, the data inspector following
// the cursor, and a screenshot of the dock over a sample byte map (written as PNG for review:
// $MESHSCOPE_SCREENSHOT_DIR or the temp dir).
#include "hex/hex_dock.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <bit>
#include <cstring>

#include "hex/data_inspector.h"
#include "hex/hex_view.h"
#include "meshscope/core/byte_map.h"

using namespace meshscope::shell;
using meshscope::ByteMap;
using meshscope::RangeKind;

namespace {

void put32(QByteArray& b, int at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = char((v >> (8 * i)) & 0xff);
}
void putFloat(QByteArray& b, int at, float f) {
    std::uint32_t v;
    std::memcpy(&v, &f, 4);
    put32(b, at, v);
}

// A FileMesh-like sample: text header, a fixed header, vertices, faces, a skinning chunk with
// bone records, a payload and padding.
struct Sample {
    QByteArray bytes;
    ByteMap map;
};

Sample makeSample() {
    Sample s;
    s.bytes = QByteArray(640, '\0');
    std::memcpy(s.bytes.data(), "version 5.00\n", 13);
    int at = 13;
    s.map.add(0, 13, "version line", RangeKind::Header);
    s.map.add(13, 12, "header", RangeKind::Header);
    s.map.add(13, 2, "header › sizeOfHeader", RangeKind::Field);
    s.map.add(15, 2, "header › vertexSize", RangeKind::Field);
    s.map.add(17, 4, "header › numVerts", RangeKind::Field);
    s.map.add(21, 4, "header › numFaces", RangeKind::Field);
    s.bytes[13] = 12;
    s.bytes[15] = 40;
    put32(s.bytes, 17, 4);
    put32(s.bytes, 21, 2);
    at = 25;
    s.map.add(at, 160, "vertices", RangeKind::Array);
    for (int v = 0; v < 4; ++v) {
        const int rec = at + v * 40;
        s.map.add(rec, 40, "vertices[" + std::to_string(v) + "]", RangeKind::Record);
        s.map.add(rec, 12, "vertices[" + std::to_string(v) + "] › position", RangeKind::Field);
        putFloat(s.bytes, rec, 1.0f + v);
        putFloat(s.bytes, rec + 4, -0.5f * v);
        putFloat(s.bytes, rec + 8, 0.25f);
        putFloat(s.bytes, rec + 12, 0.0f);
        putFloat(s.bytes, rec + 16, 1.0f);
        for (int i = 24; i < 40; ++i) s.bytes[rec + i] = char(0x7f + v * 3 + i);
    }
    at += 160;
    s.map.add(at, 24, "faces", RangeKind::Array);
    for (int i = 0; i < 6; ++i) put32(s.bytes, at + 4 * i, std::uint32_t(i % 4));
    at += 24;
    s.map.add(at, 200, "SKINNING", RangeKind::Chunk);
    s.map.add(at, 8, "SKINNING › header", RangeKind::Header);
    std::memcpy(s.bytes.data() + at, "SKINNING", 8);
    s.map.add(at + 8, 4, "SKINNING › boneCount", RangeKind::Field);
    put32(s.bytes, at + 8, 4);
    s.map.add(at + 12, 4 * 40, "SKINNING › bones", RangeKind::Array);
    for (int b = 0; b < 4; ++b) {
        const int rec = at + 12 + b * 40;
        const std::string path = "SKINNING › bones[" + std::to_string(b) + "]";
        s.map.add(rec, 40, path, RangeKind::Record);
        s.map.add(rec, 4, path + " › nameOffset", RangeKind::Field);
        s.map.add(rec + 4, 2, path + " › parentIndex", RangeKind::Field);
        s.map.add(rec + 6, 2, path + " › lodParentIndex", RangeKind::Field);
        s.map.add(rec + 8, 4, path + " › culling", RangeKind::Field);
        put32(s.bytes, rec, std::uint32_t(b * 5));
        s.bytes[rec + 4] = char(b == 0 ? 0xff : b - 1);
        s.bytes[rec + 5] = char(b == 0 ? 0xff : 0);
        putFloat(s.bytes, rec + 8, 2.5f);
        for (int i = 12; i < 40; ++i) s.bytes[rec + i] = char((b * 37 + i * 11) & 0xff);
    }
    at += 200;
    s.map.add(at, 96, "draco payload", RangeKind::Payload);
    for (int i = 0; i < 96; ++i) s.bytes[at + i] = char((i * 73 + 19) & 0xff);
    at += 96;
    s.map.add(at, 8, "padding", RangeKind::Padding);
    s.map.finalize(std::uint64_t(s.bytes.size()));
    return s;
}

class HexDockTest : public ::testing::Test {
protected:
};

}  // namespace

TEST_F(HexDockTest, SelectRangeAndSignals) {
    const Sample sample = makeSample();
    HexDock dock;
    dock.resize(1000, 480);
    dock.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dock));
    dock.setData(sample.bytes, &sample.map);
    QSignalSpy selection(&dock, &HexDock::selectionChanged);
    QSignalSpy cursor(&dock, &HexDock::cursorMoved);
    // bones[1] starts at 13 + 12 + 160 + 24 + 12 + 40 = 261.
    dock.selectRange(261, 40);
    EXPECT_EQ(dock.hexView()->selectionOffset(), 261u);
    EXPECT_EQ(dock.hexView()->selectionLength(), 40u);
    EXPECT_EQ(dock.hexView()->cursorOffset(), 261u);
    // Programmatic selection does not echo back to the document.
    EXPECT_EQ(selection.count(), 0);
    EXPECT_EQ(cursor.count(), 0);
    EXPECT_EQ(sample.map.ranges()[dock.hexView()->innermostRangeAt(261)].path,
              "SKINNING › bones[1] › nameOffset");
    // The inspector follows the cursor: nameOffset of bone 1 is 5 (u32 LE).
    EXPECT_EQ(dock.dataInspector()->valueText("u32"), "5");
    // User changes in the view are forwarded.
    dock.hexView()->setCursorOffset(320, true);
    ASSERT_EQ(selection.count(), 1);
    EXPECT_EQ(selection.at(0).at(0).toULongLong(), 261u);
    EXPECT_EQ(selection.at(0).at(1).toULongLong(), 320u - 261u + 1);
    ASSERT_EQ(cursor.count(), 1);
    EXPECT_EQ(cursor.at(0).at(0).toULongLong(), 320u);
    // The document echoing that selection back changes nothing (no jump, no signal).
    const auto top = dock.hexView()->topRow();
    dock.selectRange(261, 320 - 261 + 1);
    EXPECT_EQ(dock.hexView()->cursorOffset(), 320u);
    EXPECT_EQ(dock.hexView()->topRow(), top);
    EXPECT_EQ(selection.count(), 1);
    // Vertex 0's position x at 25 is 1.0f: 00 00 80 3f.
    dock.hexView()->setCursorOffset(25);
    EXPECT_EQ(dock.dataInspector()->valueText("f32"), "1");
    dock.dataInspector()->setByteOrder(ByteOrder::Big);
    EXPECT_EQ(dock.dataInspector()->valueText("u32"), QString::number(0x0000803fu));
    EXPECT_EQ(dock.dataInspector()->valueText("f32").toFloat(), std::bit_cast<float>(0x0000803fu));
}

TEST_F(HexDockTest, ScreenshotOverSampleByteMap) {
    const Sample sample = makeSample();
    HexDock dock;
    dock.resize(1040, 520);
    dock.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dock));
    dock.setData(sample.bytes, &sample.map);
    dock.selectRange(261, 40);             // bones[1], outlined and selected
    dock.hexView()->setCursorOffset(265);  // bones[1] › parentIndex
    dock.hexView()->setStructureRange(261, 40);
    dock.hexView()->setTopRow(0);
    QApplication::processEvents();
    const QImage image = dock.grab().toImage();
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.width(), dock.width() * int(image.devicePixelRatio()));
    // Not blank: a byte-map band colour differs from the background.
    const QPoint inHeaderBand = QPoint(dock.hexView()->hexLayout().hexCell(3).x,
                                       int(dock.hexView()->hexLayout().rowY(0, 0)) + 2);
    const QImage viewImage = dock.hexView()->viewport()->grab().toImage();
    EXPECT_NE(viewImage.pixelColor(inHeaderBand), dock.hexView()->palette().color(QPalette::Base));
    const QString dir = qEnvironmentVariableIsSet("MESHSCOPE_SCREENSHOT_DIR")
                            ? qEnvironmentVariable("MESHSCOPE_SCREENSHOT_DIR")
                            : QDir::tempPath();
    const QString path = QDir(dir).filePath(QStringLiteral("meshscope_hex_dock.png"));
    ASSERT_TRUE(image.save(path)) << path.toStdString();
    std::printf("[ INFO     ] hex dock screenshot: %s\n", qPrintable(path));

    // The same under a dark palette: bands stay distinct from the background.
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(45, 45, 48));
    dark.setColor(QPalette::WindowText, QColor(220, 220, 220));
    dark.setColor(QPalette::Base, QColor(30, 30, 32));
    dark.setColor(QPalette::AlternateBase, QColor(38, 38, 42));
    dark.setColor(QPalette::Text, QColor(220, 220, 220));
    dark.setColor(QPalette::Button, QColor(50, 50, 54));
    dark.setColor(QPalette::ButtonText, QColor(220, 220, 220));
    dark.setColor(QPalette::Highlight, QColor(60, 120, 215));
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dock.setPalette(dark);
    QApplication::processEvents();
    const QImage darkView = dock.hexView()->viewport()->grab().toImage();
    EXPECT_NE(darkView.pixelColor(inHeaderBand), dark.color(QPalette::Base));
    const QString darkPath = QDir(dir).filePath(QStringLiteral("meshscope_hex_dock_dark.png"));
    ASSERT_TRUE(dock.grab().toImage().save(darkPath)) << darkPath.toStdString();
}
