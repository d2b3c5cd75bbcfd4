// Data inspector decoding: integers, IEEE floats, Roblox floats and zigzag integers.
#include "meshscope/inspect/data_values.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "meshscope/core/roblox_values.h"

namespace meshscope::inspect {

std::uint64_t readUnsigned(std::span<const std::uint8_t> bytes, int size, ByteOrder order) {
    if (size < 1 || size > 8 || bytes.size() < std::size_t(size)) return 0;
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

namespace {

// Shortest text that reads back as the same float/double.
template <typename T>
std::string floatText(T v) {
    char buffer[64];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
    if (ec != std::errc()) return std::to_string(double(v));
    return std::string(buffer, end);
}

std::string printfText(const char* format, double v) {
    char buffer[64];
    const int n = std::snprintf(buffer, sizeof buffer, format, v);
    return n > 0 ? std::string(buffer, std::size_t(n)) : std::string();
}

std::string binaryText(std::uint64_t v) {
    std::string out;
    for (int bit = 7; bit >= 0; --bit) out += (v >> bit) & 1 ? '1' : '0';
    return out;
}

constexpr ValueType kTypes[] = {
    {"u8", 1, ""},
    {"i8", 1, ""},
    {"u16", 2, ""},
    {"i16", 2, ""},
    {"u32", 4, ""},
    {"i32", 4, ""},
    {"u64", 8, ""},
    {"i64", 8, ""},
    {"f16", 2, "IEEE 754 half precision"},
    {"f32", 4, ""},
    {"f64", 8, ""},
    {"rbx f32", 4,
     "Roblox binary model float: IEEE bits rotated left by one (sign in the lowest bit)"},
    {"zigzag i32", 4, "Zigzag integer (Roblox Int32): (n >> 1) ^ -(n & 1)"},
    {"zigzag i64", 8, "Zigzag integer (Roblox Int64): (n >> 1) ^ -(n & 1)"},
    {"binary", 1, ""},
};

std::string decode(const ValueType& t, std::span<const std::uint8_t> bytes, ByteOrder order) {
    if (int(bytes.size()) < t.size) return {};
    const std::uint64_t u = readUnsigned(bytes, t.size, order);
    const std::string_view name = t.name;
    if (name == "u8" || name == "u16" || name == "u32" || name == "u64") return std::to_string(u);
    if (name == "i8") return std::to_string(std::int8_t(u));
    if (name == "i16") return std::to_string(std::int16_t(u));
    if (name == "i32") return std::to_string(std::int32_t(u));
    if (name == "i64") return std::to_string(std::int64_t(u));
    if (name == "f16") return printfText("%.5g", double(halfToFloat(std::uint16_t(u))));
    if (name == "f32") return floatText(std::bit_cast<float>(std::uint32_t(u)));
    if (name == "f64") return floatText(std::bit_cast<double>(u));
    if (name == "rbx f32") return floatText(rbx::robloxFloat(std::uint32_t(u)));
    if (name == "zigzag i32") return std::to_string(rbx::unzigzag32(std::uint32_t(u)));
    if (name == "zigzag i64") return std::to_string(rbx::unzigzag64(u));
    if (name == "binary") return binaryText(u);
    return {};
}

}  // namespace

std::span<const ValueType> valueTypes() {
    return kTypes;
}

std::vector<InspectorValue> inspectBytes(std::span<const std::uint8_t> bytes, ByteOrder order) {
    std::vector<InspectorValue> out;
    out.reserve(std::size(kTypes));
    for (const auto& t : kTypes)
        out.push_back({std::string(t.name), t.size, decode(t, bytes, order)});
    return out;
}

std::string inspectValue(std::span<const std::uint8_t> bytes, ByteOrder order,
                         std::string_view type) {
    for (const auto& t : kTypes) {
        if (type == t.name) return decode(t, bytes, order);
    }
    return {};
}

}  // namespace meshscope::inspect
