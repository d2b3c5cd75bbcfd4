// Draco decode bridge (see draco_bridge.h): libdraco's Decoder over a bounds-checked buffer; the
// attribute values are viewed in place when libdraco's buffer already has the layout the readers
// want (no copy), converted point by point otherwise.
#include "io/draco_bridge.h"

#include <draco/compression/decode.h>
#include <draco/core/decoder_buffer.h>
#include <draco/mesh/mesh.h>

#include <cstring>
#include <string>

#include "meshscope/core/error_codes.h"

namespace meshscope {

const DracoAttribute* DracoMeshData::byUniqueId(std::uint32_t id) const {
    for (const auto& a : attributes)
        if (a.uniqueId == id) return &a;
    return nullptr;
}

namespace {

bool isByteType(draco::DataType t) {
    return t == draco::DT_UINT8 || t == draco::DT_INT8;
}

}  // namespace

DracoMeshData decodeDracoMesh(DecodeContext& ctx, ByteSpan payload, std::uint64_t offset) {
    auto scope = ctx.scope("draco");
    if (payload.empty()) ctx.fail(offset, errc::kDraco, "the Draco payload is empty");

    draco::DecoderBuffer buffer;
    buffer.Init(reinterpret_cast<const char*>(payload.data()), payload.size());
    auto type = draco::Decoder::GetEncodedGeometryType(&buffer);
    if (!type.ok())
        ctx.fail(offset, errc::kDraco, "not a Draco stream: " + type.status().error_msg_string());
    if (type.value() != draco::TRIANGULAR_MESH)
        ctx.fail(offset, errc::kDraco, "the Draco stream holds a point cloud, not a triangle mesh");

    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
    if (!decoded.ok())
        ctx.fail(offset, errc::kDraco,
                 "Draco decoding failed: " + decoded.status().error_msg_string());
    std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
    if (!mesh) ctx.fail(offset, errc::kDraco, "Draco decoding produced no mesh");

    DracoMeshData out;
    out.pointCount = mesh->num_points();
    const std::uint64_t faces = mesh->num_faces();
    out.faceCount = faces;

    // Account for what the payload expanded into (points × every component + faces).
    std::uint64_t perPoint = 0;
    for (int i = 0; i < mesh->num_attributes(); ++i) {
        const draco::PointAttribute* a = mesh->attribute(i);
        if (a) perPoint += std::uint64_t(a->num_components()) * 4;
    }
    ctx.checkAllocation(offset, faces, 12, "Draco faces");
    ctx.checkAllocation(offset, out.pointCount, perPoint ? perPoint : 1, "Draco points");
    ctx.chargeDecompressed(offset, faces * 12 + std::uint64_t(out.pointCount) * perPoint);

    // Faces are a contiguous vector of std::array<PointIndex, 3>, PointIndex one u32.
    static_assert(sizeof(draco::Mesh::Face) == 12);
    if (faces)
        out.faces =
            ByteSpan(reinterpret_cast<const std::uint8_t*>(&mesh->face(draco::FaceIndex(0))),
                     std::size_t(faces) * 12);

    for (int i = 0; i < mesh->num_attributes(); ++i) {
        const draco::PointAttribute* a = mesh->attribute(i);
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
            for (draco::PointIndex p(0); p < out.pointCount && ok; ++p) {
                std::uint8_t* dst = d.converted.data() + std::size_t(p.value()) * d.stride;
                if (d.storage == DracoAttribute::Storage::Byte)
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
    out.keep = std::shared_ptr<const draco::Mesh>(mesh.release());
    return out;
}

}  // namespace meshscope
