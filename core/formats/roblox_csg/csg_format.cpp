// Roblox CSG union blobs: the registry descriptor (content probe on the three magics) and the
// decode entry point that reads the header and hands the rest to the blob kind's reader.
//   graphics  CSGMDL 2, 4, 5   (a union's MeshData / MeshData2; obfuscated with a fixed key)
//   physics   CSGPHS 0 (BLOCK), 3, 5, 6, 7, 8   (PhysicsData; convex hulls)
//   reference CSGK + 32 hex digits   (the geometry is stored elsewhere)
#include <cctype>
#include <cstring>

#include "formats/formats.h"
#include "formats/roblox_csg/csg_decoder.h"

namespace meshscope {

namespace csg {

Builder::Builder(DecodeContext& c, std::string version) : ctx(c), asset(c.asset()) {
    asset.version = version;
    root = addNode(std::move(version), "file", -1, 0, c.bytes().size());
}

int Builder::addNode(std::string name, std::string kind, int parent, std::uint64_t offset,
                     std::uint64_t length) {
    const int n = asset.addNode(std::move(name), std::move(kind), parent);
    asset.nodes[n].offset = offset;
    asset.nodes[n].length = length;
    return n;
}

void Builder::property(int node, std::string name, std::string type, Value value,
                       std::uint64_t offset, std::uint64_t length) {
    asset.addProperty(node, {std::move(name), std::move(type), std::move(value), offset, length});
}

int Builder::addMesh(std::string name, int parent, std::uint64_t offset, std::uint64_t length) {
    const int m = int(asset.meshes.size());
    asset.meshes.emplace_back();
    asset.meshes.back().name = name;
    const int n = addNode(std::move(name), "mesh", parent, offset, length);
    asset.meshes.back().node = n;
    asset.linksOf(n).mesh = m;
    return m;
}

void Builder::trailing(ByteReader& r, int node) {
    if (r.atEnd()) return;
    const std::uint64_t at = r.offset();
    const std::size_t n = r.remaining();
    ctx.warn(at, "trailing-bytes",
             std::to_string(n) + " bytes after the last structure are not part of the blob");
    if (r.mapped()) ctx.mapRange(at, n, RangeKind::Padding, "trailing bytes", node);
    r.skip(n);
}

namespace {

bool startsWith(ByteSpan b, const void* magic, std::size_t n) {
    return b.size() >= n && std::memcmp(b.data(), magic, n) == 0;
}

std::uint32_t headerVersion(ByteSpan b, bool obfuscated) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        const std::uint8_t byte = std::uint8_t(b[6 + i] ^ (obfuscated ? keyAt(6 + i) : 0));
        v |= std::uint32_t(byte) << (8 * i);
    }
    return v;
}

void decodeReference(DecodeContext& ctx) {
    const ByteSpan bytes = ctx.bytes();
    Builder b(ctx, "CSGK");
    ctx.mapRange(0, 4, RangeKind::Header, "magic", b.root);
    ByteReader r(ctx, bytes);
    r.skip(4);
    const std::uint64_t at = r.offset();
    const std::string_view key = r.string(32, "CSGK key (32 hex digits)");
    bool hex = true;
    for (char c : key) hex = hex && std::isxdigit(static_cast<unsigned char>(c));
    if (!hex) ctx.warn(at, "bad-csgk-key", "the CSGK key is not 32 hexadecimal digits");
    ctx.mapRange(at, 32, RangeKind::Field, "key", b.root);
    b.property(b.root, "key", "string", std::string(key), at, 32);
    ctx.info(0, "csg-reference-only",
             "CSGK blob: it holds only a reference (key " + std::string(key) +
                 ") to union geometry stored elsewhere, no geometry");
    b.trailing(r, b.root);
}

int probe(ByteSpan b) {
    if (startsWith(b, kObfuscatedMagic.data(), kObfuscatedMagic.size())) {
        if (b.size() < kHeaderSize) return 60;
        const std::uint32_t v = headerVersion(b, true);
        return v == 2 || v == 4 || v == 5 ? 100 : 40;
    }
    if (startsWith(b, "CSGPHS", 6)) return b.size() >= kHeaderSize ? 100 : 60;
    if (startsWith(b, "CSGK", 4)) return b.size() >= 36 ? 100 : 50;
    return 0;
}

void decode(DecodeContext& ctx) {
    using namespace csg;
    const ByteSpan bytes = ctx.bytes();
    if (startsWith(bytes, "CSGK", 4)) return decodeReference(ctx);
    const bool graphics = startsWith(bytes, kObfuscatedMagic.data(), kObfuscatedMagic.size());
    const bool physics = startsWith(bytes, "CSGPHS", 6);
    if (!graphics && !physics)
        ctx.fail(0, "bad-header",
                 "expected a CSG union blob (obfuscated CSGMDL, CSGPHS or CSGK magic)");
    if (bytes.size() < kHeaderSize)
        ctx.fail(bytes.size(), "truncated",
                 "unexpected end of data: the CSG header needs 10 bytes, " +
                     std::to_string(bytes.size()) + " present");
    const std::uint32_t version = headerVersion(bytes, graphics);
    if (graphics) {
        if (version != 2 && version != 4 && version != 5)
            ctx.fail(
                6, "unsupported-version",
                "CSGMDL version " + std::to_string(version) + " is not supported (known: 2, 4, 5)");
        Builder b(ctx, "CSGMDL" + std::to_string(version));
        ctx.mapRange(0, kHeaderSize, RangeKind::Header, "header (obfuscated)", b.root);
        b.property(b.root, "version", "uint32", std::int64_t(version), 6, 4);
        if (version == 5)
            decodeGraphicsV5(b);
        else
            decodeGraphicsV2V4(b, version);
        return;
    }
    if (version != 0 && version != 3 && version != 5 && version != 6 && version != 7 &&
        version != 8)
        ctx.fail(6, "unsupported-version",
                 "CSGPHS version " + std::to_string(version) +
                     " is not supported (known: 0 BLOCK, 3, 5, 6, 7, 8)");
    Builder b(ctx, "CSGPHS" + std::to_string(version));
    ctx.mapRange(0, kHeaderSize, RangeKind::Header, "header", b.root);
    b.property(b.root, "version", "uint32", std::int64_t(version), 6, 4);
    decodePhysics(b, version);
}

}  // namespace

}  // namespace csg

const FormatDecoder& robloxCsgFormat() {
    static const FormatDecoder d{"roblox-csg",
                                 "Roblox CSG union",
                                 {".meshdata", ".meshdata5", ".data", ".csg"},
                                 csg::probe,
                                 csg::decode};
    return d;
}

}  // namespace meshscope
