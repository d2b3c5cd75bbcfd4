// Roblox CSG union blobs: what a union (UnionOperation, NegateOperation, IntersectOperation,
// PartOperation) keeps in MeshData / MeshData2 (graphics, "CSGMDL") and PhysicsData (convex
// hulls, "CSGPHS"). Decoding goes through the registry (format "roblox-csg"); this header adds the
// writers used for fixtures and round trips, and the helper the model side uses to turn a
// property value into a mesh.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "meshscope/core/asset.h"

namespace meshscope {

struct CsgGraphicsWriteOptions {
    int version = 2;  // 2 or 4 (both obfuscated on disk like Roblox's)
    // The 32-byte hash block (16 bytes shown as text in real blobs, 16 more); padded with zero
    // bytes, cut when longer.
    std::string hash = "0123456789abcdef";
    Bytes hashExtra;
    std::vector<std::uint32_t> extra;  // version 4's trailing u32 list
    // Each vertex's normal id (the side of the part it came from), as the decoder keeps it in
    // the mesh node's "normalIds" property; vertices past its end get their normal's largest
    // axis.
    Bytes normalIds;
};

// Writes mesh `mesh` (positions, normals, colours, UV0, tangents; missing streams as zeros, white
// for colours) and its triangle list as a CSGMDL 2 or 4 blob. A vertex's normal id (1 +X,
// 2 +Y, 3 +Z, 4 −X, 5 −Y, 6 −Z) comes from options.normalIds, else its normal's largest axis.
// An empty
// result means a version other than 2 or 4, or counts past u32.
Bytes writeCsgGraphics(const Mesh& mesh, const CsgGraphicsWriteOptions& options = {});

// Writes convex hulls (one mesh each: positions and triangles) as a CSGPHS 3 or 5 blob. Empty
// for another version.
Bytes writeCsgPhysics(const std::vector<Mesh>& hulls, int version = 3);

// The union graphics a blob holds, for the model side: decodes it (CSGMDL, or CSGPHS hulls
// merged into one mesh) and returns its mesh, or nothing with the reason in `why` (a CSGK
// reference, a broken blob ...). `fromPhysics` says the mesh came from physics hulls.
struct CsgMeshResult {
    std::optional<Mesh> mesh;
    std::string format;      // "CSGMDL2", "CSGK" ...
    std::string why;         // when there is no mesh
    bool reference = false;  // a CSGK blob: the geometry lives elsewhere
    std::string key;         // the CSGK key, when a reference
};
CsgMeshResult decodeCsgMesh(std::span<const std::uint8_t> blob);

}  // namespace meshscope
