// The data inspector's values: the bytes at the hex cursor decoded as integers, IEEE floats, the
// Roblox rotated-sign float and zigzag integers in either byte order. Plain C++ (no Qt): the hex
// dock's table shows these strings; tested without a display and under the sanitizers.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace meshscope::inspect {

enum class ByteOrder { Little, Big };

// The first `size` (1..8) bytes as an unsigned integer; 0 when fewer than `size` bytes are given
// or `size` is outside 1..8.
std::uint64_t readUnsigned(std::span<const std::uint8_t> bytes, int size, ByteOrder order);
// IEEE 754 binary16 → float (subnormals, infinities and NaN included).
float halfToFloat(std::uint16_t bits);

// One type the inspector shows: its name ("u16", "rbx f32" ...), the bytes it needs and a hint.
struct ValueType {
    std::string_view name;
    int size = 0;
    std::string_view hint;  // "" when the name says it all
};
// Every type, in the order the inspector lists them.
std::span<const ValueType> valueTypes();

// One decoded value: its type name, the bytes it needs and its text ("" when fewer bytes remain).
struct InspectorValue {
    std::string type;
    int size = 0;
    std::string text;
    bool available() const { return !text.empty(); }
};

// Every type, decoded from the bytes at the cursor (pass up to 8 bytes; types needing more than
// are given stay empty). Roblox floats and zigzag integers use core's rbx:: transformations.
std::vector<InspectorValue> inspectBytes(std::span<const std::uint8_t> bytes, ByteOrder order);
// The decoded text of one type or "" when the type is unknown or needs more bytes.
std::string inspectValue(std::span<const std::uint8_t> bytes, ByteOrder order,
                         std::string_view type);

}  // namespace meshscope::inspect
