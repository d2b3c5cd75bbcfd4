// CPU side of the mesh upload: packs a core Mesh into one interleaved vertex array and one index
// array, and computes the index range each LOD draws. Pure (no Qt 3D), so tests check it directly.
#pragma once

#include <QByteArray>
#include <cstdint>
#include <span>
#include <vector>

#include "meshscope/core/asset.h"
#include "meshscope/core/roblox_parts.h"

namespace meshscope::render {

// Interleaved vertex layout, 28 bytes a vertex: position (3 floats), normal (3 floats, zero when
// the mesh has none), colour (4 unsigned bytes RGBA, read as normalized 0..1; white when none).
// Texture coordinates are not packed: no material samples a texture. (Floats for colours and
// UVs took 48 bytes a vertex: 10 MB more for a 500 000-vertex mesh, in Qt 3D and again in the
// GL driver.)
struct VertexLayout {
    static constexpr int kPositionOffset = 0;
    static constexpr int kNormalOffset = 12;
    static constexpr int kColorOffset = 24;
    static constexpr int kStride = 28;
};

// A run of Mesh::indices: what one draw call of a LOD covers.
struct IndexRange {
    std::uint32_t first = 0;  // first index (not triangle)
    std::uint32_t count = 0;  // number of indices
    friend bool operator==(const IndexRange&, const IndexRange&) = default;
};

struct PackedMesh {
    QByteArray vertices;  // vertexCount × VertexLayout::kStride bytes
    QByteArray indices;   // uint32 indices, every LOD together
    std::uint32_t vertexCount = 0;
    std::uint32_t indexCount = 0;
    bool lines = false;            // Primitive::Lines
    bool points = false;           // Primitive::Points
    std::vector<IndexRange> lods;  // one per LOD, at least one when indices exist
    // Indices that pointed past the vertex arrays and were replaced by 0 (a decoder reports them
    // as warnings; the GPU must never see them).
    std::uint32_t clampedIndices = 0;
};

PackedMesh packMesh(const Mesh& mesh);

// Per-instance records of an instanced mesh, kInstanceStride bytes each: the 12 floats of the
// instance transform (three rows of four), then its colour as 4 floats 0..1. In `order` (indices
// into `instances`, each below its size) when one is given, else in their own order.
inline constexpr int kInstanceStride = 64;
QByteArray packInstances(const std::vector<ShapeInstance>& instances,
                         std::span<const std::uint32_t> order = {});

// Index range of `lod` clamped to the index array; an empty mesh gives {0, 0}.
IndexRange lodRange(const Mesh& mesh, int lod);

}  // namespace meshscope::render
