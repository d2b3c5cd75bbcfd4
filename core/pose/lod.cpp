// LOD choice by camera distance measured in mesh radii (thresholds documented in pose.h).
#include <algorithm>
#include <cmath>

#include "meshscope/core/pose.h"

namespace meshscope {

int chooseLod(const Mesh& mesh, float cameraDistance, float meshRadius, const LodOptions& options) {
    const int count = int(mesh.lods.size());
    if (count <= 1) return 0;
    int level = 0;
    if (options.pinned >= 0) {
        level = std::min(options.pinned, count - 1);
    } else {
        if (!std::isfinite(meshRadius) || meshRadius <= 0 || std::isnan(cameraDistance)) return 0;
        const float first = options.firstSwitch > 0 ? options.firstSwitch : 8.0f;
        const float factor = options.factor > 1 ? options.factor : 2.0f;
        const double r = double(cameraDistance) / double(meshRadius);
        if (r >= first) {
            // r >= first * factor^(k-1)  ⇔  k <= 1 + log(r / first) / log(factor)
            const double k = 1.0 + std::floor(std::log(r / first) / std::log(double(factor)));
            level = k >= double(count - 1) ? count - 1 : int(k);
        }
    }
    // A level without triangles (a real v7 file can list empty ranges) shows the nearest finer
    // level that has some.
    while (level > 0 && mesh.lods[std::size_t(level)].triangleCount == 0) --level;
    return level;
}

}  // namespace meshscope
