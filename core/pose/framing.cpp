// Camera framing that ignores far-away outliers (see framing.h).
#include "meshscope/core/framing.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace meshscope {

Bounds framingBounds(std::span<const Bounds> items) {
    Bounds all;
    for (const Bounds& b : framingItems(items)) {
        all.add(b.min);
        all.add(b.max);
    }
    return all;
}

std::vector<Bounds> framingItems(std::span<const Bounds> items) {
    std::vector<Bounds> valid;
    valid.reserve(items.size());
    for (const Bounds& b : items)
        if (b.valid()) valid.push_back(b);
    std::vector<Vec3> centers;
    centers.reserve(valid.size());
    for (const Bounds& b : valid) centers.push_back(b.center());
    if (centers.size() < 3) return valid;
    // Median centre, axis by axis.
    auto median = [&](float Vec3::*axis) {
        std::vector<float> v(centers.size());
        for (std::size_t i = 0; i < centers.size(); ++i) v[i] = centers[i].*axis;
        auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
        std::nth_element(v.begin(), mid, v.end());
        return *mid;
    };
    const Vec3 m{median(&Vec3::x), median(&Vec3::y), median(&Vec3::z)};
    std::vector<float> distance(centers.size());
    for (std::size_t i = 0; i < centers.size(); ++i) {
        const Vec3 d{centers[i].x - m.x, centers[i].y - m.y, centers[i].z - m.z};
        distance[i] = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    }
    std::vector<float> sorted = distance;
    auto p90 = sorted.begin() + std::ptrdiff_t((sorted.size() - 1) * 9 / 10);
    std::nth_element(sorted.begin(), p90, sorted.end());
    // Never tighter than a few typical items: a pile of parts at one spot keeps its neighbours.
    std::vector<float> diagonals;
    diagonals.reserve(centers.size());
    for (const Bounds& b : items)
        if (b.valid()) {
            const Vec3 s = b.size();
            diagonals.push_back(std::sqrt(s.x * s.x + s.y * s.y + s.z * s.z));
        }
    auto midDiagonal = diagonals.begin() + std::ptrdiff_t(diagonals.size() / 2);
    std::nth_element(diagonals.begin(), midDiagonal, diagonals.end());
    const float limit = std::max(3.0f * *p90, 4.0f * *midDiagonal);
    if (!(limit > 0) || !std::isfinite(limit)) return valid;
    std::vector<Bounds> bulk;
    bulk.reserve(valid.size());
    for (std::size_t k = 0; k < valid.size(); ++k)
        if (distance[k] <= limit) bulk.push_back(valid[k]);
    return bulk.empty() ? valid : bulk;
}

}  // namespace meshscope
