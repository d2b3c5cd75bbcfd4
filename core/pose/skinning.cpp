// Linear blend skinning on the CPU and posed bounds. The inner loop blends whole column-major
// 4x4 matrices (16 lanes: vectorises) and touches each vertex once; nothing is allocated when
// the caller reuses its output vectors.
#include <cmath>

#include "meshscope/core/pose.h"

namespace meshscope {

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
        alignas(64) float b[16] = {};
        float total = 0;
        for (int k = 0; k < 4; ++k) {
            // Branch-free: a joint without a matrix contributes weight 0 (through matrix 0).
            const std::size_t j = inf.joints[std::size_t(k)];
            const bool ok = j < jointCount;
            const float w = ok ? inf.weights[std::size_t(k)] : 0.0f;
            const float* m = matrices[ok ? j : 0].m.data();
            total += w;
            for (int e = 0; e < 16; ++e) b[e] += w * m[e];
        }
        const Vec3 p = src[v];
        if (!(total > 0)) {
            dst[v] = p;
            if (dstN) dstN[v] = srcN[v];
            continue;
        }
        const float inv = 1.0f / total;
        dst[v] = {(b[0] * p.x + b[4] * p.y + b[8] * p.z + b[12]) * inv,
                  (b[1] * p.x + b[5] * p.y + b[9] * p.z + b[13]) * inv,
                  (b[2] * p.x + b[6] * p.y + b[10] * p.z + b[14]) * inv};
        if (dstN) {
            const Vec3 nn = srcN[v];
            const Vec3 r{b[0] * nn.x + b[4] * nn.y + b[8] * nn.z,
                         b[1] * nn.x + b[5] * nn.y + b[9] * nn.z,
                         b[2] * nn.x + b[6] * nn.y + b[10] * nn.z};
            const float len2 = r.x * r.x + r.y * r.y + r.z * r.z;
            dstN[v] = len2 > 0 ? r * (1.0f / std::sqrt(len2)) : r;
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

}  // namespace meshscope
