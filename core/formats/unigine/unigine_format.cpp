// Unigine meshes and animations: registry entry (decoder arrives with the Unigine issue).
#include "formats/formats.h"
#include "io/decode_context.h"

namespace meshscope {
namespace {
int probe(ByteSpan b) { return 0; }
void unsupported(DecodeContext& ctx) { ctx.fail(0, "unsupported", "Unigine files are not decoded yet"); }
}  // namespace
const FormatDecoder& unigineFormat() {
    static const FormatDecoder d{"unigine", "Unigine mesh", {".mesh", ".smesh", ".sanim"}, probe, unsupported};
    return d;
}
}  // namespace meshscope
