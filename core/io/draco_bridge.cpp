// Draco decode bridge (see draco_bridge.h): libdraco's Decoder over a bounds-checked buffer, then
// one conversion pass per attribute into plain arrays.
#include "io/draco_bridge.h"

#include <draco/compression/decode.h>
#include <draco/core/decoder_buffer.h>
#include <draco/mesh/mesh.h>

#include <string>

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
    if (payload.empty()) ctx.fail(offset, "draco", "the Draco payload is empty");

    draco::DecoderBuffer buffer;
    buffer.Init(reinterpret_cast<const char*>(payload.data()), payload.size());
    auto type = draco::Decoder::GetEncodedGeometryType(&buffer);
    if (!type.ok())
        ctx.fail(offset, "draco", "not a Draco stream: " + type.status().error_msg_string());
    if (type.value() != draco::TRIANGULAR_MESH)
        ctx.fail(offset, "draco", "the Draco stream holds a point cloud, not a triangle mesh");

    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
    if (!decoded.ok())
        ctx.fail(offset, "draco", "Draco decoding failed: " + decoded.status().error_msg_string());
    const std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
    if (!mesh) ctx.fail(offset, "draco", "Draco decoding produced no mesh");

    DracoMeshData out;
    out.pointCount = mesh->num_points();
    const std::uint64_t faces = mesh->num_faces();

    // Account for what the payload expanded into (points × every component + faces).
    std::uint64_t perPoint = 0;
    for (int i = 0; i < mesh->num_attributes(); ++i) {
        const draco::PointAttribute* a = mesh->attribute(i);
        if (a) perPoint += std::uint64_t(a->num_components()) * 4;
    }
    ctx.checkAllocation(offset, faces, 12, "Draco faces");
    ctx.checkAllocation(offset, out.pointCount, perPoint ? perPoint : 1, "Draco points");
    ctx.chargeDecompressed(offset, faces * 12 + std::uint64_t(out.pointCount) * perPoint);

    out.indices.resize(faces * 3);
    for (draco::FaceIndex f(0); f < mesh->num_faces(); ++f) {
        const auto& face = mesh->face(f);
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t v = face[k].value();
            if (v >= out.pointCount)
                ctx.fail(offset, "index-out-of-range",
                         "Draco face " + std::to_string(f.value()) + " index " + std::to_string(v) +
                             " >= point count " + std::to_string(out.pointCount));
            out.indices[std::size_t(f.value()) * 3 + k] = v;
        }
    }

    for (int i = 0; i < mesh->num_attributes(); ++i) {
        const draco::PointAttribute* a = mesh->attribute(i);
        if (!a) continue;
        auto attrScope = ctx.scope("attribute " + std::to_string(a->unique_id()));
        const int n = a->num_components();
        if (n <= 0 || n > 4)
            ctx.fail(offset, "draco", "attribute with " + std::to_string(n) + " components");
        DracoAttribute d;
        d.uniqueId = a->unique_id();
        d.dracoType = int(a->attribute_type());
        d.dracoDataType = int(a->data_type());
        d.components = n;
        if (!a->is_mapping_identity() && a->indices_map_size() < out.pointCount)
            ctx.fail(offset, "draco",
                     "attribute " + std::to_string(d.uniqueId) + " maps only " +
                         std::to_string(a->indices_map_size()) + " of " +
                         std::to_string(out.pointCount) + " points");
        const std::size_t count = std::size_t(out.pointCount) * std::size_t(n);
        bool ok = true;
        if (isByteType(a->data_type())) {
            d.storage = DracoAttribute::Storage::Byte;
            d.bytes.resize(count);
            for (draco::PointIndex p(0); p < out.pointCount && ok; ++p)
                ok = a->ConvertValue<std::uint8_t>(a->mapped_index(p), std::int8_t(n),
                                                   d.bytes.data() + std::size_t(p.value()) * n);
        } else {
            d.storage = DracoAttribute::Storage::Float;
            d.floats.resize(count);
            for (draco::PointIndex p(0); p < out.pointCount && ok; ++p)
                ok = a->ConvertValue<float>(a->mapped_index(p), std::int8_t(n),
                                            d.floats.data() + std::size_t(p.value()) * n);
        }
        if (!ok)
            ctx.fail(offset, "draco",
                     "attribute " + std::to_string(d.uniqueId) + " values cannot be read");
        out.attributes.push_back(std::move(d));
    }
    return out;
}

}  // namespace meshscope
