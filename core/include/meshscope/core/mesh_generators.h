// Deterministic procedural meshes for tests, benchmarks and the viewer's built-in samples. Each
// function returns an Asset holding one mesh (format "generated") with every vertex stream filled
// (positions, normals, UVs, tangents, colours), its triangles and LOD ranges, and, where the name
// says so, a skeleton, skin weights and a FACS rig. The same arguments always give the same bytes.
#pragma once

#include <cstdint>

#include "meshscope/core/asset.h"

namespace meshscope {

// A UV sphere of radius `radius`: (rings + 1) × (segments + 1) vertices (the seam column is
// duplicated), 2 × rings × segments triangles minus the degenerate pole ones. rings ≥ 2,
// segments ≥ 3. One LOD.
Asset makeUvSphere(int rings = 12, int segments = 16, float radius = 1.0f);

// An open tube along +Y skinned to a chain of `bones` bones (≥ 2) named "Bone0", "Bone1" ...,
// each parented to the previous one and turned a little about Y so that bone matrices are not
// identities. Every vertex is weighted to the two bones nearest its height (weights sum to 1).
// With more than 26 bones the FileMesh writer must split the mesh into several subsets.
Asset makeSkinnedCylinder(int bones = 3, int rings = 12, int segments = 16, float height = 4.0f,
                          float radius = 0.5f);

// `levels` (≥ 1) spheres of decreasing detail stored one after another: LOD n has its own
// vertices and the triangle range [lodOffsets[n], lodOffsets[n + 1]); LOD n has rings >> n
// rings and segments >> n segments (at least 2 and 3).
Asset makeLodSphere(int levels = 3, int rings = 16, int segments = 24);

// A small sphere-like head (12 × 16) with a skeleton "Root" → "Head" → face bones "Jaw",
// "LeftUpperEyelid", "LeftLowerEyelid", skin weights on Head and Jaw, and a FacsRig with the
// controls "c_JD" and "l_EC", a two-pose corrective (c_JD, l_EC) and a three-pose corrective
// (l_EC, c_JD, l_EC). Rows are the three face bones; values are facsHeadValue().
Asset makeFacsHead();
// The value makeFacsHead() stores at (channel, row, column); rotations (channels 3..5) in degrees.
float facsHeadValue(int channel, std::uint32_t row, std::uint32_t col);

// A flat grid in the XZ plane with exactly `triangleCount` triangles (the last quad row may be
// partial) for benchmarks; about triangleCount / 2 vertices. One LOD.
Asset makeGridMesh(std::uint32_t triangleCount);

}  // namespace meshscope
