// Unigine mi08 .mesh (static geometry): signature, bounds of the whole mesh, surface count, all
// surface headers (name + bounds), then all surface data blocks (vertices with compressed
// normals, two texture coordinate sets, triangles with 16- or 32-bit indices).
#include "formats/unigine/unigine_internal.h"

namespace meshscope::unigine {
namespace {

// Bounding box min/max, sphere centre and radius: 10 floats. Added as properties of `node`.
void readBounds(DecodeContext& ctx, ByteReader& r, int node) {
    auto s = ctx.scope("bounds");
    const std::size_t start = r.pos();
    Vec3 mn = r.read<Vec3>("bounding box minimum");
    Vec3 mx = r.read<Vec3>("bounding box maximum");
    Vec3 center = r.read<Vec3>("bounding sphere centre");
    float radius = r.f32("bounding sphere radius");
    auto& props = ctx.asset().propertyList(node);
    const std::uint64_t at = r.offsetOf(start);
    props.push_back({"boundMin", "Vector3", mn, at, 12});
    props.push_back({"boundMax", "Vector3", mx, at + 12, 12});
    props.push_back({"sphereCenter", "Vector3", center, at + 24, 12});
    props.push_back({"sphereRadius", "float", double(radius), at + 36, 4});
    ctx.mapRange(at, 40, RangeKind::Record, {}, node);
    ctx.mapRange(at, 12, RangeKind::Field, "boxMin", node);
    ctx.mapRange(at + 12, 12, RangeKind::Field, "boxMax", node);
    ctx.mapRange(at + 24, 12, RangeKind::Field, "sphereCenter", node);
    ctx.mapRange(at + 36, 4, RangeKind::Field, "sphereRadius", node);
}

// Vertex record: position float[3] + normal unsigned short[3] = 18 bytes (not a multiple of 4,
// so the array is copied record by record out of one bounds-checked span).
constexpr std::size_t kVertexSize = 18;

void readVertices(DecodeContext& ctx, ByteReader& r, Mesh& mesh, int node) {
    auto s = ctx.scope("vertices");
    const std::size_t start = r.pos();
    const std::size_t n = readVertexCount(ctx, r);
    r.checkCount(n, kVertexSize, "vertices");
    const ByteSpan raw = r.bytes(n * kVertexSize, "vertices");
    mesh.positions.resize(n);
    mesh.normals.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        if ((i & 0xffff) == 0) ctx.checkCancel(r.offsetOf(start + 4 + i * kVertexSize));
        const std::uint8_t* v = raw.data() + i * kVertexSize;
        std::memcpy(&mesh.positions[i], v, 12);
        std::uint16_t c[3];
        std::memcpy(c, v + 12, 6);
        mesh.normals[i] = {decompressNormal(c[0]), decompressNormal(c[1]), decompressNormal(c[2])};
    }
    warnNonFinitePositions(ctx, mesh, r.offsetOf(start + 4));
    ctx.mapRange(r.offsetOf(start), r.pos() - start, RangeKind::Array, {}, node);
    ctx.mapRange(r.offsetOf(start), 4, RangeKind::Field, "count", node);
    ctx.asset().addProperty(node, {"vertexCount", "int32", std::int64_t(n), r.offsetOf(start), 4});
}

}  // namespace

void decodeMesh(DecodeContext& ctx) {
    Asset& a = ctx.asset();
    ByteReader r(ctx, ctx.bytes());
    const FileStart file = readSignature(ctx, r, "Unigine mesh", "mi08", RangeKind::Field);
    const int root = file.root, header = file.header;
    std::size_t surfaceCount = 0;
    {
        auto s = ctx.scope("header");
        const int bounds = a.addNode("bounds", "bounds", header);
        readBounds(ctx, r, bounds);
        a.nodes[bounds].offset = 4;
        a.nodes[bounds].length = 40;
        const std::size_t countAt = r.pos();
        // Smallest surface: header (name length 0 + 40 bytes of bounds) + data (four zero ints).
        surfaceCount = r.checkCount(readCount(r, "surface count"), 44 + 16, "surfaces");
        a.addProperty(header, {"surfaceCount", "int32", std::int64_t(surfaceCount), countAt, 4});
        ctx.mapRange(countAt, 4, RangeKind::Field, "surfaceCount", header);
        a.nodes[header].offset = 0;
        a.nodes[header].length = r.pos();
        ctx.mapRange(0, r.pos(), RangeKind::Header, {}, header);
    }

    // Every surface header comes before every surface data block.
    const SurfaceHeaders surfaces = readSurfaceHeaders(ctx, r, root, surfaceCount, readBounds);
    readSurfaceData(ctx, r, surfaces,
                    [&](Mesh& mesh, int node) { readVertices(ctx, r, mesh, node); });
    mapTrailingBytes(ctx, r, "the last surface");
}

}  // namespace meshscope::unigine
