// Access to the resources compiled into the binary (icon, shaders, sample asset). The resource
// library is static, so its initializer must be referenced explicitly once.
#pragma once

namespace meshscope::resources {

// Registers the embedded ":/meshscope/..." files; safe to call more than once.
void initialize();

inline constexpr const char* kSamplePath = ":/meshscope/sample.mesh";
inline constexpr const char* kIconPath = ":/meshscope/meshscope.svg";

}  // namespace meshscope::resources
