// Google Draco streams (.drc): the compressed geometry a Roblox FileMesh 7.00 keeps in its
// COREMESH v2 chunk, as Draco's own tools write it on its own. The 11-byte header is read and
// mapped here (draco_bridge.h); the rest, metadata and geometry, is one payload that libdraco
// decodes (it reports no positions of its own). A triangle mesh becomes one mesh; a point cloud
// one mesh of points. The first attribute of each kind gives the stream: POSITION the
// positions, NORMAL the normals, TEX_COORD the UVs (V flipped: Draco keeps OBJ's and OpenGL's
// upward V, the core a downward one) and COLOR the vertex colours; every attribute is a node
// with its type, data type and components.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "formats/formats.h"
#include "io/byte_reader.h"
#include "io/draco_bridge.h"
#include "meshscope/core/error_codes.h"

namespace meshscope {

namespace {

const char* attributeTypeName(int type) {
    static const char* const kNames[] = {"POSITION", "NORMAL", "COLOR", "TEX_COORD", "GENERIC"};
    return type >= 0 && type < 5 ? kNames[type] : "unknown";
}

const char* dataTypeName(int type) {
    static const char* const kNames[] = {"invalid", "int8",    "uint8",   "int16",
                                         "uint16",  "int32",   "uint32",  "int64",
                                         "uint64",  "float32", "float64", "bool"};
    return type >= 0 && type < 12 ? kNames[type] : "unknown";
}

// Draco's attribute types (draco::GeometryAttribute::Type).
enum : int { kPosition = 0, kNormal = 1, kColor = 2, kTexCoord = 3 };

int probe(ByteSpan bytes) {
    return bytes.size() >= 5 && std::memcmp(bytes.data(), "DRACO", 5) == 0 ? 100 : 0;
}

// A metadata entry as a property named "metadata.NAME": Draco keeps no type, so printable bytes
// are shown as text, four bytes as an int32 (what AddEntryInt writes), anything else as bytes.
Property metadataProperty(const DracoMetadataEntry& e) {
    Property p;
    p.name = "metadata." + e.name;
    const auto& v = e.value;
    const bool text = !v.empty() && std::all_of(v.begin(), v.end(), [](std::uint8_t c) {
        return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r';
    });
    if (text) {
        p.type = "string";
        p.value = std::string(v.begin(), v.end());
    } else if (v.size() == 4) {
        std::int32_t i;
        std::memcpy(&i, v.data(), 4);
        p.type = "int32";
        p.value = std::int64_t(i);
    } else {
        p.type = "binary";
        p.value = Bytes(v.begin(), v.end());
    }
    return p;
}

std::string str(std::uint64_t v) {
    return std::to_string(v);
}

void decodeDraco(DecodeContext& ctx) {
    Asset& asset = ctx.asset();
    const ByteSpan bytes = ctx.bytes();
    const std::optional<DracoHeader> header = readDracoHeader(bytes);
    if (!header) {
        if (bytes.size() >= 5 && std::memcmp(bytes.data(), "DRACO", 5) == 0)
            ctx.fail(
                bytes.size(), errc::kTruncated,
                "the file ends inside the 11-byte Draco header (" + str(bytes.size()) + " bytes)");
        ctx.fail(0, errc::kBadMagic, "not a Draco stream (no \"DRACO\" magic)");
    }
    const DracoHeader& h = *header;
    asset.version = h.version();
    const int root = asset.addNode("Draco " + h.version(), "file");
    asset.nodes[std::size_t(root)].length = bytes.size();
    {
        auto s = ctx.scope("header");
        const int hn = asset.addNode("header", "header", root);
        asset.nodes[std::size_t(hn)].length = DracoHeader::kSize;
        ctx.mapRange(0, DracoHeader::kSize, RangeKind::Header, {}, hn);
        describeDracoHeader(ctx, 0, h, hn);
        if (h.encoderType > 1)
            ctx.fail(7, errc::kUnsupportedVersion,
                     "Draco encoder type " + str(std::uint64_t(h.encoderType)) +
                         " is neither a point cloud (0) nor a triangular mesh (1)");
    }

    const std::uint64_t at = DracoHeader::kSize;
    const char* payloadName = h.hasMetadata() ? "metadata and geometry" : "geometry";
    const int pn = asset.addNode(payloadName, "payload", root);
    asset.nodes[std::size_t(pn)].offset = at;
    asset.nodes[std::size_t(pn)].length = bytes.size() - at;
    ctx.mapRange(at, bytes.size() - at, RangeKind::Payload, payloadName, pn);

    // libdraco reads the stream from its start (it checks the header again).
    DracoMeshData d = decodeDracoGeometry(ctx, bytes, 0);
    auto scope = ctx.scope("geometry");
    if (d.pointCount > ctx.limits().maxVertices)
        ctx.fail(at, errc::kLimit, str(d.pointCount) + " Draco points exceed the vertex cap");
    asset.addProperty(pn, {"pointCount", "uint32", std::int64_t(d.pointCount)});
    if (!d.pointCloud) asset.addProperty(pn, {"faceCount", "uint32", std::int64_t(d.faceCount)});
    for (const DracoMetadataEntry& e : d.metadata) asset.addProperty(pn, metadataProperty(e));
    if (d.metadataLeftOut)
        ctx.warn(at, errc::kLimit,
                 str(d.metadataLeftOut) + " Draco metadata entries (past the first " +
                     str(kMaxDracoMetadataEntries) + ", or nested too deep) are not shown");

    // Each attribute a node; the first of each kind that fits a stream is used for it.
    const DracoAttribute* use[4] = {nullptr, nullptr, nullptr, nullptr};
    for (const DracoAttribute& a : d.attributes) {
        // Named by its type, its Draco name when its metadata gives one, and its id.
        std::string label = attributeTypeName(a.dracoType);
        std::vector<Property> metadata;
        for (const DracoMetadataEntry& e : a.metadata) {
            metadata.push_back(metadataProperty(e));
            if (e.name == "name")
                if (const auto* text = std::get_if<std::string>(&metadata.back().value))
                    label += " \"" + *text + "\"";
        }
        const int an = asset.addNode(label + " (id " + str(a.uniqueId) + ")", "attribute", pn);
        asset.nodes[std::size_t(an)].offset = at;
        asset.nodes[std::size_t(an)].length = bytes.size() - at;
        asset.addProperty(an, {"uniqueId", "uint32", std::int64_t(a.uniqueId)});
        asset.addProperty(an, {"type", "string", std::string(attributeTypeName(a.dracoType))});
        asset.addProperty(an, {"dataType", "string", std::string(dataTypeName(a.dracoDataType))});
        asset.addProperty(an, {"components", "uint8", std::int64_t(a.components)});
        for (Property& p : metadata) asset.addProperty(an, std::move(p));
        const bool isFloat = a.storage == DracoAttribute::Storage::Float;
        bool fits = false;
        const char* role = nullptr;
        switch (a.dracoType) {
            case kPosition:
                fits = isFloat && a.components >= 2;
                role = "positions";
                break;
            case kNormal:
                fits = isFloat && a.components >= 3;
                role = "normals";
                break;
            case kTexCoord:
                fits = isFloat && a.components >= 2;
                role = "UVs";
                break;
            case kColor:
                fits = a.components >= 3;
                role = "colours";
                break;
            default:
                break;
        }
        if (!role) continue;
        const int slot = a.dracoType;
        if (!fits) {
            ctx.warn(at, errc::kDracoAttribute,
                     std::string(attributeTypeName(a.dracoType)) + " attribute " + str(a.uniqueId) +
                         " has " + str(std::uint64_t(a.components)) + " components of " +
                         dataTypeName(a.dracoDataType) + "; not used as " + role);
        } else if (!use[slot]) {
            use[slot] = &a;
            asset.addProperty(an, {"usedAs", "string", std::string(role)});
        }
    }
    const DracoAttribute* pos = use[kPosition];
    if (!pos)
        ctx.fail(at, errc::kDracoAttribute, "the Draco stream has no usable POSITION attribute");

    const int mi = int(asset.meshes.size());
    asset.meshes.emplace_back();
    Mesh& m = asset.meshes.back();
    m.name = d.pointCloud ? "point cloud" : "mesh";
    m.primitive = d.pointCloud ? Primitive::Points : Primitive::Triangles;
    const std::size_t n = d.pointCount;
    // Point i's first (up to) three floats; a missing third is 0 (2-component positions).
    auto vec3At = [](const DracoAttribute& a, std::size_t i) {
        float v[3] = {0, 0, 0};
        std::memcpy(v, a.values.data() + i * a.stride, std::size_t(std::min(a.components, 3)) * 4);
        return Vec3{v[0], v[1], v[2]};
    };
    m.positions.resize(n);
    for (std::size_t i = 0; i < n; ++i) m.positions[i] = vec3At(*pos, i);
    if (const DracoAttribute* a = use[kNormal]) {
        m.normals.resize(n);
        for (std::size_t i = 0; i < n; ++i) m.normals[i] = vec3At(*a, i);
    }
    if (const DracoAttribute* a = use[kTexCoord]) {
        m.uv0.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const Vec3 uv = vec3At(*a, i);
            m.uv0[i] = {uv.x, 1.f - uv.y};
        }
    }
    if (const DracoAttribute* a = use[kColor]) {
        m.colors.resize(n);
        const bool bytes4 = a->components >= 4;
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint8_t* q = a->values.data() + i * a->stride;
            std::uint8_t c[4] = {255, 255, 255, 255};
            if (a->storage == DracoAttribute::Storage::Byte) {
                std::memcpy(c, q, bytes4 ? 4 : 3);
            } else {
                float f[4] = {1, 1, 1, 1};
                std::memcpy(f, q, std::size_t(bytes4 ? 4 : 3) * 4);
                for (int k = 0; k < 4; ++k)
                    c[k] = std::uint8_t(std::clamp(f[k], 0.f, 1.f) * 255.f + 0.5f);
            }
            m.colors[i] = {c[0], c[1], c[2], c[3]};
        }
    }
    if (d.pointCloud) {
        m.indices.resize(n);
        for (std::size_t i = 0; i < n; ++i) m.indices[i] = std::uint32_t(i);
    } else {
        m.indices.resize(std::size_t(d.faceCount) * 3);
        if (!m.indices.empty()) std::memcpy(m.indices.data(), d.faces.data(), d.faces.size());
        for (std::size_t i = 0; i < m.indices.size(); ++i)
            if (m.indices[i] >= n)
                ctx.fail(at, errc::kIndexOutOfRange,
                         "Draco face " + str(i / 3) + " index " + str(m.indices[i]) +
                             " >= point count " + str(n));
        m.lods.push_back({0, std::uint32_t(d.faceCount), "LOD0"});
    }
    m.computeBounds();
    const int mn = asset.addNode(m.name, "mesh", root);
    asset.nodes[std::size_t(mn)].offset = at;
    asset.nodes[std::size_t(mn)].length = bytes.size() - at;
    m.node = mn;
    asset.linksOf(mn).mesh = mi;
    asset.addProperty(mn, {"vertices", "uint32", std::int64_t(n)});
    asset.addProperty(mn, {d.pointCloud ? "points" : "triangles", "uint32",
                           std::int64_t(d.pointCloud ? n : d.faceCount)});
}

}  // namespace

const FormatDecoder& dracoFormat() {
    static const FormatDecoder kFormat{"draco", "Google Draco", {".drc"}, &probe, &decodeDraco};
    return kFormat;
}

}  // namespace meshscope
