// zlib compression helper for the decompression tests (the core only inflates).
#include <zlib.h>

#include <cstdint>
#include <vector>

std::vector<std::uint8_t> testCompressZlib(const std::vector<std::uint8_t>& in) {
    uLongf len = compressBound(in.size());
    std::vector<std::uint8_t> out(len);
    compress2(out.data(), &len, in.data(), in.size(), 9);
    out.resize(len);
    return out;
}
