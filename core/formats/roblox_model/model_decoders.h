// Entry points of the Roblox model decoders (binary .rbxm/.rbxl and XML .rbxmx/.rbxlx), called
// from the registry entries in model_format.cpp.
#pragma once

#include "io/decode_context.h"

namespace meshscope::rbx {

void decodeBinaryModel(DecodeContext& ctx);
void decodeXmlModel(DecodeContext& ctx);
// After a model's tree is whole: its Terrain's SmoothGrid meshed into asset meshes "terrain" and
// "water" (node: the Terrain), the grid's chunks in the byte map where the value's bytes are the
// file's, and its problems as warnings (terrain.cpp).
void addTerrain(DecodeContext& ctx);

}  // namespace meshscope::rbx
