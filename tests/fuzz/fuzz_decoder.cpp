// libFuzzer target over one decoder family (MESHSCOPE_FUZZ_FORMAT = a FormatDecoder id) or, with
// "any", over the whole registry (sniffing included). Built with clang + ASan + UBSan. A Roblox
// model's result also goes where the viewer takes it: every node's properties (the properties
// panel), the parts, their instances and baked batches, sorting and picking (the 3D view). Every
// result's node tree is checked as the views assume it.
#include <cstddef>
#include <cstdint>

#include "formats/roblox_model/model_decoders.h"
#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_parts.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // Fuzz inputs are small: let each input's bytes pick whether a binary model's chunks are
    // inflated on the worker thread, so that both paths are fuzzed.
    meshscope::rbx::setInflatePathByInput(true);
    return 0;
}

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
    // The node tree as every view walks it: names and kinds within their stores, each child
    // listed by its parent (whatever the decoder, the registry or the decoder vouches for it).
    const meshscope::Asset& a = r.asset;
    for (std::size_t n = 0; n < a.nodes.size(); ++n) {
        const meshscope::Node& node = a.nodes[n];
        if (node.nameAt > a.nodeText.size() || node.nameSize > a.nodeText.size() - node.nameAt ||
            node.kindId >= a.kinds.size())
            __builtin_trap();
        sum += a.name(int(n)).size() + a.kind(int(n)).size();
        for (int c : a.children(int(n)))
            if (c < 0 || std::size_t(c) >= a.nodes.size() ||
                a.nodes[std::size_t(c)].parent != int(n))
                __builtin_trap();
    }
    for (const auto& m : r.asset.meshes) {
        for (std::uint32_t i : m.indices) {
            if (i >= m.positions.size()) __builtin_trap();  // decoders must validate indices
        }
        sum += m.positions.size();
    }
    // What `info` decodes: a mesh whose arrays were left in the file holds none and counts what
    // the full decode loaded, and the two agree on success.
    if (!r.asset.meshes.empty()) {
        meshscope::DecodeOptions lean = options;
        lean.loadGeometry = false;
        const meshscope::DecodeResult l = format == "any"
                                              ? meshscope::decodeBytes({data, size}, lean)
                                              : meshscope::decodeAs(format, {data, size}, lean);
        if (l.ok() != r.ok() || l.asset.meshes.size() != r.asset.meshes.size()) __builtin_trap();
        for (std::size_t i = 0; i < l.asset.meshes.size(); ++i) {
            const meshscope::Mesh &m = l.asset.meshes[i], &full = r.asset.meshes[i];
            if (m.unloaded && (!m.positions.empty() || !m.indices.empty())) __builtin_trap();
            if (m.vertexCount() != full.vertexCount() ||
                m.triangleCount() != full.triangleCount() || m.lods.size() != full.lods.size())
                __builtin_trap();
        }
        sum += l.asset.diagnostics.size();
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
