// placeholder: replaced by the FileMesh decoder
#include <cstring>
#include "formats/formats.h"
#include "io/decode_context.h"
namespace meshscope {
namespace {
int probe(ByteSpan b) { return b.size() >= 12 && std::memcmp(b.data(), "version ", 8) == 0 && b[8] >= '1' && b[8] <= '7' ? 100 : 0; }
void decode(DecodeContext& ctx) { ctx.fail(0, "unsupported", "not yet"); }
}
const FormatDecoder& robloxMeshFormat() {
    static const FormatDecoder d{"roblox-mesh", "Roblox FileMesh", {".mesh"}, probe, decode};
    return d;
}
}
