// Data inspector values (meshscope_inspect, no Qt) against hand-built byte strings whose values are
// known independently (IEEE 754 encodings, the Roblox binary model spec's worked examples, the
// zigzag definition).
#include "meshscope/inspect/data_values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "meshscope/core/roblox_values.h"

using namespace meshscope::inspect;
namespace rbx = meshscope::rbx;

namespace {
std::string value(const std::vector<std::uint8_t>& bytes, ByteOrder order, const char* type) {
    return inspectValue(bytes, order, type);
}
}  // namespace

TEST(DataValues, IntegersBothOrders) {
    const std::vector<std::uint8_t> b = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x88};
    EXPECT_EQ(readUnsigned(b, 2, ByteOrder::Little), 0x0201u);
    EXPECT_EQ(readUnsigned(b, 2, ByteOrder::Big), 0x0102u);
    EXPECT_EQ(readUnsigned(b, 4, ByteOrder::Little), 0x04030201u);
    EXPECT_EQ(readUnsigned(b, 8, ByteOrder::Big), 0x0102030405060788ull);
    EXPECT_EQ(value(b, ByteOrder::Little, "u8"), "1");
    EXPECT_EQ(value(b, ByteOrder::Little, "u16"), "513");
    EXPECT_EQ(value(b, ByteOrder::Big, "u16"), "258");
    EXPECT_EQ(value(b, ByteOrder::Little, "u32"), "67305985");
    EXPECT_EQ(value(b, ByteOrder::Little, "u64"), "9801809732607083009");  // 0x8807060504030201
    EXPECT_EQ(value(b, ByteOrder::Little, "i64"), "-8644934341102468607");
    const std::vector<std::uint8_t> minusTwo = {0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    EXPECT_EQ(value(minusTwo, ByteOrder::Little, "i8"), "-2");
    EXPECT_EQ(value(minusTwo, ByteOrder::Little, "i16"), "-2");
    EXPECT_EQ(value(minusTwo, ByteOrder::Little, "i32"), "-2");
    EXPECT_EQ(value(minusTwo, ByteOrder::Little, "i64"), "-2");
    EXPECT_EQ(value(minusTwo, ByteOrder::Big, "i16"), "-257");  // 0xfeff
    EXPECT_EQ(value(minusTwo, ByteOrder::Little, "u8"), "254");
    EXPECT_EQ(value(minusTwo, ByteOrder::Little, "binary"), "11111110");
}

TEST(DataValues, IeeeFloats) {
    // 1.0f = 0x3f800000: little-endian bytes 00 00 80 3f.
    EXPECT_EQ(value({0x00, 0x00, 0x80, 0x3f}, ByteOrder::Little, "f32"), "1");
    EXPECT_EQ(value({0x3f, 0x80, 0x00, 0x00}, ByteOrder::Big, "f32"), "1");
    // -2.5 = 0xc0200000.
    EXPECT_EQ(value({0x00, 0x00, 0x20, 0xc0}, ByteOrder::Little, "f32"), "-2.5");
    // 0.1 as a double = 0x3fb999999999999a.
    EXPECT_EQ(value({0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xb9, 0x3f}, ByteOrder::Little, "f64"),
              "0.1");
    // Half: 1.0 = 0x3c00, -2 = 0xc000, 65504 = 0x7bff (max), 2^-24 = 0x0001 (min subnormal).
    EXPECT_EQ(halfToFloat(0x3c00), 1.0f);
    EXPECT_EQ(halfToFloat(0xc000), -2.0f);
    EXPECT_EQ(halfToFloat(0x7bff), 65504.0f);
    EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
    EXPECT_TRUE(std::isinf(halfToFloat(0x7c00)));
    EXPECT_TRUE(std::isnan(halfToFloat(0x7e00)));
    EXPECT_EQ(value({0x00, 0x3c}, ByteOrder::Little, "f16"), "1");
}

TEST(DataValues, RobloxFloat) {
    // roblox-binary-model.txt, Vector3: X values 1 and -1 are stored (after de-interleaving) as
    // 7f 00 00 00 and 7f 00 00 01 big-endian.
    EXPECT_EQ(rbx::robloxFloat(0x7f000000u), 1.0f);
    EXPECT_EQ(rbx::robloxFloat(0x7f000001u), -1.0f);
    EXPECT_EQ(value({0x7f, 0x00, 0x00, 0x00}, ByteOrder::Big, "rbx f32"), "1");
    EXPECT_EQ(value({0x7f, 0x00, 0x00, 0x01}, ByteOrder::Big, "rbx f32"), "-1");
    // Y = 2 and -2: 80 00 00 00 / 80 00 00 01 (the second array of that example).
    EXPECT_EQ(rbx::robloxFloat(0x80000000u), 2.0f);
    EXPECT_EQ(rbx::robloxFloat(0x80000001u), -2.0f);
    // UDim2 example {0.75, -30, -1.5, 60}: X.Scale 7e 80 00 00, Y.Scale 7f 80 00 01.
    EXPECT_EQ(value({0x7e, 0x80, 0x00, 0x00}, ByteOrder::Big, "rbx f32"), "0.75");
    EXPECT_EQ(value({0x7f, 0x80, 0x00, 0x01}, ByteOrder::Big, "rbx f32"), "-1.5");
    // Encode/decode round trip: (bits << 1) | (bits >> 31).
    EXPECT_EQ(rbx::robloxFloatBits(1.0f), 0x7f000000u);
    EXPECT_EQ(rbx::robloxFloat(rbx::robloxFloatBits(-123.25f)), -123.25f);
}

TEST(DataValues, Zigzag) {
    EXPECT_EQ(rbx::unzigzag32(0), 0);
    EXPECT_EQ(rbx::unzigzag32(1), -1);
    EXPECT_EQ(rbx::unzigzag32(2), 1);
    EXPECT_EQ(rbx::unzigzag32(3), -2);
    EXPECT_EQ(rbx::unzigzag32(4), 2);
    EXPECT_EQ(rbx::unzigzag32(0xffffffffu), std::numeric_limits<std::int32_t>::min());
    EXPECT_EQ(rbx::unzigzag32(0xfffffffeu), std::numeric_limits<std::int32_t>::max());
    EXPECT_EQ(rbx::unzigzag64(3), -2);
    EXPECT_EQ(rbx::unzigzag64(0xffffffffffffffffull), std::numeric_limits<std::int64_t>::min());
    // roblox-binary-model.txt, UDim: offsets 2 and 4 are stored as 00 00 00 04 / 00 00 00 08.
    EXPECT_EQ(value({0x00, 0x00, 0x00, 0x04}, ByteOrder::Big, "zigzag i32"), "2");
    EXPECT_EQ(value({0x00, 0x00, 0x00, 0x08}, ByteOrder::Big, "zigzag i32"), "4");
    // UDim2 example: X.Offset -30 is 00 00 00 3b, Y.Offset 60 is 00 00 00 78.
    EXPECT_EQ(value({0x00, 0x00, 0x00, 0x3b}, ByteOrder::Big, "zigzag i32"), "-30");
    EXPECT_EQ(value({0x00, 0x00, 0x00, 0x78}, ByteOrder::Big, "zigzag i32"), "60");
}

TEST(DataValues, ShortInputLeavesWiderTypesEmpty) {
    const auto values = inspectBytes(std::vector<std::uint8_t>{0x41, 0x42}, ByteOrder::Little);
    ASSERT_FALSE(values.empty());
    for (const auto& v : values) {
        EXPECT_EQ(v.available(), v.size <= 2) << v.type;
    }
    EXPECT_EQ(value({0x41}, ByteOrder::Little, "u32"), "");
    EXPECT_EQ(value({0x41}, ByteOrder::Little, "no such type"), "");
}

TEST(DataValues, ReadUnsignedNeverReadsPastTheBytesGiven) {
    // Exact-size buffers so that AddressSanitizer sees any read past the end.
    const std::vector<std::uint8_t> three = {0x01, 0x02, 0x03};
    EXPECT_EQ(readUnsigned(three, 3, ByteOrder::Little), 0x030201u);
    EXPECT_EQ(readUnsigned(three, 4, ByteOrder::Little), 0u);
    EXPECT_EQ(readUnsigned(three, 0, ByteOrder::Big), 0u);
    EXPECT_EQ(readUnsigned(three, 9, ByteOrder::Big), 0u);
    for (std::size_t n = 0; n <= 8; ++n) {
        const std::vector<std::uint8_t> bytes(n, 0xff);
        for (const auto& v : inspectBytes(bytes, ByteOrder::Big))
            EXPECT_EQ(v.available(), v.size <= int(n)) << v.type << " with " << n << " bytes";
    }
}

TEST(DataValues, EveryTypeIsListedOnceWithItsSize) {
    const auto types = valueTypes();
    ASSERT_EQ(types.size(), inspectBytes({}, ByteOrder::Little).size());
    for (std::size_t i = 0; i < types.size(); ++i) {
        EXPECT_GE(types[i].size, 1);
        EXPECT_LE(types[i].size, 8);
        for (std::size_t j = i + 1; j < types.size(); ++j) EXPECT_NE(types[i].name, types[j].name);
    }
}
