// libFuzzer target over one decoder family (MESHSCOPE_FUZZ_FORMAT = a FormatDecoder id) or, with
// "any", over the whole registry (sniffing included). Built with clang + ASan + UBSan.
#include <cstddef>
#include <cstdint>

#include "meshscope/core/decode.h"

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
    return sum == 0xFFFFFFFF ? 1 : 0;
}
