// The hex view: painting of the visible rows over the byte map, selection, navigation, find,
// go to and copy; plus the pure text helpers.
#include "hex/hex_view.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHelpEvent>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QMetaMethod>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QTimer>
#include <QToolTip>
#include <algorithm>
#include <cctype>
#include <functional>

#include "meshscope/core/byte_map.h"

namespace meshscope::shell {

// --- Pure helpers ------------------------------------------------------------------------------

namespace {
constexpr char kHexDigits[] = "0123456789ABCDEF";
constexpr std::uint64_t kMaxCopyBytes = 16u << 20;  // a copied selection stays below ~50 MB of text

bool isPrintable(std::uint8_t b) {
    return b >= 0x20 && b < 0x7f;
}

QString hexOffset(std::uint64_t offset, int digits) {
    return QString::number(offset, 16).toUpper().rightJustified(digits, u'0');
}
}  // namespace

QString formatHex(std::span<const std::uint8_t> bytes) {
    QString out;
    out.reserve(int(bytes.size() * 3));
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i) out += u' ';
        out += QLatin1Char(kHexDigits[bytes[i] >> 4]);
        out += QLatin1Char(kHexDigits[bytes[i] & 15]);
    }
    return out;
}

QString formatCArray(std::span<const std::uint8_t> bytes, const QString& name) {
    constexpr std::size_t kPerLine = 12;
    static constexpr char kLower[] = "0123456789abcdef";
    QString out = QStringLiteral("const unsigned char %1[%2] = {\n").arg(name).arg(bytes.size());
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i % kPerLine == 0) out += QLatin1String("    ");
        out += QLatin1String("0x");
        out += QLatin1Char(kLower[bytes[i] >> 4]);
        out += QLatin1Char(kLower[bytes[i] & 15]);
        if (i + 1 < bytes.size())
            out += (i % kPerLine == kPerLine - 1) ? QLatin1String(",\n") : QLatin1String(", ");
        else
            out += u'\n';
    }
    out += QLatin1String("};\n");
    return out;
}

QString formatText(std::span<const std::uint8_t> bytes) {
    QString out;
    out.reserve(int(bytes.size()));
    for (std::uint8_t b : bytes) out += isPrintable(b) ? QLatin1Char(char(b)) : QLatin1Char('.');
    return out;
}

std::optional<QByteArray> parseHexPattern(const QString& text) {
    QString digits;
    const QString trimmed = text.trimmed();
    for (qsizetype i = 0; i < trimmed.size(); ++i) {
        const QChar c = trimmed[i];
        if (c.isSpace() || c == u',') continue;
        // A "0x" prefix on a group: skip it.
        if (c == u'0' && i + 1 < trimmed.size() &&
            (trimmed[i + 1] == u'x' || trimmed[i + 1] == u'X')) {
            ++i;
            continue;
        }
        if (!std::isxdigit(c.toLatin1()) || c.unicode() > 0x7f) return std::nullopt;
        digits += c;
    }
    if (digits.isEmpty() || digits.size() % 2) return std::nullopt;
    return QByteArray::fromHex(digits.toLatin1());
}

std::optional<std::uint64_t> parseOffset(const QString& text, bool hexByDefault) {
    QString t = text.trimmed();
    bool hex = hexByDefault;
    if (t.startsWith(QLatin1String("0x"), Qt::CaseInsensitive)) {
        t = t.mid(2);
        hex = true;
    } else if (t.endsWith(u'h', Qt::CaseInsensitive)) {
        t.chop(1);
        hex = true;
    }
    t.remove(u'_');
    if (t.isEmpty()) return std::nullopt;
    for (QChar c : t) {
        if (c.unicode() > 0x7f || !std::isxdigit(c.toLatin1())) return std::nullopt;
        if (!c.isDigit()) hex = true;
    }
    bool ok = false;
    const qulonglong value = t.toULongLong(&ok, hex ? 16 : 10);
    if (!ok) return std::nullopt;
    return value;
}

std::optional<std::uint64_t> findBytes(std::span<const std::uint8_t> data,
                                       std::span<const std::uint8_t> pattern, std::uint64_t from,
                                       bool forward) {
    const std::uint64_t n = data.size();
    const std::uint64_t m = pattern.size();
    if (m == 0 || m > n) return std::nullopt;
    from = std::min(from, n);
    const std::boyer_moore_horspool_searcher searcher(pattern.begin(), pattern.end());
    auto searchIn = [&](std::uint64_t begin, std::uint64_t end) -> std::optional<std::uint64_t> {
        if (end <= begin || end - begin < m) return std::nullopt;
        auto it = std::search(data.begin() + begin, data.begin() + end, searcher);
        if (it == data.begin() + end) return std::nullopt;
        return std::uint64_t(it - data.begin());
    };
    auto searchLastIn = [&](std::uint64_t begin,
                            std::uint64_t end) -> std::optional<std::uint64_t> {
        if (end <= begin || end - begin < m) return std::nullopt;
        auto it =
            std::find_end(data.begin() + begin, data.begin() + end, pattern.begin(), pattern.end());
        if (it == data.begin() + end) return std::nullopt;
        return std::uint64_t(it - data.begin());
    };
    if (forward) {
        if (auto hit = searchIn(from, n)) return hit;
        return searchIn(0, std::min(n, from + m - 1));  // wrap: matches starting before `from`
    }
    if (auto hit = searchLastIn(0, std::min(n, from + m - 1))) {
        if (*hit < from) return hit;
    }
    // Wrap: the last match overall (it starts at or after `from`).
    auto hit = searchLastIn(0, n);
    return hit;
}

// --- HexView -----------------------------------------------------------------------------------

HexView::HexView(QWidget* parent) : QAbstractScrollArea(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::NoFrame);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setStyleHint(QFont::Monospace);
    setFont(mono);

    autoScrollTimer_ = new QTimer(this);
    autoScrollTimer_->setInterval(40);
    connect(autoScrollTimer_, &QTimer::timeout, this, &HexView::autoScroll);

    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (syncingScrollBar_) return;
        topRow_ = layout_.topRowForScrollValue(value, layout_.maxTopRow(viewport()->height()));
        viewport()->update();
    });
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, viewport(),
            qOverload<>(&QWidget::update));

    auto makeAction = [this](const QString& text, const QKeySequence& key, auto slot) {
        auto* action = new QAction(text, this);
        if (!key.isEmpty()) action->setShortcut(key);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        return action;
    };
    copyHexAction_ = makeAction(tr("Copy as Hex"), QKeySequence::Copy, &HexView::copyHex);
    copyCArrayAction_ =
        makeAction(tr("Copy as C Array"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                   &HexView::copyCArray);
    copyTextAction_ = makeAction(tr("Copy as Text"), QKeySequence(), &HexView::copyText);
    selectAllAction_ = makeAction(tr("Select All"), QKeySequence::SelectAll, &HexView::selectAll);
    selectStructureAction_ = makeAction(tr("Select Structure at Cursor"), QKeySequence(),
                                        &HexView::selectStructureAtCursor);
    goToAction_ = makeAction(tr("Go to Offset…"), QKeySequence(Qt::CTRL | Qt::Key_G),
                             &HexView::showGoToDialog);
    findAction_ = makeAction(tr("Find…"), QKeySequence::Find, &HexView::showFindDialog);
    findNextAction_ = makeAction(tr("Find Next"), QKeySequence::FindNext, &HexView::findNext);
    findPreviousAction_ =
        makeAction(tr("Find Previous"), QKeySequence::FindPrevious, &HexView::findPrevious);
    // F3 / Shift+F3 repeat the last search wherever the focus is in the window (the 3D view,
    // the tree), not only while the hex view has it.
    for (QAction* a : {findNextAction_, findPreviousAction_})
        a->setShortcutContext(Qt::WindowShortcut);
    updateMetrics();
}

HexView::~HexView() = default;

void HexView::setData(const QByteArray& bytes) {
    holder_ = bytes;
    data_ = reinterpret_cast<const std::uint8_t*>(holder_.constData());
    size_ = std::uint64_t(holder_.size());
    dataChanged();
}

void HexView::setData(const std::uint8_t* data, std::uint64_t size) {
    holder_ = QByteArray();
    data_ = size ? data : nullptr;
    size_ = data ? size : 0;
    dataChanged();
}

void HexView::dataChanged() {
    layout_.setDataSize(size_);
    topRow_ = 0;
    cursor_ = anchor_ = 0;
    selStart_ = selLength_ = 0;
    structStart_ = structLength_ = 0;
    updateMetrics();
    emit cursorMoved(cursor_);
    emit selectionChanged(0, 0);
}

void HexView::setByteMap(const meshscope::ByteMap* map) {
    map_ = map;
    order_.clear();
    rangeInfo_.clear();
    if (map_) {
        const auto& ranges = map_->ranges();
        order_.resize(ranges.size());
        for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = int(i);
        // finalize() already sorts; sorting the indices again keeps an unfinalized map usable.
        std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
            if (ranges[a].offset != ranges[b].offset) return ranges[a].offset < ranges[b].offset;
            return ranges[a].length > ranges[b].length;
        });
        // Nesting by a sweep with a stack of open ranges.
        rangeInfo_.resize(ranges.size());
        std::vector<int> open;
        std::vector<int> childCount(ranges.size() + 1, 0);
        for (int index : order_) {
            const auto& r = ranges[index];
            while (!open.empty() && ranges[open.back()].end() <= r.offset) open.pop_back();
            RangeInfo& info = rangeInfo_[index];
            info.parent = open.empty() ? -1 : open.back();
            info.depth = info.parent < 0 ? 0 : rangeInfo_[info.parent].depth + 1;
            info.odd = (childCount[std::size_t(info.parent + 1)]++) % 2 == 1;
            open.push_back(index);
        }
    }
    viewport()->update();
}

void HexView::setBytesPerRow(int bytes) {
    const std::uint64_t cursor = cursor_;
    layout_.setBytesPerRow(bytes);
    layout_.setGroupSize(layout_.bytesPerRow() % 8 == 0 ? 8 : 0);
    updateMetrics();
    setTopRow(layout_.topRowKeepingVisible(cursor, layout_.rowOf(cursor), viewport()->height()));
}

int HexView::horizontalOffset() const {
    return horizontalScrollBar()->value();
}

std::span<const std::uint8_t> HexView::selectedBytes() const {
    if (!selLength_ || selStart_ >= size_) return {};
    return {data_ + selStart_, std::size_t(std::min(selLength_, size_ - selStart_))};
}

void HexView::updateMetrics() {
    const QFontMetrics fm(font());
    const int charWidth = std::max(1, fm.horizontalAdvance(QLatin1Char('0')));
    const int lineHeight = fm.height() + 3;
    layout_.setCharMetrics(charWidth, lineHeight);
    layout_.setHeaderHeight(lineHeight + 4);
    textDy_ = (lineHeight - fm.height()) / 2;
    for (int b = 0; b < 256; ++b) {
        const char hex[3] = {kHexDigits[b >> 4], kHexDigits[b & 15], 0};
        hexText_[b] = QStaticText(QString::fromLatin1(hex));
        hexText_[b].setTextFormat(Qt::PlainText);
        hexText_[b].prepare(QTransform(), font());
        const QChar ascii = isPrintable(std::uint8_t(b)) ? QChar(b) : QChar(u'·');
        asciiText_[b] = QStaticText(QString(ascii));
        asciiText_[b].setTextFormat(Qt::PlainText);
        asciiText_[b].prepare(QTransform(), font());
    }
    updateScrollBars();
    viewport()->update();
}

void HexView::updateScrollBars() {
    const int height = viewport()->height();
    const std::uint64_t maxTop = layout_.maxTopRow(height);
    topRow_ = std::min(topRow_, maxTop);
    syncingScrollBar_ = true;
    QScrollBar* v = verticalScrollBar();
    v->setRange(0, layout_.scrollBarMaximum(maxTop));
    const std::uint64_t page = layout_.fullyVisibleRows(height);
    if (maxTop <= std::uint64_t(layout_.scrollRange())) {
        v->setPageStep(int(page));
        v->setSingleStep(1);
    } else {
        // Scaled bar: one step is many rows; keep the page step proportional (at least 1).
        const double scale = double(layout_.scrollRange()) / double(maxTop);
        v->setPageStep(std::max(1, int(double(page) * scale)));
        v->setSingleStep(1);
    }
    v->setValue(layout_.scrollValueForTopRow(topRow_, maxTop));
    syncingScrollBar_ = false;
    QScrollBar* h = horizontalScrollBar();
    h->setRange(0, std::max(0, layout_.totalWidth() - viewport()->width()));
    h->setPageStep(viewport()->width());
    h->setSingleStep(layout_.charWidth());
}

void HexView::setTopRow(quint64 row) {
    const std::uint64_t maxTop = layout_.maxTopRow(viewport()->height());
    row = std::min<std::uint64_t>(row, maxTop);
    if (row == topRow_) return;
    topRow_ = row;
    syncingScrollBar_ = true;
    verticalScrollBar()->setValue(layout_.scrollValueForTopRow(topRow_, maxTop));
    syncingScrollBar_ = false;
    viewport()->update();
}

// --- Selection and cursor --------------------------------------------------------------------

void HexView::emitChanges(std::uint64_t oldCursor, std::uint64_t oldStart,
                          std::uint64_t oldLength) {
    viewport()->update();
    if (cursor_ != oldCursor) emit cursorMoved(cursor_);
    if (selLength_ != oldLength || (selLength_ && selStart_ != oldStart))
        emit selectionChanged(selectionOffset(), selLength_);
}

void HexView::setSelection(std::uint64_t start, std::uint64_t length) {
    if (start >= size_) length = 0;
    selStart_ = length ? start : 0;
    selLength_ = length ? std::min(length, size_ - start) : 0;
}

void HexView::moveCursorTo(std::uint64_t offset, bool extend, bool keepVisible) {
    const std::uint64_t oldCursor = cursor_, oldStart = selStart_, oldLength = selLength_;
    offset = std::min(offset, layout_.lastOffset());
    if (extend) {
        if (!selLength_) anchor_ = cursor_;
        cursor_ = offset;
        const std::uint64_t lo = std::min(anchor_, cursor_), hi = std::max(anchor_, cursor_);
        setSelection(lo, hi - lo + 1);
    } else {
        cursor_ = anchor_ = offset;
        setSelection(0, 0);
    }
    if (keepVisible)
        setTopRow(layout_.topRowKeepingVisible(cursor_, topRow_, viewport()->height()));
    emitChanges(oldCursor, oldStart, oldLength);
}

void HexView::setCursorOffset(quint64 offset, bool extend) {
    moveCursorTo(offset, extend, true);
}

void HexView::selectRange(quint64 offset, quint64 length) {
    if (size_ == 0) return;
    const std::uint64_t oldCursor = cursor_, oldStart = selStart_, oldLength = selLength_;
    offset = std::min<std::uint64_t>(offset, layout_.lastOffset());
    cursor_ = anchor_ = offset;
    setSelection(offset, length);
    structStart_ = offset;
    structLength_ = selLength_;
    setTopRow(
        layout_.centredTopRow(offset, std::max<std::uint64_t>(length, 1), viewport()->height()));
    emitChanges(oldCursor, oldStart, oldLength);
}

void HexView::setStructureRange(quint64 offset, quint64 length) {
    structStart_ = offset;
    structLength_ = length;
    viewport()->update();
}

bool HexView::goToOffset(quint64 offset) {
    if (offset >= size_) {
        emit statusMessage(tr("Offset 0x%1 is past the end (size 0x%2)")
                               .arg(hexOffset(offset, 1), hexOffset(size_, 1)));
        return false;
    }
    moveCursorTo(offset, false, false);
    setTopRow(layout_.centredTopRow(offset, 1, viewport()->height()));
    return true;
}

void HexView::selectAll() {
    if (!size_) return;
    const std::uint64_t oldCursor = cursor_, oldStart = selStart_, oldLength = selLength_;
    anchor_ = 0;
    cursor_ = layout_.lastOffset();
    setSelection(0, size_);
    emitChanges(oldCursor, oldStart, oldLength);
}

int HexView::innermostRangeAt(std::uint64_t offset) const {
    const auto chain = rangesIn(offset, offset + 1);
    return chain.empty() ? -1 : chain.back();
}

void HexView::selectStructureAtCursor() {
    const int index = innermostRangeAt(cursor_);
    if (index < 0) return;
    const auto& r = map_->ranges()[index];
    const std::uint64_t oldCursor = cursor_, oldStart = selStart_, oldLength = selLength_;
    setSelection(r.offset, r.length);
    structStart_ = r.offset;
    structLength_ = r.length;
    anchor_ = r.offset;
    emitChanges(oldCursor, oldStart, oldLength);
}

// --- Byte map ranges -------------------------------------------------------------------------

std::vector<int> HexView::rangesIn(std::uint64_t begin, std::uint64_t end) const {
    std::vector<int> out;
    if (!map_ || order_.empty() || end <= begin) return out;
    const auto& ranges = map_->ranges();
    // Last range starting at or before `begin`; the ranges containing `begin` are it or its
    // ancestors (the ranges nest), the others start inside (begin, end).
    auto firstAfter =
        std::upper_bound(order_.begin(), order_.end(), begin,
                         [&](std::uint64_t o, int i) { return o < ranges[i].offset; });
    const std::ptrdiff_t last = (firstAfter - order_.begin()) - 1;
    if (last >= 0) {
        for (int i = order_[std::size_t(last)]; i >= 0; i = rangeInfo_[i].parent) {
            if (ranges[i].end() > begin) out.push_back(i);
        }
        std::reverse(out.begin(), out.end());
    }
    for (auto it = firstAfter; it != order_.end() && ranges[*it].offset < end; ++it)
        out.push_back(*it);
    return out;
}

QColor HexView::kindColor(RangeKind kind, int depth, bool odd, const QPalette& palette) {
    int hue = 0, saturation = 175;
    switch (kind) {
        case RangeKind::Header:
            hue = 212;
            break;
        case RangeKind::Chunk:
            hue = 268;
            break;
        case RangeKind::Array:
            hue = 140;
            break;
        case RangeKind::Record:
            hue = 188;
            break;
        case RangeKind::Field:
            hue = 34;
            saturation = 200;
            break;
        case RangeKind::Payload:
            hue = 335;
            break;
        case RangeKind::Padding:
            saturation = 0;
            break;
        case RangeKind::Unparsed:
            return {};
    }
    // Opaque mix of the kind's colour into the background: deeper ranges and every other
    // sibling a little stronger, so nesting and neighbours show while text stays readable.
    const QColor base = palette.color(QPalette::Base);
    const bool dark = base.lightness() < 128;
    const QColor tint = QColor::fromHsl(hue, saturation, dark ? 150 : 120);
    const double strength = (dark ? 0.22 : 0.15) + 0.05 * std::min(depth, 3) + (odd ? 0.08 : 0.0);
    auto mix = [&](int a, int b) { return int(a + (b - a) * strength + 0.5); };
    return QColor(mix(base.red(), tint.red()), mix(base.green(), tint.green()),
                  mix(base.blue(), tint.blue()));
}

QColor HexView::rangeColor(int index) const {
    const RangeInfo& info = rangeInfo_[index];
    return kindColor(map_->ranges()[index].kind, info.depth, info.odd, palette());
}

// --- Painting --------------------------------------------------------------------------------

QRect HexView::spanRect(const HexLayout::RowSpan& span, HexLayout::Area area) const {
    const int y = int(layout_.rowY(span.row, topRow_));
    const int h = layout_.lineHeight();
    const int cw = layout_.charWidth();
    if (area == HexLayout::Area::Ascii) {
        const int x0 = layout_.asciiCell(span.firstColumn).x;
        const int x1 = layout_.asciiCell(span.lastColumn).end();
        return QRect(x0, y, x1 - x0, h);
    }
    const int x0 = span.firstColumn == 0 ? layout_.hexCell(0).x - cw / 2
                                         : layout_.hexHitBox(span.firstColumn).x;
    const int x1 = span.lastColumn == layout_.bytesPerRow() - 1
                       ? layout_.hexCell(span.lastColumn).end() + cw / 2
                       : layout_.hexHitBox(span.lastColumn).end();
    return QRect(x0, y, x1 - x0, h);
}

void HexView::paintEvent(QPaintEvent*) {
    QPainter p(viewport());
    const QPalette& pal = palette();
    const int width = viewport()->width();
    const int height = viewport()->height();
    const int xOff = horizontalOffset();
    const int lh = layout_.lineHeight();
    const int cw = layout_.charWidth();
    const int header = layout_.headerHeight();
    const int bpr = layout_.bytesPerRow();
    const bool dark = pal.color(QPalette::Base).lightness() < 128;

    p.fillRect(viewport()->rect(), pal.base());
    p.translate(-xOff, 0);
    p.setFont(font());

    const QColor text = pal.color(QPalette::Text);
    QColor dim = text;
    dim.setAlpha(dark ? 90 : 80);
    QColor soft = text;
    soft.setAlpha(dark ? 150 : 140);
    const QColor accent = pal.color(QPalette::Highlight);
    QColor line = text;
    line.setAlpha(28);

    // Offset column strip.
    const HexLayout::Interval offsetCol = layout_.offsetColumn();
    const int stripRight = offsetCol.end() + cw;
    p.fillRect(QRect(0, header, stripRight, height - header), pal.alternateBase());

    const HexLayout::RowRange rows = layout_.visibleRows(topRow_, height);
    if (rows.count && size_) {
        const std::uint64_t windowBegin = layout_.offsetAt(rows.first, 0);
        const std::uint64_t windowEnd = std::min(size_, layout_.offsetAt(rows.last + 1, 0));
        p.setClipRect(QRect(xOff, header, width, height - header));

        // Byte map bands, outermost first.
        for (int index : rangesIn(windowBegin, windowEnd)) {
            const QColor color = rangeColor(index);
            if (!color.isValid()) continue;
            const auto& r = map_->ranges()[index];
            for (const auto& span : layout_.rowSpans(r.offset, r.length, rows.first, rows.last)) {
                p.fillRect(spanRect(span, HexLayout::Area::Hex), color);
                p.fillRect(spanRect(span, HexLayout::Area::Ascii), color);
            }
        }

        // Selection.
        if (selLength_) {
            QColor sel = accent;
            sel.setAlpha(dark ? 120 : 95);
            for (const auto& span :
                 layout_.rowSpans(selStart_, selLength_, rows.first, rows.last)) {
                p.fillRect(spanRect(span, HexLayout::Area::Hex), sel);
                p.fillRect(spanRect(span, HexLayout::Area::Ascii), sel);
            }
        }

        // Structure outline: the union of its row rectangles, in both columns.
        if (structLength_) {
            const auto spans = layout_.rowSpans(structStart_, structLength_, rows.first, rows.last);
            if (!spans.empty()) {
                QColor outline = dark ? accent.lighter(150) : accent.darker(130);
                p.save();
                p.setRenderHint(QPainter::Antialiasing);
                p.setPen(QPen(outline, 1.6));
                p.setBrush(Qt::NoBrush);
                for (auto area : {HexLayout::Area::Hex, HexLayout::Area::Ascii}) {
                    QPainterPath path;
                    for (const auto& span : spans)
                        path.addRect(QRectF(spanRect(span, area)).adjusted(0.8, 0.8, -0.8, -0.8));
                    p.drawPath(path.simplified());
                }
                p.restore();
            }
        }

        // Cursor: filled in the active column, outlined in the other.
        if (cursor_ < size_ && layout_.rowOf(cursor_) >= rows.first &&
            layout_.rowOf(cursor_) <= rows.last) {
            const HexLayout::RowSpan span{layout_.rowOf(cursor_), layout_.columnOf(cursor_),
                                          layout_.columnOf(cursor_)};
            const int y = int(layout_.rowY(span.row, topRow_));
            const auto hexCell = layout_.hexCell(span.firstColumn);
            const auto asciiCell = layout_.asciiCell(span.firstColumn);
            const QRect hexRect(hexCell.x - 2, y, hexCell.width + 4, lh);
            const QRect asciiRect(asciiCell.x, y, asciiCell.width, lh);
            const bool hexActive = activeArea_ != HexLayout::Area::Ascii;
            const QColor fill = hasFocus() ? accent : accent.lighter(dark ? 80 : 130);
            p.fillRect(hexActive ? hexRect : asciiRect, fill);
            p.setPen(QPen(fill, 1));
            p.drawRect((hexActive ? asciiRect : hexRect).adjusted(0, 0, -1, -1));
        }

        // Text.
        const int digits = layout_.offsetDigits();
        const QColor highlightedText = pal.color(QPalette::HighlightedText);
        for (std::uint64_t row = rows.first; row <= rows.last; ++row) {
            const int y = int(layout_.rowY(row, topRow_)) + textDy_;
            const std::uint64_t rowStart = layout_.offsetAt(row, 0);
            p.setPen(soft);
            p.drawText(offsetCol.x, y, offsetCol.width + cw, lh, Qt::AlignLeft | Qt::AlignTop,
                       hexOffset(rowStart, digits));
            const int count = layout_.bytesInRow(row);
            const std::uint8_t* bytes = data_ + rowStart;
            for (int c = 0; c < count; ++c) {
                const std::uint8_t b = bytes[c];
                const bool onCursor = rowStart + std::uint64_t(c) == cursor_;
                const bool hexActive = activeArea_ != HexLayout::Area::Ascii;
                p.setPen(onCursor && hexActive ? highlightedText : b == 0 ? dim : text);
                p.drawStaticText(layout_.hexCell(c).x, y, hexText_[b]);
                p.setPen(onCursor && !hexActive ? highlightedText : isPrintable(b) ? text : dim);
                p.drawStaticText(layout_.asciiCell(c).x, y, asciiText_[b]);
            }
        }
        p.setClipping(false);
    }

    // Header: column numbers, and the current column highlighted.
    p.fillRect(QRect(xOff, 0, width, header), pal.window());
    p.setPen(line);
    p.drawLine(xOff, header - 1, xOff + width, header - 1);
    const int headerY = (header - lh) / 2 + textDy_;
    const int cursorColumn = size_ ? layout_.columnOf(cursor_) : -1;
    p.setPen(soft);
    p.drawText(offsetCol.x, headerY, offsetCol.width + cw, lh, Qt::AlignLeft | Qt::AlignTop,
               tr("Offset"));
    for (int c = 0; c < bpr; ++c) {
        QColor color = c == cursorColumn ? accent : soft;
        if (c == cursorColumn) {
            QFont bold = font();
            bold.setBold(true);
            p.setFont(bold);
        }
        p.setPen(color);
        p.drawText(layout_.hexCell(c).x, headerY, layout_.hexCell(c).width, lh,
                   Qt::AlignLeft | Qt::AlignTop, hexOffset(std::uint64_t(c), 2));
        p.drawText(layout_.asciiCell(c).x, headerY, layout_.asciiCell(c).width, lh,
                   Qt::AlignLeft | Qt::AlignTop, QString(QLatin1Char(kHexDigits[c & 15])));
        if (c == cursorColumn) p.setFont(font());
    }

    // Column separators.
    p.setPen(line);
    const int hexLeft = layout_.hexColumn().x - cw;
    const int asciiLeft = layout_.asciiColumn().x - cw;
    p.drawLine(hexLeft, 0, hexLeft, height);
    p.drawLine(asciiLeft, 0, asciiLeft, height);
    if (layout_.groupSize() > 0) {
        for (int g = layout_.groupSize(); g < bpr; g += layout_.groupSize()) {
            const int x = (layout_.hexCell(g - 1).end() + layout_.hexCell(g).x) / 2;
            QColor groupLine = line;
            groupLine.setAlpha(16);
            p.setPen(groupLine);
            p.drawLine(x, header, x, height);
        }
    }
}

void HexView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

void HexView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) updateMetrics();
    if (event->type() == QEvent::PaletteChange) viewport()->update();
    QAbstractScrollArea::changeEvent(event);
}

// --- Input -----------------------------------------------------------------------------------

void HexView::keyPressEvent(QKeyEvent* event) {
    if (!size_) return QAbstractScrollArea::keyPressEvent(event);
    const bool extend = event->modifiers() & Qt::ShiftModifier;
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    const std::uint64_t bpr = std::uint64_t(layout_.bytesPerRow());
    const std::uint64_t page = layout_.fullyVisibleRows(viewport()->height()) * bpr;
    const std::uint64_t last = layout_.lastOffset();
    const std::uint64_t c = cursor_;
    std::uint64_t target = c;
    switch (event->key()) {
        case Qt::Key_Left:
            target = c ? c - 1 : 0;
            break;
        case Qt::Key_Right:
            target = std::min(last, c + 1);
            break;
        case Qt::Key_Up:
            target = c >= bpr ? c - bpr : c;
            break;
        case Qt::Key_Down:
            target = c + bpr <= last ? c + bpr : c;
            break;
        case Qt::Key_PageUp:
            target = c >= page ? c - page : c % bpr;
            setTopRow(topRow_ >= page / bpr ? topRow_ - page / bpr : 0);
            break;
        case Qt::Key_PageDown:
            target = c + page <= last ? c + page : last;
            setTopRow(topRow_ + page / bpr);
            break;
        case Qt::Key_Home:
            target = ctrl ? 0 : c - c % bpr;
            break;
        case Qt::Key_End:
            target = ctrl ? last : std::min(last, c - c % bpr + bpr - 1);
            break;
        case Qt::Key_Tab:
        case Qt::Key_Backtab:
            activeArea_ = activeArea_ == HexLayout::Area::Ascii ? HexLayout::Area::Hex
                                                                : HexLayout::Area::Ascii;
            viewport()->update();
            return;
        case Qt::Key_C:
            // Reached when the window is not active and the actions' shortcuts do not fire.
            if (event->matches(QKeySequence::Copy))
                copyHex();
            else if (ctrl && extend)
                copyCArray();
            return;
        case Qt::Key_Escape:
            moveCursorTo(c, false, false);
            return;
        default:
            return QAbstractScrollArea::keyPressEvent(event);
    }
    moveCursorTo(target, extend, true);
}

bool HexView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const HexLayout::Hit hit = hitAt(help->pos());
        // Only over an actual byte cell, not the clamped nearest byte.
        const int x = help->pos().x() + horizontalOffset();
        const bool overCell = layout_.hexColumnAt(x) >= 0 || layout_.asciiColumnAt(x) >= 0;
        if (hit.area == HexLayout::Area::None || !overCell ||
            help->pos().y() >= layout_.rowY(layout_.rowOf(layout_.lastOffset()) + 1, topRow_)) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const HexLayout::RowSpan span{layout_.rowOf(hit.offset), layout_.columnOf(hit.offset),
                                      layout_.columnOf(hit.offset)};
        QRect cell = spanRect(span, hit.area).translated(-horizontalOffset(), 0);
        QToolTip::showText(help->globalPos(), toolTipAt(hit.offset), viewport(), cell);
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

HexLayout::Hit HexView::hitAt(QPoint pos) const {
    return layout_.hitTest(pos.x() + horizontalOffset(), pos.y(), topRow_);
}

void HexView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !size_)
        return QAbstractScrollArea::mousePressEvent(event);
    const QPoint pos = event->position().toPoint();
    const HexLayout::Hit hit = hitAt(pos);
    if (hit.area == HexLayout::Area::None) return;
    activeArea_ = hit.area;
    const bool extend = event->modifiers() & Qt::ShiftModifier;
    moveCursorTo(hit.offset, extend, true);
    if (!extend) {
        // A plain click outlines the innermost structure under the byte.
        const int index = innermostRangeAt(hit.offset);
        if (index >= 0)
            setStructureRange(map_->ranges()[index].offset, map_->ranges()[index].length);
        else
            setStructureRange(0, 0);
    }
    dragging_ = true;
    lastMousePos_ = pos;
}

void HexView::mouseMoveEvent(QMouseEvent* event) {
    if (!dragging_ || !(event->buttons() & Qt::LeftButton))
        return QAbstractScrollArea::mouseMoveEvent(event);
    lastMousePos_ = event->position().toPoint();
    const int top = layout_.headerHeight();
    const int bottom = viewport()->height();
    const QPoint clamped(lastMousePos_.x(), std::clamp(lastMousePos_.y(), top, bottom - 1));
    const HexLayout::Hit hit = hitAt(clamped);
    if (hit.area != HexLayout::Area::None && (hit.offset != anchor_ || selLength_))
        moveCursorTo(hit.offset, true, true);
    if (lastMousePos_.y() < top || lastMousePos_.y() >= bottom) {
        if (!autoScrollTimer_->isActive()) autoScrollTimer_->start();
    } else {
        autoScrollTimer_->stop();
    }
}

void HexView::autoScroll() {
    if (!dragging_) return autoScrollTimer_->stop();
    const int top = layout_.headerHeight();
    const int bottom = viewport()->height();
    const int distance =
        lastMousePos_.y() < top ? top - lastMousePos_.y() : lastMousePos_.y() - bottom;
    const std::uint64_t rows = std::uint64_t(1 + std::max(0, distance) / layout_.lineHeight());
    if (lastMousePos_.y() < top)
        setTopRow(topRow_ > rows ? topRow_ - rows : 0);
    else if (lastMousePos_.y() >= bottom)
        setTopRow(topRow_ + rows);
    const QPoint clamped(lastMousePos_.x(), std::clamp(lastMousePos_.y(), top, bottom - 1));
    const HexLayout::Hit hit = hitAt(clamped);
    if (hit.area != HexLayout::Area::None) moveCursorTo(hit.offset, true, false);
}

void HexView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QAbstractScrollArea::mouseReleaseEvent(event);
    dragging_ = false;
    autoScrollTimer_->stop();
    event->accept();
}

void HexView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QAbstractScrollArea::mouseDoubleClickEvent(event);
    const HexLayout::Hit hit = hitAt(event->position().toPoint());
    if (hit.area == HexLayout::Area::None) return;
    moveCursorTo(hit.offset, false, false);
    selectStructureAtCursor();
}

void HexView::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ControlModifier) return QAbstractScrollArea::wheelEvent(event);
    double rows = 0;
    if (!event->pixelDelta().isNull())
        rows = -double(event->pixelDelta().y()) / layout_.lineHeight();
    else
        rows = -double(event->angleDelta().y()) / 120.0 * QApplication::wheelScrollLines();
    if (event->angleDelta().y() == 0 && event->pixelDelta().y() == 0) {
        return QAbstractScrollArea::wheelEvent(event);  // horizontal wheel
    }
    rows += wheelRemainder_;
    const auto whole = std::int64_t(rows);
    wheelRemainder_ = rows - double(whole);
    if (whole < 0)
        setTopRow(topRow_ > std::uint64_t(-whole) ? topRow_ - std::uint64_t(-whole) : 0);
    else if (whole > 0)
        setTopRow(topRow_ + std::uint64_t(whole));
    event->accept();
}

void HexView::contextMenuEvent(QContextMenuEvent* event) {
    const bool hasSelection = selLength_ > 0;
    copyHexAction_->setEnabled(hasSelection);
    copyCArrayAction_->setEnabled(hasSelection);
    copyTextAction_->setEnabled(hasSelection);
    selectStructureAction_->setEnabled(innermostRangeAt(cursor_) >= 0);
    findNextAction_->setEnabled(!findPattern_.isEmpty());
    findPreviousAction_->setEnabled(!findPattern_.isEmpty());
    QMenu menu(this);
    menu.addAction(copyHexAction_);
    menu.addAction(copyCArrayAction_);
    menu.addAction(copyTextAction_);
    menu.addSeparator();
    menu.addAction(selectAllAction_);
    menu.addAction(selectStructureAction_);
    menu.addSeparator();
    menu.addAction(goToAction_);
    menu.addAction(findAction_);
    menu.addAction(findNextAction_);
    menu.addAction(findPreviousAction_);
    menu.exec(event->globalPos());
    for (QAction* a : {copyHexAction_, copyCArrayAction_, copyTextAction_, selectStructureAction_,
                       findNextAction_, findPreviousAction_})
        a->setEnabled(true);
}

// --- Tooltip ---------------------------------------------------------------------------------

QString HexView::toolTipAt(std::uint64_t offset) const {
    if (offset >= size_) return {};
    QString html;
    const int index = innermostRangeAt(offset);
    std::uint64_t valueAt = offset;
    std::uint64_t fieldSize = 0;
    if (index >= 0) {
        const auto& r = map_->ranges()[index];
        html +=
            QStringLiteral("<b>%1</b><br>")
                .arg(QString::fromUtf8(r.path.data(), qsizetype(r.path.size())).toHtmlEscaped());
        html += tr("%1 · offset 0x%2 (%3) · %4 byte(s)")
                    .arg(QString::fromLatin1(rangeKindName(r.kind)), hexOffset(r.offset, 1))
                    .arg(r.offset)
                    .arg(r.length);
        html += QStringLiteral("<br>");
        if (r.kind == RangeKind::Field &&
            (r.length == 1 || r.length == 2 || r.length == 4 || r.length == 8)) {
            valueAt = r.offset;
            fieldSize = r.length;
        }
    }
    html += tr("Byte 0x%1 (%2) = 0x%3")
                .arg(hexOffset(offset, 1))
                .arg(offset)
                .arg(hexOffset(data_[offset], 2));
    const std::span<const std::uint8_t> window(
        data_ + valueAt, std::size_t(std::min<std::uint64_t>(8, size_ - valueAt)));
    QStringList types;
    switch (fieldSize) {
        case 1:
            types = {QStringLiteral("u8"), QStringLiteral("i8")};
            break;
        case 2:
            types = {QStringLiteral("u16"), QStringLiteral("i16"), QStringLiteral("f16")};
            break;
        case 4:
            types = {QStringLiteral("u32"), QStringLiteral("i32"), QStringLiteral("f32"),
                     QStringLiteral("rbx f32"), QStringLiteral("zigzag i32")};
            break;
        case 8:
            types = {QStringLiteral("u64"), QStringLiteral("i64"), QStringLiteral("f64")};
            break;
        default:
            types = {QStringLiteral("u8"), QStringLiteral("u16"), QStringLiteral("u32"),
                     QStringLiteral("i32"), QStringLiteral("f32")};
    }
    html += QStringLiteral("<table cellspacing='0' cellpadding='1' style='margin-top:4px'>");
    const QString order = tipOrder_ == ByteOrder::Little ? tr("LE") : tr("BE");
    for (const QString& type : types) {
        const QString value =
            QString::fromStdString(inspect::inspectValue(window, tipOrder_, type.toStdString()));
        if (value.isEmpty()) continue;
        html +=
            QStringLiteral("<tr><td>%1 %2&nbsp;&nbsp;</td><td><tt>%3</tt></td></tr>")
                .arg(type,
                     type == QLatin1String("u8") || type == QLatin1String("i8") ? QString() : order,
                     value.toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    return html;
}

// --- Copy, go to, find -----------------------------------------------------------------------

void HexView::copyToClipboard(const QString& text, const char* what) {
    QApplication::clipboard()->setText(text);
    emit statusMessage(tr("Copied %1 byte(s) as %2").arg(selLength_).arg(tr(what)));
}

void HexView::copyHex() {
    if (!selLength_) return;
    if (selLength_ > kMaxCopyBytes) {
        emit statusMessage(
            tr("Selection too large to copy as text (limit %1 MiB)").arg(kMaxCopyBytes >> 20));
        return;
    }
    copyToClipboard(formatHex(selectedBytes()), "hex");
}

void HexView::copyCArray() {
    if (!selLength_) return;
    if (selLength_ > kMaxCopyBytes) {
        emit statusMessage(
            tr("Selection too large to copy as text (limit %1 MiB)").arg(kMaxCopyBytes >> 20));
        return;
    }
    copyToClipboard(formatCArray(selectedBytes()), "C array");
}

void HexView::copyText() {
    if (!selLength_) return;
    if (selLength_ > kMaxCopyBytes) {
        emit statusMessage(
            tr("Selection too large to copy as text (limit %1 MiB)").arg(kMaxCopyBytes >> 20));
        return;
    }
    copyToClipboard(formatText(selectedBytes()), "text");
}

void HexView::showGoToDialog() {
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Go to Offset"));
    auto* form = new QFormLayout(&dialog);
    auto* edit = new QLineEdit(&dialog);
    edit->setPlaceholderText(tr("0x1A4, 1A4h or 420"));
    edit->setText(QStringLiteral("0x") + hexOffset(cursor_, 1));
    edit->selectAll();
    auto* base = new QComboBox(&dialog);
    base->addItems({tr("Hexadecimal"), tr("Decimal")});
    form->addRow(tr("Offset:"), edit);
    form->addRow(tr("Plain numbers are:"), base);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted) return;
    const auto offset = parseOffset(edit->text(), base->currentIndex() == 0);
    if (!offset) {
        emit statusMessage(tr("Not an offset: %1").arg(edit->text()));
        return;
    }
    goToOffset(*offset);
}

void HexView::showFindDialog() {
    if (isSignalConnected(QMetaMethod::fromSignal(&HexView::findRequested))) {
        emit findRequested();
        return;
    }
    bool ok = false;
    const QString text =
        QInputDialog::getText(this, tr("Find"), tr("Hex bytes (de ad be ef) or \"text\":"),
                              QLineEdit::Normal, QString(), &ok);
    if (!ok || text.isEmpty()) return;
    QByteArray pattern;
    if (text.size() >= 2 && text.startsWith(u'"') && text.endsWith(u'"')) {
        pattern = text.mid(1, text.size() - 2).toUtf8();
    } else if (auto hex = parseHexPattern(text)) {
        pattern = *hex;
    } else {
        pattern = text.toUtf8();
    }
    find(pattern, true);
}

bool HexView::find(const QByteArray& pattern, bool forward) {
    findPattern_ = pattern;
    if (pattern.isEmpty() || !size_) return false;
    const std::uint64_t here = selLength_ ? selStart_ : cursor_;
    const std::uint64_t from = forward ? (selLength_ ? here + 1 : here) : here;
    const auto hit = findBytes(
        bytes(),
        {reinterpret_cast<const std::uint8_t*>(pattern.constData()), std::size_t(pattern.size())},
        from, forward);
    if (!hit) {
        emit statusMessage(tr("Not found"));
        return false;
    }
    const bool wrapped = forward ? *hit < from : *hit >= from;
    selectRange(*hit, std::uint64_t(pattern.size()));
    emit statusMessage(wrapped ? tr("Found at 0x%1 (wrapped)").arg(hexOffset(*hit, 1))
                               : tr("Found at 0x%1").arg(hexOffset(*hit, 1)));
    return true;
}

void HexView::findNext() {
    if (findPattern_.isEmpty()) return showFindDialog();
    find(findPattern_, true);
}

void HexView::findPrevious() {
    if (findPattern_.isEmpty()) return showFindDialog();
    find(findPattern_, false);
}

}  // namespace meshscope::shell
