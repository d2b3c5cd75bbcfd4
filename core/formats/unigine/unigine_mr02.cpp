// Unigine mr02 .mesh (the 2005 open-source engine). Not in the format document; the layout was
// established from the four real files in corpus/unigine/4DA_Unigine-legacy (each parses to its
// exact size, every vertex count is a multiple of 3 and every normal has unit length):
//   "mr02", int surface count, then per surface: char[128] NUL-padded name, int vertex count,
//   vertices of 8 floats (position xyz, normal xyz, texture coordinate uv).
// There are no indices: the vertices are a plain triangle list.
#include "formats/unigine/unigine_internal.h"
#include "meshscope/core/error_codes.h"

namespace meshscope::unigine {
namespace {

constexpr std::size_t kNameSize = 128;
constexpr std::size_t kVertexFloats = 8;

}  // namespace

void decodeMeshMr02(DecodeContext& ctx) {
    Asset& a = ctx.asset();
    ByteReader r(ctx, ctx.bytes());
    const FileStart file = readSignature(ctx, r, "Unigine mesh", "mr02", RangeKind::Field);
    const int root = file.root, header = file.header;
    std::size_t surfaceCount = 0;
    {
        auto s = ctx.scope("header");
        surfaceCount = r.checkCount(readCount(r, "surface count"), kNameSize + 4, "surfaces");
        a.addProperty(header, {"surfaceCount", "int32", std::int64_t(surfaceCount), 4, 4});
        ctx.mapRange(4, 4, RangeKind::Field, "surfaceCount", header);
        a.nodes[header].offset = 0;
        a.nodes[header].length = 8;
        ctx.mapRange(0, 8, RangeKind::Header, {}, header);
    }
    for (std::size_t i = 0; i < surfaceCount; ++i) {
        ctx.checkCancel(r.offset());
        auto s = ctx.scope("surfaces[" + std::to_string(i) + "]");
        const std::size_t start = r.pos();
        const std::string_view raw = r.string(kNameSize, "surface name");
        Mesh mesh;
        mesh.name = std::string(raw.substr(0, raw.find('\0')));
        const int node = a.addNode(mesh.name, "surface", root);
        a.addProperty(node, {"name", "string", mesh.name, r.offsetOf(start), kNameSize});
        ctx.mapRange(r.offsetOf(start), kNameSize, RangeKind::Field, "name", node);

        auto v = ctx.scope("vertices");
        const std::size_t countAt = r.pos();
        const std::size_t n = readVertexCount(ctx, r);
        std::vector<float> data;
        r.readArray(data,
                    std::uint64_t(r.checkCount(n, kVertexFloats * 4, "vertices")) * kVertexFloats,
                    "vertices");
        mesh.positions.resize(n);
        mesh.normals.resize(n);
        mesh.uv0.resize(n);
        for (std::size_t k = 0; k < n; ++k) {
            const float* f = data.data() + k * kVertexFloats;
            mesh.positions[k] = {f[0], f[1], f[2]};
            mesh.normals[k] = {f[3], f[4], f[5]};
            mesh.uv0[k] = {f[6], f[7]};
        }
        warnNonFinitePositions(ctx, mesh, r.offsetOf(countAt + 4));
        ctx.mapRange(r.offsetOf(countAt), 4, RangeKind::Field, "count", node);
        ctx.mapRange(r.offsetOf(countAt), r.pos() - countAt, RangeKind::Array, {}, node);
        if (n % 3) {
            ctx.warn(r.offsetOf(countAt), errc::kPartialTriangle,
                     "vertex count " + std::to_string(n) +
                         " is not a multiple of 3; the last vertices form no triangle");
        }
        const std::size_t triangles = n / 3;
        mesh.indices.resize(triangles * 3);
        for (std::size_t k = 0; k < mesh.indices.size(); ++k)
            mesh.indices[k] = static_cast<std::uint32_t>(k);
        mesh.lods = {LodLevel{0, static_cast<std::uint32_t>(triangles), "LOD0"}};
        mesh.surfaces = {Surface{mesh.name, 0, static_cast<std::uint32_t>(triangles), 0,
                                 static_cast<std::uint32_t>(n)}};
        auto& props = a.propertyList(node);
        props.push_back({"vertexCount", "int32", std::int64_t(n), r.offsetOf(countAt), 4});
        props.push_back({"triangleCount", "int32", std::int64_t(triangles)});
        addSurfaceMesh(ctx, r, start, node, std::move(mesh), {});
    }
    mapTrailingBytes(ctx, r, "the last surface");
}

}  // namespace meshscope::unigine
