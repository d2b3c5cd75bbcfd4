// Linear blend skinning on the CPU and posed bounds. The inner loop blends whole column-major
// 4x4 matrices one column vector at a time and touches each vertex once; nothing is allocated when
// the caller reuses its output vectors.
#include <cmath>
#include <cstring>

#include "meshscope/core/pose.h"

namespace meshscope {

namespace {
// Four floats in one SSE/NEON register (GCC/Clang vector extension); one matrix column.
using F4 = float __attribute__((vector_size(16)));
inline F4 load4(const float* p) {
    F4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
}  // namespace

void skinVertices(const Mesh& mesh, std::span<const Mat4> matrices, std::vector<Vec3>& outPositions,
                  std::vector<Vec3>* outNormals) {
    const std::size_t n = mesh.positions.size();
    const bool normals = outNormals && mesh.normals.size() == n;
    outPositions.resize(n);
    if (outNormals) {
        if (normals)
            outNormals->resize(n);
        else
            outNormals->clear();  // the mesh has no (complete) normal stream
    }
    const std::size_t skinned = matrices.empty() ? 0 : std::min(mesh.skin.size(), n);
    const std::size_t jointCount = matrices.size();
    const Vec3* src = mesh.positions.data();
    const Vec3* srcN = normals ? mesh.normals.data() : nullptr;
    Vec3* dst = outPositions.data();
    Vec3* dstN = normals ? outNormals->data() : nullptr;
    const VertexInfluences* skin = mesh.skin.data();

    for (std::size_t v = 0; v < skinned; ++v) {
        const VertexInfluences& inf = skin[v];
        // The blended matrix, one 4-lane vector per column.
        F4 c0{}, c1{}, c2{}, c3{};
        float total = 0;
        for (int k = 0; k < 4; ++k) {
            // Branch-free: a joint without a matrix contributes weight 0 (through matrix 0).
            const std::size_t j = inf.joints[std::size_t(k)];
            const bool ok = j < jointCount;
            const float w = ok ? inf.weights[std::size_t(k)] : 0.0f;
            const float* m = matrices[ok ? j : 0].m.data();
            total += w;
            c0 += load4(m) * w;
            c1 += load4(m + 4) * w;
            c2 += load4(m + 8) * w;
            c3 += load4(m + 12) * w;
        }
        const Vec3 p = src[v];
        if (!(total > 0)) {
            dst[v] = p;
            if (dstN) dstN[v] = srcN[v];
            continue;
        }
        const F4 r = (c0 * p.x + c1 * p.y + c2 * p.z + c3) * (1.0f / total);
        dst[v] = {r[0], r[1], r[2]};
        if (dstN) {
            const Vec3 nn = srcN[v];
            const F4 q = c0 * nn.x + c1 * nn.y + c2 * nn.z;
            const float len2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2];
            const float s = len2 > 0 ? 1.0f / std::sqrt(len2) : 1.0f;
            dstN[v] = {q[0] * s, q[1] * s, q[2] * s};
        }
    }
    // Vertices without an influence entry keep their bind position and normal.
    for (std::size_t v = skinned; v < n; ++v) {
        dst[v] = src[v];
        if (dstN) dstN[v] = srcN[v];
    }
}

Bounds boundsOf(std::span<const Vec3> positions) {
    Bounds b;
    for (const Vec3& p : positions) b.add(p);
    return b;
}

Bounds posedBounds(const Mesh& mesh, std::span<const Mat4> matrices) {
    if (!mesh.skinned() || matrices.empty()) return boundsOf(mesh.positions);
    std::vector<Vec3> posed;
    skinVertices(mesh, matrices, posed, nullptr);
    return boundsOf(posed);
}

InfluenceBoxes influenceBoxes(const Mesh& mesh) {
    InfluenceBoxes out;
    const std::size_t n = mesh.positions.size();
    const std::size_t skinned = std::min(mesh.skin.size(), n);
    for (std::size_t v = 0; v < skinned; ++v) {
        const VertexInfluences& inf = mesh.skin[v];
        const Vec3& p = mesh.positions[v];
        bool moved = false;
        for (int k = 0; k < 4; ++k) {
            const float w = inf.weights[std::size_t(k)];
            if (w < 0) out.exact = true;
            if (!(w > 0)) continue;
            const std::size_t j = inf.joints[std::size_t(k)];
            if (out.joints.size() <= j) out.joints.resize(j + 1);
            out.joints[j].add(p);
            moved = true;
        }
        if (!moved) out.unmoved.add(p);
    }
    for (std::size_t v = skinned; v < n; ++v) out.unmoved.add(mesh.positions[v]);
    return out;
}

Bounds influenceBounds(const InfluenceBoxes& boxes, const Mesh& mesh,
                       std::span<const Mat4> matrices) {
    if (boxes.exact || matrices.empty()) return posedBounds(mesh, matrices);
    Bounds out = boxes.unmoved;
    for (std::size_t j = 0; j < boxes.joints.size(); ++j) {
        const Bounds& b = boxes.joints[j];
        if (!b.valid()) continue;
        if (j >= matrices.size()) {
            out.add(b);
            continue;
        }
        const Mat4& m = matrices[j];
        for (int c = 0; c < 8; ++c)
            out.add(transformPoint(m, {c & 1 ? b.max.x : b.min.x, c & 2 ? b.max.y : b.min.y,
                                       c & 4 ? b.max.z : b.min.z}));
    }
    return out;
}

}  // namespace meshscope
