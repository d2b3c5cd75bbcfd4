// CSG union graphics blobs (CSGMDL). Versions 2 and 4 are XOR-ed whole with the fixed key; they
// hold a 32-byte hash, 84-byte vertex records and a plain u32 index list (version 4 adds a u32
// list after it). Version 5 is plain after its obfuscated header: per-attribute arrays with u16
// counts (float positions, quantised normals and tangents, colours, normal ids, UVs) and an index
// stream of 1- or 3-byte deltas split by range markers.
#include <cmath>
#include <cstring>

#include "formats/roblox_csg/csg_decoder.h"

namespace meshscope::csg {

namespace {

constexpr std::uint32_t kVertexSize = 84;

std::string hexString(ByteSpan s) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    out.reserve(s.size() * 2);
    for (std::uint8_t c : s) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

float readF32(const std::uint8_t* p) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
}

// Version 5's quantised unit vectors: u16 u → int16(u − 0x7FFF) / 32767.
float dequantise(const std::uint8_t* p) {
    std::uint16_t u;
    std::memcpy(&u, p, 2);
    return float(std::int16_t(std::uint16_t(u - 0x7FFF))) * (1.0f / 32767.0f);
}

}  // namespace

void finishMesh(Builder& b, Mesh& m, std::uint64_t firstVertexAt) {
    std::size_t nonFinite = 0;
    for (const Vec3& p : m.positions)
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) ++nonFinite;
    if (nonFinite)
        b.ctx.warn(firstVertexAt, "non-finite-vertices",
                   std::to_string(nonFinite) + " vertex positions are NaN or infinite");
    m.computeBounds();
    const std::uint32_t tris = std::uint32_t(m.indices.size() / 3);
    m.lods.push_back({0, tris, "LOD0"});
    m.surfaces.push_back({"union", 0, tris, 0, std::uint32_t(m.positions.size())});
}

// The u32 index list shared by versions 2 and 4 and the physics hulls: a count of indices, then
// the indices, each checked against `vertexCount`.
void readIndexList(Builder& b, ByteReader& r, Mesh& m, std::size_t vertexCount, int node,
                   const char* what) {
    const std::uint64_t countAt = r.offset();
    const std::uint32_t count = b.field<std::uint32_t>(r, node, "indexCount");
    const std::uint64_t start = r.offset();
    r.readArray(m.indices, count, what);
    for (std::size_t k = 0; k < m.indices.size(); ++k) {
        if (m.indices[k] >= vertexCount) {
            const std::uint32_t bad = m.indices[k];
            m.indices.clear();
            r.failAt(r.pos() - (count - k) * 4, "index-out-of-range",
                     std::string(what) + "[" + std::to_string(k) + "] = " + std::to_string(bad) +
                         " is past the " + std::to_string(vertexCount) + " vertices");
        }
    }
    b.ctx.mapRange(start, std::uint64_t(count) * 4, RangeKind::Array, what, node);
    if (count % 3 != 0) {
        b.ctx.warn(countAt, "partial-triangle",
                   std::string(what) + ": " + std::to_string(count) +
                       " indices is not a whole number of triangles; the last " +
                       std::to_string(count % 3) + " are ignored");
        m.indices.resize(count - count % 3);
    }
}

void decodeGraphicsV2V4(Builder& b, std::uint32_t version) {
    DecodeContext& ctx = b.ctx;
    const ByteSpan file = ctx.bytes();
    // The whole blob is XOR-ed from offset 0: undo it into a copy whose offsets are the file's.
    ctx.checkAllocation(0, file.size(), 1, "de-obfuscated blob");
    Bytes plain(file.begin(), file.end());
    for (std::size_t i = 0; i < plain.size(); ++i) plain[i] ^= keyAt(i);
    ByteReader r(ctx, plain);
    r.skip(kHeaderSize);
    const int root = b.root;
    b.property(root, "obfuscated", "bool", true);
    {
        auto scope = ctx.scope("hash");
        const std::uint64_t at = r.offset();
        const ByteSpan hash = r.bytes(16, "hash");
        const ByteSpan unknown = r.bytes(16, "hash (second half)");
        ctx.mapRange(at, 32, RangeKind::Field, {}, root);
        // The first half is ASCII hex digits in the blobs seen so far; show it as text then.
        bool text = true;
        for (std::uint8_t c : hash) text = text && c >= 0x20 && c < 0x7f;
        b.property(root, "hash", "string",
                   text ? std::string(reinterpret_cast<const char*>(hash.data()), hash.size())
                        : hexString(hash),
                   at, 16);
        b.property(root, "hashExtra", "string", hexString(unknown), at + 16, 16);
    }
    const int mi = b.addMesh("union", root, r.offset(), 0);
    const int node = b.asset.meshes[mi].node;
    Mesh& m = b.asset.meshes[mi];
    const std::uint64_t meshStart = r.offset();
    std::uint64_t firstVertexAt = 0;
    {
        auto scope = ctx.scope("vertices");
        const std::uint32_t count = b.field<std::uint32_t>(r, node, "vertexCount");
        const std::uint64_t sizeAt = r.offset();
        const std::uint32_t size = b.field<std::uint32_t>(r, node, "vertexSize");
        if (size < kVertexSize)
            r.failAt(r.pos() - 4, "bad-vertex-size",
                     "vertex records of " + std::to_string(size) + " bytes (expected 84)");
        if (size != kVertexSize)
            ctx.warn(sizeAt, "unusual-vertex-size",
                     "vertex records of " + std::to_string(size) +
                         " bytes (expected 84); the first 84 bytes of each are read");
        const std::size_t n = r.checkCount(count, size, "vertices");
        ctx.checkAllocation(r.offset(), n, sizeof(Vec3) * 2 + sizeof(Vec2) + sizeof(Vec4) + 4,
                            "vertex streams");
        firstVertexAt = r.offset();
        const ByteSpan records = r.bytes(std::size_t(n) * size, "vertices");
        m.positions.resize(n);
        m.normals.resize(n);
        m.colors.resize(n);
        m.uv0.resize(n);
        m.tangents.resize(n);
        std::size_t oddPadding = 0;
        Bytes normalIds(n);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint8_t* p = records.data() + i * size;
            m.positions[i] = {readF32(p), readF32(p + 4), readF32(p + 8)};
            m.normals[i] = {readF32(p + 12), readF32(p + 16), readF32(p + 20)};
            m.colors[i] = {p[24], p[25], p[26], p[27]};
            m.uv0[i] = {readF32(p + 32), readF32(p + 36)};
            normalIds[i] = p[28];  // 1..6 (u32; the upper bytes are 0)
            m.tangents[i] = {readF32(p + 56), readF32(p + 60), readF32(p + 64), 1.0f};
            for (int k = 40; k < 56 && !oddPadding; ++k) oddPadding += p[k] != 0;
            for (int k = 68; k < 84 && !oddPadding; ++k) oddPadding += p[k] != 0;
            if ((i & 4095) == 4095) ctx.checkCancel(firstVertexAt + i * size);
        }
        if (oddPadding)
            ctx.warn(firstVertexAt, "nonzero-padding",
                     "some vertex records have non-zero bytes where zero padding was expected");
        // Kept for writers: the id is the face's side, which a diagonal normal cannot tell.
        b.property(node, "normalIds", "bytes", std::move(normalIds), firstVertexAt + 28,
                   records.size());
        ctx.mapRange(firstVertexAt, records.size(), RangeKind::Array,
                     "vertices (position, normal, colour, normal id, uv, tangent)", node);
    }
    {
        auto scope = ctx.scope("indices");
        readIndexList(b, r, m, m.positions.size(), node, "indices");
    }
    b.asset.nodes[node].length = r.offset() - meshStart;
    if (version == 4) {
        auto scope = ctx.scope("extra list");
        const int extra = b.addNode("extra list", "list", root, r.offset());
        const std::uint64_t start = r.offset();
        const std::uint32_t count = b.field<std::uint32_t>(r, extra, "count");
        std::vector<std::uint32_t> values;
        r.readArray(values, count, "extra list");
        b.property(extra, "values", "uint32[]", std::vector<double>(values.begin(), values.end()),
                   start + 4, std::uint64_t(count) * 4);
        ctx.mapRange(start + 4, std::uint64_t(count) * 4, RangeKind::Array, "values", extra);
        b.asset.nodes[extra].length = r.offset() - start;
    }
    finishMesh(b, m, firstVertexAt);
    b.trailing(r, root);
}

void decodeGraphicsV5(Builder& b) {
    DecodeContext& ctx = b.ctx;
    ByteReader r(ctx, ctx.bytes());
    r.skip(kHeaderSize);
    const int root = b.root;
    b.property(root, "obfuscated", "bool", false);
    const int mi = b.addMesh("union", root, r.offset(), 0);
    const int node = b.asset.meshes[mi].node;
    Mesh& m = b.asset.meshes[mi];
    const std::uint64_t meshStart = r.offset();

    // One attribute array: u16 count [+ u32 byte length], then count records of `size` bytes.
    // Returns the records; `countOut` the count.
    auto array = [&](const char* name, std::size_t size, bool withLength,
                     std::uint16_t& countOut) -> ByteSpan {
        auto scope = ctx.scope(name);
        const std::uint64_t start = r.offset();
        const int an = b.addNode(name, "array", node, start);
        countOut = b.field<std::uint16_t>(r, an, "count");
        if (withLength) {
            const std::uint64_t lenAt = r.offset();
            const std::uint32_t len = b.field<std::uint32_t>(r, an, "byteLength");
            if (len != std::uint64_t(countOut) * size)
                ctx.warn(lenAt, "length-mismatch",
                         std::string(name) + ": byte length " + std::to_string(len) + " for " +
                             std::to_string(countOut) + " records of " + std::to_string(size) +
                             " bytes");
        }
        const std::size_t n = r.checkCount(countOut, size, name);
        const std::uint64_t at = r.offset();
        const ByteSpan s = r.bytes(n * size, name);
        ctx.mapRange(at, s.size(), RangeKind::Array, "records", an);
        ctx.mapRange(start, r.offset() - start, RangeKind::Array, {}, an);
        b.asset.nodes[an].length = r.offset() - start;
        return s;
    };
    std::uint16_t posCount = 0, nCount = 0, cCount = 0, idCount = 0, uvCount = 0, tCount = 0;
    const std::uint64_t firstVertexAt = r.offset() + 2;
    const ByteSpan pos = array("positions", 12, false, posCount);
    const std::uint64_t normalsAt = r.offset();
    const ByteSpan nrm = array("normals", 6, true, nCount);
    const std::uint64_t colorsAt = r.offset();
    const ByteSpan col = array("colours", 4, false, cCount);
    const std::uint64_t idsAt = r.offset();
    const ByteSpan ids = array("normal ids", 1, false, idCount);
    const std::uint64_t uvAt = r.offset();
    const ByteSpan uv = array("uvs", 8, false, uvCount);
    const std::uint64_t tanAt = r.offset();
    const ByteSpan tan = array("tangents", 6, true, tCount);

    const std::size_t n = posCount;
    m.positions.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint8_t* p = pos.data() + i * 12;
        m.positions[i] = {readF32(p), readF32(p + 4), readF32(p + 8)};
    }
    auto matches = [&](std::uint16_t count, std::uint64_t at, const char* name) {
        if (count == n) return true;
        if (count != 0)
            ctx.warn(at, "attribute-count-mismatch",
                     std::string(name) + ": " + std::to_string(count) + " entries for " +
                         std::to_string(n) + " positions; the stream is dropped");
        return false;
    };
    if (matches(nCount, normalsAt, "normals")) {
        m.normals.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint8_t* p = nrm.data() + i * 6;
            m.normals[i] = {dequantise(p), dequantise(p + 2), dequantise(p + 4)};
        }
    }
    if (matches(cCount, colorsAt, "colours")) {
        m.colors.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint8_t* p = col.data() + i * 4;
            m.colors[i] = {p[0], p[1], p[2], p[3]};
        }
    }
    if (matches(idCount, idsAt, "normal ids"))
        b.property(node, "normalIds", "bytes", Bytes(ids.begin(), ids.end()), idsAt + 2,
                   ids.size());
    if (matches(uvCount, uvAt, "uvs")) {
        m.uv0.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint8_t* p = uv.data() + i * 8;
            m.uv0[i] = {readF32(p), readF32(p + 4)};
        }
    }
    if (matches(tCount, tanAt, "tangents")) {
        m.tangents.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint8_t* p = tan.data() + i * 6;
            m.tangents[i] = {dequantise(p), dequantise(p + 2), dequantise(p + 4), 1.0f};
        }
    }

    // The index stream: u32 index count, u32 byte length, the deltas, u8 marker count, u32
    // markers. Each index adds a delta to the previous one (mod 2^23): a byte below 0x40 is
    // +0..63, below 0x80 is −64..−1, else 3 bytes big-endian (first byte − 0x80) are +0..2^23−1.
    auto scope = ctx.scope("indices");
    const std::uint64_t streamStart = r.offset();
    const int in = b.addNode("indices", "array", node, streamStart);
    const std::uint64_t countAt = r.offset();
    const std::uint32_t count = b.field<std::uint32_t>(r, in, "indexCount");
    const std::uint32_t dataLen = b.field<std::uint32_t>(r, in, "byteLength");
    const std::uint64_t dataAt = r.offset();
    const ByteSpan data = r.bytes(dataLen, "index stream");
    if (count > dataLen)
        ctx.fail(countAt, "count-too-large",
                 "index stream: " + std::to_string(count) + " indices cannot fit in " +
                     std::to_string(dataLen) + " bytes (each takes at least 1)");
    ctx.checkAllocation(dataAt, count, 8, "indices");
    std::vector<std::uint32_t> all(count);
    std::vector<std::uint32_t> at(count);  // byte of each index in `data`
    {
        std::size_t p = 0;
        std::uint32_t current = 0;
        for (std::uint32_t k = 0; k < count; ++k) {
            if (p >= data.size())
                ctx.fail(dataAt + p, "truncated",
                         "index stream ends after " + std::to_string(k) + " of " +
                             std::to_string(count) + " indices");
            at[k] = std::uint32_t(p);
            const std::uint8_t v0 = data[p++];
            std::int32_t delta = 0;
            if (v0 < 0x40) {
                delta = v0;
            } else if (v0 < 0x80) {
                delta = std::int32_t(v0) - 128;
            } else {
                if (data.size() - p < 2)
                    ctx.fail(dataAt + p - 1, "truncated",
                             "index stream ends inside a 3-byte delta (index " + std::to_string(k) +
                                 ")");
                delta = std::int32_t((std::uint32_t(v0 - 0x80) << 16) |
                                     (std::uint32_t(data[p]) << 8) | data[p + 1]);
                p += 2;
            }
            current = std::uint32_t(current + std::uint32_t(delta));
            all[k] = current & 0x7FFFFF;
        }
        if (p != data.size())
            ctx.warn(dataAt + p, "unused-index-bytes",
                     std::to_string(data.size() - p) + " bytes of the index stream follow the " +
                         std::to_string(count) + " indices");
    }
    ctx.mapRange(dataAt, dataLen, RangeKind::Array, "deltas", in);
    const std::uint64_t markersAt = r.offset();
    const std::uint8_t markerCount = b.field<std::uint8_t>(r, in, "markerCount");
    std::vector<std::uint32_t> markers;
    r.readArray(markers, markerCount, "range markers");
    ctx.mapRange(markersAt + 1, std::uint64_t(markerCount) * 4, RangeKind::Array, "range markers",
                 in);
    ctx.mapRange(streamStart, r.offset() - streamStart, RangeKind::Array, {}, in);
    b.asset.nodes[in].length = r.offset() - streamStart;
    if (markerCount < 2)
        ctx.fail(markersAt, "bad-range-markers",
                 "the index stream needs at least 2 range markers, " + std::to_string(markerCount) +
                     " present");
    for (std::size_t i = 0; i < markers.size(); ++i) {
        if (markers[i] > count || (i && markers[i] < markers[i - 1]))
            ctx.fail(markersAt + 1 + 4 * i, "bad-range-markers",
                     "range marker " + std::to_string(i) + " (" + std::to_string(markers[i]) +
                         ") is past the " + std::to_string(count) +
                         " indices or below the one before");
    }
    std::string ranges;
    for (std::size_t i = 0; i + 1 < markers.size(); ++i)
        ranges +=
            (i ? ", " : "") + std::to_string(markers[i]) + "–" + std::to_string(markers[i + 1]);
    b.property(in, "ranges", "string", ranges, markersAt + 1, std::uint64_t(markerCount) * 4);
    // The mesh is the first range; the others (of unknown purpose) are kept as counts only.
    for (std::uint32_t k = markers[0]; k < markers[1]; ++k) {
        if (all[k] >= n)
            ctx.fail(dataAt + at[k], "index-out-of-range",
                     "index " + std::to_string(k) + " = " + std::to_string(all[k]) +
                         " is past the " + std::to_string(n) + " vertices");
    }
    m.indices.assign(all.begin() + markers[0], all.begin() + markers[1]);
    if (m.indices.size() % 3 != 0) {
        ctx.warn(markersAt, "partial-triangle",
                 std::to_string(m.indices.size()) +
                     " indices in the first range is not a whole number of triangles");
        m.indices.resize(m.indices.size() - m.indices.size() % 3);
    }
    b.asset.nodes[node].length = r.offset() - meshStart;
    finishMesh(b, m, firstVertexAt);
    b.trailing(r, root);
}

}  // namespace meshscope::csg
