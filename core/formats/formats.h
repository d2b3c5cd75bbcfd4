// The format families known to the registry. Each family folder defines its descriptor.
#pragma once

#include "meshscope/core/decode.h"

namespace meshscope {

const FormatDecoder& dracoFormat();
const FormatDecoder& robloxCsgFormat();
const FormatDecoder& robloxMeshFormat();
const FormatDecoder& robloxModelBinaryFormat();
const FormatDecoder& robloxModelXmlFormat();
const FormatDecoder& secondLifeMeshFormat();
const FormatDecoder& unigineFormat();

}  // namespace meshscope
