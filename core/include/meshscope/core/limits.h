// The one place that defines the caps applied to untrusted input. Exceeding a cap is a decode
// error that names the cap and the offset.
#pragma once

#include <algorithm>
#include <cstdint>

namespace meshscope {

struct Limits {
    // Largest single allocation made from a count read from a file.
    std::uint64_t maxAllocation = 1ull << 30;  // 1 GiB
    // Total bytes all decompressions of one file may produce: min(this, ratio × file size) but
    // never below `minDecompressedTotal` (tiny files with highly compressible chunks exist).
    std::uint64_t maxDecompressedTotal = 1ull << 30;  // 1 GiB
    std::uint64_t decompressionRatio = 64;
    std::uint64_t minDecompressedTotal = 8ull << 20;  // 8 MiB
    // Nesting depth of recursive structures (LLSD maps/arrays, XML items, instance trees).
    std::uint32_t maxDepth = 512;
    // Instances in one model or place.
    std::uint64_t maxInstances = 10'000'000;
    // Vertices / faces in one mesh.
    std::uint64_t maxVertices = 1ull << 28;
    std::uint64_t maxTriangles = 1ull << 28;

    std::uint64_t decompressionBudget(std::uint64_t fileSize) const {
        const std::uint64_t byRatio = fileSize > maxDecompressedTotal / decompressionRatio
                                          ? maxDecompressedTotal
                                          : fileSize * decompressionRatio;
        return std::min(maxDecompressedTotal, std::max(byRatio, minDecompressedTotal));
    }
};

}  // namespace meshscope
