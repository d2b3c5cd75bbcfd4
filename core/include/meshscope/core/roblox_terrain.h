// Roblox smooth terrain: the Terrain.SmoothGrid voxel blob (and the same blob of TerrainRegion
// instances), Terrain.MaterialColors, and a smooth isosurface mesher over the voxels.
//
// SmoothGrid layout (rbx-dom's docs/smooth-grid.md on the checkraisefold/rbx-dom `terrain`
// branch, checked against the places in the corpus):
//   u8 version (1), u8 chunk-size exponent (5: chunks of 32³ voxels), then chunks to the end:
//   12 bytes: the chunk's position minus the previous chunk's (the first: minus 0,0,0), three
//     int32 written byte plane by byte plane, most significant plane first (x3 y3 z3 x2 y2 z2
//     x1 y1 z1 x0 y0 z0), two's complement;
//   runs until the chunk holds 32³ voxels, in order x fastest, then z, then y (index
//     y·1024 + z·32 + x): a flag byte (bits 0-5 material, bit 6 an occupancy byte follows,
//     bit 7 a count byte follows), the occupancy byte (0..255 → 0..1; without it Air is empty
//     and every other material full), the count byte: 0 means one voxel and a water-occupancy
//     byte follows (shorelines), n > 0 means n + 1 voxels.
// A voxel is 4 studs; voxel v of an axis spans [4v, 4v + 4) studs.
//
// Pure functions; no Qt.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "meshscope/core/asset.h"
#include "meshscope/core/diagnostics.h"

namespace meshscope {

// Terrain materials by their SmoothGrid index (0 Air, 1 Water, 2 Grass ... 22 Pavement).
inline constexpr int kTerrainMaterialCount = 23;
inline constexpr int kTerrainAir = 0;
inline constexpr int kTerrainWater = 1;
inline constexpr float kTerrainVoxelStuds = 4.0f;
// Name of a material index ("Grass"), nullptr past the table.
const char* terrainMaterialName(int material);
// Roblox's default colours of the materials (Terrain.MaterialColors when it is not stored);
// Air and Water are grey and the default water colour.
Rgba8 terrainDefaultColor(int material);
using TerrainColors = std::array<Rgba8, kTerrainMaterialCount>;
TerrainColors defaultTerrainColors();
// Terrain.MaterialColors: 23 RGB triplets in material order (the first two unused). Fewer
// bytes than 69 leave the defaults for the materials not covered; nullopt for an empty value.
TerrainColors decodeMaterialColors(std::span<const std::uint8_t> bytes);

struct TerrainVoxel {
    std::uint8_t material = 0;   // 0..63 (0..22 known)
    std::uint8_t occupancy = 0;  // solid occupancy, 0..255
    std::uint8_t water = 0;      // water occupancy of a shoreline voxel, 0..255
    friend bool operator==(const TerrainVoxel&, const TerrainVoxel&) = default;
};
// Solid: a material other than Air and Water with occupancy > 0. Water: material Water with
// occupancy > 0, or a water-occupancy byte > 0.
inline bool isSolidVoxel(TerrainVoxel v) {
    return v.material != kTerrainAir && v.material != kTerrainWater && v.occupancy > 0;
}
inline bool isWaterVoxel(TerrainVoxel v) {
    return (v.material == kTerrainWater && v.occupancy > 0) || v.water > 0;
}

struct TerrainChunk {
    std::int32_t x = 0, y = 0, z = 0;  // chunk coordinates (chunk · size voxels)
    std::uint64_t offset = 0;          // the chunk's header, from the start of the blob
    std::uint64_t length = 0;          // header and runs
    std::uint32_t runs = 0;
    std::uint32_t solidVoxels = 0;
    std::uint32_t waterVoxels = 0;
    bool uniform = false;  // every voxel equals `fill`
    TerrainVoxel fill;
};

struct TerrainDecodeOptions {
    // Where the blob is in the file: errors name `baseOffset`, plus the position in the blob
    // when `mapped` (the blob's bytes are the file's bytes from baseOffset on).
    std::uint64_t baseOffset = 0;
    bool mapped = false;
    std::string context = "SmoothGrid";  // context path of diagnostics
    std::uint64_t maxChunks = 1u << 18;  // 8.6 G voxels; a chunk record is ~56 bytes
    // Chunk coordinates past this (either sign) are refused: Roblox refuses grids beyond
    // 262 144 chunks (2^23 studs, where floats lose the voxel grid).
    std::int32_t maxChunkCoordinate = 262'144;
    const std::atomic<bool>* cancel = nullptr;
};

struct TerrainGrid {
    std::uint8_t version = 0;
    std::uint8_t chunkExponent = 5;
    std::vector<TerrainChunk> chunks;                // in blob order
    std::array<std::uint64_t, 64> materialVoxels{};  // non-empty voxels by material index
    std::uint64_t solidVoxels = 0;
    std::uint64_t waterVoxels = 0;
    std::uint64_t runs = 0;
    std::optional<DecodeError> error;  // the failure; `chunks` hold the whole chunks before it
    std::vector<Diagnostic> warnings;
    bool cancelled = false;

    int chunkSize() const { return 1 << chunkExponent; }
    std::size_t chunkVoxels() const {
        const std::size_t n = std::size_t(chunkSize());
        return n * n * n;
    }
    bool ok() const { return !error.has_value(); }
};

// Reads the chunk headers and walks every run (counting voxels), without a voxel array: the
// memory is one record a chunk. Never throws; a failure stops at the chunk at fault with the
// chunks before it kept.
TerrainGrid decodeSmoothGrid(std::span<const std::uint8_t> blob,
                             const TerrainDecodeOptions& options = {});

// One chunk's voxels into `out` (grid.chunkVoxels() entries, index y·n² + z·n + x). False when
// the chunk's runs do not fit (they were checked by decodeSmoothGrid: not for a chunk it kept).
bool expandTerrainChunk(std::span<const std::uint8_t> blob, const TerrainGrid& grid,
                        const TerrainChunk& chunk, std::span<TerrainVoxel> out);

struct TerrainMeshOptions {
    TerrainColors colors = defaultTerrainColors();
    Rgba8 waterColor{12, 84, 92, 178};  // Roblox defaults: WaterColor, 1 - WaterTransparency 0.3
    std::uint64_t maxTriangles = 1ull << 26;  // each surface; past it meshing stops (truncated)
    // Expanded chunks kept for their neighbours: at most the memory of this many chunks of
    // voxels (~98 KB each at 32³); real chunks, kept as runs, take a few KB.
    std::size_t cacheChunks = 1024;
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(double)> progress;  // 0..1
};

struct TerrainMeshes {
    Mesh terrain;  // "terrain": positions in studs, normals, per-vertex material colours
    Mesh water;    // "water": the water surface, colour waterColor (alpha = 1 - transparency)
    bool cancelled = false;
    bool truncated = false;  // a surface reached maxTriangles
    std::size_t chunksMeshed = 0;
};

// Chunks of a larger exponent than this (more than 64³ voxels) are not meshed (truncated).
inline constexpr int kMaxMeshedChunkExponent = 6;
// Surface nets over the solid occupancy (iso 0.5 between voxel centres) chunk by chunk, each
// chunk reading one voxel layer of its neighbours so the surfaces meet; the water surface from
// the water occupancy where it is not under solid terrain. Memory: the meshes plus the cache.
TerrainMeshes meshTerrain(std::span<const std::uint8_t> blob, const TerrainGrid& grid,
                          const TerrainMeshOptions& options = {});

// ---------------------------------------------------------------------------------------------
// Writer (tests, fuzz seeds): chunks of voxels back into a SmoothGrid blob.

struct TerrainChunkVoxels {
    std::int32_t x = 0, y = 0, z = 0;  // chunk coordinates
    std::vector<TerrainVoxel> voxels;  // (1 << exponent)³, index y·n² + z·n + x; missing: Air
};
// Version 1, the exponent, then each chunk in the order given: its position delta, then runs of
// up to 256 equal voxels (occupancy bytes only where they differ from the default; a voxel
// with water occupancy on its own, with a count of 0 and the water byte).
std::string writeSmoothGrid(std::span<const TerrainChunkVoxels> chunks, int exponent = 5);

// ---------------------------------------------------------------------------------------------
// Terrain of an asset (a Roblox place decoded by the binary or XML model decoder).

// The first node of class Terrain, or -1.
int findTerrainNode(const Asset& asset);

struct TerrainInfo {
    int node = -1;
    std::string blob;   // the SmoothGrid value
    Property property;  // the SmoothGrid property (offset, length; value cleared)
    TerrainGrid grid;
    TerrainColors colors = defaultTerrainColors();
    Rgba8 waterColor{12, 84, 92, 178};
};
// The node's SmoothGrid decoded, with its MaterialColors, WaterColor and WaterTransparency;
// nullopt when the node has no SmoothGrid value.
std::optional<TerrainInfo> readTerrain(const Asset& asset, int node);

// The surfaces of any node's SmoothGrid — a TerrainRegion (a saved copy of terrain, drawn when
// it is selected) as well as Terrain — meshed as the decoder meshes a place's terrain, in the
// node's MaterialColors and water colour (options' colours are replaced by them); the meshes'
// `node` is `node`. nullopt when the node holds no SmoothGrid; a grid that fails part-way
// meshes the chunks before the fault.
std::optional<TerrainMeshes> meshTerrainOfNode(const Asset& asset, int node,
                                               TerrainMeshOptions options = {});

}  // namespace meshscope
