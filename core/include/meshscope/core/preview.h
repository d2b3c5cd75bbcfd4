// Still pictures of an asset without a GPU or a display: what file-manager thumbnailers need
// (they run headless and sandboxed, where no OpenGL context can be made). A small scanline
// rasterizer with a depth buffer, lit like the viewer's material (headlight plus sky/ground
// hemisphere, vertex colours) and framed like the viewer's default camera.
// previewMeshes turns Z-up sources Y-up (meshscope/core/axes.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "meshscope/core/asset.h"

namespace meshscope {

// The triangles a still picture of `asset` shows, as the viewer first shows them: each mesh's
// finest level (LOD 0) only; of Second Life's levels only the finest present (high_lod before
// medium_lod ...), never the physics shape; no line meshes; a Roblox model's parts placed,
// sized and coloured (the same meshes buildPartMeshes gives the viewer): a place's Workspace,
// or, when that has nothing to draw, the parts it keeps outside Workspace. As in the viewer, a
// Roblox model's part and terrain colours are drawn as they are, and the vertex colours of other
// files' meshes tint a grey base (baked into the colours returned).
std::vector<Mesh> previewMeshes(const Asset& asset);

struct PreviewOptions {
    int width = 256;
    int height = 256;
    bool transparentBackground = true;  // else the background colour below, opaque
    Rgba8 background{58, 64, 76, 255};
    float yawDegrees = 145.f;  // the viewer's default orbit; frontViewYawDegrees(asset) (axes.h)
    float pitchDegrees = 22.f;
    float fovDegrees = 40.f;
    // Caps the work on huge meshes: triangles past this many are skipped evenly (a thumbnail of
    // a 1M-triangle mesh at 256 px loses nothing visible).
    std::size_t maxTriangles = 2'000'000;
};

struct PreviewImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgba;  // width × height × 4, rows top to bottom, straight alpha
    std::size_t trianglesDrawn = 0;  // triangles that covered at least one pixel
    std::size_t pointsDrawn = 0;     // points of point clouds that covered at least one pixel
    bool empty() const { return rgba.empty(); }
};

// Renders `meshes` (e.g. previewMeshes(asset)) framed on their bounds: vertex colours as they
// are, a mesh without them in the viewer's grey. Returns an empty image only for a size outside
// 1..8192 per side.
PreviewImage renderPreview(const std::vector<Mesh>& meshes, const PreviewOptions& options = {});

}  // namespace meshscope
