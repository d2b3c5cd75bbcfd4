// libFuzzer target over the Roblox terrain blob (Terrain.SmoothGrid): the grid decoded within
// small caps, every kept chunk expanded, and the grid meshed, as a place's terrain pass does.
// Checks the meshes' indices against their vertices.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "meshscope/core/roblox_terrain.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> blob(data, size);
    meshscope::TerrainDecodeOptions o;
    o.maxChunks = 64;  // at most 2 M voxels an input
    o.mapped = true;
    const meshscope::TerrainGrid g = meshscope::decodeSmoothGrid(blob, o);
    if (g.error && g.error->offset > size) __builtin_trap();
    std::vector<meshscope::TerrainVoxel> voxels(g.chunkVoxels());
    for (const meshscope::TerrainChunk& c : g.chunks) {
        if (c.offset + c.length > size) __builtin_trap();
        if (!meshscope::expandTerrainChunk(blob, g, c, voxels)) __builtin_trap();  // kept: whole
    }
    meshscope::TerrainMeshOptions mo;
    mo.maxTriangles = 1u << 20;
    mo.cacheChunks = 32;
    const meshscope::TerrainMeshes m = meshscope::meshTerrain(blob, g, mo);
    for (const meshscope::Mesh* mesh : {&m.terrain, &m.water}) {
        if (mesh->normals.size() != mesh->positions.size() ||
            mesh->colors.size() != mesh->positions.size())
            __builtin_trap();
        for (std::uint32_t i : mesh->indices)
            if (i >= mesh->positions.size()) __builtin_trap();
    }
    return 0;
}
