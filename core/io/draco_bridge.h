// Draco decode bridge: turns an untrusted Draco mesh payload into plain per-point arrays, so no
// draco header leaks into the format decoders. Errors go through the DecodeContext with the
// payload's file offset (libdraco reports no positions of its own).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/decode_context.h"

namespace meshscope {

// One metadata entry as libdraco keeps it: a name and bytes (Draco stores no type: an int32 is 4
// bytes, a string its characters). Entries of sub-metadata are named "sub/name".
struct DracoMetadataEntry {
    std::string name;
    std::vector<std::uint8_t> value;
};

struct DracoAttribute {
    enum class Storage : std::uint8_t { Float, Byte };
    std::uint32_t uniqueId = 0;
    int dracoType = 0;      // draco::GeometryAttribute::Type (POSITION 0, NORMAL 1, GENERIC 4 ...)
    int dracoDataType = 0;  // draco::DataType
    int components = 0;
    Storage storage = Storage::Float;
    // Per point, in point order, one record of `stride` bytes whose first `components` values
    // are float32 (Float storage: floating-point and wide integer data) or the raw stored bytes
    // (Byte storage: 8-bit data, no normalisation). When libdraco's own buffer already has that
    // layout (identity point mapping, float32 or 8-bit data) `values` points into it, with no
    // copy; otherwise the values were converted into `converted`.
    ByteSpan values;
    std::size_t stride = 0;
    std::vector<std::uint8_t> converted;
    std::vector<DracoMetadataEntry> metadata;  // the attribute's own (Draco's name, ...)
};

// Metadata entries kept per geometry, its attributes' included; the rest are counted.
inline constexpr std::size_t kMaxDracoMetadataEntries = 4096;

struct DracoMeshData {
    bool pointCloud = false;  // a point cloud: no faces
    std::uint32_t pointCount = 0;
    std::uint64_t faceCount = 0;
    // The faces as libdraco stores them: 3 u32 point indices per face (12 bytes), not checked
    // against pointCount (the reader checks them while copying them out).
    ByteSpan faces;
    std::vector<DracoAttribute> attributes;
    std::vector<DracoMetadataEntry> metadata;  // the geometry's (file-wide) metadata
    std::size_t metadataLeftOut = 0;  // entries past kMaxDracoMetadataEntries, nested too deep
    const DracoAttribute* byUniqueId(std::uint32_t id) const;
    std::shared_ptr<const void> keep;  // the decoded draco geometry `values` and `faces` view
};

// Decodes a Draco triangle mesh. `offset` is the payload's file offset (for errors). The decoded
// size is charged against the file's decompression budget.
DracoMeshData decodeDracoMesh(DecodeContext& ctx, ByteSpan payload, std::uint64_t offset);
// The same, for a triangle mesh or a point cloud (DracoMeshData::pointCloud, no faces).
DracoMeshData decodeDracoGeometry(DecodeContext& ctx, ByteSpan payload, std::uint64_t offset);

// The 11-byte header every Draco stream starts with: "DRACO", the bitstream version (major,
// minor), the encoder type, the encoding method and the flags (u16, little-endian).
struct DracoHeader {
    static constexpr std::size_t kSize = 11;
    static constexpr std::uint16_t kMetadataFlag = 0x8000;  // metadata follows the header
    int major = 0, minor = 0;
    int encoderType = 0;  // 0 point cloud, 1 triangular mesh
    int method = 0;       // mesh: 0 sequential, 1 edgebreaker; point cloud: 0 sequential, 1 kd-tree
    std::uint16_t flags = 0;
    std::string version() const;       // "2.2"
    const char* geometryName() const;  // "point cloud", "triangular mesh" ("unknown" otherwise)
    const char* methodName() const;    // "sequential", "edgebreaker", "kd-tree" ("unknown")
    bool hasMetadata() const { return (flags & kMetadataFlag) != 0; }
};
// The header of `bytes`, when they start with "DRACO" and hold the whole header.
std::optional<DracoHeader> readDracoHeader(ByteSpan bytes);
// The header at file offset `at` in the byte map (its five fields, under `node`) and its values as
// properties of `node`: dracoVersion, geometry, encoding, flags, metadata.
void describeDracoHeader(DecodeContext& ctx, std::uint64_t at, const DracoHeader& header, int node);

}  // namespace meshscope
