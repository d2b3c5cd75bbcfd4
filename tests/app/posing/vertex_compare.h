// Shared by the posing tests: positions read back from the interleaved vertex bytes the render
// layer uploads (render::VertexLayout), and the largest per-axis distance between two sets.
#pragma once

#include <QByteArray>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "meshscope/core/types.h"
#include "meshscope/render/mesh_packing.h"

namespace meshscope::test {

inline std::vector<Vec3> positionsOf(const QByteArray& vertices) {
    std::vector<Vec3> out(std::size_t(vertices.size()) / render::VertexLayout::kStride);
    for (std::size_t i = 0; i < out.size(); ++i)
        std::memcpy(&out[i], vertices.constData() + i * render::VertexLayout::kStride,
                    sizeof(Vec3));
    return out;
}

// Infinite when the sets differ in size.
inline float maxDistance(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    float worst = a.size() == b.size() ? 0.0f : INFINITY;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
        worst = std::max({worst, std::fabs(a[i].x - b[i].x), std::fabs(a[i].y - b[i].y),
                          std::fabs(a[i].z - b[i].z)});
    return worst;
}

}  // namespace meshscope::test
