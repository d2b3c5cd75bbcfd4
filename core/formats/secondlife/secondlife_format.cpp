// Second Life mesh assets: registry entry (decoder arrives with the Second Life issue).
#include "formats/formats.h"
#include "io/decode_context.h"

namespace meshscope {
namespace {
int probe(ByteSpan b) { return 0; }
void unsupported(DecodeContext& ctx) { ctx.fail(0, "unsupported", "Second Life mesh assets are not decoded yet"); }
}  // namespace
const FormatDecoder& secondLifeMeshFormat() {
    static const FormatDecoder d{"secondlife-mesh", "Second Life mesh asset", {".llmesh", ".slm"}, probe, unsupported};
    return d;
}
}  // namespace meshscope
