// Capped decompression of untrusted payloads: zlib/gzip, LZ4 block, ZSTD frame. Every function
// checks the expected size against the context's decompression budget before allocating and
// fails through the context with the payload's file offset.
#pragma once

#include <cstdint>
#include <memory>

#include "io/decode_context.h"

namespace meshscope {

// zlib stream (78 xx) or gzip member (1f 8b); the output size is not known in advance, so it
// grows up to the budget. `offset` is the payload's file offset (for errors).
Bytes inflateZlib(DecodeContext& ctx, ByteSpan input, std::uint64_t offset);
Bytes inflateGzip(DecodeContext& ctx, ByteSpan input, std::uint64_t offset);

// LZ4 blocks and ZSTD frames whose decompressed size is known (the chunks of a binary model),
// inflated one after another into one buffer: it grows to the largest payload and is never
// cleared first, since a payload must fill exactly its expected size or fail. The span a call
// returns holds until the next call. The size is checked against the budget before the buffer
// grows.
class InflateBuffer {
public:
    ByteSpan lz4Block(DecodeContext& ctx, ByteSpan input, std::uint64_t expectedSize,
                      std::uint64_t offset);
    ByteSpan zstd(DecodeContext& ctx, ByteSpan input, std::uint64_t expectedSize,
                  std::uint64_t offset);

private:
    std::uint8_t* room(std::size_t size);
    std::unique_ptr<std::uint8_t[]> data_;
    std::size_t capacity_ = 0;
};

bool looksLikeZstd(ByteSpan input);  // 28 b5 2f fd
bool looksLikeGzip(ByteSpan input);  // 1f 8b
bool looksLikeZlib(ByteSpan input);  // 78 01/5e/9c/da and header checksum

}  // namespace meshscope
