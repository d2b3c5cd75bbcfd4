// Capped decompression (zlib/gzip through zlib, LZ4 block, ZSTD frame).
#include "io/decompress.h"

#include <lz4.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

namespace meshscope {

bool looksLikeZstd(ByteSpan in) {
    return in.size() >= 4 && in[0] == 0x28 && in[1] == 0xb5 && in[2] == 0x2f && in[3] == 0xfd;
}
bool looksLikeGzip(ByteSpan in) {
    return in.size() >= 2 && in[0] == 0x1f && in[1] == 0x8b;
}
bool looksLikeZlib(ByteSpan in) {
    return in.size() >= 2 && (in[0] & 0x0f) == 8 && (in[0] >> 4) <= 7 &&
           ((unsigned(in[0]) << 8) | in[1]) % 31 == 0;
}

namespace {

Bytes inflateWith(DecodeContext& ctx, ByteSpan input, std::uint64_t offset, int windowBits,
                  const char* what) {
    z_stream zs{};
    if (inflateInit2(&zs, windowBits) != Z_OK) ctx.fail(offset, "zlib", "zlib could not start");
    struct Guard {
        z_stream* z;
        ~Guard() { inflateEnd(z); }
    } guard{&zs};
    zs.next_in = const_cast<Bytef*>(input.data());
    zs.avail_in = static_cast<uInt>(std::min<std::size_t>(input.size(), UINT32_MAX));
    const std::uint64_t allowance = ctx.decompressionAllowance();
    Bytes out;
    std::size_t chunk = std::clamp<std::size_t>(input.size() * 4, 4096, 1 << 20);
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        ctx.checkCancel(offset);
        if (out.size() >= allowance) {
            ctx.chargeDecompressed(offset, out.size() + 1);  // throws with the budget message
        }
        const std::size_t grow = std::min<std::uint64_t>(chunk, allowance - out.size());
        const std::size_t old = out.size();
        out.resize(old + grow);
        zs.next_out = out.data() + old;
        zs.avail_out = static_cast<uInt>(grow);
        rc = inflate(&zs, Z_NO_FLUSH);
        out.resize(old + grow - zs.avail_out);
        if (rc == Z_STREAM_END) break;
        if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
            ctx.fail(offset, "truncated", std::string(what) + " stream ends before its end marker");
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            ctx.fail(offset, "zlib",
                     std::string(what) + " data is corrupt: " +
                         (zs.msg ? zs.msg : "inflate error " + std::to_string(rc)));
        }
        // At most 8 MiB per inflate call (a few milliseconds), so a cancel is seen promptly.
        chunk = std::min<std::size_t>(chunk * 2, 8 << 20);
    }
    ctx.chargeDecompressed(offset, out.size());
    return out;
}

void checkExpected(DecodeContext& ctx, std::uint64_t expected, std::uint64_t offset) {
    ctx.checkAllocation(offset, expected, 1, "decompressed size");
    if (expected > ctx.decompressionAllowance()) ctx.chargeDecompressed(offset, expected);
}

}  // namespace

Bytes inflateZlib(DecodeContext& ctx, ByteSpan input, std::uint64_t offset) {
    return inflateWith(ctx, input, offset, 15, "zlib");
}

Bytes inflateGzip(DecodeContext& ctx, ByteSpan input, std::uint64_t offset) {
    return inflateWith(ctx, input, offset, 16 + 15, "gzip");
}

std::uint8_t* InflateBuffer::room(std::size_t size) {
    if (size > capacity_ || !data_) {
        data_.reset();  // the old buffer goes before the new one comes
        capacity_ = std::max<std::size_t>(size, 1);
        data_.reset(new std::uint8_t[capacity_]);
    }
    return data_.get();
}

ByteSpan InflateBuffer::lz4Block(DecodeContext& ctx, ByteSpan input, std::uint64_t expectedSize,
                                 std::uint64_t offset) {
    checkExpected(ctx, expectedSize, offset);
    if (input.size() > INT32_MAX || expectedSize > INT32_MAX)
        ctx.fail(offset, "limit", "LZ4 block larger than 2 GiB");
    std::uint8_t* out = room(std::size_t(expectedSize));
    const int n =
        LZ4_decompress_safe(reinterpret_cast<const char*>(input.data()),
                            reinterpret_cast<char*>(out), int(input.size()), int(expectedSize));
    if (n < 0) ctx.fail(offset, "lz4", "LZ4 data is corrupt");
    if (std::uint64_t(n) != expectedSize) {
        ctx.fail(offset, "lz4",
                 "LZ4 block inflates to " + std::to_string(n) + " bytes, the header says " +
                     std::to_string(expectedSize));
    }
    ctx.chargeDecompressed(offset, expectedSize);
    return {out, std::size_t(expectedSize)};
}

ByteSpan InflateBuffer::zstd(DecodeContext& ctx, ByteSpan input, std::uint64_t expectedSize,
                             std::uint64_t offset) {
    checkExpected(ctx, expectedSize, offset);
    std::uint8_t* out = room(std::size_t(expectedSize));
    const std::size_t n = ZSTD_decompress(out, expectedSize, input.data(), input.size());
    if (ZSTD_isError(n))
        ctx.fail(offset, "zstd", std::string("ZSTD data is corrupt: ") + ZSTD_getErrorName(n));
    if (n != expectedSize) {
        ctx.fail(offset, "zstd",
                 "ZSTD frame inflates to " + std::to_string(n) + " bytes, the header says " +
                     std::to_string(expectedSize));
    }
    ctx.chargeDecompressed(offset, expectedSize);
    return {out, std::size_t(expectedSize)};
}

}  // namespace meshscope
