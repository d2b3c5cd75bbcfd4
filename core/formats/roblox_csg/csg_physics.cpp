// CSG union physics blobs (CSGPHS): convex hulls, one mesh each.
//   0  "BLOCK": the union collides as its box; no hulls.
//   3, 5  hull records to the end of the blob.
//   6  physics info (volume, centre of gravity, inertia), then one hull record.
//   7  a geometry type byte, physics info, then hull records to the end.
//   8  a geometry type byte, a zero byte, then one ZSTD frame holding: a header of counts and
//      the bounding box, "raw" hulls (range tables, u32 indices and float positions), then an
//      Edgebreaker CLERS bit stream that rebuilds the remaining hulls' triangles, and their
//      positions.
// A hull record: a 40-byte prefix of constants, a u32 float count, u32 4 (bytes a float), the
// floats, a u32 index count and the u32 indices (0-based within the hull).
#include <zstd.h>

#include <array>
#include <cstring>

#include "formats/roblox_csg/csg_decoder.h"
#include "io/decompress.h"

namespace meshscope::csg {

namespace {

// The 40 bytes every hull record begins with in the blobs seen so far.
constexpr std::array<std::uint8_t, 40> kHullPrefix = {
    16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,    0,
    16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f};

void readPhysicsInfo(Builder& b, ByteReader& r) {
    auto scope = b.ctx.scope("physics info");
    const std::uint64_t start = r.offset();
    const int n = b.addNode("physics info", "header", b.root, start, 40);
    b.field<float>(r, n, "volume");
    b.field<float>(r, n, "centerOfGravity.x");
    b.field<float>(r, n, "centerOfGravity.y");
    b.field<float>(r, n, "centerOfGravity.z");
    static const char* inertia[6] = {"inertia.xx", "inertia.xy", "inertia.xz",
                                     "inertia.yy", "inertia.yz", "inertia.zz"};
    for (const char* name : inertia) b.field<float>(r, n, name);
    b.ctx.mapRange(start, 40, RangeKind::Header, {}, n);
}

void readHullRecord(Builder& b, ByteReader& r, std::size_t index, bool& prefixWarned) {
    DecodeContext& ctx = b.ctx;
    const std::string name = "hull " + std::to_string(index);
    auto scope = ctx.scope(name);
    const std::uint64_t start = r.offset();
    const int mi = b.addMesh(name, b.root, start, 0);
    const int node = b.asset.meshes[mi].node;
    const ByteSpan prefix = r.bytes(kHullPrefix.size(), "hull prefix");
    ctx.mapRange(start, prefix.size(), RangeKind::Header, "prefix", node);
    if (!prefixWarned && std::memcmp(prefix.data(), kHullPrefix.data(), prefix.size()) != 0) {
        prefixWarned = true;
        ctx.warn(start, "unusual-hull-prefix",
                 "a hull record's 40-byte prefix differs from the constants seen so far");
    }
    const std::uint64_t countAt = r.offset();
    const std::uint32_t floats = b.field<std::uint32_t>(r, node, "floatCount");
    const std::uint32_t width = b.field<std::uint32_t>(r, node, "floatSize");
    if (width != 4)
        r.failAt(r.pos() - 4, "bad-float-size",
                 "float size " + std::to_string(width) + " (expected 4)");
    if (floats % 3 != 0)
        ctx.fail(countAt, "bad-count",
                 "hull float count " + std::to_string(floats) + " is not a multiple of 3");
    const std::uint64_t posAt = r.offset();
    Mesh& m = b.asset.meshes[mi];
    r.readArray(m.positions, floats / 3, "hull positions");
    ctx.mapRange(posAt, std::uint64_t(floats) * 4, RangeKind::Array, "positions", node);
    readIndexList(b, r, m, m.positions.size(), node, "indices");
    b.asset.nodes[node].length = r.offset() - start;
    finishMesh(b, m, posAt);
}

// ---------------------------------------------------------------------------------------------
// Version 8's Edgebreaker stream.

// Bits as Roblox reads them: little-endian u32 words, each consumed from its most significant
// end; the last word holds only the bits the count leaves (its low bits).
class BitReader {
public:
    BitReader(ByteSpan bytes, std::uint32_t bitCount) : bytes_(bytes), left_(bitCount) {}
    std::uint32_t remaining() const { return left_ + cacheBits_; }
    // False when the stream has run out.
    bool read(std::uint32_t bits, std::uint32_t& out) {
        std::uint64_t value = 0;
        std::uint32_t valueBits = 0;
        if (cacheBits_ < bits) {
            value = cache_;
            valueBits = cacheBits_;
            const std::uint32_t draw = left_ < 32 ? left_ : 32;
            left_ -= draw;
            std::uint32_t word = 0;
            if (next_ + 4 <= bytes_.size()) std::memcpy(&word, bytes_.data() + next_, 4);
            next_ += 4;
            cache_ = word;
            cacheBits_ = draw;
        }
        const std::uint32_t draw = bits - valueBits;
        if (cacheBits_ < draw) return false;
        const std::uint32_t shift = cacheBits_ - draw;
        const std::uint64_t popped = shift >= 32 ? 0 : (cache_ >> shift);
        cache_ &= shift >= 32 ? 0xFFFFFFFFull : ((1ull << shift) - 1);
        cacheBits_ -= draw;
        value = ((draw >= 32 ? 0 : (value << draw)) | popped) & 0xFFFFFFFFull;
        out = std::uint32_t(value);
        return true;
    }

private:
    ByteSpan bytes_;
    std::size_t next_ = 0;
    std::uint32_t left_;
    std::uint64_t cache_ = 0;
    std::uint32_t cacheBits_ = 0;
};

enum class Symbol { C, S, L, R, E };

// Rebuilds the triangles of consecutive hulls from CLERS symbols. Edges are corner slots 3f,
// 3f+1, 3f+2 of face f; `adjacency` holds each edge's twin, or one of the states below. Every
// step is bounds-checked and loops are capped: a malformed stream fails instead of hanging.
class HullDecoder {
public:
    static constexpr std::int32_t kUninit = -3, kProcessing = -2, kBoundary = -1;

    HullDecoder(DecodeContext& ctx, BitReader& bits, std::size_t faceCapacity, std::uint64_t offset)
        : ctx_(ctx), bits_(bits), faces_(faceCapacity), offset_(offset) {
        adjacency_.assign(faceCapacity * 3, kUninit);
        indices_.assign(faceCapacity * 3, 0);
        stepBudget_ = 64 * std::uint64_t(faceCapacity) * 3 + 1024;
    }
    std::uint32_t faceCount() const { return face_; }
    std::uint32_t vertexOffset() const { return vertexOffset_; }
    const std::vector<std::uint32_t>& indices() const { return indices_; }

    // Decodes one hull; returns its vertex count.
    std::uint32_t decodeHull() {
        const std::uint32_t e = newFace();
        adjacency_[e] = kBoundary;
        adjacency_[e + 1] = kUninit;
        adjacency_[e + 2] = kBoundary;
        indices_[e] = 0;
        indices_[e + 1] = 1;
        indices_[e + 2] = 2;
        std::uint32_t vertexCount = 3;
        std::vector<std::uint32_t> pending;  // cursors to resume after an S branch ends
        std::uint32_t cursor = e + 1;
        for (;;) {
            const std::uint32_t f = newFace();
            const std::uint32_t e0 = f, e1 = f + 1, e2 = f + 2;
            adjacency_[e0] = std::int32_t(cursor);
            adjacency_[e1] = kUninit;
            adjacency_[e2] = kUninit;
            adjacency_[cursor] = std::int32_t(e0);
            indices_[e1] = indices_[prev(cursor)];
            indices_[e2] = indices_[next(cursor)];
            cursor = e1;
            switch (symbol()) {
                case Symbol::C:
                    indices_[e0] = vertexCount++;
                    adjacency_[next(cursor)] = kBoundary;
                    break;
                case Symbol::S:
                    pending.push_back(next(cursor));
                    break;
                case Symbol::L:
                    adjacency_[cursor] = kProcessing;
                    cursor = next(cursor);
                    break;
                case Symbol::R:
                    adjacency_[next(cursor)] = kProcessing;
                    zip(next(cursor));
                    break;
                case Symbol::E:
                    adjacency_[cursor] = kProcessing;
                    adjacency_[next(cursor)] = kProcessing;
                    zip(next(cursor));
                    if (pending.empty()) {
                        vertexOffset_ += vertexCount;
                        return vertexCount;
                    }
                    cursor = pending.back();
                    pending.pop_back();
                    break;
            }
        }
    }

private:
    static std::uint32_t next(std::uint32_t e) { return e / 3 * 3 + (e + 1) % 3; }
    static std::uint32_t prev(std::uint32_t e) { return e / 3 * 3 + (e + 2) % 3; }

    std::uint32_t newFace() {
        if (face_ >= faces_)
            ctx_.fail(offset_, "edgebreaker",
                      "the CLERS stream builds more than the header's " + std::to_string(faces_) +
                          " faces");
        return 3 * face_++;
    }
    Symbol symbol() {
        std::uint32_t bit = 0, two = 0;
        if (!bits_.read(1, bit)) outOfBits();
        if (bit == 0) return Symbol::C;
        if (!bits_.read(2, two)) outOfBits();
        static constexpr Symbol kSymbols[4] = {Symbol::S, Symbol::L, Symbol::R, Symbol::E};
        return kSymbols[two & 3];
    }
    [[noreturn]] void outOfBits() {
        ctx_.fail(offset_, "edgebreaker",
                  "the CLERS stream ends inside hull face " + std::to_string(face_));
    }
    void step() {
        if (stepBudget_-- == 0)
            ctx_.fail(offset_, "edgebreaker",
                      "the CLERS stream does not close its boundary (malformed hull)");
    }
    bool isEdge(std::int32_t a) const { return a >= 0; }

    void zip(std::uint32_t current) {
        while (adjacency_[current] == kProcessing) {
            step();
            std::uint32_t candidate = next(current);
            while (isEdge(adjacency_[candidate])) {
                step();
                candidate = next(std::uint32_t(adjacency_[candidate]));
            }
            if (adjacency_[candidate] != kBoundary) break;
            adjacency_[current] = std::int32_t(candidate);
            adjacency_[candidate] = std::int32_t(current);
            current = prev(current);
            std::uint32_t prevEdge = current;
            const std::uint32_t candidatePrev = prev(candidate);
            indices_[prev(current)] = indices_[candidatePrev];
            std::int32_t connected = adjacency_[current];
            while (isEdge(connected) && candidate != prevEdge) {
                step();
                prevEdge = prev(std::uint32_t(connected));
                indices_[prev(prevEdge)] = indices_[candidatePrev];
                connected = adjacency_[prevEdge];
            }
            while (isEdge(adjacency_[current]) && current != candidate) {
                step();
                current = prev(std::uint32_t(adjacency_[current]));
            }
        }
    }

    DecodeContext& ctx_;
    BitReader& bits_;
    std::size_t faces_;
    std::uint64_t offset_;
    std::vector<std::int32_t> adjacency_;
    std::vector<std::uint32_t> indices_;
    std::uint32_t face_ = 0;
    std::uint32_t vertexOffset_ = 0;
    std::uint64_t stepBudget_ = 0;
};

// A hull's mesh from `floats` positions and local `indices` (checked against its vertices).
void addHullMesh(Builder& b, std::size_t index, const float* floats, std::size_t vertexCount,
                 const std::uint32_t* indices, std::size_t indexCount, std::uint64_t offset,
                 std::uint64_t length, const char* kind) {
    const std::string name = "hull " + std::to_string(index);
    const int mi = b.addMesh(name, b.root, offset, length);
    const int node = b.asset.meshes[mi].node;
    b.property(node, "encoding", "string", std::string(kind));
    Mesh& m = b.asset.meshes[mi];
    m.positions.resize(vertexCount);
    for (std::size_t i = 0; i < vertexCount; ++i)
        m.positions[i] = {floats[3 * i], floats[3 * i + 1], floats[3 * i + 2]};
    for (std::size_t k = 0; k < indexCount; ++k)
        if (indices[k] >= vertexCount)
            b.ctx.fail(offset, "index-out-of-range",
                       name + ": index " + std::to_string(indices[k]) + " is past its " +
                           std::to_string(vertexCount) + " vertices");
    m.indices.assign(indices, indices + indexCount - indexCount % 3);
    finishMesh(b, m, offset);
}

void decodeV8(Builder& b, ByteReader& r) {
    DecodeContext& ctx = b.ctx;
    b.field<std::uint8_t>(r, b.root, "geometryType");
    const std::uint64_t padAt = r.offset();
    if (b.field<std::uint8_t>(r, b.root, "padding") != 0)
        ctx.warn(padAt, "nonzero-padding", "the byte after the geometry type is not 0");
    const std::uint64_t payloadAt = r.offset();
    const ByteSpan payload = r.bytes(r.remaining(), "ZSTD frame");
    ctx.mapRange(payloadAt, payload.size(), RangeKind::Payload, "hulls (ZSTD)", b.root);
    auto scope = ctx.scope("ZSTD frame");
    const unsigned long long size = ZSTD_getFrameContentSize(payload.data(), payload.size());
    if (size == ZSTD_CONTENTSIZE_ERROR)
        ctx.fail(payloadAt, "zstd", "the hull data is not a ZSTD frame");
    if (size == ZSTD_CONTENTSIZE_UNKNOWN)
        ctx.fail(payloadAt, "zstd", "the ZSTD frame does not state its decompressed size");
    InflateBuffer buffer;
    const ByteSpan inner = buffer.zstd(ctx, payload, size, payloadAt);
    ByteReader d(ctx, inner, payloadAt, false);
    b.property(b.root, "inflatedSize", "uint64", std::int64_t(size));

    const int header = b.addNode("mesh header", "header", b.root, payloadAt, payload.size());
    const std::uint32_t hullCount = b.field<std::uint32_t>(d, header, "hullCount");
    const std::uint32_t positionCount = b.field<std::uint32_t>(d, header, "positionCount");
    const std::uint32_t faceCount = b.field<std::uint32_t>(d, header, "faceCount");
    b.field<std::uint32_t>(d, header, "firstHullPositionCount");
    b.field<std::uint32_t>(d, header, "firstHullFaceCount");
    const std::uint32_t rawLen = b.field<std::uint32_t>(d, header, "rawHullsLength");
    const std::uint32_t clersBits = b.field<std::uint32_t>(d, header, "clersBitCount");
    const std::uint32_t clersLen = b.field<std::uint32_t>(d, header, "clersBufferLength");
    b.field<std::uint32_t>(d, header, "positionsLength");
    for (const char* n :
         {"aabb.min.x", "aabb.min.y", "aabb.min.z", "aabb.max.x", "aabb.max.y", "aabb.max.z"})
        b.field<float>(d, header, n);

    std::size_t hullIndex = 0;
    if (rawLen != 0) {
        auto rawScope = ctx.scope("raw hulls");
        const std::size_t rawStart = d.pos();
        std::vector<std::uint32_t> faceRanges, faces, posRanges;
        std::vector<float> positions;
        d.readArray(faceRanges, d.u32("face range count"), "face ranges");
        d.readArray(faces, faceRanges.empty() ? 0 : faceRanges.back(), "raw hull indices");
        d.readArray(posRanges, d.u32("position range count"), "position ranges");
        d.readArray(positions, posRanges.empty() ? 0 : posRanges.back(), "raw hull positions");
        if (d.pos() - rawStart != rawLen)
            d.warn("length-mismatch", "the raw hulls take " + std::to_string(d.pos() - rawStart) +
                                          " bytes, the header says " + std::to_string(rawLen));
        const std::size_t rawHulls = std::min(faceRanges.size(), posRanges.size()) > 0
                                         ? std::min(faceRanges.size(), posRanges.size()) - 1
                                         : 0;
        for (std::size_t h = 0; h < rawHulls; ++h) {
            const std::uint32_t f0 = faceRanges[h], f1 = faceRanges[h + 1];
            const std::uint32_t p0 = posRanges[h], p1 = posRanges[h + 1];
            if (f0 > f1 || f1 > faces.size() || p0 > p1 || p1 > positions.size() ||
                (p1 - p0) % 3 != 0)
                ctx.fail(payloadAt, "bad-range",
                         "raw hull " + std::to_string(h) + ": its face or position range (" +
                             std::to_string(f0) + "–" + std::to_string(f1) + ", " +
                             std::to_string(p0) + "–" + std::to_string(p1) + ") is invalid");
            addHullMesh(b, hullIndex++, positions.data() + p0, (p1 - p0) / 3, faces.data() + f0,
                        f1 - f0, payloadAt, payload.size(), "raw");
        }
    }
    auto ebScope = ctx.scope("edgebreaker hulls");
    const ByteSpan clers = d.bytes(clersLen, "CLERS buffer");
    if (clersLen % 4 != 0 || std::uint64_t(clersLen) * 8 < clersBits)
        ctx.fail(payloadAt, "bad-clers",
                 "the CLERS buffer of " + std::to_string(clersLen) + " bytes cannot hold " +
                     std::to_string(clersBits) + " bits in whole 32-bit words");
    std::vector<float> positions;
    d.readArray(positions, std::uint64_t(positionCount) * 3, "hull positions");
    b.trailing(d, b.root);
    if (hullCount == 0) return;
    // Each face takes at least one CLERS bit, and one face is made per symbol plus one per hull.
    if (faceCount > std::uint64_t(clersBits) + hullCount)
        ctx.fail(payloadAt, "count-too-large",
                 "faceCount " + std::to_string(faceCount) + " cannot come from " +
                     std::to_string(clersBits) + " CLERS bits");
    ctx.checkAllocation(payloadAt, std::uint64_t(faceCount) * 3, 8, "edgebreaker faces");
    BitReader bits(clers, clersBits);
    HullDecoder decoder(ctx, bits, faceCount, payloadAt);
    for (std::uint32_t h = 0; h < hullCount; ++h) {
        ctx.checkCancel(payloadAt);
        const std::uint32_t firstFace = decoder.faceCount();
        const std::uint32_t firstVertex = decoder.vertexOffset();
        const std::uint32_t vertices = decoder.decodeHull();
        if ((std::uint64_t(firstVertex) + vertices) * 3 > positions.size())
            ctx.fail(payloadAt, "count-too-large",
                     "edgebreaker hull " + std::to_string(h) + " needs vertices up to " +
                         std::to_string(std::uint64_t(firstVertex) + vertices) + " but " +
                         std::to_string(positions.size() / 3) + " positions are stored");
        addHullMesh(b, hullIndex++, positions.data() + std::size_t(firstVertex) * 3, vertices,
                    decoder.indices().data() + std::size_t(firstFace) * 3,
                    std::size_t(decoder.faceCount() - firstFace) * 3, payloadAt, payload.size(),
                    "edgebreaker");
    }
    if (decoder.faceCount() != faceCount)
        ctx.warn(payloadAt, "count-mismatch",
                 "the hulls use " + std::to_string(decoder.faceCount()) +
                     " faces, the header says " + std::to_string(faceCount));
}

}  // namespace

void decodePhysics(Builder& b, std::uint32_t version) {
    DecodeContext& ctx = b.ctx;
    ByteReader r(ctx, ctx.bytes());
    r.skip(kHeaderSize);
    bool prefixWarned = false;
    switch (version) {
        case 0: {
            const std::uint64_t at = r.offset();
            const std::string_view kind = r.string(5, "block marker");
            if (kind != "BLOCK")
                ctx.fail(at, "bad-header", "CSGPHS version 0 must be followed by \"BLOCK\"");
            ctx.mapRange(at, 5, RangeKind::Field, "BLOCK", b.root);
            ctx.info(0, "csg-block", "the union's physics is its box (CSGPHS BLOCK): no hulls");
            break;
        }
        case 6:
            readPhysicsInfo(b, r);
            readHullRecord(b, r, 0, prefixWarned);
            break;
        case 7:
            b.field<std::uint8_t>(r, b.root, "geometryType");
            readPhysicsInfo(b, r);
            [[fallthrough]];
        case 3:
        case 5:
            for (std::size_t i = 0; !r.atEnd(); ++i) {
                ctx.checkCancel(r.offset());
                readHullRecord(b, r, i, prefixWarned);
            }
            break;
        case 8:
            decodeV8(b, r);
            break;
    }
    b.trailing(r, b.root);
}

}  // namespace meshscope::csg
