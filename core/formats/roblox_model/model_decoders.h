// Entry points of the Roblox model decoders (binary .rbxm/.rbxl and XML .rbxmx/.rbxlx), called
// from the registry entries in model_format.cpp.
#pragma once

#include "io/decode_context.h"

namespace meshscope::rbx {

void decodeBinaryModel(DecodeContext& ctx);
void decodeXmlModel(DecodeContext& ctx);

}  // namespace meshscope::rbx
