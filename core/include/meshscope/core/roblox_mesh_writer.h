// Roblox FileMesh writer, versions 2.00 to 7.00 (7.00 through libdraco). Used by the tests to
// make fixtures and by conversion. Writes one Asset mesh with its skeleton, skin and FACS rig.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "meshscope/core/asset.h"

namespace meshscope {

struct FileMeshWriteOptions {
    std::string version = "4.00";  // "2.00", "3.00", "3.01", "4.00", "4.01", "5.00", "6.00", "7.00"
    bool vertexColors = true;      // v2.00: 40-byte vertices with RGBA (false: 36-byte vertices)
    // v7.00: Draco quantization bits for positions / normals / UVs (0 = lossless floats).
    int dracoPositionBits = 0;
    int dracoNormalBits = 0;
    int dracoUvBits = 0;
    int dracoSpeed = 5;  // 0 (best compression) .. 10 (fastest)
    // v7.00 may also hold a plain COREMESH v1 chunk (real files do).
    bool plainCoreMeshInV7 = false;
    // v5.00+: FACS QuantizedMatrix version: 2 = u16 quantized between min and max, 1 = raw floats.
    int facsMatrixVersion = 2;
    // v4.00+: the header's / LODS chunk's lodType (0 None, 1 Unknown, 2 RbxSimplifier,
    // 3 ZeuxMeshOptimizer) and numHighQualityLODs (every real file holds 1).
    int lodType = 0;
    int numHighQualityLods = 1;
};

struct FileMeshWriteResult {
    Bytes bytes;
    std::vector<std::string> warnings;  // one per feature the version cannot hold (dropped)
    std::optional<std::string> error;   // set when nothing could be written
    bool ok() const { return !error.has_value(); }
};

// Skinned meshes are split into subsets of at most 26 bones that do not cross LOD boundaries;
// a subset's faces use only its own vertex range, so a vertex shared by two subsets is written
// twice. Face order and LOD offsets are kept; vertex order is kept whenever no vertex has to be
// shared (always for unskinned meshes).
FileMeshWriteResult writeFileMesh(const Asset& asset, int meshIndex = 0,
                                  const FileMeshWriteOptions& options = {});

}  // namespace meshscope
