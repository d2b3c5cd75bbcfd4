// The data inspector's table widget (the values come from meshscope_inspect).
#include "hex/data_inspector.h"

#include <QButtonGroup>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QRadioButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace meshscope::shell {

namespace {
QString qstring(std::string_view text) {
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}
}  // namespace

DataInspector::DataInspector(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);

    auto* top = new QHBoxLayout;
    title_ = new QLabel(tr("No cursor"), this);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    top->addWidget(title_, 1);
    auto* little = new QRadioButton(tr("LE"), this);
    auto* big = new QRadioButton(tr("BE"), this);
    little->setToolTip(tr("Little-endian"));
    big->setToolTip(tr("Big-endian"));
    little->setChecked(true);
    orderGroup_ = new QButtonGroup(this);
    orderGroup_->addButton(little, int(ByteOrder::Little));
    orderGroup_->addButton(big, int(ByteOrder::Big));
    top->addWidget(little);
    top->addWidget(big);
    layout->addLayout(top);
    connect(orderGroup_, &QButtonGroup::idClicked, this,
            [this](int id) { setByteOrder(ByteOrder(id)); });

    const auto types = inspect::valueTypes();
    table_ = new QTableWidget(int(types.size()), 2, this);
    table_->setHorizontalHeaderLabels({tr("Type"), tr("Value")});
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 4);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->setShowGrid(false);
    table_->setWordWrap(false);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (int row = 0; row < int(types.size()); ++row) {
        auto* type = new QTableWidgetItem(qstring(types[row].name));
        type->setToolTip(qstring(types[row].hint));
        auto* value = new QTableWidgetItem;
        value->setFont(mono);
        table_->setItem(row, 0, type);
        table_->setItem(row, 1, value);
    }
    layout->addWidget(table_, 1);
    refresh();
}

void DataInspector::setBytes(quint64 offset, std::span<const std::uint8_t> bytes) {
    offset_ = offset;
    byteCount_ = int(std::min<std::size_t>(bytes.size(), sizeof bytes_));
    std::copy_n(bytes.begin(), byteCount_, bytes_);
    refresh();
}

void DataInspector::clear() {
    byteCount_ = -1;
    refresh();
}

void DataInspector::setByteOrder(ByteOrder order) {
    if (order == order_) return;
    order_ = order;
    if (auto* b = orderGroup_->button(int(order))) b->setChecked(true);
    refresh();
    emit byteOrderChanged(order);
}

QString DataInspector::valueText(const QString& type) const {
    for (int row = 0; row < table_->rowCount(); ++row) {
        if (table_->item(row, 0)->text() == type) return table_->item(row, 1)->text();
    }
    return {};
}

void DataInspector::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) refresh();
}

void DataInspector::refresh() {
    if (byteCount_ < 0) {
        title_->setText(tr("No cursor"));
        for (int row = 0; row < table_->rowCount(); ++row) table_->item(row, 1)->setText({});
        return;
    }
    title_->setText(
        tr("At 0x%1").arg(QString::number(offset_, 16).toUpper().rightJustified(8, u'0')));
    const auto values = inspect::inspectBytes({bytes_, std::size_t(byteCount_)}, order_);
    for (int row = 0; row < int(values.size()); ++row) {
        auto* item = table_->item(row, 1);
        item->setText(values[row].available() ? qstring(values[row].text) : QStringLiteral("—"));
        if (values[row].available())
            item->setData(Qt::ForegroundRole, QVariant());
        else
            item->setForeground(palette().placeholderText());
    }
}

}  // namespace meshscope::shell
