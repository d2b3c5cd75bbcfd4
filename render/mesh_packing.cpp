// Interleaving of core meshes for the GPU (see mesh_packing.h).
#include "meshscope/render/mesh_packing.h"

#include <algorithm>
#include <cstring>

namespace meshscope::render {

IndexRange lodRange(const Mesh& mesh, int lod) {
    const auto total = static_cast<std::uint32_t>(mesh.indices.size());
    const auto perPrimitive = std::uint32_t(indicesPerPrimitive(mesh.primitive));
    if (mesh.lods.empty() || lod < 0 || lod >= static_cast<int>(mesh.lods.size()))
        return lod == 0 || mesh.lods.empty() ? IndexRange{0, total} : IndexRange{0, 0};
    const LodLevel& level = mesh.lods[static_cast<std::size_t>(lod)];
    const std::uint64_t first = std::uint64_t(level.firstTriangle) * perPrimitive;
    const std::uint64_t count = std::uint64_t(level.triangleCount) * perPrimitive;
    if (first >= total) return {total, 0};
    return {static_cast<std::uint32_t>(first),
            static_cast<std::uint32_t>(std::min<std::uint64_t>(count, total - first))};
}

PackedMesh packMesh(const Mesh& mesh) {
    PackedMesh out;
    const std::size_t n = mesh.positions.size();
    out.vertexCount = static_cast<std::uint32_t>(n);
    out.lines = mesh.primitive == Primitive::Lines;
    out.points = mesh.primitive == Primitive::Points;
    // Sized by the constructor: QByteArray::resize() rounds a fresh allocation up to the next
    // power of two (a 69 MB vertex array took 134 MB).
    out.vertices = QByteArray(static_cast<qsizetype>(n * VertexLayout::kStride), Qt::Uninitialized);
    char* dst = out.vertices.data();
    const bool hasNormals = mesh.normals.size() == n;
    const bool hasColors = mesh.colors.size() == n;
    static_assert(sizeof(Rgba8) == 4);
    for (std::size_t i = 0; i < n; ++i, dst += VertexLayout::kStride) {
        std::memcpy(dst + VertexLayout::kPositionOffset, &mesh.positions[i], sizeof(Vec3));
        if (hasNormals) {
            std::memcpy(dst + VertexLayout::kNormalOffset, &mesh.normals[i], sizeof(Vec3));
        } else {
            std::memset(dst + VertexLayout::kNormalOffset, 0, sizeof(Vec3));
        }
        const Rgba8 c = hasColors ? mesh.colors[i] : Rgba8{255, 255, 255, 255};
        const std::uint8_t rgba[4] = {c.r, c.g, c.b, c.a};
        std::memcpy(dst + VertexLayout::kColorOffset, rgba, 4);
    }

    out.indexCount = static_cast<std::uint32_t>(mesh.indices.size());
    out.indices = QByteArray(static_cast<qsizetype>(mesh.indices.size() * sizeof(std::uint32_t)),
                             Qt::Uninitialized);
    if (!mesh.indices.empty())
        std::memcpy(out.indices.data(), mesh.indices.data(), mesh.indices.size() * 4);
    auto* idx = reinterpret_cast<std::uint32_t*>(out.indices.data());
    for (std::uint32_t i = 0; i < out.indexCount; ++i) {
        if (idx[i] >= out.vertexCount) {
            idx[i] = 0;
            ++out.clampedIndices;
        }
    }

    if (!mesh.indices.empty()) {
        if (mesh.lods.empty()) {
            out.lods.push_back({0, out.indexCount});
        } else {
            for (int l = 0; l < static_cast<int>(mesh.lods.size()); ++l)
                out.lods.push_back(lodRange(mesh, l));
        }
    }
    return out;
}

QByteArray packInstances(const std::vector<ShapeInstance>& instances,
                         std::span<const std::uint32_t> order) {
    const std::size_t n = order.empty() ? instances.size() : order.size();
    QByteArray out(qsizetype(n * kInstanceStride), Qt::Uninitialized);
    char* dst = out.data();
    for (std::size_t k = 0; k < n; ++k, dst += kInstanceStride) {
        const ShapeInstance& in = instances[order.empty() ? k : order[k]];
        float v[16];
        std::memcpy(v, in.transform.data(), 12 * sizeof(float));
        v[12] = in.color.r / 255.f;
        v[13] = in.color.g / 255.f;
        v[14] = in.color.b / 255.f;
        v[15] = in.color.a / 255.f;
        std::memcpy(dst, v, sizeof v);
    }
    return out;
}

}  // namespace meshscope::render
