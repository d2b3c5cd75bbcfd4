// Draco decode bridge (see draco_bridge.h): libdraco's Decoder over a bounds-checked buffer; the
// attribute values are viewed in place when libdraco's buffer already has the layout the readers
// want (no copy), converted point by point otherwise.
#include "io/draco_bridge.h"

#include <draco/compression/decode.h>
#include <draco/compression/point_cloud/point_cloud_decoder.h>
#include <draco/core/decoder_buffer.h>
#include <draco/mesh/mesh.h>
#include <draco/metadata/geometry_metadata.h>
#include <draco/metadata/metadata_decoder.h>
#include <draco/point_cloud/point_cloud.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "meshscope/core/error_codes.h"

namespace meshscope {

const DracoAttribute* DracoMeshData::byUniqueId(std::uint32_t id) const {
    for (const auto& a : attributes)
        if (a.uniqueId == id) return &a;
    return nullptr;
}

namespace {

// Stored a byte a value: read as bytes (bools too: never loaded as a C++ bool, for which any
// byte but 0 or 1 is undefined).
bool isByteType(draco::DataType t) {
    return t == draco::DT_UINT8 || t == draco::DT_INT8 || t == draco::DT_BOOL;
}

// Appends the entries of `m` and of its sub-metadata (named "sub/name", depth first, at most
// `room` in all; the rest, and sub-metadata nested too deep, are counted in `leftOut`).
void collectMetadata(const draco::Metadata& m, const std::string& prefix,
                     std::vector<DracoMetadataEntry>& out, std::size_t& room,
                     std::size_t& leftOut) {
    // Walked with a stack of its own: sub-metadata nest as deep as the bytes say. Past
    // kMaxDepth levels they are counted, not walked (each level's names make a longer path).
    constexpr std::size_t kMaxDepth = 16;
    struct Level {
        const draco::Metadata* metadata;
        std::string path;
        std::size_t depth;
    };
    std::vector<Level> stack{{&m, prefix, 0}};
    while (!stack.empty()) {
        auto [at, path, depth] = std::move(stack.back());
        stack.pop_back();
        for (const auto& [name, entry] : at->entries()) {
            if (room == 0) {
                ++leftOut;
                continue;
            }
            --room;
            out.push_back({path + name, entry.data()});
        }
        const auto& subs = at->sub_metadatas();
        for (auto it = subs.rbegin(); it != subs.rend(); ++it) {
            if (!it->second) continue;
            if (depth + 1 > kMaxDepth)
                ++leftOut;
            else
                stack.push_back({it->second.get(), path + it->first + "/", depth + 1});
        }
    }
}

// libdraco sizes a point cloud's attribute buffers from the int32 point count that follows the
// header (and the metadata) before it reads a single value, and checks that count against
// nothing: one flipped bit asks for tens of gigabytes, and the process is killed. The count is
// read here first and held to the file's decompression budget (12 bytes a point at least: a
// float position) and the allocation cap. Meshes need no such check: libdraco bounds their
// counts by the bytes that follow (a byte flipped anywhere in a mesh stream fails cleanly).
void checkPointCount(DecodeContext& ctx, ByteSpan payload, std::uint64_t offset) {
    draco::DecoderBuffer buffer;
    buffer.Init(reinterpret_cast<const char*>(payload.data()), payload.size());
    draco::DracoHeader header;
    if (!draco::PointCloudDecoder::DecodeHeader(&buffer, &header).ok()) return;  // libdraco says
    buffer.set_bitstream_version(
        DRACO_BITSTREAM_VERSION(header.version_major, header.version_minor));
    if (header.flags & METADATA_FLAG_MASK) {
        draco::MetadataDecoder metadata;
        draco::GeometryMetadata geometry;
        if (!metadata.DecodeGeometryMetadata(&buffer, &geometry)) return;  // libdraco says
    }
    const std::uint64_t at = offset + std::uint64_t(buffer.decoded_size());
    std::int32_t points = 0;
    if (!buffer.Decode(&points)) return;  // libdraco says
    if (points < 0)
        ctx.fail(at, errc::kDraco, "negative Draco point count " + std::to_string(points));
    ctx.checkAllocation(at, std::uint64_t(points), 12, "Draco points");
    if (std::uint64_t(points) * 12 > ctx.decompressionAllowance())
        ctx.fail(at, errc::kLimit,
                 std::to_string(points) + " Draco points (12 bytes each at least) exceed the " +
                     std::to_string(ctx.decompressionAllowance()) +
                     " bytes this file may decode to");
}

DracoMeshData decode(DecodeContext& ctx, ByteSpan payload, std::uint64_t offset, bool pointClouds) {
    auto scope = ctx.scope("draco");
    if (payload.empty()) ctx.fail(offset, errc::kDraco, "the Draco payload is empty");

    draco::DecoderBuffer buffer;
    buffer.Init(reinterpret_cast<const char*>(payload.data()), payload.size());
    auto type = draco::Decoder::GetEncodedGeometryType(&buffer);
    if (!type.ok())
        ctx.fail(offset, errc::kDraco, "not a Draco stream: " + type.status().error_msg_string());
    const bool isMesh = type.value() == draco::TRIANGULAR_MESH;
    if (!isMesh && (!pointClouds || type.value() != draco::POINT_CLOUD))
        ctx.fail(offset, errc::kDraco,
                 type.value() == draco::POINT_CLOUD
                     ? "the Draco stream holds a point cloud, not a triangle mesh"
                     : "the Draco stream holds geometry of unknown type " +
                           std::to_string(int(type.value())));

    draco::Decoder decoder;
    std::unique_ptr<draco::PointCloud> geometry;
    draco::Mesh* mesh = nullptr;
    if (isMesh) {
        auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
        if (!decoded.ok())
            ctx.fail(offset, errc::kDraco,
                     "Draco decoding failed: " + decoded.status().error_msg_string());
        std::unique_ptr<draco::Mesh> m = std::move(decoded).value();
        mesh = m.get();
        geometry = std::move(m);
    } else {
        checkPointCount(ctx, payload, offset);
        auto decoded = decoder.DecodePointCloudFromBuffer(&buffer);
        if (!decoded.ok())
            ctx.fail(offset, errc::kDraco,
                     "Draco decoding failed: " + decoded.status().error_msg_string());
        geometry = std::move(decoded).value();
    }
    if (!geometry) ctx.fail(offset, errc::kDraco, "Draco decoding produced no geometry");

    DracoMeshData out;
    out.pointCloud = !isMesh;
    out.pointCount = geometry->num_points();
    const std::uint64_t faces = mesh ? mesh->num_faces() : 0;
    out.faceCount = faces;

    // Account for what the payload expanded into (points × every component + faces).
    std::uint64_t perPoint = 0;
    for (int i = 0; i < geometry->num_attributes(); ++i) {
        const draco::PointAttribute* a = geometry->attribute(i);
        if (a) perPoint += std::uint64_t(a->num_components()) * 4;
    }
    ctx.checkAllocation(offset, faces, 12, "Draco faces");
    ctx.checkAllocation(offset, out.pointCount, perPoint ? perPoint : 1, "Draco points");
    ctx.chargeDecompressed(offset, faces * 12 + std::uint64_t(out.pointCount) * perPoint);

    // Faces are a contiguous vector of std::array<PointIndex, 3>, PointIndex one u32.
    static_assert(sizeof(draco::Mesh::Face) == 12);
    if (mesh && faces)
        out.faces =
            ByteSpan(reinterpret_cast<const std::uint8_t*>(&mesh->face(draco::FaceIndex(0))),
                     std::size_t(faces) * 12);

    for (int i = 0; i < geometry->num_attributes(); ++i) {
        const draco::PointAttribute* a = geometry->attribute(i);
        if (!a) continue;
        auto attrScope = ctx.scope("attribute " + std::to_string(a->unique_id()));
        const int n = a->num_components();
        if (n <= 0 || n > 4)
            ctx.fail(offset, errc::kDraco, "attribute with " + std::to_string(n) + " components");
        DracoAttribute d;
        d.uniqueId = a->unique_id();
        d.dracoType = int(a->attribute_type());
        d.dracoDataType = int(a->data_type());
        d.components = n;
        d.storage = isByteType(a->data_type()) ? DracoAttribute::Storage::Byte
                                               : DracoAttribute::Storage::Float;
        const bool identity = a->is_mapping_identity();
        if (!identity && a->indices_map_size() < out.pointCount)
            ctx.fail(offset, errc::kDraco,
                     "attribute " + std::to_string(d.uniqueId) + " maps only " +
                         std::to_string(a->indices_map_size()) + " of " +
                         std::to_string(out.pointCount) + " points");
        const std::size_t valueSize = d.storage == DracoAttribute::Storage::Byte ? 1 : 4;
        const bool native = a->data_type() == draco::DT_FLOAT32 || isByteType(a->data_type());
        const draco::DataBuffer* buffer = a->buffer();
        const std::uint64_t stride = std::uint64_t(a->byte_stride());
        const std::uint64_t needed =
            std::uint64_t(a->byte_offset()) + stride * std::uint64_t(out.pointCount);
        if (identity && native && buffer && stride >= std::uint64_t(n) * valueSize &&
            a->size() >= out.pointCount && std::uint64_t(buffer->data_size()) >= needed) {
            // libdraco's buffer is already one record per point: it is read in place.
            d.stride = std::size_t(stride);
            if (out.pointCount)
                d.values = ByteSpan(a->GetAddress(draco::AttributeValueIndex(0)),
                                    std::size_t(stride) * out.pointCount);
        } else {
            d.stride = std::size_t(n) * valueSize;
            d.converted.resize(std::size_t(out.pointCount) * d.stride);
            bool ok = true;
            // Bools are copied byte by byte (as 0 or 1), within the attribute's buffer:
            // ConvertValue would load them as C++ bools (undefined for a byte of 239; fuzzing
            // found one).
            const bool bools = a->data_type() == draco::DT_BOOL;
            const std::uint64_t bufferSize = buffer ? std::uint64_t(buffer->data_size()) : 0;
            for (draco::PointIndex p(0); p < out.pointCount && ok; ++p) {
                std::uint8_t* dst = d.converted.data() + std::size_t(p.value()) * d.stride;
                if (bools) {
                    const std::uint64_t at = std::uint64_t(a->byte_offset()) +
                                             stride * std::uint64_t(a->mapped_index(p).value());
                    ok = buffer && stride >= std::uint64_t(n) && at <= bufferSize &&
                         bufferSize - at >= std::uint64_t(n);
                    for (int k = 0; ok && k < n; ++k) dst[k] = buffer->data()[at + k] != 0;
                } else if (d.storage == DracoAttribute::Storage::Byte)
                    ok = a->ConvertValue<std::uint8_t>(a->mapped_index(p), std::int8_t(n), dst);
                else {
                    float v[4];
                    ok = a->ConvertValue<float>(a->mapped_index(p), std::int8_t(n), v);
                    std::memcpy(dst, v, std::size_t(n) * 4);
                }
            }
            if (!ok)
                ctx.fail(offset, errc::kDraco,
                         "attribute " + std::to_string(d.uniqueId) + " values cannot be read");
            d.values = ByteSpan(d.converted.data(), d.converted.size());
        }
        out.attributes.push_back(std::move(d));
    }
    if (const draco::GeometryMetadata* meta = geometry->GetMetadata()) {
        std::size_t room = kMaxDracoMetadataEntries;
        collectMetadata(*meta, "", out.metadata, room, out.metadataLeftOut);
        for (const auto& am : meta->attribute_metadatas()) {
            if (!am) continue;
            DracoAttribute* target = nullptr;
            for (DracoAttribute& d : out.attributes)
                if (d.uniqueId == am->att_unique_id()) target = &d;
            std::vector<DracoMetadataEntry> none;
            collectMetadata(*am, "", target ? target->metadata : none, room, out.metadataLeftOut);
        }
    }
    out.keep = std::shared_ptr<const draco::PointCloud>(geometry.release());
    return out;
}

}  // namespace

DracoMeshData decodeDracoMesh(DecodeContext& ctx, ByteSpan payload, std::uint64_t offset) {
    return decode(ctx, payload, offset, false);
}

DracoMeshData decodeDracoGeometry(DecodeContext& ctx, ByteSpan payload, std::uint64_t offset) {
    return decode(ctx, payload, offset, true);
}

std::string DracoHeader::version() const {
    return std::to_string(major) + "." + std::to_string(minor);
}

const char* DracoHeader::geometryName() const {
    return encoderType == 0 ? "point cloud" : encoderType == 1 ? "triangular mesh" : "unknown";
}

const char* DracoHeader::methodName() const {
    if (method == 0) return "sequential";
    if (method == 1) return encoderType == 0 ? "kd-tree" : "edgebreaker";
    return "unknown";
}

std::optional<DracoHeader> readDracoHeader(ByteSpan bytes) {
    if (bytes.size() < DracoHeader::kSize || std::memcmp(bytes.data(), "DRACO", 5) != 0)
        return std::nullopt;
    DracoHeader h;
    h.major = bytes[5];
    h.minor = bytes[6];
    h.encoderType = bytes[7];
    h.method = bytes[8];
    h.flags = std::uint16_t(bytes[9] | (bytes[10] << 8));
    return h;
}

void describeDracoHeader(DecodeContext& ctx, std::uint64_t at, const DracoHeader& header,
                         int node) {
    ctx.mapRange(at, 5, RangeKind::Field, "magic", node);
    ctx.mapRange(at + 5, 2, RangeKind::Field, "dracoVersion", node);
    ctx.mapRange(at + 7, 1, RangeKind::Field, "geometry", node);
    ctx.mapRange(at + 8, 1, RangeKind::Field, "encoding", node);
    ctx.mapRange(at + 9, 2, RangeKind::Field, "flags", node);
    Asset& asset = ctx.asset();
    asset.addProperty(node, {"dracoVersion", "string", header.version(), at + 5, 2});
    asset.addProperty(node, {"geometry", "string", std::string(header.geometryName()), at + 7, 1});
    asset.addProperty(node, {"encoding", "string", std::string(header.methodName()), at + 8, 1});
    asset.addProperty(node, {"flags", "uint16", std::int64_t(header.flags), at + 9, 2});
    asset.addProperty(node, {"metadata", "bool", header.hasMetadata(), at + 9, 2});
}

}  // namespace meshscope
