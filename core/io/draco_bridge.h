// Draco decode bridge: turns an untrusted Draco mesh payload into plain per-point arrays, so no
// draco header leaks into the format decoders. Errors go through the DecodeContext with the
// payload's file offset (libdraco reports no positions of its own).
#pragma once

#include <cstdint>
#include <vector>

#include "io/decode_context.h"

namespace meshscope {

struct DracoAttribute {
    enum class Storage : std::uint8_t { Float, Byte };
    std::uint32_t uniqueId = 0;
    int dracoType = 0;      // draco::GeometryAttribute::Type (POSITION 0, NORMAL 1, GENERIC 4 ...)
    int dracoDataType = 0;  // draco::DataType
    int components = 0;
    Storage storage = Storage::Float;
    // Per point (components values each), in point order: `floats` for floating-point and wide
    // integer data, `bytes` for 8-bit data (the raw stored bytes, no normalisation).
    std::vector<float> floats;
    std::vector<std::uint8_t> bytes;
};

struct DracoMeshData {
    std::uint32_t pointCount = 0;
    std::vector<std::uint32_t> indices;  // 3 per face, each < pointCount
    std::vector<DracoAttribute> attributes;
    const DracoAttribute* byUniqueId(std::uint32_t id) const;
};

// Decodes a Draco triangle mesh. `offset` is the payload's file offset (for errors). The decoded
// size is charged against the file's decompression budget.
DracoMeshData decodeDracoMesh(DecodeContext& ctx, ByteSpan payload, std::uint64_t offset);

}  // namespace meshscope
