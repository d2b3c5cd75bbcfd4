// The data inspector: pure functions that decode the bytes at the hex cursor as integers,
// IEEE floats, the Roblox rotated-sign float and zigzag integers in either byte order, and a
// small table widget that shows them with a little-/big-endian toggle.
#pragma once

#include <QString>
#include <QWidget>
#include <cstdint>
#include <span>
#include <vector>

class QButtonGroup;
class QLabel;
class QTableWidget;

namespace meshscope::shell {

enum class ByteOrder { Little, Big };

// The first `size` (1..8) bytes as an unsigned integer; requires bytes.size() >= size.
std::uint64_t readUnsigned(std::span<const std::uint8_t> bytes, int size, ByteOrder order);
// IEEE 754 binary16 → float (subnormals, infinities and NaN included).
float halfToFloat(std::uint16_t bits);
// The Roblox binary model float: the IEEE bits rotated left by one so the sign is the lowest bit,
// stored = (bits << 1) | (bits >> 31) (roblox-binary-model.txt "Float32": 1.0f = 7f 00 00 00
// big-endian, -1.0f = 7f 00 00 01, see the Vector3 example there).
float robloxFloat(std::uint32_t stored);
std::uint32_t robloxFloatBits(float value);
// Zigzag integers (Roblox "transformed" Int32/Int64): (n >> 1) ^ -(n & 1); 3 → -2, 4 → 2.
std::int32_t zigzagDecode32(std::uint32_t n);
std::int64_t zigzagDecode64(std::uint64_t n);

// One decoded value: its type name, the bytes it needs and its text ("" when fewer bytes remain).
struct InspectorValue {
    QString type;
    int size = 0;
    QString text;
    bool available() const { return !text.isEmpty(); }
};

// Every type the inspector shows, decoded from the bytes at the cursor (pass up to 8 bytes;
// types needing more than are given stay empty).
std::vector<InspectorValue> inspectBytes(std::span<const std::uint8_t> bytes, ByteOrder order);
// The decoded text of one type ("f32", "u16", "rbx f32" ...) or "" when unknown/unavailable.
QString inspectValue(std::span<const std::uint8_t> bytes, ByteOrder order, const QString& type);

// The widget: type | value table for the bytes at the cursor, with a byte-order toggle.
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
    void setByteOrder(meshscope::shell::ByteOrder order);

signals:
    void byteOrderChanged(meshscope::shell::ByteOrder order);

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
