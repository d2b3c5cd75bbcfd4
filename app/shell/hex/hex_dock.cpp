// The hex inspector dock: bar, hex view, data inspector and status line wired together.
#include "hex/hex_dock.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "document/asset_document.h"
#include "hex/data_inspector.h"
#include "hex/hex_view.h"
#include "meshscope/core/byte_map.h"

namespace meshscope::shell {

namespace {
QString hex(std::uint64_t v, int digits = 1) {
    return QString::number(v, 16).toUpper().rightJustified(digits, u'0');
}
}  // namespace

HexDock::HexDock(QWidget* parent) : QDockWidget(tr("Hex"), parent) {
    setObjectName(QStringLiteral("HexDock"));
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    // Bar: go to | find [hex/text] ◀ ▶ | bytes per row.
    auto* bar = new QWidget(body);
    auto* barLayout = new QHBoxLayout(bar);
    barLayout->setContentsMargins(6, 4, 6, 4);
    barLayout->setSpacing(4);
    goToEdit_ = new QLineEdit(bar);
    goToEdit_->setPlaceholderText(tr("Go to offset (0x1A4 or 420)"));
    goToEdit_->setClearButtonEnabled(true);
    goToEdit_->setMaximumWidth(220);
    goToEdit_->setToolTip(
        tr("Offset: 0x… or …h or any a–f digit is hexadecimal, plain digits "
           "are decimal. Ctrl+G opens the go-to dialog."));
    barLayout->addWidget(goToEdit_, 2);
    barLayout->addSpacing(8);
    findEdit_ = new QLineEdit(bar);
    findEdit_->setPlaceholderText(tr("Find (Ctrl+F)"));
    findEdit_->setClearButtonEnabled(true);
    findEdit_->setToolTip(tr("Enter: next, Shift+Enter: previous (F3 / Shift+F3 in the view)"));
    barLayout->addWidget(findEdit_, 3);
    findMode_ = new QComboBox(bar);
    findMode_->addItems({tr("Hex"), tr("Text")});
    findMode_->setToolTip(tr("Search for hex bytes (de ad be ef) or UTF-8 text"));
    barLayout->addWidget(findMode_);
    auto makeButton = [bar](QStyle::StandardPixmap icon, const QString& tip) {
        auto* b = new QToolButton(bar);
        b->setIcon(bar->style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setAutoRaise(true);
        return b;
    };
    auto* previous = makeButton(QStyle::SP_ArrowUp, tr("Find previous (Shift+F3)"));
    auto* next = makeButton(QStyle::SP_ArrowDown, tr("Find next (F3)"));
    barLayout->addWidget(previous);
    barLayout->addWidget(next);
    barLayout->addStretch(1);
    rowWidth_ = new QComboBox(bar);
    for (int n : {8, 16, 32}) rowWidth_->addItem(tr("%1 / row").arg(n), n);
    rowWidth_->setCurrentIndex(1);
    rowWidth_->setToolTip(tr("Bytes per row"));
    barLayout->addWidget(rowWidth_);
    layout->addWidget(bar);

    // View | inspector.
    splitter_ = new QSplitter(Qt::Horizontal, body);
    view_ = new HexView(splitter_);
    auto* side = new QWidget(splitter_);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->setSpacing(0);
    inspector_ = new DataInspector(side);
    sideLayout->addWidget(inspector_, 1);
    legend_ = new QLabel(side);
    legend_->setContentsMargins(8, 4, 8, 6);
    legend_->setWordWrap(true);
    sideLayout->addWidget(legend_);
    splitter_->addWidget(view_);
    splitter_->addWidget(side);
    splitter_->setStretchFactor(0, 1);
    splitter_->setStretchFactor(1, 0);
    splitter_->setCollapsible(0, false);
    splitter_->setSizes({view_->hexLayout().totalWidth() + 20, 250});
    layout->addWidget(splitter_, 1);

    // Status line: path under the cursor · selection · message.
    auto* status = new QWidget(body);
    auto* statusLayout = new QHBoxLayout(status);
    statusLayout->setContentsMargins(6, 2, 6, 2);
    pathLabel_ = new QLabel(status);
    pathLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pathLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    selectionLabel_ = new QLabel(status);
    messageLabel_ = new QLabel(status);
    QPalette dimPalette = messageLabel_->palette();
    dimPalette.setColor(QPalette::WindowText, dimPalette.color(QPalette::PlaceholderText));
    messageLabel_->setPalette(dimPalette);
    statusLayout->addWidget(pathLabel_, 1);
    statusLayout->addWidget(messageLabel_);
    statusLayout->addWidget(selectionLabel_);
    layout->addWidget(status);
    setWidget(body);

    connect(view_, &HexView::cursorMoved, this, &HexDock::updateCursorInfo);
    connect(view_, &HexView::cursorMoved, this, &HexDock::cursorMoved);
    connect(view_, &HexView::selectionChanged, this, &HexDock::updateSelectionInfo);
    connect(view_, &HexView::selectionChanged, this, &HexDock::selectionChanged);
    connect(view_, &HexView::statusMessage, this, &HexDock::showMessage);
    connect(view_, &HexView::findRequested, this, &HexDock::focusFind);
    connect(inspector_, &DataInspector::byteOrderChanged, this,
            [this](ByteOrder order) { view_->setToolTipByteOrder(order); });
    connect(goToEdit_, &QLineEdit::returnPressed, this, &HexDock::goTo);
    connect(findEdit_, &QLineEdit::returnPressed, this,
            [this] { runFind(!(QApplication::keyboardModifiers() & Qt::ShiftModifier)); });
    connect(next, &QToolButton::clicked, this, [this] { runFind(true); });
    connect(previous, &QToolButton::clicked, this, [this] { runFind(false); });
    connect(rowWidth_, &QComboBox::currentIndexChanged, this,
            [this] { view_->setBytesPerRow(rowWidth_->currentData().toInt()); });

    updateCursorInfo(0);
    updateSelectionInfo(0, 0);
    updateLegend();
}

void HexDock::updateLegend() {
    // The byte-map colours, as the view paints a range at depth 1.
    QString html;
    for (auto kind : {RangeKind::Header, RangeKind::Chunk, RangeKind::Array, RangeKind::Record,
                      RangeKind::Field, RangeKind::Payload, RangeKind::Padding}) {
        const QColor color = HexView::kindColor(kind, 2, true, palette());
        html += QStringLiteral(
                    "<span style='background-color:%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span>"
                    "&nbsp;%2&nbsp;&nbsp; ")
                    .arg(color.name(), QString::fromLatin1(rangeKindName(kind)));
    }
    legend_->setText(html);
}

void HexDock::changeEvent(QEvent* event) {
    QDockWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && legend_) updateLegend();
}

void HexDock::setDocument(AssetDocument* document) {
    if (document_) {
        disconnect(document_, nullptr, this, nullptr);
        disconnect(this, nullptr, document_, nullptr);
    }
    document_ = document;
    if (!document_) {
        setData({}, nullptr);
        return;
    }
    connect(document_, &AssetDocument::assetChanged, this, &HexDock::showDocument);
    connect(document_, &AssetDocument::selectionChanged, this,
            [this](int, quint64 offset, quint64 length) {
                if (length > 0) selectRange(offset, length);
            });
    connect(this, &HexDock::selectionChanged, document_, [this](quint64 offset, quint64 length) {
        if (length > 0) document_->selectBytes(offset, length);
    });
    // Moving the cursor outside the current selection selects the innermost node there (the tree
    // and properties follow); the bytes selected stay as they are.
    connect(this, &HexDock::cursorMoved, document_, [this](quint64 offset) {
        if (!document_->hasAsset()) return;
        const quint64 start = document_->selectionOffset();
        if (offset >= start && offset < start + document_->selectionLength()) return;
        const int node = document_->nodeAt(offset);
        if (node >= 0 && node != document_->selectedNode()) document_->selectBytes(offset, 0, node);
    });
    showDocument();
}

void HexDock::showDocument() {
    const QSignalBlocker quiet(this);  // the cursor reset is not a user's choice
    setData(document_->bytes(), document_->hasAsset() ? &document_->byteMap() : nullptr);
}

void HexDock::setData(const QByteArray& bytes, const meshscope::ByteMap* map) {
    view_->setByteMap(map);
    view_->setData(bytes);
    messageLabel_->clear();
    updateCursorInfo(view_->cursorOffset());
}

void HexDock::selectRange(quint64 offset, quint64 length) {
    // The echo of a selection made in the view: already shown, and re-centring would jump the
    // view under the user's mouse.
    if (length && view_->selectionLength() == length && view_->selectionOffset() == offset) return;
    // Programmatic: the view updates (inspector, status line follow), the dock stays silent.
    const QSignalBlocker blocker(this);
    view_->selectRange(offset, length);
}

void HexDock::setStructureRange(quint64 offset, quint64 length) {
    view_->setStructureRange(offset, length);
}

void HexDock::focusFind() {
    findEdit_->setFocus(Qt::ShortcutFocusReason);
    findEdit_->selectAll();
}

void HexDock::focusGoTo() {
    goToEdit_->setFocus(Qt::ShortcutFocusReason);
    goToEdit_->selectAll();
}

void HexDock::updateCursorInfo(quint64 offset) {
    const auto bytes = view_->bytes();
    if (offset >= bytes.size()) {
        inspector_->clear();
        pathLabel_->setText(bytes.empty() ? tr("No data") : QString());
        return;
    }
    inspector_->setBytes(offset, bytes.subspan(std::size_t(offset),
                                               std::min<std::size_t>(8, bytes.size() - offset)));
    QString text = QStringLiteral("<b>0x%1</b> (%2)").arg(hex(offset, 8)).arg(offset);
    const int index = view_->innermostRangeAt(offset);
    if (index >= 0) {
        const auto& r = view_->byteMap()->ranges()[index];
        text +=
            QStringLiteral("&nbsp;&nbsp;%1&nbsp;&nbsp;<span style='color:gray'>%2, 0x%3+%4</span>")
                .arg(QString::fromUtf8(r.path.data(), qsizetype(r.path.size())).toHtmlEscaped(),
                     QString::fromLatin1(rangeKindName(r.kind)), hex(r.offset))
                .arg(r.length);
    }
    pathLabel_->setText(text);
}

void HexDock::updateSelectionInfo(quint64 offset, quint64 length) {
    selectionLabel_->setText(length ? tr("Selected 0x%1–0x%2 (%3 bytes)")
                                          .arg(hex(offset), hex(offset + length - 1))
                                          .arg(length)
                                    : tr("%1 bytes").arg(view_->dataSize()));
}

void HexDock::runFind(bool forward) {
    const QString text = findEdit_->text();
    if (text.isEmpty()) return;
    QByteArray pattern;
    if (findMode_->currentIndex() == 0) {
        const auto parsed = parseHexPattern(text);
        if (!parsed) {
            showMessage(tr("Not hex bytes: %1 (switch to Text to search for it)").arg(text));
            return;
        }
        pattern = *parsed;
    } else {
        pattern = text.toUtf8();
    }
    view_->find(pattern, forward);
}

void HexDock::goTo() {
    const auto offset = parseOffset(goToEdit_->text(), false);
    if (!offset) {
        showMessage(tr("Not an offset: %1").arg(goToEdit_->text()));
        return;
    }
    if (view_->goToOffset(*offset)) view_->setFocus(Qt::OtherFocusReason);
}

void HexDock::showMessage(const QString& text) {
    messageLabel_->setText(text);
}

}  // namespace meshscope::shell
