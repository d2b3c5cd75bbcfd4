// The integer and float transformations of the Roblox binary model format (roblox-binary-model.txt
// "Int32", "Float32"), public so that tools beside the decoder (the hex inspector's data values)
// read the bytes exactly as the decoder does.
#pragma once

#include <bit>
#include <cstdint>

namespace meshscope::rbx {

// Zigzag ("transformed") integers: (n >> 1) ^ -(n & 1); 3 → -2, 4 → 2.
inline std::int32_t unzigzag32(std::uint32_t v) {
    return std::int32_t((v >> 1) ^ (0u - (v & 1)));
}
inline std::int64_t unzigzag64(std::uint64_t v) {
    return std::int64_t((v >> 1) ^ (0ull - (v & 1)));
}
inline std::uint32_t zigzag32(std::int32_t v) {
    return (std::uint32_t(v) << 1) ^ std::uint32_t(v >> 31);
}
inline std::uint64_t zigzag64(std::int64_t v) {
    return (std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63);
}

// Roblox floats keep the sign in the lowest bit: eeeeeeee mmm...m s (the IEEE bits rotated left
// by one: 1.0f is stored 7f 00 00 00 big-endian, -1.0f 7f 00 00 01).
inline float robloxFloat(std::uint32_t bits) {
    return std::bit_cast<float>(std::rotr(bits, 1));
}
inline std::uint32_t robloxFloatBits(float f) {
    return std::rotl(std::bit_cast<std::uint32_t>(f), 1);
}

}  // namespace meshscope::rbx
