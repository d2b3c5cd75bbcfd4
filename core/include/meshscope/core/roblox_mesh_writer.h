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
};

struct FileMeshWriteResult {
    Bytes bytes;
    std::vector<std::string> warnings;  // one per feature the version cannot hold (dropped)
    std::optional<std::string> error;   // set when nothing could be written
    bool ok() const { return !error.has_value(); }
};

FileMeshWriteResult writeFileMesh(const Asset& asset, int meshIndex = 0,
                                  const FileMeshWriteOptions& options = {});

}  // namespace meshscope
