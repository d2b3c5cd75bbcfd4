// Second Life mesh asset decoder internals shared by the registry entry, the writer and tests:
// block names, the probe, the decoder and the default avatar skeleton. Private to core.
#pragma once

#include <array>
#include <string_view>

#include "io/decode_context.h"

namespace meshscope::secondlife {

// The blocks that hold triangle meshes, in the order their meshes are added to the Asset. The
// Asset's mesh names are exactly these strings.
inline constexpr std::array<std::string_view, 5> kMeshBlocks = {"high_lod", "medium_lod", "low_lod",
                                                                "lowest_lod", "physics_mesh"};
inline constexpr std::string_view kPhysicsConvex = "physics_convex";
inline constexpr std::string_view kSkin = "skin";

// Versions 0..999 are major version 0; 1000 and above are a different, incompatible format.
inline constexpr std::int64_t kMaxSupportedVersion = 999;

int probe(ByteSpan bytes);
void decode(DecodeContext& ctx);

// Parent of a joint in the default Second Life avatar skeleton (classic joints plus the Bento
// spine), or "" for mPelvis and for names it does not know.
std::string_view defaultJointParent(std::string_view joint);

}  // namespace meshscope::secondlife
