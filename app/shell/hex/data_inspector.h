// The data inspector widget: a type | value table of the bytes at the hex cursor, with a
// little-/big-endian toggle. The decoding itself is meshscope_inspect's (no Qt).
#pragma once

#include <QWidget>
#include <cstdint>
#include <span>

#include "meshscope/inspect/data_values.h"

class QButtonGroup;
class QLabel;
class QTableWidget;

namespace meshscope::shell {

using inspect::ByteOrder;

class DataInspector : public QWidget {
    Q_OBJECT
public:
    explicit DataInspector(QWidget* parent = nullptr);

    // Shows the values of `bytes` (the up to 8 bytes starting at `offset`).
    void setBytes(quint64 offset, std::span<const std::uint8_t> bytes);
    void clear();
    ByteOrder byteOrder() const { return order_; }
    // Text currently shown for `type`, for tests and copy.
    QString valueText(const QString& type) const;

public slots:
    void setByteOrder(meshscope::inspect::ByteOrder order);

signals:
    void byteOrderChanged(meshscope::inspect::ByteOrder order);

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();

    QLabel* title_ = nullptr;
    QButtonGroup* orderGroup_ = nullptr;
    QTableWidget* table_ = nullptr;
    ByteOrder order_ = ByteOrder::Little;
    quint64 offset_ = 0;
    std::uint8_t bytes_[8] = {};
    int byteCount_ = -1;  // -1: nothing shown
};

}  // namespace meshscope::shell
