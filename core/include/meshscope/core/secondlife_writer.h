// Second Life mesh asset writer: a binary LLSD header and zlib-compressed LLSD blocks, from an
// Asset laid out as the Second Life decoder produces it. Used by the tests for round trips and by
// conversion.
//
// What is written:
// - A block per mesh named "high_lod", "medium_lod", "low_lod", "lowest_lod", "physics_mesh"
//   (triangle meshes). An asset with no "high_lod" mesh gets its first triangle mesh written as
//   high_lod (with a warning). Each Surface becomes a submesh ("face"); a surface with no
//   triangles becomes a NoGeometry placeholder. Positions, normals and UVs are quantized to u16
//   with a per-face domain (the face's bounds); UVs are flipped back to SL's V-up convention.
// - "skin" when the high_lod mesh is skinned: joint_names = the skeleton's bone names, weights =
//   the mesh's influences (zero weights are left out), inverse_bind_matrix = Bone::inverseBind ×
//   inverse(bind_shape_matrix) (the decoder folds bind_shape_matrix into Bone::inverseBind).
//   bind_shape_matrix, alt_inverse_bind_matrix, pelvis_offset and lock_scale_if_joint_position
//   come from the options, else from the properties of the asset's "skin" node, as the decoder
//   leaves them.
// - "physics_convex" from a line mesh named "physics_convex": the surface "BoundingVerts" becomes
//   BoundingVerts, every other surface one hull of HullList/Positions (at most 256 points each),
//   quantized into Min/Max = the points' bounds.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "meshscope/core/asset.h"

namespace meshscope {

struct SecondLifeWriteOptions {
    std::optional<std::int32_t> version = 1;  // header "version"; nullopt writes no version key
    std::optional<std::array<std::uint8_t, 16>> creator;  // header "creator" UUID
    std::optional<double> date;                           // header "date", seconds since 1970
    bool llsdHeader = false;  // start every inflated block with "<? LLSD/Binary ?>\n"
    bool normals = true;
    bool texCoords = true;
    bool skin = true;           // write the skin block and Weights when the mesh is skinned
    bool physicsConvex = true;  // write physics_convex when the asset has that line mesh
    // Skin extras; when unset, taken from the asset's "skin" node properties.
    std::optional<Mat4> bindShapeMatrix;
    std::optional<std::vector<Mat4>> altInverseBindMatrices;
    std::optional<double> pelvisOffset;
    std::optional<bool> lockScaleIfJointPosition;
    Bytes trailingBytes;  // appended after the last block (real assets carry stray bytes there)
    int compressionLevel = 9;  // zlib level; 9 gives the "78 da" header real assets have
};

struct SecondLifeWriteResult {
    Bytes bytes;
    std::vector<std::string> warnings;  // one per thing that could not be written as it was
    std::optional<std::string> error;   // set when nothing could be written
    bool ok() const { return !error.has_value(); }
};

SecondLifeWriteResult writeSecondLifeMesh(const Asset& asset,
                                          const SecondLifeWriteOptions& options = {});

}  // namespace meshscope
