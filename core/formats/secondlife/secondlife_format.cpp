// Second Life mesh assets: the registry entry (id, name, extensions, probe, decoder). The decoder
// is in mesh_asset.cpp, binary LLSD in llsd.cpp, the writer in secondlife_writer.cpp.
#include "formats/formats.h"
#include "formats/secondlife/mesh_asset.h"

namespace meshscope {

const FormatDecoder& secondLifeMeshFormat() {
    static const FormatDecoder d{"secondlife-mesh",
                                 "Second Life mesh asset",
                                 {".llmesh", ".slm"},
                                 secondlife::probe,
                                 secondlife::decode};
    return d;
}

}  // namespace meshscope
