// The hex view: a QAbstractScrollArea that paints only the visible rows of a byte buffer
// (offset, hex and ASCII columns) over the byte map's coloured ranges, with keyboard and mouse
// selection, go to offset, find and copy. Geometry comes from HexLayout; the bytes are shared
// (QByteArray) or borrowed (pointer + size), never copied. Plus the pure text helpers it uses
// (hex/C-array formatting, hex pattern and offset parsing, byte search), tested on their own.
#pragma once

#include <QAbstractScrollArea>
#include <QByteArray>
#include <QStaticText>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "meshscope/inspect/data_values.h"
#include "meshscope/inspect/hex_layout.h"

class QAction;
class QTimer;

namespace meshscope {
class ByteMap;
enum class RangeKind : std::uint8_t;
}  // namespace meshscope

namespace meshscope::shell {

using inspect::ByteOrder;
using inspect::HexLayout;

// "DE AD BE EF" (upper case, single spaces).
QString formatHex(std::span<const std::uint8_t> bytes);
// A C array initialiser, 12 bytes a line:
//   const unsigned char data[3] = {
//       0xde, 0xad, 0xbe
//   };
QString formatCArray(std::span<const std::uint8_t> bytes,
                     const QString& name = QStringLiteral("data"));
// Printable ASCII as is, anything else as '.'.
QString formatText(std::span<const std::uint8_t> bytes);
// "de ad be ef", "DEADBEEF", "0xde,0xad" → bytes; nullopt for an odd digit count, a non-hex
// character or an empty pattern.
std::optional<QByteArray> parseHexPattern(const QString& text);
// "0x1a4", "1a4h" → hex; "420" → decimal unless hexByDefault; any a-f digit → hex. nullopt
// when the text is not a number or overflows 64 bits.
std::optional<std::uint64_t> parseOffset(const QString& text, bool hexByDefault);
// Next occurrence of `pattern` starting at or after `from` (forward) or strictly before `from`
// (backward), wrapping around the buffer once. nullopt when absent.
std::optional<std::uint64_t> findBytes(std::span<const std::uint8_t> data,
                                       std::span<const std::uint8_t> pattern, std::uint64_t from,
                                       bool forward);

class HexView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit HexView(QWidget* parent = nullptr);
    ~HexView() override;

    // Shares `bytes` (implicitly shared, no copy).
    void setData(const QByteArray& bytes);
    // Borrows `size` bytes at `data`; the caller keeps them alive while shown.
    void setData(const std::uint8_t* data, std::uint64_t size);
    // A finalized byte map over the same bytes, or nullptr; the caller keeps it alive.
    void setByteMap(const meshscope::ByteMap* map);
    const meshscope::ByteMap* byteMap() const { return map_; }
    std::span<const std::uint8_t> bytes() const { return {data_, std::size_t(size_)}; }
    std::uint64_t dataSize() const { return size_; }

    void setBytesPerRow(int bytes);
    const HexLayout& hexLayout() const { return layout_; }
    // First row shown and the horizontal scroll in pixels (content x = viewport x + this).
    std::uint64_t topRow() const { return topRow_; }
    int horizontalOffset() const;

    std::uint64_t cursorOffset() const { return cursor_; }
    // The selection; length 0 when nothing is selected.
    std::uint64_t selectionOffset() const { return selLength_ ? selStart_ : 0; }
    std::uint64_t selectionLength() const { return selLength_; }
    std::span<const std::uint8_t> selectedBytes() const;
    // The outlined structure range (set by setStructureRange/selectRange, or the innermost range
    // under a clicked byte).
    std::uint64_t structureOffset() const { return structStart_; }
    std::uint64_t structureLength() const { return structLength_; }

    // Index (into byteMap()->ranges()) of the innermost range holding `offset`, or -1.
    int innermostRangeAt(std::uint64_t offset) const;

    // Background colour of a byte-map range of `kind` at nesting `depth` (odd: every other
    // sibling); invalid for Unparsed (not filled). Shared with legends.
    static QColor kindColor(meshscope::RangeKind kind, int depth, bool odd,
                            const QPalette& palette);

    // Byte order of the values in the hover tooltip.
    void setToolTipByteOrder(ByteOrder order) { tipOrder_ = order; }
    // The rich-text tooltip for the byte at `offset`: byte-map path, range, decoded values.
    QString toolTipAt(std::uint64_t offset) const;

    // Searches from the cursor (forward: at or after the selection start + 1; backward: before
    // it), wrapping; selects and centres the match. False when absent or the pattern is empty.
    bool find(const QByteArray& pattern, bool forward = true);
    void setFindPattern(const QByteArray& pattern) { findPattern_ = pattern; }
    const QByteArray& findPattern() const { return findPattern_; }

public slots:
    // Selects [offset, offset + length), outlines it as the current structure, puts the cursor
    // on its first byte and scrolls so it is centred.
    void selectRange(quint64 offset, quint64 length);
    // Outlines a structure range without moving the cursor or scrolling.
    void setStructureRange(quint64 offset, quint64 length);
    // Moves the cursor (extending the selection from the anchor when `extend`) and scrolls
    // the least needed to keep it visible.
    void setCursorOffset(quint64 offset, bool extend = false);
    // Cursor to `offset`, centred; false (with a status message) past the end.
    bool goToOffset(quint64 offset);
    void setTopRow(quint64 row);
    void copyHex();
    void copyCArray();
    void copyText();
    void selectAll();
    void selectStructureAtCursor();
    void showGoToDialog();
    void showFindDialog();
    void findNext();
    void findPrevious();

signals:
    void cursorMoved(quint64 offset);
    void selectionChanged(quint64 offset, quint64 length);
    // Ctrl+F while something listens (the hex dock focuses its find field); without a listener
    // the view asks for the pattern in a dialog.
    void findRequested();
    // One-line feedback: "not found", "wrapped", "offset past the end" ...
    void statusMessage(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct RangeInfo {
        int parent = -1;
        int depth = 0;
        bool odd = false;  // alternates between siblings so neighbours stay apart
    };

    void updateMetrics();
    void updateScrollBars();
    void dataChanged();
    void setSelection(std::uint64_t start, std::uint64_t length);
    void moveCursorTo(std::uint64_t offset, bool extend, bool keepVisible);
    void emitChanges(std::uint64_t oldCursor, std::uint64_t oldStart, std::uint64_t oldLength);
    HexLayout::Hit hitAt(QPoint viewportPos) const;
    void autoScroll();
    // Byte map ranges that intersect [begin, end), outermost first, parents before children.
    std::vector<int> rangesIn(std::uint64_t begin, std::uint64_t end) const;
    QColor rangeColor(int index) const;
    QRect spanRect(const HexLayout::RowSpan& span, HexLayout::Area area) const;
    void copyToClipboard(const QString& text, const char* what);

    HexLayout layout_;
    QByteArray holder_;
    const std::uint8_t* data_ = nullptr;
    std::uint64_t size_ = 0;
    const meshscope::ByteMap* map_ = nullptr;
    std::vector<int> order_;            // range indices sorted by (offset, larger first)
    std::vector<RangeInfo> rangeInfo_;  // per range index

    std::uint64_t topRow_ = 0;
    bool syncingScrollBar_ = false;
    double wheelRemainder_ = 0;

    std::uint64_t cursor_ = 0;
    std::uint64_t anchor_ = 0;
    std::uint64_t selStart_ = 0;
    std::uint64_t selLength_ = 0;
    std::uint64_t structStart_ = 0;
    std::uint64_t structLength_ = 0;
    HexLayout::Area activeArea_ = HexLayout::Area::Hex;
    bool dragging_ = false;
    QPoint lastMousePos_;
    QTimer* autoScrollTimer_ = nullptr;

    QByteArray findPattern_;
    ByteOrder tipOrder_ = ByteOrder::Little;

    QStaticText hexText_[256];
    QStaticText asciiText_[256];
    int textDy_ = 0;  // y of the text's top inside a line

    QAction* copyHexAction_ = nullptr;
    QAction* copyCArrayAction_ = nullptr;
    QAction* copyTextAction_ = nullptr;
    QAction* selectAllAction_ = nullptr;
    QAction* selectStructureAction_ = nullptr;
    QAction* goToAction_ = nullptr;
    QAction* findAction_ = nullptr;
    QAction* findNextAction_ = nullptr;
    QAction* findPreviousAction_ = nullptr;
};

}  // namespace meshscope::shell
