// Build-time generator of the sample asset the viewer opens when started without a file: a
// sphere with four levels of detail, written as a Roblox FileMesh 4.00 by core's writer.
// Usage: meshscope_make_sample OUT.mesh
#include <cstdio>
#include <fstream>

#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/roblox_mesh_writer.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUT.mesh\n", argv[0]);
        return 2;
    }
    meshscope::Asset asset = meshscope::makeLodSphere(4);
    if (!asset.meshes.empty()) asset.meshes[0].name = "Sample sphere";
    meshscope::FileMeshWriteOptions options;
    options.version = "4.00";
    options.lodType = 3;  // ZeuxMeshOptimizer, as in real files
    const meshscope::FileMeshWriteResult written = meshscope::writeFileMesh(asset, 0, options);
    if (!written.ok()) {
        std::fprintf(stderr, "make_sample: %s\n", written.error->c_str());
        return 1;
    }
    for (const auto& w : written.warnings)
        std::fprintf(stderr, "make_sample: warning: %s\n", w.c_str());
    std::ofstream out(argv[1], std::ios::binary);
    out.write(reinterpret_cast<const char*>(written.bytes.data()),
              static_cast<std::streamsize>(written.bytes.size()));
    return out ? 0 : 1;
}
