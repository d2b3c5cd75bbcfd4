// Data inspector decoding and its table widget.
#include "data_inspector.h"

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
#include <bit>
#include <charconv>
#include <cmath>

namespace meshscope::shell {

std::uint64_t readUnsigned(std::span<const std::uint8_t> bytes, int size, ByteOrder order) {
    std::uint64_t v = 0;
    for (int i = 0; i < size; ++i) {
        const std::uint8_t b = order == ByteOrder::Little ? bytes[size - 1 - i] : bytes[i];
        v = (v << 8) | b;
    }
    return v;
}

float halfToFloat(std::uint16_t bits) {
    const bool negative = bits & 0x8000;
    const int exponent = (bits >> 10) & 0x1f;
    const int mantissa = bits & 0x3ff;
    float value = 0;
    if (exponent == 0)
        value = std::ldexp(float(mantissa), -24);  // zero and subnormals
    else if (exponent == 31)
        value = mantissa ? NAN : INFINITY;
    else
        value = std::ldexp(float(mantissa | 0x400), exponent - 25);
    return negative ? -value : value;
}

float robloxFloat(std::uint32_t stored) {
    return std::bit_cast<float>(std::rotr(stored, 1));
}

std::uint32_t robloxFloatBits(float value) {
    return std::rotl(std::bit_cast<std::uint32_t>(value), 1);
}

std::int32_t zigzagDecode32(std::uint32_t n) {
    return std::int32_t((n >> 1) ^ (~(n & 1) + 1));
}

std::int64_t zigzagDecode64(std::uint64_t n) {
    return std::int64_t((n >> 1) ^ (~(n & 1) + 1));
}

namespace {

// Shortest text that reads back as the same float/double.
template <typename T>
QString floatText(T v) {
    char buffer[64];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
    if (ec != std::errc()) return QString::number(double(v), 'g', 17);
    return QString::fromLatin1(buffer, int(end - buffer));
}

struct TypeSpec {
    const char* name;
    int size;
};
constexpr TypeSpec kTypes[] = {
    {"u8", 1},  {"i8", 1},      {"u16", 2},        {"i16", 2},        {"u32", 4},
    {"i32", 4}, {"u64", 8},     {"i64", 8},        {"f16", 2},        {"f32", 4},
    {"f64", 8}, {"rbx f32", 4}, {"zigzag i32", 4}, {"zigzag i64", 8}, {"binary", 1},
};

QString decode(const TypeSpec& t, std::span<const std::uint8_t> bytes, ByteOrder order) {
    if (int(bytes.size()) < t.size) return {};
    const std::uint64_t u = readUnsigned(bytes, t.size, order);
    const std::string_view name = t.name;
    if (name == "u8" || name == "u16" || name == "u32" || name == "u64") return QString::number(u);
    if (name == "i8") return QString::number(std::int8_t(u));
    if (name == "i16") return QString::number(std::int16_t(u));
    if (name == "i32") return QString::number(std::int32_t(u));
    if (name == "i64") return QString::number(qint64(u));
    if (name == "f16") return QString::number(double(halfToFloat(std::uint16_t(u))), 'g', 5);
    if (name == "f32") return floatText(std::bit_cast<float>(std::uint32_t(u)));
    if (name == "f64") return floatText(std::bit_cast<double>(u));
    if (name == "rbx f32") return floatText(robloxFloat(std::uint32_t(u)));
    if (name == "zigzag i32") return QString::number(zigzagDecode32(std::uint32_t(u)));
    if (name == "zigzag i64") return QString::number(qint64(zigzagDecode64(u)));
    if (name == "binary") return QString::number(u, 2).rightJustified(8, u'0');
    return {};
}

const char* typeHint(std::string_view name) {
    if (name == "rbx f32")
        return "Roblox binary model float: IEEE bits rotated left by one "
               "(sign in the lowest bit)";
    if (name == "zigzag i32") return "Zigzag integer (Roblox Int32): (n >> 1) ^ -(n & 1)";
    if (name == "zigzag i64") return "Zigzag integer (Roblox Int64): (n >> 1) ^ -(n & 1)";
    if (name == "f16") return "IEEE 754 half precision";
    return "";
}

}  // namespace

std::vector<InspectorValue> inspectBytes(std::span<const std::uint8_t> bytes, ByteOrder order) {
    std::vector<InspectorValue> out;
    out.reserve(std::size(kTypes));
    for (const auto& t : kTypes)
        out.push_back({QString::fromLatin1(t.name), t.size, decode(t, bytes, order)});
    return out;
}

QString inspectValue(std::span<const std::uint8_t> bytes, ByteOrder order, const QString& type) {
    for (const auto& t : kTypes) {
        if (type == QLatin1String(t.name)) return decode(t, bytes, order);
    }
    return {};
}

// --- Widget ----------------------------------------------------------------------------------

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

    table_ = new QTableWidget(int(std::size(kTypes)), 2, this);
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
    for (int row = 0; row < int(std::size(kTypes)); ++row) {
        auto* type = new QTableWidgetItem(QString::fromLatin1(kTypes[row].name));
        type->setToolTip(tr(typeHint(kTypes[row].name)));
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
    const auto values = inspectBytes({bytes_, std::size_t(byteCount_)}, order_);
    for (int row = 0; row < int(values.size()); ++row) {
        auto* item = table_->item(row, 1);
        item->setText(values[row].available() ? values[row].text : QStringLiteral("—"));
        if (values[row].available())
            item->setData(Qt::ForegroundRole, QVariant());
        else
            item->setForeground(palette().placeholderText());
    }
}

}  // namespace meshscope::shell
