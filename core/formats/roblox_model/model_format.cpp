// Roblox binary and XML models: registry entries. Both probes sniff content only: 2007-era
// .rbxm/.rbxl files hold XML (corpus rbxmx/InterrobangInterrogated_2007L/.../Rocket.rbxm).
#include <algorithm>
#include <cstring>
#include <string_view>

#include "formats/formats.h"
#include "formats/roblox_model/model_decoders.h"
#include "io/decode_context.h"

namespace meshscope {
namespace {

int probeBinary(ByteSpan b) {
    return b.size() >= 8 && std::memcmp(b.data(), "<roblox!", 8) == 0 ? 100 : 0;
}

// "<roblox" followed by whitespace or '>' near the start, after an optional BOM, XML
// declaration or comments.
int probeXml(ByteSpan b) {
    const std::string_view s(reinterpret_cast<const char*>(b.data()),
                             std::min<std::size_t>(b.size(), 1024));
    std::size_t at = s.find("<roblox");
    while (at != std::string_view::npos) {
        const std::size_t next = at + 7;
        if (next < s.size()) {
            const char c = s[next];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '>') return 90;
        }
        at = s.find("<roblox", next);
    }
    return 0;
}

}  // namespace

const FormatDecoder& robloxModelBinaryFormat() {
    static const FormatDecoder d{"roblox-model",
                                 "Roblox binary model",
                                 {".rbxm", ".rbxl"},
                                 probeBinary,
                                 rbx::decodeBinaryModel};
    return d;
}

const FormatDecoder& robloxModelXmlFormat() {
    static const FormatDecoder d{"roblox-model-xml",
                                 "Roblox XML model",
                                 {".rbxmx", ".rbxlx"},
                                 probeXml,
                                 rbx::decodeXmlModel};
    return d;
}

}  // namespace meshscope
