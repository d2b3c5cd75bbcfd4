// FileMesh 6.00 and 7.00: chunks to the end of the file, each char[8] NUL-padded name, u32
// version, u32 size, payload. Known: COREMESH v1 (plain arrays) and v2 (u32 length + Draco mesh),
// LODS v1, SKINNING v1, FACS v1, HSRAVIS v1. Unknown chunks are kept as raw bytes with a warning.
#include <algorithm>
#include <cstring>

#include "formats/roblox_mesh/mesh_decoder.h"
#include "io/draco_bridge.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::filemesh {

namespace {

std::string str(std::uint64_t v) {
    return std::to_string(v);
}

std::string chunkName(ByteSpan raw) {
    std::string s;
    for (std::uint8_t c : raw) {
        if (c == 0) break;
        if (c >= 0x20 && c < 0x7f)
            s += char(c);
        else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            s += buf;
        }
    }
    return s;
}

void coreMeshV1(ByteReader& c, Builder& b, int node) {
    const std::uint64_t numVerts = b.field<std::uint32_t>(c, node, "numVerts");
    readVertices(c, b, numVerts, 40, node);
    const std::uint64_t numFaces = b.field<std::uint32_t>(c, node, "numFaces");
    readFaces(c, b, numFaces, 12, node);
}

// COREMESH v2: u32 Draco length, then a Draco mesh. Attributes are looked up by unique id, not by
// Draco type (the normal is stored as GENERIC): 0 position, 1 normal, 2 UV, 3 tangent u8×4,
// 4 colour u8×4 (krakow10 mesh7_*.bin, evilbocchi mesh7_hamster.mesh).
void coreMeshV2(ByteReader& c, Builder& b, int node) {
    DecodeContext& ctx = b.ctx;
    const std::uint32_t length = b.field<std::uint32_t>(c, node, "dracoLength");
    const std::uint64_t at = c.offset();
    const ByteSpan payload = c.bytes(c.checkCount(length, 1, "Draco payload"), "Draco payload");
    const int dn = b.addNode("draco", "payload", node, at, payload.size());
    ctx.mapRange(at, payload.size(), RangeKind::Payload, "draco", dn);
    if (const std::optional<DracoHeader> h = readDracoHeader(payload)) {
        auto headerScope = ctx.scope("draco");
        describeDracoHeader(ctx, at, *h, dn);
    }

    DracoMeshData d = decodeDracoMesh(ctx, payload, at);
    auto scope = ctx.scope("draco");
    if (d.pointCount > ctx.limits().maxVertices)
        ctx.fail(at, errc::kLimit, str(d.pointCount) + " Draco points exceed the vertex cap");
    b.property(dn, "pointCount", "uint32", std::int64_t(d.pointCount));
    b.property(dn, "faceCount", "uint32", std::int64_t(d.faceCount));
    std::string ids;
    for (const auto& a : d.attributes) ids += (ids.empty() ? "" : ", ") + str(a.uniqueId);
    b.property(dn, "attributeIds", "string", ids);

    Mesh& m = b.mesh();
    const std::size_t n = d.pointCount;
    auto floats = [&](std::uint32_t id, int need, const char* what) -> const DracoAttribute* {
        const DracoAttribute* a = d.byUniqueId(id);
        if (!a) return nullptr;
        if (a->storage != DracoAttribute::Storage::Float || a->components < need) {
            ctx.warn(at, errc::kDracoAttribute,
                     std::string(what) + " (attribute " + str(id) + ") has " + str(a->components) +
                         " components of Draco data type " + str(a->dracoDataType) + "; ignored");
            return nullptr;
        }
        return a;
    };
    auto bytes4 = [&](std::uint32_t id, const char* what) -> const DracoAttribute* {
        const DracoAttribute* a = d.byUniqueId(id);
        if (!a) return nullptr;
        if (a->storage != DracoAttribute::Storage::Byte || a->components != 4) {
            ctx.warn(at, errc::kDracoAttribute,
                     std::string(what) + " (attribute " + str(id) + ") is not 4 bytes; ignored");
            return nullptr;
        }
        return a;
    };
    const DracoAttribute* pos = floats(0, 3, "position");
    if (!pos)
        ctx.fail(at, errc::kDracoAttribute, "the Draco mesh has no position attribute (id 0)");
    // Each stream is built straight from the Draco records (one copy), in blocks so that the
    // positions are scanned for the bounds while they are in cache.
    auto vec3 = [](const std::uint8_t* q) {
        Vec3 v;
        std::memcpy(&v, q, 12);
        return v;
    };
    m.positions.reserve(n);
    for (std::size_t base = 0; base < n; base += kFillBlock) {
        const std::size_t k = std::min(kFillBlock, n - base);
        appendRecords(m.positions, pos->values.data() + base * pos->stride, k, pos->stride, vec3);
        b.scanPositions(base, base + k);
    }
    b.positionsScanned = true;
    if (const DracoAttribute* a = floats(1, 3, "normal")) {
        m.normals.reserve(n);
        appendRecords(m.normals, a->values.data(), n, a->stride, vec3);
    }
    if (const DracoAttribute* a = floats(2, 2, "UV")) {
        m.uv0.reserve(n);
        appendRecords(m.uv0, a->values.data(), n, a->stride, [](const std::uint8_t* q) {
            Vec2 v;
            std::memcpy(&v, q, 8);
            return v;
        });
    }
    if (const DracoAttribute* a = bytes4(3, "tangent")) {
        m.tangents.reserve(n);
        appendRecords(m.tangents, a->values.data(), n, a->stride,
                      [](const std::uint8_t* q) { return tangentFromBytes(q); });
        std::size_t zero = 0;
        const std::uint8_t* t = a->values.data();
        for (std::size_t i = 0; i < n; ++i, t += a->stride)
            zero += (t[0] | t[1] | t[2] | t[3]) == 0;
        b.zeroTangents += zero;
    }
    if (const DracoAttribute* a = bytes4(4, "colour")) {
        m.colors.reserve(n);
        appendRecords(m.colors, a->values.data(), n, a->stride, [](const std::uint8_t* q) {
            Rgba8 c;
            std::memcpy(&c, q, 4);
            return c;
        });
    }
    // Faces: one block copy each, the largest index taken over the block just copied; only a bad
    // one leads to the search for the first offending face.
    m.indices.reserve(d.faceCount * 3);
    std::uint32_t maxIndex = 0;
    for (std::size_t base = 0; base < d.faceCount; base += kFillBlock) {
        const std::size_t k = std::min<std::size_t>(kFillBlock, d.faceCount - base);
        m.indices.resize((base + k) * 3);
        std::uint32_t* dst = m.indices.data() + base * 3;
        std::memcpy(dst, d.faces.data() + base * 12, k * 12);
        std::uint32_t mx = 0;
        for (std::size_t i = 0; i < k * 3; ++i) mx = dst[i] > mx ? dst[i] : mx;
        maxIndex = mx > maxIndex ? mx : maxIndex;
    }
    if (d.faceCount && maxIndex >= n) {
        for (std::size_t i = 0; i < m.indices.size(); ++i)
            if (m.indices[i] >= n)
                ctx.fail(at, errc::kIndexOutOfRange,
                         "Draco face " + str(i / 3) + " index " + str(m.indices[i]) +
                             " >= point count " + str(n));
    }
    b.vertexOffset = at;
    const int vn = b.addNode("vertices", "vertices", node, at, payload.size());
    b.asset.linksOf(vn).mesh = 0;
    b.property(vn, "count", "uint32", std::int64_t(n));
    const int fn = b.addNode("faces", "faces", node, at, payload.size());
    b.asset.linksOf(fn).mesh = 0;
    b.property(fn, "count", "uint32", std::int64_t(m.indices.size() / 3));
}

void lodsV1(ByteReader& c, Builder& b, int node) {
    b.field<std::uint16_t>(c, node, "lodType");
    b.field<std::uint8_t>(c, node, "numHighQualityLODs");
    const std::uint32_t count = b.field<std::uint32_t>(c, node, "numLodOffsets");
    readLodOffsets(c, b, count, 4, node);
}

// SKINNING v1. Real v7 files hold numSkinnings 8-byte envelopes right after the count, then
// bones, names and subsets (the 2025 document leaves the envelopes out; krakow10
// mesh7_100025761449828.bin).
void skinningV1(ByteReader& c, Builder& b, int node) {
    const std::uint32_t numSkinnings = b.field<std::uint32_t>(c, node, "numSkinnings");
    readEnvelopes(c, b, numSkinnings, node);
    const std::uint32_t numBones = b.field<std::uint32_t>(c, node, "numBones");
    readBones(c, b, numBones, node);
    const std::uint32_t nameSize = b.field<std::uint32_t>(c, node, "nameTableSize");
    readBoneNames(c, b, nameSize, b.skeletonNode >= 0 ? b.skeletonNode : node);
    const std::uint32_t numSubsets = b.field<std::uint32_t>(c, node, "numSubsets");
    readSubsets(c, b, numSubsets, node);
}

void facsV1(ByteReader& c, Builder& b, int node) {
    const std::uint32_t size = b.field<std::uint32_t>(c, node, "facsDataSize");
    readFacs(c, b, size, node);
}

void hsravisV1(ByteReader& c, Builder& b, int node) {
    const std::uint32_t count = b.field<std::uint32_t>(c, node, "numAlwaysVisibleBitFlags");
    const std::uint64_t at = c.offset();
    const std::uint64_t bytes = (std::uint64_t(count) + 7) / 8;
    c.skip(c.checkCount(bytes, 1, "always-visible bit flags"), "always-visible bit flags");
    b.ctx.mapRange(at, bytes, RangeKind::Array, "alwaysVisibleBitFlags", node);
}

}  // namespace

void decodeChunksV6V7(Builder& b) {
    DecodeContext& ctx = b.ctx;
    ByteReader r(ctx, ctx.bytes());
    r.seek(b.version.dataStart);
    bool haveCore = false, haveSkinning = false, haveLods = false, haveFacs = false;
    int index = 0;
    while (!r.atEnd()) {
        ctx.checkCancel(r.offset());
        ctx.progress(double(r.pos()) / double(r.size()));
        const std::uint64_t at = r.offset();
        std::string name;
        std::uint32_t version = 0, size = 0;
        {
            auto scope = ctx.scope("chunk " + str(index));
            name = chunkName(r.bytes(8, "chunk name"));
            version = r.u32("chunk version");
            size = r.u32("chunk size");
        }
        const std::string label = name + " v" + str(version);
        auto scope = ctx.scope(label);
        ByteReader c = r.sub(size, "chunk payload");
        const int node = b.addNode(label, "chunk", b.root, at, 16 + std::uint64_t(size));
        ctx.mapRange(at, 16 + std::uint64_t(size), RangeKind::Chunk, {}, node);
        ctx.mapRange(at, 16, RangeKind::Header, "chunk header", node);
        b.property(node, "chunkType", "string", name, at, 8);
        b.property(node, "chunkVersion", "uint32", std::int64_t(version), at + 8, 4);
        b.property(node, "size", "uint32", std::int64_t(size), at + 12, 4);
        ++index;

        bool known = true;
        auto once = [&](bool& seen) {
            if (!seen) return seen = true;
            ctx.warn(at, errc::kDuplicateChunk, "a second " + name + " chunk is kept as raw bytes");
            return false;
        };
        if (name == "COREMESH" && (version == 1 || version == 2)) {
            if (once(haveCore))
                version == 1 ? coreMeshV1(c, b, node) : coreMeshV2(c, b, node);
            else
                known = false;
        } else if (name == "LODS" && version == 1) {
            if (once(haveLods))
                lodsV1(c, b, node);
            else
                known = false;
        } else if (name == "SKINNING" && version == 1) {
            if (once(haveSkinning))
                skinningV1(c, b, node);
            else
                known = false;
        } else if (name == "FACS" && version == 1) {
            if (once(haveFacs))
                facsV1(c, b, node);
            else
                known = false;
        } else if (name == "HSRAVIS" && version == 1) {
            hsravisV1(c, b, node);
        } else {
            ctx.warn(at, errc::kUnknownChunk,
                     "unknown chunk " + label + " (" + str(size) + " bytes) is kept as raw bytes");
            known = false;
        }
        if (!known) {
            ctx.mapRange(at + 16, size, RangeKind::Payload, "raw", node);
        } else if (!c.atEnd()) {
            ctx.warn(c.offset(), errc::kTrailingBytes,
                     str(c.remaining()) + " bytes at the end of the chunk are not read");
            ctx.mapRange(c.offset(), c.remaining(), RangeKind::Padding, "trailing bytes", node);
        }
    }
    if (!haveCore) ctx.warn(r.offset(), errc::kNoCoremesh, "the file holds no COREMESH chunk");
}

}  // namespace meshscope::filemesh
