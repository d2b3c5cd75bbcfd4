// libFuzzer target over one decoder family (MESHSCOPE_FUZZ_FORMAT = a FormatDecoder id) or, with
// "any", over the whole registry (sniffing included). Built with clang + ASan + UBSan. A Roblox
// model's result also goes where the viewer takes it: every node's properties (the properties
// panel), the parts, their instances and baked batches, sorting and picking (the 3D view).
#include <cstddef>
#include <cstdint>

#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_parts.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    meshscope::DecodeOptions options;
    // Keep memory per input modest so the fuzzer explores instead of allocating.
    options.limits.maxAllocation = 256ull << 20;
    options.limits.maxDecompressedTotal = 256ull << 20;
    const std::string format = MESHSCOPE_FUZZ_FORMAT;
    meshscope::DecodeResult r = format == "any"
                                    ? meshscope::decodeBytes({data, size}, options)
                                    : meshscope::decodeAs(format, {data, size}, options);
    // Touch the result so the decoder's output is really produced and checked by ASan.
    std::size_t sum = r.asset.byteMap.size() + r.asset.nodes.size();
    for (const auto& m : r.asset.meshes) {
        for (std::uint32_t i : m.indices) {
            if (i >= m.positions.size()) __builtin_trap();  // decoders must validate indices
        }
        sum += m.positions.size();
    }
    if (meshscope::isRobloxModel(r.asset)) {
        for (std::size_t n = 0; n < r.asset.nodes.size(); ++n)
            sum += r.asset.properties(int(n)).size();
        const auto parts = meshscope::extractRobloxParts(r.asset);
        for (const auto& g : meshscope::groupShapeInstances(parts))
            sum += meshscope::instancesBackToFront(g.instances, {0, 0, -50}, {0, 0, 1}).size();
        std::vector<meshscope::PartIndexRange> ranges;
        const auto meshes = meshscope::buildPartMeshes(parts, 4'000'000, &ranges);
        if (meshes.size() == 1)
            sum +=
                meshscope::partIndicesBackToFront(meshes[0].indices, ranges, {0, 0, -50}, {0, 0, 1})
                    .size();
        sum += std::size_t(meshscope::pickPart(parts, {0, 0, -50}, {0, 0, 1}) + 1);
    }
    return sum == 0xFFFFFFFF ? 1 : 0;
}
