// Roblox binary and XML models: registry entries (decoders arrive with the models issue).
#include <cstring>

#include "formats/formats.h"
#include "io/decode_context.h"

namespace meshscope {
namespace {
int probeBinary(ByteSpan b) { return b.size() >= 8 && std::memcmp(b.data(), "<roblox!", 8) == 0 ? 100 : 0; }
int probeXml(ByteSpan b) {
    const std::string_view s(reinterpret_cast<const char*>(b.data()), std::min<std::size_t>(b.size(), 512));
    return s.find("<roblox") != std::string_view::npos && s.find("<roblox!") == std::string_view::npos ? 90 : 0;
}
void unsupported(DecodeContext& ctx) { ctx.fail(0, "unsupported", "Roblox models are not decoded yet"); }
}  // namespace
const FormatDecoder& robloxModelBinaryFormat() {
    static const FormatDecoder d{"roblox-model", "Roblox binary model", {".rbxm", ".rbxl"}, probeBinary, unsupported};
    return d;
}
const FormatDecoder& robloxModelXmlFormat() {
    static const FormatDecoder d{"roblox-model-xml", "Roblox XML model", {".rbxmx", ".rbxlx"}, probeXml, unsupported};
    return d;
}
}  // namespace meshscope
